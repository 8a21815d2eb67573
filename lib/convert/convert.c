/*
 * libkarpenter: the converter (karpenter/convert.h): reading manifests into
 * heap document trees, offering each object to the core's rules and the
 * providers' registered conversions, the kubelet migration, and writing.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include <karpenter/codec.h>

#include "common/sized.h"
#include "convert/convert_private.h"

struct kp_convert {
	kp_convert_options opts;
	kp_registry *registry; /* held */
	kp__cv_list in;
	kp__cv_list out;
	char **json;           /* kp_convert_object_json_at's cache, per output */
	kp__cv cv;
	int ran;
};

KP_EXPORT void kp_convert_options_init(kp_convert_options *opts)
{
	if (!opts)
		return;
	kp_convert_options init = KP_CONVERT_OPTIONS_INIT;
	*opts = init;
}

KP_EXPORT int kp_convert_new(kp_convert **out, const kp_convert_options *opts, kp_error *err)
{
	if (out)
		*out = NULL;
	if (!out)
		return kp__error(err, KP_EINVAL, NULL, "kp_convert_new: NULL argument");
	kp_convert_options o = KP_CONVERT_OPTIONS_INIT;
	if (opts) {
		int rc = KP__READ_SIZED(&o, opts, kp_convert_options, err);
		if (rc)
			return rc;
	}
	if (!o.target)
		o.target = KP_CONVERT_V1;
	if (o.target != KP_CONVERT_V1 && o.target != KP_CONVERT_V1BETA1)
		return kp__error(err, KP_EINVAL, "target", "unknown conversion target %u",
				 (unsigned)o.target);
	if ((o.flags & ~(uint32_t)KP_CONVERT_NO_KUBELET_MIGRATION) || o.reserved)
		return kp__error(err, KP_EINVAL, "flags", "unknown conversion flags");
	kp_convert *c = kp__calloc(1, sizeof(*c));
	if (!c)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	c->opts = o;
	c->registry = o.registry ? kp__registry_ref(o.registry) : NULL;
	*out = c;
	return KP_OK;
}

static void list_dispose(kp__cv_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		kp__node_free(l->items[i].node);
	kp__free(l->items);
	memset(l, 0, sizeof(*l));
}

KP_EXPORT void kp_convert_free(kp_convert *c)
{
	if (!c)
		return;
	if (c->json)
		for (size_t i = 0; i < c->out.n; i++)
			kp__free(c->json[i]);
	kp__free(c->json);
	list_dispose(&c->in);
	list_dispose(&c->out);
	for (size_t i = 0; i < c->cv.n_report; i++)
		kp__free(c->cv.report[i]);
	kp__free(c->cv.report);
	for (size_t i = 0; i < c->cv.n_np; i++) {
		kp__free(c->cv.np_names[i]);
		kp__free(c->cv.np_expire[i]);
	}
	kp__free(c->cv.np_names);
	kp__free(c->cv.np_expire);
	kp__map_free(&c->cv.np_index);
	kp_registry_free(c->registry);
	kp__free(c);
}

/* Append (taking the node; freed on failure). */
static int list_push(kp__cv_list *l, kp__node *n, uint32_t converted)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		kp__cv_item *grown = kp__realloc(l->items, cap * sizeof(*grown));
		if (!grown) {
			kp__node_free(n);
			return KP_ENOMEM;
		}
		l->items = grown;
		l->cap = cap;
	}
	memset(&l->items[l->n], 0, sizeof(l->items[l->n]));
	l->items[l->n].node = n;
	l->items[l->n++].converted = converted;
	return KP_OK;
}

/* A List: an object whose kind ends in "List" with an items array. */
static const kp__node *list_items(const kp__node *doc)
{
	const char *kind = kp__cv_str(doc, "kind");
	size_t len = kind ? strlen(kind) : 0;
	const kp__node *items = kp__node_get(doc, "items");
	if (len >= 4 && !strcmp(kind + len - 4, "List") && items && items->type == KP__N_ARRAY)
		return items;
	return NULL;
}

static int add_object(kp_convert *c, const kp__node *o, const char *source, size_t doc,
		      kp_error *err)
{
	if (o->type != KP__N_OBJECT)
		return kp__error(err, KP_EINVAL, NULL, "%s: document %zu: expected an object, got %s",
				 source, doc + 1, kp__node_type_name(o->type));
	kp__node *copy = kp__node_copy(NULL, o, NULL);
	if (!copy || list_push(&c->in, copy, 0))
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	/* the last of duplicated keys wins, as when Go decodes the object */
	if (kp__cv_dedupe(&c->cv, copy))
		kp__cv_report(&c->cv, "warning: %s/%s: %s: duplicate fields: the last of each is kept",
			      kp__cv_kind(copy), kp__cv_name(copy), source);
	if (c->cv.rc) {
		int rc = c->cv.rc;
		c->cv.rc = KP_OK;
		return kp__error(err, rc, NULL, "out of memory");
	}
	return KP_OK;
}

/* An object, or the objects of a List, of Lists inside it too (as kp_decode
 * reads them: a List in a List is expanded, not an object of its own, so
 * that a conversion's output converts again to the same objects). */
static int add_document(kp_convert *c, const kp__node *doc, const char *source, size_t d,
			unsigned depth, kp_error *err)
{
	const kp__node *items = doc->type == KP__N_OBJECT ? list_items(doc) : NULL;
	if (!items)
		return add_object(c, doc, source, d, err);
	if (depth > 8)
		return kp__error(err, KP_ERANGE, NULL, "%s: document %zu: Lists nest too deeply",
				 source, d + 1);
	int rc = KP_OK;
	for (size_t k = 0; k < items->n && rc == KP_OK; k++)
		rc = add_document(c, items->items[k], source, d, depth + 1, err);
	return rc;
}

KP_EXPORT int kp_convert_add(kp_convert *c, const char *data, size_t len, const char *source,
			     kp_error *err)
{
	if (!c || (!data && len))
		return kp__error(err, KP_EINVAL, NULL, "kp_convert_add: NULL argument");
	if (c->ran)
		return kp__error(err, KP_EINVAL, NULL, "kp_convert_add: already converted");
	if (!source)
		source = "input";
	if (len > KP_DECODE_DEFAULT_MAX_BYTES)
		return kp__error(err, KP_ERANGE, NULL, "%s: input is %zu bytes, more than the limit "
				 "of %zu", source, len, KP_DECODE_DEFAULT_MAX_BYTES);
	kp__budget b;
	memset(&b, 0, sizeof(b));
	b.max_nodes = KP_DECODE_DEFAULT_MAX_NODES;
	b.max_text = len * 2 + 64;
	b.max_depth = KP_DECODE_DEFAULT_MAX_DEPTH;
	size_t i = 0;
	if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3))
		i = 3;
	while (i < len && strchr(" \t\r\n", data[i]) && data[i])
		i++;
	int json = i < len && (data[i] == '{' || data[i] == '[');
	kp__node *docs = NULL;
	kp_error pe = KP_ERROR_INIT;
	int rc = json ? kp__json_parse(&docs, data ? data : "", len, &b, &pe)
		      : kp__yaml_parse(&docs, data ? data : "", len, &b, &pe);
	if (rc) {
		kp__node_free(docs);
		return kp__error(err, rc, pe.field, "%s: %s", source, pe.message);
	}
	for (size_t d = 0; d < docs->n && rc == KP_OK; d++) {
		const kp__node *doc = docs->items[d];
		if (doc->type != KP__N_NULL)
			rc = add_document(c, doc, source, d, 0, err);
	}
	kp__node_free(docs);
	return rc;
}

/* ---- providers ------------------------------------------------------------ */

typedef struct sink_ctx {
	kp_convert *conv;
	kp__cv *cv;
} sink_ctx;

static int sink_emit(void *ctx, const char *json)
{
	sink_ctx *sc = ctx;
	int bad = 0;
	kp__node *n = kp__cv_parse(sc->cv, json, &bad);
	if (!n)
		return bad ? KP_EPARSE : KP_ENOMEM;
	if (n->type != KP__N_OBJECT) {
		kp__node_free(n);
		return KP_EPARSE;
	}
	return list_push(&sc->conv->out, n, 1) ? KP_ENOMEM : KP_OK;
}

static int sink_report(void *ctx, const char *line)
{
	sink_ctx *sc = ctx;
	kp__cv_report(sc->cv, "%s", line);
	return sc->cv->rc;
}

/* Offer o to the providers: KP_ENOTSUP when none converts it; what the
 * converting one emits is appended to c->out. */
static int provider_convert(kp_convert *c, const kp__node *o, const char *av, const char *kind)
{
	kp__cv *cv = &c->cv;
	/* the object as the API server stores it (kp__cv_prune_nulls); a
	 * refused object passes through as it was given */
	kp__node *pruned = kp__cv_copy(cv, o);
	if (!pruned)
		return cv->rc;
	kp__cv_prune_nulls(pruned);
	char *json = kp__cv_json(cv, pruned);
	kp__node_free(pruned);
	if (!json)
		return cv->rc;
	for (size_t i = 0; i < kp__registry_conversion_count(c->registry); i++) {
		const kp__reg_conversion *rc = kp__registry_conversion(c->registry, i);
		if (!json)
			return cv->rc;
		sink_ctx sc = { c, cv };
		struct kp_conversion_sink sink = { sink_emit, sink_report, &sc };
		kp_error e = KP_ERROR_INIT;
		size_t first = c->out.n;
		int r = rc->ops.convert(rc->self, json, av, kind, c->opts.target, &sink, &e);
		if (r == KP_ENOTSUP) {
			/* nothing may stay of a refusal */
			while (c->out.n > first)
				kp__node_free(c->out.items[--c->out.n].node);
			continue;
		}
		kp__free(json);
		if (r == KP_OK && cv->rc)
			r = cv->rc;
		if (r)
			return kp__cv_fail(cv, r, e.field, "%s", e.message[0] ? e.message :
					   kp_strerror(r));
		return KP_OK;
	}
	kp__free(json);
	return KP_ENOTSUP;
}

/*
 * A core v1alpha5 object, offered to the providers first (their v1alpha5
 * defaults, an inline provider block): the first object a provider emits
 * replaces *o; the others (generated) are moved to *extra, to follow it.
 */
static int provider_prepass(kp_convert *c, kp__node **o, const char *kind, kp__cv_list *extra)
{
	size_t first = c->out.n;
	int r = provider_convert(c, *o, "karpenter.sh/v1alpha5", kind);
	if (r == KP_ENOTSUP)
		return KP_OK;
	if (r)
		return r;
	if (c->out.n == first)
		return KP_OK; /* nothing emitted: the object stays */
	kp__node_free(*o);
	*o = c->out.items[first].node;
	for (size_t i = first + 1; i < c->out.n; i++) {
		if (list_push(extra, c->out.items[i].node, 1)) {
			for (size_t k = i + 1; k < c->out.n; k++)
				kp__node_free(c->out.items[k].node);
			c->out.n = first;
			return kp__cv_fail(&c->cv, KP_ENOMEM, NULL, "out of memory");
		}
	}
	c->out.n = first;
	return KP_OK;
}

/* A karpenter.sh/v1alpha5 object through the providers, to v1beta1, and on
 * to v1. KP_ENOTSUP for other objects; *o may be replaced. */
static int convert_v1alpha5(kp_convert *c, kp__node **o, const char *av, const char *kind)
{
	if (strcmp(av, "karpenter.sh/v1alpha5") ||
	    (strcmp(kind, "Provisioner") && strcmp(kind, "Machine")))
		return KP_ENOTSUP;
	char kind_copy[16]; /* "Provisioner" or "Machine" */
	snprintf(kind_copy, sizeof(kind_copy), "%s", kind);
	kind = kind_copy;
	kp__cv *cv = &c->cv;
	kp__cv_list extra = { NULL, 0, 0 };
	int r = provider_prepass(c, o, kind, &extra);
	/* av and kind were *o's before a provider replaced it */
	if (r == KP_OK) {
		const char *nav = kp__cv_str(*o, "apiVersion");
		r = kp__cv_v1alpha5(cv, *o, nav ? nav : "", kp__cv_kind(*o));
		if (r == KP_ENOTSUP)
			r = kp__cv_fail(cv, KP_EINVAL, NULL, "a provider's conversion of a v1alpha5 "
					"object emitted another kind");
	}
	if (r == KP_OK && cv->target == KP_CONVERT_V1)
		r = kp__cv_karpenter(cv, *o, KP__CV_V1BETA1, kp__cv_kind(*o));
	if (r == KP_OK) {
		r = list_push(&c->out, *o, 1) ? kp__cv_fail(cv, KP_ENOMEM, NULL, "out of memory")
					      : KP_OK;
		*o = NULL;
	}
	for (size_t i = 0; r == KP_OK && i < extra.n; i++) {
		if (list_push(&c->out, extra.items[i].node, 1)) {
			extra.items[i].node = NULL;
			r = kp__cv_fail(cv, KP_ENOMEM, NULL, "out of memory");
			break;
		}
		extra.items[i].node = NULL;
	}
	list_dispose(&extra);
	return r;
}

/* Whether an object (as output) is a node class that takes kubelets. */
static int kubelet_class(const kp_convert *c, const kp__node *o)
{
	const char *av = kp__cv_str(o, "apiVersion"), *kind = kp__cv_kind(o);
	if (!av)
		return 0;
	for (size_t i = 0; i < kp__registry_conversion_count(c->registry); i++) {
		const kp__reg_conversion *rc = kp__registry_conversion(c->registry, i);
		size_t gl = strlen(rc->node_class_group ? rc->node_class_group : "");
		if ((rc->ops.flags & KP_CONVERSION_F_KUBELET) && !strcmp(kind, rc->node_class_kind) &&
		    !strncmp(av, rc->node_class_group, gl) && !strcmp(av + gl, "/v1"))
			return 1;
	}
	return 0;
}

/* ---- the kubelet migration ------------------------------------------------ */

/* "kind\0name\0": a class's key in the migration's map. */
static char *class_key(const char *kind, const char *name)
{
	size_t k = strlen(kind), n = strlen(name);
	char *key = kp__malloc(k + n + 2);
	if (key) {
		memcpy(key, kind, k + 1);
		memcpy(key + k + 1, name, n + 1);
	}
	return key;
}

static size_t class_key_len(const char *key)
{
	size_t k = strlen(key);
	return k + 1 + strlen(key + k + 1);
}

static int same_kubelet(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The migration's state. */
typedef struct migration {
	kp_convert *c;
	size_t n_out;               /* outputs before any copy */
	const char **first_kubelet; /* per class: its first NodePool's kubelet */
	unsigned char *claimed;     /* per class: a NodePool took it */
	kp__map classes;            /* "kind\0name" of each kubelet class -> index */
	kp__cv_list copies;         /* the copies, in the order they are made */
	size_t *copy_of;            /* per copy: its class's index */
	size_t cap_copy_of;
} migration;

/* The NodePool's class of a kind that takes kubelets: its index, or -1
 * (with a warning when the class is missing and there is a kubelet). */
static size_t class_of(migration *m, const kp__node *np, const char *kubelet)
{
	kp__cv *cv = &m->c->cv;
	const kp__node *ref = kp__cv_path(np, "spec.template.spec.nodeClassRef");
	const char *kind = kp__cv_str(ref, "kind"), *name = kp__cv_str(ref, "name");
	const char *group = kp__cv_str(ref, "group");
	if (!kind || !name || !group)
		return (size_t)-1;
	int takes = 0;
	for (size_t r = 0; r < kp__registry_conversion_count(m->c->registry); r++) {
		const kp__reg_conversion *rc = kp__registry_conversion(m->c->registry, r);
		takes |= (rc->ops.flags & KP_CONVERSION_F_KUBELET) &&
			 !strcmp(rc->node_class_kind, kind) && !strcmp(rc->node_class_group, group);
	}
	if (!takes)
		return (size_t)-1;
	uint32_t found = 0;
	char *key = class_key(kind, name);
	if (!key) {
		kp__cv_fail(cv, KP_ENOMEM, NULL, "out of memory");
		return (size_t)-1;
	}
	int have = kp__map_get(&m->classes, key, class_key_len(key), &found);
	kp__free(key);
	if (have)
		return found;
	if (kubelet)
		kp__cv_report(cv, "warning: NodePool/%s: %s/%s is not among the inputs: its kubelet "
				  "stays in metadata.annotations[%s]; move it to the %s's spec.kubelet",
			      kp__cv_name(np), kind, name, KP__CV_KUBELET_ANNOTATION, kind);
	return (size_t)-1;
}

/* The first NodePool of class k gives it its kubelet (a NodePool that was
 * already v1 only holds the class as it is). */
static void claim_class(migration *m, const kp__node *np, size_t k, const char *kubelet,
			int converted)
{
	kp__cv *cv = &m->c->cv;
	kp__node *cl = m->c->out.items[k].node;
	m->claimed[k] = 1;
	m->first_kubelet[k] = kubelet;
	if (!kubelet || !converted)
		return;
	int bad = 0;
	kp__node *v = kp__cv_parse(cv, kubelet, &bad);
	kp__node *spec = v ? kp__cv_obj(cv, cl, "spec") : NULL;
	if (!spec) {
		kp__node_free(v);
		return;
	}
	kp__cv_set(cv, spec, "kubelet", v);
	kp__cv_report(cv, "moved: NodePool/%s: spec.template.spec.kubelet -> %s/%s spec.kubelet",
		      kp__cv_name(np), kp__cv_kind(cl), kp__cv_name(cl));
}

/* A copy of class k named CLASS-NODEPOOL for a NodePool whose kubelet
 * differs from the class's, the NodePool pointed at it. */
static void split_class(migration *m, kp__node *np, size_t k, const char *kubelet)
{
	kp__cv *cv = &m->c->cv;
	const kp__node *cl = m->c->out.items[k].node;
	kp__node *ref = kp__cv_path(np, "spec.template.spec.nodeClassRef");
	char *name = kp__strdup_printf("%s-%s", kp__cv_name(cl), kp__cv_name(np));
	kp__node *copy = kp__cv_copy(cv, cl);
	kp__node *meta = copy ? kp__cv_obj(cv, copy, "metadata") : NULL;
	kp__node *spec = copy ? kp__cv_obj(cv, copy, "spec") : NULL;
	if (m->copies.n == m->cap_copy_of) {
		size_t cap = m->cap_copy_of ? m->cap_copy_of * 2 : 8;
		size_t *grown = kp__realloc(m->copy_of, cap * sizeof(*grown));
		if (grown) {
			m->copy_of = grown;
			m->cap_copy_of = cap;
		}
	}
	if (!name || !meta || !spec || m->copies.n == m->cap_copy_of) {
		kp__free(name);
		kp__node_free(copy);
		kp__cv_fail(cv, KP_ENOMEM, NULL, "out of memory");
		return;
	}
	kp__cv_set_str(cv, meta, "name", name);
	static const char *const server_set[] = { "uid", "resourceVersion", "creationTimestamp" };
	for (size_t i = 0; i < 3; i++)
		kp__cv_del(meta, server_set[i]);
	kp__cv_del(copy, "status");
	kp__cv_del(spec, "kubelet");
	if (kubelet) {
		int bad = 0;
		kp__cv_set(cv, spec, "kubelet", kp__cv_parse(cv, kubelet, &bad));
	}
	m->copy_of[m->copies.n] = k;
	if (list_push(&m->copies, copy, 1)) {
		kp__free(name);
		kp__cv_fail(cv, KP_ENOMEM, NULL, "out of memory");
		return;
	}
	const char *kind = kp__cv_kind(cl), *np_name = kp__cv_name(np);
	kp__cv_report(cv, "split: %s/%s from %s/%s for NodePool/%s (its kubelet differs)", kind,
		      name, kind, kp__cv_name(cl), np_name);
	if (kubelet)
		kp__cv_report(cv, "moved: NodePool/%s: spec.template.spec.kubelet -> %s/%s "
				  "spec.kubelet", np_name, kind, name);
	kp__cv_report(cv, "renamed: NodePool/%s: spec.template.spec.nodeClassRef.name: %s -> %s",
		      np_name, kp__cv_name(cl), name);
	kp__cv_set_str(cv, ref, "name", name);
	kp__free(name);
}

/* The outputs with every class followed by its copies (bucketed: linear). */
static void place_copies(migration *m)
{
	kp__cv *cv = &m->c->cv;
	kp__cv_list *out = &m->c->out;
	size_t n_out = m->n_out, n_copies = m->copies.n;
	kp__cv_item *merged = kp__calloc(n_out + n_copies, sizeof(*merged));
	size_t *start = kp__calloc(n_out + 1, sizeof(*start));
	size_t *order = kp__calloc(n_copies, sizeof(*order));
	if (!merged || !start || !order) {
		kp__free(merged);
		kp__free(start);
		kp__free(order);
		kp__cv_fail(cv, KP_ENOMEM, NULL, "out of memory");
		return;
	}
	for (size_t j = 0; j < n_copies; j++)
		start[m->copy_of[j] + 1]++;
	for (size_t i = 0; i < n_out; i++)
		start[i + 1] += start[i];
	size_t *fill = start; /* advanced to each bucket's end, then shifted back */
	for (size_t j = 0; j < n_copies; j++)
		order[fill[m->copy_of[j]]++] = j;
	for (size_t i = n_out; i-- > 0;)
		start[i + 1] = start[i];
	start[0] = 0;
	size_t w = 0;
	for (size_t i = 0; i < n_out; i++) {
		merged[w++] = out->items[i];
		for (size_t k = start[i]; k < start[i + 1]; k++) {
			merged[w++] = m->copies.items[order[k]];
			m->copies.items[order[k]].node = NULL;
		}
	}
	kp__free(out->items);
	out->items = merged;
	out->n = w;
	out->cap = n_out + n_copies;
	kp__free(start);
	kp__free(order);
}

/*
 * Each NodePool's kubelet (its kubelet-conversion annotation) goes into the
 * spec.kubelet of the node class it references. The first NodePool of a
 * class in input order keeps the class; a later one whose kubelet differs
 * (none counts as different) gets a copy "<class>-<nodepool>" written right
 * after the class (after earlier copies), its nodeClassRef pointing at it.
 */
static void migrate_kubelets(kp_convert *c)
{
	kp__cv *cv = &c->cv;
	migration m;
	memset(&m, 0, sizeof(m));
	m.c = c;
	m.n_out = c->out.n;
	m.first_kubelet = kp__calloc(m.n_out ? m.n_out : 1, sizeof(*m.first_kubelet));
	m.claimed = kp__calloc(m.n_out ? m.n_out : 1, 1);
	if (!m.first_kubelet || !m.claimed)
		kp__cv_fail(cv, KP_ENOMEM, NULL, "out of memory");
	for (size_t i = 0; i < m.n_out && !cv->rc; i++) {
		kp__node *cl = c->out.items[i].node;
		if (!kubelet_class(c, cl))
			continue;
		char *key = class_key(kp__cv_kind(cl), kp__cv_name(cl));
		if (!key || kp__map_put(&m.classes, key, class_key_len(key), (uint32_t)i, NULL, NULL))
			kp__cv_fail(cv, KP_ENOMEM, NULL, "out of memory");
		kp__free(key);
	}
	/* NodePools that were v1 already pass through: they hold their
	 * classes first, as they are; then the converted ones, in order */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t p = 0; p < m.n_out && !cv->rc; p++) {
			kp__node *np = c->out.items[p].node;
			const char *av = kp__cv_str(np, "apiVersion");
			if ((int)c->out.items[p].converted != pass ||
			    strcmp(kp__cv_kind(np), "NodePool") || !av || strcmp(av, KP__CV_V1))
				continue;
			const char *kubelet = kp__cv_str(kp__cv_path(np, "metadata.annotations"),
							 KP__CV_KUBELET_ANNOTATION);
			size_t k = class_of(&m, np, pass ? kubelet : NULL);
			if (k == (size_t)-1)
				continue;
			if (!m.claimed[k])
				claim_class(&m, np, k, kubelet, pass);
			else if (pass && !same_kubelet(m.first_kubelet[k], kubelet))
				split_class(&m, np, k, kubelet);
		}
	}
	if (!cv->rc && m.copies.n)
		place_copies(&m);
	kp__map_free(&m.classes);
	list_dispose(&m.copies);
	kp__free(m.copy_of);
	kp__free(m.first_kubelet);
	kp__free(m.claimed);
}

/* ---- running -------------------------------------------------------------- */

/* NodePool name -> expireAfter, for v1beta1 NodeClaims. */
static void index_nodepools(kp_convert *c)
{
	kp__cv *cv = &c->cv;
	size_t n = 0;
	for (size_t i = 0; i < c->in.n; i++)
		n += !strcmp(kp__cv_kind(c->in.items[i].node), "NodePool") ||
		     !strcmp(kp__cv_kind(c->in.items[i].node), "Provisioner");
	cv->np_names = kp__calloc(n ? n : 1, sizeof(char *));
	cv->np_expire = kp__calloc(n ? n : 1, sizeof(char *));
	if (!cv->np_names || !cv->np_expire) {
		kp__cv_fail(cv, KP_ENOMEM, NULL, "out of memory");
		return;
	}
	for (size_t i = 0; i < c->in.n; i++) {
		const kp__node *o = c->in.items[i].node;
		char buf[64];
		const char *exp = !strcmp(kp__cv_kind(o), "NodePool") ? kp__cv_nodepool_expire(o)
				  : kp__cv_provisioner_expire(o, buf, sizeof(buf));
		if (!exp)
			continue;
		int inserted = 0;
		const char *name = kp__cv_name(o);
		if (kp__map_put(&cv->np_index, name, strlen(name), (uint32_t)cv->n_np, NULL,
				&inserted)) {
			kp__cv_fail(cv, KP_ENOMEM, NULL, "out of memory");
			return;
		}
		if (!inserted)
			continue; /* the first NodePool of a name counts */
		cv->np_names[cv->n_np] = kp__strdup(name);
		cv->np_expire[cv->n_np] = kp__strdup(exp);
		if (!cv->np_names[cv->n_np] || !cv->np_expire[cv->n_np]) {
			kp__free(cv->np_names[cv->n_np]);
			kp__free(cv->np_expire[cv->n_np]);
			kp__cv_fail(cv, KP_ENOMEM, NULL, "out of memory");
			return;
		}
		cv->n_np++;
	}
}

/* The workloads' pod templates that still carry v1alpha5 annotations. */
static void warn_workload(kp__cv *cv, const kp__node *o)
{
	static const char *const old[] = { "karpenter.sh/do-not-evict",
					   "karpenter.sh/do-not-consolidate" };
	const kp__node *ann = kp__cv_path(o, "spec.template.metadata.annotations");
	if (!ann)
		ann = kp__cv_path(o, "spec.jobTemplate.spec.template.metadata.annotations");
	if (!ann && !strcmp(kp__cv_kind(o), "Pod"))
		ann = kp__cv_path(o, "metadata.annotations");
	for (size_t i = 0; i < 2; i++)
		if (kp__node_get(ann, old[i]))
			kp__cv_report(cv, "warning: %s/%s: the pod template carries %s, which Karpenter "
					  "v1 ignores: use karpenter.sh/do-not-disrupt",
				      kp__cv_kind(o), kp__cv_name(o), old[i]);
}

KP_EXPORT int kp_convert_run(kp_convert *c, kp_error *err)
{
	if (!c)
		return kp__error(err, KP_EINVAL, NULL, "kp_convert_run: NULL argument");
	if (c->ran)
		return kp__error(err, KP_EINVAL, NULL, "kp_convert_run: already converted");
	c->ran = 1;
	kp__cv *cv = &c->cv;
	cv->target = c->opts.target;
	cv->registry = c->registry;
	cv->err = err;
	index_nodepools(c);
	for (size_t i = 0; i < c->in.n && !cv->rc; i++) {
		kp__node *o = c->in.items[i].node;
		const char *av = kp__cv_str(o, "apiVersion");
		const char *kind = kp__cv_str(o, "kind");
		if (!av || !kind) {
			/* not a Kubernetes object: passed through */
			c->in.items[i].node = NULL;
			if (list_push(&c->out, o, 0))
				kp__cv_fail(cv, KP_ENOMEM, NULL, "out of memory");
			continue;
		}
		int r = convert_v1alpha5(c, &c->in.items[i].node, av, kind);
		if (r != KP_ENOTSUP) {
			if (r)
				break;
			continue; /* pushed */
		}
		r = kp__cv_karpenter(cv, o, av, kind);
		if (r == KP_ENOTSUP) {
			r = provider_convert(c, o, av, kind);
			if (r == KP_OK)
				continue; /* the provider emitted its objects */
		}
		if (r != KP_OK && r != KP_ENOTSUP)
			break;
		warn_workload(cv, o);
		c->in.items[i].node = NULL;
		if (list_push(&c->out, o, r == KP_OK))
			kp__cv_fail(cv, KP_ENOMEM, NULL, "out of memory");
	}
	if (!cv->rc && cv->target == KP_CONVERT_V1 &&
	    !(c->opts.flags & KP_CONVERT_NO_KUBELET_MIGRATION))
		migrate_kubelets(c);
	cv->err = NULL;
	if (cv->rc) {
		list_dispose(&c->out);
		return cv->rc;
	}
	return KP_OK;
}

/* ---- results -------------------------------------------------------------- */

KP_EXPORT size_t kp_convert_object_count(const kp_convert *c)
{
	return c ? c->out.n : 0;
}

KP_EXPORT const char *kp_convert_object_json_at(kp_convert *c, size_t i)
{
	if (!c || i >= c->out.n)
		return NULL;
	if (!c->json) {
		c->json = kp__calloc(c->out.n, sizeof(*c->json));
		if (!c->json)
			return NULL;
	}
	if (!c->json[i]) {
		kp__buf b = { NULL, 0, 0, 0 };
		kp__json_write(&b, c->out.items[i].node, 0);
		c->json[i] = kp__buf_take(&b, NULL);
	}
	return c->json[i];
}

KP_EXPORT int kp_convert_write(char **out, size_t *out_len, const kp_convert *c, uint32_t format,
			       kp_error *err)
{
	if (out)
		*out = NULL;
	if (!out || !c)
		return kp__error(err, KP_EINVAL, NULL, "kp_convert_write: NULL argument");
	if (format != KP_FORMAT_YAML && format != KP_FORMAT_JSON)
		return kp__error(err, KP_EINVAL, "format", "unknown output format %u",
				 (unsigned)format);
	kp__buf b = { NULL, 0, 0, 0 };
	if (format == KP_FORMAT_YAML) {
		for (size_t i = 0; i < c->out.n; i++) {
			if (i)
				kp__buf_puts(&b, "---\n");
			kp__yaml_write(&b, c->out.items[i].node);
			if (b.len && !b.failed && b.data[b.len - 1] != '\n')
				kp__buf_putc(&b, '\n');
		}
	} else if (c->out.n == 1) {
		kp__json_write(&b, c->out.items[0].node, 4);
		kp__buf_putc(&b, '\n');
	} else {
		/* a v1 List, as kubectl get -o json writes several objects */
		kp__buf_puts(&b, "{\n    \"apiVersion\": \"v1\",\n    \"items\": [");
		for (size_t i = 0; i < c->out.n; i++) {
			kp__buf tmp = { NULL, 0, 0, 0 };
			kp__json_write(&tmp, c->out.items[i].node, 4);
			kp__buf_puts(&b, i ? ",\n        " : "\n        ");
			for (size_t k = 0; k < tmp.len && !tmp.failed; k++) {
				kp__buf_putc(&b, tmp.data[k]);
				if (tmp.data[k] == '\n')
					kp__buf_puts(&b, "        ");
			}
			if (tmp.failed)
				b.failed = 1;
			kp__buf_dispose(&tmp);
		}
		kp__buf_puts(&b, c->out.n ? "\n    ],\n" : "],\n");
		kp__buf_puts(&b, "    \"kind\": \"List\",\n    \"metadata\": {\n"
				 "        \"resourceVersion\": \"\"\n    }\n}\n");
	}
	size_t len = 0;
	char *text = kp__buf_take(&b, &len);
	if (!text)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	*out = text;
	if (out_len)
		*out_len = len;
	return KP_OK;
}

KP_EXPORT size_t kp_convert_report_count(const kp_convert *c)
{
	return c ? c->cv.n_report : 0;
}

KP_EXPORT const char *kp_convert_report_at(const kp_convert *c, size_t i)
{
	return c && i < c->cv.n_report ? c->cv.report[i] : NULL;
}
