/*
 * api.c - from the page's fields to a child's argv (api.h).
 *
 * Checks are by kind of value: a NAME (suites, profiles, result files,
 * exports: letters, digits, '.', '_', '-', starting with a letter or
 * digit), a NUMBER or SIZE (letters, digits and '.'), a SPEC (any printable
 * text not starting with '-', which the command itself parses and reports
 * on), a PATH (the same, for a control socket).  Options go to the child
 * as one element "--name=value", so a value cannot be taken for another
 * option.  A real device is written over only when the page sends
 * confirm= with exactly the target's text (--force-destroy).
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ui/api.h"

enum api_kind { API_NAME, API_SIZE, API_SPEC, API_PATH };

static bool api_valid(const char *v, enum api_kind k)
{
	size_t n = strlen(v);

	if (!n || v[0] == '-')
		return false;
	switch (k) {
	case API_NAME:
		if (n > 64 ||
		    !strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", v[0]))
			return false;
		return strspn(
		           v,
		           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
		       n;
	case API_SIZE:
		return n <= 16 &&
		       strspn(v,
		              "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.") ==
		           n;
	case API_SPEC:
		return n <= 2048;
	case API_PATH:
		return n <= 107;
	}
	return false;
}

/*
 * Field @key of @form into @out: 1 found and valid, 0 absent (or empty),
 * -EINVAL (with @why) when present but not a valid @k.
 */
static int api_field(struct ui_str form, const char *key, enum api_kind k, char *out, size_t outlen,
                     char *why, size_t whylen)
{
	static const char *const what[] = {"a name", "a number or size", "a target spec", "a path"};
	int rc = ui_form_get(form, key, out, outlen);

	if (rc == 0 || (rc == 1 && !out[0]))
		return 0;
	if (rc < 0 || !api_valid(out, k)) {
		snprintf(why, whylen, "field '%s': expected %s", key, what[k]);
		return -EINVAL;
	}
	return 1;
}

/*
 * Optional field @key passed on as --@opt=VALUE, or as "--@opt" "VALUE"
 * when @opt starts with ' ' (advise takes only that form; a checked value
 * never starts with '-', so it cannot be taken for an option).
 */
static int api_pass(struct ui_str form, const char *key, const char *opt, enum api_kind k,
                    struct ui_job *j, char *why, size_t whylen)
{
	char v[2100], o[64];
	int rc = api_field(form, key, k, v, sizeof(v), why, whylen);

	if (rc <= 0)
		return rc;
	if (opt[0] != ' ')
		return ui_job_opt(j, opt, v);
	snprintf(o, sizeof(o), "--%s", opt + 1);
	return ui_job_arg(j, o) ? -E2BIG : ui_job_arg(j, v);
}

/* Required field @key into @out. */
static int api_need(struct ui_str form, const char *key, enum api_kind k, char *out, size_t outlen,
                    char *why, size_t whylen)
{
	int rc = api_field(form, key, k, out, outlen, why, whylen);

	if (rc == 0) {
		snprintf(why, whylen, "field '%s' is missing", key);
		return -EINVAL;
	}
	return rc < 0 ? rc : 0;
}

/* A fresh result file name for @what in @results, into @j (its strings hold it). */
static int api_result_file(struct ui_job *j, const char *results, const char *what)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static unsigned seq;
	char path[4200], stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	unsigned n;

	pthread_mutex_lock(&lock);
	n = ++seq;
	pthread_mutex_unlock(&lock);
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(path, sizeof(path), "%s/%s-%s-%u.json", results, what, stamp, n);
	bool alone = !strcmp(j->argv[j->argc - 1], "--json"); /* advise: "--json" "FILE" */
	int rc = alone ? ui_job_arg(j, path) : ui_job_opt(j, "json", path);
	if (!rc)
		j->result_file = j->argv[j->argc - 1] + (alone ? 0 : strlen("--json="));
	return rc;
}

static int api_measure(struct ui_str f, const char *results, struct ui_job *j, char *why, size_t wl)
{
	char suite[80], target[2100], confirm[2100];
	int rc = api_need(f, "suite", API_NAME, suite, sizeof(suite), why, wl);

	if (!rc)
		rc = api_need(f, "target", API_SPEC, target, sizeof(target), why, wl);
	if (rc || (rc = ui_job_arg(j, "run")) || (rc = ui_job_arg(j, suite)) ||
	    (rc = ui_job_opt(j, "target", target)) || (rc = ui_job_opt(j, "progress", "json")))
		return rc;
	if ((rc = api_pass(f, "label", "label", API_SPEC, j, why, wl)) < 0 ||
	    (rc = api_pass(f, "size", "size", API_SIZE, j, why, wl)) < 0 ||
	    (rc = api_pass(f, "passes", "passes", API_SIZE, j, why, wl)) < 0 ||
	    (rc = api_pass(f, "warmup", "warmup", API_SIZE, j, why, wl)) < 0 ||
	    (rc = api_pass(f, "duration", "duration", API_SIZE, j, why, wl)) < 0)
		return rc;
	rc = api_field(f, "confirm", API_SPEC, confirm, sizeof(confirm), why, wl);
	if (rc < 0)
		return rc;
	if (rc == 1 && strcmp(confirm, target)) {
		snprintf(why, wl, "the confirmation names '%s', not the target '%s'", confirm,
		         target);
		return -EINVAL;
	}
	if (rc == 1 && (rc = ui_job_arg(j, "--force-destroy")))
		return rc;
	return api_result_file(j, results, suite);
}

static int api_advise(struct ui_str f, const char *results, struct ui_job *j, char *why, size_t wl)
{
	char drives[80], count[16], store[4200];
	int rc = api_need(f, "drive", API_NAME, drives, sizeof(drives), why, wl);

	if (!rc)
		rc = api_need(f, "count", API_SIZE, count, sizeof(count), why, wl);
	if (rc)
		return rc;
	if (strspn(count, "0123456789") != strlen(count) || strlen(count) > 2) {
		snprintf(why, wl, "field 'count': expected a number of drives");
		return -EINVAL;
	}
	char dv[128];
	snprintf(dv, sizeof(dv), "%sx%s", count, drives);
	snprintf(store, sizeof(store), "%s/advise-store", results);
	if ((rc = ui_job_arg(j, "advise")) || (rc = ui_job_arg(j, "--drives")) ||
	    (rc = ui_job_arg(j, dv)))
		return rc;
	if ((rc = api_pass(f, "controller", " controller", API_NAME, j, why, wl)) < 0 ||
	    (rc = api_pass(f, "platform", " platform", API_NAME, j, why, wl)) < 0 ||
	    (rc = api_pass(f, "workload", " workload", API_NAME, j, why, wl)) < 0 ||
	    (rc = api_pass(f, "goal", " goal", API_NAME, j, why, wl)) < 0 ||
	    (rc = api_pass(f, "size", " size", API_SIZE, j, why, wl)) < 0 ||
	    (rc = api_pass(f, "jobs", " jobs", API_SIZE, j, why, wl)) < 0)
		return rc;
	if ((rc = ui_job_arg(j, "--store")) || (rc = ui_job_arg(j, store)) ||
	    (rc = ui_job_arg(j, "--json")))
		return rc;
	return api_result_file(j, results, "advise");
}

static int api_compare(struct ui_str f, const char *results, struct ui_job *j, char *why, size_t wl)
{
	char key[16], name[80], path[4200], html[8];
	int rc = ui_job_arg(j, "compare"), n = 0;

	for (int i = 1; i <= 8 && !rc; i++) {
		snprintf(key, sizeof(key), "r%d", i);
		rc = api_field(f, key, API_NAME, name, sizeof(name), why, wl);
		if (rc <= 0)
			continue;
		struct stat sb;
		snprintf(path, sizeof(path), "%s/%s", results, name);
		if (stat(path, &sb) || !S_ISREG(sb.st_mode)) {
			snprintf(why, wl, "field '%s': no result '%s'", key, name);
			return -EINVAL;
		}
		rc = ui_job_arg(j, path);
		n++;
	}
	if (rc < 0)
		return rc;
	if (n < 1) {
		snprintf(why, wl, "pick at least one result");
		return -EINVAL;
	}
	if ((rc = api_pass(f, "metric", "metric", API_NAME, j, why, wl)) < 0 ||
	    (rc = api_pass(f, "baseline", "baseline", API_SIZE, j, why, wl)) < 0)
		return rc;
	if (ui_form_get(f, "html", html, sizeof(html)) == 1 && !strcmp(html, "1"))
		return ui_job_opt(j, "html", "-");
	return 0;
}

static int api_ctl(struct ui_str f, struct ui_job *j, char *why, size_t wl)
{
	char sock[200], verb[16], member[16], force[8];
	int rc = api_need(f, "socket", API_PATH, sock, sizeof(sock), why, wl);

	if (!rc)
		rc = api_need(f, "verb", API_NAME, verb, sizeof(verb), why, wl);
	if (rc)
		return rc;
	bool needs_member = !strcmp(verb, "fail") || !strcmp(verb, "rebuild");
	if (!needs_member && strcmp(verb, "status")) {
		snprintf(why, wl, "field 'verb': status, fail or rebuild");
		return -EINVAL;
	}
	if ((rc = ui_job_arg(j, "ctl")) || (rc = ui_job_arg(j, sock)) || (rc = ui_job_arg(j, verb)))
		return rc;
	if (needs_member) {
		if ((rc = api_need(f, "member", API_SIZE, member, sizeof(member), why, wl)))
			return rc;
		if (strspn(member, "0123456789") != strlen(member)) {
			snprintf(why, wl, "field 'member': expected a member number");
			return -EINVAL;
		}
		if ((rc = ui_job_arg(j, member)))
			return rc;
	}
	if ((rc = api_pass(f, "export", "export", API_NAME, j, why, wl)) < 0 ||
	    (rc = api_pass(f, "rate", "rate", API_SIZE, j, why, wl)) < 0)
		return rc;
	if (!strcmp(verb, "fail") && ui_form_get(f, "force", force, sizeof(force)) == 1 &&
	    !strcmp(force, "1"))
		return ui_job_arg(j, "--force");
	return 0;
}

int ui_api_job(struct ui_str form, const char *results, struct ui_job *j, char *why, size_t whylen)
{
	char kind[32];
	int rc;

	memset(j, 0, sizeof(*j));
	snprintf(why, whylen, "bad request");
	if ((rc = ui_job_arg(j, "raidlab")))
		return rc;
	if (api_need(form, "kind", API_NAME, kind, sizeof(kind), why, whylen))
		return -EINVAL;
	if (!strcmp(kind, "measure"))
		rc = api_measure(form, results, j, why, whylen);
	else if (!strcmp(kind, "advise"))
		rc = api_advise(form, results, j, why, whylen);
	else if (!strcmp(kind, "compare"))
		rc = api_compare(form, results, j, why, whylen);
	else if (!strcmp(kind, "ctl"))
		rc = api_ctl(form, j, why, whylen);
	else if (!strcmp(kind, "profiles"))
		rc = ui_job_arg(j, "profiles");
	else {
		snprintf(why, whylen, "field 'kind': measure, advise, compare, ctl or profiles");
		return -EINVAL;
	}
	if (rc == -E2BIG)
		snprintf(why, whylen, "too many or too long fields");
	return rc ? -EINVAL : 0;
}

static int api_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int ui_api_results(const char *results, char *out, size_t outlen)
{
	DIR *d = opendir(results);
	char *names[512];
	size_t n = 0, o = 0;
	struct dirent *e;

	if (!d)
		return -errno;
	while ((e = readdir(d)) && n < 512) {
		size_t len = strlen(e->d_name);
		if (len > 5 && len < 80 && !strcmp(e->d_name + len - 5, ".json") &&
		    api_valid(e->d_name, API_NAME) && (names[n] = strdup(e->d_name)))
			n++;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), api_cmp);
	o += (size_t)snprintf(out + o, outlen - o, "[");
	for (size_t i = 0; i < n; i++) {
		if (o + strlen(names[i]) + 8 < outlen)
			o += (size_t)snprintf(out + o, outlen - o, "%s\"%s\"", o > 1 ? "," : "",
			                      names[i]);
		free(names[i]);
	}
	snprintf(out + o, outlen - o, "]");
	return 0;
}
