/*
 * files.c - where a job's I/O goes, as fio says it, and how jobs group.
 *
 * fio names the files of a job with filename= (a path, a device, or several
 * separated by ':', with '\:' for a literal colon) and directory= (where
 * they live, for names that are not absolute; without filename each clone
 * k of numjobs uses its own nrfiles files named by filename_format,
 * JOBNAME.k.0 by default).  raidlab does I/O to target specs, so this file
 * turns those options into one: file("PATH", size=...) for one file, concat(...) of files for a
 * list, the value itself when it already is a spec (it has a
 * '('), null(size=...) for ioengine=null and net("HOST", port=...) for
 * ioengine=net (one socket per clone, on port + clone).  Paths are quoted in the spec
 * so any character is safe.  A file that does not exist is created by the
 * file target with the size the job covers (offset + size), as fio lays
 * out its files.  A job that replays an iolog (read_iolog) without
 * filename= runs on the files the iolog names (each at the size its
 * requests reach), or on replay_redirect's one file; fallocate= other than
 * native goes to each file as the file target's fallocate=.
 *
 * The engines that do no I/O get their own targets: cpu(...) for cpuio,
 * exec("PROGRAM", ...) for exec (the arguments' %r and %n replaced here);
 * pmemblk's PATH,BSIZE,POOLMIB names become pmemblk("PATH", ...).
 *
 * wl_job_groups splits a job file the way fio runs it: waves separated by
 * stonewall (or after the job a wait_for names), reporting groups separated
 * by stonewall or new_group.
 */
#include "workload/job.h"
#include "workload/trace.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OPT_NFALLOC 5 /* enum wl_falloc's values */

/* Append @fmt to @buf at *@pos; false when it did not fit. */
__attribute__((format(printf, 4, 5))) static bool files_append(char *buf, size_t len, size_t *pos,
                                                               const char *fmt, ...)
{
	va_list ap;
	if (*pos >= len)
		return false;
	va_start(ap, fmt);
	int n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *pos) {
		*pos = len;
		return false;
	}
	*pos += (size_t)n;
	return true;
}

/* "DIR/PATH" in quotes, with '"' and '\' escaped (fio's '\:' is a ':'). */
static bool files_add_quoted(char *buf, size_t len, size_t *pos, const char *dir, const char *path,
                             size_t plen)
{
	bool ok = files_append(buf, len, pos, "\"");
	if (plen && path[0] == '/')
		dir = NULL; /* an absolute filename ignores directory=, as in fio */
	const char *parts[2] = {dir, path};
	size_t lens[2] = {dir ? strlen(dir) : 0, plen};
	for (int k = 0; k < 2 && ok; k++) {
		for (size_t i = 0; i < lens[k] && ok; i++) {
			char c = parts[k][i];
			if (k == 1 && c == '\\' && i + 1 < lens[k] && parts[k][i + 1] == ':')
				continue; /* fio's escaped colon */
			if (c == '"' || c == '\\')
				ok = files_append(buf, len, pos, "\\");
			if (ok)
				ok = files_append(buf, len, pos, "%c", c);
		}
		if (k == 0 && dir && lens[0] && dir[lens[0] - 1] != '/' && ok)
			ok = files_append(buf, len, pos, "/");
	}
	return ok && files_append(buf, len, pos, "\"");
}

/*
 * ioengine=pmemblk: fio's PATH,BSIZE,POOLMIB (the sizes are only needed to
 * create the pool) as pmemblk("DIR/PATH", bsize=B, pool=Mm).
 */
static bool files_add_pmemblk(char *buf, size_t len, size_t *pos, const struct wl_job *job,
                              const char *dir, const char *path, size_t plen)
{
	unsigned long long num[2] = {0, 0};
	size_t n = plen;

	for (int k = 1; k >= 0; k--) {
		size_t c = n;
		while (c > 0 && path[c - 1] != ',')
			c--;
		char digits[24];
		if (!c || n - c == 0 || n - c >= sizeof(digits) ||
		    strspn(path + c, "0123456789") < n - c)
			break;
		memcpy(digits, path + c, n - c);
		digits[n - c] = '\0';
		num[k] = strtoull(digits, NULL, 10);
		if (!num[k])
			break;
		n = c - 1;
	}
	if (!num[0] || !num[1])
		n = plen; /* no sizes: PATH is all of it, and the pool must exist */
	bool ok = files_append(buf, len, pos, "pmemblk(") &&
	          files_add_quoted(buf, len, pos, dir, path, n);
	if (ok && num[0] && num[1])
		ok = files_append(buf, len, pos, ", bsize=%llu, pool=%llum", num[0], num[1]);
	if (ok && job->unlink_files)
		ok = files_append(buf, len, pos, ", unlink=1");
	return ok && files_append(buf, len, pos, ")");
}

/*
 * file("DIR/PATH", size=N), and the job's file habits as the file target's
 * parameters: unlink=1, create=0, extend=0.
 */
static bool files_add_file(char *buf, size_t len, size_t *pos, const struct wl_job *job,
                           const char *dir, const char *path, size_t plen, uint64_t size)
{
	if (job->engine == WL_ENGINE_PMEMBLK)
		return files_add_pmemblk(buf, len, pos, job, dir, path, plen);
	bool ok = files_append(buf, len, pos, "file(") &&
	          files_add_quoted(buf, len, pos, dir, path, plen);
	if (ok && size)
		ok = files_append(buf, len, pos, ", size=%llu", (unsigned long long)size);
	if (ok && job->unlink_files)
		ok = files_append(buf, len, pos, ", unlink=1");
	else if (ok && job->keep_files)
		ok = files_append(buf, len, pos, ", keep=1");
	if (ok && !job->allow_file_create)
		ok = files_append(buf, len, pos, ", create=0");
	if (ok && job->create_on_open)
		ok = files_append(buf, len, pos, ", extend=0");
	static const char *const falloc[] = {"native", "none", "posix", "keep", "truncate"};
	if (ok && job->fallocate != WL_FALLOC_NATIVE && job->fallocate < OPT_NFALLOC)
		ok = files_append(buf, len, pos, ", fallocate=%s", falloc[job->fallocate]);
	return ok && files_append(buf, len, pos, ")");
}

/*
 * fio's filename_format for clone @clone's file @filenum: $jobname, $jobnum
 * and $filenum replaced, anything else as written.  The name's length, or
 * @len when it did not fit.
 */
static size_t files_format_name(const struct wl_job *job, const char *fmt, size_t fmtlen,
                                unsigned clone, unsigned filenum, char *name, size_t len)
{
	size_t pos = 0;
	if (len)
		name[0] = '\0';
	for (const char *p = fmt; p < fmt + fmtlen && *p && pos < len;) {
		if (!strncmp(p, "$jobname", 8)) {
			files_append(name, len, &pos, "%s", job->name);
			p += 8;
		} else if (!strncmp(p, "$jobnum", 7)) {
			files_append(name, len, &pos, "%u", clone);
			p += 7;
		} else if (!strncmp(p, "$filenum", 8)) {
			files_append(name, len, &pos, "%u", filenum);
			p += 8;
		} else {
			files_append(name, len, &pos, "%c", *p++);
		}
	}
	return pos;
}

/*
 * A region of @want bytes over @nfiles files: each one's share, in 4 KiB
 * units; one file holds the region to the byte, as fio lays it out
 * (offset=100 size=64k: 65,636 bytes).
 */
static uint64_t files_share(const struct wl_job *job, uint64_t want, unsigned nfiles)
{
	uint64_t each = nfiles > 1 && want && !job->filesize ? (want + nfiles - 1) / nfiles : want;
	return nfiles == 1 && !job->filesize ? each : (each + 4095) & ~4095ull;
}

/* Clone @clone's files named by filename_format: one file, or concat() of nrfiles. */
static bool files_add_formatted(char *buf, size_t len, size_t *pos, const struct wl_job *job,
                                const char *dir, unsigned clone, uint64_t want)
{
	unsigned n = job->nrfiles ? job->nrfiles : 1;
	uint64_t each = files_share(job, want, n);
	bool ok = n == 1 || files_append(buf, len, pos, "concat(");
	for (unsigned f = 0; f < n && ok; f++) {
		char name[WL_PATH_MAX + 64];
		size_t nl =
		    files_format_name(job, job->filename_format, strlen(job->filename_format),
		                      clone, f, name, sizeof(name));
		ok = nl < sizeof(name) && nl > 0 && (!f || files_append(buf, len, pos, ", ")) &&
		     files_add_file(buf, len, pos, job, dir, name, nl, each);
	}
	return ok && (n == 1 || files_append(buf, len, pos, ")"));
}

/* The next ':'-separated name (fio's '\:' does not separate); its length. */
static size_t files_next(const char *p)
{
	size_t i = 0;
	for (; p[i]; i++) {
		if (p[i] == '\\' && p[i + 1] == ':') {
			i++;
			continue;
		}
		if (p[i] == ':')
			break;
	}
	return i;
}

unsigned wl_job_nfiles(const struct wl_job *job)
{
	unsigned n = 0;

	if (!job->filename[0])
		return job->nrfiles ? job->nrfiles : 1;
	if (strchr(job->filename, '('))
		return 0;
	for (const char *p = job->filename;; n++) {
		size_t l = files_next(p);
		if (!p[l])
			return n + 1;
		p += l + 1;
	}
}

/*
 * read_iolog without filename=: the files the iolog names, in @dir, each
 * created (when missing) at the size its requests reach, as concat() when
 * there are several; replay_redirect's one file instead when given.
 * Returns 0, 1 when the trace names no files (a block trace), or -errno.
 */
static int files_iolog_spec(const struct wl_job *job, const char *dir, char *buf, size_t len,
                            char *msg, size_t msglen)
{
	struct wl_trace tr;
	char tmsg[256];
	size_t pos = 0;
	int rc = wl_trace_load(job->read_iolog, &tr, tmsg, sizeof(tmsg));

	if (rc) {
		snprintf(msg, msglen, "job '%s': read_iolog: %s", job->name, tmsg);
		return rc;
	}
	bool ok = true, redirect = job->replay_redirect[0] != '\0';
	unsigned n = redirect ? 1 : tr.nfiles;
	if (!n) {
		wl_trace_free(&tr);
		return 1;
	}
	if (n > 1)
		ok = files_append(buf, len, &pos, "concat(");
	for (unsigned i = 0; i < n && ok; i++) {
		const char *name = redirect ? job->replay_redirect : tr.files[i];
		uint64_t need = redirect ? tr.end : wl_trace_file_end(&tr, i);
		ok = (!i || files_append(buf, len, &pos, ", ")) &&
		     files_add_file(buf, len, &pos, job, redirect ? NULL : dir, name, strlen(name),
		                    (need + 4095) & ~4095ull);
	}
	wl_trace_free(&tr);
	if (ok && n > 1)
		ok = files_append(buf, len, &pos, ")");
	if (!ok) {
		snprintf(msg, msglen,
		         "job '%s': the files read_iolog names make a target spec longer than %zu "
		         "bytes",
		         job->name, len - 1);
		return -EINVAL;
	}
	return 0;
}

/*
 * The file-operation engines (filecreate ... dirdelete): clone @clone's
 * nrfiles entries as one fileops() target, named by filename_format in
 * directory= (or the current folder) with the number where $filenum is.
 */
static int files_fileops_spec(const struct wl_job *job, unsigned clone, const char *op, bool dirs,
                              char *buf, size_t len, char *msg, size_t msglen)
{
	const char *fmt = job->filename_format, *num = strstr(fmt, "$filenum");
	const char *dir = job->directory[0] ? job->directory : ".";
	char pre[WL_PATH_MAX + 64], suf[WL_PATH_MAX + 64];
	uint32_t minbs, maxbs;
	size_t pos = 0;

	if (job->filename[0] || !num) {
		snprintf(msg, msglen,
		         "job '%s': ioengine=%s works on the files that nrfiles and "
		         "filename_format name (with $filenum) in directory=, not on filename=",
		         job->name, job->engine_name);
		return -EINVAL;
	}
	size_t pl = files_format_name(job, fmt, (size_t)(num - fmt), clone, 0, pre, sizeof(pre));
	size_t sl = files_format_name(job, num + 8, strlen(num + 8), clone, 0, suf, sizeof(suf));
	wl_job_bs_bounds(job, &minbs, &maxbs);
	if (pl < sizeof(pre) && sl < sizeof(suf) && files_append(buf, len, &pos, "fileops(") &&
	    files_add_quoted(buf, len, &pos, pl && pre[0] == '/' ? NULL : dir, pre, pl) &&
	    files_append(buf, len, &pos, ", ") && files_add_quoted(buf, len, &pos, NULL, suf, sl) &&
	    files_append(buf, len, &pos, ", op=%s, dirs=%d, count=%u, unit=%u, filesize=%llu)", op,
	                 dirs, job->nrfiles ? job->nrfiles : 1, maxbs,
	                 (unsigned long long)(job->filesize ? job->filesize : maxbs)))
		return 0;
	snprintf(msg, msglen, "job '%s': its file names are too long", job->name);
	return -EINVAL;
}

/* exec's arguments with fio's %r (runtime in whole seconds) and %n (job name) replaced. */
static bool files_exec_args(const struct wl_job *job, char *out, size_t len)
{
	size_t pos = 0;
	bool ok = true;

	out[0] = '\0';
	for (const char *p = job->exec_args; *p && ok;) {
		if (!strncmp(p, "%r", 2))
			ok = files_append(out, len, &pos, "%llu",
			                  (unsigned long long)(job->runtime_ns / 1000000000ull));
		else if (!strncmp(p, "%n", 2))
			ok = files_append(out, len, &pos, "%s", job->name);
		else
			ok = files_append(out, len, &pos, "%c", *p);
		p += *p == '%' && (p[1] == 'r' || p[1] == 'n') ? 2 : 1;
	}
	return ok;
}

/*
 * The engines that do no I/O: cpuio's cpu(...) and exec's exec(...) for
 * clone @clone (each clone runs its own program, as each fio job does).
 */
static int files_noio_spec(const struct wl_job *job, unsigned clone, uint64_t want, char *buf,
                           size_t len, char *msg, size_t msglen)
{
	char args[2 * WL_PATH_MAX];
	size_t pos = 0;
	bool ok;

	if (job->engine == WL_ENGINE_CPUIO)
		ok = files_append(buf, len, &pos, "cpu(size=%llu, mode=%s, chunk=%uus)",
		                  (unsigned long long)(want ? want : 1ull << 30),
		                  job->cpu_qsort ? "qsort" : "noop", job->cpuchunks_us);
	else
		ok = files_exec_args(job, args, sizeof(args)) &&
		     files_append(buf, len, &pos, "exec(") &&
		     files_add_quoted(buf, len, &pos, NULL, job->exec_program,
		                      strlen(job->exec_program)) &&
		     files_append(buf, len, &pos, ", args=") &&
		     files_add_quoted(buf, len, &pos, NULL, args, strlen(args)) &&
		     files_append(buf, len, &pos, ", name=") &&
		     files_add_quoted(buf, len, &pos, NULL, job->name, strlen(job->name)) &&
		     files_append(buf, len, &pos,
		                  ", copy=%u, runtime=%lluns, grace=%us, redirect=%d)", clone,
		                  (unsigned long long)(job->ramp_ns + job->runtime_ns),
		                  job->exec_grace_s, job->exec_redirect);
	if (ok)
		return 0;
	snprintf(msg, msglen, "job '%s': program= and arguments= make too long a target spec",
	         job->name);
	return -EINVAL;
}

/*
 * ioengine=net: clone @clone's socket as one net() target, on port + clone
 * as fio.  A UDP or unix job that reads is the receiver (fio's rule); its
 * region is @want bytes of stream.  id= keeps the clones' and the jobs'
 * sockets apart (targets with the same spec are shared).
 */
static int files_net_spec(const struct wl_job *job, unsigned clone, uint64_t want, char *buf,
                          size_t len, char *msg, size_t msglen)
{
	static const char *const protos[] = {"tcp", "tcpv6", "udp", "udpv6", "unix"};
	struct wl_net_addr a;
	size_t pos = 0;
	int rc = wl_job_net_addr(job, &a, msg, msglen);
	if (rc)
		return rc;
	bool tcp = a.proto == WL_NET_TCP || a.proto == WL_NET_TCPV6;
	bool listen = tcp ? job->net.listen : job->rw == WL_RW_READ;
	char id[WL_NAME_MAX + 16];
	snprintf(id, sizeof(id), "%s.%u", job->name, clone);
	if (files_append(buf, len, &pos, "net(") &&
	    files_add_quoted(buf, len, &pos, NULL, a.host, strlen(a.host)) &&
	    files_append(buf, len, &pos,
	                 ", port=%u, protocol=%s, listen=%d, pingpong=%d, nodelay=%d, ttl=%u, "
	                 "window_size=%u, mss=%u, interface=",
	                 a.port ? a.port + clone : 0, protos[a.proto], listen, job->net.pingpong,
	                 job->net.nodelay, job->net.ttl, job->net.window_size, job->net.mss) &&
	    files_add_quoted(buf, len, &pos, NULL, job->net.interface,
	                     strlen(job->net.interface)) &&
	    (!want || files_append(buf, len, &pos, ", size=%llu", (unsigned long long)want)) &&
	    (!job->runtime_ns ||
	     files_append(buf, len, &pos, ", runtime=%lluns",
	                  (unsigned long long)(job->ramp_ns + job->runtime_ns))) &&
	    files_append(buf, len, &pos, ", id=") &&
	    files_add_quoted(buf, len, &pos, NULL, id, strlen(id)) &&
	    files_append(buf, len, &pos, ")"))
		return 0;
	snprintf(msg, msglen, "job '%s': its net() target spec is too long", job->name);
	return -EINVAL;
}

int wl_job_target_spec(const struct wl_job *job, unsigned clone, char *buf, size_t len, char *msg,
                       size_t msglen)
{
	size_t pos = 0;
	uint64_t want = job->filesize ? job->filesize : job->size_pct ? 0 : job->offset + job->size;

	if (msg && msglen)
		msg[0] = '\0';
	if (!len)
		return -EINVAL;
	buf[0] = '\0';
	bool dirs;
	const char *op = wl_engine_fileop(job->engine, &dirs);
	if (op)
		return files_fileops_spec(job, clone, op, dirs, buf, len, msg, msglen);
	if (job->engine == WL_ENGINE_CPUIO || job->engine == WL_ENGINE_EXEC)
		return files_noio_spec(job, clone, want, buf, len, msg, msglen);
	if (job->engine == WL_ENGINE_NET)
		return files_net_spec(job, clone, want, buf, len, msg, msglen);
	if (job->engine == WL_ENGINE_NBD) /* the export at uri=, its size the server's */
		return files_append(buf, len, &pos, "nbd(") &&
		               files_add_quoted(buf, len, &pos, NULL, job->nbd_uri,
		                                strlen(job->nbd_uri)) &&
		               files_append(buf, len, &pos, ")")
		           ? 0
		           : -EINVAL;
	if (job->engine == WL_ENGINE_NULL) {
		if (want)
			files_append(buf, len, &pos, "null(size=%llu)", (unsigned long long)want);
		else
			files_append(buf, len, &pos, "null()");
		return 0;
	}
	const char *dir = job->directory[0] ? job->directory : NULL;
	/*
	 * offset_increment moves copy k's region up by k of it: its own files
	 * hold that far, files the copies share hold the last copy's region
	 * (fio lays a file out to the highest region a job asks of it).
	 */
	if (want && !job->filesize && job->offset_increment)
		want +=
		    (uint64_t)(job->filename[0] ? job->numjobs - 1 : clone) * job->offset_increment;
	if (!job->filename[0] && job->read_iolog[0] && (dir || job->replay_redirect[0]) &&
	    job->engine != WL_ENGINE_PMEMBLK) {
		int rc = files_iolog_spec(job, dir, buf, len, msg, msglen);
		if (rc <= 0)
			return rc;
		buf[0] = '\0';
	}
	if (!job->filename[0]) {
		if (!dir)
			return 1;
		if (!files_add_formatted(buf, len, &pos, job, dir, clone, want))
			goto toolong;
		return 0;
	}
	if (strchr(job->filename, '(')) {
		if (dir) {
			snprintf(
			    msg, msglen,
			    "job '%s': filename='%s' is a target spec, which directory= cannot "
			    "apply to",
			    job->name, job->filename);
			return -EINVAL;
		}
		files_append(buf, len, &pos, "%s", job->filename);
		return pos < len ? 0 : -EINVAL;
	}
	unsigned nfiles = 0;
	for (const char *p = job->filename;;) {
		size_t n = files_next(p);
		if (n == 0) {
			snprintf(msg, msglen,
			         "job '%s': filename='%s' has an empty name in its list", job->name,
			         job->filename);
			return -EINVAL;
		}
		nfiles++;
		if (!p[n])
			break;
		p += n + 1;
	}
	/* Each file of a list holds an equal share of the region (or filesize). */
	uint64_t each = files_share(job, want, nfiles);
	if (nfiles > 1 && !files_append(buf, len, &pos, "concat("))
		goto toolong;
	const char *p = job->filename;
	for (unsigned i = 0; i < nfiles; i++) {
		size_t n = files_next(p);
		if ((i && !files_append(buf, len, &pos, ", ")) ||
		    !files_add_file(buf, len, &pos, job, dir, p, n, each))
			goto toolong;
		p += n + 1;
	}
	if (nfiles > 1 && !files_append(buf, len, &pos, ")"))
		goto toolong;
	return 0;
toolong:
	snprintf(msg, msglen,
	         "job '%s': filename/directory make a target spec longer than %zu bytes", job->name,
	         len - 1);
	return -EINVAL;
}

int wl_job_groups(const struct wl_job *jobs, size_t njobs, unsigned *wave, unsigned *group,
                  size_t *nwaves, char *msg, size_t msglen)
{
	unsigned w = 0, g = 0, last = 0;

	for (size_t i = 0; i < njobs; i++) {
		if (i > 0 && jobs[i].stonewall)
			w = last + 1; /* after everything before it */
		if (i > 0 && (jobs[i].stonewall || jobs[i].new_group))
			g++;
		wave[i] = w;
		if (jobs[i].wait_for[0]) {
			size_t k = i;
			while (k-- > 0)
				if (!strcmp(jobs[k].name, jobs[i].wait_for))
					break;
			if (k == (size_t)-1) {
				snprintf(msg, msglen, "job '%s': wait_for=%s names no earlier job",
				         jobs[i].name, jobs[i].wait_for);
				return -EINVAL;
			}
			if (wave[k] + 1 > wave[i])
				wave[i] = wave[k] + 1;
		}
		if (wave[i] > last)
			last = wave[i];
		if (group)
			group[i] = g;
	}
	*nwaves = njobs ? last + 1 : 0;
	return 0;
}
