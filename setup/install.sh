#!/usr/bin/env bash
# System tools and libraries the install stage (deb provider) and the extracted MariaDB/MySQL
# binaries need on a Debian 12 host. Idempotent: installs only what is missing, and runs
# `apt-get update` only then. Run as root.
set -euo pipefail

# Tools: apt-get/dpkg-deb (apt, dpkg) download and unpack; patchelf rewrites interpreter and
# rpath of trixie/sid builds; debian-archive-keyring verifies the foreign suites; ldd/ldconfig
# (libc-bin) check libraries. Libraries: what bookworm's mariadbd, mariadb client and
# ha_rocksdb.so load on a fresh machine (a bookworm install then needs no LD_LIBRARY_PATH).
# source provider: git fetches the tag, cmake + make + gcc build (its tests build a small C
# project; a real MariaDB/MySQL build needs the product's own build dependencies too, e.g.
# `apt-get build-dep mariadb-server` on the runner). tarball provider: tar with gzip and xz.
packages=(
  git cmake make gcc libc6-dev tar gzip xz-utils
  # the source provider: gpgv checks upstream's tarball signature, ccache makes rebuilds cheap;
  # gpg signs the stand-in archive of its tests
  gpgv gpg ccache
  apt dpkg patchelf debian-archive-keyring libc-bin ca-certificates util-linux
  libaio1 liburing2 libnuma1 libsnappy1v5 liblz4-1 libzstd1 libpcre2-8-0 libedit2 libssl3
  libncurses6 libtinfo6 zlib1g libstdc++6 libgcc-s1 libcrypt1 libsystemd0 libpam0g libxml2
  libgnutls30 libbz2-1.0 liblzma5 libcurl4 libmariadb3
)

# shellcheck source=setup/lib/ensure-packages.sh
source "$(dirname "$0")/lib/ensure-packages.sh"
ensure_packages setup/install.sh "${packages[@]}"
