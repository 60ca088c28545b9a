#!/usr/bin/env bash
# A fleet run over two hosts: two network namespaces of this machine, each
# with its own host name (a UTS namespace), joined by a veth pair.  mpirun
# starts in the first; Open MPI reaches the second through a launcher
# agent (plm_rsh_agent) that enters its namespace, and the ranks talk TCP
# over the veth pair (btl tcp,self).  Two ranks per host run a 4k random
# read on their own files ($host.$rank); rank 0 reports both hosts' ranks
# and their sum.  Where the sandbox allows no namespaces, the test says why,
# runs the same job on localhost ranks instead, and counts as skipped.
. "$(dirname "$0")/lib.sh"
need jq
need ip
need unshare
need_mpi
dir=$PWD
job=(run --name=rr --rw=randread --bs=4k --iodepth=2 --direct=0 --size=8m --json "$dir/two.json")
mpiflags=(--oversubscribe --allow-run-as-root --mca btl tcp,self)
limit=(timeout -k 10 "${RAIDLAB_MPI_LIMIT:-600}")

# check RANKS HOSTS: the result has RANKS ranks on HOSTS distinct hosts and their sum
check() {
	[ "$(jqv two.json '.fleet.ranks')" -eq "$1" ] || fail "not $1 ranks in the result"
	[ "$(jq '[.fleet.jobs[0].ranks[].host] | unique | length' two.json)" -eq "$2" ] ||
		fail "the ranks ran on $(jq -c '[.fleet.jobs[0].ranks[].host]' two.json), not $2 host(s)"
	jq -e '.fleet.jobs[0] | .aggregate.read.ios == ([.ranks[].read.ios] | add) and .aggregate.read.ios == 4 * 2048' \
		two.json >/dev/null || fail "the aggregate is not the sum of the ranks' reads"
	jq -e '.fleet.jobs[0].ranks | all(.host as $h | .target | contains("/nx." + $h + "."))' two.json >/dev/null ||
		fail "\$host was not replaced in the targets: $(jq -c '[.fleet.jobs[0].ranks[].target]' two.json)"
}

why=
[ "$(id -u)" = 0 ] || why="not root"
a=rlfl$$a b=rlfl$$b
net=10.213.$(($$ % 250))
if [ -z "$why" ] && ! err=$(ip netns add $a 2>&1); then
	why="ip netns add: $err"
fi
if [ -n "$why" ]; then
	echo "two hosts skipped ($why): 4 ranks on localhost stand in"
	"${limit[@]}" mpirun "${mpiflags[@]}" -n 4 $RAIDLAB "${job[@]}" --target "file($dir/nx.\$host.\$rank, size=8m)" \
		>two.out 2>two.err || { cat two.err two.out; fail "the localhost fleet run"; }
	check 4 1
	skip_env "network namespaces: $why (localhost ranks stood in and passed)"
fi
cleanup_hooks+=("ip netns del $a" "ip netns del $b")
ip netns add $b
ip link add ${a}v type veth peer name ${b}v
ip link set ${a}v netns $a
ip link set ${b}v netns $b
ip -n $a addr add $net.1/24 dev ${a}v
ip -n $b addr add $net.2/24 dev ${b}v
for ns in $a $b; do
	ip -n $ns link set lo up
	ip -n $ns link set ${ns}v up
done

# the hosts: each namespace with a host name of its own
printf '#!/bin/sh\nhostname rlhost-a\nexec "$@"\n' >host-a
cat >agent <<EOF
#!/bin/sh
# Open MPI's rsh agent: HOST COMMAND (one shell string, as ssh takes it)
host=\$1; shift
case \$host in
$net.1) ns=$a name=rlhost-a ;;
$net.2) ns=$b name=rlhost-b ;;
*) echo "agent: no such host: \$host" >&2; exit 1 ;;
esac
exec ip netns exec \$ns unshare --uts sh -c "hostname \$name; \$*"
EOF
chmod +x host-a agent
"${limit[@]}" ip netns exec $a unshare --uts ./host-a mpirun "${mpiflags[@]}" \
	--mca plm_rsh_agent "$dir/agent" --mca oob_tcp_if_include $net.0/24 --mca btl_tcp_if_include $net.0/24 \
	-H $net.1:2,$net.2:2 -n 4 $RAIDLAB "${job[@]}" --target "file($dir/nx.\$host.\$rank, size=8m)" \
	>two.out 2>two.err || { cat two.err two.out; fail "the two-host fleet run"; }
check 4 2
[ "$(jq -c '[.fleet.jobs[0].ranks[].host]' two.json)" = '["rlhost-a","rlhost-a","rlhost-b","rlhost-b"]' ] ||
	fail "ranks on $(jq -c '[.fleet.jobs[0].ranks[].host]' two.json)"
grep -q '^  rank 2 rlhost-b ' two.out || { cat two.out; fail "the report does not show rank 2 on the second host"; }
ls nx.* 2>/dev/null && fail "test files were left behind"
echo "ok: one fleet job over two namespaces (2 ranks each, TCP over a veth pair):" \
	"$(jqv two.json '.fleet.jobs[0].aggregate.read.iops | floor') IOPS in all"
