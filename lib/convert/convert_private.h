/*
 * libkarpenter private: the conversion module's shared state and the small
 * set of edits it makes on document trees (lib/document/tree.h).
 *
 * Every tree the converter edits is a heap copy (kp__node_copy without a
 * budget), so members may be added, taken out and freed one by one. The
 * helpers record the first failure (out of memory) in the context, so a
 * rule reads as a sequence of edits and checks once at its end.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_CONVERT_PRIVATE_H
#define KP_CONVERT_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include <karpenter/convert.h>

#include "common/map.h"
#include "document/tree.h"
#include "kp_internal.h"
#include "schema/registry.h"

/* The API groups and versions the core converts. */
#define KP__CV_GROUP "karpenter.sh"
#define KP__CV_V1 "karpenter.sh/v1"
#define KP__CV_V1BETA1 "karpenter.sh/v1beta1"
/* Upstream's compatibility annotations (pkg/apis/v1/labels.go). */
#define KP__CV_KUBELET_ANNOTATION "compatibility.karpenter.sh/v1beta1-kubelet-conversion"
#define KP__CV_NODECLASS_ANNOTATION "compatibility.karpenter.sh/v1beta1-nodeclass-reference"
#define KP__CV_MIGRATED_ANNOTATION "karpenter.sh/stored-version-migrated"
#define KP__CV_NODEPOOL_LABEL "karpenter.sh/nodepool"

/* One object of the conversion. */
typedef struct kp__cv_item {
	kp__node *node;   /* heap tree, owned */
	uint32_t converted; /* made by this run from an object of another version */
} kp__cv_item;

typedef struct kp__cv_list {
	kp__cv_item *items;
	size_t n;
	size_t cap;
} kp__cv_list;

/* The state of one kp_convert_run, as rules see it. */
typedef struct kp__cv {
	uint32_t target;     /* kp_convert_target */
	const kp_registry *registry;
	int rc;              /* first failure, KP_OK while all is well */
	kp_error *err;
	char **report;
	size_t n_report;
	size_t cap_report;
	/* NodePool name -> its expireAfter text (v1beta1 NodeClaims) */
	char **np_names;
	char **np_expire;
	size_t n_np;
	kp__map np_index;    /* NodePool name -> its first index in np_names */
} kp__cv;

/* ---- tree edits (doc.c) ---- */
kp__node *kp__cv_path(const kp__node *root, const char *dotted);
/* The string value of member key, or NULL. */
const char *kp__cv_str(const kp__node *obj, const char *key);
kp__node *kp__cv_new(kp__cv *c, uint32_t type);
kp__node *kp__cv_new_str(kp__cv *c, const char *s);
/* Set member key to val (taking it): in place when present, else appended. */
void kp__cv_set(kp__cv *c, kp__node *obj, const char *key, kp__node *val);
void kp__cv_set_str(kp__cv *c, kp__node *obj, const char *key, const char *s);
/* Set member key before member `before` when that is present, else append. */
void kp__cv_set_before(kp__cv *c, kp__node *obj, const char *key, kp__node *val,
		       const char *before);
/* Take member key out (the caller owns it), or NULL. */
kp__node *kp__cv_take(kp__node *obj, const char *key);
/* Remove member key; 1 if it was there. */
int kp__cv_del(kp__node *obj, const char *key);
/* Keep only the members named in keep[0..n_keep) (one pass). */
void kp__cv_keep(kp__node *obj, const char *const *keep, size_t n_keep);
/* Remove knative's "severity" from status.conditions (metav1.Condition,
 * which v1 and v1.0's v1beta1 hold, has none), reporting each. */
void kp__cv_drop_severity(kp__cv *c, const kp__node *o);
/* Rename a member in place (keeps its position); 1 if it was there. */
int kp__cv_rename(kp__cv *c, kp__node *obj, const char *from, const char *to);
/* The object member key, created (appended) when absent; NULL when the
 * member is not an object or out of memory. */
kp__node *kp__cv_obj(kp__cv *c, kp__node *obj, const char *key);
/* Deep copy on the heap. */
kp__node *kp__cv_copy(kp__cv *c, const kp__node *n);
/* Whether a node is absent, null, or an empty array/object. */
int kp__cv_empty(const kp__node *n);
/* Remove earlier occurrences of duplicated keys everywhere below n (the
 * last one wins, as Go's decoding); returns how many went. */
size_t kp__cv_dedupe(kp__cv *c, kp__node *n);
/* Remove every object member whose value is null, everywhere below n: the
 * API server prunes null values of fields that are not nullable (no field
 * of Karpenter's CRDs is) before defaulting, and Go decodes a null into
 * the zero value, so a converter never sees one. */
void kp__cv_prune_nulls(kp__node *n);
/* Compact JSON of a node (heap string), NULL when out of memory. */
char *kp__cv_json(kp__cv *c, const kp__node *n);
/* Parse one JSON value (heap tree), NULL on error (c->rc set only when
 * out of memory; *bad set for malformed text). */
kp__node *kp__cv_parse(kp__cv *c, const char *json, int *bad);
/* Record a report line (printf-style). */
void kp__cv_report(kp__cv *c, const char *fmt, ...) KP_PRINTF(2, 3);
/* The expireAfter NodePool `name` gives its NodeClaims, or NULL. */
const char *kp__cv_expire_of(const kp__cv *c, const char *name);
/* Record a failure (the first one wins) and return it. */
int kp__cv_fail(kp__cv *c, int code, const char *field, const char *fmt, ...) KP_PRINTF(4, 5);
/* "Kind/name" of an object, for messages: its kind and metadata.name. */
const char *kp__cv_kind(const kp__node *o);
const char *kp__cv_name(const kp__node *o);

/* ---- karpenter.sh kinds (karpenter.c) ---- */
/* Convert a NodePool or NodeClaim in place to c->target; KP_ENOTSUP when
 * the object is not one of them. */
int kp__cv_karpenter(kp__cv *c, kp__node *o, const char *api_version, const char *kind);
/* The expireAfter a NodePool (any version, defaults applied) gives its
 * NodeClaims, or NULL. */
const char *kp__cv_nodepool_expire(const kp__node *o);
/* Go's json.Marshal of a v1beta1 KubeletConfiguration (the annotation). */
char *kp__cv_kubelet_json(kp__cv *c, const kp__node *kubelet);

/* ---- karpenter.sh/v1alpha5 (v1alpha5.c) ---- */
/* A Provisioner or Machine to v1beta1 in place; KP_ENOTSUP for others. */
int kp__cv_v1alpha5(kp__cv *c, kp__node *o, const char *api_version, const char *kind);
/* The expireAfter a v1alpha5 Provisioner gives (in buf, or "Never"), or NULL. */
const char *kp__cv_provisioner_expire(const kp__node *o, char *buf, size_t size);

#endif /* KP_CONVERT_PRIVATE_H */
