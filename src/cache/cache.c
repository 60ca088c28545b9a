/*
 * cache.c - cache(TARGET, ...): a RAID controller's cache in front of a
 * target (see docs/cache.md for the semantics and cache.h for the pieces).
 *
 *   cache(raid10(ssd(evo850) x4, chunk=64k), write=back, read=ahead, size=1g)
 *   cache(raid1(a.img, b.img), write=through, disk-cache=off)
 *   cache(mem(size=64m), write=force-back, battery=none, powerloss-after=1000)
 *
 * Host requests take one path each after the firmware's time: reads,
 * writes and trims in hostio.c, flushes in flush.c; all of them leave
 * through request.c.  Background work lives in destage.c and readahead.c,
 * the power cut in powerloss.c (cache.h draws the layers).
 *
 * Timing: on a virtual executor a hit or a write-back acknowledgement costs
 * dram-lat plus its bytes at dram-bw; on a real executor the copy is real
 * and the request completes on the next loop turn.
 *
 * Threads: worker threads of a real run share the target; every look at
 * the line table and every change happens under the cache mutex (cache.h).
 * A request that must wait for a line busy on another thread's executor
 * (a flush or write-through behind a destage) re-checks it every
 * CACHE_POLL_NS on its own executor's timer; on its own executor it waits
 * on the line and is woken by the operation's completion.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache/cache.h"
#include "core/sync.h"
#include "targets/controller.h"

static const char *const cache_read_names[] = {"none", "ahead", "adaptive", NULL};
static const char *const cache_write_names[] = {"through", "back", "force-back", NULL};
static const char *const cache_battery_names[] = {"ok", "bad", "none", NULL};

/* --- the target --- */

/* Send a host request down its path (after the firmware's time, if any). */
static void cache_dispatch(struct cache *c, struct rl_io *io)
{
	io->cb = cache_host_done;
	switch (io->op) {
	case RL_OP_READ:
		cache_read_start(c, io);
		break;
	case RL_OP_WRITE:
		cache_write_start(c, io);
		break;
	case RL_OP_TRIM:
		cache_trim_start(c, io);
		break;
	default:
		cache_flush_start(c, io);
		break;
	}
}

static void cache_fw_done(struct rl_io *io, int status)
{
	(void)status;
	cache_dispatch(cache_of(io), io);
}

/*
 * The firmware's time for one host command: the command processor is busy
 * for cmd (one command at a time: it caps IOPS), then lat passes (the
 * latency of the path, overlapping other commands).  Returns when the
 * request may start, or 0 when it costs nothing.  Lock held.
 */
static uint64_t cache_fw_when(struct cache *c, const struct rl_io *io, uint64_t now)
{
	uint64_t cmd = c->cfg.fastpath_on ? c->cfg.fp_cmd : c->cfg.fw_cmd;
	uint64_t lat = c->cfg.fastpath_on ? c->cfg.fp_lat : c->cfg.fw_lat, start;

	if (!c->cfg.fastpath_on && c->cfg.fw_line && io->len) /* the lines the request touches */
		lat += c->cfg.fw_line *
		       ((io->offset + io->len - 1) / c->tab.line - io->offset / c->tab.line + 1);
	if (!cmd && !lat)
		return 0;
	start = c->host.fw_free > now ? c->host.fw_free : now;
	c->host.fw_free = start + cmd;
	return start + cmd + lat;
}

static void cache_submit(struct rl_target *t, struct rl_io *io)
{
	struct cache *c = t->priv;
	uint64_t when = 0;

	pthread_mutex_lock(&c->lock);
	if (c->pw.off && !c->replaying) {
		pthread_mutex_unlock(&c->lock);
		rl_io_complete_later(io, -EIO);
		return;
	}
	c->host.inflight++;
	cache_destage_host_io(c, rl_exec_now(io->ex));
	if (io->ex->kind == RL_EXEC_VIRTUAL)
		when = cache_fw_when(c, io, rl_exec_now(io->ex));
	pthread_mutex_unlock(&c->lock);
	memset(io->priv, 0, sizeof(io->priv));
	cache_req(io)->cb = io->cb;
	cache_req(io)->t = t;
	if (when) {
		io->cb = cache_fw_done;
		if (!rl_exec_at(io->ex, io, when, 0))
			return;
	}
	cache_dispatch(c, io);
}

static int cache_attach(struct rl_target *t, struct rl_exec *ex)
{
	struct cache *c = t->priv;

	(void)ex;
	pthread_mutex_lock(&c->lock);
	/*
	 * A new job: no host request is in flight, so every executor that ran
	 * background work before is gone (their background requests will never
	 * complete).  The new clock may differ from the old one.
	 */
	if (!c->host.inflight) {
		cache_destage_settle(c, true);
		cache_ra_settle(c);
		c->host.dram_free = 0;
		c->host.fw_free = 0;
	}
	pthread_mutex_unlock(&c->lock);
	return 0;
}

/* Run one FLUSH through the cache on a private executor (end of the run). */
static int cache_flush_private(struct rl_target *t)
{
	const struct cache *c = t->priv;
	enum rl_exec_kind kind =
	    rl_target_leaf_caps(t) & RL_CAP_VIRTUAL ? RL_EXEC_VIRTUAL : RL_EXEC_PSYNC;
	struct rl_exec *ex;
	int rc = rl_exec_create(kind, 256, 0, &ex);

	if (rc)
		return rc;
	if (kind == RL_EXEC_VIRTUAL) /* simulated time goes on (see exec_virtual.c) */
		ex->vnow = c->host.vseen > t->vtime ? c->host.vseen : t->vtime;
	rc = rl_target_attach(t, ex);
	if (!rc)
		rc = rl_io_sync(t, ex, RL_OP_FLUSH, 0, 0, NULL, 0);
	for (int i = 0; i < 1000000 && !rl_exec_idle(ex); i++)
		if (rl_exec_run_once(ex, true) < 0)
			break;
	rl_exec_destroy(ex);
	return rc;
}

/*
 * End of the run: an orderly shutdown writes every dirty line back (and
 * flushes the drives); after a power cut the preserved cache (battery or
 * NV) is replayed to the members, as at the next boot, and a volatile one
 * is simply gone.
 */
static void cache_finish(struct rl_target *t)
{
	struct cache *c = t->priv;
	bool dirty, off;

	pthread_mutex_lock(&c->lock);
	if (!c->host.inflight) {
		cache_destage_settle(c, false);
		cache_ra_settle(c);
	}
	dirty = c->tab.count[CACHE_L_DIRTY] > 0;
	off = c->pw.off;
	pthread_mutex_unlock(&c->lock);
	if (!off) {
		if (dirty || c->cfg.disk_cache) {
			c->draining = true;
			cache_flush_private(t);
			c->draining = false;
		}
		pthread_mutex_lock(&c->lock);
		cache_destage_account_lost(c);
		pthread_mutex_unlock(&c->lock);
		return;
	}
	if (!c->replayed) {
		if (dirty && cache_protected(c)) {
			c->replaying = true;
			cache_flush_private(t);
			c->replaying = false;
		}
		pthread_mutex_lock(&c->lock);
		cache_drop_all(&c->tab);
		c->replayed = true;
		pthread_mutex_unlock(&c->lock);
	}
	cache_pl_print(c);
}

static const char *cache_effective_write(const struct cache *c)
{
	if (c->cfg.write == CACHE_WRITE_FORCE)
		return "force-back";
	if (c->cfg.write == CACHE_WRITE_BACK)
		return c->cfg.wb ? "back" : "through (write-back fallback: no good battery)";
	return "through";
}

static int cache_describe(struct rl_target *t, struct json_object *o)
{
	struct cache *c = t->priv;

#define J_I(v) json_object_new_int64((int64_t)(v))
#define J_S(v) json_object_new_string(v)
	if (c->cfg.profile[0])
		json_object_object_add(o, "profile", J_S(c->cfg.profile));
	json_object_object_add(o, "read", J_S(cache_read_names[c->cfg.read]));
	json_object_object_add(o, "io", J_S(c->cfg.io_direct ? "direct" : "cached"));
	json_object_object_add(o, "fastpath", json_object_new_boolean(c->cfg.fastpath_on));
	json_object_object_add(o, "wt_fua", json_object_new_boolean(c->cfg.wt_fua));
	json_object_object_add(o, "protected_sync", J_S(c->cfg.sync_dram ? "dram" : "members"));
	json_object_object_add(o, "fw_cmd_ns", J_I(c->cfg.fw_cmd));
	json_object_object_add(o, "fw_lat_ns", J_I(c->cfg.fw_lat));
	json_object_object_add(o, "fw_line_ns", J_I(c->cfg.fw_line));
	json_object_object_add(o, "ra_detect", json_object_new_boolean(c->cfg.ra_detect));
	json_object_object_add(o, "ra_stripe", json_object_new_boolean(c->cfg.ra_stripe));
	json_object_object_add(o, "dirty_max_lines", J_I(c->cfg.dirty_max));
	json_object_object_add(o, "full", J_S(c->cfg.full_wait ? "wait" : "through"));
	if (c->cfg.fastpath_on) {
		json_object_object_add(o, "fp_cmd_ns", J_I(c->cfg.fp_cmd));
		json_object_object_add(o, "fp_lat_ns", J_I(c->cfg.fp_lat));
	}
	json_object_object_add(o, "write", J_S(cache_write_names[c->cfg.write]));
	json_object_object_add(o, "write_effective", J_S(cache_effective_write(c)));
	json_object_object_add(o, "battery", J_S(cache_battery_names[c->cfg.battery]));
	json_object_object_add(o, "nv", json_object_new_boolean(c->cfg.nv));
	json_object_object_add(o, "protected", json_object_new_boolean(cache_protected(c)));
	json_object_object_add(o, "disk_cache", J_S(c->cfg.disk_cache ? "on" : "off"));
	json_object_object_add(o, "cache_bytes", J_I(c->cfg.size));
	json_object_object_add(o, "line_bytes", J_I(c->tab.line));
	json_object_object_add(o, "lines", J_I(c->tab.nlines));
	json_object_object_add(o, "holds_data", json_object_new_boolean(c->tab.data != NULL));
	json_object_object_add(o, "dirty_high_pct", json_object_new_double(c->cfg.high_pct));
	json_object_object_add(o, "dirty_low_pct", json_object_new_double(c->cfg.low_pct));
	json_object_object_add(o, "idle_flush_ns", J_I(c->cfg.idle_ns));
	json_object_object_add(o, "destage_qd", J_I(c->cfg.destage_qd));
	json_object_object_add(o, "ra_bytes", J_I(c->cfg.ra_bytes));
	json_object_object_add(o, "ra_qd", J_I(c->cfg.ra_qd));
	json_object_object_add(o, "dram_lat_ns", J_I(c->cfg.dram_lat));
	json_object_object_add(o, "dram_bytes_per_s", J_I(c->cfg.dram_bw));
	if (c->cfg.powerloss_after)
		json_object_object_add(o, "powerloss_after", J_I(c->cfg.powerloss_after));
	return 0;
}

static int cache_report(struct rl_target *t, struct json_object *o)
{
	struct cache *c = t->priv;
	uint64_t ra_pending = 0;

	pthread_mutex_lock(&c->lock);
	for (uint64_t i = 0; i < (uint64_t)c->tab.nlines * c->tab.words; i++)
		ra_pending += (uint64_t)__builtin_popcountll(c->tab.rabits[i]);
	json_object_object_add(o, "reads", J_I(c->host.n.reads));
	json_object_object_add(o, "read_hits", J_I(c->host.n.read_hits));
	json_object_object_add(o, "read_misses", J_I(c->host.n.read_misses));
	json_object_object_add(o, "read_hit_bytes", J_I(c->host.n.read_hit_bytes));
	json_object_object_add(o, "read_miss_bytes", J_I(c->host.n.read_miss_bytes));
	json_object_object_add(o, "read_waits", J_I(c->host.n.read_waits));
	json_object_object_add(o, "writes", J_I(c->host.n.writes));
	json_object_object_add(o, "write_bytes", J_I(c->host.n.write_bytes));
	json_object_object_add(o, "writes_back", J_I(c->host.n.writes_back));
	json_object_object_add(o, "writes_through", J_I(c->host.n.writes_through));
	json_object_object_add(o, "writes_cache_full", J_I(c->host.n.writes_full));
	json_object_object_add(o, "writes_waited", J_I(c->host.n.writes_waited));
	json_object_object_add(o, "writes_fua", J_I(c->host.n.writes_fua));
	json_object_object_add(o, "trims", J_I(c->host.n.trims));
	json_object_object_add(o, "flushes", J_I(c->host.n.flushes));
	json_object_object_add(o, "member_flushes", J_I(c->host.n.member_flushes));
	json_object_object_add(o, "ra_requests", J_I(c->ra.requests));
	json_object_object_add(o, "ra_issued_bytes", J_I(c->ra.issued_bytes));
	json_object_object_add(o, "ra_used_bytes", J_I(c->host.n.ra_used_bytes));
	json_object_object_add(o, "ra_wasted_bytes", J_I(c->tab.ra_wasted_bytes));
	json_object_object_add(o, "ra_unused_bytes", J_I(ra_pending * c->tab.bs));
	cache_destage_report(c, o);
	json_object_object_add(o, "dirty_bytes", J_I(c->tab.dirty_blocks * c->tab.bs));
	json_object_object_add(o, "dirty_peak_bytes", J_I(c->tab.dirty_peak_blocks * c->tab.bs));
	json_object_object_add(o, "dirty_lines", J_I(c->tab.count[CACHE_L_DIRTY]));
	json_object_object_add(o, "evictions", J_I(c->tab.evictions));
	json_object_object_add(o, "orphans_settled", J_I(c->ds.orphans + c->ra.orphans));
	cache_pl_report(c, o, c->ds.replayed_bytes);
	pthread_mutex_unlock(&c->lock);
	return 0;
#undef J_I
#undef J_S
}

static void cache_destroy(struct rl_target *t)
{
	struct cache *c = t->priv;

	if (!c)
		return;
	cache_ra_free(c);
	cache_destage_free(c);
	cache_pl_free(c);
	cache_lines_free(&c->tab);
	pthread_mutex_destroy(&c->lock);
	free(c);
	t->priv = NULL;
}

static const struct rl_target_ops cache_ops = {
    .name = "cache",
    .submit = cache_submit,
    .describe = cache_describe,
    .report = cache_report,
    .attach = cache_attach,
    .destroy = cache_destroy,
    .finish = cache_finish,
};

/* Parameters, checked against each other and the target below. */
static int cache_parse(struct cache *c, struct rl_spec_node *node, struct rl_err *err)
{
	static const char *const known[] = {
	    "size",           "line",       "read",      "write",           "battery",    "nv",
	    "disk-cache",     "dirty-high", "dirty-low", "idle-flush",      "destage-qd", "ra",
	    "ra-qd",          "dram-lat",   "dram-bw",   "powerloss-after", "io",         "fw-cmd",
	    "fw-lat",         "fastpath",   "fp-cmd",    "fp-lat",          "wt-fua",     "profile",
	    "protected-sync", "ra-detect",  "fw-line",   "ra-stripe",

	    "dirty-max",      "full",       NULL};
	static const char *const full_names[] = {"through", "wait", NULL};
	int full = 0;
	static const char *const sync_names[] = {"members", "dram", NULL};
	int sync = 0;
	static const char *const io_names[] = {"cached", "direct", NULL};
	const char *profile = NULL;
	uint64_t qd, raqd;
	int rc, io = 1;

	if ((rc = rl_spec_get_size(node, "size", 1ull << 30, &c->cfg.size, err)) ||
	    (rc = rl_spec_get_size(node, "line", 64 << 10, &c->tab.line, err)) ||
	    (rc = rl_spec_get_enum(node, "read", cache_read_names, CACHE_READ_AHEAD, &c->cfg.read,
	                           err)) ||
	    (rc = rl_spec_get_enum(node, "write", cache_write_names, CACHE_WRITE_BACK,
	                           &c->cfg.write, err)) ||
	    (rc = rl_spec_get_enum(node, "battery", cache_battery_names, CACHE_BAT_OK,
	                           &c->cfg.battery, err)) ||
	    (rc = rl_spec_get_bool(node, "nv", false, &c->cfg.nv, err)) ||
	    (rc = rl_spec_get_bool(node, "disk-cache", true, &c->cfg.disk_cache, err)) ||
	    (rc = rl_spec_get_percent(node, "dirty-high", 75, 1, 100, &c->cfg.high_pct, err)) ||
	    (rc = rl_spec_get_percent(node, "dirty-low", 50, 0, 100, &c->cfg.low_pct, err)) ||
	    (rc = rl_spec_get_time(node, "idle-flush", 100000000ull, &c->cfg.idle_ns, err)) ||
	    (rc = rl_spec_get_u64(node, "destage-qd", 32, 1, 1024, &qd, err)) ||
	    (rc = rl_spec_get_size(node, "ra", 0, &c->cfg.ra_bytes, err)) ||
	    (rc = rl_spec_get_u64(node, "ra-qd", 32, 1, 1024, &raqd, err)) ||
	    (rc = rl_spec_get_time(node, "dram-lat", 5000, &c->cfg.dram_lat, err)) ||
	    (rc = rl_spec_get_rate(node, "dram-bw", 6000000000ull, &c->cfg.dram_bw, err)) ||
	    (rc = rl_spec_get_u64(node, "powerloss-after", 0, 1, UINT64_MAX,
	                          &c->cfg.powerloss_after, err)) ||
	    (rc = rl_spec_get_enum(node, "io", io_names, 1, &io, err)) ||
	    (rc = rl_spec_get_time(node, "fw-cmd", 0, &c->cfg.fw_cmd, err)) ||
	    (rc = rl_spec_get_time(node, "fw-lat", 0, &c->cfg.fw_lat, err)) ||
	    (rc = rl_spec_get_bool(node, "fastpath", false, &c->cfg.fastpath, err)) ||
	    (rc = rl_spec_get_time(node, "fp-cmd", 0, &c->cfg.fp_cmd, err)) ||
	    (rc = rl_spec_get_time(node, "fp-lat", 0, &c->cfg.fp_lat, err)) ||
	    (rc = rl_spec_get_bool(node, "wt-fua", false, &c->cfg.wt_fua, err)) ||
	    (rc = rl_spec_get_str(node, "profile", "", &profile, err)) ||
	    (rc = rl_ctl_profile_check(node, "cache", err)) ||
	    (rc = rl_spec_get_enum(node, "protected-sync", sync_names, 0, &sync, err)) ||
	    (rc = rl_spec_get_bool(node, "ra-detect", false, &c->cfg.ra_detect, err)) ||
	    (rc = rl_spec_get_time(node, "fw-line", 0, &c->cfg.fw_line, err)) ||
	    (rc = rl_spec_get_bool(node, "ra-stripe", false, &c->cfg.ra_stripe, err)) ||
	    (rc =
	         rl_spec_get_percent(node, "dirty-max", 100, 1, 100, &c->cfg.dirty_max_pct, err)) ||
	    (rc = rl_spec_get_enum(node, "full", full_names, 0, &full, err)) ||
	    (rc = rl_spec_check_unused(node, known, err)))
		return rc;
	c->cfg.io_direct = io == 1;
	c->cfg.full_wait = full == 1;
	c->cfg.sync_dram = sync == 1;
	snprintf(c->cfg.profile, sizeof(c->cfg.profile), "%s", profile);
	c->cfg.destage_qd = (uint32_t)qd;
	c->cfg.ra_qd = (uint32_t)raqd;
	if (c->tab.line < c->tab.bs || c->tab.line > (4u << 20) ||
	    (c->tab.line & (c->tab.line - 1)) || c->tab.line % c->tab.bs)
		return rl_err_set(err, node->pos,
		                  "cache: line must be a power of two from the block size (%u) "
		                  "to 4m",
		                  c->tab.bs);
	if (c->cfg.size < c->tab.line || c->cfg.size / c->tab.line > (1u << 30))
		return rl_err_set(err, node->pos,
		                  "cache: size must hold at least one line and at most 2^30 lines");
	if (c->cfg.low_pct > c->cfg.high_pct)
		return rl_err_set(err, node->pos, "cache: dirty-low must not exceed dirty-high");
	if (!c->cfg.ra_bytes)
		c->cfg.ra_bytes = c->tab.line;
	c->tab.nlines = (uint32_t)(c->cfg.size / c->tab.line);
	c->tab.bpl = (uint32_t)(c->tab.line / c->tab.bs);
	c->tab.words = (c->tab.bpl + 63) / 64;
	c->cfg.size = (uint64_t)c->tab.nlines * c->tab.line;
	c->cfg.dirty_max = (uint32_t)((uint64_t)c->tab.nlines * c->cfg.dirty_max_pct / 100);
	/*
	 * A cache larger than its target holds all of it and never evicts: a
	 * line per line of the target behaves the same, and size=1t over a
	 * 16 MiB target no longer reserves tables for 16 million lines.
	 */
	uint64_t whole = (c->t->size + c->tab.line - 1) / c->tab.line;
	if (c->tab.nlines > whole) {
		c->tab.nlines = (uint32_t)whole;
		if (c->cfg.dirty_max > c->tab.nlines)
			c->cfg.dirty_max = c->tab.nlines;
	}
	if (!c->cfg.dirty_max)
		c->cfg.dirty_max = 1;
	c->cfg.high_lines = (uint32_t)((c->cfg.dirty_max * c->cfg.high_pct + 99.999) / 100);
	if (!c->cfg.high_lines)
		c->cfg.high_lines = 1;
	c->cfg.low_lines = (uint32_t)(c->cfg.dirty_max * c->cfg.low_pct / 100);
	c->cfg.wb = c->cfg.write == CACHE_WRITE_FORCE ||
	            (c->cfg.write == CACHE_WRITE_BACK && cache_protected(c));
	/* LSI FastPath: write-through, no read-ahead, direct I/O */
	c->cfg.fastpath_on =
	    c->cfg.fastpath && !c->cfg.wb && c->cfg.read == CACHE_READ_NONE && c->cfg.io_direct;
	return 0;
}

static int cache_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                        struct rl_target **out, struct rl_err *err)
{
	struct rl_target *t, *below;
	struct cache *c;
	int rc;

	if (node->nargs != 1)
		return rl_err_set(err, node->pos,
		                  "cache takes exactly one target, e.g. cache(raid1(mem x2), "
		                  "write=back)");
	rc = rl_target_build(node->args[0], ctx, &below, err);
	if (rc)
		return rc;
	t = rl_target_alloc(&cache_ops, 1);
	c = calloc(1, sizeof(*c));
	if (!t || !c) {
		free(c);
		free(t);
		rl_target_close(below);
		return -ENOMEM;
	}
	pthread_mutex_init(&c->lock, NULL);
	t->children[0] = below;
	t->priv = c;
	t->size = below->size;
	t->block_size = below->block_size;
	t->caps = (below->caps & (RL_CAP_TRIM | RL_CAP_DATA)) | RL_CAP_FLUSH;
	c->t = t;
	c->below = below;
	c->tab.bs = below->block_size;
	c->host.wb_wait_tail = &c->host.wb_wait;
	c->cfg.quiet = ctx->quiet;
	rc = cache_parse(c, node, err);
	if (!rc && ((rc = cache_lines_init(&c->tab, below->caps & RL_CAP_DATA)) ||
	            (rc = cache_destage_init(c, cache_wb_wake)) || (rc = cache_ra_init(c)) ||
	            (rc = cache_pl_init(c))))
		rl_err_set(err, node->pos, "cache: cannot reserve %llu bytes of cache memory",
		           (unsigned long long)c->cfg.size);
	if (rc) {
		rl_target_close(t);
		return rc;
	}
	*out = t;
	return 0;
}

static struct rl_target_type cache_type = {
    .name = "cache",
    .summary = "RAID controller cache: read-ahead, write-back/through, drive cache, power loss",
    .params = "TARGET, size=SIZE (default 1g), line=SIZE (64k), read=none|ahead|adaptive "
              "(ahead), write=through|back|force-back (back), battery=ok|bad|none (ok), "
              "nv=on|off (off), disk-cache=on|off (on), dirty-high=PCT (75), dirty-low=PCT "
              "(50), idle-flush=TIME (100ms, 0: never), destage-qd=N (32), ra=SIZE (one line), "
              "ra-qd=N (32), dram-lat=TIME (5us), dram-bw=RATE (6GB/s), powerloss-after=N, "
              "io=direct|cached (direct), fw-cmd=TIME (0), fw-lat=TIME (0), fastpath=on|off "
              "(off), fp-cmd=TIME (0), fp-lat=TIME (0), wt-fua=on|off (off), "
              "protected-sync=members|dram (members), ra-detect=on|off (off), fw-line=TIME (0), "
              "ra-stripe=on|off (off), dirty-max=PCT (100), "
              "full=through|wait (through), profile=NAME",
    .create = cache_create,
};
RL_TARGET_REGISTER(cache_type)
