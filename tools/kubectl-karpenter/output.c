/*
 * kubectl-karpenter: the JSON and YAML writers of a cJSON document (see
 * output.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

/* A YAML simple key (written on the key's line, before ':') may be at most
 * 1024 characters long for libyaml, PyYAML and go-yaml; a key written
 * longer than this is written as an explicit key ("? key"). */
#define YAML_SIMPLE_KEY_MAX 1000

/* Where text goes: a stream, or nowhere (f NULL) to measure it. */
typedef struct sink {
	FILE *f;
	size_t n; /* bytes written (or that would be) */
} sink;

static void put(sink *o, const char *s, size_t n)
{
	if (o->f)
		fwrite(s, 1, n, o->f);
	o->n += n;
}

static void puts_(sink *o, const char *s)
{
	put(o, s, strlen(s));
}

static void putc_(sink *o, char c)
{
	put(o, &c, 1);
}

static void indent(sink *o, int n)
{
	for (int i = 0; i < n; i++)
		putc_(o, ' ');
}

/* \uXXXX (lowercase hex, as Go's encoding/json writes it). */
static void put_u(sink *o, uint32_t cp)
{
	static const char hex[] = "0123456789abcdef";
	char u[6] = { '\\', 'u', hex[(cp >> 12) & 15], hex[(cp >> 8) & 15], hex[(cp >> 4) & 15],
		      hex[cp & 15] };
	put(o, u, sizeof(u));
}

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

/* The string body of a JSON or YAML double-quoted scalar. ASCII is written
 * as JSON writes it (C0 controls and, for YAML, DEL as \u00XX); invalid
 * UTF-8 becomes \ufffd; U+2028/U+2029 are escaped (both formats); for YAML
 * also C1 controls (NEL included), U+FEFF, U+FFFE and U+FFFF, which YAML
 * does not allow raw or reads as line breaks. */
static void quoted(sink *o, const char *str, int yaml)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	putc_(o, '"');
	while (*s) {
		unsigned char c = *s;
		if (c < 0x80) {
			switch (c) {
			case '"': puts_(o, "\\\""); break;
			case '\\': puts_(o, "\\\\"); break;
			case '\n': puts_(o, "\\n"); break;
			case '\r': puts_(o, "\\r"); break;
			case '\t': puts_(o, "\\t"); break;
			case '\b': puts_(o, "\\b"); break;
			case '\f': puts_(o, "\\f"); break;
			default:
				if (c < 0x20 || (yaml && c == 0x7f))
					put_u(o, c);
				else
					putc_(o, (char)c);
			}
			s++;
			continue;
		}
		uint32_t cp = 0;
		size_t n = utf8_char(s, &cp);
		if (!n) {
			put_u(o, 0xFFFD);
			s++;
			continue;
		}
		if (cp == 0x2028 || cp == 0x2029 ||
		    (yaml && (cp <= 0x9F || cp == 0xFEFF || cp == 0xFFFE || cp == 0xFFFF)))
			put_u(o, cp);
		else
			put(o, (const char *)s, n);
		s += n;
	}
	putc_(o, '"');
}

/* ------------------------------------------------------------------ */
/* Numbers                                                             */
/* ------------------------------------------------------------------ */

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

/* ------------------------------------------------------------------ */
/* Finding a number that cannot be written                             */
/* ------------------------------------------------------------------ */

static int simple_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-'))
			return 0;
	return 1;
}

/* Steps from doc down to the bad number, written as a path. */
static int write_path(const cJSON *const *steps, size_t n, char **path)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return -1;
	sink o = { f, 0 };
	for (size_t i = 1; i < n; i++) {
		const cJSON *parent = steps[i - 1], *c = steps[i];
		if (cJSON_IsArray(parent)) {
			size_t k = 0;
			for (const cJSON *x = parent->child; x && x != c; x = x->next)
				k++;
			fprintf(f, "[%zu]", k);
		} else if (c->string && simple_name(c->string)) {
			if (i > 1)
				putc_(&o, '.');
			puts_(&o, c->string);
		} else {
			putc_(&o, '[');
			quoted(&o, c->string, 0);
			putc_(&o, ']');
		}
	}
	if (n <= 1)
		puts_(&o, "(the document)");
	if (fclose(f) != 0) {
		free(text);
		return -1;
	}
	*path = text;
	return 0;
}

int cli_output_find_nonfinite(const cJSON *doc, char **path)
{
	if (path)
		*path = NULL;
	/* Depth-first walk without recursion; steps holds the way down. */
	const cJSON **steps = NULL;
	size_t n = 0, cap = 0;
	const cJSON *v = doc;
	int rc = CLI_OUTPUT_OK;
	while (v) {
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			const cJSON **s = realloc((void *)steps, ncap * sizeof(*s));
			if (!s) {
				rc = CLI_OUTPUT_NOMEM;
				break;
			}
			steps = s;
			cap = ncap;
		}
		steps[n++] = v;
		if (cJSON_IsNumber(v) && !isfinite(v->valuedouble)) {
			rc = CLI_OUTPUT_NONFINITE;
			if (path && write_path(steps, n, path))
				*path = NULL;
			break;
		}
		if ((cJSON_IsArray(v) || cJSON_IsObject(v)) && v->child) {
			v = v->child;
			continue;
		}
		/* Next sibling of v or of the nearest ancestor that has one. */
		v = NULL;
		while (n > 1) {
			const cJSON *done = steps[--n];
			if (done->next) {
				v = done->next;
				break;
			}
		}
	}
	free((void *)steps);
	return rc;
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */
/* ------------------------------------------------------------------ */

static void emit_json(sink *o, const cJSON *v, int level)
{
	char num[64];
	if (cJSON_IsObject(v) || cJSON_IsArray(v)) {
		int obj = cJSON_IsObject(v);
		const cJSON *c = v->child;
		if (!c) {
			puts_(o, obj ? "{}" : "[]");
			return;
		}
		putc_(o, obj ? '{' : '[');
		for (; c; c = c->next) {
			putc_(o, '\n');
			indent(o, (level + 1) * 4);
			if (obj) {
				quoted(o, c->string, 0);
				puts_(o, ": ");
			}
			emit_json(o, c, level + 1);
			if (c->next)
				putc_(o, ',');
		}
		putc_(o, '\n');
		indent(o, level * 4);
		putc_(o, obj ? '}' : ']');
	} else if (cJSON_IsString(v)) {
		quoted(o, v->valuestring, 0);
	} else if (cJSON_IsNumber(v)) {
		fmt_number(num, sizeof(num), v->valuedouble);
		puts_(o, num);
	} else if (cJSON_IsBool(v)) {
		puts_(o, cJSON_IsTrue(v) ? "true" : "false");
	} else {
		puts_(o, "null");
	}
}

int cli_output_json(FILE *out, const cJSON *doc, char **bad_path)
{
	int rc = cli_output_find_nonfinite(doc, bad_path);
	if (rc)
		return rc;
	sink o = { out, 0 };
	emit_json(&o, doc, 0);
	putc_(&o, '\n');
	return CLI_OUTPUT_OK;
}

/* ------------------------------------------------------------------ */
/* YAML                                                                */
/* ------------------------------------------------------------------ */

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
	for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		if (ieq(s, reserved[i]))
			return 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p >= 0x7f)
			return 0;
		if (*p == ':' && (p[1] == ' ' || p[1] == '\0'))
			return 0;
		if (*p == '#' && p > (const unsigned char *)s && p[-1] == ' ')
			return 0;
	}
	size_t l = strlen(s);
	if (s[l - 1] == ' ')
		return 0;
	return 1;
}

static void yaml_string(sink *o, const char *s)
{
	if (!s)
		s = "";
	if (yaml_plain_ok(s))
		puts_(o, s);
	else
		quoted(o, s, 1);
}

static void yaml_scalar(sink *o, const cJSON *v)
{
	char num[72];
	if (cJSON_IsString(v)) {
		yaml_string(o, v->valuestring);
	} else if (cJSON_IsNumber(v)) {
		fmt_number(num, sizeof(num), v->valuedouble);
		/* YAML 1.1 floats need a '.': 1e-05 would read as a string. */
		char *e = strchr(num, 'e');
		if (e && !strchr(num, '.')) {
			memmove(e + 2, e, strlen(e) + 1);
			e[0] = '.';
			e[1] = '0';
		}
		puts_(o, num);
	} else if (cJSON_IsBool(v)) {
		puts_(o, cJSON_IsTrue(v) ? "true" : "false");
	} else if (cJSON_IsObject(v)) {
		puts_(o, "{}"); /* only reached when empty */
	} else if (cJSON_IsArray(v)) {
		puts_(o, "[]");
	} else {
		puts_(o, "null");
	}
}

static void emit_yaml_seq(sink *o, const cJSON *v, int col);

/* A non-empty mapping at column @p col; when @p inline_first, the caller
 * has already written the indentation (and "- ") of the first key. */
static void emit_yaml_map(sink *o, const cJSON *v, int col, int inline_first)
{
	for (const cJSON *c = v->child; c; c = c->next) {
		if (c != v->child || !inline_first)
			indent(o, col);
		sink measure = { NULL, 0 };
		yaml_string(&measure, c->string);
		if (measure.n > YAML_SIMPLE_KEY_MAX) {
			puts_(o, "? ");
			yaml_string(o, c->string);
			putc_(o, '\n');
			indent(o, col);
		} else {
			yaml_string(o, c->string);
		}
		putc_(o, ':');
		if (cJSON_IsObject(c) && c->child) {
			putc_(o, '\n');
			emit_yaml_map(o, c, col + 2, 0);
		} else if (cJSON_IsArray(c) && c->child) {
			putc_(o, '\n');
			emit_yaml_seq(o, c, col); /* kubectl's style: "- " under the key */
		} else {
			putc_(o, ' ');
			yaml_scalar(o, c);
			putc_(o, '\n');
		}
	}
}

static void emit_yaml_seq(sink *o, const cJSON *v, int col)
{
	for (const cJSON *c = v->child; c; c = c->next) {
		indent(o, col);
		puts_(o, "-");
		if (cJSON_IsObject(c) && c->child) {
			putc_(o, ' ');
			emit_yaml_map(o, c, col + 2, 1);
		} else if (cJSON_IsArray(c) && c->child) {
			putc_(o, '\n');
			emit_yaml_seq(o, c, col + 2);
		} else {
			putc_(o, ' ');
			yaml_scalar(o, c);
			putc_(o, '\n');
		}
	}
}

int cli_output_yaml(FILE *out, const cJSON *doc, char **bad_path)
{
	int rc = cli_output_find_nonfinite(doc, bad_path);
	if (rc)
		return rc;
	sink o = { out, 0 };
	if (cJSON_IsObject(doc) && doc->child) {
		emit_yaml_map(&o, doc, 0, 0);
	} else if (cJSON_IsArray(doc) && doc->child) {
		emit_yaml_seq(&o, doc, 0);
	} else {
		yaml_scalar(&o, doc);
		putc_(&o, '\n');
	}
	return CLI_OUTPUT_OK;
}
