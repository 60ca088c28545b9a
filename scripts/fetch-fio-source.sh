#!/usr/bin/env bash
# Fetch fio's source from Debian's archive and unpack it into a cache directory
# (outside the source tree), for fio's own test scripts (t/*.py).
#
# Usage: scripts/fetch-fio-source.sh [CACHE_DIR]
#   CACHE_DIR defaults to ${XDG_CACHE_HOME:-$HOME/.cache}/raidlab/fio-src.
# Prints two lines: the unpacked fio 3.33 tree (Debian 12's fio, whose t/ holds
# latency_percentiles.py, strided.py, readonly.py) and the unpacked tree of
# the newest fio in Debian unstable (t/verify.py first shipped in fio 3.40).
#
# apt-get runs with a private sources list, state and cache (nothing of the
# system's apt configuration is read or changed) and only downloads; the
# upstream tarball is unpacked with tar.  Exit status 2: the archive could
# not be reached (callers may skip on it); 1: any other failure.
set -euo pipefail
dest=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/raidlab/fio-src}
mirror=${FIO_SRC_MIRROR:-http://deb.debian.org/debian}
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
apt_dir=$dest/apt
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$dest/dl"
printf 'deb-src %s bookworm main\ndeb-src %s sid main\n' "$mirror" "$mirror" >"$apt_dir/sources.list"
apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
	-o Debug::NoLocking=1 -o APT::Get::List-Cleanup=0 -q)

# tree VERSION: the unpacked upstream tree of that fio version, if there.
tree() { [ -f "$dest/fio-$1/t/readonly.py" ] && echo "$dest/fio-$1"; }

# fetch SUITE: download fio's upstream tarball of SUITE and unpack it.
fetch() {
	local suite=$1 ver tarball
	# bookworm: fio 3.33; sid: the newest version listed
	ver=$(apt-cache "${apt_opts[@]}" showsrc fio 2>/dev/null | sed -n 's/^Version: //p' |
		sort -V | if [ "$suite" = bookworm ]; then grep '^3\.33-'; else cat; fi | tail -n1)
	[ -n "$ver" ] || { echo "fetch-fio-source: no fio source in $suite" >&2; return 1; }
	ver=${ver#*:}
	ver=${ver%-*}
	if ! tree "$ver" >/dev/null; then
		tarball=$dest/dl/fio_$ver.orig.tar.gz
		if [ ! -s "$tarball" ]; then
			# only the upstream tarball is needed; apt-get writes into the cwd
			(cd "$dest/dl" && apt-get "${apt_opts[@]}" source --download-only \
				"fio/$suite" >/dev/null 2>"$dest/dl/apt-get.err") || true
			[ -s "$tarball" ] || {
				echo "fetch-fio-source: could not download $tarball" >&2
				cat "$dest/dl/apt-get.err" >&2
				return 2
			}
		fi
		tar -xzf "$tarball" -C "$dest"
	fi
	tree "$ver"
}

if ! apt-get "${apt_opts[@]}" update >"$apt_dir/update.log" 2>&1 ||
	grep -q '^\(E\|Err\):' "$apt_dir/update.log"; then
	# offline: trees fetched before are still good
	if ls -d "$dest"/fio-3.33 >/dev/null 2>&1 && ls "$dest"/fio-*/t/verify.py >/dev/null 2>&1; then
		echo "$dest/fio-3.33"
		ls -d "$dest"/fio-*/t/verify.py | sort -V | tail -n1 | sed 's|/t/verify.py$||'
		exit 0
	fi
	echo "fetch-fio-source: $mirror is unreachable (see $apt_dir/update.log)" >&2
	exit 2
fi
old=$(fetch bookworm) || exit $?
new=$(fetch sid) || exit $?
[ -f "$new/t/verify.py" ] || { echo "fetch-fio-source: $new has no t/verify.py" >&2; exit 1; }
echo "$old"
echo "$new"
