#!/usr/bin/env bash
# Metrics stage tools on Debian 12, as root; idempotent and quick when all are present:
#   vmstat (procps), iostat (sysstat), taskset (util-linux), du/df (coreutils).
# sysstat's cron collector is not enabled: tagbench runs iostat itself around each step.
set -euo pipefail
declare -A need=([vmstat]=procps [iostat]=sysstat [taskset]=util-linux [du]=coreutils)
missing=()
for cmd in "${!need[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${need[$cmd]}")
done
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi
echo "setup/metrics.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
