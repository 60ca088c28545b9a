/*
 * test_spec.c - unit tests for the target-spec parser and the unit parsers.
 *
 * Layout: helpers first, then one group of tests per area - the tree the
 * parser builds for valid specs (the documented examples, nesting,
 * repetition, quoting, whitespace), canonical formatting and round trips,
 * a table of malformed specs each checked for its exact error position and a
 * message substring, the rl_parse_* unit parsers (valid, invalid, overflow
 * and boundary values, message buffers), and the rl_spec_get_* helpers with
 * rl_spec_check_unused.  Round trips compare trees through their canonical
 * text, which is itself checked against literal expectations.
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

#include "core/spec.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* --- helpers --- */

static struct rl_spec_node *parse_ok(const char *text)
{
	struct rl_spec_node *node = NULL;
	struct rl_err err = {0};
	int rc = rl_spec_parse(text, &node, &err);

	if (rc != 0)
		fail_msg("parsing '%s' failed: %s", text, err.msg);
	assert_non_null(node);
	return node;
}

/* Parses @text, checks its canonical form, and that re-parsing is stable. */
static void check_format(const char *text, const char *canonical)
{
	struct rl_spec_node *a = parse_ok(text), *b;
	char *fa = rl_spec_format(a), *fb;

	assert_non_null(fa);
	if (strcmp(fa, canonical) != 0)
		fail_msg("format of '%s': got '%s', expected '%s'", text, fa, canonical);
	b = parse_ok(fa);
	fb = rl_spec_format(b);
	assert_non_null(fb);
	assert_string_equal(fa, fb);
	free(fa);
	free(fb);
	rl_spec_free(a);
	rl_spec_free(b);
}

static void check_parse_error(const char *text, size_t pos, const char *substring)
{
	struct rl_spec_node *node = (struct rl_spec_node *)&node; /* must be reset */
	struct rl_err err = {0};
	char prefix[64];
	int rc = rl_spec_parse(text, &node, &err);

	if (rc == 0)
		fail_msg("'%s' parsed, expected an error at %zu", text, pos);
	assert_int_equal(rc, -EINVAL);
	assert_null(node);
	if (err.pos != pos)
		fail_msg("'%s': error at %zu, expected %zu (%s)", text, err.pos, pos, err.msg);
	snprintf(prefix, sizeof prefix, "position %zu: ", pos);
	if (strncmp(err.msg, prefix, strlen(prefix)) != 0)
		fail_msg("'%s': message lacks '%s': %s", text, prefix, err.msg);
	if (!strstr(err.msg, substring))
		fail_msg("'%s': message lacks '%s': %s", text, substring, err.msg);
}

static void assert_word(const struct rl_spec_node *n, const char *name)
{
	assert_non_null(n);
	assert_false(n->is_call);
	assert_string_equal(n->name, name);
	assert_int_equal(n->nargs, 0);
	assert_int_equal(n->nkv, 0);
}

static void assert_call(const struct rl_spec_node *n, const char *name, size_t nargs, size_t nkv)
{
	assert_non_null(n);
	assert_true(n->is_call);
	assert_string_equal(n->name, name);
	assert_int_equal(n->nargs, nargs);
	assert_int_equal(n->nkv, nkv);
}

static void assert_kv(const struct rl_spec_node *n, size_t i, const char *key, const char *value)
{
	assert_true(i < n->nkv);
	assert_string_equal(n->kv[i].key, key);
	assert_string_equal(n->kv[i].value, value);
}

/* Builds "a(a(...a(leaf)...))" with @depth calls. */
static char *nested(size_t depth)
{
	size_t i, len = depth * 3 + 5;
	char *s = malloc(len), *p = s;

	assert_non_null(s);
	for (i = 0; i < depth; i++) {
		*p++ = 'a';
		*p++ = '(';
	}
	memcpy(p, "leaf", 4);
	p += 4;
	for (i = 0; i < depth; i++)
		*p++ = ')';
	*p = '\0';
	return s;
}

/* --- rl_err_set --- */

static void test_err_set(void **state)
{
	struct rl_err err;
	char big[2000];

	(void)state;
	assert_int_equal(rl_err_set(&err, 12, "bad %s", "thing"), -EINVAL);
	assert_int_equal(err.pos, 12);
	assert_string_equal(err.msg, "position 12: bad thing");

	assert_int_equal(rl_err_set(&err, SIZE_MAX, "no position"), -EINVAL);
	assert_int_equal(err.pos, SIZE_MAX);
	assert_string_equal(err.msg, "no position");

	memset(big, 'z', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	assert_int_equal(rl_err_set(&err, 3, "%s", big), -EINVAL);
	assert_int_equal(strlen(err.msg), sizeof err.msg - 1);
	assert_memory_equal(err.msg, "position 3: zzz", 15);

	assert_int_equal(rl_err_set(NULL, 1, "ignored"), -EINVAL);
}

/* --- valid specs --- */

static void test_examples(void **state)
{
	struct rl_spec_node *n, *c;
	size_t i;

	(void)state;
	n = parse_ok("/dev/nvme0n1");
	assert_word(n, "/dev/nvme0n1");
	assert_int_equal(n->pos, 0);
	rl_spec_free(n);

	n = parse_ok("file(/mnt/scratch/raidlab.img, size=8g)");
	assert_call(n, "file", 1, 1);
	assert_word(n->args[0], "/mnt/scratch/raidlab.img");
	assert_kv(n, 0, "size", "8g");
	rl_spec_free(n);

	n = parse_ok("raid0(ssd(sx8200pro) x3, chunk=128k)");
	assert_call(n, "raid0", 3, 1);
	for (i = 0; i < 3; i++) {
		assert_call(n->args[i], "ssd", 1, 0);
		assert_word(n->args[i]->args[0], "sx8200pro");
	}
	assert_kv(n, 0, "chunk", "128k");
	rl_spec_free(n);

	n = parse_ok("link(raid0(ssd(sx8200pro) x3), bw=3.9GB/s)");
	assert_call(n, "link", 1, 1);
	assert_call(n->args[0], "raid0", 3, 0);
	assert_kv(n, 0, "bw", "3.9GB/s");
	rl_spec_free(n);

	n = parse_ok("cache(raid10(ssd(evo850) x4, layout=n2, chunk=64k), write=back, read=ahead, "
	             "size=1g)");
	assert_call(n, "cache", 1, 3);
	assert_kv(n, 0, "write", "back");
	assert_kv(n, 1, "read", "ahead");
	assert_kv(n, 2, "size", "1g");
	c = n->args[0];
	assert_call(c, "raid10", 4, 2);
	assert_kv(c, 0, "layout", "n2");
	assert_kv(c, 1, "chunk", "64k");
	for (i = 0; i < 4; i++)
		assert_word(c->args[i]->args[0], "evo850");
	rl_spec_free(n);

	n = parse_ok("raid1(/dev/loop0, faulty(/dev/loop1, fail-after=10000))");
	assert_call(n, "raid1", 2, 0);
	assert_word(n->args[0], "/dev/loop0");
	assert_call(n->args[1], "faulty", 1, 1);
	assert_word(n->args[1]->args[0], "/dev/loop1");
	assert_kv(n->args[1], 0, "fail-after", "10000");
	rl_spec_free(n);
}

static void test_words_and_calls(void **state)
{
	struct rl_spec_node *n;

	(void)state;
	n = parse_ok("null()");
	assert_call(n, "null", 0, 0);
	rl_spec_free(n);

	n = parse_ok("  null ( \t )  ");
	assert_call(n, "null", 0, 0);
	assert_int_equal(n->pos, 2);
	rl_spec_free(n);

	/* Words may hold anything but the separators: dots, colons, UTF-8. */
	n = parse_ok("raid0(disk-1.img, host:/exp, \xc3\xa9t\xc3\xa9.img, x3, 12)");
	assert_call(n, "raid0", 5, 0);
	assert_word(n->args[0], "disk-1.img");
	assert_word(n->args[1], "host:/exp");
	assert_word(n->args[2], "\xc3\xa9t\xc3\xa9.img");
	assert_word(n->args[3], "x3"); /* not after whitespace: a word */
	assert_word(n->args[4], "12");
	rl_spec_free(n);

	/* Backslashes are literal outside quotes. */
	n = parse_ok("a\\b");
	assert_word(n, "a\\b");
	rl_spec_free(n);

	/* Nesting in every position. */
	n = parse_ok("a(b(c(d(e))), f(g()), h)");
	assert_call(n, "a", 3, 0);
	assert_call(n->args[0]->args[0]->args[0], "d", 1, 0);
	assert_word(n->args[0]->args[0]->args[0]->args[0], "e");
	assert_call(n->args[1]->args[0], "g", 0, 0);
	assert_word(n->args[2], "h");
	rl_spec_free(n);
}

static void test_repetition(void **state)
{
	struct rl_spec_node *n;
	size_t i;

	(void)state;
	n = parse_ok("raid0(ssd(a, wear=5) x4, b x1, c)");
	assert_call(n, "raid0", 6, 0);
	for (i = 0; i < 4; i++) {
		assert_call(n->args[i], "ssd", 1, 1);
		assert_kv(n->args[i], 0, "wear", "5");
		assert_int_equal(n->args[i]->pos, 6); /* copies keep the source position */
		assert_int_equal(n->args[i]->kv[0].value_pos, 18);
	}
	/* Deep copies: nothing is shared. */
	assert_ptr_not_equal(n->args[0], n->args[1]);
	assert_ptr_not_equal(n->args[0]->name, n->args[1]->name);
	assert_ptr_not_equal(n->args[0]->args[0], n->args[1]->args[0]);
	assert_ptr_not_equal(n->args[0]->kv, n->args[1]->kv);
	assert_ptr_not_equal(n->args[0]->kv[0].value, n->args[1]->kv[0].value);
	n->args[0]->kv[0].used = true;
	assert_false(n->args[1]->kv[0].used);
	assert_word(n->args[4], "b");
	assert_word(n->args[5], "c");
	rl_spec_free(n);

	/* Upper bound, any whitespace before the count, nested repetitions. */
	n = parse_ok("raid0(a x1024)");
	assert_int_equal(n->nargs, 1024);
	assert_word(n->args[1023], "a");
	rl_spec_free(n);

	n = parse_ok("r(a\n\tx2,\"q w\"  x3)");
	assert_int_equal(n->nargs, 5);
	assert_word(n->args[4], "q w");
	rl_spec_free(n);

	n = parse_ok("raid10(raid1(ssd(a) x2) x3)");
	assert_call(n, "raid10", 3, 0);
	for (i = 0; i < 3; i++)
		assert_call(n->args[i], "raid1", 2, 0);
	rl_spec_free(n);

	/* Leading zeros are fine; the value counts. */
	n = parse_ok("r(a x007)");
	assert_int_equal(n->nargs, 7);
	rl_spec_free(n);

	/* Big but within the expansion budget: 64 * 1 + 64 * 1000 items. */
	n = parse_ok("r(s(a x1000) x64)");
	assert_int_equal(n->nargs, 64);
	assert_int_equal(n->args[63]->nargs, 1000);
	rl_spec_free(n);
}

static void test_quoting(void **state)
{
	struct rl_spec_node *n;

	(void)state;
	n = parse_ok(
	    "file(\"/mnt/my disk (1).img\", label=\"a, b=c\", note=\"say \\\"hi\\\" \\\\o/\")");
	assert_call(n, "file", 1, 2);
	assert_word(n->args[0], "/mnt/my disk (1).img");
	assert_kv(n, 0, "label", "a, b=c");
	assert_kv(n, 1, "note", "say \"hi\" \\o/");
	rl_spec_free(n);

	n = parse_ok("f(k=\"\", \"\")");
	assert_kv(n, 0, "k", "");
	assert_word(n->args[0], "");
	rl_spec_free(n);

	n = parse_ok("\"/tmp/top level.img\"");
	assert_word(n, "/tmp/top level.img");
	rl_spec_free(n);

	/* Whitespace inside quotes is kept, including newlines and tabs. */
	n = parse_ok("f(k=\" a\tb\nc \")");
	assert_kv(n, 0, "k", " a\tb\nc ");
	rl_spec_free(n);
}

static void test_whitespace(void **state)
{
	static const char *const variants[] = {
	    "raid0(ssd(a) x3, chunk=128k)",
	    " raid0 ( ssd ( a ) x3 , chunk = 128k ) ",
	    "raid0(\n\tssd(a)\tx3,\n\tchunk=\n128k\n)\n",
	    "\r\n\vraid0(ssd(a) \f x3,chunk=128k)",
	    "raid0(chunk=128k, ssd(a), ssd(a), ssd(a))",
	    "raid0(ssd(a) x2, chunk=128k, ssd( a ))",
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(variants); i++)
		check_format(variants[i], "raid0(ssd(a) x3, chunk=128k)");
}

static void test_interleaved(void **state)
{
	struct rl_spec_node *n;

	(void)state;
	n = parse_ok("r(a, k=1, b, j=2, c)");
	assert_call(n, "r", 3, 2);
	assert_word(n->args[0], "a");
	assert_word(n->args[1], "b");
	assert_word(n->args[2], "c");
	assert_kv(n, 0, "k", "1");
	assert_kv(n, 1, "j", "2");
	rl_spec_free(n);
	check_format("r(a, k=1, b, j=2, c)", "r(a, b, c, k=1, j=2)");
}

static void test_format(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
	    {"/dev/nvme0n1", "/dev/nvme0n1"},
	    {"file(/mnt/scratch/raidlab.img, size=8g)", "file(/mnt/scratch/raidlab.img, size=8g)"},
	    {"raid0(ssd(sx8200pro) x3, chunk=128k)", "raid0(ssd(sx8200pro) x3, chunk=128k)"},
	    {"link(raid0(ssd(sx8200pro) x3), bw=3.9GB/s)",
	     "link(raid0(ssd(sx8200pro) x3), bw=3.9GB/s)"},
	    {"cache(raid10(ssd(evo850) x4, layout=n2, chunk=64k), write=back, read=ahead, size=1g)",
	     "cache(raid10(ssd(evo850) x4, layout=n2, chunk=64k), write=back, read=ahead, "
	     "size=1g)"},
	    {"raid1(/dev/loop0, faulty(/dev/loop1, fail-after=10000))",
	     "raid1(/dev/loop0, faulty(/dev/loop1, fail-after=10000))"},
	    {"null( )", "null()"},
	    {"r(ssd(a), ssd(a), ssd(b), ssd(a))", "r(ssd(a) x2, ssd(b), ssd(a))"},
	    {"r(ssd(a, k=1), ssd(a, k=2))", "r(ssd(a, k=1), ssd(a, k=2))"},
	    {"r(a(), a)", "r(a(), a)"},
	    {"r(a x1024, a x2)", "r(a x1024, a x2)"},
	    {"r(a x1000, a x30)", "r(a x1024, a x6)"},
	    {"r(\"plain\", k=\"v\")", "r(plain, k=v)"},
	    {"r(\"x3\")", "r(x3)"},
	    {"r(\"a b\" x2)", "r(\"a b\" x2)"},
	    {"r(k=\"\")", "r(k=\"\")"},
	    {"\"\"", "\"\""},
	    {"r(k=\"a\\\\b\")", "r(k=a\\b)"},
	    {"r(k=\"q\\\"\")", "r(k=\"q\\\"\")"},
	    {"r(k=\"(,=)\")", "r(k=\"(,=)\")"},
	    {"r(k=\"tab\there\")", "r(k=\"tab\there\")"},
	    {"r(k=a\\b)", "r(k=a\\b)"},
	    {"r(\xc3\xa9=\xe2\x82\xac)", "r(\xc3\xa9=\xe2\x82\xac)"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		check_format(cases[i].in, cases[i].out);
	assert_null(rl_spec_format(NULL));
	rl_spec_free(NULL);
}

static void test_positions(void **state)
{
	struct rl_spec_node *n;

	(void)state;
	/*       0         1         2         3
	 *       0123456789012345678901234567890123 */
	n = parse_ok("raid0( ssd(a) , chunk = \"64k\" )");
	assert_int_equal(n->pos, 0);
	assert_int_equal(n->args[0]->pos, 7);
	assert_int_equal(n->args[0]->args[0]->pos, 11);
	assert_int_equal(n->kv[0].key_pos, 16);
	assert_int_equal(n->kv[0].value_pos, 24);
	assert_false(n->kv[0].used);
	rl_spec_free(n);
}

static void test_limits(void **state)
{
	struct rl_spec_node *n = NULL;
	struct rl_err err;
	char *s;

	(void)state;
	/* 64 nested calls are fine, the 65th '(' is not. */
	s = nested(64);
	n = parse_ok(s);
	free(s);
	rl_spec_free(n);
	s = nested(65);
	check_parse_error(s, 129, "nesting deeper than 64 levels");
	free(s);
	/* Very deep input fails at the limit without recursing further. */
	s = nested(100000);
	check_parse_error(s, 129, "nesting deeper than 64 levels");
	free(s);

	/* Repetition may not blow up: 1025 * 1024 nodes is over the budget. */
	check_parse_error("raid0(raid0(raid0(a x1024) x1024) x1024)", 27, "spec too large");
	check_parse_error("r(s(a, k=1, j=2, i=3) x1024, t(b x1024) x1024)", 40, "spec too large");

	/* No fixed limits on lengths: a long word and a long quoted value. */
	s = malloc(100003);
	assert_non_null(s);
	memset(s, 'w', 100002);
	s[100002] = '\0';
	n = parse_ok(s);
	assert_int_equal(strlen(n->name), 100002);
	rl_spec_free(n);
	s[0] = 'f';
	s[1] = '(';
	s[2] = 'k';
	s[3] = '=';
	s[4] = '"';
	s[100000] = '"';
	s[100001] = ')';
	n = parse_ok(s);
	assert_int_equal(strlen(n->kv[0].value), 100000 - 5);
	rl_spec_free(n);
	free(s);

	/* NULL arguments. */
	assert_int_equal(rl_spec_parse(NULL, &n, &err), -EINVAL);
	assert_null(n);
	assert_int_equal(err.pos, SIZE_MAX);
	assert_int_equal(rl_spec_parse("a", NULL, &err), -EINVAL);
	assert_int_equal(rl_spec_parse("a(", &n, NULL), -EINVAL);
	assert_null(n);
}

/* --- malformed specs --- */

static void test_malformed(void **state)
{
	static const struct {
		const char *text;
		size_t pos;
		const char *msg;
	} cases[] = {
	    {"", 0, "empty spec"},
	    {"  \t\n ", 0, "empty spec"},
	    {"raid0(a", 7, "expected ')' or ',' but found end of spec"},
	    {"raid0(", 6, "expected an argument but found end of spec"},
	    {"raid0(a))", 8, "expected end of spec but found ')'"},
	    {")", 0, "expected a target name, path or call but found ')'"},
	    {"(a)", 0, "expected a target name, path or call but found '('"},
	    {"=", 0, "but found '='"},
	    {"raid0(a,,b)", 8, "expected an argument but found ','"},
	    {"raid0(a,)", 8, "expected an argument but found ')'"},
	    {"raid0(,a)", 6, "expected an argument but found ','"},
	    {"raid0(a,\n)", 9, "expected an argument but found ')'"},
	    {"raid0(=5)", 6, "expected an argument but found '='"},
	    {"raid0(a, =5)", 9, "a parameter needs a name"},
	    {"raid0(chunk=)", 12, "expected a value for 'chunk' but found ')'"},
	    {"raid0(chunk=,a)", 12, "expected a value for 'chunk' but found ','"},
	    {"raid0(k = )", 10, "expected a value for 'k' but found ')'"},
	    {"raid0(k=", 8, "expected a value for 'k' but found end of spec"},
	    {"raid0(a=b=c)", 9, "expected ')' or ',' but found '='"},
	    {"raid0(k=v(x))", 9, "expected ')' or ',' but found '('"},
	    {"raid0(a x0)", 8, "repetition count must be 1..1024, got x0"},
	    {"raid0(a x1025)", 8, "repetition count must be 1..1024, got x1025"},
	    {"raid0(a x99999999999999999999999)", 8, "must be 1..1024, got x9999"},
	    {"raid0(a xx)", 8, "repetition count must be 1..1024, got xx"},
	    {"raid0(a x)", 8, "repetition count must be 1..1024, got x"},
	    {"raid0(a x-1)", 8, "got x-1"},
	    {"raid0(a x3 x3)", 11, "expected ')' or ',' but found 'x3'"},
	    {"raid0(ssd(a)x3)", 12, "a repetition needs a space before it"},
	    {"raid0(chunk=64k x2)", 16,
	     "applies to positional arguments, not to parameter 'chunk'"},
	    {"ssd(a) x3", 7, "only allowed inside a call's arguments"},
	    {"raid0(chunk=1,chunk=2)", 14, "parameter 'chunk' given twice (first at position 6)"},
	    {"r(a, k=1, b, k=1)", 13, "parameter 'k' given twice (first at position 5)"},
	    {"file(\"abc)", 5, "unterminated quoted string: expected a closing '\"'"},
	    {"file(\"abc\\", 5, "unterminated quoted string"},
	    {"file(k=\"abc\\\")", 7, "but found end of spec"},
	    {"file(\"a\\qb\")", 7, "unknown escape '\\q'"},
	    {"file(\"a\\n\")", 7, "unknown escape '\\n'"},
	    {"file(\"a\x02\")", 7, "found control character 0x02 in quoted string"},
	    {"a\x01", 1, "expected end of spec but found control character 0x01"},
	    {"r(\x7f)", 2, "expected an argument but found control character 0x7f"},
	    {"a b", 2, "expected end of spec but found 'b'"},
	    {"raid0(a b)", 8, "expected ')' or ',' but found 'b'"},
	    {"raid0(a \"b\")", 8, "expected ')' or ',' but found a quoted string"},
	    {"a(b)(c)", 4, "expected end of spec but found '('"},
	    {"a(b))", 4, "expected end of spec but found ')'"},
	    {"\"a\"(b)", 3, "expected end of spec but found '('"},
	    {"raid0(a, \"b\"=1)", 12, "expected ')' or ',' but found '='"},
	    {"a((b))", 2, "expected an argument but found '('"},
	    {"a(b", 3, "expected ')' or ',' but found end of spec"},
	    {"a(b(c)", 6, "expected ')' or ',' but found end of spec"},
	    {"a(b, c", 6, "but found end of spec"},
	    {"x=1", 1, "expected end of spec but found '='"},
	    {"\"unterminated", 0, "unterminated quoted string"},
	    {"r(k=\"a\" x2)", 8, "applies to positional arguments"},
	};
	size_t i;

	(void)state;
	assert_true(ARRAY_SIZE(cases) >= 25);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		check_parse_error(cases[i].text, cases[i].pos, cases[i].msg);
}

/* --- unit parsers --- */

struct u64_case {
	const char *text;
	uint64_t value;
};

struct bad_case {
	const char *text;
	const char *msg;
};

typedef int (*u64_parser)(const char *, uint64_t *, char *, size_t);

static void check_u64_cases(u64_parser parse, const char *what, const struct u64_case *cases,
                            size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t v = 12345;
		char msg[256] = "";

		if (parse(cases[i].text, &v, msg, sizeof msg) != 0)
			fail_msg("%s '%s' rejected: %s", what, cases[i].text, msg);
		if (v != cases[i].value)
			fail_msg("%s '%s' = %llu, expected %llu", what, cases[i].text,
			         (unsigned long long)v, (unsigned long long)cases[i].value);
	}
}

static void check_bad_cases(u64_parser parse, const char *what, const struct bad_case *cases,
                            size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t v = 12345;
		char msg[256] = "";

		if (parse(cases[i].text, &v, msg, sizeof msg) != -EINVAL)
			fail_msg("%s '%s' accepted as %llu", what, cases[i].text,
			         (unsigned long long)v);
		assert_int_equal(v, 12345); /* untouched on error */
		if (!strstr(msg, cases[i].msg))
			fail_msg("%s '%s': message '%s' lacks '%s'", what, cases[i].text, msg,
			         cases[i].msg);
	}
}

static void test_parse_size(void **state)
{
	static const struct u64_case good[] = {
	    {"0", 0},
	    {"1", 1},
	    {"512", 512},
	    {"512b", 512},
	    {"512B", 512},
	    {"4k", 4096},
	    {"4K", 4096},
	    {"4kb", 4096},
	    {"4KB", 4096},
	    {"4Kb", 4096},
	    {"4Ki", 4096},
	    {"4KiB", 4096},
	    {"4kib", 4096},
	    {"4kB", 4000},
	    {"1m", 1ULL << 20},
	    {"1M", 1ULL << 20},
	    {"1MiB", 1ULL << 20},
	    {"1mb", 1ULL << 20},
	    {"1MB", 1000000},
	    {"1g", 1ULL << 30},
	    {"1GiB", 1ULL << 30},
	    {"1GB", 1000000000},
	    {"1t", 1ULL << 40},
	    {"1TB", 1000000000000ULL},
	    {"1p", 1ULL << 50},
	    {"1PiB", 1ULL << 50},
	    {"1PB", 1000000000000000ULL},
	    {"1.5g", 1610612736},
	    {"1.5k", 1536},
	    {"0.5k", 512},
	    {"3.9GB", 3900000000ULL},
	    {"1.3g", 1395864371}, /* 1395864371.2 rounds down */
	    {"0.1k", 102},        /* 102.4 */
	    {"0.0005k", 1},       /* 0.512 rounds up */
	    {"1.0", 1},           /* a zero fraction is whole */
	    {"1.00000000000000000000001k", 1024},
	    {"00012", 12},
	    {" 4k\t", 4096},
	    {"0x1000", 4096},
	    {"0X10", 16},
	    {"0x10k", 16384},
	    {"18446744073709551615", UINT64_MAX},
	    {"18446744073709551615B", UINT64_MAX},
	    {"16383p", 16383ULL << 50},
	    {"16383.999999999999999p", UINT64_MAX}, /* rounds to exactly the maximum */
	    {"0xffffffffffffffff", UINT64_MAX},
	};
	static const struct bad_case bad[] = {
	    {"", "empty size"},
	    {"   ", "empty size"},
	    {"k", "expected a number in size 'k'"},
	    {"-1", "negative value in size '-1'"},
	    {"+5", "expected a number"},
	    {"12q", "unknown unit 'q' in size '12q'"},
	    {"4kk", "unknown unit 'kk'"},
	    {"4KBB", "unknown unit 'KBB'"},
	    {"4 k", "unknown unit ' k'"},
	    {"1e3", "unknown unit 'e3'"},
	    {"1E", "unknown unit 'E'"},
	    {"1.5", "fraction of a byte"},
	    {"1.5b", "fraction of a byte"},
	    {"1.k", "expected digits after '.'"},
	    {".5k", "expected a number"},
	    {"1..5k", "expected digits after '.'"},
	    {"0x", "expected hex digits after '0x'"},
	    {"0xg", "expected hex digits after '0x'"},
	    {"0x1.5k", "unknown unit '.5k'"},
	    {"18446744073709551616", "value too large"},
	    {"16384p", "value too large"},
	    {"17179869184g", "value too large"},
	    {"16383.9999999999999999999p", "value too large"},
	    {"99999999999999999999999k", "value too large"},
	    {"0x10000000000000000", "value too large"},
	    {"18446744073709551615.5k", "value too large"},
	    {"4k\x01", "unknown unit 'k\\x01'"},
	};

	(void)state;
	check_u64_cases(rl_parse_size, "size", good, ARRAY_SIZE(good));
	check_bad_cases(rl_parse_size, "size", bad, ARRAY_SIZE(bad));
}

static void test_parse_time(void **state)
{
	static const struct u64_case good[] = {
	    {"0", 0},
	    {"1", 1000000000ULL},
	    {"1s", 1000000000ULL},
	    {"1.5", 1500000000ULL},
	    {"0.3", 300000000ULL},
	    {"500ms", 500000000ULL},
	    {"1.5ms", 1500000ULL},
	    {"250us", 250000},
	    {"250\xc2\xb5s", 250000},
	    {"10ns", 10},
	    {"2m", 120000000000ULL},
	    {"1h", 3600000000000ULL},
	    {"2.5h", 9000000000000ULL},
	    {"0.0000000001s", 0},
	    {"0.0000000005s", 1},
	    {" 7s ", 7000000000ULL},
	    {"18446744073.709551615", UINT64_MAX},
	    {"18446744073709551615ns", UINT64_MAX},
	};
	static const struct bad_case bad[] = {
	    {"", "empty duration"},
	    {"s", "expected a number in duration 's'"},
	    {"-1s", "negative value"},
	    {"5q", "unknown unit 'q' in duration '5q'"},
	    {"1d", "unknown unit 'd'"},
	    {"5 s", "unknown unit ' s'"},
	    {"1ks", "unknown unit 'ks'"},
	    {"1S", "unknown unit 'S'"},
	    {"0x10", "unknown unit 'x10'"},
	    {"1.5ns", "fraction of a nanosecond"},
	    {"18446744074", "value too large"},
	    {"18446744073.7095516155", "value too large"}, /* rounds past the maximum */
	    {"5124096h", "value too large"},
	};

	(void)state;
	check_u64_cases(rl_parse_time, "duration", good, ARRAY_SIZE(good));
	check_bad_cases(rl_parse_time, "duration", bad, ARRAY_SIZE(bad));
}

static void test_parse_rate(void **state)
{
	static const struct u64_case good[] = {
	    {"3.9GB/s", 3900000000ULL},
	    {"550MB", 550000000ULL},
	    {"550MB/s", 550000000ULL},
	    {"100m/s", 104857600ULL},
	    {"100m", 104857600ULL},
	    {"1000", 1000},
	    {"1000/s", 1000},
	    {"512B/s", 512},
	    {"1k/s", 1024},
	    {"1.5KiB/s", 1536},
	    {"0", 0},
	    {" 2GB/s ", 2000000000ULL},
	    {"18446744073709551615/s", UINT64_MAX},
	};
	static const struct bad_case bad[] = {
	    {"", "empty rate"},
	    {"/s", "expected a number in rate '/s'"},
	    {"fast", "expected a number"},
	    {"-1/s", "negative value"},
	    {"3.9GB/sec", "unknown unit 'GB/sec'"},
	    {"3.9GB/S", "unknown unit 'GB/S'"},
	    {"1.5/s", "fraction of a byte"},
	    {"16384p/s", "value too large"},
	    {"0x10/s", "unknown unit 'x10'"},
	};

	(void)state;
	check_u64_cases(rl_parse_rate, "rate", good, ARRAY_SIZE(good));
	check_bad_cases(rl_parse_rate, "rate", bad, ARRAY_SIZE(bad));
}

static void test_parse_u64(void **state)
{
	static const struct u64_case good[] = {
	    {"0", 0},
	    {"42", 42},
	    {"007", 7},
	    {" 7 ", 7},
	    {"0x10", 16},
	    {"0XfF", 255},
	    {"18446744073709551615", UINT64_MAX},
	    {"0xffffffffffffffff", UINT64_MAX},
	    {"0x0000000000000000001", 1},
	};
	static const struct bad_case bad[] = {
	    {"", "empty integer"},
	    {"-1", "negative value in integer '-1'"},
	    {"+1", "expected a number"},
	    {"12a", "unexpected 'a' in integer '12a'"},
	    {"1k", "unexpected 'k'"},
	    {"1.5", "unexpected '.5'"},
	    {"1 2", "unexpected ' 2'"},
	    {"0x", "expected hex digits after '0x'"},
	    {"0xz", "expected hex digits after '0x'"},
	    {"18446744073709551616", "value too large"},
	    {"99999999999999999999999999", "value too large"},
	    {"0x10000000000000000", "value too large"},
	};

	(void)state;
	check_u64_cases(rl_parse_u64, "integer", good, ARRAY_SIZE(good));
	check_bad_cases(rl_parse_u64, "integer", bad, ARRAY_SIZE(bad));
}

static void test_parse_bool(void **state)
{
	static const struct {
		const char *text;
		bool value;
	} good[] = {
	    {"on", true},   {"yes", true},   {"true", true}, {"1", true},      {"ON", true},
	    {"True", true}, {" yes ", true}, {"off", false}, {"no", false},    {"false", false},
	    {"0", false},   {"OFF", false},  {"No", false},  {"FALSE", false},
	};
	static const char *const bad[] = {"", "maybe", "2", "onn", "y", "o n", "00", "truefalse"};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		bool v = !good[i].value;

		assert_int_equal(rl_parse_bool(good[i].text, &v, NULL, 0), 0);
		assert_int_equal(v, good[i].value);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		bool v = true;
		char msg[256] = "";

		assert_int_equal(rl_parse_bool(bad[i], &v, msg, sizeof msg), -EINVAL);
		assert_true(v);
		assert_true(strlen(msg) > 0);
	}
	{
		char msg[256];

		rl_parse_bool("maybe", NULL, msg, sizeof msg);
		assert_non_null(strstr(msg, "'maybe'"));
		assert_non_null(strstr(msg, "on/off, yes/no, true/false or 1/0"));
	}
}

static void test_units_messages(void **state)
{
	char msg[8], big[512];
	uint64_t v = 0;
	char longtext[300];

	(void)state;
	/* Short buffers truncate, absent buffers are fine, NULL input is an error. */
	memset(msg, 'Z', sizeof msg);
	assert_int_equal(rl_parse_size("12q", &v, msg, sizeof msg), -EINVAL);
	assert_int_equal(strlen(msg), sizeof msg - 1);
	assert_int_equal(rl_parse_size("12q", &v, NULL, 0), -EINVAL);
	assert_int_equal(rl_parse_time("x", &v, msg, 1), -EINVAL);
	assert_string_equal(msg, "");
	assert_int_equal(rl_parse_size(NULL, &v, big, sizeof big), -EINVAL);
	assert_int_equal(rl_parse_time(NULL, &v, big, sizeof big), -EINVAL);
	assert_int_equal(rl_parse_rate(NULL, &v, big, sizeof big), -EINVAL);
	assert_int_equal(rl_parse_u64(NULL, &v, big, sizeof big), -EINVAL);
	assert_int_equal(rl_parse_bool(NULL, NULL, big, sizeof big), -EINVAL);
	/* A NULL out pointer only validates. */
	assert_int_equal(rl_parse_size("4k", NULL, NULL, 0), 0);

	/* Long text is cut in the message, control bytes are escaped. */
	memset(longtext, '7', sizeof longtext - 2);
	longtext[sizeof longtext - 2] = 'q';
	longtext[sizeof longtext - 1] = '\0';
	assert_int_equal(rl_parse_size(longtext, &v, big, sizeof big), -EINVAL);
	assert_non_null(strstr(big, "unknown unit 'q'"));
	assert_non_null(strstr(big, "...'"));
	assert_true(strlen(big) < 200);
	assert_int_equal(rl_parse_size("1\tq\x1b", &v, big, sizeof big), -EINVAL);
	assert_string_equal(big, "unknown unit '\\x09q\\x1b' in size '1\\x09q\\x1b'");
}

/* --- parameter helpers --- */

static void check_err(const struct rl_err *err, size_t pos, const char *msg)
{
	if (err->pos != pos || strcmp(err->msg, msg) != 0)
		fail_msg("got error at %zu '%s', expected at %zu '%s'", err->pos, err->msg, pos,
		         msg);
}

static void test_get_helpers(void **state)
{
	/*                        0         1         2         3         4         5
	 *                        012345678901234567890123456789012345678901234567890 */
	struct rl_spec_node *n = parse_ok("raid0(ab, chunk=12q, size=1.5g, n=5, big=0x10000, "
	                                  "ratio=0.25, pct=20%, pct2=12.5, lat=50us, bw=3.9GB/s, "
	                                  "on=yes, mode=back, name=\"x y\", bad=maybe, t=5q, "
	                                  "r=fast, f=1e400, p=150%)");
	struct rl_err err = {0};
	uint64_t u = 0;
	double d = 0;
	bool b = false;
	int e = -1;
	const char *s = NULL;
	static const char *const modes[] = {"through", "back", "around", NULL};

	(void)state;
	/* Absent keys give the default and touch nothing. */
	assert_int_equal(rl_spec_get_size(n, "nope", 77, &u, &err), 0);
	assert_int_equal(u, 77);
	assert_int_equal(rl_spec_get_u64(n, "nope", 3, 1, 9, &u, &err), 0);
	assert_int_equal(u, 3);
	assert_int_equal(rl_spec_get_double(n, "nope", 0.5, 0, 1, &d, &err), 0);
	assert_true(d == 0.5);
	assert_int_equal(rl_spec_get_percent(n, "nope", 10, 0, 100, &d, &err), 0);
	assert_true(d == 10);
	assert_int_equal(rl_spec_get_time(n, "nope", 9, &u, &err), 0);
	assert_int_equal(u, 9);
	assert_int_equal(rl_spec_get_rate(n, "nope", 8, &u, &err), 0);
	assert_int_equal(u, 8);
	assert_int_equal(rl_spec_get_bool(n, "nope", true, &b, &err), 0);
	assert_true(b);
	assert_int_equal(rl_spec_get_enum(n, "nope", modes, 2, &e, &err), 0);
	assert_int_equal(e, 2);
	assert_int_equal(rl_spec_get_str(n, "nope", "dflt", &s, &err), 0);
	assert_string_equal(s, "dflt");
	assert_int_equal(rl_spec_get_size(NULL, "x", 5, &u, &err), 0);
	assert_int_equal(u, 5);

	/* Good values. */
	assert_int_equal(rl_spec_get_size(n, "size", 0, &u, &err), 0);
	assert_int_equal(u, 1610612736);
	assert_int_equal(rl_spec_get_u64(n, "n", 0, 1, 8, &u, &err), 0);
	assert_int_equal(u, 5);
	assert_int_equal(rl_spec_get_double(n, "ratio", 0, 0, 1, &d, &err), 0);
	assert_true(d == 0.25);
	assert_int_equal(rl_spec_get_percent(n, "pct", 0, 0, 100, &d, &err), 0);
	assert_true(d == 20.0);
	assert_int_equal(rl_spec_get_percent(n, "pct2", 0, 0, 100, &d, &err), 0);
	assert_true(d == 12.5);
	assert_int_equal(rl_spec_get_time(n, "lat", 0, &u, &err), 0);
	assert_int_equal(u, 50000);
	assert_int_equal(rl_spec_get_rate(n, "bw", 0, &u, &err), 0);
	assert_int_equal(u, 3900000000ULL);
	assert_int_equal(rl_spec_get_bool(n, "on", false, &b, &err), 0);
	assert_true(b);
	assert_int_equal(rl_spec_get_enum(n, "mode", modes, 0, &e, &err), 0);
	assert_int_equal(e, 1);
	assert_int_equal(rl_spec_get_str(n, "name", NULL, &s, &err), 0);
	assert_string_equal(s, "x y");
	assert_ptr_equal(s, rl_spec_find(n, "name")->value); /* borrowed */

	/* Bad values: the error points at the value, *out is untouched. */
	u = 99;
	assert_int_equal(rl_spec_get_size(n, "chunk", 0, &u, &err), -EINVAL);
	check_err(&err, 16,
	          "position 16: chunk: expected a size like 64k or 1MB, got '12q' (unknown unit "
	          "'q')");
	assert_int_equal(u, 99);
	assert_int_equal(rl_spec_get_u64(n, "n", 0, 6, 10, &u, &err), -EINVAL);
	check_err(&err, 34, "position 34: n: expected a whole number from 6 to 10, got '5'");
	assert_int_equal(rl_spec_get_u64(n, "big", 0, 0, 100, &u, &err), -EINVAL);
	check_err(&err, 41,
	          "position 41: big: expected a whole number from 0 to 100, got '0x10000'");
	assert_int_equal(rl_spec_get_u64(n, "chunk", 0, 0, 100, &u, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "got '12q' (unexpected 'q')"));
	assert_int_equal(u, 99);
	assert_int_equal(rl_spec_get_double(n, "ratio", 0, 0.5, 1, &d, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "ratio: expected a number from 0.5 to 1, got '0.25'"));
	assert_int_equal(rl_spec_get_double(n, "f", 0, 0, 1, &d, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "f: expected a number from 0 to 1, got '1e400'"));
	assert_int_equal(rl_spec_get_double(n, "mode", 0, 0, 1, &d, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "got 'back'"));
	assert_int_equal(rl_spec_get_percent(n, "p", 0, 0, 100, &d, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "p: expected a percentage from 0% to 100%, got '150%'"));
	assert_int_equal(rl_spec_get_percent(n, "mode", 0, 0, 100, &d, &err), -EINVAL);
	assert_int_equal(rl_spec_get_time(n, "t", 0, &u, &err), -EINVAL);
	assert_non_null(strstr(err.msg,
	                       "t: expected a duration like 500us or 2s, got '5q' (unknown unit "
	                       "'q')"));
	assert_int_equal(rl_spec_get_rate(n, "r", 0, &u, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "r: expected a rate like 550MB/s or 3.9GB/s, got 'fast' "
	                                "(expected a number)"));
	assert_int_equal(rl_spec_get_bool(n, "bad", false, &b, &err), -EINVAL);
	assert_non_null(
	    strstr(err.msg, "bad: expected on/off, yes/no, true/false or 1/0, got 'maybe'"));
	assert_int_equal(rl_spec_get_enum(n, "name", modes, 0, &e, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "name: expected one of through, back, around, got 'x y'"));
	assert_int_equal(e, 1);
	assert_int_equal(u, 99);

	/* Everything read above is used now; check_unused agrees. */
	assert_int_equal(rl_spec_check_unused(n, NULL, &err), 0);
	rl_spec_free(n);
}

static void test_get_percent_forms(void **state)
{
	struct rl_spec_node *n =
	    parse_ok("c(a=0%, b=100, c=-5%, d=\" 50 % \", e=%, f=5%%, g=1e1%)");
	struct rl_err err;
	double d;

	(void)state;
	assert_int_equal(rl_spec_get_percent(n, "a", 1, 0, 100, &d, &err), 0);
	assert_true(d == 0);
	assert_int_equal(rl_spec_get_percent(n, "b", 1, 0, 100, &d, &err), 0);
	assert_true(d == 100);
	assert_int_equal(rl_spec_get_percent(n, "c", 1, -10, 100, &d, &err), 0);
	assert_true(d == -5);
	assert_int_equal(rl_spec_get_percent(n, "d", 1, 0, 100, &d, &err), 0);
	assert_true(d == 50);
	assert_int_equal(rl_spec_get_percent(n, "e", 1, 0, 100, &d, &err), -EINVAL);
	assert_int_equal(rl_spec_get_percent(n, "f", 1, 0, 100, &d, &err), -EINVAL);
	assert_int_equal(rl_spec_get_percent(n, "g", 1, 0, 100, &d, &err), 0);
	assert_true(d == 10);
	rl_spec_free(n);
}

static void test_check_unused(void **state)
{
	/*                        0         1         2
	 *                        0123456789012345678901234 */
	struct rl_spec_node *n = parse_ok("raid0(a, b, chunkk=1, layout=x)");
	static const char *const known[] = {"chunk", "layout", NULL};
	static const char *const none[] = {NULL};
	struct rl_err err = {0};
	struct rl_spec_node *w;
	uint64_t u;

	(void)state;
	assert_int_equal(rl_spec_get_size(n, "chunk", 512, &u, &err), 0);
	assert_int_equal(rl_spec_check_unused(n, known, &err), -EINVAL);
	check_err(&err, 12, "position 12: raid0 has no parameter 'chunkk' (known: chunk, layout)");

	/* rl_spec_find marks used. */
	assert_non_null(rl_spec_find(n, "chunkk"));
	assert_true(n->kv[0].used);
	assert_null(rl_spec_find(n, "missing"));
	assert_null(rl_spec_find(NULL, "chunkk"));
	assert_int_equal(rl_spec_check_unused(n, known, &err), -EINVAL);
	check_err(&err, 22, "position 22: raid0 has no parameter 'layout' (known: chunk, layout)");
	assert_int_equal(rl_spec_check_unused(n, none, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "(known: none)"));
	assert_non_null(rl_spec_find(n, "layout"));
	assert_int_equal(rl_spec_check_unused(n, known, &err), 0);
	rl_spec_free(n);

	/* Plain words and empty calls have nothing to check. */
	w = parse_ok("/dev/sdb");
	assert_int_equal(rl_spec_check_unused(w, known, &err), 0);
	rl_spec_free(w);
	assert_int_equal(rl_spec_check_unused(NULL, known, &err), 0);

	/* A repeated child's parameters are checked per copy. */
	n = parse_ok("r(s(k=1) x2)");
	assert_non_null(rl_spec_find(n->args[0], "k"));
	assert_int_equal(rl_spec_check_unused(n->args[0], known, &err), 0);
	assert_int_equal(rl_spec_check_unused(n->args[1], known, &err), -EINVAL);
	check_err(&err, 4, "position 4: s has no parameter 'k' (known: chunk, layout)");
	rl_spec_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_err_set),           cmocka_unit_test(test_examples),
	    cmocka_unit_test(test_words_and_calls),   cmocka_unit_test(test_repetition),
	    cmocka_unit_test(test_quoting),           cmocka_unit_test(test_whitespace),
	    cmocka_unit_test(test_interleaved),       cmocka_unit_test(test_format),
	    cmocka_unit_test(test_positions),         cmocka_unit_test(test_limits),
	    cmocka_unit_test(test_malformed),         cmocka_unit_test(test_parse_size),
	    cmocka_unit_test(test_parse_time),        cmocka_unit_test(test_parse_rate),
	    cmocka_unit_test(test_parse_u64),         cmocka_unit_test(test_parse_bool),
	    cmocka_unit_test(test_units_messages),    cmocka_unit_test(test_get_helpers),
	    cmocka_unit_test(test_get_percent_forms), cmocka_unit_test(test_check_unused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
