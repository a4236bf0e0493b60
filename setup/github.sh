#!/usr/bin/env bash
# Tools for the GitHub area: actionlint (+ shellcheck, which actionlint runs on run: blocks),
# zizmor (workflow security audit), act (runs the workflows on this host in tests) and sudo
# (the pull-request workflow's build as its own OS user, under act too).
# Idempotent: each tool is installed only when the pinned version is not already there.
# Runs as root on Debian 12 with Node 20; Go is needed for actionlint and act.
set -euo pipefail

ACTIONLINT_VERSION=v1.7.12
ACT_VERSION=v0.2.89
ZIZMOR_VERSION=1.32.0
BIN_DIR=${TAGBENCH_BIN_DIR:-/usr/local/bin}

log() { printf 'setup/github.sh: %s\n' "$*" >&2; }

# shellcheck: a Debian package; update the package lists only when we must install.
if ! command -v shellcheck >/dev/null 2>&1; then
  log "installing shellcheck (apt)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq shellcheck >/dev/null
fi

# sudo: the act test of pull-request.yml runs the pull request's build as a second OS user
# (setup/runner.sh --pr-user-only), as a runner of pull requests does, with sudo -n -u.
# shellcheck source=setup/lib/ensure-packages.sh
source "$(dirname "$0")/lib/ensure-packages.sh"
ensure_packages setup/github.sh sudo

find_go() {
  if command -v go >/dev/null 2>&1; then command -v go; return; fi
  if [ -x /usr/local/go/bin/go ]; then echo /usr/local/go/bin/go; return; fi
  return 1
}

# go_tool NAME MODULE VERSION VERSION_ARGS: install MODULE@VERSION into BIN_DIR unless the
# binary there already reports VERSION (without the leading v).
go_tool() {
  local name=$1 module=$2 version=$3 version_args=$4
  if [ -x "$BIN_DIR/$name" ] && "$BIN_DIR/$name" $version_args 2>/dev/null | grep -q "${version#v}"; then
    return
  fi
  local go
  if ! go=$(find_go); then
    log "Go is needed to build $name: apt-get install golang-go (or install Go >= 1.22) and rerun"
    exit 1
  fi
  log "building $name $version with $("$go" version | cut -d' ' -f3) (a few minutes on 2 cores)"
  GOBIN="$BIN_DIR" GOFLAGS=-trimpath "$go" install "$module@$version"
}

go_tool actionlint github.com/rhysd/actionlint/cmd/actionlint "$ACTIONLINT_VERSION" -version
go_tool act github.com/nektos/act "$ACT_VERSION" --version

# zizmor: the PyPI wheel is a static binary; pip puts it next to python.
if ! (command -v zizmor >/dev/null 2>&1 && zizmor --version 2>/dev/null | grep -q "$ZIZMOR_VERSION"); then
  pip_cmd=$(command -v pip3 || command -v pip || true)
  if [ -z "$pip_cmd" ]; then
    log "installing python3-pip (apt)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pip >/dev/null
    pip_cmd=$(command -v pip3)
  fi
  log "installing zizmor $ZIZMOR_VERSION (pip)"
  "$pip_cmd" install --quiet --disable-pip-version-check --break-system-packages "zizmor==$ZIZMOR_VERSION" 2>/dev/null \
    || "$pip_cmd" install --quiet --disable-pip-version-check "zizmor==$ZIZMOR_VERSION"
fi

# GitHub's OpenAPI description for the Prism tests: one file out of the @octokit/openapi
# tarball, cached outside the work tree (test/github/prism-harness.js does the same on demand).
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -d "$root/node_modules/@octokit" ]; then
  (cd "$root" && node -e "import('./test/github/prism-harness.js').then((m) => m.ensureGitHubSpec())")
fi

log "ok: actionlint $("$BIN_DIR/actionlint" -version | head -1), act $("$BIN_DIR/act" --version | awk '{print $3}'), zizmor $(zizmor --version | awk '{print $2}'), $(shellcheck --version | sed -n 2p)"
