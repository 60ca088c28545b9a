/*
 * params.h - one table per target type: its parameters' names, types,
 * defaults, ranges and help.
 *
 * A target type lists its key=value parameters once, in a static array of
 * struct rl_param ended by an entry with a NULL name, and hangs it on its
 * struct rl_target_type (registry.h).  Everything else comes from that
 * table:
 *   - the create function reads each value with rl_param_u64() and friends,
 *     which take the type, the range and the default from the table (so a
 *     default is written once, as text, and help shows that very text);
 *   - rl_params_check() rejects a key the table does not name, listing the
 *     table's keys;
 *   - `raidlab help targets` (rl_params_print_line/_print_help) and the
 *     parameter tables of docs/targets.md (rl_params_print_markdown, checked
 *     against the file by a test) are rendered from it.
 * A getter asked for a name the table lacks, or with the wrong C type for
 * the table's type, fails with an "internal error" message: a table and its
 * code cannot disagree silently.
 *
 * Values are parsed by the rl_spec_get_* helpers of spec.h, so messages name
 * the key, the value and the expected form or range, with the position.
 */
#ifndef RL_CORE_PARAMS_H
#define RL_CORE_PARAMS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/spec.h"

enum rl_param_type {
	RL_PARAM_SIZE,    /* uint64_t bytes (rl_parse_size) */
	RL_PARAM_U64,     /* uint64_t within [min, max] */
	RL_PARAM_TIME,    /* uint64_t nanoseconds (rl_parse_time) */
	RL_PARAM_RATE,    /* uint64_t bytes per second (rl_parse_rate) */
	RL_PARAM_PERCENT, /* double within [fmin, fmax]; "20%" or "20" */
	RL_PARAM_BOOL,    /* bool: on/off, yes/no, true/false, 1/0 */
	RL_PARAM_ENUM,    /* int: the index of the value in choices */
	RL_PARAM_STR,     /* const char *, borrowed from the spec tree */
};

struct rl_param {
	const char *name;
	enum rl_param_type type;
	/*
	 * The default as a value of the type ("512k", "100ms", "md"), applied
	 * when the key is absent.  NULL: the type computes it (or has none) and
	 * an absent key leaves the caller's variable as it was; def_note then
	 * says what it is ("the rest of the target", "lat").
	 */
	const char *def;
	const char *def_note;
	const char *source;         /* whose default it is, when that is a fact ("md's") */
	uint64_t min, max;          /* RL_PARAM_U64 range */
	double fmin, fmax;          /* RL_PARAM_PERCENT range */
	const char *const *choices; /* RL_PARAM_ENUM: NULL-terminated */
	const char *form;           /* how a value is written, when the type does not say
	                               it: "K[+K...]", "nK|fK|oK" */
	const char *help;           /* what it does: one or more sentences */
};

/** The entry of @tab named @name, or NULL. */
const struct rl_param *rl_param_find(const struct rl_param *tab, const char *name);

/*
 * Getters: the key's value (marked used), or the table's default when it is
 * absent (or *out untouched when the table has none).  0, or -EINVAL with
 * @err naming the key, the value and what was expected.
 */

/** RL_PARAM_SIZE, _U64, _TIME or _RATE. */
int rl_param_u64(struct rl_spec_node *node, const struct rl_param *tab, const char *name,
                 uint64_t *out, struct rl_err *err);
/** RL_PARAM_PERCENT. */
int rl_param_double(struct rl_spec_node *node, const struct rl_param *tab, const char *name,
                    double *out, struct rl_err *err);
/** RL_PARAM_BOOL. */
int rl_param_bool(struct rl_spec_node *node, const struct rl_param *tab, const char *name,
                  bool *out, struct rl_err *err);
/** RL_PARAM_ENUM: the index into the entry's choices. */
int rl_param_enum(struct rl_spec_node *node, const struct rl_param *tab, const char *name, int *out,
                  struct rl_err *err);
/** RL_PARAM_STR, or the text of a value of any type (md passes values on as written). */
int rl_param_str(struct rl_spec_node *node, const struct rl_param *tab, const char *name,
                 const char **out, struct rl_err *err);

/**
 * Reject the first key no getter consumed:
 * "position 12: raid0 has no parameter 'chunkk' (known: chunk, layout, ...)".
 */
int rl_params_check(const struct rl_spec_node *node, const struct rl_param *tab,
                    struct rl_err *err);

/**
 * Check a table itself: names unique, every default parses as its type and
 * lies in range, enums have choices.  0, or -EINVAL with @msg saying what
 * is wrong (for tests).
 */
int rl_params_validate(const struct rl_param *tab, char *msg, size_t msglen);

/** "chunk=SIZE (default 512k), layout=orig|alt (default orig), ..." (no newline). */
void rl_params_print_line(FILE *f, const struct rl_param *tab);
/** One block per parameter: "  chunk=SIZE  default 512k (mdadm's)\n      help\n". */
void rl_params_print_help(FILE *f, const struct rl_param *tab);
/** A markdown table: | parameter | default | meaning |. */
void rl_params_print_markdown(FILE *f, const struct rl_param *tab);

#endif
