/*
 * workload.c - a fio job file or a recorded trace as a sweep workload.
 *
 * Design: the suite runner runs suites, so a file becomes one: a suite
 * definition made at run time (struct sw_file), whose run function runs
 * the file's jobs one after another on the point's stack and reports each
 * as a test (name, pattern "job" or "trace", and its read and write
 * figures), in the shape every suite result has, so the store, compare,
 * CSV and the report's heatmap take it unchanged.  The pool forks, so the
 * children see the definition the parent made.  A trace becomes one job
 * that replays it (read_iolog, at its recorded times and its recorded
 * in-flight depth, which the result reports as the test's iodepth).  The file's contents, not its
 * name, go into the store key, so an edited file is measured again and a renamed one is not.
 *
 * Jobs run on the configuration being swept: a job file whose jobs name
 * their own filename= or directory=, or a target=, is refused.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/sweep.h"
#include "workload/trace.h"

struct sw_file {
	struct suite_def def;
	char name[64];
	struct wl_job *jobs;
	size_t njobs;
	bool trace;
};

static int sw_file_run(struct suite_run *r)
{
	const struct sw_file *f = (const struct sw_file *)r->def; /* def is its first member */
	int rc = 0;

	for (size_t i = 0; !rc && i < f->njobs; i++) {
		const struct wl_job *job = &f->jobs[i];
		struct json_object *obj = json_object_new_object();
		struct suite_meas m;

		json_object_object_add(obj, "name", json_object_new_string(job->name));
		json_object_object_add(obj, "pattern",
		                       json_object_new_string(f->trace ? "trace" : "job"));
		json_object_object_add(obj, "bs", json_object_new_int64(f->trace ? 0 : job->bs));
		json_object_object_add(obj, "iodepth", json_object_new_int64(job->iodepth));
		json_object_object_add(obj, "threads", json_object_new_int64(job->numjobs));
		json_object_array_add(r->tests, obj);
		r->cur_test = job->name;
		r->cur_phase = f->trace ? "replay" : "job";
		rc = suite_measure(r, job, SUITE_VIEW(SUITE_READ) | SUITE_VIEW(SUITE_WRITE), 0, 1,
		                   SUITE_AGG_SINGLE, 0, NULL, NULL, &m);
		if (rc) {
			suite_meas_free(&m);
			break;
		}
		for (int d = SUITE_READ; d <= SUITE_WRITE; d++)
			if (m.agg[d].iops > 0)
				json_object_object_add(obj, d == SUITE_READ ? "read" : "write",
				                       suite_meas_json(&m, (enum suite_dir)d));
		suite_meas_free(&m);
	}
	return rc;
}

static char *sw_file_read(const char *path, size_t *len, char *msg, size_t msglen)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f) {
		snprintf(msg, msglen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) == (size_t)n) {
		buf[n] = '\0';
		*len = (size_t)n;
	} else {
		snprintf(msg, msglen, "%s: cannot read it", path);
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* A trace: one job replaying it from @path (made absolute: the pool's children share cwd). */
static int sw_file_trace(struct sw_file *f, const char *path, char *msg, size_t msglen)
{
	char *abs = realpath(path, NULL);
	char vmsg[256];

	f->jobs = calloc(1, sizeof(*f->jobs));
	if (!abs || !f->jobs) {
		free(abs);
		snprintf(msg, msglen, "%s: %s", path, abs ? "out of memory" : strerror(errno));
		return -ENOMEM;
	}
	wl_job_init(&f->jobs[0]);
	snprintf(f->jobs[0].name, sizeof(f->jobs[0].name), "replay"); /* not the file's name:
	                                                                  the key is its contents */
	int rc = wl_job_set(&f->jobs[0], "read_iolog", abs, path, vmsg, sizeof(vmsg));
	struct wl_trace tr;
	if (!rc && !(rc = wl_trace_load(abs, &tr, vmsg, sizeof(vmsg)))) {
		/* the depth the replay keeps (the recorded one): what the result reports */
		f->jobs[0].iodepth = wl_trace_replay_depth(&tr);
		wl_trace_free(&tr);
	}
	free(abs);
	if (rc) {
		snprintf(msg, msglen, "%s", vmsg);
		return rc;
	}
	f->njobs = 1;
	f->trace = true;
	return 0;
}

static int sw_file_jobs(struct sw_file *f, const char *text, const char *path, char *msg,
                        size_t msglen)
{
	struct wl_job base;
	struct wl_jobfile jf;

	wl_job_init(&base);
	int rc = wl_jobfile_parse(text, path, &base, &jf, msg, msglen);
	if (rc)
		return rc;
	for (size_t i = 0; i < jf.njobs; i++)
		if (jf.jobs[i].filename[0] || jf.jobs[i].directory[0] || jf.target) {
			snprintf(msg, msglen,
			         "%s: job '%s' names its own %s; a sweep runs every job on each "
			         "configuration (remove it)",
			         path, jf.jobs[i].name,
			         jf.target                ? "target="
			         : jf.jobs[i].filename[0] ? "filename="
			                                  : "directory=");
			wl_jobfile_free(&jf);
			return -EINVAL;
		}
	f->jobs = jf.jobs;
	f->njobs = jf.njobs;
	free(jf.target);
	return 0;
}

int sw_workload_file(struct sw_workload *w, const char *path, char *msg, size_t msglen)
{
	size_t len = 0;
	char *text = sw_file_read(path, &len, msg, msglen);
	struct sw_file *f;
	struct wl_trace tr;
	char tmsg[256];
	int rc;

	if (!text)
		return -ENOENT;
	f = calloc(1, sizeof(*f));
	if (!f) {
		free(text);
		return -ENOMEM;
	}
	const char *base = strrchr(path, '/');
	snprintf(f->name, sizeof(f->name), "%s", base ? base + 1 : path);
	/* a trace if it parses as one; otherwise a job file, with the job file's message */
	if (wl_trace_parse(text, len, path, &tr, tmsg, sizeof(tmsg)) == 0) {
		wl_trace_free(&tr);
		rc = sw_file_trace(f, path, msg, msglen);
	} else if (strncmp(text, "fio version", 11) == 0) {
		snprintf(msg, msglen, "%s", tmsg);
		rc = -EINVAL;
	} else {
		rc = strlen(text) == len ? sw_file_jobs(f, text, path, msg, msglen) : -EINVAL;
		if (rc && strlen(text) != len)
			snprintf(msg, msglen, "%s: neither a job file nor a trace (a NUL byte)",
			         path);
	}
	if (rc) {
		free(f->jobs);
		free(f);
		free(text);
		return rc;
	}
	f->def = (struct suite_def){
	    .name = f->name,
	    .title = f->trace ? "a recorded trace" : "a fio job file",
	    .summary = f->name,
	    .aggregate = SUITE_AGG_SINGLE,
	    .run = sw_file_run,
	};
	memset(w, 0, sizeof(*w));
	w->kind = f->trace ? SW_WORKLOAD_TRACE : SW_WORKLOAD_JOBFILE;
	w->def = &f->def;
	w->file = f;
	snprintf(w->name, sizeof(w->name), "%s", f->name);
	w->content = sw_content_hash(text, len);
	free(text);
	return 0;
}

void sw_workload_free(struct sw_workload *w)
{
	if (w->file) {
		free(w->file->jobs);
		free(w->file);
		w->file = NULL;
	}
}
