/*
 * test_sweep_expand.c - alternatives inside target specs (sweep/expand.h).
 *
 * Each case gives a text and the exact list of expansions expected, in
 * order, with the axis names and each expansion's value per axis; every
 * expansion must also parse as a spec (rl_spec_parse), which is what a
 * sweep does next.  Malformed texts are checked for the error's exact
 * position and a message substring.
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

#include "sweep/expand.h"

/* Expand @text; expect @n texts, and if @axes the axis names joined by '|'. */
static void expect(const char *text, const char *axes, size_t n, const char *const *texts)
{
	struct sw_expansion x;
	struct rl_err err = {0};
	char names[256] = "";

	if (sw_expand(text, &x, &err))
		fail_msg("'%s': %s", text, err.msg);
	if (x.n != n)
		fail_msg("'%s': %zu expansions, expected %zu", text, x.n, n);
	for (size_t i = 0; i < n; i++) {
		struct rl_spec_node *node = NULL;
		if (strcmp(x.items[i].text, texts[i]))
			fail_msg("'%s' #%zu: '%s', expected '%s'", text, i, x.items[i].text,
			         texts[i]);
		if (rl_spec_parse(x.items[i].text, &node, &err))
			fail_msg("'%s' does not parse: %s", x.items[i].text, err.msg);
		rl_spec_free(node);
	}
	for (size_t a = 0; a < x.naxes; a++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", a ? "|" : "",
		         x.axes[a]);
	if (axes)
		assert_string_equal(names, axes);
	sw_expansion_free(&x);
}

static void test_plain(void **state)
{
	(void)state;
	expect("raid0(mem x2)", "", 1, (const char *[]){"raid0(mem x2)"});
	expect("\"a{b,c}\"", "", 1, (const char *[]){"\"a{b,c}\""});
}

static void test_levels_counts_values(void **state)
{
	(void)state;
	expect("raid{0,10}(ssd(850evo) x{2,4}, chunk={64k,256k})", "level|count|chunk", 8,
	       (const char *[]){
	           "raid0(ssd(850evo) x2, chunk=64k)", "raid0(ssd(850evo) x2, chunk=256k)",
	           "raid0(ssd(850evo) x4, chunk=64k)", "raid0(ssd(850evo) x4, chunk=256k)",
	           "raid10(ssd(850evo) x2, chunk=64k)", "raid10(ssd(850evo) x2, chunk=256k)",
	           "raid10(ssd(850evo) x4, chunk=64k)", "raid10(ssd(850evo) x4, chunk=256k)"});
	expect("controller(perc-h730p, raid0(ssd(850evo) x4), write={back,through})", "write", 2,
	       (const char *[]){"controller(perc-h730p, raid0(ssd(850evo) x4), write=back)",
	                        "controller(perc-h730p, raid0(ssd(850evo) x4), write=through)"});
}

static void test_commas_inside_parens(void **state)
{
	(void)state;
	expect("raid0({ssd(a, spare=7%),mem} x2)", "alt1", 2,
	       (const char *[]){"raid0(ssd(a, spare=7%) x2)", "raid0(mem x2)"});
}

static void test_nested_and_range(void **state)
{
	(void)state;
	expect("{raid0(mem x{2..3}),mem}", "alt1|count", 3,
	       (const char *[]){"raid0(mem x2)", "raid0(mem x3)", "mem"});
	expect("raid0(mem x{2..4})", "count", 3,
	       (const char *[]){"raid0(mem x2)", "raid0(mem x3)", "raid0(mem x4)"});
}

/* The values each expansion records, axis by axis (NULL: not on it). */
static void test_values(void **state)
{
	struct sw_expansion x;
	struct rl_err err;

	(void)state;
	assert_int_equal(sw_expand("{raid{0,1}(mem x2),mem}", &x, &err), 0);
	assert_int_equal(x.n, 3);
	assert_int_equal(x.naxes, 2);
	assert_string_equal(x.axes[0], "alt1");
	assert_string_equal(x.axes[1], "level");
	assert_string_equal(x.items[0].values[0], "raid0(mem x2)");
	assert_string_equal(x.items[0].values[1], "raid0");
	assert_string_equal(x.items[1].values[1], "raid1");
	assert_string_equal(x.items[2].values[0], "mem");
	assert_null(x.items[2].values[1]);
	sw_expansion_free(&x);
	/* the same key twice: the second axis is chunk#2 */
	assert_int_equal(
	    sw_expand("raid0(raid0(mem x2, chunk={4k,8k}) x2, chunk={64k,1m})", &x, &err), 0);
	assert_int_equal(x.n, 4);
	assert_string_equal(x.axes[1], "chunk#2");
	assert_string_equal(x.items[3].values[0], "8k");
	assert_string_equal(x.items[3].values[1], "1m");
	sw_expansion_free(&x);
}

static void test_errors(void **state)
{
	static const struct {
		const char *text;
		size_t pos;
		const char *msg;
	} cases[] = {
	    {"raid{0,10(mem x2)", 4, "not closed"},    {"raid0(mem x2)}", 13, "without a '{'"},
	    {"raid{0,}(mem)", 7, "empty alternative"}, {"raid{}(mem)", 5, "empty alternative"},
	    {"raid0(mem, x{2,4)", 16, "')' closes"},   {"raid0({mem)}", 10, "')' closes"},
	    {"{raid0(mem}", 10, "before the ')'"},     {"mem x{4..2}", 6, "range"},
	    {"mem x{a..2}", 6, "whole numbers"},       {"{{{{{{{{{a}}}}}}}}}", 8, "nest"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sw_expansion x;
		struct rl_err err = {0};
		char prefix[32];
		if (sw_expand(cases[i].text, &x, &err) != -EINVAL)
			fail_msg("'%s' was accepted", cases[i].text);
		sw_expansion_free(&x);
		if (err.pos != cases[i].pos)
			fail_msg("'%s': position %zu, expected %zu (%s)", cases[i].text, err.pos,
			         cases[i].pos, err.msg);
		snprintf(prefix, sizeof(prefix), "position %zu: ", cases[i].pos);
		assert_true(!strncmp(err.msg, prefix, strlen(prefix)));
		if (!strstr(err.msg, cases[i].msg))
			fail_msg("'%s': '%s' lacks '%s'", cases[i].text, err.msg, cases[i].msg);
	}
}

static void test_too_many(void **state)
{
	struct sw_expansion x;
	struct rl_err err = {0};

	(void)state;
	/* 8^5 = 32768 > SW_EXPAND_MAX */
	assert_int_equal(sw_expand("{1..8}{1..8}{1..8}{1..8}{1..8}", &x, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "more than"));
	sw_expansion_free(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plain),
	    cmocka_unit_test(test_levels_counts_values),
	    cmocka_unit_test(test_commas_inside_parens),
	    cmocka_unit_test(test_nested_and_range),
	    cmocka_unit_test(test_values),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_too_many),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
