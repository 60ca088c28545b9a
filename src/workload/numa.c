/*
 * numa.c - NUMA placement of a job's threads (see numa.h).
 */
#include "workload/numa.h"

#include <errno.h>
#include <linux/mempolicy.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NUMA_SYSFS "/sys/devices/system/node"

/* Read a kernel list ("0-3,8") from @path into @set (CPUs) or @mask (nodes < 64). */
static int numa_read_list(const char *path, cpu_set_t *set, uint64_t *mask)
{
	char buf[4096];
	FILE *f = fopen(path, "r");
	if (!f)
		return -errno;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	for (char *p = buf; *p && *p != '\n';) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a;
		if (end == p)
			return -EINVAL;
		if (*end == '-') {
			p = end + 1;
			b = strtoul(p, &end, 10);
			if (end == p || b < a)
				return -EINVAL;
		}
		for (unsigned long c = a; c <= b; c++) {
			if (set && c < CPU_SETSIZE)
				CPU_SET(c, set);
			if (mask && c < 64)
				*mask |= 1ull << c;
		}
		p = *end == ',' ? end + 1 : end;
	}
	return 0;
}

static uint64_t numa_online(void)
{
	uint64_t mask = 0;
	if (numa_read_list(NUMA_SYSFS "/online", NULL, &mask))
		mask = 1; /* no NUMA support in the kernel: one node, 0 */
	return mask;
}

int wl_numa_cpus(uint64_t nodes, cpu_set_t *set, char *note, size_t notelen, char *msg,
                 size_t msglen)
{
	uint64_t online = numa_online();
	size_t pos = 0;

	CPU_ZERO(set);
	if (note && notelen)
		note[0] = '\0';
	if (nodes == UINT64_MAX)
		nodes = online;
	for (unsigned n = 0; n < 64; n++) {
		if (!(nodes >> n & 1))
			continue;
		char path[96];
		snprintf(path, sizeof(path), NUMA_SYSFS "/node%u/cpulist", n);
		if (!(online >> n & 1) || numa_read_list(path, set, NULL)) {
			if (note && pos + 1 < notelen) {
				int k =
				    snprintf(note + pos, notelen - pos, "%s%u", pos ? "," : "", n);
				pos += k > 0 ? (size_t)k : 0;
				if (pos >= notelen)
					pos = notelen - 1;
			}
		}
	}
	if (CPU_COUNT(set) == 0) {
		snprintf(msg, msglen,
		         "numa_cpu_nodes: none of the nodes has CPUs on this machine (online "
		         "nodes: mask 0x%llx)",
		         (unsigned long long)online);
		return -ENODEV;
	}
	return 0;
}

int wl_numa_mpol_apply(const struct wl_job *job, char *msg, size_t msglen)
{
	unsigned long mask = (unsigned long)job->numa_mem_nodes;
	int mode;

	switch (job->numa_mpol) {
	case WL_MPOL_NONE:
		return 0;
	case WL_MPOL_DEFAULT:
		mode = MPOL_DEFAULT;
		mask = 0;
		break;
	case WL_MPOL_LOCAL:
		mode = MPOL_LOCAL;
		mask = 0;
		break;
	case WL_MPOL_PREFER:
		mode = MPOL_PREFERRED;
		break;
	case WL_MPOL_BIND:
		mode = MPOL_BIND;
		break;
	case WL_MPOL_INTERLEAVE:
		mode = MPOL_INTERLEAVE;
		break;
	default:
		return -EINVAL;
	}
	if (job->numa_mem_nodes == UINT64_MAX)
		mask = (unsigned long)numa_online();
	/* the kernel masks nodes that are not present; none left is EINVAL */
	if (syscall(SYS_set_mempolicy, mode, mask ? &mask : NULL, mask ? 64ul + 1 : 0ul)) {
		int e = errno;
		snprintf(msg, msglen, "numa_mem_policy: set_mempolicy failed: %s (nodes 0x%lx)",
		         strerror(e), mask);
		return -e;
	}
	return 0;
}
