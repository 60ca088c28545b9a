/*
 * test_ui_http.c - raidlab ui's request parser, form fields, checks and job
 * builder (src/ui/http.c, guard.c, api.c, jobs.c's quoting), case by case.
 *
 * tsan-skip: single-threaded (no thread to race; tests/unit/threads.c holds it to that)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "ui/api.h"
#include "ui/guard.h"
#include "ui/http.h"
#include "ui/jobs.h"

#define TOK "0123456789abcdef0123456789abcdef"

static int parse(const char *s, struct ui_req *r)
{
	return ui_http_parse(s, strlen(s), r);
}

static void test_parse(void **state)
{
	struct ui_req r;
	(void)state;
	const char *get = "GET /app.js?token=" TOK " HTTP/1.1\r\nHost:  127.0.0.1:8080 \r\n"
	                  "Origin: http://x\r\nContent-Length: 12\r\n\r\nkind=profile";
	assert_int_equal(parse(get, &r), 0);
	assert_true(ui_str_eq(r.method, "GET", true));
	assert_true(ui_str_eq(r.path, "/app.js", true));
	assert_true(ui_str_eq(r.query, "token=" TOK, true));
	assert_true(ui_str_eq(r.host, "127.0.0.1:8080", true)); /* spaces around trimmed */
	assert_int_equal(r.content_length, 12);
	assert_string_equal(get + r.head_len, "kind=profile");
	/* a bare LF ends lines as well */
	assert_int_equal(parse("GET / HTTP/1.0\nHost: a\n\n", &r), 0);
	assert_int_equal(r.query.n, 0);
	/* incomplete, malformed, too large */
	assert_int_equal(parse("GET / HTTP/1.1\r\nHost: a\r\n", &r), -EAGAIN);
	assert_int_equal(parse("get / HTTP/1.1\r\n\r\n", &r), -EINVAL);
	assert_int_equal(parse("GET x HTTP/1.1\r\n\r\n", &r), -EINVAL);
	assert_int_equal(parse("GET / HTTP/2\r\n\r\n", &r), -EINVAL);
	assert_int_equal(parse("GET /a b HTTP/1.1\r\n\r\n", &r), -EINVAL);
	assert_int_equal(parse("GET / HTTP/1.1\r\nHost: a\r\n b\r\n\r\n", &r), -EINVAL);
	assert_int_equal(parse("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", &r), -EINVAL);
	assert_int_equal(parse("GET / HTTP/1.1\r\nBad Name: a\r\n\r\n", &r), -EINVAL);
	assert_int_equal(parse("GET / HTTP/1.1\r\nA: x\ry\r\n\r\n", &r), -EINVAL);
	assert_int_equal(parse("GET / HTTP/1.1\r\nContent-Length: 1x\r\n\r\n", &r), -EINVAL);
	assert_int_equal(parse("GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", &r),
	                 -EINVAL);
	char big[UI_HTTP_MAX_HEAD + 100];
	memset(big, 'a', sizeof(big));
	memcpy(big, "GET / HTTP/1.1\r\nX: ", 19);
	assert_int_equal(ui_http_parse(big, sizeof(big), &r), -E2BIG);
	char many[4096] = "GET / HTTP/1.1\r\n";
	for (int i = 0; i < UI_HTTP_MAX_HEADERS + 1; i++)
		strcat(many, "A: b\r\n");
	strcat(many, "\r\n");
	assert_int_equal(parse(many, &r), -E2BIG);
}

static void test_form(void **state)
{
	struct ui_str f = {"a=1&target=raid0(ssd(x)%20x2)&b=c+d&e&bad=%zz&ctl=%0a", 0};
	char out[64], tiny[3];
	(void)state;
	f.n = strlen(f.p);
	assert_int_equal(ui_form_get(f, "a", out, sizeof(out)), 1);
	assert_string_equal(out, "1");
	assert_int_equal(ui_form_get(f, "target", out, sizeof(out)), 1);
	assert_string_equal(out, "raid0(ssd(x) x2)");
	assert_int_equal(ui_form_get(f, "b", out, sizeof(out)), 1);
	assert_string_equal(out, "c d");
	assert_int_equal(ui_form_get(f, "e", out, sizeof(out)), 1);
	assert_string_equal(out, "");
	assert_int_equal(ui_form_get(f, "tar", out, sizeof(out)), 0);
	assert_int_equal(ui_form_get(f, "bad", out, sizeof(out)), -EINVAL);
	assert_int_equal(ui_form_get(f, "ctl", out, sizeof(out)), -EINVAL); /* a newline */
	assert_int_equal(ui_form_get(f, "target", tiny, sizeof(tiny)), -EINVAL);
}

static int check(const char *req, const char **why)
{
	struct ui_req r;

	assert_int_equal(parse(req, &r), 0);
	return ui_guard_check(&r, TOK, 8080, why);
}

static void test_guard(void **state)
{
	const char *why = NULL;
	(void)state;
	assert_int_equal(
	    check("GET /?token=" TOK " HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n", &why), 0);
	assert_int_equal(check("GET /?token=" TOK " HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n", &why),
	                 0);
	assert_int_equal(
	    check("GET /?token=" TOK " HTTP/1.1\r\nHost: LocalHost:8080\r\n\r\n", &why), 0);
	assert_int_equal(check("GET /?token=" TOK " HTTP/1.1\r\nHost: evil.com:8080\r\n\r\n", &why),
	                 403);
	assert_non_null(strstr(why, "Host"));
	assert_int_equal(check("GET /?token=" TOK " HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\n", &why),
	                 403);
	assert_int_equal(check("GET /?token=" TOK " HTTP/1.1\r\n\r\n", &why), 403);
	assert_int_equal(check("GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n", &why), 403);
	assert_non_null(strstr(why, "token"));
	assert_int_equal(
	    check("GET /?token=" TOK "0 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n", &why), 403);
	assert_int_equal(
	    check("GET /?token=1" TOK " HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n", &why), 403);
	/* a POST: Origin and Sec-Fetch-Site, when sent, are this server's */
	assert_int_equal(
	    check("POST /?token=" TOK " HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"
	          "Origin: http://127.0.0.1:8080\r\nSec-Fetch-Site: same-origin\r\n\r\n",
	          &why),
	    0);
	assert_int_equal(
	    check("POST /?token=" TOK " HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n", &why), 0);
	assert_int_equal(check("POST /?token=" TOK " HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"
	                       "Origin: http://evil.com\r\n\r\n",
	                       &why),
	                 403);
	assert_int_equal(check("POST /?token=" TOK " HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"
	                       "Origin: null\r\n\r\n",
	                       &why),
	                 403);
	assert_int_equal(check("POST /?token=" TOK " HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"
	                       "Sec-Fetch-Site: cross-site\r\n\r\n",
	                       &why),
	                 403);
	char tok[UI_TOKEN_LEN + 1], tok2[UI_TOKEN_LEN + 1];
	assert_int_equal(ui_token_new(tok), 0);
	assert_int_equal(ui_token_new(tok2), 0);
	assert_int_equal(strlen(tok), UI_TOKEN_LEN);
	assert_int_equal(strspn(tok, "0123456789abcdef"), UI_TOKEN_LEN);
	assert_string_not_equal(tok, tok2);
}

static int job(const char *form, struct ui_job *j, char *why)
{
	return ui_api_job((struct ui_str){form, strlen(form)}, "res", j, why, 256);
}

static void test_jobs(void **state)
{
	static struct ui_job j;
	char why[256], line[8192];
	(void)state;
	assert_int_equal(
	    job("kind=measure&suite=cdm&target=raid0(ssd(850evo)+x2)&size=16m", &j, why), 0);
	assert_string_equal(j.argv[1], "run");
	assert_string_equal(j.argv[2], "cdm");
	assert_string_equal(j.argv[3], "--target=raid0(ssd(850evo) x2)");
	assert_non_null(j.result_file);
	assert_int_equal(strncmp(j.result_file, "res/cdm-", 8), 0);
	ui_job_cmdline(&j, line, sizeof(line));
	assert_int_equal(strncmp(line, "raidlab run cdm '--target=raid0(ssd(850evo) x2)' ", 48), 0);
	/* a confirmation adds --force-destroy only when it names the target */
	assert_int_equal(job("kind=measure&suite=cdm&target=/dev/sdz&confirm=/dev/sdz", &j, why),
	                 0);
	ui_job_cmdline(&j, line, sizeof(line));
	assert_non_null(strstr(line, " --force-destroy "));
	assert_int_equal(job("kind=measure&suite=cdm&target=/dev/sdz&confirm=/dev/sdy", &j, why),
	                 -EINVAL);
	assert_int_equal(job("kind=measure&suite=cdm&target=/dev/sdz", &j, why), 0);
	ui_job_cmdline(&j, line, sizeof(line));
	assert_null(strstr(line, "force"));
	/* values that would be options, paths as names, unknown kinds */
	assert_int_equal(job("kind=measure&suite=--help&target=x", &j, why), -EINVAL);
	assert_non_null(strstr(why, "suite"));
	assert_int_equal(job("kind=measure&suite=cdm&target=--x", &j, why), -EINVAL);
	assert_int_equal(job("kind=measure&suite=cdm", &j, why), -EINVAL);
	assert_non_null(strstr(why, "target"));
	assert_int_equal(job("kind=compare&r1=../etc/passwd", &j, why), -EINVAL);
	assert_int_equal(job("kind=advise&drive=850evo&count=-1", &j, why), -EINVAL);
	assert_int_equal(job("kind=ctl&socket=c.sock&verb=stop", &j, why), -EINVAL);
	assert_int_equal(job("kind=sh", &j, why), -EINVAL);
	/* advise takes its options as separate words */
	assert_int_equal(job("kind=advise&drive=850evo&count=4&platform=md&size=16m", &j, why), 0);
	ui_job_cmdline(&j, line, sizeof(line));
	assert_int_equal(strncmp(line,
	                         "raidlab advise --drives 4x850evo --platform md --size 16m "
	                         "--store res/advise-store --json res/advise-",
	                         98),
	                 0);
	assert_int_equal(job("kind=ctl&socket=my+c.sock&verb=fail&member=1&force=1", &j, why), 0);
	ui_job_cmdline(&j, line, sizeof(line));
	assert_string_equal(line, "raidlab ctl 'my c.sock' fail 1 --force");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse),
	    cmocka_unit_test(test_form),
	    cmocka_unit_test(test_guard),
	    cmocka_unit_test(test_jobs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
