/*
 * spec.h - target specs: one readable expression names a whole stack.
 *
 * Grammar (whitespace - space, tab, newline, CR, VT, FF - is allowed around
 * every token):
 *
 *   spec    := expr
 *   expr    := word '(' args? ')'        a call: raid0(...), ssd(sx8200pro), null()
 *            | word                      a plain word: /dev/sda, disk.img, sx8200pro
 *            | quoted                    a plain word with odd characters: "/mnt/my disk.img"
 *   args    := arg (',' arg)*
 *   arg     := key '=' value             a named parameter: chunk=128k
 *            | expr ('x' count)?         a positional argument, repeated count times
 *   key     := word
 *   word    := one or more bytes other than ( ) , = " whitespace and control
 *              characters (bytes >= 0x80 are fine, so UTF-8 paths work)
 *   value   := word | quoted
 *   quoted  := '"' ... '"' with the escapes \" and \\ (no others); no
 *              control characters other than whitespace inside
 *   count   := decimal integer 1..1024, written as x3 after whitespace
 *
 * Positional and key=value arguments may be interleaved; a key may appear
 * once per call.  Calls nest at most 64 deep, and a spec may expand to at
 * most 65536 nodes plus parameters (repetitions included).
 *
 * The parser builds a tree of struct rl_spec_node; repetition is expanded
 * there (raid0(ssd(a) x3) yields three identical, independently allocated
 * children that all carry the source position of the one written).  A plain
 * word - quoted or not - is a node with is_call false, no args and no kv,
 * whose name is the word with quotes and escapes removed; a call is a node
 * with is_call true (possibly with no arguments at all: null()).
 *
 * Every error names the byte position (0-based) in the source text and what
 * was expected and found, e.g. "position 7: expected ')' or ',' but found
 * end of spec".  rl_err_set() puts the "position N: " prefix into msg
 * itself (unless pos is SIZE_MAX), so msg can be printed as it is.
 *
 * Numbers with units (sizes, rates, times, percentages) are parsed by the
 * rl_parse_* functions below; target factories read their parameters
 * through their type's parameter table (params.h), which uses the
 * rl_spec_get_* helpers: they report the parameter's position on error and
 * mark it used, so rl_spec_check_unused() can reject unknown keys.
 */
#ifndef RL_CORE_SPEC_H
#define RL_CORE_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** An error: position in the source and a message. */
struct rl_err {
	size_t pos;    /* byte offset into the spec text, or SIZE_MAX if none applies */
	char msg[512]; /* human-readable, complete sentence without trailing newline */
};

/**
 * Set an error; printf-style.  msg becomes "position <pos>: <text>", or just
 * <text> when @pos is SIZE_MAX; it is truncated to fit.  @err may be NULL.
 * Returns -EINVAL for convenience.
 */
int rl_err_set(struct rl_err *err, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/**
 * The same for a plain message buffer: @msg (of @msglen bytes; may be NULL
 * or empty) gets the text, truncated to fit.  Returns -EINVAL.
 */
int rl_msg_set(char *msg, size_t msglen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/** A key=value parameter of a call. */
struct rl_spec_kv {
	char *key;
	char *value;      /* never NULL; quotes removed */
	size_t key_pos;   /* position of the key */
	size_t value_pos; /* position of the value */
	bool used;        /* set by rl_spec_get_*; checked by rl_spec_check_unused */
};

/** A node: a call with arguments, or a plain word. */
struct rl_spec_node {
	char *name;                 /* call name, or the word itself for a plain word */
	bool is_call;               /* name(...) form */
	size_t pos;                 /* position of the name */
	struct rl_spec_node **args; /* positional arguments, repetitions expanded */
	size_t nargs;
	struct rl_spec_kv *kv; /* named parameters in source order */
	size_t nkv;
};

/**
 * Parse @text into a tree.  Returns 0 and sets *out, or a negative errno
 * with @err filled in (position and message).
 */
int rl_spec_parse(const char *text, struct rl_spec_node **out, struct rl_err *err);

/** Free a tree; NULL is accepted. */
void rl_spec_free(struct rl_spec_node *node);

/**
 * Write the tree back as canonical text (for results); returns a malloc'd
 * string, or NULL for a NULL node or when out of memory.  Canonical form:
 * positional arguments first, then key=value pairs in source order, ", "
 * between arguments, no other whitespace, runs of equal positional
 * arguments folded into "arg xN" (N <= 1024), and words or values quoted
 * only when they would not re-parse as themselves.  Parsing the result gives
 * an equal tree.
 */
char *rl_spec_format(const struct rl_spec_node *node);

/* --- parameters of a call --- */

/**
 * Find a key (and mark it used); NULL if absent (or @node is NULL).  A key
 * given twice is an error at parse time.
 *
 * The rl_spec_get_* helpers below all behave alike: an absent key sets *out
 * to @def and returns 0; a present one is marked used, parsed and
 * range-checked; on error *out is left alone and -EINVAL is returned with
 * @err pointing at the value, e.g. "position 16: chunk: expected a size like
 * 64k or 1MB, got '12q' (unknown unit 'q')".
 */
struct rl_spec_kv *rl_spec_find(struct rl_spec_node *node, const char *key);

/** Size in bytes (rl_parse_size); @def when absent.  0 or -EINVAL with @err set. */
int rl_spec_get_size(struct rl_spec_node *node, const char *key, uint64_t def, uint64_t *out,
                     struct rl_err *err);
/** Unsigned integer within [min, max]; @def when absent. */
int rl_spec_get_u64(struct rl_spec_node *node, const char *key, uint64_t def, uint64_t min,
                    uint64_t max, uint64_t *out, struct rl_err *err);
/** Floating value within [min, max]; @def when absent. */
int rl_spec_get_double(struct rl_spec_node *node, const char *key, double def, double min,
                       double max, double *out, struct rl_err *err);
/** Percentage "20%" or "20" -> 20.0, within [min, max]; @def when absent. */
int rl_spec_get_percent(struct rl_spec_node *node, const char *key, double def, double min,
                        double max, double *out, struct rl_err *err);
/** Duration (rl_parse_time) in ns; @def when absent. */
int rl_spec_get_time(struct rl_spec_node *node, const char *key, uint64_t def, uint64_t *out,
                     struct rl_err *err);
/** Bandwidth (rl_parse_rate) in bytes per second; @def when absent. */
int rl_spec_get_rate(struct rl_spec_node *node, const char *key, uint64_t def, uint64_t *out,
                     struct rl_err *err);
/** Boolean: on/off, yes/no, true/false, 1/0; @def when absent. */
int rl_spec_get_bool(struct rl_spec_node *node, const char *key, bool def, bool *out,
                     struct rl_err *err);
/**
 * One of @choices (NULL-terminated); sets *out to the index, @def when
 * absent.  The error lists the choices.
 */
int rl_spec_get_enum(struct rl_spec_node *node, const char *key, const char *const *choices,
                     int def, int *out, struct rl_err *err);
/** String (borrowed from the tree); @def when absent. */
int rl_spec_get_str(struct rl_spec_node *node, const char *key, const char *def, const char **out,
                    struct rl_err *err);

/**
 * Reject the first key that no rl_spec_get_* call consumed:
 * "position 12: raid0 has no parameter 'chunkk' (known: chunk, layout)".
 * @known lists the type's keys for the message (NULL-terminated).
 */
int rl_spec_check_unused(const struct rl_spec_node *node, const char *const *known,
                         struct rl_err *err);

/* --- numbers with units (used by specs and job options alike) --- */

/*
 * Common rules: surrounding whitespace is ignored, anything else that is not
 * part of the number or its unit is an error.  On success *out is set and 0
 * returned; on error *out is untouched, -EINVAL is returned and a message
 * such as "unknown unit 'q' in size '12q'" is written to @msg (always
 * NUL-terminated and truncated to @msglen; @msg may be NULL when @msglen is
 * 0).  Numbers are decimal ("12", "1.5"); values are computed exactly in
 * integer arithmetic (digits past the 19th after the point are ignored) and
 * rounded to the nearest unit, so "3.9GB" is exactly 3900000000.
 */

/**
 * Size: plain bytes ("512", "512b", "512B"), or a suffix k/m/g/t/p,
 * K/M/G/T/P, Ki..Pi, KiB..PiB (binary, powers of 1024) or exactly kB, MB, GB,
 * TB, PB (decimal, powers of 1000); an optional trailing "b"/"B" after any
 * other binary letter is allowed ("4kb" = "4KB" = 4096, but "4kB" = 4000).
 * Fractions are allowed with a suffix ("1.5g"), not on plain bytes.  A
 * hexadecimal integer "0x1000" is accepted too (hex digits swallow b/B).
 * Overflow past 2^64-1 is an error.
 */
int rl_parse_size(const char *s, uint64_t *out, char *msg, size_t msglen);
/**
 * Duration: plain number = seconds; suffixes ns, us (or µs), ms, s,
 * m (minutes), h.  Out in ns; fractions allowed except on ns.
 */
int rl_parse_time(const char *s, uint64_t *out, char *msg, size_t msglen);
/**
 * Rate: a size per second, with optional "/s" ("3.9GB/s" = 3.9e9,
 * "550MB", "100m/s" = 100 * 2^20).  Out in B/s.
 */
int rl_parse_rate(const char *s, uint64_t *out, char *msg, size_t msglen);
/** Unsigned integer, decimal (or 0x hex); overflow is an error. */
int rl_parse_u64(const char *s, uint64_t *out, char *msg, size_t msglen);
/**
 * A bounded, printable copy of [s, s + len) for messages: control bytes
 * become \xNN, at most @max bytes are shown (a UTF-8 sequence is never cut
 * in two) and "..." marks a cut.  Returns @buf; @size must be > 0.
 */
const char *rl_text_excerpt(const char *s, size_t len, size_t max, char *buf, size_t size);

/** Boolean words: on/off, yes/no, true/false, 1/0 (any letter case). */
int rl_parse_bool(const char *s, bool *out, char *msg, size_t msglen);

#endif
