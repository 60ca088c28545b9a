/*
 * parity_build.c - building a raid5/raid6 array and everything around its
 * data path: spec parsing and checks, the stripe cache's memory, the
 * description and report, attach/finish/destroy.  What an open does to
 * the members before the array is used (log replay, the bitmap, the
 * initial resync) is parity_replay.c; the data path is parity.c.
 */
#include <errno.h>
#include <json-c/json.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/exec.h"
#include "core/sync.h"
#include "raid/parity_params.h"
#include "raid/parity_priv.h"
/* --- building --- */

struct parity_array *parity_array_of(struct rl_target *t)
{
	return t && t->ops->submit == parity_submit ? t->priv : NULL;
}

static void parity_describe_level(const struct raid_array *a, struct json_object *obj)
{
	const struct parity_array *pa = (const struct parity_array *)a;

	json_object_object_add(obj, "layout",
	                       json_object_new_string(parity_layout_name(pa->g.algorithm)));
	json_object_object_add(obj, "algorithm", json_object_new_int((int)pa->g.algorithm));
	json_object_object_add(obj, "parity", json_object_new_int((int)pa->nparity));
	json_object_object_add(obj, "stripe_cache", json_object_new_int((int)pa->nslots));
	json_object_object_add(obj, "stripe_size_bytes",
	                       json_object_new_int64((int64_t)pa->height));
	json_object_object_add(obj, "max_read_errors",
	                       json_object_new_int64((int64_t)pa->max_read_errors));
	json_object_object_add(obj, "write_hole_remedy",
	                       json_object_new_string(pa->log == PARITY_LOG_JOURNAL ? "journal"
	                                              : pa->log == PARITY_LOG_PPL   ? "ppl"
	                                                                            : "none"));
	if (pa->resync_pending)
		json_object_object_add(
		    obj, "resync",
		    json_object_new_string("pending: new members opened read-only, parity never "
		                           "computed (a writable open runs md's initial resync)"));
}

static void parity_report_level(const struct raid_array *a, struct json_object *obj)
{
	const struct parity_array *pa = (const struct parity_array *)a;
	struct {
		const char *key;
		const _Atomic uint64_t *v;
	} c[] = {
	    {"rmw_windows", &pa->rmw},
	    {"rcw_windows", &pa->rcw},
	    {"full_stripe_windows", &pa->full_stripe},
	    {"reconstruct_writes", &pa->reconstruct_writes},
	    {"reconstruct_reads", &pa->reconstruct_reads},
	    {"corrected_read_errors", &pa->corrected},
	    {"stripe_lock_waits", &pa->lock_waits},
	    {"log_writes", &pa->log_writes},
	    {"bitmap_writes", &pa->bm_writes},
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		json_object_object_add(
		    obj, c[i].key,
		    json_object_new_int64((int64_t)atomic_load_explicit(c[i].v, RELAXED)));
	/* only when it happened: background work a job's end left behind */
	uint64_t orphans = atomic_load_explicit(&pa->orphans, RELAXED);
	if (orphans)
		json_object_object_add(obj, "orphaned_stripe_locks",
		                       json_object_new_int64((int64_t)orphans));
}

static unsigned parity_locate_unused(const struct raid_array *a, uint64_t off, uint64_t max,
                                     uint64_t *len, struct raid_loc *locs)
{
	const struct parity_array *pa = (const struct parity_array *)a;
	uint64_t left = pa->g.chunk - off % pa->g.chunk;

	*len = max < left ? max : left;
	parity_geom_map(&pa->g, off, &locs[0]);
	return 1;
}

static const struct raid_level parity_levels[2] = {
    {.name = "raid5",
     .locate = parity_locate_unused,
     .intact = parity_intact,
     .describe = parity_describe_level,
     .report = parity_report_level},
    {.name = "raid6",
     .locate = parity_locate_unused,
     .intact = parity_intact,
     .describe = parity_describe_level,
     .report = parity_report_level},
};

/* The target operations of a parity level: the same engine under its name. */
#define PARITY_OPS(level_name)                                                                     \
	{                                                                                          \
		.name = level_name, .ctx_size = sizeof(struct parity_req),                         \
		.tag_size = sizeof(struct parity_tag), .submit = parity_submit,                    \
		.describe = raid_describe, .report = raid_report, .ctl = raid_ctl,                 \
		.attach = parity_attach, .finish = parity_target_finish,                           \
		.destroy = parity_destroy,                                                         \
	}

static const struct rl_target_ops parity_ops[2] = {PARITY_OPS("raid5"), PARITY_OPS("raid6")};

/* Everything that tells raid5 and raid6 apart (raid5.c, raid6.c register them). */
static const struct parity_level_desc parity_descs[2] = {
    {.name = "raid5", .level = 5, .nparity = 1, .ops = &parity_ops[0]},
    {.name = "raid6", .level = 6, .nparity = 2, .ops = &parity_ops[1]},
};

static int parity_alloc_slots(struct parity_array *pa)
{
	unsigned n = pa->g.n, per = 2 * n + 4;
	size_t area = (size_t)per * pa->height + (pa->log ? pa->recsize : 0);
	size_t bytes = pa->data ? (size_t)pa->nslots * area + pa->height : 0;

	if (rl_mutex_init(&pa->lock))
		return -ENOMEM;
	pa->slots = calloc(pa->nslots, sizeof(*pa->slots));
	if (!pa->slots)
		return -ENOMEM;
	if (!bytes)
		return 0;
	/* Pages are touched only where rows are used: most of this stays unmapped. */
	pa->arena = aligned_alloc(4096, (bytes + 4095) / 4096 * 4096); /* O_DIRECT members */
	if (!pa->arena)
		return -ENOMEM;
	pa->zero = pa->arena;
	memset(pa->zero, 0, pa->height);
	for (unsigned i = 0; i < pa->nslots; i++) {
		uint8_t *p = pa->arena + pa->height + (size_t)i * area;
		struct parity_slot *s = &pa->slots[i];
		for (unsigned m = 0; m < n; m++) {
			s->old[m] = p + (size_t)m * pa->height;
			s->nw[m] = p + (size_t)(n + m) * pa->height;
		}
		for (unsigned j = 0; j < 4; j++)
			s->scratch[j] = p + (size_t)(2 * n + j) * pa->height;
		if (pa->log)
			s->logbuf = p + (size_t)per * pa->height;
	}
	return 0;
}

int parity_attach(struct rl_target *t, struct rl_exec *ex)
{
	struct parity_array *pa = t->priv;

	return pa->journal ? rl_target_attach(pa->journal, ex) : 0;
}

void parity_target_finish(struct rl_target *t)
{
	struct parity_array *pa = t->priv;

	if (pa->journal)
		rl_target_finish(pa->journal);
}

void parity_destroy(struct rl_target *t)
{
	struct parity_array *pa = t->priv;

	if (pa) {
		if (pa->slots)
			rl_mutex_destroy(&pa->lock);
		free(pa->slots);
		free(pa->arena);
		free((void *)pa->bm_set);
		free((void *)pa->bm_inflight);
		free((void *)pa->bm_last);
		free(pa->bm_block);
		rl_target_close(pa->journal);
	}
	raid_destroy(t);
}

/* journal= and ppl=on: one write-hole remedy at most, ppl for raid5 only (as md). */
static int parity_create_remedy_check(const struct parity_level_desc *d,
                                      const struct rl_spec_node *node, bool ppl,
                                      const struct rl_spec_kv *jkv, struct rl_err *err)
{
	if (ppl && jkv)
		return rl_err_set(err, jkv->value_pos, "%s: journal= and ppl=on exclude each other",
		                  d->name);
	if (ppl && d->level != 5)
		return rl_err_set(err, node->pos, "%s: ppl=on is for raid5 only (as md)", d->name);
	return 0;
}

/*
 * Lay out every member: the data from data-offset; unless md's bitmap lies
 * in the metadata area (bitmap-offset), one bitmap block at the very end;
 * below it the partial parity log.  *size is the smallest member's bytes
 * on entry and what is left for the data on return.
 */
static int parity_create_areas(struct parity_array *pa, const struct parity_level_desc *d,
                               const struct rl_spec_node *node, const struct rl_target *t,
                               uint64_t chunk, bool ppl, uint64_t bmchunk, uint64_t bmoff,
                               uint64_t doff, uint64_t *sizep, struct rl_err *err)
{
	uint64_t size = *sizep;

	if (doff % t->block_size || doff >= size ||
	    (bmoff && (bmoff % 4096 || !bmchunk || bmoff + PARITY_BM_BLOCK > doff)))
		return rl_err_set(
		    err, node->pos,
		    "%s: data-offset must be a block multiple inside the members, and "
		    "bitmap-offset (with bitmap-chunk) a 4k multiple whose block ends "
		    "before the data",
		    d->name);
	pa->doff = doff;
	size -= doff;
	if (bmchunk && bmoff) {
		pa->bm_base = bmoff; /* md's bitmap in the metadata area */
	} else if (bmchunk) {
		if (size <= PARITY_BM_BLOCK + chunk)
			return rl_err_set(err, node->pos, "%s: members too small for a bitmap",
			                  d->name);
		size = (size - PARITY_BM_BLOCK) / t->block_size * t->block_size;
		pa->bm_base = doff + size;
	}
	if (ppl) {
		/* one record per cache entry */
		pa->log = PARITY_LOG_PPL;
		pa->recsize = PARITY_LOG_HDR + pa->height;
		if (size <= pa->nslots * pa->recsize + chunk)
			return rl_err_set(
			    err, node->pos,
			    "%s: members too small for the partial parity log (%llu bytes "
			    "with stripe_cache=%u) and a chunk",
			    d->name, (unsigned long long)(pa->nslots * pa->recsize), pa->nslots);
		size -= pa->nslots * pa->recsize;
		pa->log_base = doff + size;
	}
	*sizep = size;
	return 0;
}

/*
 * The write-intent bitmap's state: md grows the bitmap chunk until the
 * bits fit its space (after the 256-byte header of an md bitmap).
 */
static int parity_create_bitmap(struct parity_array *pa, uint64_t bmchunk, uint64_t bmoff)
{
	pa->bm_bits_at = bmoff ? 256 : 0;
	while (pa->g.dev_size / bmchunk >= (PARITY_BM_BLOCK - pa->bm_bits_at) * 8)
		bmchunk *= 2;
	pa->bm_chunk = bmchunk;
	pa->bm_bits = (pa->g.dev_size + bmchunk - 1) / bmchunk;
	pa->bm_set = calloc(pa->bm_bits, sizeof(*pa->bm_set));
	pa->bm_inflight = calloc(pa->bm_bits, sizeof(*pa->bm_inflight));
	pa->bm_last = calloc(pa->bm_bits, sizeof(*pa->bm_last));
	pa->bm_block = aligned_alloc(4096, PARITY_BM_BLOCK);
	if (!pa->bm_set || !pa->bm_inflight || !pa->bm_last || !pa->bm_block)
		return -ENOMEM;
	memset(pa->bm_block, 0, PARITY_BM_BLOCK);
	return 0;
}

/* journal=SPEC: build the journal target, one record per cache entry. */
static int parity_create_journal(struct parity_array *pa, const struct parity_level_desc *d,
                                 const struct rl_build_ctx *ctx, const struct rl_spec_kv *jkv,
                                 struct rl_err *err)
{
	struct rl_spec_node *jn = NULL;
	struct rl_err jerr = {0};
	int rc;

	pa->log = PARITY_LOG_JOURNAL;
	pa->recsize = (PARITY_LOG_HDR + (uint64_t)pa->a.n * pa->height + 4095) / 4096 * 4096;
	if ((rc = rl_spec_parse(jkv->value, &jn, &jerr)) ||
	    (rc = rl_target_build(jn, ctx, &pa->journal, &jerr))) {
		rl_spec_free(jn);
		return rl_err_set(err, jkv->value_pos + jerr.pos, "%s: journal: %s", d->name,
		                  jerr.msg);
	}
	rl_spec_free(jn);
	if (pa->journal->size < pa->nslots * pa->recsize ||
	    (pa->data && !(pa->journal->caps & RL_CAP_DATA)))
		return rl_err_set(err, jkv->value_pos,
		                  "%s: the journal needs %llu bytes (stripe_cache=%u records of "
		                  "%llu) that store data",
		                  d->name, (unsigned long long)(pa->nslots * pa->recsize),
		                  pa->nslots, (unsigned long long)pa->recsize);
	return 0;
}

/*
 * What an open does before the array is used (parity_replay.c): the log
 * replayed, md's bitmap loaded, new members resynced.
 */
static int parity_create_open(struct parity_array *pa, const struct parity_level_desc *d,
                              const struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                              bool md_bitmap, struct rl_err *err)
{
	char msg[256];
	bool resynced;
	int rc = parity_replay_at_open(pa, ctx->write_intent, msg, sizeof(msg));

	if (!rc && md_bitmap && pa->data)
		rc = parity_bitmap_load(pa, msg, sizeof(msg));
	if (rc)
		return rl_err_set(err, node->pos, "%s: %s", d->name, msg);
	rc = parity_resync_fresh(pa, ctx->write_intent, &resynced, msg, sizeof(msg));
	if (rc)
		return rl_err_set(err, node->pos, "%s: initial resync: %s", d->name, msg);
	if (resynced && !ctx->quiet)
		fprintf(stderr,
		        "%s: new members: parity computed from their contents "
		        "(md's initial resync)\n",
		        d->name);
	if (pa->resync_pending && !ctx->quiet)
		fprintf(stderr,
		        "%s: new members opened read-only: parity not computed (no initial "
		        "resync); the array is not in sync\n",
		        d->name);
	return 0;
}

int parity_create(const struct parity_level_desc *d, struct rl_spec_node *node,
                  const struct rl_build_ctx *ctx, struct rl_target **out, struct rl_err *err)
{
	uint64_t sizes[RAID_MAX_MEMBERS], chunk, size = UINT64_MAX, nslots, height, mre,
	                                         plafter = 0;
	uint64_t bmchunk = 0, bmoff = 0, doff;
	const char *layout;
	struct parity_array *pa;
	struct rl_target *t;
	struct rl_spec_kv *kv, *jkv;
	bool ppl;
	char msg[256];
	int rc, alg;

	rc = raid_members_build(node, ctx, d->ops, d->level == 6 ? 4 : 3, &t, err);
	if (rc)
		return rc;
	if ((rc = rl_param_u64(node, parity_params, "chunk", &chunk, err)))
		goto fail;
	height = chunk < (64 << 10) ? chunk : 64 << 10; /* stripe_size's default */
	if ((rc = rl_param_str(node, parity_params, "layout", &layout, err)) ||
	    (rc = rl_param_u64(node, parity_params, "stripe_cache", &nslots, err)) ||
	    (rc = rl_param_u64(node, parity_params, "stripe_size", &height, err)) ||
	    (rc = rl_param_u64(node, parity_params, "max-read-errors", &mre, err)) ||
	    (rc = rl_param_bool(node, parity_params, "ppl", &ppl, err)) ||
	    (rc = rl_param_u64(node, parity_params, "powerloss-after", &plafter, err)) ||
	    (rc = rl_param_u64(node, parity_params, "bitmap-chunk", &bmchunk, err)) ||
	    (rc = rl_param_u64(node, parity_params, "bitmap-offset", &bmoff, err)) ||
	    (rc = rl_param_u64(node, parity_params, "data-offset", &doff, err)))
		goto fail;
	kv = rl_spec_find(node, "bitmap-chunk");
	if (kv && (bmchunk < 4096 || (bmchunk & (bmchunk - 1)))) {
		/* md's bitmap chunk: bytes of each member per bit, a power of two;
		 * 0 is no size (leave the key out for no bitmap). */
		rc = rl_err_set(err, kv->value_pos,
		                "%s: bitmap-chunk=%s: expected a power of two from 4k up (bytes "
		                "of each member per bitmap bit; leave it out for no bitmap)",
		                d->name, kv->value);
		goto fail;
	}
	alg = parity_layout_parse(d->level, layout);
	if (alg < 0) {
		kv = rl_spec_find(node, "layout");
		rc =
		    rl_err_set(err, kv ? kv->value_pos : node->pos,
		               "%s: unknown layout '%s' (left-symmetric, right-symmetric, "
		               "left-asymmetric, right-asymmetric, parity-first, parity-last%s)",
		               d->name, layout,
		               d->level == 6 ? ", or one of those with -6 except parity-last" : "");
		goto fail;
	}
	pa = raid_state_alloc(sizeof(*pa));
	if (!pa) {
		rc = -ENOMEM;
		goto fail;
	}
	raid_array_init(&pa->a, t, &parity_levels[d->level == 6], chunk, 1);
	t->stripe = chunk * (t->nchildren - (d->level == 6 ? 2u : 1u)); /* data per row */
	pa->nparity = d->nparity;
	pa->height = height;
	pa->nslots = (unsigned)nslots;
	pa->max_read_errors = mre;
	pa->powerloss_after = plafter;
	pa->data = (t->caps & RL_CAP_DATA) != 0;
	jkv = rl_spec_find(node, "journal");
	if ((rc = parity_create_remedy_check(d, node, ppl, jkv, err)))
		goto fail;
	raid_member_sizes(t, sizes);
	for (unsigned i = 0; i < t->nchildren; i++)
		size = sizes[i] < size ? sizes[i] : size;
	if ((rc =
	         parity_create_areas(pa, d, node, t, chunk, ppl, bmchunk, bmoff, doff, &size, err)))
		goto fail;
	rc = parity_geom_init(&pa->g, d->level, (unsigned)alg, t->nchildren, chunk, size, msg,
	                      sizeof(msg));
	if (rc) {
		rc = rl_err_set(err, node->pos, "%s: %s", d->name, msg);
		goto fail;
	}
	if (bmchunk && (rc = parity_create_bitmap(pa, bmchunk, bmoff)))
		goto fail;
	if (chunk % t->block_size || height % t->block_size || height < 4096 ||
	    (height & (height - 1)) || height > chunk) {
		rc = rl_err_set(
		    err, node->pos,
		    "%s: stripe_size must be a power of two from 4k up to the chunk, and "
		    "chunk and stripe_size multiples of the members' block size (%u)",
		    d->name, t->block_size);
		goto fail;
	}
	pa->wps = chunk / height;
	if (jkv && (rc = parity_create_journal(pa, d, ctx, jkv, err)))
		goto fail;
	t->caps &= ~RL_CAP_TRIM;
	if ((rc = raid_spec_failed(node, &pa->a, err)) ||
	    (rc = rl_params_check(node, parity_params, err)))
		goto fail;
	if (parity_alloc_slots(pa)) {
		rc = -ENOMEM;
		goto fail;
	}
	t->size = pa->g.size;
	if ((rc = parity_create_open(pa, d, node, ctx, bmoff != 0, err)))
		goto fail;
	*out = t;
	return 0;
fail:
	rl_target_close(t);
	return rc;
}

int parity_type_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                       struct rl_target **out, struct rl_err *err)
{
	return parity_create(&parity_descs[!strcmp(node->name, "raid6")], node, ctx, out, err);
}
