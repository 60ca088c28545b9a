/*
 * profile_probe.c - the characterization `raidlab profile learn` runs.
 *
 * Every figure comes from a job run through the target interface
 * (wl_run_job), so a simulated drive, a scratch file and a whole device are
 * measured alike.  The order matters and is the same on the black box and
 * on every candidate model: the test area is written first (its rate is
 * the write cache's), then read at rising queue depths and block sizes
 * (reads after writes), then overwritten at random, and finally the whole
 * target is read at random (reads of what was never written).  The
 * sequential fill that finds the write knee runs after the probes, from
 * the end of the area on, in chunks whose rates show where the cache ends;
 * when it reaches the end, pl_sustain runs random writes over the whole
 * written target (what the spare area decides).  Reads that follow writes,
 * and pl_sustain, start with the target at rest (pl_settle: a FLUSH).
 *
 * A disk's speed can move by half within seconds (a virtual disk shares its
 * host), so a figure is not one run: consecutive time-based probes of one
 * direction (the reads, then the random writes) form a group, which runs
 * plan->rounds times in turn, each probe for its share of the time, and each
 * figure is the median of its slices.  A slow spell then moves one slice of
 * every probe, not every slice of one probe, which would bend the curve
 * the fit follows.  The model runs the same rounds, so the order of what
 * reaches its flash is the black box's.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/profile_priv.h"
#include "stats/hist.h"
#include "workload/job.h"
#include "workload/run.h"

#define MIB (1ull << 20)

const struct pl_probe pl_probes[] = {
    {"sw1m-qd8", "sequential writes 1 MiB QD8 over the empty area (the write cache's rate)",
     "rw=write bs=1m iodepth=8", PL_MBS, RL_OP_WRITE, false, false, 1},
    {"rr4k-qd1", "4K random reads QD1 (latency)", "rw=randread bs=4k iodepth=1", PL_LAT_US,
     RL_OP_READ, true, false, 1.5},
    {"rr4k-qd4", "4K random reads QD4", "rw=randread bs=4k iodepth=4", PL_IOPS, RL_OP_READ, true,
     false, 1},
    {"rr4k-qd16", "4K random reads QD16", "rw=randread bs=4k iodepth=16", PL_IOPS, RL_OP_READ, true,
     false, 1},
    {"rr4k-qd64", "4K random reads QD64", "rw=randread bs=4k iodepth=64", PL_IOPS, RL_OP_READ, true,
     false, 1},
    {"rr128k-qd1", "128K random reads QD1 (latency against block size)",
     "rw=randread bs=128k iodepth=1", PL_LAT_US, RL_OP_READ, true, false, 1},
    {"sr1m-qd8", "sequential reads 1 MiB QD8 (the interface limit)", "rw=read bs=1m iodepth=8",
     PL_MBS, RL_OP_READ, true, false, 1.5},
    {"sr16m-qd1", "sequential reads 16 MiB QD1", "rw=read bs=16m iodepth=1", PL_MBS, RL_OP_READ,
     true, false, 1},
    {"rw4k-qd1", "4K random writes QD1 (latency)", "rw=randwrite bs=4k iodepth=1", PL_LAT_US,
     RL_OP_WRITE, true, false, 1.5},
    {"rw4k-qd16", "4K random writes QD16", "rw=randwrite bs=4k iodepth=16", PL_IOPS, RL_OP_WRITE,
     true, false, 1},
    {"rw4k-qd64", "4K random writes QD64", "rw=randwrite bs=4k iodepth=64", PL_IOPS, RL_OP_WRITE,
     true, false, 1},
    {"rr4k-span", "4K random reads QD1 over the whole target (mostly never written)",
     "rw=randread bs=4k iodepth=1", PL_LAT_US, RL_OP_READ, true, true, 0},
};
const size_t pl_nprobes = sizeof(pl_probes) / sizeof(pl_probes[0]);

const struct pl_probe pl_sustain_probe = {
    "rw4k-full",
    "4K random writes QD32 over the whole target after the fill (the spare area)",
    "rw=randwrite bs=4k iodepth=32",
    PL_IOPS,
    RL_OP_WRITE,
    true,
    true,
    0};

/* A job named @name from "KEY=VALUE ..." @spec (learn's own, always well formed). */
static int pl_job_from(struct wl_job *job, const char *name, const char *spec, char *msg,
                       size_t msglen)
{
	char opts[128], *save = NULL;

	wl_job_init(job);
	snprintf(job->name, sizeof(job->name), "%s", name);
	snprintf(opts, sizeof(opts), "%s", spec);
	for (char *tok = strtok_r(opts, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');
		*eq = 0;
		if (wl_job_set(job, tok, eq + 1, name, msg, msglen))
			return -EINVAL;
	}
	return 0;
}

/* Build @p's job: its options, then the region and the time. */
static int pl_job(const struct pl_probe *p, struct rl_target *t, const struct pl_plan *plan,
                  struct wl_job *job, char *msg, size_t msglen)
{
	if (pl_job_from(job, p->id, p->job, msg, msglen))
		return -EINVAL;
	job->offset = 0;
	job->size = p->span ? t->size / job->bs * job->bs : plan->area;
	if (p->timed) {
		job->time_based = true;
		job->runtime_ns = plan->runtime_ns;
	}
	return 0;
}

static double pl_figure(const struct wl_result *res, const struct pl_probe *p)
{
	const struct wl_dir_result *d = &res->dir[p->dir];

	if (!d->ios || !res->runtime_ns)
		return NAN;
	switch (p->fig) {
	case PL_LAT_US:
		return st_hist_mean(&d->hist) / 1e3;
	case PL_IOPS:
		return wl_result_iops(res, p->dir);
	case PL_MBS:
		return wl_result_bw(res, p->dir) / 1e6;
	}
	return NAN;
}

/*
 * Run probe @p once, for @runtime_ns when it is timed, with random offsets
 * from @seed: its figure in *@fig.
 */
static int pl_run_one(struct rl_target *t, const struct pl_plan *plan, const struct pl_probe *p,
                      uint64_t runtime_ns, uint64_t seed, double *fig, char *msg, size_t msglen)
{
	struct wl_run_opts opts = {0};
	struct pl_plan one = *plan;
	struct wl_job job;
	struct wl_result res;
	int rc;

	one.runtime_ns = runtime_ns;
	if (pl_job(p, t, &one, &job, msg, msglen))
		return -EINVAL;
	if (seed)
		job.seed = seed;
	memset(&res, 0, sizeof(res));
	rc = wl_run_job(t, &job, &opts, &res, msg, msglen);
	if (rc) {
		wl_result_free(&res);
		return rc;
	}
	if (!wl_result_ok(&res)) {
		snprintf(msg, msglen, "%s: I/O errors on the target (%s)", p->id,
		         strerror(-res.first_error));
		wl_result_free(&res);
		return -EIO;
	}
	*fig = pl_figure(&res, p);
	wl_result_free(&res);
	return 0;
}

static double pl_median(double *v, size_t n, double *spread);

/*
 * The target at rest before reads follow writes: one 4K write at offset 0
 * (learn writes over the whole area anyway) and a FLUSH, not measured.  A
 * virtual disk whose host caches writes is otherwise still writing them
 * back while the reads run (4K reads QD1 at 182 us right after the area's
 * 1 GiB, 103 us a minute later); a drive drains its write buffer.
 */
static int pl_settle(struct rl_target *t, char *msg, size_t msglen)
{
	struct wl_run_opts opts = {0};
	struct wl_job job;
	struct wl_result res;
	int rc;

	if (pl_job_from(&job, "settle", "rw=write bs=4k end_fsync=1", msg, msglen))
		return -EINVAL;
	job.offset = 0;
	job.size = 4096;
	memset(&res, 0, sizeof(res));
	rc = wl_run_job(t, &job, &opts, &res, msg, msglen);
	if (!rc && !wl_result_ok(&res)) {
		snprintf(msg, msglen, "settle: I/O errors on the target (%s)",
		         strerror(-res.first_error));
		rc = -EIO;
	}
	wl_result_free(&res);
	return rc;
}

#define PL_ROUNDS_MAX 16

int pl_run_probes(struct rl_target *t, const struct pl_plan *plan, double *out, pl_note_fn note,
                  void *arg, char *msg, size_t msglen)
{
	unsigned rounds = plan->rounds < 1 ? 1 : plan->rounds;

	if (rounds > PL_ROUNDS_MAX)
		rounds = PL_ROUNDS_MAX;
	for (size_t i = 0; i < pl_nprobes;) {
		/* the group: probe i and the time-based probes of its direction after it */
		size_t end = i + 1;
		bool grouped = pl_probes[i].timed && !pl_probes[i].span;
		while (grouped && end < pl_nprobes && end - i < 16 && pl_probes[end].timed &&
		       !pl_probes[end].span && pl_probes[end].dir == pl_probes[i].dir)
			end++;
		unsigned nr = grouped ? rounds : 1;
		double v[PL_ROUNDS_MAX * 16], spread;
		if (i && pl_probes[i].dir == RL_OP_READ && pl_probes[i - 1].dir == RL_OP_WRITE) {
			int rc = pl_settle(t, msg, msglen);
			if (rc)
				return rc;
		}
		for (unsigned r = 0; r < nr; r++)
			for (size_t k = i; k < end; k++) {
				const struct pl_probe *p = &pl_probes[k];
				int rc;
				if (wl_run_stop_requested())
					return -EINTR;
				if (note)
					note(arg, p->what,
					     ((double)i + (double)(r * (end - i) + k - i) / nr) /
					         (double)pl_nprobes);
				rc = pl_run_one(t, plan, p, plan->runtime_ns / nr, 0,
				                &v[(k - i) * nr + r], msg, msglen);
				if (rc)
					return rc;
			}
		for (size_t k = i; k < end; k++) {
			/* a slice that did no I/O (NAN) does not vote */
			double *s = &v[(k - i) * nr];
			size_t n = 0;
			for (unsigned r = 0; r < nr; r++)
				if (!isnan(s[r]))
					s[n++] = s[r];
			out[k] = n ? pl_median(s, n, &spread) : NAN;
		}
		i = end;
	}
	return wl_run_stop_requested() ? -EINTR : 0;
}

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Median and relative spread (median absolute deviation / median) of @v[n] (sorted here). */
static double pl_median(double *v, size_t n, double *spread)
{
	double m, dev[256];

	*spread = 0;
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), dcmp);
	m = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	for (size_t i = 0; i < n && i < 256; i++)
		dev[i] = fabs(v[i] - m);
	qsort(dev, n < 256 ? n : 256, sizeof(*dev), dcmp);
	if (m > 0)
		*spread = dev[(n < 256 ? n : 256) / 2] / m;
	return m;
}

#define PL_RATES_MAX 4096

int pl_sustain(struct rl_target *t, struct pl_sustain *s, pl_note_fn note, void *arg, char *msg,
               size_t msglen)
{
	struct pl_plan plan = {.area = t->size};
	double v[PL_RATES_MAX], sorted[PL_RATES_MAX];
	unsigned n = s->slices < PL_RATES_MAX ? s->slices : PL_RATES_MAX;

	s->run = false;
	if (n) {
		int rc = pl_settle(t, msg, msglen); /* after the fill */
		if (rc)
			return rc;
	}
	for (unsigned i = 0; i < n; i++) {
		int rc;
		if (wl_run_stop_requested())
			return -EINTR;
		if (note)
			note(arg, pl_sustain_probe.what, (double)i / n);
		/* a new seed per slice: each slice writes new places, as one long run would */
		rc = pl_run_one(t, &plan, &pl_sustain_probe, s->slice_ns, 1000 + i, &v[i], msg,
		                msglen);
		if (rc)
			return rc;
		if (isnan(v[i]))
			v[i] = 0;
	}
	if (!n)
		return 0;
	memcpy(sorted, v, n * sizeof(*v));
	pl_median(sorted, n, &s->spread);
	s->iops = 0;
	for (unsigned i = 0; i < n; i++)
		s->iops += v[i] / n;
	s->first = v[0];
	s->last = v[n - 1];
	s->run = true;
	return 0;
}

int pl_fill(struct rl_target *t, uint64_t from, uint64_t budget_ns, struct pl_knee *k,
            pl_note_fn note, void *arg, char *msg, size_t msglen)
{
	static double rate[PL_RATES_MAX];
	uint64_t chunk = t->size / 512, used_ns = 0, off = from;
	unsigned n = 0, low = 0, knee_i = 0;
	struct wl_run_opts opts = {0};
	double base = 0;

	memset(k, 0, sizeof(*k));
	k->written = from;
	if (chunk < 64 * MIB)
		chunk = 64 * MIB;
	if (chunk > 1024 * MIB)
		chunk = 1024 * MIB;
	chunk = chunk / MIB * MIB;
	while (off + MIB <= t->size && n < PL_RATES_MAX) {
		struct wl_job job;
		struct wl_result res;
		uint64_t len = t->size - off < chunk ? (t->size - off) / MIB * MIB : chunk;
		int rc;

		if (wl_run_stop_requested())
			return -EINTR;
		if (note)
			note(arg, "sequential fill (the write knee)",
			     budget_ns ? (double)used_ns / (double)budget_ns : 0);
		if (pl_job_from(&job, "fill", "rw=write bs=1m iodepth=8", msg, msglen))
			return -EINVAL;
		job.offset = off;
		job.size = len;
		memset(&res, 0, sizeof(res));
		rc = wl_run_job(t, &job, &opts, &res, msg, msglen);
		if (!rc && !wl_result_ok(&res)) {
			snprintf(msg, msglen, "fill: I/O errors on the target");
			rc = -EIO;
		}
		if (rc) {
			wl_result_free(&res);
			return rc;
		}
		rate[n] = wl_result_bw(&res, RL_OP_WRITE) / 1e6;
		used_ns += res.runtime_ns;
		wl_result_free(&res);
		if (wl_run_stop_requested())
			return -EINTR;
		off += len;
		k->written = off;
		n++;
		/* the cache's rate: the best of the first chunks */
		if (n <= 3 && rate[n - 1] > base)
			base = rate[n - 1];
		if (n > 3 && !knee_i) {
			low = rate[n - 1] < 0.7 * base ? low + 1 : 0;
			if (low == 3) {
				knee_i = n - 3;
				k->knee = from + (uint64_t)knee_i * chunk;
			}
		}
		/* after the knee: enough chunks for the rate there */
		if (knee_i && n - knee_i >= 8 && (double)(n - knee_i) >= 0.1 * knee_i)
			break;
		if (budget_ns && used_ns >= budget_ns)
			break;
	}
	k->chunks = n;
	k->sampled = off + MIB <= t->size;
	if (knee_i) {
		double a[PL_RATES_MAX];
		memcpy(a, rate, knee_i * sizeof(*a));
		k->cache_mbs = pl_median(a, knee_i, &k->cache_sd);
		memcpy(a, rate + knee_i, (n - knee_i) * sizeof(*a));
		k->after_mbs = pl_median(a, n - knee_i, &k->after_sd);
	} else {
		double a[PL_RATES_MAX];
		memcpy(a, rate, n * sizeof(*a));
		k->cache_mbs = pl_median(a, n, &k->cache_sd);
	}
	return 0;
}
