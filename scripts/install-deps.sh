#!/usr/bin/env bash
# Install the Debian packages raidlab needs to build and test, if missing.
# Build: gcc, make, pkg-config, liburing, libblkid, json-c, cmocka, ISA-L (parity), libaio,
# GnuTLS (serve's TLS).
# gnuplot-nox: fio_generate_plots and fio2gnuplot render raidlab's fio-format logs in tests.
# fio-examples: fio's own example job files (tests/integration/fio_examples.sh runs them all).
# Test peers: fio, qemu-utils (qemu-img/qemu-io), nbdkit, libnbd-bin (nbdinfo/nbdcopy),
# clang (libFuzzer), e2fsprogs (mkfs.ext4 for the safety test), util-linux (losetup),
# valgrind (leak checks of the CLI paths), jq (tests and bench scripts read JSON results),
# mdadm (reads the md superblocks raidlab writes),
# chromium (renders the HTML report headless in tests/integration/report_browser.sh) and
# nodejs (drives it there over the DevTools protocol), npm (installs puppeteer-core for
# the raidlab ui browser tests: scripts/install-node-deps.sh),
# nbdkit, libnbd-bin (nbdinfo/nbdcopy), nbdfuse, fuse3, qemu-utils and python3 (the NBD
# server's peers and its malformed-input probe), gnutls-bin (certtool, for the TLS test),
# tar, gzip and xfsprogs (the file suites: untar's extractor, compressibility checks,
# --fs=xfs); strace (tests compare the system calls raidlab and fio make: page-cache
# drops, submission batches, I/O priorities).
# dpkg-dev, debhelper, lintian (make deb and its test), man-db and groff-base (man -l
# reads the generated manual pages), bash-completion and zsh (the completion scripts).
# libopenmpi-dev, openmpi-bin: MPI (optional in the build; sweep, validate over ranks, docs/mpi.md).
# libpmemblk-dev: fio's pmemblk engine (optional in the build; a pool in a plain file).
# libnbd-dev: fio's nbd engine (optional in the build; an NBD server's export).
# libssl-dev: libcrypto digests of verify=md5, sha1, sha256, sha512 and sha3-*.
# libxxhash-dev: verify=xxhash.
set -euo pipefail
pkgs=(build-essential pkg-config liburing-dev libblkid-dev libjson-c-dev libcmocka-dev libisal-dev mdadm
      libaio-dev fio-examples gnuplot-nox libgnutls28-dev
      fio clang e2fsprogs util-linux valgrind clang-format jq chromium nodejs npm
      nbdkit libnbd-bin nbdfuse fuse3 qemu-utils python3 gnutls-bin tar gzip xfsprogs
      strace dpkg-dev debhelper lintian man-db groff-base bash-completion zsh libopenmpi-dev openmpi-bin
      libpmemblk-dev libnbd-dev libssl-dev libxxhash-dev)
# A name may be a virtual package on some releases (Debian 12's libnbd-bin provides
# nbdfuse): an installed package that provides it counts as installed, so a machine
# that has everything never reaches apt-get.
provided=$(dpkg-query -W -f='${Status}|${Provides}\n' 2>/dev/null |
	sed -n 's/^install ok installed|//p' | tr ',' '\n' | sed 's/(.*//; s/[[:space:]]//g')
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" && continue
	grep -qxF "$p" <<<"$provided" && continue
	missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
