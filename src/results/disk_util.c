/*
 * disk_util.c - fio's disk statistics from /proc/diskstats (disk_util.h).
 *
 * A file's device is the st_dev of the file (or of its folder when the file
 * is not there yet); /sys/dev/block/MAJ:MIN names it, and a partition is
 * replaced by its disk, as fio reports the disk.  Devices with major 0
 * (tmpfs, overlay) have no counters and are left out.  util is io_ticks
 * (ms the device had requests in flight) over the wall time from the start
 * to the reading reported, as fio computes it.
 *
 * fio's helper thread reads the counters every 250 ms, and only while a
 * job has the device's files open: the report is the last reading taken
 * before the jobs closed them, so a short run reports zeros and a longer
 * one leaves out its last fraction of a tick.  Where the ticks fall is
 * fio's too: its counters start when the job is created, and the job's
 * I/O only after run_threads() has slept 100 ms waiting for the job to say
 * it is set up (its do_usleep(100000) before the first look), so the first
 * tick comes about 150 ms into the jobs' work and the wall time util is
 * taken over includes those 100 ms.  Here the jobs start at once, so the
 * start is dated DISK_UTIL_START_WAIT_MS back (measured with fio 3.33 on a
 * 1 s run: the left-out tail was 87-127 ms, a start 86-126 ms before the
 * job's I/O).  The sampler is fio's helper thread: it wakes on
 * CLOCK_MONOTONIC at each multiple of 250 ms after that start, reads every
 * device (st_disk_util_tick) on a copy of its own and publishes the copy's
 * readings under its lock; the run stops it when its jobs are done.
 *
 * A device built on others (md, dm: /sys/block/NAME/slaves lists them) brings
 * its members in after it, as fio does, and its line ends with the members'
 * means (aggrios, aggrmerge, aggrticks, aggrin_queue; integer division as
 * fio's) and the busiest member's util (aggrutil).  The paths of /sys and
 * /proc/diskstats are parameters of the scan (st_disk_util_add_disk), so a
 * unit test can give it a tree of its own.
 */
#include <dirent.h>
#include <errno.h>
#include <json-c/json.h>
#include <libgen.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/exec.h"
#include "core/lock.h"
#include "results/disk_util.h"

#define DISK_UTIL_SAMPLE_MS     250.0 /* fio's DISK_UTIL_MSEC */
#define DISK_UTIL_START_WAIT_MS 100   /* fio's wait for a created job to be set up */

/* The kernel's name of the disk holding device @dev (its parent if a partition). */
static int disk_util_name(dev_t dev, char *name, size_t len)
{
	char link[128], target[512], part[160];
	ssize_t n;

	if (!major(dev))
		return -1;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return -1;
	target[n] = 0;
	snprintf(part, sizeof(part), "%s/partition", link);
	if (!access(part, F_OK)) {
		char *slash = strrchr(target, '/');
		if (!slash)
			return -1;
		*slash = 0; /* the partition's folder sits in its disk's */
	}
	snprintf(name, len, "%s", basename(target));
	return 0;
}

/* The counters of disk @name; 0, or -1 if /proc/diskstats has no such line. */
static int disk_util_read(const char *diskstats, const char *name, uint64_t v[ST_DS_N])
{
	FILE *f = fopen(diskstats, "r");
	char line[512], dev[64];
	unsigned ma, mi;
	int rc = -1;

	if (!f)
		return -1;
	while (rc && fgets(line, sizeof(line), f)) {
		unsigned long long c[ST_DS_N];
		if (sscanf(line,
		           "%u %u %63s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &ma,
		           &mi, dev, &c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7], &c[8],
		           &c[9], &c[10]) != 3 + ST_DS_N ||
		    strcmp(dev, name))
			continue;
		for (int i = 0; i < ST_DS_N; i++)
			v[i] = c[i];
		rc = 0;
	}
	fclose(f);
	return rc;
}

/* The index of device @name, or u->n when it is not there. */
static size_t disk_util_find(const struct st_disk_util *u, const char *name)
{
	size_t i;

	for (i = 0; i < u->n; i++)
		if (!strcmp(u->dev[i].name, name))
			break;
	return i;
}

/* Add device @name with master @master (SIZE_MAX: none); its index, or u->n. */
static size_t disk_util_push(struct st_disk_util *u, const char *diskstats, const char *name,
                             size_t master)
{
	size_t i = disk_util_find(u, name);

	if (i < u->n || u->n == ST_DISK_UTIL_MAX ||
	    disk_util_read(diskstats, name, u->dev[u->n].start))
		return i < u->n ? i : u->n;
	memset(u->dev[u->n].delta, 0, sizeof(u->dev[u->n].delta));
	memcpy(u->dev[u->n].tick, u->dev[u->n].start, sizeof(u->dev[u->n].tick));
	snprintf(u->dev[u->n].name, sizeof(u->dev[u->n].name), "%s", name);
	u->dev[u->n].master = master;
	u->dev[u->n].nslaves = 0;
	return u->n++;
}

void st_disk_util_add_disk(struct st_disk_util *u, const char *sys, const char *diskstats,
                           const char *name)
{
	char dir[512];
	struct dirent *e;
	DIR *d;
	size_t m;

	if (disk_util_find(u, name) < u->n)
		return;
	m = disk_util_push(u, diskstats, name, SIZE_MAX);
	if (m == u->n)
		return;
	snprintf(dir, sizeof(dir), "%s/block/%s/slaves", sys, name);
	if (!(d = opendir(dir)))
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		size_t s = disk_util_push(u, diskstats, e->d_name, m);
		if (s < u->n && u->dev[s].master == m)
			u->dev[m].nslaves++;
	}
	closedir(d);
}

/* Add the disk under @path (a file, its folder, or a block device). */
static void disk_util_add_path(struct st_disk_util *u, const char *path)
{
	struct stat st;
	char name[64], dir[4096];

	if (stat(path, &st)) {
		snprintf(dir, sizeof(dir), "%s", path);
		if (stat(dirname(dir), &st))
			return;
	}
	if (disk_util_name(S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev, name, sizeof(name)))
		return;
	st_disk_util_add_disk(u, "/sys", "/proc/diskstats", name);
}

/* Every "path" of a file leaf in a target tree (rl_target_tree). */
static void disk_util_walk(struct st_disk_util *u, struct json_object *node)
{
	struct json_object *v;

	if (json_object_object_get_ex(node, "path", &v))
		disk_util_add_path(u, json_object_get_string(v));
	if (json_object_object_get_ex(node, "children", &v))
		for (size_t i = 0; i < json_object_array_length(v); i++)
			disk_util_walk(u, json_object_array_get_idx(v, i));
}

void st_disk_util_begin(struct st_disk_util *u, struct rl_target *const *targets, size_t n)
{
	memset(u, 0, sizeof(*u));
	for (size_t i = 0; i < n; i++) {
		struct json_object *tree = targets[i] ? rl_target_tree(targets[i]) : NULL;
		if (tree)
			disk_util_walk(u, tree);
		json_object_put(tree);
	}
	/* fio's counters start 100 ms before its jobs do (the top) */
	u->t0_ns = rl_exec_wall_now() - DISK_UTIL_START_WAIT_MS * 1000000ull;
}

void st_disk_util_tick(struct st_disk_util *u, const char *diskstats, double ms)
{
	for (size_t i = 0; i < u->n; i++) {
		uint64_t now[ST_DS_N];
		if (!disk_util_read(diskstats, u->dev[i].name, now))
			memcpy(u->dev[i].tick, now, sizeof(now));
	}
	u->tick_ms = ms;
	u->ticks++;
}

/* The differences at the latest reading (zeros before the first). */
static void disk_util_report(struct st_disk_util *u)
{
	for (size_t i = 0; i < u->n; i++) {
		for (int k = 0; k < ST_DS_N; k++) {
			uint64_t a = u->dev[i].start[k], b = u->ticks ? u->dev[i].tick[k] : a;
			u->dev[i].delta[k] = b >= a ? b - a : 0;
		}
		double ms = u->tick_ms;
		double busy = ms > 0 ? 100.0 * (double)u->dev[i].delta[ST_DS_IOTICKS] / ms : 0;
		u->dev[i].util = busy > 100 ? 100 : busy;
	}
}

void st_disk_util_end_at(struct st_disk_util *u, const char *diskstats, double ms)
{
	if (ms >= DISK_UTIL_SAMPLE_MS)
		st_disk_util_tick(u, diskstats, ms);
	disk_util_report(u);
}

/*
 * The sampler.  stop and pub live under lock (clang reads a field's
 * guarded_by only in C++, so that rule stays here, as in cache/lock.h);
 * work is the thread's alone.
 */
struct st_du_sampler {
	pthread_t thread;
	pthread_cond_t wake; /* stop was set */
	struct rl_mutex lock;
	bool stop;                /* under lock */
	struct st_disk_util pub;  /* under lock: the latest reading, published */
	struct st_disk_util work; /* the thread's own copy */
};

static void *disk_util_sampler(void *arg)
{
	struct st_du_sampler *s = arg;
	const uint64_t period = (uint64_t)(DISK_UTIL_SAMPLE_MS * 1e6);
	uint64_t due = s->work.t0_ns + period;

	for (;;) {
		struct timespec ts = {.tv_sec = (time_t)(due / 1000000000ull),
		                      .tv_nsec = (long)(due % 1000000000ull)};
		bool stop;
		rl_mutex_lock(&s->lock);
		while (!s->stop && rl_exec_wall_now() < due &&
		       pthread_cond_timedwait(&s->wake, &s->lock.m, &ts) != ETIMEDOUT)
			;
		stop = s->stop;
		rl_mutex_unlock(&s->lock);
		uint64_t now = rl_exec_wall_now();
		if (stop)
			break;
		if (now < due)
			continue; /* woken early: wait for the same tick */
		st_disk_util_tick(&s->work, "/proc/diskstats", (double)(now - s->work.t0_ns) / 1e6);
		rl_mutex_lock(&s->lock);
		s->pub = s->work;
		rl_mutex_unlock(&s->lock);
		/* the next multiple of the period (a late wake skips the ticks it missed) */
		due = s->work.t0_ns + ((now - s->work.t0_ns) / period + 1) * period;
	}
	return NULL;
}

int st_disk_util_sample_start(struct st_disk_util *u)
{
	pthread_condattr_t ca;
	struct st_du_sampler *s;
	int rc;

	if (!u->n || u->sampler)
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->work = *u;
	s->work.sampler = NULL;
	s->pub = s->work;
	rl_mutex_init(&s->lock);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->wake, &ca);
	pthread_condattr_destroy(&ca);
	rc = pthread_create(&s->thread, NULL, disk_util_sampler, s);
	if (rc) {
		pthread_cond_destroy(&s->wake);
		rl_mutex_destroy(&s->lock);
		free(s);
		return -rc;
	}
	u->sampler = s;
	u->sampled = true;
	return 0;
}

/* @u's readings from its sampler's latest. */
static void disk_util_from_sampler(struct st_disk_util *u, struct st_du_sampler *s)
{
	rl_mutex_lock(&s->lock);
	for (size_t i = 0; i < u->n && i < s->pub.n; i++)
		memcpy(u->dev[i].tick, s->pub.dev[i].tick, sizeof(u->dev[i].tick));
	u->ticks = s->pub.ticks;
	u->tick_ms = s->pub.tick_ms;
	rl_mutex_unlock(&s->lock);
}

void st_disk_util_sample_stop(struct st_disk_util *u)
{
	struct st_du_sampler *s = u->sampler;

	if (!s)
		return;
	rl_mutex_lock(&s->lock);
	s->stop = true;
	pthread_cond_signal(&s->wake);
	rl_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	disk_util_from_sampler(u, s);
	pthread_cond_destroy(&s->wake);
	rl_mutex_destroy(&s->lock);
	free(s);
	u->sampler = NULL;
}

void st_disk_util_end(struct st_disk_util *u)
{
	if (u->sampler)
		disk_util_from_sampler(u, u->sampler);
	if (u->sampled || u->ticks) /* sampled with no reading while the jobs ran: zeros */
		disk_util_report(u);
	else
		st_disk_util_end_at(u, "/proc/diskstats",
		                    (double)(rl_exec_wall_now() - u->t0_ns) / 1e6);
}

/* The means of @m's members (fio's integer division) and their highest util. */
static void disk_util_agg(const struct st_disk_util *u, size_t m, uint64_t agg[ST_DS_N],
                          double *util)
{
	memset(agg, 0, ST_DS_N * sizeof(*agg));
	*util = 0;
	for (size_t i = 0; i < u->n; i++) {
		if (u->dev[i].master != m)
			continue;
		for (int k = 0; k < ST_DS_N; k++)
			agg[k] += u->dev[i].delta[k];
		if (u->dev[i].util > *util)
			*util = u->dev[i].util;
	}
	for (int k = 0; k < ST_DS_N; k++)
		agg[k] /= u->dev[m].nslaves;
}

struct json_object *st_disk_util_json(const struct st_disk_util *u)
{
	static const struct {
		const char *key;
		int field;
	} keys[] = {{"read_ios", ST_DS_RIOS},      {"write_ios", ST_DS_WIOS},
	            {"read_merges", ST_DS_RMERGE}, {"write_merges", ST_DS_WMERGE},
	            {"read_ticks", ST_DS_RTICKS},  {"write_ticks", ST_DS_WTICKS},
	            {"in_queue", ST_DS_QUEUE}};
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; u && i < u->n; i++) {
		struct json_object *d = json_object_new_object();
		json_object_object_add(d, "name", json_object_new_string(u->dev[i].name));
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			json_object_object_add(
			    d, keys[k].key,
			    json_object_new_int64((int64_t)u->dev[i].delta[keys[k].field]));
		json_object_object_add(d, "util", json_object_new_double(u->dev[i].util));
		if (u->dev[i].nslaves) {
			static const struct {
				const char *key;
				int field;
			} aggr[] = {
			    {"aggr_read_ios", ST_DS_RIOS},      {"aggr_write_ios", ST_DS_WIOS},
			    {"aggr_read_merges", ST_DS_RMERGE}, {"aggr_write_merge", ST_DS_WMERGE},
			    {"aggr_read_ticks", ST_DS_RTICKS},  {"aggr_write_ticks", ST_DS_WTICKS},
			    {"aggr_in_queue", ST_DS_QUEUE}};
			uint64_t a[ST_DS_N];
			double au;
			disk_util_agg(u, i, a, &au);
			for (size_t k = 0; k < sizeof(aggr) / sizeof(aggr[0]); k++)
				json_object_object_add(
				    d, aggr[k].key,
				    json_object_new_int64((int64_t)a[aggr[k].field]));
			json_object_object_add(d, "aggr_util", json_object_new_double(au));
		}
		json_object_array_add(arr, d);
	}
	return arr;
}

void st_disk_util_terse(FILE *f, const struct st_disk_util *u)
{
	for (size_t i = 0; u && i < u->n; i++) {
		const uint64_t *d = u->dev[i].delta;
		fprintf(f, ";%s;%llu;%llu;%llu;%llu;%llu;%llu;%llu;%.2f%%", u->dev[i].name,
		        (unsigned long long)d[ST_DS_RIOS], (unsigned long long)d[ST_DS_WIOS],
		        (unsigned long long)d[ST_DS_RMERGE], (unsigned long long)d[ST_DS_WMERGE],
		        (unsigned long long)d[ST_DS_RTICKS], (unsigned long long)d[ST_DS_WTICKS],
		        (unsigned long long)d[ST_DS_QUEUE], u->dev[i].util);
		if (u->dev[i].nslaves) {
			uint64_t a[ST_DS_N];
			double au;
			disk_util_agg(u, i, a, &au);
			fprintf(f, ";slaves;%llu;%llu;%llu;%llu;%llu;%llu;%llu;%3.2f%%",
			        (unsigned long long)a[ST_DS_RIOS],
			        (unsigned long long)a[ST_DS_WIOS],
			        (unsigned long long)a[ST_DS_RMERGE],
			        (unsigned long long)a[ST_DS_WMERGE],
			        (unsigned long long)a[ST_DS_RTICKS],
			        (unsigned long long)a[ST_DS_WTICKS],
			        (unsigned long long)a[ST_DS_QUEUE], au);
		}
	}
}

void st_disk_util_normal(FILE *f, const struct st_disk_util *u)
{
	if (!u || !u->n)
		return;
	fputs("\nDisk stats (read/write):\n", f);
	for (size_t i = 0; i < u->n; i++) {
		const uint64_t *d = u->dev[i].delta;
		fprintf(f,
		        "%s  %s: ios=%llu/%llu, merge=%llu/%llu, ticks=%llu/%llu, in_queue=%llu, "
		        "util=%3.2f%%",
		        u->dev[i].nslaves ? "  " : "", u->dev[i].name,
		        (unsigned long long)d[ST_DS_RIOS], (unsigned long long)d[ST_DS_WIOS],
		        (unsigned long long)d[ST_DS_RMERGE], (unsigned long long)d[ST_DS_WMERGE],
		        (unsigned long long)d[ST_DS_RTICKS], (unsigned long long)d[ST_DS_WTICKS],
		        (unsigned long long)d[ST_DS_QUEUE], u->dev[i].util);
		if (u->dev[i].nslaves) {
			uint64_t a[ST_DS_N];
			double au;
			disk_util_agg(u, i, a, &au);
			fprintf(f,
			        ", aggrios=%llu/%llu, aggrmerge=%llu/%llu, aggrticks=%llu/%llu, "
			        "aggrin_queue=%llu, aggrutil=%3.2f%%",
			        (unsigned long long)a[ST_DS_RIOS],
			        (unsigned long long)a[ST_DS_WIOS],
			        (unsigned long long)a[ST_DS_RMERGE],
			        (unsigned long long)a[ST_DS_WMERGE],
			        (unsigned long long)a[ST_DS_RTICKS],
			        (unsigned long long)a[ST_DS_WTICKS],
			        (unsigned long long)a[ST_DS_QUEUE], au);
		}
		fputc('\n', f);
	}
}
