/*
 * libkarpenter: building objects and cluster snapshots in code.
 *
 * The object structs of objects.h, nodepool.h and nodeclaim.h are plain
 * data: a caller may fill them itself and pass them to any call, which only
 * reads them. Building them by hand is verbose (a pod with requests is
 * about nine structs), and two of their rules are easy to miss: CRD
 * defaults are applied only to library-owned objects, and enum-like fields
 * carry both their text and a code. This header is the short path:
 *
 *  - constructors that return library-owned objects (kp_pod_new,
 *    kp_nodepool_new, kp_nodepool_add_requirement), released with the
 *    kind's _free;
 *  - kp_cluster_builder, which copies every object it is given (so the
 *    caller's objects stay the caller's), or takes decoded objects as
 *    they are with the name of their source (kp_cluster_builder_add_decoded:
 *    validation, replace-by-name and every problem listed, as
 *    kubectl-karpenter reads files), applies the CRD defaults to the
 *    Karpenter kinds, refuses an object whose text and code fields
 *    disagree, refuses an object given twice, accepts manifests as text,
 *    and builds the immutable kp_cluster snapshot that kp_sched_simulate
 *    reads, or a kp_cluster_spec view for the decisions that read one
 *    (kp_cluster_builder_spec).
 *
 * Text and code fields (kp_pod_status phase/phase_code,
 * kp_nodeclaim_requirement operator_name/op, ...) follow one rule, the
 * decoder's: the text is what the API server stores, and the code is what
 * the algorithms read. Every copy (the builder, kp_object_copy, the
 * kind's _copy) reconciles them: a code left 0 is filled from a known
 * text, a text left NULL from the code, and a text and a code that name
 * different values are refused (KP_EINVAL names the field).
 * kp_cluster_new, which reads pods, DaemonSets, PDBs and volumes in place,
 * refuses any object whose known text and code differ, a code left 0
 * included, so nothing is ever read two ways.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_BUILDER_H
#define KARPENTER_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include <karpenter/common.h>
#include <karpenter/objects.h>
#include <karpenter/nodepool.h>
#include <karpenter/nodeclaim.h>
#include <karpenter/cloudprovider.h>
#include <karpenter/scheduling.h>
#include <karpenter/codec.h>

KP_BEGIN_DECLS

/**
 * @brief A pending pod with one container ("main") requesting @p cpu and
 *        @p memory.
 * @param[out] out the pod (library-owned); NULL on failure
 * @param[in] namespace_ metadata.namespace (NULL or "" = "default")
 * @param[in] name metadata.name (required)
 * @param[in] cpu a quantity ("500m"), or NULL/"" for no cpu request
 * @param[in] memory a quantity ("1Gi"), or NULL/"" for no memory request
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL out or name), KP_EPARSE (a quantity, named
 *         as "requests.cpu" or "requests.memory"), KP_ENOMEM
 * @since 0.1
 * Ownership: the caller owns *out (kp_pod_free).
 * Thread-safety: safe.
 */
int kp_pod_new(kp_pod **out, const char *namespace_, const char *name, const char *cpu,
	       const char *memory, kp_error *err);

/**
 * @brief A NodePool with the CRD defaults applied (as the API server stores
 *        it), referring to a node class.
 * @param[out] out the NodePool (library-owned); NULL on failure
 * @param[in] name metadata.name (required)
 * @param[in] group nodeClassRef.group (e.g. "karpenter.kwok.sh")
 * @param[in] kind nodeClassRef.kind (e.g. "KWOKNodeClass")
 * @param[in] node_class nodeClassRef.name
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (a NULL argument), KP_ENOMEM
 * @since 0.1
 * Ownership: the caller owns *out (kp_nodepool_free).
 * Thread-safety: safe.
 */
int kp_nodepool_new(kp_nodepool **out, const char *name, const char *group, const char *kind,
		    const char *node_class, kp_error *err);

/**
 * @brief Append a requirement to a library-owned NodePool's template
 *        (spec.template.spec.requirements).
 * @param[in,out] nodepool a NodePool made by the library (kp_nodepool_new,
 *        kp_nodepool_copy, kp_decode); never a caller-built one
 * @param[in] key the label key
 * @param[in] op the operator as written: "In", "NotIn", "Exists",
 *        "DoesNotExist", "Gt", "Lt", "Gte", "Lte"
 * @param[in] values @p n_values strings (may be NULL when 0)
 * @param[in] n_values number of values
 * @param[out] err optional error detail
 * @return KP_OK; KP_EINVAL (NULL argument, unknown operator); KP_ENOMEM.
 *         On failure @p nodepool is unchanged.
 * @since 0.1
 * Thread-safety: needs exclusive access to @p nodepool.
 */
int kp_nodepool_add_requirement(kp_nodepool *nodepool, const char *key, const char *op,
				const char *const *values, size_t n_values, kp_error *err);

/**
 * @brief Builds a kp_cluster from objects added one at a time.
 * Thread-safety: one thread at a time.
 */
typedef struct kp_cluster_builder kp_cluster_builder;

/**
 * @brief A new, empty builder: no objects, the core's well-known label
 *        rules, no instance types, now_ms 0.
 * @param[out] out the builder; NULL on failure
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL out), KP_ENOMEM
 * @since 0.1
 * Ownership: the caller owns *out (kp_cluster_builder_free).
 * Thread-safety: safe.
 */
int kp_cluster_builder_new(kp_cluster_builder **out, kp_error *err);

/**
 * @brief Release a builder and every object it copied (NULL-safe). A
 *        snapshot it built is independent of it.
 * @param[in] builder the builder or NULL
 * @since 0.1
 */
void kp_cluster_builder_free(kp_cluster_builder *builder);

/**
 * @brief Add a copy of an object of any kind the snapshot reads: a core
 *        kp_kind (NodePool, NodeClaim, Pod, Node, DaemonSet, PDB, PVC, PV,
 *        StorageClass, CSINode, Namespace) or a node class kind registered
 *        on the builder's registry (KWOKNodeClass by libkarpenter-kwok,
 *        EC2NodeClass by libkarpenter-aws).
 *
 * NodePools, NodeClaims and node classes get their CRD defaults (on the
 * copy); a node class also stands for its readiness (its Ready condition;
 * none counts as ready). Text and code fields are
 * reconciled as the file comment says.
 *
 * @param[in,out] builder the builder
 * @param[in] kind a kp_kind
 * @param[in] object the object (caller-built or library-owned; only read)
 * @param[out] err optional error detail
 * @return KP_OK; KP_EINVAL (NULL argument, a kind the snapshot does not
 *         read, an object without metadata.name, the same kind, namespace
 *         and name added before, text and code that disagree);
 *         KP_EVERSION (a struct_size); KP_ENOMEM. On failure nothing is
 *         added.
 * @since 0.1
 * Ownership: @p object is only read during the call.
 */
int kp_cluster_builder_add(kp_cluster_builder *builder, uint32_t kind, const void *object,
			   kp_error *err);

/** @brief kp_cluster_builder_add for a NodePool. @since 0.1 */
int kp_cluster_builder_add_nodepool(kp_cluster_builder *builder, const kp_nodepool *nodepool,
				    kp_error *err);
/** @brief kp_cluster_builder_add for a Node. @since 0.1 */
int kp_cluster_builder_add_node(kp_cluster_builder *builder, const kp_node *node, kp_error *err);
/** @brief kp_cluster_builder_add for a NodeClaim. @since 0.1 */
int kp_cluster_builder_add_nodeclaim(kp_cluster_builder *builder, const kp_nodeclaim *nodeclaim,
				     kp_error *err);
/** @brief kp_cluster_builder_add for a Pod. @since 0.1 */
int kp_cluster_builder_add_pod(kp_cluster_builder *builder, const kp_pod *pod, kp_error *err);

/**
 * @brief Decode manifests (a JSON or YAML stream, v1 Lists included,
 *        strictly as kp_decode with default options) and add every object
 *        of a kind the snapshot reads; objects of other kinds are skipped
 *        and counted.
 * @param[in,out] builder the builder
 * @param[in] text the manifests (need not be NUL-terminated)
 * @param[in] len length of @p text in bytes
 * @param[out] n_skipped optional: objects of kinds the snapshot does not
 *        read
 * @param[out] err optional error detail
 * @return as kp_decode and kp_cluster_builder_add. On failure nothing of
 *         @p text is added.
 * @since 0.1
 */
int kp_cluster_builder_add_manifests(kp_cluster_builder *builder, const char *text, size_t len,
				     size_t *n_skipped, kp_error *err);

/** Flags of kp_cluster_builder_add_decoded. @since 0.1 */
enum kp_builder_add_flags {
	/** An object whose kind, namespace and name the builder already holds
	 *  takes that object's place (kubectl-karpenter disrupt --apply)
	 *  instead of being reported as given twice. */
	KP_BUILDER_ADD_REPLACE = 1u << 0,
	/** Validate NodePools, NodeClaims and registered kinds (node classes)
	 *  as the API server would store them (kp_validate with the builder's
	 *  registry and well-known rules, after their defaults): an object
	 *  with errors is not added, each error and warning is listed. */
	KP_BUILDER_ADD_VALIDATE = 1u << 1,
	/** Also take VolumeAttachments (the lifecycle's Node termination
	 *  reads them; the snapshot does not): kp_cluster_builder_objects. */
	KP_BUILDER_ADD_VOLUME_ATTACHMENTS = 1u << 2
};

/** What a kp_builder_problem is. @since 0.1 */
enum kp_builder_problem_type {
	KP_BUILDER_PROBLEM_INVALID = 1,   /**< the object is not added: field and message say why */
	KP_BUILDER_PROBLEM_WARNING = 2,   /**< the object is added: a validation warning */
	KP_BUILDER_PROBLEM_DUPLICATE = 3  /**< the second object of one identity is not added */
};

/**
 * @brief A problem kp_cluster_builder_add_decoded found in an object.
 * @since 0.1
 */
typedef struct kp_builder_problem {
	uint32_t struct_size; /**< sizeof(kp_builder_problem) as the library knows it */
	uint32_t type;        /**< a kp_builder_problem_type */
	const char *source;   /**< the source the object came with ("" without one) */
	/** INVALID, WARNING: the object as validation names it
	 *  ("NodePool/default"; a nameless one by its place: "Node (document
	 *  2: items[0])"); DUPLICATE: its identity ("Pod default/web") */
	const char *object;
	const char *field;    /**< the field path ("" for DUPLICATE) */
	const char *message;  /**< e.g. "Required value: ..."; DUPLICATE: "given twice" */
	const char *first_source; /**< DUPLICATE: the source of the object kept, else "" */
} kp_builder_problem;

/**
 * @brief Take the objects of a decoded stream that the builder reads, as
 *        they are (no copy), with the name of their source.
 *
 * Every object of a kind the builder reads (kp_cluster_builder_reads,
 * VolumeAttachments with KP_BUILDER_ADD_VOLUME_ATTACHMENTS) is moved out
 * of @p result (kp_decode_result_take: its entry's object becomes NULL;
 * other kinds stay for the caller to report). NodePools, NodeClaims and
 * node classes get their CRD defaults. What the API server would refuse
 * does not stop the call: an object without a name, one that fails
 * validation (KP_BUILDER_ADD_VALIDATE) or one whose identity (kind,
 * namespace as kp_kind_namespaced gives it, name) is already held
 * (without KP_BUILDER_ADD_REPLACE) is left out, freed, and listed as a
 * problem (kp_cluster_builder_problem_at) naming @p source; a snapshot is
 * then refused until the builder is freed. Objects keep the order they
 * were added in (a replacement takes the replaced object's place).
 *
 * @param[in,out] builder the builder
 * @param[in,out] result a kp_decode result decoded with the builder's
 *        registry (or none, for core kinds only)
 * @param[in] source a name for messages (a file name), or NULL (copied)
 * @param[in] flags kp_builder_add_flags
 * @param[out] err optional error detail
 * @return KP_OK (problems or not); KP_EINVAL (NULL argument, unknown
 *         flags); KP_ENOMEM
 * @since 0.1
 * Ownership: the builder owns what it takes; @p result keeps the rest.
 */
int kp_cluster_builder_add_decoded(kp_cluster_builder *builder, kp_decode_result *result,
				   const char *source, uint32_t flags, kp_error *err);

/**
 * @brief Whether the builder reads objects of @p kind into a snapshot: the
 *        core kinds kp_cluster_spec holds, and the registered kinds of its
 *        registry (node classes). The one table of kinds a caller needs to
 *        say which objects it skips.
 * @since 0.1
 */
int kp_cluster_builder_reads(const kp_cluster_builder *builder, uint32_t kind);

/** @brief Number of problems kp_cluster_builder_add_decoded listed. @since 0.1 */
size_t kp_cluster_builder_problem_count(const kp_cluster_builder *builder);

/**
 * @brief A problem, in the order found; NULL out of range.
 * @since 0.1
 * Ownership: valid until the builder is freed.
 */
const kp_builder_problem *kp_cluster_builder_problem_at(const kp_cluster_builder *builder,
							 size_t index);

/**
 * @brief The held objects of one kind, in the order they were added.
 * @param[out] out the objects (NULL when none); valid until the builder
 *        changes or is freed
 * @param[out] n their number
 * @param[in] builder the builder
 * @param[in] kind a kp_kind or a registered kind's id
 * @return KP_OK, KP_EINVAL (NULL argument), KP_ENOMEM
 * @since 0.1
 */
int kp_cluster_builder_objects(const void *const **out, size_t *n, kp_cluster_builder *builder,
			       uint32_t kind);

/**
 * @brief A view of what the builder holds as a kp_cluster_spec, the one
 *        cluster input of every decision (kp_cluster_new for the
 *        scheduler, kp_disruption_run, the kp_lifecycle_* controllers):
 *        objects in the order added, every NodePool with its instance types
 *        (kp_cluster_builder_set_instance_types), the node classes'
 *        statuses (kp_nodeclass_status_from), the VolumeAttachments added
 *        with KP_BUILDER_ADD_VOLUME_ATTACHMENTS (NULL when none), the
 *        well-known rules and now_ms. kp_cluster_builder_build is
 *        kp_cluster_new over it.
 * @param[out] out the view; valid until the builder changes or is freed
 * @param[in,out] builder the builder (keeps the view's arrays)
 * @param[out] err optional error detail
 * @return KP_OK; KP_EINVAL (NULL argument; an object given twice; problems
 *         listed, "the input has N problems"); KP_ENOMEM
 * @since 0.1
 */
int kp_cluster_builder_spec(kp_cluster_spec *out, kp_cluster_builder *builder, kp_error *err);

/**
 * @brief The instance types NodePools get: for the NodePool named
 *        @p nodepool, or (NULL) for every NodePool without its own.
 * @param[in,out] builder the builder
 * @param[in] nodepool a NodePool name, or NULL for the default
 * @param[in] instance_types the catalogue (a reference is taken)
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL builder or catalogue), KP_ENOMEM
 * @since 0.1
 */
int kp_cluster_builder_set_instance_types(kp_cluster_builder *builder, const char *nodepool,
					  kp_instance_types *instance_types, kp_error *err);

/**
 * @brief The well-known label rules (kp_cluster_spec::wellknown): a
 *        provider's, or NULL for the core's. Kept by reference: it must
 *        outlive the builder and every snapshot built from it.
 * @since 0.1
 */
void kp_cluster_builder_set_wellknown(kp_cluster_builder *builder, kp_wellknown *wellknown);

/** @brief The snapshot's "now" (kp_cluster_spec::now_ms). @since 0.1 */
void kp_cluster_builder_set_now(kp_cluster_builder *builder, int64_t now_ms);

/**
 * @brief Build the snapshot from what was added, in a canonical order
 *        (the order objects were added in does not matter).
 * @param[out] out the snapshot; NULL on failure
 * @param[in] builder the builder (unchanged; it may build again)
 * @param[out] err optional error detail
 * @return as kp_cluster_new
 * @since 0.1
 * Ownership: the caller owns *out (kp_cluster_free); it shares nothing
 * with the builder except the catalogues' references and the well-known
 * handle.
 */
int kp_cluster_builder_build(kp_cluster **out, const kp_cluster_builder *builder, kp_error *err);

KP_END_DECLS

#endif /* KARPENTER_BUILDER_H */
