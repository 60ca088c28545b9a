/*
 * trace.c - reading, writing and summarising block-I/O traces (trace.h).
 *
 * Design: one pass over the text, a line at a time, each copied into a
 * fixed buffer (a longer line is an error) and split into at most
 * TRACE_TOKENS whitespace-separated fields.  The first line picks the
 * parser: fio's version line, else a block-trace layout recognised from
 * the first line that carries a device "MAJ,MIN" field.  Numbers are
 * parsed strictly (digits only, overflow checked), so a message can name
 * the field that is wrong.  Requests are kept in issue order as read.
 */
#include "workload/trace.h"

#include "core/spec.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define TRACE_LINE_MAX 1024
#define TRACE_TOKENS   16

void wl_trace_init(struct wl_trace *tr)
{
	memset(tr, 0, sizeof(*tr));
}

void wl_trace_free(struct wl_trace *tr)
{
	for (unsigned i = 0; i < tr->nfiles; i++)
		free(tr->files[i]);
	free(tr->files);
	free(tr->io);
	wl_trace_init(tr);
}

int wl_trace_file(struct wl_trace *tr, const char *name)
{
	for (unsigned i = 0; i < tr->nfiles; i++)
		if (!strcmp(tr->files[i], name))
			return (int)i;
	if (tr->nfiles >= WL_TRACE_FILES_MAX)
		return -E2BIG;
	char **nf = realloc(tr->files, (tr->nfiles + 1) * sizeof(*nf));
	if (!nf)
		return -ENOMEM;
	tr->files = nf;
	if (!(nf[tr->nfiles] = strdup(name)))
		return -ENOMEM;
	return (int)tr->nfiles++;
}

uint64_t wl_trace_file_end(const struct wl_trace *tr, unsigned file)
{
	uint64_t end = 0;
	for (size_t i = 0; i < tr->n; i++)
		if (tr->io[i].file == file && tr->io[i].op != RL_OP_FLUSH &&
		    tr->io[i].off + tr->io[i].len > end)
			end = tr->io[i].off + tr->io[i].len;
	return end;
}

int wl_trace_add(struct wl_trace *tr, uint64_t t_ns, enum rl_op op, uint64_t off, uint32_t len)
{
	if (tr->n == tr->cap) {
		if (tr->cap >= WL_TRACE_MAX_IOS)
			return -E2BIG;
		size_t cap = tr->cap ? tr->cap * 2 : 256;
		struct wl_trace_io *io = realloc(tr->io, cap * sizeof(*io));
		if (!io)
			return -ENOMEM;
		tr->io = io;
		tr->cap = cap;
	}
	tr->io[tr->n++] = (struct wl_trace_io){.t_ns = t_ns, .off = off, .len = len, .op = op};
	if (op != RL_OP_FLUSH && off + len > tr->end)
		tr->end = off + len;
	return 0;
}

/* --- fields --- */

static bool trace_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return true;
}

/* "SECONDS.FRACTION" (up to 9 fraction digits, an optional trailing ':') in ns. */
static bool trace_seconds(const char *s, uint64_t *ns)
{
	char whole[24];
	const char *dot = strchr(s, '.');
	size_t wl = dot ? (size_t)(dot - s) : strlen(s);
	uint64_t sec, frac = 0;
	unsigned digits = 0;

	if (!wl || wl >= sizeof(whole))
		return false;
	memcpy(whole, s, wl);
	whole[wl] = '\0';
	if (!trace_u64(whole, &sec) || sec > UINT64_MAX / 1000000000ull - 1)
		return false;
	if (dot) {
		const char *p = dot + 1;
		for (; *p >= '0' && *p <= '9'; p++, digits++)
			if (digits < 9)
				frac = frac * 10 + (uint64_t)(*p - '0');
		if (!digits || (*p && !(p[0] == ':' && !p[1])))
			return false;
		for (unsigned d = digits; d < 9; d++)
			frac *= 10;
	} else if (s[wl]) {
		return false;
	}
	*ns = sec * 1000000000ull + frac;
	return true;
}

/* Split @line in place; returns the field count or -1 when there are too many. */
static int trace_split(char *line, char *tok[TRACE_TOKENS])
{
	int n = 0;
	for (char *p = strtok(line, " \t\r"); p; p = strtok(NULL, " \t\r")) {
		if (n == TRACE_TOKENS)
			return -1;
		tok[n++] = p;
	}
	return n;
}

/* "MAJ,MIN": the device field of a block-trace line. */
static bool trace_is_dev(const char *s)
{
	const char *c = strchr(s, ',');
	uint64_t v;
	char a[12];
	if (!c || (size_t)(c - s) >= sizeof(a))
		return false;
	memcpy(a, s, (size_t)(c - s));
	a[c - s] = '\0';
	return trace_u64(a, &v) && trace_u64(c + 1, &v);
}

/* --- block-trace lines (blkparse, tracefs) --- */

/*
 * From the action on: ACTION RWBS [SECTOR + BLOCKS] [COMMAND].  Only Q
 * events are requests; RWBS says the direction (D discard, W write, R
 * read; F alone is a flush).  C (complete) and M, F (merged) events are
 * reported for the in-flight depth.  Field numbers in messages count from 1.
 */
static int trace_blk_request(char **tok, int n, int first, const char *where,
                             struct wl_trace_io *io, char *msg, size_t msglen)
{
	const char *rwbs;
	uint64_t sector = 0, blocks = 0;

	if (n - first < 2)
		return strcmp(tok[first], "Q") == 0
		           ? rl_msg_set(msg, msglen, "%s: field %d (rwbs): missing", where,
		                        first + 2)
		           : 0;
	if (strcmp(tok[first], "C") == 0)
		return WL_TRACE_EV_COMPLETE;
	if (strcmp(tok[first], "M") == 0 || strcmp(tok[first], "F") == 0)
		return WL_TRACE_EV_MERGE;
	if (strcmp(tok[first], "Q") != 0)
		return 0;
	rwbs = tok[first + 1];
	if (strspn(rwbs, "RWDFSMAN") != strlen(rwbs) || !rwbs[0])
		return rl_msg_set(msg, msglen,
		                  "%s: field %d (rwbs): expected letters of RWDFSMAN, got '%s'",
		                  where, first + 2, rwbs);
	bool has_range = n - first >= 5 && strcmp(tok[first + 3], "+") == 0;
	if (has_range) {
		if (!trace_u64(tok[first + 2], &sector) || sector > (UINT64_MAX >> 10))
			return rl_msg_set(
			    msg, msglen,
			    "%s: field %d (sector): expected a sector number, got '%s'", where,
			    first + 3, tok[first + 2]);
		if (!trace_u64(tok[first + 4], &blocks) || blocks > WL_TRACE_LEN_MAX / 512)
			return rl_msg_set(msg, msglen,
			                  "%s: field %d (sectors): expected a count of 512-byte "
			                  "sectors up to %u, "
			                  "got '%s'",
			                  where, first + 5, WL_TRACE_LEN_MAX / 512, tok[first + 4]);
	} else if (n - first > 2 && tok[first + 2][0] != '[') {
		return rl_msg_set(msg, msglen,
		                  "%s: field %d (sector): expected 'SECTOR + COUNT', got '%s'",
		                  where, first + 3, tok[first + 2]);
	}
	io->off = sector * 512;
	io->len = (uint32_t)(blocks * 512);
	if (strchr(rwbs, 'D'))
		io->op = RL_OP_TRIM;
	else if (strchr(rwbs, 'W'))
		io->op = RL_OP_WRITE;
	else if (strchr(rwbs, 'R'))
		io->op = RL_OP_READ;
	else if (strchr(rwbs, 'F'))
		io->op = RL_OP_FLUSH;
	else
		return 0; /* N: no data (a passthrough request) */
	if (io->op != RL_OP_FLUSH && !io->len) {
		if (!strchr(rwbs, 'F'))
			return 0;     /* no data and no flush: nothing to replay */
		io->op = RL_OP_FLUSH; /* a preflush alone (FWS 123 + 0) */
	}
	if (io->op == RL_OP_FLUSH) {
		io->off = 0; /* a flush has no range, whatever sector the line gives */
		io->len = 0;
	}
	return WL_TRACE_EV_QUEUE;
}

int wl_trace_blk_line(const char *line, enum wl_trace_blk kind, const char *where,
                      struct wl_trace_io *io, char *msg, size_t msglen)
{
	char buf[TRACE_LINE_MAX + 1], *tok[TRACE_TOKENS];
	size_t len = strlen(line);
	int n, dev = -1;

	if (len > TRACE_LINE_MAX)
		return rl_msg_set(msg, msglen, "%s: line longer than %d bytes", where,
		                  TRACE_LINE_MAX);
	memcpy(buf, line, len + 1);
	n = trace_split(buf, tok);
	if (n <= 0 || tok[0][0] == '#')
		return 0;
	if (kind == WL_TRACE_BLKPARSE) {
		/* DEV CPU SEQ TIME PID ACTION RWBS ... */
		if (!trace_is_dev(tok[0]))
			return rl_msg_set(msg, msglen,
			                  "%s: field 1 (device): expected MAJOR,MINOR, got '%s'",
			                  where, tok[0]);
		if (n < 6)
			return rl_msg_set(
			    msg, msglen,
			    "%s: expected DEVICE CPU SEQUENCE TIME PID ACTION ..., got %d fields",
			    where, n);
		if (!trace_seconds(tok[3], &io->t_ns))
			return rl_msg_set(
			    msg, msglen,
			    "%s: field 4 (time): expected SECONDS.NANOSECONDS, got '%s'", where,
			    tok[3]);
		return trace_blk_request(tok, n, 5, where, io, msg, msglen);
	}
	/* TASK-PID [CPU] FLAGS TIME: DEV ACTION RWBS ...: the time is the field before the device
	 */
	for (int i = 1; i < n; i++)
		if (trace_is_dev(tok[i])) {
			dev = i;
			break;
		}
	if (dev < 1)
		return 0; /* another tracer's line, or a message such as "cgroup ..." */
	if (!trace_seconds(tok[dev - 1], &io->t_ns))
		return rl_msg_set(msg, msglen,
		                  "%s: field %d (time): expected SECONDS.MICROSECONDS:, got '%s'",
		                  where, dev, tok[dev - 1]);
	if (dev + 1 >= n)
		return rl_msg_set(msg, msglen, "%s: field %d (action): missing", where, dev + 2);
	return trace_blk_request(tok, n, dev + 1, where, io, msg, msglen);
}

/* --- fio iologs --- */

struct trace_parse {
	const char *name;
	unsigned line;
	int version; /* 2 or 3: an iolog; 0: block-trace text */
	enum wl_trace_blk blk;
	bool blk_known; /* the block-trace layout is settled */
	bool blk_ended; /* blkparse's closing summary began: nothing more to read */
	uint64_t t0;    /* block traces: the first request's time */
	bool t0_set;
	uint64_t wait_ns; /* iolog v2: the time its wait lines add up to */
	char *msg;
	size_t msglen;
};

static int trace_iolog_num(struct trace_parse *p, const char *tok, int field, const char *what,
                           uint64_t *out)
{
	if (!trace_u64(tok, out))
		return rl_msg_set(p->msg, p->msglen,
		                  "%s:%u: field %d (%s): expected a whole number, got '%s'",
		                  p->name, p->line, field, what, tok);
	return 0;
}

static int trace_iolog_line(struct trace_parse *p, struct wl_trace *tr, char **tok, int n)
{
	static const struct {
		const char *word;
		int op; /* -1 file management, -2 wait */
	} acts[] = {{"read", RL_OP_READ},
	            {"write", RL_OP_WRITE},
	            {"trim", RL_OP_TRIM},
	            {"sync", RL_OP_FLUSH},
	            {"datasync", RL_OP_FLUSH},
	            {"add", -1},
	            {"open", -1},
	            {"close", -1},
	            {"wait", -2}};
	int f = p->version == 3 ? 1 : 0; /* v3: the timestamp comes first */
	uint64_t t = p->wait_ns, off = 0, len = 0;
	int op = -3;

	if (n != f + 2 && n != f + 4)
		return rl_msg_set(p->msg, p->msglen,
		                  "%s:%u: expected %sFILE ACTION [OFFSET LENGTH], got %d fields",
		                  p->name, p->line, f ? "TIMESTAMP " : "", n);
	if (f) {
		int rc = trace_iolog_num(p, tok[0], 1, "timestamp, microseconds", &t);
		if (rc)
			return rc;
		if (t > UINT64_MAX / 1000)
			return rl_msg_set(p->msg, p->msglen,
			                  "%s:%u: field 1 (timestamp): too large", p->name,
			                  p->line);
		t *= 1000;
	}
	for (size_t i = 0; i < sizeof(acts) / sizeof(acts[0]); i++)
		if (strcmp(tok[f + 1], acts[i].word) == 0)
			op = acts[i].op;
	if (op == -3 || (op == -2 && f))
		return rl_msg_set(
		    p->msg, p->msglen,
		    "%s:%u: field %d (action): expected read, write, trim, sync, datasync, "
		    "add, open or close%s, got '%s'",
		    p->name, p->line, f + 2, f ? "" : " or wait", tok[f + 1]);
	if (n == f + 4) {
		int rc = trace_iolog_num(p, tok[f + 2], f + 3, "offset", &off);
		if (!rc)
			rc = trace_iolog_num(p, tok[f + 3], f + 4, "length", &len);
		if (rc)
			return rc;
	} else if (op >= 0 && op != RL_OP_FLUSH) {
		return rl_msg_set(p->msg, p->msglen, "%s:%u: field %d (offset): missing for %s",
		                  p->name, p->line, f + 3, tok[f + 1]);
	}
	int file = op == -2 ? 0 : wl_trace_file(tr, tok[f]);
	if (file == -E2BIG)
		return rl_msg_set(p->msg, p->msglen, "%s:%u: field %d (file): more than %u files",
		                  p->name, p->line, f + 1, WL_TRACE_FILES_MAX);
	if (file < 0)
		return file;
	if (op == -1)
		return 0;
	if (op == -2) {
		if (off > (UINT64_MAX - p->wait_ns) / 1000)
			return rl_msg_set(p->msg, p->msglen, "%s:%u: field 3 (wait): too long",
			                  p->name, p->line);
		p->wait_ns += off * 1000;
		return 0;
	}
	if (op == RL_OP_FLUSH)
		off = len = 0;
	else if (!len || len > WL_TRACE_LEN_MAX || off > UINT64_MAX - len)
		return rl_msg_set(
		    p->msg, p->msglen,
		    "%s:%u: field %d (length): expected 1 to %u bytes within 2^64, got '%s'",
		    p->name, p->line, f + 4, WL_TRACE_LEN_MAX, tok[f + 3]);
	int rc = wl_trace_add(tr, t, (enum rl_op)op, off, (uint32_t)len);
	if (!rc)
		tr->io[tr->n - 1].file = (uint16_t)file;
	return rc;
}

/* --- block-trace text --- */

static bool trace_blkparse_summary(const char *line)
{
	static const char *const starts[] = {"CPU", "Total", "Throughput", "Events", "Skips"};
	while (*line == ' ' || *line == '\t')
		line++;
	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
		if (strncmp(line, starts[i], strlen(starts[i])) == 0)
			return true;
	return false;
}

static int trace_blk_text(struct trace_parse *p, struct wl_trace *tr, const char *line)
{
	char where[300];
	struct wl_trace_io io = {0};

	if (p->blk_ended)
		return 0;
	if (!p->blk_known) {
		char buf[TRACE_LINE_MAX + 1], *tok[TRACE_TOKENS];
		int n;
		snprintf(buf, sizeof(buf), "%s", line);
		n = trace_split(buf, tok);
		if (n <= 0 || tok[0][0] == '#')
			return 0;
		p->blk = trace_is_dev(tok[0]) ? WL_TRACE_BLKPARSE : WL_TRACE_TRACEFS;
		p->blk_known = true;
	}
	if (p->blk == WL_TRACE_BLKPARSE && trace_blkparse_summary(line)) {
		p->blk_ended = true;
		return 0;
	}
	snprintf(where, sizeof(where), "%s:%u", p->name, p->line);
	int rc = wl_trace_blk_line(line, p->blk, where, &io, p->msg, p->msglen);
	if (rc <= 0)
		return rc;
	wl_trace_depth_event(tr, (enum wl_trace_event)rc);
	if (rc != WL_TRACE_EV_QUEUE)
		return 0;
	if (!p->t0_set) {
		p->t0 = io.t_ns;
		p->t0_set = true;
	}
	/* events of several CPUs can arrive slightly out of order: never before the start */
	return wl_trace_add(tr, io.t_ns > p->t0 ? io.t_ns - p->t0 : 0, (enum rl_op)io.op, io.off,
	                    io.len);
}

/* --- whole texts --- */

static int trace_first_line(struct trace_parse *p, const char *line)
{
	if (strcmp(line, "fio version 2 iolog") == 0)
		p->version = 2;
	else if (strcmp(line, "fio version 3 iolog") == 0)
		p->version = 3;
	else if (strncmp(line, "fio version ", 12) == 0)
		return rl_msg_set(p->msg, p->msglen,
		                  "%s:1: only fio iolog versions 2 and 3 are read, got '%.40s'",
		                  p->name, line);
	return 0;
}

static int trace_parse_line(struct trace_parse *p, struct wl_trace *tr, const char *line)
{
	if (p->line == 1) {
		int rc = trace_first_line(p, line);
		if (rc || p->version)
			return rc;
	}
	if (!p->version)
		return trace_blk_text(p, tr, line);
	if (!strcmp(line, p->version == 2 ? "fio version 2 iolog" : "fio version 3 iolog"))
		return 0;     /* the next log appended to the file (write_iolog appends, as fio) */
	if (line[0] == '#') { /* a comment; raidlab's own says the recorded depth */
		unsigned long long d;
		char end;
		if (sscanf(line, "# in-flight depth %llu%c", &d, &end) == 1 && d >= 1 &&
		    d <= WL_TRACE_DEPTH_MAX)
			tr->depth = (unsigned)d;
		return 0;
	}
	char buf[TRACE_LINE_MAX + 1], *tok[TRACE_TOKENS];
	snprintf(buf, sizeof(buf), "%s", line);
	int n = trace_split(buf, tok);
	if (n == 0)
		return 0;
	if (n < 0)
		return rl_msg_set(p->msg, p->msglen, "%s:%u: more than %d fields", p->name, p->line,
		                  TRACE_TOKENS);
	return trace_iolog_line(p, tr, tok, n);
}

int wl_trace_parse(const char *text, size_t len, const char *name, struct wl_trace *tr, char *msg,
                   size_t msglen)
{
	struct trace_parse p = {.name = name, .msg = msg, .msglen = msglen};
	char line[TRACE_LINE_MAX + 1];
	size_t at = 0;
	int rc = 0;

	wl_trace_init(tr);
	if (msg && msglen)
		msg[0] = '\0';
	while (at < len && !rc) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t l = nl ? (size_t)(nl - (text + at)) : len - at;
		p.line++;
		if (l > TRACE_LINE_MAX) {
			rc = rl_msg_set(msg, msglen, "%s:%u: line longer than %d bytes", name,
			                p.line, TRACE_LINE_MAX);
			break;
		}
		memcpy(line, text + at, l);
		line[l] = '\0';
		if (memchr(line, '\0', l))
			rc = rl_msg_set(msg, msglen, "%s:%u: a NUL byte: not a text trace", name,
			                p.line);
		else
			rc = trace_parse_line(&p, tr, line);
		at += l + (nl ? 1 : 0);
	}
	if (!rc && !tr->n)
		rc = rl_msg_set(msg, msglen,
		                "%s: no requests (expected a fio iolog v2/v3, blkparse text or the "
		                "kernel's blk tracer output)",
		                name);
	if (rc == -ENOMEM || rc == -E2BIG)
		rl_msg_set(msg, msglen, "%s:%u: %s", name, p.line,
		           rc == -E2BIG ? "more requests than a trace holds" : "out of memory");
	if (rc)
		wl_trace_free(tr);
	snprintf(tr->format, sizeof(tr->format), "%s",
	         p.version == 2               ? "iolog v2"
	         : p.version == 3             ? "iolog v3"
	         : p.blk == WL_TRACE_BLKPARSE ? "blkparse"
	                                      : "blk tracer");
	return rc;
}

int wl_trace_load(const char *path, struct wl_trace *tr, char *msg, size_t msglen)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int rc = 0;

	wl_trace_init(tr);
	if (!f) {
		rc = -errno;
		rl_msg_set(msg, msglen, "%s: %s", path, strerror(errno));
		return rc;
	}
	for (;;) {
		if (cap - len < 65536) {
			char *nb = realloc(buf, cap + (1u << 20));
			if (!nb) {
				rc = -ENOMEM;
				break;
			}
			buf = nb;
			cap += 1u << 20;
		}
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0) {
			if (ferror(f))
				rc = -EIO;
			break;
		}
	}
	fclose(f);
	if (rc)
		rl_msg_set(msg, msglen, "%s: %s", path, strerror(-rc));
	else
		rc = wl_trace_parse(buf, len, path, tr, msg, msglen);
	free(buf);
	return rc;
}

void wl_trace_depth_event(struct wl_trace *tr, enum wl_trace_event ev)
{
	if (ev == WL_TRACE_EV_QUEUE) {
		if (++tr->inflight > tr->inflight_max)
			tr->inflight_max = tr->inflight;
	} else {
		tr->completions |= ev == WL_TRACE_EV_COMPLETE;
		if (tr->inflight) /* one queued before the trace began takes nothing */
			tr->inflight--;
	}
	if (tr->completions)
		tr->depth =
		    tr->inflight_max < WL_TRACE_DEPTH_MAX ? tr->inflight_max : WL_TRACE_DEPTH_MAX;
}

unsigned wl_trace_replay_depth(const struct wl_trace *tr)
{
	return tr->depth ? tr->depth : WL_TRACE_DEPTH_UNKNOWN;
}

/* The name of file @i of @tr as written: @file for all, else its own. */
static const char *trace_name(const struct wl_trace *tr, const char *file, unsigned i)
{
	return file ? file : i < tr->nfiles ? tr->files[i] : "trace";
}

int wl_trace_write(const struct wl_trace *tr, const char *file, FILE *f)
{
	static const char *const words[RL_OP_COUNT] = {"read", "write", "trim", "sync"};
	unsigned nf = file || !tr->nfiles ? 1 : tr->nfiles;
	bool opened[WL_TRACE_FILES_MAX] = {false};
	unsigned long long t = 0;

	fprintf(f, "fio version 3 iolog\n");
	if (file && tr->depth)
		fprintf(f, "# in-flight depth %u\n", tr->depth);
	for (unsigned i = 0; i < nf; i++)
		fprintf(f, "%llu %s add\n", t, trace_name(tr, file, i));
	for (size_t i = 0; i < tr->n; i++) {
		const struct wl_trace_io *io = &tr->io[i];
		unsigned k = nf == 1 || io->file >= nf ? 0 : io->file;
		const char *name = trace_name(tr, file, k);
		t = io->t_ns / 1000;
		if (!opened[k]) {
			opened[k] = true;
			fprintf(f, "%llu %s open\n", t, name);
		}
		fprintf(f, "%llu %s %s %llu %u\n", t, name, words[io->op],
		        (unsigned long long)io->off, io->len);
	}
	for (unsigned i = 0; i < nf; i++)
		if (opened[i])
			fprintf(f, "%llu %s close\n", t, trace_name(tr, file, i));
	return fflush(f) ? -errno : 0;
}

/* --- summary --- */

struct trace_range {
	uint64_t a, b;
};

static int trace_range_cmp(const void *x, const void *y)
{
	const struct trace_range *p = x, *q = y;
	return p->a < q->a ? -1 : p->a > q->a;
}

static uint64_t trace_footprint(const struct wl_trace *tr)
{
	struct trace_range *r = malloc((tr->n ? tr->n : 1) * sizeof(*r));
	size_t k = 0;
	uint64_t total = 0, hi = 0;

	if (!r)
		return 0;
	for (size_t i = 0; i < tr->n; i++)
		if (tr->io[i].op != RL_OP_FLUSH)
			r[k++] = (struct trace_range){tr->io[i].off, tr->io[i].off + tr->io[i].len};
	qsort(r, k, sizeof(*r), trace_range_cmp);
	for (size_t i = 0; i < k; i++) {
		uint64_t a = r[i].a > hi ? r[i].a : hi;
		if (r[i].b > a)
			total += r[i].b - a;
		if (r[i].b > hi)
			hi = r[i].b;
	}
	free(r);
	return total;
}

void wl_trace_summarize(const struct wl_trace *tr, struct wl_trace_summary *s)
{
	static const uint64_t bounds[7] = {4096, 8192, 16384, 65536, 131072, 524288, 1048576};
	uint64_t next[RL_OP_COUNT] = {UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX};
	uint64_t window = UINT64_MAX, windows = 0;
	unsigned in_window = 0;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < tr->n; i++) {
		const struct wl_trace_io *io = &tr->io[i];
		s->n[io->op]++;
		s->bytes[io->op] += io->len;
		if (io->t_ns > s->duration_ns)
			s->duration_ns = io->t_ns;
		if (io->op != RL_OP_FLUSH) {
			unsigned b = 0;
			while (b < 7 && io->len > bounds[b])
				b++;
			s->size_count[b]++;
			if (io->off == next[io->op])
				s->sequential++;
			next[io->op] = io->off + io->len;
		}
		if (io->t_ns / 1000000 != window) {
			window = io->t_ns / 1000000;
			windows++;
			in_window = 0;
		}
		if (++in_window > s->depth_max)
			s->depth_max = in_window;
	}
	s->depth_mean = windows ? (double)tr->n / (double)windows : 0;
	s->footprint = trace_footprint(tr);
}

void wl_trace_map(const struct wl_trace_io *io, uint64_t start, uint64_t region, uint32_t block,
                  uint64_t *off, uint32_t *len)
{
	uint64_t l = io->len, o = io->off;

	l = (l + block - 1) / block * block;
	if (l > region)
		l = region / block * block;
	if (o >= region)
		o %= region;
	o = o / block * block;
	if (o + l > region)
		o = (region - l) / block * block;
	*off = start + o;
	*len = (uint32_t)l;
}
