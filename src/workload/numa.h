/*
 * numa.h - numa_cpu_nodes and numa_mem_policy: where a job's threads run
 * and where their memory comes from.
 *
 * The CPUs of a node are read from /sys/devices/system/node/nodeN/cpulist
 * (the kernel's own list, so nothing else is needed); nodes are those the
 * kernel lists as online.  The memory policy is set with set_mempolicy(2)
 * on the worker thread before it allocates its buffers.
 */
#ifndef RL_WORKLOAD_NUMA_H
#define RL_WORKLOAD_NUMA_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/job.h"

/**
 * The CPUs of the nodes in @nodes (bit N: node N; UINT64_MAX: all online)
 * into @set.  Nodes this machine lacks are named in @note (or "" if none);
 * 0, or -ENODEV when none of the nodes exists, with a message in @msg.
 */
int wl_numa_cpus(uint64_t nodes, cpu_set_t *set, char *note, size_t notelen, char *msg,
                 size_t msglen);

/** Set the calling thread's memory policy from @job; 0 or negative errno with @msg. */
int wl_numa_mpol_apply(const struct wl_job *job, char *msg, size_t msglen);

#endif
