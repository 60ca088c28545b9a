/*
 * serve.h - raidlab as an NBD server: target stacks exported by name.
 *
 * The server is an executor client like the job engine: a request read
 * from a socket becomes a struct rl_io submitted to the export's target,
 * and its completion (the one completion path of every request) queues the
 * reply.  Everything runs on one thread and one executor: sockets are
 * polled through the executor's io_uring ring (no thread per client), and
 * a stack with a simulated drive runs on a paced executor whose simulated
 * clock is locked to the wall clock (exec_paced.c), so requests complete
 * when the simulated hardware would complete them.
 *
 * Layers inside src/serve/:
 *   nbd.h        wire values from the protocol specification;
 *   negotiate.c  the protocol engine of one connection, handshake half:
 *                greeting, options, the choice of export;
 *   conn.c       the same engine's other half: input staging, request
 *                parsing and validation, dispatch, replies, output queue;
 *   conn_int.h   what those two halves share.  The engine never touches a
 *                socket: bytes go in through serve_conn_rx_*(), replies
 *                come out through serve_conn_tx_*(), so the fuzzer can
 *                drive it;
 *   server.c     listening sockets, the io_uring poll loop, signals, the
 *                control socket, status line and graceful stop;
 *   tls.c, tls.h STARTTLS through GnuTLS on the server's non-blocking
 *                sockets;
 *   live.c, live.h
 *                the control socket's commands: fail and rebuild members
 *                of a live export behind a write fence, status, stop;
 *   pace.c, pace.h
 *                the emulation governor: how slow a simulated stack runs
 *                (--slow N, --slow auto), judged from the executor's lag.
 */
#ifndef RL_SERVE_SERVE_H
#define RL_SERVE_SERVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "core/exec.h"
#include "core/target.h"
#include "stats/hist.h"
#include "workload/trace.h"

struct json_object;

struct serve_slot;
struct serve_live;
struct serve_pace;

#define SERVE_DIRS 3 /* read, write, trim: indexed by enum rl_op */

/** The requests of one direction an export counted. */
struct serve_dir_stats {
	uint64_t ios;        /* completed requests */
	uint64_t bytes;      /* their bytes */
	struct st_hist hist; /* latency, ns */
};

/** One export: a target stack under a name. */
struct serve_export {
	char *name;           /* as clients ask for it ("" is the default export) */
	char *spec;           /* the target spec, sent as the export's description */
	struct rl_target *t;  /* the stack (owned by whoever opened it) */
	bool read_only;       /* refuse writes, trims and zeroing */
	uint16_t tflags;      /* NBD transmission flags (serve_export_init) */
	uint32_t min_bs;      /* minimum block size: the target's block size */
	uint32_t pref_bs;     /* preferred block size */
	uint32_t max_payload; /* longest READ/WRITE accepted */
	struct serve_dir_stats dir[SERVE_DIRS]; /* counted requests by direction */
	uint64_t flushes;                       /* FLUSH requests completed */
	uint64_t zero_bytes;  /* bytes zeroed by WRITE_ZEROES (also in dir[WRITE]) */
	uint64_t errors;      /* requests answered with an error */
	uint64_t connections; /* clients that reached transmission on it */

	/*
	 * Write fence (live.c): while active, client writes, trims and zeroing
	 * that overlap [fence_lo, fence_hi) are parked and dispatched when the
	 * fence is lifted.  Writes are counted per epoch, so the fence holder
	 * can wait until every write dispatched before it was raised is done.
	 */
	bool fence_active;
	uint64_t fence_lo, fence_hi;
	unsigned epoch;
	uint64_t epoch_writes[2];
	struct serve_slot *parked; /* parked requests, in arrival order */
	struct serve_slot **parked_tail;
	struct serve_live *live; /* fail/rebuild state, or NULL (live.c) */
};

/** Fill in an export's flags and size constraints from its target. */
void serve_export_init(struct serve_export *e, bool read_only);

/** Raise the write fence on [lo, hi) of @e (see struct serve_export). */
void serve_fence_raise(struct serve_export *e, uint64_t lo, uint64_t hi);

/** True when every write dispatched before the fence was raised has completed. */
bool serve_fence_drained(const struct serve_export *e);

/** Lift the fence and dispatch the requests it parked. */
void serve_fence_lift(struct serve_export *e);

/** State shared by every connection of a server. */
struct serve_ctx {
	struct serve_export *exports; /* the exports, first one also answers "" */
	unsigned nexports;
	struct rl_exec *ex;       /* the executor every request runs on */
	unsigned max_inflight;    /* requests in flight per connection */
	bool tls_available;       /* STARTTLS can be offered (server.c sets the hooks) */
	bool tls_required;        /* refuse everything but STARTTLS before TLS */
	bool no_structured;       /* decline NBD_OPT_STRUCTURED_REPLY: simple replies only */
	bool shutting_down;       /* stop: new options get ERR_SHUTDOWN, requests ESHUTDOWN */
	uint64_t inflight;        /* requests in targets, all connections */
	uint64_t protocol_errors; /* connections closed for breaking the protocol */
	uint64_t lat_sum;         /* service time of completed requests, executor ns */
	uint64_t lat_count;       /* requests counted in lat_sum */
	struct serve_pace *pace;  /* simulated stacks: the emulation governor, or NULL */
	struct wl_trace *record;  /* --record: every accepted request is appended, or NULL */
	uint64_t record_t0;       /* --record: CLOCK_MONOTONIC ns of the first request */
	uint64_t record_lost;     /* --record: requests the trace could not hold */
	/**
	 * Called with the connection's owner when a reply carrying at least
	 * SERVE_KICK_BYTES of data has been queued, so the socket layer can
	 * start sending it at once instead of after the loop turn (a large
	 * read then streams while the next one is being copied).  Optional.
	 */
	void (*kick)(void *owner);
};

struct serve_conn;

#define SERVE_KICK_BYTES (64u << 10)

/**
 * A new connection in negotiation; the greeting is already queued.  @owner
 * is passed to ctx->kick.  NULL on ENOMEM.
 */
struct serve_conn *serve_conn_new(struct serve_ctx *ctx, void *owner);

/**
 * Where the next received bytes go: sets *buf and returns how many bytes
 * may be written there (0: the connection wants nothing now, because all
 * its request slots are busy or it is closing).
 */
size_t serve_conn_rx_space(struct serve_conn *c, void **buf);

/** @n bytes were written into the space from serve_conn_rx_space(): process them. */
void serve_conn_rx_done(struct serve_conn *c, size_t n);

/** The peer closed its side (or the socket failed): no more input. */
void serve_conn_rx_eof(struct serve_conn *c);

/** Fill up to @max iovecs with queued output; returns the count (0: nothing to send). */
int serve_conn_tx_iov(struct serve_conn *c, struct iovec *iov, int max);

/** @n bytes of that output were sent. */
void serve_conn_tx_done(struct serve_conn *c, size_t n);

/** True when the connection is finished: nothing in flight, nothing more to send. */
bool serve_conn_done(const struct serve_conn *c);

/** True when the client asked for STARTTLS and the ACK has gone out: switch to TLS now. */
bool serve_conn_tls_pending(struct serve_conn *c);

/** Tell the engine the TLS session is up (resets negotiation state as the spec says). */
void serve_conn_tls_started(struct serve_conn *c);

/** Abort: stop reading, drop unsent output.  In-flight requests still complete. */
void serve_conn_abort(struct serve_conn *c);

/** Stop: read no more, answer what is in flight, send what is queued. */
void serve_conn_abort_input(struct serve_conn *c);

/** Free a connection; serve_conn_done() must be true. */
void serve_conn_free(struct serve_conn *c);

/** Short description of why the connection ended, or NULL if it ended cleanly. */
const char *serve_conn_error(const struct serve_conn *c);

/** Options of serve_run(). */
struct serve_opts {
	const char *socket_path; /* unix socket, or NULL */
	const char *bind_addr;   /* TCP address (default loopback) */
	int port;                /* TCP port, or -1 for none */
	unsigned shared;         /* most connections open at once */
	const char *ctl_path;    /* control socket for `raidlab ctl`, or NULL */
	const char *tls_cert;    /* PEM certificate, or NULL */
	const char *tls_key;     /* PEM key */
	bool tls_require;        /* --tls=require: no plaintext transmission */
	bool status_line;        /* a status line on stderr */
	const char *ready_file;  /* written once listening (for scripts), or NULL */
	bool quiet;
};

/**
 * Serve @ctx's exports until SIGINT/SIGTERM: stop accepting, finish
 * in-flight requests, flush every export.  Returns 0, or a negative errno
 * with a message in @msg.
 */
int serve_run(struct serve_ctx *ctx, const struct serve_opts *opts, char *msg, size_t msglen);

#endif
