/*
 * run_fioflags.c - fio's informational command-line flags for `raidlab run`:
 * --cmdhelp[=OPTION|all], --enghelp[=ENGINE[,OPTION]] and --showcmd, and
 * the parser of --output-format's list.
 *
 * Both answer from the tables the parser itself uses (wl_options(),
 * wl_engine_name()), so what they list is exactly what a job may say.  The
 * layout is fio's: a list is "name : one-line description"; one option is
 * shown as right-aligned "field: value" lines (name and help, alias, type,
 * default, range or valid values).
 * --enghelp=ENGINE lists the engine's own options, the ones fio lists, in
 * its order, those raidlab does not take marked so; an engine with none
 * says so and exits 1, as fio.
 * An unknown engine is an error naming it, exit status 1 as in fio's
 * --enghelp; an unknown option shows the nearest option's help (exit 0,
 * as fio's --cmdhelp), or, with none near, is an error (exit 1).
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/suggest.h"
#include "results/result.h"
#include "workload/job.h"

/* The help text's first sentence (up to ". " or the end), at most 100 characters. */
static void fioflags_first_sentence(const char *help, char *out, size_t len)
{
	const char *end = strstr(help, ". ");
	size_t n = end ? (size_t)(end - help) : strlen(help);

	if (n >= len)
		n = len - 1;
	memcpy(out, help, n);
	out[n] = 0;
	if (n && out[n - 1] == '.')
		out[n - 1] = 0;
}

/* fio's fields: the help, alias, type, default, then the range or the valid values */
static void fioflags_option_show(const struct wl_option_info *o)
{
	uint64_t min, max;
	const char *v;

	printf("%20s: %s\n", o->name, o->help);
	if (o->alias)
		printf("%20s: %s\n", "alias", o->alias);
	printf("%20s: %s\n", "type", o->type);
	printf("%20s: %s\n", "default", o->def && *o->def ? o->def : "no default");
	if (wl_option_range(o->name, &min, &max))
		printf("%20s: min=%llu, max=%llu\n", "range", (unsigned long long)min,
		       (unsigned long long)max);
	for (size_t i = 0; (v = wl_option_choice(o->name, i)); i++)
		printf("%20s: %s\n", i ? "" : "valid values", v);
	printf("\n");
}

int cli_run_cmdhelp(const char *opt)
{
	size_t n;
	const struct wl_option_info *o = wl_options(&n);
	char line[128];

	if (!opt || !*opt || !strcmp(opt, "all")) {
		for (size_t i = 0; i < n; i++) {
			fioflags_first_sentence(o[i].help, line, sizeof(line));
			printf("%-24s: %s\n", o[i].name, line);
		}
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		if (!strcmp(o[i].name, opt) || (o[i].alias && !strcmp(o[i].alias, opt))) {
			fioflags_option_show(&o[i]);
			return 0;
		}
	/* as fio: a near name's help, after saying the name given is not one */
	const struct wl_option_info *best = NULL;
	size_t best_score = 0, score;
	for (size_t i = 0; i < n; i++)
		if (rl_suggest_close(opt, o[i].name, &score) && (!best || score < best_score)) {
			best = &o[i];
			best_score = score;
		}
	if (best) {
		fprintf(stderr, "No such command: %s\n", opt);
		printf(" - showing closest match\n");
		fioflags_option_show(best);
		return 0;
	}
	cli_error("run", "--cmdhelp: no option named '%s' ('raidlab run --cmdhelp' lists them)",
	          opt);
	return 1;
}

/*
 * The options that belong to an engine in fio 3.33's option table, in the
 * order fio lists them under --enghelp=ENGINE: the ones raidlab's parser
 * knows are shown with its help, the others (fioflags_lacking) as fio's
 * options raidlab does not take.
 */
static const struct {
	const char *engine;
	const char *const *opts;
} fioflags_engine_opts[] = {
    {"io_uring", (const char *const[]){"hipri", "cmdprio_percentage", "cmdprio_class", "cmdprio",
                                       "cmdprio_bssplit", "fixedbufs", "registerfiles",
                                       "sqthread_poll", "sqthread_poll_cpu", "nonvectored",
                                       "uncached", "nowait", "force_async", "cmd_type", NULL}},
    {"libaio", (const char *const[]){"userspace_reap", "cmdprio_percentage", "cmdprio_class",
                                     "cmdprio", "cmdprio_bssplit", "nowait", NULL}},
    {"cpuio", (const char *const[]){"cpuload", "cpuchunks", "cpumode", "exit_on_io_done", NULL}},
    {"exec", (const char *const[]){"program", "arguments", "grace_time", "std_redirect", NULL}},
    {"nbd", (const char *const[]){"uri", NULL}},
    {"net", (const char *const[]){"hostname", "port", "protocol", "nodelay", "listen", "pingpong",
                                  "interface", "ttl", "window_size", "mss", NULL}},
};

/* fio's engine options raidlab's parser does not take, each in a few words */
static const struct {
	const char *name, *what;
} fioflags_lacking[] = {
    {"cmd_type", "the command type of the io_uring_cmd engine"},
};

/* What fio's engine option @name does when raidlab lacks it (an engine of @engine), or NULL. */
static const char *fioflags_lacking_what(const char *engine, const char *name)
{
	for (size_t e = 0; e < sizeof(fioflags_engine_opts) / sizeof(fioflags_engine_opts[0]); e++)
		for (const char *const *p = fioflags_engine_opts[e].opts;
		     !strcmp(fioflags_engine_opts[e].engine, engine) && *p; p++)
			for (size_t i = 0; !strcmp(*p, name) && i < sizeof(fioflags_lacking) /
			                                                sizeof(fioflags_lacking[0]);
			     i++)
				if (!strcmp(fioflags_lacking[i].name, name))
					return fioflags_lacking[i].what;
	return NULL;
}

/* The parser's entry for engine option @name of @engine, or NULL. */
static const struct wl_option_info *fioflags_engine_opt(const char *engine, const char *name)
{
	size_t n;
	const struct wl_option_info *o = wl_options(&n);

	for (size_t e = 0; e < sizeof(fioflags_engine_opts) / sizeof(fioflags_engine_opts[0]);
	     e++) {
		if (strcmp(fioflags_engine_opts[e].engine, engine))
			continue;
		for (const char *const *p = fioflags_engine_opts[e].opts; *p; p++)
			for (size_t i = 0; i < n; i++)
				if (!strcmp(*p, name) && !strcmp(o[i].name, name))
					return &o[i];
	}
	return NULL;
}

/* fio's answer for a known engine: its options' list, one option, or "has no options". */
static int fioflags_engine_show(const char *engine, const char *opt)
{
	const struct wl_option_info *o;
	char line[128];
	int shown = 0;

	if (opt) {
		o = fioflags_engine_opt(engine, opt);
		if (!o && fioflags_lacking_what(engine, opt)) {
			cli_error("run",
			          "--enghelp: %s is fio's %s option (%s); raidlab does not take it",
			          opt, engine, fioflags_lacking_what(engine, opt));
			return 1;
		}
		if (!o) {
			cli_error("run", "--enghelp: IO engine %s has no option '%s'", engine, opt);
			return 1;
		}
		fioflags_option_show(o);
		return 0;
	}
	for (size_t e = 0; e < sizeof(fioflags_engine_opts) / sizeof(fioflags_engine_opts[0]); e++)
		for (const char *const *p = fioflags_engine_opts[e].opts;
		     !strcmp(fioflags_engine_opts[e].engine, engine) && *p; p++)
			if ((o = fioflags_engine_opt(engine, *p))) {
				fioflags_first_sentence(o->help, line, sizeof(line));
				printf("%-24s: %s\n", o->name, line);
				shown++;
			} else if (fioflags_lacking_what(engine, *p)) {
				printf("%-24s: %s (fio's; raidlab does not take it)\n", *p,
				       fioflags_lacking_what(engine, *p));
				shown++;
			}
	if (shown)
		return 0;
	printf("IO engine %s has no options\n", engine);
	return 1;
}

int cli_run_enghelp(const char *arg)
{
	char engine[64];
	const char *comma = arg ? strchr(arg, ',') : NULL;
	size_t len = comma ? (size_t)(comma - arg) : arg ? strlen(arg) : 0;

	if (!arg || !*arg) {
		printf("Available IO engines:\n");
		for (size_t i = 0; wl_engine_name(i); i++)
			printf("\t%s\n", wl_engine_name(i));
		return 0;
	}
	snprintf(engine, sizeof(engine), "%.*s", (int)(len < sizeof(engine) ? len : 0), arg);
	for (size_t i = 0; wl_engine_name(i); i++)
		if (!strcmp(wl_engine_name(i), engine))
			return fioflags_engine_show(engine, comma ? comma + 1 : NULL);
	cli_error("run", "--enghelp: IO engine '%s' not found ('raidlab run --enghelp' lists them)",
	          len < sizeof(engine) ? engine : arg);
	return 1;
}

/* --showcmd: each job as command-line options (fio's spelling). */
void cli_run_showcmd(const struct wl_jobfile *jf)
{
	for (size_t i = 0; i < jf->njobs; i++) {
		struct json_object *o = st_result_options(&jf->jobs[i]);
		printf("raidlab run --name=%s", jf->jobs[i].name);
		if (jf->jobs[i].stonewall) /* a job's place among the waves, as fio's --showcmd */
			printf(" --stonewall");
		json_object_object_foreach(o, key, v)
		{
			if (!strcmp(key, "name"))
				continue;
			printf(" --%s=%s", key, json_object_get_string(v));
		}
		if (jf->jobs[i].filename[0])
			printf(" --filename=%s", jf->jobs[i].filename);
		if (jf->jobs[i].directory[0])
			printf(" --directory=%s", jf->jobs[i].directory);
		putchar('\n');
		json_object_put(o);
	}
}

int cli_output_formats_parse(const char *val, unsigned *mask)
{
	static const char *const names[] = {"normal", "json", "json+", "terse"};
	const char *p = val;

	*mask = 0;
	while (*p) {
		size_t n = strcspn(p, ","), k;

		if (!n) { /* empty entries are skipped, as the old strtok parser did */
			p++;
			continue;
		}
		for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (n == strlen(names[k]) && !strncmp(p, names[k], n))
				break;
		if (k == sizeof(names) / sizeof(names[0])) {
			cli_error("run",
			          "--output-format: expected normal, json, json+ or terse (several "
			          "separated by ','), got '%.*s'",
			          (int)(n > 64 ? 64 : n), p);
			return -EINVAL;
		}
		*mask |= 1u << k;
		p += n + (p[n] == ',');
	}
	if (!*mask) {
		cli_error("run", "--output-format: no format given");
		return -EINVAL;
	}
	return 0;
}
