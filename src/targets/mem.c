/*
 * mem.c - a RAM disk target that holds data.
 *
 *   mem(size=64m, bs=512)
 *
 * Backed by an anonymous private mapping, so untouched regions cost no
 * memory and read as zeros.  A bit per 64 KiB region records whether it
 * was ever written; reads of regions never written fill the buffer with
 * zeroes instead of copying, since reading the mapping there would fault
 * in a page per 4 KiB (most of a first read's time on a VM).  Reads and
 * writes are memcpy (or memset) and complete on
 * the next loop turn; trim zeroes the range (and gives whole pages back to
 * the kernel).  Concurrent requests from several threads touch disjoint or
 * overlapping ranges exactly as they would on a disk: no locking, no
 * ordering promise between overlapping in-flight requests.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/registry.h"

#define MEM_REGION_SHIFT 16

struct mem_state {
	uint8_t *data;
	size_t map_len;
	uint64_t *written; /* a bit per region: ever written (set before the copy) */
};

static bool mem_region_written(const struct mem_state *m, uint64_t r)
{
	return __atomic_load_n(&m->written[r >> 6], __ATOMIC_RELAXED) >> (r & 63) & 1;
}

static void mem_read(const struct mem_state *m, uint8_t *dst, uint64_t off, uint64_t len)
{
	uint64_t end = off + len;

	while (off < end) {
		uint64_t r = off >> MEM_REGION_SHIFT;
		bool w = mem_region_written(m, r);
		uint64_t stop = (r + 1) << MEM_REGION_SHIFT;

		while (stop < end && mem_region_written(m, stop >> MEM_REGION_SHIFT) == w)
			stop += 1ull << MEM_REGION_SHIFT;
		if (stop > end)
			stop = end;
		if (w)
			memcpy(dst, m->data + off, stop - off);
		else
			memset(dst, 0, stop - off);
		dst += stop - off;
		off = stop;
	}
}

static void mem_write(struct mem_state *m, const uint8_t *src, uint64_t off, uint64_t len)
{
	for (uint64_t r = off >> MEM_REGION_SHIFT; r <= (off + len - 1) >> MEM_REGION_SHIFT; r++)
		if (!mem_region_written(m, r))
			__atomic_fetch_or(&m->written[r >> 6], 1ull << (r & 63), __ATOMIC_RELAXED);
	memcpy(m->data + off, src, len);
}

static void mem_submit(struct rl_target *t, struct rl_io *io)
{
	struct mem_state *m = t->priv;

	switch (io->op) {
	case RL_OP_READ:
		if (io->buf)
			mem_read(m, io->buf, io->offset, io->len);
		break;
	case RL_OP_WRITE:
		if (io->buf && io->len)
			mem_write(m, io->buf, io->offset, io->len);
		break;
	case RL_OP_TRIM: {
		uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);
		uint64_t a = (io->offset + pg - 1) / pg * pg;
		uint64_t b = (io->offset + io->len) / pg * pg;
		if (b > a) {
			memset(m->data + io->offset, 0, a - io->offset);
			madvise(m->data + a, b - a, MADV_DONTNEED);
			memset(m->data + b, 0, io->offset + io->len - b);
		} else {
			memset(m->data + io->offset, 0, io->len);
		}
		break;
	}
	default:
		break;
	}
	rl_io_complete_later(io, 0);
}

static void mem_destroy(struct rl_target *t)
{
	struct mem_state *m = t->priv;

	if (m) {
		munmap(m->data, m->map_len);
		free(m->written);
		free(m);
	}
}

static const struct rl_target_ops mem_ops = {
    .name = "mem",
    .submit = mem_submit,
    .destroy = mem_destroy,
};

static const struct rl_param mem_params[] = {
    {.name = "size", .type = RL_PARAM_SIZE, .def = "64m", .help = "capacity, kept in RAM"},
    RL_GEOMETRY_PARAM_BS,
    {0},
};

static int mem_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                      struct rl_target **out, struct rl_err *err)
{
	uint64_t size;
	uint32_t bs;
	int rc;

	(void)ctx;
	if ((rc = rl_target_parse_geometry(node, mem_params, &size, &bs, err)))
		return rc;
	struct mem_state *m = calloc(1, sizeof(*m));
	struct rl_target *t = rl_target_alloc(&mem_ops, 0);
	if (!m || !t) {
		free(m);
		free(t);
		return -ENOMEM;
	}
	m->map_len = size;
	m->written = calloc((size >> MEM_REGION_SHIFT) / 64 + 1, sizeof(*m->written));
	if (!m->written) {
		free(m);
		free(t);
		return -ENOMEM;
	}
	m->data = mmap(NULL, size, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m->data == MAP_FAILED) {
		free(m->written);
		free(m);
		free(t);
		return rl_err_set(err, node->pos, "mem: cannot reserve %llu bytes of memory",
		                  (unsigned long long)size);
	}
	t->priv = m;
	t->size = size;
	t->block_size = bs;
	t->caps = RL_CAP_TRIM | RL_CAP_FLUSH | RL_CAP_DATA;
	*out = t;
	return 0;
}

static struct rl_target_type mem_type = {
    .name = "mem",
    .summary = "RAM disk that keeps data (reads return what was written)",
    .params = mem_params,
    .create = mem_create,
};
RL_TARGET_REGISTER(mem_type)
