/*
 * md.c - md metadata: writing v1.2 superblocks onto members (md_create,
 * behind `raidlab create`) and opening an array from its members'
 * superblocks (the md target).
 *
 *   md(MEMBER, MEMBER, ..., survivor=ROLE, stripe_cache=N, stripe_size=SIZE,
 *      max-read-errors=N, read=POLICY)
 *
 * The md target reads the superblock of every member it is given (4 KiB
 * from the start, md_super.c), checks that they belong to one array (same
 * array UUID, level, layout, chunk, member count and used size), puts each
 * at the position its role says, and opens the level raidlab has for it
 * with each member seen through slice(MEMBER, offset=data_offset,
 * size=used size).
 * A role nobody claims, a member whose superblock marks it faulty, or one
 * whose event count is behind the others' (a stale member, as md treats it)
 * is a failed member; the array opens degraded while its level allows.
 * The freshest superblock is the highest event count, at equal counts the
 * lowest role, never the order of the arguments.  Two members that each
 * record the other failed were written apart (split brain): refused,
 * unless survivor=ROLE names the one to keep (the others are then stale).
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
#include "raid/md_state.h"
#include "raid/md_super.h"
#include "raid/parity_layout.h"
#include "raid/raid_common.h"

int md_member_io(struct rl_target *t, enum rl_op op, uint64_t off, void *buf, uint32_t len)
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
	if (o->name && strlen(o->name) > sizeof(sb.set_name) - 1) {
		snprintf(msg, msglen,
		         "name '%s' has %zu characters: md's superblock holds at most %zu", o->name,
		         strlen(o->name), sizeof(sb.set_name) - 1);
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
			/* a new array is not in sync anywhere: every region dirty, as
			 * mdadm creates it, unless the user says it is clean */
			if (!o->assume_clean)
				for (uint64_t k = 0;
				     k < (sb.size * 512 + o->bitmap_chunk - 1) / o->bitmap_chunk;
				     k++)
					buf[256 + k / 8] |= (uint8_t)(1u << (k % 8));
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

/*
 * md(...)'s own survivor=, then what it passes on, as written, to the
 * level it opens (whose own table checks the value): the array's settings
 * that md's superblock does not record.
 */
static const struct rl_param md_params[] = {
    {.name = "survivor",
     .type = RL_PARAM_U64,
     .max = RAID_MAX_MEMBERS - 1,
     .form = "ROLE",
     .def_note = "none: a split brain is refused",
     .help = "members written apart (split brain: each records the other failed) are "
             "refused; survivor=ROLE keeps the member holding that role, and the members it "
             "records failed are stale (rebuilt from it when opened for writing)"},
    {.name = "stripe_cache",
     .type = RL_PARAM_U64,
     .def_note = "the level's",
     .help = "raid5/6: stripe cache entries, as raid5(...)"},
    {.name = "stripe_size",
     .type = RL_PARAM_SIZE,
     .def_note = "the level's",
     .help = "raid5/6: rows per cache entry, as raid5(...)"},
    {.name = "max-read-errors",
     .type = RL_PARAM_U64,
     .def_note = "the level's",
     .help = "raid1/10/5/6: read errors a member survives, as the level"},
    {.name = "read",
     .type = RL_PARAM_STR,
     .form = "POLICY",
     .def_note = "the level's",
     .help = "raid1/10: which copy serves a read, as raid1(...)"},
    {0},
};

/* What md(...) learns from the members' superblocks. */
struct md_assembly {
	struct md_super *sbs;          /* per argument */
	const struct md_super *fresh;  /* the highest event count */
	int slot_of[RAID_MAX_MEMBERS]; /* argument at each role, -1: nobody */
	uint64_t stale;                /* roles whose member is behind (a bit per role) */
	uint64_t overruled;            /* roles written apart from the survivor (split brain) */
	uint64_t max_events;           /* the highest event count of any member */
	uint64_t bm_chunk;             /* internal bitmap chunk bytes (0: none) */
	bool unclean;                  /* an in-sync member records the array dirty */
};

/* Refuse feature bits md(...) does not honour, naming them. */
static int md_features_check(const struct md_super *sb, char *msg, size_t msglen)
{
	uint32_t extra = sb->feature_map & ~MD_FEATURES_KNOWN;

	if (!extra)
		return 0;
	snprintf(msg, msglen, "feature_map 0x%x: %s is not supported", sb->feature_map,
	         extra & MD_FEATURE_RESHAPE_ACTIVE ? "a reshape under way"
	         : extra & MD_FEATURE_JOURNAL      ? "a journal device"
	         : extra & MD_FEATURE_PPL          ? "a partial parity log (PPL)"
	                                           : "an unknown feature");
	return -EINVAL;
}

/* The role @sb gives its own member (MD_ROLE_FAULTY/SPARE when it holds none). */
static uint16_t md_own_role(const struct md_super *sb)
{
	return sb->roles[sb->dev_number];
}

/*
 * Is @sb fresher than @than (NULL: yes)?  The higher event count; at equal
 * counts the lower role, so the order of md(...)'s arguments never decides.
 */
static bool md_fresher(const struct md_super *sb, const struct md_super *than)
{
	return !than || sb->events > than->events ||
	       (sb->events == than->events && md_own_role(sb) < md_own_role(than));
}

/* Argument @i of md(...) as written, into @buf (for messages). */
static const char *md_arg_name(struct rl_spec_node *node, size_t i, char *buf, size_t len)
{
	char *s = rl_spec_format(node->args[i]);

	snprintf(buf, len, "%s", s ? s : "?");
	free(s);
	return buf;
}

/* Argument @i records another used size than argument 0: name both. */
static int md_size_conflict(struct rl_spec_node *node, const struct md_assembly *as, size_t i,
                            struct rl_err *err)
{
	char a[128], b[128];

	return rl_err_set(err, node->args[i]->pos,
	                  "md: the members disagree on the array's used size: member %zu (%s) "
	                  "records %llu sectors, member 0 (%s) %llu sectors; a damaged or "
	                  "foreign superblock (md(...) will not guess which is right)",
	                  i, md_arg_name(node, i, b, sizeof(b)),
	                  (unsigned long long)as->sbs[i].size, md_arg_name(node, 0, a, sizeof(a)),
	                  (unsigned long long)as->sbs[0].size);
}

/* Read every member's superblock (and bitmap) and check they form one array. */
static int md_members_read(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                           struct md_assembly *as, struct rl_err *err)
{
	struct rl_build_ctx probe_ctx = *ctx;
	const struct md_super *ref = NULL;
	char msg[256], bm_msg[256] = "";
	size_t bm_failed = 0; /* 1 + the first member whose bitmap could not be read */
	int rc;

	probe_ctx.write_intent = false;
	probe_ctx.quiet = true;
	for (size_t i = 0; i < node->nargs; i++) {
		struct rl_target *m;
		struct md_super *sb = &as->sbs[i];
		rc = rl_target_build(node->args[i], &probe_ctx, &m, err);
		if (rc)
			return rc;
		rc = md_member_read_super(m, sb, msg, sizeof(msg));
		if (!rc)
			rc = md_features_check(sb, msg, sizeof(msg));
		if (!rc)
			rc = md_super_check(sb, m->size, msg, sizeof(msg));
		/* the bitmap's chunk from the first member that gives it (md reads
		 * the bitmap from any member that answers) */
		if (!rc && !as->bm_chunk && (sb->feature_map & MD_FEATURE_BITMAP_OFFSET) &&
		    md_member_read_bitmap(m, sb, &as->bm_chunk, bm_msg, sizeof(bm_msg)))
			bm_failed = i + 1;
		rl_target_close(m);
		if (!rc && sb->raid_disks > RAID_MAX_MEMBERS) {
			snprintf(msg, sizeof(msg),
			         "raid_disks %u: at most %u members are supported", sb->raid_disks,
			         RAID_MAX_MEMBERS);
			rc = -EINVAL;
		}
		if (rc)
			return rl_err_set(err, node->args[i]->pos, "md: member %zu: %s", i, msg);
		if (!ref)
			ref = sb;
		if (memcmp(sb->set_uuid, ref->set_uuid, 16) || sb->level != ref->level ||
		    sb->layout != ref->layout || sb->chunk != ref->chunk ||
		    sb->raid_disks != ref->raid_disks)
			return rl_err_set(
			    err, node->args[i]->pos,
			    "md: member %zu belongs to another array (its UUID, level, "
			    "layout, chunk or member count differ from member 0's)",
			    i);
		if (sb->size != ref->size)
			return md_size_conflict(node, as, i, err);
		if (md_fresher(sb, as->fresh))
			as->fresh = sb;
		if (sb->events > as->max_events)
			as->max_events = sb->events;
	}
	if (bm_failed && !as->bm_chunk)
		return rl_err_set(err, node->args[bm_failed - 1]->pos, "md: member %zu: %s",
		                  bm_failed - 1, bm_msg);
	return 0;
}

/*
 * Whether member @i is behind the array as md sees it: more than one event
 * behind the freshest superblock, marked faulty by it, or interrupted in
 * recovery.  One event behind is in sync, as md and mdadm's assembly take
 * it: a state change goes to the members one after another, and a stop
 * between two of those writes leaves the later ones one event behind with
 * nothing written to the array since (a member that failed is recorded
 * faulty by the change itself).  Without that margin a kill inside the
 * write that starts a rebuild left both halves of a mirror "stale".
 */
static bool md_member_stale(const struct md_assembly *as, const struct md_super *sb)
{
	return as->fresh->events - sb->events > 1 ||
	       as->fresh->roles[sb->dev_number] == MD_ROLE_FAULTY ||
	       (sb->feature_map & MD_FEATURE_RECOVERY_OFFSET);
}

/* Does @a's superblock record @b's member out of the array (failed, spare)? */
static bool md_records_out(const struct md_super *a, const struct md_super *b)
{
	return b->dev_number < a->max_dev && a->roles[b->dev_number] >= a->raid_disks;
}

/* Does @a's superblock record role @r held by an active member? */
static bool md_records_role(const struct md_super *a, unsigned r)
{
	for (uint32_t d = 0; d < a->max_dev && d < MD_SB_MAX_DEVS; d++)
		if (a->roles[d] == r)
			return true;
	return false;
}

/*
 * Arguments @i and @j were written apart (split brain): each holds a role,
 * each records the other failed, and no third role was active in both
 * records - both were used without the other, so either may hold
 * acknowledged writes the other lacks.  A role active in both carried the
 * older record's writes into the newer history (a raid6 member that failed
 * after recording another failed, that other rebuilt later from the rest):
 * the older one is then only behind, as the freshest superblock says.
 */
static bool md_split(const struct md_assembly *as, size_t i, size_t j)
{
	const struct md_super *a = &as->sbs[i], *b = &as->sbs[j];
	unsigned ra = md_own_role(a), rb = md_own_role(b);

	if (ra >= a->raid_disks || rb >= b->raid_disks || !md_records_out(a, b) ||
	    !md_records_out(b, a))
		return false;
	for (unsigned r = 0; r < a->raid_disks; r++)
		if (r != ra && r != rb && md_records_role(a, r) && md_records_role(b, r))
			return false;
	return true;
}

/*
 * The split pair (@pi, @pj) with the lowest roles, skipping pairs where one
 * member is stale to the freshest superblock when @skip_stale (those the
 * survivor settled).  False when there is none.
 */
static bool md_split_find(struct rl_spec_node *node, const struct md_assembly *as, bool skip_stale,
                          size_t *pi, size_t *pj)
{
	uint32_t best = UINT32_MAX; /* the pair's roles, lower first */

	for (size_t i = 0; i < node->nargs; i++)
		for (size_t j = 0; j < node->nargs; j++) {
			const struct md_super *a = &as->sbs[i], *b = &as->sbs[j];
			uint32_t key = (uint32_t)md_own_role(a) << 16 | md_own_role(b);
			if (md_own_role(a) >= md_own_role(b) || key >= best ||
			    !md_split(as, i, j) ||
			    (skip_stale && (md_member_stale(as, a) || md_member_stale(as, b))))
				continue;
			best = key;
			*pi = i;
			*pj = j;
		}
	return best != UINT32_MAX;
}

/* Refuse the split pair (@i, @j), naming both and the way out. */
static int md_split_refuse(struct rl_spec_node *node, const struct md_assembly *as, size_t i,
                           size_t j, bool survivor, struct rl_err *err)
{
	char a[128], b[128];

	return rl_err_set(
	    err, node->pos,
	    "md: members %u (%s, events %llu) and %u (%s, events %llu) each record the other "
	    "failed: they were written apart (split brain) and either may hold writes the other "
	    "lacks; %s",
	    md_own_role(&as->sbs[i]), md_arg_name(node, i, a, sizeof(a)),
	    (unsigned long long)as->sbs[i].events, md_own_role(&as->sbs[j]),
	    md_arg_name(node, j, b, sizeof(b)), (unsigned long long)as->sbs[j].events,
	    survivor ? "survivor= settles only a split with the survivor's member"
	             : "name the one to keep with survivor=ROLE (the other is rebuilt from it "
	               "when the array is opened for writing)");
}

/*
 * Members written apart are refused unless the user names the survivor:
 * survivor=ROLE makes that member's superblock the freshest, so the
 * members it records failed are stale (rebuilt from it when opened for
 * writing).  Without a split it changes nothing.
 */
static int md_split_settle(struct rl_spec_node *node, struct md_assembly *as, struct rl_err *err)
{
	uint64_t survivor = UINT64_MAX;
	size_t pi = 0, pj = 0, k = node->nargs;
	int rc = rl_param_u64(node, md_params, "survivor", &survivor, err);

	if (rc || !md_split_find(node, as, false, &pi, &pj))
		return rc;
	if (survivor == UINT64_MAX)
		return md_split_refuse(node, as, pi, pj, false, err);
	for (size_t i = 0; i < node->nargs; i++)
		if (md_own_role(&as->sbs[i]) == survivor &&
		    (k == node->nargs || md_fresher(&as->sbs[i], &as->sbs[k])))
			k = i;
	if (k == node->nargs)
		return rl_err_set(err, node->pos,
		                  "md: survivor=%llu: no member given holds role %llu",
		                  (unsigned long long)survivor, (unsigned long long)survivor);
	as->fresh = &as->sbs[k];
	for (size_t i = 0; i < node->nargs; i++)
		if (md_split(as, k, i))
			as->overruled |= 1ull << md_own_role(&as->sbs[i]);
	if (md_split_find(node, as, true, &pi, &pj))
		return md_split_refuse(node, as, pi, pj, true, err);
	return 0;
}

/* Put each member at the role its superblock gives; note the stale ones. */
static int md_roles_assign(struct rl_spec_node *node, struct md_assembly *as, struct rl_err *err)
{
	unsigned n = as->fresh->raid_disks;

	for (unsigned r = 0; r < n; r++)
		as->slot_of[r] = -1;
	for (size_t i = 0; i < node->nargs; i++) {
		const struct md_super *sb = &as->sbs[i];
		uint16_t role = sb->roles[sb->dev_number];
		bool stale = md_member_stale(as, sb);
		int prev;
		if (role >= n)
			continue; /* spare or faulty */
		prev = as->slot_of[role];
		if (prev >= 0 && stale)
			continue; /* the role has a member already */
		if (prev >= 0 && !(as->stale >> role & 1))
			return rl_err_set(err, node->args[i]->pos,
			                  "md: members %d and %zu both claim role %u", prev, i,
			                  role);
		as->slot_of[role] = (int)i;
		as->stale = (as->stale & ~(1ull << role)) | (uint64_t)stale << role;
		if (!stale && sb->resync_offset != MD_RESYNC_DONE)
			as->unclean = true;
	}
	return 0;
}

/* The level spec md(...) resolves to: each role's slice, stand-ins, failed=. */
static int md_spec_build(struct rl_spec_node *node, const struct md_assembly *as, char **text,
                         struct rl_err *err)
{
	const struct md_super *ref = as->fresh;
	bool parity = ref->level == 5 || ref->level == 6, uniform = true;
	char *failed = NULL, msg[256], params[128], piece[160];
	size_t len = 0, cap = 0, flen = 0, fcap = 0;
	int rc;

	for (size_t i = 0; i < node->nargs; i++)
		if (as->sbs[i].data_offset != ref->data_offset)
			uniform = false; /* mdadm allows it; each member then gets its own slice */
	if ((rc = md_level_params(ref, params, sizeof(params), msg, sizeof(msg))))
		return rl_err_set(err, node->pos, "md: %s", msg);
	if (ref->level == MD_LEVEL_LINEAR)
		rc = md_append(text, &len, &cap, "concat(");
	else if (!(rc = md_append(text, &len, &cap, md_level_name(ref->level))))
		rc = md_append(text, &len, &cap, "(");
	for (unsigned r = 0; r < ref->raid_disks && !rc; r++) {
		int i = as->slot_of[r];
		char *member;
		if (i < 0 || (as->stale >> r & 1)) {
			snprintf(piece, sizeof(piece), "%s%u", flen ? "+" : "", r);
			rc = md_append(&failed, &flen, &fcap, piece);
		}
		if (rc)
			break;
		if (i < 0) {
			/* A missing member: an empty stand-in of the right size, failed. */
			snprintf(piece, sizeof(piece), "%smem(size=%llu)", r ? "," : "",
			         (unsigned long long)(ref->size +
			                              (parity && uniform ? ref->data_offset : 0)) *
			             512);
			rc = md_append(text, &len, &cap, piece);
			continue;
		}
		member = rl_spec_format(node->args[i]);
		if (!member) {
			rc = -ENOMEM;
			break;
		}
		rc = md_append(text, &len, &cap, r ? ",slice(" : "slice(");
		if (!rc)
			rc = md_append(text, &len, &cap, member);
		free(member);
		if (parity && uniform) /* the engine skips the metadata area itself */
			snprintf(piece, sizeof(piece), ",offset=0,size=%llu)",
			         (unsigned long long)(ref->data_offset + ref->size) * 512);
		else
			snprintf(piece, sizeof(piece), ",offset=%llu,size=%llu)",
			         (unsigned long long)as->sbs[i].data_offset * 512,
			         (unsigned long long)ref->size * 512);
		if (!rc)
			rc = md_append(text, &len, &cap, piece);
	}
	if (!rc && parity && uniform) {
		char extra[160];
		snprintf(extra, sizeof(extra), ",data-offset=%llu",
		         (unsigned long long)ref->data_offset * 512);
		if (as->bm_chunk)
			snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			         ",bitmap-chunk=%llu,bitmap-offset=%llu",
			         (unsigned long long)as->bm_chunk,
			         (unsigned long long)(MD_SB_OFFSET_BYTES +
			                              (uint64_t)ref->bitmap_offset * 512));
		rc = md_append(text, &len, &cap, extra);
	}
	if (!rc && params[0] && !(rc = md_append(text, &len, &cap, ",")))
		rc = md_append(text, &len, &cap, params);
	if (!rc && flen) {
		if (ref->level == 0 || ref->level == MD_LEVEL_LINEAR) {
			rc = rl_err_set(err, node->pos,
			                "md: %s is missing member(s) %s and has no redundancy",
			                md_level_name(ref->level), failed);
			free(failed);
			return rc;
		}
		if (!(rc = md_append(text, &len, &cap, ",failed=")))
			rc = md_append(text, &len, &cap, failed);
	}
	free(failed);
	for (const struct rl_param *p = md_params + 1; p->name && !rc; p++) { /* not survivor= */
		struct rl_spec_kv *kv = rl_spec_find(node, p->name);
		if (!kv)
			continue;
		snprintf(piece, sizeof(piece), ",%s=%s", p->name, kv->value);
		rc = md_append(text, &len, &cap, piece);
	}
	if (!rc)
		rc = md_append(text, &len, &cap, ")");
	if (!rc)
		rc = rl_params_check(node, md_params, err);
	return rc;
}

/* Opened for writing: the array's state goes to the superblocks (md_state.c). */
static int md_state_take(const struct md_assembly *as, const struct rl_build_ctx *ctx,
                         struct rl_target *t, char *msg, size_t msglen)
{
	struct md_super fresh = *as->fresh;
	struct md_state *st;
	int rc;

	fresh.events = as->max_events; /* a survivor then outranks the members it overruled */
	st = md_state_new(&fresh, fresh.raid_disks);

	if (!st || (as->bm_chunk && md_state_bitmap_init(st, as->bm_chunk))) {
		md_state_free(st);
		return -ENOMEM;
	}
	for (unsigned r = 0; r < as->fresh->raid_disks; r++)
		if (as->slot_of[r] >= 0)
			md_state_member(st, r, &as->sbs[as->slot_of[r]]);
	md_state_overruled(st, as->overruled);
	rc = md_state_start(st, t, as->unclean, as->stale, ctx->quiet, msg, msglen);
	if (rc)
		md_state_free(st);
	return rc;
}

static int md_target_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                            struct rl_target **out, struct rl_err *err)
{
	struct md_assembly as = {0};
	char *text = NULL, msg[512];
	int rc;

	if (!node->nargs)
		return rl_err_set(err, node->pos,
		                  "md needs the array's members, e.g. md(a.img, b.img)");
	as.sbs = calloc(node->nargs, sizeof(*as.sbs));
	if (!as.sbs)
		return -ENOMEM;
	if ((rc = md_members_read(node, ctx, &as, err)) || (rc = md_split_settle(node, &as, err)) ||
	    (rc = md_roles_assign(node, &as, err)) || (rc = md_spec_build(node, &as, &text, err)))
		goto out;
	{
		struct rl_err inner = {0};
		struct rl_build_ctx mctx = *ctx;
		mctx.md_members = true; /* the superblocks are the array's own */
		rc = rl_target_open(text, &mctx, out, &inner);
		if (rc) {
			rc = rl_err_set(err, node->pos, "md: opening %s: %s", text, inner.msg);
			goto out;
		}
	}
	if (ctx->write_intent) {
		rc = md_state_take(&as, ctx, *out, msg, sizeof(msg));
		if (rc) {
			rl_target_close(*out);
			*out = NULL;
			rc = rl_err_set(err, node->pos, "md: %s", msg);
		}
	} else if (as.unclean && !ctx->quiet) {
		fprintf(stderr, "md: the array was not stopped cleanly; opening it for writing "
		                "resyncs it\n");
	}
out:
	free(text);
	free(as.sbs);
	return rc;
}

static struct rl_target_type md_type = {
    .name = "md",
    .summary = "an array opened from its members' md v1.2 superblocks (raidlab create, mdadm)",
    .args = "MEMBER...",
    .params = md_params,
    .create = md_target_create,
};
RL_TARGET_REGISTER(md_type)
