/*
 * sim_speed.c - how fast the SSD simulator runs: simulated host I/Os per
 * second of wall-clock time and of CPU time, on one core.
 *
 *   sim_speed [PROFILE] [SECONDS_OF_SIMULATED_TIME] [CASES]
 *
 * Three cases on the full-size drive (default sx8200pro-256):
 *   (a) 4K random writes, QD32, in steady state (state=steady: GC on every write)
 *   (b) 4K random reads, QD32, full drive
 *   (c) 1M sequential reads, QD32, full drive
 * Each opens the drive (creation and preconditioning are timed apart), then
 * keeps QD32 requests in flight on a virtual executor until the simulated
 * time has passed.  Only the run phase counts (with state=steady set up
 * directly, that includes the first touch of the mapping tables, which the
 * simulated way paid at creation).  CASES picks some of them ("a", "bc";
 * default all).  Linked against build/libraidlab.a by bench/sim-speed.sh
 * (or against an older build's library, to compare); independent of the job
 * runner.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/exec.h"
#include "core/registry.h"

#define QD 32

struct gen {
	struct rl_target *t;
	struct rl_exec *ex;
	int op;
	int random;
	uint32_t bs;
	uint64_t nblk, pos, rng, done, until;
	struct rl_io io[QD];
};

static uint64_t gen_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void gen_submit(struct gen *g, struct rl_io *io)
{
	uint64_t blk;

	if (g->random)
		blk = (uint64_t)(((unsigned __int128)gen_rand(&g->rng) * g->nblk) >> 64);
	else
		blk = g->pos++ % g->nblk;
	io->op = (uint8_t)g->op;
	io->offset = blk * g->bs;
	io->len = g->bs;
	io->ex = g->ex;
	rl_target_submit(g->t, io);
}

static void gen_done(struct rl_io *io, int status)
{
	struct gen *g = io->cb_arg;

	if (status) {
		fprintf(stderr, "sim_speed: I/O error %d\n", status);
		exit(1);
	}
	g->done++;
	if (rl_exec_now(g->ex) < g->until)
		gen_submit(g, io);
}

static double clk(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int run_case(const char *label, const char *spec, int op, int random, uint32_t bs,
                    double sim_s)
{
	struct rl_build_ctx ctx;
	struct rl_err err = {0};
	struct gen g;
	double w0, w1, w2, c1, c2;

	memset(&g, 0, sizeof(g));
	rl_build_ctx_init(&ctx);
	w0 = clk(CLOCK_MONOTONIC);
	if (rl_target_open(spec, &ctx, &g.t, &err)) {
		fprintf(stderr, "sim_speed: %s: %s\n", spec, err.msg);
		return 1;
	}
	if (rl_exec_create(RL_EXEC_VIRTUAL, 64, 0, &g.ex))
		return 1;
	g.op = op;
	g.random = random;
	g.bs = bs;
	g.nblk = g.t->size / bs;
	g.rng = 12345;
	g.until = (uint64_t)(sim_s * 1e9);
	w1 = clk(CLOCK_MONOTONIC);
	c1 = clk(CLOCK_PROCESS_CPUTIME_ID);
	for (int i = 0; i < QD; i++) {
		g.io[i].cb = gen_done;
		g.io[i].cb_arg = &g;
		gen_submit(&g, &g.io[i]);
	}
	while (!rl_exec_idle(g.ex))
		if (rl_exec_run_once(g.ex, true) < 0)
			return 1;
	w2 = clk(CLOCK_MONOTONIC);
	c2 = clk(CLOCK_PROCESS_CPUTIME_ID);
	double simt = (double)rl_exec_now(g.ex) / 1e9;
	printf("%-34s %10llu I/Os %7.2f s sim %6.2f s wall %6.2f s cpu  %6.2f M I/O/s wall  "
	       "%6.2f M I/O/s cpu  (%.0f MB/s simulated; open %.1f s)\n",
	       label, (unsigned long long)g.done, simt, w2 - w1, c2 - c1,
	       (double)g.done / (w2 - w1) / 1e6, (double)g.done / (c2 - c1) / 1e6,
	       (double)g.done * bs / simt / 1e6, w1 - w0);
	rl_target_close(g.t);
	rl_exec_destroy(g.ex);
	return 0;
}

int main(int argc, char **argv)
{
	const char *prof = argc > 1 ? argv[1] : "sx8200pro-256";
	double secs = argc > 2 ? atof(argv[2]) : 0;
	char spec[256];
	int rc = 0;

	const char *cases = argc > 3 ? argv[3] : "abc";

	snprintf(spec, sizeof(spec), "ssd(%s, state=steady)", prof);
	if (strchr(cases, 'a'))
		rc |= run_case("(a) 4K randwrite QD32 steady", spec, RL_OP_WRITE, 1, 4096,
		               secs ? secs : 300);
	snprintf(spec, sizeof(spec), "ssd(%s, state=full)", prof);
	if (strchr(cases, 'b'))
		rc |= run_case("(b) 4K randread QD32", spec, RL_OP_READ, 1, 4096, secs ? secs : 30);
	if (strchr(cases, 'c'))
		rc |=
		    run_case("(c) 1M seqread QD32", spec, RL_OP_READ, 0, 1 << 20, secs ? secs : 30);
	return rc;
}
