/*
 * run_fleet.c - `raidlab run` on every rank of an MPI job (suites/fleet.h):
 * the command line with $rank, $nranks and $host replaced, and rank 0's
 * report of each job over the ranks.
 *
 * The report has the shape of cli_print_job's table: one "All clients"
 * line per direction (as fio's client/server mode names the aggregate),
 * whose I/Os, MB/s and IOPS are the sums of the ranks' and whose latencies
 * come from the merged histograms; then one line per rank and direction
 * with its host, its own figures and how its job ended (finished, or
 * stopped by a stonewall); then the slowest and fastest rank.  fio's JSON
 * has the shape of fio's client/server mode: "client_stats" holds each
 * rank's jobs with its "hostname", then per job an "All clients" entry
 * with the sums and the merged latencies.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/print.h"
#include "results/fio_json.h"
#include "suites/fleet.h"

int cli_fleet_argv(const struct fleet *f, int argc, char **argv, char ***out)
{
	char **v = calloc((size_t)argc + 1, sizeof(*v));
	char buf[8192];

	if (!v)
		return -ENOMEM;
	for (int i = 0; i < argc; i++) {
		if (fleet_subst(f, argv[i], buf, sizeof(buf)) || !(v[i] = strdup(buf))) {
			cli_error("run", "argument %d: too long after $rank/$host substitution", i);
			cli_fleet_argv_free(argc, v);
			return -EINVAL;
		}
	}
	*out = v;
	return 0;
}

void cli_fleet_argv_free(int argc, char **argv)
{
	for (int i = 0; argv && i < argc; i++)
		free(argv[i]);
	free(argv);
}

static const char *const fleet_dirs[WL_DIRS] = {"read", "write", "trim"};

/* One line of the table: a direction's figures and latencies. */
static void fleet_line(FILE *out, const char *who, int d, uint64_t ios, double bw, double iops,
                       const struct st_hist *h, const char *tail)
{
	fprintf(out, "  %-18s %-5s %12llu %10.1f %11.0f | %9.1f %9.1f %9.1f %9.1f %10.1f  %s\n",
	        who, fleet_dirs[d], (unsigned long long)ios, bw / 1e6, iops, st_hist_mean(h) / 1e3,
	        st_hist_percentile(h, 50) / 1e3, st_hist_percentile(h, 99) / 1e3,
	        st_hist_percentile(h, 99.9) / 1e3, h->count ? h->max / 1e3 : 0, tail);
}

static void fleet_print_job(FILE *out, const struct fleet *f, const struct fleet_job *j)
{
	const struct wl_job *job = &j->merged.job;
	char who[64], tail[96];

	fprintf(out, "job '%s' on %d ranks: rw=%s bs=%u iodepth=%u", job->name, f->size,
	        wl_rw_name(job->rw), job->bs, job->iodepth);
	if (f->stonewall)
		fprintf(out, ", stonewall: %u of %d ranks stopped when the first finished",
		        j->nstopped, f->size);
	fprintf(out, "\n  %-18s %-5s %12s %10s %11s | %9s %9s %9s %9s %10s  %s\n", "", "", "ios",
	        "MB/s", "IOPS", "lat mean", "p50", "p99", "p99.9", "max (us)", "runtime");
	for (int d = 0; d < WL_DIRS; d++)
		if (j->merged.dir[d].ios) {
			snprintf(tail, sizeof(tail), "(sums; latency merged)");
			fleet_line(out, "All clients", d, j->merged.dir[d].ios, j->bw[d],
			           j->iops[d], &j->merged.dir[d].hist, tail);
		}
	for (int r = 0; r < f->size; r++) {
		const struct fleet_rank *fr = &j->ranks[r];
		snprintf(who, sizeof(who), "rank %d %.*s", r, 10, fr->host);
		snprintf(tail, sizeof(tail), "%.2f s, %s", fr->res.runtime_ns / 1e9,
		         fr->stopped ? "stopped by stonewall" : "finished");
		for (int d = 0; d < WL_DIRS; d++)
			if (j->merged.dir[d].ios)
				fleet_line(out, who, d, fr->res.dir[d].ios,
				           wl_result_bw(&fr->res, (enum rl_op)d),
				           wl_result_iops(&fr->res, (enum rl_op)d),
				           &fr->res.dir[d].hist, tail);
	}
	fprintf(out, "  slowest: rank %d (%s, %s); fastest: rank %d (%s, %s)\n", j->slowest,
	        j->ranks[j->slowest].host, j->ranks[j->slowest].spec, j->fastest,
	        j->ranks[j->fastest].host, j->ranks[j->fastest].spec);
}

void cli_fleet_print(FILE *out, const struct fleet *f)
{
	for (size_t i = 0; i < f->njobs; i++)
		if (f->jobs[i].ranks && f->jobs[i].merged.runtime_ns)
			fleet_print_job(out, f, &f->jobs[i]);
}

/*
 * fio's entry of the aggregate: the sums of the ranks' rates as their own
 * entries print them (from whole ms: st_fio_iops), not bytes over the
 * longest runtime.
 */
static void fleet_fio_sums(struct json_object *e, const struct fleet_job *j, int nranks)
{
	for (int d = 0; d < WL_DIRS; d++) {
		struct json_object *o = json_object_object_get(e, fleet_dirs[d]);
		uint64_t bw = 0;
		double iops = 0;
		if (!o)
			continue;
		for (int r = 0; r < nranks; r++) {
			bw += st_fio_bw_bytes(&j->ranks[r].res, d);
			iops += st_fio_iops(&j->ranks[r].res, d);
		}
		json_object_object_add(o, "bw_bytes", json_object_new_int64((int64_t)bw));
		json_object_object_add(o, "bw", json_object_new_int64((int64_t)(bw / 1024)));
		json_object_object_add(o, "iops", json_object_new_double(iops));
	}
	json_object_object_add(e, "jobname", json_object_new_string("All clients"));
}

void cli_fleet_fio_json(FILE *out, const struct fleet *f, struct rl_target *t, bool plus)
{
	size_t n = 0, cap = f->njobs * ((size_t)f->size + 1);
	struct st_fio_job *fj = calloc(cap ? cap : 1, sizeof(*fj));

	if (!fj)
		return;
	for (size_t i = 0; i < f->njobs; i++) {
		if (!f->jobs[i].ranks || !f->jobs[i].merged.runtime_ns)
			continue;
		for (int r = 0; r < f->size; r++)
			fj[n++] = (struct st_fio_job){.res = &f->jobs[i].ranks[r].res, .target = t};
		fj[n++] = (struct st_fio_job){.res = &f->jobs[i].merged, .target = t};
	}
	struct json_object *doc = st_fio_json(fj, n, plus, NULL, NULL);
	struct json_object *jobs = json_object_get(json_object_object_get(doc, "jobs"));
	size_t k = 0;
	for (size_t i = 0; i < f->njobs; i++) {
		if (!f->jobs[i].ranks || !f->jobs[i].merged.runtime_ns)
			continue;
		for (int r = 0; r < f->size; r++, k++)
			json_object_object_add(json_object_array_get_idx(jobs, k), "hostname",
			                       json_object_new_string(f->jobs[i].ranks[r].host));
		fleet_fio_sums(json_object_array_get_idx(jobs, k++), &f->jobs[i], f->size);
	}
	json_object_object_del(doc, "jobs");
	json_object_object_add(doc, "client_stats", jobs);
	fputs(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
	                                              JSON_C_TO_STRING_NOSLASHESCAPE),
	      out);
	fputc('\n', out);
	json_object_put(doc);
	free(fj);
}
