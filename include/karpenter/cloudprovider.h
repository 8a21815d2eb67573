/*
 * libkarpenter: the cloud-provider interface.
 *
 * The core reaches a cloud only through this interface, as upstream
 * Karpenter's pkg/cloudprovider/types.go contract. A provider library
 * (libkarpenter-kwok, libkarpenter-aws, or a third party's) fills a
 * kp_cloudprovider_ops vtable and registers it with kp_cloudprovider_new;
 * the core then calls it through kp_cloudprovider_* wrappers that check
 * arguments, turn what the provider reports into NodeClaim objects and
 * enforce the contract (for example: delete reports KP_ENOTFOUND once the
 * instance is gone, which is how the core waits for instance termination).
 *
 * Design: providers describe, the core builds. A provider never allocates a
 * core object. It describes instance types with caller-filled *_spec structs
 * that kp_instance_types_add copies into an immutable, core-owned catalogue,
 * and it describes launched instances with kp_instance records that the core
 * copies into NodeClaims. So a provider needs only this public API, and the
 * core controls every allocation and layout it later indexes.
 *
 * The second half of this header holds the catalogue queries the scheduler
 * uses (upstream InstanceTypes and Offerings methods): compatible offerings,
 * the cheapest one, ordering by price, minValues and truncation. They never
 * modify a catalogue; the array functions work on caller-owned arrays of
 * pointers borrowed from catalogues.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_CLOUDPROVIDER_H
#define KARPENTER_CLOUDPROVIDER_H

#include <karpenter/common.h>
#include <karpenter/version.h>
#include <karpenter/labels.h>
#include <karpenter/resources.h>
#include <karpenter/requirements.h>
#include <karpenter/wellknown.h>
#include <karpenter/nodepool.h>
#include <karpenter/nodeclaim.h>

KP_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* Instance types and offerings: what a provider describes             */
/* ------------------------------------------------------------------ */

/**
 * @brief One way to buy an instance type: a capacity type in a zone, at a
 *        price (upstream cloudprovider.Offering). Filled by a provider.
 *
 * The core turns capacity_type and zone into the offering's requirements
 * (karpenter.sh/capacity-type In [capacity_type], topology.kubernetes.io/zone
 * In [zone]) and adds @ref requirements to them. The reservation ID label is
 * provider-specific (upstream ReservationIDLabel), so a provider that wants
 * the scheduler to see it passes it in @ref requirements (a requirement
 * In [reservation_id], its key made well known). The scheduler counts a
 * "reserved" offering against its reservation, reservation_id (NULL is
 * the reservation ""), with reservation_capacity instances left, and
 * writes that requirement's key In the reservation IDs on a NodeClaim
 * holding reservations (scheduling.h).
 * @since 0.1
 */
typedef struct kp_offering_spec {
	uint32_t struct_size;          /**< sizeof(kp_offering_spec) */
	uint32_t available;            /**< 1 if it can be launched now, else 0 */
	const char *capacity_type;     /**< karpenter.sh/capacity-type: "spot", "on-demand", "reserved" */
	const char *zone;              /**< topology.kubernetes.io/zone value */
	const char *reservation_id;    /**< reservation ID for "reserved", else NULL */
	double price;                  /**< price per hour: from 0 to 1e6 */
	int64_t reservation_capacity;  /**< instances left in the reservation (reserved only), >= 0 */
	/** Further requirements of the offering (e.g. the reservation ID label), or NULL. */
	const kp_node_selector_requirement *const *requirements;
	size_t n_requirements;         /**< number of further requirements */
} kp_offering_spec;

/** Static initializer for kp_offering_spec. @since 0.1 */
#define KP_OFFERING_SPEC_INIT { sizeof(kp_offering_spec), 0, NULL, NULL, NULL, 0.0, 0, NULL, 0 }

/**
 * @brief Initialize @p spec as KP_OFFERING_SPEC_INIT does (for FFI).
 * @param[out] spec the struct to fill; NULL is ignored
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_offering_spec_init(kp_offering_spec *spec);

/**
 * @brief An instance type as a provider describes it (upstream
 *        cloudprovider.InstanceType). Filled by a provider; copied by
 *        kp_instance_types_add.
 *
 * As upstream's contract says, the requirements define the well-known labels
 * (arch, os, zone and capacity type In the offerings' values, and any
 * provider labels); offerings carry their own zone and capacity type. When
 * the requirements do not define node.kubernetes.io/instance-type, the core
 * adds "node.kubernetes.io/instance-type In [name]".
 *
 * Allocatable is computed by the core as upstream computeAllocatable does:
 * capacity minus (kube_reserved + system_reserved + eviction_threshold), for
 * the resources capacity has (a result may be negative); then, for every
 * hugepages-* resource of capacity in name order, memory minus that amount,
 * clamped at zero at each step (memory absent from capacity counts as a
 * BinarySI zero and so appears as 0 when there are huge pages).
 * @since 0.1
 */
typedef struct kp_instance_type_spec {
	uint32_t struct_size;                 /**< sizeof(kp_instance_type_spec) */
	uint32_t reserved;                    /**< zero */
	const char *name;                     /**< node.kubernetes.io/instance-type value, not empty */
	const kp_node_selector_requirement *const *requirements; /**< label requirements, or NULL */
	size_t n_requirements;                /**< number of requirements */
	const kp_resource_list *capacity;     /**< capacity (cpu, memory, pods, ...), or NULL for none */
	const kp_resource_list *kube_reserved;      /**< overhead: kubeReserved, or NULL */
	const kp_resource_list *system_reserved;    /**< overhead: systemReserved, or NULL */
	const kp_resource_list *eviction_threshold; /**< overhead: evictionThreshold, or NULL */
	const kp_offering_spec *const *offerings;   /**< offerings, available or not, or NULL */
	size_t n_offerings;                   /**< number of offerings */
} kp_instance_type_spec;

/** Static initializer for kp_instance_type_spec. @since 0.1 */
#define KP_INSTANCE_TYPE_SPEC_INIT { sizeof(kp_instance_type_spec), 0, NULL, NULL, 0, NULL, NULL, \
	NULL, NULL, NULL, 0 }

/**
 * @brief Initialize @p spec as KP_INSTANCE_TYPE_SPEC_INIT does (for FFI).
 * @param[out] spec the struct to fill; NULL is ignored
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_instance_type_spec_init(kp_instance_type_spec *spec);

/* ------------------------------------------------------------------ */
/* The catalogue: what the core keeps                                  */
/* ------------------------------------------------------------------ */

/**
 * @brief An offering in a core-owned catalogue. Read-only view.
 *
 * The library fills struct_size; a caller never allocates or embeds one.
 * @since 0.1
 * Ownership: borrowed from its catalogue; never modify it, nor its
 * requirements (kp_requirements_add would change a shared catalogue).
 */
typedef struct kp_offering {
	uint32_t struct_size;          /**< as filled by the library */
	uint32_t available;            /**< 1 if it can be launched now */
	const char *capacity_type;     /**< capacity type */
	const char *zone;              /**< zone */
	const char *reservation_id;    /**< reservation ID or NULL */
	double price;                  /**< price per hour */
	int64_t reservation_capacity;  /**< reserved instances left */
	kp_requirements *requirements; /**< capacity type, zone and the further requirements */
} kp_offering;

/**
 * @brief An instance type in a core-owned catalogue. Read-only view.
 *
 * The library fills struct_size; a caller never allocates or embeds one.
 * Resource lists are library-owned (sorted by name).
 * @since 0.1
 * Ownership: borrowed from its catalogue; never modify it, nor its
 * requirements.
 */
typedef struct kp_instance_type {
	uint32_t struct_size;                 /**< as filled by the library */
	uint32_t reserved;                    /**< zero */
	const char *name;                     /**< name */
	kp_requirements *requirements;        /**< requirements as given (plus instance-type In [name]) */
	const kp_resource_list *capacity;     /**< capacity */
	const kp_resource_list *overhead;     /**< kubeReserved + systemReserved + evictionThreshold */
	const kp_resource_list *allocatable;  /**< capacity - overhead (see kp_instance_type_spec) */
	const kp_resource_list *kube_reserved;      /**< as given (empty list if none) */
	const kp_resource_list *system_reserved;    /**< as given (empty list if none) */
	const kp_resource_list *eviction_threshold; /**< as given (empty list if none) */
	const kp_offering *const *offerings;  /**< offerings in the order given */
	size_t n_offerings;                   /**< number of offerings */
} kp_instance_type;

/**
 * @brief An immutable catalogue of instance types, owned by the core.
 *
 * Built once (kp_instance_types_new, kp_instance_types_add for each type),
 * then only read; shared read-only by every simulation that uses it.
 * Reference-counted: kp_instance_types_ref takes a reference and
 * kp_instance_types_free drops one, so a provider can keep its catalogue and
 * hand out references to it. Taking a reference freezes the catalogue:
 * kp_instance_types_add then fails, so nothing changes under a holder.
 * @since 0.1
 * Thread-safety: after the last add, all read functions, ref and free are
 * safe from any thread (the count is atomic).
 */
typedef struct kp_instance_types kp_instance_types;

/**
 * @brief Create an empty catalogue.
 * @param[out] out the catalogue (one reference), NULL on failure
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL @p out), KP_ENOMEM
 * @since 0.1
 * Ownership: the caller owns the reference; drop it with
 * kp_instance_types_free.
 * Thread-safety: safe.
 */
int kp_instance_types_new(kp_instance_types **out, kp_error *err);

/**
 * @brief Copy an instance type description into the catalogue.
 *
 * Names must be unique; every offering needs a capacity type and a zone;
 * prices from 0 to 1e6 (per hour); reservation capacities >= 0; available is
 * 0 or 1. Error fields name the offending member ("name",
 * "offerings[2].zone", "requirements[0].values", "capacity").
 * @param[in,out] its a catalogue no one else holds a reference to
 * @param[in] spec the description
 * @param[out] err optional error detail
 * @return KP_OK; KP_EINVAL (NULL argument, invalid description, duplicate
 *         name, or a frozen catalogue: "instance types: the catalogue is
 *         shared and can no longer change"); KP_EVERSION (struct_size of
 *         @p spec or an offering); KP_ERANGE (allocatable overflows);
 *         KP_ENOMEM. On failure the catalogue is unchanged.
 * @since 0.1
 * Ownership: nothing of @p spec is kept.
 * Thread-safety: needs exclusive access to @p its.
 */
int kp_instance_types_add(kp_instance_types *its, const kp_instance_type_spec *spec, kp_error *err);

/**
 * @brief Take a reference to a catalogue, which freezes it.
 * @param[in] its the catalogue, or NULL
 * @return @p its
 * @since 0.1
 * Ownership: the caller owns the new reference.
 * Thread-safety: safe.
 */
kp_instance_types *kp_instance_types_ref(kp_instance_types *its);

/**
 * @brief Drop a reference; the last one releases the catalogue.
 * @param[in] its the catalogue, or NULL (no-op)
 * @since 0.1
 * Ownership: views borrowed from the catalogue stay valid while another
 * reference is held.
 * Thread-safety: safe.
 */
void kp_instance_types_free(kp_instance_types *its);

/**
 * @brief Number of instance types.
 * @param[in] its the catalogue
 * @return the count; 0 if @p its is NULL
 * @since 0.1
 * Thread-safety: safe on a catalogue no thread is adding to.
 */
size_t kp_instance_types_count(kp_instance_types *its);

/**
 * @brief Instance type by index (insertion order).
 * @param[in] its the catalogue
 * @param[in] index 0 .. kp_instance_types_count() - 1
 * @return the instance type, or NULL when out of range
 * @since 0.1
 * Ownership: borrowed from the catalogue.
 * Thread-safety: safe on a catalogue no thread is adding to.
 */
const kp_instance_type *kp_instance_types_at(kp_instance_types *its, size_t index);

/**
 * @brief Instance type by name (binary search).
 * @param[in] its the catalogue
 * @param[in] name the name
 * @return the instance type, or NULL if absent or an argument is NULL
 * @since 0.1
 * Ownership: borrowed from the catalogue.
 * Thread-safety: safe on a catalogue no thread is adding to.
 */
const kp_instance_type *kp_instance_types_find(kp_instance_types *its, const char *name);

/**
 * @brief All instance types, in insertion order, as an array of pointers.
 *
 * Copy the pointers into an array of your own to filter or sort them with
 * the functions below.
 * @param[in] its the catalogue
 * @param[out] n the count (0 if @p its is NULL); may be NULL
 * @return the array, or NULL when empty
 * @since 0.1
 * Ownership: borrowed from the catalogue; valid until the next add.
 * Thread-safety: safe on a catalogue no thread is adding to.
 */
const kp_instance_type *const *kp_instance_types_items(kp_instance_types *its, size_t *n);

/* ------------------------------------------------------------------ */
/* Catalogue queries (upstream Offerings and InstanceTypes methods)    */
/* ------------------------------------------------------------------ */
/*
 * Requirements: a NULL @p reqs means "no requirements". Compatibility is
 * upstream reqs.IsCompatible(offering.Requirements,
 * AllowUndefinedWellKnownLabels), i.e. kp_requirements_compatible(reqs,
 * offering->requirements, KP_COMPAT_ALLOW_UNDEFINED_WELLKNOWN, wk): a
 * well-known key (in @p wk; NULL = the core's labels) that @p reqs leaves
 * undefined does not conflict.
 */

/**
 * @brief Whether @p reqs allow @p offering (available or not).
 * @param[in] offering the offering
 * @param[in] reqs the requirements, or NULL
 * @param[in] wk label rules, or NULL for the core rules
 * @return 1 or 0 (0 if @p offering is NULL)
 * @since 0.1
 * Thread-safety: safe. Never allocates.
 */
int kp_offering_compatible(const kp_offering *offering, kp_requirements *reqs, kp_wellknown *wk);

/**
 * @brief The cheapest available offering compatible with @p reqs (upstream
 *        Offerings.Available().Compatible(reqs).Cheapest()).
 *
 * Ties go to the offering given first to kp_instance_types_add (upstream
 * lo.MinBy keeps the first minimum, too).
 * @param[in] it the instance type
 * @param[in] reqs the requirements, or NULL
 * @param[in] wk label rules, or NULL for the core rules
 * @return the offering (borrowed from the catalogue), or NULL if none
 * @since 0.1
 * Thread-safety: safe. Never allocates.
 */
const kp_offering *kp_instance_type_cheapest_offering(const kp_instance_type *it,
						      kp_requirements *reqs, kp_wellknown *wk);

/**
 * @brief The worst-case launch price (upstream
 *        Offerings.Available().WorstLaunchPrice(reqs)).
 *
 * Among the available offerings compatible with @p reqs, those of the first
 * capacity type that has any, in the order "reserved", "spot",
 * "on-demand", give the highest price.
 * @param[in] it the instance type
 * @param[in] reqs the requirements, or NULL
 * @param[in] wk label rules, or NULL for the core rules
 * @return the price, or DBL_MAX (Go's math.MaxFloat64) when there is none or
 *         @p it is NULL
 * @since 0.1
 * Thread-safety: safe. Never allocates.
 */
double kp_instance_type_worst_launch_price(const kp_instance_type *it, kp_requirements *reqs,
					   kp_wellknown *wk);

/**
 * @brief Keep the instance types that have an available offering compatible
 *        with @p reqs (upstream InstanceTypes.Compatible).
 * @param[in,out] its array of @p n instance types, compacted in place (order
 *                kept; NULL elements are dropped)
 * @param[in] n its length
 * @param[in] reqs the requirements, or NULL
 * @param[in] wk label rules, or NULL for the core rules
 * @return the number kept (0 if @p its is NULL)
 * @since 0.1
 * Ownership: the pointers stay borrowed from their catalogues.
 * Thread-safety: safe for distinct arrays. Never allocates.
 */
size_t kp_instance_types_filter_compatible(const kp_instance_type **its, size_t n,
					   kp_requirements *reqs, kp_wellknown *wk);

/**
 * @brief Sort instance types by the price of their cheapest available
 *        offering compatible with @p reqs (upstream
 *        InstanceTypes.OrderByPrice).
 *
 * Types without such an offering sort last (price DBL_MAX). Upstream's sort
 * is not stable; here ties are broken by name (byte order), then by position
 * in @p its, so the result is the same for the same input.
 * @param[in,out] its array of @p n instance types, sorted in place
 * @param[in] n its length
 * @param[in] reqs the requirements, or NULL
 * @param[in] wk label rules, or NULL for the core rules
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL @p its with @p n > 0, NULL element),
 *         KP_ENOMEM; @p its is unchanged on failure
 * @since 0.1
 * Thread-safety: safe for distinct arrays.
 */
int kp_instance_types_order_by_price(const kp_instance_type **its, size_t n,
				     kp_requirements *reqs, kp_wellknown *wk, kp_error *err);

/**
 * @brief Whether @p its, in order, satisfy the minValues of @p reqs
 *        (upstream InstanceTypes.SatisfiesMinValues).
 *
 * For each key of @p reqs with minValues, the distinct values the instance
 * types' requirements store for that key are counted (upstream Values():
 * the values of In, the excluded values of NotIn; an undefined key adds
 * none). @p min_needed is the length of the shortest prefix of @p its that
 * satisfies every key: 0 when @p reqs has no minValues (and when @p n is 0).
 * @param[out] min_needed the prefix length; untouched on failure; may be NULL
 * @param[in] its array of @p n instance types
 * @param[in] n its length
 * @param[in] reqs the requirements, or NULL (no minValues)
 * @param[out] err optional error detail: on KP_EINCOMPATIBLE the message is
 *             "minValues requirement is not met for label(s) (label(s)=[K1
 *             K2])" with the unmet keys in byte order, and the field is the
 *             first of them
 * @return KP_OK, KP_EINCOMPATIBLE (not met, an expected outcome), KP_EINVAL,
 *         KP_ENOMEM
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_instance_types_satisfies_min_values(size_t *min_needed, const kp_instance_type *const *its,
					   size_t n, kp_requirements *reqs, kp_error *err);

/** Flags of kp_instance_types_truncate. @since 0.1 */
enum kp_truncate_flags {
	/** minValues policy BestEffort: truncate even when minValues is no
	 *  longer met (upstream --min-values-policy=BestEffort). */
	KP_TRUNCATE_MIN_VALUES_BEST_EFFORT = 1u << 0
};

/**
 * @brief Order by price and keep at most @p max_items (upstream
 *        InstanceTypes.Truncate).
 *
 * kp_instance_types_order_by_price, then the first @p max_items. When @p reqs
 * has minValues and KP_TRUNCATE_MIN_VALUES_BEST_EFFORT is not set, the kept
 * types must still satisfy them (kp_instance_types_satisfies_min_values).
 * @param[out] n_out the number kept
 * @param[in,out] its array of @p n instance types; on success sorted, the
 *                kept ones first
 * @param[in] n its length
 * @param[in] reqs the requirements, or NULL
 * @param[in] wk label rules, or NULL for the core rules
 * @param[in] max_items the most to keep
 * @param[in] flags kp_truncate_flags
 * @param[out] err optional error detail: on KP_EINCOMPATIBLE "validating
 *             minValues, minValues requirement is not met for label(s)
 *             (label(s)=[K])"
 * @return KP_OK, KP_EINCOMPATIBLE, KP_EINVAL (NULL argument, unknown flag),
 *         KP_ENOMEM; @p its and @p n_out are unchanged on failure
 * @since 0.1
 * Thread-safety: safe for distinct arrays.
 */
int kp_instance_types_truncate(size_t *n_out, const kp_instance_type **its, size_t n,
			       kp_requirements *reqs, kp_wellknown *wk, size_t max_items,
			       uint32_t flags, kp_error *err);

/* ------------------------------------------------------------------ */
/* Launched instances                                                  */
/* ------------------------------------------------------------------ */

/**
 * @brief A provider's description of one launched instance.
 *
 * Filled by the provider in create, get and list; the core copies it into
 * a NodeClaim. In create and get the core passes a record it initialized
 * with KP_INSTANCE_INIT, so struct_size is the core's: a provider built
 * against newer headers must not write members beyond it. Records a provider
 * returns from list carry the provider's own struct_size.
 * @since 0.1
 * Ownership: provider-owned strings and lists; valid until the next call on
 * the same provider instance.
 */
typedef struct kp_instance {
	uint32_t struct_size;         /**< sizeof(kp_instance) */
	uint32_t reserved;            /**< zero */
	const char *provider_id;      /**< unique, stable provider ID; required */
	const char *image_id;         /**< image ID, or NULL */
	const char *nodeclaim_name;   /**< the NodeClaim it was launched for (get, list), or NULL */
	kp_labels labels;             /**< resolved labels: instance type, zone, capacity type, ... */
	kp_labels annotations;        /**< annotations (e.g. a node-class hash), or empty */
	kp_resource_list capacity;    /**< capacity */
	kp_resource_list allocatable; /**< allocatable */
	int64_t created_ms;           /**< launch time (Unix ms), 0 if unknown */
	int64_t deletion_ms;          /**< when termination began (Unix ms), 0 while running */
} kp_instance;

/** Static initializer for kp_instance. @since 0.1 */
#define KP_INSTANCE_INIT { sizeof(kp_instance), 0, NULL, NULL, NULL, KP_LABELS_INIT, \
	KP_LABELS_INIT, KP_RESOURCE_LIST_INIT, KP_RESOURCE_LIST_INIT, 0, 0 }

/**
 * @brief Initialize @p inst as KP_INSTANCE_INIT does (for FFI).
 * @param[out] inst the struct to fill; NULL is ignored
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_instance_init(kp_instance *inst);

/**
 * @brief A node condition that, held long enough, makes Karpenter repair
 *        (replace) the node (upstream cloudprovider.RepairPolicy).
 *
 * Fixed-layout value type (returned in contiguous arrays).
 * @since 0.1
 */
typedef struct kp_repair_policy {
	const char *condition_type;    /**< node condition type, e.g. "Ready" */
	const char *condition_status;  /**< "True", "False" or "Unknown" */
	int64_t toleration_ms;         /**< how long it is tolerated */
} kp_repair_policy;

/**
 * @brief A node-class kind a provider supports; a NodePool whose
 *        nodeClassRef names one is "managed" by that provider.
 *
 * Fixed-layout value type (returned in contiguous arrays).
 * @since 0.1
 */
typedef struct kp_group_kind {
	const char *group; /**< e.g. "karpenter.kwok.sh" */
	const char *kind;  /**< e.g. "KWOKNodeClass" */
} kp_group_kind;

/* ------------------------------------------------------------------ */
/* The vtable                                                          */
/* ------------------------------------------------------------------ */

/** kp_cloudprovider_ops::flags. @since 0.1 */
enum kp_provider_flags {
	/** The core may call this provider instance from several threads at once. */
	KP_PROVIDER_F_THREADSAFE = 1u << 0
};

/**
 * @brief A provider's implementation of the cloud-provider contract.
 *
 * Size-tagged and append-only: new slots are only ever added at the end, and
 * the core treats slots beyond struct_size as NULL. name, create,
 * delete_instance, get, list and get_instance_types are required. Another
 * NULL slot means "not implemented": its wrapper returns KP_ENOTSUP, except
 * that is_drifted and repair_policies fall back to "not drifted" and "no
 * policies".
 *
 * Every method takes the provider's @p self first and an optional kp_error
 * last, and returns KP_OK or a negative kp_status with these meanings:
 * KP_EINSUFFICIENT (no capacity: upstream InsufficientCapacityError; also a
 * missing node class, as KWOK reports it), KP_ENOTREADY (node class not
 * ready), KP_ENOTFOUND (no such instance), KP_ECREATE (launch failed: the
 * condition reason in err->provider_code, the message in err->message).
 * The core passes its own kp_error (never NULL) and hands the code, message
 * and provider code to its caller unchanged.
 * @since 0.1
 */
typedef struct kp_cloudprovider_ops {
	uint32_t struct_size; /**< sizeof(kp_cloudprovider_ops) as the provider was built */
	uint32_t abi_major;   /**< KP_ABI_MAJOR of the headers the provider was built with */
	uint32_t flags;       /**< kp_provider_flags */
	uint32_t reserved;    /**< zero */
	const char *name;     /**< provider name, e.g. "kwok" (upstream Name()); required */

	/** Launch an instance for @p nodeclaim (its requirements list the
	 *  allowed instance types, zones, capacity types). Fill @p out, which
	 *  the core initialized with KP_INSTANCE_INIT. Required. */
	int (*create)(void *self, const kp_nodeclaim *nodeclaim, kp_instance *out, kp_error *err);
	/** Terminate the instance of @p nodeclaim (status.providerID). Idempotent;
	 *  returns KP_ENOTFOUND once the instance no longer exists. KP_OK means
	 *  "termination in progress": the core calls again later. Required. */
	int (*delete_instance)(void *self, const kp_nodeclaim *nodeclaim, kp_error *err);
	/** Describe the instance with @p provider_id in @p out (initialized by
	 *  the core), or return KP_ENOTFOUND. Required. */
	int (*get)(void *self, const char *provider_id, kp_instance *out, kp_error *err);
	/** All instances this provider manages: *out points at *n records
	 *  (NULL when *n is 0). Required. */
	int (*list)(void *self, const kp_instance *const **out, size_t *n, kp_error *err);
	/** The instance types for @p nodepool (NULL: the provider's default),
	 *  including those with no available offering. *out is a reference the
	 *  caller releases with kp_instance_types_free (a provider that caches
	 *  its catalogue returns kp_instance_types_ref(cached)). Required. */
	int (*get_instance_types)(void *self, const kp_nodepool *nodepool,
				  kp_instance_types **out, kp_error *err);
	/** Provider drift: write a NUL-terminated reason (e.g. "AMIDrift") of
	 *  at most @p reason_size bytes into @p reason, or "" when not drifted. */
	int (*is_drifted)(void *self, const kp_nodeclaim *nodeclaim, char *reason,
			  size_t reason_size, kp_error *err);
	/** Repair policies: *out points at *n static records. */
	int (*repair_policies)(void *self, const kp_repair_policy **out, size_t *n, kp_error *err);
	/** Supported node classes, the default first: *out points at *n static
	 *  records. */
	int (*supported_node_classes)(void *self, const kp_group_kind **out, size_t *n,
				      kp_error *err);
	/** Release @p self (called by kp_cloudprovider_free). May be NULL. */
	void (*destroy)(void *self);
} kp_cloudprovider_ops;

/** Static initializer for kp_cloudprovider_ops: sizes and ABI set, no slots. @since 0.1 */
#define KP_CLOUDPROVIDER_OPS_INIT { sizeof(kp_cloudprovider_ops), KP_ABI_MAJOR, 0, 0, NULL, NULL, \
	NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL }

/**
 * @brief Initialize @p ops as KP_CLOUDPROVIDER_OPS_INIT does (for FFI, with
 *        the loaded library's ABI generation).
 * @param[out] ops the struct to fill; NULL is ignored
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_cloudprovider_ops_init(kp_cloudprovider_ops *ops);

/* ------------------------------------------------------------------ */
/* The core's handle on a provider                                     */
/* ------------------------------------------------------------------ */

/**
 * @brief A registered provider.
 * @since 0.1
 * Thread-safety: the handle keeps no mutable state; calls on one handle may
 * run concurrently only if the provider sets KP_PROVIDER_F_THREADSAFE.
 */
typedef struct kp_cloudprovider kp_cloudprovider;

/**
 * @brief Register a provider implementation.
 *
 * Checks, in this order: ops->abi_major equals this library's KP_ABI_MAJOR
 * (a provider built for another ABI generation is refused instead of
 * crashing later), ops->struct_size (at least the 0.1 size; a larger one
 * only with zero bytes beyond this library's size), flags and reserved,
 * then that name, create, delete_instance, get, list and get_instance_types
 * are set.
 * @param[out] out the handle, NULL on failure
 * @param[in] ops the vtable (copied)
 * @param[in] self the provider's state, passed to every method
 * @param[out] err optional error detail, e.g. (field "abi_major")
 *             `kp_cloudprovider_ops.abi_major is 200, but this libkarpenter
 *             has ABI 100: rebuild the provider against it`, or (field
 *             "create") `provider "x": required method create is NULL`
 * @return KP_OK, KP_EINVAL, KP_EVERSION, KP_ENOMEM
 * @since 0.1
 * Ownership: on success the handle owns @p self and releases it through
 * ops->destroy in kp_cloudprovider_free; on failure the caller still owns
 * @p self (the vtable may not be readable, so destroy is never called).
 * Thread-safety: safe.
 */
int kp_cloudprovider_new(kp_cloudprovider **out, const kp_cloudprovider_ops *ops, void *self,
			 kp_error *err);

/**
 * @brief Release a provider handle and its implementation.
 * @param[in] cp the handle, or NULL (no-op)
 * @since 0.1
 * Thread-safety: needs exclusive access to @p cp.
 */
void kp_cloudprovider_free(kp_cloudprovider *cp);

/**
 * @brief The provider's name.
 * @param[in] cp the handle
 * @return the name (borrowed from the handle); "" if @p cp is NULL
 * @since 0.1
 * Thread-safety: safe.
 */
const char *kp_cloudprovider_name(kp_cloudprovider *cp);

/**
 * @brief Launch an instance for @p nodeclaim and return the launched
 *        NodeClaim (upstream Create followed by PopulateNodeClaimDetails).
 *
 * The result is a copy of @p nodeclaim with: metadata.labels = the
 * provider's labels, overridden by the NodeClaim's own (user labels win);
 * metadata.annotations = the NodeClaim's, overridden by the provider's;
 * status.providerID, imageID, capacity and allocatable replaced by the
 * provider's.
 * @param[out] out the launched NodeClaim, NULL on failure
 * @param[in] cp the handle
 * @param[in] nodeclaim the NodeClaim to launch
 * @param[out] err optional error detail; on a provider failure its code,
 *             message and provider_code are the provider's
 * @return KP_OK; the provider's KP_EINSUFFICIENT, KP_ENOTREADY, KP_ECREATE
 *         or other code; KP_EINVAL (NULL argument, an instance without a
 *         provider ID, invalid labels or resources: the field names the
 *         record's member, e.g. "labels[1]"); KP_EVERSION (struct_size of
 *         the NodeClaim or of the provider's record); KP_ENOMEM
 * @since 0.1
 * Ownership: caller owns *out (kp_nodeclaim_free).
 * Thread-safety: see kp_cloudprovider.
 */
int kp_cloudprovider_create(kp_nodeclaim **out, kp_cloudprovider *cp,
			    const kp_nodeclaim *nodeclaim, kp_error *err);

/**
 * @brief Ask the provider to terminate the instance of @p nodeclaim.
 * @param[in] cp the handle
 * @param[in] nodeclaim the NodeClaim (status.providerID names the instance)
 * @param[out] err optional error detail (the provider's on its failure)
 * @return KP_OK while termination is in progress, KP_ENOTFOUND once the
 *         instance is gone (only then may the NodeClaim's finalizer go),
 *         another code on failure
 * @since 0.1
 * Thread-safety: see kp_cloudprovider.
 */
int kp_cloudprovider_delete(kp_cloudprovider *cp, const kp_nodeclaim *nodeclaim, kp_error *err);

/**
 * @brief The NodeClaim view of the instance with @p provider_id.
 *
 * metadata: name = nodeclaim_name, labels, annotations, creationTimestamp =
 * created_ms, deletionTimestamp = deletion_ms; status: providerID, imageID,
 * capacity, allocatable. The spec is absent.
 * @param[out] out the NodeClaim, NULL on failure
 * @param[in] cp the handle
 * @param[in] provider_id the provider ID
 * @param[out] err optional error detail
 * @return KP_OK, KP_ENOTFOUND, KP_EINVAL, KP_ENOMEM, or the provider's code
 * @since 0.1
 * Ownership: caller owns *out (kp_nodeclaim_free).
 * Thread-safety: see kp_cloudprovider.
 */
int kp_cloudprovider_get(kp_nodeclaim **out, kp_cloudprovider *cp, const char *provider_id,
			 kp_error *err);

/**
 * @brief NodeClaim views (as kp_cloudprovider_get) of every instance,
 *        sorted by provider ID.
 * @param[out] out array of *n NodeClaims (NULL when there are none)
 * @param[out] n the count
 * @param[in] cp the handle
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (also for two instances with one provider ID),
 *         KP_ENOMEM, or the provider's code
 * @since 0.1
 * Ownership: caller owns *out; release with kp_nodeclaims_free.
 * Thread-safety: see kp_cloudprovider.
 */
int kp_cloudprovider_list(kp_nodeclaim ***out, size_t *n, kp_cloudprovider *cp, kp_error *err);

/**
 * @brief Release an array returned by kp_cloudprovider_list.
 * @param[in] nodeclaims the array, or NULL (no-op)
 * @param[in] n its length
 * @since 0.1
 * Thread-safety: needs exclusive access to the array.
 */
void kp_nodeclaims_free(kp_nodeclaim **nodeclaims, size_t n);

/**
 * @brief The instance types a NodePool may use.
 * @param[out] out a reference to the catalogue (frozen), NULL on failure
 * @param[in] cp the handle
 * @param[in] nodepool the NodePool, or NULL for the provider's default
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL, or the provider's code
 * @since 0.1
 * Ownership: caller owns the reference; drop it with kp_instance_types_free.
 * Thread-safety: see kp_cloudprovider.
 */
int kp_cloudprovider_get_instance_types(kp_instance_types **out, kp_cloudprovider *cp,
					const kp_nodepool *nodepool, kp_error *err);

/**
 * @brief Provider drift of a NodeClaim.
 * @param[in] cp the handle
 * @param[in] nodeclaim the NodeClaim
 * @param[out] reason the drift reason, "" when not drifted or on failure
 * @param[in] reason_size size of @p reason, at least 1
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL, or the provider's code
 * @since 0.1
 * Thread-safety: see kp_cloudprovider.
 */
int kp_cloudprovider_is_drifted(kp_cloudprovider *cp, const kp_nodeclaim *nodeclaim,
				char *reason, size_t reason_size, kp_error *err);

/**
 * @brief The provider's repair policies (none if it does not implement them).
 * @param[out] out the policies (NULL when none)
 * @param[out] n their count
 * @param[in] cp the handle
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL, or the provider's code
 * @since 0.1
 * Ownership: borrowed from the provider.
 * Thread-safety: see kp_cloudprovider.
 */
int kp_cloudprovider_repair_policies(const kp_repair_policy **out, size_t *n,
				     kp_cloudprovider *cp, kp_error *err);

/**
 * @brief The node classes the provider supports, the default first.
 * @param[out] out the node classes
 * @param[out] n their count
 * @param[in] cp the handle
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL, KP_ENOTSUP (slot not implemented), or the
 *         provider's code
 * @since 0.1
 * Ownership: borrowed from the provider.
 * Thread-safety: see kp_cloudprovider.
 */
int kp_cloudprovider_supported_node_classes(const kp_group_kind **out, size_t *n,
					    kp_cloudprovider *cp, kp_error *err);

/**
 * @brief Whether the provider manages @p nodepool: the group and kind of its
 *        template's nodeClassRef are among the supported node classes
 *        (upstream nodepoolutils.IsManaged).
 * @param[in] cp the handle
 * @param[in] nodepool the NodePool
 * @return 1 or 0 (0 also without a nodeClassRef, on NULL arguments, and when
 *         supported_node_classes is not implemented or fails)
 * @since 0.1
 * Thread-safety: see kp_cloudprovider.
 */
int kp_cloudprovider_manages(kp_cloudprovider *cp, const kp_nodepool *nodepool);

/**
 * @brief Whether the provider manages @p nodeclaim, by its spec.nodeClassRef
 *        (upstream nodeclaimutils.IsManaged).
 * @param[in] cp the handle
 * @param[in] nodeclaim the NodeClaim
 * @return 1 or 0, as kp_cloudprovider_manages
 * @since 0.1
 * Thread-safety: see kp_cloudprovider.
 */
int kp_cloudprovider_manages_nodeclaim(kp_cloudprovider *cp, const kp_nodeclaim *nodeclaim);

KP_END_DECLS

#endif /* KARPENTER_CLOUDPROVIDER_H */
