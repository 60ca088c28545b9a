/*
 * run_fioflags.c - fio's informational command-line flags for `raidlab run`:
 * --cmdhelp[=OPTION|all] and --enghelp[=ENGINE[,OPTION]].
 *
 * Both answer from the tables the parser itself uses (wl_options(),
 * wl_engine_name()), so what they list is exactly what a job may say.  The
 * layout is fio's: a list is "name : one-line description"; one option is
 * shown as right-aligned "field: value" lines (name, alias, type, default).
 * An unknown option or engine is an error naming it, exit status 1 as in
 * fio's --enghelp (fio's --cmdhelp exits 0 there; a script learns more from 1).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
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

static void fioflags_option_show(const struct wl_option_info *o)
{
	char line[128];

	fioflags_first_sentence(o->help, line, sizeof(line));
	printf("%20s: %s\n", o->name, line);
	if (o->alias)
		printf("%20s: %s\n", "alias", o->alias);
	printf("%20s: %s\n", "type", o->type);
	printf("%20s: %s\n", "default", o->def && *o->def ? o->def : "no default");
	printf("%20s: %s\n\n", "help", o->help);
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
	cli_error("run", "--cmdhelp: no option named '%s' ('raidlab run --cmdhelp' lists them)",
	          opt);
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
	for (size_t i = 0; wl_engine_name(i); i++) {
		if (strcmp(wl_engine_name(i), engine))
			continue;
		/* raidlab's engines take only the generic job options */
		if (comma)
			cli_error("run", "--enghelp: IO engine %s has no option '%s'", engine,
			          comma + 1);
		else
			printf("IO engine %s has no options\n", engine);
		return 1;
	}
	cli_error("run", "--enghelp: IO engine '%s' not found ('raidlab run --enghelp' lists them)",
	          len < sizeof(engine) ? engine : arg);
	return 1;
}
