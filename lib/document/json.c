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
} jparser;

static int jerr(jparser *j, const char *what)
{
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
		j->p++;
	}
	const char *text = escaped ? b->data : start;
	size_t len = escaped ? b->len : (size_t)(j->p - 1 - start);
	if (escaped && b->failed)
		return kp__error(j->err, KP_ENOMEM, NULL, "out of memory");
	if (!kp__utf8_valid(text ? text : "", len))
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

static int new_node(jparser *j, uint32_t type, kp__node **out)
{
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

static int parse_container(jparser *j, kp__node **out, uint32_t depth, int object)
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
		return parse_container(j, out, depth, 1);
	case '[':
		return parse_container(j, out, depth, 0);
	case '"': {
		char *s;
		size_t len;
		uint32_t line = j->line;
		rc = parse_string(j, &s, &len);
		if (rc)
			return rc;
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
	jparser j = { data, data + len, 1, b, err, 0, { 0 } };
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
