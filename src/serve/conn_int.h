/*
 * conn_int.h - what the two halves of the NBD protocol engine share:
 * negotiate.c (greeting, options, the choice of export) and conn.c (input
 * staging, requests, replies, the output queue).  Private to src/serve/.
 */
#ifndef RL_SERVE_CONN_INT_H
#define RL_SERVE_CONN_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "serve/nbd.h"
#include "serve/serve.h"

#define CONN_STAGE    (64u << 10)  /* staging buffer for headers and option data */
#define CONN_ZCHUNK   (1u << 20)   /* WRITE_ZEROES goes down as writes of this size */
#define CONN_BUDGET   (512u << 10) /* data bytes dispatched per parsing pass */
#define CONN_MSG_MAX  120u         /* longest error message in a structured reply */
#define CONN_HDR_SIZE (20u + 6u + CONN_MSG_MAX)

/* One queued piece of output: a header and optional data. */
struct conn_out {
	struct conn_out *next;
	struct serve_slot *slot; /* reply of this request: frees the slot when sent */
	bool heap;               /* malloc'ed negotiation message: freed when sent */
	uint32_t hlen, dlen;
	const uint8_t *data;
	uint8_t hdr[CONN_HDR_SIZE];
};

struct serve_slot {
	struct rl_io io; /* the request as it travels down the target */
	struct serve_conn *c;
	struct serve_slot *next_free;
	struct conn_out out; /* its reply */
	uint64_t cookie, offset;
	uint32_t len;
	uint16_t type, flags;
	uint8_t *buf; /* READ/WRITE data */
	uint32_t cap;
	uint64_t t0;    /* submission time on the executor's clock */
	uint64_t zdone; /* WRITE_ZEROES: bytes zeroed so far */
	bool fua_flush; /* TRIM/WRITE_ZEROES with FUA: a FLUSH follows */
	bool counted;   /* counted in exp->epoch_writes[epoch & 1] */
	unsigned epoch;
	struct serve_slot *next_parked;
};

enum conn_state {
	CONN_CFLAGS,  /* waiting for the client flags */
	CONN_OPT,     /* option haggling */
	CONN_REQ,     /* transmission: next request header */
	CONN_PAYLOAD, /* transmission: receiving a WRITE's data */
};

struct serve_conn {
	struct serve_ctx *ctx;
	void *owner; /* for ctx->kick */
	enum conn_state state;
	struct serve_export *exp; /* chosen export (transmission phase) */
	bool no_zeroes, structured;
	bool tls_pending, tls_on;
	bool deferred; /* parsing paused on the budget; resumes when output is sent */
	bool closing;  /* read no more; finish in-flight, send what is queued */
	bool drop;     /* ... and drop unsent output */
	const char *err;
	char errbuf[160];

	uint8_t *stage;
	size_t stage_len, stage_off;
	struct serve_slot *cur; /* WRITE whose payload is arriving */
	uint32_t cur_have;

	struct serve_slot *slots, *free_slots;
	unsigned nslots, busy;

	struct conn_out *out_head, **out_tail;
	size_t out_off; /* bytes of out_head already sent */
};

/* --- big-endian helpers --- */

/* --- big-endian helpers --- */

static inline void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static inline void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}

static inline uint16_t get16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

static inline uint32_t get32(const uint8_t *p)
{
	return ((uint32_t)get16(p) << 16) | get16(p + 2);
}

static inline uint64_t get64(const uint8_t *p)
{
	return ((uint64_t)get32(p) << 32) | get32(p + 4);
}

/* Append @o to the connection's output. */
void conn_queue(struct serve_conn *c, struct conn_out *o);

/* A negotiation message of @len bytes (freed once sent); NULL on ENOMEM. */
struct conn_out *conn_msg(struct serve_conn *c, uint32_t len);

/* Where to write a conn_msg()'s bytes. */
uint8_t *conn_msg_bytes(struct conn_out *o);

/* Protocol violation: send what is queued, then close. */
void conn_fail(struct serve_conn *c, const char *why);

/* One option with its data (negotiate.c). */
void conn_option(struct serve_conn *c, uint32_t opt, const uint8_t *d, uint32_t len);

#endif
