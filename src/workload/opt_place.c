/*
 * opt_place.c - the option setters of where and at which priority a job's
 * workers run: prio, cmdprio pairs (READ[,WRITE]), cmdprio_bssplit,
 * cpus_allowed and its policy, numa_cpu_nodes and numa_mem_policy.
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

/*
 * One cmdprio_bssplit entry: BS/PCT, or BS/PCT/CLASS/LEVEL[/HINT] with its
 * own priority (fio's three forms; a bare BS/ is 0 percent).
 */
static bool opt_cmdprio_entry(const char *text, struct wl_cmdprio_split *e)
{
	char field[5][64], tmp[128];
	uint64_t v[5] = {0, 0, 0, 0, 0};
	unsigned nf = 0;
	for (const char *p = text;; nf++) {
		size_t len = strcspn(p, "/");
		if (nf == 5 || len >= sizeof(field[0]))
			return false;
		memcpy(field[nf], p, len);
		field[nf][len] = '\0';
		if (!p[len]) {
			nf++;
			break;
		}
		p += len + 1;
	}
	if (nf == 3 || rl_parse_size(field[0], &v[0], tmp, sizeof(tmp)) || !opt_bs_ok(v[0]))
		return false;
	for (unsigned k = 1; k < nf; k++)
		if ((field[k][0] || k > 1) && rl_parse_u64(field[k], &v[k], tmp, sizeof(tmp)))
			return false; /* only the share may be left empty (BS/: 0 percent) */
	if (v[1] > 100 || (nf >= 4 && (v[2] < 1 || v[2] > 3 || v[3] > 7)) || v[4] > 1023)
		return false;
	e->bs = (uint32_t)v[0];
	e->pct = (uint32_t)v[1];
	e->prio = nf >= 4 ? (int32_t)(v[2] << 13 | v[4] << 3 | v[3]) : -1;
	return true;
}

/*
 * cmdprio_bssplit=LIST[,LIST]: reads' and writes' (one list: both) share
 * of requests of each size that carry a priority; the shares of one size
 * add up to at most 100.  A trim list is ignored, as in fio.
 */
int opt_set_cmdprio_bssplit(struct wl_job *job, const struct opt_def *def, const char *value,
                            const struct opt_ctx *ctx)
{
	struct wl_cmdprio_split split[2][WL_BSSPLIT_MAX];
	unsigned n[2] = {0, 0};
	char parts[3][OPT_DIR_PART_MAX];
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	unsigned ndirs = opt_split_dirs(value, parts, 3);
	for (unsigned d = 0; d < ndirs && d < 2; d++) {
		for (char *p = parts[d], *end; p; p = end ? end + 1 : NULL) {
			end = strchr(p, ':');
			if (end)
				*end = '\0';
			if (n[d] == WL_BSSPLIT_MAX || !opt_cmdprio_entry(p, &split[d][n[d]]))
				goto bad;
			unsigned sum = 0;
			for (unsigned i = 0; i <= n[d]; i++)
				if (split[d][i].bs == split[d][n[d]].bs)
					sum += split[d][i].pct;
			if (sum > 100)
				return opt_fail(
				    ctx, true,
				    "the shares of block size %u add up to %u, more than 100, "
				    "in '%s'",
				    split[d][n[d]].bs, sum, value);
			n[d]++;
		}
	}
	if (!ndirs)
		goto bad;
	for (unsigned d = 0; d < 2; d++) {
		unsigned from = d < ndirs ? d : 0;
		memcpy(job->cmdprio_split[d], split[from], n[from] * sizeof(split[0][0]));
		job->ncmdprio_split[d] = n[from];
	}
	return 0;
bad:
	return opt_fail(
	    ctx, true,
	    "expected READ[,WRITE] lists of BS/PCT or BS/PCT/CLASS/LEVEL[/HINT] entries "
	    "separated by ':' (class 1 to 3, level 0 to 7, hint up to 1023), got '%s'",
	    value);
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
