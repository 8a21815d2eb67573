/*
 * libkarpenter-aws: static drift of a NodeClaim against its EC2NodeClass,
 * the rule of upstream's AWS cloud provider (aws/karpenter-provider-aws
 * pkg/cloudprovider/drift.go, areStaticFieldsDrifted): the hash
 * annotations of both objects compared at equal hash versions.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1
#include <stddef.h>
#include <string.h>

#include <karpenter/aws_ec2nodeclass.h>

#include "aws_private.h"

KP_EXPORT int kp_aws_nodeclaim_static_drift(kp_aws_static_drift *out,
					    const kp_nodeclaim *nodeclaim,
					    const char *nodeclass_hash,
					    const char *nodeclass_hash_version, kp_error *err)
{
	if (!out || !nodeclaim)
		return kp_error_set(err, KP_EINVAL, NULL, "kp_aws_nodeclaim_static_drift: NULL "
				    "argument");
	if (out->struct_size < sizeof(kp_aws_static_drift))
		return kp_error_set(err, KP_EVERSION, "struct_size", "kp_aws_static_drift: "
				    "unsupported struct_size");
	const kp_object_meta *m = nodeclaim->metadata;
	out->state = KP_AWS_STATIC_DRIFT_NOT_EVALUATED;
	out->reason = "";
	out->nodeclaim_hash = m ? kp_labels_get(&m->annotations,
						 KP_AWS_ANNOTATION_EC2NODECLASS_HASH) : NULL;
	out->nodeclaim_hash_version =
		m ? kp_labels_get(&m->annotations, KP_AWS_ANNOTATION_EC2NODECLASS_HASH_VERSION)
		  : NULL;
	if (!nodeclass_hash || !nodeclass_hash_version || !out->nodeclaim_hash ||
	    !out->nodeclaim_hash_version ||
	    strcmp(nodeclass_hash_version, out->nodeclaim_hash_version))
		return KP_OK;
	if (strcmp(nodeclass_hash, out->nodeclaim_hash)) {
		out->state = KP_AWS_STATIC_DRIFT_DRIFTED;
		out->reason = KP_AWS_DRIFT_NODECLASS;
	} else {
		out->state = KP_AWS_STATIC_DRIFT_MATCH;
	}
	return KP_OK;
}
