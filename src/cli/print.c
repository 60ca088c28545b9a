/*
 * print.c - human-readable tables and trees for the terminal.
 *
 * Units follow the consumer tools: MB/s is decimal (10^6 bytes per
 * second), latency is in microseconds.
 */
#include <json-c/json.h>
#include <string.h>

#include "cli/print.h"

void cli_format_size(char *buf, size_t len, unsigned long long bytes)
{
	static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%llu bytes", bytes);
	else
		snprintf(buf, len, "%.2f %s (%llu bytes)", v, units[u], bytes);
}

void cli_format_date(char *buf, size_t len, time_t t)
{
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, len, "%a %b %e %H:%M:%S %Y", &tm);
}

void cli_print_job(FILE *f, const struct wl_result *res, const char *spec)
{
	static const char *const dirs[WL_DIRS] = {"read", "write", "trim"};
	const struct wl_job *j = &res->job;

	if (spec)
		fprintf(f, "target: %s\n", spec);
	if (j->read_iolog[0]) /* a replay: the trace, not rw/bs, says what it does */
		fprintf(f,
		        "job '%s': read_iolog=%s%s iodepth=%u numjobs=%u, %.2f s measured (%s "
		        "clock%s)\n",
		        j->name, j->read_iolog, j->replay_no_stall ? " replay_no_stall=1" : "",
		        j->iodepth, j->numjobs, res->runtime_ns / 1e9,
		        rl_exec_kind_name(res->clock),
		        res->clock == RL_EXEC_VIRTUAL ? ", simulated time" : "");
	else
		fprintf(
		    f,
		    "job '%s': rw=%s bs=%u iodepth=%u numjobs=%u, %.2f s measured (%s clock%s)\n",
		    j->name, wl_rw_name(j->rw), j->bs, j->iodepth, j->numjobs,
		    res->runtime_ns / 1e9, rl_exec_kind_name(res->clock),
		    res->clock == RL_EXEC_VIRTUAL ? ", simulated time" : "");
	fprintf(f, "  %-5s %12s %10s %11s | %9s %9s %9s %9s %10s\n", "", "ios", "MB/s", "IOPS",
	        "lat mean", "p50", "p99", "p99.9", "max (us)");
	for (int d = 0; d < WL_DIRS; d++) {
		const struct wl_dir_result *r = &res->dir[d];
		if (!r->ios)
			continue;
		fprintf(f, "  %-5s %12llu %10.1f %11.0f | %9.1f %9.1f %9.1f %9.1f %10.1f\n",
		        dirs[d], (unsigned long long)r->ios, wl_result_bw(res, (enum rl_op)d) / 1e6,
		        wl_result_iops(res, (enum rl_op)d), st_hist_mean(&r->hist) / 1e3,
		        st_hist_percentile(&r->hist, 50) / 1e3,
		        st_hist_percentile(&r->hist, 99) / 1e3,
		        st_hist_percentile(&r->hist, 99.9) / 1e3, r->hist.max / 1e3);
	}
	/* what fio users look for: extremes and spread, CPU, queue depth */
	for (int d = 0; d < WL_DIRS; d++) {
		const struct st_hist *h = &res->dir[d].hist;
		if (!res->dir[d].ios)
			continue;
		fprintf(f,
		        "  %-5s clat (usec): min=%.1f, max=%.1f, avg=%.1f, stdev=%.1f (slat is not "
		        "timed apart: lat = clat)\n",
		        dirs[d], h->min / 1e3, h->max / 1e3, st_hist_mean(h) / 1e3,
		        st_hist_stddev(h) / 1e3);
	}
	if (res->runtime_ns) {
		double rt = res->runtime_ns / 1e9;
		fprintf(
		    f,
		    "  cpu: usr=%.2f%%, sys=%.2f%% (its threads' and its share of the process's)\n",
		    100 * res->cpu_user_s / rt, 100 * res->cpu_sys_s / rt);
		fprintf(f, "  IO depths: %u=100.0%% (every slot is reissued as it completes)\n",
		        j->engine == WL_ENGINE_PSYNC ? 1 : j->iodepth);
	}
	if (res->flushes)
		fprintf(f, "  sync: %llu flushes (fsync/fdatasync)\n",
		        (unsigned long long)res->flushes);
	if (res->verified)
		fprintf(f, "  verify: %llu blocks checked, %llu bad\n",
		        (unsigned long long)res->verify_blocks,
		        (unsigned long long)res->verify_bad);
}

void cli_print_job_problems(FILE *f, const struct wl_result *res)
{
	if (res->errors)
		fprintf(
		    f,
		    "raidlab run: job '%s': %llu I/O error(s); the first: %s at offset %llu: %s\n",
		    res->job.name, (unsigned long long)res->errors, rl_op_name(res->first_error_op),
		    (unsigned long long)res->first_error_offset, strerror(-res->first_error));
	if (res->rate_min_missed) {
		int d = res->rate_min_missed - 1;
		fprintf(f,
		        "raidlab run: job '%s': rate_min: %s ran at %.0f bytes/s, below the %llu "
		        "asked for\n",
		        res->job.name, rl_op_name((enum rl_op)d), wl_result_bw(res, (enum rl_op)d),
		        (unsigned long long)res->job.rate_min[d]);
	}
	if (res->verify_bad)
		fprintf(f, "raidlab run: job '%s': verify failed in %llu block(s): %s\n",
		        res->job.name, (unsigned long long)res->verify_bad, res->verify_msg);
}

void cli_print_tree(FILE *f, struct json_object *tree, int depth)
{
	struct json_object *kids = NULL;
	char size[64];

	cli_format_size(
	    size, sizeof(size),
	    (unsigned long long)json_object_get_int64(json_object_object_get(tree, "size_bytes")));
	fprintf(f, "%*s%s  %s, block %d", depth * 2, "",
	        json_object_get_string(json_object_object_get(tree, "type")), size,
	        json_object_get_int(json_object_object_get(tree, "block_size")));
	json_object_object_foreach(tree, key, val)
	{
		if (!strcmp(key, "type") || !strcmp(key, "size_bytes") ||
		    !strcmp(key, "block_size"))
			continue;
		if (!strcmp(key, "children")) {
			kids = val;
			continue;
		}
		fprintf(f, ", %s=%s", key, json_object_get_string(val));
	}
	fputc('\n', f);
	for (size_t i = 0; kids && i < json_object_array_length(kids); i++) {
		struct json_object *c = json_object_array_get_idx(kids, i);
		if (c)
			cli_print_tree(f, c, depth + 1);
		else
			fprintf(f, "%*s(missing member)\n", (depth + 1) * 2, "");
	}
}

struct json_object *cli_json_get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

double cli_json_num(struct json_object *o, const char *key)
{
	return json_object_get_double(cli_json_get(o, key));
}

void cli_file_name(const char *label, char *buf, size_t len)
{
	size_t n = 0;

	for (const char *s = label; *s && n + 1 < len; s++) {
		char c = *s;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		          (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
		if (!ok)
			c = '_';
		if (c == '_' && (n == 0 || buf[n - 1] == '_'))
			continue;
		if (c == '.' && n == 0)
			continue; /* no hidden files */
		buf[n++] = c;
	}
	while (n && buf[n - 1] == '_')
		n--;
	buf[n] = 0;
	if (!n)
		snprintf(buf, len, "result");
}
