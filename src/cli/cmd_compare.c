/*
 * cmd_compare.c - `raidlab compare RESULT.json ...`: results side by side.
 *
 * Loads every file (all of them, so one run reports every broken file),
 * builds the comparison model and prints the terminal table; --csv and
 * --html write the other renderings as well.  Everything it knows about a
 * result comes from src/report/, which reads the JSON contract only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "report/compare.h"
#include "report/render.h"
#include "report/result.h"
#include "report/sweep.h"

static const char compare_usage[] =
    "usage: raidlab compare RESULT.json ... [--baseline N] [--metric mb_s|iops|lat]\n"
    "                       [--csv FILE] [--html FILE]\n"
    "\n"
    "Lays results (from `raidlab run --json`) side by side: one column per result in\n"
    "the order given, one row per test and direction (suite results) or per job and\n"
    "direction (job results), absolute values and % against the baseline.\n"
    "\n"
    "  --baseline N     the result the others are measured against (1 = the first;\n"
    "                   default 1)\n"
    "  --metric M       the table's figure: mb_s (decimal MB/s, default), iops, or\n"
    "                   lat (mean latency, µs)\n"
    "  --csv FILE       also write every figure of every cell as CSV\n"
    "  --html FILE      also write a self-contained HTML report with charts\n"
    "                   (FILE '-' is standard output; the table is then not printed)\n"
    "\n"
    "Rows match by test name (suites) or job name (jobs); a result without a row\n"
    "shows '-'.  Results of different suites with the same label (cdm and asssd-copy\n"
    "run on one configuration) share a column; the later suite's rows are named\n"
    "\"SUITE TEST\".  Suite results are compared with suite results and job results with\n"
    "job results: a mix is refused.  docs/report.md describes the outputs.\n"
    "Exit status: 0 ok, 1 a result cannot be read or does not follow docs/results.md\n"
    "(or an output cannot be written), 2 bad usage, including a mix of kinds.\n";

/* Value of an option given as "--opt VALUE" or "--opt=VALUE"; NULL if @arg is not it. */
static const char *compare_opt(const char *name, int argc, char **argv, int *i, bool *missing)
{
	size_t n = strlen(name);

	*missing = false;
	if (strncmp(argv[*i], name, n))
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}

/* Does the column's suite name ("cdm + asssd-copy") already include @suite? */
static bool compare_has_suite(const char *names, const char *suite)
{
	size_t n = strlen(suite);

	for (const char *p = names; p && *p;) {
		const char *end = strstr(p, " + ");
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == n && !strncmp(p, suite, n))
			return true;
		p = end ? end + 3 : NULL;
	}
	return false;
}

/*
 * Results of different suites with the same label (a block suite and a file
 * suite on one configuration) share one column: later ones are folded into
 * the first.  *n shrinks to the columns left; *base follows its result.
 */
static int compare_merge(struct rep_result **res, size_t *n, size_t *base)
{
	size_t out = 0, newbase = 0;

	for (size_t i = 0; i < *n; i++) {
		size_t into = out;
		for (size_t j = 0; j < out; j++)
			if (res[j]->kind == REP_KIND_SUITE && res[i]->kind == REP_KIND_SUITE &&
			    !strcmp(res[j]->label, res[i]->label) &&
			    !compare_has_suite(res[j]->suite_name, res[i]->suite_name)) {
				into = j;
				break;
			}
		if (i == *base)
			newbase = into;
		if (into == out) {
			res[out++] = res[i];
			continue;
		}
		if (rep_result_merge(res[into], res[i])) {
			/* keep the rest owned by the array so the caller frees them */
			for (size_t k = i; k < *n; k++)
				res[out++] = res[k];
			*n = out;
			return -ENOMEM;
		}
	}
	for (size_t k = out; k < *n; k++)
		res[k] = NULL;
	*n = out;
	*base = newbase;
	return 0;
}

struct compare_args {
	const char **files;
	size_t nfiles;
	long baseline; /* 1-based */
	enum rep_metric metric;
	const char *csv, *html;
};

static int compare_parse(int argc, char **argv, struct compare_args *a)
{
	static const char *const opts[] = {"--baseline", "--metric", "--csv", "--html"};

	a->baseline = 1;
	a->metric = REP_METRIC_MB_S;
	for (int i = 1; i < argc; i++) {
		const char *val = NULL;
		bool missing = false;
		int o;

		if (!strcmp(argv[i], "--help")) {
			fputs(compare_usage, stdout);
			return -1;
		}
		for (o = 0; o < 4; o++) {
			val = compare_opt(opts[o], argc, argv, &i, &missing);
			if (val || missing)
				break;
		}
		if (missing) {
			cli_error("compare", "%s needs a value", opts[o]);
			return 2;
		}
		if (!val && argv[i][0] == '-' && argv[i][1] != '\0') {
			cli_error("compare", "unknown option '%s' (see raidlab help compare)",
			          argv[i]);
			return 2;
		}
		if (!val) {
			a->files[a->nfiles++] = argv[i];
			continue;
		}
		if (o == 0) {
			char *end;

			errno = 0;
			a->baseline = strtol(val, &end, 10);
			if (errno || end == val || *end || a->baseline < 1) {
				cli_error("compare",
				          "--baseline: '%s' is not a result number (1 = "
				          "the first result)",
				          val);
				return 2;
			}
		} else if (o == 1) {
			if (rep_metric_parse(val, &a->metric)) {
				cli_error("compare", "--metric: '%s' is not mb_s, iops or lat",
				          val);
				return 2;
			}
		} else if (!*val) {
			cli_error("compare", "%s needs a file name", opts[o]);
			return 2;
		} else if (o == 2) {
			a->csv = val;
		} else {
			a->html = val;
		}
	}
	if (a->nfiles == 0) {
		fputs(compare_usage, stderr);
		return 2;
	}
	if ((size_t)a->baseline > a->nfiles) {
		cli_error("compare", "--baseline %ld: there %s only %zu result%s", a->baseline,
		          a->nfiles == 1 ? "is" : "are", a->nfiles, a->nfiles == 1 ? "" : "s");
		return 2;
	}
	if (a->csv && a->html && !strcmp(a->csv, "-") && !strcmp(a->html, "-")) {
		cli_error("compare", "--csv and --html cannot both go to standard output");
		return 2;
	}
	return 0;
}

/* Write one rendering to @path ('-': stdout); 0 or 1 (message printed). */
static int compare_write(const char *path, const struct rep_compare *cmp, enum rep_metric metric,
                         bool html, const struct rep_sweep *sweep)
{
	struct rep_sweep_page page = {.sw = sweep, .cmp = cmp};
	struct rep_html_extra extra = {
	    .nav = rep_sweep_html_nav, .body = rep_sweep_html_body, .arg = &page};
	bool out = !strcmp(path, "-");
	FILE *f = out ? stdout : fopen(path, "w");
	int err;

	if (!f) {
		cli_error("compare", "cannot create %s: %s", path, strerror(errno));
		return 1;
	}
	if (html)
		rep_html_write_extra(f, cmp, metric, sweep ? &extra : NULL);
	else
		rep_csv_write(f, cmp);
	err = ferror(f) ? (errno ? errno : EIO) : 0;
	if (out) {
		if (fflush(f) && !err)
			err = errno ? errno : EIO;
	} else if (fclose(f) && !err) {
		err = errno ? errno : EIO;
	}
	if (err) {
		if (out)
			clearerr(stdout); /* said once: not again at exit (main.c) */
		cli_error("compare", "cannot write %s: %s", out ? "standard output" : path,
		          strerror(err));
		return 1;
	}
	return 0;
}

/*
 * A sweep document (raidlab sweep --json) at @path: its points' results
 * are appended to *@res (grown to hold them) as columns; the first sweep
 * is kept in *@sweep for the report's sweep sections.  A --baseline past
 * this file moves by the points added.
 */
static int compare_sweep(const char *path, struct rep_sweep **sweep, struct rep_result ***res,
                         size_t *nres, struct compare_args *a, size_t file, char *err,
                         size_t errlen)
{
	struct rep_sweep *sw;
	struct rep_result **grown;
	int rc = rep_sweep_load(path, &sw, err, errlen);

	if (rc)
		return rc;
	grown = realloc(*res, (*nres + sw->n + a->nfiles + 1) * sizeof(*grown));
	if (!grown) {
		rep_sweep_free(sw);
		return -ENOMEM;
	}
	memset(grown + *nres, 0, (sw->n + a->nfiles + 1) * sizeof(*grown));
	*res = grown;
	rc = rep_sweep_results(sw, grown + *nres, err, errlen);
	if (rc) {
		rep_sweep_free(sw);
		return rc;
	}
	if ((size_t)a->baseline - 1 > file && sw->n)
		a->baseline += (long)sw->n - 1;
	*nres += sw->n;
	if (*sweep)
		rep_sweep_free(sw);
	else
		*sweep = sw;
	return 0;
}

static int compare_main(int argc, char **argv)
{
	struct compare_args a = {0};
	struct rep_sweep *sweep = NULL;
	size_t nres = 0;
	struct rep_result **res;
	struct rep_compare *cmp = NULL;
	char err[1024];
	int rc, status = 0;

	a.files = calloc((size_t)argc + 1, sizeof *a.files);
	res = calloc((size_t)argc + 1, sizeof *res);
	if (!a.files || !res) {
		cli_error("compare", "out of memory");
		status = 1;
		goto out;
	}
	rc = compare_parse(argc, argv, &a);
	if (rc) {
		status = rc < 0 ? 0 : rc; /* -1: --help printed */
		goto out;
	}
	if (cli_output_check("compare", "--csv", a.csv) ||
	    cli_output_check("compare", "--html", a.html)) {
		status = 1; /* as when writing fails (the usage text) */
		goto out;
	}
	for (size_t i = 0; i < a.nfiles; i++) {
		if (rep_sweep_file(a.files[i])) { /* a sweep's points become columns */
			rc = compare_sweep(a.files[i], &sweep, &res, &nres, &a, i, err, sizeof err);
		} else {
			rc = rep_result_load(a.files[i], &res[nres], err, sizeof err);
			nres += !rc;
		}
		if (rc) {
			cli_error("compare", "%s", rc == -ENOMEM ? "out of memory" : err);
			status = 1;
		}
	}
	a.nfiles = nres;
	if (status)
		goto out;
	size_t ncols = a.nfiles, base = (size_t)a.baseline - 1;
	if (compare_merge(res, &ncols, &base)) {
		cli_error("compare", "out of memory");
		status = 1;
		goto out;
	}
	a.nfiles = ncols;
	rc = rep_compare_build(res, a.nfiles, base, &cmp, err, sizeof err);
	if (rc) {
		cli_error("compare", "%s", err);
		status = rc == -EINVAL ? 2 : 1;
		goto out;
	}
	if (!(a.csv && !strcmp(a.csv, "-")) && !(a.html && !strcmp(a.html, "-"))) {
		rep_table_write(stdout, cmp, a.metric);
		if (fflush(stdout) || ferror(stdout)) {
			cli_error("compare", "cannot write standard output: %s", strerror(errno));
			clearerr(stdout); /* said once: not again at exit (main.c) */
			status = 1;
			goto out;
		}
	}
	if (a.csv && compare_write(a.csv, cmp, a.metric, false, NULL))
		status = 1;
	if (a.html && compare_write(a.html, cmp, a.metric, true, sweep))
		status = 1;
out:
	rep_sweep_free(sweep);
	rep_compare_free(cmp);
	for (size_t i = 0; res && i < a.nfiles; i++)
		rep_result_free(res[i]);
	free(res);
	free(a.files);
	return status;
}

static struct cli_command compare_cmd = {
    .name = "compare",
    .summary = "lay results side by side: table, CSV, HTML report",
    .usage = compare_usage,
    .main = compare_main,
};
CLI_COMMAND_REGISTER(compare_cmd)
