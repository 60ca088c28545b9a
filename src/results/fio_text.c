/*
 * fio_text.c - fio's normal output (see fio_text.h).
 *
 * Design: one function per section of fio's report, each printing from a
 * wl_result what fio prints from its thread_stat, in fio 3.33's formats.
 * A reporting group's figures (the "Run status group" lines and the "per="
 * share of the bw samples) are summed first into struct st_fio_group.  The
 * figures come from the same places as the JSON's (fio_json.c): the
 * latency histograms (slat and clat apart on io_uring and libaio), the time series for the bw and
 * iops samples, the process's CPU and faults.  With unified_rw_reporting
 * the "mixed" direction is the sum of the three (st_fio_mixed_new).
 */
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "results/fio_text.h"
#include "workload/control.h"

#define FIO_SIG_FIGS 4 /* fio's significant_figures default */

static const double fio_text_pcts[] = {1,  5,  10, 20, 30,   40,   50,    60,   70,
                                       80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};

static int fio_digits(uint64_t v)
{
	int n = 1;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

void st_fio_num(char *buf, size_t len, uint64_t num, int digits, bool pow2, const char *unit)
{
	static const char *const si[] = {"", "k", "M", "G", "T", "P", "E"};
	static const char *const iec[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
	const char *const *prefix = pow2 ? iec : si;
	unsigned step = pow2 ? 1024 : 1000, rest = 0;
	bool cut = false;
	int p = 0;

	while (p < 6 && fio_digits(num) > digits) {
		rest = (unsigned)(num % step);
		num /= step;
		cut = true;
		p++;
	}
	int room = digits - fio_digits(num);
	if (!cut || room <= 1) {
		if (cut && rest >= step / 2)
			num++;
		snprintf(buf, len, "%llu%s%s", (unsigned long long)num, prefix[p], unit);
		return;
	}
	/* the remainder as decimals in the room left (the point takes one) */
	char frac[32];
	snprintf(frac, sizeof(frac), "%.*f", room - 1, (double)rest / step);
	if (frac[0] == '1')
		num++;
	snprintf(buf, len, "%llu.%s%s%s", (unsigned long long)num, frac + 2, prefix[p], unit);
}

static bool fio_pow2(const struct wl_job *j)
{
	return j->kb_base != 1000;
}

/* significant_figures: the digits of a figure with a unit (fio's num2str maxlen) */
static int fio_figs(const struct wl_job *j)
{
	return j->sig_figs ? (int)j->sig_figs : FIO_SIG_FIGS;
}

static void fio_text_job(FILE *f, const struct wl_job *job, unsigned groupid)
{
	char lo[3][32], hi[3][32];
	const char *engine = job->engine_name[0]              ? job->engine_name
	                     : job->engine == WL_ENGINE_PSYNC ? "psync"
	                                                      : "io_uring";

	for (int d = 0; d < WL_DIRS; d++) {
		unsigned n;
		const struct wl_bssplit *sp = wl_job_bssplit(job, d, &n);
		uint32_t mn = job->bs, mx = job->bs;
		for (unsigned i = 0; sp && i < n; i++) {
			if (i == 0 || sp[i].bs < mn)
				mn = sp[i].bs;
			if (i == 0 || sp[i].bs > mx)
				mx = sp[i].bs;
		}
		st_fio_num(lo[d], sizeof(lo[d]), mn, fio_figs(job), fio_pow2(job), "B");
		st_fio_num(hi[d], sizeof(hi[d]), mx, fio_figs(job), fio_pow2(job), "B");
	}
	fprintf(f,
	        "%s: (g=%u): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, ioengine=%s, "
	        "iodepth=%u\n",
	        job->name, groupid, wl_rw_name(job->rw), lo[0], hi[0], lo[1], hi[1], lo[2], hi[2],
	        engine, job->iodepth);
	if (job->numjobs > 1)
		fputs("...\n", f);
}

void st_fio_text_start(FILE *f, const struct wl_job *jobs, size_t njobs, const unsigned *groupid)
{
	unsigned nworkers = 0;

	for (size_t i = 0; i < njobs; i++) {
		fio_text_job(f, &jobs[i], groupid[i]);
		nworkers += jobs[i].numjobs;
	}
	/* raidlab's workers are threads; fio's default (thread=0) says processes */
	fprintf(f, "raidlab-%s\nStarting %u process%s\n", RL_VERSION, nworkers,
	        nworkers > 1 ? "es" : "");
}

/*
 * The files under a target tree (rl_target_tree) this run created or laid
 * out again (an existing, shorter one): how many, and their bytes.
 */
static void fio_layout_count(struct json_object *node, unsigned *n, uint64_t *bytes)
{
	struct json_object *v, *kids;
	bool made = json_object_object_get_ex(node, "created", &v) && json_object_get_boolean(v);
	bool again = json_object_object_get_ex(node, "laid_out", &v) && json_object_get_boolean(v);

	if (made || again) {
		(*n)++;
		if (json_object_object_get_ex(node, "size_bytes", &v))
			*bytes += (uint64_t)json_object_get_int64(v);
	}
	if (json_object_object_get_ex(node, "children", &kids) &&
	    json_object_is_type(kids, json_type_array))
		for (size_t i = 0; i < json_object_array_length(kids); i++)
			fio_layout_count(json_object_array_get_idx(kids, i), n, bytes);
}

void st_fio_text_layout(FILE *f, const struct wl_job *jobs, size_t njobs,
                        struct rl_target *const *targets, const unsigned *tidx)
{
	size_t c = 0;

	for (size_t i = 0; i < njobs; i++)
		for (unsigned k = 0; k < jobs[i].numjobs; k++, c++) {
			bool seen = false;
			for (size_t e = 0; e < c && !seen; e++)
				seen = tidx[e] == tidx[c];
			struct json_object *tree = seen ? NULL : rl_target_tree(targets[tidx[c]]);
			unsigned n = 0;
			uint64_t bytes = 0;
			if (tree)
				fio_layout_count(tree, &n, &bytes);
			json_object_put(tree);
			if (n)
				fprintf(f, "%s: Laying out IO file%s (%u file%s / %s%lluMiB)\n",
				        jobs[i].name, n > 1 ? "s" : "", n, n > 1 ? "s" : "",
				        n > 1 ? "total " : "", (unsigned long long)(bytes >> 20));
		}
}

/* "    clat (usec): min=..., max=..., avg=..., stdev=..." in fio's unit for the spread */
static void fio_text_lat(FILE *f, const char *name, const struct st_hist *h)
{
	uint64_t mn = h->min, mx = h->max;
	double mean = st_hist_mean(h), dev = st_hist_stddev(h);
	const char *unit = "nsec";
	uint64_t div = 1;
	char a[32], b[32];

	if (mn > 2000000 && mx > 99999999ull && dev > 1e6) {
		unit = "msec";
		div = 1000000;
	} else if (mn > 2000 && mx > 99999 && dev > 1000) {
		unit = "usec";
		div = 1000;
	}
	st_fio_num(a, sizeof(a), mn / div, 6, false, "");
	st_fio_num(b, sizeof(b), mx / div, 6, false, "");
	fprintf(f, "    %s (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name, unit, a, b,
	        mean / (double)div, dev / (double)div);
}

static int fio_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x > y ? 1 : x < y ? -1 : 0;
}

/* Digits after the point fio shows for a percentile list: the most any entry has. */
static unsigned fio_pct_precision(const double *list, size_t n)
{
	unsigned prec = 0;
	for (size_t i = 0; i < n; i++)
		for (unsigned k = 0; k < 6; k++) {
			double v = list[i] * pow(10, k);
			if (fabs(v - round(v)) < 1e-6) {
				if (k > prec)
					prec = k;
				break;
			}
		}
	return prec;
}

/* "    clat percentiles (usec):" and its "     |" rows, as many per row as fit in 80 columns */
static void fio_text_pcts_show(FILE *f, const char *name, const struct st_hist *h,
                               const struct wl_job *job)
{
	double list[WL_PCT_MAX > 20 ? WL_PCT_MAX : 20];
	uint64_t val[sizeof(list) / sizeof(list[0])];
	size_t n = job->npct ? job->npct : sizeof(fio_text_pcts) / sizeof(fio_text_pcts[0]);
	uint64_t mn = UINT64_MAX, mx = 0, div = 1;
	const char *unit = "nsec";
	int steps = 0;

	if (n > sizeof(list) / sizeof(list[0]))
		n = sizeof(list) / sizeof(list[0]);
	memcpy(list, job->npct ? job->pct_list : fio_text_pcts, n * sizeof(double));
	qsort(list, n, sizeof(double), fio_cmp_double);
	for (size_t i = 0; i < n; i++) {
		val[i] = st_hist_percentile(h, list[i]);
		mn = val[i] < mn ? val[i] : mn;
		mx = val[i] > mx ? val[i] : mx;
	}
	if (mn > 2000000 && mx > 99999999ull) {
		unit = "msec";
		div = 1000000;
		steps = 2;
	} else if (mn > 2000 && mx > 99999) {
		unit = "usec";
		div = 1000;
		steps = 1;
	}
	unsigned prec = job->npct ? fio_pct_precision(list, n) : 2;
	int width = mx / div ? (int)(log10((double)(mx / div)) + 1) : 1;
	if (width < 5)
		width = 5;
	size_t per_line = (size_t)(73 / ((int)prec + 10 + width));
	if (!per_line)
		per_line = 1;
	fprintf(f, "    %s percentiles (%s):\n     |", name, unit);
	for (size_t i = 0; i < n; i++) {
		if (i && i % per_line == 0)
			fputs("     |", f);
		uint64_t v = val[i];
		for (int k = 0; k < steps; k++)
			v = (v + 999) / 1000; /* fio rounds up at each step */
		fprintf(f, " %*.*fth=[%*llu]%c", (int)prec + 3, (int)prec, list[i], width,
		        (unsigned long long)v, i + 1 == n ? '\n' : ',');
		if (i + 1 < n && i % per_line == per_line - 1)
			fputc('\n', f);
	}
}

/* "   bw (  KiB/s): ..." and "   iops        : ..." when the run gave samples */
static void fio_text_samples(FILE *f, const struct wl_result *res, int d, uint64_t agg)
{
	const struct wl_dir_result *r = &res->dir[d];
	double kb = fio_pow2(&res->job) ? 1024 : 1000;
	const char *unit = fio_pow2(&res->job) ? "KiB" : "kB";
	struct st_fio_stat s;

	st_fio_samples(&r->series, st_fio_sample_ns(res, d), false, &s);
	if (s.n) {
		double per = st_fio_per_agg(s.mean, agg);
		if (s.mean > kb * kb) {
			s.min /= kb;
			s.max /= kb;
			s.mean /= kb;
			s.dev /= kb;
			unit = fio_pow2(&res->job) ? "MiB" : "MB";
		}
		fprintf(
		    f,
		    "   bw (%5s/s): min=%5llu, max=%5llu, per=%3.2f%%, avg=%5.02f, stdev=%5.02f, "
		    "samples=%zu\n",
		    unit, (unsigned long long)s.min, (unsigned long long)s.max, per, s.mean, s.dev,
		    s.n);
	}
	st_fio_samples(&r->series, st_fio_sample_ns(res, d), true, &s);
	if (s.n)
		fprintf(f,
		        "   iops        : min=%5llu, max=%5llu, avg=%5.02f, stdev=%5.02f, "
		        "samples=%zu\n",
		        (unsigned long long)s.min, (unsigned long long)s.max, s.mean, s.dev, s.n);
}

/* One direction: the IOPS/BW line, latencies, percentiles, samples. */
static void fio_text_dir(FILE *f, const char *label, const struct wl_result *res, int d,
                         const struct st_fio_group *g)
{
	const struct wl_dir_result *r = &res->dir[d];
	uint64_t runt = st_fio_runtime_ms(res, d);
	bool p2 = fio_pow2(&res->job);
	char io[32], bw[32], bwalt[32], iops[32];

	if (!runt)
		return; /* fio: no runtime, no block */
	uint64_t bps = st_fio_bw_bytes(res, d);
	int figs = fio_figs(&res->job);
	st_fio_num(io, sizeof(io), r->bytes, figs, p2, "B");
	st_fio_num(bw, sizeof(bw), bps, figs, p2, "B/s");
	st_fio_num(bwalt, sizeof(bwalt), bps, figs, !p2, "B/s");
	st_fio_num(iops, sizeof(iops), r->ios * 1000 / runt, figs, false, "");
	fprintf(f, "  %s: IOPS=%s, BW=%s (%s)(%s/%llumsec)%s\n", label, iops, bw, bwalt, io,
	        (unsigned long long)runt, !strcmp(label, "write") ? "; 0 zone resets" : "");
	/* as fio: a latency with samples gets its line (disable_X: none), then percentiles */
	const struct wl_job *j = &res->job;
	const struct st_hist *sl = j->disable_slat ? NULL : st_fio_slat(r);
	const struct st_hist *cl = j->disable_clat ? NULL : st_fio_clat(r);
	const struct st_hist *tl = j->disable_lat ? NULL : &r->hist;
	if (sl && sl->count)
		fio_text_lat(f, "slat", sl);
	if (cl && cl->count)
		fio_text_lat(f, "clat", cl);
	if (tl && tl->count)
		fio_text_lat(f, " lat", tl);
	if (sl && sl->count && st_fio_pcts_slat(j))
		fio_text_pcts_show(f, "slat", sl, j);
	if (cl && cl->count && st_fio_pcts_clat(j))
		fio_text_pcts_show(f, "clat", cl, j);
	if (tl && tl->count && st_fio_pcts_lat(j))
		fio_text_pcts_show(f, "lat", tl, j);
	fio_text_samples(f, res, d, g->agg[d]);
}

/* "  lat (usec)   : 2=...%, 4=...%" rows: the non-empty buckets, five to a row */
static void fio_text_buckets(FILE *f, const struct wl_result *res)
{
	static const char *const units[3] = {"nsec", "usec", "msec"};
	static const char *const names[12] = {"2",   "4",   "10",  "20",   "50",   "100",
	                                      "250", "500", "750", "1000", "2000", ">=2000"};
	double sh[ST_FIO_LAT_SHARES];
	size_t k = 0;

	st_fio_lat_shares(res, sh);
	for (int g = 0; g < 3; g++) {
		unsigned on_line = 0;
		for (size_t i = 0; i < (g == 2 ? 12u : 10u); i++, k++) {
			double v = sh[k];
			if (v <= 0)
				continue;
			if (v < 0.01)
				v = 0.01; /* fio shows a bucket with any I/O as at least 0.01% */
			if (on_line == 5) {
				fputc('\n', f);
				on_line = 0;
			}
			if (on_line)
				fputs(", ", f);
			else
				fprintf(f, "  lat (%s)   : ", units[g]);
			fprintf(f, "%s=%3.2f%%", names[i], v);
			on_line++;
		}
		if (on_line)
			fputc('\n', f);
	}
}

/* fio's depth distribution line: levels at one depth, submit and complete per call (fio_json.c) */
static void fio_text_depths(FILE *f, const char *lead, unsigned depth, const uint64_t *dist,
                            bool submit)
{
	static const char *const lv[7] = {"1", "2", "4", "8", "16", "32", ">=64"};
	static const char *const sb[7] = {"0", "4", "8", "16", "32", "64", ">=64"};
	size_t at = st_fio_depth_slot(depth, submit);

	fputs(lead, f);
	for (size_t i = 0; i < 7; i++)
		fprintf(f, "%s%s=%3.1f%%", i ? ", " : "", submit ? sb[i] : lv[i],
		        submit    ? st_fio_batch_pct(dist, depth, i)
		        : i == at ? 100.0
		                  : 0.0);
	fputc('\n', f);
}

/* cpu, IO depths, submit, complete, issued, errors, latency, steady state */
static void fio_text_tail(FILE *f, const struct wl_result *res)
{
	const struct wl_job *j = &res->job;
	unsigned depth = st_fio_job_depth(res);
	uint64_t ios[WL_DIRS] = {res->dir[0].ios, res->dir[1].ios, res->dir[2].ios};

	if (j->unified_rw == 1) { /* mixed alone: fio counts all under the first */
		ios[0] += ios[1] + ios[2];
		ios[1] = ios[2] = 0;
	}
	fprintf(f, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%llu, majf=%llu, minf=%llu\n",
	        st_fio_cpu_pct(res, false), st_fio_cpu_pct(res, true), (unsigned long long)res->ctx,
	        (unsigned long long)res->majf, (unsigned long long)res->minf);
	fio_text_depths(f, "  IO depths    : ", depth, NULL, false);
	fio_text_depths(f, "     submit    : ", depth, res->batch_submit, true);
	fio_text_depths(f, "     complete  : ", depth, res->batch_complete, true);
	fprintf(f, "     issued rwts: total=%llu,%llu,%llu,%llu short=0,0,0,0 dropped=0,0,0,0\n",
	        (unsigned long long)ios[0], (unsigned long long)ios[1], (unsigned long long)ios[2],
	        (unsigned long long)res->fsyncs); /* the fourth: fio's fsync= syncs */
	if (j->coe)
		fprintf(f, "     errors    : total=%llu, first_error=%d/<%s>\n",
		        (unsigned long long)(res->errors + res->cont_errors), -res->first_error,
		        strerror(-res->first_error));
	if (j->lat_target_ns)
		fprintf(f,
		        "     latency   : target=%llu, window=%llu, percentile=%.2f%%, depth=%u\n",
		        (unsigned long long)j->lat_target_ns,
		        (unsigned long long)(j->lat_window_ns / 1000), j->lat_pct, res->lat_depth);
	else
		fprintf(f, "     latency   : target=0, window=0, percentile=100.00%%, depth=%u\n",
		        depth);
	if (j->ss_dur_ns && res->ss) {
		const struct wl_ss_report *s = res->ss;
		double bw = 0, iops = 0;
		char b[32], balt[32], io[32];
		for (unsigned i = 0; i < s->n; i++) {
			bw += (double)s->bw[i] / s->n;
			iops += (double)s->iops[i] / s->n;
		}
		st_fio_num(b, sizeof(b), (uint64_t)bw, fio_figs(j), fio_pow2(j), "B/s");
		st_fio_num(balt, sizeof(balt), (uint64_t)bw, fio_figs(j), !fio_pow2(j), "B/s");
		st_fio_num(io, sizeof(io), (uint64_t)iops, fio_figs(j), false, "");
		fprintf(f, "  steadystate  : attained=%s, bw=%s (%s), iops=%s, %s%s=%.3f%s\n",
		        s->attained ? "yes" : "no", b, balt, io,
		        j->ss_kind == WL_SS_BW ? "bw" : "iops",
		        j->ss_slope ? " slope" : " mean dev", s->criterion, j->ss_pct ? "%" : "");
	}
}

/* The first line of a job's block: name, group, members, error, pid, date. */
static void fio_text_head(FILE *f, const struct st_fio_job *fj)
{
	const struct wl_result *res = fj->res;
	int err = res->errors || res->cont_errors ? -res->first_error : st_fio_error(res);
	time_t now = time(NULL);
	char date[64];
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(date, sizeof(date), "%a %b %e %H:%M:%S %Y", &tm);
	if (err)
		fprintf(f, "%s: (groupid=%u, jobs=%u): err=%2d (error=%s): pid=%d: %s\n",
		        res->job.name, fj->groupid, res->job.numjobs, err, strerror(err),
		        (int)getpid(), date);
	else
		fprintf(f, "%s: (groupid=%u, jobs=%u): err=%2d: pid=%d: %s\n", res->job.name,
		        fj->groupid, res->job.numjobs, err, (int)getpid(), date);
}

static void fio_text_block(FILE *f, const struct st_fio_job *fj, const struct st_fio_group *g)
{
	static const char *const labels[WL_DIRS] = {"read", "write", "trim"};
	const struct wl_result *res = fj->res;

	fio_text_head(f, fj);
	if (res->job.unified_rw != 1)
		for (int d = 0; d < WL_DIRS; d++)
			if (res->dir[d].bytes)
				fio_text_dir(f, labels[d], res, d, g);
	if (res->job.unified_rw) {
		struct wl_result *m = st_fio_mixed_new(res);
		/* fio sets it against the group's read rate, as in the JSON */
		if (m && m->dir[0].bytes)
			fio_text_dir(f, "mixed", m, 0, g);
		st_fio_mixed_free(m);
	}
	fio_text_buckets(f, res);
	if (res->sync_hist.count) { /* fsync= and fdatasync= syncs: their times, as fio */
		fputs("  fsync/fdatasync/sync_file_range:\n", f);
		fio_text_lat(f, "sync", &res->sync_hist);
		fio_text_pcts_show(f, "sync", &res->sync_hist, &res->job);
	}
	fio_text_tail(f, res);
}

/* One "   READ: bw=... (...), ...-... (...-...), io=... (...), run=...-...msec" line. */
static void fio_group_line(FILE *f, const char *label, uint64_t agg, uint64_t mn, uint64_t mx,
                           uint64_t io, uint64_t rmin, uint64_t rmax, bool p2, int figs)
{
	char s[8][32];
	uint64_t v[4] = {agg, mn, mx, io};

	for (int k = 0; k < 4; k++) {
		const char *unit = k == 3 ? "B" : "B/s";
		st_fio_num(s[2 * k], sizeof(s[0]), v[k], figs, p2, unit);
		st_fio_num(s[2 * k + 1], sizeof(s[0]), v[k], figs, !p2, unit);
	}
	fprintf(f, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%llu-%llumsec\n", label, s[0],
	        s[1], s[2], s[4], s[3], s[5], s[6], s[7], (unsigned long long)rmin,
	        (unsigned long long)rmax);
}

static void fio_group_show(FILE *f, unsigned gid, const struct st_fio_group *g, int unified,
                           bool p2, int figs)
{
	static const char *const labels[WL_DIRS] = {"   READ", "  WRITE", "   TRIM"};
	uint64_t io = 0, agg = 0, mn = UINT64_MAX, mx = 0, rmin = UINT64_MAX, rmax = 0;

	fprintf(f, "\nRun status group %u (all jobs):\n", gid);
	for (int d = 0; d < WL_DIRS; d++) {
		if (!g->max_run[d])
			continue;
		fio_group_line(f, unified == 1 ? "  MIXED" : labels[d], g->agg[d], g->min_bw[d],
		               g->max_bw[d], g->iobytes[d], g->min_run[d], g->max_run[d], p2, figs);
		io += g->iobytes[d];
		agg += g->agg[d];
		mn = g->min_bw[d] < mn ? g->min_bw[d] : mn;
		mx = g->max_bw[d] > mx ? g->max_bw[d] : mx;
		rmin = g->min_run[d] < rmin ? g->min_run[d] : rmin;
		rmax = g->max_run[d] > rmax ? g->max_run[d] : rmax;
	}
	if (unified == 2 && rmax)
		fio_group_line(f, "  MIXED", agg, mn, mx, io, rmin, rmax, p2, figs);
}

void st_fio_text(FILE *f, const struct st_fio_job *jobs, size_t n, const struct st_disk_util *du)
{
	unsigned maxgid = 0;
	struct st_fio_group g;

	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		maxgid = jobs[i].groupid > maxgid ? jobs[i].groupid : maxgid;
		st_fio_group_sum(jobs, n, jobs[i].groupid, &g);
		fio_text_block(f, &jobs[i], &g);
	}
	for (unsigned gid = 0; gid <= maxgid; gid++) {
		int unified = 0;
		bool p2 = true;
		int figs = FIO_SIG_FIGS;
		for (size_t i = 0; i < n; i++)
			if (jobs[i].groupid == gid) { /* the group's last job's, as fio's */
				unified |= jobs[i].res->job.unified_rw;
				p2 = fio_pow2(&jobs[i].res->job);
				figs = fio_figs(&jobs[i].res->job);
			}
		if (st_fio_group_sum(jobs, n, gid, &g))
			fio_group_show(f, gid, &g, unified, p2, figs);
	}
	st_disk_util_normal(f, du);
}
