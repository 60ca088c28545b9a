/*
 * test_options.c - job options (workload/options.c) and job files
 * (workload/jobfile.c).
 *
 * Design: most checks are tables.  Valid values are set one at a time on a
 * fresh default job and the resulting field is compared; invalid values must
 * fail with -EINVAL, a message containing "test: " (the place), the given
 * substring, and leave the job byte-for-byte unchanged.  Job files are small
 * strings; each malformed file names the exact "file:line" expected in the
 * message.  The option table itself is checked for completeness against the
 * options raidlab promises, and against docs/options.md (found through
 * RAIDLAB_TOP, else "."), whose table rows must match wl_options() exactly.
 *
 * tsan-skip: single-threaded (no thread to race; tests/unit/threads.c holds it to that)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "workload/job.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static char msg[2048];

static void expect_sub(const char *text, const char *sub, int line)
{
	if (!strstr(text, sub))
		fail_msg("line %d: expected '%s' in message '%s'", line, sub, text);
}

/* Set on @job, which must succeed. */
static void set_ok_at(struct wl_job *job, const char *name, const char *value, int line)
{
	int ret = wl_job_set(job, name, value, "test", msg, sizeof(msg));
	if (ret != 0)
		fail_msg("line %d: %s=%s failed: %s", line, name, value ? value : "(bare)", msg);
}
#define SET_OK(job, name, value) set_ok_at(job, name, value, __LINE__)

/* Set on a default job, which must fail with @sub and leave the job alone. */
static void set_err_at(const char *name, const char *value, const char *sub, int line)
{
	struct wl_job job, before;
	wl_job_init(&job);
	memcpy(&before, &job, sizeof(job));
	int ret = wl_job_set(&job, name, value, "test", msg, sizeof(msg));
	if (ret != -EINVAL)
		fail_msg("line %d: %s=%s: expected -EINVAL, got %d", line, name,
		         value ? value : "(bare)", ret);
	expect_sub(msg, "test: ", line);
	expect_sub(msg, sub, line);
	if (memcmp(&job, &before, sizeof(job)) != 0)
		fail_msg("line %d: %s=%s: failed set changed the job", line, name,
		         value ? value : "(bare)");
}
#define SET_ERR(name, value, sub) set_err_at(name, value, sub, __LINE__)

static void validate_ok_at(const struct wl_job *job, int line)
{
	if (wl_job_validate(job, "test", msg, sizeof(msg)) != 0)
		fail_msg("line %d: validate failed: %s", line, msg);
}
#define VALIDATE_OK(job) validate_ok_at(job, __LINE__)

static void validate_err_at(const struct wl_job *job, const char *sub, int line)
{
	if (wl_job_validate(job, "test", msg, sizeof(msg)) != -EINVAL)
		fail_msg("line %d: validate passed, expected '%s'", line, sub);
	expect_sub(msg, "test: ", line);
	expect_sub(msg, sub, line);
}
#define VALIDATE_ERR(job, sub) validate_err_at(job, sub, __LINE__)

/* --- defaults and helpers --- */

static void test_defaults(void **state)
{
	(void)state;
	struct wl_job j;
	memset(&j, 0xa5, sizeof(j));
	wl_job_init(&j);
	assert_string_equal(j.name, "job");
	assert_int_equal(j.rw, WL_RW_READ);
	assert_int_equal(j.bs, 4096);
	assert_int_equal(j.nbssplit, 0);
	assert_int_equal(j.iodepth, 1);
	assert_int_equal(j.numjobs, 1);
	assert_int_equal(j.size, 0);
	assert_int_equal(j.offset, 0);
	assert_int_equal(j.runtime_ns, 0);
	assert_false(j.time_based);
	assert_int_equal(j.ramp_ns, 0);
	assert_int_equal(j.rwmixread, 50);
	assert_int_equal(j.dist, WL_DIST_RANDOM);
	assert_true(j.dist_param == 0);
	assert_true(j.direct);
	assert_int_equal(j.engine, WL_ENGINE_IO_URING);
	assert_false(j.zero_buffers);
	assert_false(j.refill_buffers);
	assert_int_equal(j.buffer_compress_percentage, 0);
	assert_int_equal(j.loops, 1);
	assert_int_equal(j.verify, WL_VERIFY_NONE);
	assert_int_equal(j.seed, 1);
	assert_false(j.norandommap);
	assert_int_equal(j.log_avg_ns, 100000000ull);
	VALIDATE_OK(&j);
}

static void test_rw_helpers(void **state)
{
	(void)state;
	static const struct {
		enum wl_rw rw;
		const char *name;
		bool random, writes;
	} t[] = {
	    {WL_RW_READ, "read", false, false},
	    {WL_RW_WRITE, "write", false, true},
	    {WL_RW_RANDREAD, "randread", true, false},
	    {WL_RW_RANDWRITE, "randwrite", true, true},
	    {WL_RW_RW, "rw", false, true},
	    {WL_RW_RANDRW, "randrw", true, true},
	    {WL_RW_TRIM, "trim", false, true},
	    {WL_RW_RANDTRIM, "randtrim", true, true},
	};
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct wl_job j;
		wl_job_init(&j);
		assert_string_equal(wl_rw_name(t[i].rw), t[i].name);
		assert_int_equal(wl_rw_is_random(t[i].rw), t[i].random);
		/* The name round-trips through the option. */
		SET_OK(&j, "rw", t[i].name);
		assert_int_equal(j.rw, t[i].rw);
		assert_int_equal(wl_job_writes(&j), t[i].writes);
	}
	struct wl_job j;
	wl_job_init(&j);
	SET_OK(&j, "rw", "randrw");
	SET_OK(&j, "rwmixread", "100");
	assert_false(wl_job_writes(&j));
	SET_OK(&j, "rwmixread", "99");
	assert_true(wl_job_writes(&j));
	assert_string_equal(wl_rw_name((enum wl_rw)99), "invalid");
}

/* --- every option: valid values --- */

static void test_valid_values(void **state)
{
	(void)state;
	struct wl_job j;

	wl_job_init(&j);
	SET_OK(&j, "name", "seq-read 1");
	assert_string_equal(j.name, "seq-read 1");
	SET_OK(&j, "name", "123456789012345678901234567890123456789012345678901234567890123");
	assert_int_equal(strlen(j.name), 63);

	SET_OK(&j, "rw", "readwrite");
	assert_int_equal(j.rw, WL_RW_RW);
	SET_OK(&j, "readwrite", "randwrite");
	assert_int_equal(j.rw, WL_RW_RANDWRITE);

	static const struct {
		const char *v;
		uint32_t bs;
	} bs[] = {{"512", 512},     {"4k", 4096},    {"4K", 4096},       {"8kb", 8192},
	          {"128k", 131072}, {"1m", 1048576}, {"64m", 64u << 20}, {"1536", 1536}};
	for (size_t i = 0; i < ARRAY_SIZE(bs); i++) {
		SET_OK(&j, "bs", bs[i].v);
		assert_int_equal(j.bs, bs[i].bs);
	}
	SET_OK(&j, "blocksize", "16k");
	assert_int_equal(j.bs, 16384);

	SET_OK(&j, "iodepth", "1");
	SET_OK(&j, "iodepth", "65536");
	assert_int_equal(j.iodepth, 65536);
	SET_OK(&j, "iodepth", "32");
	assert_int_equal(j.iodepth, 32);
	SET_OK(&j, "numjobs", "1024");
	assert_int_equal(j.numjobs, 1024);
	SET_OK(&j, "numjobs", "4");
	assert_int_equal(j.numjobs, 4);

	SET_OK(&j, "size", "10g");
	assert_int_equal(j.size, 10ull << 30);
	SET_OK(&j, "size", "0");
	assert_int_equal(j.size, 0);
	SET_OK(&j, "size", "1000"); /* no alignment needed: only whole blocks are used */
	assert_int_equal(j.size, 1000);
	SET_OK(&j, "offset", "1m");
	assert_int_equal(j.offset, 1 << 20);
	SET_OK(&j, "offset", "512");
	assert_int_equal(j.offset, 512);

	SET_OK(&j, "runtime", "30");
	assert_int_equal(j.runtime_ns, 30000000000ull);
	SET_OK(&j, "runtime", "500ms");
	assert_int_equal(j.runtime_ns, 500000000ull);
	SET_OK(&j, "runtime", "2m");
	assert_int_equal(j.runtime_ns, 120000000000ull);
	SET_OK(&j, "runtime", "0");
	assert_int_equal(j.runtime_ns, 0);
	SET_OK(&j, "ramp_time", "5");
	assert_int_equal(j.ramp_ns, 5000000000ull);
	SET_OK(&j, "ramp_time", "10s");
	assert_int_equal(j.ramp_ns, 10000000000ull);

	SET_OK(&j, "time_based", NULL);
	assert_true(j.time_based);
	SET_OK(&j, "time_based", "0");
	assert_false(j.time_based);

	SET_OK(&j, "rwmixread", "70");
	assert_int_equal(j.rwmixread, 70);
	SET_OK(&j, "rwmixread", "0");
	assert_int_equal(j.rwmixread, 0);
	SET_OK(&j, "rwmixread", "100%");
	assert_int_equal(j.rwmixread, 100);
	SET_OK(&j, "rwmixwrite", "0"); /* both given: they agree */
	assert_int_equal(j.rwmixread, 100);
	/* both given and not adding up to 100: one of them would be dropped */
	struct wl_job both = j;
	assert_int_equal(wl_job_set(&j, "rwmixwrite", "70", "test", msg, sizeof(msg)), -EINVAL);
	expect_sub(msg, "rwmixread=100 and rwmixwrite=70 contradict each other", __LINE__);
	assert_int_equal(wl_job_set(&j, "rwmixread", "70", "test", msg, sizeof(msg)), -EINVAL);
	expect_sub(msg, "rwmixread=70 and rwmixwrite=0 contradict each other", __LINE__);
	assert_memory_equal(&j, &both, sizeof(j)); /* refused: the job is as it was */
	wl_job_init(&j);
	SET_OK(&j, "rwmixwrite", "70");
	assert_int_equal(j.rwmixread, 30);
	SET_OK(&j, "rwmixwrite", "100");
	assert_int_equal(j.rwmixread, 0);

	SET_OK(&j, "direct", "0");
	assert_false(j.direct);
	SET_OK(&j, "direct", NULL);
	assert_true(j.direct);
	SET_OK(&j, "buffered", NULL);
	assert_false(j.direct);
	SET_OK(&j, "buffered", "off");
	assert_true(j.direct);

	SET_OK(&j, "ioengine", "psync");
	assert_int_equal(j.engine, WL_ENGINE_PSYNC);
	SET_OK(&j, "ioengine", "io_uring");
	assert_int_equal(j.engine, WL_ENGINE_IO_URING);

	SET_OK(&j, "zero_buffers", "1");
	assert_true(j.zero_buffers);
	SET_OK(&j, "refill_buffers", "yes");
	assert_true(j.refill_buffers);
	SET_OK(&j, "buffer_compress_percentage", "100");
	assert_int_equal(j.buffer_compress_percentage, 100);
	SET_OK(&j, "buffer_compress_percentage", "40%");
	assert_int_equal(j.buffer_compress_percentage, 40);

	SET_OK(&j, "loops", "1000000");
	assert_int_equal(j.loops, 1000000);
	SET_OK(&j, "loops", "3");
	assert_int_equal(j.loops, 3);

	SET_OK(&j, "verify", "crc32c");
	assert_int_equal(j.verify, WL_VERIFY_CRC32C);
	SET_OK(&j, "verify", "0");
	assert_int_equal(j.verify, WL_VERIFY_NONE);
	SET_OK(&j, "verify", "crc32c-intel");
	assert_int_equal(j.verify, WL_VERIFY_CRC32C);
	SET_OK(&j, "verify", "none");
	assert_int_equal(j.verify, WL_VERIFY_NONE);
	SET_OK(&j, "verify_only", NULL);
	assert_true(j.verify_only);
	SET_OK(&j, "verify_only", "0");
	assert_false(j.verify_only);

	SET_OK(&j, "randseed", "0");
	assert_int_equal(j.seed, 0);
	SET_OK(&j, "randseed", "18446744073709551615");
	assert_true(j.seed == UINT64_MAX);
	SET_OK(&j, "randseed", "42");
	assert_int_equal(j.seed, 42);

	SET_OK(&j, "norandommap", NULL);
	assert_true(j.norandommap);
	SET_OK(&j, "norandommap", "false");
	assert_false(j.norandommap);

	SET_OK(&j, "log_avg_msec", "1");
	assert_int_equal(j.log_avg_ns, 1000000ull);
	SET_OK(&j, "log_avg_msec", "3600000");
	assert_int_equal(j.log_avg_ns, 3600000ull * 1000000ull);
	SET_OK(&j, "log_avg_msec", "250");
	assert_int_equal(j.log_avg_ns, 250000000ull);
	assert_false(j.log_per_io);
	SET_OK(&j, "log_avg_msec", "0"); /* fio's per-I/O logs; the series keeps 100 ms */
	assert_true(j.log_per_io);
	assert_int_equal(j.log_avg_ns, 100000000ull);
	SET_OK(&j, "log_avg_msec", "250");
	assert_false(j.log_per_io);

	SET_OK(&j, "stonewall", NULL);
	assert_true(j.stonewall);
	SET_OK(&j, "wait_for_previous", "0");
	assert_false(j.stonewall);
	SET_OK(&j, "new_group", NULL);
	assert_true(j.new_group);
	SET_OK(&j, "group_reporting", NULL);
	assert_true(j.group_reporting);

	/* fio's files, engines and sync options */
	SET_OK(&j, "filename", "/dev/nvme0n1:/tmp/a\\:b");
	assert_string_equal(j.filename, "/dev/nvme0n1:/tmp/a\\:b");
	SET_OK(&j, "directory", "/mnt/scratch");
	assert_string_equal(j.directory, "/mnt/scratch");
	SET_OK(&j, "ioengine", "libaio");
	assert_int_equal(j.engine, WL_ENGINE_LIBAIO);
	assert_string_equal(j.engine_name, "libaio");
	SET_OK(&j, "ioengine", "pvsync2");
	assert_int_equal(j.engine, WL_ENGINE_PSYNC);
	assert_string_equal(j.engine_name, "pvsync2");
	SET_OK(&j, "ioengine", "null");
	assert_int_equal(j.engine, WL_ENGINE_NULL);
	SET_OK(&j, "fsync", "8");
	assert_int_equal(j.fsync_n, 8);
	SET_OK(&j, "fdatasync", "4");
	assert_int_equal(j.fdatasync_n, 4);
	SET_OK(&j, "sync", "dsync");
	assert_true(j.sync_writes);
	SET_OK(&j, "sync", "none");
	assert_false(j.sync_writes);
	SET_OK(&j, "end_fsync", "1");
	assert_true(j.end_fsync);
	SET_OK(&j, "startdelay", "2");
	assert_int_equal(j.startdelay_ns, 2000000000ull);
	SET_OK(&j, "randrepeat", "0");
	assert_false(j.randrepeat);
	SET_OK(&j, "size", "50%");
	assert_int_equal(j.size_pct, 50);
	assert_int_equal(j.size, 0);
	SET_OK(&j, "size", "1m");
	assert_int_equal(j.size_pct, 0);
	assert_int_equal(j.size, 1u << 20);
	SET_OK(&j, "offset", "10%");
	assert_int_equal(j.offset_pct, 10);

	SET_OK(&j, "rw", "read:-8k");
	assert_int_equal(j.rw, WL_RW_READ);
	assert_int_equal(j.rw_skip, -8192);
	SET_OK(&j, "rw", "write:112k");
	assert_int_equal(j.rw_skip, 112 * 1024);
	SET_OK(&j, "rw", "randread:8");
	assert_int_equal(j.rw, WL_RW_RANDREAD);
	assert_int_equal(j.rw_nr, 8);
	assert_int_equal(j.rw_skip, 0);
	SET_OK(&j, "rw", "read");
	assert_int_equal(j.rw_nr, 1);
	SET_OK(&j, "bsrange", "4k-16k");
	assert_int_equal(j.nbssplit, 4);
	assert_int_equal(j.bssplit[3].bs, 16384);
	assert_int_equal(j.bssplit[0].pct + j.bssplit[1].pct + j.bssplit[2].pct + j.bssplit[3].pct,
	                 100);
	SET_OK(&j, "bs", "4k-4k");
	assert_int_equal(j.nbssplit, 0);
	assert_int_equal(j.bs, 4096);
	SET_OK(&j, "random_distribution", "zoned:50/5:30/15:20/");
	assert_int_equal(j.dist, WL_DIST_ZONED);
	assert_int_equal(j.nzones, 3);
	assert_int_equal(j.zones[1].access_pct, 30);
	assert_int_equal(j.zones[1].size_pct, 15);
	assert_int_equal(j.zones[2].size_pct, 0);
	SET_OK(&j, "random_distribution", "zoned_abs:60/1g:40/");
	assert_int_equal(j.dist, WL_DIST_ZONED_ABS);
	assert_int_equal(j.zones[0].size_bytes, 1ull << 30);
	SET_OK(&j, "random_distribution", "random");
	SET_OK(&j, "rate", "10m,2m");
	assert_int_equal(j.rate[0], 10u << 20);
	assert_int_equal(j.rate[1], 2u << 20);
	assert_int_equal(j.rate[2], 0);
	SET_OK(&j, "rate", "1250");
	assert_int_equal(j.rate[2], 1250);
	SET_OK(&j, "rate_iops", ",500");
	assert_int_equal(j.rate_iops[0], 0);
	assert_int_equal(j.rate_iops[1], 500);
	SET_OK(&j, "ratemin", "1k");
	assert_int_equal(j.rate_min[0], 1024);
	SET_OK(&j, "rate_process", "poisson");
	assert_true(j.rate_poisson);
	SET_OK(&j, "thinktime", "2000");
	assert_int_equal(j.thinktime_ns, 2000000);
	SET_OK(&j, "thinktime", "3ms");
	assert_int_equal(j.thinktime_ns, 3000000);
	SET_OK(&j, "number_ios", "1000");
	assert_int_equal(j.number_ios, 1000);
	SET_OK(&j, "timeout", "60");
	assert_int_equal(j.runtime_ns, 60000000000ull);
	SET_OK(&j, "filesize", "128m");
	assert_int_equal(j.filesize, 128u << 20);
	SET_OK(&j, "wait_for", "writers");
	assert_string_equal(j.wait_for, "writers");
	SET_OK(&j, "exit_what", "all");
	assert_int_equal(j.exit_what, 2);
	SET_OK(&j, "blockalign", "4k");
	SET_OK(&j, "percentile_list", "50:99.9:99.99");
	assert_int_equal(j.npct, 3);
	assert_true(j.pct_list[2] == 99.99);
	SET_OK(&j, "cpus_allowed", "0-2,5");
	assert_int_equal(j.cpus, 0x27);
	SET_OK(&j, "cpus_allowed_policy", "split");
	SET_OK(&j, "mem", "mmaphuge");
	assert_int_equal(j.mem, WL_MEM_HUGE);
	SET_OK(&j, "iomem", "mmap");
	assert_int_equal(j.mem, WL_MEM_MMAP);
	SET_OK(&j, "iomem", "malloc");
	assert_int_equal(j.mem, WL_MEM_MALLOC);
	SET_OK(&j, "iomem_align", "4096");
	assert_int_equal(j.mem_align, 4096);
	assert_true(j.cpus_split);
	assert_int_equal(j.blockalign, 4096);

	struct wl_job before;
	memcpy(&before, &j, sizeof(j));
	SET_OK(&j, "description", "any text at all");
	SET_OK(&j, "threads", "1");
	SET_OK(&j, "gtod_reduce", "1");
	SET_OK(&j, "random_generator", "tausworthe64");
	SET_OK(&j, "io_submit_mode", "offload");
	SET_OK(&j, "thread", NULL);
	memcpy(j.given, before.given, sizeof(j.given)); /* fio's "job options" list them */
	assert_memory_equal(&j, &before, sizeof(j));    /* accepted, nothing to keep */
	SET_OK(&j, "random_generator", "lfsr"); /* each block once a loop, norandommap or not */
	assert_true(j.rand_lfsr);
	SET_OK(&j, "random_generator", "tausworthe");
	assert_false(j.rand_lfsr);
}

static void test_bool_words(void **state)
{
	(void)state;
	static const char *const yes[] = {"1", "true", "on", "yes"};
	static const char *const no[] = {"0", "false", "off", "no"};
	struct wl_job j;
	wl_job_init(&j);
	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		SET_OK(&j, "norandommap", no[i]);
		assert_false(j.norandommap);
		SET_OK(&j, "norandommap", yes[i]);
		assert_true(j.norandommap);
	}
}

/* --- every option: invalid values --- */

static void test_invalid_values(void **state)
{
	(void)state;
	static const struct {
		const char *name, *value, *sub;
	} t[] = {
	    {"name", "", "option 'name': expected a name of 1 to 63 characters"},
	    {"name", "1234567890123456789012345678901234567890123456789012345678901234",
	     "expected a name of 1 to 63 characters"},
	    {"name", "a\tb", "without control characters, got 'a\tb'"},
	    {"name", NULL, "option 'name': needs a value (name=<str>)"},

	    {"rw", "randread:0", "option 'rw': expected randread:N with N a whole number of I/Os"},
	    {"rw", "randread:x", "got 'randread:x'"},
	    {"rw", "read:1000", "expected read:SIZE with SIZE a multiple of 512 bytes"},
	    {"rw", "write:-", "got 'write:-'"},
	    {"rw", "bogus:4k", "expected one of read"},
	    {"rw", "foo",
	     "expected one of read, write, randread, randwrite, rw, readwrite, randrw, trim, "
	     "randtrim, got 'foo'"},
	    {"rw", "randwrit", "got 'randwrit' (did you mean 'randwrite'?)"},
	    {"rw", "trimwrite", "expected one of read"},
	    {"rw", "READ", "got 'READ'"},
	    {"rw", "", "got ''"},
	    {"readwrite", "x", "option 'readwrite': expected one of"},
	    {"rw", NULL, "option 'rw': needs a value"},

	    {"bs", "65m",
	     "option 'bs': expected a block size from 1 byte to 64m (e.g. 4k), got '65m'"},
	    {"bs", "0", "got '0'"},
	    {"bs", "-4", "got '-4'"},
	    {"bs", "128m", "got '128m'"},
	    {"bs", "abc", "got 'abc'"},
	    {"bs", "", "got ''"},
	    {"bs", "4k,8k,8k,8k", "expected READ,WRITE[,TRIM] block sizes"},
	    {"bs", "4k,8k-16k", "a range per direction (8k-16k) is not supported"},
	    {"bs", "4k,0", "field 2 ('0'): expected a block size"},
	    {"clocksource", "tsc", "expected gettimeofday, clock_gettime or cpu"},
	    {"allow_mounted_write", "1", "only when --force-destroy is given on the command line"},
	    {"bs", "4k-128k", "needs MAX to be at most 16 x MIN and a multiple of it"},
	    {"bs", "8k-4k", "expected MIN-MAX block sizes such as 4k-64k"},
	    {"bsrange", "4k-6k", "a multiple of it; got '4k-6k'"},
	    {"bsrange", "-4k", "expected MIN-MAX"},
	    {"blocksize", "0", "option 'blocksize': expected a block size"},
	    {"bs", NULL, "option 'bs': needs a value (bs=<size>)"},

	    {"iodepth", "0", "option 'iodepth': expected a whole number from 1 to 65536, got '0'"},
	    {"iodepth", "65537", "from 1 to 65536, got '65537'"},
	    {"iodepth", "abc", "got 'abc'"},
	    {"iodepth", "-1", "got '-1'"},
	    {"iodepth", "1.5", "got '1.5'"},
	    {"iodepth", "", "got ''"},
	    {"iodepth", NULL, "needs a value (iodepth=<int>)"},
	    {"numjobs", "0", "option 'numjobs': expected a whole number from 1 to 1024, got '0'"},
	    {"numjobs", "1025", "got '1025'"},

	    {"size", "0%", "option 'size': expected a percentage from 1 to 100, got '0%'"},
	    {"size", "150%", "option 'size': expected a percentage from 0 to 100"},
	    {"offset", "100%", "option 'offset': expected a percentage from 1 to 99"},
	    {"offset_increment", "5%", "a percentage is not allowed here"},
	    {"thread", "0", "option 'thread': raidlab's workers are always threads"},
	    {"sync", "maybe", "option 'sync': expected 0, none, 1, sync or dsync, got 'maybe'"},
	    {"fsync", "-1", "option 'fsync': expected a whole number"},
	    {"filename", NULL, "option 'filename': needs a value"},
	    {"size", "abc", "option 'size': expected a size such as 0, 4k, 512m or 10g, got 'abc'"},
	    {"size", "-1", "got '-1'"},
	    {"size", NULL, "needs a value"},
	    {"offset", "x", "expected a size"},

	    {"runtime", "abc",
	     "option 'runtime': expected a duration such as 30, 30s, 500ms or "
	     "2m (a plain number is seconds), got 'abc'"},
	    {"runtime", "-1", "got '-1'"},
	    {"runtime", "10 parsecs", "got '10 parsecs'"},
	    {"runtime", NULL, "needs a value (runtime=<time>)"},
	    {"ramp_time", "soon", "option 'ramp_time': expected a duration"},

	    {"time_based", "maybe",
	     "option 'time_based': expected a boolean (1/0, true/false, "
	     "on/off, yes/no, or the bare name), got 'maybe'"},
	    {"time_based", "", "got ''"},
	    {"time_based", "2", "got '2'"},

	    {"rwmixread", "101",
	     "option 'rwmixread': expected a percentage from 0 to 100 (e.g. 70 "
	     "or 70%), got '101'"},
	    {"rwmixread", "abc", "got 'abc'"},
	    {"rwmixread", "-5", "got '-5'"},
	    {"rwmixread", "%", "got '%'"},
	    {"rwmixread", "", "got ''"},
	    {"rwmixwrite", "150", "option 'rwmixwrite': expected a percentage"},

	    {"random_distribution", "zipf:1",
	     "option 'random_distribution': zipf theta must be a "
	     "number above 0 other than 1"},
	    {"random_distribution", "zipf:1.0", "got 'zipf:1.0'"},
	    {"random_distribution", "zipf:0", "got 'zipf:0'"},
	    {"random_distribution", "zipf:-1", "got 'zipf:-1'"},
	    {"random_distribution", "zipf:abc", "got 'zipf:abc'"},
	    {"random_distribution", "zipf:", "got 'zipf:'"},
	    {"random_distribution", "zipf:inf", "got 'zipf:inf'"},
	    {"random_distribution", "zipf:nan", "got 'zipf:nan'"},
	    {"random_distribution", "zipf:0x1p1", "got 'zipf:0x1p1'"},
	    {"random_distribution", "zipf:1e999", "got 'zipf:1e999'"},
	    {"random_distribution", "zipf:1.2:0.5", "fio's ':CENTER' part is not supported"},
	    {"random_distribution", "pareto:1", "pareto h must be a number between 0 and 1"},
	    {"random_distribution", "pareto:0", "got 'pareto:0'"},
	    {"random_distribution", "pareto:1.5", "got 'pareto:1.5'"},
	    {"random_distribution", "pareto:0.2:0.1", "':CENTER' part is not supported"},
	    {"random_distribution", "normal",
	     "expected random, zipf[:THETA], pareto[:H], zoned:A/B:... or zoned_abs:A/SIZE:... "
	     "(fio's normal distribution is not supported), got 'normal'"},
	    {"random_distribution", "zoned:50/5:40/95",
	     "the access shares add up to 90% and the zone sizes to 100%"},
	    {"random_distribution", "zoned:50/60:50/60", "zone sizes to 120%"},
	    {"random_distribution", "zoned:50/:50/10", "the last may leave its size out"},
	    {"random_distribution", "zoned", "expected zoned:A/B:C/D"},
	    {"random_distribution", "zoned:50/5,50/5", "one list for all directions"},
	    {"random_distribution", "zoned_abs:100/0", "expected zoned_abs:ACCESS%/SIZE"},
	    {"random_distribution", "random:1", "'random' takes no parameter"},
	    {"random_distribution", "Zipf", "got 'Zipf'"},

	    {"direct", "x", "option 'direct': expected a boolean"},
	    {"buffered", "x", "option 'buffered': expected a boolean"},

	    {"ioengine", "splice",
	     "ioengine 'splice' is not supported by raidlab (supported: io_uring, libaio, psync, "
	     "sync, pvsync, pvsync2, null, falloc, ftruncate, filecreate, filestat, filedelete, "
	     "dircreate, dirstat, dirdelete, cpuio, exec, pmemblk, net, mmap, posixaio, nbd)"},
	    {"ioengine", "", "ioengine '' is not supported"},
	    {"ioengine", NULL, "option 'ioengine': needs a value"},

	    {"zero_buffers", "x", "option 'zero_buffers': expected a boolean"},
	    {"refill_buffers", "x", "option 'refill_buffers': expected a boolean"},
	    {"buffer_compress_percentage", "101",
	     "option 'buffer_compress_percentage': expected "
	     "a percentage from 0 to 100"},

	    {"loops", "0", "option 'loops': expected a whole number from 1 to 1000000, got '0'"},
	    {"loops", "1000001", "got '1000001'"},

	    {"verify", "md4", "verify 'md4' is not supported by raidlab (supported: crc32c"},
	    {"verify", "sha384", "verify 'sha384' is not supported"},
	    {"verify", "1", "verify '1' is not supported"},
	    {"verify", NULL, "option 'verify': needs a value"},

	    {"randseed", "abc",
	     "option 'randseed': expected a whole number from 0 to "
	     "18446744073709551615, got 'abc'"},
	    {"randseed", "18446744073709551616", "got '18446744073709551616'"},
	    {"randseed", "-1", "got '-1'"},

	    {"norandommap", "x", "option 'norandommap': expected a boolean"},

	    {"log_avg_msec", "-1",
	     "option 'log_avg_msec': expected a whole number of milliseconds "
	     "from 0 to 3600000, got '-1'"},
	    {"log_avg_msec", "3600001", "got '3600001'"},
	    {"log_avg_msec", "1s", "got '1s'"},
	    {"log_avg_msec", NULL, "needs a value"},

	    {"stonewall", "x", "expected a boolean"},
	    {"new_group", "x", "option 'new_group': expected a boolean"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		set_err_at(t[i].name, t[i].value, t[i].sub, (int)i);
}

/* --- names: unknown, rejected, suggestions --- */

static void test_unknown_and_rejected(void **state)
{
	(void)state;
	SET_ERR("iodeptj", "4", "test: unknown option 'iodeptj' (did you mean 'iodepth'?)");
	SET_ERR("IODEPTH", "4", "unknown option 'IODEPTH' (did you mean 'iodepth'?)");
	SET_ERR("iodpeth", "4", "(did you mean 'iodepth'?)"); /* transposition */
	SET_ERR("blocksze", "4k", "(did you mean 'blocksize'?)");
	SET_ERR("rwmixred", "4", "(did you mean 'rwmixread'?)");
	SET_ERR("random_distrib", "zipf", "(did you mean 'random_distribution'?)");
	SET_ERR("buffer_compress_percent", "5", "(did you mean 'buffer_compress_percentage'?)");
	SET_ERR("tim_based", NULL, "(did you mean 'time_based'?)");
	SET_ERR("xyzzy", "1", "unknown option 'xyzzy' (see 'raidlab help options')");
	SET_ERR("q", "1", "unknown option 'q' (see");
	SET_ERR("", "1", "test: missing option name");

	SET_ERR("ioengine", "splice",
	        "test: ioengine 'splice' is not supported by raidlab (supported: io_uring, libaio, "
	        "psync, sync, pvsync, pvsync2, null, falloc, ftruncate, filecreate, filestat, "
	        "filedelete, dircreate, dirstat, dirdelete, cpuio, exec, pmemblk, net, mmap, "
	        "posixaio, nbd)");
	SET_ERR("ioengine", "sg", "ioengine=sg (fio's SCSI generic engine");
	SET_ERR("target", "x", "option 'target' is not supported: the target is not a job option");

	SET_ERR("iodepth_low", "4",
	        "fio option 'iodepth_low' is not supported by raidlab (see 'raidlab help "
	        "options')");
	SET_ERR("nonvectored", "x", "option 'nonvectored': expected a whole number");
	SET_ERR("sqthread_poll_cpu", "-2", "option 'sqthread_poll_cpu': expected a whole number");
	SET_ERR("cpuload", "101", "option 'cpuload': expected a whole number from 1 to 100");
	SET_ERR("cpumode", "spin", "option 'cpumode': expected noop or qsort, got 'spin'");
	SET_ERR("cpuchunks", "0", "option 'cpuchunks'");
	SET_ERR("grace_time", "1h", "option 'grace_time'");
	SET_ERR("std_redirect", "maybe", "option 'std_redirect': expected a boolean");
	SET_ERR("cpus_allowed", "0-64", "option 'cpus_allowed': expected CPU numbers from 0 to 63");
	SET_ERR("cpus_allowed", "3-1", "got '3-1'");
	SET_ERR("cpus_allowed_policy", "one", "expected shared or split");
	SET_ERR("mem", "cudamalloc", "option 'mem': expected malloc, mmap or mmaphuge");
	SET_ERR("mem_align", "-16", "option 'mem_align'");
	SET_ERR("iomem_align", "2m", "option 'iomem_align': expected a whole number from 0");
	SET_ERR("percentile_list", "99:0", "option 'percentile_list': expected up to 20");
	SET_ERR("percentile_list", "101", "got '101'");
	SET_ERR("rate", "10m,x", "option 'rate': expected READ[,WRITE[,TRIM]] bytes per second");
	SET_ERR("rate_iops", "1,2,3,4", "option 'rate_iops': expected READ[,WRITE[,TRIM]] I/Os");
	SET_ERR("thinktime", "abc", "option 'thinktime': expected a time such as 2000");
	SET_ERR("exit_what", "some", "option 'exit_what': expected group, stonewall or all");
	SET_ERR("random_generator", "mt", "expected tausworthe, lfsr or tausworthe64");
	SET_ERR("io_submit_mode", "async", "expected inline or offload");
	SET_ERR("rate_process", "burst", "expected linear or poisson");

	/* Messages without a place, and a tiny buffer, are fine. */
	struct wl_job j;
	wl_job_init(&j);
	assert_int_equal(wl_job_set(&j, "iodepth", "x", NULL, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg,
	                    "option 'iodepth': expected a whole number from 1 to 65536, got 'x'");
	char tiny[8];
	assert_int_equal(wl_job_set(&j, "iodepth", "x", "somewhere", tiny, sizeof(tiny)), -EINVAL);
	assert_int_equal(strlen(tiny), 7);
	assert_int_equal(wl_job_set(&j, "iodepth", "x", "w", NULL, 0), -EINVAL);
	assert_int_equal(wl_job_set(&j, "iodepth", "4", "w", NULL, 0), 0);
	assert_int_equal(wl_job_set(NULL, "iodepth", "4", "w", msg, sizeof(msg)), -EINVAL);
	assert_int_equal(wl_job_set(&j, NULL, "4", "w", msg, sizeof(msg)), -EINVAL);
}

/* --- bs and bssplit --- */

static void expect_split(const struct wl_job *j, const uint32_t (*want)[2], unsigned n)
{
	assert_int_equal(j->nbssplit, n);
	for (unsigned i = 0; i < n; i++) {
		assert_int_equal(j->bssplit[i].bs, want[i][0]);
		assert_int_equal(j->bssplit[i].pct, want[i][1]);
	}
}

static void test_bssplit(void **state)
{
	(void)state;
	struct wl_job j;
	wl_job_init(&j);

	SET_OK(&j, "bssplit", "4k/60:64k/40");
	expect_split(&j, (const uint32_t[][2]){{4096, 60}, {65536, 40}}, 2);
	VALIDATE_OK(&j);
	assert_int_equal(j.bs, 4096); /* untouched, but unused while bssplit is set */

	SET_OK(&j, "bssplit", "4k");
	expect_split(&j, (const uint32_t[][2]){{4096, 100}}, 1);
	SET_OK(&j, "bssplit", "4k/50:8k:16k");
	expect_split(&j, (const uint32_t[][2]){{4096, 50}, {8192, 25}, {16384, 25}}, 3);
	/* Remainder that does not divide evenly: the first ones get one more. */
	SET_OK(&j, "bssplit", "4k:8k:16k");
	expect_split(&j, (const uint32_t[][2]){{4096, 34}, {8192, 33}, {16384, 33}}, 3);
	SET_OK(&j, "bssplit", "4k/10:8k:16k:32k/20");
	expect_split(&j, (const uint32_t[][2]){{4096, 10}, {8192, 35}, {16384, 35}, {32768, 20}},
	             4);
	SET_OK(&j, "bssplit", "4k/99:8k:16k"); /* one percent for two entries */
	expect_split(&j, (const uint32_t[][2]){{4096, 99}, {8192, 1}, {16384, 0}}, 3);
	SET_OK(&j, "bssplit", "4k/100:8k/0");
	expect_split(&j, (const uint32_t[][2]){{4096, 100}, {8192, 0}}, 2);
	VALIDATE_OK(&j);
	SET_OK(&j, "bssplit", "512/100");
	SET_OK(&j, "bssplit", "64m/100");
	SET_OK(&j, "bssplit", "4k:4k:4k:4k:4k:4k:4k:4k:4k:4k:4k:4k:4k:4k:4k:4k");
	assert_int_equal(j.nbssplit, WL_BSSPLIT_MAX);
	unsigned sum = 0;
	for (unsigned i = 0; i < j.nbssplit; i++)
		sum += j.bssplit[i].pct;
	assert_int_equal(sum, 100);
	VALIDATE_OK(&j);

	/* The later of bs and bssplit wins. */
	SET_OK(&j, "bs", "8k");
	assert_int_equal(j.nbssplit, 0);
	assert_int_equal(j.bs, 8192);
	SET_OK(&j, "bssplit", "4k/60:64k/40");
	assert_int_equal(j.nbssplit, 2);

	SET_ERR("bssplit", "4k/50:8k/40",
	        "option 'bssplit': the percentages add up to 90, "
	        "expected 100, in '4k/50:8k/40'");
	SET_ERR("bssplit", "4k/60:8k/60", "the percentages add up to 120, more than 100");
	SET_ERR("bssplit", "4k/60:8k/40:16k",
	        "the given percentages already add up to 100, leaving nothing for the entries "
	        "without one");
	/* Per direction: reads, writes, and trims (the writes' unless given), as fio. */
	SET_OK(&j, "bssplit", "4k/60:64k/40,1m/100");
	expect_split(&j, (const uint32_t[][2]){{4096, 60}, {65536, 40}}, 2);
	unsigned nw = 0, nt = 0;
	const struct wl_bssplit *ws = wl_job_bssplit(&j, 1, &nw), *ts = wl_job_bssplit(&j, 2, &nt);
	assert_true(nw == 1 && ws[0].bs == 1048576 && ws[0].pct == 100);
	assert_true(nt == 1 && ts[0].bs == 1048576);
	uint32_t lo, hi;
	wl_job_bs_bounds(&j, &lo, &hi);
	assert_true(lo == 4096 && hi == 1048576);
	VALIDATE_OK(&j);
	SET_OK(&j, "bssplit", "4k/100,8k/100,16k/100");
	ts = wl_job_bssplit(&j, 2, &nt);
	assert_true(nt == 1 && ts[0].bs == 16384);
	SET_OK(&j, "bs", "8k"); /* bs clears every direction's split */
	assert_true(wl_job_bssplit(&j, 1, &nw) && nw == 0);
	SET_ERR("bssplit", "4k/100,", "expected READ[,WRITE[,TRIM]] lists");
	SET_ERR("bssplit", "4k/100,8k/100,8k/100,8k/100", "expected READ[,WRITE[,TRIM]] lists");
	SET_ERR("bssplit", "4k/100,8k/50",
	        "the percentages add up to 50, expected 100, in '8k/50'");
	SET_ERR("bssplit", "", "option 'bssplit': expected SIZE/PCT entries separated by ':'");
	SET_ERR("bssplit", "4k/50::8k/50", "entry 2 is empty");
	SET_ERR("bssplit", "4k/100:", "entry 2 is empty");
	SET_ERR("bssplit", ":4k", "entry 1 is empty");
	SET_ERR("bssplit", "0/100",
	        "entry 1: expected a block size from 1 byte to 64m (e.g. 4k), got '0'");
	SET_ERR("bssplit", "4k/50:0/50", "entry 2: expected a block size");
	SET_ERR("bssplit", "128m/100", "got '128m'");
	SET_ERR("bssplit", "x/100", "got 'x'");
	SET_ERR("bssplit", "/100", "entry 1: expected a block size");
	SET_ERR("bssplit", "4k/abc",
	        "entry 1: expected a percentage from 0 to 100 after '/', "
	        "got 'abc'");
	SET_ERR("bssplit", "4k/101", "got '101'");
	SET_ERR("bssplit", "4k/", "got ''");
	SET_ERR("bssplit", "4k/50/50", "got '50/50'");
	SET_ERR("bssplit", "4k:4k:4k:4k:4k:4k:4k:4k:4k:4k:4k:4k:4k:4k:4k:4k:4k",
	        "at most 16 entries are allowed");
	SET_ERR("bssplit", NULL, "option 'bssplit': needs a value");
}

/* --- random_distribution --- */

static void test_random_distribution(void **state)
{
	(void)state;
	struct wl_job j;
	wl_job_init(&j);
	SET_OK(&j, "rw", "randread");
	SET_OK(&j, "random_distribution", "zipf:1.2");
	assert_int_equal(j.dist, WL_DIST_ZIPF);
	assert_true(fabs(j.dist_param - 1.2) < 1e-12);
	VALIDATE_OK(&j);
	SET_OK(&j, "random_distribution", "zipf");
	assert_true(fabs(j.dist_param - 1.1) < 1e-12);
	SET_OK(&j, "random_distribution", "zipf:0.5");
	assert_true(fabs(j.dist_param - 0.5) < 1e-12);
	SET_OK(&j, "random_distribution", "zipf:.8");
	assert_true(fabs(j.dist_param - 0.8) < 1e-12);
	SET_OK(&j, "random_distribution", "zipf:2e0");
	assert_true(fabs(j.dist_param - 2.0) < 1e-12);
	SET_OK(&j, "random_distribution", "pareto:0.3");
	assert_int_equal(j.dist, WL_DIST_PARETO);
	assert_true(fabs(j.dist_param - 0.3) < 1e-12);
	SET_OK(&j, "random_distribution", "pareto");
	assert_true(fabs(j.dist_param - 0.2) < 1e-12);
	VALIDATE_OK(&j);
	SET_OK(&j, "random_distribution", "random");
	assert_int_equal(j.dist, WL_DIST_RANDOM);
	assert_true(j.dist_param == 0);

	/* A sequential pattern does not use it: accepted, as fio accepts it. */
	SET_OK(&j, "random_distribution", "zipf:1.2");
	SET_OK(&j, "rw", "read");
	VALIDATE_OK(&j);
	SET_OK(&j, "rw", "randtrim");
	VALIDATE_OK(&j);

	/* Bad parameters in a hand-made job. */
	j.dist_param = 1.0;
	VALIDATE_ERR(&j, "zipf theta 1 must be above 0 and other than 1");
	j.dist = WL_DIST_PARETO;
	VALIDATE_ERR(&j, "pareto h 1 must be between 0 and 1");
	j.dist = (enum wl_dist)7;
	VALIDATE_ERR(&j, "invalid random_distribution value 7");
}

/* --- cross-option rules --- */

/* ioengine=net: its options, and fio's rules on who listens and where to. */
static void test_net_options(void **state)
{
	(void)state;
	struct wl_job j;
	struct wl_net_addr a;

	SET_ERR("protocol", "sctp",
	        "option 'protocol': expected tcp, tcpv6, udp, udpv6 or unix, got "
	        "'sctp'");
	SET_ERR("protocol", "vsock", "option 'protocol': vsock");
	SET_ERR("port", "0", "option 'port': expected a whole number from 1 to 65535, got '0'");
	SET_ERR("port", "65536", "option 'port': expected a whole number from 1 to 65535");
	SET_ERR("ttl", "256", "option 'ttl': expected a whole number from 0 to 255");
	/* any size from a byte, whatever the engine: the target says what it takes */
	SET_OK(&j, "bs", "64");
	wl_job_init(&j);
	SET_OK(&j, "ioengine", "net");
	SET_OK(&j, "bs", "64");
	SET_OK(&j, "hostname", "localhost");
	SET_OK(&j, "port", "8888");
	SET_OK(&j, "rw", "write");
	VALIDATE_OK(&j);
	assert_int_equal(wl_job_net_addr(&j, &a, msg, sizeof(msg)), 0);
	assert_string_equal(a.host, "localhost");
	assert_int_equal(a.port, 8888);
	assert_int_equal(a.proto, WL_NET_TCP);
	/* filename=HOST/PORT/PROTOCOL overrides port= and protocol= */
	SET_OK(&j, "filename", "127.0.0.1/9000/udp");
	VALIDATE_OK(&j);
	assert_int_equal(wl_job_net_addr(&j, &a, msg, sizeof(msg)), 0);
	assert_string_equal(a.host, "127.0.0.1");
	assert_int_equal(a.port, 9000);
	assert_int_equal(a.proto, WL_NET_UDP);
	static const char *const bad_names[][2] = {
	    {"localhost/", "filename='localhost/': expected HOST/PORT[/PROTOCOL]"},
	    {"localhost/http", "filename='localhost/http': expected HOST/PORT[/PROTOCOL]"},
	    {"localhost/70000", "PORT from 1 to 65535"},
	    {"/8888", "filename='/8888' is not a host for ioengine=net"},
	    {"localhost/8888/sctp", "filename='localhost/8888/sctp': protocol 'sctp' is not tcp"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad_names); i++) {
		SET_OK(&j, "filename", bad_names[i][0]);
		VALIDATE_ERR(&j, bad_names[i][1]);
	}
	SET_OK(&j, "filename", "localhost");
	SET_OK(&j, "rw", "randwrite");
	VALIDATE_ERR(&j, "rw=randwrite: ioengine=net is a stream");
	SET_OK(&j, "rw", "read");
	SET_OK(&j, "listen", NULL);
	VALIDATE_ERR(&j, "a receiving job (listen) takes no host but a UDP multicast group");
	j.filename[0] = '\0'; /* none (filename= takes no empty value) */
	VALIDATE_OK(&j);
	SET_OK(&j, "protocol", "udp");
	VALIDATE_ERR(&j, "listen is for TCP only");
	SET_OK(&j, "listen", "0");
	VALIDATE_OK(&j); /* a UDP reader receives */
	SET_OK(&j, "filename", "239.0.0.1");
	VALIDATE_OK(&j); /* and may join a multicast group */
	SET_OK(&j, "rw", "rw");
	VALIDATE_ERR(&j, "a udp socket goes one way");
	SET_OK(&j, "rw", "write");
	j.filename[0] = '\0'; /* none (filename= takes no empty value) */
	VALIDATE_ERR(&j, "a sending job needs hostname=");
	SET_OK(&j, "protocol", "unix");
	VALIDATE_ERR(&j, "protocol=unix needs filename=");
	SET_OK(&j, "filename", "/tmp/x.sock");
	VALIDATE_ERR(&j, "port=8888: a unix socket has no port");
	/* not a sector either on a file: a buffered one takes it (run time says) */
	SET_OK(&j, "ioengine", "psync");
	VALIDATE_OK(&j);
}

static void test_validate(void **state)
{
	(void)state;
	struct wl_job j;

	wl_job_init(&j);
	SET_OK(&j, "time_based", NULL);
	VALIDATE_OK(&j); /* fio's way: without a runtime the size runs once */
	assert_false(wl_job_time_based(&j));
	SET_OK(&j, "runtime", "10");
	VALIDATE_OK(&j);
	assert_true(wl_job_time_based(&j));

	wl_job_init(&j);
	SET_OK(&j, "ramp_time", "5"); /* ramp without runtime is fine */
	VALIDATE_OK(&j);

	wl_job_init(&j);
	SET_OK(&j, "rw", "write");
	SET_OK(&j, "verify_only", "1");
	VALIDATE_ERR(&j, "verify_only needs verify");
	SET_OK(&j, "verify", "crc32c");
	VALIDATE_OK(&j);
	assert_false(wl_job_writes(&j)); /* verify_only only reads */
	SET_OK(&j, "runtime", "5");
	SET_OK(&j, "time_based", "1");
	VALIDATE_ERR(&j, "cannot be combined with time_based or ramp_time");

	wl_job_init(&j);
	SET_OK(&j, "ramp_time", "5");
	SET_OK(&j, "time_based", "1");
	SET_OK(&j, "runtime", "1m");
	VALIDATE_OK(&j);

	/* verify needs a pattern that writes. */
	static const struct {
		const char *rw;
		bool ok;
	} vt[] = {{"read", false}, {"randread", false}, {"trim", false}, {"randtrim", false},
	          {"write", true}, {"randwrite", true}, {"rw", true},    {"randrw", true}};
	for (size_t i = 0; i < ARRAY_SIZE(vt); i++) {
		wl_job_init(&j);
		SET_OK(&j, "verify", "crc32c");
		SET_OK(&j, "rw", vt[i].rw);
		if (vt[i].ok) {
			VALIDATE_OK(&j);
		} else {
			validate_err_at(&j,
			                "verify=crc32c needs a pattern that writes (write, "
			                "randwrite, rw or randrw)",
			                (int)i);
			expect_sub(msg, vt[i].rw, (int)i);
		}
	}
	wl_job_init(&j);
	SET_OK(&j, "verify", "crc32c");
	SET_OK(&j, "rw", "randrw");
	SET_OK(&j, "rwmixread", "100");
	VALIDATE_ERR(&j, "verify=crc32c needs writes, but rwmixread=100 makes rw=randrw read only");
	SET_OK(&j, "rwmixread", "99");
	VALIDATE_OK(&j);
	SET_OK(&j, "bssplit", "4k/50:64k/50");
	VALIDATE_OK(&j);
	SET_OK(&j, "norandommap", NULL);
	VALIDATE_ERR(&j, "verify=crc32c cannot be combined with bssplit and norandommap");
	SET_OK(&j, "norandommap", "0");
	SET_OK(&j, "random_distribution", "zipf:1.2");
	VALIDATE_ERR(&j, "cannot be combined with bssplit");
	SET_OK(&j, "bs", "4k");
	VALIDATE_OK(&j);

	/* Buffer contents. */
	wl_job_init(&j);
	SET_OK(&j, "zero_buffers", NULL);
	VALIDATE_OK(&j);
	SET_OK(&j, "refill_buffers", NULL);
	VALIDATE_ERR(&j, "zero_buffers and refill_buffers exclude each other");
	SET_OK(&j, "refill_buffers", "0");
	SET_OK(&j, "buffer_compress_percentage", "50");
	VALIDATE_ERR(&j, "zero_buffers and buffer_compress_percentage exclude each other");
	SET_OK(&j, "zero_buffers", "0");
	SET_OK(&j, "refill_buffers", "1");
	VALIDATE_OK(&j);

	/* Region. */
	wl_job_init(&j);
	SET_OK(&j, "size", "2k");
	SET_OK(&j, "bs", "4k");
	VALIDATE_ERR(&j, "size=2048 bytes is smaller than the largest block size (4096 bytes)");
	SET_OK(&j, "bs", "2k");
	VALIDATE_OK(&j);
	SET_OK(&j, "bssplit", "1k/50:8k/50");
	VALIDATE_ERR(&j, "smaller than the largest block size (8192 bytes)");
	SET_OK(&j, "size", "0");
	VALIDATE_OK(&j);
	SET_OK(&j, "size", "1m");
	j.offset = UINT64_MAX - 511; /* 2^64 - 512 */
	VALIDATE_ERR(&j, "offset + size is beyond 2^64 bytes");
	/* any byte: the target judges it when the job meets it (wl_run_check) */
	j.offset = 100;
	j.size = 0;
	VALIDATE_OK(&j);
	j.offset = 0;

	/* Ranges of jobs filled in by hand. */
	static const struct {
		size_t off, width;
		uint64_t value;
		const char *sub;
	} rt[] = {
	    {offsetof(struct wl_job, iodepth), 4, 0, "iodepth=0 is not from 1 to 65536"},
	    {offsetof(struct wl_job, iodepth), 4, 65537, "iodepth=65537"},
	    {offsetof(struct wl_job, numjobs), 4, 0, "numjobs=0 is not from 1 to 1024"},
	    {offsetof(struct wl_job, numjobs), 4, 2000, "numjobs=2000"},
	    {offsetof(struct wl_job, loops), 4, 0, "loops=0 is not from 1 to 1000000"},
	    {offsetof(struct wl_job, rwmixread), 4, 101, "rwmixread=101 is above 100"},
	    {offsetof(struct wl_job, buffer_compress_percentage), 4, 200,
	     "buffer_compress_percentage=200 is above 100"},
	    {offsetof(struct wl_job, bs), 4, 0, "bs=0 is not a block size"},
	    {offsetof(struct wl_job, bs), 4, 128u << 20, "is not a block size"},
	    {offsetof(struct wl_job, log_avg_ns), 8, 0, "log_avg_msec must be from 1 to 3600000"},
	    {offsetof(struct wl_job, rw), 4, 42, "invalid rw value 42"},
	    {offsetof(struct wl_job, engine), 4, WL_ENGINE_COUNT, "invalid ioengine value"},
	    {offsetof(struct wl_job, verify), 4, 5, "invalid verify value 5"},
	    {offsetof(struct wl_job, nbssplit), 4, WL_BSSPLIT_MAX + 1, "bssplit has 17 entries"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(rt); i++) {
		wl_job_init(&j);
		if (rt[i].width == 4) {
			uint32_t v = (uint32_t)rt[i].value;
			memcpy((char *)&j + rt[i].off, &v, 4);
		} else {
			memcpy((char *)&j + rt[i].off, &rt[i].value, 8);
		}
		validate_err_at(&j, rt[i].sub, (int)i);
	}
	wl_job_init(&j);
	j.nbssplit = 2;
	j.bssplit[0] = (struct wl_bssplit){4096, 50};
	j.bssplit[1] = (struct wl_bssplit){0, 50};
	VALIDATE_ERR(&j, "bssplit entry 2: block size 0 is not a block size");
	j.bssplit[1] = (struct wl_bssplit){8192, 40};
	VALIDATE_ERR(&j, "bssplit percentages add up to 90, expected 100");
	j.bssplit[1] = (struct wl_bssplit){8192, 150};
	VALIDATE_ERR(&j, "bssplit entry 2: percentage 150 is above 100");
	wl_job_init(&j);
	j.name[0] = '\0';
	VALIDATE_ERR(&j, "the job has no valid name");
	memset(j.name, 'x', sizeof(j.name));
	VALIDATE_ERR(&j, "the job has no valid name");
	assert_int_equal(wl_job_validate(NULL, "test", msg, sizeof(msg)), -EINVAL);
}

/* --- the table: completeness, defaults, docs --- */

static const char *const promised[] = {
    "clocksource",
    "disk_util",
    "create_only",
    "allow_mounted_write",
    "read_iolog",
    "trace",
    "replay_no_stall",
    "replay_time_scale",
    "write_iolog",
    "replay_redirect",
    "name",
    "rw",
    "readwrite",
    "bs",
    "blocksize",
    "bssplit",
    "iodepth",
    "numjobs",
    "size",
    "offset",
    "runtime",
    "time_based",
    "ramp_time",
    "rwmixread",
    "rwmixwrite",
    "random_distribution",
    "direct",
    "buffered",
    "ioengine",
    "zero_buffers",
    "refill_buffers",
    "buffer_compress_percentage",
    "loops",
    "verify",
    "randseed",
    "norandommap",
    "log_avg_msec",
    "stonewall",
    "wait_for_previous",
    "new_group",
    "verify_only",
    "offset_increment",
    "group_reporting",
    "filename",
    "directory",
    "description",
    "thread",
    "randrepeat",
    "fsync",
    "fdatasync",
    "sync",
    "end_fsync",
    "startdelay",
    "exitall",
    "write_bw_log",
    "write_lat_log",
    "write_iops_log",
    "bsrange",
    "blocksize_range",
    "rate",
    "rate_iops",
    "rate_min",
    "ratemin",
    "rate_process",
    "io_submit_mode",
    "thinktime",
    "number_ios",
    "filesize",
    "wait_for",
    "exit_what",
    "random_generator",
    "gtod_reduce",
    "blockalign",
    "ba",
    "threads",
    "timeout",
    "percentile_list",
    "lat_percentiles",
    "clat_percentiles",
    "slat_percentiles",
    "cpus_allowed",
    "cpus_allowed_policy",
    "mem",
    "iomem",
    "mem_align",
    "iomem_align",
    "invalidate",
    "iodepth_batch",
    "iodepth_batch_submit",
    "iodepth_batch_complete_min",
    "iodepth_batch_complete",
    "iodepth_batch_complete_max",
    "flow",
    "flow_id",
    "flow_sleep",
    "latency_target",
    "latency_window",
    "latency_percentile",
    "latency_run",
    "ss",
    "steadystate",
    "ss_dur",
    "steadystate_duration",
    "ss_ramp",
    "steadystate_ramp_time",
    "ss_interval",
    "steadystate_check_interval",
    "numa_cpu_nodes",
    "numa_mem_policy",
    "dedupe_percentage",
    "dedupe_mode",
    "dedupe_working_set_percentage",
    "dedupe_global",
    "cpuload",
    "cpuchunks",
    "cpumode",
    "exit_on_io_done",
    "program",
    "arguments",
    "grace_time",
    "std_redirect",
    "uri",
    "disable_lat",
    "disable_clat",
    "disable_slat",
    "disable_bw_measurement",
    "disable_bw",
    "hostname",
    "port",
    "protocol",
    "proto",
    "listen",
    "pingpong",
    "interface",
    "ttl",
    "window_size",
    "mss",
    "nodelay",
    "filename_format",
    "nrfiles",
    "openfiles",
    "file_service_type",
    "allow_file_create",
    "unlink",
    "unlink_each_loop",
    "overwrite",
    "pre_read",
    "fsync_on_close",
    "scramble_buffers",
    "buffer_pattern",
    "log_offset",
    "per_job_logs",
    "significant_figures",
    "unified_rw_reporting",
    "kb_base",
    "write_hist_log",
    "log_hist_msec",
    "log_hist_coarseness",
    "verify_interval",
    "verify_pattern",
    "do_verify",
    "fill_device",
    "fill_fs",
    "create_serialize",
    "prio",
    "prioclass",
    "cmdprio_percentage",
    "cmdprio_class",
    "cmdprio",
    "hipri",
    "sqthread_poll",
    "sqthread_poll_cpu",
    "fixedbufs",
    "registerfiles",
    "nonvectored",
    "uncached",
    "nowait",
    "force_async",
    "userspace_reap",
    "cmdprio_bssplit",
    "zonemode",
    "zonerange",
    "zonesize",
    "zoneskip",
    "log_prio",
    "continue_on_error",
    "ignore_error",
    "error_dump",
    "verify_backlog",
    "verify_backlog_batch",
    "verify_offset",
    "verify_fatal",
    "verify_dump",
    "verify_async",
    "fallocate",
    "create_on_open",
    "io_size",
    "io_limit",
};

/* fio's defaults (direct=0, psync, files kept) apply to jobs that run where fio would */
static void test_fio_direct_default(void **state)
{
	struct wl_job j;

	(void)state;
	wl_job_init(&j);
	assert_true(j.direct); /* raidlab's defaults, for --target */
	assert_int_equal(j.engine, WL_ENGINE_IO_URING);
	assert_false(wl_job_apply_fio_defaults(&j, false));
	assert_true(j.direct);
	assert_int_equal(j.engine, WL_ENGINE_IO_URING);
	assert_false(j.keep_files);
	SET_OK(&j, "filename", "/tmp/some.img");
	assert_true(wl_job_apply_fio_defaults(&j, false));
	assert_false(j.direct);
	assert_int_equal(j.engine, WL_ENGINE_PSYNC);
	assert_string_equal(j.engine_name, "psync");
	assert_true(j.keep_files);

	wl_job_init(&j); /* no file and no target: fio's default file, fio's defaults */
	assert_true(wl_job_apply_fio_defaults(&j, true));
	assert_false(j.direct);
	assert_int_equal(j.engine, WL_ENGINE_PSYNC);

	wl_job_init(&j);
	SET_OK(&j, "directory", "/tmp");
	SET_OK(&j, "ioengine", "libaio");
	SET_OK(&j, "unlink", "1");
	assert_false(wl_job_apply_fio_defaults(&j, false)); /* an engine given stays */
	assert_false(j.direct);
	assert_int_equal(j.engine, WL_ENGINE_LIBAIO);
	assert_false(j.keep_files);

	wl_job_init(&j);
	SET_OK(&j, "filename", "/tmp/some.img");
	SET_OK(&j, "direct", "1");
	SET_OK(&j, "ioengine", "io_uring");
	assert_false(wl_job_apply_fio_defaults(&j, false));
	assert_true(j.direct);
	assert_int_equal(j.engine, WL_ENGINE_IO_URING);

	wl_job_init(&j);
	SET_OK(&j, "filename", "/tmp/some.img");
	SET_OK(&j, "buffered", "0");
	wl_job_apply_fio_defaults(&j, false);
	assert_true(j.direct);

	/* file_service_type and fallocate are kept, as fio reads them */
	wl_job_init(&j);
	assert_int_equal(j.file_service, WL_FSVC_ROUNDROBIN);
	assert_int_equal(j.file_service_n, 1);
	assert_int_equal(j.fallocate, WL_FALLOC_NATIVE);
	SET_OK(&j, "file_service_type", "roundrobin:3");
	assert_int_equal(j.file_service_n, 3);
	SET_OK(&j, "file_service_type", "random:2");
	assert_int_equal(j.file_service, WL_FSVC_RANDOM);
	assert_int_equal(j.file_service_n, 2);
	SET_OK(&j, "file_service_type", "sequential");
	assert_int_equal(j.file_service, WL_FSVC_SEQUENTIAL);
	SET_OK(&j, "file_service_type", "zipf:1.2");
	assert_int_equal(j.file_service, WL_FSVC_RANDOM);
	assert_int_equal(j.file_service_n, 1);
	assert_int_not_equal(
	    wl_job_set(&j, "file_service_type", "roundrobin:0", "t", msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "whole number from 1"));
	SET_OK(&j, "fallocate", "0");
	assert_int_equal(j.fallocate, WL_FALLOC_NONE);
	SET_OK(&j, "fallocate", "1");
	assert_int_equal(j.fallocate, WL_FALLOC_POSIX);
	SET_OK(&j, "fallocate", "keep");
	assert_int_equal(j.fallocate, WL_FALLOC_KEEP);
	assert_int_not_equal(wl_job_set(&j, "merge_blktrace_file", "m.bin", "t", msg, sizeof(msg)),
	                     0);
	assert_non_null(strstr(msg, "merge_blktrace_file"));

	wl_job_init(&j); /* a trace replay keeps io_uring: its depth is the trace's */
	SET_OK(&j, "filename", "/tmp/some.img");
	SET_OK(&j, "read_iolog", "/tmp/t.iolog");
	assert_false(wl_job_apply_fio_defaults(&j, false));
	assert_int_equal(j.engine, WL_ENGINE_IO_URING);
	assert_true(j.keep_files);

	wl_job_init(&j); /* a raidlab spec in filename= keeps raidlab's defaults */
	SET_OK(&j, "filename", "mem(size=1m)");
	assert_false(wl_job_apply_fio_defaults(&j, true));
	assert_true(j.direct);
	assert_int_equal(j.engine, WL_ENGINE_IO_URING);
	assert_false(j.keep_files);
}

/* Is @name an option or alias of @opts? */
static bool help_is_option(const struct wl_option_info *opts, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(opts[i].name, name) || (opts[i].alias && !strcmp(opts[i].alias, name)))
			return true;
	return false;
}

/*
 * The help must not contradict the parser: every NAME=VALUE example in an
 * option's help is accepted, unless its sentence says "not supported" (or
 * "an error", "refused"), and then it is refused (`raidlab help options` once called rw=randread:8
 * unsupported while it worked).
 */
static void test_option_help_examples(void **state)
{
	(void)state;
	size_t n = 0, checked = 0;
	const struct wl_option_info *opts = wl_options(&n);

	for (size_t i = 0; i < n; i++) {
		const char *h = opts[i].help;
		for (const char *p = h; (p = strchr(p, '=')) != NULL; p++) {
			const char *b = p;
			while (b > h && (b[-1] == '_' || (b[-1] >= 'a' && b[-1] <= 'z')))
				b--;
			size_t nl = (size_t)(p - b), vl = strcspn(p + 1, " ),;");
			char name[64], value[64];
			while (vl &&
			       (p[vl] == '.' || p[vl] == ':')) /* the sentence's, not the value's */
				vl--;
			if (!nl || nl >= sizeof(name) || !vl || vl >= sizeof(value))
				continue;
			memcpy(name, b, nl);
			name[nl] = '\0';
			memcpy(value, p + 1, vl);
			value[vl] = '\0';
			if (!help_is_option(opts, n, name) || strchr(value, '=') ||
			    (value[0] >= 'A' && value[0] <= 'Z')) /* a placeholder: bs=MIN-MAX */
				continue;
			/* the sentence around the example: from the last ". " to the next */
			const char *s0 = b, *s1 = strstr(p, ". ");
			while (s0 > h && !(s0[-1] == ' ' && s0 > h + 1 && s0[-2] == '.'))
				s0--;
			size_t sl = s1 ? (size_t)(s1 - s0) : strlen(s0);
			char sentence[512];
			snprintf(sentence, sizeof(sentence), "%.*s", (int)sl, s0);
			bool refused = strstr(sentence, "not supported") ||
			               strstr(sentence, "an error") || strstr(sentence, "refused");
			struct wl_job j;
			wl_job_init(&j);
			int rc = wl_job_set(&j, name, value, "help", msg, sizeof(msg));
			if (refused != (rc != 0))
				fail_msg(
				    "option '%s': its help gives %s=%s as %s, but the parser %s it "
				    "(%s)",
				    opts[i].name, name, value, refused ? "refused" : "accepted",
				    rc ? "refuses" : "accepts", rc ? msg : sentence);
			checked++;
		}
	}
	assert_true(checked >= 5); /* the scan finds the examples at all */
}

static void test_option_table(void **state)
{
	(void)state;
	size_t n = 0;
	const struct wl_option_info *opts = wl_options(&n);
	assert_non_null(opts);
	assert_int_equal(n, ARRAY_SIZE(promised) - 21); /* twenty-one of them are aliases */
	assert_ptr_equal(wl_options(NULL), opts);

	/* Every promised name is an option or alias in the table. */
	for (size_t p = 0; p < ARRAY_SIZE(promised); p++) {
		bool found = false;
		for (size_t i = 0; i < n; i++)
			if (strcmp(opts[i].name, promised[p]) == 0 ||
			    (opts[i].alias && strcmp(opts[i].alias, promised[p]) == 0))
				found = true;
		if (!found)
			fail_msg("option '%s' missing from wl_options()", promised[p]);
	}

	static const char *const types[] = {"size",    "int",     "bool", "time", "enum", "str",
	                                    "percent", "bssplit", "dist", "msec", "float"};
	for (size_t i = 0; i < n; i++) {
		const struct wl_option_info *o = &opts[i];
		assert_non_null(o->name);
		assert_non_null(o->type);
		assert_non_null(o->def);
		assert_non_null(o->help);
		assert_true(strlen(o->help) > 10);
		assert_null(strchr(o->help, '|')); /* docs/options.md is a table */
		bool known_type = false;
		for (size_t t = 0; t < ARRAY_SIZE(types); t++)
			known_type |= strcmp(o->type, types[t]) == 0;
		if (!known_type)
			fail_msg("option '%s' has unknown type '%s'", o->name, o->type);
		for (size_t k = 0; k < i; k++)
			assert_string_not_equal(opts[k].name, o->name);

		/* Every option is settable by name and alias; its default is a no-op. */
		struct wl_job j, def;
		wl_job_init(&def);
		memcpy(&j, &def, sizeof(j));
		if (o->def[0]) {
			SET_OK(&j, o->name, o->def);
			j.direct_given = false;   /* only records that direct= was said */
			j.iodepth_given = false;  /* likewise */
			j.scramble_given = false; /* likewise */
			j.engine_given = false;   /* likewise */
			j.rwmix_given[0] = j.rwmix_given[1] = false; /* likewise */
			memset(j.given, 0,
			       sizeof(j.given)); /* fio's "job options": what was said */
			if (memcmp(&j, &def, sizeof(j)) != 0)
				fail_msg("option '%s': its default '%s' differs from wl_job_init",
				         o->name, o->def);
			if (o->alias)
				SET_OK(&j, o->alias, o->def);
		} else {
			/* No default: bssplit ("unset" means bs is used), the texts, cpuload (given
			   or not: cpuio needs it), sqthread_poll_cpu (none: the kernel's choice).
			 */
			if (strcmp(o->name, "bssplit") && strcmp(o->name, "cmdprio_bssplit") &&
			    strcmp(o->name, "filename") && strcmp(o->name, "directory") &&
			    strcmp(o->name, "description") && strncmp(o->name, "write_", 6) &&
			    strcmp(o->name, "bsrange") && strcmp(o->name, "wait_for") &&
			    strcmp(o->name, "percentile_list") && strcmp(o->name, "cpus_allowed") &&
			    strncmp(o->name, "numa_", 5) && strcmp(o->name, "verify_pattern") &&
			    strcmp(o->name, "prio") && strcmp(o->name, "buffer_pattern") &&
			    strcmp(o->name, "ignore_error") && strcmp(o->name, "read_iolog") &&
			    strcmp(o->name, "replay_redirect") && strcmp(o->name, "cpuload") &&
			    strcmp(o->name, "program") && strcmp(o->name, "arguments") &&
			    strcmp(o->name, "hostname") && strcmp(o->name, "port") &&
			    strcmp(o->name, "interface") && strcmp(o->name, "sqthread_poll_cpu") &&
			    strcmp(o->name, "uri"))
				fail_msg("option '%s' has no default", o->name);
		}
		/* Booleans take the bare name (allow_mounted_write takes 0 only: a job
		 * option cannot lift raidlab's protection of devices in use). */
		if (strcmp(o->type, "bool") == 0 && strcmp(o->name, "allow_mounted_write"))
			SET_OK(&j, o->name, NULL);
	}
}

static char *read_text_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (len + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 16384;
			char *nb = realloc(buf, cap);
			assert_non_null(nb);
			buf = nb;
		}
		size_t got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
		if (got == 0)
			break;
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}

static void test_docs_match_table(void **state)
{
	(void)state;
	const char *top = getenv("RAIDLAB_TOP");
	char path[4096];
	snprintf(path, sizeof(path), "%s/docs/options.md", top && top[0] ? top : ".");
	char *doc = read_text_file(path);
	if (!doc) {
		print_message("skipping: %s not found\n", path);
		skip();
	}
	size_t n = 0;
	const struct wl_option_info *opts = wl_options(&n);
	for (size_t i = 0; i < n; i++) {
		const struct wl_option_info *o = &opts[i];
		char row[2048], alias[80], def[80];
		snprintf(alias, sizeof(alias), o->alias ? "`%s`" : "-", o->alias);
		snprintf(def, sizeof(def), o->def[0] ? "`%s`" : "-", o->def);
		snprintf(row, sizeof(row), "| `%s` | %s | %s | %s | %s |\n", o->name, alias,
		         o->type, def, o->help);
		if (!strstr(doc, row)) {
			free(doc);
			fail_msg("%s lacks the row for '%s' (or it differs):\n%s", path, o->name,
			         row);
		}
	}
	free(doc);
}

/* --- job files --- */

static struct wl_jobfile parse_ok_at(const char *text, const struct wl_job *base, int line)
{
	struct wl_jobfile jf;
	int ret = wl_jobfile_parse(text, "jobs.fio", base, &jf, msg, sizeof(msg));
	if (ret != 0)
		fail_msg("line %d: parse failed (%d): %s", line, ret, msg);
	return jf;
}
#define PARSE_OK(text, base) parse_ok_at(text, base, __LINE__)

static void test_jobfile_global_and_jobs(void **state)
{
	(void)state;
	const char *text = "[global]\n"
	                   "bs=64k\n"
	                   "iodepth=8\n"
	                   "target=raid0(ssd(a) x2, chunk=128k)\n"
	                   "\n"
	                   "[seqread]\n"
	                   "rw=read\n"
	                   "\n"
	                   "[randwrite]\n"
	                   "rw=randwrite\n"
	                   "bs=4k\n"
	                   "verify=crc32c\n";
	struct wl_jobfile jf = PARSE_OK(text, NULL);
	assert_int_equal(jf.njobs, 2);
	assert_string_equal(jf.target, "raid0(ssd(a) x2, chunk=128k)");
	assert_string_equal(jf.jobs[0].name, "seqread");
	assert_int_equal(jf.jobs[0].rw, WL_RW_READ);
	assert_int_equal(jf.jobs[0].bs, 65536);
	assert_int_equal(jf.jobs[0].iodepth, 8);
	assert_string_equal(jf.jobs[1].name, "randwrite");
	assert_int_equal(jf.jobs[1].rw, WL_RW_RANDWRITE);
	assert_int_equal(jf.jobs[1].bs, 4096);
	assert_int_equal(jf.jobs[1].iodepth, 8);
	assert_int_equal(jf.jobs[1].verify, WL_VERIFY_CRC32C);
	wl_jobfile_free(&jf);
	assert_null(jf.jobs);
	assert_null(jf.target);
	wl_jobfile_free(&jf); /* twice is fine */
	wl_jobfile_free(NULL);

	/* No [global], no target. */
	jf = PARSE_OK("[only]\nrw=randread\n", NULL);
	assert_int_equal(jf.njobs, 1);
	assert_null(jf.target);
	assert_int_equal(jf.jobs[0].iodepth, 1);
	wl_jobfile_free(&jf);
}

static void test_jobfile_global_after_job(void **state)
{
	(void)state;
	const char *text = "[global]\n"
	                   "iodepth=4\n"
	                   "bs=8k\n"
	                   "[a]\n"
	                   "[global]\n"
	                   "iodepth=16\n"
	                   "[b]\n"
	                   "[c]\n"
	                   "iodepth=2\n"
	                   "[d]\n";
	struct wl_jobfile jf = PARSE_OK(text, NULL);
	assert_int_equal(jf.njobs, 4);
	assert_int_equal(jf.jobs[0].iodepth, 4);
	assert_int_equal(jf.jobs[1].iodepth, 16);
	assert_int_equal(jf.jobs[1].bs, 8192); /* the earlier [global] still applies */
	assert_int_equal(jf.jobs[2].iodepth, 2);
	assert_int_equal(jf.jobs[3].iodepth, 16); /* a job's own option does not leak */
	wl_jobfile_free(&jf);
}

static void test_jobfile_base(void **state)
{
	(void)state;
	struct wl_job base;
	wl_job_init(&base);
	SET_OK(&base, "iodepth", "32");
	SET_OK(&base, "name", "cli");
	SET_OK(&base, "runtime", "10");
	const char *text = "[global]\n"
	                   "bs=16k\n"
	                   "[x]\n"
	                   "[y]\n"
	                   "iodepth=2\n"
	                   "name=renamed\n";
	struct wl_jobfile jf = PARSE_OK(text, &base);
	assert_int_equal(jf.njobs, 2);
	assert_string_equal(jf.jobs[0].name, "x"); /* the section names the job */
	assert_int_equal(jf.jobs[0].iodepth, 32);  /* from the base */
	assert_int_equal(jf.jobs[0].runtime_ns, 10000000000ull);
	assert_int_equal(jf.jobs[0].bs, 16384);
	assert_int_equal(jf.jobs[1].iodepth, 2); /* the file overrides the base */
	assert_string_equal(jf.jobs[1].name, "renamed");
	wl_jobfile_free(&jf);
	assert_int_equal(base.iodepth, 32); /* the base is not changed */
	assert_int_equal(base.bs, 4096);

	/* The base may be incomplete (validated only within jobs). */
	SET_OK(&base, "runtime", "0");
	SET_OK(&base, "time_based", NULL);
	jf = PARSE_OK("[t]\nruntime=5\n", &base);
	assert_true(jf.jobs[0].time_based);
	wl_jobfile_free(&jf);
}

static void test_jobfile_comments(void **state)
{
	(void)state;
	const char *text = "; a comment\n"
	                   "# another\n"
	                   "   ; indented comment\n"
	                   "\t# tab comment\n"
	                   "[global] ; after a header\n"
	                   "iodepth=4 ; trailing comment\n"
	                   "bs=8k\t# after a tab\n"
	                   "[j1]   # comment\n"
	                   "name=a#b;c\n"
	                   "\n"
	                   "   \n"
	                   ";iodepth=99\n";
	struct wl_jobfile jf = PARSE_OK(text, NULL);
	assert_int_equal(jf.njobs, 1);
	assert_int_equal(jf.jobs[0].iodepth, 4);
	assert_int_equal(jf.jobs[0].bs, 8192);
	assert_string_equal(jf.jobs[0].name, "a#b;c"); /* no whitespace before: not a comment */
	wl_jobfile_free(&jf);

	/* "rw=write;" keeps the ';', which the option then rejects. */
	assert_int_equal(wl_jobfile_parse("[j]\nrw=write;\n", "c.fio", NULL, &jf, msg, sizeof(msg)),
	                 -EINVAL);
	expect_sub(msg, "c.fio:2: option 'rw'", __LINE__);
	expect_sub(msg, "got 'write;'", __LINE__);
}

static void test_jobfile_crlf_and_whitespace(void **state)
{
	(void)state;
	const char *text = "[global]\r\n"
	                   "bs = 8k\r\n"
	                   "  iodepth\t=\t4  \r\n"
	                   "\r\n"
	                   "[ spaced name ]\r\n"
	                   "rw=randread\r\n"
	                   "norandommap\r\n"
	                   "[last]\r\n"
	                   "rw=write"; /* no newline at the end */
	struct wl_jobfile jf = PARSE_OK(text, NULL);
	assert_int_equal(jf.njobs, 2);
	assert_string_equal(jf.jobs[0].name, "spaced name");
	assert_int_equal(jf.jobs[0].bs, 8192);
	assert_int_equal(jf.jobs[0].iodepth, 4);
	assert_int_equal(jf.jobs[0].rw, WL_RW_RANDREAD);
	assert_true(jf.jobs[0].norandommap);
	assert_int_equal(jf.jobs[1].rw, WL_RW_WRITE);
	wl_jobfile_free(&jf);
}

static void test_jobfile_quoting(void **state)
{
	(void)state;
	const char *text = "[global]\n"
	                   "target=\"disk image.img\"\n"
	                   "[j]\n"
	                   "name = \"my job ; with # marks\"   ; a real comment\n"
	                   "rw=\"randwrite\"\n"
	                   "[k]\n"
	                   "name=\"a=b\"\n"
	                   "[l]\n"
	                   "name=x\"y\n"; /* a quote inside a bare value stays */
	struct wl_jobfile jf = PARSE_OK(text, NULL);
	assert_int_equal(jf.njobs, 3);
	assert_string_equal(jf.target, "disk image.img");
	assert_string_equal(jf.jobs[0].name, "my job ; with # marks");
	assert_int_equal(jf.jobs[0].rw, WL_RW_RANDWRITE);
	assert_string_equal(jf.jobs[1].name, "a=b");
	assert_string_equal(jf.jobs[2].name, "x\"y");
	wl_jobfile_free(&jf);

	/* A spec with '=' and ',' needs no quotes; the first '=' splits. */
	jf = PARSE_OK("[global]\ntarget = raid5(file(a) x4, chunk=64k)\n[j]\n", NULL);
	assert_string_equal(jf.target, "raid5(file(a) x4, chunk=64k)");
	wl_jobfile_free(&jf);

	/* A second target= contradicts the first: refused, both named. */
	assert_int_equal(wl_jobfile_parse("[global]\ntarget=a\n[global]\ntarget=b\n[j]\n", "t.fio",
	                                  NULL, &jf, msg, sizeof(msg)),
	                 -EINVAL);
	expect_sub(msg, "t.fio:4: target= given twice in [global] ('a', then 'b')", __LINE__);
}

static void test_jobfile_bare_booleans(void **state)
{
	(void)state;
	const char *text = "[global]\n"
	                   "time_based\n"
	                   "runtime=30\n"
	                   "buffered\n"
	                   "stonewall\n"
	                   "new_group\n"
	                   "[j]\n"
	                   "rw=randread\n"
	                   "norandommap\n"
	                   "refill_buffers\n"
	                   "[k]\n"
	                   "direct\n"
	                   "time_based=0\n";
	struct wl_jobfile jf = PARSE_OK(text, NULL);
	assert_int_equal(jf.njobs, 2);
	assert_true(jf.jobs[0].time_based);
	assert_false(jf.jobs[0].direct);
	assert_true(jf.jobs[0].norandommap);
	assert_true(jf.jobs[0].refill_buffers);
	assert_true(jf.jobs[1].direct);
	assert_false(jf.jobs[1].time_based);
	assert_int_equal(jf.jobs[1].runtime_ns, 30000000000ull);
	wl_jobfile_free(&jf);
}

static void test_jobfile_duplicates(void **state)
{
	(void)state;
	struct wl_jobfile jf = PARSE_OK("[same]\nbs=4k\n[same]\nbs=8k\n", NULL);
	assert_int_equal(jf.njobs, 2);
	assert_string_equal(jf.jobs[0].name, "same");
	assert_string_equal(jf.jobs[1].name, "same");
	assert_int_equal(jf.jobs[0].bs, 4096);
	assert_int_equal(jf.jobs[1].bs, 8192);
	wl_jobfile_free(&jf);

	/* The largest allowed number of jobs. */
	size_t cap = (size_t)WL_JOBFILE_JOBS_MAX * 8 + 16;
	char *big = malloc(cap);
	assert_non_null(big);
	size_t pos = 0;
	for (int i = 0; i < WL_JOBFILE_JOBS_MAX; i++)
		pos += (size_t)snprintf(big + pos, cap - pos, "[j%d]\n", i);
	jf = PARSE_OK(big, NULL);
	assert_int_equal(jf.njobs, WL_JOBFILE_JOBS_MAX);
	assert_string_equal(jf.jobs[WL_JOBFILE_JOBS_MAX - 1].name, "j1023");
	wl_jobfile_free(&jf);
	snprintf(big + pos, cap - pos, "[one-more]\n");
	assert_int_equal(wl_jobfile_parse(big, "big.fio", NULL, &jf, msg, sizeof(msg)), -EINVAL);
	expect_sub(msg, "big.fio:1025: too many jobs: at most 1024", __LINE__);
	free(big);
}

static void test_jobfile_long_lines(void **state)
{
	(void)state;
	/* Exactly WL_JOBFILE_LINE_MAX characters (a comment) is fine, plus CRLF too. */
	size_t cap = WL_JOBFILE_LINE_MAX + 64;
	char *text = malloc(cap);
	assert_non_null(text);
	strcpy(text, "[j]\n;");
	memset(text + 5, 'x', WL_JOBFILE_LINE_MAX - 1);
	strcpy(text + 4 + WL_JOBFILE_LINE_MAX, "\r\n");
	struct wl_jobfile jf = PARSE_OK(text, NULL);
	wl_jobfile_free(&jf);
	/* One more is not. */
	strcpy(text + 4 + WL_JOBFILE_LINE_MAX, "x\n");
	assert_int_equal(wl_jobfile_parse(text, "long.fio", NULL, &jf, msg, sizeof(msg)), -EINVAL);
	expect_sub(msg, "long.fio:2: line is longer than 4096 characters", __LINE__);
	free(text);
}

static void test_jobfile_malformed(void **state)
{
	(void)state;
	static const struct {
		const char *text, *sub;
	} t[] = {
	    {"iodepth=4\n[j]\n", "bad.fio:1: option 'iodepth' outside any section (start with "
	                         "[global] or [jobname])"},
	    {"; comment\n\ntime_based\n[j]\n",
	     "bad.fio:3: option 'time_based' outside any section"},
	    {"[j\nrw=read\n", "bad.fio:1: missing ']' in section header '[j'"},
	    {"[global]\nbs=4k\n", "bad.fio: no job sections: add at least one [jobname] section"},
	    {"", "bad.fio: no job sections"},
	    {"; only a comment\n\n", "bad.fio: no job sections"},
	    {"[j]\niodeptj=4\n", "bad.fio:2: unknown option 'iodeptj' (did you mean 'iodepth'?)"},
	    {"[j]\ntarget=disk.img\n",
	     "bad.fio:2: target= belongs in [global]: all jobs of a file share one target"},
	    {"[a]\n[global]\ntarget=x\n[b]\n", "bad.fio:3: target= must come before the first job"},
	    {"[global]\ntarget=\n[j]\n", "bad.fio:2: option 'target': needs a value (target=SPEC)"},
	    {"[global]\ntarget\n[j]\n", "bad.fio:2: option 'target': needs a value"},
	    {"[]\n", "bad.fio:1: empty section name '[]'"},
	    {"[  ]\n", "bad.fio:1: empty section name"},
	    {"[j] x\n", "bad.fio:1: unexpected text 'x' after ']' in section header"},
	    {"[j]]\n", "bad.fio:1: unexpected text ']' after ']'"},
	    {"[a[b]\n", "bad.fio:1: section name 'a[b' contains '['"},
	    {"[1234567890123456789012345678901234567890123456789012345678901234]\n",
	     "bad.fio:1: section name "
	     "'1234567890123456789012345678901234567890123456789012345678901"
	     "234' is longer than 63 characters"},
	    {"[j]\nname=\"abc\n", "bad.fio:2: missing closing '\"' in the value of 'name'"},
	    {"[j]\nname=\"abc\" x\n",
	     "bad.fio:2: unexpected text ' x' after the closing '\"' in the value of 'name'"},
	    {"[j]\nname=\"\"\n", "bad.fio:2: option 'name': expected a name of 1 to 63"},
	    {"[j]\n=4\n", "bad.fio:2: missing option name before '='"},
	    {"[j]\n  = 4\n", "bad.fio:2: missing option name before '='"},
	    {"[j]\nio depth=4\n",
	     "bad.fio:2: option name 'io depth' contains whitespace (expected key=value)"},
	    {"[j]\niodepth 4\n", "bad.fio:2: option name 'iodepth 4' contains whitespace"},
	    {"[global]\nname=\n[j]\n", "bad.fio:2: option 'name'"},
	    {"[j]\nsize=${RAIDLAB_TEST_UNSET_VAR}\n",
	     "bad.fio:2: environment variable 'RAIDLAB_TEST_UNSET_VAR' (in "
	     "${RAIDLAB_TEST_UNSET_VAR}) "
	     "is not set"},
	    {"[j]\nsize=${}\n", "bad.fio:2: malformed ${VAR} reference"},
	    {"[global]\ninclude other.fio\n[j]\n",
	     "bad.fio:2: include other.fio: include files are only read from a job file on disk"},
	    {"include other.fio\n[j]\n", "bad.fio:1: include other.fio: outside any section"},
	    {"[j]\nrw=randread:0\n", "bad.fio:2: option 'rw': expected randread:N"},
	    {"[j]\nrw=randwrite:4\nverify=crc32c\n",
	     "bad.fio:1: job 'j': verify=crc32c cannot be combined with rw=randwrite:4"},
	    {"[j]\nioengine=windowsaio\n", "bad.fio:2: ioengine 'windowsaio' is not supported by "
	                                   "raidlab (supported: io_uring, libaio"},
	    {"[j]\nverify=crc32c\n[k]\n",
	     "bad.fio:1: job 'j': verify=crc32c needs a pattern that writes"},
	    {"[ok]\nrw=write\n[j]\nname=renamed\nrw=randread\nrandom_distribution=zipf\n[k]\n"
	     "rw=read\nverify=crc32c\n",
	     "bad.fio:7: job 'k': verify=crc32c needs a pattern that writes"},
	    {"[j]\r\nbs=0\r\n", "bad.fio:2: option 'bs': expected a block size"},
	    {"[j]\nbssplit=4k/50:8k/40\n",
	     "bad.fio:2: option 'bssplit': the percentages add up to 90, expected 100"},
	    {"[global]\n[j]\ndirect=maybe\n", "bad.fio:3: option 'direct': expected a boolean"},
	    {"[j]\n\n\n\n\niodepth_low=1\n",
	     "bad.fio:6: fio option 'iodepth_low' is not supported by raidlab"},
	    {"[j]\nioengine=psync\nhipri=1\n",
	     "bad.fio:1: job 'j': hipri is an option of the io_uring engine (as in fio), and this "
	     "job's ioengine is psync"},
	    {"[j]\nstonewall=x\n", "bad.fio:2: option 'stonewall'"},
	    {"[j]\nsize=0%\n", "bad.fio:2: option 'size': expected a percentage from 1 to 100"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct wl_jobfile jf;
		memset(&jf, 0x5a, sizeof(jf));
		int ret = wl_jobfile_parse(t[i].text, "bad.fio", NULL, &jf, msg, sizeof(msg));
		if (ret != -EINVAL)
			fail_msg("case %zu: expected -EINVAL, got %d for:\n%s", i, ret, t[i].text);
		expect_sub(msg, t[i].sub, (int)i);
		/* On error nothing is handed out. */
		assert_null(jf.jobs);
		assert_int_equal(jf.njobs, 0);
		assert_null(jf.target);
	}
	assert_true(ARRAY_SIZE(t) >= 15);

	/* No file name, no text, no output. */
	struct wl_jobfile jf;
	assert_int_equal(wl_jobfile_parse("[global]\n", NULL, NULL, &jf, msg, sizeof(msg)),
	                 -EINVAL);
	expect_sub(msg, "job file: no job sections", __LINE__);
	assert_int_equal(wl_jobfile_parse(NULL, "x.fio", NULL, &jf, msg, sizeof(msg)), -EINVAL);
	assert_int_equal(wl_jobfile_parse("[j]\n", "x.fio", NULL, NULL, msg, sizeof(msg)), -EINVAL);
	assert_int_equal(wl_jobfile_parse("[j]\nbs=0\n", "x.fio", NULL, &jf, NULL, 0), -EINVAL);
}

/* --- fio's files and groups --- */

static void test_job_target_spec(void **state)
{
	(void)state;
	struct wl_job j;
	char spec[1024];
	wl_job_init(&j);
	assert_int_equal(wl_job_target_spec(&j, 0, spec, sizeof(spec), msg, sizeof(msg)), 1);
	SET_OK(&j, "filename", "/tmp/a\"b");
	SET_OK(&j, "size", "1m");
	assert_int_equal(wl_job_target_spec(&j, 0, spec, sizeof(spec), msg, sizeof(msg)), 0);
	assert_string_equal(spec, "file(\"/tmp/a\\\"b\", size=1048576)");
	SET_OK(&j, "filename", "a:b\\:c");
	SET_OK(&j, "directory", "/d");
	assert_int_equal(wl_job_target_spec(&j, 0, spec, sizeof(spec), msg, sizeof(msg)), 0);
	assert_string_equal(spec,
	                    "concat(file(\"/d/a\", size=524288), file(\"/d/b:c\", size=524288))");
	SET_OK(&j, "filename", "a::b");
	assert_int_equal(wl_job_target_spec(&j, 0, spec, sizeof(spec), msg, sizeof(msg)), -EINVAL);
	expect_sub(msg, "has an empty name", __LINE__);
	SET_OK(&j, "filename", "mem(size=1g)");
	assert_int_equal(wl_job_target_spec(&j, 0, spec, sizeof(spec), msg, sizeof(msg)), -EINVAL);
	expect_sub(msg, "directory= cannot apply", __LINE__);
	wl_job_init(&j);
	SET_OK(&j, "name", "seq");
	SET_OK(&j, "directory", "/d/");
	assert_int_equal(wl_job_target_spec(&j, 3, spec, sizeof(spec), msg, sizeof(msg)), 0);
	assert_string_equal(spec, "file(\"/d/seq.3.0\")");
	SET_OK(&j, "filename", "/abs/f");
	assert_int_equal(wl_job_target_spec(&j, 0, spec, sizeof(spec), msg, sizeof(msg)), 0);
	assert_string_equal(spec, "file(\"/abs/f\")"); /* an absolute name ignores directory */
	SET_OK(&j, "filesize", "1m");
	assert_int_equal(wl_job_target_spec(&j, 0, spec, sizeof(spec), msg, sizeof(msg)), 0);
	assert_string_equal(spec, "file(\"/abs/f\", size=1048576)");
	wl_job_init(&j);
	SET_OK(&j, "name", "seq");
	SET_OK(&j, "ioengine", "null");
	SET_OK(&j, "size", "4k");
	assert_int_equal(wl_job_target_spec(&j, 0, spec, sizeof(spec), msg, sizeof(msg)), 0);
	assert_string_equal(spec, "null(size=4096)");
	/* too long for the buffer: an error, not a truncated spec */
	wl_job_init(&j);
	SET_OK(&j, "filename", "/a/very/long/path/name");
	assert_int_equal(wl_job_target_spec(&j, 0, spec, 12, msg, sizeof(msg)), -EINVAL);
	expect_sub(msg, "longer than 11 bytes", __LINE__);
}

static void test_job_groups(void **state)
{
	(void)state;
	struct wl_job jobs[5];
	unsigned wave[5], group[5];
	for (int i = 0; i < 5; i++)
		wl_job_init(&jobs[i]);
	jobs[0].stonewall = true; /* the first job's stonewall waits for nothing */
	jobs[2].new_group = true;
	jobs[3].stonewall = true;
	size_t nw = 0;
	assert_int_equal(wl_job_groups(jobs, 5, wave, group, &nw, msg, sizeof(msg)), 0);
	assert_int_equal(nw, 2);
	unsigned want_wave[5] = {0, 0, 0, 1, 1}, want_group[5] = {0, 0, 1, 2, 2};
	for (int i = 0; i < 5; i++) {
		assert_int_equal(wave[i], want_wave[i]);
		assert_int_equal(group[i], want_group[i]);
	}
	assert_int_equal(wl_job_groups(jobs, 0, wave, NULL, &nw, msg, sizeof(msg)), 0);
	assert_int_equal(nw, 0);
	/* wait_for: after the named job's wave; later jobs still run early */
	for (int i = 0; i < 5; i++)
		wl_job_init(&jobs[i]);
	strcpy(jobs[0].name, "writers");
	strcpy(jobs[1].name, "readers");
	strcpy(jobs[1].wait_for, "writers");
	strcpy(jobs[2].name, "writers2");
	strcpy(jobs[2].wait_for, "readers");
	strcpy(jobs[3].name, "free");
	jobs[4].stonewall = true;
	assert_int_equal(wl_job_groups(jobs, 5, wave, NULL, &nw, msg, sizeof(msg)), 0);
	unsigned want2[5] = {0, 1, 2, 0, 3};
	for (int i = 0; i < 5; i++)
		assert_int_equal(wave[i], want2[i]);
	assert_int_equal(nw, 4);
	strcpy(jobs[3].wait_for, "nobody");
	assert_int_equal(wl_job_groups(jobs, 5, wave, NULL, &nw, msg, sizeof(msg)), -EINVAL);
	expect_sub(msg, "job 'free': wait_for=nobody names no earlier job", __LINE__);
}

static void test_jobfile_substitution(void **state)
{
	(void)state;
	struct wl_jobfile jf;
	char text[256];
	setenv("RAIDLAB_TEST_BS", "64k", 1);
	snprintf(text, sizeof(text),
	         "[global]\nname=ignored\n[j]\nbs=${RAIDLAB_TEST_BS}\n"
	         "numjobs=$ncpus\niodepth=$pagesize\n");
	assert_int_equal(wl_jobfile_parse(text, "s.fio", NULL, &jf, msg, sizeof(msg)), 0);
	assert_int_equal(jf.njobs, 1);
	assert_string_equal(jf.jobs[0].name, "j");
	assert_int_equal(jf.jobs[0].bs, 65536);
	assert_int_equal(jf.jobs[0].numjobs, (unsigned)sysconf(_SC_NPROCESSORS_ONLN));
	assert_int_equal(jf.jobs[0].iodepth, (unsigned)sysconf(_SC_PAGESIZE));
	wl_jobfile_free(&jf);
}

/* flow, latency_target, ss, numa_*, dedupe_*: values, errors and cross checks. */
static void test_control_options(void **state)
{
	(void)state;
	struct wl_job j;

	wl_job_init(&j);
	assert_int_equal(j.flow, 0);
	assert_int_equal(j.ss_dur_ns, 0);
	assert_int_equal(j.ss_kind, WL_SS_IOPS); /* fio's default iops_slope:0.01% */
	assert_true(j.ss_slope && j.ss_pct);
	assert_true(fabs(j.ss_limit - 0.01) < 1e-12);
	assert_int_equal(j.ss_interval_ns, 1000000000ull);
	assert_true(j.lat_pct == 100.0);
	assert_int_equal(j.dedupe_ws_pct, 5);

	SET_OK(&j, "flow", "8");
	SET_OK(&j, "flow_id", "3");
	SET_OK(&j, "flow_sleep", "1000"); /* microseconds */
	assert_int_equal(j.flow, 8);
	assert_int_equal(j.flow_id, 3);
	assert_int_equal(j.flow_sleep_ns, 1000000ull);
	SET_OK(&j, "latency_target", "500000");
	SET_OK(&j, "latency_window", "5s");
	SET_OK(&j, "latency_percentile", "99.9");
	assert_int_equal(j.lat_target_ns, 500000000ull);
	assert_int_equal(j.lat_window_ns, 5000000000ull);
	assert_true(fabs(j.lat_pct - 99.9) < 1e-9);
	SET_OK(&j, "ss", "bw_slope:1%");
	assert_int_equal(j.ss_kind, WL_SS_BW);
	assert_true(j.ss_slope && j.ss_pct);
	SET_OK(&j, "steadystate", "lat:250");
	assert_int_equal(j.ss_kind, WL_SS_LAT);
	assert_true(!j.ss_slope && !j.ss_pct && j.ss_limit == 250);
	SET_OK(&j, "ss_dur", "30s");
	SET_OK(&j, "ss_ramp", "10");
	assert_int_equal(j.ss_dur_ns, 30000000000ull);
	assert_int_equal(j.ss_ramp_ns, 10000000000ull);
	SET_OK(&j, "numa_cpu_nodes", "0-1,3");
	assert_int_equal(j.numa_nodes, 0xbull);
	SET_OK(&j, "numa_cpu_nodes", "all");
	assert_int_equal(j.numa_nodes, UINT64_MAX);
	SET_OK(&j, "numa_mem_policy", "interleave:0-1");
	assert_int_equal(j.numa_mpol, WL_MPOL_INTERLEAVE);
	assert_int_equal(j.numa_mem_nodes, 3);
	SET_OK(&j, "numa_mem_policy", "local");
	assert_int_equal(j.numa_mpol, WL_MPOL_LOCAL);
	SET_OK(&j, "dedupe_percentage", "50");
	SET_OK(&j, "dedupe_mode", "working_set");
	SET_OK(&j, "dedupe_working_set_percentage", "20");
	SET_OK(&j, "dedupe_global", NULL);
	assert_true(j.dedupe_pct == 50 && j.dedupe_working_set && j.dedupe_ws_pct == 20 &&
	            j.dedupe_global);
	VALIDATE_OK(&j);

	SET_ERR("flow", "1001", "option 'flow': expected a whole number from 0 to 1000");
	SET_ERR("flow_sleep", "soon", "option 'flow_sleep': expected a time");
	SET_ERR("latency_target", "-5", "option 'latency_target': expected a time");
	SET_ERR("latency_percentile", "0", "option 'latency_percentile': expected a percentage");
	SET_ERR("latency_percentile", "100.5", "got '100.5'");
	SET_ERR("ss", "iops", "option 'ss': expected iops, iops_slope");
	SET_ERR("ss", "speed:5%", "got 'speed:5%'");
	SET_ERR("ss", "iops_slope:", "got 'iops_slope:'");
	SET_ERR("ss", "bw:x%", "got 'bw:x%'");
	SET_ERR("ss_dur", "forever", "option 'ss_dur': expected a duration");
	SET_ERR("numa_cpu_nodes", "64", "option 'numa_cpu_nodes': expected NUMA node numbers");
	SET_ERR("numa_cpu_nodes", "1-0", "got '1-0'");
	SET_ERR("numa_cpu_nodes", "0,", "got '0,'");
	SET_ERR("numa_mem_policy", "bind", "bind: expected a node list");
	SET_ERR("numa_mem_policy", "local:0", "local: expected no node list");
	SET_ERR("numa_mem_policy", "prefer:0-1", "prefer takes exactly one node");
	SET_ERR("numa_mem_policy", "spread:0", "expected default, local, prefer:NODE");
	SET_ERR("dedupe_percentage", "101", "option 'dedupe_percentage'");
	SET_ERR("dedupe_mode", "random", "expected repeat or working_set");

	wl_job_init(&j);
	SET_OK(&j, "ss_dur", "500ms");
	SET_OK(&j, "ss_interval", "1s");
	VALIDATE_ERR(&j, "ss_dur (500 ms) must hold at least one ss_interval (1000 ms)");
	wl_job_init(&j);
	SET_OK(&j, "ss_dur", "200000s");
	VALIDATE_ERR(&j, "at most 100000 are kept");
	wl_job_init(&j);
	SET_OK(&j, "rw", "write");
	SET_OK(&j, "dedupe_percentage", "10");
	SET_OK(&j, "verify", "crc32c");
	VALIDATE_ERR(&j, "verify and dedupe_percentage exclude each other");
	wl_job_init(&j);
	SET_OK(&j, "dedupe_percentage", "10");
	SET_OK(&j, "zero_buffers", NULL);
	VALIDATE_ERR(&j, "zero_buffers and dedupe_percentage exclude each other");
	/* verify=meta and its companions */
	wl_job_init(&j);
	SET_OK(&j, "verify", "meta");
	SET_OK(&j, "verify_pattern", "0xaa555aa5");
	assert_int_equal(j.verify_pattern_len, 4);
	assert_memory_equal(j.verify_pattern, "\xaa\x55\x5a\xa5", 4);
	SET_OK(&j, "verify_pattern", "0xabc");
	assert_int_equal(j.verify_pattern_len, 2);
	assert_memory_equal(j.verify_pattern, "\x0a\xbc", 2);
	SET_OK(&j, "verify_pattern", "\"disk\"");
	assert_int_equal(j.verify_pattern_len, 4);
	assert_memory_equal(j.verify_pattern, "disk", 4);
	SET_OK(&j, "verify_interval", "512");
	SET_OK(&j, "do_verify", "0");
	SET_OK(&j, "fill_fs", NULL);
	assert_true(j.fill_device && !j.do_verify && j.verify_interval == 512);
	VALIDATE_OK(&j); /* rw=read: a reading job checks what it reads */
	SET_OK(&j, "rw", "trim");
	VALIDATE_ERR(&j, "verify=meta needs a pattern that writes or reads");
	SET_OK(&j, "rw", "write");
	SET_OK(&j, "time_based", NULL);
	SET_OK(&j, "runtime", "1");
	VALIDATE_OK(&j); /* do_verify=0: no pass to replay */
	SET_OK(&j, "do_verify", "1");
	VALIDATE_ERR(&j, "verify=meta checks what one run of the region wrote");
	wl_job_init(&j);
	SET_OK(&j, "verify", "meta");
	SET_OK(&j, "bs", "4k");
	SET_OK(&j, "verify_interval", "3k");
	VALIDATE_ERR(&j, "verify_interval=3072 does not divide the block size 4096");
	wl_job_init(&j);
	SET_OK(&j, "verify_pattern", "0x01"); /* alone: fio's header and pattern */
	assert_int_equal(j.verify, WL_VERIFY_META);
	VALIDATE_OK(&j);
	wl_job_init(&j);
	SET_OK(&j, "verify", "crc32c");
	SET_OK(&j, "rw", "write");
	SET_OK(&j, "verify_pattern", "0x01"); /* verify= given first is kept */
	VALIDATE_ERR(&j, "verify_pattern applies to verify=meta or verify=pattern (got "
	                 "verify=crc32c)");
	wl_job_init(&j);
	SET_OK(&j, "verify", "pattern");
	SET_OK(&j, "rw", "write");
	VALIDATE_ERR(&j, "verify=pattern needs verify_pattern");
	SET_OK(&j, "verify_pattern", "\"ab\"");
	VALIDATE_OK(&j);
	SET_ERR("verify_pattern", "0x", "option 'verify_pattern': expected 0x and hex digits");
	SET_ERR("verify_pattern", "abc", "got 'abc'");
	SET_ERR("buffer_pattern", "%o", "got '%o'"); /* the offset only in verify_pattern */
	/* fio's elements one after another: "abcd", -12 (4 bytes), 0xdeadface, %o */
	SET_OK(&j, "verify_pattern", "\"abcd\"-120xdeadface%o");
	assert_int_equal(j.verify_pattern_len, 4 + 4 + 4 + 8);
	assert_memory_equal(j.verify_pattern, "abcd\xf4\xff\xff\xff\xde\xad\xfa\xce", 12);
	assert_true(j.verify_pattern_ofs == 1ull << 12);
	SET_OK(&j, "verify_pattern", "1%o");
	assert_int_equal(j.verify_pattern_len, 9);
	assert_true(j.verify_pattern_ofs == 1ull << 1);
	SET_ERR("verify_pattern", "\"unterminated", "got '\"unterminated'");
	/* verify_interval: any value for pattern, a multiple of 512 for meta (at validation) */
	SET_OK(&j, "verify_interval", "1000");
	VALIDATE_OK(&j);
	SET_OK(&j, "verify", "meta");
	VALIDATE_ERR(&j, "verify_interval=1000 is not a multiple of 512");

	/* continue_on_error, ignore_error */
	wl_job_init(&j);
	assert_false(wl_job_continues(&j, 0, EIO));
	SET_OK(&j, "continue_on_error", "read");
	assert_true(wl_job_continues(&j, 0, EIO) && wl_job_continues(&j, 0, EILSEQ));
	assert_false(wl_job_continues(&j, 0, ENOSPC));
	assert_false(wl_job_continues(&j, 1, EIO));
	SET_OK(&j, "continue_on_error", "write");
	SET_OK(&j, "ignore_error", ",ENOSPC:122");
	assert_true(wl_job_continues(&j, 1, ENOSPC) && wl_job_continues(&j, 1, EDQUOT));
	assert_false(wl_job_continues(&j, 1, EIO)); /* the list replaces the default */
	assert_false(wl_job_continues(&j, 0, EIO));
	SET_OK(&j, "continue_on_error", "all");
	assert_true(wl_job_continues(&j, 0, EIO) && wl_job_continues(&j, 2, EILSEQ));
	SET_OK(&j, "continue_on_error", "0");
	assert_int_equal(j.coe, 0);
	SET_OK(&j, "io_limit", "3m");
	assert_int_equal(j.io_size, 3u << 20);
	SET_OK(&j, "verify_backlog", "1024");
	SET_OK(&j, "verify_fatal", NULL);
	SET_OK(&j, "verify_dump", "1");
	SET_OK(&j, "verify_async", "4");
	SET_OK(&j, "fallocate", "none");
	SET_OK(&j, "create_on_open", "1");
	assert_true(j.verify_backlog == 1024 && j.verify_fatal && j.verify_dump);
	SET_ERR("continue_on_error", "some", "option 'continue_on_error': expected one of none");
	SET_ERR("ignore_error", "EIO,EIO,EIO,EIO", "option 'ignore_error': expected READ[,WRITE");
	SET_ERR("ignore_error", "EWHAT", "'EWHAT' is not an errno name");
	SET_ERR("ignore_error", "0", "'0' is not an errno name");
	SET_ERR("verify_async", "65", "option 'verify_async'");
	SET_ERR("fallocate", "maybe", "expected none, native, posix");

	/* priorities */
	wl_job_init(&j);
	assert_int_equal(wl_job_ioprio(&j), 0);
	assert_int_equal(wl_job_cmdprio(&j, 0), 1 << 13); /* fio: the highest class */
	SET_OK(&j, "prio", "5");
	assert_int_equal(wl_job_ioprio(&j), 2 << 13 | 5); /* best effort unless prioclass */
	SET_OK(&j, "prioclass", "3");
	assert_int_equal(wl_job_ioprio(&j), 3 << 13 | 5);
	SET_OK(&j, "cmdprio_percentage", "20,40");
	SET_OK(&j, "cmdprio_class", "2");
	SET_OK(&j, "cmdprio", "1,7");
	assert_true(j.cmdprio_pct[0] == 20 && j.cmdprio_pct[1] == 40);
	assert_int_equal(wl_job_cmdprio(&j, 0), 2 << 13 | 1);
	assert_int_equal(wl_job_cmdprio(&j, 1), 2 << 13 | 7);
	SET_OK(&j, "log_prio", NULL);
	VALIDATE_OK(&j);
	SET_OK(&j, "ioengine", "psync");
	VALIDATE_ERR(&j, "cmdprio_percentage needs ioengine=io_uring or libaio");
	SET_ERR("prio", "8", "option 'prio': expected a whole number from 0 to 7");
	SET_ERR("prioclass", "4", "option 'prioclass'");
	SET_ERR("cmdprio_percentage", "10,20,30",
	        "expected READ[,WRITE] whole numbers from 0 to 100");
	SET_ERR("cmdprio_class", "0", "from 1 to 3");

	/* cmdprio_bssplit: fio's three entry forms, per direction */
	wl_job_init(&j);
	SET_OK(&j, "ioengine", "libaio");
	SET_OK(&j, "cmdprio_class", "2");
	SET_OK(&j, "cmdprio", "4");
	SET_OK(&j, "cmdprio_bssplit", "64k/25/1/1:64k/75/3/2:1m/,1m/40");
	assert_true(j.ncmdprio_split[0] == 3 && j.ncmdprio_split[1] == 1);
	uint16_t pr = 0;
	assert_true(wl_job_cmdprio_pick(&j, 0, 65536, 24, &pr) && pr == (1 << 13 | 1));
	assert_true(wl_job_cmdprio_pick(&j, 0, 65536, 25, &pr) && pr == (3 << 13 | 2));
	assert_false(wl_job_cmdprio_pick(&j, 0, 1048576, 0, &pr)); /* 1m/: 0 percent */
	assert_false(wl_job_cmdprio_pick(&j, 0, 4096, 0, &pr));    /* a size not listed */
	assert_true(wl_job_cmdprio_pick(&j, 1, 1048576, 39, &pr) && pr == (2 << 13 | 4));
	assert_false(wl_job_cmdprio_pick(&j, 1, 1048576, 40, &pr));
	VALIDATE_OK(&j);
	SET_OK(&j, "cmdprio_bssplit", "4k/10/2/3/5"); /* a hint, and one list for both */
	assert_true(wl_job_cmdprio_pick(&j, 1, 4096, 0, &pr) && pr == (2 << 13 | 5 << 3 | 3));
	SET_OK(&j, "cmdprio_percentage", "10");
	VALIDATE_ERR(&j, "cmdprio_percentage and cmdprio_bssplit exclude each other");
	SET_ERR("cmdprio_bssplit", "4k/60:4k/50", "the shares of block size 4096 add up to 110");
	SET_ERR("cmdprio_bssplit", "4k/10/1", "expected READ[,WRITE] lists of BS/PCT");
	SET_ERR("cmdprio_bssplit", "4k/10/4/1", "class 1 to 3");
	SET_ERR("cmdprio_bssplit", "4k/101", "expected READ[,WRITE] lists");
	SET_ERR("cmdprio_bssplit", "0/10", "expected READ[,WRITE] lists");
	SET_ERR("cmdprio", "1,", "got '1,'");

	wl_job_init(&j);
	SET_OK(&j, "latency_target", "1ms");
	SET_OK(&j, "ioengine", "psync");
	VALIDATE_ERR(&j, "latency_target searches the queue depth, but ioengine=psync");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_defaults),
	    cmocka_unit_test(test_rw_helpers),
	    cmocka_unit_test(test_valid_values),
	    cmocka_unit_test(test_control_options),
	    cmocka_unit_test(test_bool_words),
	    cmocka_unit_test(test_invalid_values),
	    cmocka_unit_test(test_unknown_and_rejected),
	    cmocka_unit_test(test_bssplit),
	    cmocka_unit_test(test_random_distribution),
	    cmocka_unit_test(test_validate),
	    cmocka_unit_test(test_net_options),
	    cmocka_unit_test(test_option_table),
	    cmocka_unit_test(test_fio_direct_default),
	    cmocka_unit_test(test_docs_match_table),
	    cmocka_unit_test(test_jobfile_global_and_jobs),
	    cmocka_unit_test(test_job_target_spec),
	    cmocka_unit_test(test_job_groups),
	    cmocka_unit_test(test_jobfile_substitution),
	    cmocka_unit_test(test_jobfile_global_after_job),
	    cmocka_unit_test(test_jobfile_base),
	    cmocka_unit_test(test_jobfile_comments),
	    cmocka_unit_test(test_jobfile_crlf_and_whitespace),
	    cmocka_unit_test(test_option_help_examples),
	    cmocka_unit_test(test_jobfile_quoting),
	    cmocka_unit_test(test_jobfile_bare_booleans),
	    cmocka_unit_test(test_jobfile_duplicates),
	    cmocka_unit_test(test_jobfile_long_lines),
	    cmocka_unit_test(test_jobfile_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
