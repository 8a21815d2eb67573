/*
 * libkarpenter: well-known label keys, annotations and the label rules that
 * Karpenter core applies to them (upstream pkg/apis/v1/labels.go).
 *
 * Upstream keeps these rules in package-level sets that cloud providers
 * extend from init() functions (WellKnownLabels.Insert,
 * RestrictedLabelDomains.Insert, NormalizedLabels assignments). This library
 * has no such global state: a kp_wellknown handle carries the core rules plus
 * whatever a provider adds, and every function whose result depends on them
 * takes the handle. Passing NULL always means "the core rules only", so code
 * that does not involve a provider never needs a handle.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_WELLKNOWN_H
#define KARPENTER_WELLKNOWN_H

#include <karpenter/common.h>

KP_BEGIN_DECLS

/** @name API groups
 * @{ */
/** Karpenter's API group; also its reserved label domain. @since 0.1 */
#define KP_GROUP "karpenter.sh"
/** Group of the provider-compatibility annotations. @since 0.1 */
#define KP_COMPATIBILITY_GROUP "compatibility.karpenter.sh"
/** @} */

/** @name Karpenter label keys
 * @{ */
/** Name of the NodePool that owns a node (well-known). @since 0.1 */
#define KP_LABEL_NODEPOOL "karpenter.sh/nodepool"
/** Capacity type of a node: spot, on-demand or reserved (well-known). @since 0.1 */
#define KP_LABEL_CAPACITY_TYPE "karpenter.sh/capacity-type"
/** Set to "true" once a node is initialized. @since 0.1 */
#define KP_LABEL_NODE_INITIALIZED "karpenter.sh/initialized"
/** Set to "true" once a node has registered. @since 0.1 */
#define KP_LABEL_NODE_REGISTERED "karpenter.sh/registered"
/** Opt a node out of taint synchronisation. @since 0.1 */
#define KP_LABEL_NODE_DO_NOT_SYNC_TAINTS "karpenter.sh/do-not-sync-taints"
/** @} */

/** @name Kubernetes label keys (k8s.io/api/core/v1)
 * @{ */
/** Zone (well-known). @since 0.1 */
#define KP_LABEL_TOPOLOGY_ZONE "topology.kubernetes.io/zone"
/** Region (well-known). @since 0.1 */
#define KP_LABEL_TOPOLOGY_REGION "topology.kubernetes.io/region"
/** Instance type (well-known). @since 0.1 */
#define KP_LABEL_INSTANCE_TYPE "node.kubernetes.io/instance-type"
/** CPU architecture (well-known). @since 0.1 */
#define KP_LABEL_ARCH "kubernetes.io/arch"
/** Operating system (well-known). @since 0.1 */
#define KP_LABEL_OS "kubernetes.io/os"
/** Windows build (well-known). @since 0.1 */
#define KP_LABEL_WINDOWS_BUILD "node.kubernetes.io/windows-build"
/** Node host name; restricted (see kp_wellknown_is_restricted_label). @since 0.1 */
#define KP_LABEL_HOSTNAME "kubernetes.io/hostname"
/** @} */

/** @name Deprecated beta label keys, normalized to their GA keys
 * @{ */
/** Normalized to KP_LABEL_TOPOLOGY_ZONE. @since 0.1 */
#define KP_LABEL_FAILURE_DOMAIN_BETA_ZONE "failure-domain.beta.kubernetes.io/zone"
/** Normalized to KP_LABEL_TOPOLOGY_REGION. @since 0.1 */
#define KP_LABEL_FAILURE_DOMAIN_BETA_REGION "failure-domain.beta.kubernetes.io/region"
/** Normalized to KP_LABEL_INSTANCE_TYPE. @since 0.1 */
#define KP_LABEL_INSTANCE_TYPE_BETA "beta.kubernetes.io/instance-type"
/** Normalized to KP_LABEL_ARCH. @since 0.1 */
#define KP_LABEL_ARCH_BETA "beta.kubernetes.io/arch"
/** Normalized to KP_LABEL_OS. @since 0.1 */
#define KP_LABEL_OS_BETA "beta.kubernetes.io/os"
/** @} */

/** @name Karpenter annotations and finalizers
 * @{ */
/** Blocks voluntary disruption of a pod or node. @since 0.1 */
#define KP_ANNOTATION_DO_NOT_DISRUPT "karpenter.sh/do-not-disrupt"
/** Provider compatibility annotation. @since 0.1 */
#define KP_ANNOTATION_PROVIDER_COMPATIBILITY "compatibility.karpenter.sh/provider"
/** Hash of the NodePool template a NodeClaim was made from. @since 0.1 */
#define KP_ANNOTATION_NODEPOOL_HASH "karpenter.sh/nodepool-hash"
/** Version of the hash algorithm behind KP_ANNOTATION_NODEPOOL_HASH. @since 0.1 */
#define KP_ANNOTATION_NODEPOOL_HASH_VERSION "karpenter.sh/nodepool-hash-version"
/** Time by which a NodeClaim's termination is forced. @since 0.1 */
#define KP_ANNOTATION_NODECLAIM_TERMINATION_TIMESTAMP "karpenter.sh/nodeclaim-termination-timestamp"
/** Set when minValues were relaxed to launch a NodeClaim. @since 0.1 */
#define KP_ANNOTATION_NODECLAIM_MIN_VALUES_RELAXED "karpenter.sh/nodeclaim-min-values-relaxed"
/** Comma-separated DRA driver names whose devices were allocated. @since 0.1 */
#define KP_ANNOTATION_DRA_DRIVERS "karpenter.sh/requested-dra-drivers"
/** Finalizer that drains and deletes a node before its object goes. @since 0.1 */
#define KP_FINALIZER_TERMINATION "karpenter.sh/termination"
/** @} */

/** @name Well-known label values
 * @{ */
/** @since 0.1 */
#define KP_ARCH_AMD64 "amd64"
/** @since 0.1 */
#define KP_ARCH_ARM64 "arm64"
/** @since 0.1 */
#define KP_OS_LINUX "linux"
/** @since 0.1 */
#define KP_OS_WINDOWS "windows"
/** @since 0.1 */
#define KP_CAPACITY_TYPE_SPOT "spot"
/** @since 0.1 */
#define KP_CAPACITY_TYPE_ON_DEMAND "on-demand"
/** @since 0.1 */
#define KP_CAPACITY_TYPE_RESERVED "reserved"
/** @} */

/**
 * @brief Label rules: well-known labels, restricted domains and the key and
 * value normalizations applied to node selector requirements.
 *
 * A new handle holds the core rules; a provider adds its own once, then
 * shares the handle read-only. Functions taking a kp_wellknown accept NULL
 * for the core rules.
 *
 * @since 0.1
 * Ownership: created by kp_wellknown_new, released by kp_wellknown_free.
 * Thread-safety: the query functions never modify the handle, so any number
 * of threads may query one handle at once; the kp_wellknown_add_* functions
 * need exclusive access.
 */
typedef struct kp_wellknown kp_wellknown;

/**
 * @brief Create a rule set holding the core rules.
 * @param[out] out the new handle; NULL on failure
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (out is NULL), KP_ENOMEM
 * @since 0.1
 * Ownership: the caller owns *out and releases it with kp_wellknown_free.
 * Thread-safety: safe.
 */
int kp_wellknown_new(kp_wellknown **out, kp_error *err);

/**
 * @brief Release a rule set. NULL is a no-op.
 * @param[in] wk the handle
 * @since 0.1
 * Ownership: strings previously returned by the handle become invalid.
 * Thread-safety: needs exclusive access to @p wk.
 */
void kp_wellknown_free(kp_wellknown *wk);

/**
 * @brief Add a well-known label key (upstream WellKnownLabels.Insert).
 *
 * Well-known labels are exempt from the restricted-domain check, and may be
 * undefined on one side of kp_requirements_compatible when
 * KP_COMPAT_ALLOW_UNDEFINED_WELLKNOWN is given. Adding a key twice is a no-op.
 *
 * @param[in] wk the rule set
 * @param[in] key label key, non-empty; copied
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL argument or empty key), KP_ENOMEM
 * @since 0.1
 * Ownership: the key is copied.
 * Thread-safety: needs exclusive access to @p wk.
 */
int kp_wellknown_add_label(kp_wellknown *wk, const char *key, kp_error *err);

/**
 * @brief Reserve a label domain (upstream RestrictedLabelDomains.Insert).
 *
 * Labels in the domain or any of its subdomains are rejected by
 * kp_wellknown_check_restricted unless they are well-known.
 *
 * @param[in] wk the rule set
 * @param[in] domain a DNS domain such as "karpenter.k8s.aws"; copied
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL argument or empty domain), KP_ENOMEM
 * @since 0.1
 * Thread-safety: needs exclusive access to @p wk.
 */
int kp_wellknown_add_restricted_domain(kp_wellknown *wk, const char *domain, kp_error *err);

/**
 * @brief Normalize label key @p alias to @p key (upstream NormalizedLabels).
 *
 * Requirements built with this rule set store @p key wherever @p alias was
 * given. Registering @p alias again replaces its target.
 *
 * @param[in] wk the rule set
 * @param[in] alias the key to translate, non-empty; copied
 * @param[in] key its normalized key, non-empty; copied
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL argument, empty string, or alias == key), KP_ENOMEM
 * @since 0.1
 * Thread-safety: needs exclusive access to @p wk.
 */
int kp_wellknown_add_key_alias(kp_wellknown *wk, const char *alias, const char *key,
			       kp_error *err);

/**
 * @brief Normalize value @p alias of label @p key to @p value (upstream
 * NormalizedLabelValues), e.g. a CSI driver's "" zone to a provider's "0".
 *
 * @p key is the normalized key; the mapping applies to requirement values
 * after the key itself has been normalized.
 *
 * @param[in] wk the rule set
 * @param[in] key normalized label key, non-empty; copied
 * @param[in] alias the value to translate (may be ""); copied
 * @param[in] value its replacement; copied
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL argument or empty key), KP_ENOMEM
 * @since 0.1
 * Thread-safety: needs exclusive access to @p wk.
 */
int kp_wellknown_add_value_alias(kp_wellknown *wk, const char *key, const char *alias,
				 const char *value, kp_error *err);

/**
 * @brief Whether @p key is a well-known label.
 * @param[in] wk the rule set, or NULL for the core rules
 * @param[in] key label key (NULL gives 0)
 * @return 1 if well-known, else 0
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_wellknown_has(kp_wellknown *wk, const char *key);

/**
 * @brief Number of well-known labels.
 * @param[in] wk the rule set, or NULL for the core rules
 * @return the count
 * @since 0.1
 * Thread-safety: safe.
 */
size_t kp_wellknown_count(kp_wellknown *wk);

/**
 * @brief The well-known label at @p index, in byte-wise ascending order.
 * @param[in] wk the rule set, or NULL for the core rules
 * @param[in] index 0 .. kp_wellknown_count() - 1
 * @return the key, or NULL when @p index is out of range
 * @since 0.1
 * Ownership: borrowed from @p wk (static for the core rules); valid until
 * the handle is modified or freed.
 * Thread-safety: safe.
 */
const char *kp_wellknown_at(kp_wellknown *wk, size_t index);

/**
 * @brief Translate a deprecated or aliased label key to its normalized key,
 * e.g. "beta.kubernetes.io/arch" to "kubernetes.io/arch".
 * @param[in] wk the rule set, or NULL for the core rules
 * @param[in] key label key
 * @return the normalized key, or @p key itself (the same pointer) when no
 * alias applies; NULL only when @p key is NULL
 * @since 0.1
 * Ownership: a translated key is borrowed from @p wk (static for the core
 * rules).
 * Thread-safety: safe.
 */
const char *kp_wellknown_normalize_key(kp_wellknown *wk, const char *key);

/**
 * @brief Translate a label value registered with kp_wellknown_add_value_alias.
 * @param[in] wk the rule set, or NULL (the core rules have no value aliases)
 * @param[in] key the normalized label key
 * @param[in] value the value
 * @return the replacement, or @p value itself (the same pointer)
 * @since 0.1
 * Ownership: a replacement is borrowed from @p wk.
 * Thread-safety: safe.
 */
const char *kp_wellknown_normalize_value(kp_wellknown *wk, const char *key, const char *value);

/**
 * @brief Upstream IsRestrictedLabel: may a NodePool or NodeClaim use @p key?
 *
 * A key is restricted when it is not well-known and either its domain (the
 * part before the first '/') is a restricted domain or a subdomain of one,
 * or it is a restricted label (kubernetes.io/hostname). The message is
 * upstream's: "using label KEY is not allowed as it might interfere with the
 * internal provisioning logic; specify a well known label: [SORTED
 * WELL-KNOWN LABELS], or a custom label that does not use a restricted
 * domain: [SORTED DOMAINS]". With a provider's labels the text can exceed
 * KP_ERROR_MESSAGE_MAX and kp_error then keeps its start; use
 * kp_wellknown_restricted_message for the whole text.
 *
 * @param[in] wk the rule set, or NULL for the core rules
 * @param[in] key label key
 * @param[out] err optional error detail; field is "key"
 * @return KP_OK when allowed, KP_EINVAL when restricted or @p key is NULL
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_wellknown_check_restricted(kp_wellknown *wk, const char *key, kp_error *err);

/**
 * @brief Format the full restricted-label message for @p key, snprintf-style.
 * @param[in] wk the rule set, or NULL for the core rules
 * @param[in] key label key (need not be restricted)
 * @param[out] buf destination, NUL-terminated when @p size > 0; may be NULL
 * if @p size is 0
 * @param[in] size size of @p buf
 * @return the length of the whole message, excluding the NUL; the text was
 * truncated if the result is >= @p size
 * @since 0.1
 * Thread-safety: safe.
 */
size_t kp_wellknown_restricted_message(kp_wellknown *wk, const char *key, char *buf,
				       size_t size);

/**
 * @brief Whether @p key is one of the labels Karpenter never lets users set
 * (upstream RestrictedLabels: kubernetes.io/hostname).
 * @param[in] key label key (NULL gives 0)
 * @return 1 if restricted, else 0
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_wellknown_is_restricted_label(const char *key);

/**
 * @brief The domain of a label key: the text before the first '/'
 * (upstream GetLabelDomain).
 * @param[in] key label key
 * @param[out] domain set to @p key (the domain is its first bytes), or to ""
 * when the key has no '/'; may be NULL
 * @return the length of the domain in bytes, 0 when the key has no '/'
 * (or is NULL)
 * @since 0.1
 * Ownership: *domain points into @p key (or at a static "").
 * Thread-safety: safe.
 */
size_t kp_wellknown_label_domain(const char *key, const char **domain);

KP_END_DECLS

#endif /* KARPENTER_WELLKNOWN_H */
