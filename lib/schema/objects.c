/*
 * The object model's descriptor tables (see schema.h) and the public
 * functions over them: kind names, copy and free.
 *
 * One table per Go type, one line per field, in Go declaration order, with
 * the upstream hash tags. Core Kubernetes types list only the fields the
 * library models. Upstream sources: kubernetes-sigs/karpenter pkg/apis/v1
 * (KWOKNodeClass lives in libkarpenter-kwok); k8s.io/api core/v1, apps/v1, policy/v1,
 * storage/v1; k8s.io/apimachinery meta/v1.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stddef.h>
#include <string.h>

#include <karpenter/nodeclaim.h>
#include <karpenter/nodepool.h>
#include <karpenter/objects.h>

#include "common/sized.h"
#include "schema.h"

#include "schema_tables.h"
#include "registry.h"

/* ------------------------------------------------------------------------ */
/* Enum tables                                                              */

#define ENUM_TABLE(name, ...) \
	static const kp__enum_entry name##_e[] = { __VA_ARGS__ }; \
	static const kp__enum name = { name##_e, N_(name##_e) }

/* A toleration's "" effect means every effect; a taint's effect is required,
 * so "" is the API server's `Unsupported value: ""` there (absent stays 0). */
ENUM_TABLE(taint_effect, { "NoSchedule", KP_TAINT_EFFECT_NO_SCHEDULE },
	   { "PreferNoSchedule", KP_TAINT_EFFECT_PREFER_NO_SCHEDULE },
	   { "NoExecute", KP_TAINT_EFFECT_NO_EXECUTE });
ENUM_TABLE(toleration_effect, { "", KP_TAINT_EFFECT_NONE },
	   { "NoSchedule", KP_TAINT_EFFECT_NO_SCHEDULE },
	   { "PreferNoSchedule", KP_TAINT_EFFECT_PREFER_NO_SCHEDULE },
	   { "NoExecute", KP_TAINT_EFFECT_NO_EXECUTE });
ENUM_TABLE(toleration_op, { "", KP_TOLERATION_OP_EQUAL }, { "Equal", KP_TOLERATION_OP_EQUAL },
	   { "Exists", KP_TOLERATION_OP_EXISTS }, { "Lt", KP_TOLERATION_OP_LT },
	   { "Gt", KP_TOLERATION_OP_GT });
ENUM_TABLE(label_selector_op, { "In", KP_LABEL_SELECTOR_OP_IN },
	   { "NotIn", KP_LABEL_SELECTOR_OP_NOT_IN }, { "Exists", KP_LABEL_SELECTOR_OP_EXISTS },
	   { "DoesNotExist", KP_LABEL_SELECTOR_OP_DOES_NOT_EXIST });
ENUM_TABLE(selector_op, { "In", KP_SELECTOR_OP_IN }, { "NotIn", KP_SELECTOR_OP_NOT_IN },
	   { "Exists", KP_SELECTOR_OP_EXISTS }, { "DoesNotExist", KP_SELECTOR_OP_DOES_NOT_EXIST },
	   { "Gt", KP_SELECTOR_OP_GT }, { "Lt", KP_SELECTOR_OP_LT }, { "Gte", KP_SELECTOR_OP_GTE },
	   { "Lte", KP_SELECTOR_OP_LTE });
ENUM_TABLE(consolidation_policy, { "WhenEmpty", KP_CONSOLIDATION_POLICY_WHEN_EMPTY },
	   { "WhenEmptyOrUnderutilized", KP_CONSOLIDATION_POLICY_WHEN_EMPTY_OR_UNDERUTILIZED },
	   { "Balanced", KP_CONSOLIDATION_POLICY_BALANCED });
ENUM_TABLE(when_unsatisfiable, { "DoNotSchedule", KP_WHEN_UNSATISFIABLE_DO_NOT_SCHEDULE },
	   { "ScheduleAnyway", KP_WHEN_UNSATISFIABLE_SCHEDULE_ANYWAY });
ENUM_TABLE(node_inclusion_policy, { "Honor", KP_NODE_INCLUSION_POLICY_HONOR },
	   { "Ignore", KP_NODE_INCLUSION_POLICY_IGNORE });
ENUM_TABLE(pod_phase, { "Pending", KP_POD_PHASE_PENDING }, { "Running", KP_POD_PHASE_RUNNING },
	   { "Succeeded", KP_POD_PHASE_SUCCEEDED }, { "Failed", KP_POD_PHASE_FAILED },
	   { "Unknown", KP_POD_PHASE_UNKNOWN });
ENUM_TABLE(volume_phase, { "Pending", KP_VOLUME_PHASE_PENDING }, { "Bound", KP_VOLUME_PHASE_BOUND },
	   { "Lost", KP_VOLUME_PHASE_LOST }, { "Available", KP_VOLUME_PHASE_AVAILABLE },
	   { "Released", KP_VOLUME_PHASE_RELEASED }, { "Failed", KP_VOLUME_PHASE_FAILED });
ENUM_TABLE(volume_binding_mode, { "Immediate", KP_VOLUME_BINDING_MODE_IMMEDIATE },
	   { "WaitForFirstConsumer", KP_VOLUME_BINDING_MODE_WAIT_FOR_FIRST_CONSUMER });
ENUM_TABLE(unhealthy_pod_eviction_policy,
	   { "IfHealthyBudget", KP_UNHEALTHY_POD_EVICTION_POLICY_IF_HEALTHY_BUDGET },
	   { "AlwaysAllow", KP_UNHEALTHY_POD_EVICTION_POLICY_ALWAYS_ALLOW });

/* ------------------------------------------------------------------------ */
/* meta/v1                                                                  */

#define S kp_owner_reference
static const kp__field t_owner_reference_f[] = {
	STR(api_version, "apiVersion", "APIVersion"),
	STR(kind, "kind", "Kind"),
	STR(name, "name", "Name"),
	STR(uid, "uid", "UID"),
	OPT_BOOL(controller, has_controller, "controller", "Controller"),
	OPT_BOOL(block_owner_deletion, has_block_owner_deletion, "blockOwnerDeletion",
		 "BlockOwnerDeletion"),
};
SIZED(t_owner_reference, "OwnerReference", S);
#undef S

#define S kp_object_meta
static const kp__field kp__type_object_meta_f[] = {
	STR(name, "name", "Name"),
	STR(generate_name, "generateName", "GenerateName"),
	STR(namespace_, "namespace", "Namespace"),
	IGNORED("selfLink", "SelfLink"),
	STR(uid, "uid", "UID"),
	STR(resource_version, "resourceVersion", "ResourceVersion"),
	I64(generation, "generation", "Generation"),
	TIME(creation_timestamp_ms, "creationTimestamp", "CreationTimestamp"),
	TIME(deletion_timestamp_ms, "deletionTimestamp", "DeletionTimestamp"),
	OPT_I64(deletion_grace_period_seconds, has_deletion_grace_period_seconds,
		"deletionGracePeriodSeconds", "DeletionGracePeriodSeconds"),
	MAP(labels, "labels", "Labels"),
	MAP(annotations, "annotations", "Annotations"),
	LIST(owner_references, n_owner_references, "ownerReferences", "OwnerReferences",
	     t_owner_reference),
	STRINGS(finalizers, n_finalizers, "finalizers", "Finalizers"),
	IGNORED("managedFields", "ManagedFields"),
};
PUBLIC(kp__type_object_meta, "ObjectMeta", S);
#undef S

#define S kp_condition
/* metav1.Condition (Karpenter's status.Condition aliases it). */
static const kp__field t_condition_f[] = {
	STR(type, "type", "Type"),
	STR(status, "status", "Status"),
	I64(observed_generation, "observedGeneration", "ObservedGeneration"),
	TIME(last_transition_time_ms, "lastTransitionTime", "LastTransitionTime"),
	STR(reason, "reason", "Reason"),
	STR(message, "message", "Message"),
};
SIZED(t_condition, "Condition", S);

static const kp__field t_node_condition_f[] = {
	STR(type, "type", "Type"),
	STR(status, "status", "Status"),
	TIME(last_heartbeat_time_ms, "lastHeartbeatTime", "LastHeartbeatTime"),
	TIME(last_transition_time_ms, "lastTransitionTime", "LastTransitionTime"),
	STR(reason, "reason", "Reason"),
	STR(message, "message", "Message"),
};
SIZED(t_node_condition, "NodeCondition", S);

static const kp__field t_pod_condition_f[] = {
	STR(type, "type", "Type"),
	I64(observed_generation, "observedGeneration", "ObservedGeneration"),
	STR(status, "status", "Status"),
	TIME(last_probe_time_ms, "lastProbeTime", "LastProbeTime"),
	TIME(last_transition_time_ms, "lastTransitionTime", "LastTransitionTime"),
	STR(reason, "reason", "Reason"),
	STR(message, "message", "Message"),
};
SIZED(t_pod_condition, "PodCondition", S);
#undef S

#define S kp_label_selector_requirement
static const kp__field t_label_selector_requirement_f[] = {
	STR(key, "key", "Key"),
	CODE(op, "operator", "Operator", label_selector_op),
	STRINGS(values, n_values, "values", "Values"),
};
FIXED(t_label_selector_requirement, "LabelSelectorRequirement", S);
#undef S

#define S kp_label_selector
static const kp__field t_label_selector_f[] = {
	MAP(match_labels, "matchLabels", "MatchLabels"),
	VALUES(match_expressions, n_match_expressions, "matchExpressions", "MatchExpressions",
	       t_label_selector_requirement),
};
FIXED(t_label_selector, "LabelSelector", S);
#undef S

/* ------------------------------------------------------------------------ */
/* core/v1 shared                                                           */

#define S kp_taint
static const kp__field t_taint_f[] = {
	STR(key, "key", "Key"),
	STR(value, "value", "Value"),
	CODE(effect, "effect", "Effect", taint_effect),
	F_(KP__FK_TIME, OFF(time_added_ms), 0, "timeAdded", "TimeAdded", NULL, NULL, KP__FF_GO_PTR,
	   0), /* *metav1.Time */
};
FIXED(t_taint, "Taint", S);
#undef S

#define S kp_toleration
static const kp__field t_toleration_f[] = {
	STR(key, "key", "Key"),
	CODE(op, "operator", "Operator", toleration_op),
	STR(value, "value", "Value"),
	CODE(effect, "effect", "Effect", toleration_effect),
	OPT_I64(toleration_seconds, has_toleration_seconds, "tolerationSeconds", "TolerationSeconds"),
};
FIXED(t_toleration, "Toleration", S);
#undef S

#define S kp_resource_requirements
static const kp__field t_resource_requirements_f[] = {
	RESOURCES(limits, "limits", "Limits"),
	RESOURCES(requests, "requests", "Requests"),
};
SIZED(t_resource_requirements, "ResourceRequirements", S);
/* PersistentVolumeClaimSpec.resources is VolumeResourceRequirements. */
#define t_volume_resource_requirements_f t_resource_requirements_f
SIZED(t_volume_resource_requirements, "VolumeResourceRequirements", S);
#undef S

#define S kp_node_selector_requirement
static const kp__field t_node_selector_requirement_f[] = {
	STR(key, "key", "Key"),
	CODE(op, "operator", "Operator", selector_op),
	STRINGS(values, n_values, "values", "Values"),
};
SIZED(t_node_selector_requirement, "NodeSelectorRequirement", S);
#undef S

#define S kp_node_selector_term
static const kp__field t_node_selector_term_f[] = {
	LIST(match_expressions, n_match_expressions, "matchExpressions", "MatchExpressions",
	     t_node_selector_requirement),
	LIST(match_fields, n_match_fields, "matchFields", "MatchFields", t_node_selector_requirement),
};
SIZED(t_node_selector_term, "NodeSelectorTerm", S);
#undef S

#define S kp_node_selector
static const kp__field t_node_selector_f[] = {
	LIST(terms, n_terms, "nodeSelectorTerms", "NodeSelectorTerms", t_node_selector_term),
};
SIZED(t_node_selector, "NodeSelector", S);
#undef S

/* ------------------------------------------------------------------------ */
/* Pod                                                                      */

#define S kp_container_port
static const kp__field t_container_port_f[] = {
	STR(name, "name", "Name"),
	I32(host_port, "hostPort", "HostPort"),
	I32(container_port, "containerPort", "ContainerPort"),
	STR(protocol, "protocol", "Protocol"),
	STR(host_ip, "hostIP", "HostIP"),
};
SIZED(t_container_port, "ContainerPort", S);
#undef S

#define S kp_container
static const kp__field t_container_f[] = {
	STR(name, "name", "Name"),
	STR(image, "image", "Image"),
	LIST(ports, n_ports, "ports", "Ports", t_container_port),
	STRUCT(resources, "resources", "Resources", t_resource_requirements),
	STR(restart_policy, "restartPolicy", "RestartPolicy"),
};
SIZED(t_container, "Container", S);
#undef S

#define S kp_preferred_scheduling_term
static const kp__field t_preferred_scheduling_term_f[] = {
	I32(weight, "weight", "Weight"),
	STRUCT(preference, "preference", "Preference", t_node_selector_term),
};
SIZED(t_preferred_scheduling_term, "PreferredSchedulingTerm", S);
#undef S

#define S kp_node_affinity
static const kp__field t_node_affinity_f[] = {
	STRUCT(required, "requiredDuringSchedulingIgnoredDuringExecution",
	       "RequiredDuringSchedulingIgnoredDuringExecution", t_node_selector),
	LIST(preferred, n_preferred, "preferredDuringSchedulingIgnoredDuringExecution",
	     "PreferredDuringSchedulingIgnoredDuringExecution", t_preferred_scheduling_term),
};
SIZED(t_node_affinity, "NodeAffinity", S);
#undef S

#define S kp_pod_affinity_term
static const kp__field t_pod_affinity_term_f[] = {
	STRUCT(label_selector, "labelSelector", "LabelSelector", t_label_selector),
	STRINGS(namespaces, n_namespaces, "namespaces", "Namespaces"),
	STR(topology_key, "topologyKey", "TopologyKey"),
	STRUCT(namespace_selector, "namespaceSelector", "NamespaceSelector", t_label_selector),
	STRINGS(match_label_keys, n_match_label_keys, "matchLabelKeys", "MatchLabelKeys"),
	STRINGS(mismatch_label_keys, n_mismatch_label_keys, "mismatchLabelKeys", "MismatchLabelKeys"),
};
SIZED(t_pod_affinity_term, "PodAffinityTerm", S);
#undef S

#define S kp_weighted_pod_affinity_term
static const kp__field t_weighted_pod_affinity_term_f[] = {
	I32(weight, "weight", "Weight"),
	STRUCT(term, "podAffinityTerm", "PodAffinityTerm", t_pod_affinity_term),
};
SIZED(t_weighted_pod_affinity_term, "WeightedPodAffinityTerm", S);
#undef S

#define S kp_pod_affinity
static const kp__field t_pod_affinity_f[] = {
	LIST(required, n_required, "requiredDuringSchedulingIgnoredDuringExecution",
	     "RequiredDuringSchedulingIgnoredDuringExecution", t_pod_affinity_term),
	LIST(preferred, n_preferred, "preferredDuringSchedulingIgnoredDuringExecution",
	     "PreferredDuringSchedulingIgnoredDuringExecution", t_weighted_pod_affinity_term),
};
SIZED(t_pod_affinity, "PodAffinity", S);
#undef S

#define S kp_affinity
static const kp__field t_affinity_f[] = {
	STRUCT(node_affinity, "nodeAffinity", "NodeAffinity", t_node_affinity),
	STRUCT(pod_affinity, "podAffinity", "PodAffinity", t_pod_affinity),
	STRUCT(pod_anti_affinity, "podAntiAffinity", "PodAntiAffinity", t_pod_affinity),
};
SIZED(t_affinity, "Affinity", S);
#undef S

#define S kp_topology_spread_constraint
static const kp__field t_topology_spread_constraint_f[] = {
	I32(max_skew, "maxSkew", "MaxSkew"),
	STR(topology_key, "topologyKey", "TopologyKey"),
	ENUMS(when_unsatisfiable, when_unsatisfiable_code, "whenUnsatisfiable", "WhenUnsatisfiable",
	      when_unsatisfiable),
	STRUCT(label_selector, "labelSelector", "LabelSelector", t_label_selector),
	OPT_I32(min_domains, has_min_domains, "minDomains", "MinDomains"),
	ENUMS(node_affinity_policy, node_affinity_policy_code, "nodeAffinityPolicy",
	      "NodeAffinityPolicy", node_inclusion_policy),
	ENUMS(node_taints_policy, node_taints_policy_code, "nodeTaintsPolicy", "NodeTaintsPolicy",
	      node_inclusion_policy),
	STRINGS(match_label_keys, n_match_label_keys, "matchLabelKeys", "MatchLabelKeys"),
};
SIZED(t_topology_spread_constraint, "TopologySpreadConstraint", S);
#undef S

#define S kp_pvc_volume_source
static const kp__field t_pvc_volume_source_f[] = {
	STR(claim_name, "claimName", "ClaimName"),
	BOOL(read_only, "readOnly", "ReadOnly"),
};
SIZED(t_pvc_volume_source, "PersistentVolumeClaimVolumeSource", S);
#undef S

static const kp__type t_pvc_spec;

#define S kp_pvc_template
static const kp__field t_pvc_template_f[] = {
	STRUCT(metadata, "metadata", "ObjectMeta", kp__type_object_meta),
	STRUCT(spec, "spec", "Spec", t_pvc_spec),
};
SIZED(t_pvc_template, "PersistentVolumeClaimTemplate", S);
#undef S

#define S kp_ephemeral_volume_source
static const kp__field t_ephemeral_volume_source_f[] = {
	STRUCT(volume_claim_template, "volumeClaimTemplate", "VolumeClaimTemplate", t_pvc_template),
};
SIZED(t_ephemeral_volume_source, "EphemeralVolumeSource", S);
#undef S

#define S kp_csi_volume_source
static const kp__field t_csi_volume_source_f[] = {
	STR(driver, "driver", "Driver"),
	BOOL(read_only, "readOnly", "ReadOnly"),
	STR(fs_type, "fsType", "FSType"),
};
SIZED(t_csi_volume_source, "CSIVolumeSource", S);

static const kp__field t_csi_pv_source_f[] = {
	STR(driver, "driver", "Driver"),
	STR(volume_handle, "volumeHandle", "VolumeHandle"),
	BOOL(read_only, "readOnly", "ReadOnly"),
	STR(fs_type, "fsType", "FSType"),
};
SIZED(t_csi_pv_source, "CSIPersistentVolumeSource", S);
#undef S

#define S kp_volume
static const kp__field t_volume_f[] = {
	STR(name, "name", "Name"),
	/* VolumeSource, inlined */
	TAG("hostPath", "HostPath", KP_VOLUME_SOURCE_HOST_PATH),
	TAG("emptyDir", "EmptyDir", KP_VOLUME_SOURCE_EMPTY_DIR),
	TAG("gcePersistentDisk", "GCEPersistentDisk", KP_VOLUME_SOURCE_GCE_PERSISTENT_DISK),
	TAG("awsElasticBlockStore", "AWSElasticBlockStore", KP_VOLUME_SOURCE_AWS_ELASTIC_BLOCK_STORE),
	TAG("gitRepo", "GitRepo", KP_VOLUME_SOURCE_OTHER),
	TAG("secret", "Secret", KP_VOLUME_SOURCE_SECRET),
	TAG("nfs", "NFS", KP_VOLUME_SOURCE_NFS),
	TAG("iscsi", "ISCSI", KP_VOLUME_SOURCE_OTHER),
	TAG("glusterfs", "Glusterfs", KP_VOLUME_SOURCE_OTHER),
	SOURCE(persistent_volume_claim, "persistentVolumeClaim", "PersistentVolumeClaim",
	       t_pvc_volume_source, KP_VOLUME_SOURCE_PERSISTENT_VOLUME_CLAIM),
	TAG("rbd", "RBD", KP_VOLUME_SOURCE_OTHER),
	TAG("flexVolume", "FlexVolume", KP_VOLUME_SOURCE_OTHER),
	TAG("cinder", "Cinder", KP_VOLUME_SOURCE_OTHER),
	TAG("cephfs", "CephFS", KP_VOLUME_SOURCE_OTHER),
	TAG("flocker", "Flocker", KP_VOLUME_SOURCE_OTHER),
	TAG("downwardAPI", "DownwardAPI", KP_VOLUME_SOURCE_DOWNWARD_API),
	TAG("fc", "FC", KP_VOLUME_SOURCE_OTHER),
	TAG("azureFile", "AzureFile", KP_VOLUME_SOURCE_OTHER),
	TAG("configMap", "ConfigMap", KP_VOLUME_SOURCE_CONFIG_MAP),
	TAG("vsphereVolume", "VsphereVolume", KP_VOLUME_SOURCE_OTHER),
	TAG("quobyte", "Quobyte", KP_VOLUME_SOURCE_OTHER),
	TAG("azureDisk", "AzureDisk", KP_VOLUME_SOURCE_AZURE_DISK),
	TAG("photonPersistentDisk", "PhotonPersistentDisk", KP_VOLUME_SOURCE_OTHER),
	TAG("projected", "Projected", KP_VOLUME_SOURCE_PROJECTED),
	TAG("portworxVolume", "PortworxVolume", KP_VOLUME_SOURCE_OTHER),
	TAG("scaleIO", "ScaleIO", KP_VOLUME_SOURCE_OTHER),
	TAG("storageos", "StorageOS", KP_VOLUME_SOURCE_OTHER),
	SOURCE(csi, "csi", "CSI", t_csi_volume_source, KP_VOLUME_SOURCE_CSI),
	SOURCE(ephemeral, "ephemeral", "Ephemeral", t_ephemeral_volume_source,
	       KP_VOLUME_SOURCE_EPHEMERAL),
	TAG("image", "Image", KP_VOLUME_SOURCE_IMAGE),
	OTHER_SOURCE(other_source),
};
TAGGED(t_volume, "Volume", S, source);
#undef S

#define S kp_pod_spec
static const kp__field t_pod_spec_f[] = {
	LIST(volumes, n_volumes, "volumes", "Volumes", t_volume),
	LIST(init_containers, n_init_containers, "initContainers", "InitContainers", t_container),
	LIST(containers, n_containers, "containers", "Containers", t_container),
	STR(restart_policy, "restartPolicy", "RestartPolicy"),
	OPT_I64(termination_grace_period_seconds, has_termination_grace_period_seconds,
		"terminationGracePeriodSeconds", "TerminationGracePeriodSeconds"),
	MAP(node_selector, "nodeSelector", "NodeSelector"),
	STR(service_account_name, "serviceAccountName", "ServiceAccountName"),
	STR(node_name, "nodeName", "NodeName"),
	STRUCT(affinity, "affinity", "Affinity", t_affinity),
	STR(scheduler_name, "schedulerName", "SchedulerName"),
	VALUES(tolerations, n_tolerations, "tolerations", "Tolerations", t_toleration),
	STR(priority_class_name, "priorityClassName", "PriorityClassName"),
	OPT_I32(priority, has_priority, "priority", "Priority"),
	STR(preemption_policy, "preemptionPolicy", "PreemptionPolicy"),
	RESOURCES(overhead, "overhead", "Overhead"),
	LIST(topology_spread_constraints, n_topology_spread_constraints, "topologySpreadConstraints",
	     "TopologySpreadConstraints", t_topology_spread_constraint),
	STRUCT(resources, "resources", "Resources", t_resource_requirements),
};
SIZED(t_pod_spec, "PodSpec", S);
#undef S

#define S kp_container_status
static const kp__field t_container_status_f[] = {
	STR(name, "name", "Name"),
	RESOURCES(allocated_resources, "allocatedResources", "AllocatedResources"),
	STRUCT(resources, "resources", "Resources", t_resource_requirements),
};
SIZED(t_container_status, "ContainerStatus", S);
#undef S

#define S kp_pod_status
static const kp__field t_pod_status_f[] = {
	ENUMS(phase, phase_code, "phase", "Phase", pod_phase),
	LIST(conditions, n_conditions, "conditions", "Conditions", t_pod_condition),
	STR(reason, "reason", "Reason"),
	STR(nominated_node_name, "nominatedNodeName", "NominatedNodeName"),
	TIME(start_time_ms, "startTime", "StartTime"),
	LIST(init_container_statuses, n_init_container_statuses, "initContainerStatuses",
	     "InitContainerStatuses", t_container_status),
	LIST(container_statuses, n_container_statuses, "containerStatuses", "ContainerStatuses",
	     t_container_status),
};
SIZED(t_pod_status, "PodStatus", S);
#undef S

#define S kp_pod
static const kp__field kp__type_pod_f[] = {
	API_VERSION(api_version),
	KIND(kind),
	STRUCT(metadata, "metadata", "ObjectMeta", kp__type_object_meta),
	STRUCT(spec, "spec", "Spec", t_pod_spec),
	STRUCT(status, "status", "Status", t_pod_status),
};
PUBLIC(kp__type_pod, "Pod", S);
#undef S

/* ------------------------------------------------------------------------ */
/* Node                                                                     */

#define S kp_node_spec
static const kp__field t_node_spec_f[] = {
	STR(provider_id, "providerID", "ProviderID"),
	BOOL(unschedulable, "unschedulable", "Unschedulable"),
	VALUES(taints, n_taints, "taints", "Taints", t_taint),
};
SIZED(t_node_spec, "NodeSpec", S);
#undef S

#define S kp_node_status
static const kp__field t_node_status_f[] = {
	RESOURCES(capacity, "capacity", "Capacity"),
	RESOURCES(allocatable, "allocatable", "Allocatable"),
	LIST(conditions, n_conditions, "conditions", "Conditions", t_node_condition),
};
SIZED(t_node_status, "NodeStatus", S);
#undef S

#define S kp_node
static const kp__field kp__type_node_f[] = {
	API_VERSION(api_version),
	KIND(kind),
	STRUCT(metadata, "metadata", "ObjectMeta", kp__type_object_meta),
	STRUCT(spec, "spec", "Spec", t_node_spec),
	STRUCT(status, "status", "Status", t_node_status),
};
PUBLIC(kp__type_node, "Node", S);
#undef S

/* ------------------------------------------------------------------------ */
/* DaemonSet                                                                */

#define S kp_pod_template
static const kp__field t_pod_template_f[] = {
	STRUCT(metadata, "metadata", "ObjectMeta", kp__type_object_meta),
	STRUCT(spec, "spec", "Spec", t_pod_spec),
};
SIZED(t_pod_template, "PodTemplateSpec", S);
#undef S

#define S kp_daemonset_spec
static const kp__field t_daemonset_spec_f[] = {
	STRUCT(selector, "selector", "Selector", t_label_selector),
	STRUCT(template_, "template", "Template", t_pod_template),
};
SIZED(t_daemonset_spec, "DaemonSetSpec", S);
#undef S

#define S kp_daemonset
static const kp__field kp__type_daemonset_f[] = {
	API_VERSION(api_version),
	KIND(kind),
	STRUCT(metadata, "metadata", "ObjectMeta", kp__type_object_meta),
	STRUCT(spec, "spec", "Spec", t_daemonset_spec),
};
PUBLIC(kp__type_daemonset, "DaemonSet", S);
#undef S

/* ------------------------------------------------------------------------ */
/* PodDisruptionBudget                                                      */

#define S kp_pdb_spec
static const kp__field t_pdb_spec_f[] = {
	INT_OR_STRING(min_available, "minAvailable", "MinAvailable"),
	STRUCT(selector, "selector", "Selector", t_label_selector),
	INT_OR_STRING(max_unavailable, "maxUnavailable", "MaxUnavailable"),
	ENUMS(unhealthy_pod_eviction_policy, unhealthy_pod_eviction_policy_code,
	      "unhealthyPodEvictionPolicy", "UnhealthyPodEvictionPolicy",
	      unhealthy_pod_eviction_policy),
};
SIZED(t_pdb_spec, "PodDisruptionBudgetSpec", S);
#undef S

#define S kp_pdb_status
static const kp__field t_pdb_status_f[] = {
	I64(observed_generation, "observedGeneration", "ObservedGeneration"),
	IGNORED("disruptedPods", "DisruptedPods"),
	I32(disruptions_allowed, "disruptionsAllowed", "DisruptionsAllowed"),
	I32(current_healthy, "currentHealthy", "CurrentHealthy"),
	I32(desired_healthy, "desiredHealthy", "DesiredHealthy"),
	I32(expected_pods, "expectedPods", "ExpectedPods"),
	LIST(conditions, n_conditions, "conditions", "Conditions", t_condition),
};
SIZED(t_pdb_status, "PodDisruptionBudgetStatus", S);
#undef S

#define S kp_pdb
static const kp__field kp__type_pdb_f[] = {
	API_VERSION(api_version),
	KIND(kind),
	STRUCT(metadata, "metadata", "ObjectMeta", kp__type_object_meta),
	STRUCT(spec, "spec", "Spec", t_pdb_spec),
	STRUCT(status, "status", "Status", t_pdb_status),
};
PUBLIC(kp__type_pdb, "PodDisruptionBudget", S);
#undef S

/* ------------------------------------------------------------------------ */
/* PersistentVolumeClaim, PersistentVolume                                   */

#define S kp_pvc_spec
static const kp__field t_pvc_spec_f[] = {
	STRINGS(access_modes, n_access_modes, "accessModes", "AccessModes"),
	STRUCT(selector, "selector", "Selector", t_label_selector),
	STRUCT(resources, "resources", "Resources", t_volume_resource_requirements),
	STR(volume_name, "volumeName", "VolumeName"),
	STR(storage_class_name, "storageClassName", "StorageClassName"),
	STR(volume_mode, "volumeMode", "VolumeMode"),
};
SIZED(t_pvc_spec, "PersistentVolumeClaimSpec", S);
#undef S

#define S kp_pvc_status
static const kp__field t_pvc_status_f[] = {
	ENUMS(phase, phase_code, "phase", "Phase", volume_phase),
	STRINGS(access_modes, n_access_modes, "accessModes", "AccessModes"),
	RESOURCES(capacity, "capacity", "Capacity"),
};
SIZED(t_pvc_status, "PersistentVolumeClaimStatus", S);
#undef S

#define S kp_pvc
static const kp__field kp__type_pvc_f[] = {
	API_VERSION(api_version),
	KIND(kind),
	STRUCT(metadata, "metadata", "ObjectMeta", kp__type_object_meta),
	STRUCT(spec, "spec", "Spec", t_pvc_spec),
	STRUCT(status, "status", "Status", t_pvc_status),
};
PUBLIC(kp__type_pvc, "PersistentVolumeClaim", S);
#undef S

#define S kp_object_reference
static const kp__field t_object_reference_f[] = {
	STR(kind, "kind", "Kind"),
	STR(namespace_, "namespace", "Namespace"),
	STR(name, "name", "Name"),
	STR(uid, "uid", "UID"),
	STR(api_version, "apiVersion", "APIVersion"),
	STR(resource_version, "resourceVersion", "ResourceVersion"),
	IGNORED("fieldPath", "FieldPath"),
};
SIZED(t_object_reference, "ObjectReference", S);
#undef S

#define S kp_volume_node_affinity
static const kp__field t_volume_node_affinity_f[] = {
	STRUCT(required, "required", "Required", t_node_selector),
};
SIZED(t_volume_node_affinity, "VolumeNodeAffinity", S);
#undef S

#define S kp_pv_spec
static const kp__field t_pv_spec_f[] = {
	RESOURCES(capacity, "capacity", "Capacity"),
	/* PersistentVolumeSource, inlined */
	TAG("gcePersistentDisk", "GCEPersistentDisk", KP_VOLUME_SOURCE_GCE_PERSISTENT_DISK),
	TAG("awsElasticBlockStore", "AWSElasticBlockStore", KP_VOLUME_SOURCE_AWS_ELASTIC_BLOCK_STORE),
	TAG("hostPath", "HostPath", KP_VOLUME_SOURCE_HOST_PATH),
	TAG("glusterfs", "Glusterfs", KP_VOLUME_SOURCE_OTHER),
	TAG("nfs", "NFS", KP_VOLUME_SOURCE_NFS),
	TAG("rbd", "RBD", KP_VOLUME_SOURCE_OTHER),
	TAG("iscsi", "ISCSI", KP_VOLUME_SOURCE_OTHER),
	TAG("cinder", "Cinder", KP_VOLUME_SOURCE_OTHER),
	TAG("cephfs", "CephFS", KP_VOLUME_SOURCE_OTHER),
	TAG("fc", "FC", KP_VOLUME_SOURCE_OTHER),
	TAG("flocker", "Flocker", KP_VOLUME_SOURCE_OTHER),
	TAG("flexVolume", "FlexVolume", KP_VOLUME_SOURCE_OTHER),
	TAG("azureFile", "AzureFile", KP_VOLUME_SOURCE_OTHER),
	TAG("vsphereVolume", "VsphereVolume", KP_VOLUME_SOURCE_OTHER),
	TAG("quobyte", "Quobyte", KP_VOLUME_SOURCE_OTHER),
	TAG("azureDisk", "AzureDisk", KP_VOLUME_SOURCE_AZURE_DISK),
	TAG("photonPersistentDisk", "PhotonPersistentDisk", KP_VOLUME_SOURCE_OTHER),
	TAG("portworxVolume", "PortworxVolume", KP_VOLUME_SOURCE_OTHER),
	TAG("scaleIO", "ScaleIO", KP_VOLUME_SOURCE_OTHER),
	TAG("local", "Local", KP_VOLUME_SOURCE_OTHER),
	TAG("storageos", "StorageOS", KP_VOLUME_SOURCE_OTHER),
	SOURCE(csi, "csi", "CSI", t_csi_pv_source, KP_VOLUME_SOURCE_CSI),
	STRINGS(access_modes, n_access_modes, "accessModes", "AccessModes"),
	STRUCT(claim_ref, "claimRef", "ClaimRef", t_object_reference),
	STR(persistent_volume_reclaim_policy, "persistentVolumeReclaimPolicy",
	    "PersistentVolumeReclaimPolicy"),
	STR(storage_class_name, "storageClassName", "StorageClassName"),
	STR(volume_mode, "volumeMode", "VolumeMode"),
	STRUCT(node_affinity, "nodeAffinity", "NodeAffinity", t_volume_node_affinity),
	OTHER_SOURCE(other_source),
};
TAGGED(t_pv_spec, "PersistentVolumeSpec", S, source);
#undef S

#define S kp_pv_status
static const kp__field t_pv_status_f[] = {
	ENUMS(phase, phase_code, "phase", "Phase", volume_phase),
};
SIZED(t_pv_status, "PersistentVolumeStatus", S);
#undef S

#define S kp_pv
static const kp__field kp__type_pv_f[] = {
	API_VERSION(api_version),
	KIND(kind),
	STRUCT(metadata, "metadata", "ObjectMeta", kp__type_object_meta),
	STRUCT(spec, "spec", "Spec", t_pv_spec),
	STRUCT(status, "status", "Status", t_pv_status),
};
PUBLIC(kp__type_pv, "PersistentVolume", S);
#undef S

/* ------------------------------------------------------------------------ */
/* StorageClass, CSINode                                                    */

#define S kp_topology_selector_requirement
static const kp__field t_topology_selector_requirement_f[] = {
	STR(key, "key", "Key"),
	STRINGS(values, n_values, "values", "Values"),
};
SIZED(t_topology_selector_requirement, "TopologySelectorLabelRequirement", S);
#undef S

#define S kp_topology_selector_term
static const kp__field t_topology_selector_term_f[] = {
	LIST(match_label_expressions, n_match_label_expressions, "matchLabelExpressions",
	     "MatchLabelExpressions", t_topology_selector_requirement),
};
SIZED(t_topology_selector_term, "TopologySelectorTerm", S);
#undef S

#define S kp_storage_class
static const kp__field kp__type_storage_class_f[] = {
	API_VERSION(api_version),
	KIND(kind),
	STRUCT(metadata, "metadata", "ObjectMeta", kp__type_object_meta),
	STR(provisioner, "provisioner", "Provisioner"),
	MAP(parameters, "parameters", "Parameters"),
	STR(reclaim_policy, "reclaimPolicy", "ReclaimPolicy"),
	IGNORED("mountOptions", "MountOptions"),
	OPT_BOOL(allow_volume_expansion, has_allow_volume_expansion, "allowVolumeExpansion",
		 "AllowVolumeExpansion"),
	ENUMS(volume_binding_mode, volume_binding_mode_code, "volumeBindingMode", "VolumeBindingMode",
	      volume_binding_mode),
	LIST(allowed_topologies, n_allowed_topologies, "allowedTopologies", "AllowedTopologies",
	     t_topology_selector_term),
};
PUBLIC(kp__type_storage_class, "StorageClass", S);
#undef S

#define S kp_volume_node_resources
static const kp__field t_volume_node_resources_f[] = {
	OPT_I32(count, has_count, "count", "Count"),
};
SIZED(t_volume_node_resources, "VolumeNodeResources", S);
#undef S

#define S kp_csi_node_driver
static const kp__field t_csi_node_driver_f[] = {
	STR(name, "name", "Name"),
	STR(node_id, "nodeID", "NodeID"),
	STRINGS(topology_keys, n_topology_keys, "topologyKeys", "TopologyKeys"),
	STRUCT(allocatable, "allocatable", "Allocatable", t_volume_node_resources),
};
SIZED(t_csi_node_driver, "CSINodeDriver", S);
#undef S

#define S kp_csi_node_spec
static const kp__field t_csi_node_spec_f[] = {
	LIST(drivers, n_drivers, "drivers", "Drivers", t_csi_node_driver),
};
SIZED(t_csi_node_spec, "CSINodeSpec", S);
#undef S

#define S kp_csi_node
static const kp__field kp__type_csi_node_f[] = {
	API_VERSION(api_version),
	KIND(kind),
	STRUCT(metadata, "metadata", "ObjectMeta", kp__type_object_meta),
	STRUCT(spec, "spec", "Spec", t_csi_node_spec),
};
PUBLIC(kp__type_csi_node, "CSINode", S);
#undef S

/* v1 Namespace: metadata only (spec.finalizers and status.phase are not
 * modelled; decoding ignores them like any unknown field of a core kind). */
#define S kp_namespace
static const kp__field kp__type_namespace_f[] = {
	API_VERSION(api_version),
	KIND(kind),
	STRUCT(metadata, "metadata", "ObjectMeta", kp__type_object_meta),
};
PUBLIC(kp__type_namespace, "Namespace", S);
#undef S

/* ------------------------------------------------------------------------ */
/* VolumeAttachment                                                         */

/* inlineVolumeSpec (a whole PersistentVolumeSpec) is kept as JSON text. */
#define JSON_(m, j, g) F_(KP__FK_JSON, OFF(m), 0, j, g, NULL, NULL, KP__FF_GO_PTR, 0)

#define S kp_volume_attachment_source
static const kp__field t_volume_attachment_source_f[] = {
	F_(KP__FK_STRING, OFF(persistent_volume_name), 0, "persistentVolumeName",
	   "PersistentVolumeName", NULL, NULL, KP__FF_GO_PTR, 0),
	JSON_(inline_volume_spec, "inlineVolumeSpec", "InlineVolumeSpec"),
};
SIZED(t_volume_attachment_source, "VolumeAttachmentSource", S);
#undef S
#undef JSON_

#define S kp_volume_attachment_spec
static const kp__field t_volume_attachment_spec_f[] = {
	STR(attacher, "attacher", "Attacher"),
	STRUCT(source, "source", "Source", t_volume_attachment_source),
	STR(node_name, "nodeName", "NodeName"),
};
SIZED(t_volume_attachment_spec, "VolumeAttachmentSpec", S);
#undef S

#define S kp_volume_error
static const kp__field t_volume_error_f[] = {
	TIME(time_ms, "time", "Time"),
	STR(message, "message", "Message"),
};
SIZED(t_volume_error, "VolumeError", S);
#undef S

#define S kp_volume_attachment_status
static const kp__field t_volume_attachment_status_f[] = {
	BOOL(attached, "attached", "Attached"),
	MAP(attachment_metadata, "attachmentMetadata", "AttachmentMetadata"),
	STRUCT(attach_error, "attachError", "AttachError", t_volume_error),
	STRUCT(detach_error, "detachError", "DetachError", t_volume_error),
};
SIZED(t_volume_attachment_status, "VolumeAttachmentStatus", S);
#undef S

#define S kp_volume_attachment
static const kp__field kp__type_volume_attachment_f[] = {
	API_VERSION(api_version),
	KIND(kind),
	STRUCT(metadata, "metadata", "ObjectMeta", kp__type_object_meta),
	STRUCT(spec, "spec", "Spec", t_volume_attachment_spec),
	STRUCT(status, "status", "Status", t_volume_attachment_status),
};
PUBLIC(kp__type_volume_attachment, "VolumeAttachment", S);
#undef S

/* ------------------------------------------------------------------------ */
/* karpenter.sh/v1                                                          */

#define S kp_node_class_reference
static const kp__field t_node_class_reference_f[] = {
	STR(kind, "kind", "Kind"),
	STR(name, "name", "Name"),
	STR(group, "group", "Group"),
};
SIZED(t_node_class_reference, "NodeClassReference", S);
#undef S

#define S kp_nodeclaim_requirement
static const kp__field t_nodeclaim_requirement_f[] = {
	STR(key, "key", "Key"),
	ENUMS(operator_name, op, "operator", "Operator", selector_op),
	STRINGS(values, n_values, "values", "Values"),
	OPT_I64(min_values, has_min_values, "minValues", "MinValues"),
};
SIZED(t_nodeclaim_requirement, "NodeSelectorRequirementWithMinValues", S);
#undef S

#define S kp_nodeclaim_resources
static const kp__field t_nodeclaim_resources_f[] = {
	RESOURCES(requests, "requests", "Requests"),
};
SIZED(t_nodeclaim_resources, "ResourceRequirements", S);
#undef S

#define S kp_nodeclaim_spec
static const kp__field t_nodeclaim_spec_f[] = {
	VALUES(taints, n_taints, "taints", "Taints", t_taint),
	VALUES(startup_taints, n_startup_taints, "startupTaints", "StartupTaints", t_taint),
	F_(KP__FK_LIST, OFF(requirements), OFF(n_requirements), "requirements", "Requirements",
	   &t_nodeclaim_requirement, NULL, KP__FF_HASH_IGNORE, 0),
	F_(KP__FK_STRUCT, OFF(resources), 0, "resources", "Resources", &t_nodeclaim_resources, NULL,
	   KP__FF_HASH_IGNORE, 0),
	F_(KP__FK_STRUCT, OFF(node_class_ref), 0, "nodeClassRef", "NodeClassRef",
	   &t_node_class_reference, NULL, KP__FF_GO_PTR, 0), /* *NodeClassReference */
	F_(KP__FK_DURATION, OFF(termination_grace_period), 0, "terminationGracePeriod",
	   "TerminationGracePeriod", NULL, NULL, KP__FF_GO_PTR, 0), /* *metav1.Duration */
	NILLABLE_DURATION(expire_after, "expireAfter", "ExpireAfter"),
};
SIZED(t_nodeclaim_spec, "NodeClaimSpec", S);

/* NodeClaimTemplateSpec: NodeClaimSpec without resources. */
static const kp__field t_nodeclaim_template_spec_f[] = {
	VALUES(taints, n_taints, "taints", "Taints", t_taint),
	VALUES(startup_taints, n_startup_taints, "startupTaints", "StartupTaints", t_taint),
	F_(KP__FK_LIST, OFF(requirements), OFF(n_requirements), "requirements", "Requirements",
	   &t_nodeclaim_requirement, NULL, KP__FF_HASH_IGNORE, 0),
	F_(KP__FK_STRUCT, OFF(node_class_ref), 0, "nodeClassRef", "NodeClassRef",
	   &t_node_class_reference, NULL, KP__FF_GO_PTR, 0), /* *NodeClassReference */
	F_(KP__FK_DURATION, OFF(termination_grace_period), 0, "terminationGracePeriod",
	   "TerminationGracePeriod", NULL, NULL, KP__FF_GO_PTR, 0), /* *metav1.Duration */
	NILLABLE_DURATION(expire_after, "expireAfter", "ExpireAfter"),
};
SIZED(t_nodeclaim_template_spec, "NodeClaimTemplateSpec", S);
#undef S

#define S kp_nodeclaim_status
static const kp__field t_nodeclaim_status_f[] = {
	STR(node_name, "nodeName", "NodeName"),
	STR(provider_id, "providerID", "ProviderID"),
	STR(image_id, "imageID", "ImageID"),
	RESOURCES(capacity, "capacity", "Capacity"),
	RESOURCES(allocatable, "allocatable", "Allocatable"),
	LIST(conditions, n_conditions, "conditions", "Conditions", t_condition),
	TIME(last_pod_event_time_ms, "lastPodEventTime", "LastPodEventTime"),
};
SIZED(t_nodeclaim_status, "NodeClaimStatus", S);
#undef S

#define S kp_nodeclaim
static const kp__field kp__type_nodeclaim_f[] = {
	API_VERSION(api_version),
	KIND(kind),
	STRUCT(metadata, "metadata", "ObjectMeta", kp__type_object_meta),
	STRUCT(spec, "spec", "Spec", t_nodeclaim_spec),
	STRUCT(status, "status", "Status", t_nodeclaim_status),
};
PUBLIC(kp__type_nodeclaim, "NodeClaim", S);
#undef S

#define S kp_template_metadata
/* Karpenter's own ObjectMeta (pkg/apis/v1 nodepool.go). */
static const kp__field t_template_metadata_f[] = {
	MAP(labels, "labels", "Labels"),
	MAP(annotations, "annotations", "Annotations"),
};
SIZED(t_template_metadata, "ObjectMeta", S);
#undef S

#define S kp_nodeclaim_template
static const kp__field kp__type_nodeclaim_template_f[] = {
	STRUCT(metadata, "metadata", "ObjectMeta", t_template_metadata), /* embedded */
	STRUCT(spec, "spec", "Spec", t_nodeclaim_template_spec),
};
PUBLIC(kp__type_nodeclaim_template, "NodeClaimTemplate", S);
#undef S

#define S kp_budget
static const kp__field t_budget_f[] = {
	STRINGS(reasons, n_reasons, "reasons", "Reasons"),
	F_(KP__FK_STRING, OFF(nodes), 0, "nodes", "Nodes", NULL, NULL, KP__FF_HASH_IGNORE, 0),
	F_(KP__FK_STRING, OFF(schedule), 0, "schedule", "Schedule", NULL, NULL, KP__FF_HASH_IGNORE, 0),
	F_(KP__FK_DURATION, OFF(duration), 0, "duration", "Duration", NULL, NULL, KP__FF_HASH_IGNORE, 0),
};
SIZED(t_budget, "Budget", S);
#undef S

#define S kp_disruption
static const kp__field t_disruption_f[] = {
	NILLABLE_DURATION(consolidate_after, "consolidateAfter", "ConsolidateAfter"),
	ENUMS(consolidation_policy, consolidation_policy_code, "consolidationPolicy",
	      "ConsolidationPolicy", consolidation_policy),
	F_(KP__FK_LIST, OFF(budgets), OFF(n_budgets), "budgets", "Budgets", &t_budget, NULL,
	   KP__FF_HASH_IGNORE, 0),
};
SIZED(t_disruption, "Disruption", S);
#undef S

#define S kp_nodepool_spec
static const kp__field t_nodepool_spec_f[] = {
	STRUCT(template_, "template", "Template", kp__type_nodeclaim_template),
	STRUCT(disruption, "disruption", "Disruption", t_disruption),
	RESOURCES(limits, "limits", "Limits"),
	OPT_I32(weight, has_weight, "weight", "Weight"),
	OPT_I64(replicas, has_replicas, "replicas", "Replicas"),
};
SIZED(t_nodepool_spec, "NodePoolSpec", S);
#undef S

#define S kp_nodepool_status
static const kp__field t_nodepool_status_f[] = {
	RESOURCES(resources, "resources", "Resources"),
	OPT_I64(nodes, has_nodes, "nodes", "Nodes"),
	I64(node_class_observed_generation, "nodeClassObservedGeneration",
	    "NodeClassObservedGeneration"),
	LIST(conditions, n_conditions, "conditions", "Conditions", t_condition),
};
SIZED(t_nodepool_status, "NodePoolStatus", S);
#undef S

#define S kp_nodepool
static const kp__field kp__type_nodepool_f[] = {
	API_VERSION(api_version),
	KIND(kind),
	STRUCT(metadata, "metadata", "ObjectMeta", kp__type_object_meta),
	STRUCT(spec, "spec", "Spec", t_nodepool_spec),
	STRUCT(status, "status", "Status", t_nodepool_status),
};
PUBLIC(kp__type_nodepool, "NodePool", S);
#undef S

/* ------------------------------------------------------------------------ */
/* Kind registry                                                            */

#define KIND_(k, name, api, crd, ns, t) { k, name, api, crd, ns, t, NULL, 0 }
/* The one table of core kinds: what decoding, the builder and the CLI know
 * of each (name, apiVersion, strictness, scope, schema). */
static const kp__kind_info kinds[] = {
	KIND_(KP_KIND_NODEPOOL, "NodePool", "karpenter.sh/v1", 1, 0, &kp__type_nodepool),
	KIND_(KP_KIND_NODECLAIM, "NodeClaim", "karpenter.sh/v1", 1, 0, &kp__type_nodeclaim),
	KIND_(KP_KIND_POD, "Pod", "v1", 0, 1, &kp__type_pod),
	KIND_(KP_KIND_NODE, "Node", "v1", 0, 0, &kp__type_node),
	KIND_(KP_KIND_DAEMONSET, "DaemonSet", "apps/v1", 0, 1, &kp__type_daemonset),
	KIND_(KP_KIND_PDB, "PodDisruptionBudget", "policy/v1", 0, 1, &kp__type_pdb),
	KIND_(KP_KIND_PVC, "PersistentVolumeClaim", "v1", 0, 1, &kp__type_pvc),
	KIND_(KP_KIND_PV, "PersistentVolume", "v1", 0, 0, &kp__type_pv),
	KIND_(KP_KIND_STORAGE_CLASS, "StorageClass", "storage.k8s.io/v1", 0, 0,
	      &kp__type_storage_class),
	KIND_(KP_KIND_CSI_NODE, "CSINode", "storage.k8s.io/v1", 0, 0, &kp__type_csi_node),
	KIND_(KP_KIND_NAMESPACE, "Namespace", "v1", 0, 0, &kp__type_namespace),
	KIND_(KP_KIND_VOLUME_ATTACHMENT, "VolumeAttachment", "storage.k8s.io/v1", 0, 0,
	      &kp__type_volume_attachment),
};
#undef KIND_

const kp__kind_info *kp__kind_info_get(uint32_t kind)
{
	for (size_t i = 0; i < N_(kinds); i++)
		if (kinds[i].kind == kind)
			return &kinds[i];
	return NULL;
}

const kp__type *kp__core_type(uint32_t core_type)
{
	switch (core_type) {
	case KP_CORE_TYPE_OBJECT_META:
		return &kp__type_object_meta;
	case KP_CORE_TYPE_CONDITION:
		return &t_condition;
	default:
		return NULL;
	}
}

KP_EXPORT const char *kp_kind_name(uint32_t kind)
{
	const kp__kind_info *k = kp__kind_info_get(kind);
	return k ? k->name : "";
}

KP_EXPORT const char *kp_kind_api_version(uint32_t kind)
{
	const kp__kind_info *k = kp__kind_info_get(kind);
	return k ? k->api_version : "";
}

KP_EXPORT int kp_kind_namespaced(uint32_t kind)
{
	const kp__kind_info *k = kp__kind_info_get(kind);
	return k ? k->namespaced : 0;
}

KP_EXPORT uint32_t kp_kind_lookup(const char *api_version, const char *kind)
{
	if (!api_version || !kind)
		return KP_KIND_UNKNOWN;
	for (size_t i = 0; i < N_(kinds); i++)
		if (strcmp(kinds[i].name, kind) == 0 && strcmp(kinds[i].api_version, api_version) == 0)
			return kinds[i].kind;
	return KP_KIND_UNKNOWN;
}

/* ------------------------------------------------------------------------ */
/* Copy and free                                                            */

KP_EXPORT int kp_object_copy(void **out, uint32_t kind, const void *object, kp_error *err)
{
	if (!out || !object)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	*out = NULL;
	const kp__kind_info *k = kp__kind_info_get(kind);
	if (!k)
		return kp__error(err, KP_EINVAL, NULL, "unknown kind %u", (unsigned)kind);
	void *copy = NULL;
	int rc = kp__schema_copy(k->type, &copy, object, err);
	if (rc)
		return rc;
	/* The common head: struct_size, then kind. */
	((uint32_t *)copy)[1] = kind;
	*out = copy;
	return KP_OK;
}

KP_EXPORT void kp_object_free(uint32_t kind, void *object)
{
	const kp__kind_info *k = kp__kind_info_get(kind);
	if (k)
		kp__schema_free(k->type, object);
}

#define TYPED(prefix, ctype, kindv) \
	KP_EXPORT void prefix##_free(ctype *o) \
	{ \
		kp_object_free(kindv, o); \
	}
TYPED(kp_nodepool, kp_nodepool, KP_KIND_NODEPOOL)
TYPED(kp_nodeclaim, kp_nodeclaim, KP_KIND_NODECLAIM)
TYPED(kp_pod, kp_pod, KP_KIND_POD)
TYPED(kp_node, kp_node, KP_KIND_NODE)
TYPED(kp_daemonset, kp_daemonset, KP_KIND_DAEMONSET)
TYPED(kp_pdb, kp_pdb, KP_KIND_PDB)
TYPED(kp_pvc, kp_pvc, KP_KIND_PVC)
TYPED(kp_pv, kp_pv, KP_KIND_PV)
TYPED(kp_storage_class, kp_storage_class, KP_KIND_STORAGE_CLASS)
TYPED(kp_csi_node, kp_csi_node, KP_KIND_CSI_NODE)
TYPED(kp_namespace, kp_namespace, KP_KIND_NAMESPACE)
TYPED(kp_volume_attachment, kp_volume_attachment, KP_KIND_VOLUME_ATTACHMENT)
#undef TYPED

#define TYPED_COPY(prefix, ctype, kindv) \
	KP_EXPORT int prefix##_copy(ctype **out, const ctype *o, kp_error *err) \
	{ \
		void *c = NULL; \
		if (out) \
			*out = NULL; \
		if (!out) \
			return kp__error(err, KP_EINVAL, NULL, "NULL argument"); \
		int rc = kp_object_copy(&c, kindv, o, err); \
		if (rc == KP_OK) \
			*out = c; \
		return rc; \
	}
TYPED_COPY(kp_nodepool, kp_nodepool, KP_KIND_NODEPOOL)
TYPED_COPY(kp_nodeclaim, kp_nodeclaim, KP_KIND_NODECLAIM)
TYPED_COPY(kp_pod, kp_pod, KP_KIND_POD)
TYPED_COPY(kp_node, kp_node, KP_KIND_NODE)
#undef TYPED_COPY

/* ------------------------------------------------------------------------ */
/* Requirements                                                             */

KP_EXPORT int kp_nodeclaim_requirement_view(const kp_nodeclaim_requirement *req,
					    kp_node_selector_requirement *out, kp_error *err)
{
	if (!req || !out)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	int rc = KP__CHECK_SIZED(req, kp_nodeclaim_requirement, err);
	if (rc)
		return rc;
	rc = KP__CHECK_SIZED(out, kp_node_selector_requirement, err);
	if (rc)
		return rc;
	const kp__enum_entry *e = NULL;
	if (req->operator_name) {
		for (size_t i = 0; i < selector_op.n; i++)
			if (strcmp(selector_op.entries[i].name, req->operator_name) == 0)
				e = &selector_op.entries[i];
	} else if (req->op) {
		for (size_t i = 0; i < selector_op.n; i++)
			if (selector_op.entries[i].code == req->op)
				e = &selector_op.entries[i];
	}
	if (!e)
		return kp__error(err, KP_EINVAL, "operator",
				 "Unsupported value: \"%s\": supported values: \"In\", \"NotIn\", "
				 "\"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\", \"Gte\", \"Lte\"",
				 req->operator_name ? req->operator_name : "");
	if (req->has_min_values && (req->min_values < 0 || req->min_values > INT32_MAX))
		return kp__error(err, KP_EINVAL, "minValues", "Invalid value: %lld: out of range",
				 (long long)req->min_values);
	out->op = e->code;
	out->key = req->key;
	out->values = req->values;
	out->n_values = req->n_values;
	out->min_values = req->has_min_values ? (int32_t)req->min_values : 0;
	return KP_OK;
}

/* The one condition lookup every module uses (objects.h). */
KP_EXPORT const kp_condition *kp_condition_find(kp_condition *const *conditions, size_t n,
						const char *type)
{
	if (!conditions || !type)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (conditions[i] && conditions[i]->type && strcmp(conditions[i]->type, type) == 0)
			return conditions[i];
	return NULL;
}
