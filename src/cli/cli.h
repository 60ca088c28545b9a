/*
 * cli.h - commands of the raidlab program.
 *
 * Each command lives in its own file (src/cli/cmd_NAME.c) and registers a
 * struct cli_command from a constructor (CLI_COMMAND_REGISTER); main.c only
 * dispatches.  A command's main receives argv with argv[0] = the command
 * name, returns the process exit code (0 ok, 1 failure, 2 usage error), and
 * prints its errors as "raidlab COMMAND: message" on stderr.
 */
#ifndef RL_CLI_CLI_H
#define RL_CLI_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cli_command {
	const char *name;    /* "run" */
	const char *summary; /* one line for `raidlab --help` */
	const char *usage;   /* full help text for `raidlab help NAME` */
	int (*main)(int argc, char **argv);
	bool hidden; /* for tools (man pages, shell completion): runs, never listed */
	/* optional: sets usage from registries (suites...) once all have registered;
	   cli_command_find/first call it before returning the command */
	void (*usage_fill)(struct cli_command *self);
	struct cli_command *next;
};

void cli_command_register(struct cli_command *cmd);
const struct cli_command *cli_command_find(const char *name);
/** The listed commands, sorted by name (hidden ones are found, not listed). */
const struct cli_command *cli_command_first(void);

#define CLI_COMMAND_REGISTER(cmd)                                                                  \
	__attribute__((constructor)) static void cli_register_##cmd(void)                          \
	{                                                                                          \
		cli_command_register(&(cmd));                                                      \
	}

/**
 * The names of every suite, the block suites (suites/suite.h) then the file
 * suites (files/files.h), in registry order, into @v (at most @max).
 * Returns how many.
 */
size_t cli_suite_names(const char **v, size_t max);

/** "cdm, cdm5, ..." of every suite, nearest to @typed first (core/suggest.h), in @buf. */
const char *cli_suite_list(const char *typed, char *buf, size_t len);

/** Print "raidlab CMD: message" to stderr (printf-style). */
void cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * The options the array tools (create, check, rebuild) share, for their
 * getopt switch's default: -f sets *force, -q sets *quiet, -h prints
 * @usage; anything else prints @usage to stderr.  Returns -1 to go on
 * parsing, or the exit status (0 after -h, 2 for an unknown option).
 */
int cli_opt_common(int c, const char *usage, bool *force, bool *quiet);

#define CLI_MAX_TARGETS 64

/* The configurations a suite command compares: --target SPEC and --label NAME, in order. */
struct cli_targets {
	const char *spec[CLI_MAX_TARGETS];
	const char *label[CLI_MAX_TARGETS]; /* the first nlabels given; the rest: the spec */
	size_t n, nlabels;
};

/*
 * Take option --@name=@val if it is --target or --label: 1 when taken, 0
 * when it is another option, -EINVAL (printed) past CLI_MAX_TARGETS.
 */
int cli_targets_take(struct cli_targets *t, const char *name, const char *val);

/*
 * At least one target and no more labels than targets: 0, or -EINVAL
 * (printed; @give says what a target looks like to the @suite).
 */
int cli_targets_check(const struct cli_targets *t, const char *suite, const char *give);

/* The name of configuration @i: its label, or its spec. */
const char *cli_targets_label(const struct cli_targets *t, size_t i);

/**
 * Print a spec error with the spec text and a caret under the position:
 *   raidlab run: target spec: position 7: expected ')' ...
 *     raid0(mem x2
 *            ^
 */
struct rl_err;
void cli_spec_error(const char *cmd, const char *spec, const struct rl_err *err);

/**
 * End of a run on @t (outcome.c): rl_target_finish(), then the stack's final
 * counters go into @doc (may be NULL) as "target_final_counters", an
 * interrupted run is marked, and acknowledged data the stack reports lost
 * is said on stderr as "raidlab CMD: ...".  Returns the bytes lost (0: none).
 */
struct rl_target;
struct json_object;
unsigned long long cli_target_end(const char *cmd, struct rl_target *t, struct json_object *doc);

#define CLI_SLOW_AUTO 0u    /* --slow auto: serve's governor picks the factor */
#define CLI_SLOW_MAX  1000u /* the largest factor, given or chosen */

/**
 * --slow N|auto (serve and file suites on simulated stacks): a whole factor
 * 1..CLI_SLOW_MAX, or CLI_SLOW_AUTO, into *out.  0, or -EINVAL after
 * printing the reason.
 */
int cli_parse_slow(const char *cmd, const char *val, uint32_t *out);

/*
 * Split "--name[=value]" into NAME (a buffer of SIZE bytes) and *VAL (the text after
 * '=', or NULL when there is none).  A name that does not fit is reported as an error
 * of command CMD and gives -EINVAL.
 */
/* --output-format's formats, as bits of a mask (run_fioflags.c). */
enum {
	CLI_FMT_NORMAL = 1u << 0,
	CLI_FMT_JSON = 1u << 1,
	CLI_FMT_JSONPLUS = 1u << 2,
	CLI_FMT_TERSE = 1u << 3,
};

/*
 * Parse --output-format's comma-separated list (normal, json, json+, terse)
 * into @mask of CLI_FMT_* bits.  0, or -EINVAL with the error printed.
 */
int cli_output_formats_parse(const char *val, unsigned *mask);

int cli_long_opt_split(const char *cmd, const char *arg, char *name, size_t size, const char **val);

/**
 * Can @path (given with option @opt, e.g. "--json") be written?  Checked
 * before a run, for every output option of every command: not empty; the
 * file, or the directory it would be created in, writable and not on a
 * pseudo filesystem (proc, sysfs, ...).  "-" and NULL pass.  0, or a
 * negative errno after printing the reason as "raidlab CMD: OPT ...".
 */
int cli_output_check(const char *cmd, const char *opt, const char *path);

/**
 * An output directory (--out-dir): not empty, created if missing (where
 * cli_output_check would let a file be created), then it must be a
 * directory files can be created in, not on a pseudo filesystem.  0, or a
 * negative errno after printing the reason.
 */
int cli_output_dir(const char *cmd, const char *opt, const char *dir);

/**
 * cli_output_dir() checked first, as output files may be named inside the
 * folder; *made says whether it created @dir, so that a later refusal can
 * remove it again (cli_output_undo) and a refused run leaves nothing.
 */
int cli_output_dir_new(const char *cmd, const char *opt, const char *dir, bool *made);
void cli_output_undo(const char *dir, bool made);

/**
 * Write result @doc to @path; if that fails, to a fallback file in $TMPDIR
 * (or /tmp), saying where.  0, or the negative errno of the first attempt.
 */
int cli_result_save(const char *cmd, struct json_object *doc, const char *path);

struct fleet;
/**
 * `raidlab run SUITE ...` (run_suite.c): argv[0] = "run", argv[1] names a
 * suite (suites/suite.h).  @fleet: under mpirun, every rank runs it at
 * once and rank 0 reports the aggregate (suites/fleet.h); NULL: alone.
 * Returns the exit code.
 */
int cli_run_suite(int argc, char **argv, struct fleet *fleet);

/*
 * CrystalDiskMark's own text export of a suite result (run_cdmtext.c):
 * cli_cdm_text_supported() says whether suite @suite has its layout (the
 * CDM 7/8 suites), cli_cdm_text_write() writes result @doc that way.
 */
bool cli_cdm_text_supported(const char *suite);
void cli_cdm_text_write(FILE *f, struct json_object *doc);

/*
 * A suite run put together by another command (demo) rather than from a
 * command line: the same options, checks, results and comparison as
 * `raidlab run SUITE`.  cli_suite_new() takes a suite's name (NULL if none
 * such, or no memory); options are applied in order, as --NAME=VAL would be
 * (@val NULL for a flag), and cli_suite_options() applies a command line's
 * worth of them, so a caller's defaults come first and the user's override
 * them.  An error is printed when it happens and kept; cli_suite_check()
 * also checks the options together and returns 2 once anything was wrong
 * (0 otherwise); cli_suite_execute() then returns 2 without running
 * anything.  It frees @s and returns the exit status (0, 1 a suite failed,
 * 2 bad usage).
 */
struct cli_suite;
struct cli_suite *cli_suite_new(const char *suite);
void cli_suite_option(struct cli_suite *s, const char *name, const char *val);
void cli_suite_options(struct cli_suite *s, int argc, char **argv);
int cli_suite_check(struct cli_suite *s);
int cli_suite_execute(struct cli_suite *s);

/**
 * `raidlab run FILE-SUITE ...` (run_files.c): argv[1] names a file suite
 * (files/files.h).  Returns the exit code.
 */
int cli_run_files(int argc, char **argv);

struct val_set;
/**
 * `raidlab validate`'s machinery, shared with `raidlab demo --platform`:
 * the path of set @name (a name looked for in the validation directories,
 * or a path), 0 or -ENOENT; and running every configuration of @sets in
 * the suite runner's pool, @par at a time, with suite options @over
 * ("NAME=VALUE") applied where a configuration's suite takes them.  Each
 * result, or why it did not run, goes to its configuration.
 */
int cli_validate_find(const char *name, char *path, size_t len);
int cli_validate_run(struct val_set *sets, size_t nsets, unsigned par, bool quiet,
                     const char *const *over, size_t nover);

/*
 * `raidlab run` on every rank of an MPI job (run_fleet.c, suites/fleet.h):
 * cli_fleet_argv() copies @argv with $rank, $nranks and $host replaced
 * (free with cli_fleet_argv_free; 0 or -EINVAL with an error printed);
 * cli_fleet_print() is rank 0's report of the gathered jobs (the table).
 */
struct fleet;
int cli_fleet_argv(const struct fleet *f, int argc, char **argv, char ***out);
void cli_fleet_argv_free(int argc, char **argv);
void cli_fleet_print(FILE *out, const struct fleet *f);
/* fio's JSON of the gathered jobs as fio's client/server mode prints it (rank 0) */
void cli_fleet_fio_json(FILE *out, const struct fleet *f, struct rl_target *t, bool plus);

/**
 * `raidlab run`'s progress while jobs run (run_progress.c): the ETA line on
 * a terminal and the --status-interval reports.  Pass a filled state as the
 * progress_arg of cli_run_progress_cb.
 */
struct cli_run_progress {
	bool tty;                            /* redraw one line on stderr */
	uint64_t status_ns;                  /* --status-interval: print a line this often */
	double eta_every_s, newline_every_s; /* --eta-interval, --eta-newline */
	double last_eta, last_newline;
	bool eta_drawn; /* the line was drawn once (the first draw does not wait) */
	double last_print, last_s;
	uint64_t last_bytes, last_ios, last_rbytes;
	FILE *out;
	/* --status-interval as fio: CLI_STATUS_NORMAL its report, CLI_STATUS_TERSE its lines,
	   CLI_STATUS_JSON its whole JSON document (json+ with status_plus) */
	unsigned status_fio;
	bool status_plus;
	const char *global_given;      /* the job file's global options as given (JSON's) */
	unsigned groupid;              /* the running wave's reporting group */
	const struct st_disk_util *du; /* the disks' counters at the start, or NULL */
};
enum { CLI_STATUS_NORMAL = 1, CLI_STATUS_TERSE = 2, CLI_STATUS_JSON = 4 };
struct wl_progress;
struct st_disk_util;
void cli_run_progress_cb(void *arg, const struct wl_progress *p);

/**
 * fio's --cmdhelp[=OPTION|all] and --enghelp[=ENGINE[,OPTION]] for `raidlab
 * run` (run_fioflags.c): print to stdout; return the exit code.
 */
int cli_run_cmdhelp(const char *opt);
/* `run --help`: the text, and the suites' names appended (run_usage.c) */
extern const char cli_run_usage[];
void cli_run_usage_fill(struct cli_command *self);
/* `run`'s job file, whole, in *text (to free); "-" is standard input. -errno, reported. */
int cli_run_read_jobfile(const char *path, char **text);
/* The same, quiet, the reason in @why: the job file parser's reader of include files */
int cli_run_jobfile_reader(const char *path, char **text, char *why, size_t whylen);
int cli_run_enghelp(const char *arg);
/* --showcmd: each job of @jf as command-line options, fio's spelling (run_fioflags.c) */
struct wl_jobfile;
void cli_run_showcmd(const struct wl_jobfile *jf);

/**
 * A tool that keeps the files it creates (create, rebuild) failed: remove
 * the files raidlab created under @t (outcome.c), so a refused command
 * leaves nothing behind.  Call before closing @t.
 */
void cli_created_remove(struct rl_target *t);

/** The same on a tree from rl_target_tree() (the stack may be closed by now). */
void cli_created_walk(struct json_object *tree);

/**
 * A built sweep plan (sweep/sweep.h) checked, loaded from its store and
 * run @par at a time, with the skipped points and progress on stderr
 * (cmd_sweep.c; advise uses it too).  Returns the exit status.
 */
struct sw_plan;
int cli_sweep_run(struct sw_plan *pl, unsigned par, bool quiet);
/** --timeout VALUE of sweep and advise: a duration, 0 for none, or "auto".  0 or -EINVAL. */
int cli_sweep_timeout(const char *cmd, const char *val, double *out);

#endif
