#!/usr/bin/env bash
# md(...) checks every superblock field it uses against md's rules and the
# member's size, and refuses with the field named: a data_offset of 0 or 1
# sector (the data over the superblock), one of 2^56 sectors (overflowing to
# 0 when turned into bytes), a size past the member, a bad chunk, a bitmap
# outside the metadata area, a crafted member count (160 missing roles
# overflowed a stack buffer), feature bits it does not honour.  Nothing is
# written, nothing crashes, and the members are unchanged.
. "$(dirname "$0")/lib.sh"
need python3
need cmp

# patch FILE OFFSET FORMAT VALUE: set a superblock field, fix md's checksum
patch() { python3 "$(dirname "$0")/mdpatch.py" "$@"; }

fresh() { # fresh LEVEL N [create options]: members m0..m{N-1}.img, copies in orig/
	local level=$1 n=$2 i args=()
	shift 2
	rm -rf m*.img orig && mkdir orig
	for ((i = 0; i < n; i++)); do args+=("file(m$i.img,size=4m)"); done
	$RAIDLAB create "$level" "${args[@]}" --assume-clean --quiet "$@" || fail "create $level"
	cp m*.img orig/
}

refused() { # refused PATTERN SPEC: info and a write both refuse, members untouched
	expect_fail 2 "$1" $RAIDLAB info "$2"
	expect_fail 1 "$1" $RAIDLAB run --quiet --target "$2" --rw=write --bs=64k --size=1m
	for f in m*.img; do cmp -s "$f" "orig/$f" || fail "$2 changed $f"; done
}

members() { local i s=""; for ((i = 0; i < $1; i++)); do s+="m$i.img,"; done; echo "md(${s%,})"; }

fresh raid1 2
$RAIDLAB info "$(members 2)" >/dev/null || fail "the unpatched array does not open"
for v in 0 1 8 15; do
	patch m0.img 128 Q "$v"
	cp m0.img orig/m0.img
	refused "member 0: data_offset $v sectors" "$(members 2)"
done
patch m0.img 128 Q $((1 << 56))
cp m0.img orig/m0.img
refused "member 0: data_offset 72057594037927936 sectors" "$(members 2)"

fresh raid5 3 --chunk 64k
patch m1.img 80 Q $((8 * 2048))
cp m1.img orig/m1.img
refused "member 1: size 16384 sectors does not fit" "$(members 3)"
fresh raid5 3 --chunk 64k
patch m2.img 88 I 100
cp m2.img orig/m2.img
refused "member 2: chunksize 100 sectors" "$(members 3)"

fresh raid5 3 --chunk 64k --bitmap-chunk 1m
patch m0.img 96 i 4000
cp m0.img orig/m0.img
refused "member 0: bitmap_offset 4000 sectors" "$(members 3)"

# raid_disks 200: 197 roles nobody holds (a stack buffer overflowed at ~160)
fresh raid6 4 --chunk 64k
for i in 0 1 2 3; do patch "m$i.img" 92 I 200; done
cp m*.img orig/
refused "raid_disks 200" "$(members 4)"

# feature bits md(...) does not honour
for bit in "4 reshape" "512 journal" "1024 partial parity log"; do
	set -- $bit
	fresh raid5 3 --chunk 64k
	patch m0.img 8 I "$1"
	cp m0.img orig/m0.img
	refused "member 0: feature_map 0x$(printf %x "$1"): .*$2" "$(members 3)"
done
echo ok
