/*
 * libkarpenter disruption: the Consolidatable condition and NodePool
 * disruption budgets (upstream pkg/apis/v1 NodePool budgets and the
 * NodeClaim disruption controller's consolidation check).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <errno.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/cron.h>
#include <karpenter/duration.h>

#include "disruption_private.h"

const char *const kp__disruption_reasons[KP__N_REASONS] = {
	KP_DISRUPTION_REASON_EMPTY, KP_DISRUPTION_REASON_DRIFTED, KP_DISRUPTION_REASON_UNDERUTILIZED
};

const kp_condition *kp__nc_condition(const kp_nodeclaim *nc, const char *type)
{
	if (!nc || !nc->status)
		return NULL;
	return kp_condition_find(nc->status->conditions, nc->status->n_conditions, type);
}

static int cond_true(const kp_condition *c)
{
	return c && c->status && !strcmp(c->status, "True");
}

KP_EXPORT int kp_disruption_consolidatable(uint32_t *out_state, int64_t *out_since_ms,
					   const kp_nodeclaim *nodeclaim,
					   const kp_nodepool *nodepool, int64_t now_ms, kp_error *err)
{
	if (!nodeclaim || !nodepool || !out_state)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	const kp_api_duration *ca = nodepool->spec && nodepool->spec->disruption
					    ? &nodepool->spec->disruption->consolidate_after : NULL;
	if (ca && ca->text && !ca->parsed)
		return kp__error(err, KP_EINVAL, "spec.disruption.consolidateAfter",
				 "NodePool %s: consolidateAfter %s was not parsed",
				 nodepool->metadata && nodepool->metadata->name ? nodepool->metadata->name : "",
				 ca->text);
	int64_t since = 0;
	uint32_t state;
	const kp_condition *init = kp__nc_condition(nodeclaim, "Initialized");
	if (!ca || !ca->text || ca->never) {
		state = KP_CONSOLIDATABLE_DISABLED;
	} else if (!cond_true(init)) {
		state = KP_CONSOLIDATABLE_NOT_INITIALIZED;
	} else {
		int64_t from = nodeclaim->status && nodeclaim->status->last_pod_event_time_ms
				       ? nodeclaim->status->last_pod_event_time_ms
				       : init->last_transition_time_ms;
		int64_t ns = ca->ns;
		/* ns -> ms rounded up: the window ends at the first ms not inside it */
		int64_t dur_ms = ns / 1000000 + (ns % 1000000 != 0);
		since = from > INT64_MAX - dur_ms ? INT64_MAX : from + dur_ms;
		state = ns == 0 || now_ms >= since ? KP_CONSOLIDATABLE_TRUE : KP_CONSOLIDATABLE_WAITING;
		/* upstream compares in nanoseconds: now - from < consolidateAfter */
		if (ns && now_ms - from >= 0 && now_ms - from < INT64_MAX / 1000000 &&
		    (now_ms - from) * 1000000 < ns)
			state = KP_CONSOLIDATABLE_WAITING;
	}
	*out_state = state;
	if (out_since_ms)
		*out_since_ms = since;
	return KP_OK;
}

/* A budget's nodes value: an integer, or a percentage of num_nodes rounded
 * up (intstr.GetScaledValueFromIntOrPercent with roundUp). */
static int budget_nodes(int64_t *out, const char *nodes, int64_t num_nodes)
{
	if (!nodes || !*nodes)
		return -1;
	char *end = NULL;
	errno = 0;
	long long v = strtoll(nodes, &end, 10);
	if (end != nodes && !*end && !errno && v >= INT32_MIN && v <= INT32_MAX) {
		*out = v;
		return 0;
	}
	size_t len = strlen(nodes);
	if (len < 2 || nodes[len - 1] != '%')
		return -1;
	errno = 0;
	v = strtoll(nodes, &end, 10);
	if (end != nodes + len - 1 || errno || v < INT32_MIN || v > INT32_MAX)
		return -1;
	double scaled = (double)v * (double)num_nodes / 100.0;
	int64_t r = (int64_t)scaled;
	if ((double)r < scaled)
		r++;
	*out = r;
	return 0;
}

static int budget_applies(const kp_budget *b, const char *reason)
{
	if (!b->reasons)
		return 1;
	for (size_t i = 0; i < b->n_reasons; i++)
		if (b->reasons[i] && !strcmp(b->reasons[i], reason))
			return 1;
	return 0;
}

KP_EXPORT int kp_disruption_budget_allowed(int64_t *out_allowed, const kp_nodepool *nodepool,
					   const char *reason, int64_t num_nodes, int64_t now_ms,
					   kp_error *err)
{
	if (!out_allowed || !nodepool || !reason)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	const kp_disruption *d = nodepool->spec ? nodepool->spec->disruption : NULL;
	int64_t allowed = KP_DISRUPTION_UNLIMITED;
	int rc = KP_OK;
	kp_error first = KP_ERROR_INIT;
	for (size_t i = 0; d && i < d->n_budgets; i++) {
		const kp_budget *b = d->budgets[i];
		if (!b)
			continue;
		int64_t val = KP_DISRUPTION_UNLIMITED;
		int32_t active = 0;
		kp_error e = KP_ERROR_INIT;
		char field[KP_ERROR_FIELD_MAX];
		int r = kp_cron_budget_active(&active, b->schedule, b->duration.text, now_ms, &e);
		if (r) {
			snprintf(field, sizeof(field), "spec.disruption.budgets[%zu].%s", i,
				 !strcmp(e.field, "duration") ? "duration" : "schedule");
			if (rc == KP_OK) {
				rc = r == KP_ERANGE ? KP_ERANGE : KP_EPARSE;
				kp__error(&first, rc, field, "%s", e.message);
			}
			val = 0;
		} else if (active && budget_nodes(&val, b->nodes, num_nodes)) {
			snprintf(field, sizeof(field), "spec.disruption.budgets[%zu].nodes", i);
			if (rc == KP_OK) {
				rc = KP_EPARSE;
				kp__error(&first, rc, field,
					  "invalid value for IntOrString: invalid type: string is not a percentage");
			}
			val = 0;
		}
		if (budget_applies(b, reason) && val < allowed)
			allowed = val;
	}
	if (rc != KP_OK) {
		/* upstream MustGetAllowedDisruptions: any error fails closed */
		*out_allowed = 0;
		if (err)
			*err = first;
		return rc;
	}
	*out_allowed = allowed;
	return KP_OK;
}

KP_EXPORT void kp_disruption_options_init(kp_disruption_options *opts)
{
	if (opts) {
		kp_disruption_options init = KP_DISRUPTION_OPTIONS_INIT;
		*opts = init;
	}
}

KP_EXPORT const char *kp_disruption_method_name(uint32_t method)
{
	switch (method) {
	case KP_DISRUPTION_METHOD_NONE: return "";
	case KP_DISRUPTION_METHOD_EMPTINESS: return "Emptiness";
	case KP_DISRUPTION_METHOD_DRIFT: return "Drift";
	case KP_DISRUPTION_METHOD_MULTI_NODE: return "MultiNodeConsolidation";
	case KP_DISRUPTION_METHOD_SINGLE_NODE: return "SingleNodeConsolidation";
	default: return "Unknown";
	}
}

KP_EXPORT const char *kp_disruption_decision_name(uint32_t decision)
{
	switch (decision) {
	case KP_DISRUPTION_NOOP: return "no-op";
	case KP_DISRUPTION_DELETE: return "delete";
	case KP_DISRUPTION_REPLACE: return "replace";
	default: return "Unknown";
	}
}

static const char *const block_names[] = {
	"None", "Unmanaged", "NotInitialized", "Deleting", "NodePoolNotFound", "DoNotDisrupt",
	"PodDisruptionBudget", "Budget", "ConsolidationDisabled", "ConsolidateAfter", "WhenEmpty",
	"PodsWouldNotSchedule", "NoCheaperReplacement", "MultipleReplacements", "SpotToSpot",
	"InstanceTypeNotFound", "UninitializedDestination", "NotDrifted", "NotEmpty", "NotSelected",
	"ConsolidateAfterDestination", "StaticNodePool",
};

KP_EXPORT const char *kp_disruption_block_code_name(uint32_t code)
{
	if (code < sizeof(block_names) / sizeof(block_names[0]))
		return block_names[code];
	return "Unknown";
}
