/*
 * validate.c - validation sets: loading, figures, statistics, relations,
 * orderings, and their JSON and text forms (see validate.h); the HTML form
 * is validate_html.c.
 *
 * The set file is parsed with json-c and checked field by field; every
 * error names the file and the field ("configs[3].cells[1]: published must
 * be a positive number").  Nothing here runs a job: the CLI attaches each
 * configuration's suite result and this file reads figures out of it.
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/render.h"
#include "report/validate.h"
#include "report/validate_priv.h"

/* --- loading --- */

static const char *val_str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static bool val_num(struct json_object *o, const char *key, double *out)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v))
		return false;
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return false;
	*out = json_object_get_double(v);
	return true;
}

static int val_fail(char *msg, size_t len, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int val_fail(char *msg, size_t len, const char *path, const char *fmt, ...)
{
	char what[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(msg, len, "%s: %s", path, what);
	return -EINVAL;
}

/* *@dst = the formatted text, whole (the old one freed); NULL if out of memory. */
static void val_setf(char **dst, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void val_vsetf(char **dst, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

static void val_vsetf(char **dst, const char *fmt, va_list ap)
{
	char *t;

	if (vasprintf(&t, fmt, ap) < 0)
		t = NULL;
	free(*dst);
	*dst = t;
}

static void val_setf(char **dst, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	val_vsetf(dst, fmt, ap);
	va_end(ap);
}

/* "fit": the parameters fitted to a cell or a finding (in-sample); absent: out-of-sample. */
static int val_fit_load(struct json_object *o, const char **fit)
{
	struct json_object *v;

	*fit = NULL;
	if (!json_object_object_get_ex(o, "fit", &v))
		return 0;
	if (!json_object_is_type(v, json_type_string) || !json_object_get_string_len(v))
		return -EINVAL;
	*fit = json_object_get_string(v);
	return 0;
}

static int val_load_cells(const char *path, struct json_object *arr, struct val_config *c,
                          size_t ci, char *msg, size_t len)
{
	size_t n = json_object_array_length(arr);

	c->cells = calloc(n ? n : 1, sizeof(*c->cells));
	if (!c->cells)
		return -ENOMEM;
	for (size_t j = 0; j < n; j++) {
		struct json_object *o = json_object_array_get_idx(arr, j);
		struct val_cell *cell = &c->cells[j];
		cell->test = val_str(o, "test");
		cell->direction = val_str(o, "direction");
		cell->label = val_str(o, "label");
		cell->anomaly = val_str(o, "anomaly");
		cell->why = val_str(o, "why");
		cell->simulated = NAN;
		if (val_fit_load(o, &cell->fit))
			return val_fail(msg, len, path,
			                "configs[%zu].cells[%zu]: "
			                "fit must name the parameters fitted to it (a string)",
			                ci, j);
		if (!cell->test || !cell->direction)
			return val_fail(msg, len, path,
			                "configs[%zu].cells[%zu]: "
			                "test and direction are required strings",
			                ci, j);
		if (strcmp(cell->direction, "read") && strcmp(cell->direction, "write"))
			return val_fail(msg, len, path,
			                "configs[%zu].cells[%zu]: "
			                "direction must be read or write",
			                ci, j);
		if (!val_num(o, "published", &cell->published) || !(cell->published > 0) ||
		    !isfinite(cell->published))
			return val_fail(msg, len, path,
			                "configs[%zu].cells[%zu]: "
			                "published must be a positive number",
			                ci, j);
		c->ncells++;
	}
	return 0;
}

static int val_load_relation(const char *path, struct json_object *o, struct val_relation *r,
                             size_t i, char *msg, size_t len)
{
	struct json_object *f;
	static const char *const ops[] = {"<", "<=", ">", ">=", "between", NULL};
	bool known = false;

	r->finding = val_str(o, "finding");
	r->op = val_str(o, "op");
	if (val_fit_load(o, &r->fit))
		return val_fail(msg, len, path,
		                "relations[%zu]: "
		                "fit must name the parameters fitted to it (a string)",
		                i);
	if (!r->finding || !r->op)
		return val_fail(msg, len, path,
		                "relations[%zu]: "
		                "finding and op are required strings",
		                i);
	for (size_t k = 0; ops[k]; k++)
		known |= !strcmp(r->op, ops[k]);
	if (!known)
		return val_fail(msg, len, path,
		                "relations[%zu]: "
		                "op must be <, <=, >, >= or between",
		                i);
	if (!json_object_object_get_ex(o, "lhs", &r->lhs) ||
	    !json_object_object_get_ex(o, "rhs", &r->rhs) ||
	    !json_object_is_type(r->lhs, json_type_object) ||
	    !json_object_is_type(r->rhs, json_type_object))
		return val_fail(msg, len, path,
		                "relations[%zu]: "
		                "lhs and rhs must be objects",
		                i);
	r->f_lo = r->f_hi = 1.0;
	if (json_object_object_get_ex(o, "factor", &f)) {
		if (!strcmp(r->op, "between")) {
			if (!json_object_is_type(f, json_type_array) ||
			    json_object_array_length(f) != 2)
				return val_fail(msg, len, path,
				                "relations[%zu]: "
				                "between takes factor [lo, hi]",
				                i);
			r->f_lo = json_object_get_double(json_object_array_get_idx(f, 0));
			r->f_hi = json_object_get_double(json_object_array_get_idx(f, 1));
		} else {
			r->f_lo = r->f_hi = json_object_get_double(f);
		}
		if (!(r->f_lo > 0) || !(r->f_hi >= r->f_lo))
			return val_fail(msg, len, path,
			                "relations[%zu]: "
			                "factor must be positive (lo <= hi)",
			                i);
	} else if (!strcmp(r->op, "between")) {
		return val_fail(msg, len, path,
		                "relations[%zu]: "
		                "between needs factor [lo, hi]",
		                i);
	}
	return 0;
}

static double val_share(struct json_object *th, const char *key)
{
	double v;

	return val_num(th, key, &v) ? v : -1;
}

/*
 * A figure as plain text: four significant digits as %g gives them, but
 * never in exponent form (1.022e+04 prints as 10220).  @buf holds 32.
 */
const char *val_num_text(double v, char *buf)
{
	snprintf(buf, 32, "%.4g", v);
	if (!strchr(buf, 'e'))
		return buf;
	if (fabs(v) >= 1) {
		snprintf(buf, 32, "%.0f", v);
		return buf;
	}
	snprintf(buf, 32, "%.8f", v);
	for (size_t n = strlen(buf); n > 1 && buf[n - 1] == '0'; n--)
		buf[n - 1] = '\0';
	return buf;
}

/* A thresholds (or targets) object: shares within 1.25x / 2x / 4x / 10 %, findings, orderings. */
static void val_th_load(struct json_object *th, struct val_thresholds *t)
{
	struct json_object *b;
	double v;

	t->within_125 = val_share(th, "within_1.25");
	t->within_2 = val_share(th, "within_2");
	t->within_4 = val_share(th, "within_4");
	t->within_10pct = val_share(th, "within_10pct");
	if (val_num(th, "max_error", &v) && v > 0) /* every counted cell within 10 % */
		t->within_10pct = 1.0;
	t->orderings =
	    th && json_object_object_get_ex(th, "orderings", &b) && json_object_get_boolean(b);
	t->relations =
	    th && json_object_object_get_ex(th, "relations", &b) && json_object_get_boolean(b);
	t->relations_min = val_num(th, "relations_min", &v) ? (long)v : -1;
}

int val_set_load(const char *path, struct val_set *s, char *msg, size_t len)
{
	struct json_object *arr, *th, *ord;
	int rc;

	memset(s, 0, sizeof(*s));
	s->doc = json_object_from_file(path);
	if (!s->doc) {
		snprintf(msg, len, "%s: cannot read it as JSON: %s", path,
		         json_util_get_last_err());
		return -EINVAL;
	}
	s->name = val_str(s->doc, "name");
	s->title = val_str(s->doc, "title");
	s->platform = val_str(s->doc, "platform");
	s->tool = val_str(s->doc, "tool");
	s->data = val_str(s->doc, "data");
	if (!s->name || !s->title)
		return val_fail(msg, len, path, "%s", "name and title are required strings");
	if (!json_object_object_get_ex(s->doc, "configs", &arr) ||
	    !json_object_is_type(arr, json_type_array) || !json_object_array_length(arr))
		return val_fail(msg, len, path, "%s", "configs must be a non-empty array");
	s->configs = calloc(json_object_array_length(arr), sizeof(*s->configs));
	if (!s->configs)
		return -ENOMEM;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *o = json_object_array_get_idx(arr, i), *cells;
		struct val_config *c = &s->configs[i];
		s->nconfigs++;
		c->name = val_str(o, "name");
		c->spec = val_str(o, "spec");
		c->suite = val_str(o, "suite");
		if (!c->name || !c->spec || !c->suite)
			return val_fail(msg, len, path,
			                "configs[%zu]: "
			                "name, spec and suite are required strings",
			                i);
		if (json_object_object_get_ex(o, "params", &c->params) &&
		    !json_object_is_type(c->params, json_type_object))
			return val_fail(msg, len, path,
			                "configs[%zu]: "
			                "params must be an object",
			                i);
		if (!json_object_object_get_ex(o, "cells", &cells) ||
		    !json_object_is_type(cells, json_type_array))
			return val_fail(msg, len, path,
			                "configs[%zu]: "
			                "cells must be an array",
			                i);
		rc = val_load_cells(path, cells, c, i, msg, len);
		if (rc)
			return rc;
	}
	if (json_object_object_get_ex(s->doc, "relations", &arr)) {
		if (!json_object_is_type(arr, json_type_array))
			return val_fail(msg, len, path, "%s", "relations must be an array");
		s->relations = calloc(json_object_array_length(arr) + 1, sizeof(*s->relations));
		if (!s->relations)
			return -ENOMEM;
		for (size_t i = 0; i < json_object_array_length(arr); i++) {
			rc = val_load_relation(path, json_object_array_get_idx(arr, i),
			                       &s->relations[i], i, msg, len);
			if (rc)
				return rc;
			s->nrelations++;
		}
	}
	th = json_object_object_get_ex(s->doc, "thresholds", &th) ? th : NULL;
	val_th_load(th, &s->th);
	s->has_targets = json_object_object_get_ex(s->doc, "targets", &th);
	val_th_load(s->has_targets ? th : NULL, &s->targets);
	if (json_object_object_get_ex(s->doc, "orderings", &ord)) {
		if (!val_num(ord, "min_ratio", &s->order_min_ratio) || !(s->order_min_ratio > 1))
			return val_fail(msg, len, path, "%s",
			                "orderings.min_ratio must be a number above 1");
		s->order_group = val_str(ord, "group_by");
	}
	return 0;
}

void val_set_free(struct val_set *s)
{
	for (size_t i = 0; i < s->nconfigs; i++) {
		free(s->configs[i].cells);
		if (s->configs[i].result)
			json_object_put(s->configs[i].result);
	}
	free(s->configs);
	for (size_t i = 0; i < s->nrelations; i++)
		free(s->relations[i].detail);
	free(s->relations);
	if (s->doc)
		json_object_put(s->doc);
	memset(s, 0, sizeof(*s));
}

/* --- figures --- */

static double val_dir_figure(struct json_object *test, const char *direction, const char *metric)
{
	struct json_object *d, *v;

	if (!json_object_object_get_ex(test, direction, &d))
		return NAN;
	if (!strcmp(metric, "lat_us")) {
		if (!json_object_object_get_ex(d, "lat_us", &v) ||
		    !json_object_object_get_ex(v, "mean", &v))
			return NAN;
		return json_object_get_double(v);
	}
	/* a figure of the test as a whole (HD Tune's min_mb_s), for a direction it ran */
	if (!json_object_object_get_ex(d, metric, &v) &&
	    !json_object_object_get_ex(test, metric, &v))
		return NAN;
	return json_object_get_double(v);
}

double val_figure(struct json_object *result, const char *test, const char *direction,
                  const char *metric)
{
	struct json_object *tests;
	double best = NAN;

	if (!metric)
		metric = "mb_s";
	if (!result || !json_object_object_get_ex(result, "tests", &tests))
		return NAN;
	for (size_t i = 0; i < json_object_array_length(tests); i++) {
		struct json_object *t = json_object_array_get_idx(tests, i);
		const char *name = val_str(t, "name");
		double v;
		if (!name)
			continue;
		if (strcmp(test, "peak")) {
			if (!strcmp(name, test))
				return val_dir_figure(t, direction, metric);
			continue;
		}
		v = val_dir_figure(t, direction, metric);
		if (isfinite(v) && (isnan(best) || v > best))
			best = v;
	}
	return best;
}

void val_set_fill(struct val_set *s)
{
	for (size_t i = 0; i < s->nconfigs; i++)
		for (size_t j = 0; j < s->configs[i].ncells; j++) {
			struct val_cell *c = &s->configs[i].cells[j];
			c->simulated =
			    val_figure(s->configs[i].result, c->test, c->direction, NULL);
		}
}

/* --- statistics --- */

static int val_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The cell statistics of the cells @which selects (VAL_IN, VAL_OUT, or -1
 * for every cell) into @a; the median of |ln(sim/pub)| into *@mal.
 */
static void val_cells_agree(const struct val_set *s, int which, struct val_agree *a, double *mal,
                            size_t *anomalies, size_t *missing)
{
	size_t n = 0, in125 = 0, in15 = 0, in2 = 0, in4 = 0, in10 = 0;
	double *lr;

	for (size_t i = 0; i < s->nconfigs; i++)
		for (size_t j = 0; j < s->configs[i].ncells; j++)
			a->cells += which < 0 || !s->configs[i].cells[j].fit == (which == VAL_OUT);
	lr = calloc(a->cells ? a->cells : 1, sizeof(*lr));
	if (!lr)
		return;
	for (size_t i = 0; i < s->nconfigs; i++)
		for (size_t j = 0; j < s->configs[i].ncells; j++) {
			const struct val_cell *c = &s->configs[i].cells[j];
			double r, l;
			if (which >= 0 && !c->fit != (which == VAL_OUT))
				continue;
			if (c->anomaly) {
				(*anomalies)++;
				continue;
			}
			if (!(c->simulated > 0)) {
				(*missing)++;
				continue;
			}
			r = c->simulated / c->published;
			l = fabs(log(r));
			lr[n++] = l;
			in125 += l <= log(1.25) + 1e-12;
			in15 += l <= log(1.5) + 1e-12;
			in2 += l <= log(2.0) + 1e-12;
			in4 += l <= log(4.0) + 1e-12;
			in10 += fabs(r - 1) <= 0.10 + 1e-12;
			if (exp(l) > a->worst_ratio)
				a->worst_ratio = exp(l);
		}
	a->counted = n;
	if (n) {
		qsort(lr, n, sizeof(*lr), val_cmp_double);
		*mal = n % 2 ? lr[n / 2] : (lr[n / 2 - 1] + lr[n / 2]) / 2;
		a->median_ratio = exp(*mal);
		a->share_125 = (double)in125 / n;
		a->share_15 = (double)in15 / n;
		a->share_2 = (double)in2 / n;
		a->share_4 = (double)in4 / n;
		a->share_10pct = (double)in10 / n;
	}
	free(lr);
}

static void val_stats_cells(const struct val_set *s, struct val_stats *st)
{
	struct val_agree all = {0};
	size_t an = 0, mi = 0;
	double mal = 0;

	val_cells_agree(s, -1, &all, &st->median_abs_log, &st->anomalies, &st->missing);
	st->cells = all.cells;
	st->counted = all.counted;
	st->median_ratio = all.median_ratio;
	st->worst_ratio = all.worst_ratio;
	st->share_125 = all.share_125;
	st->share_15 = all.share_15;
	st->share_2 = all.share_2;
	st->share_4 = all.share_4;
	st->share_10pct = all.share_10pct;
	for (int k = 0; k < VAL_SAMPLES; k++)
		val_cells_agree(s, k, &st->sample[k], &mal, &an, &mi);
}

/* The group of a configuration name: the part before '/' (or the whole name). */
static size_t val_group_len(const char *name)
{
	const char *slash = strchr(name, '/');

	return slash ? (size_t)(slash - name) : strlen(name);
}

static const struct val_cell *val_cell_find(const struct val_config *c, const char *test,
                                            const char *dir)
{
	for (size_t i = 0; i < c->ncells; i++)
		if (!strcmp(c->cells[i].test, test) && !strcmp(c->cells[i].direction, dir))
			return &c->cells[i];
	return NULL;
}

/*
 * Is "mode of A beats mode of B on @test/@dir" shown by every other group
 * (array) measured in both modes?  Then it is an effect of the modes, not
 * of one array's run.
 */
static bool val_mode_consistent(const struct val_set *s, const struct val_config *A,
                                const struct val_config *B, const char *test, const char *dir)
{
	size_t ga = val_group_len(A->name);
	const char *ma = A->name + ga, *mb = B->name + ga;

	for (size_t h = 0; h < s->nconfigs; h++) {
		const struct val_config *H = &s->configs[h], *HB = NULL;
		size_t gh = val_group_len(H->name);
		const struct val_cell *x, *y;
		if (gh == ga && !strncmp(H->name, A->name, ga))
			continue;
		if (strcmp(H->name + gh, ma))
			continue;
		for (size_t k = 0; k < s->nconfigs; k++)
			if (val_group_len(s->configs[k].name) == gh &&
			    !strncmp(s->configs[k].name, H->name, gh) &&
			    !strcmp(s->configs[k].name + gh, mb))
				HB = &s->configs[k];
		if (!HB)
			continue;
		x = val_cell_find(H, test, dir);
		y = val_cell_find(HB, test, dir);
		if (x && y && x->published < s->order_min_ratio * y->published)
			return false;
	}
	return true;
}

static void val_orderings(const struct val_set *s, struct val_stats *st)
{
	for (size_t a = 0; a < s->nconfigs; a++)
		for (size_t b = 0; b < s->nconfigs; b++) {
			const struct val_config *A = &s->configs[a], *B = &s->configs[b];
			size_t ga = val_group_len(A->name);
			if (a == b || ga != val_group_len(B->name) || strncmp(A->name, B->name, ga))
				continue;
			for (size_t i = 0; i < A->ncells; i++) {
				const struct val_cell *x = &A->cells[i];
				const struct val_cell *y = val_cell_find(B, x->test, x->direction);
				bool mode, held;
				if (!y || x->anomaly || y->anomaly ||
				    x->published < s->order_min_ratio * y->published)
					continue;
				mode = val_mode_consistent(s, A, B, x->test, x->direction);
				held = x->simulated > y->simulated;
				st->table_orderings++;
				st->table_orderings_held += held;
				if (!mode)
					continue;
				st->orderings++;
				st->sample[x->fit || y->fit ? VAL_IN : VAL_OUT].orderings++;
				st->sample[x->fit || y->fit ? VAL_IN : VAL_OUT].orderings_held +=
				    held;
				if (held) {
					st->orderings_held++;
				} else if (!st->order_fail) {
					char n[4][32];
					val_setf(
					    &st->order_fail,
					    "%s %s: published %s %s > %s %s, simulated %s <= %s",
					    x->test, x->direction, A->name,
					    val_num_text(x->published, n[0]), B->name,
					    val_num_text(y->published, n[1]),
					    val_num_text(x->simulated, n[2]),
					    val_num_text(y->simulated, n[3]));
				}
			}
		}
}

static const struct val_config *val_find_config(const struct val_set *s, const char *name,
                                                const char *suite)
{
	for (size_t i = 0; i < s->nconfigs; i++)
		if (!strcmp(s->configs[i].name, name) &&
		    (!suite || !strcmp(s->configs[i].suite, suite)))
			return &s->configs[i];
	return NULL;
}

static bool val_rel_holds(const struct val_relation *r, double l, double rv)
{
	if (!strcmp(r->op, "<"))
		return l < r->f_lo * rv;
	if (!strcmp(r->op, "<="))
		return l <= r->f_lo * rv;
	if (!strcmp(r->op, ">"))
		return l > r->f_lo * rv;
	if (!strcmp(r->op, ">="))
		return l >= r->f_lo * rv;
	return l >= r->f_lo * rv && l <= r->f_hi * rv;
}

/* One lhs configuration against the rhs: every test/direction the lhs names. */
static void val_relation_one(const struct val_set *s, struct val_relation *r, const char *lname)
{
	const char *suite = val_str(r->lhs, "suite"), *test = val_str(r->lhs, "test");
	const char *dir = val_str(r->lhs, "direction"), *metric = val_str(r->lhs, "metric");
	const char *rname = val_str(r->rhs, "config"), *rsuite = val_str(r->rhs, "suite");
	const struct val_config *L = val_find_config(s, lname, suite);
	const struct val_config *R =
	    rname ? val_find_config(s, rname, rsuite ? rsuite : suite) : NULL;
	static const char *const dirs[] = {"read", "write"};
	struct json_object *tests;

	if (!L || !R || !L->result || !R->result) {
		r->held = false;
		if (!r->detail)
			val_setf(&r->detail, "configuration %s or %s has no result", lname,
			         rname ? rname : "(none)");
		return;
	}
	if (!test)
		test = "*";
	if (!dir)
		dir = "*";
	if (!json_object_object_get_ex(L->result, "tests", &tests))
		return;
	for (size_t i = 0; i < json_object_array_length(tests); i++) {
		const char *tn = val_str(json_object_array_get_idx(tests, i), "name");
		if (!tn || (strcmp(test, "*") && strcmp(test, tn)))
			continue;
		for (size_t d = 0; d < 2; d++) {
			double lv, rv;
			if (strcmp(dir, "*") && strcmp(dir, dirs[d]))
				continue;
			lv = val_figure(L->result, tn, dirs[d], metric);
			rv = val_figure(R->result, tn, dirs[d], metric);
			if (!isfinite(lv) || !isfinite(rv))
				continue;
			r->checked++;
			if (!val_rel_holds(r, lv, rv) && r->held) {
				char n[3][32], need[96];
				r->held = false;
				if (!strcmp(r->op, "between"))
					snprintf(need, sizeof(need), "between %.3gx and %.3gx",
					         r->f_lo, r->f_hi);
				else
					snprintf(need, sizeof(need), "%s %.3gx", r->op, r->f_lo);
				val_setf(&r->detail, "%s %s %s: %s %s vs %s %s (x%s; needs %s)", tn,
				         dirs[d], metric ? metric : "MB/s", lname,
				         val_num_text(lv, n[0]), rname, val_num_text(rv, n[1]),
				         val_num_text(lv / rv, n[2]), need);
			}
		}
	}
}

static void val_relations(struct val_set *s, struct val_stats *st)
{
	for (size_t i = 0; i < s->nrelations; i++) {
		struct val_relation *r = &s->relations[i];
		struct json_object *cfg;
		r->held = true;
		r->checked = 0;
		free(r->detail);
		r->detail = NULL;
		if (!json_object_object_get_ex(r->lhs, "config", &cfg)) {
			r->held = false;
			val_setf(&r->detail, "lhs names no config");
		} else if (json_object_is_type(cfg, json_type_array)) {
			for (size_t k = 0; k < json_object_array_length(cfg); k++)
				val_relation_one(
				    s, r,
				    json_object_get_string(json_object_array_get_idx(cfg, k)));
		} else {
			val_relation_one(s, r, json_object_get_string(cfg));
		}
		if (r->held && !r->checked) {
			r->held = false;
			val_setf(&r->detail, "no figure to compare");
		}
		if (r->held)
			val_setf(&r->detail, "%zu comparison(s) hold", r->checked);
		if (!r->detail)
			val_setf(&r->detail, "(out of memory)");
		st->relations++;
		st->relations_held += r->held;
		st->sample[r->fit ? VAL_IN : VAL_OUT].relations++;
		st->sample[r->fit ? VAL_IN : VAL_OUT].relations_held += r->held;
	}
}

/* Do the statistics meet @th?  The first shortfall goes to @why. */
static bool val_judge(const struct val_set *s, const struct val_stats *st,
                      const struct val_thresholds *th, char **why)
{
	bool ok = true;

#define VAL_NEED(cond, ...)                                                                        \
	do {                                                                                       \
		if (ok && !(cond)) {                                                               \
			ok = false;                                                                \
			val_setf(why, __VA_ARGS__);                                                \
		}                                                                                  \
	} while (0)
	VAL_NEED(!st->missing, "%zu cell(s) have no simulated figure", st->missing);
	VAL_NEED(th->within_125 < 0 || st->share_125 >= th->within_125 - 1e-9,
	         "%.0f %% of cells within 1.25x, needs %.0f %%", 100 * st->share_125,
	         100 * th->within_125);
	VAL_NEED(th->within_2 < 0 || st->share_2 >= th->within_2 - 1e-9,
	         "%.0f %% of cells within 2x, needs %.0f %%", 100 * st->share_2,
	         100 * th->within_2);
	VAL_NEED(th->within_4 < 0 || st->share_4 >= th->within_4 - 1e-9,
	         "%.0f %% of cells within 4x, needs %.0f %%", 100 * st->share_4,
	         100 * th->within_4);
	VAL_NEED(th->within_10pct < 0 || st->share_10pct >= th->within_10pct - 1e-9,
	         "%.0f %% of counted cells within 10 %%, needs %.0f %%", 100 * st->share_10pct,
	         100 * th->within_10pct);
	VAL_NEED(!th->orderings || st->orderings_held == st->orderings,
	         "%zu of %zu mode orderings hold", st->orderings_held, st->orderings);
	VAL_NEED(!th->relations || st->relations_held == st->relations, "%zu of %zu findings hold",
	         st->relations_held, st->relations);
	VAL_NEED(th->relations_min < 0 || (long)st->relations_held >= th->relations_min,
	         "%zu findings hold, needs %ld", st->relations_held, th->relations_min);
#undef VAL_NEED
	return ok;
}

/*
 * The findings that fail, whole, each with its first failing comparison:
 * "2 of 7 findings fail: A (detail); B (detail)".  NULL when all hold.
 */
static char *val_findings_failed(const struct val_set *s, const struct val_stats *st)
{
	char *buf = NULL;
	size_t len = 0, n = 0;
	FILE *m;

	if (st->relations_held == st->relations)
		return NULL;
	m = open_memstream(&buf, &len);
	if (!m)
		return NULL;
	fprintf(m, "%zu of %zu findings fail: ", st->relations - st->relations_held, st->relations);
	for (size_t i = 0; i < s->nrelations; i++)
		if (!s->relations[i].held)
			fprintf(m, "%s%s (%s)", n++ ? "; " : "", s->relations[i].finding,
			        s->relations[i].detail ? s->relations[i].detail : "");
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}

void val_set_check(struct val_set *s, struct val_stats *st)
{
	memset(st, 0, sizeof(*st));
	val_stats_cells(s, st);
	if (s->order_min_ratio > 1)
		val_orderings(s, st);
	val_relations(s, st);
	st->pass = val_judge(s, st, &s->th, &st->why);
	/* a finding that fails is the article contradicted: no threshold excuses it */
	if (st->pass && st->relations_held < st->relations) {
		st->pass = false;
		free(st->why);
		st->why = val_findings_failed(s, st);
	}
	st->targets_met = s->has_targets && val_judge(s, st, &s->targets, &st->targets_why);
	if (!st->pass && !st->why)
		val_setf(&st->why, "(out of memory)");
}

void val_stats_fail(struct val_stats *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	val_vsetf(&st->why, fmt, ap);
	va_end(ap);
	st->pass = false;
	if (!st->why)
		st->why = strdup("(out of memory)");
}

void val_stats_free(struct val_stats *st)
{
	free(st->why);
	free(st->targets_why);
	free(st->order_fail);
	st->why = st->targets_why = st->order_fail = NULL;
}

/* --- JSON --- */

const char *val_or(const char *text)
{
	return text ? text : "";
}

static struct json_object *val_dbl(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

/* "in_sample" (and "fit": what was fitted to it) of a cell or a finding. */
static void val_fit_json(struct json_object *x, const char *fit)
{
	json_object_object_add(x, "in_sample", json_object_new_boolean(fit != NULL));
	if (fit)
		json_object_object_add(x, "fit", json_object_new_string(fit));
}

/* One part's agreement: the summary's figures over its cells, orderings and findings. */
static struct json_object *val_agree_json(const struct val_agree *a)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "cells", json_object_new_int64((int64_t)a->cells));
	json_object_object_add(o, "counted", json_object_new_int64((int64_t)a->counted));
	json_object_object_add(o, "median_error_x", json_object_new_double(a->median_ratio));
	json_object_object_add(o, "worst_x", json_object_new_double(a->worst_ratio));
	json_object_object_add(o, "within_1.25", json_object_new_double(a->share_125));
	json_object_object_add(o, "within_1.5", json_object_new_double(a->share_15));
	json_object_object_add(o, "within_2", json_object_new_double(a->share_2));
	json_object_object_add(o, "within_4", json_object_new_double(a->share_4));
	json_object_object_add(o, "within_10pct", json_object_new_double(a->share_10pct));
	json_object_object_add(o, "orderings", json_object_new_int64((int64_t)a->orderings));
	json_object_object_add(o, "orderings_held",
	                       json_object_new_int64((int64_t)a->orderings_held));
	json_object_object_add(o, "relations", json_object_new_int64((int64_t)a->relations));
	json_object_object_add(o, "relations_held",
	                       json_object_new_int64((int64_t)a->relations_held));
	return o;
}

struct json_object *val_set_json(const struct val_set *s, const struct val_stats *st)
{
	struct json_object *o = json_object_new_object(), *cfgs = json_object_new_array();
	struct json_object *sum = json_object_new_object(), *rels = json_object_new_array();

	json_object_object_add(o, "name", json_object_new_string(s->name));
	json_object_object_add(o, "title", json_object_new_string(s->title));
	if (s->platform)
		json_object_object_add(o, "platform", json_object_new_string(s->platform));
	if (s->tool)
		json_object_object_add(o, "tool", json_object_new_string(s->tool));
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct val_config *c = &s->configs[i];
		struct json_object *co = json_object_new_object(), *cells = json_object_new_array();
		json_object_object_add(co, "name", json_object_new_string(c->name));
		json_object_object_add(co, "spec", json_object_new_string(c->spec));
		json_object_object_add(co, "suite", json_object_new_string(c->suite));
		if (c->params)
			json_object_object_add(co, "params", json_object_get(c->params));
		if (c->error[0])
			json_object_object_add(co, "error", json_object_new_string(c->error));
		for (size_t j = 0; j < c->ncells; j++) {
			const struct val_cell *cell = &c->cells[j];
			struct json_object *x = json_object_new_object();
			json_object_object_add(x, "test", json_object_new_string(cell->test));
			json_object_object_add(x, "direction",
			                       json_object_new_string(cell->direction));
			json_object_object_add(x, "published",
			                       json_object_new_double(cell->published));
			json_object_object_add(x, "simulated", val_dbl(cell->simulated));
			json_object_object_add(x, "ratio",
			                       val_dbl(cell->simulated / cell->published));
			if (cell->label)
				json_object_object_add(x, "label",
				                       json_object_new_string(cell->label));
			if (cell->anomaly)
				json_object_object_add(x, "anomaly",
				                       json_object_new_string(cell->anomaly));
			if (cell->why)
				json_object_object_add(x, "why", json_object_new_string(cell->why));
			val_fit_json(x, cell->fit);
			json_object_array_add(cells, x);
		}
		json_object_object_add(co, "cells", cells);
		json_object_array_add(cfgs, co);
	}
	json_object_object_add(o, "configs", cfgs);
	for (size_t i = 0; i < s->nrelations; i++) {
		const struct val_relation *r = &s->relations[i];
		struct json_object *x = json_object_new_object();
		json_object_object_add(x, "finding", json_object_new_string(r->finding));
		json_object_object_add(x, "held", json_object_new_boolean(r->held));
		json_object_object_add(x, "detail", json_object_new_string(val_or(r->detail)));
		val_fit_json(x, r->fit);
		json_object_array_add(rels, x);
	}
	json_object_object_add(o, "relations", rels);
	json_object_object_add(sum, "cells", json_object_new_int64((int64_t)st->cells));
	json_object_object_add(sum, "counted", json_object_new_int64((int64_t)st->counted));
	json_object_object_add(sum, "anomalies", json_object_new_int64((int64_t)st->anomalies));
	json_object_object_add(sum, "median_abs_log_ratio",
	                       json_object_new_double(st->median_abs_log));
	json_object_object_add(sum, "median_error_x", json_object_new_double(st->median_ratio));
	json_object_object_add(sum, "worst_x", json_object_new_double(st->worst_ratio));
	json_object_object_add(sum, "within_1.25", json_object_new_double(st->share_125));
	json_object_object_add(sum, "within_1.5", json_object_new_double(st->share_15));
	json_object_object_add(sum, "within_2", json_object_new_double(st->share_2));
	json_object_object_add(sum, "within_4", json_object_new_double(st->share_4));
	json_object_object_add(sum, "within_10pct", json_object_new_double(st->share_10pct));
	json_object_object_add(sum, "orderings", json_object_new_int64((int64_t)st->orderings));
	json_object_object_add(sum, "orderings_held",
	                       json_object_new_int64((int64_t)st->orderings_held));
	json_object_object_add(sum, "table_orderings",
	                       json_object_new_int64((int64_t)st->table_orderings));
	json_object_object_add(sum, "table_orderings_held",
	                       json_object_new_int64((int64_t)st->table_orderings_held));
	json_object_object_add(sum, "relations", json_object_new_int64((int64_t)st->relations));
	json_object_object_add(sum, "relations_held",
	                       json_object_new_int64((int64_t)st->relations_held));
	json_object_object_add(sum, "pass", json_object_new_boolean(st->pass));
	if (s->has_targets) {
		json_object_object_add(sum, "targets_met",
		                       json_object_new_boolean(st->targets_met));
		if (!st->targets_met)
			json_object_object_add(sum, "targets_why",
			                       json_object_new_string(val_or(st->targets_why)));
	}
	if (!st->pass)
		json_object_object_add(sum, "why", json_object_new_string(val_or(st->why)));
	struct json_object *failed = json_object_new_array();
	for (size_t i = 0; i < s->nrelations; i++)
		if (!s->relations[i].held)
			json_object_array_add(failed,
			                      json_object_new_string(s->relations[i].finding));
	json_object_object_add(sum, "findings_failed", failed);
	json_object_object_add(sum, "in_sample", val_agree_json(&st->sample[VAL_IN]));
	json_object_object_add(sum, "out_of_sample", val_agree_json(&st->sample[VAL_OUT]));
	json_object_object_add(o, "summary", sum);
	return o;
}

/* --- text --- */

/* "within 2x >= 90 %, every finding holds, ..." of @th, for the summary. */
static const char *val_th_text(const struct val_thresholds *th, char *buf, size_t len)
{
	static const char *const names[] = {"within 1.25x", "within 2x", "within 4x",
	                                    "within 10 %"};
	const double shares[] = {th->within_125, th->within_2, th->within_4, th->within_10pct};
	size_t pos = 0;

	buf[0] = '\0';
#define VAL_ADD(...)                                                                               \
	do {                                                                                       \
		if (pos < len)                                                                     \
			pos += (size_t)snprintf(buf + pos, len - pos, __VA_ARGS__);                \
	} while (0)
	VAL_ADD("every cell simulated");
	for (size_t i = 0; i < 4; i++)
		if (shares[i] >= 0)
			VAL_ADD(", %s %s %.0f %% of cells", names[i],
			        shares[i] >= 1 ? "for" : ">=", 100 * shares[i]);
	if (th->orderings)
		VAL_ADD(", every mode ordering holds");
	if (th->relations)
		VAL_ADD(", every finding holds");
	if (th->relations_min >= 0)
		VAL_ADD(", at least %ld finding(s) hold", th->relations_min);
#undef VAL_ADD
	return buf;
}

/* One part's agreement on a line: its cells' figures, mode orderings and findings. */
static void val_agree_print(FILE *f, const char *what, const struct val_agree *a)
{
	fprintf(f, "  %s: %zu cells", what, a->cells);
	if (a->counted)
		fprintf(f,
		        " (%zu counted): median error x%.3f, worst x%.2f; within 1.25x %.0f %%, "
		        "1.5x %.0f %%, 2x %.0f %%, 4x %.0f %%, 10 %% %.0f %%",
		        a->counted, a->median_ratio, a->worst_ratio, 100 * a->share_125,
		        100 * a->share_15, 100 * a->share_2, 100 * a->share_4,
		        100 * a->share_10pct);
	if (a->orderings)
		fprintf(f, "; mode orderings %zu of %zu", a->orderings_held, a->orderings);
	fprintf(f, "; findings %zu of %zu hold\n", a->relations_held, a->relations);
}

/* Is @c more than VAL_FLAG_RATIO off its published figure? */
bool val_cell_far(const struct val_cell *c)
{
	double r = c->simulated / c->published;

	return r > 0 && isfinite(r) && fabs(log(r)) > log(VAL_FLAG_RATIO) + 1e-12;
}

void val_cell_flag(FILE *f, const struct val_cell *c)
{
	if (!val_cell_far(c))
		return;
	fprintf(f, "beyond %gx: %s", VAL_FLAG_RATIO,
	        c->why ? c->why : "no reason known (validation/README.md)");
}

void val_set_print(FILE *f, const struct val_set *s, const struct val_stats *st, bool cells)
{
	fprintf(f, "%s: %s\n", s->name, s->title);
	if (cells && st->cells) {
		fprintf(f, "  %-34s %-12s %-5s %10s %10s %7s\n", "configuration", "test", "dir",
		        "published", "simulated", "ratio");
		for (size_t i = 0; i < s->nconfigs; i++) {
			const struct val_config *c = &s->configs[i];
			if (c->error[0])
				fprintf(f, "  %-34s did not run: %s\n", c->name, c->error);
			for (size_t j = 0; j < c->ncells; j++) {
				const struct val_cell *x = &c->cells[j];
				char n[2][32];
				fprintf(f, "  %-34s %-12s %-5s %10s %10s %6.2fx%s%s%s", c->name,
				        x->test, x->direction, val_num_text(x->published, n[0]),
				        val_num_text(x->simulated, n[1]),
				        x->simulated / x->published,
				        x->anomaly ? "  (anomaly: not counted)" : "",
				        x->fit ? "  in-sample: " : "", x->fit ? x->fit : "");
				if (val_cell_far(x)) {
					fprintf(f, "  ");
					val_cell_flag(f, x);
				}
				fprintf(f, "\n");
			}
		}
	} else if (cells) {
		for (size_t i = 0; i < s->nconfigs; i++)
			if (s->configs[i].error[0])
				fprintf(f, "  %-34s did not run: %s\n", s->configs[i].name,
				        s->configs[i].error);
	}
	if (st->cells)
		fprintf(
		    f,
		    "  cells %zu (counted %zu, anomalies %zu): median error x%.3f, worst x%.2f; "
		    "within 1.25x %.0f %%, 1.5x %.0f %%, 2x %.0f %%, 4x %.0f %%, 10 %% %.0f %%\n",
		    st->cells, st->counted, st->anomalies, st->median_ratio, st->worst_ratio,
		    100 * st->share_125, 100 * st->share_15, 100 * st->share_2, 100 * st->share_4,
		    100 * st->share_10pct);
	else
		fprintf(f, "  no cells: the set is checked by its %zu finding(s)\n", st->relations);
	if (st->orderings)
		fprintf(
		    f,
		    "  mode orderings of the published table: %zu of %zu hold%s%s (every ordering "
		    "of the table, single-array ones too: %zu of %zu)\n",
		    st->orderings_held, st->orderings, st->order_fail ? "; first miss: " : "",
		    val_or(st->order_fail), st->table_orderings_held, st->table_orderings);
	for (size_t i = 0; i < s->nrelations; i++)
		fprintf(f, "  finding %s: %s (%s)%s%s\n",
		        s->relations[i].held ? "holds " : "FAILS ", s->relations[i].finding,
		        val_or(s->relations[i].detail), s->relations[i].fit ? "  in-sample: " : "",
		        s->relations[i].fit ? s->relations[i].fit : "");
	val_agree_print(f, "in-sample (fitted to)", &st->sample[VAL_IN]);
	val_agree_print(f, "out-of-sample (predicted)", &st->sample[VAL_OUT]);
	char th[512];
	fprintf(f, "  enforced thresholds (PASS needs these%s): %s\n",
	        s->nrelations && !s->th.relations ? " and every finding to hold" : "",
	        val_th_text(&s->th, th, sizeof(th)));
	if (s->has_targets)
		fprintf(
		    f, "  targets (the agreement aimed at, reported, not enforced): %s: %s%s%s\n",
		    val_th_text(&s->targets, th, sizeof(th)), st->targets_met ? "met" : "not met",
		    st->targets_met ? "" : ", ", st->targets_met ? "" : val_or(st->targets_why));
	if (st->pass)
		fprintf(f, "  PASS: every enforced threshold is met%s%s\n",
		        st->relations ? " and every finding holds" : "",
		        s->has_targets && !st->targets_met
		            ? " (the targets missed above are aims, not enforced)"
		            : "");
	else
		fprintf(f, "  FAIL: %s\n", val_or(st->why));
}
