#!/usr/bin/env bash
# Idempotent setup of everything tagbench needs on a fresh Debian 12 machine with Node 20, as
# root. Usage: setup/all.sh [demo|test]  — `demo` installs what a local run needs, `test`
# everything the test suite needs too (browser, linters, act, Prism's spec). Each area's script
# (setup/<area>.sh) is safe to rerun and quick when everything is present.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
purpose=${1:-demo}
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  echo "setup: Node.js >= 20 is required (found $(node --version))" >&2; exit 1
fi
bash "$here/node-deps.sh"
# linkbench (JDK 17, Maven) is a demo area: the demo suite runs LinkBench.
demo_areas=(install server bench metrics compare linkbench)
test_areas=(store site github)
areas=("${demo_areas[@]}")
[ "$purpose" = test ] && areas+=("${test_areas[@]}")
for area in "${areas[@]}"; do
  if [ -f "$here/$area.sh" ]; then
    bash "$here/$area.sh"
  fi
done
