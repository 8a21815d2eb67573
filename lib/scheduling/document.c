/*
 * The simulation result as a document (kp_sched_result_write): the one
 * `kubectl-karpenter simulate -o json|yaml` prints, whose members the
 * README lists as a contract (members only ever added). Written through
 * the emitter as the result is walked: no tree of the whole output.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include <karpenter/codec.h>
#include <karpenter/emitter.h>
#include <karpenter/labels.h>
#include <karpenter/scheduling.h>
#include <karpenter/wellknown.h>

#include "kp_internal.h"
#include "sched_index.h"

int kp__sched_launch_labels(kp_nodeclaim *nc, const char *nodepool,
			    const char *instance_type, const kp_offering *of, kp_error *err)
{
	if (!nc->metadata)
		return kp__error(err, KP_EINVAL, "metadata", "the NodeClaim has no metadata");
	const struct {
		const char *key, *value;
	} labels[] = {
		{ KP_LABEL_NODEPOOL, nodepool },
		{ KP_LABEL_INSTANCE_TYPE, instance_type },
		{ KP_LABEL_TOPOLOGY_ZONE, of ? of->zone : NULL },
		{ KP_LABEL_CAPACITY_TYPE, of ? of->capacity_type : NULL },
	};
	int rc = KP_OK;
	for (size_t i = 0; rc == KP_OK && i < sizeof(labels) / sizeof(labels[0]); i++)
		if (labels[i].value)
			rc = kp_labels_set(&nc->metadata->labels, labels[i].key, labels[i].value, err);
	/* the offering's own single-valued requirements: a reservation's ID and
	 * kind, as the provider labels the instance it launches into */
	kp_requirements *or = of ? of->requirements : NULL;
	for (size_t i = 0, n = kp_requirements_count(or); rc == KP_OK && i < n; i++) {
		kp_requirement *q = kp_requirements_at(or, i);
		const char *key = kp_requirement_key(q);
		if (strcmp(key, KP_LABEL_TOPOLOGY_ZONE) && strcmp(key, KP_LABEL_CAPACITY_TYPE) &&
		    kp_requirement_operator(q) == KP_SELECTOR_OP_IN &&
		    kp_requirement_value_count(q) == 1)
			rc = kp_labels_set(&nc->metadata->labels, key, kp_requirement_value_at(q, 0), err);
	}
	return rc;
}

/* The NodeClaim as launched: the simulation's with the launch choice's
 * labels, from its struct and its offering. */
static int launched_nodeclaim(kp_emitter *em, const kp_sched_nodeclaim *snc, kp_error *err)
{
	kp_nodeclaim *nc = NULL;
	int rc = kp_nodeclaim_copy(&nc, snc->nodeclaim, err);
	if (rc)
		return rc;
	rc = kp__sched_launch_labels(nc, snc->nodepool, snc->instance_type, snc->offering, err);
	if (rc == KP_OK && (rc = kp_encode_emit(em, NULL, KP_KIND_NODECLAIM, nc)) != KP_OK)
		kp__error(err, rc, NULL, "cannot write the NodeClaim %s",
			  nc->metadata && nc->metadata->name ? nc->metadata->name : "");
	kp_nodeclaim_free(nc);
	return rc;
}

static void write_reasons(kp_emitter *em, const kp_sched_placement *p)
{
	kp_emitter_begin_array(em);
	for (size_t r = 0; r < p->n_reasons; r++) {
		const kp_sched_reason *why = p->reasons[r];
		kp_emitter_begin_object(em);
		kp_emitter_key(em, "code");
		kp_emitter_string(em, kp_sched_reason_code_name(why->code));
		kp_emitter_key(em, "nodePool");
		kp_emitter_string(em, why->nodepool);
		kp_emitter_key(em, "node");
		kp_emitter_string(em, why->node);
		kp_emitter_key(em, "field");
		kp_emitter_string(em, why->field);
		kp_emitter_key(em, "message");
		kp_emitter_string(em, why->message);
		kp_emitter_end_object(em);
	}
	kp_emitter_end_array(em);
}

static void write_pods(kp_emitter *em, const kp_sched_result *res)
{
	kp_emitter_begin_array(em);
	size_t np = kp_sched_result_pod_count(res);
	for (size_t i = 0; i < np; i++) {
		const kp_sched_placement *p = kp_sched_result_pod_at(res, i);
		int on_claim = p->target == KP_SCHED_NEW_NODECLAIM || p->target == KP_SCHED_INFLIGHT;
		int on_node = p->target == KP_SCHED_EXISTING_NODE;
		kp_emitter_begin_object(em);
		kp_emitter_key(em, "namespace");
		kp_emitter_string(em, p->namespace_);
		kp_emitter_key(em, "name");
		kp_emitter_string(em, p->name);
		kp_emitter_key(em, "nodeClaim");
		kp_emitter_string(em, on_claim ? p->node : NULL);
		kp_emitter_key(em, "node");
		kp_emitter_string(em, on_node ? p->node : NULL);
		kp_emitter_key(em, "reasons");
		write_reasons(em, p);
		kp_emitter_end_object(em);
	}
	kp_emitter_end_array(em);
}

KP_EXPORT int kp_sched_result_write(kp_emitter *em, const kp_sched_result *result, kp_error *err)
{
	if (!em || !result)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	int rc = kp_emitter_begin_object(em);
	kp_emitter_key(em, "nodeClaims");
	kp_emitter_begin_array(em);
	size_t n = kp_sched_result_nodeclaim_count(result);
	for (size_t i = 0; rc == KP_OK && i < n; i++) {
		const kp_sched_nodeclaim *snc = kp_sched_result_nodeclaim_at(result, i);
		kp_emitter_begin_object(em);
		kp_emitter_key(em, "nodeClaim");
		rc = launched_nodeclaim(em, snc, err);
		kp_emitter_key(em, "price");
		kp_emitter_number(em, snc->price);
		kp_emitter_end_object(em);
	}
	if (rc)
		return rc;
	kp_emitter_end_array(em);
	kp_emitter_key(em, "pods");
	write_pods(em, result);
	kp_emitter_key(em, "cost");
	kp_emitter_number(em, kp_sched_result_cost(result));
	rc = kp_emitter_end_object(em);
	if (rc)
		kp__error(err, rc, NULL, "cannot write the result (%s)",
			  rc == KP_EINVAL ? "a price is not a finite number" : kp_strerror(rc));
	return rc;
}
