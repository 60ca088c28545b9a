/*
 * print.h - human output shared by commands: a job's table, its problems,
 * and a target stack as an indented tree.
 */
#ifndef RL_CLI_PRINT_H
#define RL_CLI_PRINT_H

#include <stdio.h>
#include <time.h>

#include "workload/run.h"

struct json_object;

/** The job's table: one line per direction that did I/O.  @spec printed first if given. */
void cli_print_job(FILE *f, const struct wl_result *res, const char *spec);

/** I/O errors and verify failures of a job, one line each. */
void cli_print_job_problems(FILE *f, const struct wl_result *res);

/** A tree from rl_target_tree() as indented lines. */
void cli_print_tree(FILE *f, struct json_object *tree, int depth);

/** Bytes as "1.00 GiB (1073741824 bytes)". */
void cli_format_size(char *buf, size_t len, unsigned long long bytes);
/* @t as ctime writes it, without the newline: "Fri Dec  4 19:49:02 2026" */
void cli_format_date(char *buf, size_t len, time_t t);

/*
 * A file name from a configuration's label: [A-Za-z0-9._-] kept, runs of
 * anything else one '_', no leading '.' or '_'; "result" when nothing is left.
 */
void cli_file_name(const char *label, char *buf, size_t len);

/* Member @key of object @o (borrowed), or NULL when @o is NULL or has none. */
struct json_object *cli_json_get(struct json_object *o, const char *key);

/* Member @key of @o as a number; 0 when absent. */
double cli_json_num(struct json_object *o, const char *key);

#endif
