/*
 * cmd_complete.c - `raidlab __complete WORD... CURRENT`: the candidates for
 * the last word of a command line, one per line, for the shell completion
 * scripts (completion/raidlab.bash, completion/_raidlab).
 *
 * The scripts hold no lists: every candidate comes from the tables raidlab
 * itself parses with, so completion cannot drift from what is accepted:
 *   - commands from the command registry; a command's options are the
 *     --words of its usage text, and for run every job option of the
 *     option table as --NAME= (the suite's options after a suite name);
 *   - --NAME=VALUE for an enumerated job option (rw, ioengine, verify)
 *     from the same choice table the option's setter checks against;
 *   - run's first word: the suites and file suites, and files;
 *   - a target spec (--target SPEC): target type names as "TYPE(", a
 *     parameter name of the type being written as "KEY=", and inside ssd(
 *     and controller( the profile names found in the data folders.
 * Every candidate is a whole word starting with CURRENT; the line "@files"
 * asks the script to add file names as well.  The command is hidden.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/ctl_profile.h"
#include "core/registry.h"
#include "files/files.h"
#include "sim/sim.h"
#include "suites/suite.h"
#include "workload/job.h"

/* The word being completed, and the text every candidate keeps before it. */
struct comp {
	const char *cur;  /* the whole current word */
	const char *keep; /* candidates print as keep + name */
	size_t keep_len;
	const char *part; /* what follows keep: the prefix a name must start with */
};

/* Print keep + @name + @suffix when @name starts with the partial word. */
static void comp_offer(const struct comp *c, const char *name, const char *suffix)
{
	if (!strncmp(name, c->part, strlen(c->part)))
		printf("%.*s%s%s\n", (int)c->keep_len, c->keep, name, suffix);
}

static void comp_drive(const struct sim_params *p, void *arg)
{
	comp_offer(arg, p->name, "");
}

static int comp_controller(const struct rl_ctl_profile *p, void *arg)
{
	comp_offer(arg, p->name, "");
	return 0;
}

/*
 * A target spec being written: the innermost open "TYPE(" decides.  The
 * first argument of ssd( and controller( is a profile; after a ',' a key of
 * TYPE's table fits as well as a member spec; elsewhere a type name.
 */
static void comp_spec(const char *spec, size_t off)
{
	const char *start = spec + off, *w = start + strlen(start);
	struct comp c;
	char type[32] = "";
	int depth = 0;
	bool first_arg = false;

	while (w > start && !strchr("(, ", w[-1]))
		w--;
	c = (struct comp){.cur = spec, .keep = spec, .keep_len = (size_t)(w - spec), .part = w};
	for (const char *p = w; p > start; p--) {
		if (p[-1] == ')')
			depth++;
		else if (p[-1] == '(' && depth-- == 0) {
			const char *n = p - 1;
			while (n > start && !strchr("(, ", n[-1]))
				n--;
			snprintf(type, sizeof(type), "%.*s", (int)(p - 1 - n), n);
			first_arg = !strpbrk(p, ",");
			break;
		}
	}
	if (first_arg && !strcmp(type, "ssd")) {
		sim_profile_each(comp_drive, &c);
		return;
	}
	if (first_arg && !strcmp(type, "controller")) {
		rl_ctl_profile_each(comp_controller, &c);
		return;
	}
	if (type[0] && !first_arg) {
		const struct rl_target_type *t = rl_target_type_find(type);
		for (const struct rl_param *p = t ? t->params : NULL; p && p->name; p++)
			comp_offer(&c, p->name, "=");
	}
	for (const struct rl_target_type *t = rl_target_type_first(); t; t = t->next)
		comp_offer(&c, t->name, "(");
}

/* The --words (with their '=' when the text shows one) of a help text. */
static void comp_text_options(const struct comp *c, const char *text)
{
	for (const char *p = strstr(text, "--"); p; p = strstr(p + 2, "--")) {
		size_t n = strspn(p + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
		char word[64];
		if (!n || n > 40 ||
		    (p > text && p[-1] != ' ' && p[-1] != '[' && p[-1] != '(' && p[-1] != '\n' &&
		     p[-1] != ','))
			continue;
		snprintf(word, sizeof(word), "--%.*s", (int)n, p + 2);
		comp_offer(c, word, p[2 + n] == '=' ? "=" : "");
	}
}

/* --NAME=VALUE of an enumerated job option; false if NAME has no choices. */
static bool comp_option_value(const char *cur)
{
	const char *eq = strchr(cur, '=');
	char name[64];
	struct comp c = {.cur = cur, .keep = cur};

	if (!eq || (size_t)(eq - cur) >= sizeof(name) + 2)
		return false;
	snprintf(name, sizeof(name), "%.*s", (int)(eq - cur - 2), cur + 2);
	if (!strcmp(name, "target")) {
		comp_spec(cur, (size_t)(eq + 1 - cur));
		return true;
	}
	if (!wl_option_choice(name, 0))
		return false;
	c.keep_len = (size_t)(eq + 1 - cur);
	c.part = eq + 1;
	for (size_t i = 0; wl_option_choice(name, i); i++)
		comp_offer(&c, wl_option_choice(name, i), "");
	return true;
}

static void comp_suite_help(const struct comp *c, const char *suite)
{
	for (const struct suite_def *d = suite_first(); d; d = d->next) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m;
		if (strcmp(d->name, suite) || !(m = open_memstream(&buf, &len)))
			continue;
		suite_options_help(d, m);
		fclose(m);
		comp_text_options(c, buf);
		free(buf);
	}
}

/* Options of command @cmd (words[0]), given the words typed so far. */
static void comp_options(const struct cli_command *cmd, char **words, int nwords,
                         const struct comp *c)
{
	size_t n;
	const struct wl_option_info *o = wl_options(&n);

	comp_text_options(c, cmd->usage);
	if (strcmp(cmd->name, "run"))
		return;
	if (nwords > 1)
		comp_suite_help(c, words[1]);
	for (size_t i = 0; i < n; i++) {
		char word[80];
		snprintf(word, sizeof(word), "--%s", o[i].name);
		comp_offer(c, word, "=");
	}
}

static int complete_main(int argc, char **argv)
{
	char **words = argv + 1;
	int nwords = argc - 2;
	const char *cur = argc > 1 ? argv[argc - 1] : "";
	struct comp c = {.cur = cur, .keep = cur, .keep_len = 0, .part = cur};
	const struct cli_command *cmd;
	const char *prev = nwords > 0 ? words[nwords - 1] : "";

	if (nwords <= 0) {
		for (cmd = cli_command_first(); cmd; cmd = cmd->next)
			comp_offer(&c, cmd->name, "");
		comp_text_options(&c, "--help --version");
		return 0;
	}
	cmd = cli_command_find(words[0]);
	if (!cmd)
		return 0;
	if (!strcmp(prev, "--target") || !strcmp(prev, "-t")) {
		comp_spec(cur, 0);
		return 0;
	}
	if (!strncmp(cur, "--", 2) && strchr(cur, '=')) {
		if (!comp_option_value(cur))
			printf("@files\n");
		return 0;
	}
	if (cur[0] == '-') {
		comp_options(cmd, words, nwords, &c);
		return 0;
	}
	if (!strcmp(cmd->name, "help") && nwords == 1) {
		for (const struct cli_command *k = cli_command_first(); k; k = k->next)
			comp_offer(&c, k->name, "");
		comp_offer(&c, "targets", "");
		comp_offer(&c, "options", "");
		comp_offer(&c, "suites", "");
		return 0;
	}
	if (!strcmp(cmd->name, "help") && nwords == 2 && !strcmp(words[1], "targets")) {
		for (const struct rl_target_type *t = rl_target_type_first(); t; t = t->next)
			comp_offer(&c, t->name, "");
		return 0;
	}
	if (!strcmp(cmd->name, "run") && nwords == 1) {
		for (const struct suite_def *d = suite_first(); d; d = d->next)
			comp_offer(&c, d->name, "");
		for (size_t i = 0; files_suite_at(i); i++)
			comp_offer(&c, files_suite_at(i)->name, "");
	}
	printf("@files\n");
	return 0;
}

static struct cli_command complete_cmd = {
    .name = "__complete",
    .summary = "candidates for the last word of a command line (shell completion)",
    .usage = "usage: raidlab __complete WORD... CURRENT\n",
    .main = complete_main,
    .hidden = true,
};
CLI_COMMAND_REGISTER(complete_cmd)
