/*
 * fuzz_nbd.c - libFuzzer target for the NBD protocol engine (src/serve/conn.c).
 *
 * The input is what a client sends: it is fed into a fresh connection in
 * chunks whose sizes come from the input's first byte, through the same
 * rx_space/rx_done calls the socket layer uses, so negotiation (client
 * flags, options and their data) and transmission (request headers, write
 * payloads) are both parsed.  Requests run for real against two small mem
 * targets (a writable default export and a read-only one with 4 KiB
 * blocks) on a psync executor; all output is drained after every chunk.
 * Invariants: the output starts with the NBDMAGIC/IHAVEOPT greeting, the
 * connection always finishes once input ends and the executor is idle,
 * and nothing is leaked (ASan).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/registry.h"
#include "serve/serve.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct serve_export fuzz_exports[2];
static struct serve_ctx fuzz_ctx;

static void fuzz_setup(void)
{
	static const char *const specs[2] = {"mem(size=256k)", "mem(size=64k, bs=4096)"};
	static char *names[2] = {"", "ro"};
	struct rl_build_ctx b;
	struct rl_err err;

	rl_build_ctx_init(&b);
	b.write_intent = true;
	b.quiet = true;
	if (rl_exec_create(RL_EXEC_PSYNC, 256, 0, &fuzz_ctx.ex))
		abort();
	for (int i = 0; i < 2; i++) {
		if (rl_target_open(specs[i], &b, &fuzz_exports[i].t, &err))
			abort();
		fuzz_exports[i].name = names[i];
		fuzz_exports[i].spec = (char *)specs[i];
		serve_export_init(&fuzz_exports[i], i == 1);
	}
	fuzz_ctx.exports = fuzz_exports;
	fuzz_ctx.nexports = 2;
	fuzz_ctx.max_inflight = 4; /* small, so backpressure is exercised */
}

/* Run the executor dry and send everything queued; returns the bytes sent. */
static size_t fuzz_pump(struct serve_conn *c, uint8_t *first, size_t *nfirst)
{
	struct iovec iov[16];
	size_t total = 0;

	for (;;) {
		while (!rl_exec_idle(fuzz_ctx.ex))
			if (rl_exec_run_once(fuzz_ctx.ex, true) < 0)
				abort();
		int k = serve_conn_tx_iov(c, iov, 16);
		if (!k)
			return total;
		size_t n = 0;
		for (int i = 0; i < k; i++) {
			for (size_t j = 0; j < iov[i].iov_len && *nfirst < 16; j++)
				first[(*nfirst)++] = ((const uint8_t *)iov[i].iov_base)[j];
			n += iov[i].iov_len;
		}
		serve_conn_tx_done(c, n);
		total += n;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t first[16];
	size_t nfirst = 0, off = 1;

	if (!fuzz_ctx.ex)
		fuzz_setup();
	if (size < 1)
		return 0;
	size_t chunk = 1 + data[0] % 61u;
	struct serve_conn *c = serve_conn_new(&fuzz_ctx, NULL);
	if (!c)
		return 0;
	fuzz_pump(c, first, &nfirst);
	while (off < size) {
		void *buf;
		size_t room = serve_conn_rx_space(c, &buf);
		if (!room)
			break; /* closing: the rest of the input is never read */
		size_t n = size - off;
		if (n > room)
			n = room;
		if (n > chunk)
			n = chunk;
		memcpy(buf, data + off, n);
		off += n;
		serve_conn_rx_done(c, n);
		fuzz_pump(c, first, &nfirst);
	}
	serve_conn_rx_eof(c);
	fuzz_pump(c, first, &nfirst);
	if (nfirst < 16 || memcmp(first, "NBDMAGICIHAVEOPT", 16))
		abort();
	if (!serve_conn_done(c))
		abort();
	serve_conn_free(c);
	return 0;
}
