/*
 * Scenario harness for the scheduling tests: a cluster written as YAML
 * (decoded with kp_decode), a small instance-type catalogue built in C,
 * and helpers to run a simulation and look at its result.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_SCHED_HARNESS_H
#define KP_SCHED_HARNESS_H

#include <karpenter/karpenter.h>

#include "kp_test.h"

/* One instance type of a test catalogue. */
typedef struct h_it {
	const char *name;
	const char *cpu, *memory, *pods;
	const char *arch;            /* NULL = amd64 */
	const char *zones;           /* space separated, NULL = "test-zone-a test-zone-b test-zone-c" */
	const char *capacity_types;  /* space separated, NULL = "on-demand spot" */
	double price;                /* on-demand price; spot is 0.7 of it */
	const char *extra;           /* "name=quantity" extra resource, or NULL */
	const char *unavailable;     /* "zone/ct" offering marked unavailable, or NULL */
} h_it;

/* A catalogue from a table (the last entry has name NULL). */
kp_instance_types *h_catalog(const h_it *types);

/* The standard test catalogue (see harness.c). */
kp_instance_types *h_catalog_default(void);

/* A reservation of an h_add_type instance type (in test-zone-1). */
typedef struct h_resv {
	const char *id;
	int64_t capacity;   /* reservation_capacity */
	uint32_t available;
} h_resv;

/* Add an instance type as upstream's fake.NewInstanceType builds it:
 * on-demand and spot in test-zone-1..3 (spot at 0.7 of @p price), plus one
 * reserved offering per reservation in test-zone-1 at price / 100,000 (the
 * scheduling suite's PriceFromResources / 100_000), whose requirements
 * carry the reservation ID as @p rid_key In [id]. */
void h_add_type(kp_instance_types *its, const char *name, const char *cpu, const char *mem,
		double price, const char *rid_key, const h_resv *rs, size_t n_rs);

typedef struct h_scenario {
	kp_cluster_builder *builder; /* holds the objects, as kubectl-karpenter's builder */
	const kp_nodepool *nodepools[16];
	size_t n_nodepools;
	const kp_node *nodes[256];
	size_t n_nodes;
	const kp_nodeclaim *nodeclaims[256];
	size_t n_nodeclaims;
	const kp_pod **pods;
	size_t n_pods, cap_pods;
	const kp_daemonset *daemonsets[16];
	size_t n_daemonsets;
	const kp_pvc *pvcs[32];
	size_t n_pvcs;
	const kp_pv *pvs[32];
	size_t n_pvs;
	const kp_storage_class *scs[16];
	size_t n_scs;
	const kp_csi_node *csi_nodes[32];
	size_t n_csi_nodes;
	const kp_namespace *namespaces[16];
	size_t n_namespaces;
	kp_instance_types *its;
	kp_instance_types *per_pool[16];
	kp_nodeclass_status *classes[8];
	size_t n_classes;
	kp_wellknown *wk;
	kp_cluster *cluster;
	kp_sched_result *result;
} h_scenario;

/* A pending pod with requests, as one YAML document (with its "---"). */
#define H_POD(name, cpu, mem)                                                                       \
	"apiVersion: v1\nkind: Pod\nmetadata: {name: " name ", namespace: default, uid: " name     \
	"}\nspec:\n  containers:\n  - name: c\n    resources: {requests: {cpu: \"" cpu              \
	"\", memory: \"" mem "\"}}\n---\n"

/* Decode a YAML stream into a scenario (fails the test on error). Uses
 * @p its (a reference is taken) for every NodePool, or the default. */
void h_load(h_scenario *sc, const char *yaml, kp_instance_types *its);
/* Load a fixture file of tests/scheduling/scenarios. */
void h_load_file(h_scenario *sc, const char *name, kp_instance_types *its);
/* Build the cluster; returns the kp_cluster_new code. */
int h_build(h_scenario *sc, kp_error *err);
/* Build (must succeed) and simulate with @p opts (may be NULL). */
void h_run(h_scenario *sc, const kp_sched_options *opts);
void h_free(h_scenario *sc);

/* The placement of pod "ns/name" (or "name" in default). */
const kp_sched_placement *h_pod(const h_scenario *sc, const char *name);
/* Count of pods placed on new NodeClaims / existing / unplaced. */
size_t h_count(const h_scenario *sc, uint32_t target);
/* The NodeClaim a pod went to, or NULL. */
const kp_sched_nodeclaim *h_pod_nc(const h_scenario *sc, const char *name);
/* Value of label or annotation, or NULL. */
const char *h_label(const kp_nodeclaim *nc, const char *key);
const char *h_annotation(const kp_nodeclaim *nc, const char *key);
/* The NodeClaim requirement on key rendered "Op v1,v2" (static buffer), or NULL. */
const char *h_req(const kp_nodeclaim *nc, const char *key);
/* resources.requests[name] as canonical text (static buffer), or NULL. */
const char *h_request(const kp_nodeclaim *nc, const char *name);
/* Reason of a pod with @p code for nodepool/node (NULL = any), or NULL. */
const kp_sched_reason *h_reason(const kp_sched_placement *p, uint32_t code, const char *pool,
				const char *node);
/* A deterministic dump of a result (for byte-for-byte comparisons). */
char *h_dump(const kp_sched_result *r);

#endif
