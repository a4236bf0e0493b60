#!/usr/bin/env bash
# What a real MariaDB or MySQL build by the source provider needs on a Debian 12 host
# (`tagbench install <product> <version> --provider source [--suite <suite>]`), on top of
# setup/install.sh (git, cmake, make, gcc, apt, tar). Idempotent: installs only what is missing.
# Run as root.
#
# The list follows the Build-Depends of Debian's own mariadb source package (bookworm's .dsc),
# without Debian's packaging tools (debhelper, dh-exec, po-debconf) and test-only tools:
#   compilers and tools  g++ (C++17), bison (the SQL parser), pkg-config; ccache, which the
#                        source provider puts before every compile when it is installed (a
#                        rebuild of a release is then mostly cache hits); gpgv checks upstream's
#                        signature of a Debian orig tarball (--suite origin)
#   system libraries     the profiles ask for the system's OpenSSL, PCRE2 and (10.7 on) libfmt
#                        instead of a download during the build; the others are what the
#                        server and its plugins link (compression providers, io_uring, libaio,
#                        NUMA, PAM, GSSAPI, cracklib, CONNECT's ODBC and XML, OQGraph's Boost and
#                        Judy). A library that is missing does not fail the build: cmake leaves
#                        its plugin out, so the release profile needs all of them.
set -euo pipefail

packages=(
  g++ bison pkg-config ccache gpgv
  libssl-dev libpcre2-dev libfmt-dev zlib1g-dev libzstd-dev liblz4-dev liblzo2-dev libsnappy-dev
  libbz2-dev liblzma-dev libaio-dev liburing-dev libnuma-dev libncurses-dev libedit-dev
  libxml2-dev libcurl4-openssl-dev libsystemd-dev libpam0g-dev libkrb5-dev libcrack2-dev
  libjemalloc-dev unixodbc-dev uuid-dev libboost-dev libjudy-dev
)

# shellcheck source=setup/lib/ensure-packages.sh
source "$(dirname "$0")/lib/ensure-packages.sh"
bash "$(dirname "$0")/install.sh"
ensure_packages setup/source-build.sh "${packages[@]}"
