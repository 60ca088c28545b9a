/*
 * api.h - the commands the page may run, built from its form fields.
 *
 * Each kind of job (measure, advise, compare, ctl, profiles) takes named
 * fields; every field is checked against what that option of the command
 * accepts (a name, a size, a target spec, a path) before it becomes one
 * argv element of the child, so no field can become another option or
 * reach a shell.  Results are files of the results folder only: the page
 * names them by base name, never by path.
 */
#ifndef RL_UI_API_H
#define RL_UI_API_H

#include <stddef.h>

#include "ui/http.h"
#include "ui/jobs.h"

/*
 * Fill @j for the fields of @form (kind=... and its options), with result
 * files in @results.  0, or -EINVAL with the field and what is wrong in @why.
 */
int ui_api_job(struct ui_str form, const char *results, struct ui_job *j, char *why, size_t whylen);

/* The JSON array of the result files (*.json) in @results, sorted, into @out. 0 or -errno. */
int ui_api_results(const char *results, char *out, size_t outlen);

#endif
