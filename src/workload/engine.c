/*
 * engine.c - what each ioengine= means to the runner, in one table: the
 * executor its workers run on, the flags its requests carry, and for the
 * engines whose I/O is not a transfer, what a request does instead.
 *
 * Design: an engine is a row, not a branch in the request path.  The
 * request path (run.c) stays the same for every engine: it issues requests
 * of the job's pattern and times them.  What differs is where they go:
 *   - io_uring, libaio, posixaio, psync (sync, pvsync...): data transfers
 *     on the job's files through that executor;
 *   - null: the null() target (files.c), nothing is transferred;
 *   - falloc, ftruncate (fio's engines of those names): synchronous, each
 *     request marked RL_IO_SPACE / RL_IO_TRUNC so the file target makes it
 *     that system call on the file (targets/file.c, core/io.h);
 *   - mmap: synchronous, each request marked RL_IO_MMAP so the file
 *     target copies to or from the file mapped into memory;
 *   - filecreate, filestat, filedelete, dircreate, dirstat, dirdelete:
 *     the job's nrfiles files become one fileops() target (files.c,
 *     targets/fileops.c) in which request k is the operation on file k,
 *     timed as fio times it, so the job's IOPS are files per second;
 *   - cpuio, exec (fio's engines that do no I/O): a cpu() or exec() target
 *     (targets/cpu.c, exec.c) whose requests burn CPU or watch a program;
 *     they are counted and timed as fio counts them (total_ios, clat) but
 *     move no bytes, and after each cpuio request the job idles so that it
 *     is busy cpuload percent of the time (wl_engine_think_ns);
 *   - pmemblk: a pmemblk() target (targets/pmemblk.c), libpmemblk's block
 *     pool in a plain file, reached through the ordinary request path;
 *   - net: a net() target (targets/net.c), one socket per job clone: a
 *     write sends the block, a read receives one.  It is a stream: the
 *     peer ending it ends the job (-ESHUTDOWN), and the target is finished
 *     when the job's workers end, so the peer sees the end of the stream;
 *   - nbd: an nbd() target (targets/nbd.c), the export at the job's uri=,
 *     one connection per job clone; on io_uring's executor, whose ring
 *     polls the connection's socket, so requests are libnbd's asynchronous
 *     commands and the job keeps iodepth of them in flight, as fio's.
 */
#include "workload/run_priv.h"

struct wl_engine_row {
	enum rl_exec_kind exec; /* on a real clock */
	uint8_t io_flags;       /* RL_IO_* on each request of the job's pattern */
	const char *fileop;     /* fileops()'s op, or NULL */
	bool dirs;              /* fileops() on folders */
	bool noio;              /* requests move no bytes (fio's FIO_NOIO engines) */
	bool stream;            /* a stream to a peer (wl_engine_stream) */
};

static const struct wl_engine_row wl_engine_rows[WL_ENGINE_COUNT] = {
    [WL_ENGINE_IO_URING] = {.exec = RL_EXEC_URING},
    [WL_ENGINE_PSYNC] = {.exec = RL_EXEC_PSYNC},
    [WL_ENGINE_LIBAIO] = {.exec = RL_EXEC_LIBAIO},
    [WL_ENGINE_NULL] = {.exec = RL_EXEC_URING},
    [WL_ENGINE_FALLOC] = {.exec = RL_EXEC_PSYNC, .io_flags = RL_IO_SPACE},
    [WL_ENGINE_FTRUNCATE] = {.exec = RL_EXEC_PSYNC, .io_flags = RL_IO_TRUNC},
    [WL_ENGINE_FILECREATE] = {.exec = RL_EXEC_PSYNC, .fileop = "create"},
    [WL_ENGINE_FILESTAT] = {.exec = RL_EXEC_PSYNC, .fileop = "stat"},
    [WL_ENGINE_FILEDELETE] = {.exec = RL_EXEC_PSYNC, .fileop = "delete"},
    [WL_ENGINE_DIRCREATE] = {.exec = RL_EXEC_PSYNC, .fileop = "create", .dirs = true},
    [WL_ENGINE_DIRSTAT] = {.exec = RL_EXEC_PSYNC, .fileop = "stat", .dirs = true},
    [WL_ENGINE_DIRDELETE] = {.exec = RL_EXEC_PSYNC, .fileop = "delete", .dirs = true},
    [WL_ENGINE_CPUIO] = {.exec = RL_EXEC_PSYNC, .noio = true},
    [WL_ENGINE_EXEC] = {.exec = RL_EXEC_PSYNC, .noio = true},
    [WL_ENGINE_PMEMBLK] = {.exec = RL_EXEC_PSYNC},
    [WL_ENGINE_NET] = {.exec = RL_EXEC_PSYNC, .stream = true},
    [WL_ENGINE_MMAP] = {.exec = RL_EXEC_PSYNC, .io_flags = RL_IO_MMAP},
    [WL_ENGINE_POSIXAIO] = {.exec = RL_EXEC_POSIXAIO},
    [WL_ENGINE_NBD] = {.exec = RL_EXEC_URING},
};

static const struct wl_engine_row *wl_engine_row(enum wl_engine e)
{
	return &wl_engine_rows[(unsigned)e < WL_ENGINE_COUNT ? e : WL_ENGINE_IO_URING];
}

enum rl_exec_kind wl_engine_exec(enum wl_engine e)
{
	return wl_engine_row(e)->exec;
}

uint8_t wl_engine_io_flags(enum wl_engine e)
{
	return wl_engine_row(e)->io_flags;
}

const char *wl_engine_fileop(enum wl_engine e, bool *dirs)
{
	*dirs = wl_engine_row(e)->dirs;
	return wl_engine_row(e)->fileop;
}

bool wl_engine_noio(enum wl_engine e)
{
	return wl_engine_row(e)->noio;
}

/*
 * The pause after a request that took @lat_ns: thinktime=, or for cpuio
 * the idle time that makes the burn cpuload percent of the cycle (as fio
 * sets its thinktime from the burn's length, measured for qsort).
 */
uint64_t wl_engine_think_ns(const struct wl_job *job, uint64_t lat_ns)
{
	if (job->engine != WL_ENGINE_CPUIO || !job->cpuload || job->cpuload >= 100)
		return job->engine == WL_ENGINE_CPUIO ? 0 : job->thinktime_ns;
	return lat_ns * (100 - job->cpuload) / job->cpuload;
}

bool wl_engine_stream(enum wl_engine e)
{
	return wl_engine_row(e)->stream;
}
