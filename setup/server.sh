#!/usr/bin/env bash
# System tools the server stage (scripts/server/) needs on a Debian 12 host: taskset
# (util-linux) pins mysqld to the host class's CPUs; ss (iproute2) names the process that
# holds a busy port; procps for ps/kill in diagnostics. The servers' own runtime libraries are
# installed by setup/install.sh. Idempotent: installs only what is missing and runs
# `apt-get update` only then. Run as root.
set -euo pipefail

packages=(util-linux iproute2 procps)

# shellcheck source=setup/lib/ensure-packages.sh
source "$(dirname "$0")/lib/ensure-packages.sh"
ensure_packages setup/server.sh "${packages[@]}"
