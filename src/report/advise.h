/*
 * advise.h - the advise section of the HTML report (advise.c): the header,
 * ranking, per-group figures and answer that `raidlab advise` adds to its
 * sweep document as an "advise" object.
 */
#ifndef RL_REPORT_ADVISE_H
#define RL_REPORT_ADVISE_H

#include <stdbool.h>
#include <stdio.h>

struct json_object;

/** Does the sweep document @doc carry advise's ranking? */
bool rep_advise_has(struct json_object *doc);

/** The advise section, or nothing when @doc has no advise object. */
void rep_advise_html(FILE *f, struct json_object *doc);

#endif
