/*
 * lib/lifecycle: the snapshot's lookups. Nodes and NodeClaims by provider
 * ID, Nodes and NodePools by name, NodeClaims and Nodes by their
 * karpenter.sh/nodepool label, and the questions the controllers ask of
 * them (the Node's NodeClaim, whether the provider manages an object, the
 * node class label key).
 *
 * kp_lifecycle_reconcile builds one index (hash maps, kp__map) for the
 * round and attaches it to the result, so a round is linear in the
 * objects; a controller called on its own scans the input instead (one
 * object, one pass). Both give the same answers: the first match in input
 * order and the number of matches.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include <karpenter/wellknown.h>

#include "common/map.h"
#include "common/sized.h"
#include "lifecycle_private.h"

#define NONE UINT32_MAX

/* The matches of one key: the first in input order, their number, and
 * (for the label chains) the last, to append in order. */
typedef struct slot {
	uint32_t first, last, count;
} slot;

typedef struct table {
	kp__map map;  /* key -> slot index */
	slot *slots;
	size_t n, cap;
	uint32_t *next; /* per object: the next one with the same key, or NONE */
} table;

struct kp__lc_index {
	const kp__lc_in *in;
	table node_pid, nc_pid, node_name, np_name, nc_pool, node_pool, pod_node;
};

static int table_add(table *t, const char *key, uint32_t obj)
{
	if (!key || !*key)
		return KP_OK;
	uint32_t at = 0;
	int inserted = 0;
	if (kp__map_put(&t->map, key, strlen(key), (uint32_t)t->n, &at, &inserted) != KP_OK)
		return KP_ENOMEM;
	if (inserted) {
		if (kp__grow((void **)&t->slots, &t->cap, t->n + 1, sizeof(*t->slots)) != KP_OK)
			return KP_ENOMEM; /* the map then names a slot that is never read */
		t->slots[t->n++] = (slot){ obj, obj, 1 };
		return KP_OK;
	}
	slot *s = &t->slots[at];
	if (t->next)
		t->next[s->last] = obj;
	s->last = obj;
	s->count++;
	return KP_OK;
}

static const slot *table_get(const table *t, const char *key)
{
	uint32_t at = 0;
	if (!key || !*key || !kp__map_gets(&t->map, key, &at) || at >= t->n)
		return NULL;
	return &t->slots[at];
}

static void table_free(table *t)
{
	kp__map_free(&t->map);
	kp__free(t->slots);
	kp__free(t->next);
}

static int chain(table *t, size_t n)
{
	t->next = kp__calloc(n ? n : 1, sizeof(*t->next));
	if (!t->next)
		return KP_ENOMEM;
	for (size_t i = 0; i < n; i++)
		t->next[i] = NONE;
	return KP_OK;
}

static const char *node_pid(const kp_node *n)
{
	return n && n->spec ? n->spec->provider_id : NULL;
}

static const char *nc_pid(const kp_nodeclaim *nc)
{
	return nc && nc->metadata && nc->status ? nc->status->provider_id : NULL;
}

static const char *label(const kp_object_meta *m, const char *key)
{
	return m ? kp_labels_get(&m->labels, key) : NULL;
}

static int build(kp__lc_index *x, const kp__lc_in *in)
{
	if (in->n_nodes >= NONE || in->n_nodeclaims >= NONE || in->n_nodepools >= NONE)
		return KP_ENOMEM;
	if (in->n_pods >= NONE || chain(&x->nc_pool, in->n_nodeclaims) ||
	    chain(&x->node_pool, in->n_nodes) || chain(&x->node_pid, in->n_nodes) ||
	    chain(&x->pod_node, in->n_pods))
		return KP_ENOMEM;
	for (size_t i = 0; i < in->n_nodes; i++) {
		const kp_node *n = in->nodes[i];
		const kp_object_meta *m = n ? n->metadata : NULL;
		if (table_add(&x->node_pid, node_pid(n), (uint32_t)i) ||
		    table_add(&x->node_name, m ? m->name : NULL, (uint32_t)i) ||
		    (m && table_add(&x->node_pool, label(m, KP_LABEL_NODEPOOL), (uint32_t)i)))
			return KP_ENOMEM;
	}
	for (size_t i = 0; i < in->n_nodeclaims; i++) {
		const kp_nodeclaim *nc = in->nodeclaims[i];
		if (table_add(&x->nc_pid, nc_pid(nc), (uint32_t)i) ||
		    (nc && table_add(&x->nc_pool, kp__nc_label(nc, KP_LABEL_NODEPOOL), (uint32_t)i)))
			return KP_ENOMEM;
	}
	for (size_t i = 0; i < in->n_pods; i++) {
		const kp_pod *p = in->pods[i];
		if (p && p->metadata && p->spec && table_add(&x->pod_node, p->spec->node_name, (uint32_t)i))
			return KP_ENOMEM;
	}
	for (size_t i = 0; i < in->n_nodepools; i++) {
		const kp_nodepool *np = in->nodepools[i];
		if (np && table_add(&x->np_name, np->metadata ? np->metadata->name : NULL,
				    (uint32_t)i))
			return KP_ENOMEM;
	}
	return KP_OK;
}

int kp__lc_index_build(kp__lc_index **out, const kp__lc_in *in, kp_error *err)
{
	*out = NULL;
	kp__lc_index *x = kp__calloc(1, sizeof(*x));
	if (!x || build(x, in) != KP_OK) {
		kp__lc_index_free(x);
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	x->in = in;
	*out = x;
	return KP_OK;
}

void kp__lc_index_free(kp__lc_index *x)
{
	if (!x)
		return;
	table_free(&x->node_pid);
	table_free(&x->nc_pid);
	table_free(&x->node_name);
	table_free(&x->np_name);
	table_free(&x->nc_pool);
	table_free(&x->node_pool);
	table_free(&x->pod_node);
	kp__free(x);
}

static const kp__lc_index *index_for(const kp_lifecycle_result *r, const kp__lc_in *in)
{
	const kp__lc_index *x = r ? kp__lc_result_index(r) : NULL;
	return x && x->in == in ? x : NULL;
}

/* ------------------------------------------------------------------ */
/* Queries                                                             */

static int eq(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

size_t kp__nodes_for_provider_id(const kp_lifecycle_result *r, const kp__lc_in *in,
				 const char *provider_id, const kp_node **out)
{
	*out = NULL;
	if (!provider_id || !*provider_id)
		return 0;
	const kp__lc_index *x = index_for(r, in);
	if (x) {
		const slot *s = table_get(&x->node_pid, provider_id);
		*out = s ? in->nodes[s->first] : NULL;
		return s ? s->count : 0;
	}
	size_t count = 0;
	for (size_t i = 0; i < in->n_nodes; i++)
		if (eq(node_pid(in->nodes[i]), provider_id) && !count++)
			*out = in->nodes[i];
	return count;
}

const kp_nodeclaim *kp__nodeclaim_for_node(const kp_lifecycle_result *r,
					   const kp__lc_in *in, const kp_node *node)
{
	const char *pid = node_pid(node);
	if (!pid || !*pid)
		return NULL;
	const kp__lc_index *x = index_for(r, in);
	if (x) {
		const slot *s = table_get(&x->nc_pid, pid);
		return s && s->count == 1 ? in->nodeclaims[s->first] : NULL;
	}
	const kp_nodeclaim *hit = NULL;
	for (size_t i = 0; i < in->n_nodeclaims; i++)
		if (eq(nc_pid(in->nodeclaims[i]), pid)) {
			if (hit)
				return NULL; /* several: none (upstream's duplicate error) */
			hit = in->nodeclaims[i];
		}
	return hit;
}

const kp_node *kp__node_named(const kp_lifecycle_result *r, const kp__lc_in *in,
			      const char *name)
{
	const kp__lc_index *x = index_for(r, in);
	if (x) {
		const slot *s = table_get(&x->node_name, name);
		return s ? in->nodes[s->first] : NULL;
	}
	for (size_t i = 0; name && *name && i < in->n_nodes; i++)
		if (in->nodes[i] && in->nodes[i]->metadata && eq(in->nodes[i]->metadata->name, name))
			return in->nodes[i];
	return NULL;
}

const kp_nodepool *kp__nodepool_named(const kp_lifecycle_result *r, const kp__lc_in *in,
				      const char *name)
{
	const kp__lc_index *x = index_for(r, in);
	if (x) {
		const slot *s = table_get(&x->np_name, name);
		return s ? in->nodepools[s->first] : NULL;
	}
	for (size_t i = 0; name && *name && i < in->n_nodepools; i++)
		if (in->nodepools[i] && in->nodepools[i]->metadata &&
		    eq(in->nodepools[i]->metadata->name, name))
			return in->nodepools[i];
	return NULL;
}

static const table *iter_table(const kp__lc_index *x, int kind)
{
	switch (kind) {
	case KP__ITER_POOL_NODECLAIMS:
		return &x->nc_pool;
	case KP__ITER_POOL_NODES:
		return &x->node_pool;
	case KP__ITER_PID_NODES:
		return &x->node_pid;
	default:
		return &x->pod_node;
	}
}

static size_t iter_len(const kp__lc_iter *it)
{
	const kp__lc_in *in = it->in;
	return it->kind == KP__ITER_POOL_NODECLAIMS ? in->n_nodeclaims
	       : it->kind == KP__ITER_NODE_PODS     ? in->n_pods
						    : in->n_nodes;
}

static const void *iter_object(const kp__lc_iter *it, size_t i)
{
	const kp__lc_in *in = it->in;
	if (it->kind == KP__ITER_POOL_NODECLAIMS)
		return in->nodeclaims[i];
	return it->kind == KP__ITER_NODE_PODS ? (const void *)in->pods[i] : (const void *)in->nodes[i];
}

/* The key object i has in the iterator's chain (the index's rules). */
static const char *iter_key(const kp__lc_iter *it, size_t i)
{
	const kp__lc_in *in = it->in;
	switch (it->kind) {
	case KP__ITER_POOL_NODECLAIMS:
		return in->nodeclaims[i] ? kp__nc_label(in->nodeclaims[i], KP_LABEL_NODEPOOL) : NULL;
	case KP__ITER_POOL_NODES:
		return in->nodes[i] ? label(in->nodes[i]->metadata, KP_LABEL_NODEPOOL) : NULL;
	case KP__ITER_PID_NODES:
		return node_pid(in->nodes[i]);
	default: {
		const kp_pod *p = in->pods[i];
		return p && p->metadata && p->spec ? p->spec->node_name : NULL;
	}
	}
}

void kp__lc_iter_init(kp__lc_iter *it, const kp_lifecycle_result *r,
		      const kp__lc_in *in, int kind, const char *key)
{
	memset(it, 0, sizeof(*it));
	it->in = in;
	it->key = key;
	it->kind = kind;
	const kp__lc_index *x = index_for(r, in);
	if (!x)
		return;
	const table *t = iter_table(x, kind);
	const slot *s = table_get(t, key);
	it->next = t->next;
	it->indexed = 1;
	it->i = s ? s->first : NONE;
}

const void *kp__lc_iter_next(kp__lc_iter *it)
{
	const size_t n = iter_len(it);
	size_t i;
	if (!it->key || !*it->key)
		return NULL;
	if (it->indexed) {
		if (it->i == NONE || it->i >= n)
			return NULL;
		i = it->i;
		it->i = it->next[i];
	} else {
		for (i = it->i; i < n && !eq(iter_key(it, i), it->key); i++)
			;
		if (i >= n)
			return NULL;
		it->i = (uint32_t)i + 1;
	}
	return iter_object(it, i);
}

/* The NodePool's node class among in->nodeclasses, read at this library's
 * size (a caller's older struct reads as zero-extended). */
int kp__nodeclass_of(const kp__lc_in *in, const kp_nodepool *np, kp_nodeclass_status *out,
		     int *found, kp_error *err)
{
	*found = 0;
	const kp_nodepool_spec *s = np->spec;
	const kp_node_class_reference *ref = s && s->template_ && s->template_->spec
						     ? s->template_->spec->node_class_ref
						     : NULL;
	for (size_t i = 0; ref && i < in->n_nodeclasses; i++) {
		const kp_nodeclass_status *c = in->nodeclasses[i];
		if (c && c->name && ref->name && strcmp(c->name, ref->name) == 0 &&
		    (!c->kind || !ref->kind || strcmp(c->kind, ref->kind) == 0) &&
		    (!c->group || !ref->group || strcmp(c->group, ref->group) == 0)) {
			int rc = KP__READ_SIZED(out, c, kp_nodeclass_status, err);
			*found = rc == KP_OK;
			return rc;
		}
	}
	return KP_OK;
}

int kp__lc_manages(const kp__lc_in *in, const kp_nodeclaim *nc)
{
	return !in->provider || kp_cloudprovider_manages_nodeclaim(in->provider, nc);
}

char *kp__nodeclass_label_key(kp__arena *a, const char *group, const char *kind)
{
	if (!kind)
		return NULL;
	const char *g = group ? group : "";
	size_t gl = strlen(g), kl = strlen(kind);
	char *key = kp__arena_alloc(a, gl + kl + 2);
	if (!key)
		return NULL;
	memcpy(key, g, gl);
	key[gl] = '/';
	for (size_t i = 0; i < kl; i++) {
		char ch = kind[i];
		key[gl + 1 + i] = ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : ch;
	}
	key[gl + 1 + kl] = '\0';
	return key;
}
