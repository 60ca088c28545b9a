#!/usr/bin/env bash
# make install / make uninstall with DESTDIR: every piece lands where the
# Makefile says (binary, profiles, validation sets, docs, manual pages,
# bash and zsh completion); the installed binary, run away from the source
# tree, reads its data from the installed share folder and `raidlab
# version` says so; RAIDLAB_DATADIR comes before it; uninstall leaves no
# file behind.  (The package test, install_deb.sh, covers PREFIX=/usr.)
. "$(dirname "$0")/lib.sh"
top=${RAIDLAB_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${RAIDLAB_BUILD:-$top/build}
need make
# the build's own PREFIX, so that installing rebuilds nothing under test
make -s -C "$top" BUILD="$build" DESTDIR="$T/stage" install >make.log 2>&1 ||
	{ cat make.log; fail "make install failed"; }
p=$T/stage/usr/local
for f in bin/raidlab share/raidlab/profiles/samsung-sm951-512.profile \
	share/raidlab/profiles/perc-h730p.controller \
	share/raidlab/validation/sm951-windows-stripe.json share/man/man1/raidlab.1 \
	share/man/man1/raidlab-run.1 share/man/man1/raidlab-serve.1 share/doc/raidlab/README.md \
	share/doc/raidlab/docs/targets.md share/bash-completion/completions/raidlab \
	share/zsh/site-functions/_raidlab; do
	[ -f "$p/$f" ] || fail "make install did not install $f"
done
[ -x "$p/bin/raidlab" ] || fail "installed raidlab is not executable"
for f in "$top"/profiles/* "$top"/validation/*; do
	k=$(basename "$(dirname "$f")")
	cmp -s "$f" "$p/share/raidlab/$k/$(basename "$f")" || fail "$k/$(basename "$f") not installed"
done

# away from the source tree: the data come from the installed share folder
mkdir away && cd away
run() { env -u RAIDLAB_TOP -u RAIDLAB_PROFILES -u RAIDLAB_VALIDATION -u RAIDLAB_DATADIR "$@"; }
run "$p/bin/raidlab" version >v.txt
grep -qx "profiles    $p/share/raidlab/profiles (installed)" v.txt || { cat v.txt; fail "profiles not from the install"; }
grep -qx "validation  $p/share/raidlab/validation (installed)" v.txt || { cat v.txt; fail "validation not from the install"; }
run "$p/bin/raidlab" profiles >profiles.txt
grep -q samsung-sm951-512 profiles.txt || fail "installed raidlab lists no installed profile"
run "$p/bin/raidlab" validate --list >list.txt 2>&1 || run "$p/bin/raidlab" validate >list.txt 2>&1 || true
grep -q sm951-windows-stripe list.txt || { cat list.txt; fail "installed raidlab finds no validation set"; }

# RAIDLAB_DATADIR comes first; a profile there is found
mkdir -p mine/profiles mine/validation
sed 's/^name *=.*/name = my-drive/' "$top/profiles/samsung-sm951-512.profile" >mine/profiles/my-drive.profile
run env RAIDLAB_DATADIR="$PWD/mine" "$p/bin/raidlab" version >v2.txt
grep -qx "profiles    $PWD/mine/profiles (RAIDLAB_DATADIR)" v2.txt || { cat v2.txt; fail "RAIDLAB_DATADIR not first"; }
run env RAIDLAB_DATADIR="$PWD/mine" "$p/bin/raidlab" profiles my-drive >/dev/null ||
	fail "a profile in RAIDLAB_DATADIR is not found"
cd "$T"

make -s -C "$top" BUILD="$build" DESTDIR="$T/stage" uninstall >make.log 2>&1 ||
	{ cat make.log; fail "make uninstall failed"; }
left=$(find "$T/stage" -type f)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "install_make: ok"

# one license, stated the same way in LICENSE, the package and the README
[ -f "$top/LICENSE" ] || fail "no LICENSE file"
head -1 "$top/LICENSE" | grep -qx "MIT License" || fail "LICENSE is not the MIT License"
grep -qx "License: Expat" "$top/debian/copyright" || fail "debian/copyright does not say License: Expat"
! grep -qi "no license" "$top/debian/copyright" || fail "debian/copyright still says no license"
# the copyright file's text is LICENSE's permission notice, line for line
sed -n '/^License: Expat/,$p' "$top/debian/copyright" | tail -n +2 | sed 's/^ //; s/^\.$//' >lic.deb
sed -n '/^Permission/,$p' "$top/LICENSE" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >lic.txt
cmp -s lic.deb lic.txt || { diff lic.txt lic.deb; fail "debian/copyright's license text differs from LICENSE"; }
grep -q "MIT License" "$top/README.md" || fail "README does not name the license"
echo "license: MIT, the same in LICENSE, debian/copyright and README"
