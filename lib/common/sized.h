/*
 * libkarpenter private: reading caller-filled size-tagged structs.
 *
 * A size-tagged struct (uint32_t struct_size first) only grows at the end
 * (VERSIONING.md). A caller built against an older release passes the
 * struct_size of that release, and must still be served: the library
 * accepts any struct_size from the type's FIRST released size up to its
 * own, reads the missing tail as zero, and refuses a larger struct_size
 * whose extra bytes are not zero (a newer caller asking for something this
 * library lacks). That is libbpf's OPTS_VALID with its __last_field.
 *
 * The first size of each type is written below as "through the member that
 * ended it in the release that introduced it". When a struct grows, its line
 * does not change (it keeps naming the old last member) and the header marks
 * the boundary with "below: @since x.y"; a new type adds a line. Never use
 * sizeof(T) as the minimum: it refuses every older caller the day T grows,
 * and abidiff cannot see that. tests/common_tests/test_sized.c checks every
 * line against abi/first-sizes.txt, the sizes as released.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_COMMON_SIZED_H
#define KP_COMMON_SIZED_H

#include <stddef.h>

#include "kp_internal.h"

/* Bytes of T up to and including member M. */
#define KP__SIZE_THROUGH(T, M) (offsetof(T, M) + sizeof(((T *)0)->M))

/* The first released size of T (the list below). */
#define KP__FIRST_SIZE(T) KP__FIRST_SIZE_##T

/* Check a caller's struct of type T (KP_EVERSION on a bad struct_size). */
#define KP__CHECK_SIZED(p, T, err) \
	kp__check_struct_size((p), KP__FIRST_SIZE(T), sizeof(T), #T, (err))

/* Copy a caller's struct of type T into *dst (of this library's size):
 * what the caller has, zeros for the rest, struct_size set to ours. */
#define KP__READ_SIZED(dst, src, T, err) \
	kp__read_sized((dst), sizeof(T), (src), KP__FIRST_SIZE(T), #T, (err))
int kp__read_sized(void *dst, size_t our_size, const void *src, size_t first_size,
		   const char *type_name, kp_error *err);

/* First released sizes: 0.1 */
#define KP__FIRST_SIZE_kp_affinity KP__SIZE_THROUGH(kp_affinity, pod_anti_affinity)
#define KP__FIRST_SIZE_kp_allocator KP__SIZE_THROUGH(kp_allocator, free_fn)
#define KP__FIRST_SIZE_kp_budget KP__SIZE_THROUGH(kp_budget, n_reasons)
#define KP__FIRST_SIZE_kp_builder_problem KP__SIZE_THROUGH(kp_builder_problem, first_source)
#define KP__FIRST_SIZE_kp_cloudprovider_ops KP__SIZE_THROUGH(kp_cloudprovider_ops, destroy)
/* namespaces/n_namespaces came after now_ms while 0.1 was being written;
 * callers without them are served (no Namespaces). */
#define KP__FIRST_SIZE_kp_cluster_spec KP__SIZE_THROUGH(kp_cluster_spec, now_ms)
#define KP__FIRST_SIZE_kp_condition KP__SIZE_THROUGH(kp_condition, last_probe_time_ms)
#define KP__FIRST_SIZE_kp_container KP__SIZE_THROUGH(kp_container, n_ports)
#define KP__FIRST_SIZE_kp_container_port KP__SIZE_THROUGH(kp_container_port, host_ip)
#define KP__FIRST_SIZE_kp_container_resources KP__SIZE_THROUGH(kp_container_resources, status_requests)
#define KP__FIRST_SIZE_kp_container_status KP__SIZE_THROUGH(kp_container_status, resources)
#define KP__FIRST_SIZE_kp_convert_options KP__SIZE_THROUGH(kp_convert_options, registry)
#define KP__FIRST_SIZE_kp_csi_node KP__SIZE_THROUGH(kp_csi_node, spec)
#define KP__FIRST_SIZE_kp_csi_node_driver KP__SIZE_THROUGH(kp_csi_node_driver, n_topology_keys)
#define KP__FIRST_SIZE_kp_csi_node_spec KP__SIZE_THROUGH(kp_csi_node_spec, n_drivers)
#define KP__FIRST_SIZE_kp_csi_volume_source KP__SIZE_THROUGH(kp_csi_volume_source, fs_type)
#define KP__FIRST_SIZE_kp_daemonset KP__SIZE_THROUGH(kp_daemonset, spec)
#define KP__FIRST_SIZE_kp_daemonset_spec KP__SIZE_THROUGH(kp_daemonset_spec, template_)
#define KP__FIRST_SIZE_kp_decode_options KP__SIZE_THROUGH(kp_decode_options, max_nodes)
#define KP__FIRST_SIZE_kp_decoded_object KP__SIZE_THROUGH(kp_decoded_object, object)
#define KP__FIRST_SIZE_kp_disruption KP__SIZE_THROUGH(kp_disruption, n_budgets)
#define KP__FIRST_SIZE_kp_disruption_options KP__SIZE_THROUGH(kp_disruption_options, cloudprovider)
#define KP__FIRST_SIZE_kp_drift KP__SIZE_THROUGH(kp_drift, message)
#define KP__FIRST_SIZE_kp_drift_options KP__SIZE_THROUGH(kp_drift_options, hash)
#define KP__FIRST_SIZE_kp_emitter_options KP__SIZE_THROUGH(kp_emitter_options, reserved)
#define KP__FIRST_SIZE_kp_ephemeral_volume_source KP__SIZE_THROUGH(kp_ephemeral_volume_source, volume_claim_template)
#define KP__FIRST_SIZE_kp_field_error KP__SIZE_THROUGH(kp_field_error, rule)
#define KP__FIRST_SIZE_kp_hash_options KP__SIZE_THROUGH(kp_hash_options, ctx)
#define KP__FIRST_SIZE_kp_instance KP__SIZE_THROUGH(kp_instance, deletion_ms)
#define KP__FIRST_SIZE_kp_instance_type KP__SIZE_THROUGH(kp_instance_type, n_offerings)
#define KP__FIRST_SIZE_kp_instance_type_spec KP__SIZE_THROUGH(kp_instance_type_spec, n_offerings)
#define KP__FIRST_SIZE_kp_lifecycle_options KP__SIZE_THROUGH(kp_lifecycle_options, cloudprovider)
#define KP__FIRST_SIZE_kp_namespace KP__SIZE_THROUGH(kp_namespace, metadata)
#define KP__FIRST_SIZE_kp_node KP__SIZE_THROUGH(kp_node, status)
#define KP__FIRST_SIZE_kp_node_affinity KP__SIZE_THROUGH(kp_node_affinity, n_preferred)
#define KP__FIRST_SIZE_kp_node_class_reference KP__SIZE_THROUGH(kp_node_class_reference, name)
#define KP__FIRST_SIZE_kp_node_selector KP__SIZE_THROUGH(kp_node_selector, n_terms)
#define KP__FIRST_SIZE_kp_node_selector_requirement KP__SIZE_THROUGH(kp_node_selector_requirement, reserved)
#define KP__FIRST_SIZE_kp_node_selector_term KP__SIZE_THROUGH(kp_node_selector_term, n_match_fields)
#define KP__FIRST_SIZE_kp_node_spec KP__SIZE_THROUGH(kp_node_spec, n_taints)
#define KP__FIRST_SIZE_kp_node_status KP__SIZE_THROUGH(kp_node_status, n_conditions)
#define KP__FIRST_SIZE_kp_nodeclaim KP__SIZE_THROUGH(kp_nodeclaim, status)
#define KP__FIRST_SIZE_kp_nodeclaim_requirement KP__SIZE_THROUGH(kp_nodeclaim_requirement, min_values)
#define KP__FIRST_SIZE_kp_nodeclaim_resources KP__SIZE_THROUGH(kp_nodeclaim_resources, requests)
#define KP__FIRST_SIZE_kp_nodeclaim_spec KP__SIZE_THROUGH(kp_nodeclaim_spec, expire_after)
#define KP__FIRST_SIZE_kp_nodeclaim_status KP__SIZE_THROUGH(kp_nodeclaim_status, last_pod_event_time_ms)
#define KP__FIRST_SIZE_kp_nodeclaim_template KP__SIZE_THROUGH(kp_nodeclaim_template, spec)
#define KP__FIRST_SIZE_kp_nodeclass_status KP__SIZE_THROUGH(kp_nodeclass_status, message)
#define KP__FIRST_SIZE_kp_nodepool KP__SIZE_THROUGH(kp_nodepool, status)
#define KP__FIRST_SIZE_kp_nodepool_spec KP__SIZE_THROUGH(kp_nodepool_spec, limits)
#define KP__FIRST_SIZE_kp_nodepool_status KP__SIZE_THROUGH(kp_nodepool_status, n_conditions)
#define KP__FIRST_SIZE_kp_object_meta KP__SIZE_THROUGH(kp_object_meta, n_finalizers)
#define KP__FIRST_SIZE_kp_object_reference KP__SIZE_THROUGH(kp_object_reference, resource_version)
#define KP__FIRST_SIZE_kp_offering KP__SIZE_THROUGH(kp_offering, requirements)
#define KP__FIRST_SIZE_kp_offering_spec KP__SIZE_THROUGH(kp_offering_spec, n_requirements)
#define KP__FIRST_SIZE_kp_owner_reference KP__SIZE_THROUGH(kp_owner_reference, uid)
#define KP__FIRST_SIZE_kp_pdb KP__SIZE_THROUGH(kp_pdb, status)
#define KP__FIRST_SIZE_kp_pdb_spec KP__SIZE_THROUGH(kp_pdb_spec, unhealthy_pod_eviction_policy)
#define KP__FIRST_SIZE_kp_pdb_status KP__SIZE_THROUGH(kp_pdb_status, n_conditions)
#define KP__FIRST_SIZE_kp_pod KP__SIZE_THROUGH(kp_pod, status)
#define KP__FIRST_SIZE_kp_pod_affinity KP__SIZE_THROUGH(kp_pod_affinity, n_preferred)
#define KP__FIRST_SIZE_kp_pod_affinity_term KP__SIZE_THROUGH(kp_pod_affinity_term, n_mismatch_label_keys)
#define KP__FIRST_SIZE_kp_pod_resources KP__SIZE_THROUGH(kp_pod_resources, pod_limits)
#define KP__FIRST_SIZE_kp_pod_spec KP__SIZE_THROUGH(kp_pod_spec, n_volumes)
#define KP__FIRST_SIZE_kp_pod_status KP__SIZE_THROUGH(kp_pod_status, n_container_statuses)
#define KP__FIRST_SIZE_kp_pod_template KP__SIZE_THROUGH(kp_pod_template, spec)
#define KP__FIRST_SIZE_kp_preferred_scheduling_term KP__SIZE_THROUGH(kp_preferred_scheduling_term, preference)
#define KP__FIRST_SIZE_kp_pv KP__SIZE_THROUGH(kp_pv, status)
#define KP__FIRST_SIZE_kp_pv_spec KP__SIZE_THROUGH(kp_pv_spec, csi)
#define KP__FIRST_SIZE_kp_pv_status KP__SIZE_THROUGH(kp_pv_status, phase)
#define KP__FIRST_SIZE_kp_pvc KP__SIZE_THROUGH(kp_pvc, status)
#define KP__FIRST_SIZE_kp_pvc_spec KP__SIZE_THROUGH(kp_pvc_spec, selector)
#define KP__FIRST_SIZE_kp_pvc_status KP__SIZE_THROUGH(kp_pvc_status, capacity)
#define KP__FIRST_SIZE_kp_pvc_template KP__SIZE_THROUGH(kp_pvc_template, spec)
#define KP__FIRST_SIZE_kp_pvc_volume_source KP__SIZE_THROUGH(kp_pvc_volume_source, claim_name)
#define KP__FIRST_SIZE_kp_resource_requirements KP__SIZE_THROUGH(kp_resource_requirements, requests)
#define KP__FIRST_SIZE_kp_sched_nodeclaim KP__SIZE_THROUGH(kp_sched_nodeclaim, n_pods)
#define KP__FIRST_SIZE_kp_sched_options KP__SIZE_THROUGH(kp_sched_options, n_only_pods)
#define KP__FIRST_SIZE_kp_sched_placement KP__SIZE_THROUGH(kp_sched_placement, n_reasons)
#define KP__FIRST_SIZE_kp_sched_reason KP__SIZE_THROUGH(kp_sched_reason, message)
#define KP__FIRST_SIZE_kp_storage_class KP__SIZE_THROUGH(kp_storage_class, n_allowed_topologies)
#define KP__FIRST_SIZE_kp_template_metadata KP__SIZE_THROUGH(kp_template_metadata, annotations)
#define KP__FIRST_SIZE_kp_topology_selector_requirement KP__SIZE_THROUGH(kp_topology_selector_requirement, n_values)
#define KP__FIRST_SIZE_kp_topology_selector_term KP__SIZE_THROUGH(kp_topology_selector_term, n_match_label_expressions)
#define KP__FIRST_SIZE_kp_topology_spread_constraint KP__SIZE_THROUGH(kp_topology_spread_constraint, n_match_label_keys)
#define KP__FIRST_SIZE_kp_validate_options KP__SIZE_THROUGH(kp_validate_options, wellknown)
#define KP__FIRST_SIZE_kp_validation_rule KP__SIZE_THROUGH(kp_validation_rule, message)
#define KP__FIRST_SIZE_kp_volume KP__SIZE_THROUGH(kp_volume, csi)
#define KP__FIRST_SIZE_kp_volume_attachment KP__SIZE_THROUGH(kp_volume_attachment, status)
#define KP__FIRST_SIZE_kp_volume_attachment_source KP__SIZE_THROUGH(kp_volume_attachment_source, inline_volume_spec)
#define KP__FIRST_SIZE_kp_volume_attachment_spec KP__SIZE_THROUGH(kp_volume_attachment_spec, node_name)
#define KP__FIRST_SIZE_kp_volume_attachment_status KP__SIZE_THROUGH(kp_volume_attachment_status, detach_error)
#define KP__FIRST_SIZE_kp_volume_error KP__SIZE_THROUGH(kp_volume_error, message)
#define KP__FIRST_SIZE_kp_volume_node_affinity KP__SIZE_THROUGH(kp_volume_node_affinity, required)
#define KP__FIRST_SIZE_kp_volume_node_resources KP__SIZE_THROUGH(kp_volume_node_resources, reserved)
#define KP__FIRST_SIZE_kp_weighted_pod_affinity_term KP__SIZE_THROUGH(kp_weighted_pod_affinity_term, term)

/* Every size-tagged public type, for tests: X(T) each. */
#define KP__SIZED_TYPES(X) \
	X(kp_affinity) \
	X(kp_allocator) \
	X(kp_budget) \
	X(kp_builder_problem) \
	X(kp_cloudprovider_ops) \
	X(kp_cluster_spec) \
	X(kp_condition) \
	X(kp_container) \
	X(kp_container_port) \
	X(kp_container_resources) \
	X(kp_container_status) \
	X(kp_convert_options) \
	X(kp_csi_node) \
	X(kp_csi_node_driver) \
	X(kp_csi_node_spec) \
	X(kp_csi_volume_source) \
	X(kp_daemonset) \
	X(kp_daemonset_spec) \
	X(kp_decode_options) \
	X(kp_decoded_object) \
	X(kp_disruption) \
	X(kp_disruption_options) \
	X(kp_drift) \
	X(kp_drift_options) \
	X(kp_emitter_options) \
	X(kp_ephemeral_volume_source) \
	X(kp_field_error) \
	X(kp_hash_options) \
	X(kp_instance) \
	X(kp_instance_type) \
	X(kp_instance_type_spec) \
	X(kp_lifecycle_options) \
	X(kp_namespace) \
	X(kp_node) \
	X(kp_node_affinity) \
	X(kp_node_class_reference) \
	X(kp_node_selector) \
	X(kp_node_selector_requirement) \
	X(kp_node_selector_term) \
	X(kp_node_spec) \
	X(kp_node_status) \
	X(kp_nodeclaim) \
	X(kp_nodeclaim_requirement) \
	X(kp_nodeclaim_resources) \
	X(kp_nodeclaim_spec) \
	X(kp_nodeclaim_status) \
	X(kp_nodeclaim_template) \
	X(kp_nodeclass_status) \
	X(kp_nodepool) \
	X(kp_nodepool_spec) \
	X(kp_nodepool_status) \
	X(kp_object_meta) \
	X(kp_object_reference) \
	X(kp_offering) \
	X(kp_offering_spec) \
	X(kp_owner_reference) \
	X(kp_pdb) \
	X(kp_pdb_spec) \
	X(kp_pdb_status) \
	X(kp_pod) \
	X(kp_pod_affinity) \
	X(kp_pod_affinity_term) \
	X(kp_pod_resources) \
	X(kp_pod_spec) \
	X(kp_pod_status) \
	X(kp_pod_template) \
	X(kp_preferred_scheduling_term) \
	X(kp_pv) \
	X(kp_pv_spec) \
	X(kp_pv_status) \
	X(kp_pvc) \
	X(kp_pvc_spec) \
	X(kp_pvc_status) \
	X(kp_pvc_template) \
	X(kp_pvc_volume_source) \
	X(kp_resource_requirements) \
	X(kp_sched_nodeclaim) \
	X(kp_sched_options) \
	X(kp_sched_placement) \
	X(kp_sched_reason) \
	X(kp_storage_class) \
	X(kp_template_metadata) \
	X(kp_topology_selector_requirement) \
	X(kp_topology_selector_term) \
	X(kp_topology_spread_constraint) \
	X(kp_validate_options) \
	X(kp_validation_rule) \
	X(kp_volume) \
	X(kp_volume_attachment) \
	X(kp_volume_attachment_source) \
	X(kp_volume_attachment_spec) \
	X(kp_volume_attachment_status) \
	X(kp_volume_error) \
	X(kp_volume_node_affinity) \
	X(kp_volume_node_resources) \
	X(kp_weighted_pod_affinity_term)

#endif /* KP_COMMON_SIZED_H */
