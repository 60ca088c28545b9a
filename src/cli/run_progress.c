/*
 * run_progress.c - what `raidlab run` shows while jobs run: fio's ETA line
 * on a terminal (--eta, --eta-interval, --eta-newline) and the
 * --status-interval reports: fio's normal report, terse lines or whole JSON
 * document of the figures so far (cumulative, as fio's) when the output is
 * fio's, else a status line.  The engine calls
 * cli_run_progress_cb with the progress of every worker, and every
 * --status-interval with a copy of each one's result (wl_progress.snaps);
 * rates are over the window since the previous call.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "results/fio_json.h"
#include "results/fio_text.h"
#include "workload/run.h"

/*
 * fio's report of the figures so far: the workers' snapshots as the final
 * report shows jobs (group_reporting sums a job's copies), then the disks,
 * in fio's order for several formats: terse lines, the JSON document (the
 * whole of it, every field the final one has, as fio prints one per
 * interval), the normal report.
 */
static void run_status_fio(const struct cli_run_progress *st, const struct wl_progress *p)
{
	struct st_fio_job *fj = calloc(p->njobs ? p->njobs : 1, sizeof(*fj));
	struct wl_result *sum = calloc(p->njobs ? p->njobs : 1, sizeof(*sum));
	size_t n = 0;

	for (unsigned i = 0; fj && sum && i < p->njobs; i++) {
		const struct wl_result *r = &p->snaps[i];
		if (n && r->job.group_reporting && !strcmp(sum[n - 1].job.name, r->job.name)) {
			wl_result_merge(&sum[n - 1], r);
			sum[n - 1].job.numjobs++;
			continue;
		}
		wl_result_init(&sum[n], &r->job);
		wl_result_merge(&sum[n], r);
		sum[n].job.numjobs = 1;
		fj[n].res = &sum[n];
		fj[n].groupid = st->groupid;
		n++;
	}
	struct st_disk_util du = {0};
	if (st->du) {
		du = *st->du;
		st_disk_util_end(&du);
	}
	for (size_t i = 0; st->status_fio & CLI_STATUS_TERSE && i < n; i++)
		st_fio_terse(st->out, &fj[i], &du);
	if (fj && st->status_fio & CLI_STATUS_JSON) {
		struct json_object *doc =
		    st_fio_json(fj, n, st->status_plus, st->du ? &du : NULL, st->global_given);
		fputs(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
		                                              JSON_C_TO_STRING_NOSLASHESCAPE),
		      st->out);
		fputc('\n', st->out);
		json_object_put(doc);
	}
	if (st->status_fio & CLI_STATUS_NORMAL)
		st_fio_text(st->out, fj, n, &du);
	for (size_t i = 0; i < n; i++)
		wl_result_free(&sum[i]);
	free(sum);
	free(fj);
	fflush(st->out);
}

void cli_run_progress_cb(void *arg, const struct wl_progress *p)
{
	struct cli_run_progress *st = arg;
	/* The current rate: over the window since the previous call. */
	double dt = p->elapsed_s - st->last_s;
	double rmbs = 0, wmbs = 0, iops = 0;

	if (p->elapsed_s < st->last_s || p->bytes < st->last_bytes ||
	    p->read_bytes < st->last_rbytes) {
		st->last_s = 0;
		st->last_bytes = st->last_ios = st->last_rbytes = 0;
		dt = p->elapsed_s;
	}
	if (dt > 0) {
		rmbs = (double)(p->read_bytes - st->last_rbytes) / 1e6 / dt;
		wmbs = (double)(p->bytes - p->read_bytes - (st->last_bytes - st->last_rbytes)) /
		       1e6 / dt;
		iops = (double)(p->ios - st->last_ios) / dt;
	}
	st->last_s = p->elapsed_s;
	st->last_bytes = p->bytes;
	st->last_rbytes = p->read_bytes;
	st->last_ios = p->ios;
	double eta = p->fraction > 0.001 ? p->wall_s * (1 - p->fraction) / p->fraction : 0;
	if (st->tty && (!st->eta_drawn || p->wall_s - st->last_eta >= st->eta_every_s)) {
		st->eta_drawn = true;
		st->last_eta = p->wall_s;
		if (st->newline_every_s && p->wall_s - st->last_newline >= st->newline_every_s) {
			st->last_newline = p->wall_s;
			fputc('\n', stderr); /* --eta-newline: this line stays */
		}
		fprintf(stderr,
		        "\r\033[KJobs: %u (%s): [%5.1f%% done] [r=%.1fMB/s w=%.1fMB/s] "
		        "[%.0f IOPS] [eta %4.0fs]%s",
		        p->njobs, p->phase, 100 * p->fraction, rmbs, wmbs, iops, eta,
		        p->virtual_time ? " (simulated time)" : "");
		fflush(stderr);
	}
	if (st->status_fio) {
		if (p->snaps)
			run_status_fio(st, p);
		return;
	}
	if (st->status_ns && p->wall_s - st->last_print >= st->status_ns / 1e9) {
		st->last_print = p->wall_s;
		fprintf(st->out,
		        "status: %.1fs jobs=%u %5.1f%% done read=%.1fMB/s write=%.1fMB/s "
		        "iops=%.0f\n",
		        p->wall_s, p->njobs, 100 * p->fraction, rmbs, wmbs, iops);
		fflush(st->out);
	}
}
