/*
 * raid_common.c - member table, counters, common spec parameters and the
 * describe/report output every array level shares (see raid_common.h).
 *
 * Output shape, for `raidlab info` (describe) and result JSON (report):
 *
 *   describe: "level", "state" (optimal | degraded | failed), "copies",
 *             "chunk_bytes" (striped levels), "read_policy" (mirrored
 *             levels), level extras (layout, zones...), "members":
 *             [{"index", "state"}], and "lost" when data was lost.
 *   report:   "state", "degraded_reads", "retries", "member_errors",
 *             "degraded_writes", "lost_ios", "lost" (first/last offset and
 *             chunk), "members": [{"index", "state", "reads", "writes",
 *             "errors"}].
 */
#include <errno.h>
#include <json-c/json.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raid/md_state.h"
#include "raid/parity.h"
#include "raid/raid_common.h"

#define RELAXED memory_order_relaxed

/* --- building --- */

int raid_members_build(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                       const struct rl_target_ops *ops, unsigned min, struct rl_target **out,
                       struct rl_err *err)
{
	struct rl_target *t;
	uint32_t all = RL_CAP_DATA | RL_CAP_TRIM, any = 0;
	int rc;

	if (node->nargs < min)
		return rl_err_set(err, node->pos, "%s needs at least %u member%s, got %zu",
		                  node->name, min, min == 1 ? "" : "s", node->nargs);
	if (node->nargs > RAID_MAX_MEMBERS)
		return rl_err_set(err, node->args[RAID_MAX_MEMBERS]->pos,
		                  "%s takes at most %d members", node->name, RAID_MAX_MEMBERS);
	t = rl_target_alloc(ops, (unsigned)node->nargs);
	if (!t)
		return -ENOMEM;
	t->block_size = 0;
	for (unsigned i = 0; i < t->nchildren; i++) {
		struct rl_target *m;

		rc = rl_target_build(node->args[i], ctx, &m, err);
		if (rc) {
			rl_target_close(t);
			return rc;
		}
		t->children[i] = m;
		if (m->block_size > t->block_size)
			t->block_size = m->block_size;
		all &= m->caps;
		any |= m->caps;
	}
	t->caps = (all & (RL_CAP_DATA | RL_CAP_TRIM)) | (any & RL_CAP_FLUSH);
	*out = t;
	return 0;
}

void *raid_state_alloc(size_t size)
{
	size_t n = (size + 63) / 64 * 64;
	void *p = aligned_alloc(64, n);

	if (p)
		memset(p, 0, n);
	return p;
}

void raid_array_init(struct raid_array *a, struct rl_target *t, const struct raid_level *level,
                     uint64_t chunk, unsigned copies)
{
	a->level = level;
	a->t = t;
	a->n = t->nchildren;
	a->chunk = chunk;
	a->copies = copies;
	t->copies = copies;
	t->stripe = chunk && copies ? chunk * (t->nchildren / copies) : 0;
	atomic_init(&a->lost_first, UINT64_MAX);
	a->max_read_errors = RAID_MAX_READ_ERRORS_DEFAULT;
	for (unsigned i = 0; i < a->n; i++)
		atomic_init(&a->m[i].state, RAID_MEMBER_IN_SYNC);
	t->priv = a;
}

/* --- per-thread counters (raid_count_sent) --- */

_Thread_local unsigned raid_thread_slot_tls;
static _Atomic uint32_t raid_slots_taken; /* bit s: slot s + 1 has an owner */
static pthread_key_t raid_slot_key;
static pthread_once_t raid_slot_once = PTHREAD_ONCE_INIT;

/* A thread ends: its slot is free for the next (the release orders its
 * last counts before the next owner's first). */
static void raid_slot_release(void *v)
{
	unsigned slot = (unsigned)(uintptr_t)v;

	atomic_fetch_and_explicit(&raid_slots_taken, ~(1u << (slot - 1)), memory_order_release);
}

static void raid_slot_key_init(void)
{
	if (pthread_key_create(&raid_slot_key, raid_slot_release))
		raid_slot_key = (pthread_key_t)-1;
}

unsigned raid_thread_slot_claim(void)
{
	uint32_t taken = atomic_load_explicit(&raid_slots_taken, memory_order_relaxed);
	unsigned slot = RAID_SENT_SLOTS; /* the shared one, unless a free slot is claimed */

	pthread_once(&raid_slot_once, raid_slot_key_init);
	while (raid_slot_key != (pthread_key_t)-1) {
		unsigned s = (unsigned)__builtin_ctz(~taken);
		if (s >= RAID_SENT_SLOTS - 1)
			break;
		if (atomic_compare_exchange_weak_explicit(&raid_slots_taken, &taken,
		                                          taken | 1u << s, memory_order_acquire,
		                                          memory_order_relaxed)) {
			if (pthread_setspecific(raid_slot_key, (void *)(uintptr_t)(s + 1))) {
				raid_slot_release((void *)(uintptr_t)(s + 1));
				break;
			}
			slot = s + 1;
			break;
		}
	}
	raid_thread_slot_tls = slot;
	return slot;
}

uint64_t raid_sent_total(const struct raid_array *a, unsigned member, bool write)
{
	uint64_t sum = 0;

	for (unsigned s = 0; s < RAID_SENT_SLOTS; s++)
		sum += atomic_load_explicit(&a->sent[s].c[member][write], RELAXED);
	return sum;
}

void raid_member_sizes(const struct rl_target *t, uint64_t *sizes)
{
	for (unsigned i = 0; i < t->nchildren; i++)
		sizes[i] = t->children[i]->size / t->block_size * t->block_size;
}

bool raid_regions_hit(const struct raid_regions *r, uint64_t off, uint64_t len)
{
	if (!r)
		return true;
	for (uint64_t b = off / r->chunk; len && b <= (off + len - 1) / r->chunk && b < r->nbits;
	     b++)
		if (r->bits[b / 8] >> (b % 8) & 1)
			return true;
	return false;
}

int raid_spec_failed(struct rl_spec_node *node, struct raid_array *a, struct rl_err *err)
{
	struct rl_spec_kv *kv = rl_spec_find(node, "failed");
	const char *p;

	if (!kv)
		return 0;
	p = kv->value;
	for (;;) {
		char *end;
		unsigned long k;

		if (*p < '0' || *p > '9')
			return rl_err_set(err, kv->value_pos + (size_t)(p - kv->value),
			                  "failed: expected member numbers joined by '+', e.g. "
			                  "failed=1 or failed=0+3");
		k = strtoul(p, &end, 10);
		if (k >= a->n)
			return rl_err_set(err, kv->value_pos + (size_t)(p - kv->value),
			                  "failed: member %lu does not exist (members are 0..%u)",
			                  k, a->n - 1);
		if (raid_member_state(a, (unsigned)k) == RAID_MEMBER_FAILED)
			return rl_err_set(err, kv->value_pos + (size_t)(p - kv->value),
			                  "failed: member %lu is listed twice", k);
		raid_member_set(a, (unsigned)k, RAID_MEMBER_FAILED);
		if (!*end)
			return 0;
		if (*end != '+')
			return rl_err_set(err, kv->value_pos + (size_t)(end - kv->value),
			                  "failed: expected '+' between member numbers");
		p = end + 1;
	}
}

/* The shared entries, for the readers below (each level's table lists them too). */
static const struct rl_param raid_shared_params[] = {
    RAID_PARAM_READ,
    RAID_PARAM_WRITES,
    RAID_PARAM_MAX_READ_ERRORS,
    {0},
};

int raid_spec_max_read_errors(struct rl_spec_node *node, struct raid_array *a, struct rl_err *err)
{
	return rl_param_u64(node, raid_shared_params, "max-read-errors", &a->max_read_errors, err);
}

int raid_spec_read_policy(struct rl_spec_node *node, struct raid_array *a, struct rl_err *err)
{
	int pol = 0;
	int rc = rl_param_enum(node, raid_shared_params, "read", &pol, err);

	if (!rc)
		a->read_policy = pol == 4 ? RAID_READ_SEQUENTIAL : (enum raid_read_policy)pol;
	return rc;
}

int raid_spec_write_order(struct rl_spec_node *node, struct raid_array *a, struct rl_err *err)
{
	int v = 0;
	int rc = rl_param_enum(node, raid_shared_params, "writes", &v, err);

	if (!rc)
		a->serial_writes = v == 1;
	return rc;
}

/* --- state --- */

/* Every level uses raid_report as its report op: that identifies arrays. */
struct raid_array *raid_array_of(struct rl_target *t)
{
	return t && t->ops->report == raid_report ? t->priv : NULL;
}

void raid_member_set(struct raid_array *a, unsigned i, enum raid_member_state s)
{
	int old = atomic_exchange_explicit(&a->m[i].state, (int)s, memory_order_acq_rel);

	if (old != (int)s && a->md)
		md_state_changed(a->md, a);
}

bool raid_member_error(struct raid_array *a, unsigned i, int status)
{
	int cur = atomic_load_explicit(&a->m[i].state, memory_order_acquire);

	(void)status;
	atomic_fetch_add_explicit(&a->m[i].errors, 1, RELAXED);
	atomic_fetch_add_explicit(&a->member_errors, 1, RELAXED);
	while (cur != RAID_MEMBER_FAILED) {
		if (atomic_compare_exchange_weak_explicit(&a->m[i].state, &cur, RAID_MEMBER_FAILED,
		                                          memory_order_acq_rel,
		                                          memory_order_acquire)) {
			if (a->md) /* recorded before the failing request completes */
				md_state_changed(a->md, a);
			return true;
		}
	}
	return false;
}

/*
 * Would every array byte keep a readable copy if member @skip were gone?
 * Copy sets repeat with the chunk number modulo the member count (raid1:
 * one piece covers the array), so that many pieces check every set.
 */
static bool raid_redundant_without(const struct raid_array *a, unsigned skip)
{
	uint64_t step = a->chunk ? a->chunk : a->t->size;
	struct raid_loc locs[RAID_MAX_MEMBERS];

	for (uint64_t c = 0; c < a->n && c * step < a->t->size; c++) {
		uint64_t len;
		unsigned n = a->level->locate(a, c * step, step, &len, locs);
		bool ok = false;
		for (unsigned k = 0; k < n && !ok; k++)
			ok = locs[k].member != skip && raid_member_readable(a, locs[k].member);
		if (!ok)
			return false;
	}
	return true;
}

bool raid_member_read_error(struct raid_array *a, unsigned i, int status)
{
	uint64_t errs;

	(void)status;
	atomic_fetch_add_explicit(&a->m[i].errors, 1, RELAXED);
	atomic_fetch_add_explicit(&a->member_errors, 1, RELAXED);
	errs = atomic_fetch_add_explicit(&a->m[i].read_errors, 1, RELAXED) + 1;
	return errs > a->max_read_errors && raid_member_fail_if_redundant(a, i);
}

bool raid_member_redundant(struct raid_array *a, unsigned i)
{
	struct parity_array *pa = parity_array_of(a->t);
	unsigned down = 0;

	if (!raid_member_readable(a, i))
		return true;
	if (!pa)
		return raid_redundant_without(a, i);
	for (unsigned k = 0; k < a->n; k++)
		down += !raid_member_readable(a, k);
	return down < parity_parity_count(pa);
}

bool raid_member_fail_if_redundant(struct raid_array *a, unsigned i)
{
	bool failed = false;

	/* One decision at a time, so two members cannot each see the other as
	 * the surviving copy and both be failed. */
	while (atomic_exchange_explicit(&a->fail_lock, true, memory_order_acquire))
		;
	if (raid_member_readable(a, i) && raid_redundant_without(a, i)) {
		raid_member_set(a, i, RAID_MEMBER_FAILED);
		failed = true;
	}
	atomic_store_explicit(&a->fail_lock, false, memory_order_release);
	return failed;
}

void raid_lost_note(struct raid_array *a, uint64_t off)
{
	uint64_t none = UINT64_MAX;

	atomic_fetch_add_explicit(&a->lost_ios, 1, RELAXED);
	atomic_compare_exchange_strong_explicit(&a->lost_first, &none, off, RELAXED, RELAXED);
	atomic_store_explicit(&a->lost_last, off, RELAXED);
}

const char *raid_array_state(const struct raid_array *a)
{
	bool any_down = false;

	for (unsigned i = 0; i < a->n; i++)
		if (!raid_member_readable(a, i))
			any_down = true;
	if (!any_down)
		return "optimal";
	return a->level->intact(a) ? "degraded" : "failed";
}

const char *raid_member_state_name(enum raid_member_state s)
{
	switch (s) {
	case RAID_MEMBER_IN_SYNC:
		return "in_sync";
	case RAID_MEMBER_FAILED:
		return "failed";
	case RAID_MEMBER_REBUILDING:
		return "rebuilding";
	}
	return "?";
}

const char *raid_read_policy_name(enum raid_read_policy p)
{
	switch (p) {
	case RAID_READ_LEAST_PENDING:
		return "least-pending";
	case RAID_READ_ROUND_ROBIN:
		return "round-robin";
	case RAID_READ_SEQUENTIAL:
		return "sequential";
	case RAID_READ_PER_REQUEST:
		return "per-request";
	}
	return "?";
}

int raid_read_pick(struct raid_array *a, const struct raid_loc *locs, unsigned n, uint64_t mask,
                   uint64_t req)
{
	uint64_t live = 0;
	int best = -1;
	uint32_t best_pending = UINT32_MAX;

	for (unsigned i = 0; i < n; i++)
		if ((mask >> i & 1) && raid_member_readable(a, locs[i].member))
			live |= 1ull << i;
	if (!live)
		return -1;
	switch (a->read_policy) {
	case RAID_READ_ROUND_ROBIN: {
		uint64_t k = atomic_fetch_add_explicit(&a->rr_next, 1, RELAXED);
		for (unsigned j = 0; j < n; j++) {
			unsigned i = (unsigned)((k + j) % n);
			if (live >> i & 1)
				return (int)i;
		}
		return -1;
	}
	case RAID_READ_SEQUENTIAL:
		/* md is_sequential(): a read that starts where the last read on a
		 * member ended stays on that member. */
		for (unsigned i = 0; i < n; i++)
			if ((live >> i & 1) && atomic_load_explicit(&a->m[locs[i].member].next_seq,
			                                            RELAXED) == locs[i].offset)
				return (int)i;
		goto least;
	case RAID_READ_PER_REQUEST:
		/* the copy an earlier piece of the same request went to, if it continues there */
		for (unsigned i = 0; i < n; i++)
			if ((live >> i & 1) &&
			    atomic_load_explicit(&a->m[locs[i].member].seq_req, RELAXED) == req &&
			    atomic_load_explicit(&a->m[locs[i].member].next_seq, RELAXED) ==
			        locs[i].offset)
				return (int)i;
		/* fall through */
	least:
	case RAID_READ_LEAST_PENDING:
		for (unsigned i = 0; i < n; i++) {
			uint32_t p;
			if (!(live >> i & 1))
				continue;
			p = atomic_load_explicit(&a->m[locs[i].member].pending, RELAXED);
			if (p < best_pending) {
				best_pending = p;
				best = (int)i;
			}
		}
		return best;
	}
	return -1;
}

/* --- describe / report --- */

static void raid_json_u64(struct json_object *o, const char *key, uint64_t v)
{
	json_object_object_add(o, key, json_object_new_int64((int64_t)v));
}

static void raid_json_lost(const struct raid_array *a, struct json_object *obj)
{
	uint64_t n = atomic_load_explicit(&a->lost_ios, RELAXED);
	uint64_t first = atomic_load_explicit(&a->lost_first, RELAXED);
	uint64_t last = atomic_load_explicit(&a->lost_last, RELAXED);
	struct json_object *l;

	if (!n)
		return;
	l = json_object_new_object();
	raid_json_u64(l, "ios", n);
	raid_json_u64(l, "first_offset", first);
	raid_json_u64(l, "last_offset", last);
	if (a->chunk) {
		raid_json_u64(l, "first_chunk", first / a->chunk);
		raid_json_u64(l, "last_chunk", last / a->chunk);
	}
	json_object_object_add(obj, "lost", l);
}

int raid_describe(struct rl_target *t, struct json_object *obj)
{
	struct raid_array *a = t->priv;
	struct json_object *members = json_object_new_array();

	json_object_object_add(obj, "level", json_object_new_string(a->level->name));
	json_object_object_add(obj, "state", json_object_new_string(raid_array_state(a)));
	json_object_object_add(obj, "copies", json_object_new_int((int)a->copies));
	if (a->chunk)
		raid_json_u64(obj, "chunk_bytes", a->chunk);
	if (a->copies > 1)
		json_object_object_add(
		    obj, "read_policy",
		    json_object_new_string(raid_read_policy_name(a->read_policy)));
	if (a->level->describe)
		a->level->describe(a, obj);
	for (unsigned i = 0; i < a->n; i++) {
		struct json_object *m = json_object_new_object();
		json_object_object_add(m, "index", json_object_new_int((int)i));
		json_object_object_add(
		    m, "state",
		    json_object_new_string(raid_member_state_name(raid_member_state(a, i))));
		json_object_array_add(members, m);
	}
	json_object_object_add(obj, "members", members);
	raid_json_lost(a, obj);
	return 0;
}

int raid_report(struct rl_target *t, struct json_object *obj)
{
	struct raid_array *a = t->priv;
	struct json_object *members = json_object_new_array();

	json_object_object_add(obj, "level", json_object_new_string(a->level->name));
	json_object_object_add(obj, "state", json_object_new_string(raid_array_state(a)));
	raid_json_u64(obj, "degraded_reads", atomic_load_explicit(&a->degraded_reads, RELAXED));
	raid_json_u64(obj, "retries", atomic_load_explicit(&a->retries, RELAXED));
	raid_json_u64(obj, "member_errors", atomic_load_explicit(&a->member_errors, RELAXED));
	raid_json_u64(obj, "degraded_writes", atomic_load_explicit(&a->degraded_writes, RELAXED));
	raid_json_u64(obj, "lost_ios", atomic_load_explicit(&a->lost_ios, RELAXED));
	if (a->copies > 1) {
		raid_json_u64(obj, "read_errors_fixed",
		              atomic_load_explicit(&a->read_errors_fixed, RELAXED));
		raid_json_u64(obj, "read_fixes_skipped",
		              atomic_load_explicit(&a->fixes_skipped, RELAXED));
		raid_json_u64(obj, "max_read_errors", a->max_read_errors);
	}
	raid_json_lost(a, obj);
	if (a->md)
		md_state_report(a->md, obj);
	if (a->level->report)
		a->level->report(a, obj);
	for (unsigned i = 0; i < a->n; i++) {
		struct json_object *m = json_object_new_object();
		const struct raid_member *rm = &a->m[i];
		json_object_object_add(m, "index", json_object_new_int((int)i));
		json_object_object_add(
		    m, "state",
		    json_object_new_string(raid_member_state_name(raid_member_state(a, i))));
		raid_json_u64(m, "reads", raid_sent_total(a, i, false));
		raid_json_u64(m, "writes", raid_sent_total(a, i, true));
		raid_json_u64(m, "errors", atomic_load_explicit(&rm->errors, RELAXED));
		raid_json_u64(m, "read_errors", atomic_load_explicit(&rm->read_errors, RELAXED));
		json_object_array_add(members, m);
	}
	json_object_object_add(obj, "members", members);
	return 0;
}

void raid_destroy(struct rl_target *t)
{
	struct raid_array *a = t->priv;

	if (a && a->md)
		md_state_close(a->md, a);
	free(t->priv);
	t->priv = NULL;
}

bool raid_all_readable(const struct raid_array *a)
{
	for (unsigned i = 0; i < a->n; i++)
		if (!raid_member_readable(a, i))
			return false;
	return true;
}
