#!/usr/bin/env bash
# Store and watch areas: the real `git` (publish to the results branch, ls-remote for watch,
# and their tests with local bare repositories). Idempotent and quick when present;
# `apt-get update` runs only when something has to be installed. Runs as root on Debian 12.
set -euo pipefail

# shellcheck source=setup/lib/ensure-packages.sh
source "$(dirname "$0")/lib/ensure-packages.sh"
ensure_packages setup/store.sh git ca-certificates
