/*
 * JSON text <-> document tree (RFC 8259).
 *
 * A stream may hold several whitespace-separated values (as kubectl's
 * YAMLOrJSONDecoder reads them); each is one document. Numbers keep their
 * text. Strings must be valid UTF-8 and may not contain NUL (escaped or
 * not), because the object model uses C strings. Unpaired surrogate escapes
 * become U+FFFD, as Go's encoding/json does. Nesting depth and node count
 * are bounded by the budget.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include "tree.h"

/*
 * The parser reads from a window [win, end) of the input. For an input in
 * memory the window is the whole input (eof is set from the start). For an
 * input read through a kp__reader (kp__json_read_each) the window is a
 * buffer refilled as the parse goes: the parse is cut into units (a
 * document that is not an object, one member of a top-level object, one
 * item of a streamed List, each with the separator after it) and a unit
 * that runs into the end of the window before the input's end is rewound
 * and parsed again after a refill, which keeps the unit's bytes and reads
 * more (growing the window when a unit does not fit). Only what a unit
 * made is undone (its nodes are in an arena that is reset, or are left
 * unreachable in the document's arena; the budget counts are restored), and
 * nothing reaches the sink before its unit is complete, so a document reads
 * the same whatever the window's size.
 */
#define J_MORE (-1000) /* the window ends inside the unit; never returned to callers */

typedef struct jparser {
	const char *p;
	const char *end;
	uint32_t line;
	kp__budget *b;
	kp_error *err;
	int over;
	kp__buf scratch; /* a string with escapes, before it goes to the arena */
	/* the window: the input from offset `base` is in [win, end) */
	const char *win;
	uint64_t base;
	int eof;          /* nothing beyond end */
	kp__reader *rd;   /* NULL: the whole input is in the window */
	char *own;        /* the window's buffer (reader only) */
	size_t cap;
	/* kp__json_parse_each only: */
	const kp__doc_sink *sink;
	kp__tree_arena *item_arena; /* one List item at a time */
	size_t doc_index;
	uint64_t doc_start;  /* input offset of the document, for the live-node limit */
	int items_streamed;  /* the document's "items" went to the sink */
	int sink_rc;         /* the sink's first error; the sink is not called after it */
	kp_error sink_err;   /* and its message */
} jparser;

static uint64_t jpos(const jparser *j)
{
	return j->base + (uint64_t)(j->p - j->win);
}

static int jerr(jparser *j, const char *what)
{
	if (j->over == KP__OVER_LIVE)
		return kp__error(j->err, KP_ERANGE, NULL,
				 "line %u: document %zu holds more than %zu values at once (at most %zu "
				 "plus one for every %u bytes of it)",
				 (unsigned)j->line, j->doc_index + 1, j->b->max_live, KP__LIVE_BASE,
				 KP__LIVE_BYTES);
	if (j->over)
		return kp__error(j->err, KP_ERANGE, NULL,
				 "line %u: the input has more than %zu nodes", (unsigned)j->line,
				 j->b->max_nodes);
	if (j->p >= j->end) {
		if (!j->eof)
			return J_MORE;
		return kp__error(j->err, KP_EPARSE, NULL, "line %u: unexpected end of JSON input (%s)",
				 (unsigned)j->line, what);
	}
	unsigned char c = (unsigned char)*j->p;
	if (c >= 0x20 && c < 0x7f)
		return kp__error(j->err, KP_EPARSE, NULL, "line %u: invalid character '%c' %s",
				 (unsigned)j->line, c, what);
	return kp__error(j->err, KP_EPARSE, NULL, "line %u: invalid byte 0x%02x %s",
			 (unsigned)j->line, c, what);
}

/* The window ends before @p need more bytes that the input may still have:
 * the unit must be read again with more of them. */
static int short_window(const jparser *j, size_t need)
{
	return !j->eof && (size_t)(j->end - j->p) < need;
}

/* ---- reading more ---- */

size_t kp__json_window = (size_t)1 << 20;

/*
 * Keep the input from @p keep on (moved to the window's start), then read
 * until the window is full or the input ends (eof set). The window doubles
 * when what is kept fills half of it, so a unit of any size fits after
 * enough refills and bytes are moved O(1) times each on average.
 */
static int refill(jparser *j, const char *keep)
{
	size_t drop = (size_t)(keep - j->win);
	size_t have = (size_t)(j->end - keep);
	size_t at = (size_t)(j->p - keep);
	if (have > j->cap / 2 || !j->own) {
		size_t ncap = j->cap ? j->cap : (kp__json_window > 1 ? kp__json_window : 2);
		while (have > ncap / 2) {
			if (ncap > SIZE_MAX / 2)
				return kp__error(j->err, KP_ENOMEM, NULL, "out of memory");
			ncap *= 2;
		}
		if (ncap != j->cap || !j->own) {
			char *nb = kp__malloc(ncap);
			if (!nb)
				return kp__error(j->err, KP_ENOMEM, NULL, "out of memory");
			if (have)
				memcpy(nb, keep, have);
			kp__free(j->own);
			j->own = nb;
			j->cap = ncap;
		} else {
			memmove(j->own, keep, have);
		}
	} else if (drop) {
		memmove(j->own, keep, have);
	}
	j->base += drop;
	j->win = j->own;
	j->p = j->own + at;
	j->end = j->own + have;
	while (!j->eof && have < j->cap) {
		size_t got = 0;
		int rc = kp__reader_read(j->rd, j->own + have, j->cap - have, &got, j->err);
		if (rc)
			return rc;
		if (!got) {
			j->eof = 1;
			break;
		}
		have += got;
		j->end = j->own + have;
		/* JSON makes at most one node per byte: the node limit grows
		 * with the input as kp__json_parse's does (see there). */
		j->b->max_nodes = j->b->max_nodes > SIZE_MAX - got ? SIZE_MAX : j->b->max_nodes + got;
	}
	return KP_OK;
}

/* A unit's start: where to rewind to, and the counts to restore. */
typedef struct junit {
	uint64_t at;
	uint32_t line;
	size_t nodes, text, live;
} junit;

static void unit_begin(const jparser *j, junit *u)
{
	u->at = jpos(j);
	u->line = j->line;
	u->nodes = j->b->nodes;
	u->text = j->b->text;
	u->live = j->b->live;
}

/* After J_MORE: rewind to the unit's start and read more. */
static int unit_again(jparser *j, const junit *u)
{
	j->p = j->win + (size_t)(u->at - j->base);
	j->line = u->line;
	j->b->nodes = u->nodes;
	j->b->text = u->text;
	j->b->live = u->live;
	j->over = 0;
	return refill(j, j->p);
}

static void skip_ws(jparser *j)
{
	/* indentation first, eight spaces at a time (kubectl indents by
	 * four per level) */
	while (j->end - j->p >= 8) {
		uint64_t w;
		memcpy(&w, j->p, 8);
		if (w != 0x2020202020202020ull)
			break;
		j->p += 8;
	}
	while (j->p < j->end) {
		char c = *j->p;
		if (c == '\n')
			j->line++;
		else if (c != ' ' && c != '\t' && c != '\r')
			return;
		j->p++;
	}
}

/* Whitespace outside any unit: what has been skipped is not kept. */
static int skip_ws_more(jparser *j)
{
	for (;;) {
		skip_ws(j);
		if (j->p < j->end || j->eof)
			return KP_OK;
		int rc = refill(j, j->p);
		if (rc)
			return rc;
	}
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int read_hex4(const char *p, const char *end, uint32_t *out)
{
	if (end - p < 4)
		return 0;
	uint32_t v = 0;
	for (int i = 0; i < 4; i++) {
		int h = hexval(p[i]);
		if (h < 0)
			return 0;
		v = (v << 4) | (uint32_t)h;
	}
	*out = v;
	return 1;
}

static void put_utf8(kp__buf *b, uint32_t cp)
{
	char s[4];
	size_t n;
	if (cp < 0x80) {
		s[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		s[0] = (char)(0xC0 | (cp >> 6));
		s[1] = (char)(0x80 | (cp & 0x3F));
		n = 2;
	} else if (cp < 0x10000) {
		s[0] = (char)(0xE0 | (cp >> 12));
		s[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		s[2] = (char)(0x80 | (cp & 0x3F));
		n = 3;
	} else {
		s[0] = (char)(0xF0 | (cp >> 18));
		s[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		s[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		s[3] = (char)(0x80 | (cp & 0x3F));
		n = 4;
	}
	kp__buf_put(b, s, n);
}

/* A \u escape at j->p (after the 'u'), with its low surrogate if any. */
static int read_u_escape(jparser *j, uint32_t *out)
{
	uint32_t cp;
	if (short_window(j, 4))
		return J_MORE;
	if (!read_hex4(j->p, j->end, &cp))
		return jerr(j, "in \\u hexadecimal character escape");
	j->p += 4;
	if (cp >= 0xD800 && cp < 0xDC00) {
		uint32_t lo;
		if (short_window(j, 6))
			return J_MORE; /* the low half may follow */
		if (j->end - j->p >= 6 && j->p[0] == '\\' && j->p[1] == 'u' &&
		    read_hex4(j->p + 2, j->end, &lo) && lo >= 0xDC00 && lo < 0xE000) {
			j->p += 6;
			cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
		} else {
			cp = 0xFFFD;
		}
	} else if (cp >= 0xDC00 && cp < 0xE000) {
		cp = 0xFFFD;
	}
	if (cp == 0)
		return kp__error(j->err, KP_EPARSE, NULL,
				 "line %u: NUL character (\\u0000) in string is not supported",
				 (unsigned)j->line);
	*out = cp;
	return KP_OK;
}

/* Parse a string literal at j->p (the opening quote) into the parse's
 * arena; out NULL: check it and keep nothing. A string without escapes
 * (nearly all of them) is copied once, straight from the input; one with
 * escapes is built in the scratch buffer first. */
static int parse_string(jparser *j, char **out, size_t *out_len)
{
	kp__buf *b = &j->scratch;
	b->len = 0;
	int escaped = 0;
	unsigned char high = 0; /* any byte >= 0x80: UTF-8 to check */
	j->p++; /* opening quote */
	const char *start = j->p, *run = j->p;
	for (;;) {
		/* the common case: a run of ordinary bytes */
		while (j->p < j->end) {
			unsigned char c = (unsigned char)*j->p;
			if (c == '"' || c == '\\' || c < 0x20)
				break;
			high |= c;
			j->p++;
		}
		if (j->p >= j->end)
			return jerr(j, "in string literal");
		unsigned char c = (unsigned char)*j->p;
		if (c == '"' && !escaped) {
			j->p++;
			break;
		}
		escaped = 1;
		kp__buf_put(b, run, (size_t)(j->p - run));
		if (c == '"') {
			j->p++;
			break;
		}
		if (c < 0x20)
			return jerr(j, "in string literal");
		/* escape */
		j->p++;
		if (j->p >= j->end)
			return jerr(j, "in string escape code");
		char e = *j->p++;
		switch (e) {
		case '"': kp__buf_putc(b, '"'); break;
		case '\\': kp__buf_putc(b, '\\'); break;
		case '/': kp__buf_putc(b, '/'); break;
		case 'b': kp__buf_putc(b, '\b'); break;
		case 'f': kp__buf_putc(b, '\f'); break;
		case 'n': kp__buf_putc(b, '\n'); break;
		case 'r': kp__buf_putc(b, '\r'); break;
		case 't': kp__buf_putc(b, '\t'); break;
		case 'u': {
			uint32_t cp = 0;
			int rc = read_u_escape(j, &cp);
			if (rc)
				return rc;
			put_utf8(b, cp);
			break;
		}
		default:
			j->p--;
			return jerr(j, "in string escape code");
		}
		run = j->p;
	}
	const char *text = escaped ? b->data : start;
	size_t len = escaped ? b->len : (size_t)(j->p - 1 - start);
	if (escaped && b->failed)
		return kp__error(j->err, KP_ENOMEM, NULL, "out of memory");
	/* ASCII without control bytes (they end the loop above) is valid
	 * as it is; escapes may have produced multi-byte characters. */
	if ((escaped || (high & 0x80)) && !kp__utf8_valid(text ? text : "", len))
		return kp__error(j->err, KP_EPARSE, NULL, "line %u: invalid UTF-8 in string",
				 (unsigned)j->line);
	if (!out)
		return KP_OK;
	char *s = kp__node_strndup(j->b, text ? text : "", len);
	if (!s)
		return kp__error(j->err, KP_ENOMEM, NULL, "out of memory");
	*out = s;
	*out_len = len;
	return KP_OK;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The live-node limit grows with the document read so far. */
static void live_limit(jparser *j)
{
	if (j->sink)
		j->b->max_live = KP__LIVE_BASE + (size_t)((jpos(j) - j->doc_start) / KP__LIVE_BYTES);
}

static int new_node(jparser *j, uint32_t type, kp__node **out)
{
	live_limit(j);
	*out = kp__node_new(j->b, type, j->line, &j->over);
	if (*out)
		return KP_OK;
	if (j->over)
		return jerr(j, "");
	return kp__error(j->err, KP_ENOMEM, NULL, "out of memory");
}

/* out NULL: check the number and keep nothing. */
static int parse_number(jparser *j, kp__node **out)
{
	const char *s = j->p;
	const char *p = s;
	if (p < j->end && *p == '-')
		p++;
	if (p >= j->end || !is_digit(*p)) {
		j->p = p;
		return jerr(j, "in numeric literal");
	}
	if (*p == '0')
		p++;
	else
		while (p < j->end && is_digit(*p))
			p++;
	if (p < j->end && *p == '.') {
		p++;
		if (p >= j->end || !is_digit(*p)) {
			j->p = p;
			return jerr(j, "after decimal point in numeric literal");
		}
		while (p < j->end && is_digit(*p))
			p++;
	}
	if (p < j->end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < j->end && (*p == '+' || *p == '-'))
			p++;
		if (p >= j->end || !is_digit(*p)) {
			j->p = p;
			return jerr(j, "in exponent of numeric literal");
		}
		while (p < j->end && is_digit(*p))
			p++;
	}
	if (p >= j->end && !j->eof)
		return J_MORE; /* more digits may follow */
	if (!out) {
		j->p = p;
		return KP_OK;
	}
	int rc = new_node(j, KP__N_NUMBER, out);
	if (rc)
		return rc;
	(*out)->text = kp__node_strndup(j->b, s, (size_t)(p - s));
	if (!(*out)->text) {
		*out = NULL;
		return kp__error(j->err, KP_ENOMEM, NULL, "out of memory");
	}
	(*out)->len = (size_t)(p - s);
	j->p = p;
	return KP_OK;
}

/* 1: the word was there (and is consumed); 0: it was not; J_MORE. */
static int match_word(jparser *j, const char *w)
{
	size_t n = strlen(w);
	size_t have = (size_t)(j->end - j->p);
	if (have < n) {
		if (!j->eof && memcmp(j->p, w, have) == 0)
			return J_MORE;
		return 0;
	}
	if (memcmp(j->p, w, n) != 0)
		return 0;
	j->p += n;
	return 1;
}

static int parse_value(jparser *j, kp__node **out, uint32_t depth, const void *scope, int root);

/*
 * Members an object keeps (kp__doc_sink.root_scope/member_scope): a root
 * object (a document, a List item) asks for its scope once its
 * "apiVersion" and "kind" are known; a member the scope does not read is
 * checked and dropped, leaving a null in its place (so that a repeated key
 * is still seen as one).
 */
typedef struct jroot {
	const kp__node *api, *kind;
	int asked;
} jroot;

static void root_seen(jparser *j, jroot *r, const char *key, const kp__node *v, const void **scope)
{
	if (r->asked || !v || v->type != KP__N_STRING)
		return;
	if (strcmp(key, "apiVersion") == 0)
		r->api = v;
	else if (strcmp(key, "kind") == 0)
		r->kind = v;
	if (r->api && r->kind) {
		r->asked = 1;
		*scope = j->sink->root_scope(j->sink->ctx, r->api->text, r->kind->text);
	}
}

/* The value of member @p key of an object with @p scope: parsed into
 * *child (NULL when out is NULL or the scope drops it, then a null stands
 * in for it). */
static int parse_member(jparser *j, kp__node *obj, char *key, uint32_t depth, const void *scope,
			kp__node **child)
{
	const void *cscope = NULL;
	int skip = 0;
	if (scope && obj)
		cscope = j->sink->member_scope(j->sink->ctx, scope, key, &skip);
	*child = NULL;
	int rc = parse_value(j, (obj && !skip) ? child : NULL, depth + 1, cscope, 0);
	if (rc || !obj || !skip)
		return rc;
	return new_node(j, KP__N_NULL, child);
}

/* An object or array at j->p; out NULL: check it and keep nothing. */
static int parse_container(jparser *j, kp__node **out, uint32_t depth, int object,
			   const void *scope, int root)
{
	if (depth >= j->b->max_depth)
		return kp__error(j->err, KP_ERANGE, NULL,
				 "line %u: document nests deeper than %u levels", (unsigned)j->line,
				 (unsigned)j->b->max_depth);
	kp__node *n = NULL;
	if (out) {
		int rc = new_node(j, object ? KP__N_OBJECT : KP__N_ARRAY, &n);
		if (rc)
			return rc;
	}
	jroot r = { NULL, NULL, !(root && out && j->sink && j->sink->root_scope) };
	int rc;
	j->p++; /* [ or { */
	skip_ws(j);
	char close = object ? '}' : ']';
	if (j->p < j->end && *j->p == close) {
		j->p++;
		goto done;
	}
	for (;;) {
		char *key = NULL;
		size_t klen;
		if (object) {
			skip_ws(j);
			if (j->p >= j->end || *j->p != '"') {
				rc = jerr(j, "looking for beginning of object key string");
				goto fail;
			}
			rc = parse_string(j, n ? &key : NULL, &klen);
			if (rc)
				goto fail;
			skip_ws(j);
			if (j->p >= j->end || *j->p != ':') {
				rc = jerr(j, "after object key");
				goto fail;
			}
			j->p++;
		}
		kp__node *child = NULL;
		if (object)
			rc = parse_member(j, n, key, depth, scope, &child);
		else
			rc = parse_value(j, n ? &child : NULL, depth + 1, scope, 0);
		if (rc)
			goto fail;
		if (n) {
			rc = object ? kp__node_add(n, key, child) : kp__node_append(n, child);
			if (rc) {
				rc = kp__error(j->err, KP_ENOMEM, NULL, "out of memory");
				goto fail;
			}
			if (object && !r.asked)
				root_seen(j, &r, key, child, &scope);
		}
		skip_ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == close) {
			j->p++;
			break;
		}
		rc = jerr(j, object ? "after object key:value pair" : "after array element");
		goto fail;
	}
done:
	if (out)
		*out = n;
	return KP_OK;
fail:
	/* nodes live in the parse's arena: nothing to free one by one */
	return rc;
}

static int parse_value(jparser *j, kp__node **out, uint32_t depth, const void *scope, int root)
{
	skip_ws(j);
	if (j->p >= j->end)
		return jerr(j, "looking for beginning of value");
	char c = *j->p;
	int rc;
	switch (c) {
	case '{':
		return parse_container(j, out, depth, 1, scope, root);
	case '[':
		return parse_container(j, out, depth, 0, scope, 0);
	case '"': {
		char *s;
		size_t len;
		uint32_t line = j->line;
		rc = parse_string(j, out ? &s : NULL, &len);
		if (rc || !out)
			return rc;
		live_limit(j);
		*out = kp__node_new(j->b, KP__N_STRING, line, &j->over);
		if (!*out) {
			return j->over ? jerr(j, "") : kp__error(j->err, KP_ENOMEM, NULL, "out of memory");
		}
		(*out)->text = s;
		(*out)->len = len;
		return KP_OK;
	}
	case 't':
	case 'f':
		rc = match_word(j, c == 't' ? "true" : "false");
		if (rc == 1) {
			if (!out)
				return KP_OK;
			rc = new_node(j, KP__N_BOOL, out);
			if (rc == KP_OK)
				(*out)->boolean = c == 't';
			return rc;
		}
		return rc ? rc : jerr(j, "in literal");
	case 'n':
		rc = match_word(j, "null");
		if (rc == 1)
			return out ? new_node(j, KP__N_NULL, out) : KP_OK;
		return rc ? rc : jerr(j, "in literal null (expecting 'u')");
	default:
		if (c == '-' || is_digit(c))
			return parse_number(j, out);
		return jerr(j, "looking for beginning of value");
	}
}

/* A parser over an input in memory: the window is all of it. The node
 * budget bounds what an input creates beyond its own size (YAML's alias
 * expansion, see yaml.c): JSON has no aliases and cannot create more nodes
 * than it has bytes, so a List of any number of objects within the input
 * limit reads. */
static void memory_input(jparser *j, kp__budget *b, const char *data, size_t len)
{
	b->max_nodes = b->max_nodes > SIZE_MAX - len ? SIZE_MAX : b->max_nodes + len;
	memset(j, 0, sizeof(*j));
	j->p = j->win = data;
	j->end = data + len;
	j->eof = 1;
}

int kp__json_parse(kp__node **docs, const char *data, size_t len, kp__budget *b, kp_error *err)
{
	jparser j;
	memory_input(&j, b, data, len);
	j.line = 1;
	j.b = b;
	j.err = err;
	/* Every node, text and key of the parse lives in the root's arena
	 * (strings are only ever read from the tree, then copied into the
	 * decoded structs). */
	kp__node *list = kp__node_new_root(b);
	if (!list)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	/* A UTF-8 byte order mark is allowed before the first value. */
	if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
		j.p += 3;
	for (;;) {
		skip_ws(&j);
		if (j.p >= j.end)
			break;
		kp__node *doc = NULL;
		int rc = parse_value(&j, &doc, 0, NULL, 0);
		if (rc == KP_OK && kp__node_append(list, doc) != KP_OK)
			rc = kp__error(err, KP_ENOMEM, NULL, "out of memory");
		if (rc) {
			kp__buf_dispose(&j.scratch);
			kp__node_free(list);
			b->arena = NULL; /* freed with the root */
			return rc;
		}
	}
	kp__buf_dispose(&j.scratch);
	/* the nodes carry their arena; the budget must not outlive it */
	b->arena = NULL;
	*docs = list;
	return KP_OK;
}

/* ---- streaming (kp__json_parse_each, kp__json_read_each) ---- */

static void sink_failed(jparser *j, int rc)
{
	j->sink_rc = rc;
	if (j->err)
		j->sink_err = *j->err;
}

/*
 * Run @p step as one unit (see the top of this section): after a refill
 * while the window ends inside it, with @p arena (may be NULL), where its
 * nodes went, reset first.
 */
static int unit_run(jparser *j, int (*step)(jparser *j, void *arg), void *arg,
		    kp__tree_arena *arena)
{
	junit u;
	unit_begin(j, &u);
	for (;;) {
		int rc = step(j, arg);
		if (rc != J_MORE)
			return rc;
		if (arena)
			kp__tree_arena_reset(arena);
		if ((rc = unit_again(j, &u)) != KP_OK)
			return rc;
	}
}

/* After a value inside a unit: the separator that ends it, a comma or
 * @p close (then *closed is set). */
static int separator(jparser *j, char close, const char *what, int *closed)
{
	skip_ws(j);
	if (j->p < j->end && (*j->p == ',' || *j->p == close)) {
		*closed = *j->p == close;
		j->p++;
		return KP_OK;
	}
	return jerr(j, what);
}

/* The units: each parses what its struct names, then what ends it. */
typedef struct item_unit {
	kp__node *item;
	uint32_t depth;
	int closed;
} item_unit;

static int item_step(jparser *j, void *arg)
{
	item_unit *u = arg;
	kp__tree_arena *doc_arena = j->b->arena;
	j->b->arena = j->item_arena;
	int rc = parse_value(j, &u->item, u->depth, NULL, 1);
	j->b->arena = doc_arena;
	return rc ? rc : separator(j, ']', "after array element", &u->closed);
}

typedef struct member_unit {
	kp__node *obj;
	char *key; /* key_step: read; member_step: given */
	const void *scope;
	kp__node *child;
	int closed;
} member_unit;

/* A top-level member's key, its colon and the first byte of its value. */
static int key_step(jparser *j, void *arg)
{
	member_unit *u = arg;
	size_t klen;
	skip_ws(j);
	if (j->p >= j->end || *j->p != '"')
		return jerr(j, "looking for beginning of object key string");
	int rc = parse_string(j, &u->key, &klen);
	if (rc)
		return rc;
	skip_ws(j);
	if (j->p >= j->end || *j->p != ':')
		return jerr(j, "after object key");
	j->p++;
	skip_ws(j);
	return j->p < j->end ? KP_OK : jerr(j, "looking for beginning of value");
}

static int member_step(jparser *j, void *arg)
{
	member_unit *u = arg;
	int rc = parse_member(j, u->obj, u->key, 0, u->scope, &u->child);
	return rc ? rc : separator(j, '}', "after object key:value pair", &u->closed);
}

static int end_of_member_step(jparser *j, void *arg)
{
	member_unit *u = arg;
	return separator(j, '}', "after object key:value pair", &u->closed);
}

typedef struct doc_unit {
	kp__node *doc;
} doc_unit;

static int doc_step(jparser *j, void *arg)
{
	doc_unit *u = arg;
	return parse_value(j, &u->doc, 0, NULL, 0);
}

/*
 * The "items" array of a top-level object (j->p at '['): each element is
 * parsed into the item arena, handed to the sink with the List's meaning
 * (see kp__doc_sink), and released. The array itself stays, empty, in the
 * document.
 */
static int parse_items_streamed(jparser *j, uint32_t depth)
{
	if (depth >= j->b->max_depth)
		return kp__error(j->err, KP_ERANGE, NULL,
				 "line %u: document nests deeper than %u levels", (unsigned)j->line,
				 (unsigned)j->b->max_depth);
	if (j->sink_rc == KP_OK && j->sink->items_begin) {
		int src = j->sink->items_begin(j->sink->ctx, j->doc_index);
		if (src)
			sink_failed(j, src);
		if (src == KP_ENOMEM)
			return src;
	}
	j->items_streamed = 1;
	j->p++; /* [ */
	int rc = skip_ws_more(j);
	if (rc)
		return rc;
	if (j->p < j->end && *j->p == ']') {
		j->p++;
		return KP_OK;
	}
	for (size_t i = 0;; i++) {
		item_unit u = { NULL, depth + 1, 0 };
		size_t live = j->b->live;
		rc = unit_run(j, item_step, &u, j->item_arena);
		if (rc == KP_OK && j->sink_rc == KP_OK) {
			int src = j->sink->item(j->sink->ctx, j->doc_index, i, u.item);
			if (src)
				sink_failed(j, src);
			if (src == KP_ENOMEM)
				rc = src;
		}
		kp__tree_arena_reset(j->item_arena);
		j->b->live = live;
		if (rc || u.closed)
			return rc;
	}
}

/*
 * A top-level object, member by member. Its "items" array is streamed
 * when the sink takes items and the object's kind is not known to be
 * anything but a List by then: kubectl writes "items" before "kind", so
 * whether the document is a List is known at its end, where the sink sorts
 * it out (kp__doc_sink).
 */
static int parse_top_object(jparser *j, kp__node **out)
{
	kp__node *n;
	int rc = new_node(j, KP__N_OBJECT, &n);
	if (rc)
		return rc;
	const void *scope = NULL;
	jroot r = { NULL, NULL, !(j->sink && j->sink->root_scope) };
	j->p++; /* { */
	if ((rc = skip_ws_more(j)) != KP_OK)
		return rc;
	if (j->p < j->end && *j->p == '}') {
		j->p++;
		*out = n;
		return KP_OK;
	}
	for (int closed = 0; !closed;) {
		member_unit u = { n, NULL, scope, NULL, 0 };
		if ((rc = unit_run(j, key_step, &u, NULL)) != KP_OK)
			return rc;
		if (j->sink->item && !scope && *j->p == '[' && strcmp(u.key, "items") == 0) {
			rc = parse_items_streamed(j, 1);
			if (rc == KP_OK)
				rc = new_node(j, KP__N_ARRAY, &u.child);
			if (rc == KP_OK)
				rc = unit_run(j, end_of_member_step, &u, NULL);
		} else {
			rc = unit_run(j, member_step, &u, NULL);
		}
		if (rc)
			return rc;
		if (kp__node_add(n, u.key, u.child) != KP_OK)
			return kp__error(j->err, KP_ENOMEM, NULL, "out of memory");
		if (!r.asked)
			root_seen(j, &r, u.key, u.child, &scope);
		closed = u.closed;
		if (!closed && (rc = skip_ws_more(j)) != KP_OK)
			return rc;
	}
	*out = n;
	return KP_OK;
}

static int parse_each_value(jparser *j)
{
	doc_unit u = { NULL };
	int rc;
	j->items_streamed = 0;
	if (*j->p == '{')
		rc = parse_top_object(j, &u.doc);
	else
		rc = unit_run(j, doc_step, &u, j->b->arena);
	if (rc)
		return rc;
	if (j->sink_rc == KP_OK) {
		int src = j->sink->doc(j->sink->ctx, j->doc_index, u.doc, j->items_streamed);
		if (src)
			sink_failed(j, src);
		if (src == KP_ENOMEM)
			return src;
	}
	return KP_OK;
}

static int parse_each(jparser *j, kp__budget *b, const kp__doc_sink *sink, kp_error *err)
{
	j->line = 1;
	j->b = b;
	j->err = err;
	j->sink = sink;
	kp__tree_arena *doc_arena = kp__tree_arena_new();
	j->item_arena = kp__tree_arena_new();
	int rc = KP_OK;
	if (!doc_arena || !j->item_arena) {
		rc = kp__error(err, KP_ENOMEM, NULL, "out of memory");
		goto out;
	}
	/* A UTF-8 byte order mark is allowed before the first value. */
	while (short_window(j, 3))
		if ((rc = refill(j, j->p)) != KP_OK)
			goto out;
	if (j->end - j->p >= 3 && memcmp(j->p, "\xEF\xBB\xBF", 3) == 0)
		j->p += 3;
	for (;;) {
		if ((rc = skip_ws_more(j)) != KP_OK)
			break;
		if (j->p >= j->end)
			break;
		b->arena = doc_arena;
		b->live = 0;
		j->doc_start = jpos(j);
		rc = parse_each_value(j);
		kp__tree_arena_reset(doc_arena);
		if (rc)
			break;
		j->doc_index++;
	}
out:
	b->arena = NULL;
	b->live = b->max_live = 0;
	kp__buf_dispose(&j->scratch);
	kp__tree_arena_free(doc_arena);
	kp__tree_arena_free(j->item_arena);
	kp__free(j->own);
	if (rc)
		return rc;
	if (j->sink_rc && err)
		*err = j->sink_err;
	return j->sink_rc;
}

int kp__json_parse_each(const char *data, size_t len, kp__budget *b, const kp__doc_sink *sink,
			kp_error *err)
{
	jparser j;
	memory_input(&j, b, data, len);
	return parse_each(&j, b, sink, err);
}

int kp__json_read_each(kp__reader *rd, kp__budget *b, const kp__doc_sink *sink, kp_error *err)
{
	jparser j;
	memset(&j, 0, sizeof(j));
	j.p = j.win = j.end = "";
	j.rd = rd;
	return parse_each(&j, b, sink, err);
}


