/*
 * fiorand.c - one fio random read/write job, for measurements published as
 * fio output (suite fio-randrw).
 *
 * What fio does with
 *   --rw=randrw --rwmixread=R --bs=B --iodepth=Q --numjobs=N --direct=1
 *   --size=S --time_based --runtime=D --group_reporting
 * (fio's HOWTO): it lays the file out (writes it) if it is shorter than S,
 * then N jobs each keep Q requests of B bytes in flight, uniformly random
 * over the same S bytes, each request a read with probability R % and a
 * write otherwise, for D; group reporting sums the jobs into one read and
 * one write figure (MB/s decimal in parentheses).
 *
 * The suite is that job with --mix-read, --block, --qd, --threads, --size
 * and --duration; the area is written once before it (suite_prepare), as
 * fio's layout does.  It has one test, "randrw", that reports read, write
 * and the two together ("mix"), so a published fio report's READ and WRITE
 * lines are its read and write cells.  --mix (cdm's extra mixed pass) has
 * no meaning here: the only test is the mix.
 */
#include <json-c/json.h>

#include "suites/suite.h"

/* The test as `raidlab help suites` lists it; the run fills in the sizes. */
static const struct suite_test fiorand_listed = {.name = "randrw",
                                                 .pattern = SUITE_MIXED,
                                                 .dirs = SUITE_DIR_RW,
                                                 .random_pct = 100,
                                                 .timed = true};

static int fiorand_run(struct suite_run *r)
{
	struct suite_test t = {
	    .name = "randrw",
	    .pattern = SUITE_MIXED,
	    .bs = r->p.block,
	    .iodepth = r->p.iodepth,
	    .threads = r->p.threads,
	    .dirs = SUITE_DIR_RW,
	    .rwmixread = r->p.mix_read,
	    .random_pct = 100,
	    .timed = true,
	};

	return suite_run_each_test(r, &t, 1);
}

static struct suite_def fiorand_def = {
    .name = "fio-randrw",
    .title = "fio random read/write job (--rw=randrw, time-based, group reporting)",
    .summary = "one fio randrw job: --mix-read % reads, --block, --qd per --threads worker, "
               "--duration over --size",
    .aggregate = SUITE_AGG_SINGLE,
    .tests = &fiorand_listed,
    .ntests = 1,
    .defaults = {.size = 1ull << 30,
                 .passes = 1,
                 .warmup = 0,
                 .duration_ns = 30000000000ull,
                 .mix_read = 50,
                 .iodepth = 1,
                 .threads = 1,
                 .block = 4096},
    .options = SUITE_OPT_SIZE | SUITE_OPT_DURATION | SUITE_OPT_WARMUP | SUITE_OPT_INTERVAL |
               SUITE_OPT_MIX | SUITE_OPT_QD | SUITE_OPT_BLOCK | SUITE_OPT_THREADS,
    .run = fiorand_run,
};
SUITE_REGISTER(fiorand_def)
