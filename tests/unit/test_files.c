/*
 * test_files.c - the file suites' data sets (files/fset.h): deterministic,
 * scaled to the shape, contents recomputable from any offset, compressible
 * only on request; and the suite registry.
 *
 * tsan-skip: single-threaded (no thread to race; tests/unit/threads.c holds it to that)
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "files/files.h"
#include "files/fset.h"

static void test_deterministic(void **state)
{
	(void)state;
	const struct fset_shape *sh = fset_shape_find("asssd-program");
	struct fset a, b, c;

	assert_non_null(sh);
	assert_int_equal(fset_build(sh, 0.01, 1, 0, &a), 0);
	assert_int_equal(fset_build(sh, 0.01, 1, 0, &b), 0);
	assert_int_equal(fset_build(sh, 0.01, 2, 0, &c), 0);
	assert_int_equal(a.nfiles, b.nfiles);
	bool differs = false;
	for (size_t i = 0; i < a.nfiles; i++) {
		assert_string_equal(a.files[i].path, b.files[i].path);
		assert_int_equal(a.files[i].size, b.files[i].size);
		assert_int_equal(a.files[i].key, b.files[i].key);
		differs |= i < c.nfiles && (a.files[i].size != c.files[i].size);
	}
	assert_true(differs); /* another seed, another set */
	fset_free(&a);
	fset_free(&b);
	fset_free(&c);
}

/* Counts and totals follow the shape at every scale; every shape builds. */
static void test_scaling(void **state)
{
	(void)state;
	struct fset s;
	const struct fset_shape *sh = fset_shape_find("untar");

	assert_int_equal(fset_build(sh, 0.01, 1, 0, &s), 0);
	assert_int_equal(s.nfiles, 426); /* ceil(42,588 x 0.01) */
	assert_int_equal(s.ndirs, 63);   /* ceil(6,246 x 0.01) */
	assert_int_equal(s.bytes, (uint64_t)(2300.0 * 1048576 * 0.01));
	uint64_t sum = 0;
	for (size_t i = 0; i < s.nfiles; i++) {
		sum += s.files[i].size;
		assert_true(s.files[i].size > 0);
		/* its folder exists in the list */
		char *slash = strrchr(s.files[i].path, '/');
		if (slash) {
			bool found = false;
			size_t len = (size_t)(slash - s.files[i].path);
			for (size_t j = 0; j < s.ndirs && !found; j++)
				found = strlen(s.dirs[j]) == len &&
				        !strncmp(s.dirs[j], s.files[i].path, len);
			assert_true(found);
		}
	}
	assert_int_equal(sum, s.bytes);
	fset_free(&s);
	/* two large files stay two at any scale */
	assert_int_equal(fset_build(fset_shape_find("asssd-iso"), 0.001, 1, 0, &s), 0);
	assert_int_equal(s.nfiles, 2);
	fset_free(&s);
	for (size_t i = 0; fset_shape_at(i); i++) {
		assert_int_equal(fset_build(fset_shape_at(i), 0.001, 3, 0, &s), 0);
		assert_true(s.nfiles >= 1 && s.ndirs >= 1);
		fset_free(&s);
	}
	assert_int_equal(fset_build(sh, 0, 1, 0, &s), -EINVAL);
	assert_int_equal(fset_build(sh, 1.5, 1, 0, &s), -EINVAL);
	assert_int_equal(fset_build(sh, 0.5, 1, 101, &s), -EINVAL);
}

/* Any range of a file equals the same bytes of one fill from the start. */
static void test_fill_offsets(void **state)
{
	(void)state;
	struct fset s;
	unsigned char whole[20000], part[20000];

	assert_int_equal(fset_build(fset_shape_find("fc-mp3"), 0.01, 5, 30, &s), 0);
	fset_fill(&s, &s.files[1], 0, whole, sizeof(whole));
	static const size_t offs[] = {0, 1, 7, 8, 4095, 4096, 9999};
	for (size_t k = 0; k < sizeof(offs) / sizeof(offs[0]); k++) {
		size_t len = sizeof(whole) - offs[k] - 3;
		fset_fill(&s, &s.files[1], offs[k], part, len);
		assert_memory_equal(part, whole + offs[k], len);
	}
	/* another file, other bytes */
	fset_fill(&s, &s.files[0], 0, part, 4096);
	assert_memory_not_equal(part, whole, 4096);
	fset_free(&s);
}

/* compress = P: the last P % of every 4 KiB block is zeros; 0: (almost) none are. */
static void test_compress(void **state)
{
	(void)state;
	struct fset s0, s50;
	unsigned char b[3 * 4096];
	size_t zeros = 0;

	assert_int_equal(fset_build(fset_shape_find("fc-iso"), 0.001, 1, 0, &s0), 0);
	assert_int_equal(fset_build(fset_shape_find("fc-iso"), 0.001, 1, 50, &s50), 0);
	fset_fill(&s0, &s0.files[0], 0, b, sizeof(b));
	for (size_t i = 0; i < sizeof(b); i++)
		zeros += !b[i];
	assert_true(zeros < sizeof(b) / 100);
	fset_fill(&s50, &s50.files[0], 0, b, sizeof(b));
	for (size_t blk = 0; blk < 3; blk++) {
		unsigned char *p = b + blk * 4096;
		for (size_t i = 2048; i < 4096; i++)
			assert_int_equal(p[i], 0);
		size_t nz = 0;
		for (size_t i = 0; i < 2048; i++)
			nz += p[i] != 0;
		assert_true(nz > 2000);
	}
	fset_free(&s0);
	fset_free(&s50);
}

static void test_registry(void **state)
{
	(void)state;
	static const char *const names[] = {"asssd-copy", "fc-test", "game-load", "untar",
	                                    "vm-clone"};
	for (size_t i = 0; i < 5; i++) {
		const struct files_suite *d = files_suite_find(names[i]);
		assert_non_null(d);
		assert_true(d->need(0.001) > 0);
		assert_true(d->need(1.0) > d->need(0.01));
	}
	assert_null(files_suite_find("cdm"));
	assert_null(files_suite_at(5));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_deterministic), cmocka_unit_test(test_scaling),
	    cmocka_unit_test(test_fill_offsets),  cmocka_unit_test(test_compress),
	    cmocka_unit_test(test_registry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
