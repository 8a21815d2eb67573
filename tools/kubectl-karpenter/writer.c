/*
 * kubectl-karpenter: the streaming JSON / YAML writer (see writer.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "writer.h"

/* A YAML simple key (written on the key's line, before ':') may be at most
 * 1024 characters long for libyaml, PyYAML and go-yaml; a key written
 * longer than this is written as an explicit key ("? key"). */
#define YAML_SIMPLE_KEY_MAX 1000

/* Output is gathered here and handed to stdio in large writes: the
 * writers emit a few bytes at a time, and fwrite per piece cost a third of
 * a large simulation's run time. */
#define BUF_SIZE ((size_t)1 << 16)

enum ctx { CTX_TOP, CTX_MEMBER, CTX_ITEM };

typedef struct frame {
	unsigned char obj; /* an object (else an array) */
	unsigned char ctx; /* how it was opened: the document, a member's value, an item */
	int col;           /* YAML: the column of its keys or "- " */
	size_t n;          /* members or items so far */
} frame;

struct cli_writer {
	FILE *out;
	enum cli_writer_format format;
	int error;
	int have_key;    /* in an object: a key was written, its value is next */
	int done;        /* the document's value is complete */
	frame *stack;    /* open containers */
	size_t depth, cap;
	size_t used;     /* bytes in buf */
	char buf[BUF_SIZE];
};

/* ------------------------------------------------------------------ */
/* Bytes                                                               */

static void flush(cli_writer *w)
{
	if (w->used && fwrite(w->buf, 1, w->used, w->out) != w->used && !w->error)
		w->error = CLI_WRITER_IO;
	w->used = 0;
}

static void put(cli_writer *w, const char *s, size_t n)
{
	if (n > BUF_SIZE - w->used) {
		flush(w);
		if (n > BUF_SIZE) {
			if (fwrite(s, 1, n, w->out) != n && !w->error)
				w->error = CLI_WRITER_IO;
			return;
		}
	}
	memcpy(w->buf + w->used, s, n);
	w->used += n;
}

static void puts_(cli_writer *w, const char *s)
{
	put(w, s, strlen(s));
}

static void putc_(cli_writer *w, char c)
{
	if (w->used == BUF_SIZE)
		flush(w);
	w->buf[w->used++] = c;
}

static void indent(cli_writer *w, int n)
{
	static const char spaces[] = "                                ";
	while (n > 0) {
		int k = n < 32 ? n : 32;
		put(w, spaces, (size_t)k);
		n -= k;
	}
}

/* \uXXXX (lowercase hex, as Go's encoding/json writes it). */
static void put_u(cli_writer *w, uint32_t cp)
{
	static const char hex[] = "0123456789abcdef";
	char u[6] = { '\\', 'u', hex[(cp >> 12) & 15], hex[(cp >> 8) & 15], hex[(cp >> 4) & 15],
		      hex[cp & 15] };
	put(w, u, sizeof(u));
}

/* ------------------------------------------------------------------ */
/* Text rules                                                          */

/* Length (2 to 4) of the well-formed UTF-8 sequence of a non-ASCII
 * character at s, and its code point; 0 when the byte at s does not start
 * one (Go's utf8.DecodeRune: RuneError of width 1). s is NUL-terminated, and
 * NUL is never a continuation byte. */
static size_t utf8_char(const unsigned char *s, uint32_t *cp)
{
	size_t need;
	uint32_t c, min;
	if (s[0] >= 0xC2 && s[0] <= 0xDF) {
		need = 1;
		c = s[0] & 0x1Fu;
		min = 0x80;
	} else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
		need = 2;
		c = s[0] & 0x0Fu;
		min = 0x800;
	} else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
		need = 3;
		c = s[0] & 0x07u;
		min = 0x10000;
	} else {
		return 0;
	}
	for (size_t k = 1; k <= need; k++) {
		if ((s[k] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (s[k] & 0x3Fu);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return need + 1;
}

/* Whether ASCII byte c is written as itself inside quotes. */
static int plain_ascii(unsigned char c, int yaml)
{
	return c >= 0x20 && c != '"' && c != '\\' && !(yaml && c == 0x7f);
}

/* The string body of a JSON or YAML double-quoted scalar. ASCII is written
 * as JSON writes it (C0 controls and, for YAML, DEL as \u00XX); invalid
 * UTF-8 becomes \ufffd; U+2028/U+2029 are escaped (both formats); for YAML
 * also C1 controls (NEL included), U+FEFF, U+FFFE and U+FFFF, which YAML
 * does not allow raw or reads as line breaks. */
static void quoted(cli_writer *w, const char *str, int yaml)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	putc_(w, '"');
	while (*s) {
		unsigned char c = *s;
		if (c < 0x80) {
			/* a run of bytes written as they are, in one copy */
			const unsigned char *run = s;
			while (*s && *s < 0x80 && plain_ascii(*s, yaml))
				s++;
			if (s > run) {
				put(w, (const char *)run, (size_t)(s - run));
				continue;
			}
			switch (c) {
			case '"': puts_(w, "\\\""); break;
			case '\\': puts_(w, "\\\\"); break;
			case '\n': puts_(w, "\\n"); break;
			case '\r': puts_(w, "\\r"); break;
			case '\t': puts_(w, "\\t"); break;
			case '\b': puts_(w, "\\b"); break;
			case '\f': puts_(w, "\\f"); break;
			default: put_u(w, c);
			}
			s++;
			continue;
		}
		uint32_t cp = 0;
		size_t n = utf8_char(s, &cp);
		if (!n) {
			put_u(w, 0xFFFD);
			s++;
			continue;
		}
		if (cp == 0x2028 || cp == 0x2029 ||
		    (yaml && (cp <= 0x9F || cp == 0xFEFF || cp == 0xFFFE || cp == 0xFFFF)))
			put_u(w, cp);
		else
			put(w, (const char *)s, n);
		s += n;
	}
	putc_(w, '"');
}

/* Shortest text that reads back as the same (finite) double; integers
 * without a fraction. Deterministic for equal inputs. */
static void fmt_number(char *buf, size_t size, double d)
{
	if (d > -1e15 && d < 1e15 && d == (double)(long long)d) {
		snprintf(buf, size, "%.0f", d == 0 ? 0.0 : d);
		return;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
}

static int ieq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a, y = *b;
		if (x >= 'A' && x <= 'Z')
			x = (char)(x - 'A' + 'a');
		if (y >= 'A' && y <= 'Z')
			y = (char)(y - 'A' + 'a');
		if (x != y)
			return 0;
	}
	return *a == *b;
}

/* Whether a string can be written as a plain YAML scalar and read back as
 * the same string by YAML 1.1 and 1.2 readers (conservatively): printable
 * ASCII only, so everything else is double-quoted. */
static int yaml_plain_ok(const char *s)
{
	static const char *const reserved[] = {
		"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~", "<<", "=",
	};
	if (!*s)
		return 0;
	if (s[0] >= '0' && s[0] <= '9') {
		/* Plain only when it cannot be a YAML 1.1 or 1.2 number or
		 * timestamp: letters, digits and dots with a letter that is
		 * neither a hex digit nor a base prefix ("1100m", "8Gi",
		 * "720h"), as kubectl writes quantities and durations. */
		int letter = 0;
		for (const char *p = s; *p; p++) {
			char c = *p;
			if ((c >= 'g' && c <= 'z') || (c >= 'G' && c <= 'Z'))
				letter |= c != 'o' && c != 'O' && c != 'x' && c != 'X';
			else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
				   (c >= 'A' && c <= 'F') || c == '.'))
				return 0;
		}
		return letter;
	}
	if (strchr("-?:,[]{}#&*!|>'\"%@` .+", s[0]))
		return 0;
	if (strlen(s) <= 5)
		for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
			if (ieq(s, reserved[i]))
				return 0;
	const unsigned char *p = (const unsigned char *)s;
	for (; *p; p++) {
		if (*p < 0x20 || *p >= 0x7f)
			return 0;
		if (*p == ':' && (p[1] == ' ' || p[1] == '\0'))
			return 0;
		if (*p == '#' && p > (const unsigned char *)s && p[-1] == ' ')
			return 0;
	}
	return p[-1] != ' ';
}

static void yaml_string(cli_writer *w, const char *s)
{
	if (!s)
		s = "";
	if (yaml_plain_ok(s))
		puts_(w, s);
	else
		quoted(w, s, 1);
}

/* The length yaml_string would write (for the simple-key limit). */
static size_t yaml_string_len(const char *s)
{
	if (!s)
		s = "";
	size_t n = strlen(s);
	if (n <= (YAML_SIMPLE_KEY_MAX - 2) / 6)
		return n; /* even quoted with every character escaped, it fits */
	if (n > YAML_SIMPLE_KEY_MAX || yaml_plain_ok(s))
		return n; /* quoting only adds */
	size_t len = 2;
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		uint32_t cp = 0;
		size_t k;
		if (*p < 0x80) {
			len += plain_ascii(*p, 1) ? 1 : (*p < 0x20 || *p == 0x7f) &&
						  !strchr("\n\r\t\b\f", *p) ? 6 : 2;
			p++;
		} else if (!(k = utf8_char(p, &cp))) {
			len += 6;
			p++;
		} else {
			len += cp == 0x2028 || cp == 0x2029 || cp <= 0x9F || cp == 0xFEFF ||
				       cp == 0xFFFE || cp == 0xFFFF
				       ? 6
				       : k;
			p += k;
		}
	}
	return len;
}

/* ------------------------------------------------------------------ */
/* Structure                                                           */

cli_writer *cli_writer_new(FILE *out, enum cli_writer_format format)
{
	cli_writer *w = malloc(sizeof(*w));
	if (!w)
		return NULL;
	memset(w, 0, offsetof(cli_writer, buf));
	w->out = out;
	w->format = format;
	return w;
}

static frame *top(cli_writer *w)
{
	return w->depth ? &w->stack[w->depth - 1] : NULL;
}

/* JSON: the comma, newline and indentation before a member or an item. */
static void json_preface(cli_writer *w, frame *f)
{
	if (f->n)
		putc_(w, ',');
	putc_(w, '\n');
	indent(w, (int)w->depth * 4);
}

/* YAML: what the first member or item of @p f writes before itself. */
static void yaml_open(cli_writer *w, const frame *f)
{
	if (f->ctx == CTX_MEMBER || (f->ctx == CTX_ITEM && !f->obj))
		putc_(w, '\n');
	else if (f->ctx == CTX_ITEM)
		putc_(w, ' '); /* "- key: ..." */
}

/* Start a value: checks where it goes and writes what comes before it.
 * Returns 0 when it may be written. */
static int value_start(cli_writer *w)
{
	if (w->error)
		return -1;
	frame *f = top(w);
	if (!f) {
		if (w->done) {
			w->error = CLI_WRITER_MISUSE;
			return -1;
		}
		return 0;
	}
	if (f->obj) {
		if (!w->have_key) {
			w->error = CLI_WRITER_MISUSE;
			return -1;
		}
		w->have_key = 0;
		return 0;
	}
	if (w->format == CLI_WRITER_JSON) {
		json_preface(w, f);
	} else {
		if (!f->n)
			yaml_open(w, f);
		indent(w, f->col);
		putc_(w, '-');
	}
	f->n++;
	return 0;
}

static void value_end(cli_writer *w)
{
	if (!w->depth)
		w->done = 1;
}

/* YAML: a scalar after "key:" or "-" (or alone as the document). */
static void yaml_scalar_text(cli_writer *w, const char *text)
{
	if (w->depth)
		putc_(w, ' ');
	puts_(w, text);
	putc_(w, '\n');
}

static void begin(cli_writer *w, int obj)
{
	if (value_start(w))
		return;
	if (w->depth == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 16;
		frame *s = realloc(w->stack, cap * sizeof(*s));
		if (!s) {
			w->error = CLI_WRITER_NOMEM;
			return;
		}
		w->stack = s;
		w->cap = cap;
	}
	frame *parent = top(w);
	frame f = { (unsigned char)obj, CTX_TOP, 0, 0 };
	if (parent && parent->obj) {
		f.ctx = CTX_MEMBER;
		f.col = obj ? parent->col + 2 : parent->col; /* "- " under the key */
	} else if (parent) {
		f.ctx = CTX_ITEM;
		f.col = parent->col + 2;
	}
	w->stack[w->depth++] = f;
	if (w->format == CLI_WRITER_JSON)
		putc_(w, obj ? '{' : '[');
}

static void end(cli_writer *w, int obj)
{
	frame *f = top(w);
	if (w->error)
		return;
	if (!f || f->obj != obj || w->have_key) {
		w->error = CLI_WRITER_MISUSE;
		return;
	}
	w->depth--;
	if (w->format == CLI_WRITER_JSON) {
		if (f->n) {
			putc_(w, '\n');
			indent(w, (int)w->depth * 4);
		}
		putc_(w, obj ? '}' : ']');
	} else if (!f->n) {
		yaml_scalar_text(w, obj ? "{}" : "[]");
	}
	value_end(w);
}

void cli_writer_begin_object(cli_writer *w)
{
	begin(w, 1);
}

void cli_writer_end_object(cli_writer *w)
{
	end(w, 1);
}

void cli_writer_begin_array(cli_writer *w)
{
	begin(w, 0);
}

void cli_writer_end_array(cli_writer *w)
{
	end(w, 0);
}

void cli_writer_key(cli_writer *w, const char *key)
{
	frame *f = top(w);
	if (w->error)
		return;
	if (!f || !f->obj || w->have_key) {
		w->error = CLI_WRITER_MISUSE;
		return;
	}
	if (w->format == CLI_WRITER_JSON) {
		json_preface(w, f);
		quoted(w, key, 0);
		puts_(w, ": ");
	} else {
		if (!f->n)
			yaml_open(w, f);
		if (f->n || f->ctx != CTX_ITEM)
			indent(w, f->col);
		if (yaml_string_len(key) > YAML_SIMPLE_KEY_MAX) {
			puts_(w, "? ");
			yaml_string(w, key);
			putc_(w, '\n');
			indent(w, f->col);
		} else {
			yaml_string(w, key);
		}
		putc_(w, ':');
	}
	f->n++;
	w->have_key = 1;
}

void cli_writer_string(cli_writer *w, const char *s)
{
	if (!s) {
		cli_writer_null(w);
		return;
	}
	if (value_start(w))
		return;
	if (w->format == CLI_WRITER_JSON) {
		quoted(w, s, 0);
	} else {
		if (w->depth)
			putc_(w, ' ');
		yaml_string(w, s);
		putc_(w, '\n');
	}
	value_end(w);
}

void cli_writer_number(cli_writer *w, double d)
{
	char num[72];
	if (!w->error && !isfinite(d)) {
		w->error = CLI_WRITER_NONFINITE;
		return;
	}
	if (value_start(w))
		return;
	fmt_number(num, sizeof(num), d);
	if (w->format == CLI_WRITER_JSON) {
		puts_(w, num);
	} else {
		/* YAML 1.1 floats need a '.': 1e-05 would read as a string. */
		char *e = strchr(num, 'e');
		if (e && !strchr(num, '.')) {
			memmove(e + 2, e, strlen(e) + 1);
			e[0] = '.';
			e[1] = '0';
		}
		yaml_scalar_text(w, num);
	}
	value_end(w);
}

void cli_writer_member_string(cli_writer *w, const char *key, const char *s)
{
	cli_writer_key(w, key);
	cli_writer_string(w, s);
}

void cli_writer_member_number(cli_writer *w, const char *key, double d)
{
	cli_writer_key(w, key);
	cli_writer_number(w, d);
}

void cli_writer_member_bool(cli_writer *w, const char *key, int b)
{
	cli_writer_key(w, key);
	cli_writer_bool(w, b);
}

static void literal(cli_writer *w, const char *text)
{
	if (value_start(w))
		return;
	if (w->format == CLI_WRITER_JSON)
		puts_(w, text);
	else
		yaml_scalar_text(w, text);
	value_end(w);
}

void cli_writer_bool(cli_writer *w, int b)
{
	literal(w, b ? "true" : "false");
}

void cli_writer_null(cli_writer *w)
{
	literal(w, "null");
}

int cli_writer_close(cli_writer *w)
{
	if (!w)
		return CLI_WRITER_NOMEM;
	if (!w->error && (w->depth || !w->done))
		w->error = CLI_WRITER_MISUSE;
	if (!w->error && w->format == CLI_WRITER_JSON)
		putc_(w, '\n');
	flush(w);
	if (fflush(w->out) != 0 && !w->error)
		w->error = CLI_WRITER_IO;
	int rc = w->error;
	free(w->stack);
	free(w);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Splicing JSON text                                                  */

typedef struct jtext {
	const char *p, *end;
	char *str; /* the current string, unescaped */
	size_t cap;
} jtext;

static void skip_ws(jtext *t)
{
	while (t->p < t->end && (*t->p == ' ' || *t->p == '\t' || *t->p == '\n' || *t->p == '\r'))
		t->p++;
}

static int hex4(const char *p, const char *end, uint32_t *out)
{
	uint32_t v = 0;
	if (end - p < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (uint32_t)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* Append to t->str, growing it; len is the current length. */
static int str_put(jtext *t, size_t *len, const char *s, size_t n)
{
	if (*len + n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 64;
		while (cap < *len + n + 1)
			cap *= 2;
		char *b = realloc(t->str, cap);
		if (!b)
			return -1;
		t->str = b;
		t->cap = cap;
	}
	memcpy(t->str + *len, s, n);
	*len += n;
	t->str[*len] = '\0';
	return 0;
}

static size_t utf8_put(char *b, uint32_t cp)
{
	if (cp < 0x80) {
		b[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		b[0] = (char)(0xC0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		b[0] = (char)(0xE0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		b[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	b[0] = (char)(0xF0 | (cp >> 18));
	b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	b[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* A string at t->p (after its opening quote), unescaped into t->str. */
static int read_string(jtext *t)
{
	size_t len = 0;
	if (str_put(t, &len, "", 0))
		return -1;
	while (t->p < t->end && *t->p != '"') {
		const char *run = t->p;
		while (t->p < t->end && *t->p != '"' && *t->p != '\\' && *t->p != '\0')
			t->p++;
		if (t->p > run && str_put(t, &len, run, (size_t)(t->p - run)))
			return -1;
		if (t->p >= t->end || *t->p == '"')
			break;
		if (*t->p == '\0' || t->end - t->p < 2)
			return -1;
		char c = t->p[1], b[4];
		size_t n = 1;
		t->p += 2;
		switch (c) {
		case '"': case '\\': case '/': b[0] = c; break;
		case 'n': b[0] = '\n'; break;
		case 'r': b[0] = '\r'; break;
		case 't': b[0] = '\t'; break;
		case 'b': b[0] = '\b'; break;
		case 'f': b[0] = '\f'; break;
		case 'u': {
			uint32_t cp, lo;
			if (hex4(t->p, t->end, &cp))
				return -1;
			t->p += 4;
			if (cp >= 0xD800 && cp <= 0xDBFF) {
				if (t->end - t->p < 6 || t->p[0] != '\\' || t->p[1] != 'u' ||
				    hex4(t->p + 2, t->end, &lo) || lo < 0xDC00 || lo > 0xDFFF)
					return -1;
				t->p += 6;
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			} else if ((cp >= 0xDC00 && cp <= 0xDFFF) || cp == 0) {
				return -1; /* a lone low surrogate; NUL cannot be in a C string */
			}
			n = utf8_put(b, cp);
			break;
		}
		default:
			return -1;
		}
		if (str_put(t, &len, b, n))
			return -1;
	}
	if (t->p >= t->end)
		return -1;
	t->p++; /* closing quote */
	return 0;
}

static int splice_value(cli_writer *w, jtext *t, int depth);

static int splice_container(cli_writer *w, jtext *t, int depth, int obj)
{
	t->p++;
	if (obj)
		cli_writer_begin_object(w);
	else
		cli_writer_begin_array(w);
	skip_ws(t);
	if (t->p < t->end && *t->p == (obj ? '}' : ']')) {
		t->p++;
		goto close;
	}
	for (;;) {
		skip_ws(t);
		if (obj) {
			if (t->p >= t->end || *t->p != '"')
				return -1;
			t->p++;
			if (read_string(t))
				return -1;
			cli_writer_key(w, t->str);
			skip_ws(t);
			if (t->p >= t->end || *t->p != ':')
				return -1;
			t->p++;
		}
		if (splice_value(w, t, depth + 1))
			return -1;
		skip_ws(t);
		if (t->p < t->end && *t->p == ',') {
			t->p++;
			continue;
		}
		if (t->p < t->end && *t->p == (obj ? '}' : ']')) {
			t->p++;
			break;
		}
		return -1;
	}
close:
	if (obj)
		cli_writer_end_object(w);
	else
		cli_writer_end_array(w);
	return 0;
}

static int literal_is(jtext *t, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(t->end - t->p) < n || memcmp(t->p, word, n) != 0)
		return 0;
	t->p += n;
	return 1;
}

/* Whether text is a JSON integer: -?(0|[1-9][0-9]*). */
static int json_integer(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		return s[1] == '\0';
	if (*s < '1' || *s > '9')
		return 0;
	while (*s >= '0' && *s <= '9')
		s++;
	return *s == '\0';
}

/* A number of spliced text. An integer is written as it is, so that every
 * int64 (and any longer one) reads back as written; only a fraction or an
 * exponent goes through a double, written in its shortest form (as
 * before: "-1.5e3" is written -1500). */
static int splice_number(cli_writer *w, jtext *t)
{
	size_t n = 0;
	while (t->p + n < t->end && t->p[n] && strchr("+-.eE0123456789", t->p[n]))
		n++;
	char small[64];
	char *num = n < sizeof(small) ? small : malloc(n + 1);
	if (!num) {
		if (!w->error)
			w->error = CLI_WRITER_NOMEM;
		return -1;
	}
	memcpy(num, t->p, n);
	num[n] = '\0';
	char *endp = NULL;
	double d = strtod(num, &endp);
	int ok = n > 0 && endp == num + n;
	if (ok && json_integer(num))
		literal(w, strcmp(num, "-0") ? num : "0");
	else if (ok)
		cli_writer_number(w, d);
	if (num != small)
		free(num);
	if (!ok)
		return -1;
	t->p += n;
	return 0;
}

static int splice_value(cli_writer *w, jtext *t, int depth)
{
	if (depth > 512)
		return -1;
	skip_ws(t);
	if (t->p >= t->end)
		return -1;
	char c = *t->p;
	if (c == '{' || c == '[')
		return splice_container(w, t, depth, c == '{');
	if (c == '"') {
		t->p++;
		if (read_string(t))
			return -1;
		cli_writer_string(w, t->str);
		return 0;
	}
	if (literal_is(t, "true"))
		cli_writer_bool(w, 1);
	else if (literal_is(t, "false"))
		cli_writer_bool(w, 0);
	else if (literal_is(t, "null"))
		cli_writer_null(w);
	else if (c == '-' || (c >= '0' && c <= '9'))
		return splice_number(w, t);
	else {
		return -1;
	}
	return 0;
}

int cli_writer_json_value(cli_writer *w, const char *text, size_t len)
{
	jtext t = { text, text + len, NULL, 0 };
	int rc = splice_value(w, &t, 0);
	if (!rc) {
		skip_ws(&t);
		rc = t.p == t.end ? 0 : -1;
	}
	free(t.str);
	if (rc && !w->error)
		w->error = CLI_WRITER_MISUSE;
	return rc;
}

int cli_write_json_string(FILE *out, const char *s)
{
	cli_writer *w = cli_writer_new(out, CLI_WRITER_JSON);
	if (!w)
		return CLI_WRITER_NOMEM;
	quoted(w, s, 0);
	flush(w);
	int rc = w->error;
	free(w->stack);
	free(w);
	return rc;
}

int cli_writer_finish(cli_writer *w, int failed, const char *prog, FILE *err)
{
	int rc = cli_writer_close(w);
	if (rc && !failed)
		fprintf(err, "%s: %s\n", prog,
			rc == CLI_WRITER_NOMEM ? "out of memory" : "cannot write the document");
	return failed || rc ? -1 : 0;
}
