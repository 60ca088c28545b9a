/*
 * live.h - faults and rebuilds on a live export (live.c), and the command
 * interpreter of the control socket that drives them.
 */
#ifndef RL_SERVE_LIVE_H
#define RL_SERVE_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "serve/serve.h"

/**
 * Run one control command (a line of words; @line is modified).  Writes
 * the answer, ending in a newline, to @out; errors start with "error: ".
 * Sets *stop for "stop".  Returns 0 or a negative errno.
 */
int serve_ctl_command(struct serve_ctx *ctx, char *line, char *out, size_t outlen, bool *stop);

/** Advance rebuilds waiting for their write fence to drain (every loop turn). */
void serve_live_poll(struct serve_ctx *ctx);

/** One export's rebuild: advance it if its fence has drained. */
void serve_live_poll_one(struct serve_live *l);

/** True while a rebuild has work in progress. */
bool serve_live_busy(struct serve_ctx *ctx);

/** Stop: rebuilds end after their current unit (the member stays "rebuilding"). */
void serve_live_stop(struct serve_ctx *ctx);

/** One line per rebuild that ran: how it ended, bytes, time. */
void serve_live_report(struct serve_ctx *ctx, FILE *f);

/** Free the rebuild state of every export. */
void serve_live_free(struct serve_ctx *ctx);

#endif
