/*
 * fuzz_result.c - libFuzzer target for the result loader and the reports.
 *
 * Arbitrary bytes go to rep_result_parse.  A refusal must be -EINVAL with
 * a message that names the file, and no result.  An accepted document is
 * compared with itself (two columns, the second the baseline) and rendered
 * every way: the table for each metric, CSV and HTML.  Invariants, checked
 * by independent code here:
 *   - every row has both cells (the same result twice matches fully) and
 *     the rows cover exactly the directions the result has;
 *   - the CSV parses back (RFC 4180) into records of 20 fields, one header
 *     plus one record per cell;
 *   - the HTML holds no tag that the report does not write itself: every
 *     '<' is followed by a known tag name, so no label or spec can inject
 *     markup (e.g. "<script").
 * Any broken invariant calls abort() so libFuzzer records the input.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"
#include "report/render.h"
#include "report/result.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CSV_FIELDS 22

/* Records of an RFC 4180 text; -1 when it is malformed or a record is not CSV_FIELDS wide. */
static long fuzz_csv_records(const char *s, size_t len)
{
	long records = 0;
	int fields = 1;
	size_t i = 0;

	while (i < len) {
		if (s[i] == '"') {
			for (i++;; i++) {
				if (i >= len)
					return -1;
				if (s[i] == '"') {
					if (i + 1 < len && s[i + 1] == '"') {
						i++;
						continue;
					}
					i++;
					break;
				}
			}
			if (i < len && s[i] != ',' && s[i] != '\r')
				return -1;
			continue;
		}
		if (s[i] == ',') {
			fields++;
		} else if (s[i] == '\r') {
			if (i + 1 >= len || s[i + 1] != '\n' || fields != CSV_FIELDS)
				return -1;
			records++;
			fields = 1;
			i++;
		} else if (s[i] == '\n') {
			return -1; /* a bare LF outside quotes */
		}
		i++;
	}
	return fields == 1 ? records : -1;
}

/* Every '<' in @html opens (or closes) a tag the report writes. */
static bool fuzz_html_tags_known(const char *html)
{
	static const char *const tags[] = {
	    "!DOCTYPE", "html", "head",     "meta",    "title", "style",   "body",
	    "main",     "h1",   "h2",       "h3",      "p",     "nav",     "a",
	    "section",  "div",  "table",    "caption", "thead", "tbody",   "tr",
	    "th",       "td",   "span",     "code",    "sup",   "details", "summary",
	    "ul",       "li",   "b",        "footer",  "svg",   "text",    "tspan",
	    "line",     "rect", "polyline", "circle",  "path",  NULL};

	for (const char *p = strchr(html, '<'); p; p = strchr(p + 1, '<')) {
		const char *q = p + 1;
		bool ok = false;

		if (*q == '/')
			q++;
		for (int i = 0; tags[i] && !ok; i++) {
			size_t n = strlen(tags[i]);
			ok = !strncmp(q, tags[i], n) && !isalnum((unsigned char)q[n]);
		}
		if (!ok) {
			fprintf(stderr, "unexpected tag at: %.40s\n", p);
			return false;
		}
	}
	return true;
}

static void fuzz_render(const struct rep_compare *cmp, size_t cells)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	for (int m = 0; m < REP_NMETRIC; m++) {
		f = open_memstream(&buf, &len);
		if (!f)
			abort();
		rep_table_write(f, cmp, m);
		fclose(f);
		free(buf);
	}
	f = open_memstream(&buf, &len);
	if (!f)
		abort();
	rep_csv_write(f, cmp);
	fclose(f);
	if (fuzz_csv_records(buf, len) != (long)cells + 1) {
		fprintf(stderr, "CSV does not parse back into %zu records\n", cells + 1);
		abort();
	}
	free(buf);
	f = open_memstream(&buf, &len);
	if (!f)
		abort();
	rep_html_write(f, cmp, REP_METRIC_LAT);
	fclose(f);
	if (strlen(buf) != len || !fuzz_html_tags_known(buf))
		abort();
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rep_result *res = (struct rep_result *)1, *cols[2];
	struct rep_compare *cmp = NULL;
	char err[512];
	size_t want_rows = 0;
	int rc;

	err[0] = '\0';
	rc = rep_result_parse("fuzz.json", (const char *)data, size, &res, err, sizeof err);
	if (rc) {
		if (res || (rc != -EINVAL && rc != -ENOMEM))
			abort();
		if (rc == -EINVAL && strncmp(err, "fuzz.json: ", 11) != 0)
			abort();
		return 0;
	}
	cols[0] = cols[1] = res;
	if (rep_compare_build(cols, 2, 1, &cmp, err, sizeof err) != 0)
		abort();
	for (size_t i = 0; i < res->ntests; i++) {
		for (int d = 0; d < REP_NDIR; d++)
			want_rows += res->tests[i].dir[d].present;
	}
	if (cmp->nrows != want_rows)
		abort();
	for (size_t r = 0; r < cmp->nrows; r++) {
		if (!rep_cell(cmp, r, 0) || !rep_cell(cmp, r, 1))
			abort();
	}
	fuzz_render(cmp, 2 * want_rows);
	rep_compare_free(cmp);
	rep_result_free(res);
	return 0;
}
