/*
 * cmd_validate.c - `raidlab validate [SET...]`: replay published
 * measurements on simulated stacks and say how well they agree.
 *
 * Each set (validation/NAME.json, see report/validate.h and
 * docs/validation.md) lists configurations: a target spec and the suite the
 * article ran.  This command runs every configuration with its suite and
 * parameters - exactly what `raidlab run SUITE --target SPEC` does - then
 * hands the results to report/validate.c for the figures, statistics,
 * orderings and findings.  Configurations run in the suite runner's worker
 * pool (suites/runner.h; -j N processes, default: the number of CPUs);
 * simulated runs are deterministic, so the result does not depend on N.
 *
 * Exit status: 0 when every set passes (its thresholds are met and every
 * finding holds), 1 when one does not (or a configuration could not run),
 * 2 on a usage error.
 */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/datadir.h"
#include "core/registry.h"
#include "report/validate.h"
#include "results/result.h"
#include "suites/runner.h"
#include "suites/suite.h"

static const char validate_usage[] =
    "usage: raidlab validate [SET...] [--json FILE] [--html FILE] [--quiet] [-j N] [--list]\n"
    "\n"
    "Replays published measurements of real arrays (validation/*.json) on simulated\n"
    "stacks and prints, per cell, the published and simulated MB/s and their ratio;\n"
    "per set, the median error (x), the share of cells within 1.25x / 1.5x / 2x / 4x,\n"
    "the orderings of the published table that hold, and the article's qualitative\n"
    "findings.  A SET is a set name (perc-h730p, amd-nvme-raid, sm951-windows-stripe)\n"
    "or a path to a set file; without one, every set found.  Each configuration names\n"
    "the exact target spec and suite it replays, so `raidlab run SUITE --target SPEC`\n"
    "reproduces any figure.\n"
    "\n"
    "  --json FILE   write every set, configuration and cell as JSON ('-' for stdout)\n"
    "  --html FILE   a report with a chart of simulated against published (log axes)\n"
    "  --quiet       print only each set's summary\n"
    "  -j N          configurations run in N processes at once (default: CPUs)\n"
    "  --list        list the sets found and exit\n"
    "\n"
    "A set passes when it meets its thresholds and every finding holds; a cell more than\n"
    "2x off its published figure is flagged with the reason the set gives, if any.\n"
    "Exit status: 0 when every set passes, 1 otherwise (the summary names what fails).\n"
    "Sets are looked for in $RAIDLAB_VALIDATION, next to the executable (../validation)\n"
    "and in ./validation.\n";

#define VAL_MAX_SETS 32

/*
 * Suite options given on the command line (@over: "NAME=VALUE" or "NAME"),
 * applied to @c's request where its suite takes them: a platform's
 * configurations may use several suites (raidlab demo --platform).
 */
static int val_overrides(struct val_config *c, struct suite_request *rq, const char *const *over,
                         size_t nover)
{
	for (size_t k = 0; k < nover; k++) {
		char name[64];
		const char *eq = strchr(over[k], '=');
		size_t len = eq ? (size_t)(eq - over[k]) : strlen(over[k]);
		if (len >= sizeof(name))
			len = sizeof(name) - 1;
		memcpy(name, over[k], len);
		name[len] = 0;
		if (!suite_params_accepts(rq->def, name))
			continue;
		if (suite_params_set(rq->def, &rq->p, name, eq ? eq + 1 : NULL, c->error,
		                     sizeof(c->error)))
			return -EINVAL;
	}
	return 0;
}

/* The request that runs configuration @c, or an error in c->error. */
static int val_request(struct val_config *c, struct suite_request *rq, const char *const *over,
                       size_t nover)
{
	const struct suite_def *def = suite_find(c->suite);
	char msg[256];

	if (!def) {
		snprintf(c->error, sizeof(c->error), "unknown suite '%s'", c->suite);
		return -EINVAL;
	}
	memset(rq, 0, sizeof(*rq));
	rq->def = def;
	rq->p = def->defaults;
	rq->spec = c->spec;
	rq->label = c->name;
	rq->simulated_only = true;
	rl_build_ctx_init(&rq->ctx);
	rq->ctx.quiet = true;
	if (c->params) {
		json_object_object_foreach(c->params, key, val)
		{
			if (suite_params_set(def, &rq->p, key, json_object_get_string(val), msg,
			                     sizeof(msg))) {
				snprintf(c->error, sizeof(c->error), "%s", msg);
				return -EINVAL;
			}
		}
	}
	return val_overrides(c, rq, over, nover);
}

struct val_progress {
	bool show;
};

static void val_done(void *arg, size_t index, size_t done, size_t total)
{
	const struct val_progress *p = arg;

	(void)index;
	if (p->show)
		fprintf(stderr, "\r\033[Kvalidate: %zu/%zu configurations", done, total);
}

int cli_validate_run(struct val_set *sets, size_t nsets, unsigned par, bool quiet,
                     const char *const *over, size_t nover)
{
	size_t total = 0, n = 0;
	struct val_config **cfg;
	struct suite_request *rq;
	struct suite_pool_result *res;
	struct val_progress prog = {.show = !quiet && isatty(STDERR_FILENO)};
	int rc = -ENOMEM;

	for (size_t i = 0; i < nsets; i++)
		total += sets[i].nconfigs;
	cfg = calloc(total ? total : 1, sizeof(*cfg));
	rq = calloc(total ? total : 1, sizeof(*rq));
	res = calloc(total ? total : 1, sizeof(*res));
	if (cfg && rq && res) {
		for (size_t i = 0; i < nsets; i++)
			for (size_t c = 0; c < sets[i].nconfigs; c++)
				if (!val_request(&sets[i].configs[c], &rq[n], over, nover))
					cfg[n++] = &sets[i].configs[c];
		rc = suite_pool_run(rq, n, par, res, val_done, &prog);
		for (size_t k = 0; k < n; k++) {
			cfg[k]->result = res[k].doc;
			if (!res[k].doc)
				snprintf(cfg[k]->error, sizeof(cfg[k]->error), "%s", res[k].error);
		}
	}
	if (prog.show)
		fprintf(stderr, "\r\033[K");
	free(cfg);
	free(rq);
	free(res);
	return rc;
}

int cli_validate_find(const char *name, char *path, size_t len)
{
	char dirs[RL_DATA_DIRS_MAX][PATH_MAX];
	size_t n = rl_data_dirs("validation", "RAIDLAB_VALIDATION", dirs);

	if (strchr(name, '/') || strstr(name, ".json")) {
		snprintf(path, len, "%s", name);
		return access(path, R_OK) ? -ENOENT : 0;
	}
	for (size_t i = 0; i < n; i++) {
		if ((size_t)snprintf(path, len, "%s/%s.json", dirs[i], name) >= len)
			continue;
		if (!access(path, R_OK))
			return 0;
	}
	return -ENOENT;
}

/* Every set file found, first directory wins; names into @names. */
static size_t val_list(char (*names)[128], size_t max)
{
	char dirs[RL_DATA_DIRS_MAX][PATH_MAX];
	size_t n = rl_data_dirs("validation", "RAIDLAB_VALIDATION", dirs), count = 0;

	for (size_t i = 0; i < n && !count; i++) {
		char **list = NULL;
		size_t m = rl_data_list(dirs[i], ".json", &list);
		for (size_t k = 0; k < m; k++) {
			if (count < max)
				snprintf(names[count++], sizeof(names[0]), "%s", list[k]);
			free(list[k]);
		}
		free(list);
	}
	return count;
}

static int validate_main(int argc, char **argv)
{
	const char *json_path = NULL, *html_path = NULL;
	char names[VAL_MAX_SETS][128];
	size_t nnames = 0;
	bool quiet = false, list = false;
	long par = sysconf(_SC_NPROCESSORS_ONLN);
	struct val_set sets[VAL_MAX_SETS];
	struct val_stats stats[VAL_MAX_SETS];
	struct val_set *ptrs[VAL_MAX_SETS];
	size_t nsets = 0;
	int status = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--json") || !strcmp(a, "--html") || !strcmp(a, "-j")) {
			if (i + 1 >= argc) {
				cli_error("validate", "%s needs a value", a);
				return 2;
			}
			if (!strcmp(a, "--json"))
				json_path = argv[++i];
			else if (!strcmp(a, "--html"))
				html_path = argv[++i];
			else {
				char *end;
				par = strtol(argv[++i], &end, 10);
				if (*end || par < 1 || par > 64) {
					cli_error("validate",
					          "-j takes a number from 1 to 64, got '%s'",
					          argv[i]);
					return 2;
				}
			}
		} else if (!strcmp(a, "--quiet")) {
			quiet = true;
		} else if (!strcmp(a, "--list")) {
			list = true;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(validate_usage, stdout);
			return 0;
		} else if (a[0] == '-') {
			cli_error("validate", "unknown option '%s' (see raidlab help validate)", a);
			return 2;
		} else if (nnames < VAL_MAX_SETS) {
			snprintf(names[nnames++], sizeof(names[0]), "%s", a);
		} else {
			cli_error("validate", "at most %d sets", VAL_MAX_SETS);
			return 2;
		}
	}
	if (par < 1)
		par = 1;
	/* before the sets run (minutes): a result must not be lost to a typo in a path */
	if (!list && (cli_output_check("validate", "--json", json_path) ||
	              cli_output_check("validate", "--html", html_path)))
		return 2;
	if (!nnames || list) {
		size_t found = val_list(names + nnames, VAL_MAX_SETS - nnames);
		if (list) {
			for (size_t i = 0; i < found; i++)
				printf("%s\n", names[nnames + i]);
			return 0;
		}
		nnames += found;
		if (!nnames) {
			cli_error("validate", "no validation sets found (set RAIDLAB_VALIDATION)");
			return 1;
		}
	}
	for (size_t i = 0; i < nnames; i++) {
		char path[PATH_MAX], msg[512];
		int rc;
		if (cli_validate_find(names[i], path, sizeof(path))) {
			cli_error("validate",
			          "no validation set '%s' (try raidlab validate --list)", names[i]);
			status = 2;
			break;
		}
		rc = val_set_load(path, &sets[nsets], msg, sizeof(msg));
		if (rc) {
			cli_error("validate", "%s", msg);
			val_set_free(&sets[nsets]);
			status = 1;
			break;
		}
		ptrs[nsets] = &sets[nsets];
		nsets++;
	}
	if (!status && cli_validate_run(sets, nsets, (unsigned)par, quiet, NULL, 0))
		status = 1;
	if (!status) {
		struct json_object *doc = json_object_new_object(), *arr = json_object_new_array();
		bool all = true;
		for (size_t i = 0; i < nsets; i++) {
			val_set_fill(&sets[i]);
			val_set_check(&sets[i], &stats[i]);
			for (size_t c = 0; c < sets[i].nconfigs; c++)
				if (sets[i].configs[c].error[0])
					val_stats_fail(&stats[i], "%s did not run: %s",
					               sets[i].configs[c].name,
					               sets[i].configs[c].error);
			val_set_print(stdout, &sets[i], &stats[i], !quiet);
			all &= stats[i].pass;
			json_object_array_add(arr, val_set_json(&sets[i], &stats[i]));
		}
		json_object_object_add(doc, "tool", json_object_new_string("raidlab " RL_VERSION));
		json_object_object_add(doc, "pass", json_object_new_boolean(all));
		json_object_object_add(doc, "sets", arr);
		if (json_path) {
			int rc =
			    strcmp(json_path, "-")
			        ? json_object_to_file_ext(json_path, doc, JSON_C_TO_STRING_PRETTY)
			        : (puts(json_object_to_json_string_ext(
			               doc, JSON_C_TO_STRING_PRETTY)) < 0);
			if (rc) {
				cli_error("validate", "cannot write %s", json_path);
				all = false;
			}
		}
		if (html_path) {
			FILE *f = fopen(html_path, "w");
			if (!f) {
				cli_error("validate", "cannot write %s: %s", html_path,
				          strerror(errno));
				all = false;
			} else {
				val_html(f, ptrs, stats, nsets);
				if (fclose(f)) {
					cli_error("validate", "cannot write %s", html_path);
					all = false;
				}
			}
		}
		json_object_put(doc);
		status = all ? 0 : 1;
		for (size_t i = 0; i < nsets; i++)
			val_stats_free(&stats[i]);
	}
	for (size_t i = 0; i < nsets; i++)
		val_set_free(&sets[i]);
	return status;
}

static struct cli_command validate_cmd = {
    .name = "validate",
    .summary = "replay published measurements on simulated stacks and check the agreement",
    .usage = validate_usage,
    .main = validate_main,
};
CLI_COMMAND_REGISTER(validate_cmd)
