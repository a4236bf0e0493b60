#!/usr/bin/env bash
# Metrics stage tools on Debian 12, as root; idempotent and quick when all are present:
#   vmstat (procps), iostat (sysstat), taskset (util-linux), du/df (coreutils);
#   valgrind (the instructions meter: callgrind, callgrind_control, callgrind_annotate);
#   linux-perf (the counters meter: perf stat); gcc (calibrate --meter instructions builds its
#   injected-cost library).
# sysstat's cron collector is not enabled: tagbench runs iostat itself around each step.
set -euo pipefail
# shellcheck source=setup/lib/ensure-packages.sh
source "$(dirname "$0")/lib/ensure-packages.sh"
ensure_packages setup/metrics.sh procps sysstat util-linux coreutils valgrind linux-perf gcc libc6-dev
