/*
 * run_jobfile.c - reading the job files `raidlab run` is given: a path, or
 * "-" for standard input as fio accepts it, and the files they include.
 *
 * Design: a text is read whole before parsing, so the parser sees one
 * buffer whatever the source (a pipe has no size to ask for in advance: the
 * buffer doubles up to RUN_JOBFILE_MAX), and a NUL byte is reported at its
 * line and column rather than ending the text early.  run_jobfile_text is
 * quiet and says why in a buffer: the parser uses it as its reader for
 * fio's `include FILE` lines and puts the reason after the including line's
 * place; cli_run_read_jobfile reports it for the file named on the command
 * line.
 */
#include "cli/cli.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define RUN_JOBFILE_MAX (64 << 20) /* a job file larger than 64 MiB is refused */

/* The whole stream @f in *@buf (NUL-terminated); -errno. */
static int run_jobfile_slurp(FILE *f, char **buf, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *b = malloc(cap);
	while (b) {
		if (n + 1 >= cap) {
			char *more = cap < RUN_JOBFILE_MAX ? realloc(b, cap * 2) : NULL;
			if (!more) {
				free(b);
				return cap < RUN_JOBFILE_MAX ? -ENOMEM : -EFBIG;
			}
			b = more;
			cap *= 2;
		}
		size_t got = fread(b + n, 1, cap - n - 1, f);
		n += got;
		if (!got)
			break;
	}
	if (!b)
		return -ENOMEM;
	if (ferror(f)) {
		free(b);
		return -EIO;
	}
	b[n] = 0;
	*buf = b;
	*len = n;
	return 0;
}

/*
 * @path's whole text in *@text (to free), "-" being standard input; on
 * failure -errno and the message, naming the file, in @why.
 */
static int run_jobfile_text(const char *path, char **text, char *why, size_t whylen)
{
	bool in = !strcmp(path, "-");
	const char *name = in ? "<stdin>" : path;
	FILE *f = in ? stdin : fopen(path, "r");
	if (!f) {
		int e = errno;
		snprintf(why, whylen, "cannot open job file %s: %s", path, strerror(e));
		return -e;
	}
	struct stat st;
	if (!in && (fstat(fileno(f), &st) || !S_ISREG(st.st_mode))) {
		snprintf(why, whylen, "job file %s: not a regular file", path);
		fclose(f);
		return -EINVAL;
	}
	char *buf = NULL;
	size_t n = 0;
	int rc = run_jobfile_slurp(f, &buf, &n);
	if (!in)
		fclose(f);
	if (rc) {
		if (rc == -EFBIG)
			snprintf(why, whylen, "job file %s: larger than %d MiB", name,
			         RUN_JOBFILE_MAX >> 20);
		else
			snprintf(why, whylen, "job file %s: cannot read it: %s", name,
			         strerror(-rc));
		return rc;
	}
	const char *nul = memchr(buf, 0, n);
	if (nul) {
		size_t line = 1, col = 1;
		for (const char *q = buf; q < nul; q++, col++)
			if (*q == '\n')
				line++, col = 0;
		snprintf(why, whylen,
		         "job file %s:%zu: a NUL byte at column %zu (byte %zu): a job file is text",
		         name, line, col, (size_t)(nul - buf));
		free(buf);
		return -EINVAL;
	}
	*text = buf;
	return 0;
}

int cli_run_jobfile_reader(const char *path, char **text, char *why, size_t whylen)
{
	return run_jobfile_text(path, text, why, whylen);
}

int cli_run_read_jobfile(const char *path, char **text)
{
	char why[PATH_MAX + 256];
	int rc = run_jobfile_text(path, text, why, sizeof(why));
	if (!rc)
		return 0;
	char list[512];
	if (rc == -ENOENT && !strchr(path, '/') && !strchr(path, '.'))
		cli_error("run",
		          "no suite and no job file named '%s' (suites: %s; 'raidlab help suites' "
		          "describes them)",
		          path, cli_suite_list(path, list, sizeof(list)));
	else
		cli_error("run", "%s", why);
	return rc;
}
