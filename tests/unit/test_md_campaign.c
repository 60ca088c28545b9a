/*
 * test_md_campaign.c - crash and fault schedules over md arrays on file
 * members, judged against an exact record of what was acknowledged.
 *
 * 200 seeded schedules per level (raid1 x2, raid10 n2 x4, raid5 x3, raid6
 * x4; 8 in a sanitizer build; MD_CAMPAIGN_SCHEDULES overrides the count),
 * the levels in parallel processes, each schedule on small members
 * created by `raidlab create` (its own code, called in-process; half the
 * schedules with an internal bitmap):
 *   A  the first third of the array written through md(all);
 *   B  the second third written while members fail: left out of md(...)
 *      (absent) or vanishing mid-run (faulty(..., vanish-after=N)), up to
 *      the level's redundancy;
 *   C  a child process opens md(all) (stale members are rebuilt first) and
 *      writes single blocks, each flushed, telling the parent before and
 *      after each; the parent kills it with SIGKILL at a random point, so
 *      the kill lands in the rebuild, between writes or inside one;
 *   D  md(all) opened for writing again: what the superblocks said before
 *      (dirty, stale members) must be what the open did (resynced,
 *      rebuilt: the "md" object of the array's report);
 *   E  every block ever acknowledged read back through md(all) and
 *      through md(...) with members left out (the rebuilt ones and the
 *      parity must serve it), then a consistency check (mirrors compared,
 *      parity recomputed) that must find nothing.
 * Around them: one schedule in eight starts with every event count near
 * the highest an open for writing accepts; every md(...) names its members
 * in a random order; C's writer rebuilds a stale member from slowed
 * sources in a third of the schedules that have one, so the kill lands in
 * the rebuild; after C, members too few to hold the data are opened for
 * writing and must be refused with no byte changed; and in a quarter of
 * the mirror schedules (F) the two halves are written apart, md(all) is
 * refused to read and to write, and survivor=0 settles it (the record
 * follows the kept half).  In half the parity schedules (G) one member
 * (raid6: one or two) of the open array is failed, written around, and
 * rebuilt a row at a time as `raidlab serve` rebuilds online (the array's
 * ROW and RECONSTRUCT requests), a client's verified writes and reads
 * between the rows; then everything is read back, whole and degraded.
 * After B, C and D `mdadm --examine` on the members must agree with
 * raidlab's view: the freshest superblock's Array State is the array's
 * member states, every in-sync member carries the freshest event count, and
 * State is clean after a clean stop, active after a kill that wrote.
 * A block being written when the kill came may hold the old or the new
 * version; every other acknowledged block must hold its last version.
 * Tallied and printed: blocks checked, lost, mismatches, unclean stops and
 * resyncs, stale members and rebuilds, mdadm comparisons and disagreements.
 *
 * tsan-skip: single-threaded (no thread to race; tests/unit/threads.c holds it to that)
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "campaign_blocks.h"
#include "cli/cli.h"
#include "core/exec.h"
#include "core/registry.h"
#include "core/sync.h"
#include "raid/md.h"
#include "raid/parity.h"
#include "raid/raid_common.h"
#include "raid/scrub.h"

#define NONE      UINT32_MAX
#define MAXB      1024u
#define MAXM      4u
#define DATA_OFF  (64u << 10)
#define MEMBER_SZ ((1u << 20) + DATA_OFF)

struct level {
	const char *name;
	unsigned n, redundancy;
	/* a slowed rebuild: each request to its sources waits this long, so a
	 * kill 1-200 ms into the open lands in it (a mirror's rebuild is a few
	 * large requests, a parity rebuild a few per stripe) */
	unsigned slow_ms;
};

static const struct level levels[] = {
    {"raid1", 2, 1, 10}, {"raid10", 4, 1, 6}, {"raid5", 3, 1, 2}, {"raid6", 4, 2, 2}};

struct tally {
	unsigned schedules, blocks_checked, lost, mismatches;
	unsigned unclean, resynced, stale, rebuilt;
	unsigned examined, disagreements, kills_in_write;
	unsigned failed;        /* members left stale by phase B (rebuilt by C's open or D's) */
	unsigned slow_rebuilds; /* C's writer rebuilt from slowed sources (killed in it, mostly) */
	unsigned refused;       /* opens refused (too few members, split halves), nothing written */
	unsigned diverged;      /* mirrors written apart, refused, settled with survivor= */
	unsigned near_limit;    /* schedules with event counts near the highest accepted */
	unsigned online; /* parity: members rebuilt online with a client's I/O between rows */
	unsigned killed_in_rebuild; /* a member still carried its recovery offset after the kill */
};

struct sched {
	const struct level *lv;
	char dir[64];
	uint32_t nb;        /* array blocks */
	uint32_t ver[MAXB]; /* last acknowledged version (0: never written) */
	uint32_t alt[MAXB]; /* a write in flight at the kill: this version also fine */
	uint32_t next;      /* next version */
	const char *extra;  /* appended to every md(...) spec (survivor=0), or NULL */
	struct tally *tl;
};

static bool have_mdadm;

/* Member files live on tmpfs where there is one: the campaign is about md's
 * logic, and a flushed write there costs nothing (SIGKILL keeps the page
 * cache either way). */
static const char *campaign_dir(void)
{
	if (!access("/dev/shm", W_OK))
		return "/dev/shm";
	return getenv("TMPDIR") ? getenv("TMPDIR") : "/var/tmp";
}

static void fail_at(struct sched *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail_at(struct sched *s, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s in %s: ", s->lv->name, s->dir);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * "md(DIR/m0.img,...)" with member @skip_mask left out, @vanish[m] wrapped
 * and the members in @slow_mask behind a read latency (a slow rebuild
 * source), the members named in a random order (md takes each member's
 * role from its superblock, so the order must change nothing).
 */
static void spec_slow(const struct sched *s, unsigned skip_mask, const unsigned *vanish,
                      unsigned slow_mask, char *out, size_t cap)
{
	size_t l = (size_t)snprintf(out, cap, "md(");
	unsigned order[MAXM];

	for (unsigned i = 0; i < s->lv->n; i++)
		order[i] = i;
	for (unsigned i = s->lv->n - 1; i > 0; i--) {
		unsigned j = (unsigned)rnd(0, i), x = order[i];
		order[i] = order[j], order[j] = x;
	}
	for (unsigned i = 0; i < s->lv->n; i++) {
		unsigned m = order[i];
		if (skip_mask >> m & 1)
			continue;
		if (slow_mask >> m & 1)
			l += (size_t)snprintf(out + l, cap - l, "delay(%s/m%u.img,lat=%ums),",
			                      s->dir, m, s->lv->slow_ms);
		else if (vanish && vanish[m])
			l += (size_t)snprintf(out + l, cap - l,
			                      "faulty(%s/m%u.img,vanish-after=%u),", s->dir, m,
			                      vanish[m]);
		else
			l += (size_t)snprintf(out + l, cap - l, "%s/m%u.img,", s->dir, m);
	}
	if (s->extra)
		l += (size_t)snprintf(out + l, cap - l, "%s,", s->extra);
	out[l - 1] = ')';
}

static void spec_of(const struct sched *s, unsigned skip_mask, const unsigned *vanish, char *out,
                    size_t cap)
{
	spec_slow(s, skip_mask, vanish, 0, out, cap);
}

/* Open @spec as the campaign does (files kept, quiet); 0 or the open's error. */
static int md_try_open(const char *spec, bool write, struct rl_target **t, struct rl_err *err)
{
	struct rl_build_ctx ctx;

	rl_build_ctx_init(&ctx);
	ctx.write_intent = write;
	ctx.quiet = true;
	ctx.keep = true;
	ctx.buffered_ok = true;
	*t = NULL;
	return rl_target_open(spec, &ctx, t, err);
}

static struct rl_target *md_open(const char *spec, bool write)
{
	struct rl_err err = {0};
	struct rl_target *t = NULL;

	if (md_try_open(spec, write, &t, &err)) {
		fprintf(stderr, "opening %s: %s\n", spec, err.msg);
		return NULL;
	}
	return t;
}

/* md(all members) opened read-only; its spec in @spec. */
static struct rl_target *open_all(const struct sched *s, char *spec, size_t cap)
{
	struct rl_target *t;

	spec_of(s, 0, NULL, spec, cap);
	t = md_open(spec, false);
	assert_non_null(t);
	return t;
}

static void md_close(struct rl_target *t)
{
	rl_target_finish(t);
	rl_target_close(t);
}

static struct rl_exec *exec_for(struct rl_target *t)
{
	struct rl_exec *ex = NULL;

	assert_int_equal(rl_exec_create(RL_EXEC_PSYNC, 64, 0, &ex), 0);
	assert_int_equal(rl_target_attach(t, ex), 0);
	return ex;
}

/* Write blocks [b, b + len) as new versions; acknowledged ones are recorded. */
static int write_blocks(struct sched *s, struct rl_target *t, struct rl_exec *ex, uint8_t *buf,
                        uint32_t b, uint32_t len)
{
	int rc;

	for (uint32_t i = 0; i < len; i++)
		blk_fill(buf + (size_t)i * BS, b + i, s->next + i);
	rc = rl_io_sync(t, ex, RL_OP_WRITE, (uint64_t)b * BS, len * BS, buf, 0);
	if (!rc)
		rc = rl_io_sync(t, ex, RL_OP_FLUSH, 0, 0, NULL, 0);
	if (!rc)
		for (uint32_t i = 0; i < len; i++)
			s->ver[b + i] = s->next + i, s->alt[b + i] = NONE;
	s->next += len;
	return rc;
}

/* Random writes covering [lo, hi) once, 1-4 blocks each. */
static void write_region(struct sched *s, const char *spec, uint32_t lo, uint32_t hi)
{
	struct rl_target *t = md_open(spec, true);
	struct rl_exec *ex;
	uint8_t *buf = NULL;

	assert_non_null(t);
	ex = exec_for(t);
	assert_int_equal(posix_memalign((void **)&buf, 4096, 4 * BS), 0);
	for (uint32_t b = lo; b < hi;) {
		uint32_t len = (uint32_t)rnd(1, 4);
		if (len > hi - b)
			len = hi - b;
		if (write_blocks(s, t, ex, buf, b, len))
			fail_at(s, "write at block %u failed with the array still redundant", b);
		b += len;
	}
	free(buf);
	md_close(t);
	rl_exec_destroy(ex);
}

/* --- the superblocks as mdadm and raidlab see them --- */

struct exam {
	uint64_t events[MAXM];
	int role[MAXM];
	char array_state[MAXM][16];
	bool clean[MAXM];
	bool recovering[MAXM]; /* "Recovery Offset": a rebuild was under way */
};

static bool examine(const struct sched *s, struct exam *e)
{
	char cmd[512], line[256];
	size_t l = (size_t)snprintf(cmd, sizeof(cmd), "mdadm --examine");
	int m = -1;
	FILE *p;

	for (unsigned i = 0; i < s->lv->n; i++)
		l += (size_t)snprintf(cmd + l, sizeof(cmd) - l, " %s/m%u.img", s->dir, i);
	snprintf(cmd + l, sizeof(cmd) - l, " 2>/dev/null");
	p = popen(cmd, "r");
	if (!p)
		return false;
	memset(e, 0, sizeof(*e));
	while (fgets(line, sizeof(line), p)) {
		char *v = strstr(line, " : ");
		unsigned idx;
		if (line[0] == '/' && sscanf(strrchr(line, '/'), "/m%u.img:", &idx) == 1) {
			m = (int)idx;
			e->role[m] = -1;
			continue;
		}
		if (m < 0 || !v)
			continue;
		v += 3;
		if (strstr(line, "       Events :"))
			e->events[m] = strtoull(v, NULL, 10);
		else if (strstr(line, "Device Role : Active device "))
			e->role[m] = atoi(v + strlen("Active device "));
		else if (strstr(line, "Array State :"))
			sscanf(v, "%15s", e->array_state[m]);
		else if (strstr(line, "          State :"))
			e->clean[m] = !strncmp(v, "clean", 5);
		else if (strstr(line, "Recovery Offset :"))
			e->recovering[m] = true;
	}
	return pclose(p) == 0;
}

/*
 * mdadm agrees with raidlab: the freshest superblock's Array State, less
 * the members mdadm shows in recovery (its Array State marks a recovering
 * member active: the role is its, the data not yet) and those more than
 * one event behind (md's assembly takes one behind as in sync), is the
 * member states of md(all) opened read-only; every in-sync member is
 * within one event of the freshest; and the array is clean (or not) as
 * @want_clean says (-1: either).  Returns the freshest superblock's clean
 * flag.
 */
static bool agree(struct sched *s, int want_clean)
{
	struct exam e;
	char spec[512], view[MAXM + 1] = "", mdv[16];
	struct rl_target *t;
	struct raid_array *a;
	unsigned best = 0;

	t = open_all(s, spec, sizeof(spec));
	a = raid_array_of(t);
	for (unsigned m = 0; m < a->n; m++)
		view[m] = raid_member_readable(a, m) ? 'A' : '.';
	md_close(t);
	if (!have_mdadm)
		return true;
	s->tl->examined++;
	if (!examine(s, &e)) {
		s->tl->disagreements++;
		fail_at(s, "mdadm --examine failed");
		return true;
	}
	for (unsigned m = 1; m < s->lv->n; m++)
		if (e.events[m] > e.events[best])
			best = m;
	strcpy(mdv, e.array_state[best]);
	for (unsigned m = 0; m < s->lv->n; m++) {
		int r = e.role[m];
		if (r >= 0 && (unsigned)r < s->lv->n && r < (int)strlen(mdv) &&
		    (e.recovering[m] || e.events[best] - e.events[m] > 1))
			mdv[r] = '.';
	}
	if (strcmp(mdv, view)) {
		s->tl->disagreements++;
		fail_at(s, "mdadm says %s (m%u's Array State %s), raidlab %s", mdv, best,
		        e.array_state[best], view);
	}
	for (unsigned m = 0; m < s->lv->n; m++) {
		int r = e.role[m];
		if (r >= 0 && view[r] == 'A' && e.events[best] - e.events[m] > 1) {
			s->tl->disagreements++;
			fail_at(s, "m%u is in sync with events %llu, the freshest %llu", m,
			        (unsigned long long)e.events[m],
			        (unsigned long long)e.events[best]);
		}
	}
	if (want_clean >= 0 && e.clean[best] != (bool)want_clean) {
		s->tl->disagreements++;
		fail_at(s, "mdadm says %s, expected %s", e.clean[best] ? "clean" : "active",
		        want_clean ? "clean" : "active");
	}
	return e.clean[best];
}

/*
 * What the superblocks say before an open: dirty, which roles are stale,
 * and how many members are interrupted in recovery (their recovery offset).
 */
static unsigned sb_state(const struct sched *s, bool *dirty, unsigned *stale)
{
	unsigned recovering = 0;
	struct md_super sb[MAXM];
	uint64_t max = 0;
	unsigned fresh = 0;

	*dirty = false;
	*stale = 0;
	for (unsigned m = 0; m < s->lv->n; m++) {
		char spec[128], msg[256];
		struct rl_target *t = NULL;
		snprintf(spec, sizeof(spec), "file(%s/m%u.img)", s->dir, m);
		t = md_open(spec, false);
		assert_non_null(t);
		assert_int_equal(md_member_read_super(t, &sb[m], msg, sizeof(msg)), 0);
		rl_target_close(t);
		if (sb[m].events > max)
			max = sb[m].events, fresh = m;
	}
	for (unsigned m = 0; m < s->lv->n; m++) {
		uint16_t role = sb[m].roles[sb[m].dev_number];
		bool behind =
		    max - sb[m].events > 1 || /* one event behind is in sync, as md takes it */
		    sb[fresh].roles[sb[m].dev_number] == MD_ROLE_FAULTY ||
		    (sb[m].feature_map & MD_FEATURE_RECOVERY_OFFSET);
		if (behind)
			*stale |= 1u << role;
		else if (sb[m].resync_offset != MD_RESYNC_DONE)
			*dirty = true;
		recovering += !!(sb[m].feature_map & MD_FEATURE_RECOVERY_OFFSET);
	}
	return recovering;
}

/* --- the kill --- */

struct ack {
	uint32_t block, version, done;
};

static void child_write(struct sched *s, int fd, unsigned slow)
{
	char spec[1024];
	struct rl_target *t;
	struct rl_exec *ex;
	uint8_t *buf = NULL;

	spec_slow(s, 0, NULL, slow, spec, sizeof(spec));
	t = md_open(spec, true);
	if (!t)
		_exit(2);
	ex = exec_for(t);
	if (posix_memalign((void **)&buf, 4096, BS))
		_exit(2);
	for (;;) {
		struct ack a = {(uint32_t)rnd(2 * s->nb / 3, s->nb - 1), s->next++, 0};
		if (rnd(0, 3) == 0)
			a.block = (uint32_t)rnd(0, s->nb - 1); /* now and then over older data */
		if (write(fd, &a, sizeof(a)) != sizeof(a))
			_exit(3);
		blk_fill(buf, a.block, a.version);
		if (rl_io_sync(t, ex, RL_OP_WRITE, (uint64_t)a.block * BS, BS, buf, 0) ||
		    rl_io_sync(t, ex, RL_OP_FLUSH, 0, 0, NULL, 0))
			_exit(4);
		a.done = 1;
		if (write(fd, &a, sizeof(a)) != sizeof(a))
			_exit(3);
	}
}

/* fork() with a pipe from the child: *fd is its write end in the child, the read end here. */
static pid_t fork_piped(int *fd)
{
	int p[2];
	pid_t pid;

	assert_int_equal(pipe(p), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	close(pid ? p[1] : p[0]);
	*fd = pid ? p[0] : p[1];
	return pid;
}

/*
 * Phase C; says whether a write was under way or done before the kill
 * (@wrote) and whether one was acknowledged (@acked).
 * With stale members, one schedule in three reads the rebuild's sources
 * slowly and kills the writer a random time into it, so the kill lands in
 * the rebuild (the member then carries its recovery offset) and not only
 * where the schedule's timing happens to put it.
 */
static void kill_writer(struct sched *s, unsigned stale, bool *wrote, bool *acked)
{
	unsigned want = (unsigned)rnd(0, 12), seen = 0, slow = 0;
	struct ack a;
	int fd;
	pid_t pid;

	if (stale && rnd(0, 2) == 0) {
		slow = ((1u << s->lv->n) - 1) & ~stale;
		want = 0;
	}
	pid = fork_piped(&fd);
	if (!pid) {
		rng_state ^= 0x5bd1e995;
		child_write(s, fd, slow);
	}
	if (slow) {
		s->tl->slow_rebuilds++;
		usleep((useconds_t)rnd(1000, 200000));
	}
	while (seen < want && read(fd, &a, sizeof(a)) == sizeof(a)) {
		*wrote = true;
		*acked |= a.done;
		if (a.done) {
			s->ver[a.block] = a.version, s->alt[a.block] = NONE;
			seen++;
		} else {
			s->alt[a.block] = a.version; /* in flight: old or new */
		}
	}
	if (rnd(0, 1))
		usleep((useconds_t)rnd(0, 2000));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	while (read(fd, &a, sizeof(a)) == sizeof(a)) { /* what it said before it died */
		*wrote = true;
		*acked |= a.done;
		if (a.done)
			s->ver[a.block] = a.version, s->alt[a.block] = NONE;
		else
			s->alt[a.block] = a.version;
	}
	close(fd);
	s->next += 1u << 20; /* the child's versions stay unique */
}

/* --- checking --- */

/*
 * Block @b read through @t holds its last acknowledged version, or the one
 * in flight at a kill (a block only ever written by a killed write may hold
 * anything).
 */
static bool block_ok(const struct sched *s, struct rl_target *t, struct rl_exec *ex, uint32_t b,
                     uint8_t *buf)
{
	if (rl_io_sync(t, ex, RL_OP_READ, (uint64_t)b * BS, BS, buf, 0))
		return false;
	return (s->ver[b] && blk_check(buf, b, s->ver[b])) ||
	       (s->alt[b] != NONE && blk_check(buf, b, s->alt[b])) ||
	       (!s->ver[b] && s->alt[b] != NONE);
}

static void read_all(struct sched *s, const char *spec)
{
	struct rl_target *t = md_open(spec, false);
	struct rl_exec *ex;
	uint8_t *buf = NULL;

	assert_non_null(t);
	ex = exec_for(t);
	assert_int_equal(posix_memalign((void **)&buf, 4096, BS), 0);
	for (uint32_t b = 0; b < s->nb; b++) {
		if (!s->ver[b] && s->alt[b] == NONE)
			continue;
		s->tl->blocks_checked++;
		if (!block_ok(s, t, ex, b, buf)) {
			s->tl->lost++;
			fail_at(s, "block %u through %s lost (version %u)", b, spec, s->ver[b]);
		}
	}
	free(buf);
	md_close(t);
	rl_exec_destroy(ex);
}

static void consistency(struct sched *s)
{
	char spec[512], msg[256];
	struct rl_target *t;
	struct rl_exec *ex;
	uint64_t mism = 0;

	t = open_all(s, spec, sizeof(spec));
	ex = exec_for(t);
	if (parity_array_of(t)) {
		struct parity_check_result pr;
		assert_int_equal(parity_check(parity_array_of(t), ex, PARITY_CHECK, NULL, NULL, &pr,
		                              msg, sizeof(msg)),
		                 0);
		mism = pr.mismatches;
	} else {
		struct raid_scrub_opts so = {.source = -1};
		struct raid_scrub_result sr;
		assert_int_equal(raid_scrub(t, ex, &so, &sr, msg, sizeof(msg)), 0);
		mism = sr.mismatches;
	}
	if (mism) {
		s->tl->mismatches += (unsigned)mism;
		fail_at(s, "%llu mismatches after the resync", (unsigned long long)mism);
	}
	md_close(t);
	rl_exec_destroy(ex);
}

/* --- refused opens, split halves, fields near their limits --- */

/* A hash of every member file's bytes (a refused open must change none). */
static uint64_t members_hash(const struct sched *s)
{
	static uint8_t buf[1 << 16];
	uint64_t h = 1469598103934665603ull;

	for (unsigned m = 0; m < s->lv->n; m++) {
		char path[128];
		ssize_t got;
		int fd;
		snprintf(path, sizeof(path), "%s/m%u.img", s->dir, m);
		fd = open(path, O_RDONLY);
		assert_true(fd >= 0);
		while ((got = read(fd, buf, sizeof(buf))) > 0)
			for (ssize_t i = 0; i < got; i++)
				h = (h ^ buf[i]) * 1099511628211ull;
		close(fd);
	}
	return h;
}

/* Opening @spec (for writing when @write) must be refused and write nothing. */
static void expect_refused(struct sched *s, const char *spec, bool write, const char *why)
{
	uint64_t before = members_hash(s);
	struct rl_err err = {0};
	struct rl_target *t = NULL;

	if (!md_try_open(spec, write, &t, &err)) {
		s->tl->disagreements++;
		fail_at(s, "%s (%s) was opened %s", spec, why, write ? "for writing" : "to read");
		md_close(t);
		return;
	}
	s->tl->refused++;
	if (members_hash(s) != before) {
		s->tl->lost++;
		fail_at(s, "the refused open of %s (%s) changed a member", spec, why);
	}
}

/*
 * Members too few to hold the data, opened for writing after the kill
 * (dirty, perhaps with stale members): refused, nothing written.  raid10
 * without both copies of chunk 0; raid5 and raid6 without one member more
 * than their parity; raid1 of two has no such subset.
 */
static void refuse_too_few(struct sched *s)
{
	unsigned out = 0;
	char spec[1024];

	if (!strcmp(s->lv->name, "raid1"))
		return;
	if (!strcmp(s->lv->name, "raid10"))
		out = 0x3;
	while ((unsigned)__builtin_popcount(out) < s->lv->redundancy + 1)
		out |= 1u << rnd(0, s->lv->n - 1);
	spec_of(s, out, NULL, spec, sizeof(spec));
	expect_refused(s, spec, true, "too few members");
}

/*
 * Mirrors written apart: the even roles (one copy of everything) as one
 * half, the odd roles as the other, each written alone.  md(all) is
 * refused, to read and to write, in any order; survivor=0 keeps the even
 * half (the record follows its writes) and rebuilds the odd one from it.
 */
static void diverge(struct sched *s)
{
	unsigned even = 0, odd = 0;
	uint32_t ver[MAXB], alt[MAXB];
	char spec[1024];

	for (unsigned m = 0; m < s->lv->n; m++)
		*(m % 2 ? &odd : &even) |= 1u << m;
	spec_of(s, odd, NULL, spec, sizeof(spec));
	write_region(s, spec, 0, s->nb / 4);
	/* the odd half's writes: acknowledged, then given up by survivor=0 */
	memcpy(ver, s->ver, sizeof(ver));
	memcpy(alt, s->alt, sizeof(alt));
	spec_of(s, even, NULL, spec, sizeof(spec));
	write_region(s, spec, s->nb / 8, s->nb / 2);
	memcpy(s->ver, ver, sizeof(ver));
	memcpy(s->alt, alt, sizeof(alt));
	spec_of(s, 0, NULL, spec, sizeof(spec));
	expect_refused(s, spec, false, "halves written apart");
	spec_of(s, 0, NULL, spec, sizeof(spec));
	expect_refused(s, spec, true, "halves written apart");
	s->extra = "survivor=0";
	spec_of(s, 0, NULL, spec, sizeof(spec));
	write_region(s, spec, s->nb / 2, s->nb / 2 + 8); /* rebuilds the odd half first */
	s->extra = NULL;
	s->tl->diverged++;
}

/*
 * Every member's event count (and its bitmap's) set to @events: the
 * schedule then runs near the highest count an open for writing accepts.
 */
static void set_events(const struct sched *s, uint64_t events)
{
	for (unsigned m = 0; m < s->lv->n; m++) {
		char spec[128], msg[256];
		struct md_super sb;
		struct rl_target *t;
		uint8_t *buf = NULL;
		int fd;
		snprintf(spec, sizeof(spec), "file(%s/m%u.img)", s->dir, m);
		t = md_open(spec, false);
		assert_non_null(t);
		assert_int_equal(md_member_read_super(t, &sb, msg, sizeof(msg)), 0);
		rl_target_close(t);
		sb.events = events;
		assert_int_equal(posix_memalign((void **)&buf, 4096, MD_SB_BYTES), 0);
		md_super_encode(&sb, buf);
		snprintf(spec, sizeof(spec), "%s/m%u.img", s->dir, m);
		fd = open(spec, O_WRONLY);
		assert_true(fd >= 0);
		assert_int_equal(pwrite(fd, buf, MD_SB_BYTES, MD_SB_OFFSET_BYTES), MD_SB_BYTES);
		if (sb.feature_map & MD_FEATURE_BITMAP_OFFSET) {
			uint64_t at =
			    MD_SB_OFFSET_BYTES + (uint64_t)(int64_t)sb.bitmap_offset * 512;
			uint64_t ev[2] = {events, events}; /* events, events_cleared */
			assert_int_equal(pwrite(fd, ev, sizeof(ev), (off_t)at + 24), sizeof(ev));
		}
		close(fd);
		free(buf);
	}
}

/* --- online parity rebuild under client I/O --- */

static int ctl(struct rl_target *t, enum rl_ctl_cmd cmd, unsigned member, bool ok)
{
	struct rl_ctl c = {.cmd = cmd, .member = member, .ok = ok};

	return rl_target_ctl(t, &c);
}

/* A client's turn between two rows: a few verified writes and one read back. */
static void client_turn(struct sched *s, struct rl_target *t, struct rl_exec *ex, uint8_t *buf)
{
	for (unsigned w = (unsigned)rnd(0, 3); w > 0; w--) {
		uint32_t b = (uint32_t)rnd(0, s->nb - 1), len = (uint32_t)rnd(1, 4);
		if (len > s->nb - b)
			len = s->nb - b;
		if (write_blocks(s, t, ex, buf, b, len))
			fail_at(s, "a client write at block %u during the rebuild failed", b);
	}
	for (uint32_t b = (uint32_t)rnd(0, s->nb - 1); s->ver[b] || s->alt[b] != NONE; b = s->nb) {
		s->tl->blocks_checked++;
		if (!block_ok(s, t, ex, b, buf)) {
			struct blk_hdr h;
			memcpy(&h, buf, sizeof(h));
			s->tl->lost++;
			fail_at(
			    s, "block %u read during the rebuild holds block %u version %u, not %u",
			    b, h.block, h.version, s->ver[b]);
		}
	}
}

/* Rebuild member @k of the open parity array @t a row at a time, a client between rows. */
static void rebuild_rows(struct sched *s, struct rl_target *t, struct rl_exec *ex, unsigned k,
                         uint8_t *buf)
{
	enum { HEIGHT = 16 << 10 };
	uint8_t *rows = NULL;
	uint64_t row = 0;

	assert_int_equal(posix_memalign((void **)&rows, 4096, (size_t)MAXM * HEIGHT), 0);
	assert_int_equal(ctl(t, RL_CTL_REBUILD_BEGIN, k, false), 0);
	for (;;) {
		struct rl_ctl c = {.cmd = RL_CTL_ROW, .offset = row, .max = HEIGHT};
		assert_int_equal(rl_target_ctl(t, &c), 0);
		if (!c.len)
			break;
		c.cmd = RL_CTL_RECONSTRUCT;
		c.missing = 0;
		for (unsigned m = 0; m < c.ncopies; m++) {
			c.bufs[m] = rows + (size_t)m * HEIGHT;
			if (m == k || ctl(t, RL_CTL_READABLE, m, false) <= 0 ||
			    rl_io_sync(t->children[m], ex, RL_OP_READ, c.copy[m].offset,
			               (uint32_t)c.len, c.bufs[m], 0))
				c.missing |= 1ull << m;
		}
		if (rl_target_ctl(t, &c) ||
		    rl_io_sync(t->children[k], ex, RL_OP_WRITE, c.copy[k].offset, (uint32_t)c.len,
		               c.bufs[k], 0)) {
			fail_at(s, "rebuilding member %u at row %llu failed", k,
			        (unsigned long long)row);
			s->tl->lost++;
			break;
		}
		row += c.len;
		client_turn(s, t, ex, buf);
	}
	assert_int_equal(rl_io_sync(t->children[k], ex, RL_OP_FLUSH, 0, 0, NULL, 0), 0);
	assert_int_equal(ctl(t, RL_CTL_REBUILD_END, k, true), 0);
	free(rows);
}

/*
 * Phase G (parity levels): members failed on the open array (raid6: one
 * or two), written degraded, then rebuilt one after another a row at a
 * time as the server's live rebuild does, with a client's verified
 * writes and reads between the rows.
 */
static void online_rebuild(struct sched *s)
{
	char spec[1024];
	unsigned failed[2], nfail = (unsigned)rnd(1, s->lv->redundancy);
	struct rl_target *t;
	struct rl_exec *ex;
	uint8_t *buf = NULL;

	spec_of(s, 0, NULL, spec, sizeof(spec));
	t = md_open(spec, true);
	assert_non_null(t);
	ex = exec_for(t);
	assert_int_equal(posix_memalign((void **)&buf, 4096, 4 * BS), 0);
	failed[0] = (unsigned)rnd(0, s->lv->n - 1);
	failed[1] = (failed[0] + (unsigned)rnd(1, s->lv->n - 1)) % s->lv->n;
	for (unsigned i = 0; i < nfail; i++)
		assert_int_equal(ctl(t, RL_CTL_FAIL, failed[i], false), 0);
	client_turn(s, t, ex, buf);
	for (unsigned i = 0; i < nfail; i++)
		rebuild_rows(s, t, ex, failed[i], buf);
	s->tl->online++;
	free(buf);
	md_close(t);
	rl_exec_destroy(ex);
}

/* --- one schedule --- */

static void create_array(struct sched *s, bool bitmap)
{
	char *argv[16], members[MAXM][128];
	int argc = 0;
	const struct cli_command *c = cli_command_find("create");

	assert_non_null(c);
	argv[argc++] = "create";
	argv[argc++] = (char *)s->lv->name;
	for (unsigned m = 0; m < s->lv->n; m++) {
		snprintf(members[m], sizeof(members[m]), "file(%s/m%u.img,size=%u)", s->dir, m,
		         MEMBER_SZ);
		argv[argc++] = members[m];
	}
	argv[argc++] = "--data-offset=64k";
	argv[argc++] = "--chunk=16k";
	argv[argc++] = "--quiet";
	if (bitmap)
		argv[argc++] = "--bitmap-chunk=64k";
	argv[argc] = NULL;
	assert_int_equal(c->main(argc, argv), 0);
}

static void run_schedule(const struct level *lv, unsigned seed, struct tally *tl)
{
	struct sched *s = calloc(1, sizeof(*s));
	char spec[512];
	unsigned vanish[MAXM] = {0}, skip = 0, nfail, stale, subset = 0;
	bool dirty, wrote = false, acked = false;
	struct rl_target *t;

	assert_non_null(s);
	s->lv = lv;
	s->tl = tl;
	s->next = 1;
	for (uint32_t b = 0; b < MAXB; b++)
		s->alt[b] = NONE;
	rng_state = 0x2545f4914f6cdd1dull * (seed + 1) + (uint64_t)lv->n * 7919;
	snprintf(s->dir, sizeof(s->dir), "%s/rl-mdc.XXXXXX", campaign_dir());
	assert_non_null(mkdtemp(s->dir));
	create_array(s, rnd(0, 1));
	if (rnd(0, 7) == 0) { /* an event count near the end of its range */
		set_events(s, MD_EVENTS_MAX - (1ull << 32) - (1ull << 20));
		tl->near_limit++;
	}
	t = open_all(s, spec, sizeof(spec));
	s->nb = (uint32_t)(t->size / BS);
	md_close(t);
	assert_true(s->nb <= MAXB);

	/* A: the first third */
	write_region(s, spec, 0, s->nb / 3);
	/* B: the second third while members fail */
	nfail = (unsigned)rnd(1, lv->redundancy);
	for (unsigned k = 0; k < nfail; k++) {
		unsigned m = (unsigned)rnd(0, lv->n - 1);
		if (rnd(0, 1))
			skip |= 1u << m;
		else
			vanish[m] = (unsigned)rnd(1, 40);
	}
	spec_of(s, skip, vanish, spec, sizeof(spec));
	write_region(s, spec, s->nb / 3, 2 * s->nb / 3);
	agree(s, 1);
	sb_state(s, &dirty, &stale);
	tl->failed += (unsigned)__builtin_popcount(stale);

	/* C: a writer killed at a random point */
	kill_writer(s, stale, &wrote, &acked);
	tl->kills_in_write += wrote;
	tl->killed_in_rebuild += sb_state(s, &dirty, &stale) > 0;
	if (acked && !dirty && !stale) {
		/* a write was acknowledged, so the array was recorded dirty first (one
		 * only announced may have died before that record, and so before it
		 * reached any member) */
		tl->disagreements++;
		fail_at(s, "a killed writer left the array clean");
	}
	agree(s, dirty ? 0 : 1);

	refuse_too_few(s);

	/* D: reopened for writing: the unclean stop and stale members handled */
	tl->unclean += dirty;
	tl->stale += (unsigned)__builtin_popcount(stale);
	spec_of(s, 0, NULL, spec, sizeof(spec));
	t = md_open(spec, true);
	assert_non_null(t);
	{
		struct json_object *rep = rl_target_report(t), *md = NULL, *v;
		unsigned rebuilt = 0;
		assert_true(json_object_object_get_ex(rep, "md", &md));
		if (json_object_object_get_ex(md, "resynced", &v) && json_object_get_boolean(v))
			tl->resynced++;
		else if (dirty)
			fail_at(s, "an unclean stop was not resynced");
		json_object_object_get_ex(md, "rebuilt", &v);
		for (size_t i = 0; i < json_object_array_length(v); i++)
			rebuilt |= 1u << json_object_get_int(json_object_array_get_idx(v, i));
		tl->rebuilt += (unsigned)__builtin_popcount(rebuilt & stale);
		if (rebuilt != stale)
			fail_at(s, "stale members 0x%x, rebuilt 0x%x", stale, rebuilt);
		json_object_put(rep);
	}
	md_close(t);
	agree(s, 1);

	/* E: everything acknowledged, whole and degraded, and consistent */
	read_all(s, spec);
	for (unsigned k = 0; k < lv->redundancy; k++)
		subset |= 1u << rnd(0, lv->n - 1);
	if (lv->n == 4 && lv->redundancy == 1)
		subset &= subset & (~subset + 1); /* raid10: one member */
	spec_of(s, subset, NULL, spec, sizeof(spec));
	read_all(s, spec);
	consistency(s);
	/* F: mirrors written apart, refused, settled (one schedule in four) */
	if (lv->redundancy == 1 && strcmp(lv->name, "raid5") && rnd(0, 3) == 0) {
		diverge(s);
		agree(s, 1);
		read_all(s, spec);
		consistency(s);
	}
	/* G: parity members failed and rebuilt online under a client's I/O (one in two) */
	if (!strcmp(lv->name, "raid5") || !strcmp(lv->name, "raid6")) {
		if (rnd(0, 1)) {
			online_rebuild(s);
			agree(s, 1);
			spec_of(s, 0, NULL, spec, sizeof(spec));
			read_all(s, spec);
			subset = 1u << rnd(0, lv->n - 1);
			spec_of(s, subset, NULL, spec, sizeof(spec));
			read_all(s, spec);
			consistency(s);
		}
	}
	tl->schedules++;
	for (unsigned m = 0; m < lv->n; m++) {
		snprintf(spec, sizeof(spec), "%s/m%u.img", s->dir, m);
		unlink(spec);
	}
	rmdir(s->dir);
	free(s);
}

/* One level's schedules in a child process (the levels run side by side). */
static pid_t level_start(const struct level *lv, unsigned per_level, int *fd)
{
	pid_t pid = fork_piped(fd);

	if (!pid) {
		struct tally tl = {0};
		for (unsigned seed = 0; seed < per_level; seed++)
			run_schedule(lv, seed, &tl);
		_exit(write(*fd, &tl, sizeof(tl)) == sizeof(tl) ? 0 : 1);
	}
	return pid;
}

static void test_md_campaign(void **state)
{
	enum { NLEVELS = sizeof(levels) / sizeof(levels[0]) };
	unsigned per_level = 200;
	struct tally tl = {0};
	pid_t pid[NLEVELS];
	int fd[NLEVELS];

	(void)state;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__) || defined(__SANITIZE_THREAD__)
	per_level = 8; /* the sanitizer build: memory errors, not statistics (fork is slow there) */
#endif
	if (getenv("MD_CAMPAIGN_SCHEDULES"))
		per_level = (unsigned)atoi(getenv("MD_CAMPAIGN_SCHEDULES"));
	have_mdadm = system("command -v mdadm >/dev/null 2>&1") == 0;
	for (unsigned l = 0; l < NLEVELS; l++)
		pid[l] = level_start(&levels[l], per_level, &fd[l]);
	for (unsigned l = 0; l < NLEVELS; l++) {
		struct tally one;
		int st = 0;
		ssize_t got = read(fd[l], &one, sizeof(one));
		close(fd[l]);
		assert_int_equal(waitpid(pid[l], &st, 0), pid[l]);
		if (got != sizeof(one) || !WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "%s: the schedules did not finish\n", levels[l].name);
			fail();
		}
		printf("%-6s %u schedules (%u near the event limit): %u refused opens, %u split "
		       "mirrors settled, %u online rebuilds under I/O; ",
		       levels[l].name, one.schedules, one.near_limit, one.refused, one.diverged,
		       one.online);
		printf("%u blocks checked, %u lost, %u mismatches, %u kills "
		       "while writing, %u unclean stops, %u resynced, %u members failed, %u stale "
		       "at reopen, %u rebuilt (%u from slowed sources, %u kills left a member "
		       "recovering), %u mdadm comparisons, %u disagreements\n",
		       one.blocks_checked, one.lost, one.mismatches, one.kills_in_write,
		       one.unclean, one.resynced, one.failed, one.stale, one.rebuilt,
		       one.slow_rebuilds, one.killed_in_rebuild, one.examined, one.disagreements);
		for (size_t k = 0; k < sizeof(one) / sizeof(unsigned); k++)
			((unsigned *)&tl)[k] += ((unsigned *)&one)[k];
	}
	if (!have_mdadm)
		printf("note: mdadm is not installed: the superblocks were not compared\n");
	assert_int_equal(tl.schedules, NLEVELS * per_level);
	assert_int_equal(tl.lost, 0);
	assert_int_equal(tl.mismatches, 0);
	assert_int_equal(tl.unclean, tl.resynced);
	assert_int_equal(tl.stale, tl.rebuilt);
	assert_int_equal(tl.disagreements, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_md_campaign),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
