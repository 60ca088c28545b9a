/*
 * test_report.c - the pure pieces of the reports.
 *
 * Percent against a baseline and the number formats; RFC 4180 quoting and
 * HTML escaping, each compared with hand-written expected text; terminal
 * text (control characters, cutting, padding); the loader's refusals (one
 * document per broken rule, the message checked whole); where latency
 * percentiles come from (best pass or mean of passes); and the comparison
 * model's row matching when configurations have different tests, repeated
 * names, or mixed kinds; the loader's streaming filter (strip.c) at every
 * place a chunk can end.  Documents are built in memory from small JSON
 * snippets, so every case shows exactly what it feeds in.
 *
 * tsan-skip: single-threaded (no thread to race; tests/unit/threads.c holds it to that)
 */
/* cmocka needs these first, in this order */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"
#include "report/fmt.h"
#include "report/render.h"
#include "report/result.h"
#include "report/strip.h"
#include "report/svg.h"

/* Everything a writer function printed, as a string (caller frees). */
#define CAPTURE(out, call)                                                                         \
	do {                                                                                       \
		size_t cap_len_;                                                                   \
		FILE *cap_f_ = open_memstream(&(out), &cap_len_);                                  \
		assert_non_null(cap_f_);                                                           \
		call;                                                                              \
		assert_int_equal(fclose(cap_f_), 0);                                               \
	} while (0)

#define DIR_OBJ(mb) "{\"mb_s\":" #mb ",\"iops\":10,\"lat_us\":{\"mean\":5}}"

/* A suite result document with the given aggregation rule, label and tests[] entries. */
static char *suite_doc_agg(const char *suite, const char *agg, const char *label, const char *tests)
{
	char *s = NULL;
	int n = asprintf(&s,
	                 "{\"schema_version\":1,\"tool\":{\"name\":\"raidlab\",\"version\":\"0\"},"
	                 "\"target\":{\"spec\":\"mem()\"},\"jobs\":[],\"label\":\"%s\","
	                 "\"suite\":{\"name\":\"%s\",\"aggregate\":\"%s\"},\"tests\":[%s]}",
	                 label, suite, agg, tests);

	assert_true(n > 0);
	return s;
}

static char *suite_doc(const char *suite, const char *label, const char *tests)
{
	return suite_doc_agg(suite, "best", label, tests);
}

static char *job_doc(const char *spec, const char *jobs)
{
	char *s = NULL;
	int n = asprintf(&s, "{\"schema_version\":1,\"target\":{\"spec\":\"%s\"},\"jobs\":[%s]}",
	                 spec, jobs);

	assert_true(n > 0);
	return s;
}

static struct rep_result *parse_ok(char *doc)
{
	struct rep_result *r = NULL;
	char err[512] = "";
	int rc = rep_result_parse("t.json", doc, strlen(doc), &r, err, sizeof err);

	if (rc)
		fail_msg("unexpected refusal: %s", err);
	free(doc);
	return r;
}

/* The document must be refused with exactly @msg. */
static void parse_fails(const char *doc, const char *msg)
{
	struct rep_result *r = (struct rep_result *)1;
	char err[512] = "";
	int rc = rep_result_parse("t.json", doc, strlen(doc), &r, err, sizeof err);

	assert_int_equal(rc, -EINVAL);
	assert_null(r);
	assert_string_equal(err, msg);
}

static void test_percent(void **state)
{
	double p;

	(void)state;
	assert_true(rep_percent(150, 100, &p));
	assert_true(fabs(p - 50.0) < 1e-12);
	assert_true(rep_percent(50, 100, &p));
	assert_true(fabs(p + 50.0) < 1e-12);
	assert_true(rep_percent(100, 100, &p));
	assert_true(p == 0.0);
	assert_true(rep_percent(0, 100, &p));
	assert_true(fabs(p + 100.0) < 1e-12);
	assert_false(rep_percent(1, 0, &p));
	assert_false(rep_percent(NAN, 100, &p));
	assert_false(rep_percent(100, NAN, &p));
	assert_false(rep_percent(INFINITY, 100, &p));
	assert_false(rep_percent(1e308, 1e-308, &p)); /* overflows to inf */
	assert_true(rep_metric_lower_better(REP_METRIC_LAT));
	assert_false(rep_metric_lower_better(REP_METRIC_MB_S));
}

static void test_formats(void **state)
{
	char b[64];
	enum rep_metric m;

	(void)state;
	rep_fmt_pct(b, sizeof b, 91.0049);
	assert_string_equal(b, "+91.0%");
	rep_fmt_pct(b, sizeof b, -4.66);
	assert_string_equal(b, "-4.7%");
	rep_fmt_pct(b, sizeof b, -0.04);
	assert_string_equal(b, "0.0%");
	rep_fmt_pct(b, sizeof b, NAN);
	assert_string_equal(b, "-");
	rep_fmt_value(b, sizeof b, 3412.486, REP_METRIC_MB_S);
	assert_string_equal(b, "3412.49");
	rep_fmt_value(b, sizeof b, 3254.44, REP_METRIC_IOPS);
	assert_string_equal(b, "3254.4");
	rep_fmt_value(b, sizeof b, NAN, REP_METRIC_LAT);
	assert_string_equal(b, "-");
	rep_fmt_bytes(b, sizeof b, 1073741824);
	assert_string_equal(b, "1 GiB");
	rep_fmt_bytes(b, sizeof b, 512110190592.0);
	assert_string_equal(b, "476.94 GiB");
	rep_fmt_bytes(b, sizeof b, 512);
	assert_string_equal(b, "512 B");
	rep_fmt_number(b, sizeof b, 2.5);
	assert_string_equal(b, "2.5");
	rep_fmt_number(b, sizeof b, 0.048);
	assert_string_equal(b, "0.048");
	rep_fmt_number(b, sizeof b, 1e6);
	assert_string_equal(b, "1000000");
	assert_int_equal(rep_metric_parse("iops", &m), 0);
	assert_int_equal(m, REP_METRIC_IOPS);
	assert_int_equal(rep_metric_parse("MB/s", &m), -EINVAL);
}

static void csv_is(const char *in, const char *want)
{
	char *out = NULL;

	CAPTURE(out, rep_csv_field(cap_f_, in));
	assert_string_equal(out, want);
	free(out);
}

static void test_csv_quoting(void **state)
{
	(void)state;
	csv_is("plain text", "plain text");
	csv_is("", "");
	csv_is("a,b", "\"a,b\"");
	csv_is("say \"hi\"", "\"say \"\"hi\"\"\"");
	csv_is("\"", "\"\"\"\"");
	csv_is("two\nlines", "\"two\nlines\"");
	csv_is("cr\r", "\"cr\r\"");
	csv_is("<µs> & 'x'", "<µs> & 'x'"); /* nothing else is special */
}

static void html_is(const char *in, const char *want)
{
	char *out = NULL;

	CAPTURE(out, rep_html_text(cap_f_, in));
	assert_string_equal(out, want);
	free(out);
}

static void test_html_escape(void **state)
{
	(void)state;
	html_is("raid0 x2", "raid0 x2");
	html_is("<script>alert('x')</script>", "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
	html_is("a & b \"c\"", "a &amp; b &quot;c&quot;");
	html_is("&amp;", "&amp;amp;");
	html_is("tab\tnl\n", "tab\tnl\n");
	html_is("bell\a esc\x1b del\x7f", "bell\xef\xbf\xbd esc\xef\xbf\xbd del\xef\xbf\xbd");
	html_is("µs → ok", "µs → ok");
}

static void term_is(const char *in, size_t max, size_t width, int right, const char *want)
{
	char *out = NULL;

	CAPTURE(out, rep_term_text(cap_f_, in, max, width, right));
	assert_string_equal(out, want);
	free(out);
}

static void test_terminal_text(void **state)
{
	(void)state;
	assert_int_equal(rep_text_width("µs"), 2);
	assert_int_equal(rep_text_width("MB/s"), 4);
	term_is("ab", 0, 5, 0, "ab   ");
	term_is("ab", 0, 5, 1, "   ab");
	term_is("µs", 0, 4, 1, "  µs");
	term_is("a\x1b[2Jb", 0, 0, 0, "a?[2Jb");
	term_is("c1\xc2\x9b"
	        "x",
	        0, 0, 0, "c1?x");
	term_is("abcdefghij", 6, 0, 0, "abc...");
	term_is("µµµµµµµµ", 5, 6, 0, "µµ... ");
}

static void test_load_refusals(void **state)
{
	char *d;

	(void)state;
	parse_fails("", "t.json: not JSON: the file is empty");
	parse_fails("{\"schema_version\":1",
	            "t.json: not JSON: the document ends early (truncated?)");
	parse_fails("{\"a\":1} x", "t.json: not JSON: unexpected character at line 1, column 9");
	parse_fails("{\n\"a\":\n  ]}",
	            "t.json: not JSON: unexpected character at line 3, column 3");
	parse_fails("[1,2]",
	            "t.json: not a raidlab result: the document is an array, not an object");
	parse_fails("{}", "t.json: field 'schema_version' is missing");
	parse_fails("{\"schema_version\":\"1\"}",
	            "t.json: field 'schema_version' must be an integer, not a string");
	parse_fails("{\"schema_version\":2}",
	            "t.json: schema_version 2 is not supported (raidlab reads 1)");
	parse_fails("{\"schema_version\":1,\"jobs\":[]}", "t.json: field 'target' is missing");
	parse_fails("{\"schema_version\":1,\"target\":{\"spec\":7},\"jobs\":[]}",
	            "t.json: field 'target.spec' must be a string, not a number");
	parse_fails("{\"schema_version\":1,\"target\":{\"spec\":\"x\"}}",
	            "t.json: field 'jobs' is missing");
	parse_fails(
	    "{\"schema_version\":1,\"target\":{\"spec\":\"x\"},\"jobs\":[],\"suite\":{\"name\":"
	    "\"cdm\"},\"tests\":[]}",
	    "t.json: field 'label' is missing");

	d = job_doc("x", "{\"name\":\"j\",\"read\":{\"iops\":1,\"lat_us\":{\"mean\":1}}}");
	parse_fails(d, "t.json: field 'jobs[0].read.mb_s' is missing");
	free(d);
	d = job_doc("x",
	            "{\"name\":\"j\",\"read\":{\"mb_s\":NaN,\"iops\":1,\"lat_us\":{\"mean\":1}}}");
	parse_fails(d, "t.json: field 'jobs[0].read.mb_s' must be a finite number");
	free(d);
	d = job_doc("x", "{\"name\":\"j\"},{\"name\":\"k\",\"write\":{\"mb_s\":1,\"iops\":1,"
	                 "\"lat_us\":{\"mean\":\"5\"}}}");
	parse_fails(d, "t.json: field 'jobs[1].write.lat_us.mean' must be a number, not a string");
	free(d);
	d = job_doc("x", "7");
	parse_fails(d, "t.json: field 'jobs[0]' must be an object, not a number");
	free(d);
	d = suite_doc("cdm", "l", "{\"name\":\"T\"},{\"bs\":4096}");
	parse_fails(d, "t.json: field 'tests[1].name' is missing");
	free(d);
	d = suite_doc("cdm", "l", "{\"name\":\"T\",\"bs\":4096.5}");
	parse_fails(d, "t.json: field 'tests[0].bs' must be an integer, not a number");
	free(d);
	d = suite_doc("hdtune", "l", "{\"name\":\"T\",\"curve\":{\"x\":[1,2],\"mb_s\":[1]}}");
	parse_fails(
	    d, "t.json: field 'tests[0].curve.mb_s' has 1 values but 'tests[0].curve.x' has 2");
	free(d);
	d = suite_doc("hdtune", "l", "{\"name\":\"T\",\"curve\":{\"x\":[1,\"2\"],\"mb_s\":[1,2]}}");
	parse_fails(d, "t.json: field 'tests[0].curve.x[1]' must be a finite number, not a string");
	free(d);
	d = suite_doc("cdm", "l",
	              "{\"name\":\"T\",\"read\":{\"mb_s\":1,\"iops\":1,\"lat_us\":{\"mean\":1},"
	              "\"passes\":[{\"mb_s\":1,\"lat_us\":{\"p99\":true}}]}}");
	parse_fails(d, "t.json: field 'tests[0].read.passes[0].lat_us.p99' must be a number, not a "
	               "boolean");
	free(d);
}

static void test_load_accepts(void **state)
{
	struct rep_result *r;
	char err[256];

	(void)state;
	/* unknown fields are fine; label defaults to the spec for job results */
	r = parse_ok(job_doc("mem(size=1g)", "{\"name\":\"j\",\"future\":[1],\"options\":{\"rw\":"
	                                     "\"randread\",\"bs\":\"4096\",\"iodepth\":\"x\"},"
	                                     "\"read\":" DIR_OBJ(12.5) "}"));
	assert_int_equal(r->kind, REP_KIND_JOBS);
	assert_string_equal(r->label, "mem(size=1g)");
	assert_int_equal(r->ntests, 1);
	assert_true(r->tests[0].dir[REP_READ].present);
	assert_false(r->tests[0].dir[REP_WRITE].present);
	assert_true(r->tests[0].dir[REP_READ].mb_s == 12.5);
	assert_string_equal(r->tests[0].pattern, "randread");
	assert_int_equal(r->tests[0].bs, 4096);
	assert_int_equal(r->tests[0].iodepth, -1); /* not a number: unknown */
	assert_true(isnan(r->tests[0].dir[REP_READ].pct[REP_P50]));
	rep_result_free(r);

	/* a missing file names the file and the reason */
	assert_int_equal(rep_result_load("/nonexistent/r.json", &r, err, sizeof err), -ENOENT);
	assert_string_equal(err, "/nonexistent/r.json: cannot open: No such file or directory");
}

#define PASS(mb, p50, p99) "{\"mb_s\":" #mb ",\"lat_us\":{\"p50\":" #p50 ",\"p99\":" #p99 "}}"

static void test_percentile_source(void **state)
{
	const char *t = "{\"name\":\"T\",\"read\":{\"mb_s\":3,\"iops\":1,\"lat_us\":{\"mean\":1,"
	                "\"p99\":77},\"passes\":[" PASS(2, 20, 200) "," PASS(3, 30, 300) "," PASS(
	                    1, 10, 100) "]}}";
	struct rep_result *r;

	(void)state;
	/* best: the pass with the highest MB/s */
	r = parse_ok(suite_doc("cdm", "l", t));
	assert_true(r->tests[0].dir[REP_READ].pct[REP_P50] == 30);
	assert_true(r->tests[0].dir[REP_READ].pct[REP_P99] == 300);
	assert_true(isnan(r->tests[0].dir[REP_READ].pct[REP_P90]));
	rep_result_free(r);

	/* mean: the mean over the passes */
	r = parse_ok(suite_doc_agg("asssd", "mean", "l", t));
	assert_true(fabs(r->tests[0].dir[REP_READ].pct[REP_P50] - 20) < 1e-9);
	assert_true(fabs(r->tests[0].dir[REP_READ].pct[REP_P99] - 200) < 1e-9);
	rep_result_free(r);

	/* no passes: the aggregated lat_us */
	r = parse_ok(
	    suite_doc("cdm", "l",
	              "{\"name\":\"T\",\"read\":{\"mb_s\":3,\"iops\":1,\"lat_us\":{\"mean\":1,"
	              "\"p99\":77}}}"));
	assert_true(r->tests[0].dir[REP_READ].pct[REP_P99] == 77);
	rep_result_free(r);
}

#define T(name, dir) "{\"name\":\"" name "\",\"" dir "\":" DIR_OBJ(1) "}"
#define TRW(name)    "{\"name\":\"" name "\",\"read\":" DIR_OBJ(1) ",\"write\":" DIR_OBJ(2) "}"

static void check_rows(const struct rep_compare *cmp, const char *const *want, size_t n)
{
	char title[128];

	assert_int_equal(cmp->nrows, n);
	for (size_t i = 0; i < n; i++) {
		rep_row_title(&cmp->rows[i], title, sizeof title);
		assert_string_equal(title, want[i]);
	}
}

static void test_row_matching(void **state)
{
	struct rep_result *r[3];
	struct rep_compare *cmp;
	char err[256];
	static const char *const want[] = {"E write", "A read", "A write", "B read",
	                                   "C read",  "D read", "D write"};

	(void)state;
	r[0] = parse_ok(suite_doc("cdm", "one", TRW("A") "," T("B", "read") "," TRW("D")));
	r[1] =
	    parse_ok(suite_doc("cdm-nvme", "two", T("A", "read") "," T("C", "read") "," TRW("D")));
	r[2] = parse_ok(suite_doc("cdm", "three", T("E", "write") "," T("A", "write")));
	assert_int_equal(rep_compare_build(r, 3, 1, &cmp, err, sizeof err), 0);
	check_rows(cmp, want, 7);
	assert_int_equal(cmp->baseline, 1);
	/* E write only in #3, placed before A (the next test #3 shares) */
	assert_null(rep_cell(cmp, 0, 0));
	assert_null(rep_cell(cmp, 0, 1));
	assert_non_null(rep_cell(cmp, 0, 2));
	/* A read: #1 and #2, not #3 */
	assert_non_null(rep_cell(cmp, 1, 0));
	assert_non_null(rep_cell(cmp, 1, 1));
	assert_null(rep_cell(cmp, 1, 2));
	/* A write: #1 and #3 */
	assert_non_null(rep_cell(cmp, 2, 0));
	assert_null(rep_cell(cmp, 2, 1));
	assert_true(rep_cell(cmp, 2, 2)->mb_s == 1);
	/* C read only in #2, placed before D (the next test #2 shares) */
	assert_null(rep_cell(cmp, 4, 0));
	assert_non_null(rep_cell(cmp, 4, 1));
	assert_true(rep_metric_value(rep_cell(cmp, 6, 0), REP_METRIC_MB_S) == 2);
	assert_true(isnan(rep_metric_value(rep_cell(cmp, 3, 1), REP_METRIC_MB_S)));
	rep_compare_free(cmp);
	for (int i = 0; i < 3; i++)
		rep_result_free(r[i]);

	/* a direction only a later configuration has joins its test's rows */
	r[0] = parse_ok(suite_doc("cdm", "one", T("A", "read") "," T("B", "read")));
	r[1] = parse_ok(suite_doc("cdm", "two", TRW("A") "," T("B", "write")));
	assert_int_equal(rep_compare_build(r, 2, 0, &cmp, err, sizeof err), 0);
	check_rows(cmp, (const char *const[]){"A read", "A write", "B read", "B write"}, 4);
	assert_null(rep_cell(cmp, 1, 0));
	assert_non_null(rep_cell(cmp, 1, 1));
	rep_compare_free(cmp);
	rep_result_free(r[0]);
	rep_result_free(r[1]);
}

/* A file suite folded into a block suite's result of the same configuration. */
static void test_merge(void **state)
{
	struct rep_result *r[3];
	struct rep_compare *cmp;
	char err[256];

	(void)state;
	r[0] = parse_ok(suite_doc("cdm", "raid0", TRW("A")));
	r[1] = parse_ok(suite_doc("asssd-copy", "raid0", T("ISO", "write") "," T("Game", "write")));
	r[2] = parse_ok(suite_doc("untar", "raid0", T("Extract", "write")));
	assert_int_equal(rep_result_merge(r[0], r[1]), 0);
	assert_int_equal(rep_result_merge(r[0], r[2]), 0); /* twice into one: both kept */
	assert_int_equal(r[0]->ntests, 4);
	assert_string_equal(r[0]->suite_name, "cdm + asssd-copy + untar");
	assert_string_equal(r[0]->tests[1].name, "asssd-copy ISO");
	assert_string_equal(r[0]->tests[3].name, "untar Extract");
	assert_true(r[0]->tests[2].dir[REP_WRITE].present);
	assert_int_equal(rep_compare_build(r, 1, 0, &cmp, err, sizeof err), 0);
	check_rows(cmp,
	           (const char *const[]){"A read", "A write", "asssd-copy ISO write",
	                                 "asssd-copy Game write", "untar Extract write"},
	           5);
	rep_compare_free(cmp);
	rep_result_free(r[0]);
	/* a job result cannot be folded */
	r[0] = parse_ok(suite_doc("cdm", "x", TRW("A")));
	r[1] = parse_ok(job_doc("mem()", "{\"name\":\"j\",\"read\":{\"mb_s\":1,\"iops\":1,"
	                                 "\"lat_us\":{\"mean\":1}}}"));
	assert_int_equal(rep_result_merge(r[0], r[1]), -EINVAL);
	assert_int_equal(r[0]->ntests, 1);
	rep_result_free(r[0]);
	rep_result_free(r[1]);
}

static void test_repeated_names_and_labels(void **state)
{
	struct rep_result *r[2];
	struct rep_compare *cmp;
	char err[256], name[64];
	static const char *const want[] = {"job read", "job (2) read", "job (3) write"};

	(void)state;
	r[0] = parse_ok(job_doc("mem()", T("job", "read") "," T("job", "read")));
	r[1] =
	    parse_ok(job_doc("mem()", T("job", "read") "," T("job", "read") "," T("job", "write")));
	assert_int_equal(rep_compare_build(r, 2, 0, &cmp, err, sizeof err), 0);
	check_rows(cmp, want, 3);
	rep_row_name(&cmp->rows[1], name, sizeof name);
	assert_string_equal(name, "job (2)");
	assert_non_null(rep_cell(cmp, 1, 0));
	assert_non_null(rep_cell(cmp, 1, 1));
	assert_null(rep_cell(cmp, 2, 0));
	/* the same label twice: told apart by the column number */
	assert_string_equal(cmp->labels[0], "mem() #1");
	assert_string_equal(cmp->labels[1], "mem() #2");
	rep_compare_free(cmp);
	rep_result_free(r[0]);
	rep_result_free(r[1]);
}

static void test_mixed_kinds(void **state)
{
	struct rep_result *r[2];
	struct rep_compare *cmp = (struct rep_compare *)1;
	char err[512];

	(void)state;
	r[0] = parse_ok(job_doc("mem()", T("job", "read")));
	r[1] = parse_ok(suite_doc("cdm", "c", T("SEQ1M Q8T1", "read")));
	assert_int_equal(rep_compare_build(r, 2, 0, &cmp, err, sizeof err), -EINVAL);
	assert_null(cmp);
	assert_string_equal(err,
	                    "cannot compare t.json (a suite result: cdm) with t.json (a job "
	                    "result): compare suite results with suite results and job results "
	                    "with job results");
	assert_int_equal(rep_compare_build(r, 1, 1, &cmp, err, sizeof err), -EINVAL);
	rep_result_free(r[0]);
	rep_result_free(r[1]);
}

/* strip.c: its whole output for @in fed in one piece, then cut at every byte. */
static void strip_check(const char *in, const char *want, bool broken) /* want NULL: any */
{
	size_t len = strlen(in);
	char *out = malloc(rep_strip_room(len) + 1);
	struct rep_strip st;

	assert_non_null(out);
	for (size_t cut = 0; cut <= len; cut++) {
		size_t n;
		rep_strip_init(&st);
		n = rep_strip_feed(&st, in, cut, out);
		n += rep_strip_feed(&st, in + cut, len - cut, out + n);
		out[n] = '\0';
		if ((want && strcmp(out, want)) || st.broken != broken)
			fail_msg("cut at %zu of %s: got %s (broken %d), want %s", cut, in, out,
			         st.broken, want ? want : "broken");
	}
	free(out);
}

static void test_strip(void **state)
{
	(void)state;
	/* a direction's histogram and series go, first, middle or last, with their commas */
	strip_check("{\"jobs\": [{\"read\": {\"histogram\": {\"b\": [[1, 2], [3, 4]]},"
	            " \"mb_s\": 1, \"series\": [1, \"}\"], \"iops\": 2, \"series\": null}}]}",
	            "{\"jobs\":[{\"read\":{\"mb_s\":1,\"iops\":2}}]}", false);
	/* elsewhere they stay, and strings (with escapes, braces, spaces) are copied as they are */
	strip_check("{\"histogram\": 1, \"target\": {\"series\": [1]}, \"a b\": \"x \\\" }\"}",
	            "{\"histogram\":1,\"target\":{\"series\":[1]},\"a b\":\"x \\\" }\"}", false);
	/* a key longer than the buffer, and one with an escape, pass through */
	strip_check("{\"write\": {\"a_very_long_key_name_indeed\": 1, \"h\\u0069\": 2}}",
	            "{\"write\":{\"a_very_long_key_name_indeed\":1,\"h\\u0069\":2}}", false);
	/* a stripped member that is not JSON is noticed: the loader then parses the text as is */
	strip_check("{\"trim\": {\"series\" [1]}}", NULL, true);
	strip_check("{\"trim\": {\"series\": [1}}}", NULL, true);
	strip_check("{\"trim\": {\"series\": , \"a\": 1}}", NULL, true);
	strip_check("{\"trim\": {\"series\": [1] 2}}", NULL, true);
}

static void test_nice_axis(void **state)
{
	double lo, hi, step;

	(void)state;
	rep_nice_axis(0, 9210.27, 5, &lo, &hi, &step);
	assert_true(lo == 0 && hi == 10000 && step == 2000);
	rep_nice_axis(0, 61.2, 5, &lo, &hi, &step);
	assert_true(lo == 0 && hi == 80 && step == 20);
	rep_nice_axis(0, 0, 5, &lo, &hi, &step);
	assert_true(hi > lo && step > 0);
	/* hostile numbers give some finite axis, never a hang */
	rep_nice_axis(-1e308, 1e308, 5, &lo, &hi, &step);
	assert_true(isfinite(lo) && isfinite(hi) && step > 0);
	rep_nice_axis(0, 4.9e-324, 5, &lo, &hi, &step);
	assert_true(isfinite(lo) && isfinite(hi) && hi > lo);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_percent),       cmocka_unit_test(test_formats),
	    cmocka_unit_test(test_csv_quoting),   cmocka_unit_test(test_html_escape),
	    cmocka_unit_test(test_terminal_text), cmocka_unit_test(test_load_refusals),
	    cmocka_unit_test(test_load_accepts),  cmocka_unit_test(test_percentile_source),
	    cmocka_unit_test(test_row_matching),  cmocka_unit_test(test_repeated_names_and_labels),
	    cmocka_unit_test(test_mixed_kinds),   cmocka_unit_test(test_merge),
	    cmocka_unit_test(test_nice_axis),     cmocka_unit_test(test_strip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
