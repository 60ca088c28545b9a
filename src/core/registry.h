/*
 * registry.h - from spec text to a stack of open targets.
 *
 * Each target type registers a struct rl_target_type (its spec name, a
 * one-line summary, its positional arguments and its parameter table -
 * params.h - for parsing and help, and a create function).
 * rl_target_build() walks a parsed spec: a call node is looked up by name, a
 * plain word at the top or as a member is a path handed to the "file" type
 * (so "/dev/sdb" and "raid1(/dev/loop0, /dev/loop1)" work).  Composites call
 * rl_target_build() on their own arguments.
 *
 * Types register from a constructor in their own file
 * (RL_TARGET_REGISTER), so adding a target is adding one file.
 */
#ifndef RL_CORE_REGISTRY_H
#define RL_CORE_REGISTRY_H

#include <stdbool.h>
#include <stdint.h>

#include "core/params.h"
#include "core/spec.h"
#include "core/target.h"

/** Settings that apply to the whole stack being opened. */
struct rl_build_ctx {
	bool write_intent;  /* the run will write or trim: safety checks apply */
	bool write_only;    /* nothing reads it: a new file is allocated, not filled
	                       with data (fio's fallocate=native for write-only jobs) */
	bool force_destroy; /* allow writing over data found on devices/files */
	bool keep;          /* keep test files raidlab created */
	bool direct;        /* O_DIRECT for files and devices (default true) */
	bool buffered_ok;   /* fall back to buffered I/O where O_DIRECT is refused */
	bool also_buffered; /* direct files also open a page-cache descriptor (RL_IO_BUFFERED) */
	uint64_t default_file_size; /* size for a test file created without size= (0: required) */
	uint32_t size_pct; /* a job's size=N% (0: none): said when a new file lacks a size */
	bool quiet;        /* no warnings on stderr */
	bool md_members;   /* md(...) assembling members from their superblocks: their
	                      md signature is expected, not data to protect */
	int access_hint;   /* buffered files: POSIX_FADV_* access pattern (fio's
	                      fadvise_hint); 0 = POSIX_FADV_NORMAL */
	bool shared;       /* processes of one job share it, each on its own region (MPI
	                      ranks with --offset-per-rank): a shared lock, also to write */
	bool byte_blocks;  /* a file() opened through the page cache takes requests at any
	                      byte (block size 1), for a job whose block sizes are not whole
	                      sectors (fio's bs=4); set only for a file() at the spec's root */
};

struct rl_target_type {
	const char *name;    /* as written in specs */
	const char *summary; /* one line for `raidlab help targets` */
	const char *args;    /* positional arguments for help: "MEMBER...", "TARGET", "PATH" */
	const struct rl_param *params; /* key=value parameters (params.h), NULL-name ended */
	const char *params_note;       /* what else it accepts, for help; NULL if nothing */
	/**
	 * Keys parsed by another table that the type also accepts (ssd: the
	 * drive profile's parameters), for help and the docs; NULL if none.
	 */
	const struct rl_param *(*more_params)(void);
	const char *more_params_title; /* their heading: "drive profile parameters" */
	/**
	 * Build a target from @node (node->name == type name; for "file" the
	 * node may also be a plain word holding the path).  Returns 0 and sets
	 * *out, or a negative errno with @err set (position and message).
	 */
	int (*create)(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
	              struct rl_target **out, struct rl_err *err);
	struct rl_target_type *next; /* registry list link */
};

/** Add a type to the registry (called from constructors). */
void rl_target_type_register(struct rl_target_type *type);

/** Look a type up by name; NULL if unknown. */
const struct rl_target_type *rl_target_type_find(const char *name);

/** First registered type (for listing); follow ->next. */
const struct rl_target_type *rl_target_type_first(void);

#define RL_TARGET_REGISTER(type)                                                                   \
	__attribute__((constructor)) static void rl_register_##type(void)                          \
	{                                                                                          \
		rl_target_type_register(&(type));                                                  \
	}

/** Build the stack that @node describes. */
int rl_target_build(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                    struct rl_target **out, struct rl_err *err);

/** Parse @text and build it; errors carry the position in @text. */
int rl_target_open(const char *text, const struct rl_build_ctx *ctx, struct rl_target **out,
                   struct rl_err *err);

/**
 * For leaves whose whole spec is size= and bs= (mem, null; @tab names both,
 * with the type's defaults): reject positional arguments and unknown keys,
 * check that bs is a power of two from 512 to 64k, and check that the size
 * is a whole number of blocks (at least one).
 */
int rl_target_parse_geometry(struct rl_spec_node *node, const struct rl_param *tab, uint64_t *size,
                             uint32_t *bs, struct rl_err *err);

/** The bs= entry every geometry table (mem, null) shares. */
#define RL_GEOMETRY_PARAM_BS                                                                       \
	{                                                                                          \
		.name = "bs", .type = RL_PARAM_SIZE, .def = "512",                                 \
		.help = "logical block size: a power of two from 512 to 64k; size must be a "      \
		        "multiple of it",                                                          \
	}

/**
 * True while rl_target_open is building a stack on this thread.  A target
 * destroyed meanwhile belongs to a stack that failed to open (or to a
 * probe the build discards): a file it created holds nothing anyone
 * wrote, so it goes whatever keep says, and a failed command leaves no
 * file it created behind.
 */
bool rl_target_opening(void);

/** Default build settings: direct I/O, no forcing, no keeping. */
void rl_build_ctx_init(struct rl_build_ctx *ctx);

#endif
