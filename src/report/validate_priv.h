/*
 * validate_priv.h - what validate.c shares with validate_html.c, and no
 * other file: number and text helpers and the 2x flag's test.
 */
#ifndef RL_REPORT_VALIDATE_PRIV_H
#define RL_REPORT_VALIDATE_PRIV_H

#include <stdbool.h>

#include "report/validate.h"

/** @v as text, never in exponent form; @buf holds 32 bytes. */
const char *val_num_text(double v, char *buf);

/** @text, or "" for NULL. */
const char *val_or(const char *text);

/** Is cell @c more than VAL_FLAG_RATIO off its published figure? */
bool val_cell_far(const struct val_cell *c);

#endif
