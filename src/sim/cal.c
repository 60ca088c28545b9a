/*
 * cal.c - a resource calendar: the busy intervals of one shared resource
 * (a flash channel, one direction of the host link), with gap filling.
 *
 * Why not a single "free at" time: the model reserves resources when a
 * request is submitted, so reservations are not made in time order.  A read
 * that waits for a busy die reserves its channel transfer far ahead; a later
 * read on an idle die must still be able to use the channel now.  A calendar
 * keeps the future busy intervals sorted and puts each new transfer in the
 * earliest gap that fits, at or after the time its data is ready.
 *
 * Intervals that touch, or leave a gap too short for any reservation, are
 * merged, so a saturated resource is one interval and the array stays
 * short; intervals in the past are pruned from the front.  The search looks
 * at most CAL_SCAN_MAX gaps, and never a gap with more than CAL_TAIL_MAX
 * intervals after it: a resource booked that far ahead is a backlog, and
 * the reservation simply goes to its end.  The array is fixed at creation (no allocation on the
 * data path): when it is full, the reservation goes after the last interval, which is pessimistic
 * but only happens with thousands of scattered reservations.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

#define CAL_SCAN_MAX 64  /* gaps examined before giving up and appending */
#define CAL_TAIL_MAX 256 /* intervals an insertion may shift; deeper gaps are not used */

int sim_cal_init(struct sim_cal *c, uint32_t cap, uint64_t min_gap)
{
	memset(c, 0, sizeof(*c));
	/* only entries [head, head + n) are ever read: no need to clear them (a
	   cleared array cost most of the time of opening a simulated drive) */
	c->s = malloc(cap * sizeof(*c->s));
	c->e = malloc(cap * sizeof(*c->e));
	if (!c->s || !c->e) {
		sim_cal_free(c);
		return -ENOMEM;
	}
	c->cap = cap;
	c->min_gap = min_gap;
	return 0;
}

void sim_cal_free(struct sim_cal *c)
{
	free(c->s);
	free(c->e);
	c->s = c->e = NULL;
}

void sim_cal_prune(struct sim_cal *c, uint64_t t)
{
	while (c->n && c->e[c->head] <= t) {
		c->head++;
		c->n--;
	}
	if (!c->n)
		c->head = 0;
}

/* Make room at the back: slide the live intervals to the front of the array. */
static void cal_compact(struct sim_cal *c)
{
	if (!c->head)
		return;
	memmove(c->s, c->s + c->head, c->n * sizeof(*c->s));
	memmove(c->e, c->e + c->head, c->n * sizeof(*c->e));
	c->head = 0;
}

/*
 * Insert [s, e) before live index i (0..n), merging with its neighbours when
 * they touch or when the gap left between would be too short for any
 * reservation (it would only lengthen every later search).
 */
static void cal_insert(struct sim_cal *c, uint32_t i, uint64_t s, uint64_t e)
{
	uint32_t a = c->head + i; /* array index of the interval that will follow */
	bool prev = i > 0 && s - c->e[a - 1] < c->min_gap + (c->e[a - 1] == s);
	bool next = i < c->n && c->s[a] - e < c->min_gap + (c->s[a] == e);

	if (prev)
		s = c->e[a - 1];
	if (next)
		e = c->s[a];

	if (prev && next) {
		c->e[a - 1] = c->e[a];
		memmove(c->s + a, c->s + a + 1, (c->n - i - 1) * sizeof(*c->s));
		memmove(c->e + a, c->e + a + 1, (c->n - i - 1) * sizeof(*c->e));
		c->n--;
		return;
	}
	if (prev) {
		c->e[a - 1] = e;
		return;
	}
	if (next) {
		c->s[a] = s;
		return;
	}
	if (c->head + c->n == c->cap) {
		cal_compact(c);
		a = c->head + i;
	}
	if (i < c->n) { /* an append (most reservations) moves nothing */
		memmove(c->s + a + 1, c->s + a, (c->n - i) * sizeof(*c->s));
		memmove(c->e + a + 1, c->e + a, (c->n - i) * sizeof(*c->e));
	}
	c->s[a] = s;
	c->e[a] = e;
	c->n++;
}

uint64_t sim_cal_reserve(struct sim_cal *c, uint64_t floor, uint64_t ready, uint64_t dur)
{
	uint64_t t = ready;
	uint32_t lo = 0, hi;

	if (c->n && c->e[c->head] <= floor)
		sim_cal_prune(c, floor);
	hi = c->n;

	c->busy_ns += dur;
	if (!dur)
		return ready;
	/* ready after everything booked (an idle or a just-freed resource): no search */
	if (c->n < c->cap && (!c->n || c->e[c->head + c->n - 1] <= ready)) {
		cal_insert(c, c->n, ready, ready + dur);
		return ready;
	}
	/* first interval that ends after ready */
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (c->e[c->head + mid] <= ready)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (c->n == c->cap) {
		/* full: after the last interval, which absorbs any gap before it */
		uint32_t last = c->head + c->n - 1;
		if (t < c->e[last])
			t = c->e[last];
		c->e[last] = t + dur;
		return t;
	}
	for (uint32_t i = lo, k = 0; i < c->n; i++, k++) {
		uint32_t a = c->head + i;
		if (k == CAL_SCAN_MAX || c->n - i > CAL_TAIL_MAX) {
			/* a long run of narrow gaps: go after the last interval */
			uint32_t last = c->head + c->n - 1;
			if (t < c->e[last])
				t = c->e[last];
			cal_insert(c, c->n, t, t + dur);
			return t;
		}
		if (c->s[a] >= t + dur) {
			cal_insert(c, i, t, t + dur);
			return t;
		}
		if (c->e[a] > t)
			t = c->e[a];
	}
	cal_insert(c, c->n, t, t + dur);
	return t;
}
