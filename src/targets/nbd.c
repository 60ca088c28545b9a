/*
 * nbd.c - an NBD server's export as the target, through libnbd: fio's nbd
 * engine.
 *
 *   nbd("nbd://host:10809/export")
 *   nbd("nbd+unix:///?socket=/tmp/sock")
 *
 * The argument is an NBD URI as libnbd reads it (nbd_connect_uri: nbd://,
 * nbds://, nbd+unix://, nbd+vsock://).  The target connects when it is
 * built, so a bad URI or a server that is not there is an error naming the
 * URI and libnbd's reason before any job starts.  Its size is the export's
 * (rounded down to a multiple of its block size), as fio takes the export's
 * size for the job's file; its block size is the server's preferred
 * minimum, at least 512.
 *
 * A request is one synchronous libnbd call in the submitting thread: a
 * read nbd_pread, a write nbd_pwrite (with NBD's FUA flag for an
 * RL_IO_FUA write, if the server offers it), a trim nbd_trim and a flush
 * nbd_flush; the completion is queued with the call's result, libnbd's
 * errno (EIO when it gives none) on failure.  So a job on it runs at depth
 * one, where fio's engine keeps iodepth commands in flight; the requests
 * the server sees are the same.  Trim and flush are offered only if the
 * server advertises them (nbd_can_trim, nbd_can_flush); a flush the server
 * lacks completes at once, as the file target's.
 *
 * One connection per target.  Jobs naming the same spec share a target,
 * so the numjobs copies of a job share its connection (fio's jobs each
 * connect); libnbd handles are thread-safe, so nothing else is locked.
 * Writing needs no --force-destroy: the URI names a server the user
 * started for the job.
 *
 * Without libnbd at build time (RL_LIBNBD undefined) the type exists and
 * says that it is not built in.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "core/registry.h"

#ifdef RL_LIBNBD
#include <libnbd.h>

struct nbd_state {
	struct nbd_handle *h;
	char *uri;
	bool fua;   /* the server takes NBD's FUA flag on writes */
	bool flush; /* the server takes flush commands */
};

/* libnbd's errno for the call that just failed, EIO when it gives none. */
static int nbdt_errno(void)
{
	int e = nbd_get_errno();
	return e > 0 ? -e : -EIO;
}

static void nbdt_submit(struct rl_target *t, struct rl_io *io)
{
	struct nbd_state *s = t->priv;
	int r;

	switch (io->op) {
	case RL_OP_READ:
		r = nbd_pread(s->h, io->buf, io->len, io->offset, 0);
		break;
	case RL_OP_WRITE:
		r = nbd_pwrite(s->h, io->buf, io->len, io->offset,
		               (io->flags & RL_IO_FUA) && s->fua ? LIBNBD_CMD_FLAG_FUA : 0);
		break;
	case RL_OP_TRIM:
		r = nbd_trim(s->h, io->len, io->offset, 0);
		break;
	case RL_OP_FLUSH:
		r = s->flush ? nbd_flush(s->h, 0) : 0;
		break;
	default:
		rl_io_complete_later(io, -EOPNOTSUPP);
		return;
	}
	rl_io_complete_later(io, r == -1 ? nbdt_errno() : 0);
}

static int nbdt_describe(struct rl_target *t, struct json_object *obj)
{
	struct nbd_state *s = t->priv;

	json_object_object_add(obj, "uri", json_object_new_string(s->uri));
	return 0;
}

static void nbdt_destroy(struct rl_target *t)
{
	struct nbd_state *s = t->priv;

	if (!s)
		return;
	if (s->h) {
		if (nbd_aio_is_ready(s->h))
			nbd_shutdown(s->h, 0);
		nbd_close(s->h);
	}
	free(s->uri);
	free(s);
	t->priv = NULL;
}

static const struct rl_target_ops nbdt_ops = {
    .name = "nbd",
    .submit = nbdt_submit,
    .describe = nbdt_describe,
    .destroy = nbdt_destroy,
};

/* Connect @s to its URI and read the export's size and block size. */
static int nbdt_connect(struct nbd_state *s, size_t pos, uint64_t *size, uint32_t *bs,
                        struct rl_err *err)
{
	s->h = nbd_create();
	if (!s->h)
		return rl_err_set(err, pos, "nbd: cannot create a libnbd handle: %s",
		                  nbd_get_error());
	if (nbd_connect_uri(s->h, s->uri) == -1) {
		int e = nbd_get_errno();
		rl_err_set(err, pos, "nbd: cannot connect to '%s': %s", s->uri, nbd_get_error());
		return e > 0 ? -e : -EINVAL;
	}
	int64_t sz = nbd_get_size(s->h);
	if (sz < 0)
		return rl_err_set(err, pos, "nbd: '%s': cannot read the export's size: %s", s->uri,
		                  nbd_get_error());
	int64_t min = nbd_get_block_size(s->h, LIBNBD_SIZE_MINIMUM);
	*bs = 512;
	while (min > 0 && *bs < (uint64_t)min && *bs < 65536)
		*bs *= 2;
	*size = (uint64_t)sz / *bs * *bs;
	if (!*size)
		return rl_err_set(err, pos,
		                  "nbd: '%s': the export holds %lld bytes, less than a block",
		                  s->uri, (long long)sz);
	s->fua = nbd_can_fua(s->h) == 1;
	s->flush = nbd_can_flush(s->h) == 1;
	return 0;
}

static int nbdt_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                       struct rl_target **out, struct rl_err *err)
{
	(void)ctx;
	if (!node->is_call || node->nargs != 1 || node->args[0]->is_call || !node->args[0]->name[0])
		return rl_err_set(
		    err, node->pos,
		    "nbd takes the server's URI, e.g. nbd(\"nbd://localhost/export\") or "
		    "nbd(\"nbd+unix:///?socket=/tmp/sock\")");
	int rc = rl_params_check(node, NULL, err);
	if (rc)
		return rc;
	struct nbd_state *s = calloc(1, sizeof(*s));
	if (!s || !(s->uri = strdup(node->args[0]->name))) {
		free(s);
		return -ENOMEM;
	}
	uint64_t size = 0;
	uint32_t bs = 512;
	struct rl_target *t = NULL;
	rc = nbdt_connect(s, node->pos, &size, &bs, err);
	if (!rc && !(t = rl_target_alloc(&nbdt_ops, 0)))
		rc = -ENOMEM;
	if (rc) {
		struct rl_target tmp = {.priv = s};
		nbdt_destroy(&tmp);
		return rc;
	}
	t->priv = s;
	t->size = size;
	t->block_size = bs;
	t->caps = RL_CAP_DATA | RL_CAP_REAL | (s->flush ? RL_CAP_FLUSH : 0) |
	          (nbd_can_trim(s->h) == 1 ? RL_CAP_TRIM : 0);
	*out = t;
	return 0;
}
#else
static int nbdt_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                       struct rl_target **out, struct rl_err *err)
{
	(void)ctx;
	(void)out;
	return rl_err_set(err, node->pos,
	                  "nbd (fio's ioengine=nbd) is not built in: raidlab was built without "
	                  "libnbd (install libnbd-dev and rebuild)");
}
#endif

static struct rl_target_type nbd_type = {
    .name = "nbd",
    .summary = "an NBD server's export, reached through libnbd (fio's nbd engine; if built "
               "with libnbd)",
    .args = "URI",
    .create = nbdt_create,
};
RL_TARGET_REGISTER(nbd_type)
