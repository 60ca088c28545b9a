/*
 * result.h - the JSON result file: the contract scripts read.
 *
 * Layout (docs/results.md documents every field):
 *   { "schema_version", "tool": {name, version}, "host": {...},
 *     "target": {spec, size_bytes, tree, clock}, "jobs": [ {name, options,
 *     runtime_s, clock, errors, verify, read|write|trim: {ios, bytes,
 *     runtime_s, mb_s, iops, lat_us: {...}, histogram, series}, target_counters} ] }
 * Suites add "suite" and "tests" beside "jobs" (same direction objects).
 */
#ifndef RL_RESULTS_RESULT_H
#define RL_RESULTS_RESULT_H

#include "core/target.h"
#include "workload/run.h"

#define RL_RESULT_SCHEMA_VERSION 1

struct json_object;

/** A new result document with tool, host and target filled in, and an empty "jobs". */
struct json_object *st_result_new(const char *spec, struct rl_target *t);

/** The JSON of one direction's statistics over @runtime_ns. */
struct json_object *st_result_dir(const struct wl_dir_result *d, uint64_t runtime_ns);

/** The job's options as fio spells them. */
struct json_object *st_result_options(const struct wl_job *job);

/** The JSON of a finished job; appended to the document's "jobs" by the caller. */
struct json_object *st_result_job(const struct wl_result *res);

/** Write @doc to @path (pretty-printed); "-" means standard output.  0 or -errno. */
int st_result_write(struct json_object *doc, const char *path);

/**
 * The end of a run on @t: finish it (a cache destages, test files go) and
 * add to @doc (may be NULL) what happened after the jobs' counters were
 * taken: "target_final_counters", "interrupted" when @interrupted, and
 * "lost_acknowledged_bytes" when the stack lost acknowledged writes.
 * Returns those lost bytes (more than zero: the run failed).
 */
uint64_t st_result_target_end(struct json_object *doc, struct rl_target *t, bool interrupted);

/** The host description alone (kernel, cpu, cores, memory). */
struct json_object *st_result_host(void);

#endif
