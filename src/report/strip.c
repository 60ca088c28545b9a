/*
 * strip.c - the streaming filter of strip.h.
 *
 * A small JSON lexer, one byte at a time.  Strings are copied through;
 * whitespace outside them is dropped.  Objects are followed with a stack of
 * frames so the filter knows when a string is a key and which key an
 * object is the value of.  A key is buffered until its closing quote: a
 * stripped one ("histogram" or "series" in a direction object) switches to
 * skipping its value, any other is written out.  Commas between the members
 * of an object are not copied but written before each member kept after
 * the first, so a dropped member leaves no dangling comma.  A skipped value
 * is followed only as far as its brackets (matched) and strings go; a
 * member with no colon or no value marks the text broken, and the loader
 * then parses the original text to report the error.
 */
#include <string.h>

#include "report/strip.h"

void rep_strip_init(struct rep_strip *s)
{
	memset(s, 0, sizeof(*s));
}

static struct rep_strip_frame *strip_top(struct rep_strip *s)
{
	return s->depth && !s->deep ? &s->stack[s->depth - 1] : NULL;
}

static bool strip_is_dir(const char *key)
{
	return !strcmp(key, "read") || !strcmp(key, "write") || !strcmp(key, "trim");
}

/* Write the buffered key's opening: the comma before a member that is not the first. */
static size_t strip_key_open(struct rep_strip *s, char *out)
{
	struct rep_strip_frame *f = strip_top(s);
	size_t o = 0;

	if (f && f->emitted)
		out[o++] = ',';
	if (f)
		f->emitted = true;
	out[o++] = '"';
	memcpy(out + o, s->key, s->keylen);
	return o + s->keylen;
}

/* One byte of a JSON string being copied: escapes, and the quote that ends it (*open). */
static void strip_string_byte(struct rep_strip *s, char c, bool *open)
{
	if (s->escape)
		s->escape = false;
	else if (c == '\\')
		s->escape = true;
	else if (c == '"')
		*open = false;
}

/* Inside a key: buffer it, or copy it once it is too long to be stripped. */
static size_t strip_key_byte(struct rep_strip *s, char c, char *out)
{
	struct rep_strip_frame *f = strip_top(s);
	size_t o = 0;

	if (s->key_long) {
		out[o++] = c;
		strip_string_byte(s, c, &s->in_key);
		return o;
	}
	if (c == '"') {
		s->key[s->keylen] = '\0';
		s->in_key = false;
		if (f && f->dir && (!strcmp(s->key, "histogram") || !strcmp(s->key, "series"))) {
			s->skipping = true;
			s->skip_depth = 0;
			s->skip_started = s->skip_string = s->skip_escape = false;
			s->skip_colon = s->skip_closed = false;
			return 0;
		}
		o = strip_key_open(s, out);
		out[o++] = '"';
		memcpy(s->last_key, s->key, s->keylen + 1);
		return o;
	}
	if (c == '\\' || s->keylen == REP_STRIP_KEY) {
		o = strip_key_open(s, out);
		out[o++] = c;
		s->key_long = true;
		s->escape = c == '\\';
		s->last_key[0] = '\0';
		return o;
	}
	s->key[s->keylen++] = c;
	return 0;
}

/*
 * Inside a dropped member, from its colon to the end of its value.  Returns
 * true while the byte belongs to it; false when @c ends it (a ',' or '}'
 * after the value), to be handled as usual.
 */
static bool strip_skip_byte(struct rep_strip *s, char c)
{
	if (s->skip_string) {
		if (s->skip_escape)
			s->skip_escape = false;
		else if (c == '\\')
			s->skip_escape = true;
		else if (c == '"') {
			s->skip_string = false;
			s->skip_closed = s->skip_depth == 0;
		}
		return true;
	}
	if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
		return true;
	if (!s->skip_colon) {
		if (c != ':')
			s->broken = true;
		s->skip_colon = true;
		return true;
	}
	if (s->skip_depth == 0 && s->skip_started && (c == ',' || c == '}')) {
		s->skipping = false;
		return false;
	}
	if (s->skip_depth == 0 && s->skip_started && s->skip_closed) {
		s->broken = true; /* something after a finished value */
		return true;
	}
	s->skip_started = true;
	if (c == '"') {
		s->skip_string = true;
	} else if (c == '{' || c == '[') {
		if (s->skip_depth == 64)
			s->broken = true;
		else if (c == '{')
			s->skip_kinds |= 1ull << s->skip_depth;
		else
			s->skip_kinds &= ~(1ull << s->skip_depth);
		s->skip_depth += s->skip_depth < 64;
	} else if (c == '}' || c == ']') {
		if (!s->skip_depth || ((s->skip_kinds >> (s->skip_depth - 1)) & 1) != (c == '}'))
			s->broken = true;
		else if (--s->skip_depth == 0)
			s->skip_closed = true;
	} else if (c == ',' || c == ':') {
		if (!s->skip_depth)
			s->broken = true;
	}
	return true;
}

/* A byte outside strings and keys. */
static size_t strip_token_byte(struct rep_strip *s, char c, char *out)
{
	struct rep_strip_frame *f = strip_top(s);

	switch (c) {
	case ' ':
	case '\t':
	case '\n':
	case '\r':
		return 0;
	case '"':
		if (f && f->object && f->want_key) {
			s->in_key = true;
			s->key_long = s->escape = false;
			s->keylen = 0;
			f->want_key = false;
			return 0;
		}
		s->in_string = true;
		s->escape = false;
		out[0] = c;
		return 1;
	case ',':
		if (f && f->object) {
			f->want_key = true; /* written before the next member kept */
			return 0;
		}
		out[0] = c;
		return 1;
	case '{':
	case '[':
		out[0] = c;
		if (s->deep || s->depth == REP_STRIP_DEPTH) {
			s->deep++;
		} else {
			s->stack[s->depth++] = (struct rep_strip_frame){
			    .object = c == '{',
			    .dir = f && f->object && strip_is_dir(s->last_key),
			    .want_key = c == '{',
			};
		}
		s->last_key[0] = '\0';
		return 1;
	case '}':
	case ']':
		out[0] = c;
		if (s->deep)
			s->deep--;
		else if (s->depth)
			s->depth--;
		return 1;
	default:
		out[0] = c;
		return 1;
	}
}

size_t rep_strip_feed(struct rep_strip *s, const char *in, size_t len, char *out)
{
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		char c = in[i];
		if (s->skipping && strip_skip_byte(s, c))
			continue;
		if (s->in_key) {
			o += strip_key_byte(s, c, out + o);
		} else if (s->in_string) {
			out[o++] = c;
			strip_string_byte(s, c, &s->in_string);
		} else {
			o += strip_token_byte(s, c, out + o);
		}
	}
	return o;
}
