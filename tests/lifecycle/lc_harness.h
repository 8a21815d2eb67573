/*
 * Lifecycle tests: a fake cloud provider whose instances the test controls
 * and a world of objects decoded from YAML.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef LC_HARNESS_H
#define LC_HARNESS_H

#include <karpenter/karpenter.h>

/* 2024-01-01T00:00:00Z */
#define LC_T0 1704067200000LL
#define LC_MIN 60000LL

typedef struct lc_cloud {
	int create_rc;            /* 0: launch; else the error create returns */
	char create_code[64];     /* provider_code (KP_ECREATE condition reason) */
	char create_msg[256];
	char *ids[64];            /* existing instances */
	size_t n_ids;
	int delete_calls, create_calls;
	kp_instance recs[64];     /* list() records */
	const kp_instance *rec_ptrs[64];
} lc_cloud;

typedef struct lc_world {
	kp_cloudprovider *cp;
	lc_cloud *cloud;
	kp_cluster_builder *builder;    /* holds the objects, as kubectl-karpenter's builder */
	kp_cluster_spec spec;          /* the cluster every decision reads: the builder's,
					  with the test's clock and node classes */
	kp_lifecycle_options opts;
	/* the builder's view per kind, for tests that index them */
	const void *const *np, *const *nc, *const *node, *const *pod;
	kp_lifecycle_result *r;
} lc_world;

/* A world at now_ms with the fake provider. */
void lc_world_init(lc_world *w, int64_t now_ms);
void lc_world_free(lc_world *w);
/* Decode one object (YAML) into the world; returns it. */
void *lc_add(lc_world *w, const char *yaml);
/* Mark a provider ID as an existing instance. */
void lc_instance(lc_world *w, const char *provider_id);
int lc_has_instance(const lc_world *w, const char *provider_id);

/* Free the world's result and give its address, for a controller call
 * that makes the next one: kp_lifecycle_X(lc_fresh(w), &w->spec, ...). */
kp_lifecycle_result **lc_fresh(lc_world *w);
/* Fresh result, run every controller; asserts KP_OK. */
kp_lifecycle_result *lc_reconcile(lc_world *w);

/* The i-th action; asserts it exists. */
const kp_lifecycle_action *lc_action(const lc_world *w, size_t i);
/* The last action with this verb from this controller (NULL: none). */
const kp_lifecycle_action *lc_last(const lc_world *w, uint32_t verb, const char *controller);
/* "verb kind/name reason" of every action, one per line, for exact checks. */
const char *lc_summary(const lc_world *w);
/* The condition of a NodeClaim in an action's object ("" fields when absent). */
const kp_condition *lc_nc_cond(const kp_lifecycle_action *a, const char *type);
/* "type=status/reason" of the status conditions of a NodeClaim action object. */
/* "Type=Status/Reason ..." in list order. */
const char *lc_conds(kp_condition *const *conds, size_t n);
/* lc_conds of the NodePool an action holds. */
const char *lc_np_conds(const kp_lifecycle_action *a);
const char *lc_nc_conds(const kp_lifecycle_action *a);

/* NodeClaim YAML with the fake node class; extra metadata and status as
 * YAML flow-mapping members (leading ", " each) */
const char *lc_nodeclaim_yaml(const char *name, const char *meta_extra, const char *spec_extra,
			      const char *status);

#endif
