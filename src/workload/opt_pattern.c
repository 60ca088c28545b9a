/*
 * opt_pattern.c - the option setters of the I/O pattern: the job's name,
 * rw (with fio's :N and :SIZE suffixes), block sizes (bs, bsrange,
 * bssplit), the read/write mix and the random distribution (zipf, pareto,
 * zoned).
 *
 * Design: these options interact (bs clears bssplit, rwmixread and
 * rwmixwrite are one share said two ways), so the setters keep those rules
 * where the values are parsed; rules across options that depend on order
 * are checked later by wl_job_validate (opt_validate.c).
 */
#include "workload/opt_priv.h"

#include "core/spec.h"

#include <math.h>
#include <string.h>

const struct opt_choice opt_rw_choices[] = {
    {"read", WL_RW_READ},
    {"write", WL_RW_WRITE},
    {"randread", WL_RW_RANDREAD},
    {"randwrite", WL_RW_RANDWRITE},
    {"rw", WL_RW_RW},
    {"readwrite", WL_RW_RW},
    {"randrw", WL_RW_RANDRW},
    {"trim", WL_RW_TRIM},
    {"randtrim", WL_RW_RANDTRIM},
    {NULL, 0},
};

int opt_set_name(struct wl_job *job, const struct opt_def *def, const char *value,
                 const struct opt_ctx *ctx)
{
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	size_t len = strlen(value);
	bool ok = len > 0 && len < WL_NAME_MAX;
	for (size_t i = 0; ok && i < len; i++)
		if ((unsigned char)value[i] < 0x20 || value[i] == 0x7f)
			ok = false;
	if (!ok)
		return opt_fail(ctx, true,
		                "expected a name of 1 to %d characters without control characters, "
		                "got '%s'",
		                WL_NAME_MAX - 1, value);
	memcpy(job->name, value, len + 1);
	return 0;
}

int opt_set_rw(struct wl_job *job, const struct opt_def *def, const char *value,
               const struct opt_ctx *ctx)
{
	char list[256], hint[80];
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	const struct opt_choice *c = opt_find_choice(def->choices, value);
	if (c) {
		job->rw = (enum wl_rw)c->value;
		job->rw_skip = 0;
		job->rw_nr = 1;
		return 0;
	}
	const char *colon = strchr(value, ':');
	if (colon) {
		char base[32], tmp[128];
		size_t n = (size_t)(colon - value);
		const struct opt_choice *b = NULL;
		if (n < sizeof(base)) {
			memcpy(base, value, n);
			base[n] = '\0';
			b = opt_find_choice(def->choices, base);
		}
		if (b && wl_rw_is_random((enum wl_rw)b->value)) {
			uint64_t nr = 0;
			if (rl_parse_u64(colon + 1, &nr, tmp, sizeof(tmp)) || nr < 1 ||
			    nr > 1u << 30)
				return opt_fail(
				    ctx, true,
				    "expected %s:N with N a whole number of I/Os from 1 "
				    "(a new random offset every N I/Os), got '%s'",
				    base, value);
			job->rw = (enum wl_rw)b->value;
			job->rw_nr = (uint32_t)nr;
			job->rw_skip = 0;
			return 0;
		}
		if (b) {
			const char *num = colon + 1;
			bool neg = num[0] == '-';
			uint64_t v = 0;
			if (rl_parse_size(num + neg, &v, tmp, sizeof(tmp)) || v % WL_BS_MIN ||
			    v > (1ull << 50))
				return opt_fail(
				    ctx, true,
				    "expected %s:SIZE with SIZE a multiple of 512 bytes to "
				    "skip after every I/O (negative: go back), got '%s'",
				    base, value);
			job->rw = (enum wl_rw)b->value;
			job->rw_skip = neg ? -(int64_t)v : (int64_t)v;
			job->rw_nr = 1;
			return 0;
		}
	}
	return opt_fail(ctx, true, "expected one of %s, got '%s'%s",
	                opt_choice_list(def->choices, list, sizeof(list)), value,
	                opt_choice_hint(def->choices, value, hint, sizeof(hint)));
}

/*
 * bsrange=MIN-MAX (and bs=MIN-MAX): sizes from MIN to MAX in steps of MIN,
 * equally likely, as a bssplit (fio draws sizes in the range aligned to
 * MIN; with at most 16 steps the two agree).
 */
int opt_set_bsrange(struct wl_job *job, const struct opt_def *def, const char *value,
                    const struct opt_ctx *ctx)
{
	char lo[64], tmp[128];
	uint64_t a = 0, b = 0;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	const char *dash = strchr(value, '-');
	size_t n = dash ? (size_t)(dash - value) : 0;
	if (!dash || n == 0 || n >= sizeof(lo) || strchr(value, ','))
		goto bad;
	memcpy(lo, value, n);
	lo[n] = '\0';
	if (rl_parse_size(lo, &a, tmp, sizeof(tmp)) ||
	    rl_parse_size(dash + 1, &b, tmp, sizeof(tmp)) || !opt_bs_ok(a) || !opt_bs_ok(b) ||
	    b < a)
		goto bad;
	if (b % a || b / a > WL_BSSPLIT_MAX)
		return opt_fail(ctx, true,
		                "raidlab draws range sizes in steps of MIN and needs MAX to be at "
		                "most %d x MIN and a multiple of it; got '%s'",
		                WL_BSSPLIT_MAX, value);
	job->nbssplit_wt[0] = job->nbssplit_wt[1] = 0;
	if (a == b) {
		job->bs = (uint32_t)a;
		job->nbssplit = 0;
		return 0;
	}
	unsigned k = (unsigned)(b / a);
	for (unsigned i = 0; i < k; i++) {
		job->bssplit[i].bs = (uint32_t)(a * (i + 1));
		job->bssplit[i].pct = 100 / k + (i < 100 % k);
	}
	job->nbssplit = k;
	return 0;
bad:
	return opt_fail(ctx, true,
	                "expected MIN-MAX block sizes such as 4k-64k (each %s), got '%s'",
	                OPT_BS_FORM, value);
}

/*
 * fio's bs=READ,WRITE[,TRIM]: one block size per direction.  An empty field
 * keeps that direction's default (reads: 4k); trims follow writes unless
 * given.  Writes' and trims' sizes are one-entry splits of their own
 * (bssplit_wt), so every place that asks wl_job_bssplit sees them.
 */
static int opt_set_bs_dirs(struct wl_job *job, const char *value, const struct opt_ctx *ctx)
{
	char tmp[128], field[64];
	uint64_t v[3] = {0, 0, 0};
	const char *p = value;
	int n = 0;
	for (; n < 3; n++) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len >= sizeof(field))
			return opt_fail(ctx, true, "field %d is too long in '%s'", n + 1, value);
		memcpy(field, p, len);
		field[len] = '\0';
		if (len && strchr(field, '-'))
			return opt_fail(
			    ctx, true,
			    "a range per direction (%s) is not supported; give one size "
			    "per direction (bs=4k,64k) or bssplit=R,W",
			    field);
		if (len && (rl_parse_size(field, &v[n], tmp, sizeof(tmp)) != 0 ||
		            !opt_job_bs_ok(job, v[n])))
			return opt_fail(ctx, true, "field %d ('%s'): expected %s", n + 1, field,
			                OPT_BS_FORM);
		if (!end)
			break;
		p = end + 1;
	}
	if (n >= 3)
		return opt_fail(ctx, true, "expected READ,WRITE[,TRIM] block sizes, got '%s'",
		                value);
	job->bs = v[0] ? (uint32_t)v[0] : 4096;
	job->nbssplit = 0;
	job->nbssplit_wt[0] = job->nbssplit_wt[1] = 0;
	for (int d = 1; d <= 2; d++) {
		if (!v[d])
			continue;
		job->bssplit_wt[d - 1][0] = (struct wl_bssplit){.bs = (uint32_t)v[d], .pct = 100};
		job->nbssplit_wt[d - 1] = 1;
	}
	return 0;
}

int opt_set_bs(struct wl_job *job, const struct opt_def *def, const char *value,
               const struct opt_ctx *ctx)
{
	char tmp[128];
	uint64_t v = 0;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (strchr(value, ','))
		return opt_set_bs_dirs(job, value, ctx);
	if (strchr(value, '-'))
		return opt_set_bsrange(job, def, value, ctx);
	if (rl_parse_size(value, &v, tmp, sizeof(tmp)) != 0 || !opt_job_bs_ok(job, v))
		return opt_fail(ctx, true, "expected %s, got '%s'", OPT_BS_FORM, value);
	job->bs = (uint32_t)v;
	job->nbssplit = 0; /* the later of bs and bssplit wins */
	job->nbssplit_wt[0] = job->nbssplit_wt[1] = 0;
	return 0;
}

/*
 * One direction's list SIZE[/PCT]:SIZE[/PCT]... into @split, *@np entries.
 * Entries without /PCT share what the others leave equally; if that does
 * not divide evenly the first of them get one percent more, so the total
 * is exactly 100.
 */
static int opt_parse_split(const char *value, struct wl_bssplit *split, unsigned *np,
                           const struct opt_ctx *ctx)
{
	bool has_pct[WL_BSSPLIT_MAX];
	unsigned n = 0, nmissing = 0, sum = 0;
	char tmp[128];
	if (!value[0])
		return opt_fail(ctx, true,
		                "expected SIZE/PCT entries separated by ':' such as 4k/60:64k/40, "
		                "got ''");
	for (const char *p = value;;) {
		const char *end = strchr(p, ':');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char entry[64], *slash;
		uint64_t bs, pct;
		if (n == WL_BSSPLIT_MAX)
			return opt_fail(ctx, true,
			                "at most %d entries are allowed, got more in '%s'",
			                WL_BSSPLIT_MAX, value);
		if (len == 0)
			return opt_fail(ctx, true,
			                "entry %u is empty; expected SIZE/PCT entries separated by "
			                "':' such as 4k/60:64k/40, got '%s'",
			                n + 1, value);
		if (len >= sizeof(entry))
			return opt_fail(ctx, true, "entry %u is too long in '%s'", n + 1, value);
		memcpy(entry, p, len);
		entry[len] = '\0';
		slash = strchr(entry, '/');
		if (slash)
			*slash = '\0';
		if (rl_parse_size(entry, &bs, tmp, sizeof(tmp)) != 0 || !opt_bs_ok(bs))
			return opt_fail(ctx, true, "entry %u: expected %s, got '%s'", n + 1,
			                OPT_BS_FORM, entry);
		has_pct[n] = slash != NULL;
		pct = 0;
		if (slash && (rl_parse_u64(slash + 1, &pct, tmp, sizeof(tmp)) != 0 || pct > 100))
			return opt_fail(ctx, true,
			                "entry %u: expected a percentage from 0 to 100 after '/', "
			                "got '%s'",
			                n + 1, slash + 1);
		split[n].bs = (uint32_t)bs;
		split[n].pct = (uint32_t)pct;
		if (slash)
			sum += (unsigned)pct;
		else
			nmissing++;
		n++;
		if (!end)
			break;
		p = end + 1;
	}
	if (sum > 100)
		return opt_fail(ctx, true, "the percentages add up to %u, more than 100, in '%s'",
		                sum, value);
	if (nmissing == 0 && sum != 100)
		return opt_fail(ctx, true, "the percentages add up to %u, expected 100, in '%s'",
		                sum, value);
	if (nmissing > 0 && sum == 100)
		return opt_fail(
		    ctx, true,
		    "the given percentages already add up to 100, leaving nothing for the "
		    "entries without one, in '%s'",
		    value);
	unsigned rest = 100 - sum;
	unsigned share = nmissing ? rest / nmissing : 0, extra = nmissing ? rest % nmissing : 0;
	for (unsigned i = 0; i < n && nmissing > 0; i++) {
		if (has_pct[i])
			continue;
		split[i].pct = share + (extra > 0);
		if (extra > 0)
			extra--;
	}
	*np = n;
	return 0;
}

unsigned opt_split_dirs(const char *value, char parts[][OPT_DIR_PART_MAX], unsigned max)
{
	unsigned n = 0;
	for (const char *p = value;; n++) {
		size_t len = strcspn(p, ",");
		if (n == max || len == 0 || len >= OPT_DIR_PART_MAX)
			return 0;
		memcpy(parts[n], p, len);
		parts[n][len] = '\0';
		if (!p[len])
			return n + 1;
		p += len + 1;
	}
}

/*
 * bssplit=LIST[,LIST[,LIST]]: one split for every direction, or reads',
 * writes' (and trims'; without it trims take the writes' as fio) own.
 */
int opt_set_bssplit(struct wl_job *job, const struct opt_def *def, const char *value,
                    const struct opt_ctx *ctx)
{
	struct wl_bssplit split[3][WL_BSSPLIT_MAX];
	unsigned n[3] = {0, 0, 0};
	char parts[3][OPT_DIR_PART_MAX];
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	unsigned ndirs = value[0] ? opt_split_dirs(value, parts, 3) : 1;
	if (!value[0])
		parts[0][0] = '\0';
	if (!ndirs)
		return opt_fail(ctx, true,
		                "expected READ[,WRITE[,TRIM]] lists of SIZE/PCT entries separated "
		                "by ':' such as 4k/60:64k/40,64k/100 (none empty), got '%s'",
		                value);
	for (unsigned d = 0; d < ndirs; d++)
		if ((ret = opt_parse_split(parts[d], split[d], &n[d], ctx)))
			return ret;
	memcpy(job->bssplit, split[0], n[0] * sizeof(split[0][0]));
	job->nbssplit = n[0];
	for (unsigned d = 1; d < 3; d++) {
		unsigned from = d < ndirs ? d : ndirs - 1; /* a missing trim list: the writes' */
		job->nbssplit_wt[d - 1] = from ? n[from] : 0;
		memcpy(job->bssplit_wt[d - 1], split[from], n[from] * sizeof(split[0][0]));
	}
	return 0;
}

/*
 * rwmixread and rwmixwrite: one read share said two ways.  fio lets the
 * later win; when both are given they must agree (add up to 100), since
 * one of the two figures would be silently dropped.
 */
int opt_set_rwmix(struct wl_job *job, const struct opt_def *def, const char *value,
                  const struct opt_ctx *ctx)
{
	bool write = !strcmp(def->info.name, "rwmixwrite");
	uint32_t v = 0;
	int ret = opt_parse_percent(def, value, &v, ctx);
	if (ret)
		return ret;
	uint32_t read = write ? 100 - v : v;
	if (job->rwmix_given[!write] && job->rwmixread != read)
		return opt_fail(ctx, false,
		                "rwmixread=%u and rwmixwrite=%u contradict each other (they must "
		                "add up to 100); give one of them",
		                write ? job->rwmixread : v, write ? v : 100 - job->rwmixread);
	job->rwmixread = read;
	job->rwmix_given[write] = true;
	return 0;
}

/*
 * zoned:A/B:C/D...: A% of the I/Os go to the first B% of the region, C% to
 * the next D%, ...; zoned_abs gives zone sizes in bytes.  The access shares
 * add up to 100; a zone without a size (the last, "20/") takes the rest.
 */
static int opt_set_zones(struct wl_job *job, const char *value, const char *param, bool abs,
                         const struct opt_ctx *ctx)
{
	struct wl_zone z[WL_ZONES_MAX];
	unsigned n = 0, access = 0, size = 0;
	char tmp[128];

	if (!param || !param[0] || strchr(param, ','))
		return opt_fail(ctx, true,
		                "expected %s:A/B:C/D... (one list for all directions), got '%s'",
		                abs ? "zoned_abs" : "zoned", value);
	for (const char *p = param; *p;) {
		const char *end = strchr(p, ':');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char e[64], *slash;
		uint64_t a = 0, b = 0;
		if (n == WL_ZONES_MAX || len == 0 || len >= sizeof(e))
			goto bad;
		memcpy(e, p, len);
		e[len] = '\0';
		slash = strchr(e, '/');
		if (!slash)
			goto bad;
		*slash = '\0';
		if (rl_parse_u64(e, &a, tmp, sizeof(tmp)) || a > 100)
			goto bad;
		if (slash[1]) {
			if (abs ? rl_parse_size(slash + 1, &b, tmp, sizeof(tmp)) || !b
			        : rl_parse_u64(slash + 1, &b, tmp, sizeof(tmp)) || !b || b > 100)
				goto bad;
		} else if (end) {
			goto bad; /* only the last zone may leave its size out */
		}
		z[n].access_pct = (uint32_t)a;
		z[n].size_pct = abs ? 0 : (uint32_t)b;
		z[n].size_bytes = abs ? b : 0;
		access += (unsigned)a;
		size += abs ? 0 : (unsigned)b;
		n++;
		if (!end)
			break;
		p = end + 1;
	}
	if (access != 100 || size > 100)
		return opt_fail(
		    ctx, true,
		    "the access shares add up to %u%% and the zone sizes to %u%%; "
		    "expected 100%% of the I/Os in at most 100%% of the region, in '%s'",
		    access, size, value);
	memcpy(job->zones, z, n * sizeof(z[0]));
	job->nzones = n;
	job->dist = abs ? WL_DIST_ZONED_ABS : WL_DIST_ZONED;
	job->dist_param = 0;
	return 0;
bad:
	return opt_fail(ctx, true,
	                "expected %s:ACCESS%%/%s:... with at most %d zones (the last may leave "
	                "its size out), got '%s'",
	                abs ? "zoned_abs" : "zoned", abs ? "SIZE" : "SIZE%", WL_ZONES_MAX, value);
}

/* random | zipf[:THETA] | pareto[:H] | zoned | zoned_abs */
int opt_set_dist(struct wl_job *job, const struct opt_def *def, const char *value,
                 const struct opt_ctx *ctx)
{
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	const char *colon = strchr(value, ':');
	size_t klen = colon ? (size_t)(colon - value) : strlen(value);
	const char *param = colon ? colon + 1 : NULL;
	double v;
	if (klen == 6 && strncmp(value, "random", 6) == 0) {
		if (param)
			return opt_fail(ctx, true, "'random' takes no parameter, got '%s'", value);
		job->dist = WL_DIST_RANDOM;
		job->dist_param = 0;
		return 0;
	}
	if (klen == 4 && strncmp(value, "zipf", 4) == 0) {
		v = OPT_DEF_ZIPF;
		if (param && strchr(param, ':'))
			return opt_fail(
			    ctx, true,
			    "fio's ':CENTER' part is not supported by raidlab; expected "
			    "zipf:THETA, got '%s'",
			    value);
		if (param && !opt_parse_double(param, &v))
			v = NAN;
		if (!(v > 0) || v == 1.0)
			return opt_fail(ctx, true,
			                "zipf theta must be a number above 0 other than 1 (e.g. "
			                "zipf:1.2), got '%s'",
			                value);
		job->dist = WL_DIST_ZIPF;
		job->dist_param = v;
		return 0;
	}
	if (klen == 6 && strncmp(value, "pareto", 6) == 0) {
		v = OPT_DEF_PARETO;
		if (param && strchr(param, ':'))
			return opt_fail(
			    ctx, true,
			    "fio's ':CENTER' part is not supported by raidlab; expected "
			    "pareto:H, got '%s'",
			    value);
		if (param && !opt_parse_double(param, &v))
			v = NAN;
		if (!(v > 0 && v < 1))
			return opt_fail(ctx, true,
			                "pareto h must be a number between 0 and 1, both excluded "
			                "(e.g. pareto:0.2), got '%s'",
			                value);
		job->dist = WL_DIST_PARETO;
		job->dist_param = v;
		return 0;
	}
	if ((klen == 5 && strncmp(value, "zoned", 5) == 0) ||
	    (klen == 9 && strncmp(value, "zoned_abs", 9) == 0))
		return opt_set_zones(job, value, param, klen == 9, ctx);
	return opt_fail(ctx, true,
	                "expected random, zipf[:THETA], pareto[:H], zoned:A/B:... or "
	                "zoned_abs:A/SIZE:... (fio's normal distribution is not supported), "
	                "got '%s'",
	                value);
}
