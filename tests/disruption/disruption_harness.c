/*
 * Test harness for disruption scenarios (see disruption_harness.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include <karpenter/kwok.h>

#include "disruption_harness.h"

struct dh {
	char *text;
	size_t len;
	kp_cluster_builder *b; /* the cluster, built as kubectl-karpenter builds it */
	kp_instance_types *its;
	kp_wellknown *wk;
	kp_cluster_spec spec;  /* the builder's view */
	kp_disruption_result *res;
};

dh *dh_new(void)
{
	dh *h = calloc(1, sizeof(*h));
	ck_assert_ptr_nonnull(h);
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_kwok_catalog_builtin(&h->its, &e), KP_OK);
	ck_assert_int_eq(kp_wellknown_new(&h->wk, &e), KP_OK);
	ck_assert_int_eq(kp_kwok_wellknown_add(h->wk, h->its, &e), KP_OK);
	return h;
}

void dh_set_catalog(dh *h, kp_instance_types *its, const char *label)
{
	ck_assert_ptr_null(h->b);
	kp_instance_types_free(h->its);
	h->its = its;
	ck_assert_int_eq(kp_wellknown_add_label(h->wk, label, NULL), KP_OK);
}

void dh_free(dh *h)
{
	if (!h)
		return;
	kp_disruption_result_free(h->res);
	kp_cluster_builder_free(h->b);
	kp_wellknown_free(h->wk);
	kp_instance_types_free(h->its);
	free(h->text);
	free(h);
}

void dh_add(dh *h, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	ck_assert_int_ge(n, 0);
	h->text = realloc(h->text, h->len + (size_t)n + 8);
	ck_assert_ptr_nonnull(h->text);
	memcpy(h->text + h->len, "\n---\n", 5);
	h->len += 5;
	va_start(ap, fmt);
	vsnprintf(h->text + h->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	h->len += (size_t)n;
}

void dh_nodepool(dh *h, const char *name, const char *cts, const char *policy,
		 const char *consolidate_after, const char *budget_nodes)
{
	dh_nodepool_ex(h, name, cts, policy, consolidate_after, budget_nodes, "");
}

void dh_nodepool_ex(dh *h, const char *name, const char *cts, const char *policy,
		    const char *consolidate_after, const char *budget_nodes,
		    const char *requirements_extra)
{
	dh_add(h,
	       "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: %s}\nspec:\n"
	       "  template:\n    spec:\n"
	       "      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"
	       "      requirements:\n"
	       "        - {key: karpenter.sh/capacity-type, operator: In, values: [%s]}\n"
	       "        - {key: kubernetes.io/arch, operator: In, values: [amd64]}\n"
	       "        - {key: kubernetes.io/os, operator: In, values: [linux]}\n%s"
	       "  disruption:\n    consolidationPolicy: %s\n    consolidateAfter: %s\n"
	       "    budgets: [{nodes: \"%s\"}]\n",
	       name, cts, requirements_extra, policy, consolidate_after, budget_nodes);
}

static const char *alloc_cpu(const char *type)
{
	/* c-Nx-...: N CPUs, 100m reserved */
	static char buf[32];
	int n = atoi(type + 2);
	snprintf(buf, sizeof(buf), "%dm", n * 1000 - 100);
	return buf;
}

void dh_node(dh *h, const char *name, const char *pool, const char *type, const char *zone,
	     const char *ct, const char *init_time, const char *nc_extra, const char *node_extra)
{
	dh_node_ex(h, name, pool, type, zone, ct, init_time, nc_extra, node_extra, "", "");
}

void dh_node_ex(dh *h, const char *name, const char *pool, const char *type, const char *zone,
		const char *ct, const char *init_time, const char *nc_extra, const char *node_extra,
		const char *nc_spec_extra, const char *nc_conditions_extra)
{
	char labels[1024];
	snprintf(labels, sizeof(labels),
		 "    karpenter.sh/nodepool: %s\n    karpenter.sh/capacity-type: %s\n"
		 "    node.kubernetes.io/instance-type: %s\n    topology.kubernetes.io/zone: %s\n"
		 "    kubernetes.io/arch: amd64\n    kubernetes.io/os: linux\n",
		 pool, ct, type, zone);
	dh_add(h,
	       "apiVersion: v1\nkind: Node\nmetadata:\n  name: %s\n  labels:\n%s"
	       "    karpenter.sh/registered: \"true\"\n    karpenter.sh/initialized: \"true\"\n"
	       "    kubernetes.io/hostname: %s\n%s\nspec: {providerID: \"kwok://%s\"}\n"
	       "status:\n  allocatable: {cpu: %s, memory: 30Gi, pods: \"110\"}\n"
	       "  capacity: {cpu: %s, memory: 32Gi, pods: \"110\"}\n"
	       "  conditions: [{type: Ready, status: \"True\", lastTransitionTime: \"%s\"}]\n",
	       name, labels, name, node_extra, name, alloc_cpu(type), alloc_cpu(type), init_time);
	dh_add(h,
	       "apiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata:\n  name: %s\n"
	       "  creationTimestamp: \"%s\"\n  labels:\n%s%s\nspec:\n"
	       "  nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"
	       "  requirements: [{key: node.kubernetes.io/instance-type, operator: In, values: [%s]}]\n%s\n"
	       "status:\n  providerID: \"kwok://%s\"\n  nodeName: %s\n  conditions:\n"
	       "    - {type: Launched, status: \"True\", reason: Launched, message: \"\", lastTransitionTime: \"%s\"}\n"
	       "    - {type: Registered, status: \"True\", reason: Registered, message: \"\", lastTransitionTime: \"%s\"}\n"
	       "    - {type: Initialized, status: \"True\", reason: Initialized, message: \"\", lastTransitionTime: \"%s\"}\n%s\n",
	       name, init_time, labels, nc_extra, type, nc_spec_extra, name, name, init_time, init_time,
	       init_time, nc_conditions_extra);
}

void dh_pod(dh *h, const char *ns, const char *name, const char *node, const char *cpu,
	    const char *meta_extra)
{
	dh_add(h,
	       "apiVersion: v1\nkind: Pod\nmetadata:\n  name: %s\n  namespace: %s\n%s\n"
	       "  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: rs, uid: rs-uid, controller: true}]\n"
	       "spec:\n  nodeName: %s\n  containers: [{name: c, image: i, resources: {requests: {cpu: %s, memory: 128Mi}}}]\n"
	       "status:\n  phase: Running\n  startTime: \"2025-01-01T00:00:00Z\"\n"
	       "  conditions: [{type: Ready, status: \"True\"}]\n",
	       name, ns, meta_extra, node, cpu);
}

/* The manifests through the builder, once (the kinds it reads, the CRD
 * defaults of NodePools and NodeClaims, every NodePool with the catalogue,
 * the catalogue's well-known labels); each run has its own clock. */
static void prepare(dh *h, const char *now)
{
	kp_error e = KP_ERROR_INIT;
	int64_t now_ms = 0;
	ck_assert_int_eq(kp_time_parse_rfc3339(&now_ms, now, &e), KP_OK);
	if (!h->b) {
		kp_decode_result *dec = NULL;
		if (kp_decode(&dec, h->text, h->len, NULL, &e))
			ck_abort_msg("decode: %s", e.message);
		ck_assert_int_eq(kp_cluster_builder_new(&h->b, &e), KP_OK);
		ck_assert_msg(kp_cluster_builder_add_decoded(h->b, dec, "test", 0, &e) == KP_OK,
			      "builder: %s: %s", e.field, e.message);
		for (size_t i = 0; i < kp_decode_result_count(dec); i++)
			ck_assert_msg(kp_decode_result_at(dec, i)->object == NULL,
				      "the builder does not read document %zu", i);
		kp_decode_result_free(dec);
		ck_assert_int_eq(kp_cluster_builder_set_instance_types(h->b, NULL, h->its, &e), KP_OK);
		kp_cluster_builder_set_wellknown(h->b, h->wk);
	}
	kp_cluster_builder_set_now(h->b, now_ms);
	ck_assert_msg(kp_cluster_builder_spec(&h->spec, h->b, &e) == KP_OK, "builder: %s",
		      e.message);
}

const kp_cluster_spec *dh_spec(dh *h, const char *now)
{
	prepare(h, now);
	return &h->spec;
}

int dh_run_rc(dh *h, const char *now, uint32_t flags, uint32_t passes, kp_error *err)
{
	prepare(h, now);
	kp_disruption_result_free(h->res);
	h->res = NULL;
	kp_disruption_options o = KP_DISRUPTION_OPTIONS_INIT;
	o.flags = flags & ~DH_SPOT_TO_SPOT;
	if (flags & DH_SPOT_TO_SPOT)
		o.feature_gates |= KP_FEATURE_GATE_SPOT_TO_SPOT_CONSOLIDATION;
	o.max_passes = passes;
	return kp_disruption_run(&h->res, &h->spec, &o, err);
}

const kp_disruption_result *dh_run(dh *h, const char *now, uint32_t flags, uint32_t passes)
{
	kp_error e = KP_ERROR_INIT;
	if (dh_run_rc(h, now, flags, passes, &e))
		ck_abort_msg("kp_disruption_run: %s: %s", e.field, e.message);
	return h->res;
}

const kp_disruption_node *dh_find(const kp_disruption_result *r, const char *name)
{
	for (size_t i = 0; i < kp_disruption_result_node_count(r); i++) {
		const kp_disruption_node *n = kp_disruption_result_node_at(r, i);
		if ((n->node && !strcmp(n->node, name)) || (n->nodeclaim && !strcmp(n->nodeclaim, name)))
			return n;
	}
	return NULL;
}

const kp_disruption_why *dh_reason(const kp_disruption_node *n, uint32_t code, uint32_t method)
{
	for (size_t i = 0; n && i < n->n_reasons; i++)
		if (n->reasons[i]->code == code && n->reasons[i]->method == method)
			return n->reasons[i];
	return NULL;
}

const char *dh_reasons(const kp_disruption_node *n)
{
	static char buf[8192];
	size_t len = 0;
	buf[0] = 0;
	for (size_t i = 0; n && i < n->n_reasons && len < sizeof(buf); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s/%s: %s\n",
					kp_disruption_block_code_name(n->reasons[i]->code),
					kp_disruption_method_name(n->reasons[i]->method),
					n->reasons[i]->message);
	return buf;
}
