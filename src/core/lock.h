/*
 * lock.h - a mutex whose rules the compiler checks.
 *
 * clang's thread-safety analysis (-Wthread-safety) reads attributes: a
 * type is a capability (a lock), a field is guarded by one, a function
 * requires one held, or acquires or releases one.  It then proves, one
 * function at a time and without running anything, that every guarded
 * field is read and written with its lock held and that every function
 * marked RL_REQUIRES is called with it held.  The macros below spell those
 * attributes; under another compiler (gcc builds the program) they are
 * empty and cost nothing.  The clang build of `make fuzz` turns the
 * analysis on with -Werror, so a violation fails the build.
 *
 * struct rl_mutex wraps a pthread mutex so that locking and unlocking are
 * calls the analysis understands (pthread_mutex_lock carries no
 * attributes).  A capability is named by an lvalue: a field guarded by the
 * lock beside it says RL_GUARDED_BY(lock); a function that needs the lock
 * of its argument c says RL_REQUIRES(c->lock).  The analysis follows names,
 * not pointers: data reached through a pointer copied out of a guarded
 * structure is not checked, so the rule for such data stays in its
 * comments (the cache's lines, lines.h).
 */
#ifndef RL_CORE_LOCK_H
#define RL_CORE_LOCK_H

#include <pthread.h>

#if defined(__clang__)
#define RL_TSA(x) __attribute__((x))
#else
#define RL_TSA(x)
#endif

#define RL_CAPABILITY(name)  RL_TSA(capability(name))
#define RL_GUARDED_BY(lk)    RL_TSA(guarded_by(lk))
#define RL_PT_GUARDED_BY(lk) RL_TSA(pt_guarded_by(lk))
#define RL_REQUIRES(...)     RL_TSA(requires_capability(__VA_ARGS__))
#define RL_ACQUIRE(...)      RL_TSA(acquire_capability(__VA_ARGS__))
#define RL_RELEASE(...)      RL_TSA(release_capability(__VA_ARGS__))
#define RL_EXCLUDES(...)     RL_TSA(locks_excluded(__VA_ARGS__))
#define RL_NO_TSA            RL_TSA(no_thread_safety_analysis)

struct RL_CAPABILITY("mutex") rl_mutex {
	pthread_mutex_t m;
};

static inline int rl_mutex_init(struct rl_mutex *mu)
{
	return pthread_mutex_init(&mu->m, NULL);
}

static inline void rl_mutex_destroy(struct rl_mutex *mu)
{
	pthread_mutex_destroy(&mu->m);
}

static inline void rl_mutex_lock(struct rl_mutex *mu) RL_ACQUIRE(mu) RL_NO_TSA;
static inline void rl_mutex_lock(struct rl_mutex *mu)
{
	pthread_mutex_lock(&mu->m);
}

static inline void rl_mutex_unlock(struct rl_mutex *mu) RL_RELEASE(mu) RL_NO_TSA;
static inline void rl_mutex_unlock(struct rl_mutex *mu)
{
	pthread_mutex_unlock(&mu->m);
}

#endif
