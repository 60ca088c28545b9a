/*
 * cpu.c - CPU work as the I/O: fio's cpuio engine.
 *
 *   cpu(mode=noop, chunk=50ms)
 *
 * Each request burns the CPU of the thread that submits it and completes
 * with 0; nothing is stored.  mode=noop spins on the clock for chunk (a
 * wall-clock spin, as fio's: on a busy CPU it gets less CPU time than the
 * chunk); mode=qsort sorts 256 Ki pseudo-random 32-bit integers ascending,
 * descending, by their bytes and descending again, however long that
 * takes (fio's stress for the same mode).  The job's share of a CPU comes
 * from the runner, which idles after each request (workload/engine.c:
 * wl_engine_think_ns) and counts the requests without bytes.
 *
 * The target has no state a request changes, so the workers of several
 * jobs may share one: the qsort data is made per request on the heap of
 * the submitting thread (filling it costs about 1 % of the sorts).
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <time.h>

#include "core/registry.h"

#define CPU_QSORT_N (256u * 1024u) /* integers sorted per qsort burn */

enum cpu_mode { CPU_NOOP, CPU_QSORT };

struct cpu_state {
	enum cpu_mode mode;
	uint64_t chunk_ns;
};

static uint64_t cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void cpu_spin(uint64_t ns)
{
	uint64_t end = cpu_now() + ns;
	while (cpu_now() < end)
		__asm__ __volatile__("" ::: "memory");
}

static int cpu_cmp_up(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

static int cpu_cmp_down(const void *a, const void *b)
{
	return cpu_cmp_up(b, a);
}

static int cpu_cmp_byte(const void *a, const void *b)
{
	return (int)*(const int8_t *)a - (int)*(const int8_t *)b;
}

/* One qsort burn: 0, or -ENOMEM. */
static int cpu_qsort(void)
{
	int32_t *v = malloc(CPU_QSORT_N * sizeof(*v));
	uint32_t z = 362436069u, w = 521288629u; /* multiply-with-carry generator */

	if (!v)
		return -ENOMEM;
	for (uint32_t i = 0; i < CPU_QSORT_N; i++) {
		z = 36969u * (z & 65535u) + (z >> 16);
		w = 18000u * (w & 65535u) + (w >> 16);
		v[i] = (int32_t)((z << 16) + w);
	}
	qsort(v, CPU_QSORT_N, sizeof(*v), cpu_cmp_up);
	qsort(v, CPU_QSORT_N, sizeof(*v), cpu_cmp_down);
	qsort(v, CPU_QSORT_N * sizeof(*v), 1, cpu_cmp_byte);
	qsort(v, CPU_QSORT_N, sizeof(*v), cpu_cmp_down);
	free(v);
	return 0;
}

static void cpu_submit(struct rl_target *t, struct rl_io *io)
{
	struct cpu_state *s = t->priv;
	int rc = 0;

	if (io->op == RL_OP_READ || io->op == RL_OP_WRITE) {
		if (s->mode == CPU_QSORT)
			rc = cpu_qsort();
		else
			cpu_spin(s->chunk_ns);
	}
	rl_io_complete_later(io, rc);
}

static int cpu_describe(struct rl_target *t, struct json_object *obj)
{
	struct cpu_state *s = t->priv;

	json_object_object_add(obj, "mode",
	                       json_object_new_string(s->mode == CPU_QSORT ? "qsort" : "noop"));
	json_object_object_add(obj, "chunk_ns", json_object_new_int64((int64_t)s->chunk_ns));
	return 0;
}

static void cpu_destroy(struct rl_target *t)
{
	free(t->priv);
}

static const struct rl_target_ops cpu_ops = {
    .name = "cpu",
    .submit = cpu_submit,
    .describe = cpu_describe,
    .destroy = cpu_destroy,
};

static const char *const cpu_modes[] = {"noop", "qsort", NULL};

static const struct rl_param cpu_params[] = {
    {.name = "size", .type = RL_PARAM_SIZE, .def = "1g", .help = "capacity (nothing is stored)"},
    {.name = "mode",
     .type = RL_PARAM_ENUM,
     .def = "noop",
     .choices = cpu_modes,
     .help = "noop: each request spins for chunk; qsort: each request sorts 256 Ki integers "
             "four times"},
    {.name = "chunk",
     .type = RL_PARAM_TIME,
     .def = "50ms",
     .help = "mode=noop: how long each request spins"},
    {0},
};

static int cpu_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                      struct rl_target **out, struct rl_err *err)
{
	struct cpu_state *s = calloc(1, sizeof(*s));
	uint64_t size = 0;
	int mode = CPU_NOOP, rc;

	(void)ctx;
	if (!s)
		return -ENOMEM;
	if (node->nargs) {
		free(s);
		return rl_err_set(err, node->pos,
		                  "cpu takes no positional arguments, e.g. "
		                  "cpu(mode=qsort)");
	}
	if ((rc = rl_param_u64(node, cpu_params, "size", &size, err)) ||
	    (rc = rl_param_enum(node, cpu_params, "mode", &mode, err)) ||
	    (rc = rl_param_u64(node, cpu_params, "chunk", &s->chunk_ns, err)) ||
	    (rc = rl_params_check(node, cpu_params, err))) {
		free(s);
		return rc;
	}
	if (size < 512) {
		free(s);
		return rl_err_set(err, node->pos, "cpu: size must be at least 512 bytes");
	}
	struct rl_target *t = rl_target_alloc(&cpu_ops, 0);
	if (!t) {
		free(s);
		return -ENOMEM;
	}
	s->mode = (enum cpu_mode)mode;
	t->priv = s;
	t->block_size = 512;
	t->size = size / 512 * 512;
	t->caps = RL_CAP_FLUSH | RL_CAP_REAL;
	*out = t;
	return 0;
}

static struct rl_target_type cpu_type = {
    .name = "cpu",
    .summary = "CPU work as the I/O: each request burns CPU and moves nothing (fio's cpuio "
               "engine)",
    .params = cpu_params,
    .create = cpu_create,
};
RL_TARGET_REGISTER(cpu_type)
