/*
 * test_suggest.c - nearest names first (core/suggest.c): the edit distance,
 * the stable sort by it, and the list an error prints.
 *
 * tsan-skip: single-threaded (no thread to race; tests/unit/threads.c holds it to that)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/suggest.h"

#include <string.h>

static void test_distance(void **state)
{
	(void)state;
	assert_int_equal(rl_edit_distance("cdm", "cdm"), 0);
	assert_int_equal(rl_edit_distance("cdm8", "cdm"), 1);
	assert_int_equal(rl_edit_distance("CDM", "cdm"), 0); /* case ignored */
	assert_int_equal(rl_edit_distance("rnu", "run"), 1); /* a transposition */
	assert_int_equal(rl_edit_distance("", "atto"), 4);
	char longname[60];
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	assert_true(rl_edit_distance(longname, "a") == SIZE_MAX);
}

static void test_sort(void **state)
{
	(void)state;
	const char *v[] = {"intel-x25v-40", "samsung-850evo-500", "sx8200pro-256",
	                   "ocz-vertex-120"};
	rl_suggest_sort("sx8200", v, 4);
	assert_string_equal(v[0], "sx8200pro-256"); /* contains what was typed */
	const char *s[] = {"atto", "asssd", "asssd-compr", "asssd-copy", "cdm"};
	rl_suggest_sort("asssd-cpy", s, 5);
	assert_string_equal(s[0], "asssd-copy"); /* one edit beats containment */
	assert_string_equal(s[1], "asssd");
	const char *c[] = {"atto", "cdm", "cdm5", "cdm6"};
	rl_suggest_sort("cdm8", c, 4);
	assert_string_equal(c[0], "cdm"); /* equally near: registry order kept */
	assert_string_equal(c[1], "cdm5");
	assert_string_equal(c[2], "cdm6");
	assert_string_equal(c[3], "atto");
}

static void test_list(void **state)
{
	(void)state;
	const char *v[] = {"atto", "cdm", "hdtune"};
	char buf[64], small[16];
	assert_string_equal(rl_suggest_list("hdtun", v, 3, buf, sizeof(buf)), "hdtune, atto, cdm");
	const char *w[] = {"atto", "cdm", "hdtune"};
	rl_suggest_list("atto", w, 3, small, sizeof(small));
	assert_true(strlen(small) < sizeof(small));
	assert_non_null(strstr(small, "..."));
	assert_int_equal(strncmp(small, "atto", 4), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_distance),
	    cmocka_unit_test(test_sort),
	    cmocka_unit_test(test_list),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
