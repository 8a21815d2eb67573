/*
 * libkarpenter: Karpenter's requirements algebra (upstream
 * pkg/scheduling/requirement.go and requirements.go).
 *
 * A requirement constrains the values of one label key; it is the set of
 * allowed values, stored as a finite set of values (In), the complement of a
 * finite set (NotIn, Exists), optionally narrowed by inclusive integer
 * bounds. Gt N and Lt N are canonicalized to Gte N+1 and Lte N-1. A
 * requirement set (kp_requirements) holds at most one requirement per key;
 * adding a second one for a key intersects the two.
 *
 * Representation: a requirement is one immutable, reference-counted block
 * holding its key, its values as a sorted array and its bounds as int64.
 * Intersections walk the two sorted arrays; copying a set or adding an
 * existing requirement to a set shares blocks instead of copying strings.
 * kp_requirement_intersects, kp_requirements_intersects and
 * kp_requirements_compatible never allocate.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_REQUIREMENTS_H
#define KARPENTER_REQUIREMENTS_H

#include <karpenter/common.h>
#include <karpenter/labels.h>
#include <karpenter/wellknown.h>

KP_BEGIN_DECLS

/**
 * @brief Node selector operators (corev1.NodeSelectorOperator plus
 * Karpenter's Gte and Lte). Zero is not an operator, so a zeroed
 * kp_node_selector_requirement is rejected.
 * @since 0.1
 */
enum kp_selector_op {
	KP_SELECTOR_OP_IN = 1,             /**< "In" */
	KP_SELECTOR_OP_NOT_IN = 2,         /**< "NotIn" */
	KP_SELECTOR_OP_EXISTS = 3,         /**< "Exists" */
	KP_SELECTOR_OP_DOES_NOT_EXIST = 4, /**< "DoesNotExist" */
	KP_SELECTOR_OP_GT = 5,             /**< "Gt": one integer value, exclusive */
	KP_SELECTOR_OP_LT = 6,             /**< "Lt": one integer value, exclusive */
	KP_SELECTOR_OP_GTE = 7,            /**< "Gte": one integer value, inclusive */
	KP_SELECTOR_OP_LTE = 8             /**< "Lte": one integer value, inclusive */
};

/**
 * @brief Name of an operator as Kubernetes spells it ("In", "NotIn", ...).
 * @param[in] op a kp_selector_op value
 * @return static text; "Unknown" for an unknown value, never NULL
 * @since 0.1
 * Thread-safety: safe.
 */
const char *kp_selector_op_name(uint32_t op);

/**
 * @brief Parse an operator name (case-sensitive, as Kubernetes).
 * @param[in] name e.g. "NotIn"
 * @param[out] op the kp_selector_op value; untouched on failure
 * @param[out] err optional error detail; field is "operator"
 * @return KP_OK, KP_EINVAL (NULL argument or unknown name)
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_selector_op_parse(const char *name, uint32_t *op, kp_error *err);

/**
 * @brief One node selector requirement with minValues (upstream
 * NodeSelectorRequirementWithMinValues), filled by the caller.
 *
 * As input, every pointer is borrowed for the duration of the call.
 * As output (kp_requirement_selector), every pointer is borrowed from the
 * requirement it describes.
 *
 * @since 0.1
 */
typedef struct kp_node_selector_requirement {
	uint32_t struct_size;       /**< sizeof(kp_node_selector_requirement) */
	uint32_t op;                /**< a kp_selector_op value */
	const char *key;            /**< label key */
	const char *const *values;  /**< n_values strings */
	size_t n_values;            /**< number of values */
	int32_t min_values;         /**< minimum distinct values; 0 = unset */
	uint32_t reserved;          /**< zero */
} kp_node_selector_requirement;

/** Static initializer for kp_node_selector_requirement. @since 0.1 */
#define KP_NODE_SELECTOR_REQUIREMENT_INIT \
	{ sizeof(kp_node_selector_requirement), 0, NULL, NULL, 0, 0, 0 }

/**
 * @brief Initialize a kp_node_selector_requirement (for FFI callers that
 * cannot use KP_NODE_SELECTOR_REQUIREMENT_INIT).
 * @param[out] req the struct to zero and size-tag; NULL is a no-op
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_node_selector_requirement_init(kp_node_selector_requirement *req);

/**
 * @brief One immutable requirement on one label key.
 * @since 0.1
 * Ownership: a handle returned through `**out` is owned by the caller and
 * released with kp_requirement_free; a handle returned by kp_requirements_get
 * or kp_requirements_at is borrowed from its set.
 * Thread-safety: a requirement never changes after creation; every function
 * may be called on one handle from several threads at once.
 */
typedef struct kp_requirement kp_requirement;

/**
 * @brief Build a requirement (upstream NewRequirementWithFlexibility).
 *
 * The key is normalized (beta labels to GA, plus @p wk's aliases), then the
 * values of that key are normalized. In and NotIn keep their values,
 * deduplicated; Exists and DoesNotExist ignore values; Gt, Lt, Gte and Lte
 * take exactly one base-10 int64 value. Gt N becomes Gte N+1 and Lt N
 * becomes Lte N-1; Gt INT64_MAX and Lt INT64_MIN match nothing and become
 * DoesNotExist without minValues.
 *
 * @param[out] out the new requirement; NULL on failure
 * @param[in] sel the selector requirement
 * @param[in] wk label rules, or NULL for the core rules
 * @param[out] err optional error detail; field names the bad member
 * @return KP_OK; KP_EINVAL (NULL argument, unknown operator, NULL value,
 * wrong value count for Gt/Lt/Gte/Lte, negative min_values); KP_EPARSE
 * (value of Gt/Lt/Gte/Lte is not an integer); KP_EVERSION (struct_size);
 * KP_ENOMEM
 * @since 0.1
 * Ownership: the caller owns *out; the inputs are copied.
 * Thread-safety: safe.
 */
int kp_requirement_new(kp_requirement **out, const kp_node_selector_requirement *sel,
		       kp_wellknown *wk, kp_error *err);

/**
 * @brief Another owned handle on the same requirement (no string copies).
 * @param[out] out the copy; NULL on failure
 * @param[in] req the requirement
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL argument)
 * @since 0.1
 * Ownership: the caller owns *out and releases it with kp_requirement_free.
 * Thread-safety: safe.
 */
int kp_requirement_copy(kp_requirement **out, kp_requirement *req, kp_error *err);

/**
 * @brief Release a requirement handle. NULL is a no-op.
 * @param[in] req an owned handle (never one borrowed from a set)
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_requirement_free(kp_requirement *req);

/**
 * @brief The intersection of two requirements on the same key (upstream
 * Requirement.Intersection).
 *
 * Bounds combine to the tighter ones; if they cross, the result is
 * DoesNotExist. minValues is the larger of the two. A finite result keeps
 * only values within the bounds and drops the bounds. The result may share
 * storage with @p a or @p b when it equals one of them.
 *
 * @param[out] out the intersection, keyed by @p a's key; NULL on failure
 * @param[in] a a requirement
 * @param[in] b a requirement on the same key
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL argument or different keys), KP_ENOMEM
 * @since 0.1
 * Ownership: the caller owns *out.
 * Thread-safety: safe.
 */
int kp_requirement_intersection(kp_requirement **out, kp_requirement *a, kp_requirement *b,
				kp_error *err);

/**
 * @brief Whether two requirements allow a common value (upstream
 * HasIntersection); keys are not compared. Never allocates.
 * @param[in] a a requirement
 * @param[in] b a requirement
 * @return 1 if they intersect, 0 if not or if an argument is NULL
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_requirement_intersects(kp_requirement *a, kp_requirement *b);

/**
 * @brief Whether the requirement allows @p value (upstream Has). With
 * bounds, only base-10 int64 text within them is allowed.
 * @param[in] req the requirement
 * @param[in] value a label value
 * @return 1 or 0 (0 if an argument is NULL)
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_requirement_has(kp_requirement *req, const char *value);

/**
 * @brief The (normalized) label key.
 * @param[in] req the requirement
 * @return the key, borrowed from @p req; NULL if @p req is NULL
 * @since 0.1
 * Thread-safety: safe.
 */
const char *kp_requirement_key(kp_requirement *req);

/**
 * @brief The canonical operator (upstream Operator()): In (finite, non-empty),
 * DoesNotExist (finite, empty), NotIn (complement of a non-empty set) or
 * Exists (complement of the empty set, bounds aside).
 * @param[in] req the requirement
 * @return a kp_selector_op value; 0 if @p req is NULL
 * @since 0.1
 * Thread-safety: safe.
 */
uint32_t kp_requirement_operator(kp_requirement *req);

/**
 * @brief Number of allowed values (upstream Len()): the value count for
 * finite sets, INT64_MAX minus the excluded count for complements (bounds
 * are not counted).
 * @param[in] req the requirement
 * @return the length; 0 if @p req is NULL
 * @since 0.1
 * Thread-safety: safe.
 */
int64_t kp_requirement_len(kp_requirement *req);

/**
 * @brief Number of stored values: the allowed values of In, the excluded
 * values of NotIn.
 * @param[in] req the requirement
 * @return the count; 0 if @p req is NULL
 * @since 0.1
 * Thread-safety: safe.
 */
size_t kp_requirement_value_count(kp_requirement *req);

/**
 * @brief The stored value at @p index, in byte-wise ascending order.
 * @param[in] req the requirement
 * @param[in] index 0 .. kp_requirement_value_count() - 1
 * @return the value borrowed from @p req, or NULL when out of range
 * @since 0.1
 * Thread-safety: safe.
 */
const char *kp_requirement_value_at(kp_requirement *req, size_t index);

/**
 * @brief The inclusive lower bound, if any.
 * @param[in] req the requirement
 * @param[out] gte the bound; untouched when there is none; may be NULL
 * @return 1 when a lower bound is set, else 0
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_requirement_gte(kp_requirement *req, int64_t *gte);

/**
 * @brief The inclusive upper bound, if any.
 * @param[in] req the requirement
 * @param[out] lte the bound; untouched when there is none; may be NULL
 * @return 1 when an upper bound is set, else 0
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_requirement_lte(kp_requirement *req, int64_t *lte);

/**
 * @brief minValues, or 0 when unset.
 * @param[in] req the requirement
 * @return minValues
 * @since 0.1
 * Thread-safety: safe.
 */
int32_t kp_requirement_min_values(kp_requirement *req);

/**
 * @brief One value the requirement allows, chosen deterministically
 * (upstream Any(), which picks at random), snprintf-style.
 *
 * In: the smallest value in byte order. NotIn/Exists: the integer closest
 * to the start of the allowed range whose decimal text is not excluded:
 * counting up from the lower bound, else from 0 (down from the upper bound
 * when that is negative). DoesNotExist, or a bounded range whose every
 * integer is excluded, gives "" and 0.
 *
 * @param[in] req the requirement
 * @param[out] buf destination, NUL-terminated when @p size > 0; may be NULL
 * if @p size is 0
 * @param[in] size size of @p buf (32 bytes hold any generated integer)
 * @return the length of the value, excluding the NUL; truncated if >= @p size
 * @since 0.1
 * Thread-safety: safe.
 */
size_t kp_requirement_any(kp_requirement *req, char *buf, size_t size);

/**
 * @brief Render like upstream String(), snprintf-style: "KEY OP [V1 V2]"
 * (at most 5 values, then "and N others"), "KEY Exists" or
 * "KEY DoesNotExist", followed by " >=N", " <=N" and " minValues N" when set.
 * @param[in] req the requirement
 * @param[out] buf destination, NUL-terminated when @p size > 0; may be NULL
 * if @p size is 0
 * @param[in] size size of @p buf
 * @return the length of the whole text, excluding the NUL
 * @since 0.1
 * Thread-safety: safe.
 */
size_t kp_requirement_string(kp_requirement *req, char *buf, size_t size);

/**
 * @brief How many node selector requirements express @p req: 2 when it has
 * both bounds (Gte and Lte), else 1; 0 if @p req is NULL.
 * @param[in] req the requirement
 * @return the count
 * @since 0.1
 * Thread-safety: safe.
 */
size_t kp_requirement_selector_count(kp_requirement *req);

/**
 * @brief Express @p req as node selector requirement @p index (upstream
 * NodeSelectorRequirement / BoundedNodeSelectorRequirements).
 *
 * A bound wins over values, as upstream: a requirement with a lower bound
 * becomes "Gte N" (then "Lte M" at index 1 when both are set), one with
 * only an upper bound "Lte M"; otherwise its canonical operator with its
 * stored values. minValues is copied to each.
 *
 * @param[in] req the requirement
 * @param[in] index 0 .. kp_requirement_selector_count() - 1
 * @param[in,out] out caller-initialized (struct_size set); filled on success
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL argument or index out of range), KP_EVERSION
 * @since 0.1
 * Ownership: the strings and the values array in @p out are borrowed from
 * @p req.
 * Thread-safety: safe.
 */
int kp_requirement_selector(kp_requirement *req, size_t index, kp_node_selector_requirement *out,
			    kp_error *err);

/**
 * @brief A set of requirements with at most one per key, ordered by key.
 * @since 0.1
 * Ownership: created by kp_requirements_new / _copy / _from_*, released by
 * kp_requirements_free.
 * Thread-safety: functions that only read (everything but _add*) may run
 * concurrently on one set; adding needs exclusive access.
 */
typedef struct kp_requirements kp_requirements;

/** Flags of kp_requirements_compatible. @since 0.1 */
enum kp_compat_flags {
	/** Upstream AllowUndefinedWellKnownLabels: a well-known key that the
	 * receiving set does not define is not an error. */
	KP_COMPAT_ALLOW_UNDEFINED_WELLKNOWN = 1u << 0
};

/**
 * @brief Create an empty set.
 * @param[out] out the new set; NULL on failure
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL, KP_ENOMEM
 * @since 0.1
 * Ownership: the caller owns *out.
 * Thread-safety: safe.
 */
int kp_requirements_new(kp_requirements **out, kp_error *err);

/**
 * @brief Release a set. NULL is a no-op.
 * @param[in] reqs the set
 * @since 0.1
 * Ownership: requirements borrowed from the set become invalid.
 * Thread-safety: needs exclusive access to @p reqs.
 */
void kp_requirements_free(kp_requirements *reqs);

/**
 * @brief Copy a set; the requirements are shared, not duplicated.
 * @param[out] out the copy; NULL on failure
 * @param[in] reqs the set to copy
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL, KP_ENOMEM
 * @since 0.1
 * Ownership: the caller owns *out.
 * Thread-safety: safe.
 */
int kp_requirements_copy(kp_requirements **out, kp_requirements *reqs, kp_error *err);

/**
 * @brief Add a requirement (upstream Requirements.Add): a new key is
 * inserted, an existing key is replaced by the intersection of both.
 * @param[in,out] reqs the set; unchanged on failure
 * @param[in] req the requirement; the set takes its own reference
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL, KP_ENOMEM
 * @since 0.1
 * Ownership: the caller keeps its handle on @p req.
 * Thread-safety: needs exclusive access to @p reqs.
 */
int kp_requirements_add(kp_requirements *reqs, kp_requirement *req, kp_error *err);

/**
 * @brief Add every requirement of @p src to @p reqs (upstream
 * reqs.Add(src.Values()...)).
 * @param[in,out] reqs the set; on failure some requirements may have been
 * added (each addition is whole)
 * @param[in] src the requirements to add (may be @p reqs itself)
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL, KP_ENOMEM
 * @since 0.1
 * Thread-safety: needs exclusive access to @p reqs.
 */
int kp_requirements_add_all(kp_requirements *reqs, kp_requirements *src, kp_error *err);

/**
 * @brief Build a requirement with kp_requirement_new and add it.
 * @param[in,out] reqs the set; unchanged on failure
 * @param[in] sel the selector requirement
 * @param[in] wk label rules, or NULL for the core rules
 * @param[out] err optional error detail
 * @return as kp_requirement_new and kp_requirements_add
 * @since 0.1
 * Thread-safety: needs exclusive access to @p reqs.
 */
int kp_requirements_add_selector(kp_requirements *reqs, const kp_node_selector_requirement *sel,
				 kp_wellknown *wk, kp_error *err);

/**
 * @brief A set built from selector requirements (upstream
 * NewNodeSelectorRequirementsWithMinValues).
 * @param[out] out the new set; NULL on failure
 * @param[in] sels @p n_sels selector requirements
 * @param[in] n_sels their count
 * @param[in] wk label rules, or NULL for the core rules
 * @param[out] err optional error detail; field is prefixed with "[i]"
 * @return as kp_requirement_new
 * @since 0.1
 * Ownership: the caller owns *out.
 * Thread-safety: safe.
 */
int kp_requirements_from_selectors(kp_requirements **out,
				   const kp_node_selector_requirement *const *sels, size_t n_sels,
				   kp_wellknown *wk, kp_error *err);

/**
 * @brief A set with one "KEY In [VALUE]" requirement per label (upstream
 * NewLabelRequirements). Keys are normalized, so two labels that normalize
 * to one key intersect.
 * @param[out] out the new set; NULL on failure
 * @param[in] labels the label map
 * @param[in] wk label rules, or NULL for the core rules
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL argument, NULL key or value), KP_ENOMEM
 * @since 0.1
 * Ownership: the caller owns *out.
 * Thread-safety: safe.
 */
int kp_requirements_from_labels(kp_requirements **out, const kp_labels *labels, kp_wellknown *wk,
				kp_error *err);

/**
 * @brief Number of keys in the set.
 * @param[in] reqs the set
 * @return the count; 0 if @p reqs is NULL
 * @since 0.1
 * Thread-safety: safe.
 */
size_t kp_requirements_count(kp_requirements *reqs);

/**
 * @brief The requirement at @p index; keys ascend in byte order.
 * @param[in] reqs the set
 * @param[in] index 0 .. kp_requirements_count() - 1
 * @return a borrowed requirement, or NULL when out of range
 * @since 0.1
 * Ownership: valid until the set is modified or freed; take a
 * kp_requirement_copy to keep it longer.
 * Thread-safety: safe.
 */
kp_requirement *kp_requirements_at(kp_requirements *reqs, size_t index);

/**
 * @brief The requirement on @p key. Keys are not normalized here.
 *
 * Upstream Get returns "KEY Exists" for an undefined key; here an
 * undefined key gives NULL, which callers treat as Exists.
 *
 * @param[in] reqs the set
 * @param[in] key label key
 * @return a borrowed requirement, or NULL when the key is not defined
 * @since 0.1
 * Ownership: as kp_requirements_at.
 * Thread-safety: safe.
 */
kp_requirement *kp_requirements_get(kp_requirements *reqs, const char *key);

/**
 * @brief Whether the set defines @p key (upstream Has).
 * @param[in] reqs the set
 * @param[in] key label key
 * @return 1 or 0
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_requirements_has(kp_requirements *reqs, const char *key);

/**
 * @brief Whether any requirement sets minValues (upstream HasMinValues).
 * @param[in] reqs the set
 * @return 1 or 0
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_requirements_has_min_values(kp_requirements *reqs);

/**
 * @brief Upstream Intersects: every key defined by both sets must allow a
 * common value, except that two requirements whose operators are both
 * NotIn or DoesNotExist never conflict. Keys defined by one side only are
 * allowed. Never allocates.
 *
 * The message lists each conflicting key in key order, joined by "; ", as
 * "key KEY, INCOMING not in EXISTING" with both requirements rendered by
 * kp_requirement_string. Pass a NULL @p err on hot paths: the search then
 * stops at the first conflict and nothing is formatted.
 *
 * @param[in] reqs the existing requirements
 * @param[in] incoming the incoming requirements
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINCOMPATIBLE, KP_EINVAL (NULL argument)
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_requirements_intersects(kp_requirements *reqs, kp_requirements *incoming, kp_error *err);

/**
 * @brief Upstream Compatible: every key of @p incoming must be defined by
 * @p reqs unless its operator is NotIn or DoesNotExist (or, with
 * KP_COMPAT_ALLOW_UNDEFINED_WELLKNOWN, it is well-known in @p wk); then the
 * two sets must intersect (kp_requirements_intersects). Never allocates.
 *
 * An undefined key gives `label "KEY" does not have known values`, with
 * ` (typo of "LABEL"?)` appended when a well-known label (only with the
 * flag) or a key of @p reqs contains KEY or ends with the part of KEY after
 * its first '/'. Keys are quoted as Go's %q quotes ASCII (bytes >= 0x80 are
 * copied as they are). The first offending key in key order is reported,
 * and candidate labels are tried in byte order (upstream iterates Go maps,
 * so its choice is random when several match).
 *
 * @param[in] reqs the existing requirements
 * @param[in] incoming the incoming requirements
 * @param[in] flags kp_compat_flags
 * @param[in] wk label rules for the flag, or NULL for the core rules
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINCOMPATIBLE, KP_EINVAL (NULL argument or unknown flag)
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_requirements_compatible(kp_requirements *reqs, kp_requirements *incoming, uint32_t flags,
			       kp_wellknown *wk, kp_error *err);

/**
 * @brief Render like upstream Requirements.String(), snprintf-style: each
 * requirement as kp_requirement_string, in key order, joined by ", ",
 * leaving out restricted labels (kubernetes.io/hostname).
 * @param[in] reqs the set
 * @param[out] buf destination, NUL-terminated when @p size > 0; may be NULL
 * if @p size is 0
 * @param[in] size size of @p buf
 * @return the length of the whole text, excluding the NUL
 * @since 0.1
 * Thread-safety: safe.
 */
size_t kp_requirements_string(kp_requirements *reqs, char *buf, size_t size);

KP_END_DECLS

#endif /* KARPENTER_REQUIREMENTS_H */
