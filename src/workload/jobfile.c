/*
 * jobfile.c - fio-style INI job files.
 *
 * Design: one pass over the text, one line at a time, copied into a fixed
 * buffer of WL_JOBFILE_LINE_MAX + 1 bytes (so a longer line is an error, not
 * a reallocation).  Each line is cut at its comment, trimmed, and is then a
 * section header, "key=value" or a bare "key".  The parser keeps two jobs:
 * the [global] defaults so far (starting from the caller's base job) and the
 * job of the current section (a copy of the defaults when its header was
 * read).  Options go through wl_job_set, so the job file and the command
 * line accept exactly the same options with the same messages; the file only
 * adds "FILE:LINE" as the place.  A job is checked with wl_job_validate when
 * its section ends and then appended to the result.  target= and name= are
 * the two keys handled here: target belongs to the whole file, name to a job.
 * An `include FILE` line reads FILE's lines in its place, through the
 * caller's reader (the parser itself opens no file, so it can be fuzzed).
 *
 * See wl_jobfile_parse in job.h for the accepted syntax and precedence.
 */
#include "workload/job.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define JOBFILE_INCLUDE_DEPTH 8 /* include files within include files, at most */

enum jobfile_section {
	JOBFILE_NONE = 0, /* before the first header */
	JOBFILE_GLOBAL,
	JOBFILE_JOB,
};

struct jobfile_state {
	const char *fname;
	char *msg;
	size_t msglen;
	size_t lineno;
	char where[512]; /* "FILE:LINE" of the current line */

	enum jobfile_section section;
	struct wl_job global; /* defaults for the jobs that follow */
	struct wl_job cur;    /* the job being read (section == JOBFILE_JOB) */
	size_t cur_line;      /* its header line */
	size_t global_from;   /* where the current [global]'s options start in global.given */

	struct wl_job *jobs;
	size_t njobs, cap;
	char *target;

	wl_jobfile_reader read; /* loads include files; NULL: include is refused */
	unsigned depth;         /* include files open around the current line */
};

__attribute__((format(printf, 2, 3))) static int jobfile_fail(struct jobfile_state *st,
                                                              const char *fmt, ...)
{
	if (!st->msg || !st->msglen)
		return -EINVAL;
	int n = snprintf(st->msg, st->msglen, "%s: ", st->where);
	if (n < 0 || (size_t)n >= st->msglen)
		return -EINVAL;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(st->msg + n, st->msglen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static bool jobfile_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Trim in place; returns the new start. */
static char *jobfile_trim(char *s)
{
	while (jobfile_is_space(*s))
		s++;
	size_t len = strlen(s);
	while (len > 0 && jobfile_is_space(s[len - 1]))
		s[--len] = '\0';
	return s;
}

/*
 * Cut the line at a comment: ';' or '#' at its start or after whitespace,
 * outside a "quoted" part.
 */
static void jobfile_strip_comment(char *s)
{
	bool quoted = false;
	for (size_t i = 0; s[i]; i++) {
		if (s[i] == '"')
			quoted = !quoted;
		else if (!quoted && (s[i] == ';' || s[i] == '#') &&
		         (i == 0 || jobfile_is_space(s[i - 1]))) {
			s[i] = '\0';
			return;
		}
	}
}

/* Check the finished job and append it. */
static int jobfile_finish_job(struct jobfile_state *st)
{
	char where[600];
	if (st->section != JOBFILE_JOB)
		return 0;
	st->section = JOBFILE_NONE;
	wl_given_sort(st->cur.given, 0);
	snprintf(where, sizeof(where), "%s:%zu: job '%s'", st->fname, st->cur_line, st->cur.name);
	int ret = wl_job_validate(&st->cur, where, st->msg, st->msglen);
	if (ret)
		return ret;
	if (st->njobs == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 4;
		struct wl_job *jobs = realloc(st->jobs, cap * sizeof(*jobs));
		if (!jobs) {
			jobfile_fail(st, "out of memory");
			return -ENOMEM;
		}
		st->jobs = jobs;
		st->cap = cap;
	}
	st->jobs[st->njobs++] = st->cur;
	return 0;
}

static int jobfile_section(struct jobfile_state *st, char *line)
{
	char *close = strchr(line, ']');
	if (!close)
		return jobfile_fail(st, "missing ']' in section header '%s'", line);
	char *rest = jobfile_trim(close + 1);
	if (*rest)
		return jobfile_fail(st, "unexpected text '%s' after ']' in section header", rest);
	*close = '\0';
	char *name = jobfile_trim(line + 1);
	if (!*name)
		return jobfile_fail(st, "empty section name '[]'");
	if (strchr(name, '['))
		return jobfile_fail(st, "section name '%s' contains '['", name);
	size_t len = strlen(name);
	if (len >= WL_NAME_MAX)
		return jobfile_fail(st, "section name '%s' is longer than %d characters", name,
		                    WL_NAME_MAX - 1);
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
			return jobfile_fail(st, "section name contains a control character");

	int ret = jobfile_finish_job(st);
	if (ret)
		return ret;
	if (st->section == JOBFILE_GLOBAL) /* fio orders each section's options */
		wl_given_sort(st->global.given, st->global_from);
	if (strcmp(name, "global") == 0) {
		st->section = JOBFILE_GLOBAL;
		st->global_from = strlen(st->global.given);
		return 0;
	}
	if (st->njobs >= WL_JOBFILE_JOBS_MAX)
		return jobfile_fail(st, "too many jobs: at most %d job sections are allowed",
		                    WL_JOBFILE_JOBS_MAX);
	st->section = JOBFILE_JOB;
	st->cur = st->global;
	st->cur.given[0] = '\0'; /* fio lists a job's own options, not [global]'s */
	memcpy(st->cur.name, name, len + 1);
	st->cur_line = st->lineno;
	return 0;
}

static int jobfile_include(struct jobfile_state *st, const char *file);

static int jobfile_option(struct jobfile_state *st, char *line)
{
	char *key = line, *value = NULL;
	char *eq = strchr(line, '=');
	if (eq) {
		*eq = '\0';
		key = jobfile_trim(line);
		value = jobfile_trim(eq + 1);
		if (value[0] == '"') {
			char *endq = strchr(value + 1, '"');
			if (!endq)
				return jobfile_fail(st, "missing closing '\"' in the value of '%s'",
				                    key);
			if (endq[1])
				return jobfile_fail(
				    st,
				    "unexpected text '%s' after the closing '\"' in "
				    "the value of '%s'",
				    endq + 1, key);
			*endq = '\0';
			value++;
		}
	}
	if (!*key)
		return jobfile_fail(st, "missing option name before '='");
	if (!eq && strncmp(key, "include", 7) == 0 && (key[7] == ' ' || key[7] == '\t'))
		return jobfile_include(st, jobfile_trim(key + 7));
	if (strpbrk(key, " \t"))
		return jobfile_fail(st, "option name '%s' contains whitespace (expected key=value)",
		                    key);
	if (st->section == JOBFILE_NONE)
		return jobfile_fail(st,
		                    "option '%s' outside any section (start with [global] or "
		                    "[jobname])",
		                    key);

	if (strcmp(key, "target") == 0) {
		if (st->section != JOBFILE_GLOBAL)
			return jobfile_fail(st,
			                    "target= belongs in [global]: all jobs of a file share "
			                    "one target");
		if (st->njobs > 0)
			return jobfile_fail(st, "target= must come before the first job");
		if (!value || !*value)
			return jobfile_fail(st, "option 'target': needs a value (target=SPEC)");
		if (st->target)
			return jobfile_fail(st, "target= given twice in [global] ('%s', then '%s')",
			                    st->target, value);
		char *t = strdup(value);
		if (!t) {
			jobfile_fail(st, "out of memory");
			return -ENOMEM;
		}
		free(st->target);
		st->target = t;
		return 0;
	}
	if (strcmp(key, "name") == 0 && st->section == JOBFILE_GLOBAL) {
		/* As in fio: checked, but every job is named by its section header. */
		struct wl_job tmp = st->global;
		return wl_job_set(&tmp, key, value, st->where, st->msg, st->msglen);
	}

	struct wl_job *job = st->section == JOBFILE_GLOBAL ? &st->global : &st->cur;
	return wl_job_set(job, key, value, st->where, st->msg, st->msglen);
}

/*
 * fio's substitutions, in place: ${VAR} is the environment variable VAR
 * (an error if it is not set), $ncpus the online CPUs, $pagesize the page
 * size, $mb_memory the memory in MiB.  The result must fit the line buffer.
 */
static int jobfile_substitute(struct jobfile_state *st, char *buf)
{
	char out[WL_JOBFILE_LINE_MAX + 1];
	size_t o = 0;

	if (!strchr(buf, '$'))
		return 0;
	for (const char *p = buf; *p;) {
		char val[64];
		const char *rep = NULL;
		size_t skip = 0;
		if (p[0] == '$' && p[1] == '{') {
			const char *end = strchr(p + 2, '}');
			char var[128];
			if (!end || (size_t)(end - p - 2) >= sizeof(var) || end == p + 2)
				return jobfile_fail(st, "malformed ${VAR} reference");
			memcpy(var, p + 2, (size_t)(end - p - 2));
			var[end - p - 2] = '\0';
			rep = getenv(var);
			if (!rep)
				return jobfile_fail(
				    st, "environment variable '%s' (in ${%s}) is not set", var,
				    var);
			skip = (size_t)(end - p + 1);
		} else if (p[0] == '$') {
			static const char *const names[] = {"ncpus", "pagesize", "mb_memory"};
			for (int i = 0; i < 3 && !rep; i++) {
				size_t n = strlen(names[i]);
				if (strncmp(p + 1, names[i], n) ||
				    isalnum((unsigned char)p[1 + n]) || p[1 + n] == '_')
					continue;
				long v = i == 0   ? sysconf(_SC_NPROCESSORS_ONLN)
				         : i == 1 ? sysconf(_SC_PAGESIZE)
				                  : (long)((uint64_t)sysconf(_SC_PHYS_PAGES) *
				                               (uint64_t)sysconf(_SC_PAGESIZE) >>
				                           20);
				snprintf(val, sizeof(val), "%ld", v);
				rep = val;
				skip = n + 1;
			}
		}
		if (!rep) {
			rep = p;
			skip = 1;
			if (o + 1 > WL_JOBFILE_LINE_MAX)
				return jobfile_fail(st,
				                    "line is longer than %d characters after "
				                    "substitution",
				                    WL_JOBFILE_LINE_MAX);
			out[o++] = *p;
			p++;
			continue;
		}
		size_t n = strlen(rep);
		if (o + n > WL_JOBFILE_LINE_MAX)
			return jobfile_fail(st,
			                    "line is longer than %d characters after substitution",
			                    WL_JOBFILE_LINE_MAX);
		memcpy(out + o, rep, n);
		o += n;
		p += skip;
	}
	out[o] = '\0';
	memcpy(buf, out, o + 1);
	return 0;
}

static int jobfile_line(struct jobfile_state *st, char *buf)
{
	jobfile_strip_comment(buf);
	int ret = jobfile_substitute(st, buf);
	if (ret)
		return ret;
	char *line = jobfile_trim(buf);
	if (!*line)
		return 0;
	if (line[0] == '[')
		return jobfile_section(st, line);
	return jobfile_option(st, line);
}

/* Every line of @text, as the file st->fname (its line numbers from 1). */
static int jobfile_text(struct jobfile_state *st, const char *text)
{
	char line[WL_JOBFILE_LINE_MAX + 1];
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *next = nl ? nl + 1 : p + len;
		st->lineno++;
		snprintf(st->where, sizeof(st->where), "%s:%zu", st->fname, st->lineno);
		if (len > 0 && p[len - 1] == '\r')
			len--;
		if (len > WL_JOBFILE_LINE_MAX)
			return jobfile_fail(st, "line is longer than %d characters",
			                    WL_JOBFILE_LINE_MAX);
		memcpy(line, p, len);
		line[len] = '\0';
		int ret = jobfile_line(st, line);
		if (ret)
			return ret;
		p = next;
	}
	return 0;
}

/*
 * fio's `include FILE` inside a section: FILE's lines read as if they stood
 * here (they may open sections of their own).  A relative FILE is found
 * beside the including file, as fio finds it; a file read from standard
 * input includes from the current folder.  Includes nest up to
 * JOBFILE_INCLUDE_DEPTH deep, which also stops a file including itself.
 */
static int jobfile_include(struct jobfile_state *st, const char *file)
{
	if (st->section == JOBFILE_NONE)
		return jobfile_fail(st,
		                    "include %s: outside any section (fio reads include "
		                    "lines only inside [global] or a [job])",
		                    file);
	if (!*file)
		return jobfile_fail(st, "include: needs a file name");
	if (!st->read)
		return jobfile_fail(st,
		                    "include %s: include files are only read from a job file "
		                    "on disk",
		                    file);
	if (st->depth >= JOBFILE_INCLUDE_DEPTH)
		return jobfile_fail(st,
		                    "include %s: include files nest more than %d deep (does "
		                    "one include itself?)",
		                    file, JOBFILE_INCLUDE_DEPTH);
	const char *slash = strrchr(st->fname, '/');
	bool beside = file[0] != '/' && slash && st->fname[0] != '<';
	int dirlen = beside ? (int)(slash - st->fname) : 0;
	size_t plen = (size_t)dirlen + strlen(file) + 2;
	char *path = malloc(plen);
	if (!path) {
		jobfile_fail(st, "out of memory");
		return -ENOMEM;
	}
	if (beside)
		snprintf(path, plen, "%.*s/%s", dirlen, st->fname, file);
	else
		snprintf(path, plen, "%s", file);
	char *text = NULL, why[WL_PATH_MAX + 256];
	int ret = st->read(path, &text, why, sizeof(why));
	if (ret) {
		ret = jobfile_fail(st, "include %s: %s", file, why);
		free(path);
		return ret;
	}
	const char *fname = st->fname;
	size_t lineno = st->lineno;
	st->fname = path;
	st->lineno = 0;
	st->depth++;
	ret = jobfile_text(st, text);
	st->depth--;
	st->fname = fname;
	st->lineno = lineno;
	snprintf(st->where, sizeof(st->where), "%s:%zu", st->fname, st->lineno);
	free(text);
	free(path);
	return ret;
}

int wl_jobfile_parse(const char *text, const char *fname, const struct wl_job *base,
                     struct wl_jobfile *out, char *msg, size_t msglen)
{
	return wl_jobfile_parse_from(text, fname, base, NULL, out, msg, msglen);
}

int wl_jobfile_parse_from(const char *text, const char *fname, const struct wl_job *base,
                          wl_jobfile_reader read, struct wl_jobfile *out, char *msg, size_t msglen)
{
	struct jobfile_state *st;
	int ret = 0;

	if (msg && msglen)
		msg[0] = '\0';
	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (!text) {
		if (msg && msglen)
			snprintf(msg, msglen, "%s: no text", fname ? fname : "job file");
		return -EINVAL;
	}
	st = calloc(1, sizeof(*st));
	if (!st) {
		if (msg && msglen)
			snprintf(msg, msglen, "%s: out of memory", fname ? fname : "job file");
		return -ENOMEM;
	}
	st->fname = fname ? fname : "job file";
	st->msg = msg;
	st->msglen = msglen;
	st->read = read;
	if (base)
		st->global = *base;
	else
		wl_job_init(&st->global);

	ret = jobfile_text(st, text);
	if (ret)
		goto fail;
	ret = jobfile_finish_job(st);
	if (ret)
		goto fail;
	if (st->njobs == 0) {
		if (msg && msglen)
			snprintf(msg, msglen,
			         "%s: no job sections: add at least one [jobname] section (besides "
			         "[global])",
			         st->fname);
		ret = -EINVAL;
		goto fail;
	}
	if (st->section == JOBFILE_GLOBAL)
		wl_given_sort(st->global.given, st->global_from);
	out->jobs = st->jobs;
	out->njobs = st->njobs;
	out->target = st->target;
	memcpy(out->global_given, st->global.given, sizeof(out->global_given));
	free(st);
	return 0;
fail:
	free(st->jobs);
	free(st->target);
	free(st);
	return ret;
}

void wl_jobfile_free(struct wl_jobfile *jf)
{
	if (!jf)
		return;
	free(jf->jobs);
	free(jf->target);
	jf->jobs = NULL;
	jf->njobs = 0;
	jf->target = NULL;
}
