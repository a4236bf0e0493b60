#!/usr/bin/env bash
# Tools for the site area: Debian's chromium, which the site's browser tests (test/site-build/) and
# bench/site-scale.js drive through playwright-core with executablePath=/usr/bin/chromium
# (playwright's own browser download cannot work offline). Idempotent and quick when present;
# `apt-get update` runs only when something has to be installed. Runs as root on Debian 12.
set -euo pipefail

log() { printf 'setup/site.sh: %s\n' "$*" >&2; }

if [ -x /usr/bin/chromium ] && /usr/bin/chromium --version >/dev/null 2>&1; then
  exit 0
fi
log "installing chromium (apt)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
/usr/bin/chromium --version >&2
