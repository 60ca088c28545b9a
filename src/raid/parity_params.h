/*
 * parity_params.h - the parameter table (core/params.h) of raid5 and raid6:
 * one table for both levels, read by parity_create and shown by help and
 * docs/targets.md.
 */
#ifndef RL_RAID_PARITY_PARAMS_H
#define RL_RAID_PARITY_PARAMS_H

#include "core/params.h"

extern const struct rl_param parity_params[];

#endif
