#!/usr/bin/env bash
# The Debian package, as a new user gets it: make deb (dpkg-buildpackage)
# builds it from a copy of the tree (debian/), lintian finds no error in it, apt-get
# installs it, and with the source tree gone the installed raidlab reads
# its data from /usr/share/raidlab (raidlab version says "installed", also
# for a copy of the binary elsewhere: the share folder is compiled in),
# runs the demo and a validation set, has its manual pages and its bash
# completion.  The package is removed again on exit.  Slow (a whole
# package build): tests/run.sh runs it with the plain build only.
# test-timeout: 2700
. "$(dirname "$0")/lib.sh"
# a timeout (TERM) still removes the package: the EXIT trap runs on exit,
# and the long steps run in the background so the signal is taken at once
trap 'exit 143' TERM INT HUP
long() { "$@" & wait $!; }
top=${RAIDLAB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
need dpkg-buildpackage
need dh
need lintian
need apt-get
[ "$(id -u)" = 0 ] || skip_env "installing a package needs root"
if dpkg-query -W -f='${Status}' raidlab 2>/dev/null | grep -q "install ok installed"; then
	skip_env "a raidlab package is installed already; this test does not replace it"
fi
apt() { apt-get -o DPkg::Lock::Timeout=600 -y -qq "$@"; }
remove_pkg() {
	if dpkg-query -W -f='${Status}' raidlab 2>/dev/null | grep -q "installed"; then
		apt purge raidlab >/dev/null 2>&1 || dpkg --purge raidlab >/dev/null 2>&1
	fi
}
cleanup_hooks+=(remove_pkg)

# a copy of the tree (what git tracks, or everything but the build folders)
mkdir src
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$top" ls-files -co --exclude-standard | (cd "$top" && tar -cf - -T -) | tar -xf - -C src
else
	tar -C "$top" --exclude='./build*' --exclude=./.git -cf - . | tar -xf - -C src
fi
DEB_BUILD_OPTIONS="parallel=$(nproc)" long make -C src deb >build.log 2>&1 || { tail -n 40 build.log; fail "make deb failed"; }
mv src/raidlab_*_*.deb .
deb=$(ls raidlab_*_*.deb)
[ -f "$deb" ] || fail "no raidlab_*.deb built"
dpkg-deb -f "$deb" Recommends | grep -q fio || fail "fio is not recommended"
dpkg-deb -f "$deb" Depends | grep -q fio && fail "fio is a hard dependency"

long lintian --tag-display-limit 0 "$deb" >lintian.txt 2>&1 || true
if grep -q '^E: ' lintian.txt; then
	cat lintian.txt
	fail "lintian reports errors"
fi

long apt install "./$deb" >install.log 2>&1 || { cat install.log; fail "apt-get install ./$deb failed"; }
rm -rf src
mkdir run && cd run
# no source tree in reach: a fresh environment in an empty folder
clean() { env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$T/run" TMPDIR="$T" "$@"; }
[ "$(clean sh -c "command -v raidlab")" = /usr/bin/raidlab ] || fail "raidlab is not /usr/bin/raidlab"
clean raidlab version >v.txt
grep -qx "profiles    /usr/share/raidlab/profiles (installed)" v.txt || { cat v.txt; fail "profiles not from /usr/share/raidlab"; }
grep -qx "validation  /usr/share/raidlab/validation (installed)" v.txt || { cat v.txt; fail "validation sets not from /usr/share/raidlab"; }
mkdir -p elsewhere/bin && cp /usr/bin/raidlab elsewhere/bin/
clean elsewhere/bin/raidlab version >v2.txt
grep -qx "profiles    /usr/share/raidlab/profiles (installed)" v2.txt ||
	{ cat v2.txt; fail "the compiled-in share folder is not /usr/share/raidlab"; }

long clean raidlab demo >demo.txt 2>&1 || { tail -n 30 demo.txt; fail "raidlab demo failed"; }
grep -q "raid0 x2" demo.txt || { tail -n 30 demo.txt; fail "raidlab demo shows no raid0 x2"; }
long clean raidlab validate sm951-windows-stripe >validate.txt 2>&1 || { tail -n 30 validate.txt; fail "raidlab validate failed"; }
grep -q PASS validate.txt || { tail -n 30 validate.txt; fail "validate did not pass"; }

[ "$(clean man -w raidlab-run)" = /usr/share/man/man1/raidlab-run.1.gz ] || fail "man raidlab-run not found"
clean man raidlab-run 2>&1 | col -bx >man.txt
grep -q -- "--ioengine=" man.txt || { head -n 20 man.txt; fail "man raidlab-run lacks --ioengine"; }
out=$(clean bash -c 'source /usr/share/bash-completion/completions/raidlab
	COMP_LINE="raidlab ru"; COMP_POINT=${#COMP_LINE}; COMP_WORDS=(raidlab ru); COMP_CWORD=1
	_raidlab; echo "${COMPREPLY[*]}"')
[ "$out" = run ] || fail "installed bash completion of 'raidlab ru' gave '$out'"
[ -f /usr/share/zsh/vendor-completions/_raidlab ] || fail "no zsh completion installed"
cd "$T"
remove_pkg
[ ! -e /usr/bin/raidlab ] || fail "raidlab still installed after purge"
echo "install_deb: $deb built, lintian clean of errors, installed, demo and validate ran, removed"
