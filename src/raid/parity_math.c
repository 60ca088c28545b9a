/*
 * parity_math.c - parity arithmetic on ISA-L (parity_math.h).
 *
 * Generation is xor_gen (raid5) or pq_gen (raid6).  Reconstruction of two
 * missing blocks goes through ISA-L's erasure-code machinery: the row's
 * generator matrix (identity for data, all ones for P, 2^slot for Q) is
 * reduced to k surviving rows, inverted with gf_invert_matrix, and the
 * missing data rows are produced by ec_encode_data from the survivors;
 * missing P or Q are then generated afresh.  A lone missing block with P
 * present is an XOR.
 */
#include <errno.h>
#include <isa-l/erasure_code.h>
#include <isa-l/raid.h>
#include <string.h>

#include "raid/parity_math.h"

uint8_t parity_q_coef(unsigned slot)
{
	uint8_t c = 1;

	for (unsigned i = 0; i < slot; i++)
		c = gf_mul(c, 2);
	return c;
}

void parity_xor(unsigned nsrc, size_t len, void **v)
{
	if (nsrc == 1)
		memcpy(v[1], v[0], len);
	else
		xor_gen((int)nsrc + 1, (int)len, v);
}

void parity_gen(unsigned k, size_t len, void *const *data, void *p, void *q)
{
	void *v[PARITY_MAX_DATA + 2];

	memcpy(v, data, k * sizeof(void *));
	if (!q) {
		if (k == 1) {
			memcpy(p, data[0], len);
			return;
		}
		v[k] = p;
		xor_gen((int)k + 1, (int)len, v);
		return;
	}
	v[k] = p;
	v[k + 1] = q;
	if (k == 1) { /* pq_gen needs two sources: add a zero-contribution copy */
		memcpy(p, data[0], len);
		memcpy(q, data[0], len);
		return;
	}
	pq_gen((int)k + 2, (int)len, v);
}

/* Data blocks missing (bits < k of @missing) rebuilt from k rows not in @missing. */
static void parity_recover_data(unsigned k, unsigned nparity, size_t len, void *const *blocks,
                                uint64_t missing)
{
	uint8_t gen[(PARITY_MAX_DATA + 2) * PARITY_MAX_DATA];
	uint8_t b[PARITY_MAX_DATA * PARITY_MAX_DATA], inv[PARITY_MAX_DATA * PARITY_MAX_DATA];
	uint8_t dec[2 * PARITY_MAX_DATA], tbls[32 * 2 * PARITY_MAX_DATA];
	unsigned char *src[PARITY_MAX_DATA], *out[2];
	unsigned rows = 0, nout = 0, total = k + nparity;

	memset(gen, 0, (size_t)total * k);
	for (unsigned i = 0; i < k; i++) {
		gen[i * k + i] = 1;
		gen[k * k + i] = 1;
		if (nparity == 2)
			gen[(k + 1) * k + i] = parity_q_coef(i);
	}
	for (unsigned r = 0; r < total && rows < k; r++) {
		if (missing >> r & 1)
			continue;
		memcpy(&b[rows * k], &gen[r * k], k);
		src[rows++] = blocks[r];
	}
	gf_invert_matrix(b, inv, (int)k);
	for (unsigned i = 0; i < k; i++) {
		if (!(missing >> i & 1))
			continue;
		memcpy(&dec[nout * k], &inv[i * k], k);
		out[nout++] = blocks[i];
	}
	ec_init_tables((int)k, (int)nout, dec, tbls);
	ec_encode_data((int)len, (int)k, (int)nout, tbls, src, out);
}

int parity_recover(unsigned k, unsigned nparity, size_t len, void *const *blocks, uint64_t missing)
{
	uint64_t data_missing = missing & ((1ull << k) - 1);
	unsigned count = (unsigned)__builtin_popcountll(missing);

	if (count > nparity)
		return -EINVAL;
	if (!count)
		return 0;
	if (data_missing) {
		if (count == 1 && !(missing >> k & 1)) {
			/* One data block, P present: XOR of P and the other data. */
			void *v[PARITY_MAX_DATA + 1];
			unsigned j = 0, lost = (unsigned)__builtin_ctzll(data_missing);
			for (unsigned i = 0; i <= k; i++)
				if (i != lost)
					v[j++] = blocks[i];
			v[j] = blocks[lost];
			if (j == 1)
				memcpy(blocks[lost], v[0], len);
			else
				xor_gen((int)j + 1, (int)len, v);
		} else {
			parity_recover_data(k, nparity, len, blocks, missing);
		}
	}
	if (missing >> k & 1 || (nparity == 2 && missing >> (k + 1) & 1))
		/* The data is complete now: regenerate the parity (a present P or
		 * Q comes out identical). */
		parity_gen(k, len, blocks, blocks[k], nparity == 2 ? blocks[k + 1] : NULL);
	return 0;
}

int parity_syndrome_check(unsigned k, size_t len, void *const *blocks, uint8_t *scratch)
{
	uint8_t *p = scratch, *q = scratch + len;
	const uint8_t *op = blocks[k], *oq = blocks[k + 1];
	uint8_t coef[PARITY_MAX_DATA];
	int who = 0;

	for (unsigned z = 0; z < k; z++)
		coef[z] = parity_q_coef(z);
	parity_gen(k, len, blocks, p, q);
	for (size_t i = 0; i < len; i++) {
		uint8_t dp = p[i] ^ op[i], dq = q[i] ^ oq[i];
		int w;

		if (!dp && !dq)
			continue;
		if (dp && !dq) {
			w = -1;
		} else if (!dp) {
			w = -2;
		} else {
			/* A data slot z explains it when dq == 2^z * dp. */
			w = -3;
			for (unsigned z = 0; z < k; z++) {
				if (gf_mul(coef[z], dp) == dq) {
					w = 1 + (int)z;
					break;
				}
			}
		}
		if (who && w != who)
			return -3;
		who = w;
		if (who == -3)
			return -3;
	}
	return who;
}

void parity_xor_into(uint8_t *acc, const uint8_t *src, uint8_t *tmp, size_t len)
{
	void *v[3] = {acc, (void *)src, tmp};

	parity_xor(2, len, v);
	memcpy(acc, tmp, len);
}
