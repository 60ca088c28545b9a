/*
 * ui.h - `raidlab ui`: a local web application served from the binary.
 *
 * The server (server.c) answers one request per connection, each on its own
 * thread: the page (page.h, compiled in from src/ui/page/), and /api/job,
 * which runs one of raidlab's own commands as a child process (jobs.c,
 * argv built from checked fields by api.c, never through a shell) and
 * streams its output to the page as server-sent events until the child
 * ends or the page goes away (the child's process group is then stopped).
 * Every request passes guard.h's checks first.
 */
#ifndef RL_UI_UI_H
#define RL_UI_UI_H

#include <stdbool.h>

struct ui_opts {
	unsigned port;          /* 0: any free port */
	const char *listen;     /* NULL: 127.0.0.1 and ::1 */
	const char *ready_file; /* NULL or where the URL goes once listening */
	const char *results;    /* NULL: a private folder removed at exit */
	bool no_browser;
};

/* Serve until SIGINT or SIGTERM.  Prints errors as "raidlab ui: ..."; exit status. */
int ui_run(const struct ui_opts *o);

#endif
