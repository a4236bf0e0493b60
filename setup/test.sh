#!/usr/bin/env bash
# The test command: install everything the tests need (idempotent), type-check, install the
# releases the real-server tests start, then run the whole node:test suite (integration tests
# start real servers and real sysbench): the files that need a quiet host alone, then every
# other file side by side (test/support/test-plan.js says which and why). Prints the ten
# slowest files and tests at the end (test/support/slowest-tests.js).
#
# TAGBENCH_TEST_CONCURRENCY: files run side by side (default 3; 1 runs everything in turn).
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

mkdir -p .tagbench
times=.tagbench/test-times.jsonl
: > "$times"
reporters=(--test-reporter=spec --test-reporter-destination=stdout
  --test-reporter=./test/support/timing-reporter.js --test-reporter-destination="$times.part")
status=0
mapfile -t alone < <(node test/support/test-plan.js alone)
mapfile -t together < <(node test/support/test-plan.js together)
echo "test: ${#alone[@]} file(s) alone on a quiet host, then ${#together[@]} side by side (${TAGBENCH_TEST_CONCURRENCY:-3} at a time)"
node --test --test-concurrency=1 "${reporters[@]}" "${alone[@]}" || status=$?
cat "$times.part" >> "$times"
node --test --test-concurrency="${TAGBENCH_TEST_CONCURRENCY:-3}" "${reporters[@]}" "${together[@]}" || status=$?
cat "$times.part" >> "$times"
rm -f "$times.part"
echo
node test/support/slowest-tests.js "$times"
echo "test: $(( $(date +%s) - start )) s in all (setup, type checks and installs included); exit $status"
exit "$status"
