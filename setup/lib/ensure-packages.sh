# shellcheck shell=bash
# ensure_packages WHO PACKAGE...: install the Debian packages that are not installed yet.
# Runs `apt-get update` only when something is missing, so a second run is quick and offline.
# WHO names the calling script in messages. Sourced by setup/<area>.sh.
ensure_packages() {
  local who=$1; shift
  local missing=() p
  for p in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
      missing+=("$p")
    fi
  done
  if ((${#missing[@]} == 0)); then
    return 0
  fi
  if [[ $(id -u) -ne 0 ]]; then
    echo "$who: missing Debian packages ${missing[*]}; run this script as root" >&2
    return 1
  fi
  echo "$who: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
