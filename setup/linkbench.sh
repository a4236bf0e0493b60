#!/usr/bin/env bash
# LinkBench build tools on Debian 12, as root; idempotent and quick when all are present:
#   java and javac (openjdk-17-jdk-headless), mvn (maven). The fork's Maven dependencies come
#   from Maven Central at the first build; the jar is cached by commit in the install cache.
set -euo pipefail
# shellcheck source=setup/lib/ensure-packages.sh
source "$(dirname "$0")/lib/ensure-packages.sh"
ensure_packages setup/linkbench.sh openjdk-17-jdk-headless maven
