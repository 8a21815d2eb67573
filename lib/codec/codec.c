/*
 * Public codec API (codec.h): streams of JSON or YAML documents to decoded
 * objects, and objects to JSON or YAML text.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <karpenter/codec.h>

#include "common/sized.h"
#include "schema/schema.h"
#include "schema/registry.h"
#include "validation/crd.h"
#include "document/tree.h"

struct kp_decode_result {
	kp_decoded_object *objects;
	size_t n;
	size_t cap;
	char **warnings;
	size_t n_warnings;
	size_t cap_warnings;
	size_t dropped_warnings; /* beyond KP_DECODE_MAX_WARNINGS */
	kp_registry *registry;   /* held (kp__registry_ref): frees registered kinds */
};

KP_EXPORT void kp_decode_options_init(kp_decode_options *opts)
{
	if (!opts)
		return;
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	*opts = o;
}

static void free_entry(const kp_registry *reg, kp_decoded_object *e)
{
	kp__free((void *)(uintptr_t)e->api_version);
	kp__free((void *)(uintptr_t)e->kind_name);
	kp__free((void *)(uintptr_t)e->name);
	kp__free((void *)(uintptr_t)e->namespace_);
	if (e->object)
		kp_registry_object_free(reg, e->kind, e->object);
}

KP_EXPORT void kp_decode_result_free(kp_decode_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++)
		free_entry(r->registry, &r->objects[i]);
	kp__free(r->objects);
	for (size_t i = 0; i < r->n_warnings; i++)
		kp__free(r->warnings[i]);
	kp__free(r->warnings);
	kp_registry_free(r->registry);
	kp__free(r);
}

KP_EXPORT size_t kp_decode_result_count(const kp_decode_result *r)
{
	return r ? r->n : 0;
}

KP_EXPORT const kp_decoded_object *kp_decode_result_at(const kp_decode_result *r, size_t i)
{
	if (!r || i >= r->n)
		return NULL;
	return &r->objects[i];
}

KP_EXPORT int kp_decode_result_take(kp_decode_result *r, size_t i, void **out, kp_error *err)
{
	if (out)
		*out = NULL;
	if (!r || !out)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	if (i >= r->n)
		return kp__error(err, KP_EINVAL, NULL, "index %zu out of range (%zu objects)", i, r->n);
	if (!r->objects[i].object)
		return kp__error(err, KP_ENOTFOUND, NULL, "object %zu has no decoded struct", i);
	*out = r->objects[i].object;
	r->objects[i].object = NULL;
	return KP_OK;
}

KP_EXPORT size_t kp_decode_result_warning_count(const kp_decode_result *r)
{
	return r ? r->n_warnings : 0;
}

KP_EXPORT const char *kp_decode_result_warning_at(const kp_decode_result *r, size_t i)
{
	if (!r || i >= r->n_warnings)
		return NULL;
	return r->warnings[i];
}

static int add_warning(void *ctx, const char *msg)
{
	kp_decode_result *r = ctx;
	if (r->n_warnings >= KP_DECODE_MAX_WARNINGS) {
		r->dropped_warnings++;
		return KP_OK;
	}
	if (kp__grow((void **)&r->warnings, &r->cap_warnings, r->n_warnings + 1,
		     sizeof(*r->warnings)) != KP_OK)
		return KP_ENOMEM;
	char *w = kp__strdup(msg);
	if (!w)
		return KP_ENOMEM;
	r->warnings[r->n_warnings++] = w;
	return KP_OK;
}

typedef struct dstate {
	kp_decode_result *r;
	const kp_decode_options *opts;
	kp_error *err;
	/* A document whose "items" are streamed (kp__doc_sink): what the
	 * result held before them, to undo them if it is not a List, and the
	 * first error of an item, which counts only if it is. */
	size_t mark_objects, mark_warnings, mark_dropped;
	int item_rc;
	kp_error item_err;
} dstate;

static const char *node_str(const kp__node *obj, const char *key)
{
	const kp__node *n = kp__node_get(obj, key);
	return n && n->type == KP__N_STRING ? n->text : NULL;
}

static int is_list_kind(const char *kind)
{
	size_t n = strlen(kind);
	return n >= 4 && strcmp(kind + n - 4, "List") == 0;
}

/* An object's kind and apiVersion, which every object must have. */
static int kind_and_api(dstate *st, const kp__node *obj, const char *where, const char **kind,
			const char **api_version)
{
	kp__node *kind_node = kp__node_get(obj, "kind");
	kp__node *api_node = kp__node_get(obj, "apiVersion");
	if (!kind_node || kind_node->type == KP__N_NULL)
		return kp__error(st->err, KP_EINVAL, "kind", "%s: kind not set", where);
	if (kind_node->type != KP__N_STRING)
		return kp__error(st->err, KP_EINVAL, "kind", "%s: kind: expected string, got %s", where,
				 kp__node_type_name(kind_node->type));
	if (!api_node || api_node->type == KP__N_NULL)
		return kp__error(st->err, KP_EINVAL, "apiVersion", "%s: apiVersion not set", where);
	if (api_node->type != KP__N_STRING)
		return kp__error(st->err, KP_EINVAL, "apiVersion",
				 "%s: apiVersion: expected string, got %s", where,
				 kp__node_type_name(api_node->type));
	*kind = kind_node->text;
	*api_version = api_node->text;
	return KP_OK;
}

static int decode_object(dstate *st, kp__node *obj, const char *where, size_t doc, size_t item,
			 int in_list, uint32_t depth)
{
	const char *kind = NULL, *api_version = NULL;
	int krc = kind_and_api(st, obj, where, &kind, &api_version);
	if (krc)
		return krc;

	kp__node *items = kp__node_get(obj, "items");
	if (is_list_kind(kind) && items && items->type == KP__N_ARRAY) {
		if (depth > 8)
			return kp__error(st->err, KP_ERANGE, NULL, "%s: Lists nest too deeply", where);
		for (size_t i = 0; i < items->n; i++) {
			kp__buf wb = { 0 };
			kp__buf_printf(&wb, "%s: items[%zu]", where, i);
			char *w = kp__buf_take(&wb, NULL);
			if (!w)
				return kp__error(st->err, KP_ENOMEM, NULL, "out of memory");
			kp__node *it = items->items[i];
			int rc;
			if (it->type != KP__N_OBJECT)
				rc = kp__error(st->err, KP_EINVAL, NULL, "%s: expected an object, got %s",
					       w, kp__node_type_name(it->type));
			else
				rc = decode_object(st, it, w, doc, i, 1, depth + 1);
			kp__free(w);
			if (rc)
				return rc;
		}
		return KP_OK;
	}

	const kp__node *meta = kp__node_get(obj, "metadata");
	const char *name = meta && meta->type == KP__N_OBJECT ? node_str(meta, "name") : NULL;
	const char *ns = meta && meta->type == KP__N_OBJECT ? node_str(meta, "namespace") : NULL;

	kp_decode_result *r = st->r;
	if (kp__grow((void **)&r->objects, &r->cap, r->n + 1, sizeof(*r->objects)) != KP_OK)
		return kp__error(st->err, KP_ENOMEM, NULL, "out of memory");
	kp_decoded_object *e = &r->objects[r->n];
	memset(e, 0, sizeof(*e));
	e->struct_size = sizeof(*e);
	e->document = doc;
	e->item = item;
	e->in_list = in_list ? 1 : 0;
	e->api_version = kp__strdup(api_version);
	e->kind_name = kp__strdup(kind);
	e->name = kp__strdup(name ? name : "");
	e->namespace_ = kp__strdup(ns ? ns : "");
	r->n++; /* from here the entry is owned by the result */
	if (!e->api_version || !e->kind_name || !e->name || !e->namespace_)
		return kp__error(st->err, KP_ENOMEM, NULL, "out of memory");

	uint32_t k = kp_registry_lookup(r->registry, api_version, kind);
	if (k == KP_KIND_UNKNOWN)
		return KP_OK;
	const kp__kind_info *info = kp__registry_kind_info(r->registry, k);

	kp__buf ib = { 0 };
	if (name && *name)
		kp__buf_printf(&ib, "%s/%s", kind, name);
	else
		kp__buf_puts(&ib, where);
	char *ident = kp__buf_take(&ib, NULL);
	if (!ident)
		return kp__error(st->err, KP_ENOMEM, NULL, "out of memory");
	int lenient = (st->opts->flags & KP_DECODE_LENIENT) != 0;
	kp__dctx ctx;
	memset(&ctx, 0, sizeof(ctx));
	ctx.unknown_mode = info->karpenter ? (lenient ? KP__UNKNOWN_WARN : KP__UNKNOWN_ERROR)
					   : KP__UNKNOWN_IGNORE;
	ctx.lenient = lenient;
	ctx.kind = k;
	ctx.info = info;
	ctx.ident = ident;
	ctx.err = st->err;
	ctx.crd = &kp__crd_rules_v1;
	ctx.warn = add_warning;
	ctx.warn_ctx = r;
	void *o = NULL;
	int rc = kp__schema_decode(info->type, obj, &o, &ctx);
	kp__dctx_dispose(&ctx);
	kp__free(ident);
	if (rc)
		return rc;
	e->kind = k;
	e->object = o;
	return KP_OK;
}

/* Undo what a document's streamed items added to the result. */
static void items_undo(dstate *st)
{
	kp_decode_result *r = st->r;
	while (r->n > st->mark_objects)
		free_entry(r->registry, &r->objects[--r->n]);
	while (r->n_warnings > st->mark_warnings)
		kp__free(r->warnings[--r->n_warnings]);
	r->dropped_warnings = st->mark_dropped;
	st->item_rc = KP_OK;
}

static int items_begin(void *ctx, size_t doc)
{
	dstate *st = ctx;
	(void)doc;
	if (st->mark_objects == SIZE_MAX) { /* the document's first "items" */
		st->mark_objects = st->r->n;
		st->mark_warnings = st->r->n_warnings;
		st->mark_dropped = st->r->dropped_warnings;
	}
	items_undo(st); /* a repeated key: the last one counts */
	return KP_OK;
}

/* An item of a top-level List, as decode_object's List branch does it.
 * Its error is held until the document's end tells whether it is a List
 * (the parse goes on meanwhile; later items are not decoded). */
static int decode_list_item(void *ctx, size_t doc, size_t i, kp__node *it)
{
	dstate *st = ctx;
	if (st->item_rc)
		return KP_OK;
	char where[80];
	snprintf(where, sizeof(where), "document %zu: items[%zu]", doc + 1, i);
	int rc = it->type == KP__N_OBJECT
			 ? decode_object(st, it, where, doc, i, 1, 1)
			 : kp__error(st->err, KP_EINVAL, NULL, "%s: expected an object, got %s", where,
				     kp__node_type_name(it->type));
	if (rc == KP_ENOMEM)
		return rc;
	if (rc) {
		st->item_rc = rc;
		if (st->err)
			st->item_err = *st->err;
	}
	return KP_OK;
}

static int decode_document(void *ctx, size_t index, kp__node *d, int items_streamed)
{
	dstate *st = ctx;
	char where[48];
	snprintf(where, sizeof(where), "document %zu", index + 1);
	if (items_streamed) {
		/* What decode_object would have done with the whole tree: a
		 * List (its kind and apiVersion checked first) decodes its
		 * items, which is done; anything else is read as itself. */
		const char *kind = NULL, *api_version = NULL;
		const kp__node *k = kp__node_get(d, "kind");
		const kp__node *items = kp__node_get(d, "items"); /* the last one counts */
		if (k && k->type == KP__N_STRING && is_list_kind(k->text) && items &&
		    items->type == KP__N_ARRAY) {
			st->mark_objects = SIZE_MAX; /* for the next document */
			int rc = kind_and_api(st, d, where, &kind, &api_version);
			if (rc)
				return rc;
			if (st->item_rc && st->err)
				*st->err = st->item_err;
			return st->item_rc;
		}
		items_undo(st);
		st->mark_objects = SIZE_MAX;
	}
	if (d->type == KP__N_NULL)
		return KP_OK;
	if (d->type != KP__N_OBJECT)
		return kp__error(st->err, KP_EINVAL, NULL, "%s: expected an object, got %s", where,
				 kp__node_type_name(d->type));
	return decode_object(st, d, where, index, 0, 0, 0);
}

/*
 * What the parsers may skip (kp__doc_sink.root_scope/member_scope): a
 * scope is the kp__type of the object being read, for a kind whose unknown
 * fields are ignored, or one of two markers for a kind the registry does
 * not know, of which only the kind, apiVersion, name and namespace are read
 * (decode_object). Karpenter's and registered providers' kinds are strict
 * (every unknown field is named), Lists are read whole, and lenient mode
 * keeps everything (a repeated "kind" may change the object's kind there).
 */
static const char scope_unknown_kind, scope_unknown_meta;

static const void *root_scope(void *ctx, const char *api_version, const char *kind)
{
	dstate *st = ctx;
	if ((st->opts->flags & KP_DECODE_LENIENT) || is_list_kind(kind))
		return NULL;
	uint32_t k = kp_registry_lookup(st->r->registry, api_version, kind);
	if (k == KP_KIND_UNKNOWN)
		return &scope_unknown_kind;
	const kp__kind_info *info = kp__registry_kind_info(st->r->registry, k);
	return info && !info->karpenter ? info->type : NULL;
}

static const void *member_scope(void *ctx, const void *scope, const char *key, int *skip)
{
	(void)ctx;
	if (scope == &scope_unknown_kind) {
		if (strcmp(key, "metadata") == 0)
			return &scope_unknown_meta;
		*skip = strcmp(key, "kind") != 0 && strcmp(key, "apiVersion") != 0;
		return NULL;
	}
	if (scope == &scope_unknown_meta) {
		*skip = strcmp(key, "name") != 0 && strcmp(key, "namespace") != 0;
		return NULL;
	}
	int known = 0;
	const kp__type *t = kp__schema_member(scope, key, &known);
	*skip = !known;
	return t;
}

/* Read ahead to tell the format: up to the first non-blank byte, which
 * the parse then reads again (rd->head) so that line numbers stay right. */
static int read_head(kp__reader *rd, char **out, size_t *out_len, kp_error *err)
{
	char *head = NULL;
	size_t have = 0, cap = 0, i = 0;
	for (;;) {
		if (have == cap) {
			cap = cap ? cap * 2 : 4096;
			char *nh = kp__realloc(head, cap);
			if (!nh) {
				kp__free(head);
				return kp__error(err, KP_ENOMEM, NULL, "out of memory");
			}
			head = nh;
		}
		size_t got = 0;
		int rc = kp__reader_read(rd, head + have, cap - have, &got, err);
		if (rc) {
			kp__free(head);
			return rc;
		}
		have += got;
		if (i == 0 && have >= 3 && memcmp(head, "\xEF\xBB\xBF", 3) == 0)
			i = 3;
		while (i < have && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' ||
				    head[i] == '\n'))
			i++;
		/* a non-blank byte past a possible byte order mark, or the end */
		if (!got || (i < have && have >= 3))
			break;
	}
	rd->head = head;
	rd->head_len = have;
	*out = head;
	*out_len = have;
	return KP_OK;
}

/* kp_decode and kp_decode_read: @p data (or, with @p rd, what it reads). */
static int decode_input(kp_decode_result **out, const char *data, size_t len, kp__reader *rd,
			const kp_decode_options *opts, kp_error *err)
{
	kp_decode_options defaults = KP_DECODE_OPTIONS_INIT;
	if (out)
		*out = NULL;
	if (!out || (!data && len))
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	if (!opts)
		opts = &defaults;
	kp_decode_options o;
	int rc = KP__READ_SIZED(&o, opts, kp_decode_options, err);
	if (rc)
		return rc;
	opts = &o;
	if (opts->format > KP_FORMAT_YAML)
		return kp__error(err, KP_EINVAL, "format", "unknown format %u", (unsigned)opts->format);
	if (opts->flags & ~(uint32_t)KP_DECODE_LENIENT)
		return kp__error(err, KP_EINVAL, "flags", "unknown flags 0x%x", (unsigned)opts->flags);
	if (opts->max_depth > KP_DECODE_MAX_DEPTH_LIMIT)
		return kp__error(err, KP_EINVAL, "max_depth", "max_depth %u is above the limit of %u",
				 (unsigned)opts->max_depth, (unsigned)KP_DECODE_MAX_DEPTH_LIMIT);
	size_t max_bytes = opts->max_bytes ? opts->max_bytes : KP_DECODE_DEFAULT_MAX_BYTES;
	if (len > max_bytes)
		return kp__error(err, KP_ERANGE, NULL, "input is %zu bytes, more than the limit of %zu",
				 len, max_bytes);
	kp__budget b;
	b.max_nodes = opts->max_nodes ? opts->max_nodes : KP_DECODE_DEFAULT_MAX_NODES;
	b.nodes = 0;
	b.max_text = max_bytes > SIZE_MAX / 2 ? SIZE_MAX : max_bytes * 2;
	b.text = 0;
	b.max_depth = opts->max_depth ? opts->max_depth : KP_DECODE_DEFAULT_MAX_DEPTH;

	char *head = NULL;
	if (rd) {
		rd->max_bytes = max_bytes;
		if ((rc = read_head(rd, &head, &len, err)) != KP_OK)
			return rc;
		data = head;
	}
	uint32_t format = opts->format;
	if (format == KP_FORMAT_AUTO) {
		size_t i = 0;
		if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
			i = 3;
		while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
			i++;
		format = i < len && data[i] == '{' ? KP_FORMAT_JSON : KP_FORMAT_YAML;
	}
	kp_decode_result *r = kp__calloc(1, sizeof(*r));
	if (!r) {
		kp__free(head);
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	r->registry = kp__registry_ref(opts->registry);
	/* Each document (and each item of a List) is decoded as soon as it
	 * is parsed and its tree released: memory holds one document's tree
	 * at a time, not the stream's. */
	dstate st;
	memset(&st, 0, sizeof(st));
	st.r = r;
	st.opts = opts;
	st.err = err;
	st.mark_objects = SIZE_MAX;
	kp__doc_sink sink = { decode_document, items_begin, decode_list_item, &st, root_scope,
			      member_scope };
	if (rd)
		rc = format == KP_FORMAT_JSON ? kp__json_read_each(rd, &b, &sink, err)
					      : kp__yaml_read_each(rd, &b, &sink, err);
	else
		rc = format == KP_FORMAT_JSON ? kp__json_parse_each(data ? data : "", len, &b, &sink, err)
					      : kp__yaml_parse_each(data ? data : "", len, &b, &sink, err);
	if (rc == KP_OK && r->dropped_warnings) {
		char msg[96];
		snprintf(msg, sizeof(msg), "%zu more warnings not shown", r->dropped_warnings + 1);
		r->dropped_warnings = 0;
		r->n_warnings--; /* the last slot holds the summary */
		kp__free(r->warnings[r->n_warnings]);
		r->warnings[r->n_warnings] = NULL;
		if (add_warning(r, msg) != KP_OK)
			rc = kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	kp__free(head);
	if (rc) {
		kp_decode_result_free(r);
		return rc;
	}
	*out = r;
	return KP_OK;
}

KP_EXPORT int kp_decode(kp_decode_result **out, const char *data, size_t len,
			const kp_decode_options *opts, kp_error *err)
{
	return decode_input(out, data, len, NULL, opts, err);
}

KP_EXPORT int kp_decode_read(kp_decode_result **out, kp_read_fn read, void *ctx,
			     const kp_decode_options *opts, kp_error *err)
{
	if (out)
		*out = NULL;
	if (!read)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	kp__reader rd;
	memset(&rd, 0, sizeof(rd));
	rd.read = read;
	rd.ctx = ctx;
	return decode_input(out, NULL, 0, &rd, opts, err);
}

KP_EXPORT int kp_encode(char **out, size_t *out_len, uint32_t kind, const void *object,
			uint32_t format, uint32_t flags, kp_error *err)
{
	return kp_registry_encode(out, out_len, NULL, kind, object, format, flags, err);
}

KP_EXPORT int kp_registry_encode(char **out, size_t *out_len, const kp_registry *registry,
				 uint32_t kind, const void *object, uint32_t format, uint32_t flags,
				 kp_error *err)
{
	if (out)
		*out = NULL;
	if (!out || !object)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	const kp__kind_info *info = kp__registry_kind_info(registry, kind);
	if (!info)
		return kp__error(err, KP_EINVAL, NULL, "unknown kind %u", (unsigned)kind);
	if (format != KP_FORMAT_JSON && format != KP_FORMAT_YAML)
		return kp__error(err, KP_EINVAL, "format", "unknown format %u", (unsigned)format);
	if (flags & ~(uint32_t)KP_ENCODE_PRETTY)
		return kp__error(err, KP_EINVAL, "flags", "unknown flags 0x%x", (unsigned)flags);
	kp__node *tree = NULL;
	int rc = kp__schema_encode(info->type, object, info, &tree, err);
	if (rc)
		return rc;
	kp__buf b = { 0 };
	if (format == KP_FORMAT_JSON)
		kp__json_write(&b, tree, (flags & KP_ENCODE_PRETTY) ? 2 : 0);
	else
		kp__yaml_write(&b, tree);
	kp__node_free(tree);
	size_t n = 0;
	char *text = kp__buf_take(&b, &n);
	if (!text)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	*out = text;
	if (out_len)
		*out_len = n;
	return KP_OK;
}

KP_EXPORT int kp_encode_emit(kp_emitter *em, const kp_registry *registry, uint32_t kind,
			     const void *object)
{
	if (!em)
		return KP_EINVAL;
	int rc = kp_emitter_status(em);
	if (rc)
		return rc;
	const kp__kind_info *info = object ? kp__registry_kind_info(registry, kind) : NULL;
	if (!info)
		return KP_EINVAL; /* nothing written: the emitter goes on */
	/* The kind's events straight from the struct: the walk that builds
	 * kp_registry_encode's tree, so the same members and text rules, with
	 * no tree or text between. What it refuses half-way fails the
	 * emitter: its output is not a whole document. */
	rc = kp__schema_emit(em, info->type, object, info, NULL);
	if (rc)
		return kp__emitter_fail(em, rc);
	return kp_emitter_status(em);
}

KP_EXPORT void kp_encoded_free(char *text)
{
	kp__free(text);
}

KP_EXPORT int kp_decode_one(void **out, uint32_t kind, const char *data, size_t len,
			    const kp_decode_options *opts, kp_error *err)
{
	if (out)
		*out = NULL;
	if (!out || (!data && len))
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	if (opts) {
		int rc = KP__READ_SIZED(&o, opts, kp_decode_options, err);
		if (rc)
			return rc;
	}
	const kp__kind_info *want = kp__registry_kind_info(o.registry, kind);
	if (!want)
		return kp__error(err, KP_EINVAL, "kind", "unknown kind %u", (unsigned)kind);
	kp_decode_result *r = NULL;
	int rc = kp_decode(&r, data ? data : "", len, &o, err);
	if (rc != KP_OK)
		return rc;
	if (r->n != 1) {
		rc = kp__error(err, KP_EINVAL, NULL, "expected one %s, found %zu objects", want->name,
			       r->n);
	} else if (r->objects[0].kind != kind) {
		const kp_decoded_object *d = &r->objects[0];
		rc = kp__error(err, KP_EINVAL, "kind", "expected a %s, found %s %s %s%s%s", want->name,
			       d->api_version, d->kind_name, d->namespace_, *d->namespace_ ? "/" : "",
			       d->name);
	} else {
		rc = kp_decode_result_take(r, 0, out, err);
	}
	kp_decode_result_free(r);
	return rc;
}
