/*
 * expand.h - alternatives inside a target spec: one text names many stacks.
 *
 *   raid{0,10}(ssd(850evo) x{2,4}, chunk={64k,256k})
 *
 * A group {a,b,c} anywhere in the text stands for each of its alternatives
 * in turn; several groups multiply (the first group varies slowest), and a
 * group may hold groups of its own ({raid0(mem x{2,3}),mem}).  {A..B} with
 * whole numbers is the range A, A+1, ..., B (x{2..4}).  Commas split
 * alternatives only outside parentheses, so {ssd(a, spare=7%),ssd(b)} has
 * two.  A quoted word ("a{b}") is taken as it is: braces there are text.
 *
 * This is text substitution before the spec parser sees anything, so the
 * expansions are then opened like any spec; whether a combination makes a
 * valid stack (raid6 of 3) is for rl_target_open to say, not for this.
 *
 * Every group is an axis of the sweep with a name taken from where it
 * stands: after "key=" the key (chunk, write); after a repetition " x" it
 * is "count"; glued to a word the word itself with its value spelled out
 * whole (raid{0,10}: axis "level" for the word "raid", values raid0 and
 * raid10; ssd(850{evo,pro}): axis "850", values 850evo, 850pro); a group
 * that is a whole argument is "alt1", "alt2"... in order.  A name used twice
 * gets "#2".  An expansion records the value of each axis it went through
 * (an inner group's axis is absent where its outer alternative was not
 * chosen).
 *
 * Errors carry the byte position in the text: an unclosed '{', a '}' or a
 * ')' without its opening, an empty alternative, a bad range, too deep a
 * nesting, or more than SW_EXPAND_MAX expansions.
 */
#ifndef RL_SWEEP_EXPAND_H
#define RL_SWEEP_EXPAND_H

#include <stddef.h>

#include "core/spec.h"

#define SW_EXPAND_MAX   4096 /* expansions of one text */
#define SW_EXPAND_DEPTH 8    /* groups inside groups */

/** One expanded text and the value it took on each axis (NULL: not on that axis). */
struct sw_item {
	char *text;
	char **values; /* naxes entries, indexed like sw_expansion.axes */
};

struct sw_expansion {
	size_t naxes;
	char **axes; /* axis names, in the order their groups appear */
	size_t n;
	struct sw_item *items;
};

/**
 * Expand @text into @out (free with sw_expansion_free, also after an
 * error).  A text without groups gives itself, with no axes.  0, or
 * -EINVAL (with @err: position and message) / -ENOMEM.
 */
int sw_expand(const char *text, struct sw_expansion *out, struct rl_err *err);

void sw_expansion_free(struct sw_expansion *x);

#endif
