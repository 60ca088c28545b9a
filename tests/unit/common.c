/*
 * common.c - helpers shared by the unit tests (common.h).
 */
/* cmocka needs these first, in this order */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "common.h"

struct rl_target *ut_open(const char *spec)
{
	struct rl_build_ctx ctx;
	struct rl_target *t = NULL;
	struct rl_err err = {0};

	rl_build_ctx_init(&ctx);
	ctx.write_intent = true;
	ctx.quiet = true;
	if (rl_target_open(spec, &ctx, &t, &err))
		fail_msg("cannot open %s: %s", spec, err.msg);
	return t;
}
