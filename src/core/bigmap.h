/*
 * bigmap.h - large zero-filled anonymous mappings a process hands out
 * again instead of returning them to the kernel (bigmap.c).
 *
 * For tables of hundreds of megabytes that a process builds and drops
 * over and over (a simulated drive per sweep point): a released mapping
 * is kept and given to the next request of the same length with its
 * resident pages cleared, which costs a memset instead of a page fault
 * per page.
 */
#ifndef RL_CORE_BIGMAP_H
#define RL_CORE_BIGMAP_H

#include <stdbool.h>
#include <stddef.h>

/**
 * A private anonymous mapping of @len bytes that reads as zeros, sparse
 * (MAP_NORESERVE: pages are backed when written).  @huge advises
 * transparent huge pages (tables read at random).  NULL when the kernel
 * has no room.  Release it with rl_bigmap_put() and the same @len.
 */
void *rl_bigmap_get(size_t len, bool huge);

/** Give back a mapping from rl_bigmap_get(); NULL is ignored. */
void rl_bigmap_put(void *p, size_t len);

/** Unmap every mapping kept for reuse. */
void rl_bigmap_drop(void);

/** Resident bytes of the mappings kept for reuse (as counted when each was put). */
size_t rl_bigmap_idle_bytes(void);

#endif
