/*
 * Every JSON and YAML shape real tools write decodes to the same objects
 * (issue 18): kubectl's indented Lists (`kubectl get -o json`: 4-space
 * indent, ": ", sorted members so "items" comes before "kind", a trailing
 * newline), other indents, any member order, CRLF, a UTF-8 BOM, every JSON
 * escape (`\/`, `\uXXXX`, surrogate pairs), Lists inside Lists, streams of
 * indented objects and of Lists, and the YAML kubectl writes (`-o yaml`
 * List with "items:" first, CRLF, BOM).
 *
 * The shapes are made here, in C, from the example manifests (examples/)
 * and the upstream v1 manifests (shared data, skipped when absent): each
 * file is read as a tree (lib/document) and written again in each shape;
 * kp_decode of the shape must give the objects kp_decode gives for the
 * YAML file, in the same order (count, kind, apiVersion, name, namespace,
 * and kp_registry_encode of each object byte-identical).
 *
 * `test-real-shapes --emit DIR FILE...` writes the shapes of each FILE into
 * DIR instead (as <base>.<shape>.json / .yaml): the CLI test
 * (tests/tools/test-real-shapes.sh) and the fuzz corpus of .ci/run use it.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L /* scandir */
#define KP_EXPERIMENTAL_API 1
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <karpenter/codec.h>
#include <karpenter/sys/kwok.h>
#include <karpenter/sys/schema.h>

#include "document/tree.h"
#include "kp_test.h"

#ifndef KP_SOURCE_ROOT
#error "KP_SOURCE_ROOT must name the source tree"
#endif

/* The core kinds and KWOKNodeClass (set up in main, inherited by the forked
 * tests). */
static kp_registry *reg;
static uint32_t kwok_kind;

/* ---- the shapes ---- */

enum order { ORDER_ASIS, ORDER_SORTED, ORDER_KIND_FIRST, ORDER_REVERSED };

typedef struct style {
	const char *indent; /* one level; NULL = compact */
	const char *eol;    /* "\n" or "\r\n" (indented only) */
	int order;
	int escape;         /* `\/`, `\uXXXX` for non-ASCII, some ASCII, <>& */
} style;

static int cmp_keys(const void *a, const void *b)
{
	const char *const *x = a, *const *y = b;
	return strcmp(*x, *y); /* Go sorts map keys by bytes, as strcmp */
}

/* Member indexes of an object in the style's order. */
static size_t *member_order(const kp__node *n, int order)
{
	size_t *idx = malloc((n->n ? n->n : 1) * sizeof(*idx));
	ck_assert_ptr_nonnull(idx);
	for (size_t i = 0; i < n->n; i++)
		idx[i] = i;
	if (order == ORDER_SORTED) {
		/* Sort the keys, then map each back to its member (keys are
		 * distinct in these objects). */
		char **keys = malloc((n->n ? n->n : 1) * sizeof(*keys));
		ck_assert_ptr_nonnull(keys);
		memcpy(keys, n->keys, n->n * sizeof(*keys));
		qsort(keys, n->n, sizeof(*keys), cmp_keys);
		for (size_t i = 0; i < n->n; i++)
			for (size_t j = 0; j < n->n; j++)
				if (n->keys[j] == keys[i])
					idx[i] = j;
		free(keys);
	} else if (order == ORDER_REVERSED) {
		for (size_t i = 0; i < n->n; i++)
			idx[i] = n->n - 1 - i;
	} else if (order == ORDER_KIND_FIRST) {
		size_t k = n->n;
		for (size_t i = 0; i < n->n; i++)
			if (strcmp(n->keys[i], "kind") == 0)
				k = i;
		if (k < n->n) {
			memmove(idx + 1, idx, k * sizeof(*idx));
			idx[0] = k;
		}
	}
	return idx;
}

static void put_utf16(kp__buf *o, unsigned u, int upper)
{
	kp__buf_printf(o, upper ? "\\u%04X" : "\\u%04x", u);
}

/* A JSON string literal. Plain: what Go's encoding/json writes (\" \\ \n
 * \r \t, \u00XX for other controls and for <, > and &). Escaped also: `\/`,
 * \b and \f, every non-ASCII character as \uXXXX (a surrogate pair above
 * U+FFFF, hex in alternating case), and every third ASCII letter as
 * \u00XX. */
static void put_string(kp__buf *o, const char *s, size_t len, int escape)
{
	kp__buf_putc(o, '"');
	unsigned letters = 0, upper = 0;
	for (size_t i = 0; i < len;) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			kp__buf_putc(o, '\\');
			kp__buf_putc(o, (char)c);
		} else if (c == '\n') {
			kp__buf_puts(o, "\\n");
		} else if (c == '\r') {
			kp__buf_puts(o, "\\r");
		} else if (c == '\t') {
			kp__buf_puts(o, "\\t");
		} else if (escape && c == '\b') {
			kp__buf_puts(o, "\\b");
		} else if (escape && c == '\f') {
			kp__buf_puts(o, "\\f");
		} else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
			put_utf16(o, c, upper++ & 1);
		} else if (escape && c == '/') {
			kp__buf_puts(o, "\\/");
		} else if (escape && c >= 0x80) {
			/* Valid UTF-8 (the tree holds only that). */
			unsigned cp, n;
			if (c >= 0xF0) {
				cp = c & 0x07u;
				n = 3;
			} else if (c >= 0xE0) {
				cp = c & 0x0Fu;
				n = 2;
			} else {
				cp = c & 0x1Fu;
				n = 1;
			}
			ck_assert_uint_lt(i + n, len);
			for (unsigned k = 1; k <= n; k++)
				cp = (cp << 6) | ((unsigned char)s[i + k] & 0x3Fu);
			if (cp > 0xFFFF) {
				put_utf16(o, 0xD800 + ((cp - 0x10000) >> 10), upper++ & 1);
				put_utf16(o, 0xDC00 + ((cp - 0x10000) & 0x3FF), upper++ & 1);
			} else {
				put_utf16(o, cp, upper++ & 1);
			}
			i += n + 1;
			continue;
		} else if (escape && ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') && letters++ % 3 == 0) {
			put_utf16(o, c, upper++ & 1);
		} else {
			kp__buf_putc(o, (char)c);
		}
		i++;
	}
	kp__buf_putc(o, '"');
}

static void newline(kp__buf *o, const style *st, int depth)
{
	kp__buf_puts(o, st->eol);
	for (int i = 0; i < depth; i++)
		kp__buf_puts(o, st->indent);
}

/* JSON of a tree in a style: json.MarshalIndent's layout when indented
 * ("key": value, one member or element per line, empty containers as {}
 * and []). */
static void put_json(kp__buf *o, const kp__node *n, const style *st, int depth)
{
	switch (n->type) {
	case KP__N_NULL: kp__buf_puts(o, "null"); return;
	case KP__N_BOOL: kp__buf_puts(o, n->boolean ? "true" : "false"); return;
	case KP__N_NUMBER: kp__buf_put(o, n->text, n->len); return;
	case KP__N_STRING: put_string(o, n->text, n->len, st->escape); return;
	default: break;
	}
	int object = n->type == KP__N_OBJECT;
	kp__buf_putc(o, object ? '{' : '[');
	size_t *idx = object ? member_order(n, st->order) : NULL;
	for (size_t i = 0; i < n->n; i++) {
		if (i > 0)
			kp__buf_putc(o, ',');
		if (st->indent)
			newline(o, st, depth + 1);
		const kp__node *v = n->items[object ? idx[i] : i];
		if (object) {
			const char *k = n->keys[idx[i]];
			put_string(o, k, strlen(k), st->escape);
			kp__buf_puts(o, st->indent ? ": " : ":");
		}
		put_json(o, v, st, depth + 1);
	}
	if (st->indent && n->n > 0)
		newline(o, st, depth);
	kp__buf_putc(o, object ? '}' : ']');
	free(idx);
}

/* ---- trees ---- */

static kp__node *tree_string(const char *s)
{
	kp__node *n = kp__node_new_string(NULL, s, strlen(s), 0, NULL);
	ck_assert_ptr_nonnull(n);
	return n;
}

static void tree_add(kp__node *obj, const char *key, kp__node *v)
{
	char *k = kp__strdup(key);
	ck_assert_ptr_nonnull(k);
	ck_assert_int_eq(kp__node_add(obj, k, v), KP_OK);
}

/* A v1 List as kubectl writes it around items[from..to) of objs (copies). */
static kp__node *make_list(kp__node *const *objs, size_t from, size_t to)
{
	kp__node *list = kp__node_new(NULL, KP__N_OBJECT, 0, NULL);
	kp__node *items = kp__node_new(NULL, KP__N_ARRAY, 0, NULL);
	kp__node *meta = kp__node_new(NULL, KP__N_OBJECT, 0, NULL);
	ck_assert(list && items && meta);
	for (size_t i = from; i < to; i++) {
		kp__node *c = kp__node_copy(NULL, objs[i], NULL);
		ck_assert_ptr_nonnull(c);
		ck_assert_int_eq(kp__node_append(items, c), KP_OK);
	}
	tree_add(meta, "resourceVersion", tree_string(""));
	tree_add(list, "apiVersion", tree_string("v1"));
	tree_add(list, "items", items);
	tree_add(list, "kind", tree_string("List"));
	tree_add(list, "metadata", meta);
	return list;
}

/* A deep copy with every object's members sorted (kubectl's maps). */
static kp__node *sorted_copy(const kp__node *n)
{
	kp__node *c = kp__node_new(NULL, n->type, 0, NULL);
	ck_assert_ptr_nonnull(c);
	if (n->type == KP__N_OBJECT) {
		size_t *idx = member_order(n, ORDER_SORTED);
		for (size_t i = 0; i < n->n; i++)
			tree_add(c, n->keys[idx[i]], sorted_copy(n->items[idx[i]]));
		free(idx);
	} else if (n->type == KP__N_ARRAY) {
		for (size_t i = 0; i < n->n; i++)
			ck_assert_int_eq(kp__node_append(c, sorted_copy(n->items[i])), KP_OK);
	} else {
		kp__node_free(c);
		c = kp__node_copy(NULL, n, NULL);
		ck_assert_ptr_nonnull(c);
	}
	return c;
}

/* The objects of a manifest, Lists flattened, in stream order. */
typedef struct objects {
	kp__node *docs;  /* the parse */
	kp__node **v;    /* borrowed from docs */
	size_t n, cap;
} objects;

static int is_list(const kp__node *n)
{
	const kp__node *kind = kp__node_get(n, "kind");
	const kp__node *items = kp__node_get(n, "items");
	return kind && kind->type == KP__N_STRING && kind->len >= 4 &&
	       strcmp(kind->text + kind->len - 4, "List") == 0 && items && items->type == KP__N_ARRAY;
}

static void flatten(objects *o, kp__node *n)
{
	if (n->type == KP__N_NULL)
		return; /* an empty document */
	ck_assert_int_eq(n->type, KP__N_OBJECT);
	if (is_list(n)) {
		const kp__node *items = kp__node_get(n, "items");
		for (size_t i = 0; i < items->n; i++)
			flatten(o, items->items[i]);
		return;
	}
	if (o->n == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 16;
		o->v = realloc(o->v, o->cap * sizeof(*o->v));
		ck_assert_ptr_nonnull(o->v);
	}
	o->v[o->n++] = n;
}

static objects read_objects(const char *text, size_t len, const char *path)
{
	objects o = { 0 };
	kp__budget b = { (size_t)1 << 22, 0, (size_t)1 << 28, 0, 200, NULL, 0, 0 };
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(kp__yaml_parse(&o.docs, text, len, &b, &e) == KP_OK, "%s: %s", path, e.message);
	for (size_t i = 0; i < o.docs->n; i++)
		flatten(&o, o.docs->items[i]);
	return o;
}

static void objects_free(objects *o)
{
	kp__node_free(o->docs);
	free(o->v);
}

/* Characters no example holds, for the escape shapes: every JSON escape,
 * controls, HTML characters, two- to four-byte UTF-8 (U+1F600 needs a
 * surrogate pair). */
static const char odd_value[] = "q\"b\\s/ \b\f\n\r\t \x01\x1f <a&b> caf\xC3\xA9 \xE2\x82\xAC "
				"\xF0\x9F\x98\x80 \xF4\x8F\xBF\xBF end";
#define ODD_KEY "test.karpenter.sh/escapes"

/* A copy of each object with the odd annotation added. */
static kp__node **with_odd_annotation(const objects *o)
{
	kp__node **v = calloc(o->n ? o->n : 1, sizeof(*v));
	ck_assert_ptr_nonnull(v);
	for (size_t i = 0; i < o->n; i++) {
		v[i] = kp__node_copy(NULL, o->v[i], NULL);
		ck_assert_ptr_nonnull(v[i]);
		kp__node *meta = kp__node_get(v[i], "metadata");
		if (!meta) {
			meta = kp__node_new(NULL, KP__N_OBJECT, 0, NULL);
			tree_add(v[i], "metadata", meta);
		}
		kp__node *ann = kp__node_get(meta, "annotations");
		if (!ann) {
			ann = kp__node_new(NULL, KP__N_OBJECT, 0, NULL);
			tree_add(meta, "annotations", ann);
		}
		kp__node *val = kp__node_new_string(NULL, odd_value, sizeof(odd_value) - 1, 0, NULL);
		ck_assert_ptr_nonnull(val);
		tree_add(ann, ODD_KEY, val);
	}
	return v;
}

static void free_nodes(kp__node **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		kp__node_free(v[i]);
	free(v);
}

/* ---- the shapes of one manifest ---- */

typedef struct shape {
	const char *name; /* file suffix: <name>.json or <name>.yaml */
	char *text;
	size_t len;
	int odd;          /* made from the objects with the odd annotation */
} shape;

typedef struct shapes {
	shape v[32];
	size_t n;
} shapes;

static void add_shape(shapes *s, const char *name, kp__buf *b, int odd)
{
	ck_assert(!b->failed);
	ck_assert_uint_lt(s->n, sizeof(s->v) / sizeof(s->v[0]));
	s->v[s->n].name = name;
	s->v[s->n].len = b->len;
	s->v[s->n].text = kp__buf_take(b, NULL);
	ck_assert_ptr_nonnull(s->v[s->n].text);
	s->v[s->n].odd = odd;
	s->n++;
}

static void put_json_doc(kp__buf *b, const kp__node *n, const style *st)
{
	put_json(b, n, st, 0);
	kp__buf_puts(b, st->indent ? st->eol : "\n");
}

/* CRLF line ends for every LF of b. */
static void crlf(kp__buf *b)
{
	kp__buf out = { 0 };
	for (size_t i = 0; i < b->len; i++) {
		if (b->data[i] == '\n')
			kp__buf_putc(&out, '\r');
		kp__buf_putc(&out, b->data[i]);
	}
	kp__buf_dispose(b);
	*b = out;
}

static void make_shapes(shapes *s, const objects *o)
{
	static const style kubectl = { "    ", "\n", ORDER_SORTED, 0 };
	static const style kubectl_crlf = { "    ", "\r\n", ORDER_SORTED, 0 };
	static const style two = { "  ", "\n", ORDER_SORTED, 0 };
	static const style tab = { "\t", "\n", ORDER_ASIS, 0 };
	static const style kind_first = { "  ", "\n", ORDER_KIND_FIRST, 0 };
	static const style reversed = { "   ", "\n", ORDER_REVERSED, 0 };
	static const style escaped = { "    ", "\n", ORDER_SORTED, 1 };
	static const style compact_escaped = { NULL, "\n", ORDER_ASIS, 1 };
	static const style compact = { NULL, "\n", ORDER_ASIS, 0 };
	kp__buf b = { 0 };
	kp__node *list = make_list(o->v, 0, o->n);

	/* kubectl get -o json: a List, 4-space indent, sorted members. */
	put_json_doc(&b, list, &kubectl);
	add_shape(s, "kubectl-list", &b, 0);
	put_json_doc(&b, list, &kubectl_crlf);
	add_shape(s, "kubectl-list-crlf", &b, 0);
	kp__buf_puts(&b, "\xEF\xBB\xBF");
	put_json_doc(&b, list, &kubectl);
	add_shape(s, "kubectl-list-bom", &b, 0);
	kp__buf_puts(&b, "\xEF\xBB\xBF");
	put_json_doc(&b, list, &kubectl_crlf);
	add_shape(s, "kubectl-list-bom-crlf", &b, 0);
	put_json_doc(&b, list, &two);
	add_shape(s, "list-indent2", &b, 0);
	put_json_doc(&b, list, &tab);
	add_shape(s, "list-tabs", &b, 0);
	put_json_doc(&b, list, &kind_first);
	add_shape(s, "list-kind-first", &b, 0);
	put_json_doc(&b, list, &reversed);
	add_shape(s, "list-reversed", &b, 0);
	put_json_doc(&b, list, &escaped);
	add_shape(s, "list-escaped", &b, 0);
	/* Every JSON whitespace character between tokens: lines end in
	 * CR LF then a blank and LF, indents are blanks and tabs. */
	static const style mixed = { " \t", "\r\n \n", ORDER_SORTED, 0 };
	put_json_doc(&b, list, &mixed);
	add_shape(s, "list-mixed-blanks", &b, 0);

	/* A List inside a List (the first half nested), and a List nested
	 * three deep around the first object. */
	size_t half = o->n / 2;
	kp__node *outer = make_list(o->v, 0, 0);
	kp__node *outer_items = kp__node_get(outer, "items");
	ck_assert_int_eq(kp__node_append(outer_items, make_list(o->v, 0, half)), KP_OK);
	for (size_t i = half; i < o->n; i++)
		ck_assert_int_eq(kp__node_append(outer_items, kp__node_copy(NULL, o->v[i], NULL)),
				 KP_OK);
	put_json_doc(&b, outer, &kubectl);
	add_shape(s, "list-in-list", &b, 0);
	kp__node *deep = make_list(o->v, 0, 0);
	kp__node *deep_items = kp__node_get(deep, "items");
	kp__node *mid = make_list(o->v, 0, 0);
	ck_assert_int_eq(kp__node_append(kp__node_get(mid, "items"), make_list(o->v, 0, o->n ? 1 : 0)),
			 KP_OK);
	ck_assert_int_eq(kp__node_append(deep_items, mid), KP_OK);
	for (size_t i = 1; i < o->n; i++)
		ck_assert_int_eq(kp__node_append(deep_items, kp__node_copy(NULL, o->v[i], NULL)),
				 KP_OK);
	put_json_doc(&b, deep, &two);
	add_shape(s, "list-in-list-in-list", &b, 0);

	/* kubectl get -o json of single objects, one after another. */
	for (size_t i = 0; i < o->n; i++) {
		kp__node *sorted = sorted_copy(o->v[i]);
		put_json_doc(&b, sorted, &kubectl);
		kp__node_free(sorted);
	}
	add_shape(s, "kubectl-objects", &b, 0);
	/* Compact objects, one per line (kubectl get -o json | jq -c .items[]). */
	for (size_t i = 0; i < o->n; i++)
		put_json_doc(&b, o->v[i], &compact);
	add_shape(s, "compact-objects", &b, 0);
	/* Several kubectl Lists in one stream, an empty one first. */
	kp__node *empty = make_list(o->v, 0, 0);
	put_json_doc(&b, empty, &kubectl);
	kp__node *l1 = make_list(o->v, 0, half), *l2 = make_list(o->v, half, o->n);
	put_json_doc(&b, l1, &kubectl);
	put_json_doc(&b, l2, &kubectl);
	add_shape(s, "kubectl-lists", &b, 0);

	/* kubectl get -o yaml: a List, "items:" first, sorted members. */
	kp__node *sorted_list = sorted_copy(list);
	kp__yaml_write(&b, sorted_list);
	add_shape(s, "kubectl-list", &b, 0);
	s->v[s->n - 1].name = "kubectl-list-yaml";
	kp__yaml_write(&b, sorted_list);
	crlf(&b);
	add_shape(s, "kubectl-list-crlf-yaml", &b, 0);
	kp__buf_puts(&b, "\xEF\xBB\xBF");
	kp__yaml_write(&b, sorted_list);
	add_shape(s, "kubectl-list-bom-yaml", &b, 0);
	/* kubectl get -o yaml of single objects, "---" between them. */
	for (size_t i = 0; i < o->n; i++) {
		kp__node *sorted = sorted_copy(o->v[i]);
		kp__buf_puts(&b, "---\n");
		kp__yaml_write(&b, sorted);
		kp__node_free(sorted);
	}
	crlf(&b);
	add_shape(s, "kubectl-objects-crlf-yaml", &b, 0);

	/* Every escape, on a value the examples do not have. */
	kp__node **odd = with_odd_annotation(o);
	kp__node *odd_list = make_list(odd, 0, o->n);
	put_json_doc(&b, odd_list, &compact);
	add_shape(s, "odd-list-plain", &b, 1);
	put_json_doc(&b, odd_list, &escaped);
	add_shape(s, "odd-list-escaped", &b, 1);
	for (size_t i = 0; i < o->n; i++)
		put_json_doc(&b, odd[i], &compact_escaped);
	add_shape(s, "odd-objects-escaped", &b, 1);
	kp__yaml_write(&b, odd_list);
	add_shape(s, "odd-list-yaml", &b, 1);

	kp__node_free(odd_list);
	free_nodes(odd, o->n);
	kp__node_free(sorted_list);
	kp__node_free(empty);
	kp__node_free(l1);
	kp__node_free(l2);
	kp__node_free(deep);
	kp__node_free(outer);
	kp__node_free(list);
	kp__buf_dispose(&b);
}

static void shapes_free(shapes *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].text);
}

/* ---- checks ---- */

static kp_decode_result *decode(const char *text, size_t len, const char *what)
{
	kp_decode_options opts = KP_DECODE_OPTIONS_INIT;
	opts.registry = reg;
	kp_decode_result *r = NULL;
	kp_error err = KP_ERROR_INIT;
	int rc = kp_decode(&r, text, len, &opts, &err);
	ck_assert_msg(rc == KP_OK, "%s: decode failed (%d): [%s] %s", what, rc, err.field,
		      err.message);
	return r;
}

static char *encode(const kp_decoded_object *d, uint32_t format)
{
	char *text = NULL;
	kp_error err = KP_ERROR_INIT;
	int rc = kp_registry_encode(&text, NULL, reg, d->kind, d->object, format, 0, &err);
	ck_assert_msg(rc == KP_OK, "%s/%s: encode failed: %s", d->kind_name, d->name, err.message);
	return text;
}

static void same_objects(const kp_decode_result *want, const kp_decode_result *got, const char *what)
{
	size_t n = kp_decode_result_count(want);
	ck_assert_msg(kp_decode_result_count(got) == n, "%s: %zu objects, want %zu", what,
		      kp_decode_result_count(got), n);
	for (size_t i = 0; i < n; i++) {
		const kp_decoded_object *w = kp_decode_result_at(want, i);
		const kp_decoded_object *g = kp_decode_result_at(got, i);
		ck_assert_msg(w->kind == g->kind && strcmp(w->kind_name, g->kind_name) == 0 &&
				      strcmp(w->api_version, g->api_version) == 0 &&
				      strcmp(w->name, g->name) == 0 &&
				      strcmp(w->namespace_, g->namespace_) == 0,
			      "%s: object %zu is %s %s %s/%s, want %s %s %s/%s", what, i,
			      g->api_version, g->kind_name, g->namespace_, g->name, w->api_version,
			      w->kind_name, w->namespace_, w->name);
		ck_assert_msg((w->object == NULL) == (g->object == NULL), "%s: object %zu: %s/%s",
			      what, i, w->kind_name, w->name);
		if (!w->object)
			continue;
		for (uint32_t f = KP_FORMAT_JSON; f <= KP_FORMAT_YAML; f++) {
			char *wt = encode(w, f), *gt = encode(g, f);
			ck_assert_msg(strcmp(wt, gt) == 0, "%s: %s/%s differs:\n%s\nwant:\n%s", what,
				      w->kind_name, w->name, gt, wt);
			kp_encoded_free(wt);
			kp_encoded_free(gt);
		}
	}
}

/* The odd annotation reads back byte for byte (read with cJSON from the
 * object's encoding: a parser of its own). */
static void odd_annotation_kept(const kp_decode_result *got, const char *what)
{
	for (size_t i = 0; i < kp_decode_result_count(got); i++) {
		const kp_decoded_object *g = kp_decode_result_at(got, i);
		if (!g->object)
			continue;
		char *text = encode(g, KP_FORMAT_JSON);
		cJSON *j = cJSON_Parse(text);
		ck_assert_ptr_nonnull(j);
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "metadata"),
							 "annotations"),
			ODD_KEY);
		ck_assert_msg(cJSON_IsString(v) && strcmp(v->valuestring, odd_value) == 0,
			      "%s: %s/%s: annotation " ODD_KEY " lost or changed: %s", what,
			      g->kind_name, g->name, text);
		cJSON_Delete(j);
		kp_encoded_free(text);
	}
}

static int check_file(const char *path)
{
	size_t len = 0;
	char *text = kp_test_read_file(path, &len);
	ck_assert_msg(text != NULL, "cannot read %s", path);
	kp_decode_result *want = decode(text, len, path);
	objects o = read_objects(text, len, path);
	ck_assert_msg(o.n == kp_decode_result_count(want), "%s: %zu objects in the tree, %zu decoded",
		      path, o.n, kp_decode_result_count(want));
	/* The objects with the odd annotation, as plain JSON, are what the
	 * odd shapes must give. */
	kp__node **odd = with_odd_annotation(&o);
	kp__buf b = { 0 };
	static const style compact = { NULL, "\n", ORDER_ASIS, 0 };
	for (size_t i = 0; i < o.n; i++)
		put_json_doc(&b, odd[i], &compact);
	kp_decode_result *want_odd = decode(b.data ? b.data : "", b.len, "odd objects");
	kp__buf_dispose(&b);
	free_nodes(odd, o.n);

	shapes s = { 0 };
	make_shapes(&s, &o);
	for (size_t i = 0; i < s.n; i++) {
		char what[4400];
		snprintf(what, sizeof(what), "%s as %s", path, s.v[i].name);
		kp_decode_result *got = decode(s.v[i].text, s.v[i].len, what);
		same_objects(s.v[i].odd ? want_odd : want, got, what);
		if (s.v[i].odd)
			odd_annotation_kept(got, what);
		kp_decode_result_free(got);
	}
	int n = (int)s.n;
	shapes_free(&s);
	objects_free(&o);
	kp_decode_result_free(want);
	kp_decode_result_free(want_odd);
	free(text);
	return n;
}

/* Every .yaml file of a directory, in name order; the number checked. */
static int check_dir(const char *dir)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, NULL, alphasort);
	ck_assert_msg(n >= 0, "cannot list %s", dir);
	int files = 0;
	for (int i = 0; i < n; i++) {
		size_t l = strlen(names[i]->d_name);
		if (l > 5 && strcmp(names[i]->d_name + l - 5, ".yaml") == 0) {
			char path[4096];
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
			ck_assert_int_gt(check_file(path), 20);
			files++;
		}
		free(names[i]);
	}
	free(names);
	return files;
}

/* ---- tests ---- */

static const char *const example_dirs[] = { "examples/cluster", "examples/disruption",
					    "examples/lifecycle" };

START_TEST(example_manifests)
{
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/%s", KP_SOURCE_ROOT, example_dirs[_i]);
	ck_assert_int_gt(check_dir(dir), 0);
}
END_TEST

START_TEST(upstream_manifests)
{
	ck_assert_int_gt(check_dir(kp_test_data_path("manifests/v1")), 10);
}
END_TEST

/* kubectl get -o json of a Pod and a NodePool, verbatim: the shape of
 * issue 18 (whitespace before the items array of a streamed List). */
START_TEST(kubectl_list_verbatim)
{
	static const char text[] =
		"{\n"
		"    \"apiVersion\": \"v1\",\n"
		"    \"items\": [\n"
		"        {\n"
		"            \"apiVersion\": \"v1\",\n"
		"            \"kind\": \"Pod\",\n"
		"            \"metadata\": {\n"
		"                \"name\": \"web\",\n"
		"                \"namespace\": \"shop\"\n"
		"            },\n"
		"            \"spec\": {\n"
		"                \"containers\": [\n"
		"                    {\n"
		"                        \"image\": \"nginx\",\n"
		"                        \"name\": \"web\"\n"
		"                    }\n"
		"                ]\n"
		"            }\n"
		"        }\n"
		"    ],\n"
		"    \"kind\": \"List\",\n"
		"    \"metadata\": {\n"
		"        \"resourceVersion\": \"\"\n"
		"    }\n"
		"}\n";
	kp_decode_result *r = decode(text, sizeof(text) - 1, "kubectl List");
	ck_assert_uint_eq(kp_decode_result_count(r), 1);
	const kp_decoded_object *o = kp_decode_result_at(r, 0);
	ck_assert_uint_eq(o->kind, KP_KIND_POD);
	ck_assert_str_eq(o->name, "web");
	ck_assert_str_eq(o->namespace_, "shop");
	ck_assert_uint_eq(o->in_list, 1);
	kp_decode_result_free(r);
}
END_TEST

static Suite *shapes_suite(int upstream)
{
	Suite *s = suite_create("real-shapes");
	TCase *tc = tcase_create("shapes");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, kubectl_list_verbatim);
	tcase_add_loop_test(tc, example_manifests, 0,
			    (int)(sizeof(example_dirs) / sizeof(example_dirs[0])));
	if (upstream)
		tcase_add_test(tc, upstream_manifests);
	suite_add_tcase(s, tc);
	return s;
}

/* ---- --emit DIR FILE... ---- */

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static int emit(const char *dir, char **files, int n)
{
	for (int f = 0; f < n; f++) {
		size_t len = 0;
		char *text = kp_test_read_file(files[f], &len);
		if (!text) {
			fprintf(stderr, "cannot read %s\n", files[f]);
			return 1;
		}
		objects o = read_objects(text, len, files[f]);
		shapes s = { 0 };
		make_shapes(&s, &o);
		char base[1024];
		snprintf(base, sizeof(base), "%s", base_name(files[f]));
		char *dot = strrchr(base, '.');
		if (dot)
			*dot = '\0';
		for (size_t i = 0; i < s.n; i++) {
			char path[4096];
			size_t nl = strlen(s.v[i].name);
			int yaml = nl > 5 && strcmp(s.v[i].name + nl - 5, "-yaml") == 0;
			snprintf(path, sizeof(path), "%s/%s.%.*s.%s", dir, base,
				 (int)(yaml ? nl - 5 : nl), s.v[i].name, yaml ? "yaml" : "json");
			FILE *out = fopen(path, "wb");
			if (!out || fwrite(s.v[i].text, 1, s.v[i].len, out) != s.v[i].len ||
			    fclose(out) != 0) {
				fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
				return 1;
			}
		}
		shapes_free(&s);
		objects_free(&o);
		free(text);
	}
	return 0;
}

/* The emitter runs as a Check test (the helpers assert), silently. */
static char **emit_args;
static int emit_n;

START_TEST(emit_shapes)
{
	ck_assert_int_eq(emit(emit_args[0], emit_args + 1, emit_n - 1), 0);
}
END_TEST

static int run_emit(char **args, int n)
{
	emit_args = args;
	emit_n = n;
	Suite *s = suite_create("emit");
	TCase *tc = tcase_create("emit");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, emit_shapes);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_SILENT);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "--emit") == 0)
		return run_emit(argv + 2, argc - 2);
	if (kp_registry_new(&reg, NULL) || kp_kwok_register(reg, &kwok_kind, NULL))
		return 99;
	struct stat sb;
	int upstream = stat(kp_test_data_path("manifests/v1"), &sb) == 0 && S_ISDIR(sb.st_mode);
	if (!upstream)
		printf("# upstream manifests not checked: %s is missing (set -Dshared_data=DIR)\n",
		       kp_test_data_path("manifests/v1"));
	Suite *suites[] = { shapes_suite(upstream) };
	int rc = kp_test_run(suites, 1);
	kp_registry_free(reg);
	return rc;
}
