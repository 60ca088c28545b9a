# shellcheck shell=bash disable=SC2034
# Sourced by the benches that give fio huge-page buffers (mem=mmaphuge),
# which fio takes from hugetlb pages reserved beforehand; raidlab's
# mmaphuge uses transparent huge pages and needs none.
#
#   hugetlb_reserve N   make at least N pages reserved; HUGE=1 when they
#                       are (root only), else HUGE=0
#   hugetlb_restore     give back what hugetlb_reserve added (call it from
#                       the bench's EXIT trap)
HUGE=0
hugetlb_was=
hugetlb_reserve() {
	[ -w /proc/sys/vm/nr_hugepages ] || return 0
	hugetlb_was=$(cat /proc/sys/vm/nr_hugepages)
	[ "$hugetlb_was" -lt "$1" ] && echo "$1" >/proc/sys/vm/nr_hugepages
	[ "$(cat /proc/sys/vm/nr_hugepages)" -ge "$1" ] && HUGE=1
	return 0
}
hugetlb_restore() {
	[ -n "$hugetlb_was" ] && echo "$hugetlb_was" >/proc/sys/vm/nr_hugepages
	hugetlb_was=
}
