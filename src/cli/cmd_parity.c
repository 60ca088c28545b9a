/*
 * cmd_parity.c - `raidlab parity-speed`: how fast this machine computes
 * raid5 and raid6 parity with ISA-L on one core (the engine's own
 * functions, src/raid/parity_math.c), like the raid6 and xor speed lines
 * the Linux kernel prints when its md modules load.
 *
 * For each member count it times, over a fixed data set that fits in the
 * cache: P (XOR of the data chunks), P+Q (pq_gen), and rebuilding two
 * lost data chunks (the raid6 worst case, ec_encode_data).  Figures are
 * data bytes processed per second of one thread's CPU time.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "core/spec.h"
#include "raid/parity_math.h"

static const char parity_usage[] =
    "usage: raidlab parity-speed [--members N[,N...]] [--chunk SIZE] [--seconds S] [--json]\n"
    "\n"
    "Measures parity arithmetic (ISA-L) on one core: raid5 P, raid6 P+Q and the raid6\n"
    "rebuild of two lost data chunks, for each member count (default 4,6,8), over\n"
    "chunks of SIZE (default 64k) for S seconds each (default 0.5).  Prints GB/s of\n"
    "data per core (GB = 10^9 bytes).\n";

static double parity_cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

enum { PS_P, PS_PQ, PS_REC2, PS_N };

/* GB/s of data through one kind of computation over @k data chunks. */
static double parity_time(int kind, unsigned k, size_t chunk, double secs, uint8_t **b)
{
	double t0 = parity_cpu_now(), t;
	uint64_t rounds = 0;

	do {
		for (int i = 0; i < 16; i++) {
			if (kind == PS_P)
				parity_gen(k, chunk, (void *const *)b, b[k], NULL);
			else if (kind == PS_PQ)
				parity_gen(k, chunk, (void *const *)b, b[k], b[k + 1]);
			else
				parity_recover(k, 2, chunk, (void *const *)b, 3); /* data 0 and 1 */
		}
		rounds += 16;
		t = parity_cpu_now() - t0;
	} while (t < secs);
	return (double)rounds * (double)k * (double)chunk / t / 1e9;
}

static int parity_main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"members", required_argument, NULL, 'm'}, {"chunk", required_argument, NULL, 'c'},
	    {"seconds", required_argument, NULL, 's'}, {"json", no_argument, NULL, 'j'},
	    {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0}};
	unsigned members[16] = {4, 6, 8}, nm = 3;
	uint64_t chunk = 64 << 10;
	double secs = 0.5;
	bool json = false;
	char why[256];
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'm': {
			char *p = optarg, *end;
			nm = 0;
			do {
				unsigned long v = strtoul(p, &end, 10);
				if (end == p || v < 4 || v > PARITY_MAX_DATA + 2 || nm == 16) {
					cli_error(
					    "parity-speed",
					    "--members: expected counts from 4 to %d joined by ','",
					    PARITY_MAX_DATA + 2);
					return 2;
				}
				members[nm++] = (unsigned)v;
				p = end + 1;
			} while (*end == ',');
			if (*end) {
				cli_error("parity-speed", "--members: unexpected '%s'", end);
				return 2;
			}
			break;
		}
		case 'c':
			if (rl_parse_size(optarg, &chunk, why, sizeof(why)) || chunk < 4096 ||
			    chunk > (64u << 20) || chunk % 64) {
				cli_error("parity-speed", "--chunk: expected 4k to 64m");
				return 2;
			}
			break;
		case 's':
			secs = strtod(optarg, NULL);
			if (!(secs > 0 && secs <= 60)) {
				cli_error("parity-speed", "--seconds: expected a time in (0, 60]");
				return 2;
			}
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			fputs(parity_usage, stdout);
			return 0;
		default:
			fputs(parity_usage, stderr);
			return 2;
		}
	}
	if (optind != argc) {
		fputs(parity_usage, stderr);
		return 2;
	}
	if (json)
		printf("{\"chunk_bytes\":%llu,\"results\":[", (unsigned long long)chunk);
	else
		printf("parity on one core (ISA-L), %llu KiB chunks, GB/s of data\n"
		       "members   raid5 P   raid6 P+Q   raid6 rebuild 2\n",
		       (unsigned long long)chunk >> 10);
	for (unsigned i = 0; i < nm; i++) {
		unsigned k = members[i] - 2; /* raid6 data chunks; raid5 uses k + 1 */
		uint8_t *b[PARITY_MAX_DATA + 2];
		double r[PS_N];

		for (unsigned j = 0; j < k + 3; j++) {
			b[j] = aligned_alloc(64, chunk);
			if (!b[j])
				return 1;
			for (size_t x = 0; x < chunk; x++)
				b[j][x] = (uint8_t)(x * 31 + j * 7);
		}
		r[PS_P] = parity_time(PS_P, k + 1, chunk, secs, b);
		r[PS_PQ] = parity_time(PS_PQ, k, chunk, secs, b);
		r[PS_REC2] = parity_time(PS_REC2, k, chunk, secs, b);
		if (json)
			printf("%s{\"members\":%u,\"raid5_p_gbs\":%.3f,\"raid6_pq_gbs\":%.3f,"
			       "\"raid6_rebuild2_gbs\":%.3f}",
			       i ? "," : "", members[i], r[PS_P], r[PS_PQ], r[PS_REC2]);
		else
			printf("%7u   %7.2f   %9.2f   %15.2f\n", members[i], r[PS_P], r[PS_PQ],
			       r[PS_REC2]);
		for (unsigned j = 0; j < k + 3; j++)
			free(b[j]);
	}
	if (json)
		printf("]}\n");
	return 0;
}

static struct cli_command parity_cmd = {
    .name = "parity-speed",
    .summary = "measure raid5/raid6 parity arithmetic (ISA-L) on one core",
    .usage = parity_usage,
    .main = parity_main,
};
CLI_COMMAND_REGISTER(parity_cmd)
