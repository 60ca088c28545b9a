/*
 * ctl_profile.h - controller and host-driver profiles (profiles/NAME.controller),
 * read by the controller(PROFILE, TARGET, ...) target, checked by the kinds
 * it becomes (cache, link: profile=NAME) and listed by `raidlab profiles`.
 * See ctl_profile.c for the file format.
 */
#ifndef RL_CORE_CTL_PROFILE_H
#define RL_CORE_CTL_PROFILE_H

#include <stddef.h>

#define RL_CTL_SUFFIX ".controller"

struct rl_ctl_profile {
	char path[4096];       /* the file it came from */
	char name[64];         /* as specs name it */
	char aliases[256];     /* other names, space separated */
	char kind[16];         /* "cache" or "link": the target type it becomes */
	char description[512]; /* one line */
	char **sources;        /* "source = ..." lines, in order */
	size_t nsources;
	char **keys, **values; /* the target's parameters, in file order */
	size_t nkv;
};

/** Parse one profile file.  0, or -errno with @msg naming the file and line. */
int rl_ctl_profile_parse(const char *path, struct rl_ctl_profile *p, char *msg, size_t msglen);
/** Find a profile by name or alias.  0, -ENOENT, or another -errno. */
int rl_ctl_profile_load(const char *name, struct rl_ctl_profile *p);
/** Call @fn for every profile found (first directory wins); stops at a nonzero return. */
int rl_ctl_profile_each(int (*fn)(const struct rl_ctl_profile *p, void *arg), void *arg);
void rl_ctl_profile_free(struct rl_ctl_profile *p);

struct rl_spec_node;
struct rl_err;
/**
 * A @kind ("cache", "link") target's profile=NAME, which controller(...)
 * sets: NAME must be a controller profile of that kind.  0, or -EINVAL
 * with @err naming the value.  Absent or empty passes.
 */
int rl_ctl_profile_check(struct rl_spec_node *node, const char *kind, struct rl_err *err);

/** The profile= entry of the parameter table (params.h) of a kind: cache, link. */
#define RL_CTL_PARAM_PROFILE                                                                       \
	{                                                                                          \
		.name = "profile", .type = RL_PARAM_STR,                                           \
		.help = "the controller profile it came from (set by `controller(...)`); given "   \
		        "by hand it must name a controller profile of this kind",                  \
	}

#endif
