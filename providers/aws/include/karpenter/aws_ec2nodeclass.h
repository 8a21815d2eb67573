/*
 * libkarpenter-aws: karpenter.k8s.aws/v1 EC2NodeClass, registered on a core
 * registry through the provider-kind API (karpenter/sys/schema.h).
 *
 * EXPERIMENTAL, as the API it is built on: define KP_EXPERIMENTAL_API. The
 * symbols sit in the version node KARPENTER_AWS_EXPERIMENTAL, outside
 * SemVer (VERSIONING.md, "Provider kinds").
 *
 * After kp_aws_register, kp_decode with kp_decode_options::registry decodes
 * EC2NodeClass manifests strictly (an unknown field is an error, as the
 * API server's structural schema would prune and kubectl would refuse it)
 * into kp_aws_ec2nodeclass, and kp_registry_object_hash gives the drift hash
 * upstream's hash controller writes (karpenter.k8s.aws/ec2nodeclass-hash):
 * hashstructure v2 of []any{spec, AMIFamily(), caBundle, kubelet.String()}
 * (hash version v6, aws/karpenter-provider-aws main), or of []any{spec,
 * AMIFamily(), caBundle} with spec.kubelet typed and hashed (v5, v1.14).
 *
 * Field presence follows objects.h: NULL strings, lists and struct
 * pointers are absent (Go nil); has_x flags mark Go pointers that are set.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_AWS_EC2NODECLASS_H
#define KARPENTER_AWS_EC2NODECLASS_H

#ifndef KP_EXPERIMENTAL_API
#error "karpenter/aws_ec2nodeclass.h is experimental API: define KP_EXPERIMENTAL_API to use it"
#endif

#include <stddef.h>
#include <stdint.h>

#include <karpenter/nodeclaim.h>
#include <karpenter/scheduling.h>
#include <karpenter/objects.h>
#include <karpenter/sys/schema.h>

KP_BEGIN_DECLS

/** @brief A subnet, security group, capacity reservation or AMI selector term. @since 0.1 */
typedef struct kp_aws_selector_term {
	uint32_t struct_size;                /**< sizeof(kp_aws_selector_term) */
	uint32_t reserved;                   /**< zero */
	kp_labels tags;                      /**< tags */
	const char *alias;                   /**< AMI terms: "al2023@latest" */
	const char *id;                      /**< id */
	const char *name;                    /**< security group and AMI terms */
	const char *owner;                   /**< AMI terms */
	const char *ssm_parameter;           /**< AMI terms */
	const char *owner_id;                /**< capacity reservation terms */
	const char *instance_match_criteria; /**< capacity reservation terms */
} kp_aws_selector_term;

/** @brief PlacementGroupSelector. @since 0.1 */
typedef struct kp_aws_placement_group_selector {
	uint32_t struct_size; /**< sizeof(kp_aws_placement_group_selector) */
	uint32_t reserved;    /**< zero */
	const char *name;     /**< *string */
	const char *id;       /**< *string */
} kp_aws_placement_group_selector;

/** @brief v1.14 KubeletConfiguration (the v5 layout; main keeps an open map). @since 0.1 */
typedef struct kp_aws_kubelet {
	uint32_t struct_size;                       /**< sizeof(kp_aws_kubelet) */
	uint32_t has_max_pods;                      /**< maxPods set */
	int32_t max_pods;                           /**< maxPods */
	uint32_t has_pods_per_core;                 /**< podsPerCore set */
	int32_t pods_per_core;                      /**< podsPerCore */
	uint32_t has_eviction_max_pod_grace_period; /**< evictionMaxPodGracePeriod set */
	int32_t eviction_max_pod_grace_period;      /**< evictionMaxPodGracePeriod */
	uint32_t has_image_gc_high;                 /**< imageGCHighThresholdPercent set */
	int32_t image_gc_high;                      /**< imageGCHighThresholdPercent */
	uint32_t has_image_gc_low;                  /**< imageGCLowThresholdPercent set */
	int32_t image_gc_low;                       /**< imageGCLowThresholdPercent */
	uint32_t has_cpu_cfs_quota;                 /**< cpuCFSQuota set */
	uint32_t cpu_cfs_quota;                     /**< cpuCFSQuota */
	uint32_t reserved;                          /**< zero */
	const char *const *cluster_dns;             /**< clusterDNS */
	size_t n_cluster_dns;                       /**< number of clusterDNS entries */
	kp_labels system_reserved;                  /**< systemReserved */
	kp_labels kube_reserved;                    /**< kubeReserved */
	kp_labels eviction_hard;                    /**< evictionHard */
	kp_labels eviction_soft;                    /**< evictionSoft */
	kp_duration_map eviction_soft_grace_period; /**< evictionSoftGracePeriod */
} kp_aws_kubelet;

/** @brief BlockDevice (EBS). @since 0.1 */
typedef struct kp_aws_block_device {
	uint32_t struct_size;                   /**< sizeof(kp_aws_block_device) */
	uint32_t has_delete_on_termination;     /**< deleteOnTermination set */
	uint32_t delete_on_termination;         /**< deleteOnTermination */
	uint32_t has_encrypted;                 /**< encrypted set */
	uint32_t encrypted;                     /**< encrypted */
	uint32_t has_iops;                      /**< iops set */
	int64_t iops;                           /**< iops */
	uint32_t has_throughput;                /**< throughput set */
	uint32_t has_volume_initialization_rate; /**< volumeInitializationRate set */
	int64_t throughput;                     /**< throughput */
	int32_t volume_initialization_rate;     /**< volumeInitializationRate */
	uint32_t reserved;                      /**< zero */
	const char *kms_key_id;                 /**< kmsKeyID */
	const char *snapshot_id;                /**< snapshotID */
	const char *volume_size;                /**< volumeSize, a quantity as written */
	const char *volume_type;                /**< volumeType */
} kp_aws_block_device;

/** @brief BlockDeviceMapping. @since 0.1 */
typedef struct kp_aws_block_device_mapping {
	uint32_t struct_size;     /**< sizeof(kp_aws_block_device_mapping) */
	uint32_t root_volume;     /**< rootVolume */
	const char *device_name;  /**< deviceName */
	kp_aws_block_device *ebs; /**< ebs, or NULL */
} kp_aws_block_device_mapping;

/** @brief NetworkInterface. @since 0.1 */
typedef struct kp_aws_network_interface {
	uint32_t struct_size;       /**< sizeof(kp_aws_network_interface) */
	int32_t network_card_index; /**< networkCardIndex */
	int32_t device_index;       /**< deviceIndex */
	uint32_t reserved;          /**< zero */
	const char *interface_type; /**< interfaceType */
} kp_aws_network_interface;

/** @brief MetadataOptions. @since 0.1 */
typedef struct kp_aws_metadata_options {
	uint32_t struct_size;                     /**< sizeof(kp_aws_metadata_options) */
	uint32_t has_http_put_response_hop_limit; /**< httpPutResponseHopLimit set */
	int64_t http_put_response_hop_limit;      /**< httpPutResponseHopLimit */
	const char *http_endpoint;                /**< httpEndpoint */
	const char *http_protocol_ipv6;           /**< httpProtocolIPv6 */
	const char *http_tokens;                  /**< httpTokens */
} kp_aws_metadata_options;

/** @brief ConnectionTracking. @since 0.1 */
typedef struct kp_aws_connection_tracking {
	uint32_t struct_size;                 /**< sizeof(kp_aws_connection_tracking) */
	uint32_t has_tcp_established_timeout; /**< tcpEstablishedTimeout set */
	int32_t tcp_established_timeout;      /**< tcpEstablishedTimeout */
	uint32_t has_udp_stream_timeout;      /**< udpStreamTimeout set */
	int32_t udp_stream_timeout;           /**< udpStreamTimeout */
	uint32_t has_udp_timeout;             /**< udpTimeout set */
	int32_t udp_timeout;                  /**< udpTimeout */
	uint32_t reserved;                    /**< zero */
} kp_aws_connection_tracking;

/** @brief CPUOptions. @since 0.1 */
typedef struct kp_aws_cpu_options {
	uint32_t struct_size;              /**< sizeof(kp_aws_cpu_options) */
	uint32_t reserved;                 /**< zero */
	const char *nested_virtualization; /**< nestedVirtualization */
} kp_aws_cpu_options;

/** @brief EC2NodeClassSpec. @since 0.1 */
typedef struct kp_aws_ec2nodeclass_spec {
	uint32_t struct_size;                     /**< sizeof(kp_aws_ec2nodeclass_spec) */
	uint32_t has_associate_public_ip_address; /**< associatePublicIPAddress set */
	uint32_t associate_public_ip_address;     /**< associatePublicIPAddress */
	uint32_t has_ip_prefix_count;             /**< ipPrefixCount set */
	int32_t ip_prefix_count;                  /**< ipPrefixCount */
	uint32_t has_detailed_monitoring;         /**< detailedMonitoring set */
	uint32_t detailed_monitoring;             /**< detailedMonitoring */
	uint32_t reserved;                        /**< zero */
	kp_aws_selector_term **subnet_selector_terms;                /**< subnetSelectorTerms */
	size_t n_subnet_selector_terms;                              /**< count */
	kp_aws_selector_term **security_group_selector_terms;        /**< securityGroupSelectorTerms */
	size_t n_security_group_selector_terms;                      /**< count */
	kp_aws_selector_term **capacity_reservation_selector_terms;  /**< capacityReservationSelectorTerms */
	size_t n_capacity_reservation_selector_terms;                /**< count */
	kp_aws_placement_group_selector *placement_group_selector;   /**< placementGroupSelector */
	kp_aws_selector_term **ami_selector_terms;                   /**< amiSelectorTerms */
	size_t n_ami_selector_terms;                                 /**< count */
	const char *ami_family;                   /**< amiFamily */
	const char *user_data;                    /**< userData */
	const char *role;                         /**< role */
	const char *instance_profile;             /**< instanceProfile */
	kp_labels tags;                           /**< tags */
	kp_aws_kubelet *kubelet;                  /**< kubelet (v5 layout; v6: kubelet_json) */
	kp_aws_block_device_mapping **block_device_mappings; /**< blockDeviceMappings */
	size_t n_block_device_mappings;                      /**< count */
	const char *instance_store_policy;        /**< instanceStorePolicy */
	kp_aws_network_interface **network_interfaces; /**< networkInterfaces */
	size_t n_network_interfaces;              /**< count */
	kp_aws_metadata_options *metadata_options; /**< metadataOptions */
	kp_aws_connection_tracking *connection_tracking; /**< connectionTracking */
	const char *context;                      /**< context */
	kp_aws_cpu_options *cpu_options;          /**< cpuOptions */
	const char *kubelet_json;                 /**< main's spec.kubelet, an open map: as
	                                               json.Marshal writes it (compact, keys
	                                               sorted), NULL when absent (v6 layout) */
} kp_aws_ec2nodeclass_spec;

/** @brief status.subnets[]: a subnet the selectors resolved. @since 0.2 */
typedef struct kp_aws_subnet_status {
	uint32_t struct_size; /**< sizeof(kp_aws_subnet_status) */
	uint32_t reserved;    /**< zero */
	const char *id;       /**< id */
	const char *zone;     /**< zone */
	const char *zone_id;  /**< zoneID */
} kp_aws_subnet_status;

/** @brief status.securityGroups[]. @since 0.2 */
typedef struct kp_aws_security_group_status {
	uint32_t struct_size; /**< sizeof(kp_aws_security_group_status) */
	uint32_t reserved;    /**< zero */
	const char *id;       /**< id */
	const char *name;     /**< name */
} kp_aws_security_group_status;

/** @brief status.amis[].requirements[] (corev1.NodeSelectorRequirement). @since 0.2 */
typedef struct kp_aws_ami_requirement {
	uint32_t struct_size;       /**< sizeof(kp_aws_ami_requirement) */
	uint32_t reserved;          /**< zero */
	const char *key;            /**< key */
	const char *operator_;      /**< operator ("In", "NotIn", "Exists", ...) */
	const char *const *values;  /**< values */
	size_t n_values;            /**< number of values */
} kp_aws_ami_requirement;

/** @brief status.amis[]. @since 0.2 */
typedef struct kp_aws_ami_status {
	uint32_t struct_size;                  /**< sizeof(kp_aws_ami_status) */
	uint32_t deprecated;                   /**< deprecated */
	const char *id;                        /**< id */
	const char *name;                      /**< name */
	kp_aws_ami_requirement **requirements; /**< requirements */
	size_t n_requirements;                 /**< count */
} kp_aws_ami_status;

/** @brief status.capacityReservations[]. @since 0.2 */
typedef struct kp_aws_capacity_reservation_status {
	uint32_t struct_size;            /**< sizeof(kp_aws_capacity_reservation_status) */
	uint32_t interruptible;          /**< interruptible */
	const char *availability_zone;   /**< availabilityZone */
	int64_t end_time_ms;             /**< endTime, Unix ms; 0 when absent */
	const char *id;                  /**< id ("cr-...") */
	const char *instance_match_criteria; /**< instanceMatchCriteria ("open", "targeted") */
	const char *instance_type;       /**< instanceType */
	const char *owner_id;            /**< ownerID */
	const char *reservation_type;    /**< reservationType ("default", "capacity-block");
	                                      the CRD defaults it to "default" */
	const char *state;               /**< state ("active", "expiring"); CRD default "active" */
} kp_aws_capacity_reservation_status;

/** @brief EC2NodeClassStatus, as upstream's status controllers write it. @since 0.2 */
typedef struct kp_aws_ec2nodeclass_status {
	uint32_t struct_size;                    /**< sizeof(kp_aws_ec2nodeclass_status) */
	uint32_t reserved;                       /**< zero */
	kp_aws_subnet_status **subnets;          /**< subnets */
	size_t n_subnets;                        /**< count */
	kp_aws_security_group_status **security_groups; /**< securityGroups */
	size_t n_security_groups;                /**< count */
	kp_aws_capacity_reservation_status **capacity_reservations; /**< capacityReservations */
	size_t n_capacity_reservations;          /**< count */
	kp_aws_ami_status **amis;                /**< amis */
	size_t n_amis;                           /**< count */
	const char *instance_profile;            /**< instanceProfile */
	kp_condition **conditions;               /**< conditions */
	size_t n_conditions;                     /**< count */
} kp_aws_ec2nodeclass_status;

/**
 * @brief karpenter.k8s.aws/v1 EC2NodeClass.
 *
 * status (@since 0.2) sits after spec: read it only when struct_size
 * covers it (an object of the first layout has none).
 * @since 0.1
 */
typedef struct kp_aws_ec2nodeclass {
	uint32_t struct_size;           /**< sizeof(kp_aws_ec2nodeclass) */
	uint32_t kind;                  /**< the id kp_aws_register returned */
	const char *api_version;        /**< "karpenter.k8s.aws/v1" */
	kp_object_meta *metadata;       /**< metadata */
	kp_aws_ec2nodeclass_spec *spec; /**< spec */
	kp_aws_ec2nodeclass_status *status; /**< status, or NULL (absent) @since 0.2 */
} kp_aws_ec2nodeclass;

/** Flags of kp_aws_register_options. @since 0.1 */
enum kp_aws_register_flags {
	/** Register the v1.14 layout (typed spec.kubelet, hash version "v5")
	 *  instead of main's (open spec.kubelet map, hash version "v6"). */
	KP_AWS_REGISTER_V1_14 = 1u << 0
};

/** @brief Options of kp_aws_register. @since 0.1 */
typedef struct kp_aws_register_options {
	uint32_t struct_size;  /**< sizeof(kp_aws_register_options) */
	uint32_t flags;        /**< kp_aws_register_flags */
	const char *ca_bundle; /**< the cluster CA bundle the hash covers (Hash(caBundle)); NULL = "" */
} kp_aws_register_options;

/** Static initializer for kp_aws_register_options: main's layout, no CA bundle. @since 0.1 */
#define KP_AWS_REGISTER_OPTIONS_INIT { sizeof(kp_aws_register_options), 0, NULL }

/**
 * @brief Register EC2NodeClass on a registry.
 * @param[in] registry the registry
 * @param[in] opts options, or NULL for KP_AWS_REGISTER_OPTIONS_INIT (copied)
 * @param[out] out_kind the kind id, may be NULL
 * @param[out] err optional error detail
 * @return KP_OK; KP_EINVAL (NULL registry, unknown flags, already
 *         registered); KP_EVERSION; KP_ENOMEM
 * @since 0.1
 * Thread-safety: as kp_registry_add_kind.
 */
int kp_aws_register(kp_registry *registry, const kp_aws_register_options *opts,
		    uint32_t *out_kind, kp_error *err);

/**
 * @brief The EC2NodeClass drift hash with an explicit kubelet.String().
 *
 * main (v6) keeps spec.kubelet as an open map, hashed as its String() (its
 * JSON; "null" when unset) beside the spec. kp_registry_object_hash uses
 * spec.kubelet_json as decoded; this function lets a caller give the text
 * upstream would produce instead (NULL: the object's own).
 * @param[in] nodeclass the object
 * @param[in] flags KP_AWS_REGISTER_V1_14 for the v5 hash (kubelet_json is then ignored)
 * @param[in] ca_bundle the CA bundle, NULL = ""
 * @param[in] kubelet_json kubelet.String(), NULL = "null"
 * @param[out] out the hash
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL, KP_EVERSION, KP_ENOMEM
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_aws_ec2nodeclass_hash(const kp_aws_ec2nodeclass *nodeclass, uint32_t flags,
			     const char *ca_bundle, const char *kubelet_json, uint64_t *out,
			     kp_error *err);

/* ------------------------------------------------------------------ */
/* Static drift (upstream pkg/cloudprovider/drift.go)                  */
/* ------------------------------------------------------------------ */

/** The annotation upstream's hash controller writes on an EC2NodeClass and
 *  the instance launch copies onto its NodeClaims. @since 0.2 */
#define KP_AWS_ANNOTATION_EC2NODECLASS_HASH "karpenter.k8s.aws/ec2nodeclass-hash"
/** Its hash version ("v6" for main's layout, "v5" for v1.14's). @since 0.2 */
#define KP_AWS_ANNOTATION_EC2NODECLASS_HASH_VERSION "karpenter.k8s.aws/ec2nodeclass-hash-version"
/** The drift reason of kp_aws_nodeclaim_static_drift. @since 0.2 */
#define KP_AWS_DRIFT_NODECLASS "NodeClassDrift"

/** What kp_aws_nodeclaim_static_drift found. @since 0.2 */
enum kp_aws_static_drift_state {
	/** an annotation is missing on either side, or the hash versions
	 *  differ: not drifted, as upstream (its hash controller re-stamps
	 *  such NodeClaims) */
	KP_AWS_STATIC_DRIFT_NOT_EVALUATED = 0,
	/** equal hashes at equal versions: not drifted */
	KP_AWS_STATIC_DRIFT_MATCH = 1,
	/** different hashes at equal versions: NodeClassDrift */
	KP_AWS_STATIC_DRIFT_DRIFTED = 2
};

/**
 * @brief The result of kp_aws_nodeclaim_static_drift. The caller sets
 *        struct_size (KP_AWS_STATIC_DRIFT_INIT); the library fills the rest.
 * @since 0.2
 */
typedef struct kp_aws_static_drift {
	uint32_t struct_size;  /**< sizeof(kp_aws_static_drift) */
	uint32_t state;        /**< a kp_aws_static_drift_state */
	/** KP_AWS_DRIFT_NODECLASS when drifted, else "" (static text) */
	const char *reason;
	/** the NodeClaim's KP_AWS_ANNOTATION_EC2NODECLASS_HASH, or NULL (borrowed) */
	const char *nodeclaim_hash;
	/** the NodeClaim's KP_AWS_ANNOTATION_EC2NODECLASS_HASH_VERSION, or NULL (borrowed) */
	const char *nodeclaim_hash_version;
} kp_aws_static_drift;

/** Static initializer for kp_aws_static_drift. @since 0.2 */
#define KP_AWS_STATIC_DRIFT_INIT { sizeof(kp_aws_static_drift), 0, "", NULL, NULL }

/**
 * @brief Whether a NodeClaim is drifted on its EC2NodeClass's static
 *        fields, as upstream's AWS cloud provider decides
 *        (areStaticFieldsDrifted, the first check of IsDrifted).
 *
 * The EC2NodeClass's hash and hash version are what its hash controller
 * writes in the KP_AWS_ANNOTATION_EC2NODECLASS_HASH and _HASH_VERSION
 * annotations: kp_registry_object_hash (or kp_aws_ec2nodeclass_hash) in
 * decimal, and kp_registry_kind_hash_version. The NodeClaim's are its own
 * annotations of those names. Drifted (reason "NodeClassDrift") when all
 * four are present, the versions are equal and the hashes differ; any
 * missing value or different versions: not drifted.
 * @param[in,out] out the result; its struct_size is read, the rest written
 * @param[in] nodeclaim the NodeClaim
 * @param[in] nodeclass_hash the EC2NodeClass's hash, or NULL (not written yet)
 * @param[in] nodeclass_hash_version its hash version, or NULL
 * @param[out] err optional error detail
 * @return KP_OK; KP_EINVAL (NULL @p out or @p nodeclaim); KP_EVERSION
 *         (struct_size smaller than this library's first layout)
 * @since 0.2
 * Ownership: out's strings borrow from @p nodeclaim, or are static.
 * Thread-safety: safe.
 */
int kp_aws_nodeclaim_static_drift(kp_aws_static_drift *out, const kp_nodeclaim *nodeclaim,
				  const char *nodeclass_hash, const char *nodeclass_hash_version,
				  kp_error *err);

/* ------------------------------------------------------------------ */
/* Readiness (upstream's status controller)                            */
/* ------------------------------------------------------------------ */

/** Flags of kp_aws_ec2nodeclass_status_ready. @since 0.2 */
enum kp_aws_status_flags {
	/** CapacityReservationsReady is a dependent of Ready (upstream's
	 *  CapacityReservationsEnabled, the ReservedCapacity feature gate) */
	KP_AWS_STATUS_CAPACITY_RESERVATIONS = 1u << 0
};

/**
 * @brief The Ready condition upstream's status controller keeps on an
 *        EC2NodeClass, written into its status.conditions.
 *
 * As StatusConditions() (operatorpkg's condition set): a dependent
 * (AMIsReady, SubnetsReady, SecurityGroupsReady, InstanceProfileReady,
 * ValidationSucceeded, and CapacityReservationsReady with
 * KP_AWS_STATUS_CAPACITY_RESERVATIONS) not written yet is added Unknown
 * (reason AwaitingReconciliation, message "object is awaiting
 * reconciliation"); then Ready is True (reason Ready) when every dependent
 * is True at metadata.generation, else False (reason UnhealthyDependents)
 * when one is False at that generation, else Unknown (reason
 * ReconcilingDependents), its message the unhealthy dependents newest
 * first ("SubnetsReady=False, AMIsReady=Unknown"). A condition that
 * changes gets @p now_ms as lastTransitionTime and the generation as
 * observedGeneration; the conditions are kept sorted by type. An object
 * without status gets one. The dependents themselves are not decided
 * (that needs EC2).
 * @param[in,out] nodeclass a decoded EC2NodeClass (its status is changed
 *        with the library's allocator, as the decoder allocates)
 * @param[in] flags kp_aws_status_flags
 * @param[in] now_ms the time of a transition
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL, KP_EVERSION, KP_ENOMEM (the object unchanged)
 * @since 0.2
 * Thread-safety: one thread at a time per object.
 */
int kp_aws_ec2nodeclass_status_ready(kp_aws_ec2nodeclass *nodeclass, uint32_t flags,
				     int64_t now_ms, kp_error *err);

/**
 * @brief The core's view of an EC2NodeClass's readiness
 *        (kp_nodeclass_status_from over its status.conditions: the one
 *        rule every node class is read by), group karpenter.k8s.aws, kind
 *        EC2NodeClass.
 * @param[in,out] out its struct_size is read; strings borrow from @p nodeclass
 * @param[in] nodeclass the EC2NodeClass
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL, KP_EVERSION
 * @since 0.2
 * Thread-safety: safe.
 */
int kp_aws_ec2nodeclass_nodeclass_status(kp_nodeclass_status *out,
					 const kp_aws_ec2nodeclass *nodeclass, kp_error *err);

KP_END_DECLS

#endif /* KARPENTER_AWS_EC2NODECLASS_H */
