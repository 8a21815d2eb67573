/*
 * libkarpenter-aws: EC2 instance types as upstream's instance-type provider
 * builds them (aws/karpenter-provider-aws pkg/providers/instancetype,
 * offering, pricing, amifamily), offline: from DescribeInstanceTypes,
 * DescribeInstanceTypeOfferings and DescribeSpotPriceHistory documents in
 * the AWS CLI's JSON shape, upstream's VPC limits and bandwidth tables and
 * its generated on-demand price tables.
 *
 * EXPERIMENTAL: define KP_EXPERIMENTAL_API. The options borrow the
 * experimental EC2NodeClass types (karpenter/aws_ec2nodeclass.h) and part 2
 * of the provider (EC2 calls) will extend this API, so its symbols sit in
 * KARPENTER_AWS_EXPERIMENTAL, outside SemVer.
 *
 * Flow: kp_aws_catalog_new, then kp_aws_catalog_load_* for each document
 * (the caller reads the files; the library takes text and its length, as
 * every kp_aws_catalog_load_* does), then
 * kp_aws_instance_types_build with the options of one EC2NodeClass
 * (kp_aws_instance_type_options_from_ec2nodeclass fills them) to get the
 * core's kp_instance_types, which the scheduler uses as it uses KWOK's.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_AWS_INSTANCETYPES_H
#define KARPENTER_AWS_INSTANCETYPES_H

#ifndef KP_EXPERIMENTAL_API
#error "karpenter/aws_instancetypes.h is experimental API: define KP_EXPERIMENTAL_API to use it"
#endif

#include <stddef.h>
#include <stdint.h>

#include <karpenter/cloudprovider.h>
#include <karpenter/aws_ec2nodeclass.h>

KP_BEGIN_DECLS

/** Upstream's default VM_MEMORY_OVERHEAD_PERCENT. @since 0.2 */
#define KP_AWS_VM_MEMORY_OVERHEAD_PERCENT_DEFAULT 0.075

/** How long an insufficient-capacity error keeps an offering unavailable
 *  (upstream UnavailableOfferingsTTL, 3 minutes). @since 0.2 */
#define KP_AWS_UNAVAILABLE_OFFERINGS_TTL_MS (3 * 60 * 1000)

/**
 * @brief The instance-type data of one region: instance types, the zones
 *        that offer them, VPC limits, bandwidth, prices. Opaque.
 * @since 0.2
 * Thread-safety: loads need exclusive access; after the last load, builds
 * may share it.
 */
typedef struct kp_aws_catalog kp_aws_catalog;

/**
 * @brief Create an empty catalogue.
 * @param[out] out the catalogue, NULL on failure
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL, KP_ENOMEM
 * @since 0.2
 * Ownership: release with kp_aws_catalog_free.
 */
int kp_aws_catalog_new(kp_aws_catalog **out, kp_error *err);

/** @brief Release a catalogue (NULL is ignored). @since 0.2 */
void kp_aws_catalog_free(kp_aws_catalog *cat);

/**
 * @brief Add the instance types of a DescribeInstanceTypes response
 *        (`aws ec2 describe-instance-types --output json`:
 *        {"InstanceTypes": [...]}).
 *
 * Upstream's server-side filter applies: only types whose
 * SupportedVirtualizationTypes include "hvm" and whose architectures
 * include x86_64 or arm64 are kept. A type given twice keeps its last
 * description.
 * @param[in,out] cat the catalogue
 * @param[in] json the document (need not end with a NUL)
 * @param[in] len its length in bytes
 * @param[in] source its name for messages (e.g. the file name), or NULL
 * @param[out] err detail; the field names the member, e.g.
 *             "InstanceTypes[3].VCpuInfo.DefaultVCpus"
 * @return KP_OK, KP_EINVAL, KP_EPARSE (not JSON), KP_ENOMEM; on failure the
 *         catalogue is unchanged
 * @since 0.2
 */
int kp_aws_catalog_load_instance_types(kp_aws_catalog *cat, const char *json, size_t len,
				       const char *source, kp_error *err);

/**
 * @brief Set the zones of each instance type from a
 *        DescribeInstanceTypeOfferings response with LocationType
 *        availability-zone ({"InstanceTypeOfferings": [{"InstanceType",
 *        "Location"}]}). Replaces earlier offerings.
 *
 * Without an offerings document no type has a zone.
 * @return KP_OK, KP_EINVAL, KP_EPARSE, KP_ENOMEM
 * @since 0.2
 */
int kp_aws_catalog_load_offerings(kp_aws_catalog *cat, const char *json, size_t len,
				       const char *source, kp_error *err);

/**
 * @brief Load upstream's VPC limits (instance type -> {IPv4PerInterface,
 *        IsTrunkingCompatible, BranchInterface, ...}), used for
 *        vpc.amazonaws.com/pod-eni and, on Windows,
 *        vpc.amazonaws.com/PrivateIPv4Address.
 * @return KP_OK, KP_EINVAL, KP_EPARSE, KP_ENOMEM
 * @since 0.2
 */
int kp_aws_catalog_load_vpc_limits(kp_aws_catalog *cat, const char *json, size_t len,
				       const char *source, kp_error *err);

/**
 * @brief Load upstream's network bandwidth table (instance type -> megabits
 *        per second), the karpenter.k8s.aws/instance-network-bandwidth label.
 * @return KP_OK, KP_EINVAL, KP_EPARSE, KP_ENOMEM
 * @since 0.2
 */
int kp_aws_catalog_load_bandwidth(kp_aws_catalog *cat, const char *json, size_t len,
				       const char *source, kp_error *err);

/**
 * @brief Load on-demand price tables (region -> instance type -> price per
 *        hour), as upstream's generated tables; several documents may be
 *        loaded (a region loaded again is replaced).
 *
 * A build uses the table of its region, else upstream's fallback, us-east-1.
 * @return KP_OK, KP_EINVAL, KP_EPARSE, KP_ENOMEM
 * @since 0.2
 */
int kp_aws_catalog_load_on_demand_prices(kp_aws_catalog *cat, const char *json, size_t len,
				       const char *source, kp_error *err);

/**
 * @brief Load a DescribeSpotPriceHistory response ({"SpotPriceHistory":
 *        [{"AvailabilityZone", "InstanceType", "ProductDescription",
 *        "SpotPrice", "Timestamp"}]}), as upstream's spot price update.
 *
 * Records of product descriptions other than "Linux/UNIX" and "Linux/UNIX
 * (Amazon VPC)" (upstream's request filter), without a timestamp, or with a
 * price that does not parse are skipped; a later record for a type and zone
 * replaces an earlier one. Before any spot history is loaded, the spot price
 * of a type is its on-demand price in every zone (upstream's start-up
 * state); after, a type and zone without a record have no spot price, so
 * their offering is unavailable.
 * @return KP_OK, KP_EINVAL, KP_EPARSE, KP_ENOMEM
 * @since 0.2
 */
int kp_aws_catalog_load_spot_prices(kp_aws_catalog *cat, const char *json, size_t len,
				       const char *source, kp_error *err);

/** @brief Number of instance types in the catalogue (0 for NULL). @since 0.2 */
size_t kp_aws_catalog_count(const kp_aws_catalog *cat);

/**
 * @brief Name of the instance type at @p index (sorted by name).
 * @return the name (borrowed), or NULL when out of range
 * @since 0.2
 */
const char *kp_aws_catalog_name_at(const kp_aws_catalog *cat, size_t index);

/**
 * @brief Add the labels upstream's AWS provider makes well known (every
 *        karpenter.k8s.aws/instance-* label, the capacity-reservation
 *        labels (karpenter.k8s.aws/capacity-reservation-id is the core's
 *        reservation ID label on AWS), topology.k8s.aws/zone-id,
 *        node.kubernetes.io/windows-build, the placement-group labels) and
 *        its restricted label domain karpenter.k8s.aws.
 *
 * Scheduling AWS instance types needs these rules: an offering's reservation
 * labels are only compatible with requirements that leave them undefined
 * when they are well known (upstream AllowUndefinedWellKnownLabels).
 * @param[in,out] wk a rule set from kp_wellknown_new
 * @return KP_OK, KP_EINVAL, KP_ENOMEM
 * @since 0.2
 */
int kp_aws_wellknown_add(kp_wellknown *wk, kp_error *err);

/* ------------------------------------------------------------------ */
/* The unavailable-offerings cache                                     */
/* ------------------------------------------------------------------ */

/**
 * @brief Offerings that recently failed with insufficient capacity
 *        (upstream's UnavailableOfferings). Opaque; time is the caller's.
 * @since 0.2
 * Thread-safety: one thread at a time.
 */
typedef struct kp_aws_unavailable_offerings kp_aws_unavailable_offerings;

/** @brief Create an empty cache. @return KP_OK, KP_EINVAL, KP_ENOMEM. @since 0.2 */
int kp_aws_unavailable_offerings_new(kp_aws_unavailable_offerings **out, kp_error *err);

/** @brief Release a cache (NULL is ignored). @since 0.2 */
void kp_aws_unavailable_offerings_free(kp_aws_unavailable_offerings *cache);

/**
 * @brief Mark an offering unavailable for KP_AWS_UNAVAILABLE_OFFERINGS_TTL_MS
 *        from @p now_ms (marking again extends it), as an
 *        InsufficientInstanceCapacity error does upstream.
 * @return KP_OK, KP_EINVAL (NULL or empty argument), KP_ENOMEM
 * @since 0.2
 */
int kp_aws_unavailable_offerings_mark(kp_aws_unavailable_offerings *cache,
				      const char *instance_type, const char *zone,
				      const char *capacity_type, int64_t now_ms, kp_error *err);

/**
 * @brief Mark a whole capacity type unavailable for the TTL (upstream
 *        MarkCapacityTypeUnavailable, e.g. after a spot service-linked-role
 *        error). @return KP_OK, KP_EINVAL, KP_ENOMEM. @since 0.2
 */
int kp_aws_unavailable_offerings_mark_capacity_type(kp_aws_unavailable_offerings *cache,
						    const char *capacity_type, int64_t now_ms,
						    kp_error *err);

/**
 * @brief Whether an offering is unavailable at @p now_ms: marked less than
 *        the TTL before, itself or its capacity type.
 * @return 1 or 0 (0 for NULL arguments)
 * @since 0.2
 */
int kp_aws_unavailable_offerings_is_unavailable(const kp_aws_unavailable_offerings *cache,
						const char *instance_type, const char *zone,
						const char *capacity_type, int64_t now_ms);

/* ------------------------------------------------------------------ */
/* Options of a build (what upstream reads of the EC2NodeClass)        */
/* ------------------------------------------------------------------ */

/** @brief A zone of the EC2NodeClass's subnets (status.subnets). @since 0.2 */
typedef struct kp_aws_zone_info {
	uint32_t struct_size;  /**< sizeof(kp_aws_zone_info) */
	uint32_t reserved;     /**< zero */
	const char *zone;      /**< e.g. "us-east-1a" */
	const char *zone_id;   /**< e.g. "use1-az1", or NULL */
} kp_aws_zone_info;

/** Static initializer for kp_aws_zone_info. @since 0.2 */
#define KP_AWS_ZONE_INFO_INIT { sizeof(kp_aws_zone_info), 0, NULL, NULL }

/** @brief A capacity reservation of the EC2NodeClass (status.capacityReservations). @since 0.2 */
typedef struct kp_aws_capacity_reservation {
	uint32_t struct_size;           /**< sizeof(kp_aws_capacity_reservation) */
	uint32_t interruptible;         /**< 1 if interruptible */
	const char *id;                 /**< e.g. "cr-0123" */
	const char *instance_type;      /**< the instance type it reserves */
	const char *availability_zone;  /**< its zone */
	const char *reservation_type;   /**< "default" or "capacity-block"; NULL = "default" */
	const char *state;              /**< "active" or "expiring"; NULL = "active" */
	int64_t available_instance_count; /**< instances left */
} kp_aws_capacity_reservation;

/** Static initializer for kp_aws_capacity_reservation. @since 0.2 */
#define KP_AWS_CAPACITY_RESERVATION_INIT { sizeof(kp_aws_capacity_reservation), 0, NULL, NULL, \
	NULL, NULL, NULL, 0 }

/**
 * @brief What an instance-type build reads: the EC2NodeClass's AMI family,
 *        kubelet, block devices, instance-store policy, network interfaces,
 *        subnet zones and capacity reservations, and the operator options.
 *
 * Caller-filled, size-tagged; every pointer is borrowed for the call.
 * @since 0.2
 */
typedef struct kp_aws_instance_type_options {
	uint32_t struct_size;      /**< sizeof(kp_aws_instance_type_options) */
	uint32_t has_max_pods;     /**< kubelet maxPods set */
	int32_t max_pods;          /**< kubelet maxPods */
	uint32_t has_pods_per_core; /**< kubelet podsPerCore set */
	int32_t pods_per_core;     /**< kubelet podsPerCore */
	int32_t reserved_enis;     /**< operator option RESERVED_ENIS, >= 0 */
	double vm_memory_overhead_percent; /**< operator option, 0 <= x < 1 (INIT: 0.075) */
	const char *region;        /**< NULL = "us-east-1" */
	const char *ami_family;    /**< "AL2", "AL2023", "Bottlerocket", "Windows2019",
	                                "Windows2022", "Windows2025", "Custom"; NULL or
	                                another value = "AL2" (upstream GetAMIFamily) */
	kp_labels kube_reserved;   /**< kubelet kubeReserved */
	kp_labels system_reserved; /**< kubelet systemReserved */
	kp_labels eviction_hard;   /**< kubelet evictionHard */
	kp_labels eviction_soft;   /**< kubelet evictionSoft (never enters the overhead) */
	/** main's open spec.kubelet map as JSON, or NULL; when set, its
	 *  maxPods, podsPerCore, kubeReserved, systemReserved, evictionHard and
	 *  evictionSoft replace the typed fields above. */
	const char *kubelet_json;
	kp_aws_block_device_mapping *const *block_device_mappings; /**< spec.blockDeviceMappings */
	size_t n_block_device_mappings;  /**< count */
	const char *instance_store_policy; /**< "RAID0" or NULL */
	/** spec.networkInterfaces; NULL with has_network_interfaces 0 = unset */
	kp_aws_network_interface *const *network_interfaces;
	size_t n_network_interfaces;     /**< count */
	uint32_t has_network_interfaces; /**< spec.networkInterfaces set (even empty) */
	uint32_t has_subnet_zones;       /**< subnet_zones given; 0 = every offering zone */
	const kp_aws_zone_info *const *subnet_zones; /**< the subnets' zones */
	size_t n_subnet_zones;           /**< count */
	const kp_aws_capacity_reservation *const *capacity_reservations; /**< reservations */
	size_t n_capacity_reservations;  /**< count */
	uint32_t connection_tracking;    /**< spec.connectionTracking set (needs nitro) */
	uint32_t nested_virtualization;  /**< spec.cpuOptions.nestedVirtualization "enabled" */
	kp_aws_unavailable_offerings *unavailable; /**< ICE cache, or NULL */
	int64_t now_ms;                  /**< the time the cache is read at */
	/** the EC2NodeClass's status, or NULL (@since 0.2, appended): when
	 *  set, the zones of its subnets (when it lists any) replace
	 *  subnet_zones (has_subnet_zones becomes 1), and its capacity
	 *  reservations (when it lists any) replace capacity_reservations,
	 *  each with one instance available (the status has no count;
	 *  upstream reads it from EC2) */
	const kp_aws_ec2nodeclass_status *status;
} kp_aws_instance_type_options;

/** Static initializer for kp_aws_instance_type_options (upstream's defaults). @since 0.2 */
#define KP_AWS_INSTANCE_TYPE_OPTIONS_INIT { sizeof(kp_aws_instance_type_options), 0, 0, 0, 0, 0, \
	KP_AWS_VM_MEMORY_OVERHEAD_PERCENT_DEFAULT, NULL, NULL, KP_LABELS_INIT, KP_LABELS_INIT, \
	KP_LABELS_INIT, KP_LABELS_INIT, NULL, NULL, 0, NULL, NULL, 0, 0, 0, NULL, 0, NULL, 0, 0, 0, \
	NULL, 0, NULL }

/** @brief Initialize @p opts as KP_AWS_INSTANCE_TYPE_OPTIONS_INIT does. @since 0.2 */
void kp_aws_instance_type_options_init(kp_aws_instance_type_options *opts);

/**
 * @brief Fill @p opts from an EC2NodeClass's spec: the AMI family (spec.amiFamily,
 *        else the family of the first amiSelectorTerms alias, else "Custom",
 *        as upstream AMIFamily()), kubelet (typed v1.14 layout or main's
 *        kubelet_json), block device mappings, instance-store policy,
 *        network interfaces, connection tracking and nested virtualization.
 *
 * and its status (status: the build then reads status.subnets' zones and
 * status.capacityReservations). Leaves the region, operator options, the
 * given subnet zones and capacity reservations and the cache as they are.
 * @return KP_OK, KP_EINVAL (NULL argument), KP_EVERSION
 * @since 0.2
 * Ownership: @p opts borrows from @p nodeclass.
 */
int kp_aws_instance_type_options_from_ec2nodeclass(kp_aws_instance_type_options *opts,
						   const kp_aws_ec2nodeclass *nodeclass,
						   kp_error *err);

/**
 * @brief Build the instance types upstream's provider lists for these
 *        options, every type of the catalogue with its offerings (available
 *        or not).
 *
 * Per type (upstream NewInstanceType and the offering resolvers):
 * requirements and labels (instance-type, arch, os, zone = offering zones
 * ∩ subnet zones, region, windows build, capacity type, every
 * karpenter.k8s.aws/instance-* label, zone ids, reservation labels),
 * capacity (cpu, memory less the Graviton CMA and the VM overhead,
 * ephemeral-storage, pods, pod-eni, GPUs, neuron, habana, EFA, and
 * PrivateIPv4Address on Windows), overhead (kubeReserved, systemReserved,
 * evictionThreshold), and one offering per zone of the region and capacity
 * type (on-demand, spot), then one per matching capacity reservation.
 * @param[out] out the catalogue (one reference), NULL on failure
 * @param[in] cat the data
 * @param[in] opts the options, or NULL for KP_AWS_INSTANCE_TYPE_OPTIONS_INIT
 * @param[out] err detail; the field names the option or the instance type
 * @return KP_OK, KP_EINVAL (an invalid option, e.g. a kubeReserved value
 *         that is not a quantity: field "kubeReserved.memory"),
 *         KP_EVERSION, KP_ENOMEM
 * @since 0.2
 */
int kp_aws_instance_types_build(kp_instance_types **out, const kp_aws_catalog *cat,
				const kp_aws_instance_type_options *opts, kp_error *err);

/**
 * @brief Upstream's launch-time filters (pkg/providers/instance/filter), in
 *        place: keep the types whose requirements are compatible with @p reqs
 *        (undefined well-known labels allowed), with an available offering
 *        compatible with them, whose allocatable holds @p requests
 *        (compatible-available-filter); then, unless @p reqs carry
 *        minValues, drop metal types and types with GPUs or accelerators
 *        (NVIDIA, AMD, neuron, habana) while an ordinary type remains
 *        (exotic-instance-filter).
 *
 * Order is kept. The capacity-reservation and spot-offering filters, which
 * narrow offerings rather than types, are not applied here.
 * @param[in,out] its the types (pointers borrowed from catalogues)
 * @param[in] n their count
 * @param[in] reqs the NodeClaim's requirements, or NULL
 * @param[in] requests the NodeClaim's resource requests, or NULL
 * @param[in] wk label rules (kp_aws_wellknown_add), or NULL for the core's
 * @return the number kept (0 if @p its is NULL)
 * @since 0.2
 * Thread-safety: safe.
 */
size_t kp_aws_launch_filter(const kp_instance_type **its, size_t n, kp_requirements *reqs,
			    const kp_resource_list *requests, kp_wellknown *wk);

/* ------------------------------------------------------------------ */
/* The provider, offline                                               */

/**
 * @brief Options of kp_aws_provider_new. Caller-filled, size-tagged.
 * @since 0.2
 */
typedef struct kp_aws_provider_options {
	uint32_t struct_size;  /**< sizeof(kp_aws_provider_options) */
	uint32_t reserved;     /**< zero */
	/** EC2NodeClass names, each with its catalogue
	 *  (kp_aws_instance_types_build); the provider takes references. */
	const char *const *nodeclass_names;
	kp_instance_types *const *instance_types; /**< one per name */
	size_t n_nodeclasses;                     /**< count */
	/** the catalogue of a node class not listed, or NULL: such a node
	 *  class is not found */
	kp_instance_types *default_instance_types;
	uint64_t sequence_start; /**< the number of the first instance ID */
	/** the EC2NodeClass objects, one per name (a NULL entry, or NULL
	 *  here: that class never drifts); is_drifted reads their hashes.
	 *  Borrowed for the call: the provider keeps the hashes only. */
	const kp_aws_ec2nodeclass *const *nodeclasses;
	/** how the EC2NodeClasses are hashed (layout flags, CA bundle), as
	 *  kp_aws_register; NULL = KP_AWS_REGISTER_OPTIONS_INIT. Copied. */
	const kp_aws_register_options *hash_options;
} kp_aws_provider_options;

/** Static initializer for kp_aws_provider_options. @since 0.2 */
#define KP_AWS_PROVIDER_OPTIONS_INIT { sizeof(kp_aws_provider_options), 0, NULL, NULL, 0, NULL, 0, \
	NULL, NULL }

/** @brief Initialize @p options as KP_AWS_PROVIDER_OPTIONS_INIT does. @since 0.2 */
void kp_aws_provider_options_init(kp_aws_provider_options *options);

/**
 * @brief The AWS cloud provider offline: no EC2 call, instances in a table.
 *
 * - create: the catalogue of the NodeClaim's EC2NodeClass (missing:
 *   KP_EINSUFFICIENT `resolving node class, ec2nodeclasses.karpenter.k8s.aws
 *   "NAME" not found`); the types its instance-type requirement lists,
 *   through kp_aws_launch_filter with its requirements and requests; when
 *   it allows both spot and on-demand (without minValues), spot offerings
 *   dearer than the cheapest available compatible on-demand one are left
 *   out (upstream's spot-offering filter); the capacity type as upstream's
 *   getCapacityType (reserved, then spot, when
 *   the requirements allow it and a type has an available compatible
 *   offering of it, else on-demand); then the cheapest available compatible
 *   offering of that capacity type (first wins ties) stands in for EC2's
 *   allocation strategy. None: KP_EINSUFFICIENT ("all requested instance
 *   types were unavailable during launch"). The instance gets the
 *   provider ID aws:///ZONE/i-NNNNNNNNNNNNNNNNN (hex, counted from
 *   sequence_start), labels (the NodeClaim's, its single-valued
 *   requirements, the type's and the offering's single-valued
 *   requirements), and the type's capacity and allocatable.
 * - delete_instance: removes the instance, KP_ENOTFOUND ("instance
 *   terminated"); get, list: the table; get_instance_types: the NodePool's
 *   EC2NodeClass's catalogue (KP_ENOTFOUND without one); repair_policies:
 *   upstream AWS's seven; supported_node_classes: karpenter.k8s.aws
 *   EC2NodeClass.
 * - is_drifted: upstream's first check, static drift
 *   (kp_aws_nodeclaim_static_drift): "NodeClassDrift" when the NodeClaim's
 *   karpenter.k8s.aws/ec2nodeclass-hash differs from its EC2NodeClass's
 *   hash (of nodeclasses[], as its hash controller writes it) at the same
 *   hash version. The class is the one the NodeClaim's nodeClassRef names
 *   (upstream reads its NodePool's, the same unless the NodePool changed,
 *   which the core reports as NodePoolDrifted first); a NodeClaim without
 *   the karpenter.sh/nodepool label, or whose class is not given or is
 *   being deleted, is not drifted, as upstream. Drift read from the
 *   instance (AMI, subnet, security group, capacity reservation) is not
 *   evaluated offline.
 * @return KP_OK, KP_EINVAL, KP_EVERSION, KP_ENOMEM
 * @since 0.2
 * Ownership: the caller owns *out (kp_cloudprovider_free).
 * Thread-safety: one thread at a time.
 */
int kp_aws_provider_new(kp_cloudprovider **out, const kp_aws_provider_options *options,
			kp_error *err);

KP_END_DECLS

#endif /* KARPENTER_AWS_INSTANCETYPES_H */
