/*
 * fuzz_ui_http.c - libFuzzer target for `raidlab ui`'s request parser and
 * checks (src/ui/http.c, guard.c, api.c).
 *
 * The input is a request as read from the socket.  The parser must answer
 * 0, -EAGAIN, -E2BIG or -EINVAL; on 0 every field it returns lies inside the
 * input and before the end of the head, the method is capital letters, the
 * path starts with '/', and no header value holds CR or LF.  The checks
 * then run on it (a status of 0 or 403 only), the form fields of the query
 * and of the bytes after the head are decoded into a roomy and a tiny
 * buffer (a value never holds a control byte and always ends in NUL), and
 * the job builder turns the body into an argv or a refusal: an argv's
 * elements never start with '-' unless they are options of its own making
 * ("--name=value" or "--name"), so no field becomes another option.  Any
 * broken invariant calls abort().
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ui/api.h"
#include "ui/guard.h"
#include "ui/http.h"
#include "ui/jobs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_inside(struct ui_str s, const char *buf, size_t end)
{
	if (!s.p)
		return;
	if (s.p < buf || s.p + s.n > buf + end)
		abort();
	for (size_t i = 0; i < s.n; i++)
		if (s.p[i] == '\r' || s.p[i] == '\n' || s.p[i] == '\0')
			abort();
}

static void fuzz_form(struct ui_str form)
{
	static const char *const keys[] = {"token", "kind", "target", "r1", "a", ""};
	char big[4096], tiny[4];

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		int rc = ui_form_get(form, keys[k], big, sizeof(big));
		if (rc != 0 && rc != 1 && rc != -EINVAL)
			abort();
		if (rc == 1)
			for (const char *c = big; *c; c++)
				if ((unsigned char)*c < ' ' || *c == 0x7f)
					abort();
		rc = ui_form_get(form, keys[k], tiny, sizeof(tiny));
		if (rc == 1 && strlen(tiny) >= sizeof(tiny))
			abort();
	}
}

static void fuzz_job(struct ui_str form)
{
	struct ui_job *j = malloc(sizeof(*j));
	char why[256];

	if (!j)
		return;
	if (!ui_api_job(form, "/nonexistent-results", j, why, sizeof(why))) {
		if (j->argc < 2 || strcmp(j->argv[0], "raidlab") || j->argv[j->argc])
			abort();
		for (size_t i = 1; i < j->argc; i++) {
			const char *a = j->argv[i];
			if (a[0] != '-')
				continue;
			if (a[1] != '-' || !a[2] || a[2] == '-')
				abort();
			for (const char *c = a + 2; *c && *c != '='; c++)
				if (!((*c >= 'a' && *c <= 'z') || *c == '-'))
					abort();
		}
		char line[8192];
		ui_job_cmdline(j, line, sizeof(line));
		if (strlen(line) >= sizeof(line))
			abort();
	} else if (!why[0]) {
		abort();
	}
	free(j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct ui_req r;
	const char *why = NULL;

	fuzz_form((struct ui_str){buf, size});
	fuzz_job((struct ui_str){buf, size});
	int rc = ui_http_parse(buf, size, &r);
	if (rc != 0 && rc != -EAGAIN && rc != -E2BIG && rc != -EINVAL)
		abort();
	if (rc)
		return 0;
	if (r.head_len > size || r.head_len > UI_HTTP_MAX_HEAD || r.head_len < 4)
		abort();
	fuzz_inside(r.method, buf, r.head_len);
	fuzz_inside(r.path, buf, r.head_len);
	fuzz_inside(r.query, buf, r.head_len);
	fuzz_inside(r.host, buf, r.head_len);
	fuzz_inside(r.origin, buf, r.head_len);
	fuzz_inside(r.fetch_site, buf, r.head_len);
	fuzz_inside(r.content_type, buf, r.head_len);
	if (!r.method.n || !r.path.n || r.path.p[0] != '/')
		abort();
	for (size_t i = 0; i < r.method.n; i++)
		if (r.method.p[i] < 'A' || r.method.p[i] > 'Z')
			abort();
	int st = ui_guard_check(&r, "0123456789abcdef0123456789abcdef", 8080, &why);
	if ((st != 0 && st != 403) || (st && !why))
		abort();
	fuzz_form(r.query);
	fuzz_job((struct ui_str){buf + r.head_len, size - r.head_len});
	return 0;
}
