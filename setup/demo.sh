#!/usr/bin/env bash
# The demo: install what is needed, benchmark MariaDB 10.11.18 against 10.11.19 with the smoke
# suite (every standard test, 3 repeats alternating the releases) on this machine, write the run
# records to results/, and print the seed-style comparison table.
set -euo pipefail
cd "$(dirname "$0")/.."
bash setup/all.sh demo
node scripts/cli.js doctor
node scripts/cli.js run --releases mariadb@10.11.18,mariadb@10.11.19 --suite smoke --host-class local --store results "$@"
node scripts/cli.js compare --store results --host-class local --suite smoke --product mariadb \
  --releases 10.11.18,10.11.19 --base 10.11.18 --adaptive --markdown results/demo-comparison.md || [ $? -eq 2 ]
node scripts/cli.js site --store results --out out/site
echo
echo "Run records: results/runs/   Comparison (Markdown): results/demo-comparison.md"
echo "Site built in out/site. Open it with:  node scripts/cli.js site --out out/site --serve --no-build"
