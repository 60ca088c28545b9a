/*
 * result.c - build the JSON result with json-c; see result.h and
 * docs/results.md.  Latencies are reported in microseconds (as doubles),
 * throughput in decimal MB/s (10^6 bytes), as the consumer tools print it.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "results/result.h"
#include "workload/vcsum.h"

#ifndef RL_VERSION
#define RL_VERSION "0.0.0"
#endif

static struct json_object *result_double(double v)
{
	return json_object_new_double(v);
}

struct json_object *st_result_host(void)
{
	struct json_object *h = json_object_new_object();
	struct utsname u;
	struct sysinfo si;
	char line[512], model[256] = "unknown";
	FILE *f;

	if (uname(&u) == 0) {
		json_object_object_add(h, "kernel", json_object_new_string(u.release));
		json_object_object_add(h, "machine", json_object_new_string(u.machine));
		json_object_object_add(h, "hostname", json_object_new_string(u.nodename));
	}
	if ((f = fopen("/proc/cpuinfo", "r"))) {
		while (fgets(line, sizeof(line), f)) {
			char *c = strchr(line, ':');
			if (!strncmp(line, "model name", 10) && c) {
				snprintf(model, sizeof(model), "%s", c + 2);
				model[strcspn(model, "\n")] = 0;
				break;
			}
		}
		fclose(f);
	}
	json_object_object_add(h, "cpu_model", json_object_new_string(model));
	json_object_object_add(h, "cores", json_object_new_int((int)sysconf(_SC_NPROCESSORS_ONLN)));
	if (sysinfo(&si) == 0)
		json_object_object_add(h, "memory_bytes",
		                       json_object_new_int64((int64_t)si.totalram * si.mem_unit));
	return h;
}

struct json_object *st_result_new(const char *spec, struct rl_target *t)
{
	struct json_object *doc = json_object_new_object();
	struct json_object *tool = json_object_new_object();
	struct json_object *tg = json_object_new_object();
	uint32_t caps = rl_target_leaf_caps(t);

	json_object_object_add(doc, "schema_version",
	                       json_object_new_int(RL_RESULT_SCHEMA_VERSION));
	json_object_object_add(tool, "name", json_object_new_string("raidlab"));
	json_object_object_add(tool, "version", json_object_new_string(RL_VERSION));
	json_object_object_add(doc, "tool", tool);
	json_object_object_add(doc, "host", st_result_host());
	json_object_object_add(tg, "spec", json_object_new_string(spec));
	json_object_object_add(tg, "size_bytes", json_object_new_int64((int64_t)t->size));
	json_object_object_add(tg, "block_size", json_object_new_int64(t->block_size));
	json_object_object_add(tg, "simulated", json_object_new_boolean(caps & RL_CAP_VIRTUAL));
	json_object_object_add(tg, "tree", rl_target_tree(t));
	json_object_object_add(doc, "target", tg);
	json_object_object_add(doc, "jobs", json_object_new_array());
	return doc;
}

static struct json_object *result_hist(const struct st_hist *h)
{
	struct json_object *o = json_object_new_object();
	struct json_object *b = json_object_new_array();

	json_object_object_add(o, "unit", json_object_new_string("ns"));
	json_object_object_add(o, "sub_buckets_log2", json_object_new_int(ST_HIST_SUB_BITS));
	for (unsigned i = 0; i < ST_HIST_BUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		struct json_object *e = json_object_new_array();
		json_object_array_add(e, json_object_new_int64((int64_t)st_hist_bucket_lo(i)));
		json_object_array_add(e, json_object_new_int64((int64_t)st_hist_bucket_hi(i)));
		json_object_array_add(e, json_object_new_int64((int64_t)h->buckets[i]));
		json_object_array_add(b, e);
	}
	json_object_object_add(o, "buckets", b);
	return o;
}

static struct json_object *result_series(const struct st_series *s)
{
	struct json_object *o = json_object_new_object();
	struct json_object *mb = json_object_new_array();
	struct json_object *io = json_object_new_array();
	double sec = s->interval_ns / 1e9;

	json_object_object_add(o, "interval_ms", result_double(s->interval_ns / 1e6));
	for (size_t i = 0; i < s->n; i++) {
		json_object_array_add(mb, result_double(sec > 0 ? s->bytes[i] / 1e6 / sec : 0));
		json_object_array_add(io, result_double(sec > 0 ? s->ios[i] / sec : 0));
	}
	json_object_object_add(o, "mb_s", mb);
	json_object_object_add(o, "iops", io);
	return o;
}

struct json_object *st_result_dir(const struct wl_dir_result *d, uint64_t runtime_ns)
{
	struct json_object *o = json_object_new_object();
	struct json_object *lat = json_object_new_object();
	const struct st_hist *h = &d->hist;
	double rt = runtime_ns / 1e9;
	static const struct {
		const char *name;
		double p;
	} pct[] = {{"p50", 50}, {"p90", 90}, {"p99", 99}, {"p99_9", 99.9}, {"p99_99", 99.99}};

	json_object_object_add(o, "ios", json_object_new_int64((int64_t)d->ios));
	json_object_object_add(o, "bytes", json_object_new_int64((int64_t)d->bytes));
	json_object_object_add(o, "runtime_s", result_double(rt));
	json_object_object_add(o, "mb_s", result_double(rt > 0 ? d->bytes / 1e6 / rt : 0));
	json_object_object_add(o, "mib_s", result_double(rt > 0 ? d->bytes / 1048576.0 / rt : 0));
	json_object_object_add(o, "iops", result_double(rt > 0 ? d->ios / rt : 0));
	json_object_object_add(lat, "min", result_double(h->count ? h->min / 1e3 : 0));
	json_object_object_add(lat, "mean", result_double(st_hist_mean(h) / 1e3));
	json_object_object_add(lat, "max", result_double(h->count ? h->max / 1e3 : 0));
	json_object_object_add(lat, "stddev", result_double(st_hist_stddev(h) / 1e3));
	for (size_t i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
		json_object_object_add(lat, pct[i].name,
		                       result_double(st_hist_percentile(h, pct[i].p) / 1e3));
	json_object_object_add(o, "lat_us", lat);
	json_object_object_add(o, "histogram", result_hist(h));
	json_object_object_add(o, "series", result_series(&d->series));
	return o;
}

static void result_opt(struct json_object *o, const char *k, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void result_opt(struct json_object *o, const char *k, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_object_object_add(o, k, json_object_new_string(buf));
}

struct json_object *st_result_options(const struct wl_job *job)
{
	struct json_object *o = json_object_new_object();

	if (job->rw_skip)
		result_opt(o, "rw", "%s:%lld", wl_rw_name(job->rw), (long long)job->rw_skip);
	else if (job->rw_nr > 1)
		result_opt(o, "rw", "%s:%u", wl_rw_name(job->rw), job->rw_nr);
	else
		result_opt(o, "rw", "%s", wl_rw_name(job->rw));
	result_opt(o, "bs", "%u", job->bs);
	if (job->nbssplit) {
		char buf[256] = "";
		size_t len = 0;
		for (unsigned i = 0; i < job->nbssplit && len < sizeof(buf) - 32; i++)
			len +=
			    (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%u/%u", i ? ":" : "",
			                     job->bssplit[i].bs, job->bssplit[i].pct);
		result_opt(o, "bssplit", "%s", buf);
	}
	result_opt(o, "iodepth", "%u", job->iodepth);
	if (job->kb_base != 1024)
		result_opt(o, "kb_base", "%u", job->kb_base);
	result_opt(o, "numjobs", "%u", job->numjobs);
	result_opt(o, "size", "%llu", (unsigned long long)job->size);
	result_opt(o, "offset", "%llu", (unsigned long long)job->offset);
	result_opt(o, "runtime", "%.3f", job->runtime_ns / 1e9);
	result_opt(o, "time_based", "%d", job->time_based);
	result_opt(o, "ramp_time", "%.3f", job->ramp_ns / 1e9);
	if (job->rw == WL_RW_RW || job->rw == WL_RW_RANDRW)
		result_opt(o, "rwmixread", "%u", job->rwmixread);
	if (job->dist == WL_DIST_ZIPF)
		result_opt(o, "random_distribution", "zipf:%g", job->dist_param);
	else if (job->dist == WL_DIST_PARETO)
		result_opt(o, "random_distribution", "pareto:%g", job->dist_param);
	else if (job->dist == WL_DIST_ZONED || job->dist == WL_DIST_ZONED_ABS) {
		char buf[256];
		size_t len = (size_t)snprintf(buf, sizeof(buf), "%s",
		                              job->dist == WL_DIST_ZONED ? "zoned" : "zoned_abs");
		for (unsigned i = 0; i < job->nzones && len < sizeof(buf) - 48; i++) {
			const struct wl_zone *z = &job->zones[i];
			len +=
			    (size_t)snprintf(buf + len, sizeof(buf) - len, ":%u/", z->access_pct);
			if (z->size_pct || z->size_bytes)
				len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%llu",
				                        z->size_pct
				                            ? (unsigned long long)z->size_pct
				                            : (unsigned long long)z->size_bytes);
		}
		result_opt(o, "random_distribution", "%s", buf);
	} else
		result_opt(o, "random_distribution", "random");
	result_opt(o, "direct", "%d", job->direct);
	result_opt(o, "ioengine", "%s",
	           job->engine_name[0]              ? job->engine_name
	           : job->engine == WL_ENGINE_PSYNC ? "psync"
	                                            : "io_uring");
	if (job->rate[0] || job->rate[1] || job->rate[2])
		result_opt(o, "rate", "%llu,%llu,%llu", (unsigned long long)job->rate[0],
		           (unsigned long long)job->rate[1], (unsigned long long)job->rate[2]);
	if (job->rate_iops[0] || job->rate_iops[1] || job->rate_iops[2])
		result_opt(o, "rate_iops", "%llu,%llu,%llu", (unsigned long long)job->rate_iops[0],
		           (unsigned long long)job->rate_iops[1],
		           (unsigned long long)job->rate_iops[2]);
	if (job->thinktime_ns)
		result_opt(o, "thinktime", "%lluus",
		           (unsigned long long)(job->thinktime_ns / 1000));
	if (job->number_ios)
		result_opt(o, "number_ios", "%llu", (unsigned long long)job->number_ios);
	if (job->fsync_n)
		result_opt(o, "fsync", "%u", job->fsync_n);
	if (job->fdatasync_n)
		result_opt(o, "fdatasync", "%u", job->fdatasync_n);
	if (job->sync_writes)
		result_opt(o, "sync", "1");
	if (job->end_fsync)
		result_opt(o, "end_fsync", "1");
	if (job->zero_buffers)
		result_opt(o, "zero_buffers", "1");
	if (job->refill_buffers)
		result_opt(o, "refill_buffers", "1");
	if (job->buffer_compress_percentage)
		result_opt(o, "buffer_compress_percentage", "%u", job->buffer_compress_percentage);
	result_opt(o, "loops", "%u", job->loops);
	result_opt(o, "verify", "%s",
	           job->verify == WL_VERIFY_CRC32C    ? "crc32c"
	           : job->verify == WL_VERIFY_META    ? wl_vcsum_name(job->verify_csum)
	           : job->verify == WL_VERIFY_PATTERN ? "pattern"
	                                              : "0");
	result_opt(o, "randseed", "%llu", (unsigned long long)job->seed);
	if (job->norandommap)
		result_opt(o, "norandommap", "1");
	result_opt(o, "log_avg_msec", "%llu", (unsigned long long)(job->log_avg_ns / 1000000));
	return o;
}

struct json_object *st_result_job(const struct wl_result *res)
{
	struct json_object *j = json_object_new_object();
	static const char *const dirs[WL_DIRS] = {"read", "write", "trim"};

	json_object_object_add(j, "name", json_object_new_string(res->job.name));
	json_object_object_add(j, "options", st_result_options(&res->job));
	json_object_object_add(j, "clock", json_object_new_string(rl_exec_kind_name(res->clock)));
	json_object_object_add(j, "runtime_s", result_double(res->runtime_ns / 1e9));
	json_object_object_add(j, "errors", json_object_new_int64((int64_t)res->errors));
	if (res->cont_errors) /* continue_on_error went past these */
		json_object_object_add(j, "continued_errors",
		                       json_object_new_int64((int64_t)res->cont_errors));
	struct json_object *cpu = json_object_new_object();
	json_object_object_add(cpu, "user_s", result_double(res->cpu_user_s));
	json_object_object_add(cpu, "sys_s", result_double(res->cpu_sys_s));
	json_object_object_add(j, "cpu", cpu);
	if (res->errors || res->cont_errors) {
		struct json_object *e = json_object_new_object();
		json_object_object_add(e, "op",
		                       json_object_new_string(rl_op_name(res->first_error_op)));
		json_object_object_add(e, "offset",
		                       json_object_new_int64((int64_t)res->first_error_offset));
		json_object_object_add(e, "message",
		                       json_object_new_string(strerror(-res->first_error)));
		json_object_object_add(j, "first_error", e);
	}
	if (res->verified || res->job.verify) {
		struct json_object *v = json_object_new_object();
		json_object_object_add(v, "blocks",
		                       json_object_new_int64((int64_t)res->verify_blocks));
		json_object_object_add(v, "bad_blocks",
		                       json_object_new_int64((int64_t)res->verify_bad));
		if (res->verify_bad) {
			json_object_object_add(
			    v, "first_bad_offset",
			    json_object_new_int64((int64_t)res->verify_first_bad));
			json_object_object_add(v, "message",
			                       json_object_new_string(res->verify_msg));
		}
		json_object_object_add(j, "verify", v);
	}
	for (int d = 0; d < WL_DIRS; d++)
		if (res->dir[d].ios)
			json_object_object_add(j, dirs[d],
			                       st_result_dir(&res->dir[d], res->runtime_ns));
	if (res->target_report)
		json_object_object_add(j, "target_counters", json_object_get(res->target_report));
	return j;
}

int st_result_write(struct json_object *doc, const char *path)
{
	const char *text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
	                                                           JSON_C_TO_STRING_NOSLASHESCAPE);
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	int rc = 0;

	if (!f)
		return -errno;
	errno = 0;
	if (fputs(text, f) < 0 || fputc('\n', f) < 0)
		rc = errno ? -errno : -EIO; /* the device's reason: ENOSPC, EDQUOT... */
	if (f != stdout) {
		if (fclose(f) && !rc)
			rc = -errno;
	} else if (fflush(f) && !rc) {
		rc = -errno;
	}
	if (rc && f == stdout)
		clearerr(stdout); /* the caller reports it: not again at exit (main.c) */
	return rc;
}

uint64_t st_result_target_end(struct json_object *doc, struct rl_target *t, bool interrupted)
{
	struct json_object *report;
	uint64_t lost;

	rl_target_finish(t);
	report = rl_target_report(t);
	lost = rl_report_sum(report, "lost_acknowledged_bytes");
	if (doc && report)
		json_object_object_add(doc, "target_final_counters", json_object_get(report));
	json_object_put(report);
	if (doc && interrupted)
		json_object_object_add(doc, "interrupted", json_object_new_boolean(true));
	if (doc && lost)
		json_object_object_add(doc, "lost_acknowledged_bytes",
		                       json_object_new_int64((int64_t)lost));
	return lost;
}
