/*
 * cmd_create.c - `raidlab create LEVEL MEMBER...`: write md v1.2
 * superblocks onto the members (md_create() in src/raid/md.c) so that
 * mdadm --examine and raidlab's md(...) target both recognise the array.
 * Members are opened for writing: the safety checks apply (--force-destroy
 * overrides them); files raidlab creates here are kept.  Members that
 * store nothing (null) or keep nothing once closed (mem, simulated drives)
 * are refused: md(...) could never read their superblocks back.
 */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/registry.h"
#include "raid/md.h"

static const char create_usage[] =
    "usage: raidlab create LEVEL MEMBER... [--chunk SIZE] [--layout NAME] [--name NAME]\n"
    "                      [--data-offset SIZE] [--uuid UUID] [--bitmap-chunk SIZE]\n"
    "                      [--assume-clean]\n"
    "                      [--force-destroy] [--quiet]\n"
    "\n"
    "Writes md version-1.2 superblocks (4 KiB into each member) describing a new array:\n"
    "LEVEL is raid0, raid1, raid5, raid6, raid10 or linear; MEMBERs are paths or target\n"
    "specs such as file(a.img, size=64m), in role order.  Afterwards `mdadm --examine`\n"
    "reports the array and md(MEMBER...) opens it, e.g.\n"
    "  raidlab create raid5 'file(a.img,size=64m)' 'file(b.img,size=64m)' 'file(c.img,size=64m)'\n"
    "  raidlab run --target 'md(a.img, b.img, c.img)' --rw=randwrite --size=16m\n"
    "\n"
    "  --chunk SIZE        chunk size (default 512k, as mdadm)\n"
    "  --layout NAME       raid5/6: left-symmetric (default), right-symmetric, ...;\n"
    "                      raid10: n2 (default), f2, o2, ...\n"
    "  --name NAME         array name recorded in the superblock, at most 32\n"
    "                      characters (default raidlab:0)\n"
    "  --data-offset SIZE  where the data starts on each member (default 1m)\n"
    "  --uuid UUID         array UUID (default: random)\n"
    "  --bitmap-chunk SIZE internal write-intent bitmap, one bit per SIZE of each\n"
    "                      member (mdadm --bitmap=internal --bitmap-chunk); md(...)\n"
    "                      then keeps it and pays its writes (raid5/raid6)\n"
    "  --assume-clean      skip the initial resync: the members' contents already agree\n"
    "                      (md's --assume-clean); without it the parity (or the mirror\n"
    "                      copies) is made to agree with the data before the array is\n"
    "                      recorded clean\n"
    "  --force-destroy     write even where the safety checks find data\n"
    "  --quiet             print nothing on success\n"
    "\n"
    "Exit status: 0 written, 1 I/O error, 2 bad usage.\n";

static int create_uuid(const char *s, uint8_t *uuid)
{
	unsigned n = 0;

	for (; *s && n < 32; s++) {
		int v;
		if (*s == '-' || *s == ':')
			continue;
		if (*s >= '0' && *s <= '9')
			v = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			v = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			v = *s - 'A' + 10;
		else
			return -EINVAL;
		uuid[n / 2] = (uint8_t)(n % 2 ? uuid[n / 2] | v : v << 4);
		n++;
	}
	return n == 32 && !*s ? 0 : -EINVAL;
}

/*
 * md's initial resync: the superblocks say the array is not in sync yet,
 * so opening it with md(...) for writing makes the redundancy agree with
 * the data (parity rewritten from the data; mirrors copied from the first
 * copy), and closing it records it clean (md_state.c).
 */
static int create_resync(int argc, char **argv, int first, const struct rl_build_ctx *ctx)
{
	struct rl_build_ctx quiet_ctx = *ctx;
	struct rl_target *t;
	struct rl_err err = {0};
	char *spec;
	size_t len = 4;
	int rc;

	for (int i = first; i < argc; i++)
		len += strlen(argv[i]) + 1;
	spec = malloc(len);
	if (!spec)
		return 1;
	strcpy(spec, "md(");
	for (int i = first; i < argc; i++) {
		strcat(spec, argv[i]);
		strcat(spec, i + 1 < argc ? "," : ")");
	}
	quiet_ctx.quiet = true; /* a new array is resynced as a matter of course */
	rc = rl_target_open(spec, &quiet_ctx, &t, &err);
	if (rc) {
		cli_spec_error("create", spec, &err);
		free(spec);
		return 1;
	}
	free(spec);
	rl_target_finish(t);
	rl_target_close(t);
	return 0;
}

static int create_main(int argc, char **argv)
{
	static const struct option longopts[] = {{"chunk", required_argument, NULL, 'c'},
	                                         {"layout", required_argument, NULL, 'l'},
	                                         {"name", required_argument, NULL, 'n'},
	                                         {"data-offset", required_argument, NULL, 'o'},
	                                         {"uuid", required_argument, NULL, 'u'},
	                                         {"assume-clean", no_argument, NULL, 'a'},
	                                         {"force-destroy", no_argument, NULL, 'f'},
	                                         {"quiet", no_argument, NULL, 'q'},
	                                         {"bitmap-chunk", required_argument, NULL, 'b'},
	                                         {"help", no_argument, NULL, 'h'},
	                                         {NULL, 0, NULL, 0}};
	struct md_create_opts o = {.chunk = 512 << 10, .data_offset = 1 << 20};
	struct rl_target *members[MD_SB_MAX_DEVS] = {0};
	struct md_super sb;
	struct rl_build_ctx ctx;
	bool quiet = false;
	char why[256], msg[512];
	unsigned n = 0, nmembers;
	int c, rc = 0;

	rl_build_ctx_init(&ctx);
	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
		case 'o':
			if (rl_parse_size(optarg, c == 'c' ? &o.chunk : &o.data_offset, why,
			                  sizeof(why))) {
				cli_error("create", "--%s: %s", c == 'c' ? "chunk" : "data-offset",
				          why);
				return 2;
			}
			break;
		case 'l':
			o.layout = optarg;
			break;
		case 'b':
			if (rl_parse_size(optarg, &o.bitmap_chunk, why, sizeof(why))) {
				cli_error("create", "--bitmap-chunk: %s", why);
				return 2;
			}
			break;
		case 'n':
			o.name = optarg;
			break;
		case 'u':
			if (create_uuid(optarg, o.uuid)) {
				cli_error("create", "--uuid: expected 32 hex digits, got '%s'",
				          optarg);
				return 2;
			}
			o.uuid_set = true;
			break;
		case 'a':
			o.assume_clean = true;
			break;
		default: {
			int end = cli_opt_common(c, create_usage, &ctx.force_destroy, &quiet);
			if (end >= 0)
				return end;
		}
		}
	}
	if (argc - optind < 3) {
		cli_error("create", "give a level and at least two members");
		fputs(create_usage, stderr);
		return 2;
	}
	if ((unsigned)(argc - optind - 1) > MD_SB_MAX_DEVS) {
		cli_error("create", "at most %u members", MD_SB_MAX_DEVS);
		return 2;
	}
	o.level = argv[optind];
	ctx.write_intent = true;
	ctx.keep = true;
	ctx.buffered_ok = true;
	ctx.quiet = quiet;
	for (int i = optind + 1; i < argc; i++) {
		struct rl_err err = {0};
		rc = rl_target_open(argv[i], &ctx, &members[n], &err);
		if (rc) {
			cli_spec_error("create", argv[i], &err);
			rc = rc == -EINVAL ? 2 : 1;
			goto out;
		}
		if (!(members[n++]->caps & RL_CAP_DATA)) { /* counted: closed at out */
			cli_error("create", "member %u (%s) stores no data", n - 1, argv[i]);
			rc = 2;
			goto out;
		}
		if (!(rl_target_leaf_caps(members[n - 1]) & RL_CAP_REAL)) {
			cli_error("create",
			          "member %u (%s) keeps its data only while it is open (no file or "
			          "device under it): the superblocks would be gone before md(...) "
			          "could read them",
			          n - 1, argv[i]);
			rc = 2;
			goto out;
		}
	}
	rc = md_create(&o, members, n, &sb, msg, sizeof(msg));
	if (rc) {
		cli_error("create", "%s", msg);
		rc = rc == -EINVAL ? 2 : 1;
		goto out;
	}
	nmembers = n;
	if (!o.assume_clean) {
		struct json_object *trees[MD_SB_MAX_DEVS];
		for (unsigned i = 0; i < n; i++) {
			trees[i] = rl_target_tree(members[i]); /* what to remove if it fails */
			rl_target_finish(members[i]);
			rl_target_close(members[i]);
		}
		n = 0;
		rc = create_resync(argc, argv, optind + 1, &ctx);
		for (unsigned i = 0; i < nmembers; i++) {
			if (rc && trees[i])
				cli_created_walk(trees[i]);
			json_object_put(trees[i]);
		}
		if (rc)
			goto out;
	}
	if (!quiet) {
		printf("%s array of %u members, %llu KiB per member from offset %llu KiB, UUID ",
		       md_level_name(sb.level), nmembers, (unsigned long long)sb.size / 2,
		       (unsigned long long)sb.data_offset / 2);
		for (int i = 0; i < 16; i++)
			printf("%02x%s", sb.set_uuid[i], i % 4 == 3 && i < 15 ? ":" : "");
		printf("\n");
	}
out:
	for (unsigned i = 0; i < n; i++) {
		if (rc) /* a refused create leaves no file it made behind */
			cli_created_remove(members[i]);
		rl_target_finish(members[i]);
		rl_target_close(members[i]);
	}
	return rc;
}

static struct cli_command create_cmd = {
    .name = "create",
    .summary = "write md v1.2 superblocks: an array mdadm and md(...) recognise",
    .usage = create_usage,
    .main = create_main,
};
CLI_COMMAND_REGISTER(create_cmd)
