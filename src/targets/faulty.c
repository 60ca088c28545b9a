/*
 * faulty.c - deterministic fault injection in front of one target.
 *
 *   faulty(TARGET, rate=1%, seed=7, ops=read)
 *   faulty(TARGET, at=1m:4k+8m)             fail I/O touching those ranges
 *   faulty(TARGET, fail-after=1000)         I/Os after the first 1000 fail
 *   faulty(TARGET, vanish-after=500)        the device disappears
 *   faulty(TARGET, vanish-time=2s)          ... two seconds after first use
 *
 * Each request the target receives gets a sequence number (0, 1, 2, ... in
 * arrival order, shared by all threads).  A request fails with -EIO when
 *   - the device has vanished: its number is >= vanish-after, or
 *     vanish-time has passed on the executor's clock since the first
 *     request this target saw - every operation fails, flush and trim too;
 *   - or it is an operation selected by ops= (read, write or rw: reads and
 *     writes) and any of these holds:
 *       its number is >= fail-after;
 *       it overlaps one of the at= ranges (OFFSET[:LEN], '+'-separated,
 *       LEN defaults to one block);
 *       the seeded draw for its number falls under rate= (a percentage):
 *       draw = splitmix64(seed, number), so the same seed and the same
 *       arrival order fail the same requests on every run.
 * Everything else passes through untouched: the request itself is handed
 * to the target below (no child request, no pool use), which completes it
 * straight to the submitter.  Failures complete on the next loop turn.
 * Counters (report): requests seen, errors injected by cause.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/exec.h"
#include "core/registry.h"

#define FAULTY_MAX_AT 64
#define FAULTY_OFF    UINT64_MAX /* a trigger that is not set */
#define RELAXED       memory_order_relaxed

enum { FAULTY_OPS_READ = 1, FAULTY_OPS_WRITE = 2, FAULTY_OPS_RW = 3 };

struct faulty_range {
	uint64_t off, len;
};

struct faulty_state {
	unsigned ops;       /* FAULTY_OPS_* */
	double rate;        /* percent */
	uint64_t threshold; /* draws below this fail (rate as a fraction of 2^64) */
	bool always;        /* rate=100% */
	uint64_t seed;
	uint64_t fail_after, vanish_after, vanish_time; /* FAULTY_OFF when unset */
	struct faulty_range at[FAULTY_MAX_AT];
	unsigned nat;

	_Atomic uint64_t seen;     /* requests received: the next sequence number */
	_Atomic uint64_t t0_plus1; /* executor time of the first request, + 1; 0 = none yet */
	_Atomic uint64_t by_rate, by_at, by_after, by_vanish;
};

/* splitmix64 of (seed, n): a fixed pseudo-random draw per request number. */
static uint64_t faulty_draw(uint64_t seed, uint64_t n)
{
	uint64_t z = seed + (n + 1) * 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static bool faulty_vanished(struct faulty_state *f, struct rl_io *io, uint64_t seq)
{
	uint64_t now, t0;

	if (f->vanish_after != FAULTY_OFF && seq >= f->vanish_after)
		return true;
	if (f->vanish_time == FAULTY_OFF)
		return false;
	now = rl_exec_now(io->ex);
	t0 = 0;
	if (atomic_compare_exchange_strong_explicit(&f->t0_plus1, &t0, now + 1, RELAXED, RELAXED))
		t0 = now + 1;
	return now - (t0 - 1) >= f->vanish_time;
}

/* Which trigger fails @io (a counter to bump), or NULL to pass it through. */
static _Atomic uint64_t *faulty_decide(struct faulty_state *f, struct rl_io *io)
{
	uint64_t seq = atomic_fetch_add_explicit(&f->seen, 1, RELAXED);
	unsigned opbit = io->op == RL_OP_READ    ? FAULTY_OPS_READ
	                 : io->op == RL_OP_WRITE ? FAULTY_OPS_WRITE
	                                         : 0;

	if (faulty_vanished(f, io, seq))
		return &f->by_vanish;
	if (!(f->ops & opbit))
		return NULL;
	if (f->fail_after != FAULTY_OFF && seq >= f->fail_after)
		return &f->by_after;
	for (unsigned i = 0; i < f->nat; i++)
		if (io->offset < f->at[i].off + f->at[i].len && f->at[i].off < io->offset + io->len)
			return &f->by_at;
	if (f->always || (f->threshold && faulty_draw(f->seed, seq) < f->threshold))
		return &f->by_rate;
	return NULL;
}

static void faulty_submit(struct rl_target *t, struct rl_io *io)
{
	struct faulty_state *f = t->priv;
	_Atomic uint64_t *why = faulty_decide(f, io);

	if (why) {
		atomic_fetch_add_explicit(why, 1, RELAXED);
		rl_io_complete_later(io, -EIO);
		return;
	}
	rl_target_submit(t->children[0], io);
}

static void faulty_json_trigger(struct json_object *o, const char *key, uint64_t v)
{
	if (v != FAULTY_OFF)
		json_object_object_add(o, key, json_object_new_int64((int64_t)v));
}

static int faulty_describe(struct rl_target *t, struct json_object *obj)
{
	struct faulty_state *f = t->priv;
	static const char *const opnames[] = {"", "read", "write", "rw"};
	struct json_object *at = json_object_new_array();

	json_object_object_add(obj, "ops", json_object_new_string(opnames[f->ops]));
	json_object_object_add(obj, "rate_percent", json_object_new_double(f->rate));
	json_object_object_add(obj, "seed", json_object_new_int64((int64_t)f->seed));
	faulty_json_trigger(obj, "fail_after", f->fail_after);
	faulty_json_trigger(obj, "vanish_after", f->vanish_after);
	faulty_json_trigger(obj, "vanish_time_ns", f->vanish_time);
	for (unsigned i = 0; i < f->nat; i++) {
		struct json_object *r = json_object_new_object();
		json_object_object_add(r, "offset", json_object_new_int64((int64_t)f->at[i].off));
		json_object_object_add(r, "len", json_object_new_int64((int64_t)f->at[i].len));
		json_object_array_add(at, r);
	}
	json_object_object_add(obj, "at", at);
	return 0;
}

static int faulty_report(struct rl_target *t, struct json_object *obj)
{
	struct faulty_state *f = t->priv;
	uint64_t r = atomic_load_explicit(&f->by_rate, RELAXED);
	uint64_t a = atomic_load_explicit(&f->by_at, RELAXED);
	uint64_t n = atomic_load_explicit(&f->by_after, RELAXED);
	uint64_t v = atomic_load_explicit(&f->by_vanish, RELAXED);

	json_object_object_add(
	    obj, "requests",
	    json_object_new_int64((int64_t)atomic_load_explicit(&f->seen, RELAXED)));
	json_object_object_add(obj, "injected_errors",
	                       json_object_new_int64((int64_t)(r + a + n + v)));
	json_object_object_add(obj, "errors_rate", json_object_new_int64((int64_t)r));
	json_object_object_add(obj, "errors_at", json_object_new_int64((int64_t)a));
	json_object_object_add(obj, "errors_after", json_object_new_int64((int64_t)n));
	json_object_object_add(obj, "errors_vanished", json_object_new_int64((int64_t)v));
	return 0;
}

static void faulty_destroy(struct rl_target *t)
{
	free(t->priv);
	t->priv = NULL;
}

static const struct rl_target_ops faulty_ops = {
    .name = "faulty",
    .submit = faulty_submit,
    .describe = faulty_describe,
    .report = faulty_report,
    .destroy = faulty_destroy,
};

/* at=OFFSET[:LEN]+OFFSET[:LEN]... */
static int faulty_parse_at(struct rl_spec_node *node, struct faulty_state *f, uint32_t bs,
                           uint64_t size, struct rl_err *err)
{
	struct rl_spec_kv *kv = rl_spec_find(node, "at");
	const char *p;

	if (!kv)
		return 0;
	p = kv->value;
	for (;;) {
		size_t n = strcspn(p, "+"), c = strcspn(p, ":+");
		size_t pos = kv->value_pos + (size_t)(p - kv->value);
		char part[64], why[128];
		struct faulty_range r = {0, bs};

		if (f->nat == FAULTY_MAX_AT)
			return rl_err_set(err, pos, "at: at most %d ranges", FAULTY_MAX_AT);
		if (!c || c >= sizeof(part) || n >= sizeof(part))
			return rl_err_set(err, pos,
			                  "at: expected OFFSET[:LEN] ranges joined by '+', e.g. "
			                  "at=1m:4k+8m");
		memcpy(part, p, c);
		part[c] = 0;
		if (rl_parse_size(part, &r.off, why, sizeof(why)))
			return rl_err_set(err, pos, "at: %s", why);
		if (c < n) {
			memcpy(part, p + c + 1, n - c - 1);
			part[n - c - 1] = 0;
			if (rl_parse_size(part, &r.len, why, sizeof(why)) || !r.len)
				return rl_err_set(err, pos + c + 1,
				                  "at: expected a length after ':' (%s)",
				                  r.len ? why : "zero");
		}
		if (r.off >= size)
			return rl_err_set(err, pos,
			                  "at: offset %llu is beyond the target (%llu bytes)",
			                  (unsigned long long)r.off, (unsigned long long)size);
		f->at[f->nat++] = r;
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

/* What makes a request fail with EIO; other requests pass through untouched. */
static const struct rl_param faulty_params[] = {
    {.name = "vanish-after",
     .type = RL_PARAM_U64,
     .max = UINT64_MAX - 1,
     .def_note = "off",
     .help = "fail every request numbered N or later, of any operation (the device is gone)"},
    {.name = "vanish-time",
     .type = RL_PARAM_TIME,
     .def_note = "off",
     .help = "fail every request once TIME has passed on the executor's clock since the first "
             "request this target saw (simulated time on a virtual executor)"},
    {.name = "fail-after",
     .type = RL_PARAM_U64,
     .max = UINT64_MAX - 1,
     .def_note = "off",
     .help = "fail reads/writes (as `ops=`) numbered N or later"},
    {.name = "at",
     .type = RL_PARAM_STR,
     .form = "OFF[:LEN][+OFF[:LEN]...]",
     .help = "fail reads/writes overlapping one of the ranges; LEN defaults to one block"},
    {.name = "rate",
     .type = RL_PARAM_PERCENT,
     .def = "0",
     .fmax = 100,
     .help = "fail reads/writes whose seeded draw falls under the rate"},
    {.name = "seed",
     .type = RL_PARAM_U64,
     .def = "1",
     .help = "seed of the draw: `splitmix64(seed, request number)`"},
    {.name = "ops",
     .type = RL_PARAM_ENUM,
     .def = "rw",
     .choices = (const char *const[]){"read", "write", "rw", NULL},
     .help = "which operations `fail-after`, `at` and `rate` apply to; TRIM and FLUSH fail "
             "only when vanished"},
    {0},
};

static int faulty_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                         struct rl_target **out, struct rl_err *err)
{
	struct faulty_state *f;
	struct rl_target *t, *below;
	int ops = 2, rc;

	if (node->nargs != 1)
		return rl_err_set(err, node->pos,
		                  "faulty takes exactly one target, e.g. faulty(mem(size=1g), "
		                  "rate=1%%)");
	rc = rl_target_build(node->args[0], ctx, &below, err);
	if (rc)
		return rc;
	t = rl_target_alloc(&faulty_ops, 1);
	f = calloc(1, sizeof(*f));
	if (!t || !f) {
		free(f);
		free(t);
		rl_target_close(below);
		return -ENOMEM;
	}
	t->children[0] = below;
	t->priv = f;
	t->size = below->size;
	t->block_size = below->block_size;
	t->caps = below->caps & (RL_CAP_TRIM | RL_CAP_FLUSH | RL_CAP_DATA);
	f->fail_after = f->vanish_after = f->vanish_time = FAULTY_OFF;
	if ((rc = rl_param_double(node, faulty_params, "rate", &f->rate, err)) ||
	    (rc = rl_param_u64(node, faulty_params, "seed", &f->seed, err)) ||
	    (rc = rl_param_enum(node, faulty_params, "ops", &ops, err)) ||
	    (rc = rl_param_u64(node, faulty_params, "fail-after", &f->fail_after, err)) ||
	    (rc = rl_param_u64(node, faulty_params, "vanish-after", &f->vanish_after, err)) ||
	    (rc = rl_param_u64(node, faulty_params, "vanish-time", &f->vanish_time, err)) ||
	    (rc = faulty_parse_at(node, f, t->block_size, t->size, err)) ||
	    (rc = rl_params_check(node, faulty_params, err))) {
		rl_target_close(t);
		return rc;
	}
	f->ops = (unsigned)ops + 1;
	f->always = f->rate >= 100.0;
	f->threshold =
	    f->always ? UINT64_MAX : (uint64_t)(f->rate / 100.0 * 18446744073709551616.0);
	*out = t;
	return 0;
}

static struct rl_target_type faulty_type = {
    .name = "faulty",
    .summary = "deterministic fault injection: fail reads/writes with EIO, or vanish",
    .args = "TARGET",
    .params = faulty_params,
    .create = faulty_create,
};
RL_TARGET_REGISTER(faulty_type)
