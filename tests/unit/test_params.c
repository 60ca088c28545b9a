/*
 * test_params.c - unit tests for the target parameter tables (core/params).
 *
 * A small table of every type drives the getters: defaults taken from the
 * table's text, values parsed and range-checked with messages that name the
 * key, the value and what was expected, the caller's value kept where the
 * table has no default, unknown keys rejected with the table's key list, and
 * a getter that asks for a name or C type the table does not have failing
 * loudly.  Then the renderers (help line, help blocks, markdown escaping),
 * the table checker, and every registered target type's own table.
 *
 * tsan-skip: single-threaded (no thread to race; tests/unit/threads.c holds it to that)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/params.h"
#include "core/registry.h"

static const struct rl_param tab[] = {
    {.name = "chunk", .type = RL_PARAM_SIZE, .def = "64k", .help = "stripe unit"},
    {.name = "qd", .type = RL_PARAM_U64, .def = "32", .min = 1, .max = 1024, .help = "depth"},
    {.name = "lat", .type = RL_PARAM_TIME, .def = "5us", .help = "latency"},
    {.name = "bw", .type = RL_PARAM_RATE, .def_note = "unlimited", .help = "bandwidth"},
    {.name = "pct", .type = RL_PARAM_PERCENT, .def = "75", .fmin = 1, .fmax = 100, .help = "p"},
    {.name = "nv", .type = RL_PARAM_BOOL, .def = "on", .help = "non-volatile"},
    {.name = "mode",
     .type = RL_PARAM_ENUM,
     .def = "back",
     .choices = (const char *const[]){"through", "back", NULL},
     .help = "write | policy"},
    {.name = "failed", .type = RL_PARAM_STR, .form = "K[+K...]", .help = "failed members"},
    {0},
};

static struct rl_spec_node *parse(const char *text)
{
	struct rl_spec_node *n = NULL;
	struct rl_err err = {0};

	if (rl_spec_parse(text, &n, &err))
		fail_msg("parsing '%s': %s", text, err.msg);
	return n;
}

static void check_err(const struct rl_err *err, const char *msg)
{
	if (strcmp(err->msg, msg))
		fail_msg("got error '%s', expected '%s'", err->msg, msg);
}

/* Absent keys take the table's defaults; a default-less key keeps the caller's value. */
static void test_defaults(void **state)
{
	struct rl_spec_node *n = parse("t(x)");
	struct rl_err err = {0};
	uint64_t chunk = 0, qd = 0, lat = 0, bw = 7;
	double pct = 0;
	bool nv = false;
	int mode = -1;
	const char *failed = "keep";

	(void)state;
	assert_int_equal(rl_param_u64(n, tab, "chunk", &chunk, &err), 0);
	assert_int_equal(rl_param_u64(n, tab, "qd", &qd, &err), 0);
	assert_int_equal(rl_param_u64(n, tab, "lat", &lat, &err), 0);
	assert_int_equal(rl_param_u64(n, tab, "bw", &bw, &err), 0);
	assert_int_equal(rl_param_double(n, tab, "pct", &pct, &err), 0);
	assert_int_equal(rl_param_bool(n, tab, "nv", &nv, &err), 0);
	assert_int_equal(rl_param_enum(n, tab, "mode", &mode, &err), 0);
	assert_int_equal(rl_param_str(n, tab, "failed", &failed, &err), 0);
	assert_int_equal(chunk, 65536);
	assert_int_equal(qd, 32);
	assert_int_equal(lat, 5000);
	assert_int_equal(bw, 7); /* no default in the table: the caller's value stays */
	assert_true(pct == 75.0);
	assert_true(nv);
	assert_int_equal(mode, 1);
	assert_string_equal(failed, "keep");
	assert_int_equal(rl_params_check(n, tab, &err), 0);
	rl_spec_free(n);
}

/*
 * Where the table has the default, the caller's variable is not read: it
 * may be unset (a bool holding 0xdf makes the sanitizer build abort on a
 * read, as parity_create's did).
 */
static void test_default_ignores_caller(void **state)
{
	struct rl_spec_node *n = parse("t(x)");
	struct rl_err err = {0};
	union {
		bool b;
		unsigned char c;
	} nv = {.c = 0xdf};

	(void)state;
	assert_int_equal(rl_param_bool(n, tab, "nv", &nv.b, &err), 0);
	assert_true(nv.b);
	rl_spec_free(n);
}

/* Given values are parsed by the type, and the key is marked used. */
static void test_values(void **state)
{
	struct rl_spec_node *n =
	    parse("t(x, chunk=1m, qd=1024, lat=2ms, bw=1GB/s, pct=20%, nv=off, mode=through, "
	          "failed=0+2)");
	struct rl_err err = {0};
	uint64_t chunk = 0, qd = 0, lat = 0, bw = 0;
	double pct = 0;
	bool nv = true;
	int mode = -1;
	const char *failed = NULL;

	(void)state;
	assert_int_equal(rl_param_u64(n, tab, "chunk", &chunk, &err), 0);
	assert_int_equal(rl_param_u64(n, tab, "qd", &qd, &err), 0);
	assert_int_equal(rl_param_u64(n, tab, "lat", &lat, &err), 0);
	assert_int_equal(rl_param_u64(n, tab, "bw", &bw, &err), 0);
	assert_int_equal(rl_param_double(n, tab, "pct", &pct, &err), 0);
	assert_int_equal(rl_param_bool(n, tab, "nv", &nv, &err), 0);
	assert_int_equal(rl_param_enum(n, tab, "mode", &mode, &err), 0);
	assert_int_equal(rl_param_str(n, tab, "failed", &failed, &err), 0);
	assert_int_equal(chunk, 1 << 20);
	assert_int_equal(qd, 1024);
	assert_int_equal(lat, 2000000);
	assert_int_equal(bw, 1000000000);
	assert_true(pct == 20.0);
	assert_false(nv);
	assert_int_equal(mode, 0);
	assert_string_equal(failed, "0+2");
	assert_int_equal(rl_params_check(n, tab, &err), 0);
	rl_spec_free(n);
}

/* Bad values: the key, the value and what was expected, at the value's position. */
static void test_bad_values(void **state)
{
	/*                              0         1         2
	 *                              0123456789012345678901234567 */
	struct rl_spec_node *n = parse("t(qd=0, mode=around, pct=0)");
	struct rl_err err = {0};
	uint64_t qd = 5;
	double pct = 3;
	int mode = 9;

	(void)state;
	assert_int_equal(rl_param_u64(n, tab, "qd", &qd, &err), -EINVAL);
	check_err(&err, "position 5: qd: expected a whole number from 1 to 1024, got '0'");
	assert_int_equal(qd, 5);
	assert_int_equal(rl_param_enum(n, tab, "mode", &mode, &err), -EINVAL);
	assert_int_equal(err.pos, 13);
	assert_non_null(strstr(err.msg, "'around'"));
	assert_non_null(strstr(err.msg, "through, back"));
	assert_int_equal(mode, 9);
	assert_int_equal(rl_param_double(n, tab, "pct", &pct, &err), -EINVAL);
	assert_int_equal(err.pos, 25);
	assert_non_null(strstr(err.msg, "pct"));
	rl_spec_free(n);
}

/* A key the table does not name: the target, the key and the table's keys. */
static void test_unknown_key(void **state)
{
	/*                              0         1
	 *                              012345678901234 */
	struct rl_spec_node *n = parse("raid9(a, chunkk=1)");
	struct rl_err err = {0};
	uint64_t chunk = 0;

	(void)state;
	assert_int_equal(rl_param_u64(n, tab, "chunk", &chunk, &err), 0);
	assert_int_equal(rl_params_check(n, tab, &err), -EINVAL);
	check_err(&err, "position 9: raid9 has no parameter 'chunkk' (known: chunk, qd, lat, bw, "
	                "pct, nv, mode, failed)");
	rl_spec_free(n);
}

/* Code and table disagreeing is an error, not a silent default. */
static void test_internal_errors(void **state)
{
	struct rl_spec_node *n = parse("t(chunk=1m)");
	struct rl_err err = {0};
	uint64_t u = 0;
	bool b = false;
	int e = 0;

	(void)state;
	assert_int_equal(rl_param_u64(n, tab, "chunkk", &u, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "internal error: t reads parameter 'chunkk', which its "
	                                "table lacks"));
	assert_int_equal(rl_param_bool(n, tab, "chunk", &b, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "gives another type"));
	assert_int_equal(rl_param_enum(n, tab, "nv", &e, &err), -EINVAL);
	assert_int_equal(rl_param_u64(n, tab, "pct", &u, &err), -EINVAL);
	assert_int_equal(u, 0);
	rl_spec_free(n);
}

static char *render(void (*fn)(FILE *, const struct rl_param *), const struct rl_param *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, t);
	fclose(f);
	return buf;
}

static void test_render(void **state)
{
	char *s;

	(void)state;
	s = render(rl_params_print_line, tab);
	assert_string_equal(s, "chunk=SIZE (default 64k), qd=N (default 32), lat=TIME (default "
	                       "5us), bw=RATE (default: unlimited), pct=PCT (default 75), "
	                       "nv=on|off (default on), mode=through|back (default back), "
	                       "failed=K[+K...]");
	free(s);
	s = render(rl_params_print_markdown, tab);
	assert_non_null(strstr(s, "| parameter | default | meaning |\n|---|---|---|\n"
	                          "| `chunk=SIZE` | `64k` | stripe unit |\n"));
	assert_non_null(strstr(s, "| `bw=RATE` | unlimited | bandwidth |\n"));
	assert_non_null(strstr(s, "| `mode=through\\|back` | `back` | write \\| policy |\n"));
	assert_non_null(strstr(s, "| `failed=K[+K...]` | none | failed members |\n"));
	free(s);
	s = render(rl_params_print_help, tab);
	assert_non_null(strstr(s, "  qd=N  default 32\n      depth\n"));
	assert_non_null(strstr(s, "  bw=RATE  default: unlimited\n      bandwidth\n"));
	free(s);
}

static void check_invalid(const struct rl_param *t, const char *why)
{
	char msg[256] = "";

	assert_int_equal(rl_params_validate(t, msg, sizeof(msg)), -EINVAL);
	if (!strstr(msg, why))
		fail_msg("validate said '%s', expected '%s'", msg, why);
}

static void test_validate(void **state)
{
	char msg[256] = "";

	(void)state;
	assert_int_equal(rl_params_validate(tab, msg, sizeof(msg)), 0);
	check_invalid(
	    (const struct rl_param[]){{.name = "a", .help = "x"}, {.name = "a", .help = "y"}, {0}},
	    "'a' is named twice");
	check_invalid((const struct rl_param[]){{.name = "a", .def = "12q", .help = "x"}, {0}},
	              "'a' has a default that its type does not accept");
	check_invalid(
	    (const struct rl_param[]){
	        {.name = "a", .type = RL_PARAM_U64, .def = "5", .min = 6, .max = 9, .help = "x"},
	        {0}},
	    "'a' has a default");
	check_invalid(
	    (const struct rl_param[]){{.name = "e", .type = RL_PARAM_ENUM, .help = "x"}, {0}},
	    "'e' is an enum without choices");
	check_invalid((const struct rl_param[]){{.name = "e",
	                                         .type = RL_PARAM_ENUM,
	                                         .def = "c",
	                                         .choices = (const char *const[]){"a", "b", NULL},
	                                         .help = "x"},
	                                        {0}},
	              "'e' has a default");
	check_invalid((const struct rl_param[]){{.name = "h"}, {0}}, "'h' has no help");
}

/* Every registered type's table is sound, and its unknown-key message lists it. */
static void test_registered_tables(void **state)
{
	unsigned types = 0, tables = 0;

	(void)state;
	for (const struct rl_target_type *t = rl_target_type_first(); t; t = t->next, types++) {
		char msg[256] = "";
		if (!t->params)
			continue;
		tables++;
		if (rl_params_validate(t->params, msg, sizeof(msg)))
			fail_msg("%s: %s", t->name, msg);
		if (!t->args && !t->params[0].name)
			fail_msg("%s: neither arguments nor parameters", t->name);
	}
	assert_true(types >= 15);
	assert_true(tables >= 14);
}

/* A real type: defaults from its table, unknown keys listed from it. */
static void test_real_target(void **state)
{
	struct rl_target *t = NULL;
	struct rl_build_ctx ctx;
	struct rl_err err = {0};

	(void)state;
	rl_build_ctx_init(&ctx);
	assert_int_equal(rl_target_open("mem()", &ctx, &t, &err), 0);
	assert_int_equal(t->size, 64u << 20);
	assert_int_equal(t->block_size, 512);
	rl_target_close(t);
	assert_int_equal(rl_target_open("link(null(), bww=1)", &ctx, &t, &err), -EINVAL);
	check_err(&err, "position 13: link has no parameter 'bww' (known: bw, duplex, lat, iops, "
	                "setup-bw, profile)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_defaults),
	    cmocka_unit_test(test_default_ignores_caller),
	    cmocka_unit_test(test_values),
	    cmocka_unit_test(test_bad_values),
	    cmocka_unit_test(test_unknown_key),
	    cmocka_unit_test(test_internal_errors),
	    cmocka_unit_test(test_render),
	    cmocka_unit_test(test_validate),
	    cmocka_unit_test(test_registered_tables),
	    cmocka_unit_test(test_real_target),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
