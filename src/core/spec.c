/*
 * spec.c - target specs: parse text into a tree, print it back, read parameters.
 *
 * Design:
 *  - A hand-written recursive-descent parser walks the text with a single
 *    cursor (struct spec_parser).  Tokens are located by byte offset, so
 *    every error names an exact position together with what was expected and
 *    what was found there ("expected ')' or ',' but found end of spec").  The
 *    innermost function that detects a problem reports it; callers only
 *    unwind and free the partial tree.
 *  - The input is untrusted (it is fuzzed).  No fixed-size buffer ever holds
 *    user text: strings and arrays grow with overflow-checked realloc, and
 *    messages show bounded, escaped excerpts.  Recursion is bounded by the
 *    nesting limit (64 calls deep), and repetition - expanded by deep copies
 *    - is bounded by a budget of SPEC_MAX_ITEMS nodes plus parameters per
 *    spec, so "a(a(a(b x1024) x1024) x1024)" is a clean error instead of a
 *    billion allocations.  Control characters are rejected everywhere.
 *  - struct rl_spec_node is public and has no capacity fields, so the
 *    capacity of args[] and kv[] is implicit: the smallest power of two that
 *    is >= max(n, 4).  Parsed and copied nodes follow that rule, and a push
 *    reallocates exactly when n reaches it.
 *  - rl_spec_format prints the canonical form: positional arguments, then
 *    key=value pairs in source order, ", " between them, runs of equal
 *    positional arguments folded back into "arg xN", and quotes only where a
 *    word would not re-parse as itself.  Parsing the output yields an equal
 *    tree (the fuzzer checks exactly that).
 *  - Parameter helpers share one error shape, pointing at the value:
 *    "position P: <key>: expected <what>, got '<value>' (<reason>)", where
 *    the reason comes from the units parser with its redundant
 *    " in <kind> '<value>'" tail removed.
 */
#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/spec.h"

#define SPEC_MAX_DEPTH   64    /* nested calls */
#define SPEC_MAX_REPEAT  1024  /* largest xN */
#define SPEC_MAX_ITEMS   65536 /* nodes + parameters after expansion */
#define SPEC_EXCERPT     40    /* bytes of user text quoted in a message */
#define SPEC_EXCERPT_BUF (SPEC_EXCERPT * 4 + 16)

struct spec_parser {
	const char *text;
	size_t pos;   /* cursor: byte offset into text */
	size_t items; /* nodes + parameters created so far */
	struct rl_err *err;
};

/* A growable string; after a failed allocation it stays failed. */
struct spec_buf {
	char *data;
	size_t len;
	size_t cap;
	bool failed;
};

int rl_msg_set(char *msg, size_t msglen, const char *fmt, ...)
{
	va_list ap;

	if (msg && msglen) {
		va_start(ap, fmt);
		vsnprintf(msg, msglen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

int rl_err_set(struct rl_err *err, size_t pos, const char *fmt, ...)
{
	va_list ap;
	size_t off = 0;

	if (!err)
		return -EINVAL;
	err->pos = pos;
	err->msg[0] = '\0';
	if (pos != SIZE_MAX) {
		int n = snprintf(err->msg, sizeof err->msg, "position %zu: ", pos);

		if (n > 0)
			off = (size_t)n < sizeof err->msg ? (size_t)n : sizeof err->msg - 1;
	}
	va_start(ap, fmt);
	vsnprintf(err->msg + off, sizeof err->msg - off, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* --- small helpers --- */

static void spec_buf_add(struct spec_buf *b, const char *s, size_t n)
{
	size_t need, cap;
	char *data;

	if (b->failed)
		return;
	if (n > SIZE_MAX - 1 - b->len) {
		b->failed = true;
		return;
	}
	need = b->len + n + 1;
	if (need > b->cap) {
		cap = b->cap ? b->cap : 64;
		while (cap < need)
			cap = cap > SIZE_MAX / 2 ? need : cap * 2;
		data = realloc(b->data, cap);
		if (!data) {
			b->failed = true;
			return;
		}
		b->data = data;
		b->cap = cap;
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

static void spec_buf_puts(struct spec_buf *b, const char *s)
{
	spec_buf_add(b, s, strlen(s));
}

static void spec_buf_putc(struct spec_buf *b, char c)
{
	spec_buf_add(b, &c, 1);
}

static bool spec_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Control characters other than whitespace (NUL included). */
static bool spec_is_control(char c)
{
	unsigned char u = (unsigned char)c;

	return (u < 0x20 || u == 0x7f) && !spec_is_space(c);
}

static bool spec_is_word_char(char c)
{
	if (spec_is_space(c) || spec_is_control(c))
		return false;
	return c != '(' && c != ')' && c != ',' && c != '=' && c != '"';
}

static bool spec_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static size_t spec_word_len(const char *text, size_t pos)
{
	size_t n = 0;

	while (spec_is_word_char(text[pos + n]))
		n++;
	return n;
}

/* True if a word "x<digits>" starts at @pos (what a repetition looks like). */
static bool spec_is_repeat_word(const char *text, size_t pos)
{
	size_t i, len = spec_word_len(text, pos);

	if (len < 2 || text[pos] != 'x')
		return false;
	for (i = 1; i < len; i++) {
		if (!spec_is_digit(text[pos + i]))
			return false;
	}
	return true;
}

static const char *spec_excerpt(const char *s, size_t len, char *buf, size_t size)
{
	return rl_text_excerpt(s, len, SPEC_EXCERPT, buf, size);
}

static const char *spec_excerpt_str(const char *s, char *buf, size_t size)
{
	return spec_excerpt(s, strlen(s), buf, size);
}

/* Describes the token at @pos for "... but found <this>". */
static void spec_describe(const char *text, size_t pos, char *buf, size_t size)
{
	char c = text[pos];
	char word[SPEC_EXCERPT_BUF];

	if (c == '\0')
		snprintf(buf, size, "end of spec");
	else if (c == '"')
		snprintf(buf, size, "a quoted string");
	else if (c == '(' || c == ')' || c == ',' || c == '=')
		snprintf(buf, size, "'%c'", c);
	else if (spec_is_control(c))
		snprintf(buf, size, "control character 0x%02x", (unsigned char)c);
	else if (spec_is_space(c))
		snprintf(buf, size, "whitespace");
	else
		snprintf(buf, size, "'%s'",
		         spec_excerpt(text + pos, spec_word_len(text, pos), word, sizeof word));
}

/* "expected <what> but found <token at pos><hint>" */
static int spec_expected(struct spec_parser *p, size_t pos, const char *what, const char *hint)
{
	char found[SPEC_EXCERPT_BUF + 16];

	spec_describe(p->text, pos, found, sizeof found);
	return rl_err_set(p->err, pos, "expected %s but found %s%s", what, found, hint ? hint : "");
}

static int spec_oom(struct spec_parser *p)
{
	rl_err_set(p->err, SIZE_MAX, "out of memory while parsing the spec");
	return -ENOMEM;
}

static void spec_skip_space(struct spec_parser *p)
{
	while (spec_is_space(p->text[p->pos]))
		p->pos++;
}

static char *spec_strndup(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/* Implicit capacity of an args[] or kv[] array holding @n entries. */
static size_t spec_cap(size_t n)
{
	size_t cap = 4;

	while (cap < n)
		cap *= 2;
	return cap;
}

/* True if an array holding @n entries is full (see spec_cap). */
static bool spec_full(size_t n)
{
	return n == 0 || (n >= 4 && (n & (n - 1)) == 0);
}

static int spec_push_arg(struct rl_spec_node *node, struct rl_spec_node *child)
{
	if (spec_full(node->nargs)) {
		size_t cap = node->nargs ? node->nargs * 2 : 4;
		struct rl_spec_node **args;

		if (cap > SIZE_MAX / sizeof *args)
			return -ENOMEM;
		args = realloc(node->args, cap * sizeof *args);
		if (!args)
			return -ENOMEM;
		node->args = args;
	}
	node->args[node->nargs++] = child;
	return 0;
}

static int spec_push_kv(struct rl_spec_node *node, const struct rl_spec_kv *kv)
{
	if (spec_full(node->nkv)) {
		size_t cap = node->nkv ? node->nkv * 2 : 4;
		struct rl_spec_kv *arr;

		if (cap > SIZE_MAX / sizeof *arr)
			return -ENOMEM;
		arr = realloc(node->kv, cap * sizeof *arr);
		if (!arr)
			return -ENOMEM;
		node->kv = arr;
	}
	node->kv[node->nkv++] = *kv;
	return 0;
}

/* --- the tree --- */

void rl_spec_free(struct rl_spec_node *node)
{
	size_t i;

	if (!node)
		return;
	for (i = 0; i < node->nargs; i++)
		rl_spec_free(node->args[i]);
	free(node->args);
	for (i = 0; i < node->nkv; i++) {
		free(node->kv[i].key);
		free(node->kv[i].value);
	}
	free(node->kv);
	free(node->name);
	free(node);
}

/* Deep copy (positions and used flags included); NULL when out of memory. */
static struct rl_spec_node *spec_node_copy(const struct rl_spec_node *src)
{
	struct rl_spec_node *n = calloc(1, sizeof *n);
	size_t i;

	if (!n)
		return NULL;
	n->is_call = src->is_call;
	n->pos = src->pos;
	n->name = strdup(src->name);
	if (!n->name)
		goto fail;
	if (src->nargs > 0) {
		n->args = calloc(spec_cap(src->nargs), sizeof *n->args);
		if (!n->args)
			goto fail;
		for (i = 0; i < src->nargs; i++) {
			n->args[i] = spec_node_copy(src->args[i]);
			if (!n->args[i])
				goto fail;
			n->nargs++;
		}
	}
	if (src->nkv > 0) {
		n->kv = calloc(spec_cap(src->nkv), sizeof *n->kv);
		if (!n->kv)
			goto fail;
		for (i = 0; i < src->nkv; i++) {
			struct rl_spec_kv *kv = &n->kv[i];

			*kv = src->kv[i];
			kv->key = strdup(src->kv[i].key);
			kv->value = strdup(src->kv[i].value);
			if (!kv->key || !kv->value) {
				free(kv->key);
				free(kv->value);
				goto fail;
			}
			n->nkv++;
		}
	}
	return n;

fail:
	rl_spec_free(n);
	return NULL;
}

/* Nodes plus parameters in a subtree: what copying it costs. */
static size_t spec_weight(const struct rl_spec_node *node)
{
	size_t i, w = 1 + node->nkv;

	for (i = 0; i < node->nargs; i++)
		w += spec_weight(node->args[i]);
	return w;
}

/* Structural equality: names, kinds, arguments and parameters; not positions. */
static bool spec_node_equal(const struct rl_spec_node *a, const struct rl_spec_node *b)
{
	size_t i;

	if (a == b)
		return true;
	if (a->is_call != b->is_call || a->nargs != b->nargs || a->nkv != b->nkv ||
	    strcmp(a->name, b->name) != 0)
		return false;
	for (i = 0; i < a->nkv; i++) {
		if (strcmp(a->kv[i].key, b->kv[i].key) != 0 ||
		    strcmp(a->kv[i].value, b->kv[i].value) != 0)
			return false;
	}
	for (i = 0; i < a->nargs; i++) {
		if (!spec_node_equal(a->args[i], b->args[i]))
			return false;
	}
	return true;
}

/* --- the parser --- */

/* Charges @n items against the expansion budget. */
static int spec_charge(struct spec_parser *p, size_t n, size_t pos)
{
	if (n > SPEC_MAX_ITEMS - p->items)
		return rl_err_set(p->err, pos,
		                  "spec too large: expected at most %d nodes and parameters "
		                  "after expanding repetitions, but found more",
		                  SPEC_MAX_ITEMS);
	p->items += n;
	return 0;
}

/* New node owning @name (freed on failure). */
static int spec_node_new(struct spec_parser *p, char *name, size_t pos, struct rl_spec_node **out)
{
	struct rl_spec_node *n;
	int rc = spec_charge(p, 1, pos);

	if (rc) {
		free(name);
		return rc;
	}
	n = calloc(1, sizeof *n);
	if (!n) {
		free(name);
		return spec_oom(p);
	}
	n->name = name;
	n->pos = pos;
	*out = n;
	return 0;
}

/* A quoted string at the cursor; *out gets its unescaped contents. */
static int spec_parse_quoted(struct spec_parser *p, char **out)
{
	const char *t = p->text;
	size_t open = p->pos, i = p->pos + 1;
	struct spec_buf b = {0};
	char esc[SPEC_EXCERPT_BUF];

	for (;;) {
		char c = t[i];

		if (c == '"')
			break;
		if (c == '\0' || (c == '\\' && t[i + 1] == '\0')) {
			free(b.data);
			return rl_err_set(p->err, open,
			                  "unterminated quoted string: expected a closing '\"' "
			                  "but found end of spec");
		}
		if (c == '\\') {
			char e = t[i + 1];

			if (e != '"' && e != '\\') {
				size_t elen = 1;

				/* show the whole UTF-8 character after the backslash */
				while (elen < 4 && ((unsigned char)t[i + 1 + elen] & 0xc0) == 0x80)
					elen++;
				free(b.data);
				return rl_err_set(
				    p->err, i,
				    "unknown escape '\\%s' in quoted string: expected "
				    "\\\" or \\\\",
				    spec_excerpt(t + i + 1, elen, esc, sizeof esc));
			}
			spec_buf_putc(&b, e);
			i += 2;
			continue;
		}
		if (spec_is_control(c)) {
			free(b.data);
			return rl_err_set(p->err, i,
			                  "expected a closing '\"' but found control character "
			                  "0x%02x in quoted string",
			                  (unsigned char)c);
		}
		spec_buf_putc(&b, c);
		i++;
	}
	if (!b.failed && !b.data)
		spec_buf_add(&b, "", 0);
	if (b.failed) {
		free(b.data);
		return spec_oom(p);
	}
	p->pos = i + 1;
	*out = b.data;
	return 0;
}

static int spec_parse_args(struct spec_parser *p, struct rl_spec_node *node, unsigned depth);

/* An expression: a quoted word, a plain word, or a call. */
static int spec_parse_expr(struct spec_parser *p, unsigned depth, const char *what,
                           struct rl_spec_node **out)
{
	const char *t = p->text;
	struct rl_spec_node *n;
	size_t start, len, after;
	char *name;
	int rc;

	spec_skip_space(p);
	start = p->pos;
	if (t[start] == '"') {
		rc = spec_parse_quoted(p, &name);
		if (rc)
			return rc;
		return spec_node_new(p, name, start, out);
	}
	len = spec_word_len(t, start);
	if (len == 0)
		return spec_expected(p, start, what, NULL);
	name = spec_strndup(t + start, len);
	if (!name)
		return spec_oom(p);
	rc = spec_node_new(p, name, start, &n);
	if (rc)
		return rc;
	p->pos = after = start + len;
	spec_skip_space(p);
	if (t[p->pos] != '(') {
		/* A plain word; leave the whitespace for the repetition check. */
		p->pos = after;
		*out = n;
		return 0;
	}
	if (depth >= SPEC_MAX_DEPTH) {
		rl_spec_free(n);
		return rl_err_set(p->err, p->pos,
		                  "nesting deeper than %d levels: expected at most %d nested "
		                  "calls but found another '('",
		                  SPEC_MAX_DEPTH, SPEC_MAX_DEPTH);
	}
	n->is_call = true;
	rc = spec_parse_args(p, n, depth + 1);
	if (rc) {
		rl_spec_free(n);
		return rc;
	}
	*out = n;
	return 0;
}

/* The repetition word at the cursor ("x3"); sets *count. */
static int spec_parse_count(struct spec_parser *p, size_t *count)
{
	const char *t = p->text;
	size_t xpos = p->pos, len = spec_word_len(t, xpos), i, v = 0;
	bool ok = len >= 2;
	char word[SPEC_EXCERPT_BUF];

	for (i = 1; ok && i < len; i++) {
		if (!spec_is_digit(t[xpos + i]))
			ok = false;
		else if (v <= SPEC_MAX_REPEAT)
			v = v * 10 + (size_t)(t[xpos + i] - '0');
	}
	if (!ok || v < 1 || v > SPEC_MAX_REPEAT)
		return rl_err_set(p->err, xpos, "repetition count must be 1..%d, got %s",
		                  SPEC_MAX_REPEAT, spec_excerpt(t + xpos, len, word, sizeof word));
	p->pos = xpos + len;
	*count = v;
	return 0;
}

/* Appends @child and count - 1 deep copies of it to @node; consumes @child. */
static int spec_add_repeated(struct spec_parser *p, struct rl_spec_node *node,
                             struct rl_spec_node *child, size_t count, size_t xpos)
{
	size_t i;
	int rc;

	if (count > 1) {
		rc = spec_charge(p, spec_weight(child) * (count - 1), xpos);
		if (rc) {
			rl_spec_free(child);
			return rc;
		}
	}
	if (spec_push_arg(node, child)) {
		rl_spec_free(child);
		return spec_oom(p);
	}
	for (i = 1; i < count; i++) {
		struct rl_spec_node *copy = spec_node_copy(child);

		if (!copy)
			return spec_oom(p);
		if (spec_push_arg(node, copy)) {
			rl_spec_free(copy);
			return spec_oom(p);
		}
	}
	return 0;
}

/* key=value, with the key at [kpos, kpos + klen) and '=' at @eq. */
static int spec_parse_kv(struct spec_parser *p, struct rl_spec_node *node, size_t kpos, size_t klen,
                         size_t eq)
{
	const char *t = p->text;
	struct rl_spec_kv kv = {0};
	char key[SPEC_EXCERPT_BUF], what[SPEC_EXCERPT_BUF + 32], word[SPEC_EXCERPT_BUF];
	size_t i, vlen, after;
	int rc;

	spec_excerpt(t + kpos, klen, key, sizeof key);
	for (i = 0; i < node->nkv; i++) {
		if (strlen(node->kv[i].key) == klen && memcmp(node->kv[i].key, t + kpos, klen) == 0)
			return rl_err_set(p->err, kpos,
			                  "parameter '%s' given twice (first at position %zu)", key,
			                  node->kv[i].key_pos);
	}
	p->pos = eq + 1;
	spec_skip_space(p);
	kv.key_pos = kpos;
	kv.value_pos = p->pos;
	if (t[p->pos] == '"') {
		rc = spec_parse_quoted(p, &kv.value);
		if (rc)
			return rc;
	} else {
		vlen = spec_word_len(t, p->pos);
		if (vlen == 0) {
			snprintf(what, sizeof what, "a value for '%s'", key);
			return spec_expected(p, p->pos, what, NULL);
		}
		kv.value = spec_strndup(t + p->pos, vlen);
		if (!kv.value)
			return spec_oom(p);
		p->pos += vlen;
	}
	after = p->pos;
	spec_skip_space(p);
	if (p->pos > after && spec_is_repeat_word(t, p->pos)) {
		free(kv.value);
		return rl_err_set(
		    p->err, p->pos,
		    "repetition %s applies to positional arguments, not to parameter '%s'",
		    spec_excerpt(t + p->pos, spec_word_len(t, p->pos), word, sizeof word), key);
	}
	p->pos = after;
	rc = spec_charge(p, 1, kpos);
	if (rc) {
		free(kv.value);
		return rc;
	}
	kv.key = spec_strndup(t + kpos, klen);
	if (!kv.key || spec_push_kv(node, &kv)) {
		free(kv.key);
		free(kv.value);
		return spec_oom(p);
	}
	return 0;
}

/* One argument of a call: key=value, or an expression with optional xN. */
static int spec_parse_arg(struct spec_parser *p, struct rl_spec_node *node, unsigned depth)
{
	const char *t = p->text;
	struct rl_spec_node *child;
	size_t start, len, look, after, xpos, count = 1;
	int rc;

	spec_skip_space(p);
	start = p->pos;
	if (t[start] == '=')
		return spec_expected(p, start, "an argument",
		                     " (a parameter needs a name before '=', as in chunk=64k)");
	len = spec_word_len(t, start);
	if (len > 0) {
		look = start + len;
		while (spec_is_space(t[look]))
			look++;
		if (t[look] == '=')
			return spec_parse_kv(p, node, start, len, look);
	}
	rc = spec_parse_expr(p, depth, "an argument", &child);
	if (rc)
		return rc;
	after = p->pos;
	spec_skip_space(p);
	xpos = p->pos;
	if (p->pos > after && t[p->pos] == 'x') {
		rc = spec_parse_count(p, &count);
		if (rc) {
			rl_spec_free(child);
			return rc;
		}
	} else {
		p->pos = after;
	}
	return spec_add_repeated(p, node, child, count, xpos);
}

/* The arguments of a call, from its '(' through the matching ')'. */
static int spec_parse_args(struct spec_parser *p, struct rl_spec_node *node, unsigned depth)
{
	const char *t = p->text;
	const char *hint;
	int rc;

	p->pos++; /* '(' */
	spec_skip_space(p);
	if (t[p->pos] == ')') {
		p->pos++;
		return 0;
	}
	for (;;) {
		rc = spec_parse_arg(p, node, depth);
		if (rc)
			return rc;
		spec_skip_space(p);
		if (t[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (t[p->pos] == ')') {
			p->pos++;
			return 0;
		}
		hint = NULL;
		if (spec_is_repeat_word(t, p->pos) && !spec_is_space(t[p->pos - 1]))
			hint = " (a repetition needs a space before it, as in ssd(a) x3)";
		return spec_expected(p, p->pos, "')' or ','", hint);
	}
}

int rl_spec_parse(const char *text, struct rl_spec_node **out, struct rl_err *err)
{
	struct rl_err scratch;
	struct spec_parser p = {0};
	struct rl_spec_node *root = NULL;
	int rc;

	if (!err)
		err = &scratch;
	if (out)
		*out = NULL;
	if (!text || !out)
		return rl_err_set(err, SIZE_MAX, "no spec given");
	p.text = text;
	p.err = err;
	spec_skip_space(&p);
	if (text[p.pos] == '\0')
		return rl_err_set(err, 0, "empty spec (expected a target name, path or call)");
	rc = spec_parse_expr(&p, 0, "a target name, path or call", &root);
	if (rc)
		return rc;
	spec_skip_space(&p);
	if (text[p.pos] != '\0') {
		const char *hint = NULL;

		if (spec_is_repeat_word(text, p.pos))
			hint = " (a repetition like x3 is only allowed inside a call's arguments)";
		rc = spec_expected(&p, p.pos, "end of spec", hint);
		rl_spec_free(root);
		return rc;
	}
	*out = root;
	return 0;
}

/* --- canonical text --- */

static bool spec_needs_quotes(const char *s)
{
	if (*s == '\0')
		return true;
	for (; *s; s++) {
		if (!spec_is_word_char(*s))
			return true;
	}
	return false;
}

static void spec_format_word(struct spec_buf *b, const char *s)
{
	if (!spec_needs_quotes(s)) {
		spec_buf_puts(b, s);
		return;
	}
	spec_buf_putc(b, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			spec_buf_putc(b, '\\');
		spec_buf_putc(b, *s);
	}
	spec_buf_putc(b, '"');
}

static void spec_format_node(struct spec_buf *b, const struct rl_spec_node *node)
{
	size_t i, run;
	bool first = true;
	char count[32];

	if (!node->is_call) {
		spec_format_word(b, node->name);
		return;
	}
	spec_buf_puts(b, node->name);
	spec_buf_putc(b, '(');
	for (i = 0; i < node->nargs; i += run) {
		run = 1;
		while (i + run < node->nargs && run < SPEC_MAX_REPEAT &&
		       spec_node_equal(node->args[i], node->args[i + run]))
			run++;
		if (!first)
			spec_buf_puts(b, ", ");
		first = false;
		spec_format_node(b, node->args[i]);
		if (run > 1) {
			snprintf(count, sizeof count, " x%zu", run);
			spec_buf_puts(b, count);
		}
	}
	for (i = 0; i < node->nkv; i++) {
		if (!first)
			spec_buf_puts(b, ", ");
		first = false;
		spec_buf_puts(b, node->kv[i].key);
		spec_buf_putc(b, '=');
		spec_format_word(b, node->kv[i].value);
	}
	spec_buf_putc(b, ')');
}

char *rl_spec_format(const struct rl_spec_node *node)
{
	struct spec_buf b = {0};

	if (!node)
		return NULL;
	spec_format_node(&b, node);
	if (b.failed) {
		free(b.data);
		return NULL;
	}
	return b.data;
}

/* --- parameters --- */

struct rl_spec_kv *rl_spec_find(struct rl_spec_node *node, const char *key)
{
	size_t i;

	if (!node || !key)
		return NULL;
	for (i = 0; i < node->nkv; i++) {
		if (strcmp(node->kv[i].key, key) == 0) {
			node->kv[i].used = true;
			return &node->kv[i];
		}
	}
	return NULL;
}

/*
 * Length of @reason without the units parser's " in <kind> '<value>'" tail,
 * which would repeat what the wrapping message already shows.
 */
static size_t spec_reason_len(const char *reason, const char *kind, const char *value)
{
	size_t rl = strlen(reason), kl = strlen(kind), vl = strlen(value);
	size_t tl = kl + vl + 7; /* " in " kind " '" value "'" */
	const char *t;

	if (tl > rl)
		return rl;
	t = reason + rl - tl;
	if (memcmp(t, " in ", 4) != 0 || memcmp(t + 4, kind, kl) != 0 ||
	    memcmp(t + 4 + kl, " '", 2) != 0 || memcmp(t + 6 + kl, value, vl) != 0 ||
	    t[6 + kl + vl] != '\'')
		return rl;
	return rl - tl;
}

/* "position P: key: expected <what>, got '<value>' (<reason>)" */
static int spec_bad_value(struct rl_err *err, const struct rl_spec_kv *kv, const char *what,
                          const char *kind, const char *reason)
{
	char key[SPEC_EXCERPT_BUF], value[SPEC_EXCERPT_BUF];
	size_t n = reason ? spec_reason_len(reason, kind, kv->value) : 0;

	spec_excerpt_str(kv->key, key, sizeof key);
	spec_excerpt_str(kv->value, value, sizeof value);
	if (n == 0)
		return rl_err_set(err, kv->value_pos, "%s: expected %s, got '%s'", key, what,
		                  value);
	return rl_err_set(err, kv->value_pos, "%s: expected %s, got '%s' (%.*s)", key, what, value,
	                  (int)(n > 400 ? 400 : n), reason);
}

/*
 * A decimal number ("0.5", "-3", "1e-3") in [b, e); no hex, inf or nan.
 * Converted in the C locale, so '.' is the decimal point whatever the
 * process locale says.
 */
static bool spec_parse_double(const char *b, const char *e, double *out)
{
	const char *q;
	char *stop = NULL;
	size_t digits = 0;
	locale_t c_locale;
	double d;

	while (b < e && spec_is_space(*b))
		b++;
	while (e > b && spec_is_space(e[-1]))
		e--;
	q = b;
	if (q < e && (*q == '+' || *q == '-'))
		q++;
	for (; q < e && spec_is_digit(*q); q++)
		digits++;
	if (q < e && *q == '.') {
		for (q++; q < e && spec_is_digit(*q); q++)
			digits++;
	}
	if (digits == 0)
		return false;
	if (q < e && (*q == 'e' || *q == 'E')) {
		q++;
		if (q < e && (*q == '+' || *q == '-'))
			q++;
		if (q >= e || !spec_is_digit(*q))
			return false;
		while (q < e && spec_is_digit(*q))
			q++;
	}
	if (q != e)
		return false;
	c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (c_locale != (locale_t)0) {
		d = strtod_l(b, &stop, c_locale);
		freelocale(c_locale);
	} else {
		d = strtod(b, &stop);
	}
	if (stop != e || !isfinite(d))
		return false;
	*out = d;
	return true;
}

/*
 * A number with a unit: @parse reads it; @what is the expected form and
 * @kind its name for the message.  The size, time and rate getters.
 */
static int spec_get_unit(struct rl_spec_node *node, const char *key, uint64_t def, uint64_t *out,
                         struct rl_err *err, int (*parse)(const char *, uint64_t *, char *, size_t),
                         const char *what, const char *kind)
{
	struct rl_spec_kv *kv = rl_spec_find(node, key);
	char why[256];
	uint64_t v;

	if (!kv) {
		*out = def;
		return 0;
	}
	if (parse(kv->value, &v, why, sizeof why) < 0)
		return spec_bad_value(err, kv, what, kind, why);
	*out = v;
	return 0;
}

int rl_spec_get_size(struct rl_spec_node *node, const char *key, uint64_t def, uint64_t *out,
                     struct rl_err *err)
{
	return spec_get_unit(node, key, def, out, err, rl_parse_size, "a size like 64k or 1MB",
	                     "size");
}

int rl_spec_get_u64(struct rl_spec_node *node, const char *key, uint64_t def, uint64_t min,
                    uint64_t max, uint64_t *out, struct rl_err *err)
{
	struct rl_spec_kv *kv = rl_spec_find(node, key);
	char why[256], what[96];
	uint64_t v;

	if (!kv) {
		*out = def;
		return 0;
	}
	snprintf(what, sizeof what, "a whole number from %" PRIu64 " to %" PRIu64, min, max);
	if (rl_parse_u64(kv->value, &v, why, sizeof why) < 0)
		return spec_bad_value(err, kv, what, "integer", why);
	if (v < min || v > max)
		return spec_bad_value(err, kv, what, "integer", NULL);
	*out = v;
	return 0;
}

int rl_spec_get_double(struct rl_spec_node *node, const char *key, double def, double min,
                       double max, double *out, struct rl_err *err)
{
	struct rl_spec_kv *kv = rl_spec_find(node, key);
	char what[96];
	double v;

	if (!kv) {
		*out = def;
		return 0;
	}
	snprintf(what, sizeof what, "a number from %g to %g", min, max);
	if (!spec_parse_double(kv->value, kv->value + strlen(kv->value), &v) || v < min || v > max)
		return spec_bad_value(err, kv, what, "number", NULL);
	*out = v;
	return 0;
}

int rl_spec_get_percent(struct rl_spec_node *node, const char *key, double def, double min,
                        double max, double *out, struct rl_err *err)
{
	struct rl_spec_kv *kv = rl_spec_find(node, key);
	const char *b, *e;
	char what[96];
	double v;

	if (!kv) {
		*out = def;
		return 0;
	}
	snprintf(what, sizeof what, "a percentage from %g%% to %g%%", min, max);
	b = kv->value;
	e = b + strlen(b);
	while (e > b && spec_is_space(e[-1]))
		e--;
	if (e > b && e[-1] == '%')
		e--;
	if (!spec_parse_double(b, e, &v) || v < min || v > max)
		return spec_bad_value(err, kv, what, "percentage", NULL);
	*out = v;
	return 0;
}

int rl_spec_get_time(struct rl_spec_node *node, const char *key, uint64_t def, uint64_t *out,
                     struct rl_err *err)
{
	return spec_get_unit(node, key, def, out, err, rl_parse_time, "a duration like 500us or 2s",
	                     "duration");
}

int rl_spec_get_rate(struct rl_spec_node *node, const char *key, uint64_t def, uint64_t *out,
                     struct rl_err *err)
{
	return spec_get_unit(node, key, def, out, err, rl_parse_rate,
	                     "a rate like 550MB/s or 3.9GB/s", "rate");
}

int rl_spec_get_bool(struct rl_spec_node *node, const char *key, bool def, bool *out,
                     struct rl_err *err)
{
	struct rl_spec_kv *kv = rl_spec_find(node, key);
	bool v;

	if (!kv) {
		*out = def;
		return 0;
	}
	if (rl_parse_bool(kv->value, &v, NULL, 0) < 0)
		return spec_bad_value(err, kv, "on/off, yes/no, true/false or 1/0", "boolean",
		                      NULL);
	*out = v;
	return 0;
}

/* "a, b, c" from a NULL-terminated list, or @none when it is empty. */
static void spec_join(struct spec_buf *b, const char *const *list, const char *none)
{
	size_t i;

	if (!list || !list[0]) {
		spec_buf_puts(b, none);
		return;
	}
	for (i = 0; list[i]; i++) {
		if (i > 0)
			spec_buf_puts(b, ", ");
		spec_buf_puts(b, list[i]);
	}
}

int rl_spec_get_enum(struct rl_spec_node *node, const char *key, const char *const *choices,
                     int def, int *out, struct rl_err *err)
{
	struct rl_spec_kv *kv = rl_spec_find(node, key);
	struct spec_buf list = {0};
	int i, rc;

	if (!kv) {
		*out = def;
		return 0;
	}
	for (i = 0; choices && choices[i]; i++) {
		if (strcmp(choices[i], kv->value) == 0) {
			*out = i;
			return 0;
		}
	}
	spec_buf_puts(&list, "one of ");
	spec_join(&list, choices, "(no choices)");
	rc =
	    spec_bad_value(err, kv, list.failed ? "one of the choices" : list.data, "choice", NULL);
	free(list.data);
	return rc;
}

int rl_spec_get_str(struct rl_spec_node *node, const char *key, const char *def, const char **out,
                    struct rl_err *err)
{
	struct rl_spec_kv *kv = rl_spec_find(node, key);

	(void)err;
	*out = kv ? kv->value : def;
	return 0;
}

int rl_spec_check_unused(const struct rl_spec_node *node, const char *const *known,
                         struct rl_err *err)
{
	char name[SPEC_EXCERPT_BUF], key[SPEC_EXCERPT_BUF];
	struct spec_buf list = {0};
	size_t i;
	int rc;

	if (!node)
		return 0;
	for (i = 0; i < node->nkv; i++) {
		if (node->kv[i].used)
			continue;
		spec_excerpt_str(node->name, name, sizeof name);
		spec_excerpt_str(node->kv[i].key, key, sizeof key);
		spec_join(&list, known, "none");
		rc = rl_err_set(err, node->kv[i].key_pos, "%s has no parameter '%s' (known: %s)",
		                name, key, list.failed ? "?" : list.data);
		free(list.data);
		return rc;
	}
	return 0;
}
