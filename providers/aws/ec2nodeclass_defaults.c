/*
 * libkarpenter-aws: EC2NodeClass's CRD defaults as the API server applies
 * them (../shared/data/crds/karpenter.k8s.aws_ec2nodeclasses.yaml: every
 * `default:` of the schema), the registry's default hook
 * (kp_registry_object_default).
 *
 *   spec.metadataOptions                       {httpEndpoint: enabled,
 *                                              httpProtocolIPv6: disabled,
 *                                              httpPutResponseHopLimit: 1,
 *                                              httpTokens: required}
 *   spec.metadataOptions.httpEndpoint          enabled
 *   spec.metadataOptions.httpProtocolIPv6      disabled
 *   spec.metadataOptions.httpPutResponseHopLimit 1
 *   spec.metadataOptions.httpTokens            required
 *   status.capacityReservations[*].reservationType default
 *   status.capacityReservations[*].state       active
 *
 * The object default and the member defaults give the same values, so an
 * absent metadataOptions and one with members missing are one rule.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <karpenter/aws_ec2nodeclass.h>

#include "aws_private.h"

/* *slot gets a copy of @p value when unset; 0, or -1 out of memory. */
static int default_string(const char **slot, const char *value)
{
	if (*slot)
		return 0;
	char *d = kp__aws_object_strdup(value);
	if (!d)
		return -1;
	*slot = d;
	return 0;
}

static int metadata_options(kp_aws_ec2nodeclass_spec *spec)
{
	kp_aws_metadata_options *mo = spec->metadata_options;
	if (!mo) {
		if (!(mo = kp_calloc(1, sizeof(*mo))))
			return -1;
		mo->struct_size = sizeof(*mo);
		spec->metadata_options = mo; /* freed with the object from here on */
	}
	if (!mo->has_http_put_response_hop_limit) {
		mo->has_http_put_response_hop_limit = 1;
		mo->http_put_response_hop_limit = 1;
	}
	return default_string(&mo->http_endpoint, "enabled") ||
	       default_string(&mo->http_protocol_ipv6, "disabled") ||
	       default_string(&mo->http_tokens, "required") ? -1 : 0;
}

int kp__aws_ec2nodeclass_defaults(void *self, void *object, kp_error *err)
{
	(void)self;
	kp_aws_ec2nodeclass *nc = object;
	if (!nc)
		return kp_error_set(err, KP_EINVAL, NULL, "NULL argument");
	int oom = nc->spec ? metadata_options(nc->spec) : 0;
	kp_aws_ec2nodeclass_status *st = nc->struct_size >= sizeof(*nc) ? nc->status : NULL;
	for (size_t i = 0; !oom && st && st->capacity_reservations && i < st->n_capacity_reservations;
	     i++) {
		kp_aws_capacity_reservation_status *cr = st->capacity_reservations[i];
		if (cr)
			oom = default_string(&cr->reservation_type, "default") ||
			      default_string(&cr->state, "active");
	}
	/* what was set before running out stays: each is a default the API
	 * server would have applied too */
	return oom ? kp_error_set(err, KP_ENOMEM, NULL, "out of memory") : KP_OK;
}
