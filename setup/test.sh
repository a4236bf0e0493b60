#!/usr/bin/env bash
# The test command: install everything the tests need (idempotent), type-check, then run the
# whole node:test suite (integration tests start real servers and real sysbench).
set -euo pipefail
cd "$(dirname "$0")/.."
bash setup/all.sh test
npx tsc --noEmit -p .
npx tsc --noEmit -p site   # the browser code, with DOM types
# Node 20's --test does not expand globs: list the files (helpers under test/ are not tests).
mapfile -t tests < <(find test -name '*.test.js' | sort)
node --test --test-concurrency=1 --test-reporter=spec "${tests[@]}"
