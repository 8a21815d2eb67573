/*
 * libkarpenter: the v1 CRDs' defaults and validation for Karpenter's kinds
 * (karpenter.sh/v1 NodePool and NodeClaim, karpenter.kwok.sh/v1alpha1
 * KWOKNodeClass), as kube-apiserver applies them, plus the checks upstream
 * Karpenter runs in its controllers.
 *
 * Defaults. kp_object_default (and the typed kp_nodepool_default, ...) set
 * every absent field that has a `default:` in the CRD, the way the API
 * server's structural defaulting does: a default applies only where the
 * field is absent and its parent object is present, and the defaults nested
 * under a defaulted object then apply too (an absent spec.disruption becomes
 * {consolidateAfter: 0s} and then gains its budgets and consolidationPolicy
 * defaults). They are an explicit call on a library-owned object, so a
 * caller can encode the object before and after.
 *
 * Validation. kp_validate checks one object and returns every problem, not
 * just the first, as a list of records {object, field path, message, rule}.
 * Messages are kube-apiserver's, as printed by the Kubernetes version that
 * upstream Karpenter builds against (k8s.io/apiextensions-apiserver and
 * k8s.io/apimachinery v0.36): a record's message is what kubectl prints
 * after the field path (field.Error's ErrorBody), e.g.
 *
 *     spec.weight: Invalid value: 101: spec.weight in body should be less than or equal to 100
 *     spec.disruption.consolidationPolicy: Unsupported value: "Never": supported values: "WhenEmpty", "WhenEmptyOrUnderutilized", "Balanced"
 *     spec.template.spec.nodeClassRef.kind: Required value
 *     spec.template.metadata.labels.team: Too long: may not be more than 63 bytes
 *     spec.template.spec.requirements: Too many: 101: must have at most 100 items
 *     spec.template.spec.requirements: Invalid value: requirements with operator 'In' must have a value defined
 *     spec.disruption.budgets[0].reasons[1]: Duplicate value: "Empty"
 *
 * A CEL rule (x-kubernetes-validations) reports its CRD message; a rule
 * that fails to evaluate reports what the API server reports then, e.g.
 * `Invalid value: "array": no such key: values evaluating rule: requirements
 * with operator 'In' must have a value defined` for an In requirement whose
 * values field is absent. CEL rules are implemented in C, one function per
 * rule, with CEL's semantics (absent fields, `all` over lists and maps,
 * int() conversion errors); there is no CEL engine.
 *
 * Problems come in the API server's order: ObjectMeta, then the OpenAPI
 * schema (object properties in the CRD's order, then its required fields;
 * list items before the list's maxItems), then the scale subresource's
 * replica paths, then x-kubernetes-list-type uniqueness, then the CEL rules
 * (an object's own rules before its properties'). As the API server does,
 * the CEL rules are not evaluated when a "blocking" problem (Required,
 * Unsupported value, Too long, Too many) was found; one record with field
 * "<nil>" says so instead (KP_VALIDATE_ALL_CEL evaluates them anyway). Last
 * come the checks upstream Karpenter runs after admission (NodePool
 * RuntimeValidate: label, taint and requirement syntax, restricted label
 * domains, well-known values; and whether each budget schedule parses as a
 * cron), with upstream's message text.
 *
 * Validating an update (old object given) adds the transition rules
 * (oldSelf): NodeClaim `spec is immutable`, NodePool nodeClassRef group and
 * kind immutability and the static/dynamic replicas transition; the spec
 * comparison of `self == oldSelf` is deep equality of the decoded values
 * (quantities by value, maps as sets, lists in order). Not modelled:
 * validation ratcheting of unchanged fields, the ObjectMeta update rules (an
 * update does not check ObjectMeta), and CEL cost budgets (the CRDs' rules
 * are far below them).
 *
 * Every check has a stable rule id, listed by kp_validation_rule_at: the
 * kind, the CRD schema path with `[*]` for list items and `.*` for map
 * values, and the keyword, e.g. `NodePool:spec.weight:maximum` or
 * `NodePool:spec.template.spec.requirements:x-kubernetes-validations[0]`.
 * Constraints that decoding enforces (types, integer formats, date-time
 * formats, taint effects, quantity patterns) are listed with source
 * KP_RULE_SOURCE_DECODE: a value breaking them never reaches validation.
 *
 * Patterns are matched with Go regexp semantics (RE2: `$` is the end of the
 * text, `.` is any rune but newline) by a linear-time matcher; lengths are
 * counted in runes, as kube-openapi counts them.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_VALIDATION_H
#define KARPENTER_VALIDATION_H

#include <karpenter/common.h>
#include <karpenter/objects.h>
#include <karpenter/nodeclaim.h>
#include <karpenter/nodepool.h>
#include <karpenter/wellknown.h>

KP_BEGIN_DECLS

/* ------------------------------------------------------------------------ */
/* Defaults                                                                 */

/**
 * @brief Apply the CRD defaults of a NodePool (karpenter.sh_nodepools.yaml).
 *
 * Each default applies only when the field is absent and its parent is
 * present:
 * - spec.disruption: {consolidateAfter: 0s}, then its own defaults below;
 * - spec.disruption.budgets: [{nodes: "10%"}];
 * - spec.disruption.budgets[*].nodes: "10%";
 * - spec.disruption.consolidateAfter: "0s";
 * - spec.disruption.consolidationPolicy: "WhenEmptyOrUnderutilized";
 * - spec.template.spec.expireAfter: "720h";
 * - status.nodes: 0.
 * A present-but-empty list (`budgets: []`) is not absent and stays empty.
 *
 * @param[in,out] nodepool a library-built NodePool (from kp_decode or
 *                kp_nodepool_copy)
 * @param[out] err optional error detail
 * @return KP_OK; KP_EINVAL (NULL argument); KP_EVERSION (a struct_size this
 *         library cannot write); KP_ENOMEM (the object is then unchanged)
 * @since 0.1
 * Ownership: the added fields belong to @p nodepool and are released with
 * it. Never pass a caller-built object (copy it first).
 * Thread-safety: needs exclusive access to @p nodepool.
 */
int kp_nodepool_default(kp_nodepool *nodepool, kp_error *err);

/**
 * @brief Apply the CRD defaults of a NodeClaim (karpenter.sh_nodeclaims.yaml):
 *        spec.expireAfter "720h" when absent and spec is present.
 * @param[in,out] nodeclaim a library-built NodeClaim
 * @param[out] err optional error detail
 * @return as kp_nodepool_default
 * @since 0.1
 * Ownership: as kp_nodepool_default.
 * Thread-safety: needs exclusive access to @p nodeclaim.
 */
int kp_nodeclaim_default(kp_nodeclaim *nodeclaim, kp_error *err);

/**
 * @brief Apply the CRD defaults of any core object: the typed function for
 *        NodePool and NodeClaim; other kinds have no CRD defaults here and
 *        are left unchanged (a provider's kinds: kp_registry_object_default).
 * @param[in] kind the object's kp_kind
 * @param[in,out] object a library-built object of @p kind
 * @param[out] err optional error detail
 * @return as kp_nodepool_default; KP_EINVAL for KP_KIND_UNKNOWN
 * @since 0.1
 * Ownership: as kp_nodepool_default.
 * Thread-safety: needs exclusive access to @p object.
 */
int kp_object_default(uint32_t kind, void *object, kp_error *err);

/* ------------------------------------------------------------------------ */
/* Validation                                                               */

/**
 * @brief Kinds of problem: Kubernetes' field.ErrorType. Values are never
 *        renumbered.
 * @since 0.1
 */
enum kp_field_error_type {
	KP_FIELD_ERROR_INVALID = 1,       /**< "Invalid value" (patterns, bounds, CEL rules) */
	KP_FIELD_ERROR_REQUIRED = 2,      /**< "Required value" */
	KP_FIELD_ERROR_NOT_SUPPORTED = 3, /**< "Unsupported value" (enum) */
	KP_FIELD_ERROR_TOO_LONG = 4,      /**< "Too long" (maxLength, annotation size) */
	KP_FIELD_ERROR_TOO_MANY = 5,      /**< "Too many" (maxItems, maxProperties) */
	KP_FIELD_ERROR_DUPLICATE = 6,     /**< "Duplicate value" (list-type set or map) */
	KP_FIELD_ERROR_FORBIDDEN = 7,     /**< "Forbidden" */
	KP_FIELD_ERROR_RUNTIME = 8        /**< an upstream controller check: the message
	                                       is upstream's error text, not field.Error's */
};

/**
 * @brief Where a rule comes from. Values are never renumbered.
 * @since 0.1
 */
enum kp_rule_source {
	KP_RULE_SOURCE_OPENAPI = 1,   /**< an OpenAPI v3 schema constraint of the CRD */
	KP_RULE_SOURCE_CEL = 2,       /**< an x-kubernetes-validations rule of the CRD */
	KP_RULE_SOURCE_LIST_TYPE = 3, /**< x-kubernetes-list-type set/map uniqueness */
	KP_RULE_SOURCE_SCALE = 4,     /**< the CRD's scale subresource replica paths */
	KP_RULE_SOURCE_METADATA = 5,  /**< the API server's ObjectMeta validation */
	KP_RULE_SOURCE_RUNTIME = 6,   /**< upstream Karpenter's checks after admission */
	KP_RULE_SOURCE_DECODE = 7     /**< a CRD constraint that kp_decode enforces */
};

/** Flags of kp_validate_options. @since 0.1 */
enum kp_validate_flags {
	/** Only what the API server checks: skip KP_RULE_SOURCE_RUNTIME rules. */
	KP_VALIDATE_NO_RUNTIME = 1u << 0,
	/** Skip status, as the API server does on create (it drops status). */
	KP_VALIDATE_NO_STATUS = 1u << 1,
	/** Skip ObjectMeta (name, labels, annotations, ...). */
	KP_VALIDATE_NO_METADATA = 1u << 2,
	/** Evaluate the CEL rules even after a blocking problem. */
	KP_VALIDATE_ALL_CEL = 1u << 3
};

/**
 * @brief Options of kp_validate, filled by the caller.
 * @since 0.1
 */
typedef struct kp_validate_options {
	uint32_t struct_size;    /**< sizeof(kp_validate_options) */
	uint32_t flags;          /**< kp_validate_flags */
	kp_wellknown *wellknown; /**< label rules for the runtime checks; NULL = core rules */
	/* below: @since 0.1, added while 0.1 was being written (callers without
	 * it are served: core kinds only) */
	/** Experimental (karpenter/sys/schema.h): the registry that knows a
	 *  registered kind; NULL = core kinds only. */
	struct kp_registry *registry;
} kp_validate_options;

/** Static initializer for kp_validate_options: every check, core label rules. @since 0.1 */
#define KP_VALIDATE_OPTIONS_INIT { sizeof(kp_validate_options), 0, NULL, NULL }

/**
 * @brief Initialize options as KP_VALIDATE_OPTIONS_INIT (for FFI).
 * @param[out] opts the options; NULL is a no-op
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_validate_options_init(kp_validate_options *opts);

/**
 * @brief One problem found by kp_validate.
 *
 * Library-made: never allocated or embedded by the caller; read members
 * only up to struct_size. kubectl prints a problem as `field: message`.
 * @since 0.1
 */
typedef struct kp_field_error {
	uint32_t struct_size; /**< sizeof(kp_field_error) as the library knows it */
	uint32_t type;        /**< a kp_field_error_type */
	uint32_t source;      /**< a kp_rule_source */
	uint32_t reserved;    /**< zero */
	const char *object;   /**< the object, "NodePool/default" ("NodePool/" without a name) */
	const char *field;    /**< field path, e.g. "spec.template.spec.requirements[0].key" */
	const char *message;  /**< e.g. `Unsupported value: "Foo": supported values: "In", ...` */
	const char *detail;   /**< the message's detail alone (a CEL rule's own message), or "" */
	const char *rule;     /**< the rule id (see kp_validation_rule_at) */
} kp_field_error;

/**
 * @brief The problems kp_validate found in one object.
 * @since 0.1
 * Ownership: created by kp_validate, released by kp_validation_free.
 * Thread-safety: read-only; any number of threads may read one result.
 */
typedef struct kp_validation kp_validation;

/**
 * @brief Validate an object against its CRD and upstream's runtime checks.
 *
 * The API server validates objects after defaulting: call
 * kp_object_default first to see what it would see (a budget without nodes
 * is otherwise reported as `Required value`).
 *
 * @param[out] out the problems (possibly none); NULL on failure
 * @param[in] kind KP_KIND_NODEPOOL, KP_KIND_NODECLAIM, or a kind registered in
 *            kp_validate_options::registry
 * @param[in] object the object (library- or caller-built)
 * @param[in] old_object NULL for a create; for an update the stored object,
 *            which adds the transition rules
 * @param[in] opts options, or NULL for KP_VALIDATE_OPTIONS_INIT
 * @param[out] err optional error detail
 * @return KP_OK whether or not problems were found; KP_EINVAL (NULL
 *         argument, a kind without validation, NULL list items with a
 *         non-zero count, unknown flags); KP_EVERSION (a struct_size this
 *         library cannot read); KP_ENOMEM
 * @since 0.1
 * Ownership: the caller owns *out; release it with kp_validation_free. The
 * result copies what it keeps.
 * Thread-safety: safe (objects and the kp_wellknown handle are only read).
 */
int kp_validate(kp_validation **out, uint32_t kind, const void *object, const void *old_object,
		const kp_validate_options *opts, kp_error *err);

/**
 * @brief Release a result. NULL is a no-op.
 * @param[in] validation the result, or NULL
 * @since 0.1
 * Thread-safety: needs exclusive access.
 */
void kp_validation_free(kp_validation *validation);

/**
 * @brief Number of problems; 0 means the object is valid.
 * @param[in] validation the result
 * @return the count; 0 if @p validation is NULL
 * @since 0.1
 * Thread-safety: safe.
 */
size_t kp_validation_count(const kp_validation *validation);

/**
 * @brief Problem @p index, in the order described in the file comment.
 * @param[in] validation the result
 * @param[in] index 0 .. kp_validation_count() - 1
 * @return the problem, borrowed from @p validation; NULL when out of range
 * @since 0.1
 * Thread-safety: safe.
 */
const kp_field_error *kp_validation_at(const kp_validation *validation, size_t index);

/**
 * @brief Number of warnings: what upstream's controllers would stumble on
 *        although the API server accepts the object, so the object stays
 *        valid (kubectl-karpenter validate prints them as "Warning: ..." on
 *        stderr). Today: a NodePool whose nodeClassRef makes a NodeClaim
 *        label key (group "/" lowercase(kind)) that is not a valid label
 *        key, so no NodeClaim can be launched from it. Runtime checks: none
 *        with KP_VALIDATE_NO_RUNTIME.
 * @param[in] validation the result
 * @return the count; 0 if @p validation is NULL
 * @since 0.1
 * Thread-safety: safe.
 */
size_t kp_validation_warning_count(const kp_validation *validation);

/**
 * @brief Warning @p index (type KP_FIELD_ERROR_RUNTIME, source
 *        KP_RULE_SOURCE_RUNTIME), in the order they were found.
 * @param[in] validation the result
 * @param[in] index 0 .. kp_validation_warning_count() - 1
 * @return the warning, borrowed from @p validation; NULL when out of range
 * @since 0.1
 * Thread-safety: safe.
 */
const kp_field_error *kp_validation_warning_at(const kp_validation *validation, size_t index);

/**
 * @brief One rule of the inventory: a CRD constraint, a CEL rule or an
 *        upstream runtime check that kp_validate implements.
 *
 * Library-made, static; read members only up to struct_size.
 * @since 0.1
 */
typedef struct kp_validation_rule {
	uint32_t struct_size; /**< sizeof(kp_validation_rule) as the library knows it */
	uint32_t kind;        /**< the kp_kind it applies to */
	uint32_t source;      /**< a kp_rule_source */
	uint32_t flags;       /**< KP_RULE_F_* */
	const char *id;       /**< stable id: "<Kind>:<schema path>:<keyword>" */
	const char *path;     /**< schema path, `[*]` for list items, `.*` for map values */
	const char *keyword;  /**< "pattern", "enum", "maxItems", "x-kubernetes-validations[0]", ... */
	const char *text;     /**< the constraint: pattern, bound, CEL expression, ... */
	const char *message;  /**< the CEL rule's message, or upstream's message format; or "" */
} kp_validation_rule;

/** kp_validation_rule::flags: the API server checks a transition (needs the old object). @since 0.1 */
#define KP_RULE_F_TRANSITION 1u
/** kp_validation_rule::flags: in the CRD but without effect (a string constraint on an array,
 *  which kube-openapi skips); listed for completeness, never reported. @since 0.1 */
#define KP_RULE_F_INERT 2u

/**
 * @brief Number of rules in the inventory.
 * @return the count
 * @since 0.1
 * Thread-safety: safe.
 */
size_t kp_validation_rule_count(void);

/**
 * @brief Rule @p index of the inventory: grouped by kind (NodePool,
 *        NodeClaim, KWOKNodeClass), then ObjectMeta, the CRD's rules in the
 *        CRD's order, and the scale, blocking and runtime rules.
 * @param[in] index 0 .. kp_validation_rule_count() - 1
 * @return the rule (static); NULL when out of range
 * @since 0.1
 * Thread-safety: safe.
 */
const kp_validation_rule *kp_validation_rule_at(size_t index);

KP_END_DECLS

#endif /* KARPENTER_VALIDATION_H */
