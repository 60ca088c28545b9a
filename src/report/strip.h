/*
 * strip.h - drop what the reports never read from a result's JSON text, as
 * it streams in, so a result of thousands of jobs is not held as a tree.
 *
 * A job direction ("read", "write", "trim" objects) carries its latency
 * histogram and time series: about 95% of a job's text, and as a json-c
 * tree some 190 KB per job.  The reports read neither (docs/report.md), so
 * the loader passes the file through this filter before the JSON parser:
 * members named "histogram" or "series" of an object that is the value of
 * a "read", "write" or "trim" key are left out, with the comma that
 * separated them, and whitespace outside strings goes too.  Everything
 * else is copied as it is.
 *
 * The filter works a byte at a time, so the text may arrive in chunks cut
 * anywhere.  It assumes nothing about validity: on text that is not JSON
 * it still never writes more than it may, and the parser behind it reports
 * the error (the loader then parses the unfiltered text again, so the
 * message's line and column are the file's).
 */
#ifndef RL_REPORT_STRIP_H
#define RL_REPORT_STRIP_H

#include <stdbool.h>
#include <stddef.h>

#define REP_STRIP_DEPTH 64 /* deeper text is passed through unfiltered */
#define REP_STRIP_KEY   16 /* keys longer than this are never stripped */

struct rep_strip_frame {
	bool object;   /* an object (else an array) */
	bool dir;      /* the value of a "read", "write" or "trim" key */
	bool emitted;  /* a member (or element) already written */
	bool want_key; /* object: the next string is a key */
};

struct rep_strip {
	struct rep_strip_frame stack[REP_STRIP_DEPTH];
	unsigned depth;         /* frames in use; 0: top level */
	unsigned deep;          /* nesting beyond the stack (passed through) */
	bool in_string, escape; /* inside a string being copied */
	bool in_key;            /* inside a key being buffered */
	bool key_long;          /* the key outgrew the buffer: copied as it goes */
	char key[REP_STRIP_KEY + 1];
	unsigned keylen;
	char last_key[REP_STRIP_KEY + 1]; /* the key whose value comes next */
	bool skipping;                    /* inside a dropped member's value */
	unsigned skip_depth;              /* brackets open inside it */
	unsigned long long skip_kinds;    /* bit d: bracket d is '{' (else '[') */
	bool skip_string, skip_escape;    /* a string inside it */
	bool skip_colon, skip_started;    /* its colon, its value's first byte seen */
	bool skip_closed;                 /* its value (a container or string) ended */
	bool broken;                      /* not JSON: the parser must see the original text */
};

/** Start a new document. */
void rep_strip_init(struct rep_strip *s);

/**
 * Filter @len bytes of @in into @out, which must have room for
 * rep_strip_room(@len) bytes.  Returns the bytes written.
 */
size_t rep_strip_feed(struct rep_strip *s, const char *in, size_t len, char *out);

/** Room rep_strip_feed needs for @len input bytes (a buffered key may come out with them). */
static inline size_t rep_strip_room(size_t len)
{
	return len + REP_STRIP_KEY + 4;
}

#endif
