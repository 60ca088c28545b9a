/*
 * cli.c - the command registry and the error printers every command uses.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/spec.h"
#include "core/suggest.h"
#include "files/files.h"
#include "suites/suite.h"

static struct cli_command *cli_head, *cli_hidden;

void cli_command_register(struct cli_command *cmd)
{
	struct cli_command **p = cmd->hidden ? &cli_hidden : &cli_head;

	while (*p && strcmp((*p)->name, cmd->name) < 0)
		p = &(*p)->next;
	cmd->next = *p;
	*p = cmd;
}

/*
 * Usage texts built from registries: every constructor has run by the time
 * anyone asks for a command, so the registries are complete here.
 */
static void cli_usage_fill(void)
{
	static bool filled;

	if (filled)
		return;
	filled = true;
	for (struct cli_command *c = cli_head; c; c = c->next)
		if (c->usage_fill)
			c->usage_fill(c);
}

const struct cli_command *cli_command_find(const char *name)
{
	cli_usage_fill();
	for (const struct cli_command *c = cli_head; c; c = c->next)
		if (!strcmp(c->name, name))
			return c;
	for (const struct cli_command *c = cli_hidden; c; c = c->next)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

const struct cli_command *cli_command_first(void)
{
	cli_usage_fill();
	return cli_head;
}

int cli_opt_common(int c, const char *usage, bool *force, bool *quiet)
{
	switch (c) {
	case 'f':
		*force = true;
		return -1;
	case 'q':
		*quiet = true;
		return -1;
	case 'h':
		fputs(usage, stdout);
		return 0;
	default:
		fputs(usage, stderr);
		return 2;
	}
}

size_t cli_suite_names(const char **v, size_t max)
{
	size_t n = 0;

	for (const struct suite_def *d = suite_first(); d && n < max; d = d->next)
		v[n++] = d->name;
	for (size_t i = 0; files_suite_at(i) && n < max; i++)
		v[n++] = files_suite_at(i)->name;
	return n;
}

const char *cli_suite_list(const char *typed, char *buf, size_t len)
{
	const char *v[64];

	return rl_suggest_list(typed, v, cli_suite_names(v, 64), buf, len);
}

void cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "raidlab %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_parse_slow(const char *cmd, const char *val, uint32_t *out)
{
	char why[128];
	uint64_t v;

	if (!strcmp(val, "auto")) {
		*out = CLI_SLOW_AUTO;
		return 0;
	}
	if (rl_parse_u64(val, &v, why, sizeof(why)) || v < 1 || v > CLI_SLOW_MAX) {
		cli_error(cmd, "--slow: expected auto or a whole factor 1..%u, got '%s'",
		          CLI_SLOW_MAX, val);
		return -EINVAL;
	}
	*out = (uint32_t)v;
	return 0;
}

int cli_long_opt_split(const char *cmd, const char *arg, char *name, size_t size, const char **val)
{
	const char *eq = strchr(arg, '=');
	size_t nlen = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);

	if (nlen >= size) {
		cli_error(cmd, "option too long: %.40s...", arg);
		return -EINVAL;
	}
	memcpy(name, arg + 2, nlen);
	name[nlen] = 0;
	*val = eq ? eq + 1 : NULL;
	return 0;
}

void cli_spec_error(const char *cmd, const char *spec, const struct rl_err *err)
{
	cli_error(cmd, "target: %s", err->msg);
	if (err->pos == SIZE_MAX || err->pos > strlen(spec) || strchr(spec, '\n') ||
	    !strchr(spec, '('))
		return;
	fprintf(stderr, "  %s\n  %*s^\n", spec, (int)err->pos, "");
}

int cli_targets_take(struct cli_targets *t, const char *name, const char *val)
{
	bool target = !strcmp(name, "target");

	if (!target && strcmp(name, "label"))
		return 0;
	size_t *n = target ? &t->n : &t->nlabels;
	if (*n == CLI_MAX_TARGETS) {
		cli_error("run", "at most %d --%s options", CLI_MAX_TARGETS, name);
		return -EINVAL;
	}
	(target ? t->spec : t->label)[(*n)++] = val;
	return 1;
}

int cli_targets_check(const struct cli_targets *t, const char *suite, const char *give)
{
	if (!t->n) {
		cli_error("run", "%s: no target: give %s", suite, give);
		return -EINVAL;
	}
	if (t->nlabels > t->n) {
		cli_error("run", "%zu --label options for %zu --target options", t->nlabels, t->n);
		return -EINVAL;
	}
	return 0;
}

const char *cli_targets_label(const struct cli_targets *t, size_t i)
{
	return i < t->nlabels ? t->label[i] : t->spec[i];
}
