/*
 * pmemblk.c - a libpmemblk block pool as the target: fio's pmemblk engine.
 *
 *   pmemblk("/mnt/pmem0/pool", bsize=4096, pool=1024m)
 *
 * libpmemblk (PMDK) keeps an array of fixed-size blocks, each written
 * atomically, in a pool file; on a DAX file system the file is persistent
 * memory, elsewhere a plain file whose pages libpmem flushes with msync.
 * The pool is opened if it exists (its block size is the pool's), else
 * created with bsize and pool bytes, as fio does for PATH,BSIZE,POOLMIB.
 * The target's size is the pool's usable blocks (less than pool: the BTT
 * metadata takes the rest), its block size the pool's; a request is one
 * pmemblk_read or pmemblk_write per block, synchronously in the submitting
 * thread (libpmemblk is thread-safe); a flush has nothing to do.
 *
 * One pool per path and process: libpmemblk locks the file, so the targets
 * of several jobs on one path (their specs may differ in unlink) share one
 * handle, counted, in a list under a lock.  The pool is closed with its
 * last target; it is removed then if raidlab made it and it is not kept
 * (keep, --keep), or if any of its targets says unlink=1 (fio's unlink).
 * An existing pool is written only with --force-destroy: it holds data.
 *
 * Without libpmemblk at build time (RL_PMEMBLK undefined) the type exists
 * and says that it is not built in.
 */
#include <errno.h>
#include <json-c/json.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/registry.h"

static const struct rl_param pmemblk_params[] = {
    {.name = "bsize",
     .type = RL_PARAM_SIZE,
     .def = "0",
     .help = "block size of a new pool (a multiple of 512); an existing pool keeps its own"},
    {.name = "pool",
     .type = RL_PARAM_SIZE,
     .def = "0",
     .help = "bytes of a new pool file (libpmemblk's minimum is about 16 MiB); 0: the pool "
             "must exist"},
    {.name = "unlink",
     .type = RL_PARAM_BOOL,
     .def = "off",
     .help = "remove the pool file when the run ends (fio's unlink)"},
    {.name = "keep",
     .type = RL_PARAM_BOOL,
     .def_note = "off (`--keep`)",
     .help = "keep a pool raidlab created when the run ends"},
    {0},
};

#ifdef RL_PMEMBLK
#include <libpmemblk.h>

/* One open pool, shared by the targets on its path. */
struct pmemblk_pool {
	struct pmemblk_pool *next;
	char *path;
	PMEMblkpool *pbp;
	size_t bsize, nblocks;
	unsigned refs;
	bool made;   /* raidlab created it in this run */
	bool remove; /* remove the file when the last target closes */
};

static struct pmemblk_pool *pmemblk_pools;
static pthread_mutex_t pmemblk_lock = PTHREAD_MUTEX_INITIALIZER;

struct pmemblk_state {
	struct pmemblk_pool *pool;
	bool unlink, keep;
	bool closed;
};

static void pmemblk_submit(struct rl_target *t, struct rl_io *io)
{
	struct pmemblk_state *s = t->priv;
	struct pmemblk_pool *p = s->pool;
	uint8_t *buf = io->buf;
	int rc = 0;

	if (io->op != RL_OP_READ && io->op != RL_OP_WRITE) {
		rl_io_complete_later(io, io->op == RL_OP_FLUSH ? 0 : -EOPNOTSUPP);
		return;
	}
	for (uint64_t b = io->offset / p->bsize, n = io->len / p->bsize; n && !rc;
	     n--, b++, buf += p->bsize) {
		int r = io->op == RL_OP_READ ? pmemblk_read(p->pbp, buf, (long long)b)
		                             : pmemblk_write(p->pbp, buf, (long long)b);
		if (r)
			rc = errno ? -errno : -EIO;
	}
	rl_io_complete_later(io, rc);
}

static int pmemblk_describe(struct rl_target *t, struct json_object *obj)
{
	struct pmemblk_state *s = t->priv;

	json_object_object_add(obj, "path", json_object_new_string(s->pool->path));
	json_object_object_add(obj, "bsize", json_object_new_int64((int64_t)s->pool->bsize));
	json_object_object_add(obj, "nblocks", json_object_new_int64((int64_t)s->pool->nblocks));
	return 0;
}

/* Drop this target's hold on its pool; the last one closes (and maybe removes) it. */
static void pmemblk_finish(struct rl_target *t)
{
	struct pmemblk_state *s = t->priv;
	struct pmemblk_pool *p = s->pool, **pp;

	if (!p || s->closed)
		return;
	s->closed = true;
	pthread_mutex_lock(&pmemblk_lock);
	if (s->unlink || (p->made && !s->keep))
		p->remove = true;
	if (--p->refs == 0) {
		for (pp = &pmemblk_pools; *pp && *pp != p; pp = &(*pp)->next)
			;
		if (*pp)
			*pp = p->next;
		pmemblk_close(p->pbp);
		if (p->remove)
			unlink(p->path);
		free(p->path);
		free(p);
	}
	pthread_mutex_unlock(&pmemblk_lock);
}

static void pmemblk_destroy(struct rl_target *t)
{
	if (!t->priv)
		return;
	pmemblk_finish(t);
	free(t->priv);
}

static const struct rl_target_ops pmemblk_ops = {
    .name = "pmemblk",
    .submit = pmemblk_submit,
    .describe = pmemblk_describe,
    .finish = pmemblk_finish,
    .destroy = pmemblk_destroy,
};

/* Open or create the pool at @path (under pmemblk_lock). */
static int pmemblk_pool_open(const char *path, uint64_t bsize, uint64_t pool,
                             const struct rl_build_ctx *ctx, size_t pos, struct pmemblk_pool **out,
                             struct rl_err *err)
{
	struct pmemblk_pool *p;

	for (p = pmemblk_pools; p; p = p->next)
		if (!strcmp(p->path, path)) {
			p->refs++;
			*out = p;
			return 0;
		}
	p = calloc(1, sizeof(*p));
	if (!p || !(p->path = strdup(path))) {
		free(p);
		return -ENOMEM;
	}
	p->pbp = pmemblk_open(path, 0);
	if (p->pbp && ctx->write_intent && !ctx->force_destroy) {
		pmemblk_close(p->pbp);
		free(p->path);
		free(p);
		return rl_err_set(err, pos,
		                  "refusing to write to the pmemblk pool %s, which holds data; "
		                  "pass --force-destroy to write to it",
		                  path);
	}
	if (!p->pbp && errno == ENOENT && bsize && pool) {
		p->pbp = pmemblk_create(path, bsize, pool, 0644);
		p->made = p->pbp != NULL;
	}
	if (!p->pbp) {
		int e = errno ? errno : EIO;
		rl_err_set(err, pos, "pmemblk: cannot %s the pool %s: %s",
		           e == ENOENT && !(bsize && pool) ? "find (no PATH,BSIZE,POOLMIB sizes to "
		                                             "create)"
		                                           : "open or create",
		           path, pmemblk_errormsg());
		free(p->path);
		free(p);
		return e == ENOENT && !(bsize && pool) ? -EINVAL : -e;
	}
	p->bsize = pmemblk_bsize(p->pbp);
	p->nblocks = pmemblk_nblock(p->pbp);
	p->refs = 1;
	p->next = pmemblk_pools;
	pmemblk_pools = p;
	*out = p;
	return 0;
}

static int pmemblk_create_target(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                                 struct rl_target **out, struct rl_err *err)
{
	struct pmemblk_state *s = calloc(1, sizeof(*s));
	uint64_t bsize = 0, pool = 0;
	int rc;

	if (!s)
		return -ENOMEM;
	s->keep = ctx->keep;
	if (!node->is_call || node->nargs != 1 || node->args[0]->is_call ||
	    !node->args[0]->name[0]) {
		free(s);
		return rl_err_set(
		    err, node->pos,
		    "pmemblk takes the pool's path, e.g. pmemblk(\"/mnt/pmem0/pool\", "
		    "bsize=4096, pool=1g)");
	}
	if ((rc = rl_param_u64(node, pmemblk_params, "bsize", &bsize, err)) ||
	    (rc = rl_param_u64(node, pmemblk_params, "pool", &pool, err)) ||
	    (rc = rl_param_bool(node, pmemblk_params, "unlink", &s->unlink, err)) ||
	    (rc = rl_param_bool(node, pmemblk_params, "keep", &s->keep, err)) ||
	    (rc = rl_params_check(node, pmemblk_params, err))) {
		free(s);
		return rc;
	}
	if (bsize % 512) {
		free(s);
		return rl_err_set(err, node->pos,
		                  "pmemblk: bsize must be a multiple of 512, got %llu",
		                  (unsigned long long)bsize);
	}
	pthread_mutex_lock(&pmemblk_lock);
	rc = pmemblk_pool_open(node->args[0]->name, bsize, pool, ctx, node->pos, &s->pool, err);
	pthread_mutex_unlock(&pmemblk_lock);
	struct rl_target *t = rc ? NULL : rl_target_alloc(&pmemblk_ops, 0);
	if (!rc && !t)
		rc = -ENOMEM;
	if (!rc && (s->pool->bsize % 512 || !s->pool->nblocks))
		rc = rl_err_set(err, node->pos,
		                "pmemblk: the pool %s has %zu blocks of %zu bytes; raidlab needs "
		                "blocks of a multiple of 512 bytes",
		                s->pool->path, s->pool->nblocks, s->pool->bsize);
	if (rc) {
		if (t) {
			t->priv = s;
			rl_target_close(t);
		} else {
			free(s);
		}
		return rc;
	}
	t->priv = s;
	t->block_size = (uint32_t)s->pool->bsize;
	t->size = (uint64_t)s->pool->bsize * s->pool->nblocks;
	t->caps = RL_CAP_FLUSH | RL_CAP_REAL;
	*out = t;
	return 0;
}
#else
static int pmemblk_create_target(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                                 struct rl_target **out, struct rl_err *err)
{
	(void)ctx;
	(void)out;
	return rl_err_set(err, node->pos,
	                  "pmemblk (fio's ioengine=pmemblk) is not built in: raidlab was built "
	                  "without libpmemblk (install libpmemblk-dev and rebuild)");
}
#endif

static struct rl_target_type pmemblk_type = {
    .name = "pmemblk",
    .summary = "a libpmemblk block pool in a file (fio's pmemblk engine; if built with "
               "libpmemblk)",
    .args = "PATH",
    .params = pmemblk_params,
    .create = pmemblk_create_target,
};
RL_TARGET_REGISTER(pmemblk_type)
