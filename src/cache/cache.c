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
#include "core/ctl_profile.h"
#include "core/sync.h"

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
static uint64_t cache_fw_when(struct cache *c, const struct rl_io *io, uint64_t now) RL_REQUIRES(c)
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

	cache_lock(c);
	if (c->pw.off && !c->replaying) {
		cache_unlock(c);
		rl_io_complete_later(io, -EIO);
		return;
	}
	c->host.inflight++;
	cache_destage_host_io(c, rl_exec_now(io->ex));
	if (io->ex->kind == RL_EXEC_VIRTUAL)
		when = cache_fw_when(c, io, rl_exec_now(io->ex));
	cache_unlock(c);
	*cache_req(io) = (struct cache_req){.cb = io->cb, .t = t};
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
	cache_lock(c);
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
	cache_unlock(c);
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
	for (int i = 0; i < 1000000 && !rl_exec_stalled(ex); i++)
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

	cache_lock(c);
	if (!c->host.inflight) {
		cache_destage_settle(c, false);
		cache_ra_settle(c);
	}
	dirty = c->tab.count[CACHE_L_DIRTY] > 0;
	off = c->pw.off;
	cache_unlock(c);
	if (!off) {
		if (dirty || c->cfg.disk_cache) {
			c->draining = true;
			cache_flush_private(t);
			c->draining = false;
		}
		cache_lock(c);
		cache_destage_account_lost(c);
		cache_unlock(c);
		return;
	}
	if (!c->replayed) {
		if (dirty && cache_protected(c)) {
			c->replaying = true;
			cache_flush_private(t);
			c->replaying = false;
		}
		cache_lock(c);
		cache_drop_all(&c->tab);
		c->replayed = true;
		cache_unlock(c);
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

	cache_lock(c);
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
	cache_unlock(c);
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
	rl_mutex_destroy(&c->lock);
	free(c);
	t->priv = NULL;
}

static const struct rl_target_ops cache_ops = {
    .name = "cache",
    .ctx_size = sizeof(struct cache_req),
    .submit = cache_submit,
    .describe = cache_describe,
    .report = cache_report,
    .attach = cache_attach,
    .destroy = cache_destroy,
    .finish = cache_finish,
};

/* The parameters of cache(...): the per-virtual-disk policies of a PERC / MegaRAID. */
static const struct rl_param cache_params[] = {
    {.name = "size",
     .type = RL_PARAM_SIZE,
     .def = "1g",
     .help = "cache memory (a PERC H730 has 1 GB, an H730P 2 GB); a cache larger than its target "
             "holds the whole target and keeps tables for the target's lines only (`lines` in "
             "the tree), so `size=1t` over a small target costs no more than `size=` of the "
             "target"},
    {.name = "line",
     .type = RL_PARAM_SIZE,
     .def = "64k",
     .help = "cache line: power of two from the block size to 4m; best equal to the array's "
             "chunk"},
    {.name = "read",
     .type = RL_PARAM_ENUM,
     .def = "ahead",
     .choices = cache_read_names,
     .help = "read policy: no read-ahead; prefetch after every read; prefetch from the second "
             "sequential read on"},
    {.name = "write",
     .type = RL_PARAM_ENUM,
     .def = "back",
     .choices = cache_write_names,
     .help = "write policy: acknowledge after the members; from the cache while the battery is "
             "good (or `nv=on`), else through; from the cache regardless"},
    {.name = "battery",
     .type = RL_PARAM_ENUM,
     .def = "ok",
     .choices = cache_battery_names,
     .help = "state of the battery (BBU): what protects the cache, for the write-back rule and "
             "the power-loss report"},
    {.name = "nv",
     .type = RL_PARAM_BOOL,
     .def = "off",
     .help = "flash-backed NV cache (supercap + flash): protected whatever the battery"},
    {.name = "disk-cache",
     .type = RL_PARAM_BOOL,
     .def = "on",
     .help = "drive cache policy for the members (the PERC default for SATA disks is on); off "
             "sends every member write with FUA"},
    {.name = "dirty-high",
     .type = RL_PARAM_PERCENT,
     .def = "75",
     .fmin = 1,
     .fmax = 100,
     .help = "background destage starts when this share of the lines is dirty ..."},
    {.name = "dirty-low",
     .type = RL_PARAM_PERCENT,
     .def = "50",
     .fmax = 100,
     .help = "... and stops when at most this share is dirty and not being destaged"},
    {.name = "idle-flush",
     .type = RL_PARAM_TIME,
     .def = "100ms",
     .help = "with no host request for this long, destage everything (0: never)"},
    {.name = "destage-qd",
     .type = RL_PARAM_U64,
     .def = "32",
     .min = 1,
     .max = 1024,
     .help = "destage writes in flight at most (background, and each flush)"},
    {.name = "ra",
     .type = RL_PARAM_SIZE,
     .def_note = "one line",
     .help = "read-ahead window (at least the read's own length)"},
    {.name = "ra-qd",
     .type = RL_PARAM_U64,
     .def = "32",
     .min = 1,
     .max = 1024,
     .help = "prefetch reads in flight at most"},
    {.name = "dram-lat",
     .type = RL_PARAM_TIME,
     .def = "5us",
     .help = "simulated time of a cache hit / write-back acknowledgement ..."},
    {.name = "dram-bw",
     .type = RL_PARAM_RATE,
     .def = "6GB/s",
     .help = "... plus its bytes at this rate, one shared channel (simulated runs only)"},
    {.name = "powerloss-after",
     .type = RL_PARAM_U64,
     .min = 1,
     .def_note = "never",
     .help = "cut the power right after the N-th acknowledged write; later I/O fails with EIO "
             "and the lost ranges are reported"},
    {.name = "io",
     .type = RL_PARAM_ENUM,
     .def = "direct",
     .choices = (const char *const[]){"direct", "cached", NULL},
     .help = "I/O policy: `direct` (MegaRAID's default) keeps read misses and write-through "
             "data out of the lines (a write-through write over a line that read-ahead filled "
             "drops that line's copy of the blocks, unless the line is in use), and sends a "
             "request whose lines the cache does not hold to the target below as one request; "
             "`cached` keeps everything read or written through"},
    {.name = "fw-cmd",
     .type = RL_PARAM_TIME,
     .def = "0",
     .help = "the firmware's command processor: every host command occupies it this long, one "
             "at a time (it caps IOPS) - simulated runs"},
    {.name = "fw-lat",
     .type = RL_PARAM_TIME,
     .def = "0",
     .help = "the cache path's latency per host command (overlapping other commands)"},
    {.name = "fw-line",
     .type = RL_PARAM_TIME,
     .def = "0",
     .help = "firmware time per cache line a command touches (cache path)"},
    {.name = "fastpath",
     .type = RL_PARAM_BOOL,
     .def = "off",
     .help = "LSI FastPath: a write-through, no-read-ahead, direct-I/O volume bypasses the "
             "cache firmware and pays `fp-cmd`/`fp-lat` instead"},
    {.name = "fp-cmd", .type = RL_PARAM_TIME, .def = "0", .help = "FastPath's command cost"},
    {.name = "fp-lat", .type = RL_PARAM_TIME, .def = "0", .help = "FastPath's latency"},
    {.name = "wt-fua",
     .type = RL_PARAM_BOOL,
     .def = "off",
     .help = "write-through member writes carry FUA (forced to media whatever the drive cache)"},
    {.name = "protected-sync",
     .type = RL_PARAM_ENUM,
     .def = "members",
     .choices = (const char *const[]){"members", "dram", NULL},
     .help = "with a protected write-back cache (battery ok or NV): `dram` completes host FLUSH "
             "and FUA from the cache, as a controller that presents its volumes as "
             "write-through does; `members` flushes through to the drives"},
    {.name = "ra-detect",
     .type = RL_PARAM_BOOL,
     .def = "off",
     .help = "`read=ahead` prefetches only for a sequential stream (random reads cost nothing)"},
    {.name = "ra-stripe",
     .type = RL_PARAM_BOOL,
     .def = "off",
     .help = "read-ahead stops at the end of the array's stripe row (`rl_target.stripe` of the "
             "array below)"},
    {.name = "dirty-max",
     .type = RL_PARAM_PERCENT,
     .def = "100",
     .fmin = 1,
     .fmax = 100,
     .help = "dirty data the cache may hold, as a share of its lines"},
    {.name = "full",
     .type = RL_PARAM_ENUM,
     .def = "through",
     .choices = (const char *const[]){"through", "wait", NULL},
     .help = "a write-back write that finds no room: `through` writes it through; `wait` makes "
             "it wait for the destage to make room (simulated runs), as a controller full of "
             "dirty data makes the host wait"},
    RL_CTL_PARAM_PROFILE,
    {0},
};

/* Parameters, checked against each other and the target below. */
static int cache_parse(struct cache *c, struct rl_spec_node *node, struct rl_err *err)
{
	const char *profile = "";
	uint64_t qd, raqd;
	int rc, io, full, sync;

	if ((rc = rl_param_u64(node, cache_params, "size", &c->cfg.size, err)) ||
	    (rc = rl_param_u64(node, cache_params, "line", &c->tab.line, err)) ||
	    (rc = rl_param_enum(node, cache_params, "read", &c->cfg.read, err)) ||
	    (rc = rl_param_enum(node, cache_params, "write", &c->cfg.write, err)) ||
	    (rc = rl_param_enum(node, cache_params, "battery", &c->cfg.battery, err)) ||
	    (rc = rl_param_bool(node, cache_params, "nv", &c->cfg.nv, err)) ||
	    (rc = rl_param_bool(node, cache_params, "disk-cache", &c->cfg.disk_cache, err)) ||
	    (rc = rl_param_double(node, cache_params, "dirty-high", &c->cfg.high_pct, err)) ||
	    (rc = rl_param_double(node, cache_params, "dirty-low", &c->cfg.low_pct, err)) ||
	    (rc = rl_param_u64(node, cache_params, "idle-flush", &c->cfg.idle_ns, err)) ||
	    (rc = rl_param_u64(node, cache_params, "destage-qd", &qd, err)) ||
	    (rc = rl_param_u64(node, cache_params, "ra", &c->cfg.ra_bytes, err)) ||
	    (rc = rl_param_u64(node, cache_params, "ra-qd", &raqd, err)) ||
	    (rc = rl_param_u64(node, cache_params, "dram-lat", &c->cfg.dram_lat, err)) ||
	    (rc = rl_param_u64(node, cache_params, "dram-bw", &c->cfg.dram_bw, err)) ||
	    (rc = rl_param_u64(node, cache_params, "powerloss-after", &c->cfg.powerloss_after,
	                       err)) ||
	    (rc = rl_param_enum(node, cache_params, "io", &io, err)) ||
	    (rc = rl_param_u64(node, cache_params, "fw-cmd", &c->cfg.fw_cmd, err)) ||
	    (rc = rl_param_u64(node, cache_params, "fw-lat", &c->cfg.fw_lat, err)) ||
	    (rc = rl_param_bool(node, cache_params, "fastpath", &c->cfg.fastpath, err)) ||
	    (rc = rl_param_u64(node, cache_params, "fp-cmd", &c->cfg.fp_cmd, err)) ||
	    (rc = rl_param_u64(node, cache_params, "fp-lat", &c->cfg.fp_lat, err)) ||
	    (rc = rl_param_bool(node, cache_params, "wt-fua", &c->cfg.wt_fua, err)) ||
	    (rc = rl_param_str(node, cache_params, "profile", &profile, err)) ||
	    (rc = rl_ctl_profile_check(node, "cache", err)) ||
	    (rc = rl_param_enum(node, cache_params, "protected-sync", &sync, err)) ||
	    (rc = rl_param_bool(node, cache_params, "ra-detect", &c->cfg.ra_detect, err)) ||
	    (rc = rl_param_u64(node, cache_params, "fw-line", &c->cfg.fw_line, err)) ||
	    (rc = rl_param_bool(node, cache_params, "ra-stripe", &c->cfg.ra_stripe, err)) ||
	    (rc = rl_param_double(node, cache_params, "dirty-max", &c->cfg.dirty_max_pct, err)) ||
	    (rc = rl_param_enum(node, cache_params, "full", &full, err)) ||
	    (rc = rl_params_check(node, cache_params, err)))
		return rc;
	c->cfg.io_direct = io == 0;
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
	rl_mutex_init(&c->lock);
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
    .args = "TARGET",
    .params = cache_params,
    .create = cache_create,
};
RL_TARGET_REGISTER(cache_type)
