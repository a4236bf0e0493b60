#!/usr/bin/env bash
# Install the project's npm dependencies from the lockfile, only when they are missing or stale.
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=node_modules/.tagbench-lock-hash
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
echo "setup: installing npm dependencies (npm ci)" >&2
npm ci --no-audit --no-fund --loglevel=error
echo "$want" > "$stamp"
