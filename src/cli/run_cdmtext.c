/*
 * run_cdmtext.c - a CrystalDiskMark result as CrystalDiskMark's own text
 * export (`raidlab run cdm --output-format=cdm-text`), the text people
 * paste into forums and reviews.
 *
 * The layout is CrystalDiskMark 7/8's "Copy" / "Save text" export (the
 * facts are from its DiskMarkDlg.cpp, SaveText and GetResultString):
 *
 *   a rule of 78 dashes, the product line, the site line, a rule;
 *   "* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]";
 *   "* KB = 1000 bytes, KiB = 1024 bytes"; a blank line;
 *   "[Read]", one line per test, a blank line; "[Write]", the same;
 *   with the mix, "[Mix] Read 70%/Write 30%" and its lines;
 *   "Profile: Default", "   Test: 1 GiB (x5)", "   Mode:",
 *   "   Time: Measure 5 sec / Interval 0 sec " (CDM's trailing blank),
 *   "   Date: 2026/12/04 9:05:01", "     OS: ...", "Comment: ...";
 *   every line ends in CRLF, as CDM writes it.
 *
 * A test line is "  SEQ    1MiB (Q=  8, T= 1):   552.123 MB/s [    526.5
 * IOPS] <15181.31 us>": SEQ or RND, the block size in MiB from 1 MiB up
 * and in KiB below, queue depth and threads, the figure (best MB/s), IOPS
 * derived from it as CDM derives it (MB/s x 10^6 / block bytes) and the
 * mean latency in µs.  The product and site lines name raidlab, not
 * CrystalDiskMark, so a pasted result cannot pass for the tool's own; the
 * target and whether it was simulated go into the Comment line, the test
 * area's drive into Test's bracket as CDM puts the drive there.  Only the
 * suites with CDM 7/8's tests (SEQ1M..., RND4K...) have this layout:
 * cli_cdm_text_supported() says which.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/print.h"

#define CDM_TEXT_RULE                                                                              \
	"------------------------------------------------------------------------------\r\n"

bool cli_cdm_text_supported(const char *suite)
{
	return !strcmp(suite, "cdm") || !strcmp(suite, "cdm-nvme") || !strcmp(suite, "cdm7");
}

/* One test line of one direction, as CDM's GetResultString writes it. */
static void cdm_text_line(FILE *f, struct json_object *t, struct json_object *d)
{
	long long bs = json_object_get_int64(cli_json_get(t, "bs"));
	long long kib = bs / 1024;
	double mbs = cli_json_num(d, "mb_s");
	double iops = bs > 0 ? mbs * 1e6 / (double)bs : 0;
	double lat = cli_json_num(cli_json_get(d, "lat_us"), "mean");
	const char *pattern = json_object_get_string(cli_json_get(t, "pattern"));

	fprintf(f, "  %s %4lld%s (Q=%3d, T=%2d): %9.3f MB/s [%9.1f IOPS] <%9.2f us>\r\n",
	        pattern && !strcmp(pattern, "seq") ? "SEQ" : "RND", kib >= 1024 ? kib / 1024 : kib,
	        kib >= 1024 ? "MiB" : "KiB", json_object_get_int(cli_json_get(t, "iodepth")),
	        json_object_get_int(cli_json_get(t, "threads")), mbs, iops, lat < 0 ? 0 : lat);
}

/* "[Read]" and its lines, for every test that measured @key. */
static void cdm_text_section(FILE *f, struct json_object *tests, const char *key, const char *title)
{
	fprintf(f, "%s\r\n", title);
	for (size_t i = 0; i < json_object_array_length(tests); i++) {
		struct json_object *t = json_object_array_get_idx(tests, i);
		struct json_object *d = cli_json_get(t, key);
		if (d)
			cdm_text_line(f, t, d);
	}
	fputs("\r\n", f);
}

/* CDM's test size: "N GiB" from 1 GiB up, "N MiB" below. */
static void cdm_text_size(char *buf, size_t len, double bytes)
{
	double mib = bytes / (1024.0 * 1024.0);

	if (mib >= 1024)
		snprintf(buf, len, "%.0f GiB", mib / 1024);
	else
		snprintf(buf, len, "%.0f MiB", mib);
}

static void cdm_text_footer(FILE *f, struct json_object *doc, const char *version)
{
	struct json_object *params = cli_json_get(cli_json_get(doc, "suite"), "params");
	struct json_object *tg = cli_json_get(doc, "target"), *host = cli_json_get(doc, "host");
	const char *label = json_object_get_string(cli_json_get(doc, "label"));
	const char *spec = json_object_get_string(cli_json_get(tg, "spec"));
	bool simulated = json_object_get_boolean(cli_json_get(tg, "simulated"));
	char size[32], date[64] = "";
	time_t now = time(NULL);
	struct tm tm;

	cdm_text_size(size, sizeof(size), cli_json_num(params, "size_bytes"));
	if (localtime_r(&now, &tm))
		snprintf(date, sizeof(date), "%04d/%02d/%02d %d:%02d:%02d", tm.tm_year + 1900,
		         tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
	fprintf(f, "Profile: Default\r\n");
	fprintf(f, "   Test: %s (x%d) [%s]\r\n", size,
	        json_object_get_int(cli_json_get(params, "passes")), label ? label : spec);
	fprintf(f, "   Mode:\r\n");
	fprintf(f, "   Time: Measure %g sec / Interval %g sec \r\n",
	        cli_json_num(params, "duration_s"), cli_json_num(params, "interval_s"));
	fprintf(f, "   Date: %s\r\n", date);
	fprintf(f, "     OS: Linux %s (%s)\r\n",
	        host ? json_object_get_string(cli_json_get(host, "kernel")) : "?",
	        host ? json_object_get_string(cli_json_get(host, "machine")) : "?");
	fprintf(f, "Comment: raidlab %s, target %s%s\r\n", version, spec ? spec : "?",
	        simulated ? " (simulated drive: simulated time)" : "");
}

void cli_cdm_text_write(FILE *f, struct json_object *doc)
{
	struct json_object *suite = cli_json_get(doc, "suite");
	struct json_object *tests = cli_json_get(doc, "tests");
	struct json_object *tool = cli_json_get(doc, "tool");
	const char *version = json_object_get_string(cli_json_get(tool, "version"));
	bool mix = false;

	version = version ? version : "?";
	fputs(CDM_TEXT_RULE, f);
	fprintf(f, "raidlab %s: %s\r\n", version,
	        json_object_get_string(cli_json_get(suite, "title")));
	fprintf(f, "%34s%s\r\n", "", "raidlab: not CrystalDiskMark's own run");
	fputs(CDM_TEXT_RULE, f);
	fputs("* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]\r\n"
	      "* KB = 1000 bytes, KiB = 1024 bytes\r\n"
	      "\r\n",
	      f);
	cdm_text_section(f, tests, "read", "[Read]");
	cdm_text_section(f, tests, "write", "[Write]");
	for (size_t i = 0; i < json_object_array_length(tests); i++) {
		struct json_object *m = cli_json_get(json_object_array_get_idx(tests, i), "mix");
		if (m && !mix) {
			char title[64];
			int rd = json_object_get_int(cli_json_get(m, "rwmixread"));
			snprintf(title, sizeof(title), "[Mix] Read %d%%/Write %d%%", rd, 100 - rd);
			cdm_text_section(f, tests, "mix", title);
			mix = true;
		}
	}
	cdm_text_footer(f, doc, version);
}
