/*
 * opt_place.c - the option setters of where and at which priority a job's
 * workers run: prio, cmdprio pairs (READ[,WRITE]), cpus_allowed and its
 * policy, numa_cpu_nodes and numa_mem_policy.
 *
 * Design: CPU and node lists share one parser (opt_parse_idlist) into a
 * 64-bit mask; applying them is the worker's business (run_worker.c, numa.c).
 */
#include "workload/opt_priv.h"

#include "core/spec.h"

#include <string.h>

/* prio=0..7: the job's priority level (best effort unless prioclass says otherwise). */
int opt_set_prio(struct wl_job *job, const struct opt_def *def, const char *value,
                 const struct opt_ctx *ctx)
{
	uint64_t v = 0;
	int ret = opt_parse_uint(def, value, 0, 7, &v, ctx);
	if (ret)
		return ret;
	job->prio_level = (uint32_t)v;
	job->prio_set = true;
	return 0;
}

/* R[,W]: one value for reads and writes, or one each (cmdprio_*). */
int opt_set_pair(struct wl_job *job, const struct opt_def *def, const char *value,
                 const struct opt_ctx *ctx)
{
	char a[32], tmp[128];
	uint64_t v[2] = {0, 0};
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	const char *comma = strchr(value, ',');
	size_t n = comma ? (size_t)(comma - value) : strlen(value);
	if (n == 0 || n >= sizeof(a) || (comma && strchr(comma + 1, ',')))
		goto bad;
	memcpy(a, value, n);
	a[n] = '\0';
	if (rl_parse_u64(a, &v[0], tmp, sizeof(tmp)) || v[0] < def->min || v[0] > def->max)
		goto bad;
	v[1] = v[0];
	if (comma && (rl_parse_u64(comma + 1, &v[1], tmp, sizeof(tmp)) || v[1] < def->min ||
	              v[1] > def->max))
		goto bad;
	uint32_t *f = OPT_FIELD(job, def, uint32_t);
	f[0] = (uint32_t)v[0];
	f[1] = (uint32_t)v[1];
	return 0;
bad:
	return opt_fail(ctx, true,
	                "expected READ[,WRITE] whole numbers from %llu to %llu, got '%s'",
	                (unsigned long long)def->min, (unsigned long long)def->max, value);
}

/* cpus_allowed=0-3,6: the CPUs the job's workers may run on (0 to 63). */
int opt_set_cpus(struct wl_job *job, const struct opt_def *def, const char *value,
                 const struct opt_ctx *ctx)
{
	uint64_t mask = 0;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (!opt_parse_idlist(value, false, &mask))
		return opt_fail(
		    ctx, true,
		    "expected CPU numbers from 0 to 63 and ranges such as 0-3,6, got '%s'", value);
	job->cpus = mask;
	return 0;
}

/* numa_cpu_nodes=0-1,3 | all: run on the CPUs of these NUMA nodes. */
int opt_set_numa_nodes(struct wl_job *job, const struct opt_def *def, const char *value,
                       const struct opt_ctx *ctx)
{
	uint64_t mask = 0;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (!opt_parse_idlist(value, true, &mask))
		return opt_fail(ctx, true,
		                "expected NUMA node numbers from 0 to 63, ranges such as 0-1,3, or "
		                "all, got '%s'",
		                value);
	job->numa_nodes = mask;
	return 0;
}

/* numa_mem_policy=default|local|prefer:N|bind:LIST|interleave:LIST */
int opt_set_numa_mpol(struct wl_job *job, const struct opt_def *def, const char *value,
                      const struct opt_ctx *ctx)
{
	static const struct opt_choice modes[] = {
	    {"default", WL_MPOL_DEFAULT},       {"prefer", WL_MPOL_PREFER}, {"bind", WL_MPOL_BIND},
	    {"interleave", WL_MPOL_INTERLEAVE}, {"local", WL_MPOL_LOCAL},   {NULL, 0},
	};
	char mode[16];
	uint64_t mask = 0;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	const char *colon = strchr(value, ':');
	size_t n = colon ? (size_t)(colon - value) : strlen(value);
	const struct opt_choice *c = NULL;
	if (n < sizeof(mode)) {
		memcpy(mode, value, n);
		mode[n] = '\0';
		c = opt_find_choice(modes, mode);
	}
	if (!c)
		return opt_fail(ctx, true,
		                "expected default, local, prefer:NODE, bind:NODES or "
		                "interleave:NODES, got '%s'",
		                value);
	bool nodes = c->value == WL_MPOL_PREFER || c->value == WL_MPOL_BIND ||
	             c->value == WL_MPOL_INTERLEAVE;
	if (nodes != (colon != NULL) || (colon && !opt_parse_idlist(colon + 1, true, &mask)))
		return opt_fail(ctx, true, "%s: expected %s, got '%s'", mode,
		                nodes ? "a node list after ':' (0, 0-1, all)" : "no node list",
		                value);
	if (c->value == WL_MPOL_PREFER && __builtin_popcountll(mask) != 1)
		return opt_fail(ctx, true, "prefer takes exactly one node, got '%s'", value);
	job->numa_mpol = (enum wl_mpol)c->value;
	job->numa_mem_nodes = mask;
	return 0;
}

int opt_set_cpus_policy(struct wl_job *job, const struct opt_def *def, const char *value,
                        const struct opt_ctx *ctx)
{
	return opt_two_words(def, value, ctx, "shared", "split", &job->cpus_split);
}
