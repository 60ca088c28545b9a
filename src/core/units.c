/*
 * units.c - numbers with units: sizes, rates, durations, integers, booleans.
 *
 * These parsers are shared by target specs (rl_spec_get_*) and the job-option
 * parser, so they are strict and behave the same everywhere:
 *
 *  - Surrounding whitespace is ignored; anything else that is not part of the
 *    number or its unit is an error ("12q" is never silently 12).
 *  - Numbers never go through double.  A value is split into its integer
 *    part, up to 19 fraction digits and a unit multiplier, and computed as
 *    ip * mult + round(frac * mult / 10^digits) in 128-bit arithmetic, so
 *    "3.9GB" is exactly 3900000000 and anything past 2^64-1 is reported as
 *    overflow instead of wrapping.  Fraction digits past the 19th only move
 *    the value by less than 10^-19 of the unit and are ignored.
 *  - A fraction needs a unit larger than the base unit ("1.5k" is fine,
 *    "1.5" bytes or "1.5ns" is an error; "1.0" is allowed, it is whole).
 *  - Units are looked up by exact spelling through one small function per
 *    quantity, so the rules (decimal kB/MB/... versus binary k/KiB/KB) live
 *    in one place each.
 *  - Messages read "<reason> in <kind> '<text>'", e.g. "unknown unit 'q' in
 *    size '12q'".  spec.c relies on that shape to drop the redundant tail
 *    when it wraps a message with the parameter's name.  They are written
 *    with snprintf, so a short or absent buffer only truncates them; the
 *    quoted text is cut to a bounded length and control bytes are escaped.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/spec.h"

#define UNITS_EXCERPT  48 /* bytes of the offending text shown in messages */
#define UNITS_MAX_FRAC 19 /* fraction digits that count (10^19 < 2^64) */

typedef unsigned __int128 units_u128;

/* Looks a unit suffix [s, s + len) up; false if unknown. */
typedef bool (*units_lookup_fn)(const char *s, size_t len, uint64_t *mult);

/* How one quantity is written: its name for messages and its units. */
struct units_kind {
	const char *name;      /* "size", "rate", "duration" */
	const char *base;      /* the unit of the result: "byte", "nanosecond" */
	const char *frac_hint; /* advice when a fraction meets the base unit */
	bool hex;              /* "0x..." integers allowed */
	units_lookup_fn lookup;
};

static const uint64_t units_pow10[UNITS_MAX_FRAC + 1] = {
    1ULL,
    10ULL,
    100ULL,
    1000ULL,
    10000ULL,
    100000ULL,
    1000000ULL,
    10000000ULL,
    100000000ULL,
    1000000000ULL,
    10000000000ULL,
    100000000000ULL,
    1000000000000ULL,
    10000000000000ULL,
    100000000000000ULL,
    1000000000000000ULL,
    10000000000000000ULL,
    100000000000000000ULL,
    1000000000000000000ULL,
    10000000000000000000ULL,
};

static bool units_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static bool units_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Value of a hex digit, or -1. */
static int units_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static char units_lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* True if [s, s + len) equals @word exactly. */
static bool units_is(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && memcmp(s, word, len) == 0;
}

/* True if [s, s + len) equals @word ignoring ASCII letter case. */
static bool units_is_nocase(const char *s, size_t len, const char *word)
{
	size_t i;

	if (strlen(word) != len)
		return false;
	for (i = 0; i < len; i++) {
		if (units_lower(s[i]) != units_lower(word[i]))
			return false;
	}
	return true;
}

const char *rl_text_excerpt(const char *s, size_t len, size_t max, char *buf, size_t size)
{
	size_t i, o = 0;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		bool continuation = (c & 0xc0) == 0x80;

		if (i >= max && !(continuation && i < max + 3))
			break;
		if (o + 5 > size)
			break;
		if (c < 0x20 || c == 0x7f) {
			snprintf(buf + o, size - o, "\\x%02x", c);
			o += 4;
		} else {
			buf[o++] = (char)c;
		}
	}
	if (i < len && o + 4 <= size) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return buf;
}

static void units_excerpt(const char *s, size_t len, char *buf, size_t size)
{
	rl_text_excerpt(s, len, UNITS_EXCERPT, buf, size);
}

/* Writes "<reason> in <kind> '<s>'" to msg; returns -EINVAL. */
static int units_fail(char *msg, size_t msglen, const char *kind, const char *s, const char *fmt,
                      ...) __attribute__((format(printf, 5, 6)));

static int units_fail(char *msg, size_t msglen, const char *kind, const char *s, const char *fmt,
                      ...)
{
	char reason[256];
	char text[UNITS_EXCERPT * 4 + 16];
	va_list ap;

	if (!msg || msglen == 0)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(reason, sizeof reason, fmt, ap);
	va_end(ap);
	units_excerpt(s, strlen(s), text, sizeof text);
	snprintf(msg, msglen, "%s in %s '%s'", reason, kind, text);
	return -EINVAL;
}

/* Writes a message that has no text to quote; returns -EINVAL. */
static int units_fail_plain(char *msg, size_t msglen, const char *what, const char *kind)
{
	if (msg && msglen > 0)
		snprintf(msg, msglen, "%s %s", what, kind);
	return -EINVAL;
}

/* Trims whitespace: [*begin, *end) is what is left of @s. */
static void units_trim(const char *s, const char **begin, const char **end)
{
	const char *b = s, *e = s + strlen(s);

	while (b < e && units_is_space(*b))
		b++;
	while (e > b && units_is_space(e[-1]))
		e--;
	*begin = b;
	*end = e;
}

/* Size units: bytes, binary letters (with optional i and b/B), decimal kB..PB. */
static bool units_size_unit(const char *s, size_t len, uint64_t *mult)
{
	static const char decimal[][3] = {"kB", "MB", "GB", "TB", "PB"};
	static const char letters[] = "kmgtp";
	const char *letter;
	const char *rest;
	size_t i, restlen;

	if (len == 0 || units_is(s, len, "b") || units_is(s, len, "B")) {
		*mult = 1;
		return true;
	}
	for (i = 0; i < sizeof decimal / sizeof decimal[0]; i++) {
		if (units_is(s, len, decimal[i])) {
			*mult = units_pow10[3 * (i + 1)];
			return true;
		}
	}
	letter = units_lower(s[0]) ? strchr(letters, units_lower(s[0])) : NULL;
	if (!letter)
		return false;
	rest = s + 1;
	restlen = len - 1;
	if (restlen == 0 || units_is(rest, restlen, "b") || units_is(rest, restlen, "B") ||
	    units_is(rest, restlen, "i") || units_is(rest, restlen, "ib") ||
	    units_is(rest, restlen, "iB")) {
		*mult = 1ULL << (10 * (letter - letters + 1));
		return true;
	}
	return false;
}

/* Duration units, in nanoseconds; a bare number is seconds. */
static bool units_time_unit(const char *s, size_t len, uint64_t *mult)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} table[] = {
	    {"", 1000000000ULL},
	    {"ns", 1ULL},
	    {"us", 1000ULL},
	    {"\xc2\xb5s", 1000ULL}, /* µs */
	    {"ms", 1000000ULL},
	    {"s", 1000000000ULL},
	    {"m", 60ULL * 1000000000ULL},
	    {"h", 3600ULL * 1000000000ULL},
	};
	size_t i;

	for (i = 0; i < sizeof table / sizeof table[0]; i++) {
		if (units_is(s, len, table[i].name)) {
			*mult = table[i].ns;
			return true;
		}
	}
	return false;
}

static const struct units_kind units_size = {
    .name = "size",
    .base = "byte",
    .frac_hint = " (use a unit, as in 1.5k)",
    .hex = true,
    .lookup = units_size_unit,
};

static const struct units_kind units_rate = {
    .name = "rate",
    .base = "byte",
    .frac_hint = " (use a unit, as in 1.5MB/s)",
    .hex = false,
    .lookup = units_size_unit,
};

static const struct units_kind units_time = {
    .name = "duration",
    .base = "nanosecond",
    .frac_hint = "",
    .hex = false,
    .lookup = units_time_unit,
};

/*
 * Parses the number-with-unit in [b, e) (already trimmed, non-empty) of the
 * original text @s, which is quoted in messages.
 */
static int units_scaled(const struct units_kind *k, const char *s, const char *b, const char *e,
                        uint64_t *out, char *msg, size_t msglen)
{
	const char *p = b;
	uint64_t ip = 0, frac = 0, mult = 0;
	unsigned nfrac = 0;
	bool overflow = false;
	units_u128 total;
	char unit[UNITS_EXCERPT * 4 + 16];

	if (*p == '-')
		return units_fail(msg, msglen, k->name, s, "negative value");
	if (k->hex && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		if (p + 2 >= e || units_hex_digit(p[2]) < 0)
			return units_fail(msg, msglen, k->name, s,
			                  "expected hex digits after '0x'");
		for (p += 2; p < e && units_hex_digit(*p) >= 0; p++) {
			if (ip > (UINT64_MAX >> 4))
				overflow = true;
			else
				ip = (ip << 4) | (uint64_t)units_hex_digit(*p);
		}
	} else {
		if (!units_is_digit(*p))
			return units_fail(msg, msglen, k->name, s, "expected a number");
		for (; p < e && units_is_digit(*p); p++) {
			unsigned d = (unsigned)(*p - '0');

			if (ip > (UINT64_MAX - d) / 10)
				overflow = true;
			else
				ip = ip * 10 + d;
		}
		if (p < e && *p == '.') {
			p++;
			if (p >= e || !units_is_digit(*p))
				return units_fail(msg, msglen, k->name, s,
				                  "expected digits after '.'");
			for (; p < e && units_is_digit(*p); p++) {
				if (nfrac < UNITS_MAX_FRAC) {
					frac = frac * 10 + (uint64_t)(*p - '0');
					nfrac++;
				}
			}
		}
	}
	if (!k->lookup(p, (size_t)(e - p), &mult)) {
		units_excerpt(p, (size_t)(e - p), unit, sizeof unit);
		return units_fail(msg, msglen, k->name, s, "unknown unit '%s'", unit);
	}
	if (frac != 0 && mult == 1)
		return units_fail(msg, msglen, k->name, s, "fraction of a %s%s", k->base,
		                  k->frac_hint);
	if (overflow)
		goto too_large;
	total = (units_u128)ip * mult;
	if (nfrac > 0) {
		units_u128 f = (units_u128)frac * mult;
		units_u128 q = f / units_pow10[nfrac];
		units_u128 r = f % units_pow10[nfrac];

		if (2 * r >= units_pow10[nfrac])
			q++;
		total += q;
	}
	if (total > UINT64_MAX)
		goto too_large;
	if (out)
		*out = (uint64_t)total;
	return 0;

too_large:
	return units_fail(msg, msglen, k->name, s, "value too large (more than 2^64-1 %ss)",
	                  k->base);
}

int rl_parse_size(const char *s, uint64_t *out, char *msg, size_t msglen)
{
	const char *b, *e;

	if (!s)
		return units_fail_plain(msg, msglen, "no", "size given");
	units_trim(s, &b, &e);
	if (b == e)
		return units_fail_plain(msg, msglen, "empty", "size");
	return units_scaled(&units_size, s, b, e, out, msg, msglen);
}

int rl_parse_time(const char *s, uint64_t *out, char *msg, size_t msglen)
{
	const char *b, *e;

	if (!s)
		return units_fail_plain(msg, msglen, "no", "duration given");
	units_trim(s, &b, &e);
	if (b == e)
		return units_fail_plain(msg, msglen, "empty", "duration");
	return units_scaled(&units_time, s, b, e, out, msg, msglen);
}

int rl_parse_rate(const char *s, uint64_t *out, char *msg, size_t msglen)
{
	const char *b, *e;

	if (!s)
		return units_fail_plain(msg, msglen, "no", "rate given");
	units_trim(s, &b, &e);
	if (b == e)
		return units_fail_plain(msg, msglen, "empty", "rate");
	if (e - b >= 2 && e[-2] == '/' && e[-1] == 's')
		e -= 2;
	if (b == e)
		return units_fail(msg, msglen, units_rate.name, s, "expected a number");
	return units_scaled(&units_rate, s, b, e, out, msg, msglen);
}

int rl_parse_u64(const char *s, uint64_t *out, char *msg, size_t msglen)
{
	const char *b, *e, *p;
	uint64_t v = 0;
	bool overflow = false;
	char rest[UNITS_EXCERPT * 4 + 16];

	if (!s)
		return units_fail_plain(msg, msglen, "no", "integer given");
	units_trim(s, &b, &e);
	if (b == e)
		return units_fail_plain(msg, msglen, "empty", "integer");
	p = b;
	if (*p == '-')
		return units_fail(msg, msglen, "integer", s, "negative value");
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		if (p >= e || units_hex_digit(*p) < 0)
			return units_fail(msg, msglen, "integer", s,
			                  "expected hex digits after '0x'");
		for (; p < e && units_hex_digit(*p) >= 0; p++) {
			if (v > (UINT64_MAX >> 4))
				overflow = true;
			else
				v = (v << 4) | (uint64_t)units_hex_digit(*p);
		}
	} else {
		if (!units_is_digit(*p))
			return units_fail(msg, msglen, "integer", s, "expected a number");
		for (; p < e && units_is_digit(*p); p++) {
			unsigned d = (unsigned)(*p - '0');

			if (v > (UINT64_MAX - d) / 10)
				overflow = true;
			else
				v = v * 10 + d;
		}
	}
	if (p < e) {
		units_excerpt(p, (size_t)(e - p), rest, sizeof rest);
		return units_fail(msg, msglen, "integer", s, "unexpected '%s'", rest);
	}
	if (overflow)
		return units_fail(msg, msglen, "integer", s,
		                  "value too large (more than 18446744073709551615)");
	if (out)
		*out = v;
	return 0;
}

int rl_parse_bool(const char *s, bool *out, char *msg, size_t msglen)
{
	static const char *const yes[] = {"on", "yes", "true", "1"};
	static const char *const no[] = {"off", "no", "false", "0"};
	const char *b, *e;
	size_t i, len;

	if (!s)
		return units_fail_plain(msg, msglen, "no", "boolean given");
	units_trim(s, &b, &e);
	len = (size_t)(e - b);
	for (i = 0; i < sizeof yes / sizeof yes[0]; i++) {
		if (units_is_nocase(b, len, yes[i])) {
			if (out)
				*out = true;
			return 0;
		}
		if (units_is_nocase(b, len, no[i])) {
			if (out)
				*out = false;
			return 0;
		}
	}
	if (len == 0)
		return units_fail_plain(msg, msglen, "empty", "boolean");
	return units_fail(msg, msglen, "boolean", s,
	                  "unknown word (use on/off, yes/no, true/false or 1/0)");
}
