/*
 * params.c - a suite's parameters: one table (suite_opts) drives parsing
 * (--size=16m), `raidlab help suites`, and the "suite.params" object of the
 * result, so the three cannot disagree.
 *
 * Every suite accepts a subset of the options (suite_def.options); an option
 * another suite has is rejected with the list of this suite's own, and a
 * name no suite has is -ENOENT, so the CLI can say "unknown option".  Values
 * go through the same unit parsers as target specs and job options
 * (rl_parse_size / rl_parse_time / rl_parse_u64 / rl_parse_bool).
 */
#include <errno.h>
#include <json-c/json.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/spec.h"
#include "suites/suite.h"

#define SUITE_NS_PER_S  1000000000ull
#define SUITE_NS_PER_MS 1000000ull

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
    {"threads", "threads", SUITE_OPT_THREADS, SUITE_K_U32, SUITE_P(threads), 1, 1024, "N",
     "concurrent workers, each at the queue depth"},
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
    {"small-pages", "small_pages", SUITE_OPT_PAGES, SUITE_K_BOOL, SUITE_P(small_pages), 0, 1, NULL,
     "keep I/O buffers in 4 KiB pages as fio's default, not huge pages (docs/results.md)"},
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

/* Does @def take the option of @bit (its own, or one every suite takes)? */
static bool suite_takes(const struct suite_def *def, unsigned bit)
{
	return (def->options | SUITE_OPT_COMMON) & bit;
}

/* "--size, --passes, ..." of the options @def accepts. */
static void suite_opt_list(const struct suite_def *def, char *buf, size_t len)
{
	size_t pos = 0;

	buf[0] = 0;
	for (size_t i = 0; i < SUITE_NOPTS && pos < len; i++) {
		if (!suite_takes(def, suite_opts[i].bit))
			continue;
		int n =
		    snprintf(buf + pos, len - pos, "%s--%s", pos ? ", " : "", suite_opts[i].name);
		if (n < 0)
			break;
		pos += (size_t)n;
	}
}

bool suite_params_accepts(const struct suite_def *def, const char *name)
{
	const struct suite_opt *o = suite_opt_find(name);

	return o && suite_takes(def, o->bit);
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
	if (!suite_takes(def, o->bit)) {
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

void suite_fmt_size(char *buf, size_t len, uint64_t v)
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
		if (!suite_takes(def, o->bit))
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
		if (!suite_takes(def, so->bit))
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
