/*
 * Test fixture: the AWS provider's EC2NodeClassSpec as C structs with
 * descriptor tables for the same engine the core uses (lib/schema/schema.h),
 * so that the 62 EC2NodeClass hash vectors of ../shared/data/hash/vectors.yaml
 * run through the core's hashstructure walk. Go type names, Go field names,
 * declaration order and hash tags follow vectors.yaml struct_layouts, for
 * aws/karpenter-provider-aws main @1d927085 (hash version v6) and v1.14.1
 * (v5). These live here until the AWS provider takes them over.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_EC2NODECLASS_FIXTURE_H
#define KP_EC2NODECLASS_FIXTURE_H

#include <stdint.h>

#include <karpenter/karpenter.h>

#include "schema/schema.h"
#include "document/tree.h"

/* Which upstream layout. */
enum ec2_layout {
	EC2_LAYOUT_V6_MAIN = 0, /* spec.kubelet: open map, hash:"ignore"; Kubelet.String() hashed */
	EC2_LAYOUT_V5_1_14 = 1  /* spec.kubelet: *KubeletConfiguration struct, hashed in the spec */
};

typedef struct ec2_selector_term {
	uint32_t struct_size;
	uint32_t reserved;
	kp_labels tags;
	const char *alias;
	const char *id;
	const char *name;
	const char *owner;
	const char *ssm_parameter;
	const char *owner_id;
	const char *instance_match_criteria;
} ec2_selector_term;

typedef struct ec2_placement_group_selector {
	uint32_t struct_size;
	uint32_t reserved;
	const char *name; /* *string */
	const char *id;   /* *string */
} ec2_placement_group_selector;

typedef struct ec2_kubelet {
	uint32_t struct_size;
	uint32_t has_max_pods;
	int32_t max_pods;
	uint32_t has_pods_per_core;
	int32_t pods_per_core;
	uint32_t has_eviction_max_pod_grace_period;
	int32_t eviction_max_pod_grace_period;
	uint32_t has_image_gc_high;
	int32_t image_gc_high;
	uint32_t has_image_gc_low;
	int32_t image_gc_low;
	uint32_t has_cpu_cfs_quota;
	uint32_t cpu_cfs_quota;
	uint32_t reserved;
	const char *const *cluster_dns;
	size_t n_cluster_dns;
	kp_labels system_reserved;
	kp_labels kube_reserved;
	kp_labels eviction_hard;
	kp_labels eviction_soft;
} ec2_kubelet;

typedef struct ec2_block_device {
	uint32_t struct_size;
	uint32_t has_delete_on_termination;
	uint32_t delete_on_termination;
	uint32_t has_encrypted;
	uint32_t encrypted;
	uint32_t has_iops;
	int64_t iops;
	uint32_t has_throughput;
	uint32_t has_volume_initialization_rate;
	int64_t throughput;
	int32_t volume_initialization_rate;
	uint32_t reserved;
	const char *kms_key_id;
	const char *snapshot_id;
	const char *volume_size; /* *resource.Quantity, hash:"string": canonical text */
	const char *volume_type;
} ec2_block_device;

typedef struct ec2_block_device_mapping {
	uint32_t struct_size;
	uint32_t root_volume;
	const char *device_name;
	ec2_block_device *ebs;
} ec2_block_device_mapping;

typedef struct ec2_network_interface {
	uint32_t struct_size;
	int32_t network_card_index;
	int32_t device_index;
	uint32_t reserved;
	const char *interface_type;
} ec2_network_interface;

typedef struct ec2_metadata_options {
	uint32_t struct_size;
	uint32_t has_http_put_response_hop_limit;
	int64_t http_put_response_hop_limit;
	const char *http_endpoint;
	const char *http_protocol_ipv6;
	const char *http_tokens;
} ec2_metadata_options;

typedef struct ec2_connection_tracking {
	uint32_t struct_size;
	uint32_t has_tcp_established_timeout;
	int32_t tcp_established_timeout;
	uint32_t has_udp_stream_timeout;
	int32_t udp_stream_timeout;
	uint32_t has_udp_timeout;
	int32_t udp_timeout;
	uint32_t reserved;
} ec2_connection_tracking;

typedef struct ec2_cpu_options {
	uint32_t struct_size;
	uint32_t reserved;
	const char *nested_virtualization;
} ec2_cpu_options;

typedef struct ec2_nodeclass_spec {
	uint32_t struct_size;
	uint32_t has_associate_public_ip_address;
	uint32_t associate_public_ip_address;
	uint32_t has_ip_prefix_count;
	int32_t ip_prefix_count;
	uint32_t has_detailed_monitoring;
	uint32_t detailed_monitoring;
	uint32_t reserved;
	ec2_selector_term **subnet_selector_terms;
	size_t n_subnet_selector_terms;
	ec2_selector_term **security_group_selector_terms;
	size_t n_security_group_selector_terms;
	ec2_selector_term **capacity_reservation_selector_terms;
	size_t n_capacity_reservation_selector_terms;
	ec2_placement_group_selector *placement_group_selector;
	ec2_selector_term **ami_selector_terms;
	size_t n_ami_selector_terms;
	const char *ami_family;
	const char *user_data;
	const char *role;
	const char *instance_profile;
	kp_labels tags;
	ec2_kubelet *kubelet; /* v5 only */
	ec2_block_device_mapping **block_device_mappings;
	size_t n_block_device_mappings;
	const char *instance_store_policy;
	ec2_network_interface **network_interfaces;
	size_t n_network_interfaces;
	ec2_metadata_options *metadata_options;
	ec2_connection_tracking *connection_tracking;
	const char *context;
	ec2_cpu_options *cpu_options;
} ec2_nodeclass_spec;

/* The EC2NodeClassSpec descriptor of a layout. */
const kp__type *ec2_spec_type(int layout);

/* Decode a spec object node (strict: unknown fields fail) and canonicalize
 * its quantities; ck_abort on error. Free with ec2_spec_free. */
ec2_nodeclass_spec *ec2_spec_decode(int layout, kp__node *spec);
void ec2_spec_free(int layout, ec2_nodeclass_spec *spec);

/* EC2NodeClass.Hash(caBundle): hashstructure of []any{spec, amiFamily,
 * caBundle} (v5), plus kubelet.String() (v6; kubelet NULL for v5). */
int ec2_hash(int layout, const ec2_nodeclass_spec *spec, const char *ami_family,
	     const char *ca_bundle, const char *kubelet, uint64_t *out, kp_error *err);

#endif
