/*
 * One drift decision (state.h; upstream pkg/controllers/nodeclaim/
 * disruption drift.go, isDrifted), for the lifecycle's Drifted condition
 * and for disruption alike.
 *
 * The NodePool's hash is taken from its spec, as the hash controller writes
 * it (KP_DRIFT_HASH_FROM_SPEC), never from its annotation: upstream's hash
 * controller rewrites the annotation from the spec before drift reads it,
 * so a manifest whose annotation is stale or absent (hand-written, edited
 * since it was dumped) decides as the running controllers would.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <karpenter/hash.h>
#include <karpenter/labels.h>
#include <karpenter/wellknown.h>

#include "state.h"

/* Upstream checks a NodeClaim's instance type only once it has been
 * around for an hour (the catalogue may lag a launch). */
#define INSTANCE_TYPE_DRIFT_AFTER_MS ((int64_t)3600 * 1000)

/* The NodeClaim's instance type offered in its zone and capacity type (a
 * reserved NodeClaim also by an on-demand offering). */
static int offered(const kp_instance_type *it, const char *zone, const char *ct)
{
	for (size_t i = 0; it && zone && ct && i < it->n_offerings; i++) {
		const kp_offering *of = it->offerings[i];
		if (of->available && of->zone && of->capacity_type && !strcmp(of->zone, zone) &&
		    (!strcmp(of->capacity_type, ct) ||
		     (!strcmp(ct, "reserved") && !strcmp(of->capacity_type, "on-demand"))))
			return 1;
	}
	return 0;
}

int kp__state_drift(char **reason, char **message, const kp__drift_args *a, kp_error *err)
{
	*reason = *message = NULL;
	kp_drift_options o = KP_DRIFT_OPTIONS_INIT;
	o.flags = KP_DRIFT_HASH_FROM_SPEC | a->drift_flags;
	o.wk = a->wk;
	kp_drift *dr = NULL;
	int rc = kp_drift_check(&dr, a->nodepool, a->nodeclaim, &o, err);
	if (rc)
		return rc;
	if (dr->reason_code != KP_DRIFT_NONE) {
		*reason = kp__strdup(dr->reason);
		*message = kp__strdup(dr->message);
		kp_drift_free(dr);
		goto done;
	}
	kp_drift_free(dr);
	const kp_object_meta *m = a->nodeclaim->metadata;
	int64_t created = m ? m->creation_timestamp_ms : 0;
	if (a->instance_types) {
		const kp_labels *l = m ? &m->labels : NULL;
		const char *it_name = l ? kp_labels_get(l, KP_LABEL_INSTANCE_TYPE) : NULL;
		const char *zone = l ? kp_labels_get(l, KP_LABEL_TOPOLOGY_ZONE) : NULL;
		const char *ct = l ? kp_labels_get(l, KP_LABEL_CAPACITY_TYPE) : NULL;
		const kp_instance_type *it =
			it_name ? kp_instance_types_find(a->instance_types, it_name) : NULL;
		int gone = !offered(it, zone, ct);
		/* (now - created, as the comparison was, in a range that cannot overflow) */
		int young = created > a->now_ms ||
			    a->now_ms - created <= INSTANCE_TYPE_DRIFT_AFTER_MS;
		if (gone && young) {
			if (a->later_ms && created < INT64_MAX - INSTANCE_TYPE_DRIFT_AFTER_MS)
				*a->later_ms = created + INSTANCE_TYPE_DRIFT_AFTER_MS + 1;
		} else if (gone) {
			*reason = kp__strdup("InstanceTypeNotFound");
			*message = kp__strdup_printf("instance type %s is no longer offered in %s as %s",
						     it_name ? it_name : "(none)",
						     zone ? zone : "(no zone)",
						     ct ? ct : "(no capacity type)");
			goto done;
		}
	}
	if (a->provider) {
		char why[128] = ""; /* the provider's reason: cut to its buffer, as upstream's is short */
		rc = kp_cloudprovider_is_drifted(a->provider, a->nodeclaim, why, sizeof(why), err);
		if (rc)
			return rc;
		if (*why) {
			*reason = kp__strdup(why);
			*message = kp__strdup_printf("the cloud provider reports drift: %s", why);
			goto done;
		}
	}
	return KP_OK;
done:
	if (!*reason || !*message) {
		kp__free(*reason);
		kp__free(*message);
		*reason = *message = NULL;
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	return KP_OK;
}
