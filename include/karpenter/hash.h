/*
 * libkarpenter: the NodePool drift hash and static drift (upstream
 * pkg/apis/v1/nodepool.go Hash(), pkg/controllers/nodepool/hash and
 * pkg/controllers/nodeclaim/disruption/drift.go).
 *
 * The hash. Karpenter's hash controller writes, on every NodePool, the
 * annotation karpenter.sh/nodepool-hash = NodePool.Hash(), a decimal
 * uint64, and karpenter.sh/nodepool-hash-version = NodePoolHashVersion
 * ("v3"); a NodeClaim carries the values of its NodePool at launch. The
 * hash is github.com/mitchellh/hashstructure/v2 (FormatV2, SlicesAsSets,
 * IgnoreZeroValue, ZeroNil) of spec.template, and kp_nodepool_hash returns
 * the same value bit for bit for every hash version v3 object. It covers
 * the template's labels, annotations, taints, startupTaints, nodeClassRef,
 * terminationGracePeriod and expireAfter; requirements are not hashed
 * (they drift on their own rules, kp_drift_requirements), nor is anything
 * outside the template (disruption, limits, weight).
 *
 * What the hash sees, as upstream does (see VERSIONING.md, "Behaviour is
 * API"):
 * - Absent and empty differ: `labels: {}`, `taints: []` or
 *   `startupTaints: []` hash differently from leaving the key out, while
 *   `metadata: {}` equals no metadata. Empty strings count as absent; a
 *   label whose value is "" is hashed.
 * - Lists are sets: taint order does not matter, and two identical taints
 *   cancel out (they hash like `taints: []`).
 * - Durations are hashed by value: 720h, 720h0m0s and 43200m are equal.
 *   `expireAfter: Never` hashes like no expireAfter; `0s` does not.
 * - Nothing is defaulted here: the hash is of the object as given. The
 *   controller hashes the object the API server stores, after CRD
 *   defaulting (an absent expireAfter becomes 720h), so to reproduce the
 *   annotation of a manifest apply kp_nodepool_default (validation.h) to it
 *   first, as `kubectl-karpenter hash` does.
 * - A taint's timeAdded is hashed through Go's time.Time.MarshalBinary,
 *   which includes the zone offset of the time's location. Karpenter reads
 *   objects from JSON, where metav1.Time is converted to the controller's
 *   local zone, so the hash of a NodePool with a timeAdded depends on the
 *   controller's TZ. kp_nodepool_hash assumes a controller whose local zone
 *   is UTC (TZ unset, the usual container image): offset 0.
 *   kp_nodepool_hash_ext reproduces other zones, and a time held in Go's
 *   time.UTC location (offset -1), with kp_hash_options. Timestamps are
 *   kept in milliseconds (objects.h), so a timeAdded with sub-millisecond
 *   digits hashes as if they were zero, and one exactly at the Unix epoch
 *   reads as unset.
 *
 * Static drift (kp_drift_static) compares the hash annotations of a
 * NodeClaim and its NodePool: drifted when both carry both annotations,
 * their versions are equal and their hashes differ. A version mismatch is
 * never static drift: the hash controller re-stamps NodeClaims instead
 * (kp_nodeclaim_hash_annotations). Requirements drift
 * (kp_drift_requirements) is upstream's asymmetric check of the NodeClaim's
 * labels against the NodePool's requirements. kp_drift_check combines
 * them in upstream's order, with upstream's DriftReason text. Provider
 * drift (node class changes, a vanished instance type) belongs to the
 * cloud provider (cloudprovider.h, kp_cloudprovider_is_drifted).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_HASH_H
#define KARPENTER_HASH_H

#include <karpenter/common.h>
#include <karpenter/labels.h>
#include <karpenter/nodeclaim.h>
#include <karpenter/nodepool.h>
#include <karpenter/wellknown.h>

KP_BEGIN_DECLS

/** The NodePool hash version this library computes (upstream
 *  NodePoolHashVersion). @since 0.1 */
#define KP_NODEPOOL_HASH_VERSION "v3"

/** Annotation holding the NodePool hash, on NodePools and NodeClaims
 *  (upstream NodePoolHashAnnotationKey). @since 0.1 */
#define KP_ANNOTATION_NODEPOOL_HASH "karpenter.sh/nodepool-hash"

/** Annotation holding the hash version (upstream
 *  NodePoolHashVersionAnnotationKey). @since 0.1 */
#define KP_ANNOTATION_NODEPOOL_HASH_VERSION "karpenter.sh/nodepool-hash-version"

#ifndef KP_CONDITION_DRIFTED
/** NodeClaim status condition type set on drifted NodeClaims. @since 0.1 */
#define KP_CONDITION_DRIFTED "Drifted"
#endif
#ifndef KP_CONDITION_LAUNCHED
/** NodeClaim status condition type: the instance was launched. @since 0.1 */
#define KP_CONDITION_LAUNCHED "Launched"
#endif

/** Bytes that hold any hash as decimal text, with its NUL. @since 0.1 */
#define KP_HASH_STRING_MAX 21

/* ------------------------------------------------------------------------ */
/* Hash                                                                     */

/**
 * @brief Where hashed times (a taint's timeAdded) are located, which decides
 *        the zone offset Go's time.MarshalBinary writes.
 * @since 0.1
 */
enum kp_hash_time_location {
	/** The controller's local zone (metav1.Time read from JSON is
	 *  converted with .Local()); its offset is kp_hash_options::utc_offset_s
	 *  or kp_hash_options::utc_offset_fn. The default, with offset 0. */
	KP_HASH_TIME_LOCAL = 0,
	/** Go's time.UTC location (a time built in Go with .UTC() and never
	 *  read from JSON): MarshalBinary writes offset -1. */
	KP_HASH_TIME_UTC = 1
};

/**
 * @brief Options of kp_nodepool_hash_ext and the functions that hash,
 *        filled by the caller.
 *
 * Only timeAdded depends on them; NodePools without one hash the same with
 * any options.
 * @since 0.1
 */
typedef struct kp_hash_options {
	uint32_t struct_size;   /**< sizeof(kp_hash_options) */
	uint32_t time_location; /**< a kp_hash_time_location */
	int32_t utc_offset_s;   /**< KP_HASH_TIME_LOCAL: the local zone's offset east of UTC in
	                             seconds (19800 for Asia/Kolkata); ignored when
	                             utc_offset_fn is set */
	uint32_t reserved;      /**< zero */
	/** KP_HASH_TIME_LOCAL, optional: the local zone's offset east of UTC,
	 *  in seconds, at Unix time @p unix_s (for zones with daylight saving
	 *  time, e.g. from localtime_r's tm_gmtoff). Called during the hash;
	 *  it must not call back into the library. */
	int32_t (*utc_offset_fn)(void *ctx, int64_t unix_s);
	void *ctx;              /**< passed to utc_offset_fn */
} kp_hash_options;

/** Static initializer for kp_hash_options: local zone at offset 0. @since 0.1 */
#define KP_HASH_OPTIONS_INIT { sizeof(kp_hash_options), KP_HASH_TIME_LOCAL, 0, 0, NULL, NULL }

/**
 * @brief Initialize options as KP_HASH_OPTIONS_INIT (for FFI).
 * @param[out] opts the options; NULL is a no-op
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_hash_options_init(kp_hash_options *opts);

/**
 * @brief The drift hash of a NodePool (upstream NodePool.Hash()): the value
 *        of the karpenter.sh/nodepool-hash annotation, as a number.
 *
 * Hashes spec.template as given, without defaulting (see the file
 * comment), for a controller whose local time zone is UTC. A NodePool
 * without spec or template hashes its zero template.
 * @param[in] nodepool the NodePool (library- or caller-built)
 * @param[out] out the hash; untouched on failure
 * @param[out] err optional error detail; kp_error::field is the path below
 *             the NodePool, e.g. "spec.template.spec.expireAfter"
 * @return KP_OK; KP_EINVAL (NULL argument; a duration whose text is not a
 *         duration; an unknown taint effect code; NULL items with a
 *         non-zero count); KP_EVERSION (a struct_size this library cannot
 *         read)
 * @since 0.1
 * Ownership: @p nodepool is only read.
 * Thread-safety: safe.
 */
int kp_nodepool_hash(const kp_nodepool *nodepool, uint64_t *out, kp_error *err);

/**
 * @brief kp_nodepool_hash with options (time zone of timeAdded).
 * @param[in] nodepool the NodePool
 * @param[in] opts options, or NULL for KP_HASH_OPTIONS_INIT
 * @param[out] out the hash; untouched on failure
 * @param[out] err optional error detail
 * @return as kp_nodepool_hash; also KP_EINVAL (unknown time_location),
 *         KP_EVERSION (options struct_size), KP_ERANGE (a zone offset that
 *         Go cannot marshal: between -119 and -60 seconds, or beyond
 *         +-32767 minutes)
 * @since 0.1
 * Ownership: inputs are only read.
 * Thread-safety: safe if utc_offset_fn is.
 */
int kp_nodepool_hash_ext(const kp_nodepool *nodepool, const kp_hash_options *opts, uint64_t *out,
			 kp_error *err);

/**
 * @brief The drift hash as the annotation's decimal text (fmt.Sprint).
 * @param[in] nodepool the NodePool
 * @param[in] opts options, or NULL for KP_HASH_OPTIONS_INIT
 * @param[out] buf destination; KP_HASH_STRING_MAX bytes always suffice
 * @param[in] size size of @p buf
 * @param[out] err optional error detail
 * @return as kp_nodepool_hash_ext; KP_ERANGE when @p size is too small
 *         (@p buf is then untouched)
 * @since 0.1
 * Ownership: inputs are only read.
 * Thread-safety: safe if utc_offset_fn is.
 */
int kp_nodepool_hash_string(const kp_nodepool *nodepool, const kp_hash_options *opts, char *buf,
			    size_t size, kp_error *err);

/**
 * @brief The annotations Karpenter's hash controller writes on a NodePool:
 *        karpenter.sh/nodepool-hash (the NodePool's hash) and
 *        karpenter.sh/nodepool-hash-version (KP_NODEPOOL_HASH_VERSION).
 *
 * Upstream merges them into metadata.annotations on every reconcile of a
 * NodePool its cloud provider manages.
 * @param[out] out overwritten (not disposed first) with a new library-owned
 *             map of the two annotations; untouched on failure
 * @param[in] nodepool the NodePool
 * @param[in] opts hash options, or NULL for KP_HASH_OPTIONS_INIT
 * @param[out] err optional error detail
 * @return as kp_nodepool_hash_ext; KP_ENOMEM
 * @since 0.1
 * Ownership: release @p out with kp_labels_dispose.
 * Thread-safety: safe if utc_offset_fn is.
 */
int kp_nodepool_hash_annotations(kp_labels *out, const kp_nodepool *nodepool,
				 const kp_hash_options *opts, kp_error *err);

/**
 * @brief The annotations the hash controller writes on a NodeClaim of a
 *        NodePool when it upgrades the hash version (upstream
 *        updateNodeClaimHash).
 *
 * The controller upgrades only when the NodePool's
 * karpenter.sh/nodepool-hash-version annotation is not
 * KP_NODEPOOL_HASH_VERSION (a new Karpenter read an old hash), and then
 * only the NodeClaims whose own version annotation is not: each gets
 * karpenter.sh/nodepool-hash-version = KP_NODEPOOL_HASH_VERSION and, unless
 * it has a Drifted status condition (whatever its status), also
 * karpenter.sh/nodepool-hash = the NodePool's current hash. A drifted
 * NodeClaim keeps its old hash, hence stays drifted: the change of hashing
 * makes its old hash meaningless, not its drift. Otherwise the result is
 * empty (the controller leaves the NodeClaim alone).
 *
 * The caller pairs the NodeClaim with its NodePool (label
 * karpenter.sh/nodepool); which NodePools and NodeClaims a provider
 * manages is the provider's decision.
 * @param[out] out overwritten (not disposed first) with a new library-owned
 *             map of the annotations to set (merge), possibly empty;
 *             untouched on failure
 * @param[in] nodepool the NodePool, with its annotations as stored
 * @param[in] nodeclaim the NodeClaim, with its annotations and status
 * @param[in] opts hash options, or NULL for KP_HASH_OPTIONS_INIT
 * @param[out] err optional error detail
 * @return as kp_nodepool_hash_ext; KP_ENOMEM
 * @since 0.1
 * Ownership: release @p out with kp_labels_dispose.
 * Thread-safety: safe if utc_offset_fn is.
 */
int kp_nodeclaim_hash_annotations(kp_labels *out, const kp_nodepool *nodepool,
				  const kp_nodeclaim *nodeclaim, const kp_hash_options *opts,
				  kp_error *err);

/* ------------------------------------------------------------------------ */
/* Drift                                                                    */

/**
 * @brief Why a NodeClaim is drifted (the core's upstream DriftReason
 *        values). Values are never renumbered.
 * @since 0.1
 */
enum kp_drift_reason {
	KP_DRIFT_NONE = 0,         /**< not drifted (as far as the core can tell) */
	KP_DRIFT_NODEPOOL = 1,     /**< "NodePoolDrifted": static fields changed */
	KP_DRIFT_REQUIREMENTS = 2  /**< "RequirementsDrifted": labels no longer fit */
};

/** DriftReason of KP_DRIFT_NODEPOOL. @since 0.1 */
#define KP_DRIFT_REASON_NODEPOOL_DRIFTED "NodePoolDrifted"
/** DriftReason of KP_DRIFT_REQUIREMENTS. @since 0.1 */
#define KP_DRIFT_REASON_REQUIREMENTS_DRIFTED "RequirementsDrifted"

/** Flags of kp_drift_options. @since 0.1 */
enum kp_drift_flags {
	/** Static drift: take the NodePool's hash and version from its spec
	 *  (kp_nodepool_hash_ext and KP_NODEPOOL_HASH_VERSION, what the hash
	 *  controller writes) instead of its annotations. For NodePools read
	 *  from manifests; default them first (kp_nodepool_default). */
	KP_DRIFT_HASH_FROM_SPEC = 1u << 0,
	/** kp_drift_check: evaluate NodeClaims whose Launched condition is not
	 *  True too (upstream clears their Drifted condition instead). */
	KP_DRIFT_IGNORE_LAUNCHED = 1u << 1
};

/**
 * @brief Options of the drift functions, filled by the caller.
 * @since 0.1
 */
typedef struct kp_drift_options {
	uint32_t struct_size;         /**< sizeof(kp_drift_options) */
	uint32_t flags;               /**< kp_drift_flags */
	kp_wellknown *wk;             /**< label rules for requirements (key aliases), or NULL
	                                   for the core rules */
	const kp_hash_options *hash;  /**< with KP_DRIFT_HASH_FROM_SPEC: hash options, or NULL */
} kp_drift_options;

/** Static initializer for kp_drift_options: upstream's behaviour. @since 0.1 */
#define KP_DRIFT_OPTIONS_INIT { sizeof(kp_drift_options), 0, NULL, NULL }

/**
 * @brief Initialize options as KP_DRIFT_OPTIONS_INIT (for FFI).
 * @param[out] opts the options; NULL is a no-op
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_drift_options_init(kp_drift_options *opts);

/**
 * @brief Static drift (upstream areStaticFieldsDrifted).
 *
 * Drifted when the NodePool and the NodeClaim both carry
 * karpenter.sh/nodepool-hash and karpenter.sh/nodepool-hash-version, the
 * versions are equal and the hashes differ. A missing annotation or a
 * version mismatch is not drift.
 * @param[in] nodepool the NodePool
 * @param[in] nodeclaim the NodeClaim
 * @param[in] opts options, or NULL for KP_DRIFT_OPTIONS_INIT
 * @param[out] out_drifted 1 if drifted, else 0; untouched on failure
 * @param[out] err optional error detail
 * @return KP_OK; KP_EINVAL (NULL argument, unknown flag); KP_EVERSION;
 *         with KP_DRIFT_HASH_FROM_SPEC, as kp_nodepool_hash_ext
 * @since 0.1
 * Ownership: inputs are only read.
 * Thread-safety: safe.
 */
int kp_drift_static(const kp_nodepool *nodepool, const kp_nodeclaim *nodeclaim,
		    const kp_drift_options *opts, uint32_t *out_drifted, kp_error *err);

/**
 * @brief Requirements drift (upstream areRequirementsDrifted).
 *
 * The NodeClaim's labels, one "KEY In [VALUE]" requirement each, must be
 * compatible with the NodePool's spec.template.spec.requirements
 * (kp_requirements_compatible): every NodePool requirement must allow the
 * NodeClaim's value for its key, and a NodePool key the labels lack drifts
 * unless its operator is NotIn or DoesNotExist. So widening a requirement
 * never drifts, narrowing it past the NodeClaim's value does, and adding an
 * In or Exists requirement on a key the NodeClaim has no label for does.
 * @param[in] nodepool the NodePool
 * @param[in] nodeclaim the NodeClaim
 * @param[in] opts options (wk), or NULL for KP_DRIFT_OPTIONS_INIT
 * @param[out] out_drifted 1 if drifted, else 0; untouched on failure
 * @param[out] err optional error detail; on KP_OK with drift it is left
 *             alone (kp_drift_check gives the explanation)
 * @return KP_OK; KP_EINVAL (NULL argument; a NodePool requirement the
 *         algebra rejects, with field "spec.template.spec.requirements[i]...");
 *         KP_EPARSE (a Gt/Lt value that is not an integer); KP_EVERSION;
 *         KP_ENOMEM
 * @since 0.1
 * Ownership: inputs are only read.
 * Thread-safety: safe.
 */
int kp_drift_requirements(const kp_nodepool *nodepool, const kp_nodeclaim *nodeclaim,
			  const kp_drift_options *opts, uint32_t *out_drifted, kp_error *err);

/**
 * @brief A drift decision. Library-made: never allocated or embedded by the
 *        caller; read members only up to struct_size.
 * @since 0.1
 */
typedef struct kp_drift {
	uint32_t struct_size; /**< sizeof(kp_drift) as the library knows it */
	uint32_t reason_code; /**< a kp_drift_reason; KP_DRIFT_NONE when not drifted */
	const char *reason;   /**< "NodePoolDrifted", "RequirementsDrifted", or "" */
	const char *message;  /**< one-line human explanation, also when not drifted */
} kp_drift;

/**
 * @brief The core's drift decision for a NodeClaim (upstream Drift
 *        controller, without the cloud provider's checks).
 *
 * As upstream: a NodeClaim whose Launched condition is not True is not
 * drifted (unless KP_DRIFT_IGNORE_LAUNCHED); then static drift
 * (NodePoolDrifted) is checked before requirements drift
 * (RequirementsDrifted). The reason is what upstream writes as the reason
 * of the Drifted condition. Checks left to the cloud provider (upstream's
 * InstanceTypeNotFound and provider-specific reasons) are not made.
 * @param[out] out the decision; NULL on failure
 * @param[in] nodepool the NodeClaim's NodePool
 * @param[in] nodeclaim the NodeClaim
 * @param[in] opts options, or NULL for KP_DRIFT_OPTIONS_INIT
 * @param[out] err optional error detail
 * @return as kp_drift_static and kp_drift_requirements; KP_ENOMEM
 * @since 0.1
 * Ownership: the caller owns *out and releases it with kp_drift_free.
 * Thread-safety: safe.
 */
int kp_drift_check(kp_drift **out, const kp_nodepool *nodepool, const kp_nodeclaim *nodeclaim,
		   const kp_drift_options *opts, kp_error *err);

/**
 * @brief Release a decision returned by kp_drift_check.
 * @param[in] drift the decision, or NULL (no-op)
 * @since 0.1
 * Thread-safety: needs exclusive access to @p drift.
 */
void kp_drift_free(kp_drift *drift);

KP_END_DECLS

#endif /* KARPENTER_HASH_H */
