/*
 * fuzz_trace.c - libFuzzer target for the trace parsers (fio iolog v2/v3,
 * blkparse text, the kernel blk tracer's text).
 *
 * Design: the input is parsed as a whole trace, not NUL-terminated, so a
 * parser that reads past its buffer is caught by ASan.  Beyond the
 * sanitizers it checks the contracts callers rely on: a failure leaves the
 * trace empty and writes a NUL-terminated message (also into a tiny
 * buffer); a success holds at least one request, every request's direction
 * is known, flushes carry no range, data requests have a length within
 * WL_TRACE_LEN_MAX, and the footprint covers every request.  A parsed trace
 * is then mapped onto a small region, which must keep every request inside.
 */
#include "workload/trace.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_check(const struct wl_trace *tr)
{
	for (size_t i = 0; i < tr->n; i++) {
		const struct wl_trace_io *io = &tr->io[i];
		if (io->op >= RL_OP_COUNT)
			abort();
		if (io->op == RL_OP_FLUSH && (io->off || io->len))
			abort();
		if (io->op != RL_OP_FLUSH &&
		    (!io->len || io->len > WL_TRACE_LEN_MAX || io->off + io->len > tr->end))
			abort();
		uint64_t off;
		uint32_t len;
		if (io->op != RL_OP_FLUSH) {
			wl_trace_map(io, 4096, 1 << 20, 512, &off, &len);
			if (off < 4096 || off + len > 4096 + (1 << 20) || off % 512 || len % 512)
				abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wl_trace tr;
	char msg[512], tiny[6];
	char *copy = malloc(size ? size : 1);

	if (!copy)
		return 0;
	memcpy(copy, data, size); /* an exact-size copy: no terminator to lean on */
	int ret = wl_trace_parse(copy, size, "fuzz", &tr, msg, sizeof(msg));
	if (ret) {
		if (tr.n || tr.io || !msg[0] || strnlen(msg, sizeof(msg)) == sizeof(msg))
			abort();
	} else {
		if (!tr.n)
			abort();
		fuzz_check(&tr);
		struct wl_trace_summary s;
		wl_trace_summarize(&tr, &s);
		if (s.footprint > tr.end)
			abort();
	}
	wl_trace_free(&tr);
	ret = wl_trace_parse(copy, size, "fuzz", &tr, tiny, sizeof(tiny));
	if (ret && strnlen(tiny, sizeof(tiny)) == sizeof(tiny))
		abort();
	wl_trace_free(&tr);
	free(copy);
	return 0;
}
