/*
 * YAML text -> document tree (writing is the emitter's: emitter.c).
 *
 * Reading follows what Kubernetes clients do with YAML (sigs.k8s.io/yaml:
 * go-yaml v2 into interface{}, then JSON): plain scalars are typed with the
 * YAML 1.1 rules of go-yaml v2 (null ~ Null NULL and the empty scalar;
 * true/false, yes/no, on/off, y/n in three casings; integers in decimal,
 * 0x, 0o, 0b and leading-0 octal with '_' separators; floats; timestamps stay
 * strings), quoted and block scalars are strings, explicit !!str/!!int/
 * !!float/!!bool/!!null tags are honoured, numbers are written as Go's JSON
 * encoder writes them, and NaN/Inf are rejected as JSON cannot hold them.
 * Anchors and aliases are supported; every alias is expanded as a copy that
 * counts against the node and text budgets, so "billion laughs" input ends in
 * an error instead of unbounded memory. Merge keys (<<) merge mappings; keys
 * written in the mapping win. Map keys must be scalars; they are converted
 * to strings (null keys are rejected).
 *
 * Writing (emitter.c, for trees and events alike) produces block style
 * with two-space indentation (sequences not indented under their key, as
 * go-yaml writes them) and quotes every string that would not read back as
 * the same string.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L

#include <locale.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "common/map.h"
#include "tree.h"

/* ---- number text, as Go's encoding/json writes a float64 ---- */

/* Shortest decimal that round-trips (strconv 'g' -1), in JSON style. */
static int go_json_float(double v, char *out, size_t size)
{
	if (isnan(v) || isinf(v))
		return -1;
	if (v == 0) {
		snprintf(out, size, "%s", signbit(v) ? "-0" : "0");
		return 0;
	}
	char e[40];
	int prec;
	for (prec = 0; prec < 17; prec++) {
		snprintf(e, sizeof(e), "%.*e", prec, v);
		if (strtod(e, NULL) == v)
			break;
	}
	/* e = [-]d[.ddd]e(+|-)XX; collect the digits and the exponent. */
	char digits[24];
	size_t nd = 0;
	const char *p = e;
	int neg = 0;
	if (*p == '-') {
		neg = 1;
		p++;
	}
	for (; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9' && nd < sizeof(digits) - 1)
			digits[nd++] = *p;
	digits[nd] = '\0';
	int exp10 = *p == 'e' ? atoi(p + 1) : 0;
	while (nd > 1 && digits[nd - 1] == '0')
		digits[--nd] = '\0';
	double a = fabs(v);
	char *o = out;
	char *end = out + size - 1;
#define PUT(c) do { if (o < end) *o++ = (c); } while (0)
	if (neg)
		PUT('-');
	if (a < 1e-6 || a >= 1e21) {
		PUT(digits[0]);
		if (nd > 1) {
			PUT('.');
			for (size_t i = 1; i < nd; i++)
				PUT(digits[i]);
		}
		PUT('e');
		PUT(exp10 < 0 ? '-' : '+');
		char x[16];
		snprintf(x, sizeof(x), "%d", exp10 < 0 ? -exp10 : exp10);
		/* Go writes at least two exponent digits, then encoding/json
		 * drops the leading zero of a negative one (e-07 -> e-7). */
		if (x[1] == '\0' && exp10 >= 0)
			PUT('0');
		for (char *q = x; *q; q++)
			PUT(*q);
	} else if (exp10 < 0) {
		PUT('0');
		PUT('.');
		for (int i = -1; i > exp10; i--)
			PUT('0');
		for (size_t i = 0; i < nd; i++)
			PUT(digits[i]);
	} else {
		for (int i = 0; i <= exp10; i++)
			PUT((size_t)i < nd ? digits[i] : '0');
		if ((size_t)exp10 + 1 < nd) {
			PUT('.');
			for (size_t i = (size_t)exp10 + 1; i < nd; i++)
				PUT(digits[i]);
		}
	}
#undef PUT
	*o = '\0';
	return 0;
}

/* strtod and printf in the "C" locale whatever the application set. */
static int float_text(const char *s, char *out, size_t size, int *is_inf_nan)
{
	locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	locale_t old = c ? uselocale(c) : (locale_t)0;
	char *end;
	double v = strtod(s, &end);
	int rc;
	*is_inf_nan = 0;
	if (*end != '\0') {
		rc = -1;
	} else if (isinf(v)) {
		/* Go's ParseFloat reports out-of-range values as errors. */
		rc = -1;
	} else {
		rc = go_json_float(v, out, size);
	}
	if (c) {
		uselocale(old);
		freelocale(c);
	}
	return rc;
}

/* ---- scalar typing (go-yaml v2 resolve) ---- */

enum res {
	RES_STRING,
	RES_NULL,
	RES_BOOL,
	RES_NUMBER, /* num holds JSON text */
	RES_INF_NAN,
	RES_MERGE
};

static int in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}

static const char *const yes_words[] = { "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE",
					 "on", "On", "ON", NULL };
static const char *const no_words[] = { "n", "N", "no", "No", "NO", "false", "False", "FALSE",
					"off", "Off", "OFF", NULL };
static const char *const null_words[] = { "", "~", "null", "Null", "NULL", NULL };
static const char *const infnan_words[] = { ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF",
					    "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf",
					    "-.INF", NULL };

static int digit_in_base(char c, int base)
{
	int d;
	if (c >= '0' && c <= '9')
		d = c - '0';
	else if (c >= 'a' && c <= 'z')
		d = c - 'a' + 10;
	else if (c >= 'A' && c <= 'Z')
		d = c - 'A' + 10;
	else
		return -1;
	return d < base ? d : -1;
}

/* strconv.ParseInt/ParseUint(s, 0, 64): 1 and the decimal text on success. */
static int parse_go_int(const char *s, char *out, size_t size)
{
	const char *p = s;
	int neg = 0;
	if (*p == '+' || *p == '-') {
		neg = *p == '-';
		p++;
	}
	int base = 10;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	} else if (p[0] == '0' && (p[1] == 'o' || p[1] == 'O')) {
		base = 8;
		p += 2;
	} else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) {
		base = 2;
		p += 2;
	} else if (p[0] == '0' && p[1] != '\0') {
		base = 8;
		p += 1;
	}
	if (*p == '\0')
		return 0;
	uint64_t v = 0;
	for (; *p; p++) {
		int d = digit_in_base(*p, base);
		if (d < 0)
			return 0;
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return 0;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	if (neg) {
		if (v > (uint64_t)INT64_MAX + 1)
			return 0;
		if (v == 0)
			snprintf(out, size, "0");
		else
			snprintf(out, size, "-%llu", (unsigned long long)v);
	} else {
		/* int64, or uint64 through ParseUint (which takes no sign). */
		if (v > (uint64_t)INT64_MAX && s[0] == '+')
			return 0;
		snprintf(out, size, "%llu", (unsigned long long)v);
	}
	return 1;
}

/* ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$ */
static int yaml_style_float(const char *s)
{
	const char *p = s;
	if (*p == '+' || *p == '-')
		p++;
	if (*p == '.') {
		p++;
		if (!(*p >= '0' && *p <= '9'))
			return 0;
		while (*p >= '0' && *p <= '9')
			p++;
	} else {
		if (!(*p >= '0' && *p <= '9'))
			return 0;
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p == '.') {
			p++;
			while (*p >= '0' && *p <= '9')
				p++;
		}
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!(*p >= '0' && *p <= '9'))
			return 0;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return *p == '\0';
}

/* Type of a plain scalar; for numbers, num receives the JSON text. */
static enum res resolve_plain(const char *s, size_t len, char *num, size_t num_size, int *boolean)
{
	/* Every word of the lists below starts with one of these (or is
	 * empty): most scalars are strings or numbers decided without them. */
	if (s[0] && !strchr("~nNyYtTfFoO.<", s[0]))
		goto not_a_word;
	if (in_list(s, null_words))
		return RES_NULL;
	if (in_list(s, yes_words)) {
		*boolean = 1;
		return RES_BOOL;
	}
	if (in_list(s, no_words)) {
		*boolean = 0;
		return RES_BOOL;
	}
	if (in_list(s, infnan_words))
		return RES_INF_NAN;
	if (strcmp(s, "<<") == 0)
		return RES_MERGE;
not_a_word:;
	char c = s[0];
	int inf_nan;
	if (c == '.') {
		if (len < 64 && yaml_style_float(s) && float_text(s, num, num_size, &inf_nan) == 0)
			return RES_NUMBER;
		return RES_STRING;
	}
	if (!((c >= '0' && c <= '9') || c == '+' || c == '-'))
		return RES_STRING;
	if (len > 400)
		return RES_STRING;
	char plain[401];
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		if (s[i] != '_')
			plain[n++] = s[i];
	plain[n] = '\0';
	if (parse_go_int(plain, num, num_size))
		return RES_NUMBER;
	if (yaml_style_float(plain) && float_text(plain, num, num_size, &inf_nan) == 0)
		return RES_NUMBER;
	return RES_STRING;
}

/* ---- parser ---- */

typedef struct frame {
	kp__node *node;
	char *anchor;
	char *key;        /* pending key of a mapping, NULL when a key is expected */
	int key_is_merge; /* the pending key is "<<" */
	kp__node *merges; /* values of "<<" keys, in order, or NULL */
	int streamed;     /* the top-level "items" sequence: elements go to the sink */
	size_t streamed_n; /* elements streamed so far */
	/* What the sink reads of this node (kp__doc_sink.root_scope): */
	const void *scope; /* a mapping's members, or a sequence's elements; NULL: all */
	int root;          /* a document or List item: the scope comes with its kind */
	int skipping;      /* the pending key's value is being skipped */
	size_t skip_depth; /* collections open inside the skipped value */
} frame;

typedef struct yparser {
	yaml_parser_t parser;
	kp__budget *b;
	kp_error *err;
	int over;
	frame *stack;
	size_t depth;
	kp__map anchors;      /* anchor name -> index in anchor_nodes */
	kp__node **anchor_nodes; /* borrowed from the tree */
	size_t n_anchors;
	size_t cap_anchors;
	kp__node *root;
	int have_root;
	kp__node *keep; /* consumed nodes an anchor may still point at */
	size_t doc; /* 1-based document number */
	int expanded; /* the document has an alias or a merge key ("<<") */
	/* Node limits (see doc_limit): the caller's budget is per document,
	 * beyond the document's own size; the whole input may not exceed
	 * the budget beyond the input's size. */
	size_t base_nodes;  /* the caller's max_nodes */
	size_t input_cap;   /* base_nodes + the input's size */
	size_t doc_first;   /* nodes created before this document */
	size_t doc_start;   /* byte offset of this document's start */
	int doc_limited;    /* the per-document limit is the one in force */
	/* kp__yaml_parse_each: each document goes to the sink and is freed */
	const kp__doc_sink *sink;
	int sink_rc;        /* the sink's first error; not called after it */
	kp_error sink_err;
	int doc_streamed;   /* this document's "items" went to the sink */
	size_t anchor_sets; /* anchors defined so far (redefinitions too) */
	size_t item_anchors; /* anchor_sets when the current streamed element began */
	size_t item_live;   /* live nodes when the current streamed element began */
	/* kp__yaml_read_each: the input, read as libyaml asks for it */
	kp__reader *rd;
	int read_rc;        /* the reader's error, which libyaml reports as its own */
	kp_error read_err;
} yparser;

static size_t sat_add(size_t a, size_t b)
{
	return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

/* The node limit in force at byte @p at of the input. Without aliases a
 * document cannot create more nodes than it has bytes, so a limit of
 * max_nodes beyond the document's size only ever stops alias and merge-key
 * expansion (a billion laughs), however large the document or the stream:
 * a 100,000-object cluster dump reads, and one document cannot borrow
 * another's allowance. The whole input keeps max_nodes beyond its size,
 * so that many expanding documents cannot add up either. */
static void doc_limit(yparser *y, size_t at)
{
	size_t doc_bytes = at > y->doc_start ? at - y->doc_start : 0;
	size_t per_doc = sat_add(sat_add(y->doc_first, y->base_nodes), doc_bytes);
	y->doc_limited = per_doc < y->input_cap;
	y->b->max_nodes = y->doc_limited ? per_doc : y->input_cap;
	if (y->sink) /* the tree is freed document by document */
		y->b->max_live = KP__LIVE_BASE + doc_bytes / KP__LIVE_BYTES;
}

static void anchors_clear(yparser *y)
{
	kp__map_free(&y->anchors);
	kp__free(y->anchor_nodes);
	y->anchor_nodes = NULL;
	y->n_anchors = y->cap_anchors = 0;
}

/* Register (or redefine) an anchor. */
static int anchor_set(yparser *y, const char *name, kp__node *node)
{
	if (kp__grow((void **)&y->anchor_nodes, &y->cap_anchors, y->n_anchors + 1,
		     sizeof(*y->anchor_nodes)) != KP_OK)
		return KP_ENOMEM;
	uint32_t at;
	int inserted;
	if (kp__map_put(&y->anchors, name, strlen(name), (uint32_t)y->n_anchors, &at, &inserted) !=
	    KP_OK)
		return KP_ENOMEM;
	if (inserted)
		y->n_anchors++;
	y->anchor_nodes[at] = node;
	y->anchor_sets++;
	return KP_OK;
}

static kp__node *anchor_get(yparser *y, const char *name)
{
	uint32_t at;
	return kp__map_gets(&y->anchors, name, &at) ? y->anchor_nodes[at] : NULL;
}

static int yerr_at(yparser *y, size_t line, const char *fmt, ...) KP_PRINTF(3, 4);

/* "document D: line L: " and the message, formatted straight into
 * kp_error::message (truncated to fit, as kp__error does). */
static int yerr_at(yparser *y, size_t line, const char *fmt, ...)
{
	kp_error *e = y->err;
	if (!e)
		return KP_EPARSE;
	char prefix[64]; /* two size_t numbers: bounded */
	int pn = snprintf(prefix, sizeof(prefix), "document %zu: line %zu: ", y->doc, line + 1);
	size_t plen = pn > 0 ? (size_t)pn : 0;
	kp__error(e, KP_EPARSE, NULL, "%s", "");
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->message, sizeof(e->message), fmt, ap);
	va_end(ap);
	size_t cap = sizeof(e->message) - 1;
	size_t mlen = strlen(e->message);
	if (plen > cap)
		plen = cap;
	if (mlen > cap - plen)
		mlen = cap - plen;
	memmove(e->message + plen, e->message, mlen);
	memcpy(e->message, prefix, plen);
	e->message[plen + mlen] = '\0';
	return KP_EPARSE;
}

/* A spent budget names the limit it hit: the document's nodes (max_nodes
 * beyond its own size), the whole input's nodes (max_nodes beyond the
 * input's size) or the input's text; copies made by aliases and merge keys
 * are mentioned only when this document has some. */
static int yerr_budget(yparser *y, size_t line)
{
	const char *after = y->expanded ? " after alias expansion" : "";
	if (y->over == KP__OVER_LIVE)
		return kp__error(y->err, KP_ERANGE, NULL,
				 "document %zu: line %zu: the document holds more than %zu values at "
				 "once%s (at most %zu plus one for every %u bytes of it)",
				 y->doc, line + 1, y->b->max_live, after, KP__LIVE_BASE,
				 KP__LIVE_BYTES);
	if (y->over == KP__OVER_TEXT)
		return kp__error(y->err, KP_ERANGE, NULL,
				 "document %zu: line %zu: the input has more than %zu bytes of "
				 "string and number text%s", y->doc, line + 1, y->b->max_text, after);
	if (y->over && y->doc_limited)
		return kp__error(y->err, KP_ERANGE, NULL,
				 "document %zu: line %zu: the document has more than %zu nodes%s "
				 "(at most %zu more than its size in bytes)",
				 y->doc, line + 1, y->b->max_nodes - y->doc_first, after,
				 y->base_nodes);
	if (y->over)
		return kp__error(y->err, KP_ERANGE, NULL,
				 "document %zu: line %zu: the input has more than %zu nodes%s "
				 "(at most %zu more than its size in bytes)",
				 y->doc, line + 1, y->b->max_nodes, after, y->base_nodes);
	return kp__error(y->err, KP_ENOMEM, NULL, "out of memory");
}

static char *dup_or_null(const unsigned char *s)
{
	return s ? kp__strdup((const char *)s) : NULL;
}

/* Key text of a scalar node used as a mapping key. */
static int key_text(yparser *y, kp__node *k, size_t line, char **out)
{
	switch (k->type) {
	case KP__N_STRING:
	case KP__N_NUMBER:
		*out = kp__strndup(k->text, k->len);
		break;
	case KP__N_BOOL:
		*out = kp__strdup(k->boolean ? "true" : "false");
		break;
	default:
		return yerr_at(y, line, "unsupported map key of type %s", kp__node_type_name(k->type));
	}
	return *out ? KP_OK : KP_ENOMEM;
}

struct key_ix {
	const char *key;
};

static int key_ix_cmp(const void *a, const void *b)
{
	return strcmp(((const struct key_ix *)a)->key, ((const struct key_ix *)b)->key);
}

/* Merge the "<<" values into the mapping: keys written in the mapping win,
 * and of several merged maps the earlier one wins. O(n log n). */
static int apply_merges(yparser *y, frame *f, size_t line)
{
	kp__node *m = f->node;
	size_t n0 = m->n;
	struct key_ix *ix = NULL;
	if (n0) {
		ix = kp__calloc(n0, sizeof(*ix));
		if (!ix)
			return KP_ENOMEM;
		for (size_t i = 0; i < n0; i++)
			ix[i].key = m->keys[i];
		qsort(ix, n0, sizeof(*ix), key_ix_cmp);
	}
	int rc = KP_OK;
	/* Append candidates from the last merged map to the first, so that
	 * "keep the last occurrence" below keeps the earliest map's value. */
	for (size_t s = f->merges->n; s-- > 0 && rc == KP_OK;) {
		kp__node *src = f->merges->items[s];
		if (src->type != KP__N_OBJECT && src->type != KP__N_ARRAY) {
			rc = yerr_at(y, line, "map merge requires map or sequence of maps as the value");
			break;
		}
		size_t nsrc = src->type == KP__N_ARRAY ? src->n : 1;
		for (size_t k = nsrc; k-- > 0 && rc == KP_OK;) {
			kp__node *map = src->type == KP__N_ARRAY ? src->items[k] : src;
			if (map->type != KP__N_OBJECT) {
				rc = yerr_at(y, line, "map merge requires map or sequence of maps as the value");
				break;
			}
			for (size_t i = 0; i < map->n; i++) {
				struct key_ix probe = { map->keys[i] };
				if (n0 && bsearch(&probe, ix, n0, sizeof(*ix), key_ix_cmp))
					continue;
				kp__node *v = kp__node_copy(y->b, map->items[i], &y->over);
				char *key = v ? kp__strdup(map->keys[i]) : NULL;
				if (!v || !key) {
					kp__node_free(v);
					rc = yerr_budget(y, line);
					break;
				}
				if (kp__node_add(m, key, v) != KP_OK)
					rc = kp__error(y->err, KP_ENOMEM, NULL, "out of memory");
			}
		}
	}
	kp__free(ix);
	if (rc == KP_OK && m->n > n0 + 1) {
		/* De-duplicate the merged keys only (a view of the tail). */
		kp__node view = *m;
		view.items += n0;
		view.keys += n0;
		view.n = m->n - n0;
		if (kp__node_dedupe(&view, NULL, NULL) != KP_OK)
			rc = kp__error(y->err, KP_ENOMEM, NULL, "out of memory");
		else
			m->n = n0 + view.n;
	}
	return rc;
}

/* Dispose of a consumed node: freed, or kept until the document ends when an
 * anchor may refer to it. */
static int consume(yparser *y, kp__node *v, int anchored)
{
	if (!anchored) {
		kp__node_free(v);
		return KP_OK;
	}
	if (!y->keep) {
		y->keep = kp__node_new(NULL, KP__N_ARRAY, 0, NULL);
		if (!y->keep) {
			kp__node_free(v);
			return kp__error(y->err, KP_ENOMEM, NULL, "out of memory");
		}
	}
	if (kp__node_append(y->keep, v) != KP_OK)
		return kp__error(y->err, KP_ENOMEM, NULL, "out of memory");
	return KP_OK;
}

static void sink_failed(yparser *y, int rc)
{
	y->sink_rc = rc;
	if (y->err)
		y->sink_err = *y->err;
}

/* An element of a streamed "items" sequence: to the sink, then freed,
 * unless an anchor was defined in it (a later alias may copy from it:
 * such an element is kept until the document ends). */
static int stream_item(yparser *y, frame *f, kp__node *v)
{
	size_t i = f->streamed_n++;
	if (y->sink_rc == KP_OK) {
		int src = y->sink->item(y->sink->ctx, y->doc - 1, i, v);
		if (src)
			sink_failed(y, src);
		if (src == KP_ENOMEM) {
			kp__node_free(v);
			return src;
		}
	}
	int anchored = y->anchor_sets != y->item_anchors;
	y->item_anchors = y->anchor_sets;
	if (!anchored)
		y->b->live = y->item_live; /* its nodes are freed */
	y->item_live = y->b->live;
	return consume(y, v, anchored);
}

static int attach(yparser *y, kp__node *v, int is_merge_key, int anchored, size_t line);

/*
 * Skipping what the sink does not read (kp__doc_sink.member_scope). A
 * value event for a mapping with a scope first asks whether its pending
 * key is read; a skipped value's events are checked and dropped (a
 * collection in it is only counted) and, once it is complete, a null
 * stands in for it. An anchored node in a skipped value is built all the
 * same, since an alias elsewhere may copy it, and kept aside.
 */
static frame *top_frame(yparser *y)
{
	return y->depth ? &y->stack[y->depth - 1] : NULL;
}

/* Before a value (not a key) goes to the top frame: 1 when it is skipped. */
static int value_skipped(yparser *y, const void **scope)
{
	frame *f = top_frame(y);
	*scope = NULL;
	if (!f)
		return 0;
	if (f->skipping)
		return 1;
	if (f->node->type == KP__N_ARRAY) {
		*scope = f->scope;
		return 0;
	}
	if (!f->scope || !f->key || f->key_is_merge)
		return 0;
	int skip = 0;
	*scope = y->sink->member_scope(y->sink->ctx, f->scope, f->key, &skip);
	if (skip) {
		*scope = NULL;
		f->skipping = 1;
		f->skip_depth = 0;
	}
	return skip;
}

/* The end of a skipped value when it was the last of its events. */
static int skip_done(yparser *y, frame *f, size_t line)
{
	if (f->skip_depth)
		return KP_OK;
	f->skipping = 0;
	kp__node *n = kp__node_new(y->b, KP__N_NULL, (uint32_t)line + 1, &y->over);
	if (!n)
		return yerr_budget(y, line);
	return attach(y, n, 0, 0, line);
}

/* A root mapping (a document, a List item) learns its scope from its
 * "apiVersion" and "kind". */
static void root_member(yparser *y, frame *f, const char *key, const kp__node *v)
{
	if (!f->root || !v || v->type != KP__N_STRING)
		return;
	if (strcmp(key, "apiVersion") != 0 && strcmp(key, "kind") != 0)
		return;
	const kp__node *api = kp__node_get(f->node, "apiVersion");
	const kp__node *kind = kp__node_get(f->node, "kind");
	if (!api || !kind || api->type != KP__N_STRING || kind->type != KP__N_STRING)
		return;
	f->root = 0;
	f->scope = y->sink->root_scope(y->sink->ctx, api->text, kind->text);
}

/* A finished value: attach it to the open container or make it the root. */
static int attach(yparser *y, kp__node *v, int is_merge_key, int anchored, size_t line)
{
	if (y->depth == 0) {
		y->root = v;
		y->have_root = 1;
		return KP_OK;
	}
	frame *f = &y->stack[y->depth - 1];
	if (f->skipping) { /* an anchored node inside a skipped value */
		int rc = consume(y, v, 1);
		return rc ? rc : skip_done(y, f, line);
	}
	if (f->streamed)
		return stream_item(y, f, v);
	if (f->node->type == KP__N_ARRAY) {
		if (kp__node_append(f->node, v) != KP_OK)
			return kp__error(y->err, KP_ENOMEM, NULL, "out of memory");
		return KP_OK;
	}
	if (!f->key && !f->key_is_merge) {
		if (is_merge_key) {
			f->key_is_merge = 1;
			return consume(y, v, anchored);
		}
		char *k = NULL;
		int rc = key_text(y, v, line, &k);
		int rc2 = consume(y, v, anchored);
		if (rc2) {
			kp__free(k);
			return rc2;
		}
		if (rc == KP_ENOMEM)
			return kp__error(y->err, KP_ENOMEM, NULL, "out of memory");
		if (rc)
			return rc;
		f->key = k;
		return KP_OK;
	}
	if (f->key_is_merge) {
		f->key_is_merge = 0;
		y->expanded = 1;
		if (!f->merges) {
			f->merges = kp__node_new(NULL, KP__N_ARRAY, 0, NULL);
			if (!f->merges) {
				kp__node_free(v);
				return kp__error(y->err, KP_ENOMEM, NULL, "out of memory");
			}
		}
		if (kp__node_append(f->merges, v) != KP_OK)
			return kp__error(y->err, KP_ENOMEM, NULL, "out of memory");
		return KP_OK;
	}
	char *k = f->key;
	f->key = NULL;
	if (kp__node_add(f->node, k, v) != KP_OK)
		return kp__error(y->err, KP_ENOMEM, NULL, "out of memory");
	if (f->root)
		root_member(y, f, k, v);
	return KP_OK;
}

static void frame_dispose(frame *f)
{
	kp__node_free(f->node);
	kp__free(f->anchor);
	kp__free(f->key);
	kp__node_free(f->merges);
}

static int register_anchor(yparser *y, const unsigned char *name, kp__node *node)
{
	if (!name)
		return KP_OK;
	if (anchor_set(y, (const char *)name, node) != KP_OK)
		return kp__error(y->err, KP_ENOMEM, NULL, "out of memory");
	return KP_OK;
}

static const char *short_tag(const unsigned char *tag)
{
	static const char prefix[] = "tag:yaml.org,2002:";
	if (tag && strncmp((const char *)tag, prefix, sizeof(prefix) - 1) == 0)
		return (const char *)tag + sizeof(prefix) - 1;
	return NULL;
}

static int on_scalar(yparser *y, yaml_event_t *ev)
{
	const char *val = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length;
	size_t line = ev->start_mark.line;
	if (strlen(val) != len)
		return yerr_at(y, line, "NUL character in scalar is not supported");
	/* A key is never skipped; a value may be. */
	const void *scope;
	frame *top = top_frame(y);
	int is_key = top && !top->skipping && top->node->type == KP__N_OBJECT && !top->key &&
		     !top->key_is_merge;
	int skipped = !is_key && y->sink && y->sink->member_scope && value_skipped(y, &scope);
	const unsigned char *tag = ev->data.scalar.tag;
	const char *st = short_tag(tag);
	int plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	enum res r = RES_STRING;
	char num[64];
	int boolean = 0;
	if (tag == NULL || (st && (strcmp(st, "int") == 0 || strcmp(st, "float") == 0 ||
				   strcmp(st, "bool") == 0 || strcmp(st, "null") == 0 ||
				   strcmp(st, "merge") == 0))) {
		if (plain || tag)
			r = resolve_plain(val, len, num, sizeof(num), &boolean);
		if (st) {
			int ok = 1;
			if (strcmp(st, "int") == 0)
				ok = r == RES_NUMBER && parse_go_int(val, num, sizeof(num));
			else if (strcmp(st, "float") == 0)
				ok = r == RES_NUMBER || r == RES_INF_NAN;
			else if (strcmp(st, "bool") == 0)
				ok = r == RES_BOOL;
			else if (strcmp(st, "null") == 0)
				ok = r == RES_NULL;
			else if (strcmp(st, "merge") == 0)
				ok = r == RES_MERGE;
			if (!ok)
				return yerr_at(y, line, "cannot decode `%s` as a !!%s", val, st);
		}
	} else if (st && strcmp(st, "binary") == 0) {
		return yerr_at(y, line, "binary data (!!binary) is not supported");
	}
	/* Any other tag (!!str, !!timestamp, custom or "!"): the text. */

	if (r == RES_INF_NAN)
		return yerr_at(y, line, "json: unsupported value: %s", val);
	if (skipped && !ev->data.scalar.anchor)
		return skip_done(y, top_frame(y), line);
	kp__node *n = NULL;
	switch (r) {
	case RES_NULL:
		n = kp__node_new(y->b, KP__N_NULL, (uint32_t)line + 1, &y->over);
		break;
	case RES_BOOL:
		n = kp__node_new(y->b, KP__N_BOOL, (uint32_t)line + 1, &y->over);
		if (n)
			n->boolean = boolean;
		break;
	case RES_NUMBER:
		n = kp__node_new_string(y->b, num, strlen(num), (uint32_t)line + 1, &y->over);
		if (n)
			n->type = KP__N_NUMBER;
		break;
	case RES_INF_NAN:
		return yerr_at(y, line, "json: unsupported value: %s", val);
	case RES_MERGE:
		n = kp__node_new(y->b, KP__N_NULL, (uint32_t)line + 1, &y->over);
		break;
	case RES_STRING:
		n = kp__node_new_string(y->b, val, len, (uint32_t)line + 1, &y->over);
		break;
	}
	if (!n)
		return yerr_budget(y, line);
	int rc = register_anchor(y, ev->data.scalar.anchor, n);
	if (rc) {
		kp__node_free(n);
		return rc;
	}
	return attach(y, n, r == RES_MERGE, ev->data.scalar.anchor != NULL, line);
}

static int on_start(yparser *y, yaml_event_t *ev, int mapping)
{
	size_t line = ev->start_mark.line;
	if (y->depth >= y->b->max_depth)
		return kp__error(y->err, KP_ERANGE, NULL,
				 "document %zu: line %zu: document nests deeper than %u levels", y->doc,
				 line + 1, (unsigned)y->b->max_depth);
	const unsigned char *anchor_name = mapping ? ev->data.mapping_start.anchor
						   : ev->data.sequence_start.anchor;
	const void *scope = NULL;
	frame *parent = top_frame(y);
	int root = y->sink && y->sink->root_scope && mapping &&
		   (!parent || (parent->streamed && !parent->skipping));
	if (y->sink && y->sink->member_scope && value_skipped(y, &scope) && !anchor_name) {
		parent->skip_depth++;
		return KP_OK;
	}
	kp__node *n = kp__node_new(y->b, mapping ? KP__N_OBJECT : KP__N_ARRAY, (uint32_t)line + 1,
				   &y->over);
	if (!n)
		return yerr_budget(y, line);
	frame *f = &y->stack[y->depth];
	memset(f, 0, sizeof(*f));
	f->node = n;
	f->scope = scope;
	f->root = root;
	if (anchor_name) {
		f->anchor = dup_or_null(anchor_name);
		if (!f->anchor) {
			kp__node_free(n);
			f->node = NULL;
			return kp__error(y->err, KP_ENOMEM, NULL, "out of memory");
		}
	}
	y->depth++;
	/* The value of the top-level mapping's "items" key: streamed (see
	 * kp__doc_sink; whether the document is a List is only known at its
	 * end, which the sink sorts out). */
	const frame *top = &y->stack[0];
	if (!mapping && y->depth == 2 && y->sink && y->sink->item &&
	    top->node->type == KP__N_OBJECT && top->key && !top->key_is_merge && !top->scope &&
	    strcmp(top->key, "items") == 0) {
		f->streamed = 1;
		y->doc_streamed = 1;
		y->item_anchors = y->anchor_sets;
		y->item_live = y->b->live;
		if (y->sink_rc == KP_OK && y->sink->items_begin) {
			int src = y->sink->items_begin(y->sink->ctx, y->doc - 1);
			if (src)
				sink_failed(y, src);
			if (src == KP_ENOMEM)
				return src;
		}
	}
	return KP_OK;
}

static int on_end(yparser *y, yaml_event_t *ev)
{
	size_t line = ev->start_mark.line;
	frame *f = &y->stack[y->depth - 1];
	int rc;
	if (f->skipping) { /* a collection inside a skipped value */
		f->skip_depth--;
		return skip_done(y, f, line);
	}
	if (f->merges) {
		rc = apply_merges(y, f, line);
		if (rc == KP_ENOMEM)
			return kp__error(y->err, KP_ENOMEM, NULL, "out of memory");
		if (rc)
			return rc;
	}
	kp__node *n = f->node;
	char *anchor_name = f->anchor;
	kp__node *merges = f->merges;
	f->node = NULL;
	f->anchor = NULL;
	f->merges = NULL;
	y->depth--;
	if (merges) {
		/* Keep the merged originals: anchors may point into them. */
		rc = consume(y, merges, 1);
		if (rc) {
			kp__free(anchor_name);
			kp__node_free(n);
			return rc;
		}
	}
	if (anchor_name) {
		int set = anchor_set(y, anchor_name, n); /* the map keeps its own copy */
		kp__free(anchor_name);
		if (set != KP_OK) {
			kp__node_free(n);
			return kp__error(y->err, KP_ENOMEM, NULL, "out of memory");
		}
	}
	return attach(y, n, 0, 0, line);
}

static int on_alias(yparser *y, yaml_event_t *ev)
{
	size_t line = ev->start_mark.line;
	const char *name = (const char *)ev->data.alias.anchor;
	kp__node *target = anchor_get(y, name);
	if (!target)
		return yerr_at(y, line, "unknown anchor '%s' referenced", name);
	const void *scope;
	frame *top = top_frame(y);
	int is_key = top && !top->skipping && top->node->type == KP__N_OBJECT && !top->key &&
		     !top->key_is_merge;
	if (!is_key && y->sink && y->sink->member_scope && value_skipped(y, &scope))
		return skip_done(y, top, line);
	y->expanded = 1;
	kp__node *copy = kp__node_copy(y->b, target, &y->over);
	if (!copy)
		return yerr_budget(y, line);
	/* A plain "<<" behind an alias is not a merge key. */
	return attach(y, copy, 0, 0, line);
}

static int parser_error(yparser *y)
{
	yaml_parser_t *p = &y->parser;
	if (p->error == YAML_MEMORY_ERROR)
		return kp__error(y->err, KP_ENOMEM, NULL, "out of memory");
	char ctx[96] = "";
	if (p->context)
		snprintf(ctx, sizeof(ctx), " %s", p->context);
	return kp__error(y->err, KP_EPARSE, NULL, "document %zu: line %zu, column %zu: %s%s",
			 y->doc ? y->doc : 1, p->problem_mark.line + 1, p->problem_mark.column + 1,
			 p->problem ? p->problem : "invalid YAML", ctx);
}

/* A complete document: to the sink (then freed) or onto the list. */
static int document_done(yparser *y, kp__node *list)
{
	kp__node *root = y->root;
	y->root = NULL;
	y->have_root = 0;
	if (!y->sink) {
		if (kp__node_append(list, root) != KP_OK)
			return kp__error(y->err, KP_ENOMEM, NULL, "out of memory");
		return KP_OK;
	}
	int rc = KP_OK;
	if (y->sink_rc == KP_OK) {
		int src = y->sink->doc(y->sink->ctx, y->doc - 1, root, y->doc_streamed);
		if (src)
			sink_failed(y, src);
		if (src == KP_ENOMEM)
			rc = src;
	}
	y->doc_streamed = 0;
	/* An anchor of this document may point into it: anchors are
	 * document-scoped, and cleared at the next document's start. */
	anchors_clear(y);
	kp__node_free(y->keep);
	y->keep = NULL;
	kp__node_free(root);
	return rc;
}

static int yaml_run(kp__node **docs, const char *data, size_t len, kp__reader *rd,
		    kp__budget *b, const kp__doc_sink *sink, kp_error *err);

int kp__yaml_parse(kp__node **docs, const char *data, size_t len, kp__budget *b, kp_error *err)
{
	return yaml_run(docs, data, len, NULL, b, NULL, err);
}

int kp__yaml_parse_each(const char *data, size_t len, kp__budget *b, const kp__doc_sink *sink,
			kp_error *err)
{
	kp__node *docs = NULL;
	int rc = yaml_run(&docs, data, len, NULL, b, sink, err);
	kp__node_free(docs); /* the empty list: every document went to the sink */
	return rc;
}

int kp__yaml_read_each(kp__reader *rd, kp__budget *b, const kp__doc_sink *sink, kp_error *err)
{
	kp__node *docs = NULL;
	int rc = yaml_run(&docs, NULL, 0, rd, b, sink, err);
	kp__node_free(docs);
	return rc;
}

/* libyaml's read handler: 1 with *size_read bytes (0 at the end), 0 on
 * failure (kept for yaml_run to report). The node limit grows with what
 * has been read, as it does with the input's size. */
static int read_handler(void *data, unsigned char *buffer, size_t size, size_t *size_read)
{
	yparser *y = data;
	size_t got = 0;
	y->read_rc = kp__reader_read(y->rd, (char *)buffer, size, &got, &y->read_err);
	if (y->read_rc)
		return 0;
	*size_read = got;
	y->input_cap = sat_add(y->input_cap, got);
	return 1;
}

static int yaml_run(kp__node **docs, const char *data, size_t len, kp__reader *rd,
		    kp__budget *b, const kp__doc_sink *sink, kp_error *err)
{
	yparser y;
	memset(&y, 0, sizeof(y));
	y.b = b;
	y.err = err;
	y.sink = sink;
	b->arena = NULL; /* on the heap: keys and anchors are freed one by one */
	y.base_nodes = b->max_nodes;
	y.input_cap = sat_add(b->max_nodes, len);
	kp__node *list = kp__node_new(NULL, KP__N_ARRAY, 0, NULL);
	y.stack = kp__calloc((size_t)b->max_depth + 1, sizeof(*y.stack));
	if (!list || !y.stack || !yaml_parser_initialize(&y.parser)) {
		kp__node_free(list);
		kp__free(y.stack);
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	if (rd) {
		y.rd = rd;
		y.input_cap = b->max_nodes;
		yaml_parser_set_input(&y.parser, read_handler, &y);
	} else {
		yaml_parser_set_input_string(&y.parser, (const unsigned char *)data, len);
	}
	int rc = KP_OK;
	for (;;) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&y.parser, &ev)) {
			if (y.read_rc) {
				rc = y.read_rc;
				if (err)
					*err = y.read_err;
			} else {
				rc = parser_error(&y);
			}
			break;
		}
		int done = 0;
		if (ev.type == YAML_DOCUMENT_START_EVENT) {
			y.doc_first = b->nodes;
			y.doc_start = ev.start_mark.index;
			b->live = 0;
		}
		doc_limit(&y, ev.end_mark.index);
		switch (ev.type) {
		case YAML_STREAM_START_EVENT:
		case YAML_NO_EVENT:
			break;
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		case YAML_DOCUMENT_START_EVENT:
			y.doc++;
			y.expanded = 0;
			y.root = NULL;
			y.have_root = 0;
			anchors_clear(&y);
			kp__node_free(y.keep);
			y.keep = NULL;
			break;
		case YAML_DOCUMENT_END_EVENT:
			if (!y.have_root) {
				y.root = kp__node_new(b, KP__N_NULL, (uint32_t)ev.start_mark.line + 1,
						      &y.over);
				if (!y.root) {
					rc = yerr_budget(&y, ev.start_mark.line);
					break;
				}
			}
			rc = document_done(&y, list);
			break;
		case YAML_SCALAR_EVENT:
			rc = on_scalar(&y, &ev);
			break;
		case YAML_SEQUENCE_START_EVENT:
			rc = on_start(&y, &ev, 0);
			break;
		case YAML_MAPPING_START_EVENT:
			rc = on_start(&y, &ev, 1);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			rc = on_end(&y, &ev);
			break;
		case YAML_ALIAS_EVENT:
			rc = on_alias(&y, &ev);
			break;
		}
		yaml_event_delete(&ev);
		if (rc || done)
			break;
	}
	while (y.depth > 0)
		frame_dispose(&y.stack[--y.depth]);
	kp__node_free(y.root);
	kp__node_free(y.keep);
	anchors_clear(&y);
	kp__free(y.stack);
	yaml_parser_delete(&y.parser);
	b->live = b->max_live = 0;
	if (rc) {
		kp__node_free(list);
		return rc;
	}
	*docs = list;
	if (y.sink_rc && err)
		*err = y.sink_err;
	return y.sink_rc;
}

/* Writing YAML is the emitter's (emitter.c kp__yaml_write): one writer. */
