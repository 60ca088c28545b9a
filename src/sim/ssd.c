/*
 * ssd.c - the ssd(...) target: a simulated SSD in virtual time.
 *
 *   ssd(sx8200pro)
 *   ssd(samsung-850evo-500, op=28%, trim=off, state=steady)
 *   ssd(sx8200pro, blocks=16, state=full, data=on)
 *
 * The first positional argument (or profile=) names a drive profile
 * (profiles/NAME.profile, see profile.c); every profile parameter can be
 * overridden by a key of the same name.  Instance keys: state=fresh|full|
 * steady (preconditioning, done at creation), data=on (keep contents, for
 * verification), seed=N (random victim choice, preconditioning).
 *
 * The target is a thin layer: it asks the model (dev.c) when the request
 * completes and hands the request to the executor's timer heap for that
 * instant; with data=on it also copies the bytes.  It sets RL_CAP_VIRTUAL,
 * so runs use a virtual-time executor, and the model assumes one thread at a
 * time (a virtual executor runs the whole run on one thread).  report puts
 * the model's counters into the run's JSON.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/exec.h"
#include "core/registry.h"
#include "sim/sim.h"

struct ssd {
	struct sim_dev *dev; /* first: tests reach the model through it */
	struct rl_exec *ex;  /* executor of the last request */
	uint64_t ex_last;    /* model time at the last request */
	uint64_t offset;     /* model time = executor time + offset */
};

/*
 * The model's clock.  A drive outlives an executor: each job of a run gets
 * a new virtual executor, which the runner starts at the time the stack
 * reached (rl_target.vtime), so the model's time simply goes on.  Should a
 * clock ever start behind the model (a tool driving the drive on a fresh
 * executor), it is mapped to continue where the model stopped: the model's
 * time never goes back, since its flash is still busy with earlier work.
 */
static uint64_t ssd_clock(struct ssd *s, struct rl_exec *ex)
{
	uint64_t now = rl_exec_now(ex);

	if (now + s->offset < s->ex_last) {
		uint64_t last = s->dev->c.last_ns > s->dev->now ? s->dev->c.last_ns : s->dev->now;
		s->offset = last > now ? last - now : 0;
	}
	s->ex = ex;
	s->ex_last = now + s->offset;
	return now + s->offset;
}

static void ssd_submit(struct rl_target *t, struct rl_io *io)
{
	struct ssd *s = t->priv;
	struct sim_dev *d = s->dev;
	uint64_t now = ssd_clock(s, io->ex), done;

	switch (io->op) {
	case RL_OP_READ:
		done = sim_dev_read(d, now, io->offset, io->len);
		if (d->data && io->buf)
			sim_dev_data_read(d, io->buf, io->offset, io->len);
		break;
	case RL_OP_WRITE:
		done = sim_dev_write(d, now, io->offset, io->len, io->flags & RL_IO_FUA);
		if (d->data && io->buf)
			sim_dev_data_write(d, io->buf, io->offset, io->len);
		break;
	case RL_OP_TRIM:
		done = sim_dev_trim(d, now, io->offset, io->len);
		if (d->data && d->p.trim) {
			uint64_t u = d->g.unit, a = (io->offset + u - 1) / u * u;
			uint64_t b = (io->offset + io->len) / u * u;
			if (b > a)
				sim_dev_data_trim(d, a, b);
		}
		break;
	default:
		done = sim_dev_flush(d, now);
		break;
	}
	if (rl_exec_at(io->ex, io, done - s->offset, 0))
		rl_io_complete_later(io, -ENOMEM);
}

static const char *const iface_str[] = {"sata", "ahci", "nvme"};
static const char *const gc_str[] = {"greedy", "fifo", "random"};
static const char *const slc_str[] = {"off", "static", "dynamic"};
static const char *const state_str[] = {"fresh", "full", "steady"};
static const char *const cell_str[] = {"?", "slc", "mlc", "tlc", "qlc"};

#define J_ADD(o, k, v) json_object_object_add(o, k, v)
#define J_I(v)         json_object_new_int64((int64_t)(v))
#define J_D(v)         json_object_new_double(v)
#define J_S(v)         json_object_new_string(v)

static int ssd_describe(struct rl_target *t, struct json_object *o)
{
	struct sim_dev *d = ((struct ssd *)t->priv)->dev;
	const struct sim_params *p = &d->p;
	const struct sim_geo *g = &d->g;

	J_ADD(o, "profile", J_S(p->name));
	J_ADD(o, "description", J_S(p->description));
	if (p->path[0])
		J_ADD(o, "profile_file", J_S(p->path));
	J_ADD(o, "interface", J_S(iface_str[p->iface]));
	J_ADD(o, "link_bytes_per_s", J_I(g->link_bw));
	J_ADD(o, "queue_slots", J_I(g->qd));
	J_ADD(o, "cell", J_S(cell_str[p->bits < 5 ? p->bits : 0]));
	J_ADD(o, "channels", J_I(p->channels));
	J_ADD(o, "dies_per_channel", J_I(p->dies));
	J_ADD(o, "planes", J_I(p->planes));
	J_ADD(o, "page_bytes", J_I(p->page));
	J_ADD(o, "pages_per_block", J_I(p->pages));
	J_ADD(o, "blocks_per_plane", J_I(p->blocks));
	J_ADD(o, "map_unit", J_I(g->unit));
	J_ADD(o, "superblock_units", J_I(g->b));
	J_ADD(o, "superblocks", J_I(g->nblocks));
	J_ADD(o, "physical_bytes", J_I((uint64_t)g->nblocks * g->b * g->unit));
	J_ADD(o, "spare_ratio", J_D(g->rho));
	J_ADD(o, "gc_policy", J_S(gc_str[p->gc]));
	J_ADD(o, "gc_free_superblocks", J_I(g->gc_thresh));
	J_ADD(o, "trim", json_object_new_boolean(p->trim));
	J_ADD(o, "slc_cache", J_S(slc_str[p->slc]));
	J_ADD(o, "slc_cache_bytes", J_I(g->slc_units * g->unit));
	J_ADD(o, "write_buffer_bytes", J_I((uint64_t)g->nslots * g->unit));
	J_ADD(o, "state", J_S(state_str[p->state]));
	J_ADD(o, "data", json_object_new_boolean(p->data));
	/* the model's tables (address space; only touched pages cost memory) */
	uint64_t phys = (uint64_t)g->nblocks * g->b;
	J_ADD(o, "model_bytes",
	      J_I(g->U * 4 + phys * 4 + phys / g->pu * 8 +
	          (uint64_t)g->nblocks * sizeof(struct sim_blk) + (p->data ? g->U * g->unit : 0)));
	return 0;
}

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

/* Busy fraction; work booked past the last completion would read above 1. */
static double busy(uint64_t ns, uint64_t elapsed)
{
	double u = ratio(ns, elapsed);

	return u < 1.0 ? u : 1.0;
}

static int ssd_report(struct rl_target *t, struct json_object *o)
{
	struct sim_dev *d = ((struct ssd *)t->priv)->dev;
	const struct sim_counters *c = &d->c;
	uint64_t unit = d->g.unit;
	uint64_t elapsed = c->last_ns > c->first_ns ? c->last_ns - c->first_ns : 0;
	struct json_object *host = json_object_new_object(), *nand = json_object_new_object();
	struct json_object *gc = json_object_new_object(), *slc = json_object_new_object();
	struct json_object *ftl = json_object_new_object(), *util = json_object_new_object();
	struct json_object *dies = json_object_new_array(), *chans = json_object_new_array();
	struct json_object *pre = json_object_new_object();
	double dsum = 0, dmax = 0, csum = 0, cmax = 0;

	J_ADD(o, "profile", J_S(d->p.name));
	J_ADD(host, "reads", J_I(c->reads));
	J_ADD(host, "writes", J_I(c->writes));
	J_ADD(host, "trims", J_I(c->trims));
	J_ADD(host, "flushes", J_I(c->flushes));
	J_ADD(host, "bytes_read", J_I(c->host_read_bytes));
	J_ADD(host, "bytes_written", J_I(c->host_write_bytes));
	J_ADD(host, "bytes_trimmed", J_I(c->host_trim_bytes));
	J_ADD(host, "units_written", J_I(c->host_units));
	J_ADD(host, "queue_wait_ns", J_I(c->queue_wait_ns));
	J_ADD(o, "host", host);
	J_ADD(nand, "bytes_written", J_I(c->nand_prog_units * unit));
	J_ADD(nand, "bytes_read", J_I(c->nand_read_units * unit));
	J_ADD(nand, "programs", J_I(c->nand_prog_ops));
	J_ADD(nand, "reads", J_I(c->nand_read_ops));
	J_ADD(nand, "erases", J_I(c->erases));
	J_ADD(nand, "padding_bytes", J_I(c->pad_units * unit));
	J_ADD(o, "nand", nand);
	J_ADD(o, "write_amplification", J_D(ratio(c->nand_prog_units * unit, c->host_write_bytes)));
	J_ADD(gc, "victims", J_I(c->gc_victims));
	J_ADD(gc, "relocated_bytes", J_I(c->gc_relocated * unit));
	J_ADD(gc, "relocated_units", J_I(c->gc_relocated));
	J_ADD(gc, "time_ns", J_I(c->gc_ns));
	J_ADD(o, "gc", gc);
	J_ADD(slc, "mode", J_S(slc_str[d->p.slc]));
	J_ADD(slc, "hit_bytes", J_I(c->slc_hit_units * unit));
	J_ADD(slc, "overflow_bytes", J_I(c->slc_overflow_units * unit));
	J_ADD(slc, "folds", J_I(c->fold_victims));
	J_ADD(slc, "folded_bytes", J_I(c->folded_units * unit));
	J_ADD(slc, "limit_bytes", J_I(sim_slc_limit(d) * unit));
	J_ADD(o, "slc", slc);
	J_ADD(ftl, "user_units", J_I(d->g.U));
	J_ADD(ftl, "physical_units", J_I(d->g.T));
	J_ADD(ftl, "superblock_units", J_I(d->g.b));
	J_ADD(ftl, "valid_units", J_I(d->valid_lpns));
	J_ADD(ftl, "free_superblocks", J_I(d->free_main.n));
	J_ADD(ftl, "empty_units_sum", J_I(c->empty_sum));
	J_ADD(ftl, "empty_units_samples", J_I(c->empty_samples));
	J_ADD(ftl, "empty_units_avg", J_D(ratio(c->empty_sum, c->empty_samples)));
	J_ADD(ftl, "buffer_read_bytes", J_I(c->buffer_read_units * unit));
	J_ADD(ftl, "unmapped_read_bytes", J_I(c->unmapped_read_units * unit));
	J_ADD(ftl, "rmw_reads", J_I(c->rmw_reads));
	J_ADD(ftl, "trimmed_bytes", J_I(c->trimmed_units * unit));
	J_ADD(o, "ftl", ftl);
	for (uint32_t i = 0; i < d->g.ndies; i++) {
		double u = busy(d->die[i].cal.busy_ns, elapsed);
		json_object_array_add(dies, J_D(u));
		dsum += u;
		dmax = u > dmax ? u : dmax;
	}
	for (uint32_t i = 0; i < d->g.nch; i++) {
		double u = busy(d->chan[i].busy_ns, elapsed);
		json_object_array_add(chans, J_D(u));
		csum += u;
		cmax = u > cmax ? u : cmax;
	}
	J_ADD(util, "elapsed_ns", J_I(elapsed));
	J_ADD(util, "die_mean", J_D(dsum / d->g.ndies));
	J_ADD(util, "die_max", J_D(dmax));
	J_ADD(util, "channel_mean", J_D(csum / d->g.nch));
	J_ADD(util, "channel_max", J_D(cmax));
	J_ADD(util, "link_read", J_D(busy(d->host.link[0].busy_ns, elapsed)));
	J_ADD(util, "link_write",
	      J_D(busy(d->host.link[d->host.half_duplex ? 0 : 1].busy_ns, elapsed)));
	J_ADD(util, "dies", dies);
	J_ADD(util, "channels", chans);
	J_ADD(o, "utilisation", util);
	J_ADD(pre, "state", J_S(state_str[d->p.state]));
	J_ADD(pre, "host_units", J_I(d->precond_host_units));
	J_ADD(pre, "write_amplification", J_D(d->precond_wa));
	J_ADD(pre, "wall_ns", J_I(d->precond_ns_wall));
	J_ADD(o, "precondition", pre);
	return 0;
}

static void ssd_destroy(struct rl_target *t)
{
	struct ssd *s = t->priv;

	if (s) {
		sim_dev_destroy(s->dev);
		free(s);
	}
}

static const struct rl_target_ops ssd_ops = {
    .name = "ssd",
    .submit = ssd_submit,
    .describe = ssd_describe,
    .report = ssd_report,
    .destroy = ssd_destroy,
};

/*
 * The ssd's own parameter; every other key is a drive profile parameter,
 * which the profile's table (profile.c) parses, checks and documents.
 */
static const struct rl_param ssd_params[] = {
    {.name = "profile",
     .type = RL_PARAM_STR,
     .def_note = "the built-in defaults: a small generic NVMe MLC drive",
     .help = "the drive profile (`raidlab profiles`), also written as the first argument"},
    {0},
};

static int ssd_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                      struct rl_target **out, struct rl_err *err)
{
	struct sim_params p;
	struct sim_geo g;
	struct sim_dev *d;
	struct rl_target *t;
	struct ssd *s;
	const char *profile = NULL;
	size_t ppos = node->pos;
	bool op_set = false, cap_set = false;
	char msg[512];
	double rho;
	int rc;

	(void)ctx;
	if (node->nargs > 1)
		return rl_err_set(err, node->args[1]->pos, "ssd takes one profile name");
	if (node->nargs) {
		if (node->args[0]->is_call)
			return rl_err_set(err, node->args[0]->pos,
			                  "ssd: expected a profile name, not a target");
		profile = node->args[0]->name;
		ppos = node->args[0]->pos;
	}
	struct rl_spec_kv *pkv = rl_spec_find(node, ssd_params[0].name);
	if (pkv) {
		if (profile)
			return rl_err_set(err, pkv->key_pos, "ssd: profile given twice");
		profile = pkv->value;
		ppos = pkv->value_pos;
	}
	sim_params_default(&p);
	if (profile && (rc = sim_profile_load(profile, &p, msg, sizeof(msg))))
		return rl_err_set(err, ppos, "ssd: %s", msg);
	rho = sim_params_rho(&p);
	uint64_t cap0 = p.capacity; /* the profile's: a larger capacity= may grow the drive */
	bool slc_set = false;
	for (size_t i = 0; i < node->nkv; i++) {
		struct rl_spec_kv *kv = &node->kv[i];
		if (!strcmp(kv->key, "profile"))
			continue;
		rc = sim_params_set(&p, kv->key, kv->value, msg, sizeof(msg));
		if (rc)
			return rl_err_set(err, strstr(msg, "unknown") ? kv->key_pos : kv->value_pos,
			                  "ssd: %s", msg);
		kv->used = true;
		op_set |= !strcmp(kv->key, "op");
		cap_set |= !strcmp(kv->key, "capacity");
		slc_set |= !strcmp(kv->key, "slc_size");
	}
	if (cap_set && op_set) {
		struct rl_spec_kv *kv = rl_spec_find(node, "op");
		return rl_err_set(
		    err, kv ? kv->key_pos : node->pos,
		    "ssd: capacity= and op= both given; the drive's NAND is fixed, so "
		    "one decides the other: give one of them");
	}
	if (cap_set && !op_set)
		p.op = -1;
	if (cap_set && (rc = sim_params_scale(&p, cap0, p.capacity, slc_set, msg, sizeof(msg))))
		return rl_err_set(err, rl_spec_find(node, "capacity")->value_pos, "ssd: %s", msg);
	if ((rc = sim_geo_derive(&p, rho, op_set, cap_set, &g, msg, sizeof(msg))))
		return rl_err_set(err, node->pos, "ssd: %s", msg);
	if ((rc = sim_dev_create(&p, &g, &d, msg, sizeof(msg)))) {
		rl_err_set(err, node->pos, "ssd: %s", msg);
		return rc;
	}
	if ((rc = sim_precond(d, msg, sizeof(msg)))) {
		sim_dev_destroy(d);
		return rl_err_set(err, node->pos, "ssd: %s", msg);
	}
	s = calloc(1, sizeof(*s));
	t = rl_target_alloc(&ssd_ops, 0);
	if (!s || !t) {
		free(s);
		free(t);
		sim_dev_destroy(d);
		return -ENOMEM;
	}
	s->dev = d;
	t->priv = s;
	t->size = g.U * g.unit;
	t->block_size = (uint32_t)p.logical_block;
	t->caps = RL_CAP_TRIM | RL_CAP_FLUSH | RL_CAP_VIRTUAL | (p.data ? RL_CAP_DATA : 0);
	*out = t;
	return 0;
}

static struct rl_target_type ssd_type = {
    .name = "ssd",
    .summary = "simulated SSD in virtual time: host interface, NAND, FTL and GC, SLC cache",
    .args = "PROFILE",
    .params = ssd_params,
    .params_note = "and any drive profile parameter by its name, which overrides the "
                   "profile's ('raidlab help targets ssd' lists them): op=20%, trim=off, "
                   "gc=greedy|fifo|random, blocks=N, state=fresh|full|steady, data=on, seed=N, "
                   "...",
    .more_params = sim_params_doc,
    .more_params_title = "drive profile parameters",
    .create = ssd_create,
};
RL_TARGET_REGISTER(ssd_type)
