/*
 * suite.c - the suite registry and the machinery every suite shares: its
 * parameters (one option table for parsing, help and JSON), the job a test
 * becomes, the pass runner (warm-up, measured passes, aggregation), the
 * test-area fill, the pause between tests and the JSON of a test.
 *
 * The pass runner keeps every measured pass as the same direction object a
 * plain `run` writes (st_result_dir), so a suite result carries the full
 * histogram and time series of each pass, and the aggregate is computed
 * from the per-pass figures by suite_aggregate(), a pure function the unit
 * tests exercise on synthetic passes.
 *
 * Seeds: every job a suite runs gets the next seed (1, 2, 3...), so passes
 * do not repeat each other's offsets and a whole suite run repeats exactly.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/spec.h"
#include "stats/result.h"
#include "suites/suite.h"

#define SUITE_NS_PER_S  1000000000ull
#define SUITE_NS_PER_MS 1000000ull
#define SUITE_PREP_BS   (1u << 20) /* the tools fill their test file in 1 MiB writes */
#define SUITE_PREP_QD   4u

/* --- the registry --- */

static struct suite_def *suite_head;

void suite_register(struct suite_def *def)
{
	struct suite_def **p = &suite_head;

	while (*p && strcmp((*p)->name, def->name) < 0)
		p = &(*p)->next;
	def->next = *p;
	*p = def;
}

const struct suite_def *suite_find(const char *name)
{
	for (const struct suite_def *d = suite_head; d; d = d->next)
		if (!strcmp(d->name, name))
			return d;
	return NULL;
}

const struct suite_def *suite_first(void)
{
	return suite_head;
}

const char *suite_agg_name(enum suite_agg agg)
{
	switch (agg) {
	case SUITE_AGG_BEST:
		return "best";
	case SUITE_AGG_MEAN:
		return "mean";
	case SUITE_AGG_SINGLE:
		return "single";
	}
	return "invalid";
}

const char *suite_pattern_name(enum suite_pattern p)
{
	switch (p) {
	case SUITE_SEQ:
		return "seq";
	case SUITE_RAND:
		return "rand";
	case SUITE_MIXED:
		return "mixed";
	}
	return "invalid";
}

const struct suite_test *suite_test_find(const struct suite_def *def, const char *name)
{
	for (size_t i = 0; i < def->ntests; i++)
		if (!strcmp(def->tests[i].name, name))
			return &def->tests[i];
	return NULL;
}

/* --- parameters: one table for parsing, help and JSON --- */

enum suite_opt_kind {
	SUITE_K_SIZE,  /* uint64_t bytes */
	SUITE_K_COUNT, /* unsigned */
	SUITE_K_U32,   /* uint32_t number */
	SUITE_K_BS,    /* uint32_t block size: multiple of 512 */
	SUITE_K_PCT,   /* uint32_t percent */
	SUITE_K_TIME,  /* uint64_t ns */
	SUITE_K_BOOL,  /* bool */
};

struct suite_opt {
	const char *name; /* --name */
	const char *json; /* key in suite.params */
	unsigned bit;     /* SUITE_OPT_* */
	enum suite_opt_kind kind;
	size_t off;
	uint64_t min, max;
	const char *metavar;
	const char *help;
};

#define SUITE_P(f) offsetof(struct suite_params, f)

static const struct suite_opt suite_opts[] = {
    {"size", "size_bytes", SUITE_OPT_SIZE, SUITE_K_SIZE, SUITE_P(size), 0, UINT64_MAX, "SIZE",
     "test area from the start of the target; 0: the whole target"},
    {"passes", "passes", SUITE_OPT_PASSES, SUITE_K_COUNT, SUITE_P(passes), 1, SUITE_PASSES_MAX, "N",
     "measured passes of each test"},
    {"warmup", "warmup_passes", SUITE_OPT_WARMUP, SUITE_K_COUNT, SUITE_P(warmup), 0, 10, "N",
     "discarded passes before the measured ones"},
    {"duration", "duration_s", SUITE_OPT_DURATION, SUITE_K_TIME, SUITE_P(duration_ns),
     SUITE_NS_PER_MS, 24 * 3600 * SUITE_NS_PER_S, "TIME", "length of a time-based pass"},
    {"interval", "interval_s", SUITE_OPT_INTERVAL, SUITE_K_TIME, SUITE_P(interval_ns), 0,
     3600 * SUITE_NS_PER_S, "TIME", "pause between tests (real targets only)"},
    {"mix", "mix", SUITE_OPT_MIX, SUITE_K_BOOL, SUITE_P(mix), 0, 1, NULL,
     "also run every test as a read/write mix"},
    {"mix-read", "mix_read_pct", SUITE_OPT_MIX, SUITE_K_PCT, SUITE_P(mix_read), 1, 99, "PCT",
     "percent reads in the mix"},
    {"qd", "iodepth", SUITE_OPT_QD, SUITE_K_U32, SUITE_P(iodepth), 1, 65536, "N",
     "queue depth (outstanding I/Os)"},
    {"write", "write", SUITE_OPT_WRITE, SUITE_K_BOOL, SUITE_P(write), 0, 1, NULL,
     "also run the write tests: this OVERWRITES the whole span"},
    {"zones", "zones", SUITE_OPT_ZONES, SUITE_K_COUNT, SUITE_P(zones), 2, SUITE_ZONES_MAX, "N",
     "positions measured on the transfer-rate curve"},
    {"block", "block_bytes", SUITE_OPT_BLOCK, SUITE_K_BS, SUITE_P(block), WL_BS_MIN, WL_BS_MAX,
     "SIZE", "transfer size of the transfer-rate and burst tests"},
    {"sample", "sample_bytes", SUITE_OPT_SAMPLE, SUITE_K_SIZE, SUITE_P(sample), WL_BS_MIN,
     UINT64_MAX, "SIZE", "bytes transferred at each zone"},
    {"min-bs", "min_bs", SUITE_OPT_BS_RANGE, SUITE_K_BS, SUITE_P(min_bs), WL_BS_MIN, WL_BS_MAX,
     "SIZE", "smallest transfer size of the sweep"},
    {"max-bs", "max_bs", SUITE_OPT_BS_RANGE, SUITE_K_BS, SUITE_P(max_bs), WL_BS_MIN, WL_BS_MAX,
     "SIZE", "largest transfer size of the sweep"},
    {"round", "round_s", SUITE_OPT_ROUND, SUITE_K_TIME, SUITE_P(round_ns), SUITE_NS_PER_MS,
     24 * 3600 * SUITE_NS_PER_S, "TIME", "length of one round of the sustained phase"},
    {"time-limit", "time_limit_s", SUITE_OPT_ROUND, SUITE_K_TIME, SUITE_P(time_limit_ns),
     SUITE_NS_PER_MS, 30 * 24 * 3600 * SUITE_NS_PER_S, "TIME",
     "end the sustained phase after this long even without a steady state"},
    {"fill", "fill_passes", SUITE_OPT_FILL, SUITE_K_COUNT, SUITE_P(fill), 0, 10, "N",
     "sequential writes over the whole region before the sustained phase"},
};

#define SUITE_NOPTS             (sizeof(suite_opts) / sizeof(suite_opts[0]))
#define SUITE_FIELD(p, o, type) ((type *)(void *)((char *)(p) + (o)->off))

static const struct suite_opt *suite_opt_find(const char *name)
{
	for (size_t i = 0; i < SUITE_NOPTS; i++)
		if (!strcmp(suite_opts[i].name, name))
			return &suite_opts[i];
	return NULL;
}

/* "--size, --passes, ..." of the options @def accepts. */
static void suite_opt_list(const struct suite_def *def, char *buf, size_t len)
{
	size_t pos = 0;

	buf[0] = 0;
	for (size_t i = 0; i < SUITE_NOPTS && pos < len; i++) {
		if (!(def->options & suite_opts[i].bit))
			continue;
		int n =
		    snprintf(buf + pos, len - pos, "%s--%s", pos ? ", " : "", suite_opts[i].name);
		if (n < 0)
			break;
		pos += (size_t)n;
	}
}

int suite_params_set(const struct suite_def *def, struct suite_params *p, const char *name,
                     const char *value, char *msg, size_t msglen)
{
	const struct suite_opt *o = suite_opt_find(name);
	char tmp[128], list[256];
	uint64_t v = 0;
	bool b = false;

	if (!o)
		return -ENOENT;
	if (!(def->options & o->bit)) {
		suite_opt_list(def, list, sizeof(list));
		snprintf(msg, msglen, "suite '%s' does not take --%s (its options: %s)", def->name,
		         name, list[0] ? list : "none");
		return -EINVAL;
	}
	if (o->kind == SUITE_K_BOOL) {
		if (value && rl_parse_bool(value, &b, tmp, sizeof(tmp))) {
			snprintf(msg, msglen,
			         "--%s: expected on/off, 1/0 or the bare flag, got '%s'", name,
			         value);
			return -EINVAL;
		}
		*SUITE_FIELD(p, o, bool) = value ? b : true;
		return 0;
	}
	if (!value || !value[0]) {
		snprintf(msg, msglen, "--%s needs a value (--%s=%s)", name, name, o->metavar);
		return -EINVAL;
	}
	switch (o->kind) {
	case SUITE_K_SIZE:
	case SUITE_K_BS:
		if (rl_parse_size(value, &v, tmp, sizeof(tmp)) || v < o->min || v > o->max ||
		    (o->kind == SUITE_K_BS && v % WL_BS_MIN)) {
			snprintf(
			    msg, msglen,
			    o->kind == SUITE_K_BS
			        ? "--%s: expected a size that is a multiple of 512 from 512 to "
			          "64m (e.g. 64k), got '%s'"
			        : "--%s: expected a size such as 16m or 1g, got '%s'",
			    name, value);
			return -EINVAL;
		}
		break;
	case SUITE_K_TIME:
		if (rl_parse_time(value, &v, tmp, sizeof(tmp)) || v < o->min || v > o->max) {
			snprintf(msg, msglen,
			         "--%s: expected a duration such as 5, 0.2s, 500ms or 2m (a plain "
			         "number is seconds)%s, got '%s'",
			         name, o->min ? " of at least 1 ms" : "", value);
			return -EINVAL;
		}
		break;
	case SUITE_K_PCT:
	case SUITE_K_COUNT:
	case SUITE_K_U32: {
		char num[32];
		size_t n = strlen(value);
		if (o->kind == SUITE_K_PCT && n && value[n - 1] == '%')
			n--;
		if (n >= sizeof(num))
			n = sizeof(num) - 1;
		memcpy(num, value, n);
		num[n] = 0;
		if (rl_parse_u64(num, &v, tmp, sizeof(tmp)) || v < o->min || v > o->max) {
			snprintf(msg, msglen,
			         "--%s: expected a whole number from %llu to %llu, got '%s'", name,
			         (unsigned long long)o->min, (unsigned long long)o->max, value);
			return -EINVAL;
		}
		break;
	}
	case SUITE_K_BOOL:
		break;
	}
	switch (o->kind) {
	case SUITE_K_SIZE:
	case SUITE_K_TIME:
		*SUITE_FIELD(p, o, uint64_t) = v;
		break;
	case SUITE_K_COUNT:
		*SUITE_FIELD(p, o, unsigned) = (unsigned)v;
		break;
	case SUITE_K_U32:
	case SUITE_K_BS:
	case SUITE_K_PCT:
		*SUITE_FIELD(p, o, uint32_t) = (uint32_t)v;
		break;
	case SUITE_K_BOOL:
		break;
	}
	return 0;
}

bool suite_param_takes_value(const char *name)
{
	const struct suite_opt *o = suite_opt_find(name);

	return o && o->kind != SUITE_K_BOOL;
}

/* A size as the shortest exact text: "1g", "1000m", "64k", "512". */
static void suite_fmt_size(char *buf, size_t len, uint64_t v)
{
	static const char units[] = "kmgt";
	int u = -1;

	while (v && v % 1024 == 0 && u < 3) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)v, units[u]);
}

static void suite_fmt_time(char *buf, size_t len, uint64_t ns)
{
	if (ns >= 60 * SUITE_NS_PER_S && ns % (60 * SUITE_NS_PER_S) == 0)
		snprintf(buf, len, "%llum", (unsigned long long)(ns / (60 * SUITE_NS_PER_S)));
	else
		snprintf(buf, len, "%gs", ns / 1e9);
}

void suite_options_help(const struct suite_def *def, FILE *f)
{
	const struct suite_params *p = &def->defaults;

	for (size_t i = 0; i < SUITE_NOPTS; i++) {
		const struct suite_opt *o = &suite_opts[i];
		char flag[48], dflt[48];
		if (!(def->options & o->bit))
			continue;
		snprintf(flag, sizeof(flag), "--%s%s%s", o->name, o->metavar ? "=" : "",
		         o->metavar ? o->metavar : "");
		switch (o->kind) {
		case SUITE_K_SIZE:
			suite_fmt_size(dflt, sizeof(dflt), *SUITE_FIELD(p, o, const uint64_t));
			break;
		case SUITE_K_BS:
			suite_fmt_size(dflt, sizeof(dflt), *SUITE_FIELD(p, o, const uint32_t));
			break;
		case SUITE_K_TIME:
			suite_fmt_time(dflt, sizeof(dflt), *SUITE_FIELD(p, o, const uint64_t));
			break;
		case SUITE_K_COUNT:
			snprintf(dflt, sizeof(dflt), "%u", *SUITE_FIELD(p, o, const unsigned));
			break;
		case SUITE_K_U32:
		case SUITE_K_PCT:
			snprintf(dflt, sizeof(dflt), "%u", *SUITE_FIELD(p, o, const uint32_t));
			break;
		case SUITE_K_BOOL:
			snprintf(dflt, sizeof(dflt), "%s",
			         *SUITE_FIELD(p, o, const bool) ? "on" : "off");
			break;
		}
		fprintf(f, "  %-20s %s (default %s)\n", flag, o->help, dflt);
	}
}

struct json_object *suite_params_json(const struct suite_def *def, const struct suite_params *p)
{
	struct json_object *o = json_object_new_object();

	for (size_t i = 0; i < SUITE_NOPTS; i++) {
		const struct suite_opt *so = &suite_opts[i];
		struct json_object *v = NULL;
		if (!(def->options & so->bit))
			continue;
		switch (so->kind) {
		case SUITE_K_SIZE:
			v = json_object_new_int64((int64_t)*SUITE_FIELD(p, so, const uint64_t));
			break;
		case SUITE_K_TIME:
			v = json_object_new_double(*SUITE_FIELD(p, so, const uint64_t) / 1e9);
			break;
		case SUITE_K_COUNT:
			v = json_object_new_int64(*SUITE_FIELD(p, so, const unsigned));
			break;
		case SUITE_K_U32:
		case SUITE_K_BS:
		case SUITE_K_PCT:
			v = json_object_new_int64(*SUITE_FIELD(p, so, const uint32_t));
			break;
		case SUITE_K_BOOL:
			v = json_object_new_boolean(*SUITE_FIELD(p, so, const bool));
			break;
		}
		json_object_object_add(o, so->json, v);
	}
	return o;
}

uint64_t suite_need_bytes(const struct suite_def *def, const struct suite_params *p)
{
	(void)def;
	return p->size;
}

bool suite_writes(const struct suite_def *def, const struct suite_params *p)
{
	return def->writes ? def->writes(p) : true;
}

/* --- aggregation --- */

void suite_aggregate(enum suite_agg rule, const struct suite_figure *passes, unsigned n,
                     uint32_t bs, struct suite_figure *out)
{
	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	switch (rule) {
	case SUITE_AGG_SINGLE:
		*out = passes[0];
		return;
	case SUITE_AGG_MEAN:
		for (unsigned i = 0; i < n; i++) {
			out->mb_s += passes[i].mb_s / n;
			out->iops += passes[i].iops / n;
			out->lat_mean_us += passes[i].lat_mean_us / n;
			out->lat_p99_us += passes[i].lat_p99_us / n;
		}
		return;
	case SUITE_AGG_BEST: {
		unsigned fast = 0, low = n;
		for (unsigned i = 1; i < n; i++)
			if (passes[i].mb_s > passes[fast].mb_s)
				fast = i;
		/* The lowest mean latency among passes that did I/O. */
		for (unsigned i = 0; i < n; i++)
			if (passes[i].iops > 0 &&
			    (low == n || passes[i].lat_mean_us < passes[low].lat_mean_us))
				low = i;
		out->mb_s = passes[fast].mb_s;
		out->iops = bs ? passes[fast].mb_s * 1e6 / bs : passes[fast].iops;
		if (low < n) {
			out->lat_mean_us = passes[low].lat_mean_us;
			out->lat_p99_us = passes[low].lat_p99_us;
		}
		return;
	}
	}
}

/* --- running jobs --- */

int suite_run_start(struct suite_run *r, bool force)
{
	const struct suite_def *def = r->def;
	struct suite_params *p = &r->p;
	char have[64], want[64];
	uint64_t need = suite_need_bytes(def, p);

	r->simulated = rl_target_leaf_caps(r->t) & RL_CAP_VIRTUAL;
	r->align = r->t->block_size > WL_BS_MIN ? r->t->block_size : WL_BS_MIN;
	r->area_shrunk = false;
	if ((def->options & SUITE_OPT_BS_RANGE) && p->min_bs > p->max_bs) {
		snprintf(r->msg, sizeof(r->msg), "--min-bs (%u) is larger than --max-bs (%u)",
		         p->min_bs, p->max_bs);
		return -EINVAL;
	}
	if (need > r->t->size) {
		suite_fmt_size(have, sizeof(have), r->t->size);
		suite_fmt_size(want, sizeof(want), need);
		if (!force) {
			snprintf(
			    r->msg, sizeof(r->msg),
			    "the target has %llu bytes (%s) but suite '%s' needs %llu (%s) for "
			    "its test area: give --size=SIZE to use less, or --force to use the "
			    "whole target",
			    (unsigned long long)r->t->size, have, def->name,
			    (unsigned long long)need, want);
			return -ENOSPC;
		}
		need = r->t->size;
		r->area_shrunk = true;
	}
	r->area = (need ? need : r->t->size) / r->align * r->align;
	if (r->area < SUITE_AREA_MIN) {
		snprintf(r->msg, sizeof(r->msg),
		         "the test area (%llu bytes) is smaller than the %u bytes suites need",
		         (unsigned long long)r->area, SUITE_AREA_MIN);
		return -EINVAL;
	}
	return 0;
}

static void suite_job_progress(void *arg, const struct wl_progress *wp)
{
	struct suite_run *r = arg;
	struct suite_progress p = {
	    .test = r->cur_test,
	    .phase = r->cur_phase,
	    .pass = r->cur_pass,
	    .passes = r->cur_passes,
	    .job = wp,
	};

	r->progress(r->progress_arg, &p);
}

int suite_run_job(struct suite_run *r, const struct wl_job *job, struct wl_result *res)
{
	struct wl_job j = *job;
	struct wl_run_opts opts = {
	    .progress = r->progress ? suite_job_progress : NULL,
	    .progress_arg = r,
	};
	char vmsg[384];
	int rc;

	j.seed = ++r->njobs;
	if (wl_job_validate(&j, NULL, vmsg, sizeof(vmsg))) {
		snprintf(r->msg, sizeof(r->msg), "test '%s': the job is not valid: %s", j.name,
		         vmsg);
		return -EINVAL;
	}
	if (wl_run_stop_requested()) {
		snprintf(r->msg, sizeof(r->msg), "interrupted before test '%s'", j.name);
		return -EINTR;
	}
	rc = wl_run_job(r->t, &j, &opts, res, r->msg, sizeof(r->msg));
	if (rc)
		return rc;
	if (wl_run_stop_requested()) {
		/* Ctrl-C: the job ended early; a partial pass is no measurement. */
		snprintf(r->msg, sizeof(r->msg), "interrupted during test '%s'", j.name);
		wl_result_free(res);
		return -EINTR;
	}
	if (!wl_result_ok(res)) {
		if (res->errors) {
			snprintf(r->msg, sizeof(r->msg),
			         "test '%s': %llu I/O error(s); the first: %s at offset %llu: %s",
			         j.name, (unsigned long long)res->errors,
			         rl_op_name(res->first_error_op),
			         (unsigned long long)res->first_error_offset,
			         strerror(-res->first_error));
			rc = res->first_error ? res->first_error : -EIO;
		} else {
			snprintf(r->msg, sizeof(r->msg), "test '%s': verify failed: %s", j.name,
			         res->verify_msg);
			rc = -EIO;
		}
		wl_result_free(res);
	}
	return rc;
}

void suite_job_build(struct suite_run *r, const struct suite_test *test, enum suite_dir dir,
                     struct wl_job *job)
{
	bool rnd = test->pattern != SUITE_SEQ;
	uint32_t bs = dir == SUITE_WRITE && test->write_bs ? test->write_bs : test->bs;
	uint32_t maxbs;
	char msg[256];

	wl_job_init(job);
	snprintf(job->name, sizeof(job->name), "%s %s", test->name,
	         dir == SUITE_READ    ? "read"
	         : dir == SUITE_WRITE ? "write"
	                              : "mix");
	switch (dir) {
	case SUITE_READ:
		job->rw = rnd ? WL_RW_RANDREAD : WL_RW_READ;
		break;
	case SUITE_WRITE:
		job->rw = rnd ? WL_RW_RANDWRITE : WL_RW_WRITE;
		break;
	case SUITE_MIX:
		job->rw = rnd ? WL_RW_RANDRW : WL_RW_RW;
		job->rwmixread = test->pattern == SUITE_MIXED ? test->rwmixread : r->p.mix_read;
		break;
	}
	if (test->bssplit) {
		/* The definitions are constant and pinned by the unit tests. */
		if (wl_job_set(job, "bssplit", test->bssplit, NULL, msg, sizeof(msg)))
			abort();
		maxbs = 0;
		for (unsigned i = 0; i < job->nbssplit; i++)
			if (job->bssplit[i].bs > maxbs)
				maxbs = job->bssplit[i].bs;
	} else {
		job->bs = bs < r->align ? r->align : bs; /* a 4Kn device cannot do 512 B */
		maxbs = job->bs;
	}
	job->iodepth = test->iodepth ? test->iodepth : r->p.iodepth;
	job->numjobs = test->threads ? test->threads : 1;
	job->offset = 0;
	if (dir == SUITE_READ && test->read_whole_span) {
		job->size = r->t->size / maxbs * maxbs;
	} else if (test->own_region && job->numjobs > 1) {
		uint64_t per = r->area / job->numjobs / maxbs * maxbs;
		job->size = per ? per : maxbs; /* too small an area: the run says so */
		job->offset_increment = job->size;
	} else {
		job->size = r->area;
	}
	if (test->timed) {
		job->time_based = true;
		job->runtime_ns = r->p.duration_ns;
		suite_job_log_interval(job);
	}
}

void suite_job_log_interval(struct wl_job *job)
{
	/* At least 20 points in the series of a short pass; 100 ms (fio's default) otherwise. */
	if (job->runtime_ns && job->runtime_ns < 2 * SUITE_NS_PER_S) {
		uint64_t ms = job->runtime_ns / 20 / SUITE_NS_PER_MS;
		job->log_avg_ns = (ms ? ms : 1) * SUITE_NS_PER_MS;
	}
}

void suite_dir_merge(const struct wl_result *res, struct wl_dir_result *out)
{
	const struct st_series *a = &res->dir[RL_OP_READ].series;
	const struct st_series *b = &res->dir[RL_OP_WRITE].series;
	const struct st_series *s = a->interval_ns ? a : b;

	memset(out, 0, sizeof(*out));
	st_hist_init(&out->hist);
	for (int d = RL_OP_READ; d <= RL_OP_WRITE; d++) {
		out->ios += res->dir[d].ios;
		out->bytes += res->dir[d].bytes;
		st_hist_merge(&out->hist, &res->dir[d].hist);
	}
	if (s->interval_ns &&
	    !st_series_init(&out->series, s->interval_ns, s->start_ns, a->n > b->n ? a->n : b->n)) {
		if (a->interval_ns)
			st_series_merge(&out->series, a);
		if (b->interval_ns)
			st_series_merge(&out->series, b);
	}
}

static void suite_figure_dir(const struct wl_dir_result *d, uint64_t runtime_ns,
                             struct suite_figure *f)
{
	double rt = runtime_ns / 1e9;

	f->mb_s = rt > 0 ? d->bytes / 1e6 / rt : 0;
	f->iops = rt > 0 ? d->ios / rt : 0;
	f->lat_mean_us = st_hist_mean(&d->hist) / 1e3;
	f->lat_p99_us = d->hist.count ? st_hist_percentile(&d->hist, 99) / 1e3 : 0;
}

void suite_figure_of(const struct wl_result *res, enum suite_dir dir, struct suite_figure *f)
{
	if (dir == SUITE_MIX) {
		struct wl_dir_result *m = malloc(sizeof(*m));
		if (!m) {
			memset(f, 0, sizeof(*f));
			return;
		}
		suite_dir_merge(res, m);
		suite_figure_dir(m, res->runtime_ns, f);
		st_series_free(&m->series);
		free(m);
		return;
	}
	suite_figure_dir(&res->dir[dir == SUITE_READ ? RL_OP_READ : RL_OP_WRITE], res->runtime_ns,
	                 f);
}

/* The full direction object of one pass (st_result_dir). */
static struct json_object *suite_pass_json(const struct wl_result *res, enum suite_dir dir)
{
	struct json_object *o;

	if (dir != SUITE_MIX)
		return st_result_dir(&res->dir[dir == SUITE_READ ? RL_OP_READ : RL_OP_WRITE],
		                     res->runtime_ns);
	struct wl_dir_result *m = malloc(sizeof(*m));
	if (!m)
		return NULL;
	suite_dir_merge(res, m);
	o = st_result_dir(m, res->runtime_ns);
	st_series_free(&m->series);
	free(m);
	return o;
}

int suite_measure(struct suite_run *r, const struct wl_job *job, unsigned views, unsigned warmup,
                  unsigned passes, enum suite_agg rule, uint32_t bs, suite_pass_fn fn, void *fn_arg,
                  struct suite_meas *m)
{
	struct wl_result *res = malloc(sizeof(*res));
	int rc = 0;

	memset(m, 0, sizeof(*m));
	m->views = views;
	if (!res)
		return -ENOMEM;
	if (passes > SUITE_PASSES_MAX)
		passes = SUITE_PASSES_MAX;
	for (int v = 0; v < SUITE_VIEWS; v++)
		if (views & SUITE_VIEW(v))
			m->passes[v] = json_object_new_array();
	for (unsigned i = 0; i < warmup + passes; i++) {
		r->cur_pass = i < warmup ? 0 : i - warmup + 1;
		r->cur_passes = passes;
		rc = fn ? fn(r, job, res, fn_arg) : suite_run_job(r, job, res);
		if (rc)
			break;
		if (i >= warmup) {
			for (int v = 0; v < SUITE_VIEWS; v++) {
				if (!(views & SUITE_VIEW(v)))
					continue;
				suite_figure_of(res, (enum suite_dir)v, &m->fig[v][m->n]);
				json_object_array_add(m->passes[v],
				                      suite_pass_json(res, (enum suite_dir)v));
			}
			m->n++;
		}
		wl_result_free(res);
	}
	free(res);
	if (!rc)
		for (int v = 0; v < SUITE_VIEWS; v++)
			suite_aggregate(rule, m->fig[v], m->n, bs, &m->agg[v]);
	return rc;
}

struct json_object *suite_figure_json(const struct suite_figure *f)
{
	struct json_object *o = json_object_new_object();
	struct json_object *lat = json_object_new_object();

	json_object_object_add(o, "mb_s", json_object_new_double(f->mb_s));
	json_object_object_add(o, "iops", json_object_new_double(f->iops));
	json_object_object_add(lat, "mean", json_object_new_double(f->lat_mean_us));
	json_object_object_add(lat, "p99", json_object_new_double(f->lat_p99_us));
	json_object_object_add(o, "lat_us", lat);
	return o;
}

struct json_object *suite_meas_json(struct suite_meas *m, enum suite_dir view)
{
	struct json_object *o = suite_figure_json(&m->agg[view]);

	json_object_object_add(o, "passes",
	                       m->passes[view] ? m->passes[view] : json_object_new_array());
	m->passes[view] = NULL;
	return o;
}

void suite_meas_free(struct suite_meas *m)
{
	for (int v = 0; v < SUITE_VIEWS; v++) {
		if (m->passes[v])
			json_object_put(m->passes[v]);
		m->passes[v] = NULL;
	}
}

int suite_prepare(struct suite_run *r)
{
	struct wl_job job;
	struct wl_result *res;
	int rc;

	if (r->prepared)
		return 0;
	wl_job_init(&job);
	snprintf(job.name, sizeof(job.name), "prepare");
	job.rw = WL_RW_WRITE;
	job.bs = r->area >= SUITE_PREP_BS ? SUITE_PREP_BS : (uint32_t)r->area;
	job.iodepth = SUITE_PREP_QD;
	job.size = r->area;
	res = malloc(sizeof(*res));
	if (!res)
		return -ENOMEM;
	r->cur_test = "preparing the test area";
	r->cur_phase = "write";
	r->cur_pass = 0;
	r->cur_passes = 0;
	rc = suite_run_job(r, &job, res);
	if (!rc)
		wl_result_free(res);
	free(res);
	r->prepared = !rc;
	return rc;
}

void suite_pause(struct suite_run *r)
{
	struct timespec ts = {
	    .tv_sec = (time_t)(r->p.interval_ns / SUITE_NS_PER_S),
	    .tv_nsec = (long)(r->p.interval_ns % SUITE_NS_PER_S),
	};

	if (!r->p.interval_ns || r->simulated)
		return;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* --- JSON --- */

struct json_object *suite_test_json(const struct suite_run *r, const struct suite_test *test)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(test->name));
	json_object_object_add(o, "pattern",
	                       json_object_new_string(suite_pattern_name(test->pattern)));
	json_object_object_add(o, "bs", json_object_new_int64(test->bssplit ? 0 : test->bs));
	if (test->bssplit)
		json_object_object_add(o, "bssplit", json_object_new_string(test->bssplit));
	if (test->write_bs)
		json_object_object_add(o, "write_bs", json_object_new_int64(test->write_bs));
	json_object_object_add(o, "iodepth",
	                       json_object_new_int64(test->iodepth ? test->iodepth : r->p.iodepth));
	json_object_object_add(o, "threads",
	                       json_object_new_int64(test->threads ? test->threads : 1));
	if (test->pattern == SUITE_MIXED) {
		json_object_object_add(o, "rwmixread", json_object_new_int64(test->rwmixread));
		json_object_object_add(o, "random_pct", json_object_new_int64(test->random_pct));
	}
	return o;
}

struct json_object *suite_json_doubles(const double *v, size_t n)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_double(v[i]));
	return a;
}

int suite_run(struct suite_run *r, const char *label)
{
	const struct suite_def *def = r->def;
	struct json_object *s = json_object_new_object();
	struct json_object *params = suite_params_json(def, &r->p);

	json_object_object_add(r->doc, "label", json_object_new_string(label));
	json_object_object_add(s, "name", json_object_new_string(def->name));
	json_object_object_add(s, "title", json_object_new_string(def->title));
	json_object_object_add(s, "aggregate",
	                       json_object_new_string(suite_agg_name(def->aggregate)));
	/* The area actually used (the whole target when --size is 0, or after --force). */
	json_object_object_add(params, "size_bytes", json_object_new_int64((int64_t)r->area));
	json_object_object_add(s, "params", params);
	json_object_object_add(r->doc, "suite", s);
	r->tests = json_object_new_array();
	json_object_object_add(r->doc, "tests", r->tests);
	return def->run(r);
}
