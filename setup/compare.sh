#!/usr/bin/env bash
# Compare stage: apache-otava (change points across a release series) in its own virtualenv,
# so that Debian's externally-managed python3 stays untouched. Idempotent and quick when done.
# The compare stage finds it at $TAGBENCH_OTAVA_VENV (default /opt/tagbench-otava); it also
# honours TAGBENCH_PYTHON (a python3 that can `import otava`).
set -euo pipefail

OTAVA_VERSION="0.8.0"
VENV="${TAGBENCH_OTAVA_VENV:-/opt/tagbench-otava}"

have_otava() {
  [ -x "$VENV/bin/python3" ] && "$VENV/bin/python3" - "$OTAVA_VERSION" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
import otava.analysis  # noqa: F401
sys.exit(0 if version("apache-otava") == sys.argv[1] else 1)
PY
}

if have_otava; then
  echo "compare: apache-otava $OTAVA_VERSION present in $VENV"
  exit 0
fi

PY=/usr/bin/python3
[ -x "$PY" ] || PY="$(command -v python3 || true)"
if [ -z "$PY" ] || ! "$PY" -c 'import venv, ensurepip' 2>/dev/null; then
  echo "compare: installing python3 and python3-venv"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv >/dev/null
  PY=/usr/bin/python3
fi

echo "compare: creating $VENV with apache-otava $OTAVA_VERSION"
rm -rf "$VENV"
"$PY" -m venv "$VENV"
"$VENV/bin/pip" install --quiet --disable-pip-version-check "apache-otava==$OTAVA_VERSION"
have_otava
echo "compare: apache-otava $OTAVA_VERSION installed in $VENV"
