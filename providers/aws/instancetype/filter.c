/*
 * libkarpenter-aws: the filters upstream applies to a NodeClaim's instance
 * types before it launches (pkg/providers/instance/filter): compatible and
 * available with the requests fitting (the type's requirements compatible too), then exotic types (metal, GPUs,
 * accelerators) dropped while an ordinary type remains, unless the
 * requirements carry minValues.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include "../aws_private.h"
#include "instancetype.h"

static const char *const exotic_resources[] = {
	"aws.amazon.com/neuron", "aws.amazon.com/neuroncore", "amd.com/gpu", "nvidia.com/gpu",
	"habana.ai/gaudi",
};

static int is_exotic(const kp_instance_type *it)
{
	kp_requirement *size = kp_requirements_get(it->requirements, "karpenter.k8s.aws/instance-size");
	for (size_t i = 0; size && i < kp_requirement_value_count(size); i++)
		if (strstr(kp_requirement_value_at(size, i), "metal"))
			return 1;
	for (size_t i = 0; i < sizeof(exotic_resources) / sizeof(exotic_resources[0]); i++) {
		kp_quantity q;
		if (kp_resources_get(&q, it->capacity, exotic_resources[i], NULL) == KP_OK &&
		    kp_quantity_sign(&q) != 0)
			return 1;
	}
	return 0;
}

KP_EXPORT size_t kp_aws_launch_filter(const kp_instance_type **its, size_t n,
				      kp_requirements *reqs, const kp_resource_list *requests,
				      kp_wellknown *wk)
{
	if (!its)
		return 0;
	/* compatible-available-filter */
	size_t kept = 0;
	for (size_t i = 0; i < n; i++) {
		const kp_instance_type *it = its[i];
		if (!it || (reqs && kp_requirements_compatible(reqs, it->requirements,
							      KP_COMPAT_ALLOW_UNDEFINED_WELLKNOWN, wk,
							      NULL) != KP_OK))
			continue;
		if (!kp_instance_type_cheapest_offering(it, reqs, wk))
			continue;
		if (requests && kp_resources_fits(requests, it->allocatable, NULL) != KP_OK)
			continue;
		its[kept++] = it;
	}
	/* exotic-instance-filter */
	if (reqs && kp_requirements_has_min_values(reqs))
		return kept;
	size_t generic = 0;
	for (size_t i = 0; i < kept; i++)
		generic += !is_exotic(its[i]);
	if (!generic)
		return kept;
	size_t m = 0;
	for (size_t i = 0; i < kept; i++)
		if (!is_exotic(its[i]))
			its[m++] = its[i];
	return m;
}
