/*
 * lock.h - the cache's one lock as clang's thread-safety analysis sees it.
 *
 * Every piece of a cache's state lives under its mutex (cache.h,
 * "Concurrency").  To the analysis (core/lock.h) the capability is the
 * struct cache itself: the layers' headers declare it here before the
 * structure is complete, so their functions can say RL_REQUIRES(c) ("Lock
 * held.") or RL_EXCLUDES(c) ("call without the lock": it takes the lock
 * itself, or resumes requests that may), and cache_lock(c) /
 * cache_unlock(c) (cache.h) acquire and release it.  The analysis then
 * checks every call of such a function, and that every path through a
 * function releases what it took.  It cannot check fields: clang reads a
 * field's guarded_by only in C++, so which fields the lock covers stays in
 * the comments.
 */
#ifndef RL_CACHE_LOCK_H
#define RL_CACHE_LOCK_H

#include "core/lock.h"

struct RL_CAPABILITY("mutex") cache;

#endif
