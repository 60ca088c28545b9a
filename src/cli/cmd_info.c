/*
 * cmd_info.c - `raidlab info SPEC`: open a stack read-only and show it.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/print.h"
#include "core/registry.h"

static const char info_usage[] =
    "usage: raidlab info SPEC [--json]\n"
    "\n"
    "Opens the target read-only and prints its size, block size and the stack as a\n"
    "tree (array layouts, member states).  --json prints the tree as JSON.\n";

static int info_main(int argc, char **argv)
{
	const char *spec = NULL;
	bool json = false;
	struct rl_build_ctx ctx;
	struct rl_target *t;
	struct rl_err err = {0};

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--help")) {
			fputs(info_usage, stdout);
			return 0;
		} else if (argv[i][0] == '-' && argv[i][1] == '-') {
			cli_error("info", "unknown option '%s'", argv[i]);
			return 2;
		} else if (spec) {
			cli_error("info", "one target spec only (quote it if it has spaces)");
			return 2;
		} else
			spec = argv[i];
	}
	if (!spec) {
		fputs(info_usage, stderr);
		return 2;
	}
	rl_build_ctx_init(&ctx);
	ctx.buffered_ok = true;
	int rc = rl_target_open(spec, &ctx, &t, &err);
	if (rc) {
		cli_spec_error("info", spec, &err);
		return rc == -EINVAL ? 2 : 1;
	}
	struct json_object *tree = rl_target_tree(t);
	if (json) {
		printf("%s\n", json_object_to_json_string_ext(
		                   tree, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	} else {
		char size[64];
		cli_format_size(size, sizeof(size), (unsigned long long)t->size);
		printf("target: %s\nsize: %s\nblock size: %u bytes\nstack:\n", spec, size,
		       t->block_size);
		cli_print_tree(stdout, tree, 1);
	}
	json_object_put(tree);
	rl_target_finish(t);
	rl_target_close(t);
	return 0;
}

static struct cli_command info_cmd = {
    .name = "info",
    .summary = "show a target's size, block size and stack",
    .usage = info_usage,
    .main = info_main,
};
CLI_COMMAND_REGISTER(info_cmd)
