/*
 * rank.c - the MPI link (rank.h).
 *
 * With RL_MPI the functions wrap Open MPI; without it they answer as rank
 * 0 of 1, and the message functions say -ENOTSUP (nothing calls them
 * then: there is no other rank to talk to).
 *
 * A launcher is recognised by the variables it sets in each rank's
 * environment: OMPI_COMM_WORLD_SIZE (Open MPI's mpirun), PMIX_RANK (PMIx:
 * Open MPI 5, srun --mpi=pmix) and PMI_SIZE (srun with PMI-2).  Errors on
 * the world communicator are returned, not fatal, so that a rank that
 * died (mpirun --enable-recovery keeps the others running) shows as an
 * error code to the rank that talks to it, not as the end of the job, and
 * MPI_Finalize waits for no other rank (a dead one would never come).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi/rank.h"

#ifdef RL_MPI
#include <mpi.h>

static bool mpi_started;
static int mpi_rank_no, mpi_size_no = 1;

struct rl_mpi_send {
	MPI_Request req;
	void *buf;
};

bool rl_mpi_built(void)
{
	return true;
}

const char *rl_mpi_library(void)
{
	static char text[MPI_MAX_LIBRARY_VERSION_STRING];
	int len = 0;

	if (!text[0] && MPI_Get_library_version(text, &len) == MPI_SUCCESS) {
		char *nl = strpbrk(text, ",\n"); /* the first clause: name and version */
		if (nl)
			*nl = 0;
	}
	return text;
}

static bool mpi_launched(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_SIZE");
}

int rl_mpi_init(int *argc, char ***argv)
{
	if (mpi_started || !mpi_launched())
		return 0;
	/* no barrier in MPI_Finalize: with a dead rank (mpirun --enable-recovery)
	   Open MPI's closing fence may wait for it for ever; a user's setting wins */
	setenv("OMPI_MCA_async_mpi_finalize", "1", 0);
	if (MPI_Init(argc, argv) != MPI_SUCCESS)
		return -EIO;
	mpi_started = true;
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank_no);
	MPI_Comm_size(MPI_COMM_WORLD, &mpi_size_no);
	return 0;
}

void rl_mpi_finalize(void)
{
	if (mpi_started)
		MPI_Finalize();
	mpi_started = false;
}

int rl_mpi_rank(void)
{
	return mpi_rank_no;
}

int rl_mpi_size(void)
{
	return mpi_size_no;
}

bool rl_mpi_active(void)
{
	return mpi_started;
}

int rl_mpi_barrier(void)
{
	MPI_Request req;
	int flag = 0;

	if (!mpi_started || mpi_size_no < 2)
		return 0;
	if (MPI_Ibarrier(MPI_COMM_WORLD, &req) != MPI_SUCCESS)
		return -EIO;
	while (!flag) {
		if (MPI_Test(&req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -EIO;
		if (!flag)
			nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
	}
	return 0;
}

int rl_mpi_isend(int to, int tag, const void *buf, size_t len, struct rl_mpi_send **s)
{
	struct rl_mpi_send *m;

	if (len > (size_t)INT32_MAX)
		return -EMSGSIZE;
	if (!(m = calloc(1, sizeof(*m))) || !(m->buf = malloc(len ? len : 1))) {
		free(m);
		return -ENOMEM;
	}
	memcpy(m->buf, buf, len);
	if (MPI_Isend(m->buf, (int)len, MPI_BYTE, to, tag, MPI_COMM_WORLD, &m->req) !=
	    MPI_SUCCESS) {
		free(m->buf);
		free(m);
		return -EIO;
	}
	*s = m;
	return 0;
}

int rl_mpi_test(struct rl_mpi_send *s)
{
	int flag = 0;
	int rc = MPI_Test(&s->req, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS ? flag : -EIO;

	if (rc) {
		free(s->buf);
		free(s);
	}
	return rc;
}

void rl_mpi_cancel(struct rl_mpi_send *s)
{
	if (!s)
		return;
	if (MPI_Cancel(&s->req) == MPI_SUCCESS) {
		int flag = 0;
		/* a cancelled send completes at once; one to a dead rank may never:
		   then it is left to MPI_Finalize and its buffer is kept */
		for (int i = 0; i < 100 && !flag; i++)
			if (MPI_Test(&s->req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
				break;
		if (!flag)
			return;
	}
	free(s->buf);
	free(s);
}

int rl_mpi_probe(int from, int tag, int *src, int *tag_out, size_t *len)
{
	MPI_Status st;
	int flag = 0, count = 0;

	if (MPI_Iprobe(from < 0 ? MPI_ANY_SOURCE : from, tag < 0 ? MPI_ANY_TAG : tag,
	               MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS)
		return -EIO;
	if (!flag)
		return 0;
	MPI_Get_count(&st, MPI_BYTE, &count);
	*src = st.MPI_SOURCE;
	*tag_out = st.MPI_TAG;
	*len = (size_t)count;
	return 1;
}

int rl_mpi_recv(int from, int tag, void *buf, size_t len, double wait_s)
{
	MPI_Request req;
	struct timespec t0, t;
	int flag = 0;

	if (MPI_Irecv(buf, (int)len, MPI_BYTE, from, tag, MPI_COMM_WORLD, &req) != MPI_SUCCESS)
		return -EIO;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		if (MPI_Test(&req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -EIO;
		if (flag)
			return 0;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9 >
		    wait_s)
			break;
		nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
	}
	/* the sender died halfway through a large message: give it up */
	MPI_Cancel(&req);
	return -ETIMEDOUT;
}

#else /* no MPI: a lone process */

bool rl_mpi_built(void)
{
	return false;
}

const char *rl_mpi_library(void)
{
	return "not built in";
}

int rl_mpi_init(int *argc, char ***argv)
{
	return 0;
}

void rl_mpi_finalize(void)
{
}

int rl_mpi_rank(void)
{
	return 0;
}

int rl_mpi_size(void)
{
	return 1;
}

bool rl_mpi_active(void)
{
	return false;
}

int rl_mpi_barrier(void)
{
	return 0;
}

int rl_mpi_isend(int to, int tag, const void *buf, size_t len, struct rl_mpi_send **s)
{
	return -ENOTSUP;
}

int rl_mpi_test(struct rl_mpi_send *s)
{
	return -ENOTSUP;
}

void rl_mpi_cancel(struct rl_mpi_send *s)
{
}

int rl_mpi_probe(int from, int tag, int *src, int *tag_out, size_t *len)
{
	return -ENOTSUP;
}

int rl_mpi_recv(int from, int tag, void *buf, size_t len, double wait_s)
{
	return -ENOTSUP;
}

#endif
