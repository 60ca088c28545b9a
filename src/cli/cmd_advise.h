/*
 * cmd_advise.h - what the two halves of `raidlab advise` share: the
 * arguments and stack facts (cmd_advise.c: parsing, the platform's offers,
 * the plans) and the rows the ranking prints (cmd_advise_rank.c: figures,
 * table, answer, how sure, JSON).
 */
#ifndef RL_CLI_CMD_ADVISE_H
#define RL_CLI_CMD_ADVISE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sweep/sweep.h"

enum adv_goal { ADV_THROUGHPUT, ADV_LATENCY, ADV_CAPACITY, ADV_SAFETY };
enum adv_state { ADV_STATE_AUTO, ADV_STATE_FRESH, ADV_STATE_USED, ADV_STATE_STEADY };

/* What a sweep text of advise measures. */
enum adv_kind {
	ADV_HEALTHY,  /* the configuration */
	ADV_DEGRADED, /* the same with member 0 failed */
	ADV_REBUILD,  /* its array (no write policy) with member 0 failed, for the rebuild */
	ADV_FRESH,    /* the configuration with drives as new: what the state costs */
	ADV_SPARE,    /* the configuration with part of each drive left unused */
};

/* Spare-area settings advise can try (part of each drive left unused). */
#define ADV_SPARES 6

/* How many test groups a row keeps figures for (sequential, random QD1, ...). */
#define ADV_GROUPS 8

struct adv_args {
	unsigned drives;
	char drive[64];
	const char *controller, *suite, *store, *json, *html;
	char platform[64]; /* the validation set the platform is, or "" */
	enum adv_goal goal;
	enum adv_state state;
	const char *state_why; /* why the state was chosen */
	unsigned par;
	double timeout;
	uint64_t size; /* the test area; 0: sized from the stack */
	char size_why[192];
	/* what the controller's profile says it offers (offers.KEY lines) */
	char levels[128], chunks[64], write[32], read[32], trim[8];
	double rebuild_share;       /* the controller's rebuild rate: share of the members' time */
	bool wp;                    /* the controller takes write= */
	uint64_t drive_cap;         /* one drive's user capacity, bytes */
	unsigned spare[ADV_SPARES]; /* per cent of each drive left unused, one axis value each */
	size_t nspare;              /* 0: not given (sized from the platform's TRIM) */
	const char *spare_why;
};

struct adv_group {
	char name[48];
	double read_mb_s, write_mb_s; /* geometric means over the group's tests; 0: none */
};

struct adv_row {
	const struct sw_point *pt;
	double mb_s, iops, p99_us, write_mb_s;
	double degraded_mb_s;    /* with member 0 failed; 0: not measured */
	double rebuild_s;        /* estimated rebuild of member 0; 0: not measured */
	double fresh_write_mb_s; /* write MB/s of the same configuration as new; 0: not measured */
	unsigned spare;          /* per cent of each drive left unused */
	const char *basis;       /* validated, extrapolated */
	struct adv_group groups[ADV_GROUPS];
	size_t ngroups;
};

struct adv_rank {
	const struct adv_args *a;
	const struct sw_plan *pl, *rb;
	const char *const *lv, *const *rlv;
	const enum adv_kind *kind;
	struct adv_row *rows;
	size_t n;
	bool partial;             /* interrupted: no answer */
	struct json_object *sure; /* the validation set's outcome (cmd_advise_sure.c), or NULL */
};

struct json_object;
/* cmd_advise_sure.c: the platform's validation set replayed and checked (kept in the store) */
struct json_object *adv_sure(const struct adv_args *a);

/* cmd_advise_rank.c */
unsigned adv_spare_pct(const struct adv_args *a, const char *capacity);
size_t adv_rows(struct adv_rank *r);
void adv_print(FILE *f, struct adv_rank *r, const char *header);
/* The sweep document with the ranking, the header and the answer in an "advise" object. */
struct json_object *adv_doc(struct adv_rank *r, const char *header);

#endif
