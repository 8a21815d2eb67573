/*
 * Test harness for disruption scenarios: a cluster written as YAML
 * manifests (decoded, defaulted as the API server would), the KWOK
 * built-in catalogue, kp_disruption_run, and lookups in the result.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DISRUPTION_HARNESS_H
#define DISRUPTION_HARNESS_H

#include <karpenter/karpenter.h>
#include <karpenter/disruption.h>

typedef struct dh dh;

/* An empty harness (aborts the test on failure). */
dh *dh_new(void);
void dh_free(dh *h);
/* Use @p its (taken over) for every NodePool instead of the KWOK built-in
 * catalogue, with @p label (e.g. a reservation ID label) made well known;
 * before the first run. */
void dh_set_catalog(dh *h, kp_instance_types *its, const char *label);
/* Append manifests (printf-style). */
void dh_add(dh *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* NodePool NAME: capacity types (e.g. "on-demand" or "spot, on-demand"),
 * policy, consolidateAfter, budget nodes; extra is appended under
 * spec.disruption (e.g. budgets), "" for none. */
void dh_nodepool(dh *h, const char *name, const char *cts, const char *policy,
		 const char *consolidate_after, const char *budget_nodes);
/* dh_nodepool with lines appended to the template's requirements (e.g.
 * "        - {key: ..., operator: Exists, minValues: 16}\n"). */
void dh_nodepool_ex(dh *h, const char *name, const char *cts, const char *policy,
		    const char *consolidate_after, const char *budget_nodes,
		    const char *requirements_extra);
/* A launched, registered, initialized Node+NodeClaim (initialized at
 * init_time, RFC 3339); nc_extra lines go under the NodeClaim's metadata
 * (e.g. "  annotations: {...}"), node_extra under the Node's metadata. */
void dh_node(dh *h, const char *name, const char *pool, const char *type, const char *zone,
	     const char *ct, const char *init_time, const char *nc_extra, const char *node_extra);
/* dh_node with lines under the NodeClaim's spec (e.g. "  terminationGracePeriod: 1h")
 * and extra conditions ("    - {type: Drifted, ...}"). */
void dh_node_ex(dh *h, const char *name, const char *pool, const char *type, const char *zone,
		const char *ct, const char *init_time, const char *nc_extra, const char *node_extra,
		const char *nc_spec_extra, const char *nc_conditions_extra);
/* A running pod bound to NODE requesting CPU; meta_extra lines under metadata. */
void dh_pod(dh *h, const char *ns, const char *name, const char *node, const char *cpu,
	    const char *meta_extra);
/* The cluster spec of the manifests at NOW (decoded and defaulted once),
 * borrowed from the harness: what dh_run gives kp_disruption_run. */
const kp_cluster_spec *dh_spec(dh *h, const char *now);
/* A harness flag for dh_run: the SpotToSpotConsolidation feature gate
 * (kp_disruption_options.feature_gates), beside KP_DISRUPTION_F_* flags. */
#define DH_SPOT_TO_SPOT (1u << 31)
/* Run and return kp_disruption_run's code (the manifests are decoded once). */
int dh_run_rc(dh *h, const char *now, uint32_t flags, uint32_t passes, kp_error *err);
/* Run; the result stays owned by the harness. */
const kp_disruption_result *dh_run(dh *h, const char *now, uint32_t flags, uint32_t passes);
/* The explained node named NAME (Node or NodeClaim), or NULL. */
const kp_disruption_node *dh_find(const kp_disruption_result *r, const char *name);
/* The reason of NODE with CODE and METHOD, or NULL. */
const kp_disruption_why *dh_reason(const kp_disruption_node *n, uint32_t code, uint32_t method);
/* Reasons of a node as "Code/Method: message" lines (static buffer). */
const char *dh_reasons(const kp_disruption_node *n);

#endif
