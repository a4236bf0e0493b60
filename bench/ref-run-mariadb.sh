#!/usr/bin/env bash
# Issue 23's proof on real MariaDB source: a branch of MariaDB 10.11.18 that adds a known cost to
# one server function, built and compared with its base commit through the whole path a pull
# request takes (run --ref, compare --ref, confirm --ref, post-verdict's Markdown), on this
# machine. bench/ref-run-mariadb.md is its report.
#
# Usage: bench/ref-run-mariadb.sh <repo> <branch> <out-dir> [tests]
#   repo    a git repository of MariaDB's source with the release tag mariadb-10.11.18 on main
#           (bench/ref-run-mariadb.md: Debian's orig tarball committed, and the branch's commit)
#   branch  the change under review, branched from main
#   out-dir where the store, the logs and the Markdown go
#   tests   comma-separated tests of the ref-smoke suite (default: a read, a write, a range)
# Environment: TAGBENCH_CACHE (install cache; ccache lives beside it), as for tagbench run.
set -euo pipefail
repo=$1 branch=$2 out=$3 tests=${4:-point-query,update-index,read-only.range100}
cd "$(dirname "$0")/.."
mkdir -p "$out"
store="$out/results"
common=(--product mariadb --ref "$branch" --repo "$repo" --base-ref main --suite ref-smoke --host-class local --store "$store")
echo "run --ref: both sides built from source (profile reduced), counted under callgrind"
node scripts/cli.js run "${common[@]}" --profile reduced --only "$tests" --json > "$out/run.json"
commit=$(jq -r .ref.commit "$out/run.json")
version=$(jq -r .ref.version "$out/run.json")
status=0
node scripts/cli.js compare "${common[@]}" --commit "$commit" --markdown "$out/compare.md" --json "$out/compare.json" || status=$?
[ "$status" = 0 ] || [ "$status" = 2 ]
if [ "$status" = 2 ]; then
  node scripts/cli.js confirm --ref --product mariadb --version "$version" --suite ref-smoke --host-class local --store "$store" || [ $? = 2 ]
fi
comparison=$(find "$store/refs/verdicts/local/mariadb/$version/ref-smoke" -name '*.json' | sort | tail -n 1)
node scripts/cli.js post-verdict --comparison "$comparison" --repo acme/server --sha "$commit" --pull 1 --dry-run "$out/verdict"
echo "check run: $out/verdict/check-run.md; comment: $out/verdict/comment.md"
