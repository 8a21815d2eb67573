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

typedef struct jparser {
	const char *p;
	const char *end;
	uint32_t line;
	kp__budget *b;
	kp_error *err;
	int over;
	kp__buf scratch; /* a string with escapes, before it goes to the arena */
	/* kp__json_parse_each only: */
	const kp__doc_sink *sink;
	kp__tree_arena *item_arena; /* one List item at a time */
	size_t doc_index;
	const char *doc_start; /* for the live-node limit */
	int sink_rc;         /* the sink's first error; the sink is not called after it */
	kp_error sink_err;   /* and its message */
} jparser;

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
	if (j->p >= j->end)
		return kp__error(j->err, KP_EPARSE, NULL, "line %u: unexpected end of JSON input (%s)",
				 (unsigned)j->line, what);
	unsigned char c = (unsigned char)*j->p;
	if (c >= 0x20 && c < 0x7f)
		return kp__error(j->err, KP_EPARSE, NULL, "line %u: invalid character '%c' %s",
				 (unsigned)j->line, c, what);
	return kp__error(j->err, KP_EPARSE, NULL, "line %u: invalid byte 0x%02x %s",
			 (unsigned)j->line, c, what);
}

static void skip_ws(jparser *j)
{
	while (j->p < j->end) {
		char c = *j->p;
		if (c == '\n')
			j->line++;
		else if (c != ' ' && c != '\t' && c != '\r')
			return;
		j->p++;
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

/* Parse a string literal at j->p (the opening quote) into the parse's
 * arena. A string without escapes (nearly all of them) is copied once,
 * straight from the input; one with escapes is built in the scratch
 * buffer first. */
static int parse_string(jparser *j, char **out, size_t *out_len)
{
	kp__buf *b = &j->scratch;
	b->len = 0;
	int escaped = 0;
	unsigned char high = 0; /* any byte >= 0x80: UTF-8 to check */
	j->p++; /* opening quote */
	const char *start = j->p, *run = j->p;
	for (;;) {
		if (j->p >= j->end)
			return jerr(j, "in string literal");
		unsigned char c = (unsigned char)*j->p;
		if (c == '"' || c == '\\' || c < 0x20) {
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
				uint32_t cp;
				if (!read_hex4(j->p, j->end, &cp))
					return jerr(j, "in \\u hexadecimal character escape");
				j->p += 4;
				if (cp >= 0xD800 && cp < 0xDC00) {
					uint32_t lo;
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
				put_utf8(b, cp);
				break;
			}
			default:
				j->p--;
				return jerr(j, "in string escape code");
			}
			run = j->p;
			continue;
		}
		high |= c;
		j->p++;
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

static int parse_value(jparser *j, kp__node **out, uint32_t depth);

/* The live-node limit grows with the document read so far. */
static void live_limit(jparser *j)
{
	if (j->doc_start)
		j->b->max_live = KP__LIVE_BASE + (size_t)(j->p - j->doc_start) / KP__LIVE_BYTES;
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
	int rc = new_node(j, KP__N_NUMBER, out);
	if (rc)
		return rc;
	(*out)->text = kp__node_strndup(j->b, s, (size_t)(p - s));
	if (!(*out)->text) {
		kp__node_free(*out);
		*out = NULL;
		return kp__error(j->err, KP_ENOMEM, NULL, "out of memory");
	}
	(*out)->len = (size_t)(p - s);
	j->p = p;
	return KP_OK;
}

static int match_word(jparser *j, const char *w)
{
	size_t n = strlen(w);
	if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0)
		return 0;
	j->p += n;
	return 1;
}

static int parse_items_streamed(jparser *j, kp__node **out, uint32_t depth);

/* list_top: the top-level object of a List whose items are streamed (see
 * scan_list): its "items" member goes to the sink item by item. */
static int parse_container(jparser *j, kp__node **out, uint32_t depth, int object, int list_top)
{
	if (depth >= j->b->max_depth)
		return kp__error(j->err, KP_ERANGE, NULL,
				 "line %u: document nests deeper than %u levels", (unsigned)j->line,
				 (unsigned)j->b->max_depth);
	kp__node *n;
	int rc = new_node(j, object ? KP__N_OBJECT : KP__N_ARRAY, &n);
	if (rc)
		return rc;
	j->p++; /* [ or { */
	skip_ws(j);
	char close = object ? '}' : ']';
	if (j->p < j->end && *j->p == close) {
		j->p++;
		*out = n;
		return KP_OK;
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
			rc = parse_string(j, &key, &klen);
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
		skip_ws(j);
		if (list_top && strcmp(key, "items") == 0)
			rc = parse_items_streamed(j, &child, depth + 1);
		else
			rc = parse_value(j, &child, depth + 1);
		if (rc)
			goto fail;
		rc = object ? kp__node_add(n, key, child) : kp__node_append(n, child);
		if (rc) {
			rc = kp__error(j->err, KP_ENOMEM, NULL, "out of memory");
			goto fail;
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
	*out = n;
	return KP_OK;
fail:
	kp__node_free(n);
	return rc;
}

static int parse_value(jparser *j, kp__node **out, uint32_t depth)
{
	skip_ws(j);
	if (j->p >= j->end)
		return jerr(j, "looking for beginning of value");
	char c = *j->p;
	int rc;
	switch (c) {
	case '{':
		return parse_container(j, out, depth, 1, 0);
	case '[':
		return parse_container(j, out, depth, 0, 0);
	case '"': {
		char *s;
		size_t len;
		uint32_t line = j->line;
		rc = parse_string(j, &s, &len);
		if (rc)
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
		if (match_word(j, c == 't' ? "true" : "false")) {
			rc = new_node(j, KP__N_BOOL, out);
			if (rc == KP_OK)
				(*out)->boolean = c == 't';
			return rc;
		}
		return jerr(j, "in literal");
	case 'n':
		if (match_word(j, "null"))
			return new_node(j, KP__N_NULL, out);
		return jerr(j, "in literal null (expecting 'u')");
	default:
		if (c == '-' || is_digit(c))
			return parse_number(j, out);
		return jerr(j, "looking for beginning of value");
	}
}

int kp__json_parse(kp__node **docs, const char *data, size_t len, kp__budget *b, kp_error *err)
{
	/* The node budget bounds what an input creates beyond its own size
	 * (YAML's alias expansion, see yaml.c): JSON has no aliases and cannot
	 * create more nodes than it has bytes, so a List of any number of
	 * objects within the input limit reads. */
	b->max_nodes = b->max_nodes > SIZE_MAX - len ? SIZE_MAX : b->max_nodes + len;
	jparser j;
	memset(&j, 0, sizeof(j));
	j.p = data;
	j.end = data + len;
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
		int rc = parse_value(&j, &doc, 0);
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

/* ---- streaming (kp__json_parse_each) ---- */

static void sink_failed(jparser *j, int rc)
{
	j->sink_rc = rc;
	if (j->err)
		j->sink_err = *j->err;
}

/* The "items" array of a streamed List (j->p at '['): each element is
 * parsed into the item arena, handed to the sink, and released. The array
 * node itself stays, empty, in the document. */
static int parse_items_streamed(jparser *j, kp__node **out, uint32_t depth)
{
	if (depth >= j->b->max_depth)
		return kp__error(j->err, KP_ERANGE, NULL,
				 "line %u: document nests deeper than %u levels", (unsigned)j->line,
				 (unsigned)j->b->max_depth);
	int rc = new_node(j, KP__N_ARRAY, out);
	if (rc)
		return rc;
	if (j->sink_rc == KP_OK && j->sink->items_begin) {
		int src = j->sink->items_begin(j->sink->ctx, j->doc_index);
		if (src)
			sink_failed(j, src);
		if (src == KP_ENOMEM)
			return src;
	}
	j->p++; /* [ */
	skip_ws(j);
	if (j->p < j->end && *j->p == ']') {
		j->p++;
		return KP_OK;
	}
	for (size_t i = 0;; i++) {
		kp__tree_arena *doc_arena = j->b->arena;
		size_t live = j->b->live;
		j->b->arena = j->item_arena;
		kp__node *item = NULL;
		rc = parse_value(j, &item, depth + 1);
		j->b->arena = doc_arena;
		if (rc == KP_OK && j->sink_rc == KP_OK) {
			int src = j->sink->item(j->sink->ctx, j->doc_index, i, item);
			if (src)
				sink_failed(j, src);
			if (src == KP_ENOMEM)
				rc = src;
		}
		kp__tree_arena_reset(j->item_arena);
		j->b->live = live;
		if (rc)
			return rc;
		skip_ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == ']') {
			j->p++;
			return KP_OK;
		}
		return jerr(j, "after array element");
	}
}

/*
 * The List scan: whether the object at p (its '{') has exactly one "kind"
 * member, a string ending in "List", exactly one "apiVersion" string and
 * exactly one "items" array, so that its items can be streamed with the
 * meaning they have in the whole tree. It builds nothing and checks only
 * enough syntax to find the top-level members; anything unexpected (an
 * escaped key or kind, a syntax error) answers "no", and the ordinary parse
 * then reads the document and reports what is wrong with it.
 */
static const char *scan_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	return p;
}

/* p after an opening quote; the byte after the closing one, or NULL. */
static const char *scan_string(const char *p, const char *end, int *escaped)
{
	while (p < end) {
		const char *q = memchr(p, '"', (size_t)(end - p));
		if (!q)
			return NULL;
		/* a quote preceded by an odd number of backslashes is escaped */
		size_t bs = 0;
		while (q - bs > p && q[-1 - (ptrdiff_t)bs] == '\\')
			bs++;
		if (bs && escaped)
			*escaped = 1;
		if (!(bs & 1))
			return q + 1;
		p = q + 1;
	}
	return NULL;
}

static const char *scan_value(const char *p, const char *end)
{
	if (p >= end)
		return NULL;
	if (*p == '"')
		return scan_string(p + 1, end, NULL);
	if (*p != '{' && *p != '[') {
		while (p < end && *p != ',' && *p != '}' && *p != ']' && *p != ' ' && *p != '\n' &&
		       *p != '\t' && *p != '\r')
			p++;
		return p;
	}
	size_t depth = 0;
	while (p < end) {
		char c = *p++;
		if (c == '"') {
			p = scan_string(p, end, NULL);
			if (!p)
				return NULL;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if ((c == '}' || c == ']') && --depth == 0) {
			return p;
		}
	}
	return NULL;
}

static int scan_list(const char *p, const char *end)
{
	int kinds = 0, apis = 0, items = 0, is_list = 0;
	p = scan_ws(p + 1, end);
	while (p < end && *p == '"') {
		int escaped = 0;
		const char *key = p + 1;
		p = scan_string(key, end, &escaped);
		if (!p || escaped)
			return 0;
		size_t klen = (size_t)(p - 1 - key);
		p = scan_ws(p, end);
		if (p >= end || *p != ':')
			return 0;
		p = scan_ws(p + 1, end);
		if (p >= end)
			return 0;
		const char *v = p;
		p = scan_value(p, end);
		if (!p)
			return 0;
		if (klen == 4 && memcmp(key, "kind", 4) == 0) {
			kinds++;
			escaped = 0;
			if (*v != '"' || !scan_string(v + 1, end, &escaped) || escaped)
				return 0;
			size_t vlen = (size_t)(p - v - 2);
			is_list = vlen >= 4 && memcmp(p - 5, "List", 4) == 0;
			if (!is_list)
				return 0; /* read whole: no need to scan the rest */
		} else if (klen == 10 && memcmp(key, "apiVersion", 10) == 0) {
			apis++;
			if (*v != '"')
				return 0;
		} else if (klen == 5 && memcmp(key, "items", 5) == 0) {
			items++;
			if (*v != '[')
				return 0;
		}
		p = scan_ws(p, end);
		if (p < end && *p == ',')
			p = scan_ws(p + 1, end);
		else
			break;
	}
	return p < end && *p == '}' && kinds == 1 && apis == 1 && items == 1 && is_list;
}

static int parse_each_value(jparser *j)
{
	kp__node *doc = NULL;
	int streamed = j->sink->item && *j->p == '{' && scan_list(j->p, j->end);
	int rc = streamed ? parse_container(j, &doc, 0, 1, 1) : parse_value(j, &doc, 0);
	if (rc)
		return rc;
	if (j->sink_rc == KP_OK) {
		int src = j->sink->doc(j->sink->ctx, j->doc_index, doc, streamed);
		if (src)
			sink_failed(j, src);
		if (src == KP_ENOMEM)
			return src;
	}
	return KP_OK;
}

int kp__json_parse_each(const char *data, size_t len, kp__budget *b, const kp__doc_sink *sink,
			kp_error *err)
{
	b->max_nodes = b->max_nodes > SIZE_MAX - len ? SIZE_MAX : b->max_nodes + len;
	jparser j;
	memset(&j, 0, sizeof(j));
	j.p = data;
	j.end = data + len;
	j.line = 1;
	j.b = b;
	j.err = err;
	j.sink = sink;
	kp__tree_arena *doc_arena = kp__tree_arena_new();
	j.item_arena = kp__tree_arena_new();
	if (!doc_arena || !j.item_arena) {
		kp__tree_arena_free(doc_arena);
		kp__tree_arena_free(j.item_arena);
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
		j.p += 3;
	int rc = KP_OK;
	for (;;) {
		skip_ws(&j);
		if (j.p >= j.end)
			break;
		b->arena = doc_arena;
		b->live = 0;
		j.doc_start = j.p;
		rc = parse_each_value(&j);
		kp__tree_arena_reset(doc_arena);
		if (rc)
			break;
		j.doc_index++;
	}
	b->arena = NULL;
	b->live = b->max_live = 0;
	kp__buf_dispose(&j.scratch);
	kp__tree_arena_free(doc_arena);
	kp__tree_arena_free(j.item_arena);
	if (rc)
		return rc;
	if (j.sink_rc && err)
		*err = j.sink_err;
	return j.sink_rc;
}

/* ---- writer ---- */

void kp__json_write_string(kp__buf *out, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	kp__buf_putc(out, '"');
	size_t run = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *esc = NULL;
		char u[7];
		switch (c) {
		case '"': esc = "\\\""; break;
		case '\\': esc = "\\\\"; break;
		case '\n': esc = "\\n"; break;
		case '\r': esc = "\\r"; break;
		case '\t': esc = "\\t"; break;
		case '\b': esc = "\\b"; break;
		case '\f': esc = "\\f"; break;
		default:
			if (c < 0x20 || c == 0x7f) {
				u[0] = '\\';
				u[1] = 'u';
				u[2] = '0';
				u[3] = '0';
				u[4] = hex[c >> 4];
				u[5] = hex[c & 15];
				u[6] = '\0';
				esc = u;
			}
		}
		size_t width = 1;
		if (c >= 0x80) {
			/* As Go's encoding/json: an invalid byte is written as
			 * U+FFFD, and U+2028/U+2029 are escaped. */
			uint32_t cp = 0;
			width = kp__utf8_char(s + i, len - i, &cp);
			if (!width) {
				width = 1;
				esc = "\\ufffd";
			} else if (cp == 0x2028 || cp == 0x2029) {
				esc = cp == 0x2028 ? "\\u2028" : "\\u2029";
			}
		}
		if (esc) {
			kp__buf_put(out, s + run, i - run);
			kp__buf_puts(out, esc);
			run = i + width;
		}
		i += width - 1;
	}
	kp__buf_put(out, s + run, len - run);
	kp__buf_putc(out, '"');
}

static void newline(kp__buf *out, int indent, int level)
{
	if (!indent)
		return;
	kp__buf_putc(out, '\n');
	for (int i = 0; i < indent * level; i++)
		kp__buf_putc(out, ' ');
}

static void write_node(kp__buf *out, const kp__node *n, int indent, int level)
{
	switch (n->type) {
	case KP__N_NULL:
		kp__buf_puts(out, "null");
		break;
	case KP__N_BOOL:
		kp__buf_puts(out, n->boolean ? "true" : "false");
		break;
	case KP__N_NUMBER:
		kp__buf_put(out, n->text, n->len);
		break;
	case KP__N_STRING:
		kp__json_write_string(out, n->text, n->len);
		break;
	case KP__N_ARRAY:
	case KP__N_OBJECT: {
		int obj = n->type == KP__N_OBJECT;
		kp__buf_putc(out, obj ? '{' : '[');
		for (size_t i = 0; i < n->n; i++) {
			if (i)
				kp__buf_putc(out, ',');
			newline(out, indent, level + 1);
			if (obj) {
				kp__json_write_string(out, n->keys[i], strlen(n->keys[i]));
				kp__buf_puts(out, indent ? ": " : ":");
			}
			write_node(out, n->items[i], indent, level + 1);
		}
		if (n->n)
			newline(out, indent, level);
		kp__buf_putc(out, obj ? '}' : ']');
		break;
	}
	}
}

void kp__json_write(kp__buf *out, const kp__node *n, int indent)
{
	write_node(out, n, indent, 0);
}
