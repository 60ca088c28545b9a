/*
 * live.c - faults and rebuilds on a live export, driven by `raidlab ctl`.
 *
 * The control socket (server.c) hands each command line here:
 *
 *   status                          every export: array state, members, rebuild
 *   fail member=K [export=NAME]     mark member K failed (the array goes degraded)
 *   rebuild member=K [export=NAME] [rate=R]
 *                                   reconstruct member K while clients go on
 *   progress [export=NAME]          one word and a figure: idle, rebuilding P, done, failed
 *   stop                            stop the server as SIGTERM does
 *
 * The rebuild runs on the server's executor between client requests, one
 * unit (1 MiB, never across a chunk) at a time: read a surviving copy,
 * write it to the member being rebuilt.  A parity array (raid5, raid6) has
 * no copy to read: its unit is a row of one stripe (at most 1 MiB over all
 * members, never across a chunk); every readable member's block of the row
 * is read, the array computes the missing ones (RL_CTL_RECONSTRUCT), and
 * the member's block is written.  The member is in the "rebuilding"
 * state meanwhile, so the array writes client data to it but never reads
 * from it.  A client write racing with a unit could still be overwritten
 * by the older copy the unit read, so each unit raises the export's write
 * fence (conn.c) over its array range (a parity row: its whole stripe,
 * since a write anywhere in it changes the parity): overlapping client
 * writes wait,
 * and the unit starts only when every write dispatched before the fence
 * has completed.  Writes elsewhere go on.  This is md's resync window in
 * its simplest form.  The array must be the export's top target, so
 * client offsets are array offsets.
 *
 * The array is reached only through the target interface: its ctl op
 * (rl_target_ctl) fails members, marks a rebuild's start and end, reports
 * states, locates each unit's copies or row and reconstructs a parity row;
 * the data moves through the array's children like any request.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/spec.h"
#include "serve/live.h"
#include "serve/serve.h"

#define LIVE_UNIT (1u << 20)

enum live_phase {
	LIVE_IDLE = 0,
	LIVE_DRAIN, /* fence raised, waiting for earlier writes */
	LIVE_READ,
	LIVE_WRITE,
	LIVE_PACE, /* waiting for the rate limit */
	LIVE_FLUSH,
	LIVE_DONE,
	LIVE_FAILED,
	LIVE_INTERRUPTED,
};

struct serve_live {
	struct serve_export *e;
	struct rl_target *t; /* the array: the export's top target */
	struct rl_exec *ex;
	enum live_phase phase;
	unsigned member, k, src, n;
	unsigned parity;   /* parity blocks per stripe: the row walk; 0: copies */
	struct rl_ctl loc; /* the current unit's copies (LOCATE) or row (ROW) */
	uint64_t off;      /* array progress: the walk is done below it */
	uint64_t row;      /* parity: the next row's offset in the members' data areas */
	uint64_t height;   /* parity: bytes of a row on each member, at most */
	uint64_t woff;     /* the unit's offset on the member rebuilt */
	uint64_t len, bytes, rate;
	uint64_t t0, t1;
	uint64_t read_errors, unrecoverable;
	unsigned pending; /* parity: row reads in flight */
	bool stopping;
	struct rl_io io;
	struct rl_io rio[RL_CTL_MEMBERS_MAX]; /* parity: one read per member */
	void *buf;
	char msg[200];
};

static void live_next(struct serve_live *l);
static void live_read(struct serve_live *l);

static void live_submit_io(struct serve_live *l, struct rl_io *io, struct rl_target *t, uint8_t op,
                           uint64_t off, uint32_t len, void *buf, rl_io_cb cb)
{
	memset(io, 0, sizeof(*io));
	io->op = op;
	io->offset = off;
	io->len = len;
	io->buf = buf;
	io->cb = cb;
	io->cb_arg = l;
	io->ex = l->ex;
	rl_target_submit(t, io);
}

static void live_submit(struct serve_live *l, struct rl_target *t, uint8_t op, uint64_t off,
                        uint32_t len, void *buf, rl_io_cb cb)
{
	live_submit_io(l, &l->io, t, op, off, len, buf, cb);
}

/* A control request on the array about @member. */
static int live_ctl(struct rl_target *t, enum rl_ctl_cmd cmd, unsigned member, bool flag)
{
	struct rl_ctl c = {.cmd = cmd, .member = member, .force = flag, .ok = flag};

	return rl_target_ctl(t, &c);
}

static void live_end(struct serve_live *l, enum live_phase ph)
{
	l->phase = ph;
	l->t1 = rl_exec_now(l->ex);
	if (ph == LIVE_DONE || ph == LIVE_FAILED)
		(void)live_ctl(l->t, RL_CTL_REBUILD_END, l->member, ph == LIVE_DONE);
	/* LIVE_INTERRUPTED: the member stays "rebuilding" (written, never read). */
}

static void live_flush_done(struct rl_io *io, int status)
{
	struct serve_live *l = io->cb_arg;

	if (status) {
		snprintf(l->msg, sizeof(l->msg), "flushing member %u failed: %s", l->member,
		         strerror(-status));
		live_end(l, LIVE_FAILED);
		return;
	}
	if (l->unrecoverable) {
		snprintf(l->msg, sizeof(l->msg), "%llu unit(s) had no readable copy",
		         (unsigned long long)l->unrecoverable);
		live_end(l, LIVE_FAILED);
		return;
	}
	live_end(l, LIVE_DONE);
}

/* The unit is done (written, or given up): move the walk past it. */
static void live_advance(struct serve_live *l)
{
	if (!l->parity) {
		l->off += l->len;
		return;
	}
	/* The stripe's array range spreads its rows over k = n - parity chunks. */
	uint64_t span = l->loc.array_hi - l->loc.array_lo;
	uint64_t chunk = span / (l->loc.ncopies - l->parity);
	l->row += l->len;
	l->off = l->loc.array_lo + (l->row - l->loc.array_lo / span * chunk) * (span / chunk);
}

static void live_paced(struct rl_io *io, int status)
{
	(void)status;
	live_next(io->cb_arg);
}

static void live_write_done(struct rl_io *io, int status)
{
	struct serve_live *l = io->cb_arg;

	serve_fence_lift(l->e);
	if (status) {
		snprintf(l->msg, sizeof(l->msg), "writing member %u at offset %llu failed: %s",
		         l->member, (unsigned long long)l->woff, strerror(-status));
		live_end(l, LIVE_FAILED);
		return;
	}
	l->bytes += l->len;
	live_advance(l);
	if (l->rate) {
		uint64_t due = l->t0 + (uint64_t)((double)l->bytes * 1e9 / (double)l->rate);
		if (due > rl_exec_now(l->ex) && !rl_exec_at(l->ex, &l->io, due, 0)) {
			l->io.cb = live_paced;
			l->phase = LIVE_PACE;
			return;
		}
	}
	live_next(l);
}

static void live_read_done(struct rl_io *io, int status)
{
	struct serve_live *l = io->cb_arg;

	if (status) {
		l->read_errors++;
		l->src++;
		live_read(l);
		return;
	}
	l->phase = LIVE_WRITE;
	l->woff = l->loc.copy[l->k].offset;
	live_submit(l, l->t->children[l->member], RL_OP_WRITE, l->woff, (uint32_t)l->len, l->buf,
	            live_write_done);
}

/* Read the unit from the next readable copy at or after l->src. */
static void live_read(struct serve_live *l)
{
	for (; l->src < l->n; l->src++) {
		unsigned m = l->loc.copy[l->src].member;
		if (l->src == l->k || live_ctl(l->t, RL_CTL_READABLE, m, false) <= 0)
			continue;
		l->phase = LIVE_READ;
		live_submit(l, l->t->children[m], RL_OP_READ, l->loc.copy[l->src].offset,
		            (uint32_t)l->len, l->buf, live_read_done);
		return;
	}
	/* No copy left: the unit stays as it is on the member. */
	l->unrecoverable++;
	serve_fence_lift(l->e);
	live_advance(l);
	live_next(l);
}

/* --- parity arrays: a stripe row at a time --- */

static uint8_t *live_row_buf(const struct serve_live *l, unsigned m)
{
	return (uint8_t *)l->buf + (size_t)m * l->height;
}

/* Every row read is back: compute the member's block and write it. */
static void live_row_read_all(struct serve_live *l)
{
	l->loc.cmd = RL_CTL_RECONSTRUCT;
	l->loc.offset = l->row;
	for (unsigned m = 0; m < l->loc.ncopies; m++)
		l->loc.bufs[m] = live_row_buf(l, m);
	if (rl_target_ctl(l->t, &l->loc)) {
		/* Too few readable members: the row stays as it is on the member. */
		l->unrecoverable++;
		serve_fence_lift(l->e);
		live_advance(l);
		live_next(l);
		return;
	}
	l->phase = LIVE_WRITE;
	l->woff = l->loc.copy[l->member].offset;
	live_submit(l, l->t->children[l->member], RL_OP_WRITE, l->woff, (uint32_t)l->len,
	            live_row_buf(l, l->member), live_write_done);
}

static void live_row_read_done(struct rl_io *io, int status)
{
	struct serve_live *l = io->cb_arg;

	if (status) {
		l->read_errors++;
		l->loc.missing |= 1ull << (unsigned)(io - l->rio);
	}
	if (!--l->pending)
		live_row_read_all(l);
}

/* Read the row from every readable member but the one rebuilt, at once. */
static void live_row_read(struct serve_live *l)
{
	l->phase = LIVE_READ;
	l->loc.missing = 0;
	l->pending = 1; /* held until every read is issued */
	for (unsigned m = 0; m < l->loc.ncopies; m++) {
		if (m == l->member || live_ctl(l->t, RL_CTL_READABLE, m, false) <= 0) {
			l->loc.missing |= 1ull << m;
			continue;
		}
		l->pending++;
		live_submit_io(l, &l->rio[m], l->t->children[m], RL_OP_READ, l->loc.copy[m].offset,
		               (uint32_t)l->len, live_row_buf(l, m), live_row_read_done);
	}
	if (!--l->pending)
		live_row_read_all(l);
}

/* Raise the fence over the next row's stripe, or flush the member when done. */
static void live_row_next(struct serve_live *l)
{
	l->loc = (struct rl_ctl){.cmd = RL_CTL_ROW, .offset = l->row, .max = l->height};
	int rc = rl_target_ctl(l->t, &l->loc);
	if (rc) {
		snprintf(l->msg, sizeof(l->msg), "cannot locate row %llu: %s",
		         (unsigned long long)l->row, strerror(-rc));
		live_end(l, LIVE_FAILED);
		return;
	}
	if (!l->loc.len) {
		l->off = l->t->size;
		l->phase = LIVE_FLUSH;
		live_submit(l, l->t->children[l->member], RL_OP_FLUSH, 0, 0, NULL, live_flush_done);
		return;
	}
	l->len = l->loc.len;
	l->phase = LIVE_DRAIN;
	serve_fence_raise(l->e, l->loc.array_lo, l->loc.array_hi);
	serve_live_poll_one(l);
}

/* Start the next unit, or finish. */
static void live_next(struct serve_live *l)
{
	struct rl_target *t = l->t;

	if (l->stopping) {
		live_end(l, LIVE_INTERRUPTED);
		return;
	}
	if (l->parity) {
		live_row_next(l);
		return;
	}
	while (l->off < t->size) {
		uint64_t max = t->size - l->off < LIVE_UNIT ? t->size - l->off : LIVE_UNIT;
		l->loc = (struct rl_ctl){.cmd = RL_CTL_LOCATE, .offset = l->off, .max = max};
		int rc = rl_target_ctl(t, &l->loc);
		if (rc) {
			snprintf(l->msg, sizeof(l->msg), "cannot locate offset %llu: %s",
			         (unsigned long long)l->off, strerror(-rc));
			live_end(l, LIVE_FAILED);
			return;
		}
		l->n = l->loc.ncopies;
		l->len = l->loc.len;
		l->k = l->n;
		for (unsigned i = 0; i < l->n; i++)
			if (l->loc.copy[i].member == l->member)
				l->k = i;
		if (l->k == l->n) {
			l->off += l->len; /* no copy of this piece on the member */
			continue;
		}
		l->src = 0;
		l->phase = LIVE_DRAIN;
		serve_fence_raise(l->e, l->off, l->off + l->len);
		serve_live_poll_one(l);
		return;
	}
	l->phase = LIVE_FLUSH;
	live_submit(l, t->children[l->member], RL_OP_FLUSH, 0, 0, NULL, live_flush_done);
}

void serve_live_poll_one(struct serve_live *l)
{
	if (l->phase == LIVE_DRAIN && serve_fence_drained(l->e)) {
		if (l->parity)
			live_row_read(l);
		else
			live_read(l);
	}
}

/* --- commands --- */

static const char *live_phase_word(enum live_phase p)
{
	switch (p) {
	case LIVE_IDLE:
		return "idle";
	case LIVE_DONE:
		return "done";
	case LIVE_FAILED:
		return "failed";
	case LIVE_INTERRUPTED:
		return "interrupted";
	default:
		return "rebuilding";
	}
}

/* key=value from the command's words; NULL when absent. */
static const char *live_arg(char **words, int n, const char *key)
{
	size_t kl = strlen(key);

	for (int i = 1; i < n; i++)
		if (!strncmp(words[i], key, kl) && words[i][kl] == '=')
			return words[i] + kl + 1;
	return NULL;
}

static struct serve_export *live_export(struct serve_ctx *ctx, const char *name, char *out,
                                        size_t outlen)
{
	if (!name)
		return &ctx->exports[0];
	for (unsigned i = 0; i < ctx->nexports; i++)
		if (!strcmp(ctx->exports[i].name, name))
			return &ctx->exports[i];
	snprintf(out, outlen, "error: no export named '%s'\n", name);
	return NULL;
}

/* The array's status in *@st and member=K; an error when the export is no array. */
static int live_member(struct serve_export *e, char **w, int n, struct rl_ctl *st, unsigned *member,
                       char *out, size_t outlen)
{
	const char *ms = live_arg(w, n, "member");
	uint64_t k;
	char why[128];

	st->cmd = RL_CTL_STATUS;
	if (rl_target_ctl(e->t, st)) {
		snprintf(out, outlen,
		         "error: export '%s' is %s, not an array (it must be the top "
		         "of the stack)\n",
		         e->name, e->t->ops->name);
		return -EINVAL;
	}
	if (!ms || rl_parse_u64(ms, &k, why, sizeof(why)) || k >= st->members) {
		snprintf(out, outlen, "error: member=K with K in 0..%u is required\n",
		         st->members - 1);
		return -EINVAL;
	}
	*member = (unsigned)k;
	return 0;
}

/* Every export's state, or only @only's when it is not NULL. */
static void live_status(struct serve_ctx *ctx, const struct serve_export *only, char *out,
                        size_t outlen)
{
	size_t used = 0;

	for (unsigned i = 0; i < ctx->nexports && used < outlen; i++) {
		struct serve_export *e = &ctx->exports[i];
		if (only && e != only)
			continue;
		struct rl_ctl st = {.cmd = RL_CTL_STATUS};
		bool array = rl_target_ctl(e->t, &st) == 0;
		uint64_t ios = e->dir[0].ios + e->dir[1].ios + e->dir[2].ios;
		used += (size_t)snprintf(out + used, outlen - used,
		                         "export '%s': %s, %llu requests, %llu errors", e->name,
		                         e->t->ops->name, (unsigned long long)ios,
		                         (unsigned long long)e->errors);
		if (array && used < outlen) {
			used +=
			    (size_t)snprintf(out + used, outlen - used, ", %s; members:", st.state);
			for (unsigned m = 0; m < st.members && used < outlen; m++)
				used += (size_t)snprintf(out + used, outlen - used, " %u %s", m,
				                         st.member_state[m]);
		}
		struct serve_live *l = e->live;
		if (l && used < outlen) {
			double pct = 100.0 * (double)l->off / (double)l->t->size;
			used += (size_t)snprintf(
			    out + used, outlen - used,
			    "; rebuild of member %u: %s %.1f%% (%llu bytes written)%s%s", l->member,
			    live_phase_word(l->phase), pct, (unsigned long long)l->bytes,
			    l->msg[0] ? ": " : "", l->msg);
		}
		if (used < outlen)
			used += (size_t)snprintf(out + used, outlen - used, "\n");
	}
}

int serve_ctl_command(struct serve_ctx *ctx, char *line, char *out, size_t outlen, bool *stop)
{
	char *w[8], *save = NULL;
	int n = 0;

	for (char *tok = strtok_r(line, " \t\r\n", &save); tok && n < 8;
	     tok = strtok_r(NULL, " \t\r\n", &save))
		w[n++] = tok;
	if (!n) {
		snprintf(out, outlen, "error: empty command\n");
		return -EINVAL;
	}
	if (!strcmp(w[0], "status")) {
		/* export=NAME: that one, which must exist */
		const char *name = live_arg(w, n, "export");
		struct serve_export *only = name ? live_export(ctx, name, out, outlen) : NULL;
		if (name && !only)
			return -ENOENT;
		live_status(ctx, only, out, outlen);
		return 0;
	}
	if (!strcmp(w[0], "stop")) {
		*stop = true;
		snprintf(out, outlen, "stopping\n");
		return 0;
	}
	struct serve_export *e = live_export(ctx, live_arg(w, n, "export"), out, outlen);
	if (!e)
		return -ENOENT;
	if (!strcmp(w[0], "progress")) {
		struct serve_live *l = e->live;
		if (!l)
			snprintf(out, outlen, "idle\n");
		else
			snprintf(out, outlen, "%s %.1f %s\n", live_phase_word(l->phase),
			         100.0 * (double)l->off / (double)l->t->size, l->msg);
		return 0;
	}
	struct rl_ctl st;
	unsigned member;
	if (strcmp(w[0], "fail") && strcmp(w[0], "rebuild")) {
		snprintf(out, outlen,
		         "error: unknown command '%s' (status, fail, rebuild, progress, "
		         "stop)\n",
		         w[0]);
		return -EINVAL;
	}
	if (live_member(e, w, n, &st, &member, out, outlen))
		return -EINVAL;
	if (e->live && e->live->phase != LIVE_DONE && e->live->phase != LIVE_FAILED &&
	    e->live->phase != LIVE_INTERRUPTED) {
		snprintf(out, outlen, "error: a rebuild of member %u is running\n",
		         e->live->member);
		return -EBUSY;
	}
	if (!strcmp(w[0], "fail")) {
		const char *force = live_arg(w, n, "force");
		int rc = live_ctl(e->t, RL_CTL_FAIL, member, force && !strcmp(force, "1"));
		if (rc == -EBUSY) {
			/* As mdadm --fail refuses the last copy: every request would fail. */
			snprintf(out, outlen,
			         "error: member %u holds the last readable copy of some data "
			         "(array %s): failing it would fail every request there; pass "
			         "--force to fail it anyway\n",
			         member, st.state);
			return -EBUSY;
		}
		if (rc) {
			snprintf(out, outlen, "error: failing member %u: %s\n", member,
			         strerror(-rc));
			return rc;
		}
		st.cmd = RL_CTL_STATUS;
		(void)rl_target_ctl(e->t, &st);
		snprintf(out, outlen, "member %u failed; array %s\n", member, st.state);
		return 0;
	}
	/* rebuild: from the other copies, or (parity) from the rest of each stripe */
	if (st.copies < 2 && !st.parity) {
		snprintf(out, outlen, "error: %s has no redundancy to rebuild from\n", st.level);
		return -EINVAL;
	}
	if (ctx->shutting_down) {
		snprintf(out, outlen, "error: the server is stopping\n");
		return -ESHUTDOWN;
	}
	struct serve_live *l = e->live;
	const char *rate = live_arg(w, n, "rate");
	uint64_t r = 0;
	char why[128];
	if (rate && rl_parse_rate(rate, &r, why, sizeof(why))) {
		snprintf(out, outlen, "error: rate: %s\n", why);
		return -EINVAL;
	}
	if (!l) {
		l = calloc(1, sizeof(*l));
		if (!l || posix_memalign(&l->buf, 4096, LIVE_UNIT)) {
			free(l);
			snprintf(out, outlen, "error: out of memory\n");
			return -ENOMEM;
		}
		e->live = l;
	}
	void *buf = l->buf;
	memset(l, 0, sizeof(*l));
	l->buf = buf;
	l->e = e;
	l->t = e->t;
	l->ex = ctx->ex;
	l->member = member;
	l->parity = st.parity;
	/* a row across every member fits the buffer: a power of two, within a chunk */
	for (l->height = LIVE_UNIT; l->height > 4096 && l->height * st.members > LIVE_UNIT;)
		l->height /= 2;
	l->rate = r;
	l->t0 = rl_exec_now(ctx->ex);
	(void)live_ctl(e->t, RL_CTL_REBUILD_BEGIN, member, false);
	snprintf(out, outlen, "rebuilding member %u of export '%s'\n", member, e->name);
	live_next(l);
	return 0;
}

void serve_live_poll(struct serve_ctx *ctx)
{
	for (unsigned i = 0; i < ctx->nexports; i++)
		if (ctx->exports[i].live)
			serve_live_poll_one(ctx->exports[i].live);
}

bool serve_live_busy(struct serve_ctx *ctx)
{
	for (unsigned i = 0; i < ctx->nexports; i++) {
		struct serve_live *l = ctx->exports[i].live;
		if (l && l->phase != LIVE_IDLE && l->phase != LIVE_DONE &&
		    l->phase != LIVE_FAILED && l->phase != LIVE_INTERRUPTED)
			return true;
	}
	return false;
}

void serve_live_stop(struct serve_ctx *ctx)
{
	for (unsigned i = 0; i < ctx->nexports; i++) {
		struct serve_live *l = ctx->exports[i].live;
		if (!l)
			continue;
		l->stopping = true;
		if (l->phase == LIVE_DRAIN) {
			serve_fence_lift(l->e);
			live_end(l, LIVE_INTERRUPTED);
		}
	}
}

void serve_live_report(struct serve_ctx *ctx, FILE *f)
{
	for (unsigned i = 0; i < ctx->nexports; i++) {
		struct serve_live *l = ctx->exports[i].live;
		if (!l)
			continue;
		double secs = (double)(l->t1 - l->t0) / 1e9;
		fprintf(f,
		        "raidlab serve: export '%s': rebuild of member %u %s: %llu bytes in %.2f "
		        "s%s%s\n",
		        l->e->name, l->member, live_phase_word(l->phase),
		        (unsigned long long)l->bytes, secs, l->msg[0] ? "; " : "", l->msg);
	}
}

void serve_live_free(struct serve_ctx *ctx)
{
	for (unsigned i = 0; i < ctx->nexports; i++) {
		struct serve_live *l = ctx->exports[i].live;
		if (!l)
			continue;
		free(l->buf);
		free(l);
		ctx->exports[i].live = NULL;
	}
}
