#!/usr/bin/env bash
# Store and watch areas: the real `git` (publish to the results branch, ls-remote for watch,
# and their tests with local bare repositories). Idempotent and quick when present;
# `apt-get update` runs only when something has to be installed. Runs as root on Debian 12.
set -euo pipefail

if command -v git >/dev/null 2>&1; then
  exit 0
fi
printf 'setup/store.sh: installing git (apt)\n' >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends git ca-certificates >/dev/null
git --version >&2
