/*
 * common.h - helpers every unit test may use (common.c, linked into each
 * test program): opening a stack from a spec the way commands do.
 */
#ifndef RL_TESTS_COMMON_H
#define RL_TESTS_COMMON_H

#include "core/registry.h"
#include "core/target.h"

/**
 * Open @spec with write intent and without warnings, as a command that
 * writes would; a failure fails the running test with the spec's error.
 */
struct rl_target *ut_open(const char *spec);

#endif
