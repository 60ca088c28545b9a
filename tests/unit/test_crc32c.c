/*
 * test_crc32c.c - CRC-32C against published vectors, incremental use, and
 * the SSE4.2 path against the slicing-by-8 table path.
 *
 * Vectors: RFC 3720 appendix B.4 (iSCSI) and the usual "123456789" check
 * value.  The random comparisons cover every length up to a few blocks of
 * the hardware path's three-stream rounds (short: 768 bytes, long: 6 KiB)
 * at every alignment, so the alignment prologue, both round sizes and the
 * tails are all exercised.  On a CPU without SSE4.2 both paths are the
 * table path and the comparison is trivially true (the test says so).
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

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/crc32c.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

/* splitmix64: deterministic, so a failure reproduces */
static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void fill_random(unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)rng();
}

/* Bit-at-a-time reference, straight from the definition. */
static uint32_t crc_ref(uint32_t crc, const unsigned char *p, size_t len)
{
	crc = ~crc;
	for (size_t i = 0; i < len; i++) {
		crc ^= p[i];
		for (int k = 0; k < 8; k++)
			crc = (crc & 1) ? (crc >> 1) ^ 0x82f63b78u : crc >> 1;
	}
	return ~crc;
}

static void test_rfc3720_vectors(void **state)
{
	(void)state;
	unsigned char buf[32];

	memset(buf, 0, sizeof(buf));
	assert_int_equal(rl_crc32c(0, buf, 32), 0x8A9136AAu);
	assert_int_equal(rl_crc32c_sw(0, buf, 32), 0x8A9136AAu);

	memset(buf, 0xff, sizeof(buf));
	assert_int_equal(rl_crc32c(0, buf, 32), 0x62A8AB43u);
	assert_int_equal(rl_crc32c_sw(0, buf, 32), 0x62A8AB43u);

	for (int i = 0; i < 32; i++)
		buf[i] = (unsigned char)i;
	assert_int_equal(rl_crc32c(0, buf, 32), 0x46DD794Eu);
	assert_int_equal(rl_crc32c_sw(0, buf, 32), 0x46DD794Eu);

	for (int i = 0; i < 32; i++)
		buf[i] = (unsigned char)(31 - i);
	assert_int_equal(rl_crc32c(0, buf, 32), 0x113FDB5Cu);
	assert_int_equal(rl_crc32c_sw(0, buf, 32), 0x113FDB5Cu);
}

/* RFC 3720 B.4: an iSCSI read command PDU (48 bytes). */
static void test_rfc3720_pdu(void **state)
{
	(void)state;
	static const unsigned char pdu[48] = {
	    0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	    0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
	    0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00,
	    0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	assert_int_equal(rl_crc32c(0, pdu, sizeof(pdu)), 0xD9963A56u);
	assert_int_equal(rl_crc32c_sw(0, pdu, sizeof(pdu)), 0xD9963A56u);
}

static void test_check_value(void **state)
{
	(void)state;
	assert_int_equal(rl_crc32c(0, "123456789", 9), 0xE3069283u);
	assert_int_equal(rl_crc32c_sw(0, "123456789", 9), 0xE3069283u);
	assert_int_equal(crc_ref(0, (const unsigned char *)"123456789", 9), 0xE3069283u);
}

static void test_empty(void **state)
{
	(void)state;
	assert_int_equal(rl_crc32c(0, NULL, 0), 0);
	assert_int_equal(rl_crc32c_sw(0, NULL, 0), 0);
	/* continuing with nothing leaves any CRC unchanged */
	assert_int_equal(rl_crc32c(0xE3069283u, "", 0), 0xE3069283u);
	assert_int_equal(rl_crc32c_sw(0xE3069283u, "", 0), 0xE3069283u);
}

/* Both paths against the bit-wise reference on short inputs of every length. */
static void test_reference_short(void **state)
{
	(void)state;
	unsigned char buf[300];
	fill_random(buf, sizeof(buf));
	for (size_t len = 0; len <= sizeof(buf); len++) {
		uint32_t want = crc_ref(0, buf, len);
		assert_int_equal(rl_crc32c(0, buf, len), want);
		assert_int_equal(rl_crc32c_sw(0, buf, len), want);
	}
}

/* Splitting the input anywhere, in any number of pieces, gives the one-shot CRC. */
static void test_incremental(void **state)
{
	(void)state;
	enum { LEN = 20000 };
	unsigned char *buf = malloc(LEN);
	assert_non_null(buf);
	fill_random(buf, LEN);
	uint32_t whole = rl_crc32c(0, buf, LEN);
	assert_int_equal(rl_crc32c_sw(0, buf, LEN), whole);

	/* every two-piece split of a prefix that covers all code paths */
	for (size_t cut = 0; cut <= 2000; cut++) {
		uint32_t a = rl_crc32c(0, buf, cut);
		assert_int_equal(rl_crc32c(a, buf + cut, 2000 - cut), rl_crc32c(0, buf, 2000));
		uint32_t s = rl_crc32c_sw(0, buf, cut);
		assert_int_equal(rl_crc32c_sw(s, buf + cut, 2000 - cut),
		                 rl_crc32c_sw(0, buf, 2000));
	}

	/* many random pieces, with the two paths mixed */
	for (int round = 0; round < 200; round++) {
		uint32_t crc = 0;
		size_t off = 0;
		int k = 0;
		while (off < LEN) {
			size_t piece = rng() % 9000;
			if (piece > LEN - off)
				piece = LEN - off;
			crc = (k++ & 1) ? rl_crc32c_sw(crc, buf + off, piece)
			                : rl_crc32c(crc, buf + off, piece);
			off += piece;
		}
		assert_int_equal(crc, whole);
	}
	free(buf);
}

/* Hardware and table paths agree on every length/alignment around the block sizes. */
static void test_hw_matches_sw(void **state)
{
	(void)state;
	if (!rl_crc32c_hw())
		printf("note: no SSE4.2 on this CPU; rl_crc32c() is the table path\n");

	enum { MAX = 3 * 2048 * 3 + 64 };
	unsigned char *buf = malloc(MAX + 16);
	assert_non_null(buf);
	fill_random(buf, MAX + 16);

	/* every length up to past two short rounds, every alignment */
	for (size_t align = 0; align < 8; align++)
		for (size_t len = 0; len <= 3 * 256 * 2 + 40; len++)
			assert_int_equal(rl_crc32c(0, buf + align, len),
			                 rl_crc32c_sw(0, buf + align, len));

	/* lengths around the long round boundaries */
	static const size_t around[] = {3 * 2048, 2 * 3 * 2048, 3 * 3 * 2048};
	for (size_t a = 0; a < sizeof(around) / sizeof(around[0]); a++)
		for (size_t len = around[a] - 20; len <= around[a] + 20; len++)
			for (size_t align = 0; align < 8; align++)
				assert_int_equal(rl_crc32c(0, buf + align, len),
				                 rl_crc32c_sw(0, buf + align, len));

	/* random lengths, alignments, starting CRCs and contents */
	for (int i = 0; i < 2000; i++) {
		size_t align = rng() % 16, len = rng() % (MAX + 1);
		uint32_t seed = (uint32_t)rng();
		if (i % 100 == 0)
			fill_random(buf, MAX + 16);
		assert_int_equal(rl_crc32c(seed, buf + align, len),
		                 rl_crc32c_sw(seed, buf + align, len));
	}

	/* and the reference on a few long ones */
	for (int i = 0; i < 4; i++) {
		size_t align = rng() % 16, len = rng() % (MAX + 1);
		assert_int_equal(rl_crc32c(0, buf + align, len), crc_ref(0, buf + align, len));
	}
	free(buf);
}

/* A large buffer (many long rounds) against the bit-wise reference. */
static void test_large(void **state)
{
	(void)state;
	enum { LEN = 1 << 20 };
	unsigned char *buf = malloc(LEN);
	assert_non_null(buf);
	fill_random(buf, LEN);
	uint32_t want = crc_ref(0, buf, LEN);
	assert_int_equal(rl_crc32c(0, buf, LEN), want);
	assert_int_equal(rl_crc32c_sw(0, buf, LEN), want);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rfc3720_vectors), cmocka_unit_test(test_rfc3720_pdu),
	    cmocka_unit_test(test_check_value),     cmocka_unit_test(test_empty),
	    cmocka_unit_test(test_reference_short), cmocka_unit_test(test_incremental),
	    cmocka_unit_test(test_hw_matches_sw),   cmocka_unit_test(test_large),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
