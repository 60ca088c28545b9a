/*
 * rank.h - the MPI link of raidlab: which rank this process is, and small
 * point-to-point messages between ranks.
 *
 * MPI is optional: built with Open MPI when pkg-config finds it (the
 * Makefile defines RL_MPI), and every function here also exists without
 * it, answering as a lone process (rank 0 of 1).  The same binary runs
 * alone or under mpirun/srun: MPI is initialised only when a launcher's
 * environment says this process is one of a job's ranks, so a plain run
 * never loads the MPI runtime.
 *
 * This is the only file that includes <mpi.h>.  Every call that waits for
 * another rank is made by the caller in a loop of its own (rl_mpi_probe,
 * rl_mpi_test) with a short sleep: Open MPI's blocking calls spin a core,
 * which on a machine with more ranks than cores would starve the ranks
 * that compute, and a loop of our own can notice a rank that went silent.
 */
#ifndef RL_MPI_RANK_H
#define RL_MPI_RANK_H

#include <stdbool.h>
#include <stddef.h>

/** True when raidlab was built with MPI. */
bool rl_mpi_built(void);

/** "Open MPI v4.1.4..." (the library's own words), or "not built in". */
const char *rl_mpi_library(void);

/**
 * Initialise MPI when this process was started by a launcher (mpirun,
 * srun); otherwise do nothing.  0, or -EIO when MPI would not start.
 */
int rl_mpi_init(int *argc, char ***argv);

/** Finalise MPI if rl_mpi_init started it. */
void rl_mpi_finalize(void);

/** This process's rank (0 when alone) and the number of ranks (1 alone). */
int rl_mpi_rank(void);
int rl_mpi_size(void);

/** True when this process is one of a launcher's ranks (MPI was started). */
bool rl_mpi_active(void);

/**
 * Wait until every rank has called rl_mpi_barrier (a non-blocking barrier
 * polled with short sleeps, so a waiting rank does not spin a core).  0,
 * or -EIO; at once when alone.
 */
int rl_mpi_barrier(void);

/** A message on its way (rl_mpi_isend). */
struct rl_mpi_send;

/**
 * Start sending @len bytes of @buf (copied) to rank @to with @tag.  0 and
 * *@s to follow with rl_mpi_test, or a negative errno.
 */
int rl_mpi_isend(int to, int tag, const void *buf, size_t len, struct rl_mpi_send **s);

/** 1 when @s has gone (and is freed), 0 while it is on its way, -EIO on error (freed). */
int rl_mpi_test(struct rl_mpi_send *s);

/** Give up @s (cancelled if it can be) and free it. */
void rl_mpi_cancel(struct rl_mpi_send *s);

/**
 * Is a message from @from (-1: any rank) with @tag (-1: any) waiting?  1
 * and its source, tag and length, 0 when none, -EIO on error.
 */
int rl_mpi_probe(int from, int tag, int *src, int *tag_out, size_t *len);

/**
 * Receive the message rl_mpi_probe found (@len bytes into @buf), waiting
 * at most @wait_s seconds for the rest of it (a large message comes in
 * parts; its sender may die halfway).  0, -ETIMEDOUT or -EIO.
 */
int rl_mpi_recv(int from, int tag, void *buf, size_t len, double wait_s);

#endif
