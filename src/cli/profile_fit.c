/*
 * profile_fit.c - the simulator's parameters fitted to a characterization.
 *
 * Method.  The model is the simulator itself: a candidate set of parameters
 * is written as a profile file, opened as ssd(FILE) and run through the same
 * probes the black box ran (profile_probe.c), in the same order.  The
 * objective is the weighted sum of squared log errors over the probes,
 * S = sum w (ln sim - ln measured)^2, so a 10 % miss costs the same on a
 * latency as on a rate.  The geometry the probes cannot see (planes, page
 * and block size, cell type) is fixed at common values; the dies are chosen
 * from a grid (the queue-depth scaling of random reads sets them); seven
 * continuous parameters (the fixed latency, the page read time, the
 * controller's time per read and per write command, the channel rate, the
 * program time of the write cache and the link rate) are then moved one at
 * a time in log space, by factors 1.5, 1.2 and 1.07, within bounds, while S
 * falls (coordinate descent).  First guesses come from the figures directly
 * (pl_model_guess), so the descent starts near the answer.
 *
 * Uncertainty: each parameter is moved by 10 % either way; the curvature
 * of S there and the residual variance give a standard error in log terms
 * (Gauss-Newton), and the probes whose figures moved most name the
 * measurements that set it.  A parameter S does not feel is written as
 * "not determined".  The write knee is fitted apart: the fill is run on
 * the model and the SLC size and the program time after the cache are
 * scaled until the model's knee and rate match the measured ones.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/profile_priv.h"
#include "core/registry.h"
#include "workload/run.h"

#define MIB (1ull << 20)

const char *const pl_par_names[PL_NPAR] = {"latency",      "t_read",         "cmd_time",
                                           "channel_rate", "cmd_write_time", "t_prog_slc",
                                           "link_bw",      "write_buffer"};

/* Bounds of each parameter (us, MB/s, MiB). */
static const double par_lo[PL_NPAR] = {1, 5, 0.2, 50, 0.2, 20, 50, 1};
static const double par_hi[PL_NPAR] = {400, 800, 200, 4000, 400, 20000, 16000, 64};

/* Planes, page and pages per block of every learned profile (not measurable). */
#define PL_PLANES 2u
#define PL_PAGE   16384u
#define PL_PAGES  256u

int pl_tmpfile(char *path, size_t len)
{
	const char *dir = getenv("TMPDIR");

	snprintf(path, len, "%s/raidlab-learn-XXXXXX.profile", dir && *dir ? dir : "/tmp");
	return mkstemps(path, 8);
}

static unsigned pl_channels(unsigned dies)
{
	return dies >= 8 ? 8 : dies;
}

/* Bytes one program of all dies moves. */
static double pl_stripe(unsigned dies)
{
	return (double)dies * PL_PLANES * PL_PAGE;
}

static double clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static double fig_or(const double *m, size_t i, double def)
{
	return isfinite(m[i]) && m[i] > 0 ? m[i] : def;
}

/* Index of probe @id. */
static size_t pid(const char *id)
{
	for (size_t i = 0; i < pl_nprobes; i++)
		if (!strcmp(pl_probes[i].id, id))
			return i;
	return 0;
}

void pl_model_guess(struct pl_model *m, const double *meas, const struct pl_knee *k,
                    uint64_t capacity)
{
	double link = fig_or(meas, pid("sr1m-qd8"), 500);
	double lat1 = fig_or(meas, pid("rr4k-qd1"), 100);
	double lat128 = fig_or(meas, pid("rr128k-qd1"), lat1 + 100);
	double iops64 = fig_or(meas, pid("rr4k-qd64"), 100000);
	double wlat = fig_or(meas, pid("rw4k-qd1"), 30);
	double wiops = fig_or(meas, pid("rw4k-qd64"), 50000);
	double wrate = k && k->cache_mbs > 0 ? k->cache_mbs : fig_or(meas, pid("sw1m-qd8"), 300);
	double *p = m->par;

	memset(m, 0, sizeof(*m));
	m->sata = link < 600;
	m->link_mbs = link;
	m->capacity = capacity;
	m->dies = 8;
	p[6] = clampd(link * 1.02, par_lo[6], par_hi[6]);
	p[0] = m->sata ? 12 : 8;
	/* 124 KiB more per read: the per-byte time of the data path */
	double per_byte_us = (lat128 - lat1) / (124.0 * 1024);
	p[3] = clampd(per_byte_us > 0 ? 1.0 / per_byte_us : 800, par_lo[3], par_hi[3]);
	p[2] = clampd(0.9e6 / iops64, par_lo[2], par_hi[2]);
	p[1] = clampd(lat1 - p[0] - p[2] - 4096 / p[3] - 4096 / link, par_lo[1], par_hi[1]);
	p[4] = clampd(0.9e6 / wiops, par_lo[4], par_hi[4]);
	(void)wlat;
	p[5] = clampd(pl_stripe(m->dies) / wrate, par_lo[5], par_hi[5]);
	p[7] = 8;
	if (k && k->knee) {
		m->slc_size = k->knee;
		m->t_prog_us = pl_stripe(m->dies) / (k->after_mbs > 0 ? k->after_mbs : wrate / 3);
	} else {
		m->t_prog_us = p[5];
	}
	m->op_pct = 7;
}

/* Blocks per plane for the capacity with ~7 % spare and room for GC. */
static unsigned pl_blocks(const struct pl_model *m)
{
	double sb = pl_stripe(m->dies) * PL_PAGES;
	double need = ceil((double)m->capacity * (1 + m->op_pct / 100) / sb);
	double least = ceil((double)m->capacity / sb) + 12;

	if (need < least)
		need = least;
	need += ceil(need / 100);
	return need > (1u << 20) ? 1u << 20 : (unsigned)need;
}

/* The parameters as profile lines; @tag[i] (may be NULL) follows parameter i. */
static void pl_model_lines(FILE *f, const struct pl_model *m, char (*tag)[200])
{
	const double *p = m->par;
	unsigned ch = pl_channels(m->dies);
	bool cache = m->slc_size > 0;
#define TAG(i) (tag ? tag[i] : "")
#define EST    (tag ? "  # [est: not measured by learn; a common value]" : "")

	fprintf(f, "iface = %s%s\n", m->sata ? "sata" : "nvme",
	        tag ? "  # [calc: sr1m-qd8, SATA below 600 MB/s (one queue of 32)]" : "");
	if (m->sata)
		fprintf(f, "sata_gen = 3%s\n", EST);
	fprintf(f, "link_bw = %.0fMB/s%s\n", p[6], TAG(6));
	fprintf(f, "latency = %.2fus%s\n", p[0], TAG(0));
	fprintf(f, "cmd_time = %.3fus%s\n", p[2], TAG(2));
	fprintf(f, "cmd_write_time = %.3fus%s\n", p[4], TAG(4));
	fprintf(f, "cell = %s%s\n", cache ? "tlc" : "mlc",
	        tag ? "  # [est: tlc when a write cache was seen, else mlc]" : "");
	fprintf(f, "channels = %u%s\n", ch,
	        tag ? "  # [est: 8, fewer when there are fewer dies]" : "");
	fprintf(f, "dies = %u%s\n", m->dies / ch, tag ? tag[PL_NPAR] : "");
	fprintf(f, "planes = %u%s\npage = %uk%s\npages = %u%s\n", PL_PLANES, EST, PL_PAGE / 1024,
	        EST, PL_PAGES, EST);
	fprintf(f, "blocks = %u%s\n", pl_blocks(m), TAG(PL_NPAR + 4));
	fprintf(f, "channel_rate = %.0fMB/s%s\n", p[3], TAG(3));
	fprintf(f, "t_read = %.2fus%s\n", p[1], TAG(1));
	fprintf(f, "t_read_slc = %.2fus%s\n", p[1],
	        tag ? "  # [= t_read: the probes do not tell SLC and native reads apart]" : "");
	if (cache) {
		fprintf(f, "t_prog = %.1fus%s\n", m->t_prog_us, tag ? tag[PL_NPAR + 1] : "");
		fprintf(f, "t_prog_slc = %.1fus%s\n", p[5], TAG(5));
	} else {
		fprintf(f, "t_prog = %.1fus%s\n", p[5], TAG(5));
		fprintf(f, "t_prog_slc = %.1fus%s\n", p[5],
		        tag ? "  # [= t_prog: no write cache seen]" : "");
	}
	fprintf(f, "t_erase = 3ms%s\nt_suspend = 20us%s\nsuspend = on%s\n", EST, EST, EST);
	fprintf(f, "capacity = %llu%s\n", (unsigned long long)m->capacity,
	        tag ? tag[PL_NPAR + 2] : "");
	fprintf(f, "map_unit = 4k%s\ngc = greedy%s\n", EST, EST);
	fprintf(f, "write_buffer = %.0fm%s\n", p[7], TAG(7));
	fprintf(f, "trim = on%s\nidle = 1ms%s\n", EST, EST);
	if (cache)
		fprintf(f, "slc = dynamic%s\nslc_size = %llu%s\n",
		        tag ? "  # [est: a cache that fills and empties]" : "",
		        (unsigned long long)m->slc_size, tag ? tag[PL_NPAR + 3] : "");
	else
		fprintf(f, "slc = off%s\n", tag ? tag[PL_NPAR + 3] : "");
#undef TAG
#undef EST
}

static int pl_model_file(const struct pl_model *m, const char *tmp, char *msg, size_t msglen)
{
	FILE *f = fopen(tmp, "w");

	if (!f) {
		snprintf(msg, msglen, "%s: %s", tmp, strerror(errno));
		return -errno;
	}
	fprintf(f, "name = learn-candidate\n");
	pl_model_lines(f, m, NULL);
	if (fclose(f)) {
		snprintf(msg, msglen, "%s: cannot write", tmp);
		return -EIO;
	}
	return 0;
}

/* Open the model as ssd(@tmp@extra) (@extra: "" or ", state=full"). */
static int pl_model_open_as(const struct pl_model *m, const char *tmp, const char *extra,
                            struct rl_target **t, char *msg, size_t msglen)
{
	char spec[4200];
	struct rl_build_ctx ctx;
	struct rl_err err;
	int rc = pl_model_file(m, tmp, msg, msglen);

	if (rc)
		return rc;
	snprintf(spec, sizeof(spec), "ssd(%s%s)", tmp, extra);
	rl_build_ctx_init(&ctx);
	ctx.quiet = true;
	ctx.write_intent = true;
	rc = rl_target_open(spec, &ctx, t, &err);
	if (rc)
		snprintf(msg, msglen, "the fitted model does not open: %s", err.msg);
	return rc;
}

static int pl_model_open(const struct pl_model *m, const char *tmp, struct rl_target **t, char *msg,
                         size_t msglen)
{
	return pl_model_open_as(m, tmp, "", t, msg, msglen);
}

int pl_model_probe(const struct pl_model *m, const struct pl_plan *plan, const char *tmp,
                   double *out, char *msg, size_t msglen)
{
	struct rl_target *t = NULL;
	int rc = pl_model_open(m, tmp, &t, msg, msglen);

	if (rc)
		return rc;
	rc = pl_run_probes(t, plan, out, NULL, NULL, msg, msglen);
	rl_target_close(t);
	return rc;
}

/* The model's fill after its probes, as on the black box. */
static int pl_model_fill(const struct pl_model *m, const struct pl_plan *plan, const char *tmp,
                         uint64_t written, struct pl_knee *k, char *msg, size_t msglen)
{
	struct rl_target *t = NULL;
	double figs[64];
	int rc = pl_model_open(m, tmp, &t, msg, msglen);

	if (rc)
		return rc;
	rc = pl_run_probes(t, plan, figs, NULL, NULL, msg, msglen);
	(void)written;
	if (!rc)
		rc = pl_fill(t, plan->area, 0, k, NULL, NULL, msg, msglen);
	rl_target_close(t);
	return rc;
}

struct pl_fitctx {
	const double *meas;
	const struct pl_plan *plan;
	const char *tmp;
	unsigned evals, max_evals;
	pl_note_fn note;
	void *arg;
	char *msg;
	size_t msglen;
};

/* S of @m (figures into @figs); INFINITY when the model does not run. */
static double pl_cost(struct pl_fitctx *c, const struct pl_model *m, double *figs)
{
	double s = 0;

	c->evals++;
	if (c->note && c->evals % 4 == 0)
		c->note(c->arg, "fitting", (double)c->evals / c->max_evals);
	if (pl_model_probe(m, c->plan, c->tmp, figs, c->msg, c->msglen))
		return INFINITY;
	for (size_t i = 0; i < pl_nprobes; i++) {
		double w = pl_probes[i].weight;
		if (!w || !isfinite(c->meas[i]) || c->meas[i] <= 0)
			continue;
		if (!isfinite(figs[i]) || figs[i] <= 0)
			return INFINITY;
		double e = log(figs[i] / c->meas[i]);
		s += w * e * e;
	}
	return s;
}

/* The dies of @m changed: keep the write cache's rate (t_prog_slc with the dies). */
static void pl_set_dies(struct pl_model *m, unsigned dies)
{
	double f = (double)dies / m->dies;

	m->par[5] = clampd(m->par[5] * f, par_lo[5], par_hi[5]);
	m->t_prog_us *= f;
	m->dies = dies;
}

static int pl_counted(const double *meas)
{
	int n = 0;
	for (size_t i = 0; i < pl_nprobes; i++)
		n += pl_probes[i].weight > 0 && isfinite(meas[i]) && meas[i] > 0;
	return n;
}

int pl_model_fit(struct pl_model *m, const double *meas, const struct pl_plan *plan,
                 const char *tmp, unsigned max_evals, pl_note_fn note, void *arg, char *msg,
                 size_t msglen)
{
	struct pl_fitctx c = {meas, plan, tmp, 0, max_evals, note, arg, msg, msglen};
	static const unsigned grid[] = {2, 4, 8, 16, 32, 64};
	static const double steps[] = {1.5, 1.2, 1.07};
	double figs[64], best;
	struct pl_model b = *m;

	/* the dies: the grid, each with the first guesses */
	best = INFINITY;
	for (size_t g = 0; g < sizeof(grid) / sizeof(grid[0]); g++) {
		struct pl_model q = *m;
		pl_set_dies(&q, grid[g]);
		double s = pl_cost(&c, &q, figs);
		if (s < best) {
			best = s;
			b = q;
		}
	}
	if (!isfinite(best))
		return -EINVAL;
	*m = b;
	for (size_t st = 0; st < sizeof(steps) / sizeof(steps[0]); st++) {
		for (int pass = 0; pass < 3 && c.evals < max_evals; pass++) {
			bool moved = false;
			for (int i = 0; i < PL_NPAR - 1 && c.evals < max_evals; i++) {
				for (int dir = -1; dir <= 1; dir += 2) {
					bool went = false;
					for (;;) {
						struct pl_model q = *m;
						double f = dir > 0 ? steps[st] : 1 / steps[st];
						q.par[i] =
						    clampd(q.par[i] * f, par_lo[i], par_hi[i]);
						if (q.par[i] == m->par[i] || c.evals >= max_evals)
							break;
						double s = pl_cost(&c, &q, figs);
						if (!(s < best - 1e-9))
							break;
						best = s;
						*m = q;
						went = moved = true;
					}
					if (went)
						break;
				}
			}
			if (st == 0 && pass == 0) {
				/* the dies again, next to where the descent went */
				unsigned d0 = m->dies;
				for (int f = -1; f <= 1; f += 2) {
					unsigned d = f < 0 ? d0 / 2 : d0 * 2;
					if (d < 1 || d > 64)
						continue;
					struct pl_model q = *m;
					pl_set_dies(&q, d);
					double s = pl_cost(&c, &q, figs);
					if (s < best) {
						best = s;
						*m = q;
						moved = true;
					}
				}
			}
			if (!moved)
				break;
		}
	}
	int n = pl_counted(meas);
	m->rms = sqrt(best / (n ? n : 1));
	m->evals = c.evals;
	/* uncertainty: the curvature of S at the optimum, 10 % either way */
	double var = best / (n > PL_NPAR - 1 ? n - (PL_NPAR - 1) : 1);
	if (var < 0.03 * 0.03)
		var = 0.03 * 0.03;
	for (int i = 0; i < PL_NPAR - 1; i++) {
		double sp, sm, h = log(1.1), up[64];
		struct pl_model q = *m;
		q.par[i] = m->par[i] * 1.1;
		sp = pl_cost(&c, &q, up);
		q.par[i] = m->par[i] / 1.1;
		sm = pl_cost(&c, &q, figs);
		for (size_t p = 0; p < pl_nprobes && p < PL_NPROBES_MAX; p++)
			m->sens[i][p] =
			    up[p] > 0 && figs[p] > 0 ? log(up[p] / figs[p]) / (2 * h) : 0;
		double a = (sp + sm - 2 * best) / (2 * h * h);
		m->unc[i] = a > 1e-6 ? exp(sqrt(var / a)) - 1 : INFINITY;
	}
	m->unc[7] = INFINITY;
	return 0;
}

int pl_model_knee(struct pl_model *m, const struct pl_knee *meas, const struct pl_plan *plan,
                  const char *tmp, struct pl_knee *got, char *msg, size_t msglen)
{
	memset(got, 0, sizeof(*got));
	if (!meas->knee)
		return 0;
	for (int it = 0; it < 3; it++) {
		int rc = pl_model_fill(m, plan, tmp, meas->written, got, msg, msglen);
		if (rc)
			return rc;
		if (got->knee)
			m->slc_size = (uint64_t)((double)m->slc_size * (double)meas->knee /
			                         (double)got->knee);
		else
			m->slc_size = m->slc_size * 3 / 4;
		if (m->slc_size > m->capacity / 3) /* an SLC unit takes a cell's whole capacity */
			m->slc_size = m->capacity / 3;
		if (got->after_mbs > 0 && meas->after_mbs > 0)
			m->t_prog_us *= got->after_mbs / meas->after_mbs;
	}
	return pl_model_fill(m, plan, tmp, meas->written, got, msg, msglen);
}

/* The model's sustained random writes from full (as @meas ran them) at spare @op. */
static int pl_spare_eval(struct pl_model *m, double op, const struct pl_sustain *meas,
                         const char *tmp, struct pl_sustain *got, char *msg, size_t msglen)
{
	struct rl_target *t = NULL;
	int rc;

	m->op_pct = op;
	rc = pl_model_open_as(m, tmp, ", state=full", &t, msg, msglen);
	if (rc)
		return rc;
	*got = *meas;
	rc = pl_sustain(t, got, NULL, NULL, msg, msglen);
	rl_target_close(t);
	m->evals++;
	return rc;
}

/* Spare area searched between these (per cent of the user capacity). */
#define PL_OP_LO 2.0
#define PL_OP_HI 100.0

int pl_model_spare(struct pl_model *m, const struct pl_sustain *meas, const char *tmp,
                   struct pl_sustain *got, char *msg, size_t msglen)
{
	double lo = log(PL_OP_LO), hi = log(PL_OP_HI);
	int rc;

	memset(got, 0, sizeof(*got));
	if (!meas->run || meas->iops <= 0)
		return 0;
	/* the model's rate grows with its spare: at the bound and still slower, stop there */
	rc = pl_spare_eval(m, PL_OP_HI, meas, tmp, got, msg, msglen);
	if (rc)
		return rc;
	if (got->iops <= meas->iops) {
		m->op_fit = PL_OP_AT_HI;
		return 0;
	}
	rc = pl_spare_eval(m, PL_OP_LO, meas, tmp, got, msg, msglen);
	if (rc)
		return rc;
	if (got->iops >= meas->iops) {
		m->op_fit = PL_OP_AT_LO;
		return 0;
	}
	for (int it = 0; it < 8; it++) {
		double mid = (lo + hi) / 2;
		rc = pl_spare_eval(m, exp(mid), meas, tmp, got, msg, msglen);
		if (rc)
			return rc;
		if (got->iops < meas->iops)
			lo = mid;
		else
			hi = mid;
	}
	/* no slowdown in the measured window: the spare is at least this */
	m->op_fit = meas->last >= 0.9 * meas->first ? PL_OP_LEAST : PL_OP_FITTED;
	return pl_spare_eval(m, exp((lo + hi) / 2), meas, tmp, got, msg, msglen);
}

/* "[fit: rr4k-qd1 0.82, rw4k-qd1 0.20; +-6 %]" for parameter @i. */
static void pl_tag(char *buf, size_t len, const struct pl_model *m, int i, const double *sens)
{
	size_t l;
	int top[2] = {-1, -1};

	for (size_t p = 0; p < pl_nprobes; p++) {
		if (pl_probes[p].weight <= 0 || fabs(sens[p]) < 0.05)
			continue;
		if (top[0] < 0 || fabs(sens[p]) > fabs(sens[top[0]])) {
			top[1] = top[0];
			top[0] = (int)p;
		} else if (top[1] < 0 || fabs(sens[p]) > fabs(sens[top[1]])) {
			top[1] = (int)p;
		}
	}
	if (!isfinite(m->unc[i]) || top[0] < 0) {
		snprintf(buf, len, "  # [est: not determined by the probes; a common value]");
		return;
	}
	snprintf(buf, len, "  # [fit: %s", pl_probes[top[0]].id);
	for (int k = 1; k < 2; k++)
		if (top[k] >= 0) {
			l = strlen(buf);
			snprintf(buf + l, len - l, ", %s", pl_probes[top[k]].id);
		}
	l = strlen(buf);
	snprintf(buf + l, len - l, "; +-%.0f %%]", m->unc[i] * 100 < 1 ? 1 : m->unc[i] * 100);
}

void pl_model_write(FILE *f, const struct pl_model *m, const char *name, const char *target,
                    const struct pl_knee *k, const struct pl_sustain *sus, const double *meas,
                    const struct pl_plan *plan)
{
	char tag[PL_NPAR + 5][200];
	time_t now = time(NULL);
	struct tm tm;
	char date[32];

	(void)plan;
	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", &tm);
	for (int i = 0; i < PL_NPAR; i++)
		pl_tag(tag[i], sizeof(tag[i]), m, i, m->sens[i]);
	snprintf(tag[PL_NPAR], sizeof(tag[0]),
	         "  # [fit: rr4k-qd4, rr4k-qd16, rr4k-qd64: grid of 2..64 dies on %u channels]",
	         pl_channels(m->dies));
	if (m->slc_size)
		snprintf(
		    tag[PL_NPAR + 1], sizeof(tag[0]),
		    "  # [fit: fill, %.0f MB/s after the knee (+-%.0f %% spread of its chunks)]",
		    k->after_mbs, k->after_sd * 100);
	else
		tag[PL_NPAR + 1][0] = 0;
	snprintf(tag[PL_NPAR + 2], sizeof(tag[0]), "  # [measured: the target's size]");
	if (m->slc_size)
		snprintf(tag[PL_NPAR + 3], sizeof(tag[0]),
		         "  # [fit: fill, the rate fell after %.1f GB of %.1f GB written%s]",
		         (double)k->knee / 1e9, (double)k->written / 1e9,
		         k->sampled ? "; the rest of the drive was not written" : "");
	else
		snprintf(tag[PL_NPAR + 3], sizeof(tag[0]),
		         "  # [fit: fill, no knee in %.1f GB written%s]", (double)k->written / 1e9,
		         k->sampled ? " (a slice of the target)" : "");
	/* the spare the blocks give (the GC's room can make it more than op_pct) */
	double eff =
	    ((double)pl_blocks(m) * pl_stripe(m->dies) * PL_PAGES / (double)m->capacity - 1) * 100;
	static const struct {
		const char *head;
		int prec;
		const char *tail;
	} op_tag[] = {
	    [PL_OP_FITTED] = {"fit: rw4k-full, ", 1,
	                      " % spare: the model's rate after the fill is the measured one"},
	    [PL_OP_AT_LO] = {"fit: rw4k-full, ", 1,
	                     " % spare, the search's bound: the model is faster even there"},
	    [PL_OP_LEAST] = {"fit: rw4k-full, at least ", 1,
	                     " % spare: no slowdown in the window, and the model's rate matches "
	                     "there"},
	    [PL_OP_AT_HI] = {"fit: rw4k-full, ", 0,
	                     " % spare, the search's bound: the model is slower even there, held "
	                     "back by more than cleaning"},
	    [PL_OP_GUESS] = {"calc: the capacity with ~", 0,
	                     " % spare and room for GC; est: the fill did not reach the end"},
	};
	snprintf(tag[PL_NPAR + 4], sizeof(tag[0]), "  # [%s%.*f%s]", op_tag[m->op_fit].head,
	         op_tag[m->op_fit].prec, m->op_fit == PL_OP_GUESS ? m->op_pct : eff,
	         op_tag[m->op_fit].tail);
	fprintf(f, "# Learned by raidlab profile learn from %s (%s).\n", target, date);
	fprintf(f,
	        "# Method (docs/simulator.md, \"Learning a profile\"): probes through the target\n"
	        "# interface, then a least-squares fit of the model's parameters on log figures.\n"
	        "# Tags: [fit: PROBES; +-U %%] the probes that set it and its standard error;\n"
	        "# [est] a common value the probes cannot see.  Fit: %u simulations, rms log\n"
	        "# error %.3f.\n",
	        m->evals, m->rms);
	fprintf(f, "name = %s\n", name);
	fprintf(f, "description = learned from %s: %s, %.0f MB/s link, %u dies%s\n", target,
	        m->sata ? "SATA" : "NVMe", m->par[6], m->dies, m->slc_size ? ", write cache" : "");
	fprintf(f, "source = raidlab profile learn on %s (%s)\n", target, date);
	fprintf(f, "\n# measured (the fit's data):\n");
	for (size_t i = 0; i < pl_nprobes; i++)
		fprintf(f, "#   %-12s %12.2f %-6s %s%s\n", pl_probes[i].id, meas[i],
		        pl_probes[i].fig == PL_LAT_US ? "us"
		        : pl_probes[i].fig == PL_IOPS ? "IOPS"
		                                      : "MB/s",
		        pl_probes[i].what, pl_probes[i].weight > 0 ? "" : " (not fitted)");
	fprintf(
	    f, "#   fill         %12.2f MB/s   before the knee, %.2f MB/s after, knee at %.2f GB\n",
	    k->cache_mbs, k->after_mbs, (double)k->knee / 1e9);
	if (sus->run)
		fprintf(f,
		        "#   %-12s %12.2f IOPS   %s: mean of %u slices of %.1f s (first %.0f, "
		        "last %.0f)\n",
		        pl_sustain_probe.id, sus->iops, pl_sustain_probe.what, sus->slices,
		        (double)sus->slice_ns / 1e9, sus->first, sus->last);
	fprintf(f, "\n");
	pl_model_lines(f, m, tag);
	fprintf(f,
	        "\n# spare area: %s; TRIM and the steady state of long random-write\n"
	        "# runs are not measured by this version of learn.\n",
	        m->op_fit != PL_OP_GUESS
	            ? "fitted to rw4k-full, sustained random writes after the fill"
	            : "[est] 7 % (or what the GC needs on a small target): the fill did not\n"
	              "# reach the end of the target, so sustained random writes were not run");
}
