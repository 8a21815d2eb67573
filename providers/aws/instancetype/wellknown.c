/*
 * libkarpenter-aws: the labels upstream's AWS provider makes well known and
 * the label domain it restricts (pkg/apis/v1/labels.go init).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stddef.h>

#include "../aws_private.h"
#include "instancetype.h"

static const char *const aws_wellknown_labels[] = {
	"karpenter.k8s.aws/capacity-reservation-id",
	"karpenter.k8s.aws/capacity-reservation-type",
	"karpenter.k8s.aws/capacity-reservation-interruptible",
	"karpenter.k8s.aws/instance-hypervisor",
	"karpenter.k8s.aws/instance-encryption-in-transit-supported",
	"karpenter.k8s.aws/nitro-sandbox",
	"karpenter.k8s.aws/instance-category",
	"karpenter.k8s.aws/instance-capability-flex",
	"karpenter.k8s.aws/instance-family",
	"karpenter.k8s.aws/instance-generation",
	"karpenter.k8s.aws/instance-size",
	"karpenter.k8s.aws/instance-local-nvme",
	"karpenter.k8s.aws/instance-cpu",
	"karpenter.k8s.aws/instance-cpu-manufacturer",
	"karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz",
	"karpenter.k8s.aws/instance-memory",
	"karpenter.k8s.aws/instance-ebs-bandwidth",
	"karpenter.k8s.aws/instance-network-bandwidth",
	"karpenter.k8s.aws/instance-gpu-name",
	"karpenter.k8s.aws/instance-gpu-manufacturer",
	"karpenter.k8s.aws/instance-gpu-count",
	"karpenter.k8s.aws/instance-gpu-memory",
	"karpenter.k8s.aws/instance-accelerator-name",
	"karpenter.k8s.aws/instance-accelerator-manufacturer",
	"karpenter.k8s.aws/instance-accelerator-count",
	"topology.k8s.aws/zone-id",
	"karpenter.k8s.aws/instance-tenancy",
	"node.kubernetes.io/windows-build",
	"karpenter.k8s.aws/placement-group-id",
	"karpenter.k8s.aws/placement-group-partition",
};

KP_EXPORT int kp_aws_wellknown_add(kp_wellknown *wk, kp_error *err)
{
	if (!wk)
		return kp_aws__error(err, KP_EINVAL, NULL, "kp_aws_wellknown_add: NULL rule set");
	for (size_t i = 0; i < sizeof(aws_wellknown_labels) / sizeof(aws_wellknown_labels[0]); i++) {
		int rc = kp_wellknown_add_label(wk, aws_wellknown_labels[i], err);
		if (rc)
			return rc;
	}
	return kp_wellknown_add_restricted_domain(wk, "karpenter.k8s.aws", err);
}
