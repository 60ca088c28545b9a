/*
 * test_vcsum.c - verify='s checksum methods: each digest of "123456789"
 * against its published check value (CRC catalogue entries, the MD5, SHA-1,
 * SHA-2 and SHA-3 test strings as Python's hashlib prints them, fio's crc64
 * as fio 3.33 computes it), and each method carried in verify=meta's
 * intervals: a block checks clean, and one flipped bit anywhere past the
 * header fails the check, named by the method.
 *
 * tsan-skip: single-threaded (no thread to race; tests/unit/threads.c holds it to that)
 */
/* cmocka needs these first, in this order */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "workload/buf.h"
#include "workload/job.h"
#include "workload/vcsum.h"

static const struct {
	const char *method;
	const char *hex; /* the digest of "123456789"; CRCs as numbers */
} vectors[] = {
    {"md5", "25f9e794323b453885f5181f1b624d0b"},
    {"crc64", "e9c6d914c4b8d9ca"},
    {"crc32", "cbf43926"},
    {"crc16", "bb3d"},
    {"crc7", "75"},
    {"sha1", "f7c3bc1d808e04732adf679965ccc34ca7ae3441"},
    {"sha256", "15e2b0d3c33891ebb0f1ef609ec419420c20e320ce94c65fbc8c3312448eb225"},
    {"sha512", "d9e6762dd1c8eaf6d61b3c6192fc408d4d6d5f1176d0c29169bc24e71c3f274a"
               "d27fcd5811b313d681f7e55ec02d73d499c95455b6b5bb503acf574fba8ffe85"},
    {"sha3-224", "5795c3d628fd638c9835a4c79a55809f265068c88729a1a3fcdf8522"},
    {"sha3-256", "87cd084d190e436f147322b90e7384f6a8e0676c99d21ef519ea718e51d45f9c"},
    {"sha3-384", "8b90ede4d095409f1a12492c2520599683a9478dc70b7566d23b3e41ece8538c"
                 "6cde92382a5e38786490375c54672abf"},
    {"sha3-512", "e1e44d20556e97a180b6dd3ed7ae5c465cafd553fa8747dca038fb95635b77a3"
                 "7318f7ddf7aec1f6c3c14bb160ba2497007decf38dd361cab199e3b8c8fe1f5c"},
    /* XXH32 with fio's seed 1; fio's own implementation gives the same */
    {"xxhash", "f261918c"},
};

static enum wl_vcsum by_name(const char *name)
{
	for (int m = 0; m < WL_VCSUM_COUNT; m++)
		if (!strcmp(wl_vcsum_name((enum wl_vcsum)m), name))
			return (enum wl_vcsum)m;
	fail_msg("no method %s", name);
	return WL_VCSUM_NONE;
}

static void test_check_values(void **state)
{
	(void)state;
	for (size_t v = 0; v < sizeof(vectors) / sizeof(vectors[0]); v++) {
		enum wl_vcsum m = by_name(vectors[v].method);
		uint8_t d[WL_VCSUM_MAX];
		char hex[2 * WL_VCSUM_MAX + 1] = "";
		size_t len = wl_vcsum_len(m);
		bool crc =
		    !strncmp(vectors[v].method, "crc", 3) || !strcmp(vectors[v].method, "xxhash");

		assert_int_equal(wl_vcsum(m, "123456789", 9, d), 0);
		/* CRCs and xxhash are stored little endian: print them as numbers */
		for (size_t i = 0; i < len; i++)
			snprintf(hex + 2 * i, 3, "%02x", d[crc ? len - 1 - i : i]);
		print_message("%-9s %s\n", vectors[v].method, hex);
		assert_string_equal(hex, vectors[v].hex);
	}
}

static void job_with(struct wl_job *job, const char *method, const char *interval)
{
	char msg[256];
	wl_job_init(job);
	assert_int_equal(wl_job_set(job, "verify", method, "test", msg, sizeof(msg)), 0);
	if (interval)
		assert_int_equal(
		    wl_job_set(job, "verify_interval", interval, "test", msg, sizeof(msg)), 0);
}

/* Every method: a clean block passes, a flipped bit past the header fails. */
static void test_meta_detects_flips(void **state)
{
	static uint8_t block[8192];
	(void)state;
	for (size_t v = 0; v < sizeof(vectors) / sizeof(vectors[0]); v++) {
		struct wl_job job;
		struct wl_rng rng;
		uint64_t bad = 0;
		char msg[256];
		job_with(&job, vectors[v].method, "4k");
		assert_int_equal(job.verify, WL_VERIFY_META);
		wl_rng_seed(&rng, 42 + v);
		wl_meta_fill(&job, &rng, block, sizeof(block), 1 << 20, 7, 0);
		assert_int_equal(
		    wl_meta_check(&job, block, sizeof(block), 1 << 20, &bad, msg, sizeof(msg)), 0);
		/* the digest itself, the data of the first and of the last interval */
		const size_t at[] = {sizeof(struct wl_mhdr), 1000, 4096 + 4000, 8191};
		for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
			block[at[i]] ^= 0x04;
			assert_int_equal(wl_meta_check(&job, block, sizeof(block), 1 << 20, &bad,
			                               msg, sizeof(msg)),
			                 -EILSEQ);
			assert_non_null(strstr(msg, vectors[v].method));
			assert_int_equal(bad, (1 << 20) + (at[i] < 4096 ? 0 : 4096));
			block[at[i]] ^= 0x04;
		}
	}
}

/* verify=meta alone checks only the header: random data may change. */
static void test_meta_alone_checks_header(void **state)
{
	static uint8_t block[4096];
	struct wl_job job;
	struct wl_rng rng;
	uint64_t bad = 0;
	char msg[256];
	(void)state;
	job_with(&job, "meta", NULL);
	wl_rng_seed(&rng, 1);
	wl_meta_fill(&job, &rng, block, sizeof(block), 0, 1, 0);
	block[2000] ^= 1;
	assert_int_equal(wl_meta_check(&job, block, sizeof(block), 0, &bad, msg, sizeof(msg)), 0);
	block[4] ^= 1; /* the header's length */
	assert_int_equal(wl_meta_check(&job, block, sizeof(block), 0, &bad, msg, sizeof(msg)),
	                 -EILSEQ);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_check_values),
	    cmocka_unit_test(test_meta_detects_flips),
	    cmocka_unit_test(test_meta_alone_checks_header),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
