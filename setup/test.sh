#!/usr/bin/env bash
# The test command: install everything the tests need (idempotent), type-check, install the
# releases the real-server tests start, then run the whole node:test suite (integration tests
# start real servers and real sysbench): the files that need a quiet host alone, with the files
# that start no server beside them on the other CPU, then every other file side by side
# (test/support/test-plan.js says which and why). Prints the ten
# slowest files and tests at the end (test/support/slowest-tests.js).
#
# TAGBENCH_TEST_CONCURRENCY: heavy files run side by side (default 4).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
bash setup/all.sh test
npx tsc --noEmit -p .
npx tsc --noEmit -p site   # the browser code, with DOM types

# Every release a real-server test starts, installed once here: files running side by side
# would otherwise download the same packages at the same time (the cache keeps one, but each
# pays for the download).
cache=${TAGBENCH_CACHE:-$PWD/.tagbench/installs}
for release in "mariadb 10.11.18" "mariadb 10.11.19" "mariadb 10.5.23" "mariadb 11.8.9" "mysql 9.7.4"; do
  # shellcheck disable=SC2086 # product and version are two words
  node scripts/cli.js install $release --provider deb --cache-dir "$cache" >/dev/null
done

# Where the time goes, phase by phase, with the load beside it (CI's log keeps it; each file's
# own time is in .tagbench/test-times.jsonl, printed at the end).
# $1: the phase that just ended
phase_done() {
  echo "test: $1 took $(( $(date +%s) - phase_start )) s (load: $(cut -d' ' -f1-3 /proc/loadavg))"
  phase_start=$(date +%s)
}
phase_start=$start
phase_done "setup, type checks and installs"

mkdir -p .tagbench
times=.tagbench/test-times.jsonl
: > "$times"
# $1: where this run's timing lines go (one file per concurrent run)
reporters() {
  echo --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=./test/support/timing-reporter.js --test-reporter-destination="$1"
}
mapfile -t alone < <(node test/support/test-plan.js alone)
mapfile -t light < <(node test/support/test-plan.js light)
mapfile -t heavy < <(node test/support/test-plan.js heavy)
concurrency=${TAGBENCH_TEST_CONCURRENCY:-4}
last_cpu=$(( $(nproc) - 1 ))
status=0
# Phase 1: the files that need a quiet host, one at a time (their servers and clients on the
# last CPU, as the local host class pins them); beside them, on the other CPUs, the files that
# start no server. Their output is kept apart and printed after, so the two never interleave.
echo "test: ${#alone[@]} file(s) on a quiet CPU ${last_cpu}, ${#light[@]} light file(s) beside them; then ${#heavy[@]} side by side (${concurrency} at a time)"
light_log=.tagbench/test-light.log
if [ "$last_cpu" -ge 1 ]; then
  # shellcheck disable=SC2046 # reporters prints separate options
  taskset -c "0-$(( last_cpu - 1 ))" node --test --test-concurrency=2 $(reporters "$times.light") "${light[@]}" > "$light_log" 2>&1 &
  light_pid=$!
  # shellcheck disable=SC2046
  node --test --test-concurrency=1 $(reporters "$times.alone") "${alone[@]}" || status=$?
  wait "$light_pid" || status=$?
else
  # shellcheck disable=SC2046
  node --test --test-concurrency=1 $(reporters "$times.alone") "${alone[@]}" || status=$?
  # shellcheck disable=SC2046
  node --test --test-concurrency=1 $(reporters "$times.light") "${light[@]}" > "$light_log" 2>&1 || status=$?
fi
cat "$light_log"
phase_done "phase 1 (quiet files, light files beside them)"
# Phase 2: every other file, side by side.
# shellcheck disable=SC2046
node --test --test-concurrency="$concurrency" $(reporters "$times.heavy") "${heavy[@]}" || status=$?
phase_done "phase 2 (side by side)"
cat "$times.alone" "$times.light" "$times.heavy" >> "$times"
rm -f "$times.alone" "$times.light" "$times.heavy"
echo
node test/support/slowest-tests.js "$times"
echo "test: $(( $(date +%s) - start )) s in all (setup, type checks and installs included); exit $status"
exit "$status"
