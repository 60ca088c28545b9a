/*
 * cmd_advise_sure.c - how sure `raidlab advise` can be: the platform's
 * validation set (validation/NAME.json) replayed on the model, as
 * `raidlab validate NAME` does, and its findings checked.
 *
 * A finding that fails names the configuration whose figure it claims (its
 * left-hand side); advise's rows of that level and member count are then
 * "contradicted" rather than "validated", and the answer lists the failing
 * findings instead of claiming backing.  Replaying a set costs tens of
 * seconds, so the outcome is kept in advise's store, in a file whose name
 * carries a hash of the set's text and the program's version: the same
 * set on the same model is replayed once.
 */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_advise.h"
#include "report/validate.h"

#ifndef RL_VERSION
#define RL_VERSION "0.0.0"
#endif

static struct json_object *adv_sure_get(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

/* The outcome of the set at @path: {"held", "total", "failing": [{"finding", "spec"}]}. */
static struct json_object *adv_sure_replay(const char *path, unsigned par)
{
	struct val_set set;
	struct val_stats st;
	char msg[512];
	struct json_object *out, *failing;

	if (val_set_load(path, &set, msg, sizeof(msg))) {
		val_set_free(&set);
		return NULL;
	}
	if (cli_validate_run(&set, 1, par, true, NULL, 0)) {
		val_set_free(&set);
		return NULL;
	}
	val_set_fill(&set);
	memset(&st, 0, sizeof(st));
	val_set_check(&set, &st);
	out = json_object_new_object();
	failing = json_object_new_array();
	for (size_t i = 0; i < set.nrelations; i++) {
		const struct val_relation *r = &set.relations[i];
		const char *cfg = json_object_get_string(adv_sure_get(r->lhs, "config")),
		           *spec = "";
		struct json_object *f;
		if (r->held)
			continue;
		for (size_t c = 0; cfg && c < set.nconfigs; c++)
			if (!strcmp(set.configs[c].name, cfg))
				spec = set.configs[c].spec;
		f = json_object_new_object();
		json_object_object_add(f, "finding", json_object_new_string(r->finding));
		json_object_object_add(f, "spec", json_object_new_string(spec));
		json_object_array_add(failing, f);
	}
	json_object_object_add(out, "held", json_object_new_int64((int64_t)st.relations_held));
	json_object_object_add(out, "total", json_object_new_int64((int64_t)set.nrelations));
	json_object_object_add(out, "failing", failing);
	json_object_object_add(out, "pass", json_object_new_boolean(st.pass));
	json_object_object_add(out, "why", json_object_new_string(st.why ? st.why : ""));
	val_stats_free(&st);
	val_set_free(&set);
	return out;
}

static char *adv_sure_text(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) == (size_t)n) {
		buf[n] = 0;
		*len = (size_t)n;
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

struct json_object *adv_sure(const struct adv_args *a)
{
	char path[PATH_MAX], keep[PATH_MAX + 128];
	size_t len = 0;
	char *text;
	uint64_t h;
	struct json_object *out;

	if (!a->platform[0] || cli_validate_find(a->platform, path, sizeof(path)))
		return NULL;
	if (!(text = adv_sure_text(path, &len)))
		return NULL;
	h = sw_content_hash(text, len) ^
	    sw_content_hash(RL_VERSION " sure-2", sizeof(RL_VERSION " sure-2"));
	free(text);
	snprintf(keep, sizeof(keep), "%s/validate-%s-%016llx.json", a->store, a->platform,
	         (unsigned long long)h);
	if ((out = json_object_from_file(keep)))
		return out;
	fprintf(stderr,
	        "advise: replaying the validation set '%s' to say how sure the figures "
	        "are (once per store)\n",
	        a->platform);
	out = adv_sure_replay(path, a->par);
	if (out)
		json_object_to_file_ext(keep, out, JSON_C_TO_STRING_PLAIN);
	return out;
}
