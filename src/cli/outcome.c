/*
 * outcome.c - the end of a run on a target, shared by `run` and its suites.
 *
 * A target stack does work of its own when a run ends (rl_target_finish):
 * a write-back cache writes its dirty lines to the members, a cache that
 * lost power replays what its battery kept, test files are removed.  The
 * counters each job recorded were taken before that, so the counters taken
 * afterwards are added to the document as "target_final_counters": the
 * JSON then says what the messages on stderr said (replayed bytes, data
 * that could not be written back).
 *
 * Any target may report "lost_acknowledged_bytes": data the host was told
 * was written and that never reached storage (a cache whose destage
 * failed).  The sum over the stack decides the run: more than zero is a
 * failure, said on stderr whatever --quiet says, and recorded in the
 * document as "lost_acknowledged_bytes".  An interrupted run is marked
 * "interrupted": true.
 *
 * Output paths are checked before a run starts, so a run is not lost to a
 * typo: every command's output options (results, reports, logs, traces,
 * sockets, --out-dir) go through cli_output_check or cli_output_dir.  A
 * path must not be empty; the file, or the directory it would be created
 * in, must be writable and must not lie on a pseudo filesystem (proc,
 * sysfs, cgroup, debugfs and the like), where a directory may look
 * writable to root but no file can be created.  If writing a result still
 * fails at the end, it goes to $TMPDIR (or /tmp) as raidlab-result-PID.json
 * and the message says so.
 */
#include <errno.h>
#include <json-c/json.h>
#include <linux/magic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/target.h"
#include "results/result.h"
#include "workload/run.h"

unsigned long long cli_target_end(const char *cmd, struct rl_target *t, struct json_object *doc)
{
	uint64_t lost = st_result_target_end(doc, t, doc && wl_run_stop_requested());

	if (lost)
		cli_error(cmd,
		          "%llu bytes of acknowledged writes never reached the target's storage "
		          "(see target_counters in the result)",
		          (unsigned long long)lost);
	return lost;
}

/* --- output files: checked before a run, a fallback after it --- */

/* Filesystems of the kernel's own objects: no place for a result or a log. */
static const char *output_pseudo_fs(const char *path)
{
	static const struct {
		unsigned long magic;
		const char *name;
	} pseudo[] = {
	    {PROC_SUPER_MAGIC, "proc"},       {SYSFS_MAGIC, "sysfs"},
	    {CGROUP_SUPER_MAGIC, "cgroup"},   {CGROUP2_SUPER_MAGIC, "cgroup2"},
	    {DEBUGFS_MAGIC, "debugfs"},       {TRACEFS_MAGIC, "tracefs"},
	    {SECURITYFS_MAGIC, "securityfs"}, {BPF_FS_MAGIC, "bpf"},
	    {PSTOREFS_MAGIC, "pstore"},       {EFIVARFS_MAGIC, "efivarfs"},
	};
	struct statfs fs;

	if (statfs(path, &fs))
		return NULL; /* the checks around this one say why it cannot be used */
	for (size_t i = 0; i < sizeof(pseudo) / sizeof(pseudo[0]); i++)
		if ((unsigned long)fs.f_type == pseudo[i].magic)
			return pseudo[i].name;
	return NULL;
}

/* @path (the output, or its directory @where) on a pseudo filesystem: said, -EROFS. */
static int output_fs_check(const char *cmd, const char *opt, const char *path, const char *where)
{
	const char *fs = output_pseudo_fs(where);

	if (!fs)
		return 0;
	cli_error(cmd, "%s %s: %s is on a %s filesystem, which holds no output files", opt, path,
	          where, fs);
	return -EROFS;
}

static int output_empty_check(const char *cmd, const char *opt, const char *path)
{
	if (*path)
		return 0;
	cli_error(cmd, "%s: the path is empty", opt);
	return -EINVAL;
}

int cli_output_check(const char *cmd, const char *opt, const char *path)
{
	char dir[4096];
	const char *slash;
	struct stat st;
	int rc;

	if (!path || !strcmp(path, "-"))
		return 0;
	if ((rc = output_empty_check(cmd, opt, path)))
		return rc;
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			cli_error(cmd, "%s %s: it is a directory", opt, path);
			return -EISDIR;
		}
		if (access(path, W_OK)) {
			cli_error(cmd, "%s %s: cannot write it: %s", opt, path, strerror(errno));
			return -EACCES;
		}
		return output_fs_check(cmd, opt, path, path);
	}
	slash = strrchr(path, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
	         slash ? path : ".");
	if (stat(dir, &st)) {
		cli_error(cmd, "%s %s: directory %s does not exist", opt, path, dir);
		return -ENOENT;
	}
	if (!S_ISDIR(st.st_mode)) {
		cli_error(cmd, "%s %s: %s is not a directory", opt, path, dir);
		return -ENOTDIR;
	}
	if (access(dir, W_OK | X_OK)) {
		cli_error(cmd, "%s %s: cannot create files in %s: %s", opt, path, dir,
		          strerror(errno));
		return -EACCES;
	}
	return output_fs_check(cmd, opt, path, dir);
}

int cli_output_dir(const char *cmd, const char *opt, const char *dir)
{
	char name[4096];
	struct stat st;
	size_t len;
	int rc;

	if ((rc = output_empty_check(cmd, opt, dir)))
		return rc;
	/* to be created: where it would be must take it ("new/" is "new" there) */
	len = strlen(dir);
	while (len > 1 && dir[len - 1] == '/')
		len--;
	snprintf(name, sizeof(name), "%.*s", (int)len, dir);
	if (stat(dir, &st) && (rc = cli_output_check(cmd, opt, name)))
		return rc;
	if (mkdir(dir, 0777) && errno != EEXIST) {
		cli_error(cmd, "%s %s: cannot create it: %s", opt, dir, strerror(errno));
		return -errno;
	}
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		cli_error(cmd, "%s %s: it is not a directory", opt, dir);
		return -ENOTDIR;
	}
	if (access(dir, W_OK | X_OK)) {
		cli_error(cmd, "%s %s: cannot create files in it: %s", opt, dir, strerror(errno));
		return -EACCES;
	}
	return output_fs_check(cmd, opt, dir, dir);
}

int cli_output_dir_new(const char *cmd, const char *opt, const char *dir, bool *made)
{
	struct stat st;
	int rc;

	*made = false;
	if (!dir)
		return 0;
	*made = stat(dir, &st) != 0;
	rc = cli_output_dir(cmd, opt, dir);
	if (rc)
		*made = false;
	return rc;
}

void cli_output_undo(const char *dir, bool made)
{
	if (made)
		(void)rmdir(dir); /* empty: nothing was written into it yet */
}

int cli_result_save(const char *cmd, struct json_object *doc, const char *path)
{
	const char *tmp = getenv("TMPDIR");
	char fallback[4096];
	int rc = st_result_write(doc, path);

	if (!rc)
		return 0;
	snprintf(fallback, sizeof(fallback), "%s/raidlab-result-%ld.json",
	         tmp && *tmp ? tmp : "/tmp", (long)getpid());
	if (st_result_write(doc, fallback) == 0) {
		cli_error(cmd, "cannot write %s: %s; the result was saved to %s instead", path,
		          strerror(-rc), fallback);
	} else {
		cli_error(cmd, "cannot write %s: %s (nor the fallback %s); the result is lost",
		          path, strerror(-rc), fallback);
	}
	return rc;
}

void cli_created_walk(struct json_object *node)
{
	struct json_object *v, *path, *kids;

	if (json_object_object_get_ex(node, "created", &v) && json_object_get_boolean(v) &&
	    json_object_object_get_ex(node, "path", &path))
		(void)unlink(json_object_get_string(path));
	if (json_object_object_get_ex(node, "children", &kids))
		for (size_t i = 0; i < json_object_array_length(kids); i++)
			cli_created_walk(json_object_array_get_idx(kids, i));
}

void cli_created_remove(struct rl_target *t)
{
	struct json_object *tree = t ? rl_target_tree(t) : NULL;

	if (tree) {
		cli_created_walk(tree);
		json_object_put(tree);
	}
}
