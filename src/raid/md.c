/*
 * md.c - md metadata: writing v1.2 superblocks onto members (md_create,
 * behind `raidlab create`) and opening an array from its members'
 * superblocks (the md target).
 *
 *   md(MEMBER, MEMBER, ..., stripe_cache=N, stripe_size=SIZE, max-read-errors=N)
 *
 * The md target reads the superblock of every member it is given (4 KiB
 * from the start, md_super.c), checks that they belong to one array (same
 * array UUID, level, layout, chunk and member count), puts each at the
 * position its role says, and opens the level raidlab has for it with each
 * member seen through slice(MEMBER, offset=data_offset, size=used size).
 * A role nobody claims, a member whose superblock marks it faulty, or one
 * whose event count is behind the others' (a stale member, as md treats it)
 * is a failed member; the array opens degraded while its level allows.
 * Levels: raid0, raid1, raid10 (near/far/offset), raid5, raid6, linear.
 *
 * The array is the level's own target, so everything that works on raid5
 * or raid10 works on md(...) the same.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "core/registry.h"
#include "core/sync.h"
#include "raid/md.h"
#include "raid/md_super.h"
#include "raid/parity_layout.h"

/* Run one synchronous request on @t with a throwaway executor. */
static int md_member_io(struct rl_target *t, enum rl_op op, uint64_t off, void *buf, uint32_t len)
{
	struct rl_exec *ex = NULL;
	int rc = rl_exec_create(RL_EXEC_PSYNC, 16, 0, &ex);

	if (rc)
		return rc;
	rc = rl_target_attach(t, ex);
	if (!rc)
		rc = rl_io_sync(t, ex, op, off, len, buf, 0);
	if (!rc && op == RL_OP_WRITE)
		rc = rl_io_sync(t, ex, RL_OP_FLUSH, 0, 0, NULL, 0);
	rl_exec_destroy(ex);
	return rc;
}

int md_member_read_super(struct rl_target *t, struct md_super *sb, char *msg, size_t msglen)
{
	uint8_t *buf;
	int rc;

	if (t->size < MD_SB_OFFSET_BYTES + MD_SB_BYTES) {
		snprintf(msg, msglen, "too small to hold an md superblock");
		return -EINVAL;
	}
	buf = aligned_alloc(4096, MD_SB_BYTES);
	if (!buf)
		return -ENOMEM;
	rc = md_member_io(t, RL_OP_READ, MD_SB_OFFSET_BYTES, buf, MD_SB_BYTES);
	if (rc)
		snprintf(msg, msglen, "reading the superblock failed: %s", strerror(-rc));
	else
		rc = md_super_decode(buf, sb, msg, msglen);
	free(buf);
	return rc;
}

/* The bitmap chunk of @t's internal bitmap (md's superblock says where). */
static int md_member_read_bitmap(struct rl_target *t, const struct md_super *sb, uint64_t *chunk,
                                 char *msg, size_t msglen)
{
	struct md_bitmap_super b;
	uint8_t *buf = aligned_alloc(4096, MD_SB_BYTES);
	int64_t at = (int64_t)MD_SB_OFFSET_BYTES + (int64_t)sb->bitmap_offset * 512;
	int rc;

	if (!buf)
		return -ENOMEM;
	if (at < 0 || at % 4096 || (uint64_t)at + MD_SB_BYTES > t->size) {
		snprintf(msg, msglen, "md bitmap offset %d is not supported", sb->bitmap_offset);
		free(buf);
		return -EINVAL;
	}
	rc = md_member_io(t, RL_OP_READ, (uint64_t)at, buf, MD_SB_BYTES);
	if (rc)
		snprintf(msg, msglen, "reading the bitmap failed: %s", strerror(-rc));
	else
		rc = md_bitmap_decode(buf, &b, msg, msglen);
	if (!rc)
		*chunk = b.chunksize;
	free(buf);
	return rc;
}

static int md_level_parse(const char *s, int32_t *level)
{
	static const struct {
		const char *name;
		int32_t level;
	} names[] = {{"linear", -1}, {"raid0", 0},   {"0", 0},  {"raid1", 1},
	             {"1", 1},       {"raid5", 5},   {"5", 5},  {"raid6", 6},
	             {"6", 6},       {"raid10", 10}, {"10", 10}};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i].name)) {
			*level = names[i].level;
			return 0;
		}
	}
	return -EINVAL;
}

/* md's raid10 layout word from "n2" / "f2" / "o2". */
static int md_raid10_layout(const char *s, uint32_t *layout)
{
	char *end;
	unsigned long c;

	if (!s[0] || !strchr("nfo", s[0]))
		return -EINVAL;
	c = strtoul(s + 1, &end, 10);
	if (*end || c < 1 || c > 16)
		return -EINVAL;
	if (s[0] == 'n')
		*layout = (uint32_t)c | 1u << 8;
	else
		*layout = 1u | (uint32_t)c << 8 | (s[0] == 'o' ? 1u << 16 : 0);
	return 0;
}

int md_create(const struct md_create_opts *o, struct rl_target *const *members, unsigned n,
              struct md_super *out, char *msg, size_t msglen)
{
	struct md_super sb;
	uint64_t min = UINT64_MAX, chunk_s, off_s;
	uint8_t *buf;
	int rc = 0;

	memset(&sb, 0, sizeof(sb));
	if (md_level_parse(o->level, &sb.level)) {
		snprintf(msg, msglen,
		         "unknown level '%s' (raid0, raid1, raid5, raid6, raid10, linear)",
		         o->level);
		return -EINVAL;
	}
	if (n < 2 || n > MD_SB_MAX_DEVS || (sb.level == 5 && n < 3) || (sb.level == 6 && n < 4)) {
		snprintf(msg, msglen, "%s cannot have %u members", md_level_name(sb.level), n);
		return -EINVAL;
	}
	if (o->chunk < 4096 || (o->chunk & (o->chunk - 1))) {
		snprintf(msg, msglen, "chunk must be a power of two of at least 4k");
		return -EINVAL;
	}
	if (o->data_offset < 2 * 4096 + 4096 || o->data_offset % 4096) {
		snprintf(msg, msglen, "data offset must be a multiple of 4k from 12k up");
		return -EINVAL;
	}
	sb.layout = 0;
	if (sb.level == 5 || sb.level == 6) {
		int alg =
		    parity_layout_parse((unsigned)sb.level, o->layout ? o->layout : "default");
		if (alg < 0) {
			snprintf(msg, msglen, "unknown %s layout '%s'", md_level_name(sb.level),
			         o->layout);
			return -EINVAL;
		}
		sb.layout = (uint32_t)alg;
	} else if (sb.level == 10) {
		if (md_raid10_layout(o->layout ? o->layout : "n2", &sb.layout)) {
			snprintf(msg, msglen, "raid10 layout must be nK, fK or oK, not '%s'",
			         o->layout);
			return -EINVAL;
		}
	} else if (o->layout) {
		snprintf(msg, msglen, "%s takes no layout", md_level_name(sb.level));
		return -EINVAL;
	}
	for (unsigned i = 0; i < n; i++)
		min = members[i]->size < min ? members[i]->size : min;
	off_s = o->data_offset / 512;
	chunk_s = sb.level == 1 ? 0 : o->chunk / 512;
	if (min <= o->data_offset + o->chunk) {
		snprintf(msg, msglen,
		         "members must be larger than the data offset plus a chunk (%llu "
		         "bytes)",
		         (unsigned long long)(o->data_offset + o->chunk));
		return -EINVAL;
	}
	sb.chunk = (uint32_t)chunk_s;
	sb.raid_disks = n;
	sb.data_offset = off_s;
	sb.super_offset = MD_SB_OFFSET_BYTES / 512;
	sb.size = (min / 512 - off_s) / (chunk_s ? chunk_s : 8) * (chunk_s ? chunk_s : 8);
	sb.ctime = sb.utime = (uint64_t)time(NULL);
	sb.events = 1;
	sb.resync_offset = o->assume_clean ? MD_RESYNC_DONE : 0;
	sb.recovery_offset = 0;
	sb.max_dev = n;
	snprintf(sb.set_name, sizeof(sb.set_name), "%s", o->name ? o->name : "raidlab:0");
	if (o->uuid_set)
		memcpy(sb.set_uuid, o->uuid, 16);
	else if (getrandom(sb.set_uuid, 16, 0) != 16)
		return -EIO;
	for (unsigned i = 0; i < n; i++)
		sb.roles[i] = (uint16_t)i;
	buf = aligned_alloc(4096, MD_SB_BYTES);
	if (!buf)
		return -ENOMEM;
	if (o->bitmap_chunk) {
		/* md's internal bitmap, 8 sectors after the superblock: its
		 * header and bits in one 4 KiB block (mdadm --examine-bitmap). */
		uint64_t bits;
		if (o->bitmap_chunk < 4096 || (o->bitmap_chunk & (o->bitmap_chunk - 1)) ||
		    sb.level == 0 || sb.level == MD_LEVEL_LINEAR) {
			snprintf(msg, msglen,
			         "a bitmap needs a redundant level and a power-of-two "
			         "bitmap chunk of at least 4k");
			free(buf);
			return -EINVAL;
		}
		bits = (sb.size * 512 + o->bitmap_chunk - 1) / o->bitmap_chunk;
		if (bits > (MD_SB_BYTES - 256) * 8 || off_s < 8 + 8 + 8) {
			snprintf(
			    msg, msglen,
			    "the bitmap would have %llu bits: use a bitmap chunk of at "
			    "least %llu bytes",
			    (unsigned long long)bits,
			    (unsigned long long)(sb.size * 512 / ((MD_SB_BYTES - 256) * 8) + 1));
			free(buf);
			return -EINVAL;
		}
		sb.feature_map |= MD_FEATURE_BITMAP_OFFSET;
		sb.bitmap_offset = 8;
	}
	for (unsigned i = 0; i < n && !rc; i++) {
		sb.dev_number = i;
		sb.data_size = members[i]->size / 512 - off_s;
		if (getrandom(sb.device_uuid, 16, 0) != 16)
			memset(sb.device_uuid, (int)i, 16);
		md_super_encode(&sb, buf);
		rc = md_member_io(members[i], RL_OP_WRITE, MD_SB_OFFSET_BYTES, buf, MD_SB_BYTES);
		if (!rc && o->bitmap_chunk) {
			struct md_bitmap_super b = {.events = sb.events,
			                            .events_cleared = sb.events,
			                            .sync_size = sb.size,
			                            .chunksize = (uint32_t)o->bitmap_chunk,
			                            .daemon_sleep = 5,
			                            .sectors_reserved = (uint32_t)(off_s - 16)};
			memcpy(b.uuid, sb.set_uuid, 16);
			memset(buf, 0, MD_SB_BYTES);
			md_bitmap_encode(&b, buf);
			rc = md_member_io(members[i], RL_OP_WRITE, MD_SB_OFFSET_BYTES + 8 * 512,
			                  buf, MD_SB_BYTES);
		}
		if (rc)
			snprintf(msg, msglen, "writing the superblock of member %u failed: %s", i,
			         strerror(-rc));
	}
	free(buf);
	if (!rc && out)
		*out = sb;
	return rc;
}

/* --- the md target --- */

static int md_append(char **text, size_t *len, size_t *cap, const char *s)
{
	size_t l = strlen(s);

	if (*len + l + 1 > *cap) {
		size_t ncap = (*cap + l + 1) * 2;
		char *p = realloc(*text, ncap);
		if (!p)
			return -ENOMEM;
		*text = p;
		*cap = ncap;
	}
	memcpy(*text + *len, s, l + 1);
	*len += l;
	return 0;
}

/* The level spec's own parameters for @sb ("chunk=64k,layout=ls"). */
static int md_level_params(const struct md_super *sb, char *p, size_t len, char *msg, size_t msglen)
{
	unsigned long long chunk = (unsigned long long)sb->chunk * 512;

	switch (sb->level) {
	case 5:
	case 6:
		if (!strcmp(parity_layout_name(sb->layout), "?")) {
			snprintf(msg, msglen, "%s layout %u is not supported",
			         md_level_name(sb->level), sb->layout);
			return -EINVAL;
		}
		snprintf(p, len, "chunk=%llu,layout=%s", chunk, parity_layout_name(sb->layout));
		return 0;
	case 10: {
		unsigned nc = sb->layout & 0xff, fc = (sb->layout >> 8) & 0xff;
		bool offset = sb->layout >> 16 & 1;
		if (sb->layout >> 17 || (nc > 1 && fc > 1)) {
			snprintf(msg, msglen, "raid10 layout 0x%x is not supported", sb->layout);
			return -EINVAL;
		}
		snprintf(p, len, "chunk=%llu,layout=%c%u", chunk,
		         fc > 1 ? (offset ? 'o' : 'f') : 'n', fc > 1 ? fc : nc);
		return 0;
	}
	case 0:
		snprintf(p, len, "chunk=%llu", chunk);
		return 0;
	case 1:
	case MD_LEVEL_LINEAR:
		p[0] = 0;
		return 0;
	}
	snprintf(msg, msglen, "md level %d is not supported", sb->level);
	return -EINVAL;
}

static int md_target_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                            struct rl_target **out, struct rl_err *err)
{
	static const char *const pass[] = {"stripe_cache", "stripe_size", "max-read-errors", "read",
	                                   NULL};
	struct md_super *sbs = NULL, *ref = NULL;
	int *slot_of = NULL;
	uint64_t max_events = 0, bm_chunk = 0;
	bool parity, uniform = true;
	char *text = NULL, msg[256], params[128];
	size_t len = 0, cap = 0;
	struct rl_build_ctx probe_ctx = *ctx;
	int rc = 0;

	if (!node->nargs)
		return rl_err_set(err, node->pos,
		                  "md needs the array's members, e.g. md(a.img, b.img)");
	sbs = calloc(node->nargs, sizeof(*sbs));
	if (!sbs)
		return -ENOMEM;
	probe_ctx.write_intent = false;
	probe_ctx.quiet = true;
	for (size_t i = 0; i < node->nargs; i++) {
		struct rl_target *m;
		rc = rl_target_build(node->args[i], &probe_ctx, &m, err);
		if (rc)
			goto out;
		rc = md_member_read_super(m, &sbs[i], msg, sizeof(msg));
		if (!rc && !bm_chunk && (sbs[i].feature_map & MD_FEATURE_BITMAP_OFFSET))
			rc = md_member_read_bitmap(m, &sbs[i], &bm_chunk, msg, sizeof(msg));
		rl_target_close(m);
		if (rc) {
			rc = rl_err_set(err, node->args[i]->pos, "md: member %zu: %s", i, msg);
			goto out;
		}
		if (!ref)
			ref = &sbs[i];
		if (memcmp(sbs[i].set_uuid, ref->set_uuid, 16) || sbs[i].level != ref->level ||
		    sbs[i].layout != ref->layout || sbs[i].chunk != ref->chunk ||
		    sbs[i].raid_disks != ref->raid_disks) {
			rc = rl_err_set(err, node->args[i]->pos,
			                "md: member %zu belongs to another array (its UUID, level, "
			                "layout, chunk or member count differ from member 0's)",
			                i);
			goto out;
		}
		if (sbs[i].events > max_events)
			max_events = sbs[i].events;
	}
	slot_of = malloc(sizeof(int) * ref->raid_disks);
	if (!slot_of) {
		rc = -ENOMEM;
		goto out;
	}
	for (unsigned r = 0; r < ref->raid_disks; r++)
		slot_of[r] = -1;
	for (size_t i = 0; i < node->nargs; i++) {
		uint16_t role = sbs[i].roles[sbs[i].dev_number];
		if (role >= ref->raid_disks)
			continue; /* spare or faulty */
		if (sbs[i].events < max_events)
			continue; /* stale: md kicks it out */
		if (slot_of[role] >= 0) {
			rc = rl_err_set(err, node->args[i]->pos,
			                "md: members %d and %zu both claim role %u", slot_of[role],
			                i, role);
			goto out;
		}
		slot_of[role] = (int)i;
	}
	parity = ref->level == 5 || ref->level == 6;
	for (size_t i = 0; i < node->nargs; i++)
		if (sbs[i].data_offset != ref->data_offset)
			uniform = false; /* mdadm allows it; each member then gets its own slice */
	if ((rc = md_level_params(ref, params, sizeof(params), msg, sizeof(msg)))) {
		rc = rl_err_set(err, node->pos, "md: %s", msg);
		goto out;
	}
	rc = md_append(&text, &len, &cap, ref->level == MD_LEVEL_LINEAR ? "concat(" : "");
	if (!rc && ref->level != MD_LEVEL_LINEAR) {
		rc = md_append(&text, &len, &cap, md_level_name(ref->level));
		if (!rc)
			rc = md_append(&text, &len, &cap, "(");
	}
	{
		char failed[512] = "";
		size_t fl = 0;
		for (unsigned r = 0; r < ref->raid_disks && !rc; r++) {
			char piece[160];
			int i = slot_of[r];
			if (i < 0) {
				/* A missing member: an empty stand-in of the right size, failed. */
				snprintf(piece, sizeof(piece), "%smem(size=%llu)", r ? "," : "",
				         (unsigned long long)(ref->size + (parity && uniform
				                                               ? ref->data_offset
				                                               : 0)) *
				             512);
				rc = md_append(&text, &len, &cap, piece);
				fl += (size_t)snprintf(failed + fl, sizeof(failed) - fl, "%s%u",
				                       fl ? "+" : "", r);
				continue;
			}
			char *member = rl_spec_format(node->args[i]);
			if (!member) {
				rc = -ENOMEM;
				break;
			}
			rc = md_append(&text, &len, &cap, r ? ",slice(" : "slice(");
			if (!rc)
				rc = md_append(&text, &len, &cap, member);
			free(member);
			if (parity && uniform) /* the engine skips the metadata area itself */
				snprintf(piece, sizeof(piece), ",offset=0,size=%llu)",
				         (unsigned long long)(ref->data_offset + ref->size) * 512);
			else
				snprintf(piece, sizeof(piece), ",offset=%llu,size=%llu)",
				         (unsigned long long)sbs[i].data_offset * 512,
				         (unsigned long long)ref->size * 512);
			if (!rc)
				rc = md_append(&text, &len, &cap, piece);
		}
		if (!rc && parity && uniform) {
			char extra[160];
			snprintf(extra, sizeof(extra), ",data-offset=%llu",
			         (unsigned long long)ref->data_offset * 512);
			if (bm_chunk)
				snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
				         ",bitmap-chunk=%llu,bitmap-offset=%llu",
				         (unsigned long long)bm_chunk,
				         (unsigned long long)(MD_SB_OFFSET_BYTES +
				                              (uint64_t)ref->bitmap_offset * 512));
			rc = md_append(&text, &len, &cap, extra);
		}
		if (!rc && params[0]) {
			rc = md_append(&text, &len, &cap, ",");
			if (!rc)
				rc = md_append(&text, &len, &cap, params);
		}
		if (!rc && fl) {
			if (ref->level == 0 || ref->level == MD_LEVEL_LINEAR) {
				rc = rl_err_set(
				    err, node->pos,
				    "md: %s is missing member(s) %s and has no redundancy",
				    md_level_name(ref->level), failed);
				goto out;
			}
			rc = md_append(&text, &len, &cap, ",failed=");
			if (!rc)
				rc = md_append(&text, &len, &cap, failed);
		}
	}
	for (size_t k = 0; pass[k] && !rc; k++) {
		struct rl_spec_kv *kv = rl_spec_find(node, pass[k]);
		char piece[128];
		if (!kv)
			continue;
		snprintf(piece, sizeof(piece), ",%s=%s", pass[k], kv->value);
		rc = md_append(&text, &len, &cap, piece);
	}
	if (!rc)
		rc = md_append(&text, &len, &cap, ")");
	if (rc)
		goto out;
	if ((rc = rl_spec_check_unused(node, pass, err)))
		goto out;
	{
		struct rl_err inner = {0};
		struct rl_build_ctx mctx = *ctx;
		mctx.md_members = true; /* the superblocks are the array's own */
		rc = rl_target_open(text, &mctx, out, &inner);
		if (rc)
			rc = rl_err_set(err, node->pos, "md: opening %s: %s", text, inner.msg);
	}
out:
	free(text);
	free(slot_of);
	free(sbs);
	return rc;
}

static struct rl_target_type md_type = {
    .name = "md",
    .summary = "an array opened from its members' md v1.2 superblocks (raidlab create, mdadm)",
    .params = "MEMBER..., stripe_cache=N, stripe_size=SIZE, max-read-errors=N (raid5/6), "
              "read=POLICY (raid1/10)",
    .create = md_target_create,
};
RL_TARGET_REGISTER(md_type)

/* Keep the bitmap's event counts with the superblock's (md: older is stale). */
static int md_bitmap_set_events(struct rl_target *m, const struct md_super *sb, uint8_t *buf)
{
	uint64_t at = MD_SB_OFFSET_BYTES + (uint64_t)(int64_t)sb->bitmap_offset * 512;
	struct md_bitmap_super b;
	char msg[128];
	int rc = md_member_io(m, RL_OP_READ, at, buf, MD_SB_BYTES);

	if (rc || md_bitmap_decode(buf, &b, msg, sizeof(msg)))
		return rc ? rc : -EIO;
	b.events = b.events_cleared = sb->events;
	md_bitmap_encode(&b, buf); /* the header only: the bits after it stay */
	return md_member_io(m, RL_OP_WRITE, at, buf, MD_SB_BYTES);
}

int md_array_mark_clean(struct rl_target *array, char *msg, size_t msglen)
{
	uint8_t *buf = aligned_alloc(4096, MD_SB_BYTES);
	int rc = 0;

	if (!buf)
		return -ENOMEM;
	for (unsigned i = 0; i < array->nchildren && !rc; i++) {
		struct rl_target *m = array->children[i];
		struct md_super sb;

		if (strcmp(m->ops->name, "slice") || m->nchildren != 1)
			continue; /* a stand-in for a missing member */
		m = m->children[0];
		rc = md_member_read_super(m, &sb, msg, msglen);
		if (rc)
			break;
		sb.resync_offset = MD_RESYNC_DONE;
		sb.events++;
		sb.utime = (uint64_t)time(NULL);
		md_super_encode(&sb, buf);
		rc = md_member_io(m, RL_OP_WRITE, MD_SB_OFFSET_BYTES, buf, MD_SB_BYTES);
		if (!rc && (sb.feature_map & MD_FEATURE_BITMAP_OFFSET))
			rc = md_bitmap_set_events(m, &sb, buf);
		if (rc)
			snprintf(msg, msglen, "writing the superblock of member %u failed: %s", i,
			         strerror(-rc));
	}
	free(buf);
	return rc;
}
