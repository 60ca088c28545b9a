/*
 * test_fault_campaign.c - seeded fault schedules against the mirrors and the
 * write-back cache, each judged by an oracle that knows the faults.
 *
 * Mirrors: 320 schedules over raid1 x2 and raid10 x4 (n2, f2, o2), with mem
 * or file members.  Each member sits under two faulty() layers: isolated
 * read errors (at=, ops=read), isolated write errors (at=, ops=write) and
 * sometimes a vanish (vanish-after=N: every request fails from then on);
 * max-read-errors is drawn too.  The driver writes the whole array, then
 * mixes random writes and reads, rebuilds a failed member mid-run when one
 * can be rebuilt, and reads the whole array back.  Every block written
 * carries a header (block number, write version) and a CRC-32C of its
 * payload (the engine's verify=crc32c idea), so a read proves which write
 * it returns.  The oracle:
 *   - a host error is legitimate only if some block of the request had no
 *     good copy: none of its copies was on a member that was in sync
 *     before the request, did not vanish, and had no fault over that copy
 *     (read faults for reads, write faults for writes);
 *   - a block whose last write succeeded must read back as that write.
 * Counted over the campaign: host errors while a good copy existed, verify
 * mismatches - both must be zero - and crashes (the program finishing, and
 * clean under ASan/UBSan).
 *
 * Engine: 24 of the mirrors under the workload engine (random reads and
 * writes at depth 16, then verify=crc32c), read faults on one member: not
 * one I/O error and not one bad block.
 *
 * Cache: 60 schedules of cache(faulty(mem|file, ops=write, at=...),
 * write=back) with random writes.  After the end of the run (finish: the
 * final write-back), every acknowledged write is either on the member or
 * inside a range the cache reports as lost_acknowledged; nothing is
 * silently missing, and data is reported lost only when destages failed.
 */
#include <errno.h>
#include <json-c/json.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "campaign_blocks.h"
#include "core/crc32c.h"
#include "core/exec.h"
#include "core/registry.h"
#include "core/sync.h"
#include "raid/raid_common.h"
#include "raid/rebuild.h"
#include "workload/run.h"

#define MEMBER_SIZE (1u << 20)
#define MAX_BLOCKS  1024u
#define UNKNOWN     UINT32_MAX

/* --- a schedule's faults, per member (member offsets) --- */

struct range {
	uint64_t off, len;
};

struct member_faults {
	struct range rd[2], wr[1];
	unsigned nrd, nwr;
	uint64_t vanish_after; /* 0: never */
};

struct sched {
	unsigned level; /* 0 raid1 x2, 1 raid10 n2 x4, 2 f2, 3 o2 */
	unsigned n;
	bool files;
	unsigned max_read_errors;
	struct member_faults mf[4];
	char dir[64];
};

struct tally {
	unsigned schedules, host_errors, bad_host_errors, mismatches, rebuilds, rebuild_failed;
	unsigned members_failed, failed_without_reason;
	uint64_t fixed;
};

static bool overlaps(const struct range *r, unsigned n, uint64_t off, uint64_t len)
{
	for (unsigned i = 0; i < n; i++)
		if (off < r[i].off + r[i].len && r[i].off < off + len)
			return true;
	return false;
}

static void ranges_append(char *buf, size_t cap, const struct range *r, unsigned n)
{
	size_t used = strlen(buf);

	for (unsigned i = 0; i < n; i++)
		used +=
		    (size_t)snprintf(buf + used, cap - used, "%s%llu:%llu", i ? "+" : "",
		                     (unsigned long long)r[i].off, (unsigned long long)r[i].len);
}

static void sched_draw(struct sched *s, unsigned seed)
{
	static const unsigned max_errs[] = {0, 1, 5, 20};

	rng_state = 0x2545f4914f6cdd1dull * (seed + 1);
	memset(s, 0, sizeof(*s));
	s->level = seed % 4;
	s->n = s->level ? 4 : 2;
	s->files = (seed / 4) % 3 == 0;
	s->max_read_errors = max_errs[rnd(0, 3)];
	for (unsigned m = 0; m < s->n; m++) {
		struct member_faults *f = &s->mf[m];
		if (rnd(0, 99) < 60) {
			f->nrd = (unsigned)rnd(1, 2);
			for (unsigned i = 0; i < f->nrd; i++)
				f->rd[i] = (struct range){rnd(0, MEMBER_SIZE / BS - 4) * BS,
				                          rnd(1, 4) * BS};
		}
		if (rnd(0, 99) < 20) {
			f->nwr = 1;
			f->wr[0] =
			    (struct range){rnd(0, MEMBER_SIZE / BS - 4) * BS, rnd(1, 4) * BS};
		}
		if (rnd(0, 99) < 10)
			f->vanish_after = rnd(20, 600);
	}
}

static char *sched_spec(struct sched *s)
{
	static const char *const layouts[] = {"", "n2", "f2", "o2"};
	char *spec = calloc(1, 8192);
	size_t used;

	snprintf(spec, 8192, "%s(", s->level ? "raid10" : "raid1");
	for (unsigned m = 0; m < s->n; m++) {
		const struct member_faults *f = &s->mf[m];
		char leaf[160], inner[512], outer[1024];
		if (s->files)
			snprintf(leaf, sizeof(leaf), "file(%s/m%u.img, size=%u, direct=off)",
			         s->dir, m, MEMBER_SIZE);
		else
			snprintf(leaf, sizeof(leaf), "mem(size=%u)", MEMBER_SIZE);
		snprintf(inner, sizeof(inner), "faulty(%s, ops=read", leaf);
		if (f->nrd) {
			strcat(inner, ", at=");
			ranges_append(inner, sizeof(inner), f->rd, f->nrd);
		}
		strcat(inner, ")");
		snprintf(outer, sizeof(outer), "faulty(%s, ops=write", inner);
		if (f->nwr) {
			strcat(outer, ", at=");
			ranges_append(outer, sizeof(outer), f->wr, f->nwr);
		}
		if (f->vanish_after) {
			used = strlen(outer);
			snprintf(outer + used, sizeof(outer) - used, ", vanish-after=%llu",
			         (unsigned long long)f->vanish_after);
		}
		strcat(outer, ")");
		strcat(spec, outer);
		strcat(spec, ", ");
	}
	used = strlen(spec);
	snprintf(spec + used, 8192 - used, "max-read-errors=%u%s%s%s", s->max_read_errors,
	         s->level ? ", chunk=64k, layout=" : "", layouts[s->level], ")");
	return spec;
}

/* --- the oracle --- */

static uint64_t report_u64(struct rl_target *t, const char *key)
{
	struct json_object *r = rl_target_report(t), *v;
	uint64_t x = 0;

	if (json_object_object_get_ex(r, key, &v))
		x = (uint64_t)json_object_get_int64(v);
	json_object_put(r);
	return x;
}

/* Has member @m's device vanished (by now)? */
static bool member_vanished(struct rl_target *t, const struct sched *s, unsigned m)
{
	return s->mf[m].vanish_after &&
	       report_u64(t->children[m], "requests") >= s->mf[m].vanish_after;
}

/*
 * Was there a good copy of all of [off, off+len) for @op?  A copy is good
 * when its member was in sync before the request (@before) and still is
 * (@after: not failed during it - members are failed only for a reason,
 * checked per schedule), did not vanish, and has no fault over the copy.
 * Reads are judged per block (the array retries a failed piece block by
 * block); writes per piece, since a member that fails a write is failed.
 */
static bool good_copies(struct rl_target *t, const struct sched *s, const bool *before,
                        const bool *after, enum rl_op op, uint64_t off, uint64_t len)
{
	struct raid_array *a = raid_array_of(t);
	struct raid_loc locs[RAID_MAX_MEMBERS];

	for (uint64_t b = off; b < off + len;) {
		uint64_t plen;
		unsigned n =
		    a->level->locate(a, b, op == RL_OP_READ ? BS : off + len - b, &plen, locs);
		bool good = false;
		for (unsigned i = 0; i < n && !good; i++) {
			unsigned m = locs[i].member;
			const struct member_faults *f = &s->mf[m];
			good = before[m] && after[m] && !member_vanished(t, s, m) &&
			       !(op == RL_OP_READ ? overlaps(f->rd, f->nrd, locs[i].offset, plen)
			                          : overlaps(f->wr, f->nwr, locs[i].offset, plen));
		}
		if (!good)
			return false;
		b += plen;
	}
	return true;
}

static void states(struct rl_target *t, bool *insync)
{
	struct raid_array *a = raid_array_of(t);

	for (unsigned m = 0; m < a->n; m++)
		insync[m] = raid_member_readable(a, m);
}

struct run {
	struct rl_target *t;
	struct rl_exec *ex;
	struct sched *s;
	struct tally *tl;
	uint32_t ver[MAX_BLOCKS];
	uint32_t next_version;
	uint8_t *buf;
	unsigned seed;
	const char *spec;
};

static void host_error(struct run *r, enum rl_op op, uint64_t off, uint64_t len, const bool *in)
{
	bool after[RAID_MAX_MEMBERS];

	states(r->t, after);
	r->tl->host_errors++;
	if (good_copies(r->t, r->s, in, after, op, off, len)) {
		r->tl->bad_host_errors++;
		print_message("schedule %u: host %s error at %llu+%llu while a good copy existed\n",
		              r->seed, op == RL_OP_READ ? "read" : "write", (unsigned long long)off,
		              (unsigned long long)len);
		if (getenv("CAMPAIGN_DEBUG")) {
			struct json_object *rep = rl_target_report(r->t);
			print_message("  before: %d %d %d %d\n  %s\n  %s\n", in[0], in[1], in[2],
			              in[3], r->spec, json_object_to_json_string(rep));
			json_object_put(rep);
		}
	}
}

static void do_write(struct run *r, uint64_t off, uint64_t len)
{
	bool in[RAID_MAX_MEMBERS];
	uint32_t v = ++r->next_version;
	int rc;

	for (uint64_t b = 0; b < len; b += BS)
		blk_fill(r->buf + b, (uint32_t)((off + b) / BS), v);
	states(r->t, in);
	rc = rl_io_sync(r->t, r->ex, RL_OP_WRITE, off, (uint32_t)len, r->buf, 0);
	for (uint64_t b = 0; b < len; b += BS)
		r->ver[(off + b) / BS] = rc ? UNKNOWN : v; /* a failed write: content unknown */
	if (rc)
		host_error(r, RL_OP_WRITE, off, len, in);
}

static void do_read(struct run *r, uint64_t off, uint64_t len)
{
	bool in[RAID_MAX_MEMBERS];
	int rc;

	states(r->t, in);
	rc = rl_io_sync(r->t, r->ex, RL_OP_READ, off, (uint32_t)len, r->buf, 0);
	if (rc) {
		host_error(r, RL_OP_READ, off, len, in);
		return;
	}
	for (uint64_t b = 0; b < len; b += BS) {
		uint32_t blk = (uint32_t)((off + b) / BS);
		if (r->ver[blk] != UNKNOWN && !blk_check(r->buf + b, blk, r->ver[blk])) {
			r->tl->mismatches++;
			print_message("schedule %u: block %u does not hold write %u\n", r->seed,
			              blk, r->ver[blk]);
		}
	}
}

/* Rebuild a failed member whose device is still there (in place, mid-run). */
static void maybe_rebuild(struct run *r)
{
	struct raid_array *a = raid_array_of(r->t);
	struct raid_rebuild_opts o = {0};
	struct raid_rebuild_result res;
	char msg[256];

	for (unsigned m = 0; m < a->n; m++) {
		/* a member failed by a write fault would fail again: skip it */
		if (raid_member_readable(a, m) || member_vanished(r->t, r->s, m) || r->s->mf[m].nwr)
			continue;
		o.member = m;
		o.unit = 16 * 1024;
		r->tl->rebuilds++;
		if (raid_rebuild(r->t, r->ex, &o, &res, msg, sizeof(msg)))
			r->tl->rebuild_failed++; /* the member stays failed: the oracle knows */
		return;
	}
}

static void run_schedule(unsigned seed, struct tally *tl)
{
	struct sched s;
	struct run *r = calloc(1, sizeof(*r));
	struct rl_build_ctx ctx;
	struct rl_err err = {0};
	char *spec;
	uint64_t size;

	sched_draw(&s, seed);
	snprintf(s.dir, sizeof(s.dir), "%s", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	if (s.files) {
		size_t used = strlen(s.dir);
		snprintf(s.dir + used, sizeof(s.dir) - used, "/rl-campaign-%d-%u", (int)getpid(),
		         seed);
		assert_int_equal(mkdir(s.dir, 0700), 0);
	}
	spec = sched_spec(&s);
	rl_build_ctx_init(&ctx);
	ctx.write_intent = true;
	if (rl_target_open(spec, &ctx, &r->t, &err))
		fail_msg("schedule %u: cannot open %s: %s", seed, spec, err.msg);
	assert_int_equal(rl_exec_create(RL_EXEC_PSYNC, 64, 0, &r->ex), 0);
	assert_int_equal(rl_target_attach(r->t, r->ex), 0);
	r->s = &s;
	r->tl = tl;
	r->seed = seed;
	r->spec = spec;
	r->buf = malloc(64 * 1024);
	size = r->t->size;
	assert_true(size / BS <= MAX_BLOCKS);
	for (uint64_t b = 0; b < size / BS; b++)
		r->ver[b] = UNKNOWN;

	/* fill, then a random mix with a rebuild half-way, then read it all */
	for (uint64_t off = 0; off < size; off += 64 * 1024)
		do_write(r, off, size - off < 65536 ? size - off : 65536);
	for (unsigned i = 0; i < 160; i++) {
		uint64_t len = rnd(1, 8) * BS;
		uint64_t off = rnd(0, (size - len) / BS) * BS;
		if (i == 80)
			maybe_rebuild(r);
		if (rng() & 1)
			do_write(r, off, len);
		else
			do_read(r, off, len);
	}
	for (uint64_t off = 0; off < size; off += 16 * 1024)
		do_read(r, off, 16 * 1024);

	/* a member is failed only for a reason: a write fault it took (a
	 * failed rebuild included), its device vanished, or more read errors
	 * than max-read-errors */
	struct raid_array *a = raid_array_of(r->t);
	for (unsigned m = 0; m < a->n; m++) {
		struct json_object *rep, *v;
		uint64_t write_faults = 0;
		if (raid_member_readable(a, m))
			continue;
		tl->members_failed++;
		rep = rl_target_report(r->t->children[m]);
		if (json_object_object_get_ex(rep, "errors_at", &v))
			write_faults = (uint64_t)json_object_get_int64(v);
		json_object_put(rep);
		if (!write_faults && !member_vanished(r->t, &s, m) &&
		    atomic_load(&a->m[m].read_errors) <= s.max_read_errors) {
			tl->failed_without_reason++;
			print_message("schedule %u: member %u failed without a reason\n", seed, m);
		}
	}
	tl->fixed += report_u64(r->t, "read_errors_fixed");
	tl->schedules++;
	rl_target_finish(r->t);
	rl_target_close(r->t);
	rl_exec_destroy(r->ex);
	if (s.files)
		rmdir(s.dir);
	free(r->buf);
	free(r);
	free(spec);
}

static void test_mirror_campaign(void **state)
{
	struct tally tl = {0};

	(void)state;
	for (unsigned seed = 0; seed < 320; seed++)
		run_schedule(seed, &tl);
	print_message("mirror campaign: %u schedules, %u host errors (%u while a good copy "
	              "existed), %u verify mismatches, %u members failed, %llu copies "
	              "rewritten after read errors, %u rebuilds (%u failed)\n",
	              tl.schedules, tl.host_errors, tl.bad_host_errors, tl.mismatches,
	              tl.members_failed, (unsigned long long)tl.fixed, tl.rebuilds,
	              tl.rebuild_failed);
	assert_int_equal(tl.schedules, 320);
	assert_int_equal(tl.bad_host_errors, 0);
	assert_int_equal(tl.mismatches, 0);
	assert_int_equal(tl.failed_without_reason, 0);
	/* the faults did happen: the campaign is not vacuous */
	assert_true(tl.host_errors > 0);
	assert_true(tl.fixed > 0);
	assert_true(tl.members_failed > 0);
	assert_true(tl.rebuilds > tl.rebuild_failed);
}

/*
 * The same mirrors through the workload engine: random reads and writes at
 * depth 16 (so reads, their retries and rewrites overlap host writes), then
 * the engine's verify=crc32c pass.  Read faults sit on one member, so every
 * block always has a good copy: no I/O may fail and nothing may mismatch.
 */
static void test_engine_campaign(void **state)
{
	static const char *const layouts[] = {"", "n2", "f2", "o2"};
	unsigned errors = 0, bad = 0;
	uint64_t fixed = 0, skipped = 0;
	char msg[512];

	(void)state;
	for (unsigned seed = 0; seed < 24; seed++) {
		unsigned level = seed % 4, n = level ? 4 : 2, faulty_m;
		char spec[2048] = "";
		struct rl_build_ctx ctx;
		struct rl_err err = {0};
		struct rl_target *t = NULL;
		struct wl_job job;
		struct wl_result res;
		struct json_object *rep, *v;

		rng_state = 0x5851f42d4c957f2dull * (seed + 3);
		faulty_m = (unsigned)rnd(0, n - 1);
		snprintf(spec, sizeof(spec), "%s(", level ? "raid10" : "raid1");
		for (unsigned m = 0; m < n; m++) {
			char one[256];
			if (m == faulty_m)
				snprintf(one, sizeof(one),
				         "faulty(mem(size=%u), ops=read, at=%llu:%llu+%llu:%llu), ",
				         MEMBER_SIZE, (unsigned long long)(rnd(0, 100) * BS),
				         (unsigned long long)(rnd(1, 4) * BS),
				         (unsigned long long)(rnd(128, 250) * BS),
				         (unsigned long long)(rnd(1, 4) * BS));
			else
				snprintf(one, sizeof(one), "mem(size=%u), ", MEMBER_SIZE);
			strcat(spec, one);
		}
		snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec),
		         "max-read-errors=%u%s%s)", (unsigned)rnd(0, 30),
		         level ? ", chunk=64k, layout=" : "", layouts[level]);
		rl_build_ctx_init(&ctx);
		ctx.write_intent = true;
		if (rl_target_open(spec, &ctx, &t, &err))
			fail_msg("engine schedule %u: cannot open %s: %s", seed, spec, err.msg);
		wl_job_init(&job);
		if (wl_job_set(&job, "rw", "randrw", "test", msg, sizeof(msg)) ||
		    wl_job_set(&job, "bssplit", "4k/50:16k/30:64k/20", "test", msg, sizeof(msg)) ||
		    wl_job_set(&job, "iodepth", "16", "test", msg, sizeof(msg)) ||
		    wl_job_set(&job, "loops", "3", "test", msg, sizeof(msg)) ||
		    wl_job_set(&job, "verify", "crc32c", "test", msg, sizeof(msg)) ||
		    wl_job_set(&job, "ioengine", seed % 2 ? "psync" : "io_uring", "test", msg,
		               sizeof(msg)))
			fail_msg("job: %s", msg);
		if (wl_run_job(t, &job, NULL, &res, msg, sizeof(msg)))
			fail_msg("engine schedule %u: %s", seed, msg);
		assert_true(res.verified);
		errors += (unsigned)res.errors;
		bad += (unsigned)res.verify_bad;
		if (res.errors || res.verify_bad)
			print_message("engine schedule %u (%s): %llu errors, %llu bad blocks: %s\n",
			              seed, spec, (unsigned long long)res.errors,
			              (unsigned long long)res.verify_bad, res.verify_msg);
		rep = rl_target_report(t);
		if (json_object_object_get_ex(rep, "read_errors_fixed", &v))
			fixed += (uint64_t)json_object_get_int64(v);
		if (json_object_object_get_ex(rep, "read_fixes_skipped", &v))
			skipped += (uint64_t)json_object_get_int64(v);
		json_object_put(rep);
		wl_result_free(&res);
		rl_target_finish(t);
		rl_target_close(t);
	}
	print_message("engine campaign: 24 schedules at depth 16 with verify=crc32c: %u I/O "
	              "errors, %u bad blocks, %llu rewrites, %llu skipped while writes ran\n",
	              errors, bad, (unsigned long long)fixed, (unsigned long long)skipped);
	assert_int_equal(errors, 0);
	assert_int_equal(bad, 0);
	assert_true(fixed + skipped > 0);
}

/* --- write-back cache over a member whose writes fail in places --- */

static void drain(struct rl_exec *ex)
{
	for (int i = 0; i < 1000000 && !rl_exec_idle(ex); i++)
		if (rl_exec_run_once(ex, true) < 0)
			break;
}

static void test_cache_campaign(void **state)
{
	unsigned silent = 0, lost_blocks = 0, host_errors = 0, with_errors = 0;

	(void)state;
	for (unsigned seed = 0; seed < 60; seed++) {
		struct range bad[3];
		unsigned nbad = (unsigned)(seed % 4); /* some schedules have no fault at all */
		char spec[1024], leaf[160], dir[96] = "";
		struct rl_build_ctx ctx;
		struct rl_err err = {0};
		struct rl_target *t = NULL, *below;
		struct rl_exec *ex;
		static uint32_t ver[MAX_BLOCKS];
		uint8_t *buf = malloc(64 * 1024);
		struct json_object *rep, *ranges, *v;
		uint64_t size, lost_bytes = 0, destage_errors;

		rng_state = 0x9fb21c651e98df25ull * (seed + 7);
		for (unsigned i = 0; i < nbad; i++)
			bad[i] = (struct range){rnd(0, 500) * BS, rnd(1, 8) * BS};
		if (seed % 3 == 0) {
			snprintf(dir, sizeof(dir), "%s/rl-cache-campaign-%d-%u",
			         access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", (int)getpid(),
			         seed);
			assert_int_equal(mkdir(dir, 0700), 0);
			snprintf(leaf, sizeof(leaf), "file(%s/c.img, size=2m, direct=off)", dir);
		} else {
			snprintf(leaf, sizeof(leaf), "mem(size=2m)");
		}
		snprintf(spec, sizeof(spec), "cache(faulty(%s, ops=write", leaf);
		if (nbad) {
			strcat(spec, ", at=");
			ranges_append(spec, sizeof(spec), bad, nbad);
		}
		snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec),
		         "), size=%s, line=16k, write=back, dirty-high=%u%%, dirty-low=10%%, "
		         "idle-flush=%s)",
		         seed % 2 ? "256k" : "1m", (unsigned)rnd(30, 90), seed % 4 ? "0" : "1ms");
		rl_build_ctx_init(&ctx);
		ctx.write_intent = true;
		if (rl_target_open(spec, &ctx, &t, &err))
			fail_msg("cache schedule %u: cannot open %s: %s", seed, spec, err.msg);
		assert_int_equal(rl_exec_create(RL_EXEC_PSYNC, 64, 0, &ex), 0);
		assert_int_equal(rl_target_attach(t, ex), 0);
		size = t->size;
		for (uint64_t b = 0; b < size / BS; b++)
			ver[b] = UNKNOWN;
		for (unsigned i = 0; i < 400; i++) {
			uint64_t len = rnd(1, 8) * BS, off = rnd(0, (size - len) / BS) * BS;
			uint32_t vv = i + 1;
			int rc;
			for (uint64_t b = 0; b < len; b += BS)
				blk_fill(buf + b, (uint32_t)((off + b) / BS), vv);
			rc = rl_io_sync(t, ex, RL_OP_WRITE, off, (uint32_t)len, buf, 0);
			host_errors += rc != 0;
			for (uint64_t b = 0; b < len; b += BS)
				ver[(off + b) / BS] = rc ? UNKNOWN : vv;
		}
		drain(ex);
		rl_target_finish(t); /* the final write-back */
		rep = rl_target_report(t);
		destage_errors = json_object_object_get_ex(rep, "destage_errors", &v)
		                     ? (uint64_t)json_object_get_int64(v)
		                     : 0;
		assert_true(json_object_object_get_ex(rep, "lost_acknowledged_ranges", &ranges));
		assert_true(
		    json_object_object_get_ex(rep, "lost_acknowledged_ranges_truncated", &v));
		assert_false(json_object_get_boolean(v));
		with_errors += destage_errors > 0;
		/* every acknowledged block: on the member, or inside a reported range */
		below = t->children[0];
		for (uint64_t off = 0; off < size; off += BS) {
			uint32_t blk = (uint32_t)(off / BS);
			bool reported = false;
			if (ver[blk] == UNKNOWN)
				continue;
			assert_int_equal(
			    rl_io_sync(below->children[0], ex, RL_OP_READ, off, BS, buf, 0), 0);
			for (size_t k = 0; k < json_object_array_length(ranges); k++) {
				struct json_object *r = json_object_array_get_idx(ranges, k), *o,
				                   *l;
				json_object_object_get_ex(r, "offset", &o);
				json_object_object_get_ex(r, "length", &l);
				if (off >= (uint64_t)json_object_get_int64(o) &&
				    off < (uint64_t)(json_object_get_int64(o) +
				                     json_object_get_int64(l)))
					reported = true;
			}
			if (reported) {
				lost_blocks++;
				lost_bytes += BS;
			} else if (!blk_check(buf, blk, ver[blk])) {
				silent++;
				print_message(
				    "cache schedule %u: block %u silently lacks write %u\n", seed,
				    blk, ver[blk]);
			}
		}
		/* data is reported lost only when destages failed, and only where faults are */
		if (!destage_errors)
			assert_int_equal(lost_bytes, 0);
		for (size_t k = 0; k < json_object_array_length(ranges); k++) {
			struct json_object *r = json_object_array_get_idx(ranges, k), *o, *l;
			json_object_object_get_ex(r, "offset", &o);
			json_object_object_get_ex(r, "length", &l);
			assert_true(overlaps(bad, nbad, (uint64_t)json_object_get_int64(o),
			                     (uint64_t)json_object_get_int64(l)));
		}
		json_object_put(rep);
		rl_target_close(t);
		rl_exec_destroy(ex);
		if (dir[0]) {
			char p[160];
			snprintf(p, sizeof(p), "%s/c.img", dir);
			unlink(p);
			rmdir(dir);
		}
		free(buf);
	}
	print_message("cache campaign: 60 schedules, %u with destage errors, %u acknowledged "
	              "blocks reported lost, %u silently missing, %u host write errors\n",
	              with_errors, lost_blocks, silent, host_errors);
	assert_int_equal(silent, 0);
	assert_true(with_errors > 0);
	assert_true(lost_blocks > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_mirror_campaign),
	    cmocka_unit_test(test_engine_campaign),
	    cmocka_unit_test(test_cache_campaign),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
