/*
 * libkarpenter-kwok: the KWOK cloud provider for libkarpenter, the embedded
 * offline default (upstream kubernetes-sigs/karpenter kwok/cloudprovider).
 *
 * Upstream KWOK launches no machines: it creates Node objects that a KWOK
 * controller keeps "running". This provider keeps the same answers in an
 * in-memory instance table, so the core can be driven end to end without a
 * cluster or a cloud. It uses only libkarpenter's public API, as a
 * third-party provider would.
 *
 * Two parts:
 *
 * - The catalogue (kp_kwok_catalog_*): upstream KWOK's instance types, either
 *   the built-in one (the 144 generic types of upstream's generator
 *   kwok/tools/gen_instance_types.go, computed here rather than embedded) or
 *   one read from a JSON file in upstream's formats, with upstream's
 *   defaults applied (setDefaultOptions / newInstanceType).
 * - The provider (kp_kwok_provider_new): a kp_cloudprovider implementing
 *   upstream KWOK's Create, Delete, Get, List, GetInstanceTypes, IsDrifted,
 *   RepairPolicies and GetSupportedNodeClasses.
 *
 * Memory: the core's kp_set_allocator hooks are not reachable through the
 * public API, so what this library allocates itself comes from libc malloc;
 * the catalogue and every object built by core functions use the hooks.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_KWOK_H
#define KARPENTER_KWOK_H

#include <karpenter/common.h>
#include <karpenter/cloudprovider.h>
#include <karpenter/kwok_nodeclass.h>
#include <karpenter/kwok_version.h>
#include <karpenter/wellknown.h>

KP_BEGIN_DECLS

/**
 * @brief Version of the loaded libkarpenter-kwok.
 * @param[out] major may be NULL
 * @param[out] minor may be NULL
 * @param[out] patch may be NULL
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_kwok_version(int *major, int *minor, int *patch);

/**
 * @brief Version string of the loaded libkarpenter-kwok ("0.1.0").
 * @return static string, never NULL.
 * @since 0.1
 * Thread-safety: safe.
 */
const char *kp_kwok_version_string(void);

/**
 * @brief SONAME of the loaded libkarpenter-kwok ("libkarpenter-kwok.so.0.1").
 * @return static string, never NULL.
 * @since 0.1
 * Thread-safety: safe.
 */
const char *kp_kwok_soname(void);

/* ------------------------------------------------------------------ */
/* Names                                                               */
/* ------------------------------------------------------------------ */

/** @name KWOK API group, node class kind and provider name
 * @{ */
/** API group of KWOKNodeClass; also a restricted label domain. @since 0.1 */
#define KP_KWOK_GROUP "karpenter.kwok.sh"
/** Kind of the KWOK node class. @since 0.1 */
#define KP_KWOK_NODECLASS_KIND "KWOKNodeClass"
/** Provider name (upstream CloudProvider.Name()). @since 0.1 */
#define KP_KWOK_PROVIDER_NAME "kwok"
/** Prefix of every provider ID this provider hands out. @since 0.1 */
#define KP_KWOK_PROVIDER_ID_PREFIX "kwok://"
/** @} */

/** @name Instance type labels (well-known once registered, see
 *        kp_kwok_wellknown_add)
 * @{ */
/** Instance size: the AWS-style size suffix ("large", "4xlarge") or the cpu. @since 0.1 */
#define KP_KWOK_LABEL_INSTANCE_SIZE "karpenter.kwok.sh/instance-size"
/** Instance family: the name up to its first '.' or '-', else its first byte. @since 0.1 */
#define KP_KWOK_LABEL_INSTANCE_FAMILY "karpenter.kwok.sh/instance-family"
/** Instance cpu: the canonical cpu quantity ("4"). @since 0.1 */
#define KP_KWOK_LABEL_INSTANCE_CPU "karpenter.kwok.sh/instance-cpu"
/** Instance memory: the canonical memory quantity ("16Gi"). @since 0.1 */
#define KP_KWOK_LABEL_INSTANCE_MEMORY "karpenter.kwok.sh/instance-memory"
/** @} */

/** @name Labels put on every launched instance
 * @{ */
/** Marks a KWOK node; its value is KP_KWOK_LABEL_NODE_VALUE. @since 0.1 */
#define KP_KWOK_LABEL_NODE "kwok.x-k8s.io/node"
/** Value of KP_KWOK_LABEL_NODE. @since 0.1 */
#define KP_KWOK_LABEL_NODE_VALUE "fake"
/** The offering's price, printf "%f" (for eks-node-viewer). @since 0.1 */
#define KP_KWOK_LABEL_NODE_VIEWER_PRICE "eks-node-viewer/instance-price"
/** KWOK partition; always KP_KWOK_PARTITION. @since 0.1 */
#define KP_KWOK_LABEL_PARTITION "kwok-partition"
/** The only KWOK partition upstream creates. @since 0.1 */
#define KP_KWOK_PARTITION "a"
/** @} */

/**
 * @brief Add KWOK's label rules to a rule set (upstream v1alpha1 init() and
 *        the side effect of upstream newInstanceType).
 *
 * Adds the four instance labels (KP_KWOK_LABEL_INSTANCE_*) as well-known,
 * KP_KWOK_GROUP as a restricted domain and, when @p instance_types is given,
 * the key of every requirement of every offering as well-known. The
 * provider keeps such a rule set for itself; a caller that schedules with
 * a KWOK catalogue should use one too.
 * @param[in] wk the rule set (exclusive access)
 * @param[in] instance_types a catalogue, or NULL
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL @p wk), KP_ENOMEM
 * @since 0.1
 * Ownership: nothing is retained; keys are copied into @p wk.
 * Thread-safety: needs exclusive access to @p wk.
 */
int kp_kwok_wellknown_add(kp_wellknown *wk, kp_instance_types *instance_types,
			  kp_error *err);

/* ------------------------------------------------------------------ */
/* Catalogue                                                           */
/* ------------------------------------------------------------------ */

/** Largest catalogue file or buffer accepted (16 MiB; upstream's generated
 *  catalogue is about 0.8 MiB). @since 0.1 */
#define KP_KWOK_CATALOG_MAX_BYTES ((size_t)16 << 20)

/**
 * @brief The built-in catalogue: upstream KWOK's generated instance types.
 *
 * 144 types, in upstream's order: for cpu in 1, 2, 4, 8, 16, 32, 48, 64,
 * 96, 128, 192, 256; family c, s, m (memory 2, 4, 8 GiB per cpu); os linux,
 * windows; arch amd64, arm64; named "<family>-<cpu>x-<arch>-<os>". Each has
 * capacity cpu, memory, pods (16 per cpu, at most 1024) and
 * ephemeral-storage 20Gi; overhead kubeReserved cpu 100m, memory 10Mi; and
 * 8 available offerings, for zones test-zone-a..d each spot then on-demand,
 * priced as upstream's generator prices them (on-demand 0.025 per cpu plus
 * 0.001 per 10^9 bytes of memory, spot 0.7 times that, with the same
 * floating-point operations, so prices are bit for bit upstream's).
 * Requirements as upstream newInstanceType builds them: instance type,
 * arch, os, zone and capacity type In the offerings' values, and the four
 * KP_KWOK_LABEL_INSTANCE_* labels.
 * @param[out] out a new catalogue (one reference)
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL @p out), KP_ENOMEM
 * @since 0.1
 * Ownership: the caller owns *out and releases it with
 * kp_instance_types_free.
 * Thread-safety: safe.
 */
int kp_kwok_catalog_builtin(kp_instance_types **out, kp_error *err);

/**
 * @brief Build a catalogue from JSON text in upstream KWOK's formats.
 *
 * The text is an array of instance types: {"name", "architecture",
 * "operatingSystems": [...], "resources": {name: quantity}, "offerings":
 * [...]}. Two offering formats are read, also mixed:
 * - the generated one (upstream's instance_types.json): {"Price",
 *   "Available", "ReservationCapacity", "Requirements": [{"key",
 *   "operator", "values"}]}, where the requirements must include exactly
 *   one zone and one capacity type (topology.kubernetes.io/zone and
 *   karpenter.sh/capacity-type, each In with one value);
 * - the simplified one (upstream's examples/instance_types.json):
 *   {"capacityType", "zone", "price"}.
 * As Go's encoding/json, object keys match case-insensitively, the last of
 * duplicate keys wins, unknown keys are ignored and null reads as absent;
 * quantities are strings (or integers). Upstream's defaults are applied:
 * "pods" is 110 unless given, every offering is available whatever
 * "Available" says, and the instance labels are derived from the name, cpu
 * and memory; the overhead is upstream KWOK's (kubeReserved cpu 100m,
 * memory 10Mi).
 * @param[out] out a new catalogue (one reference); NULL on failure
 * @param[in] json the text, not necessarily NUL-terminated
 * @param[in] len its length in bytes, at most KP_KWOK_CATALOG_MAX_BYTES
 * @param[in] source name used in messages (a file name), or NULL for
 *            "<buffer>"
 * @param[out] err optional error detail: kp_error::field is the path in the
 *             document ("[3].resources.cpu", "[0].offerings[2].zone") and
 *             the message reads "SOURCE: PATH: PROBLEM", e.g.
 *             `instance_types.json: [3].resources.cpu: invalid quantity
 *             "abc": ...`; syntax errors give the line and column
 * @return KP_OK, KP_EINVAL (NULL argument, wrong type or value),
 *         KP_EPARSE (malformed JSON or quantity), KP_ERANGE (input too
 *         large, number out of range), KP_ENOMEM
 * @since 0.1
 * Ownership: the caller owns *out (kp_instance_types_free); nothing of
 * @p json is kept.
 * Thread-safety: safe, except that cJSON records the position of a syntax
 * error in a global of its own (never read here), so concurrent calls on
 * malformed input race on that record.
 */
int kp_kwok_catalog_parse(kp_instance_types **out, const char *json, size_t len,
			  const char *source, kp_error *err);

/**
 * @brief Read a catalogue file (upstream's --instance-types-file-path), as
 *        kp_kwok_catalog_parse with the path as source.
 * @param[out] out a new catalogue (one reference); NULL on failure
 * @param[in] path file name
 * @param[out] err optional error detail; messages start with @p path
 * @return as kp_kwok_catalog_parse, plus KP_ENOTFOUND (no such file) and
 *         KP_EINVAL (unreadable file)
 * @since 0.1
 * Ownership: the caller owns *out (kp_instance_types_free).
 * Thread-safety: as kp_kwok_catalog_parse.
 */
int kp_kwok_catalog_load_file(kp_instance_types **out, const char *path, kp_error *err);

/* ------------------------------------------------------------------ */
/* Provider                                                            */
/* ------------------------------------------------------------------ */

/**
 * @brief Options of kp_kwok_provider_new. Caller-filled, size-tagged.
 * @since 0.1
 */
typedef struct kp_kwok_provider_options {
	uint32_t struct_size;   /**< sizeof(kp_kwok_provider_options) */
	uint32_t reserved;      /**< zero */
	/** The catalogue (the provider takes its own reference), or NULL for
	 *  kp_kwok_catalog_builtin. */
	kp_instance_types *instance_types;
	/** The KWOKNodeClasses that exist (copied: name, and whether the
	 *  Ready condition is False, with its message). NULL means "not
	 *  modelled": every node class exists and is ready. Non-NULL with
	 *  @p n_nodeclasses 0 means none exists. */
	const kp_kwok_nodeclass *const *nodeclasses;
	size_t n_nodeclasses;   /**< number of node classes */
	/** Sequence number of the first instance (see kp_kwok_provider_new). */
	uint64_t sequence_start;
} kp_kwok_provider_options;

/** Static initializer for kp_kwok_provider_options. @since 0.1 */
#define KP_KWOK_PROVIDER_OPTIONS_INIT { sizeof(kp_kwok_provider_options), 0, NULL, NULL, 0, 0 }

/**
 * @brief Initialize @p options as KP_KWOK_PROVIDER_OPTIONS_INIT does (FFI).
 * @param[out] options the struct to fill; NULL is ignored
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_kwok_provider_options_init(kp_kwok_provider_options *options);

/**
 * @brief Create the KWOK provider, registered with kp_cloudprovider_new.
 *
 * Behaviour, method by method (upstream kwok/cloudprovider/cloudprovider.go):
 *
 * - create: the NodeClaim's first node.kubernetes.io/instance-type
 *   requirement (operator In) lists the allowed types. For each, in the
 *   order written, the cheapest available offering compatible with the
 *   NodeClaim's requirements (kp_requirements_compatible with undefined
 *   well-known labels allowed, as upstream Offerings.Compatible; only the
 *   offering's requirements are checked, as upstream) is found; the launch
 *   takes the cheapest of those. Ties, which upstream breaks at random,
 *   are broken deterministically: the earliest type in the requirement's
 *   order, then the earliest offering in catalogue order. Then the node
 *   class (spec.nodeClassRef.name) is resolved: missing is
 *   KP_EINSUFFICIENT (`resolving node class from nodeclaim,
 *   kwoknodeclasses.karpenter.kwok.sh "NAME" not found`), a Ready
 *   condition with status False is KP_ENOTREADY (its message).
 *   The instance is named "kwok-<nodeclaim name>-<sequence>" (upstream adds
 *   random parts; here the sequence counts up from
 *   options.sequence_start, so equal call sequences give equal names) and
 *   its provider ID is "kwok://" + that name. Its labels are upstream's:
 *   the NodeClaim's labels, the label of every NodeClaim requirement that
 *   is In with one value, the instance type name, every single-valued In
 *   requirement of the instance type and of the offering (so zone and
 *   capacity type), KP_KWOK_LABEL_NODE_VIEWER_PRICE, KP_KWOK_LABEL_PARTITION,
 *   kubernetes.io/hostname = the NodeClaim's name (upstream uses the
 *   NodeClaim's, not the node's, name) and KP_KWOK_LABEL_NODE, later
 *   entries winning. Capacity is the NodeClaim's spec.resources.requests
 *   and allocatable is those requests overridden by the instance type's
 *   allocatable, exactly as upstream. No image ID; created_ms is 0 (the
 *   provider reads no clock).
 *   Errors: KP_EINVAL (no instance-type requirement, not In, an unknown
 *   instance type, no metadata.name), KP_EINSUFFICIENT (no available
 *   compatible offering; missing node class), KP_ENOTREADY.
 * - delete_instance: removes the instance with the NodeClaim's
 *   status.providerID (or, without one, the first instance launched for a
 *   NodeClaim of that name) and returns KP_ENOTFOUND ("instance
 *   terminated"): upstream reports termination as complete at once. An
 *   unknown instance is KP_ENOTFOUND too.
 * - get: the instance with that provider ID (or, as upstream strips the
 *   prefix, that node name), or KP_ENOTFOUND.
 * - list: every instance, sorted by provider ID.
 * - get_instance_types: a reference to the catalogue, whatever the NodePool.
 * - is_drifted: never drifted.
 * - repair_policies: Ready False and Ready Unknown, each tolerated 10 minutes.
 * - supported_node_classes: karpenter.kwok.sh/KWOKNodeClass.
 *
 * @param[out] out the provider; NULL on failure
 * @param[in] options options, or NULL for the defaults
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL @p out, non-zero reserved, a NULL node
 *         class or one without metadata.name), KP_EVERSION (struct_size of
 *         the options or of a node class), KP_ENOMEM
 * @since 0.1
 * Ownership: the caller owns *out (kp_cloudprovider_free); the options are
 * copied, the catalogue referenced.
 * Thread-safety: the provider is one-thread-at-a-time (its vtable does not
 * set KP_PROVIDER_F_THREADSAFE); kp_kwok_provider_new itself is safe.
 */
int kp_kwok_provider_new(kp_cloudprovider **out, const kp_kwok_provider_options *options,
			 kp_error *err);

KP_END_DECLS

#endif /* KARPENTER_KWOK_H */
