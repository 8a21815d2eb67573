/*
 * libkarpenter: the streaming JSON / YAML emitter (karpenter/emitter.h),
 * the library's one writer of JSON: kp_encode's JSON (kp__json_write) and
 * every document kubectl-karpenter prints go through it.
 *
 * Output is gathered in a 64 KiB buffer and handed to the caller's
 * callback in large writes: the callers emit a few bytes at a time, and a
 * write per piece cost a third of a large simulation's run time.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/emitter.h>

#include "kp_internal.h"
#include "common/sized.h"
#include "tree.h"

/* A YAML simple key (written on the key's line, before ':') may be at most
 * 1024 characters long for libyaml, PyYAML and go-yaml; a key written
 * longer than this is written as an explicit key ("? key"). */
#define YAML_SIMPLE_KEY_MAX 1000

#define BUF_SIZE ((size_t)1 << 16)

/* Nesting a spliced JSON value may have (kp_emitter_json). */
#define SPLICE_MAX_DEPTH 512

enum ctx { CTX_TOP, CTX_MEMBER, CTX_ITEM };

typedef struct frame {
	unsigned char obj; /* an object (else an array) */
	unsigned char ctx; /* how it was opened: the document, a member's value, an item */
	int col;           /* YAML: the column of its keys or "- " */
	size_t n;          /* members or items so far */
} frame;

struct kp_emitter {
	kp_write_fn write;
	void *ctx;
	int yaml;
	int step;        /* JSON: spaces per level; 0 compact */
	int error;       /* the first kp_status, sticky */
	const char *why; /* what it was */
	int have_key;    /* in an object: a key was written, its value is next */
	int done;        /* the document's value is complete */
	frame *stack;    /* open containers */
	size_t depth, cap;
	size_t used;     /* bytes in buf */
	char buf[BUF_SIZE];
};

static int fail(kp_emitter *w, int code, const char *why)
{
	if (!w->error) {
		w->error = code;
		w->why = why;
	}
	return w->error;
}

#define MISUSE(w) fail((w), KP_EINVAL, "calls out of order")

/* ------------------------------------------------------------------ */
/* Bytes                                                               */

/* What was written before an error is still handed over (it is a prefix
 * of the document), unless the callback is what failed. */
static void flush(kp_emitter *w)
{
	if (w->used && w->error != KP_EIO && w->write(w->ctx, w->buf, w->used) != 0)
		fail(w, KP_EIO, "the write callback refused the output");
	w->used = 0;
}

static void put(kp_emitter *w, const char *s, size_t n)
{
	if (n > BUF_SIZE - w->used) {
		flush(w);
		if (n > BUF_SIZE) {
			if (w->error != KP_EIO && w->write(w->ctx, s, n) != 0)
				fail(w, KP_EIO, "the write callback refused the output");
			return;
		}
	}
	memcpy(w->buf + w->used, s, n);
	w->used += n;
}

static void puts_(kp_emitter *w, const char *s)
{
	put(w, s, strlen(s));
}

static void putc_(kp_emitter *w, char c)
{
	if (w->used == BUF_SIZE)
		flush(w);
	w->buf[w->used++] = c;
}

static void indent(kp_emitter *w, int n)
{
	static const char spaces[] = "                                ";
	while (n > 0) {
		int k = n < 32 ? n : 32;
		put(w, spaces, (size_t)k);
		n -= k;
	}
}

/* \uXXXX (lowercase hex, as Go's encoding/json writes it). */
static void put_u(kp_emitter *w, uint32_t cp)
{
	static const char hex[] = "0123456789abcdef";
	char u[6] = { '\\', 'u', hex[(cp >> 12) & 15], hex[(cp >> 8) & 15], hex[(cp >> 4) & 15],
		      hex[cp & 15] };
	put(w, u, sizeof(u));
}

/* ------------------------------------------------------------------ */
/* Text rules                                                          */

/* Whether ASCII byte c is written as itself inside quotes. */
static int plain_ascii(unsigned char c, int yaml)
{
	return c >= 0x20 && c != '"' && c != '\\' && !(yaml && c == 0x7f);
}

/* A JSON or YAML double-quoted scalar of len bytes. ASCII is written as
 * JSON writes it (C0 controls and, for YAML, DEL as \u00XX); invalid UTF-8
 * becomes \ufffd; U+2028/U+2029 are escaped (both formats); for YAML also
 * C1 controls (NEL included), U+FEFF, U+FFFE and U+FFFF, which YAML does
 * not allow raw or reads as line breaks. */
static void quoted(kp_emitter *w, const char *str, size_t len, int yaml)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + len;
	putc_(w, '"');
	while (s < end) {
		unsigned char c = *s;
		if (c < 0x80) {
			/* a run of bytes written as they are, in one copy */
			const unsigned char *run = s;
			while (s < end && *s < 0x80 && plain_ascii(*s, yaml))
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
		size_t n = kp__utf8_char((const char *)s, (size_t)(end - s), &cp);
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

static int ieq(const char *a, const char *b, size_t alen)
{
	size_t i = 0;
	for (; i < alen && b[i]; i++) {
		char x = a[i], y = b[i];
		if (x >= 'A' && x <= 'Z')
			x = (char)(x - 'A' + 'a');
		if (x != y)
			return 0;
	}
	return i == alen && !b[i];
}

/* Whether a string can be written as a plain YAML scalar and read back as
 * the same string by YAML 1.1 and 1.2 readers (conservatively): printable
 * ASCII only, so everything else is double-quoted. */
static int yaml_plain_ok(const char *s, size_t len)
{
	static const char *const reserved[] = {
		"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~", "<<", "=",
	};
	if (!len)
		return 0;
	if (s[0] >= '0' && s[0] <= '9') {
		/* Plain only when it cannot be a YAML 1.1 or 1.2 number or
		 * timestamp: letters, digits and dots with a letter that is
		 * neither a hex digit nor a base prefix ("1100m", "8Gi",
		 * "720h"), as kubectl writes quantities and durations. */
		int letter = 0;
		for (size_t i = 0; i < len; i++) {
			char c = s[i];
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
	if (len <= 5)
		for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
			if (ieq(s, reserved[i], len))
				return 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c >= 0x7f)
			return 0;
		if (c == ':' && (i + 1 == len || s[i + 1] == ' '))
			return 0;
		if (c == '#' && i > 0 && s[i - 1] == ' ')
			return 0;
	}
	return s[len - 1] != ' ';
}

static void yaml_string(kp_emitter *w, const char *s, size_t len)
{
	if (yaml_plain_ok(s, len))
		put(w, s, len);
	else
		quoted(w, s, len, 1);
}

/* The length yaml_string would write (for the simple-key limit). */
static size_t yaml_string_len(const char *s, size_t n)
{
	if (n <= (YAML_SIMPLE_KEY_MAX - 2) / 6)
		return n; /* even quoted with every character escaped, it fits */
	if (n > YAML_SIMPLE_KEY_MAX || yaml_plain_ok(s, n))
		return n; /* quoting only adds */
	size_t len = 2;
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	while (p < end) {
		uint32_t cp = 0;
		size_t k;
		if (*p < 0x80) {
			len += plain_ascii(*p, 1) ? 1 : (*p < 0x20 || *p == 0x7f) &&
						  !strchr("\n\r\t\b\f", *p) ? 6 : 2;
			p++;
		} else if (!(k = kp__utf8_char((const char *)p, (size_t)(end - p), &cp))) {
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

KP_EXPORT void kp_emitter_options_init(kp_emitter_options *opts)
{
	if (opts) {
		kp_emitter_options init = KP_EMITTER_OPTIONS_INIT;
		*opts = init;
	}
}

KP_EXPORT int kp_emitter_new(kp_emitter **out, const kp_emitter_options *opts, kp_write_fn write,
			     void *ctx, kp_error *err)
{
	if (out)
		*out = NULL;
	if (!out || !write)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	kp_emitter_options o = KP_EMITTER_OPTIONS_INIT;
	if (opts) {
		int rc = KP__READ_SIZED(&o, opts, kp_emitter_options, err);
		if (rc)
			return rc;
	}
	if (o.reserved)
		return kp__error(err, KP_EINVAL, "reserved", "reserved field is not zero");
	if (o.format != 0 && o.format != KP_FORMAT_JSON && o.format != KP_FORMAT_YAML)
		return kp__error(err, KP_EINVAL, "format", "unknown format %u", (unsigned)o.format);
	if (o.indent > KP_EMITTER_INDENT_2)
		return kp__error(err, KP_EINVAL, "indent", "unknown indent %u", (unsigned)o.indent);
	kp_emitter *w = kp__malloc(sizeof(*w));
	if (!w)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	memset(w, 0, offsetof(kp_emitter, buf));
	w->write = write;
	w->ctx = ctx;
	w->yaml = o.format == KP_FORMAT_YAML;
	w->step = o.indent == KP_EMITTER_INDENT_COMPACT ? 0 : o.indent == KP_EMITTER_INDENT_2 ? 2 : 4;
	*out = w;
	return KP_OK;
}

static frame *top(kp_emitter *w)
{
	return w->depth ? &w->stack[w->depth - 1] : NULL;
}

/* JSON: the comma, newline and indentation before a member or an item. */
static void json_preface(kp_emitter *w, frame *f)
{
	if (f->n)
		putc_(w, ',');
	if (w->step) {
		putc_(w, '\n');
		indent(w, (int)w->depth * w->step);
	}
}

/* YAML: what the first member or item of @p f writes before itself. */
static void yaml_open(kp_emitter *w, const frame *f)
{
	if (f->ctx == CTX_MEMBER || (f->ctx == CTX_ITEM && !f->obj))
		putc_(w, '\n');
	else if (f->ctx == CTX_ITEM)
		putc_(w, ' '); /* "- key: ..." */
}

/* Start a value: checks where it goes and writes what comes before it.
 * Returns 0 when it may be written. */
static int value_start(kp_emitter *w)
{
	if (w->error)
		return -1;
	frame *f = top(w);
	if (!f) {
		if (w->done) {
			MISUSE(w);
			return -1;
		}
		return 0;
	}
	if (f->obj) {
		if (!w->have_key) {
			MISUSE(w);
			return -1;
		}
		w->have_key = 0;
		return 0;
	}
	if (!w->yaml) {
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

static int value_end(kp_emitter *w)
{
	if (!w->depth)
		w->done = 1;
	return w->error;
}

/* YAML: a scalar after "key:" or "-" (or alone as the document). */
static void yaml_scalar_text(kp_emitter *w, const char *text, size_t len)
{
	if (w->depth)
		putc_(w, ' ');
	put(w, text, len);
	putc_(w, '\n');
}

static int begin(kp_emitter *w, int obj)
{
	if (!w)
		return KP_EINVAL;
	if (value_start(w))
		return w->error;
	if (w->depth == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 16;
		frame *s = kp__realloc(w->stack, cap * sizeof(*s));
		if (!s)
			return fail(w, KP_ENOMEM, "out of memory");
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
	if (!w->yaml)
		putc_(w, obj ? '{' : '[');
	return w->error;
}

static int end(kp_emitter *w, int obj)
{
	if (!w)
		return KP_EINVAL;
	frame *f = top(w);
	if (w->error)
		return w->error;
	if (!f || f->obj != obj || w->have_key)
		return MISUSE(w);
	w->depth--;
	if (!w->yaml) {
		if (f->n && w->step) {
			putc_(w, '\n');
			indent(w, (int)w->depth * w->step);
		}
		putc_(w, obj ? '}' : ']');
	} else if (!f->n) {
		yaml_scalar_text(w, obj ? "{}" : "[]", 2);
	}
	return value_end(w);
}

KP_EXPORT int kp_emitter_begin_object(kp_emitter *em)
{
	return begin(em, 1);
}

KP_EXPORT int kp_emitter_end_object(kp_emitter *em)
{
	return end(em, 1);
}

KP_EXPORT int kp_emitter_begin_array(kp_emitter *em)
{
	return begin(em, 0);
}

KP_EXPORT int kp_emitter_end_array(kp_emitter *em)
{
	return end(em, 0);
}

static int key_n(kp_emitter *w, const char *key, size_t len)
{
	frame *f = top(w);
	if (w->error)
		return w->error;
	if (!f || !f->obj || w->have_key)
		return MISUSE(w);
	if (!w->yaml) {
		json_preface(w, f);
		quoted(w, key, len, 0);
		if (w->step)
			put(w, ": ", 2);
		else
			putc_(w, ':');
	} else {
		if (!f->n)
			yaml_open(w, f);
		if (f->n || f->ctx != CTX_ITEM)
			indent(w, f->col);
		if (yaml_string_len(key, len) > YAML_SIMPLE_KEY_MAX) {
			puts_(w, "? ");
			yaml_string(w, key, len);
			putc_(w, '\n');
			indent(w, f->col);
		} else {
			yaml_string(w, key, len);
		}
		putc_(w, ':');
	}
	f->n++;
	w->have_key = 1;
	return w->error;
}

KP_EXPORT int kp_emitter_key(kp_emitter *em, const char *key)
{
	if (!em)
		return KP_EINVAL;
	if (!key)
		return MISUSE(em);
	return key_n(em, key, strlen(key));
}

KP_EXPORT int kp_emitter_string_n(kp_emitter *em, const char *s, size_t len)
{
	if (!em)
		return KP_EINVAL;
	if (!s && len)
		return MISUSE(em);
	if (value_start(em))
		return em->error;
	if (!s)
		s = "";
	if (!em->yaml) {
		quoted(em, s, len, 0);
	} else {
		if (em->depth)
			putc_(em, ' ');
		yaml_string(em, s, len);
		putc_(em, '\n');
	}
	return value_end(em);
}

KP_EXPORT int kp_emitter_string(kp_emitter *em, const char *s)
{
	if (!s)
		return kp_emitter_null(em);
	return kp_emitter_string_n(em, s, strlen(s));
}

/* A scalar written as it is (a number's text, true, false, null). */
static int literal(kp_emitter *w, const char *text, size_t len)
{
	if (value_start(w))
		return w->error;
	if (!w->yaml)
		put(w, text, len);
	else
		yaml_scalar_text(w, text, len);
	return value_end(w);
}

KP_EXPORT int kp_emitter_number(kp_emitter *em, double d)
{
	char num[72];
	if (!em)
		return KP_EINVAL;
	if (!isfinite(d))
		return fail(em, KP_EINVAL, "a number is not finite");
	fmt_number(num, sizeof(num), d);
	if (em->yaml) {
		/* YAML 1.1 floats need a '.': 1e-05 would read as a string. */
		char *e = strchr(num, 'e');
		if (e && !strchr(num, '.')) {
			memmove(e + 2, e, strlen(e) + 1);
			e[0] = '.';
			e[1] = '0';
		}
	}
	return literal(em, num, strlen(num));
}

KP_EXPORT int kp_emitter_int(kp_emitter *em, int64_t v)
{
	char num[24];
	if (!em)
		return KP_EINVAL;
	int n = snprintf(num, sizeof(num), "%" PRId64, v);
	return literal(em, num, (size_t)n);
}

KP_EXPORT int kp_emitter_bool(kp_emitter *em, int b)
{
	if (!em)
		return KP_EINVAL;
	return b ? literal(em, "true", 4) : literal(em, "false", 5);
}

KP_EXPORT int kp_emitter_null(kp_emitter *em)
{
	if (!em)
		return KP_EINVAL;
	return literal(em, "null", 4);
}

KP_EXPORT int kp_emitter_status(const kp_emitter *em)
{
	return em ? em->error : KP_EINVAL;
}

/* The end of the document without freeing: complete, flushed. */
static int finish(kp_emitter *w)
{
	if (!w->error && (w->depth || !w->done))
		MISUSE(w);
	if (!w->error && !w->yaml && w->step == 4)
		putc_(w, '\n');
	flush(w);
	return w->error;
}

KP_EXPORT int kp_emitter_close(kp_emitter *em, kp_error *err)
{
	if (!em)
		return kp__error(err, KP_EINVAL, NULL, "NULL emitter");
	int rc = finish(em);
	if (rc)
		kp__error(err, rc, NULL, "%s", em->why ? em->why : "cannot write the document");
	kp__free(em->stack);
	kp__free(em);
	return rc;
}

/* ------------------------------------------------------------------ */
/* A document tree (tree.h)                                            */

/* Whether the n bytes at s are a JSON integer: -?(0|[1-9][0-9]*). */
static int json_integer(const char *s, size_t n)
{
	const char *end = s + n;
	if (s < end && *s == '-')
		s++;
	if (s < end && *s == '0')
		return s + 1 == end;
	if (s >= end || *s < '1' || *s > '9')
		return 0;
	while (s < end && *s >= '0' && *s <= '9')
		s++;
	return s == end;
}

/* A number as a reader wrote it: JSON keeps the text, and so does YAML for
 * an integer; any other number is written in YAML 1.1's float form (a '.'
 * in the mantissa, a sign in the exponent: 1e2 is 1.0e+2), which YAML 1.1
 * and 1.2 readers both read as the same number (YAML 1.1 reads 1e2 as a
 * string). The digits are kept: no rounding through a double. */
static int number_text(kp_emitter *w, const char *text, size_t len)
{
	if (!w->yaml || json_integer(text, len))
		return literal(w, text, len);
	const char *e = memchr(text, 'e', len);
	if (!e)
		e = memchr(text, 'E', len);
	size_t mant = e ? (size_t)(e - text) : len;
	int dot = memchr(text, '.', mant) != NULL;
	int sign = e && e + 1 < text + len && (e[1] == '+' || e[1] == '-');
	char small[64];
	size_t cap = len + 4;
	char *num = cap <= sizeof(small) ? small : kp__malloc(cap);
	if (!num)
		return fail(w, KP_ENOMEM, "out of memory");
	size_t n = 0;
	memcpy(num, text, mant);
	n = mant;
	if (!dot) {
		memcpy(num + n, ".0", 2);
		n += 2;
	}
	if (e) {
		num[n++] = *e;
		if (!sign)
			num[n++] = '+';
		memcpy(num + n, e + 1, len - mant - 1);
		n += len - mant - 1;
	}
	int rc = literal(w, num, n);
	if (num != small)
		kp__free(num);
	return rc;
}

static int emit_node(kp_emitter *w, const kp__node *n)
{
	switch (n->type) {
	case KP__N_NULL:
		return kp_emitter_null(w);
	case KP__N_BOOL:
		return kp_emitter_bool(w, n->boolean);
	case KP__N_NUMBER:
		return number_text(w, n->text, n->len);
	case KP__N_STRING:
		return kp_emitter_string_n(w, n->text, n->len);
	default:
		break;
	}
	int obj = n->type == KP__N_OBJECT;
	begin(w, obj);
	for (size_t i = 0; i < n->n && !w->error; i++) {
		if (obj)
			key_n(w, n->keys[i], strlen(n->keys[i]));
		emit_node(w, n->items[i]);
	}
	return end(w, obj);
}

int kp__emit_node(kp_emitter *w, const kp__node *n)
{
	return n ? emit_node(w, n) : MISUSE(w);
}

int kp__emitter_fail(kp_emitter *w, int code)
{
	return fail(w, code ? code : KP_EINVAL, "a value could not be written whole");
}

static int buf_write(void *ctx, const char *data, size_t len)
{
	kp__buf_put(ctx, data, len);
	return 0;
}

/* A JSON emitter appending to @p out with @p indent_ spaces (0: compact);
 * NULL (and out->failed) when out of memory. */
static kp_emitter *buf_emitter(kp__buf *out, int indent_)
{
	kp_emitter_options o = KP_EMITTER_OPTIONS_INIT;
	o.format = KP_FORMAT_JSON;
	o.indent = indent_ == 4 ? KP_EMITTER_INDENT_KUBECTL
		   : indent_ ? KP_EMITTER_INDENT_2 : KP_EMITTER_INDENT_COMPACT;
	kp_emitter *w = NULL;
	if (kp_emitter_new(&w, &o, buf_write, out, NULL) != KP_OK)
		out->failed = 1;
	return w;
}

void kp__json_write(kp__buf *out, const kp__node *n, int indent_)
{
	kp_emitter *w = buf_emitter(out, indent_);
	if (!w)
		return;
	kp__emit_node(w, n);
	if (kp_emitter_close(w, NULL) != KP_OK)
		out->failed = 1;
	/* a value inside the caller's text: no document's final newline */
	if (indent_ == 4 && !out->failed && out->len && out->data[out->len - 1] == '\n')
		out->data[--out->len] = '\0';
}

/* The one YAML writer: a tree as the emitter writes it, block style, a
 * final newline. */
void kp__yaml_write(kp__buf *out, const kp__node *n)
{
	kp_emitter_options o = KP_EMITTER_OPTIONS_INIT;
	o.format = KP_FORMAT_YAML;
	kp_emitter *w = NULL;
	if (kp_emitter_new(&w, &o, buf_write, out, NULL) != KP_OK) {
		out->failed = 1;
		return;
	}
	kp__emit_node(w, n);
	if (kp_emitter_close(w, NULL) != KP_OK)
		out->failed = 1;
}

void kp__json_write_string(kp__buf *out, const char *s, size_t len)
{
	kp_emitter *w = buf_emitter(out, 0);
	if (!w)
		return;
	kp_emitter_string_n(w, s, len);
	if (kp_emitter_close(w, NULL) != KP_OK)
		out->failed = 1;
}

/* ------------------------------------------------------------------ */
/* Splicing JSON text                                                  */

/* Parsed by the library's JSON reader (its escapes, its U+FFFD for a lone
 * surrogate, its refusal of NUL), bounded by the text's size, then
 * written as a tree. */
KP_EXPORT int kp_emitter_json(kp_emitter *em, const char *text, size_t len)
{
	if (!em)
		return KP_EINVAL;
	if (em->error)
		return em->error;
	if (!text)
		return fail(em, KP_EPARSE, "not one JSON value");
	kp__budget b = { .max_nodes = len + 16, .max_text = len + 16, .max_depth = SPLICE_MAX_DEPTH };
	kp__node *docs = NULL;
	kp_error e = KP_ERROR_INIT;
	int rc = kp__json_parse(&docs, text, len, &b, &e);
	if (rc == KP_OK && (!docs || docs->n != 1))
		rc = KP_EPARSE;
	if (rc == KP_OK)
		emit_node(em, docs->items[0]);
	else
		fail(em, rc == KP_ENOMEM ? KP_ENOMEM : KP_EPARSE,
		     rc == KP_ENOMEM ? "out of memory" : "not one JSON value");
	kp__node_free(docs);
	return em->error;
}
