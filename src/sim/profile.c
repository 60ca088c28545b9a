/*
 * profile.c - the model's parameters: one table, three sources.
 *
 * Every parameter is one row of sim_keys[] (name, type, field).  The same row
 * parses a line of a profile file ("t_read = 74us") and a spec override
 * (ssd(sx8200pro, t_read=60us)), so a profile can set anything a spec can and
 * the reverse.  Values use raidlab's unit syntax (core/spec.h): sizes with
 * k/m/g (binary) or kB/MB/GB (decimal), rates like 550MB/s, times like 74us,
 * percentages like 7% or 7.
 *
 * Profile files (profiles/NAME.profile) are "key = value" lines; '#' starts a
 * comment; blank lines are ignored.  Besides the parameters, a file has
 * name, aliases (space separated), description and source (repeatable: the
 * public specifications the values come from).  Format and parameters are
 * documented in docs/simulator.md.
 *
 * A name with a '/' (or a NAME.profile file in the current folder) is a
 * path to a profile file, such as those `raidlab profile learn` writes.
 * Where other profiles are found: the directories of core/datadir.h for
 * "profiles" ($RAIDLAB_PROFILES, $RAIDLAB_DATADIR, the installed share
 * folder, the source tree).
 *
 * Geometry: the FTL block is a superblock (one block on every die), so
 * units per superblock b = dies x planes x pages x page / unit.  The spare
 * ratio rho = (physical - user) / user counts the main pool only (a static
 * SLC cache is carved out of the raw flash first).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/datadir.h"
#include "core/params.h"
#include "core/spec.h"
#include "core/suggest.h"
#include "sim/sim.h"

enum sim_ktype {
	KT_ENUM,
	KT_UINT,
	KT_SIZE,
	KT_TIME,
	KT_RATE,
	KT_PCT,
	KT_BOOL,
	KT_U64,
	KT_SLC_SIZE
};

struct sim_key {
	const char *name;
	enum sim_ktype type;
	size_t off;
	const char *const *choices; /* KT_ENUM */
	uint64_t min, max;          /* KT_UINT */
	const char *help;           /* what it sets, for help and the docs */
};

static const char *const iface_names[] = {"sata", "ahci", "nvme", NULL};
static const char *const cell_names[] = {"slc", "mlc", "tlc", "qlc", NULL};
static const char *const gc_names[] = {"greedy", "fifo", "random", NULL};
static const char *const slc_names[] = {"off", "static", "dynamic", NULL};
static const char *const state_names[] = {"fresh", "full", "steady", NULL};
static const char *const precond_names[] = {"analytic", "simulated", NULL};
static const char *const scale_names[] = {"off", "dies", NULL};

#define K(n, t, f, h)                                                                              \
	{                                                                                          \
#n, t, offsetof(struct sim_params, f), NULL, 0, 0, h                               \
	}
#define KE(n, f, c, h)                                                                             \
	{                                                                                          \
#n, KT_ENUM, offsetof(struct sim_params, f), c, 0, 0, h                            \
	}
#define KU(n, f, lo, hi, h)                                                                        \
	{                                                                                          \
#n, KT_UINT, offsetof(struct sim_params, f), NULL, lo, hi, h                       \
	}

static const struct sim_key sim_keys[] = {
    KE(iface, iface, iface_names, "host interface (SATA and AHCI: one queue of 32 commands)"),
    KU(sata_gen, sata_gen, 1, 3, "SATA generation: 1.5, 3 or 6 Gb/s"),
    KU(pcie_gen, pcie_gen, 1, 5, "PCIe generation of the link"),
    KU(pcie_lanes, pcie_lanes, 1, 16, "PCIe lanes of the link"),
    K(link_bw, KT_RATE, link_bw,
      "practical link rate; overrides the one derived from the interface"),
    KU(queues, queues, 1, 65535, "NVMe submission queues"),
    KU(queue_depth, queue_depth, 1, 65536, "NVMe queue depth"),
    K(cmd_time, KT_TIME, cmd_ns, "controller time per command"),
    K(cmd_write_time, KT_TIME, cmd_write_ns,
      "controller time per write command, when it differs from cmd_time"),
    K(write_after, KT_TIME, write_after_ns,
      "controller time per write after it is acknowledged: the next command waits for it, idle "
      "time absorbs it (0: none)"),
    K(merge_after, KT_BOOL, merge_after,
      "a write is acknowledged once its data is in the DRAM buffer; reading the rest of a partly "
      "written unit (the merge) and write_after follow, and the next command waits for them"),
    K(latency, KT_TIME, latency_ns, "fixed latency added to every command"),
    K(sync_commit, KT_TIME, sync_commit_ns,
      "a flush or FUA write: one journal commit after the data (0: none)"),
    K(sync_io, KT_TIME, sync_io_ns, "the commit's extra time per request it covers"),
    K(ctrl_read_bw, KT_RATE, ctrl_read_bw, "controller read data-path limit (0: none)"),
    K(ctrl_write_bw, KT_RATE, ctrl_write_bw, "controller write data-path limit (0: none)"),
    {"cell", KT_ENUM, offsetof(struct sim_params, bits), cell_names, 0, 0,
     "bits per cell of the NAND (sets the SLC-mode ratio)"},
    KU(channels, channels, 1, 64, "flash channels"),
    KU(dies, dies, 1, 64, "dies per channel"),
    KU(planes, planes, 1, 8, "planes per die"),
    K(page, KT_SIZE, page, "flash page size"),
    KU(pages, pages, 1, 65536, "pages per block"),
    KU(blocks, blocks, 1, 1u << 20, "blocks per plane"),
    K(channel_rate, KT_RATE, channel_rate, "transfer rate of one channel"),
    K(t_read, KT_TIME, t_read, "page read time in native mode"),
    K(t_prog, KT_TIME, t_prog, "page program time in native mode (all planes at once)"),
    K(t_erase, KT_TIME, t_erase, "block erase time"),
    K(t_read_slc, KT_TIME, t_read_slc, "page read time in SLC mode"),
    K(t_prog_slc, KT_TIME, t_prog_slc, "page program time in SLC mode"),
    K(t_suspend, KT_TIME, t_suspend, "time to suspend a program or erase for a host read"),
    K(suspend, KT_BOOL, suspend, "host reads suspend programs and erases"),
    K(capacity, KT_SIZE, capacity, "user capacity (the spare area follows from the flash)"),
    KE(scale, scale, scale_names,
       "a capacity above the profile's: refused (off), or the family's larger model with more dies "
       "per channel of the same NAND (dies); a static SLC cache grows with the dies"),
    K(slc_size_max, KT_SIZE, slc_size_max,
      "where a static SLC cache grown by scale=dies stops (0: no cap)"),
    K(op, KT_PCT, op, "spare area, (physical - user) / user, instead of capacity"),
    K(map_unit, KT_SIZE, map_unit, "FTL mapping unit (a power of two, 4k or more)"),
    KE(gc, gc, gc_names, "garbage-collection victim policy"),
    KU(gc_free, gc_free, 0, 1u << 20, "free superblocks below which GC starts (0: automatic)"),
    K(write_buffer, KT_SIZE, write_buffer, "DRAM write buffer"),
    K(trim, KT_BOOL, trim, "discards reach the FTL"),
    K(idle, KT_TIME, idle_ns, "idle time before background folding and GC start (0: never)"),
    KE(slc, slc, slc_names, "SLC cache kind"),
    {"slc_size", KT_SLC_SIZE, offsetof(struct sim_params, slc_size), NULL, 0, 0,
     "SLC cache size (static: its size; dynamic: its most), or a percentage of the capacity"},
    K(logical_block, KT_SIZE, logical_block, "the drive's logical sector size"),
    K(rated_read, KT_RATE, rated_read,
      "the maker's sequential read rating (shown by raidlab profiles)"),
    K(rated_write, KT_RATE, rated_write,
      "the maker's sequential write rating (shown by raidlab profiles)"),
    KU(rated_read_iops, rated_read_iops, 0, 100000000,
       "the maker's random read rating in IOPS (shown by raidlab profiles)"),
    KU(rated_write_iops, rated_write_iops, 0, 100000000,
       "the maker's random write rating in IOPS (shown by raidlab profiles)"),
    KE(state, state, state_names,
       "the drive's state when opened: fresh, full (every block written once) or steady (the "
       "state random overwrites lead to, see precondition=); spec only"),
    K(data, KT_BOOL, data,
      "keep the data written, so it reads back (memory for what is written); spec only"),
    K(seed, KT_U64, seed, "seed of the drive's random choices; spec only"),
    K(precond_writes, KT_U64, precond_writes,
      "state=steady, precondition=simulated: the most settling writes (0: automatic); spec only"),
    KE(precondition, precondition, precond_names,
       "state=full and steady: set up directly (analytic: full as the fill leaves it, steady "
       "from the analytic model of cleaning) or by simulating the writes (simulated: the fill; "
       "random overwrites until write amplification settles); spec only"),
};

#define SIM_NKEYS (sizeof(sim_keys) / sizeof(sim_keys[0]))

const char *const *sim_params_keys(void)
{
	static const char *names[SIM_NKEYS + 1];

	if (!names[0])
		for (size_t i = 0; i < SIM_NKEYS; i++)
			names[i] = sim_keys[i].name;
	return names;
}

const struct rl_param *sim_params_doc(void)
{
	static const enum rl_param_type types[] = {
	    [KT_ENUM] = RL_PARAM_ENUM, [KT_UINT] = RL_PARAM_U64,  [KT_SIZE] = RL_PARAM_SIZE,
	    [KT_TIME] = RL_PARAM_TIME, [KT_RATE] = RL_PARAM_RATE, [KT_PCT] = RL_PARAM_PERCENT,
	    [KT_BOOL] = RL_PARAM_BOOL, [KT_U64] = RL_PARAM_U64,   [KT_SLC_SIZE] = RL_PARAM_SIZE,
	};
	static struct rl_param tab[SIM_NKEYS + 1];

	if (tab[0].name)
		return tab;
	for (size_t i = 0; i < SIM_NKEYS; i++) {
		const struct sim_key *k = &sim_keys[i];
		tab[i] = (struct rl_param){
		    .name = k->name,
		    .type = types[k->type],
		    .def_note = "the profile's",
		    .min = k->min,
		    .max = k->max,
		    .choices = k->choices,
		    .form = k->type == KT_SLC_SIZE ? "SIZE|PCT" : NULL,
		    .help = k->help,
		};
	}
	return tab;
}

void sim_params_default(struct sim_params *p)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "generic");
	snprintf(p->description, sizeof(p->description),
	         "generic NVMe MLC drive (built-in defaults, no profile)");
	p->iface = SIM_IFACE_NVME;
	p->sata_gen = 3;
	p->pcie_gen = 3;
	p->pcie_lanes = 4;
	p->queues = 8;
	p->queue_depth = 1024;
	p->cmd_ns = 2000;
	p->latency_ns = 8000;
	p->bits = 2;
	p->channels = 4;
	p->dies = 2;
	p->planes = 2;
	p->page = 16384;
	p->pages = 256;
	p->blocks = 512;
	p->channel_rate = 400000000;
	p->t_read = 60000;
	p->t_prog = 900000;
	p->t_erase = 3000000;
	p->t_read_slc = 30000;
	p->t_prog_slc = 250000;
	p->t_suspend = 20000;
	p->suspend = true;
	p->capacity = 0; /* from op */
	p->op = 7.0;
	p->map_unit = 4096;
	p->gc = SIM_GC_GREEDY;
	p->write_buffer = 8u << 20;
	p->trim = true;
	p->idle_ns = 1000000;
	p->slc = SIM_SLC_OFF;
	p->slc_pct = -1;
	p->logical_block = 512;
	p->state = SIM_STATE_FRESH;
	p->seed = 1;
}

static int parse_pct(const char *v, double *out)
{
	char *end;
	double d = strtod(v, &end);

	while (isspace((unsigned char)*end))
		end++;
	if (*end == '%')
		end++;
	while (isspace((unsigned char)*end))
		end++;
	if (end == v || *end || !isfinite(d) || d < 0)
		return -EINVAL;
	*out = d;
	return 0;
}

int sim_params_set(struct sim_params *p, const char *key, const char *value, char *msg,
                   size_t msglen)
{
	const struct sim_key *k = NULL;
	char why[256] = "";
	void *f;
	int rc = 0;

	for (size_t i = 0; i < SIM_NKEYS; i++)
		if (!strcmp(sim_keys[i].name, key))
			k = &sim_keys[i];
	if (!k) {
		snprintf(msg, msglen, "unknown parameter '%s'", key);
		return -EINVAL;
	}
	f = (char *)p + k->off;
	switch (k->type) {
	case KT_ENUM:
		for (int i = 0; k->choices[i]; i++)
			if (!strcmp(k->choices[i], value)) {
				if (k->choices == cell_names)
					*(unsigned *)f = (unsigned)i + 1; /* bits per cell */
				else
					*(int *)f = i;
				return 0;
			}
		snprintf(msg, msglen, "%s must be one of", key);
		for (int i = 0; k->choices[i]; i++) {
			size_t l = strlen(msg);
			snprintf(msg + l, msglen - l, "%s %s", i ? "," : "", k->choices[i]);
		}
		return -EINVAL;
	case KT_UINT: {
		uint64_t v;
		rc = rl_parse_u64(value, &v, why, sizeof(why));
		if (rc || v < k->min || v > k->max) {
			snprintf(msg, msglen, "%s must be an integer from %llu to %llu", key,
			         (unsigned long long)k->min, (unsigned long long)k->max);
			return -EINVAL;
		}
		*(unsigned *)f = (unsigned)v;
		return 0;
	}
	case KT_U64:
		rc = rl_parse_u64(value, (uint64_t *)f, why, sizeof(why));
		break;
	case KT_SIZE:
		rc = rl_parse_size(value, (uint64_t *)f, why, sizeof(why));
		break;
	case KT_TIME:
		rc = rl_parse_time(value, (uint64_t *)f, why, sizeof(why));
		break;
	case KT_RATE:
		rc = rl_parse_rate(value, (uint64_t *)f, why, sizeof(why));
		break;
	case KT_BOOL:
		rc = rl_parse_bool(value, (bool *)f, why, sizeof(why));
		break;
	case KT_PCT:
		if (parse_pct(value, (double *)f)) {
			snprintf(msg, msglen, "%s must be a percentage like 7%% or 28", key);
			return -EINVAL;
		}
		return 0;
	case KT_SLC_SIZE:
		if (strchr(value, '%')) {
			if (parse_pct(value, &p->slc_pct) || p->slc_pct > 100) {
				snprintf(msg, msglen, "slc_size must be a size or a percentage");
				return -EINVAL;
			}
			p->slc_size = 0;
			return 0;
		}
		rc = rl_parse_size(value, &p->slc_size, why, sizeof(why));
		if (!rc)
			p->slc_pct = -1;
		break;
	}
	if (rc) {
		snprintf(msg, msglen, "%s: %s", key, why);
		return -EINVAL;
	}
	return 0;
}

/* ---------------------------------------------------------------- files */

static char *trim_ws(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

/* Parse one profile file into @p (over what is there). */
static int profile_parse(const char *path, struct sim_params *p, char *msg, size_t msglen)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	unsigned lineno = 0;

	if (!f) {
		snprintf(msg, msglen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	char *real = realpath(path, NULL);
	snprintf(p->path, sizeof(p->path), "%s", real ? real : path);
	free(real);
	while (fgets(line, sizeof(line), f)) {
		char *hash, *eq, *key, *val, why[300];
		lineno++;
		hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		key = trim_ws(line);
		if (!*key)
			continue;
		eq = strchr(key, '=');
		if (!eq) {
			snprintf(msg, msglen, "%s:%u: expected key = value", path, lineno);
			fclose(f);
			return -EINVAL;
		}
		*eq = 0;
		val = trim_ws(eq + 1);
		key = trim_ws(key);
		if (!strcmp(key, "name"))
			snprintf(p->name, sizeof(p->name), "%s", val);
		else if (!strcmp(key, "aliases"))
			snprintf(p->aliases, sizeof(p->aliases), "%s", val);
		else if (!strcmp(key, "description"))
			snprintf(p->description, sizeof(p->description), "%s", val);
		else if (!strcmp(key, "source")) {
			if (p->nsources < SIM_SOURCES_MAX)
				snprintf(p->sources[p->nsources++], sizeof(p->sources[0]), "%s",
				         val);
		} else if (sim_params_set(p, key, val, why, sizeof(why))) {
			snprintf(msg, msglen, "%s:%u: %s", path, lineno, why);
			fclose(f);
			return -EINVAL;
		}
	}
	fclose(f);
	return 0;
}

const char *const *sim_profile_dirs(void)
{
	static char store[RL_DATA_DIRS_MAX][PATH_MAX];
	static const char *dirs[RL_DATA_DIRS_MAX + 1];
	size_t n = rl_data_dirs("profiles", "RAIDLAB_PROFILES", store);

	for (size_t i = 0; i < n; i++)
		dirs[i] = store[i];
	dirs[n] = NULL;
	return dirs;
}

static bool has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a > b && !strcmp(s + a - b, suf);
}

static int profile_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted *.profile file names of one directory (caller frees). */
static int profile_list_dir(const char *dir, char ***out)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	int n = 0;

	*out = NULL;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (!has_suffix(de->d_name, ".profile"))
			continue;
		char **nv = realloc(v, (size_t)(n + 1) * sizeof(*v));
		if (!nv)
			break;
		v = nv;
		v[n] = strdup(de->d_name);
		if (v[n])
			n++;
	}
	closedir(d);
	if (n)
		qsort(v, (size_t)n, sizeof(*v), profile_cmp);
	*out = v;
	return n;
}

/* sim_profile_each's callback: collect the names. */
static void profile_name_add(const struct sim_params *p, void *arg)
{
	rl_names_add(arg, p->name);
}

/*
 * "no drive profile 'X' (profiles: nearest, ...)": the profiles that exist,
 * nearest to the name first; the folders searched only when there are none.
 */
static void profile_not_found(const char *name, const char *const *dirs, char *msg, size_t msglen)
{
	struct rl_names pn = {.n = 0};
	char list[512];

	sim_profile_each(profile_name_add, &pn);
	if (pn.n) {
		snprintf(msg, msglen,
		         "no drive profile '%s' (profiles: %s; raidlab profiles describes them)",
		         name, rl_suggest_list(name, pn.v, pn.n, list, sizeof(list)));
		return;
	}
	snprintf(msg, msglen, "no drive profile '%s' and no profiles found (looked in", name);
	for (unsigned i = 0; dirs[i]; i++) {
		size_t l = strlen(msg);
		snprintf(msg + l, msglen - l, "%s %s", i ? "," : "", dirs[i]);
	}
	size_t l = strlen(msg);
	snprintf(msg + l, msglen - l, "; set RAIDLAB_PROFILES to a profiles directory)");
}

int sim_profile_load(const char *name, struct sim_params *p, char *msg, size_t msglen)
{
	const char *const *dirs = sim_profile_dirs();
	char path[PATH_MAX + 64];
	struct sim_params base = *p;

	/* a path: anything with a '/', or a NAME.profile file in the current folder */
	if (strchr(name, '/') || (has_suffix(name, ".profile") && access(name, R_OK) == 0))
		return profile_parse(name, p, msg, msglen);
	/* by file name first, then by name or alias inside the files */
	for (unsigned i = 0; dirs[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s.profile", dirs[i], name);
		if (access(path, R_OK) == 0)
			return profile_parse(path, p, msg, msglen);
	}
	for (unsigned i = 0; dirs[i]; i++) {
		char **files;
		int n = profile_list_dir(dirs[i], &files);
		int found = 0;
		for (int j = 0; j < n; j++) {
			if (!found) {
				struct sim_params q = base;
				char why[512];
				snprintf(path, sizeof(path), "%s/%s", dirs[i], files[j]);
				if (!profile_parse(path, &q, why, sizeof(why)) &&
				    rl_data_name_matches(q.name, q.aliases, name)) {
					*p = q;
					found = 1;
				}
			}
			free(files[j]);
		}
		free(files);
		if (found)
			return 0;
	}
	profile_not_found(name, dirs, msg, msglen);
	return -ENOENT;
}

int sim_profile_each(void (*fn)(const struct sim_params *p, void *arg), void *arg)
{
	const char *const *dirs = sim_profile_dirs();
	char seen[64][64];
	int nseen = 0;

	for (unsigned i = 0; dirs[i]; i++) {
		char **files;
		int n = profile_list_dir(dirs[i], &files);
		for (int j = 0; j < n; j++) {
			struct sim_params q;
			char path[PATH_MAX + 64], why[512];
			bool dup = false;
			sim_params_default(&q);
			snprintf(path, sizeof(path), "%s/%s", dirs[i], files[j]);
			free(files[j]);
			if (profile_parse(path, &q, why, sizeof(why)))
				continue;
			for (int k = 0; k < nseen; k++)
				dup |= !strcmp(seen[k], q.name);
			if (dup || nseen == 64)
				continue;
			snprintf(seen[nseen++], sizeof(seen[0]), "%s", q.name);
			fn(&q, arg);
		}
		free(files);
	}
	return nseen;
}

/* ------------------------------------------------------------- geometry */

static uint64_t link_bw_of(const struct sim_params *p)
{
	static const double pcie_lane[] = {0, 250e6, 500e6, 984.6e6, 1969e6, 3938e6};

	if (p->link_bw)
		return p->link_bw;
	if (p->iface == SIM_IFACE_SATA) {
		/* 8b/10b line coding, then ~92% for FIS framing and handshakes */
		double raw = p->sata_gen == 1 ? 150e6 : p->sata_gen == 2 ? 300e6 : 600e6;
		return (uint64_t)(raw * 0.92);
	}
	/* PCIe after line coding, then ~89% for TLP/DLLP overhead */
	return (uint64_t)(pcie_lane[p->pcie_gen] * p->pcie_lanes * 0.89);
}

/* Units per superblock and program unit for @p's geometry (unit checks done by the caller). */
static void geo_units(const struct sim_params *p, uint32_t *b, uint32_t *pu, uint32_t *prog_k)
{
	uint64_t pp = (uint64_t)p->planes * p->page; /* bytes per die program */
	uint64_t ndies = (uint64_t)p->channels * p->dies;

	if (p->map_unit <= pp) {
		*pu = (uint32_t)(pp / p->map_unit);
		*prog_k = 1;
		*b = (uint32_t)(ndies * p->pages * *pu);
	} else {
		*pu = 1;
		*prog_k = (uint32_t)(p->map_unit / pp);
		*b = (uint32_t)(ndies * p->pages / *prog_k);
	}
}

static uint32_t geo_static_blocks(const struct sim_params *p, uint32_t b, uint64_t capacity)
{
	uint64_t slc_bytes;
	uint32_t b_slc;

	if (p->slc != SIM_SLC_STATIC)
		return 0;
	slc_bytes = p->slc_pct >= 0 ? (uint64_t)(capacity * p->slc_pct / 100.0) : p->slc_size;
	b_slc = b / p->bits;
	if (!b_slc)
		return 0;
	return (uint32_t)((slc_bytes / p->map_unit + b_slc - 1) / b_slc);
}

double sim_params_rho(const struct sim_params *p)
{
	uint32_t b, pu, k;

	if (p->op >= 0 && !p->capacity)
		return p->op / 100.0;
	if (!p->map_unit || !p->capacity || !p->planes || !p->page)
		return 0.07;
	geo_units(p, &b, &pu, &k);
	uint64_t nb = p->blocks - geo_static_blocks(p, b, p->capacity);
	double phys = (double)nb * b * p->map_unit;
	return phys / (double)p->capacity - 1.0;
}

/*
 * A family's larger models (a capacity= above the profile's own) carry more
 * dies of the same NAND behind the same controller, so with scale=dies the
 * dies per channel grow by the capacity's ratio (rounded up); the raw flash
 * and the spare follow from the geometry, as for any capacity=.  A static
 * SLC cache grows with the dies (Samsung's TurboWrite: 3, 6 and 12 GB on
 * 16, 32 and 64 dies) up to slc_size_max, unless the spec set slc_size.
 * A capacity at or below the profile's keeps the geometry: smaller test
 * drives are made with blocks= as before.
 */
int sim_params_scale(struct sim_params *p, uint64_t cap0, uint64_t cap, bool slc_set, char *msg,
                     size_t msglen)
{
	double f;
	uint64_t dies;

	if (p->scale != SIM_SCALE_DIES || !cap0 || cap <= cap0)
		return 0;
	f = (double)cap / (double)cap0;
	dies = (uint64_t)ceil(p->dies * f - 1e-9);
	if (dies > 64) {
		snprintf(
		    msg, msglen,
		    "capacity %llu bytes needs %llu dies per channel (the model has at most 64)",
		    (unsigned long long)cap, (unsigned long long)dies);
		return -EINVAL;
	}
	if (p->slc == SIM_SLC_STATIC && !slc_set && p->slc_pct < 0) {
		uint64_t grown = (uint64_t)((double)p->slc_size * (double)dies / p->dies);
		p->slc_size = p->slc_size_max && grown > p->slc_size_max
		                  ? (p->slc_size > p->slc_size_max ? p->slc_size : p->slc_size_max)
		                  : grown;
	}
	p->dies = (unsigned)dies;
	return 0;
}

int sim_geo_derive(const struct sim_params *p, double rho_profile, bool op_set, bool cap_set,
                   struct sim_geo *g, char *msg, size_t msglen)
{
	uint64_t pp = (uint64_t)p->planes * p->page;
	uint64_t ndies = (uint64_t)p->channels * p->dies;
	uint64_t b64;

	memset(g, 0, sizeof(*g));
	if (p->map_unit < 4096 || (p->map_unit & (p->map_unit - 1))) {
		snprintf(msg, msglen, "map_unit must be a power of two of at least 4k");
		return -EINVAL;
	}
	if (p->page < 512 || (p->page & (p->page - 1))) {
		snprintf(msg, msglen, "page must be a power of two of at least 512");
		return -EINVAL;
	}
	if (p->map_unit <= pp ? pp % p->map_unit : p->map_unit % pp) {
		snprintf(msg, msglen, "map_unit and planes x page must divide one another");
		return -EINVAL;
	}
	if (p->logical_block < 512 || p->logical_block > p->map_unit ||
	    (p->logical_block & (p->logical_block - 1))) {
		snprintf(msg, msglen, "logical_block must be a power of two from 512 to map_unit");
		return -EINVAL;
	}
	if (!p->channel_rate || !p->t_read || !p->t_prog || !p->bits) {
		snprintf(msg, msglen, "channel_rate, t_read, t_prog and cell must be set");
		return -EINVAL;
	}
	g->unit = (uint32_t)p->map_unit;
	g->unit_shift = (uint32_t)__builtin_ctzll(p->map_unit);
	geo_units(p, &g->b, &g->pu, &g->prog_k);
	if (p->map_unit > pp && (p->pages % g->prog_k)) {
		snprintf(msg, msglen, "pages must be a multiple of map_unit / (planes x page)");
		return -EINVAL;
	}
	if (p->planes & (p->planes - 1)) {
		snprintf(msg, msglen, "planes must be a power of two");
		return -EINVAL;
	}
	if (g->pu > SIM_PU_MAX) {
		snprintf(msg, msglen, "planes x page / map_unit must be at most %d", SIM_PU_MAX);
		return -EINVAL;
	}
	b64 = ndies * p->pages * (uint64_t)g->pu / g->prog_k;
	g->pu_shift = (uint32_t)__builtin_ctz(g->pu);
	g->nch = p->channels;
	g->ndies = (uint32_t)ndies;
	g->b_slc = (uint32_t)(ndies * (p->pages / p->bits) * (uint64_t)g->pu / g->prog_k);
	if (p->slc != SIM_SLC_OFF && (p->bits < 2 || !g->b_slc)) {
		snprintf(msg, msglen, "an SLC cache needs multi-bit cells and pages >= cell bits");
		return -EINVAL;
	}
	g->nblocks = p->blocks;
	if ((uint64_t)g->nblocks * b64 >= UINT32_MAX) {
		snprintf(msg, msglen,
		         "drive too large: more than 2^32 mapping units (raise map_unit)");
		return -EINVAL;
	}

	/* spare ratio and user capacity */
	double rho = rho_profile;
	uint64_t cap = p->capacity;
	if (op_set)
		rho = p->op / 100.0;
	if (!op_set && !cap_set && p->capacity) {
		/* a scaled geometry keeps the profile's spare ratio */
		uint64_t nst = geo_static_blocks(p, g->b, p->capacity);
		double phys = (double)(g->nblocks - (nst < g->nblocks ? nst : 0)) * g->b * g->unit;
		if (fabs(phys / (1.0 + rho) - (double)p->capacity) > 0.001 * (double)p->capacity)
			cap = 0; /* geometry changed: recompute from rho */
	}
	if (op_set)
		cap = 0;
	/* the static cache depends on capacity; two passes settle it */
	for (int pass = 0; pass < 2; pass++) {
		uint64_t cap_est =
		    cap ? cap : (uint64_t)((double)g->nblocks * g->b * g->unit / (1.0 + rho));
		g->nstatic = geo_static_blocks(p, g->b, cap_est);
		if (g->nstatic >= g->nblocks) {
			snprintf(msg, msglen, "the static SLC cache takes every block");
			return -EINVAL;
		}
		g->T = (uint64_t)(g->nblocks - g->nstatic) * g->b;
		if (cap)
			g->U = cap / g->unit;
		else
			g->U = (uint64_t)((double)g->T / (1.0 + rho));
	}
	g->gc_thresh = p->gc_free ? p->gc_free : (g->nblocks / 100 > 4 ? g->nblocks / 100 : 4);
	if (g->gc_thresh < 2)
		g->gc_thresh = 2;
	g->gc_hard = 1;
	if (!g->U || g->U + (uint64_t)(g->gc_thresh + 2) * g->b > g->T) {
		snprintf(
		    msg, msglen,
		    "not enough spare area: %llu user units need at least %u spare superblocks "
		    "of %u units (physical %llu)",
		    (unsigned long long)g->U, g->gc_thresh + 2, g->b, (unsigned long long)g->T);
		return -EINVAL;
	}
	g->rho = (double)(g->T - g->U) / (double)g->U;
	if (p->slc == SIM_SLC_DYNAMIC)
		g->slc_units = p->slc_pct >= 0 ? (uint64_t)((double)g->U * p->slc_pct / 100.0)
		                               : p->slc_size / g->unit;
	else if (p->slc == SIM_SLC_STATIC)
		g->slc_units = (uint64_t)g->nstatic * g->b_slc;
	g->nslots = (uint32_t)(p->write_buffer / g->unit);
	if (g->nslots < 4 * g->pu)
		g->nslots = 4 * g->pu;
	while (g->nslots & (g->nslots - 1)) /* a power of two: the ring index is a mask */
		g->nslots &= g->nslots - 1;
	g->b_magic = sim_magic(g->b);
	g->ppb_magic = sim_magic(g->b / g->pu);
	g->link_bw = link_bw_of(p);
	if (p->iface == SIM_IFACE_NVME) {
		uint64_t qd = (uint64_t)p->queues * p->queue_depth;
		g->qd = qd > 65536 ? 65536 : (uint32_t)qd;
	} else {
		g->qd = 32;
	}
	return 0;
}
