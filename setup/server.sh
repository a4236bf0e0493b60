#!/usr/bin/env bash
# System tools the server stage (scripts/server/) needs on a Debian 12 host: taskset
# (util-linux) pins mysqld to the host class's CPUs; ss (iproute2) names the process that
# holds a busy port; procps for ps/kill in diagnostics. The servers' own runtime libraries are
# installed by setup/install.sh. Idempotent: installs only what is missing and runs
# `apt-get update` only then. Run as root.
set -euo pipefail

packages=(util-linux iproute2 procps)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup/server.sh: all ${#packages[@]} packages present"
  exit 0
fi

if [[ $(id -u) -ne 0 ]]; then
  echo "setup/server.sh: missing ${missing[*]}; run this script as root" >&2
  exit 1
fi
echo "setup/server.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
