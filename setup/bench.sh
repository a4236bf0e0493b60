#!/usr/bin/env bash
# The bench stage's system tools: sysbench 1.0.x (Debian package, with the MySQL driver and
# the stock OLTP scripts in /usr/share/sysbench) and taskset (util-linux) for client pinning.
# Idempotent: apt runs only when something is missing. Runs as root on Debian 12.
set -euo pipefail

log() { printf 'setup/bench.sh: %s\n' "$*" >&2; }

# shellcheck source=setup/lib/ensure-packages.sh
source "$(dirname "$0")/lib/ensure-packages.sh"
ensure_packages setup/bench.sh sysbench util-linux

version=$(sysbench --version | awk '{print $2}')
case "$version" in
  1.0.*) ;;
  *) log "sysbench $version found; tagbench needs 1.0.x (Debian 12 ships 1.0.20). Install the Debian package or put a 1.0.x sysbench first on PATH."; exit 1 ;;
esac
for script in oltp_common oltp_point_select oltp_read_only oltp_read_write oltp_update_index \
              oltp_update_non_index oltp_write_only oltp_delete oltp_insert; do
  if [ ! -f "/usr/share/sysbench/$script.lua" ]; then
    log "stock script /usr/share/sysbench/$script.lua is missing: reinstall the sysbench package"
    exit 1
  fi
done
log "sysbench $version ready"
