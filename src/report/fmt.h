/*
 * fmt.h - number and text formatting shared by the renderers.
 *
 * One place decides how many decimals a figure gets, so the terminal
 * table, the CSV and the HTML report print the same digits: MB/s and µs
 * with two decimals, IOPS with one, percentages signed with one.  Output
 * never depends on the locale (raidlab never calls setlocale).
 */
#ifndef RL_REPORT_FMT_H
#define RL_REPORT_FMT_H

#include <stddef.h>
#include <stdio.h>

#include "report/compare.h"

/** A metric's value ("3512.44"), or "-" when unknown. */
void rep_fmt_value(char *buf, size_t len, double v, enum rep_metric m);

/** A percentage, signed: "+96.4%", "-3.0%", "0.0%". */
void rep_fmt_pct(char *buf, size_t len, double pct);

/** A byte count in binary units: "512 B", "4 KiB", "1.50 GiB". */
void rep_fmt_bytes(char *buf, size_t len, double bytes);

/** A suite score, rounded as the tools print it: "1149", or "-". */
void rep_fmt_score(char *buf, size_t len, double v);

/** A plain number: integers without decimals, others with up to 3 significant decimals. */
void rep_fmt_number(char *buf, size_t len, double v);

/** Display width of UTF-8 text in terminal columns (one per code point). */
size_t rep_text_width(const char *s);

/**
 * Write @s for a terminal, control characters replaced by '?', cut to
 * @max columns (with "..." at the end when cut; 0: no limit), padded
 * with spaces to @width columns (right-aligned when @right).
 */
void rep_term_text(FILE *f, const char *s, size_t max, size_t width, int right);

#endif
