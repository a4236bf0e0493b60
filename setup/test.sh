#!/usr/bin/env bash
# The test command: install everything the tests need (idempotent), type-check, then run the
# whole node:test suite (integration tests start real servers and real sysbench).
set -euo pipefail
cd "$(dirname "$0")/.."
bash setup/all.sh test
npx tsc --noEmit -p .
node --test --test-concurrency=1 --test-reporter=spec $(find test -name '*.test.js' | sort)
