/*
 * fmt.c - number and text formatting shared by the renderers (fmt.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/fmt.h"

void rep_fmt_value(char *buf, size_t len, double v, enum rep_metric m)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (m == REP_METRIC_ACCESS) /* milliseconds, as the tools show them */
		snprintf(buf, len, "%.3f ms", v);
	else
		snprintf(buf, len, "%.*f", m == REP_METRIC_IOPS ? 1 : 2, v);
}

void rep_fmt_pct(char *buf, size_t len, double pct)
{
	if (!isfinite(pct))
		snprintf(buf, len, "-");
	else if (fabs(pct) < 0.05)
		snprintf(buf, len, "0.0%%");
	else
		snprintf(buf, len, "%+.1f%%", pct);
}

void rep_fmt_bytes(char *buf, size_t len, double bytes)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	size_t u = 0;
	double v = bytes;

	if (!isfinite(bytes)) {
		snprintf(buf, len, "-");
		return;
	}
	while (fabs(v) >= 1024.0 && u + 1 < sizeof units / sizeof units[0]) {
		v /= 1024.0;
		u++;
	}
	if (v == floor(v))
		snprintf(buf, len, "%.0f %s", v, units[u]);
	else
		snprintf(buf, len, "%.2f %s", v, units[u]);
}

void rep_fmt_score(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.0f", v);
}

void rep_fmt_number(char *buf, size_t len, double v)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "-");
	} else if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, len, "%.0f", v);
	} else {
		char *e;

		snprintf(buf, len, "%.3f", v);
		/* drop trailing zeros: 2.500 -> 2.5 */
		if (strchr(buf, '.')) {
			e = buf + strlen(buf) - 1;
			while (*e == '0')
				*e-- = '\0';
			if (*e == '.')
				*e = '\0';
		}
	}
}

size_t rep_text_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

void rep_term_text(FILE *f, const char *s, size_t max, size_t width, int right)
{
	size_t w = rep_text_width(s), shown = w, cut = 0;
	size_t pad;

	if (max && w > max) {
		shown = max;
		cut = max > 3 ? max - 3 : max; /* code points of @s before "..." */
	}
	pad = width > shown ? width - shown : 0;
	if (right)
		fprintf(f, "%*s", (int)pad, "");
	for (size_t cp = 0; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c & 0xc0) != 0x80) {
			if (cut && cp == cut)
				break;
			cp++;
		}
		if (c == 0xc2 && (unsigned char)s[1] >= 0x80 && (unsigned char)s[1] < 0xa0) {
			fputc('?', f); /* C1 control (U+0080..U+009F) */
			s++;
			continue;
		}
		fputc(c < 0x20 || c == 0x7f ? '?' : c, f);
	}
	if (cut)
		fprintf(f, "%.*s", (int)(shown - cut), "...");
	if (!right)
		fprintf(f, "%*s", (int)pad, "");
}
