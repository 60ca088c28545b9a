/*
 * sim.h - the SSD model's internal interface (private to src/sim).
 *
 * The model is timing-first and event-free: every resource (host link,
 * controller, flash channel, flash die) keeps the time it is reserved until,
 * and a request reserves what it needs, in order, when it is submitted.  Its
 * completion time is therefore known at submission and the target hands the
 * request to the executor's timer heap once (rl_exec_at).  One heap entry per
 * host request is what makes the simulator fast; see docs/simulator.md for
 * why the reservation order is a good approximation of a real controller.
 *
 * Pieces, one file each:
 *   profile.c  parameters: profile files, spec overrides, derived geometry
 *   cal.c      a resource calendar with gap filling (channels, host link)
 *   host.c     host interface: device queue slots, controller, link transfer
 *   nand.c     die and channel timing: read, program, erase, suspend
 *   ftl.c      page-level mapping, write streams, invalidation, trim
 *   gc.c       victim policies (greedy, fifo, random), pacing, relocation
 *   slc.c      SLC cache routing, folding and idle-time background work
 *   precond.c  preconditioning: fresh, full, steady (simulated)
 *   steady.c   the steady state set up directly, with an implicit mapping
 *   dev.c      the model as a whole: create, destroy, host read/write/trim/flush
 *   ssd.c      the ssd(...) target: spec -> model, rl_io -> model -> timer
 *
 * Units: time in simulated ns, sizes in bytes, mapping in "units" (the FTL
 * mapping unit, 4 KiB by default).  A superblock is one erase block on every
 * die, striped: it is the FTL's block (allocation, GC victim, erase).
 */
#ifndef RL_SIM_SIM_H
#define RL_SIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIM_NONE        UINT32_MAX /* no block / unmapped / invalid unit */
#define SIM_PENDING     UINT64_MAX /* buffer slot whose program is not scheduled yet */
#define SIM_PU_MAX      64         /* most units in one program unit */
#define SIM_SOURCES_MAX 8

enum sim_iface { SIM_IFACE_SATA = 0, SIM_IFACE_AHCI, SIM_IFACE_NVME };
enum sim_gc_policy { SIM_GC_GREEDY = 0, SIM_GC_FIFO, SIM_GC_RANDOM };
enum sim_slc_mode { SIM_SLC_OFF = 0, SIM_SLC_STATIC, SIM_SLC_DYNAMIC };
enum sim_state { SIM_STATE_FRESH = 0, SIM_STATE_FULL, SIM_STATE_STEADY };
enum sim_precond_mode { SIM_PRECOND_ANALYTIC = 0, SIM_PRECOND_SIMULATED };
/* What a capacity= beyond the profile's geometry changes: nothing (refused)
   or the dies per channel, as a family's larger models add packages. */
enum sim_scale { SIM_SCALE_OFF = 0, SIM_SCALE_DIES };

/* ---------------------------------------------------------------- params */

/** Everything a profile file or a spec can set (see profile.c for the table). */
struct sim_params {
	char name[64];
	char description[256];
	char aliases[128];
	char sources[SIM_SOURCES_MAX][256];
	unsigned nsources;
	char path[512]; /* file the profile came from ("" for built-in defaults) */

	/* host interface */
	int iface;               /* enum sim_iface */
	unsigned sata_gen;       /* 1, 2, 3: 1.5, 3, 6 Gb/s */
	unsigned pcie_gen;       /* 1..5 */
	unsigned pcie_lanes;     /* 1..16 */
	uint64_t link_bw;        /* practical link bytes/s; 0: derived from gen and lanes */
	unsigned queues;         /* NVMe submission queues (SATA/AHCI: 1) */
	unsigned queue_depth;    /* commands per queue (SATA/AHCI: 32) */
	uint64_t cmd_ns;         /* controller time per read/trim/flush command (serial) */
	uint64_t cmd_write_ns;   /* controller time per write command; 0: cmd_ns */
	uint64_t write_after_ns; /* controller time per write after its acknowledgement; 0: none */
	bool merge_after; /* a write is acknowledged when its data is in DRAM; its merge follows */
	uint64_t latency_ns;     /* fixed added latency per command (bus, interrupt) */
	uint64_t sync_commit_ns; /* FLUSH / FUA: one journal commit after the data (0: none) */
	uint64_t sync_io_ns;     /* ... plus this much per request the commit covers */
	uint64_t ctrl_read_bw, ctrl_write_bw; /* controller data path limits, 0: none */

	/* NAND */
	unsigned bits; /* bits per cell: 1 SLC, 2 MLC, 3 TLC, 4 QLC */
	unsigned channels, dies, planes;
	uint64_t page;         /* bytes per page (one plane) */
	unsigned pages;        /* pages per block in native mode */
	unsigned blocks;       /* blocks per plane */
	uint64_t channel_rate; /* bytes/s per channel */
	uint64_t t_read, t_prog, t_erase, t_read_slc, t_prog_slc, t_suspend;
	bool suspend; /* host reads suspend programs/erases */

	/* FTL */
	uint64_t capacity;     /* user bytes (the profile's figure) */
	int scale;             /* enum sim_scale: how a larger capacity= grows the drive */
	uint64_t slc_size_max; /* a static SLC cache grown with the dies stops here (0: no cap) */
	double op;             /* spare area percent rho = (physical-user)/user; <0: unset */
	uint64_t map_unit;
	int gc;           /* enum sim_gc_policy */
	unsigned gc_free; /* free superblocks at which GC starts; 0: auto */
	uint64_t write_buffer;
	bool trim;
	uint64_t idle_ns;  /* idle time before background work; 0: none */
	int slc;           /* enum sim_slc_mode */
	uint64_t slc_size; /* bytes of SLC data (static size / dynamic maximum) */
	double slc_pct;    /* same as a percent of capacity when >= 0 */
	uint64_t logical_block;

	/* informational: the manufacturer's rated figures */
	uint64_t rated_read, rated_write;
	unsigned rated_read_iops, rated_write_iops;

	/* instance (spec only) */
	int state; /* enum sim_state */
	bool data;
	uint64_t seed;
	uint64_t precond_writes; /* steady: most settle writes; 0: auto */
	int precondition;        /* enum sim_precond_mode: how state=steady is reached */
};

/** Fill @p with the built-in defaults (a generic small NVMe MLC drive). */
void sim_params_default(struct sim_params *p);

/**
 * Load the profile called @name (a file name, a profile name or an alias)
 * into @p over the defaults.  Returns 0, -ENOENT (msg says where it looked)
 * or -EINVAL (msg names file, line and problem).
 */
int sim_profile_load(const char *name, struct sim_params *p, char *msg, size_t msglen);

/** Set one parameter from text, as in a profile file or a spec. */
int sim_params_set(struct sim_params *p, const char *key, const char *value, char *msg,
                   size_t msglen);

/** NULL-terminated list of every settable parameter name. */
const char *const *sim_params_keys(void);

struct rl_param;
/**
 * The drive parameters as a parameter table (core/params.h), for help, the
 * docs and the man pages: the same rows that parse a profile line or a spec
 * override, with their help.  Built on first use (not thread-safe).
 */
const struct rl_param *sim_params_doc(void);

/** Directories searched for profiles, in order (NULL-terminated, static storage). */
const char *const *sim_profile_dirs(void);

/**
 * Call @fn for every profile found (each name once, first directory wins).
 * Returns the number found.
 */
int sim_profile_each(void (*fn)(const struct sim_params *p, void *arg), void *arg);

/* -------------------------------------------------------------- geometry */

struct sim_geo {
	uint32_t unit;       /* mapping unit, bytes (a power of two) */
	uint32_t unit_shift; /* log2(unit) */
	uint32_t pu;         /* units per program unit (one die, all planes): a power of two */
	uint32_t pu_shift;   /* log2(pu) */
	uint32_t prog_k;     /* flash operations per unit when a unit spans several pages */
	uint32_t nch, ndies;
	uint32_t b;         /* units per superblock, native mode */
	uint64_t b_magic;   /* for n / b without a divide (sim_div) */
	uint64_t ppb_magic; /* the same for b / pu, program units per superblock */
	uint32_t b_slc;     /* units per superblock in SLC mode */
	uint32_t nblocks;   /* superblocks in total */
	uint32_t nstatic;   /* superblocks reserved as static SLC cache */
	uint64_t T;         /* physical units of the main pool: (nblocks - nstatic) * b */
	uint64_t U;         /* user units */
	uint32_t gc_thresh; /* GC starts below this many free superblocks */
	uint32_t gc_hard;   /* host writes wait for GC at or below this */
	uint64_t slc_units; /* SLC cache limit in units (static size / dynamic max) */
	uint32_t nslots;    /* write buffer slots (units), a power of two */
	uint64_t link_bw;   /* bytes/s */
	uint32_t qd;        /* device queue slots */
	double rho;         /* spare area actually in force */
};

/**
 * Derive the geometry from @p.  @op_set / @cap_set say whether the spec set
 * op= or capacity=; otherwise the profile's own spare ratio is kept when the
 * geometry was scaled.  @rho_profile is that ratio.  Returns 0 or -EINVAL.
 */
int sim_geo_derive(const struct sim_params *p, double rho_profile, bool op_set, bool cap_set,
                   struct sim_geo *g, char *msg, size_t msglen);

/** The profile's own spare ratio (physical main pool over capacity, minus 1). */
double sim_params_rho(const struct sim_params *p);

/* -------------------------------------------------------------- calendar */

/** Busy intervals of one resource, sorted, merged when they touch. */
struct sim_cal {
	uint64_t *s, *e;
	uint32_t head, n, cap;
	uint64_t min_gap; /* gaps shorter than the shortest operation are never used */
	uint64_t busy_ns; /* total reserved time (utilisation) */
};

/** @min_gap: the shortest reservation this resource will see (0: keep every gap). */
int sim_cal_init(struct sim_cal *c, uint32_t cap, uint64_t min_gap);
void sim_cal_free(struct sim_cal *c);
/**
 * Reserve @dur ns at the earliest gap at or after @ready; returns the start.
 * Intervals that end at or before @floor (the current time: nothing can be
 * reserved before it any more) are forgotten first.
 */
uint64_t sim_cal_reserve(struct sim_cal *c, uint64_t floor, uint64_t ready, uint64_t dur);
/** Forget intervals that end at or before @t. */
void sim_cal_prune(struct sim_cal *c, uint64_t t);

/* ------------------------------------------------------------------ model */

enum sim_blk_state { SIM_BLK_FREE = 0, SIM_BLK_OPEN, SIM_BLK_CLOSED, SIM_BLK_VICTIM };

struct sim_blk {
	uint64_t prog_last; /* latest program end in this block (reads before it check prog_end) */
	uint32_t valid;     /* valid units */
	uint32_t wp;        /* units written (padding included) */
	uint32_t prev, next;
	uint32_t pos; /* index in the random-victim array */
	uint32_t erases;
	uint8_t state;     /* enum sim_blk_state */
	uint8_t slc;       /* written in SLC mode */
	uint8_t is_static; /* member of the static SLC pool */
	uint8_t lazy;      /* holds implicitly mapped units (steady.c): 1, 2 once p2l is built */
};

struct sim_list {
	uint32_t head, tail, n;
};

enum { SIM_STREAM_HOST = 0, SIM_STREAM_SLC, SIM_STREAM_GC, SIM_NSTREAMS };

struct sim_stream {
	uint32_t blk;   /* open superblock or SIM_NONE */
	uint32_t npend; /* host buffer slots waiting for the open program unit */
	uint32_t pend[SIM_PU_MAX];
	uint64_t ready; /* data of the open program unit is all in the buffer at */
};

struct sim_die {
	struct sim_cal cal; /* reserved operations (busy_ns: utilisation) */
	uint64_t rd;        /* end of the last host read */
};

struct sim_counters {
	uint64_t reads, writes, trims, flushes;
	uint64_t host_read_bytes, host_write_bytes, host_trim_bytes;
	uint64_t host_units; /* units the host stored (after read-modify-write) */
	uint64_t nand_read_units, nand_read_ops;
	uint64_t nand_prog_units, nand_prog_ops, pad_units;
	uint64_t erases; /* superblock erases */
	uint64_t gc_victims, gc_relocated, gc_ns;
	uint64_t fold_victims, folded_units;
	uint64_t slc_hit_units, slc_overflow_units;
	uint64_t buffer_read_units, rmw_reads, unmapped_read_units;
	uint64_t trimmed_units;
	uint64_t empty_sum, empty_samples; /* spare-pool size seen by host writes */
	uint64_t queue_wait_ns;
	uint64_t first_ns, last_ns;
};

struct sim_host {
	struct sim_cal link[2]; /* 0: device to host (reads), 1: host to device; SATA uses [0] */
	struct sim_cal ctrl[2]; /* controller data path limits, when set */
	uint64_t ctrl_free;     /* controller command processor */
	uint64_t *slots;        /* min-heap of completion times of commands in the device */
	uint32_t nslots;
	bool half_duplex;
};

struct sim_rng {
	uint64_t s;
};

static inline uint64_t sim_rng_next(struct sim_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint64_t sim_rng_below(struct sim_rng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)sim_rng_next(r) * n) >> 64);
}

struct sim_dev {
	struct sim_params p;
	struct sim_geo g;
	bool timing; /* false while preconditioning: mapping only */

	/* mapping, stored plus one so that fresh zero pages mean "none" (no memset) */
	uint32_t *l2p;      /* user unit -> physical unit + 1, 0: unmapped */
	uint64_t *l2p_live; /* a bit per SIM_L2P_REGION entries of l2p: ever written */
	uint32_t *p2l;      /* physical unit -> user unit + 1 it was written for, 0: never */
	uint64_t
	    *prog_end; /* per program unit: when its program completes (SIM_PENDING: in buffer) */
	struct sim_blk *blk;
	uint64_t valid_lpns;  /* mapped user units */
	uint64_t empty_units; /* main pool units not yet written: free blocks + open remainders */

	/* block pools */
	struct sim_list free_main, free_static;
	struct sim_list fifo;     /* closed native blocks in closing order (fifo policy) */
	struct sim_list slc_fifo; /* closed SLC-mode blocks, oldest first */
	struct sim_list *bucket;  /* greedy: closed native blocks by valid count */
	uint32_t bucket_min;
	uint32_t *rand_arr; /* random policy: closed native blocks */
	uint32_t rand_n;
	uint32_t n_slc_blocks; /* superblocks currently in SLC mode (dynamic) */

	/* streams and GC */
	struct sim_stream stream[SIM_NSTREAMS];
	uint32_t gc_victim;
	uint32_t gc_scan; /* next program unit of the victim to examine */
	uint32_t gc_pf;   /* units of the victim whose l2p entries were prefetched */
	bool gc_bg; /* the victim was picked by idle-time work: host writes do not pay for it */
	double gc_credit, gc_ratio;
	uint64_t gc_last_t;      /* when the last relocation read delivered its data */
	uint64_t gc_erase_after; /* latest relocation read of the current victim */

	/* write buffer */
	uint64_t *buf_rel; /* per slot: when it is free again */
	uint64_t buf_head;
	uint64_t host_prog_last;           /* latest program end of host data */
	uint64_t commit_start, commit_end; /* the latest sync commit (group commit) */
	uint64_t commits;                  /* sync commits made */

	/* timing */
	struct sim_host host;
	struct sim_die *die;
	struct sim_cal *chan;
	uint64_t die_max_busy;
	uint64_t now;

	/* data=on */
	uint8_t *data;
	size_t data_len;

	struct sim_steady *lazy; /* the implicit mapping of a direct steady state, or NULL */

	struct sim_rng rng;
	struct sim_counters c;
	uint64_t precond_ns_wall; /* wall time spent preconditioning */
	uint64_t precond_host_units;
	double precond_wa;
};

/*
 * Division by a run-time constant without a divide instruction (tens of
 * cycles, and the FTL needs several per unit): q = floor(n * m / 2^64) with
 * m = floor(2^64 / d) + 1 is exact for every 32-bit n when 1 < d < 2^32.
 */
static inline uint64_t sim_magic(uint32_t d)
{
	return d <= 1 ? 0 : UINT64_MAX / d + 1;
}

static inline uint32_t sim_div(uint64_t n, uint64_t magic)
{
	return magic ? (uint32_t)(((unsigned __int128)n * magic) >> 64) : (uint32_t)n;
}

/*
 * l2p is a sparse anonymous mapping, but reading a page of it at random
 * still makes the kernel back it (with a huge page, since the table is
 * advised as one), so random reads of a never-written drive would cost the
 * whole table.  Reads therefore consult a bit per region (2 MiB of entries)
 * first: a region never written holds no mapping and is not read.
 */
#define SIM_L2P_REGION_SHIFT 19

static inline bool sim_l2p_live(const struct sim_dev *d, uint64_t lpn)
{
	uint64_t r = lpn >> SIM_L2P_REGION_SHIFT;

	return d->l2p_live[r >> 6] >> (r & 63) & 1;
}

uint32_t sim_steady_home(const struct sim_dev *d, uint64_t lpn) __attribute__((pure));

/*
 * Stored entries are physical unit + 1.  0 is "never written": unmapped on a
 * fresh drive, and on a drive set up in steady state directly (steady.c) the
 * unit's implicit home, which a formula gives; UINT32_MAX is unmapped there
 * (trimmed).  Both rare cases cost one well-predicted branch.
 */
/** Physical unit of user unit @lpn, SIM_NONE when unmapped. */
static inline uint32_t sim_l2p(const struct sim_dev *d, uint64_t lpn)
{
	uint32_t v = sim_l2p_live(d, lpn) ? d->l2p[lpn] : 0;

	if (__builtin_expect(v - 1u >= SIM_NONE - 1u, 0))
		return !v && d->lazy ? sim_steady_home(d, lpn) : SIM_NONE;
	return v - 1;
}

/** Map user unit @lpn to physical unit @phys. */
static inline void sim_l2p_set(struct sim_dev *d, uint64_t lpn, uint32_t phys)
{
	uint64_t r = lpn >> SIM_L2P_REGION_SHIFT;

	d->l2p_live[r >> 6] |= 1ull << (r & 63);
	d->l2p[lpn] = phys + 1;
}

/** Unmap user unit @lpn. */
static inline void sim_l2p_unmap(struct sim_dev *d, uint64_t lpn)
{
	sim_l2p_set(d, lpn, d->lazy ? SIM_NONE - 1 : SIM_NONE);
}

/**
 * User unit stored in physical unit @phys, SIM_NONE when it holds no valid
 * data.  Validity is not stored: a unit is valid when the user unit it was
 * written for still maps to it.  So overwriting or trimming a unit writes
 * nothing but its block's valid count, and the host path touches one random
 * table entry (l2p) instead of three.  A unit of a block set up in steady
 * state (p2l built when it became a victim) is valid while its user unit was
 * never written since: then it is still at its implicit home, this unit.
 */
static inline uint32_t sim_p2l(const struct sim_dev *d, uint64_t phys)
{
	uint32_t l = d->p2l[phys], v;

	if (!l)
		return SIM_NONE;
	v = d->l2p[l - 1]; /* a region never written reads as zeroes */
	if (v == phys + 1)
		return l - 1;
	if (!v && d->lazy && d->blk[sim_div(phys, d->g.b_magic)].lazy)
		return l - 1;
	return SIM_NONE;
}

/* profile.c: grow @p's geometry for a user capacity of @cap bytes beyond the
   profile's @cap0, as its scale= says (slc_set: slc_size came from the spec). */
int sim_params_scale(struct sim_params *p, uint64_t cap0, uint64_t cap, bool slc_set, char *msg,
                     size_t msglen);

/* dev.c */
int sim_dev_create(const struct sim_params *p, const struct sim_geo *g, struct sim_dev **out,
                   char *msg, size_t msglen);
void sim_dev_destroy(struct sim_dev *d);
uint64_t sim_dev_read(struct sim_dev *d, uint64_t now, uint64_t off, uint32_t len);
uint64_t sim_dev_write(struct sim_dev *d, uint64_t now, uint64_t off, uint32_t len, bool fua);
uint64_t sim_dev_trim(struct sim_dev *d, uint64_t now, uint64_t off, uint64_t len);
uint64_t sim_dev_flush(struct sim_dev *d, uint64_t now);
/** data=on: copy [@off, +@len) of the store to @buf; unmapped units read as zeroes. */
void sim_dev_data_read(const struct sim_dev *d, void *buf, uint64_t off, uint32_t len);
/** data=on: copy @buf into [@off, +@len) of the store. */
void sim_dev_data_write(struct sim_dev *d, const void *buf, uint64_t off, uint32_t len);
/** data=on: the store's bytes [@a, @b) read as zeroes (whole pages are given back). */
void sim_dev_data_trim(struct sim_dev *d, uint64_t a, uint64_t b);
/** Reset the run counters (the model's state is kept). */
void sim_dev_reset_counters(struct sim_dev *d);

/* host.c */
int sim_host_init(struct sim_dev *d);
void sim_host_free(struct sim_dev *d);
/** Device queue slot: when a command arriving at @now may start. */
uint64_t sim_host_admit(struct sim_dev *d, uint64_t now);
/** Controller processing of one command ready at @t; returns when it is done. */
uint64_t sim_host_cmd(struct sim_dev *d, uint64_t t, bool write);
/** A write acknowledged at @ack leaves the processor busy write_after longer. */
void sim_host_after_write(struct sim_dev *d, uint64_t ack);
/** Move @bytes over the link (@to_dev: host to device) from @ready; returns the end. */
uint64_t sim_host_xfer(struct sim_dev *d, bool to_dev, uint64_t ready, uint64_t bytes);
/** A command admitted earlier completes at @t. */
void sim_host_finish(struct sim_dev *d, uint64_t t);

/* nand.c */
int sim_nand_init(struct sim_dev *d);
void sim_nand_free(struct sim_dev *d);
/**
 * Read @units units of one program unit on @die; returns when the data is in
 * the controller.  @bytes is what crosses the channel (0: the whole units): a
 * page read loads the page register, and the controller clocks out only the
 * columns it needs.
 */
uint64_t sim_nand_read(struct sim_dev *d, uint32_t die, uint64_t ready, uint32_t units,
                       uint64_t bytes, bool slc, bool host);
/** Program one program unit on @die with data ready at @ready; returns the end. */
uint64_t sim_nand_program(struct sim_dev *d, uint32_t die, uint64_t ready, bool slc, bool gc);
/** Erase superblock @blk on every die from @ready. */
void sim_nand_erase(struct sim_dev *d, uint32_t blk, uint64_t ready, bool gc);
/** End of the latest reservation on any die or channel. */
uint64_t sim_nand_busy_end(const struct sim_dev *d);
/**
 * Longest one relocation step can take on otherwise free flash: read of a
 * program unit, its transfer, the transfer into the target die, a native program.
 */
uint64_t sim_nand_reloc_ns(const struct sim_dev *d);

/* ftl.c */
static inline uint32_t sim_blk_cap(const struct sim_dev *d, uint32_t blk)
{
	return d->blk[blk].slc ? d->g.b_slc : d->g.b;
}
/** Superblock of physical unit @phys. */
static inline uint32_t sim_phys_blk(const struct sim_dev *d, uint64_t phys)
{
	return sim_div(phys, d->g.b_magic);
}
void sim_list_init(struct sim_list *l);
void sim_list_push(struct sim_dev *d, struct sim_list *l, uint32_t b);
void sim_list_remove(struct sim_dev *d, struct sim_list *l, uint32_t b);
uint32_t sim_list_pop(struct sim_dev *d, struct sim_list *l);
/** Mark physical unit @phys invalid (its block loses a valid unit). */
void sim_ftl_invalidate(struct sim_dev *d, uint32_t phys);
/** Append user unit @lpn to @stream with data ready at @ready; returns the program end if this unit
 * completed a program unit, else 0. */
uint64_t sim_ftl_append(struct sim_dev *d, int stream, uint32_t lpn, uint64_t ready);
/** Append @n user units in a row (relocation, fill); returns the last program end or 0. */
uint64_t sim_ftl_append_n(struct sim_dev *d, int stream, const uint32_t *lpns, uint32_t n,
                          uint64_t ready);
/** Store one host unit (buffer slot, GC pacing, SLC routing); returns when it is acknowledged. */
uint64_t sim_ftl_host_write(struct sim_dev *d, uint32_t lpn, uint64_t ready);
/** Program the open program unit of @stream now, padding it; returns its end (0 if none open). */
uint64_t sim_ftl_pad(struct sim_dev *d, int stream);
/** Unmap one user unit (TRIM). */
void sim_ftl_trim_unit(struct sim_dev *d, uint32_t lpn);
/** Take a free superblock for @stream; runs GC first when the pool is at its floor. */
uint32_t sim_ftl_alloc(struct sim_dev *d, int stream, bool slc);
/** Put a closed native block into the victim structures of the policy. */
void sim_ftl_close(struct sim_dev *d, uint32_t blk);
/** Check every invariant (tests); returns 0 or a negative errno with @msg. */
int sim_ftl_check(const struct sim_dev *d, char *msg, size_t msglen);

/* gc.c */
void sim_gc_bucket_move(struct sim_dev *d, uint32_t blk, uint32_t from);
void sim_gc_enqueue(struct sim_dev *d, uint32_t blk);
/**
 * Prefetch the l2p entries of the victim's units up to @ahead program units
 * beyond the next one GC will examine (no effect on the model's state).
 */
void sim_gc_prefetch(struct sim_dev *d, uint32_t ahead);
/** Host-write pacing: relocate as much as the current victim's ratio asks. */
void sim_gc_pace(struct sim_dev *d, uint64_t ready);
/** Pick a victim (SLC blocks first when @slc_first); false if none. */
bool sim_gc_pick(struct sim_dev *d, bool slc_first, bool static_too);
/** Relocate the next program unit of the victim that holds valid data; returns units moved. */
uint32_t sim_gc_relocate(struct sim_dev *d, uint64_t ready);
/** The victim has nothing left to relocate (only its erase is left). */
bool sim_gc_drained(const struct sim_dev *d);
/** Erase the drained victim (after its last relocation read) and free it. */
void sim_gc_finish(struct sim_dev *d, uint64_t ready);
/** Relocate the next program unit of the victim, and free it when drained; returns units moved. */
uint32_t sim_gc_step(struct sim_dev *d, uint64_t ready);
/** Run GC until a block is freed (the pool is at its floor). */
void sim_gc_force(struct sim_dev *d, uint64_t ready);
/** Erase superblock @blk and give it back to its pool. */
void sim_gc_release(struct sim_dev *d, uint32_t blk, uint64_t ready);

/* slc.c */
/** Stream a host unit goes to: SIM_STREAM_SLC while the cache has room, else HOST. */
int sim_slc_route(struct sim_dev *d);
/**
 * Background work in the idle time before @now (folding, GC); called at each
 * submit.  Everything it books ends by @now; what does not fit waits for the next gap.
 */
void sim_slc_idle(struct sim_dev *d, uint64_t now);
/** Units the dynamic cache may hold right now. */
uint64_t sim_slc_limit(const struct sim_dev *d);

/* precond.c */
int sim_precond(struct sim_dev *d, char *msg, size_t msglen);

/* steady.c */
/** Set up the steady state directly (state=steady, precondition=analytic). */
int sim_steady_build(struct sim_dev *d, char *msg, size_t msglen);
/**
 * Set up the state a sequential fill leaves (state=full) the same way: 0, a
 * negative errno, or 1 where only writing the fill gives it (nothing changed).
 */
int sim_steady_build_full(struct sim_dev *d);
void sim_steady_free(struct sim_dev *d);
/** Write the p2l entries of implicitly mapped block @blk (before GC reads them). */
void sim_steady_p2l(struct sim_dev *d, uint32_t blk);
/** User unit whose implicit home is @phys, SIM_NONE if none. */
uint32_t sim_steady_at(const struct sim_dev *d, uint64_t phys);

#endif
