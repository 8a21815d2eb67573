/*
 * libkarpenter, for provider authors: API kinds of your own on the core's
 * descriptor engine (libgit2's git2/sys/ split: embedders never need this).
 *
 * EXPERIMENTAL. Everything here is outside SemVer: the symbols sit in the
 * version node KARPENTER_EXPERIMENTAL and may change in any release until
 * the AWS provider has used them for a release (VERSIONING.md, "Provider
 * kinds"). Define KP_EXPERIMENTAL_API before including this header.
 *
 * A provider describes its kind as data: one kp_schema_type per Go struct
 * (its Go type name and C size) with one kp_schema_field per Go field, in Go
 * declaration order (JSON name, Go name, field kind, C offsets, hash tags).
 * The tables are static const arrays in the provider. kp_registry_add_kind
 * reads them (with the record sizes the provider was built with, so the
 * records may grow at the end; see kp_schema_type::field_size), checks them,
 * and translates them into the engine's private form, which it owns. From
 * then on kp_decode (kp_decode_options::registry), kp_registry_encode,
 * kp_validate (kp_validate_options::registry), kp_registry_object_default,
 * kp_registry_object_copy/_free/_equal and kp_registry_object_hash handle the
 * kind like a core kind: strict decoding with field paths, deep copy and
 * free, and the hashstructure v2 drift hash over Go type and field names.
 *
 * The C representation of each field kind is given below; the value types
 * (kp_labels, kp_resource_list, kp_api_duration, kp_int_or_string,
 * kp_object_meta, kp_condition) are the core's public ones. A registered
 * top-level type starts with the head every core kind has: uint32_t
 * struct_size, uint32_t kind, const char *api_version (KP_FIELD_API_VERSION),
 * kp_object_meta *metadata (KP_FIELD_STRUCT of KP_CORE_TYPE_OBJECT_META).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_SYS_SCHEMA_H
#define KARPENTER_SYS_SCHEMA_H

#ifndef KP_EXPERIMENTAL_API
#error "karpenter/sys/schema.h is experimental API: define KP_EXPERIMENTAL_API to use it"
#endif

#include <stddef.h>
#include <stdint.h>

#include <karpenter/common.h>
#include <karpenter/hash.h>
#include <karpenter/objects.h>
#include <karpenter/validation.h>
#include <karpenter/version.h>

KP_BEGIN_DECLS

/**
 * @brief Field kinds: the engine's vocabulary, and each one's C form.
 *
 * Values are never renumbered. A core that does not know a kind refuses
 * the type at registration with KP_ENOTSUP.
 * @since 0.1
 */
enum kp_field_kind {
	KP_FIELD_STRING = 1,            /**< const char * at offset */
	KP_FIELD_ENUM = 2,              /**< const char * at offset (as written), uint32_t code at
	                                     aux_offset; a value outside `values` is refused */
	KP_FIELD_CODE = 3,              /**< uint32_t code at offset; a name outside `values` is
	                                     refused */
	KP_FIELD_BOOL = 4,              /**< uint32_t at offset */
	KP_FIELD_OPT_BOOL = 5,          /**< uint32_t at offset, uint32_t has-flag at aux_offset
	                                     (Go *bool) */
	KP_FIELD_INT32 = 6,             /**< int32_t at offset */
	KP_FIELD_INT64 = 7,             /**< int64_t at offset */
	KP_FIELD_OPT_INT32 = 8,         /**< int32_t at offset, uint32_t has-flag at aux_offset */
	KP_FIELD_OPT_INT64 = 9,         /**< int64_t at offset, uint32_t has-flag at aux_offset */
	KP_FIELD_TIME = 10,             /**< int64_t Unix ms at offset (metav1.Time) */
	KP_FIELD_DURATION = 11,         /**< kp_api_duration at offset (metav1.Duration) */
	KP_FIELD_NILLABLE_DURATION = 12, /**< kp_api_duration at offset ("Never" allowed) */
	KP_FIELD_INT_OR_STRING = 13,    /**< kp_int_or_string at offset */
	KP_FIELD_STRINGS = 14,          /**< const char *const * at offset, size_t count at
	                                     aux_offset ([]string) */
	KP_FIELD_MAP = 15,              /**< kp_labels at offset (map[string]string) */
	KP_FIELD_RESOURCES = 16,        /**< kp_resource_list at offset (corev1.ResourceList) */
	KP_FIELD_STRUCT = 17,           /**< pointer to the elem struct at offset */
	KP_FIELD_LIST = 18,             /**< elem ** at offset, size_t count at aux_offset */
	KP_FIELD_VALUES = 19,           /**< contiguous fixed-layout elem values at offset, size_t
	                                     count at aux_offset */
	KP_FIELD_TAG = 20,              /**< the key's presence sets the type's tag to `tag` */
	KP_FIELD_IGNORED = 21,          /**< accepted (strict decoding) and dropped */
	KP_FIELD_API_VERSION = 22,      /**< top level apiVersion: const char * at offset */
	KP_FIELD_KIND = 23,             /**< top level kind: uint32_t kind id at offset */
	KP_FIELD_DURATION_MAP = 24,     /**< kp_duration_map at offset
	                                     (map[string]metav1.Duration) */
	KP_FIELD_JSON = 25              /**< const char * at offset: any JSON value
	                                     (apiextensionsv1.JSON, an open map), kept as
	                                     Go's json.Marshal writes it: compact, object
	                                     keys sorted, the last of duplicate keys; NULL
	                                     when absent. Hashed as that text */
};

/** @brief Field flags: upstream's hash struct tags and Go pointer-ness. @since 0.1 */
enum kp_field_flags {
	KP_FIELD_F_HASH_IGNORE = 1u << 0, /**< hash:"ignore" */
	KP_FIELD_F_HASH_STRING = 1u << 1, /**< hash:"string" */
	KP_FIELD_F_HASH_SET = 1u << 2,    /**< hash:"set" */
	KP_FIELD_F_GO_PTR = 1u << 3       /**< the Go field is a pointer: present is never zero */
};

/**
 * @brief Core types a provider's field may hold (kp_schema_field::core_type,
 * for KP_FIELD_STRUCT and KP_FIELD_LIST when elem is NULL).
 * @since 0.1
 */
enum kp_core_type {
	KP_CORE_TYPE_NONE = 0,
	KP_CORE_TYPE_OBJECT_META = 1, /**< kp_object_meta (metav1.ObjectMeta) */
	KP_CORE_TYPE_CONDITION = 2    /**< kp_condition (metav1.Condition) */
};

/** @brief One allowed value of an ENUM or CODE field. @since 0.1 */
typedef struct kp_enum_value {
	const char *name; /**< as written in JSON */
	uint32_t code;    /**< the code stored (non-zero) */
} kp_enum_value;

typedef struct kp_schema_type kp_schema_type;

/**
 * @brief One field of a kp_schema_type.
 *
 * Tables are contiguous arrays read with kp_schema_type::field_size as the
 * stride (libbpf's record size), so this record may grow at the end without
 * breaking a provider built against an older header: the core reads the
 * bytes the provider has, treats the rest as zero, and refuses non-zero
 * bytes it does not know (KP_EVERSION).
 * @since 0.1
 */
typedef struct kp_schema_field {
	uint32_t kind;               /**< a kp_field_kind */
	uint32_t flags;              /**< kp_field_flags */
	const char *json;            /**< JSON member name */
	const char *go;              /**< Go field name (hashed; embedded fields: the type name) */
	size_t offset;               /**< offsetof the member */
	size_t aux_offset;           /**< offsetof the count, has-flag or code member, or 0 */
	const kp_schema_type *elem;  /**< STRUCT, LIST, VALUES: the element type */
	const kp_enum_value *values; /**< ENUM, CODE: the allowed values */
	size_t n_values;             /**< number of values */
	uint32_t core_type;          /**< STRUCT, LIST without elem: a kp_core_type */
	uint32_t tag;                /**< TAG, and a STRUCT whose presence sets the tag */
} kp_schema_field;

/**
 * @brief One Go struct type: its Go name and the C struct that holds it.
 * @since 0.1
 */
struct kp_schema_type {
	uint32_t struct_size;          /**< sizeof(kp_schema_type) */
	uint32_t field_size;           /**< sizeof(kp_schema_field) as the provider was built */
	const char *go;                /**< Go type name (hashed): "EC2NodeClassSpec" */
	size_t c_size;                 /**< sizeof the C struct */
	size_t first_c_size;           /**< smallest struct_size a caller may pass (its first
	                                    released size); 0 = c_size. Sized types only */
	size_t tag_offset;             /**< offsetof a uint32_t tag member, or 0 */
	uint32_t sized;                /**< 1: the C struct starts with uint32_t struct_size */
	uint32_t reserved;             /**< zero */
	const kp_schema_field *fields; /**< Go declaration order */
	size_t n_fields;               /**< number of fields */
};

/** Static initializer for kp_schema_type. @since 0.1 */
#define KP_SCHEMA_TYPE_INIT { sizeof(kp_schema_type), sizeof(kp_schema_field), NULL, 0, 0, 0, 0, \
			      0, NULL, 0 }

/**
 * @brief A map[string]metav1.Duration (KP_FIELD_DURATION_MAP): keys sorted
 * and unique, each value as kp_api_duration (text as written; ns when it
 * parses). A fixed-layout value type.
 * @since 0.1
 */
typedef struct kp_duration_map {
	const char *const *keys;       /**< n keys, sorted */
	const kp_api_duration *values; /**< n values, in key order */
	size_t n;                      /**< number of entries */
} kp_duration_map;

/** @brief A compiled type graph: the engine's private form of a kp_schema_type. @since 0.1 */
typedef struct kp_schema kp_schema;

/**
 * @brief Check a type description and translate it into the engine's form.
 * @param[out] out the compiled schema; NULL on failure
 * @param[in] type the root type (borrowed for the call: names are copied)
 * @param[out] err optional error detail, naming the type and field
 * @return KP_OK; KP_EINVAL (an offset beyond c_size, a missing elem or
 *         name, a duplicate JSON name); KP_ENOTSUP (an unknown field kind or
 *         core type); KP_EVERSION (a struct_size or field_size this library
 *         cannot read); KP_ENOMEM
 * @since 0.1
 * Ownership: release with kp_schema_free. Thread-safety: safe.
 */
int kp_schema_compile(kp_schema **out, const kp_schema_type *type, kp_error *err);

/** @brief Release a schema (NULL-safe). @since 0.1 Thread-safety: not on a shared schema. */
void kp_schema_free(kp_schema *schema);

/**
 * @brief hashstructure v2 (FormatV2, SlicesAsSets, IgnoreZeroValue,
 * ZeroNil) of a struct of a compiled type, as upstream's drift hashes.
 * @param[in] schema the type
 * @param[in] object the struct (NULL: the zero value)
 * @param[in] opts hash options, or NULL for KP_HASH_OPTIONS_INIT
 * @param[out] out the hash
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL, KP_EVERSION, KP_ERANGE
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_schema_hash(const kp_schema *schema, const void *object, const kp_hash_options *opts,
		   uint64_t *out, kp_error *err);

/**
 * @brief hashstructure v2 of a Go string, for composite hashes: the hash
 * of a []any{a, b, c} with SlicesAsSets is the XOR of its elements' hashes.
 * @param[in] s the string (NULL hashes as "")
 * @return the hash
 * @since 0.1
 * Thread-safety: safe.
 */
uint64_t kp_hash_go_string(const char *s);

/* ---- kinds and the registry ------------------------------------------- */

/** @brief Where a kind's validate callback reports problems. @since 0.1 */
typedef struct kp_validation_sink kp_validation_sink;

/**
 * @brief Report one problem of the object being validated.
 * @param[in] sink the sink passed to the callback
 * @param[in] field field path ("spec.role")
 * @param[in] message the whole message, preformatted (no varargs in the ABI)
 * @return KP_OK, KP_EINVAL (NULL argument), KP_ENOMEM
 * @since 0.1
 */
int kp_validation_sink_add(kp_validation_sink *sink, const char *field, const char *message);

/**
 * @brief Enter a member while validating: later problems and checks are
 * reported under `<path>.name` (a sink holds at most 32 levels).
 * @return KP_OK, KP_EINVAL (NULL argument), KP_ERANGE (too deep), KP_ENOMEM
 * @since 0.1
 */
int kp_validation_sink_push(kp_validation_sink *sink, const char *name);

/** @brief Leave the member last entered (no-op at the top). @since 0.1 */
void kp_validation_sink_pop(kp_validation_sink *sink);

/** @brief The kp_validate_flags of the validation (KP_VALIDATE_NO_STATUS, ...). @since 0.1 */
uint32_t kp_validation_sink_flags(const kp_validation_sink *sink);

/**
 * @brief The core's OpenAPI checks of a metav1.Duration member `name` of
 * the current object (its "pattern" rule), as for core kinds.
 * @param[in] nillable 1 for a NillableDuration ("Never")
 * @return KP_OK, KP_EINVAL, KP_ENOMEM
 * @since 0.1
 */
int kp_validation_sink_duration(kp_validation_sink *sink, const char *name,
				const kp_api_duration *duration, uint32_t nillable);

/**
 * @brief The core's checks of a metav1.Condition list member "conditions"
 * of the current object (required members, lengths, patterns, enum), as
 * for core kinds' status.
 * @return KP_OK, KP_EINVAL, KP_ENOMEM
 * @since 0.1
 */
int kp_validation_sink_conditions(kp_validation_sink *sink, kp_condition *const *conditions,
				  size_t n_conditions);

/**
 * @brief Behaviour of a kind beyond its description (STYLE rule 7 vtable).
 * Every slot may be NULL: no defaults, no checks beyond metadata, the
 * default drift hash (kp_schema_hash of the kind's hash_root member).
 * @since 0.1
 */
typedef struct kp_kind_ops {
	uint32_t struct_size; /**< sizeof(kp_kind_ops) */
	uint32_t abi_major;   /**< KP_ABI_MAJOR as the provider was built */
	uint32_t flags;       /**< zero */
	uint32_t reserved;    /**< zero */
	const char *name;     /**< the provider, for messages ("aws") */
	/** The CRD's defaults, applied to a library-built object. */
	int (*apply_defaults)(void *self, void *object, kp_error *err);
	/** Checks beyond metadata; problems go to the sink; returns KP_OK
	 *  whether or not there were problems. */
	int (*validate)(void *self, const void *object, const void *old_object,
			kp_validation_sink *sink, kp_error *err);
	/** The drift hash of an object. */
	int (*hash)(void *self, const void *object, const kp_hash_options *opts, uint64_t *out,
		    kp_error *err);
	/** Frees self when the registry is freed. */
	void (*destroy)(void *self);
} kp_kind_ops;

/** Static initializer for kp_kind_ops. @since 0.1 */
#define KP_KIND_OPS_INIT { sizeof(kp_kind_ops), KP_ABI_MAJOR, 0, 0, NULL, NULL, NULL, NULL, NULL }

/** @brief Flags of kp_kind_spec. @since 0.1 */
enum kp_kind_flags {
	KP_KIND_F_CRD = 1u << 0 /**< a CRD: unknown and duplicate fields are errors (strict) */
};

/**
 * @brief One constraint of a kind's CRD, as kp_validate reports it
 * (kp_validation_rule; its id becomes "<Kind>:<path>:<keyword>").
 *
 * Rule tables are contiguous arrays read with kp_kind_spec::rule_size as
 * the stride, like field tables. The core's checks of common value types
 * (kp_validation_sink_duration, kp_validation_sink_conditions, metadata)
 * look their rules up here by schema path and keyword, and decoding quotes
 * a rule's text ("pattern", "format") in its messages.
 * @since 0.1
 */
typedef struct kp_crd_rule {
	uint32_t source;     /**< a kp_rule_source */
	uint32_t flags;      /**< KP_RULE_F_* */
	const char *path;    /**< schema path: "spec.nodeRegistrationDelay", "[*]" for items */
	const char *keyword; /**< "pattern", "maxLength", "required", ... */
	const char *text;    /**< the constraint: pattern, bound, enum values, ... */
	const char *message; /**< the rule's own message, or "" */
} kp_crd_rule;

/** @brief A kind to register. @since 0.1 */
typedef struct kp_kind_spec {
	uint32_t struct_size;       /**< sizeof(kp_kind_spec) */
	uint32_t flags;             /**< kp_kind_flags */
	const char *group;          /**< "karpenter.k8s.aws" */
	const char *version;        /**< "v1" */
	const char *kind;           /**< "EC2NodeClass" */
	const kp_schema_type *type; /**< the top-level type (object head first) */
	const char *hash_root;      /**< JSON name of the member the default hash covers
	                                 ("spec"), or NULL */
	const char *hash_version;   /**< the hash version annotation value ("v6"), or NULL */
	const kp_crd_rule *rules;   /**< the CRD's rule inventory, or NULL (then metadata
	                                 problems are reported under one generic rule) */
	size_t n_rules;             /**< number of rules */
	uint32_t rule_size;         /**< sizeof(kp_crd_rule) as the provider was built */
	uint32_t reserved;          /**< zero */
} kp_kind_spec;

/** Static initializer for kp_kind_spec. @since 0.1 */
#define KP_KIND_SPEC_INIT { sizeof(kp_kind_spec), 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, \
			    sizeof(kp_crd_rule), 0 }

/** Kind ids of registered kinds start here; core kinds keep enum kp_kind. @since 0.1 */
#define KP_KIND_FIRST_REGISTERED 0x10000u

/**
 * @brief A set of kinds: the core kinds plus registered ones. Not global:
 * pass it where objects are decoded, validated, copied or hashed.
 * @since 0.1
 * Thread-safety: register everything first; then any number of threads may
 * use a registry that nobody modifies (decoding with it, which holds it,
 * counts its holders atomically). kp_registry_add_kind and the last
 * kp_registry_free need exclusive access.
 */
typedef struct kp_registry kp_registry;

/**
 * @brief A registry that knows the core kinds.
 * @param[out] out the registry
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL, KP_ENOMEM
 * @since 0.1
 * Ownership: release with kp_registry_free.
 */
int kp_registry_new(kp_registry **out, kp_error *err);

/**
 * @brief Release a registry (NULL-safe): each kind's ops->destroy(self) is
 * called once nothing holds the registry any more (a kp_decode_result
 * decoded with it keeps it alive until freed).
 * @since 0.1
 */
void kp_registry_free(kp_registry *registry);

/**
 * @brief Register a kind.
 * @param[in] registry the registry
 * @param[in] spec the kind (borrowed for the call: everything is copied)
 * @param[in] ops its behaviour, or NULL (copied)
 * @param[in] self passed to every ops slot; the registry owns it from a
 *            successful call on (ops->destroy)
 * @param[out] out_kind the kind id (>= KP_KIND_FIRST_REGISTERED), may be NULL
 * @param[out] err optional error detail
 * @return KP_OK; KP_EINVAL (a bad description; a kind whose apiVersion and
 *         kind are already known: "KIND already registered"); KP_ENOTSUP;
 *         KP_EVERSION (ops->abi_major of another ABI generation, or a
 *         struct_size this library cannot read); KP_ENOMEM
 * @since 0.1
 */
int kp_registry_add_kind(kp_registry *registry, const kp_kind_spec *spec, const kp_kind_ops *ops,
			 void *self, uint32_t *out_kind, kp_error *err);

/**
 * @brief The kind id of an apiVersion and kind: a core kind's kp_kind, a
 * registered kind's id, or KP_KIND_UNKNOWN. A NULL registry knows the core
 * kinds only.
 * @since 0.1
 */
uint32_t kp_registry_lookup(const kp_registry *registry, const char *api_version,
			    const char *kind);

/** @brief Kind name of a kind id ("EC2NodeClass"); "" if unknown; never NULL. @since 0.1 */
const char *kp_registry_kind_name(const kp_registry *registry, uint32_t kind);

/** @brief apiVersion of a kind id; "" if unknown; never NULL. @since 0.1 */
const char *kp_registry_kind_api_version(const kp_registry *registry, uint32_t kind);

/**
 * @brief Hash version of a registered kind (kp_kind_spec::hash_version),
 * or "" when it has none or is unknown; never NULL.
 * @since 0.1
 */
const char *kp_registry_kind_hash_version(const kp_registry *registry, uint32_t kind);

/** @brief Number of rules of a kind (core kinds: those of kp_validation_rule_at). @since 0.1 */
size_t kp_registry_rule_count(const kp_registry *registry, uint32_t kind);

/** @brief Rule @p index of a kind, or NULL. @since 0.1 */
const kp_validation_rule *kp_registry_rule_at(const kp_registry *registry, uint32_t kind,
					      size_t index);

/**
 * @brief Deep-copy an object of any kind the registry knows.
 * @return KP_OK, KP_EINVAL (unknown kind, NULL argument), KP_EVERSION, KP_ENOMEM
 * @since 0.1
 * Ownership: release *out with kp_registry_object_free.
 */
int kp_registry_object_copy(void **out, const kp_registry *registry, uint32_t kind,
			    const void *object, kp_error *err);

/** @brief Free a library-built object of any kind the registry knows (NULL-safe). @since 0.1 */
void kp_registry_object_free(const kp_registry *registry, uint32_t kind, void *object);

/**
 * @brief Deep equality of two objects of one kind.
 * @return 1 equal, 0 not (or an unknown kind)
 * @since 0.1
 */
int kp_registry_object_equal(const kp_registry *registry, uint32_t kind, const void *a,
			     const void *b);

/**
 * @brief Apply a kind's CRD defaults (kp_object_default for core kinds).
 * @return KP_OK, KP_EINVAL, KP_ENOMEM, or what the kind's callback returns
 * @since 0.1
 */
int kp_registry_object_default(const kp_registry *registry, uint32_t kind, void *object,
			       kp_error *err);

/**
 * @brief The drift hash of a registered kind's object: its ops->hash, or
 * kp_schema_hash of its hash_root member.
 * @return KP_OK; KP_ENOTSUP (a kind without a drift hash); KP_EINVAL;
 *         KP_EVERSION; KP_ERANGE
 * @since 0.1
 */
int kp_registry_object_hash(const kp_registry *registry, uint32_t kind, const void *object,
			    const kp_hash_options *opts, uint64_t *out, kp_error *err);

/**
 * @brief kp_encode for any kind the registry knows.
 * @since 0.1
 * Ownership: release *out with kp_encoded_free.
 */
int kp_registry_encode(char **out, size_t *out_len, const kp_registry *registry, uint32_t kind,
		       const void *object, uint32_t format, uint32_t flags, kp_error *err);

/* ---- validators: rules added to a kind another library owns ------------ */

/**
 * @brief Enter list item @p index of the member last entered: later
 * problems are reported under `<path>[index]`, and the rules looked up
 * under the schema path `<path>[*]`.
 * @return KP_OK, KP_EINVAL (NULL sink), KP_ERANGE (too deep), KP_ENOMEM
 * @since 0.1
 */
int kp_validation_sink_push_index(kp_validation_sink *sink, size_t index);

/**
 * @brief Enter the value of map key @p key of the member last entered:
 * problems go under `<path>.key`, rules are looked up under `<path>.*`.
 * @return KP_OK, KP_EINVAL, KP_ERANGE (too deep), KP_ENOMEM
 * @since 0.1
 */
int kp_validation_sink_push_key(kp_validation_sink *sink, const char *key);

/**
 * @brief The OpenAPI checks of a string at the current path, driven by the
 * rule inventory (kp_crd_rule rows for the current schema path):
 * maxLength, minLength, pattern (the first failing only, as kube-openapi),
 * then enum; with the API server's messages. A check applies when its
 * row exists.
 * @param[in] value the string (NULL: nothing to check)
 * @return KP_OK (problems or not), KP_EINVAL, KP_ENOMEM
 * @since 0.1
 */
int kp_validation_sink_string(kp_validation_sink *sink, const char *value);

/** @brief minimum and maximum of an integer at the current path (as
 *  kp_validation_sink_string). @return KP_OK, KP_EINVAL, KP_ENOMEM @since 0.1 */
int kp_validation_sink_int(kp_validation_sink *sink, int64_t value);

/** @brief maxItems and minItems of a list of @p n items at the current path
 *  (as kp_validation_sink_string; call after the items' own checks).
 *  @return KP_OK, KP_EINVAL, KP_ENOMEM @since 0.1 */
int kp_validation_sink_items(kp_validation_sink *sink, size_t n);

/** @brief maxProperties of a map of @p n entries at the current path (as
 *  kp_validation_sink_string; call before the values' checks).
 *  @return KP_OK, KP_EINVAL, KP_ENOMEM @since 0.1 */
int kp_validation_sink_props(kp_validation_sink *sink, size_t n);

/**
 * @brief The "required" rule of member @p name of the current object:
 * "<path>.name: Required value" unless @p present. The row
 * (path "<schema path>.name", keyword "required") must exist.
 * @return KP_OK, KP_EINVAL (NULL argument; no such row), KP_ENOMEM
 * @since 0.1
 */
int kp_validation_sink_required(kp_validation_sink *sink, const char *name, uint32_t present);

/** @brief Outcomes of a CEL rule (kp_validation_sink_cel). @since 0.1 */
enum kp_cel_result {
	KP_CEL_TRUE = 0,  /**< the rule holds: nothing is reported */
	KP_CEL_FALSE = 1, /**< the rule fails: its message is reported */
	KP_CEL_ERROR = 2  /**< evaluating the rule failed (eval_error says why) */
};

/**
 * @brief Report the outcome of CEL rule `x-kubernetes-validations[index]`
 * of the current schema path as the API server does: "Invalid value:
 * <value>: <message>" with the rule's own message (row keyword
 * "x-kubernetes-validations[index]"; it must exist).
 * @param[in] result a kp_cel_result
 * @param[in] type_name the schema type of self ("object", "array",
 *            "string"), quoted for an evaluation error
 * @param[in] value self's text when self is a string (quoted in the
 *            message), else NULL
 * @param[in] eval_error the evaluation error (KP_CEL_ERROR), or NULL
 * @return KP_OK, KP_EINVAL (NULL sink, an unknown result, no such row), KP_ENOMEM
 * @since 0.1
 */
int kp_validation_sink_cel(kp_validation_sink *sink, uint32_t index, uint32_t result,
			   const char *type_name, const char *value, const char *eval_error);

/**
 * @brief A validator: rules one library adds to a kind another library
 * owns (STYLE rule 7 vtable), e.g. libkarpenter-aws's CEL rules on
 * karpenter.k8s.aws label keys in the AWS build's NodePool and NodeClaim
 * CRDs. kp_validate of the kind runs the owner's checks (the core's walk,
 * or the registered kind's validate slot) and then every validator of the
 * kind, in order of registration, on the same object and sink. While a
 * validator runs, the sink's inventory-driven checks (string, int, items,
 * required, cel) look up the validator's own rules; kp_registry_rule_count
 * and kp_registry_rule_at list them after the kind's, with ids
 * "<Kind>:<path>:<keyword>" like the kind's own rows (a row must not
 * repeat one of the kind's path and keyword).
 * @since 0.1
 */
typedef struct kp_validator_ops {
	uint32_t struct_size;     /**< sizeof(kp_validator_ops) */
	uint32_t abi_major;       /**< KP_ABI_MAJOR as the provider was built */
	uint32_t flags;           /**< zero */
	uint32_t rule_size;       /**< sizeof(kp_crd_rule) as the provider was built */
	const char *name;         /**< the provider, for messages ("aws") */
	const kp_crd_rule *rules; /**< the rules it adds (copied), or NULL */
	size_t n_rules;           /**< number of rules */
	/** Checks of @p object (and @p old_object on update, else NULL) of the
	 *  kind; problems go to the sink; returns KP_OK whether or not there
	 *  were problems. Must not be NULL. */
	int (*validate)(void *self, const void *object, const void *old_object,
			kp_validation_sink *sink, kp_error *err);
	/** Frees self when the registry is freed. */
	void (*destroy)(void *self);
} kp_validator_ops;

/** Static initializer for kp_validator_ops. @since 0.1 */
#define KP_VALIDATOR_OPS_INIT { sizeof(kp_validator_ops), KP_ABI_MAJOR, 0, sizeof(kp_crd_rule), \
				NULL, NULL, 0, NULL, NULL }

/**
 * @brief Add a validator to a kind: a core kind (KP_KIND_NODEPOOL,
 * KP_KIND_NODECLAIM) or one registered in this registry.
 * @param[in] registry the registry
 * @param[in] kind the kind the validator checks
 * @param[in] ops the validator (copied, with its rules)
 * @param[in] self passed to every slot; owned by the registry from a
 *            successful call on (ops->destroy)
 * @param[out] err optional error detail
 * @return KP_OK; KP_EINVAL (NULL argument, NULL validate, unknown flags, a
 *         kind without validation, a bad or repeated rule); KP_EVERSION
 *         (another ABI generation, a struct_size or rule_size this library
 *         cannot read); KP_ENOMEM
 * @since 0.1
 * Thread-safety: as kp_registry_add_kind (exclusive access).
 */
int kp_registry_add_validator(kp_registry *registry, uint32_t kind, const kp_validator_ops *ops,
			      void *self, kp_error *err);

/* ---- conversions (karpenter/convert.h) ------------------------------------ */

/** @brief Where a conversion callback writes its output and report. @since 0.1 */
typedef struct kp_conversion_sink kp_conversion_sink;

/**
 * @brief Emit one converted object (a JSON object, copied). A conversion
 * may emit several objects for one input (a generated node class).
 * @return KP_OK; KP_EPARSE (not one JSON object); KP_EINVAL; KP_ENOMEM
 * @since 0.1
 */
int kp_conversion_sink_emit(kp_conversion_sink *sink, const char *json);

/**
 * @brief Add one report line, "moved: KIND/NAME: from -> to", "renamed:
 * ...", "dropped: KIND/NAME: path", "generated: KIND/NAME ..." or
 * "warning: ..." (copied).
 * @return KP_OK, KP_EINVAL, KP_ENOMEM
 * @since 0.1
 */
int kp_conversion_sink_report(kp_conversion_sink *sink, const char *line);

/** @brief Flags of kp_conversion_ops. @since 0.1 */
enum kp_conversion_flags {
	/** node_class_group/kind name a node class: the default of a
	 *  v1beta1 nodeClassRef without apiVersion or kind (upstream takes
	 *  the provider's first node class). */
	KP_CONVERSION_F_NODE_CLASS = 1u << 0,
	/** The node class's v1 spec holds a kubelet (spec.kubelet, the v1beta1
	 *  KubeletConfiguration's fields): NodePools' kubelets move there. */
	KP_CONVERSION_F_KUBELET = 1u << 1
};

/**
 * @brief A provider's conversions (STYLE rule 7 vtable). The core offers
 * each object it does not convert itself to every registered conversion in
 * order of registration; the first one that does not return KP_ENOTSUP
 * converts it.
 * @since 0.1
 */
typedef struct kp_conversion_ops {
	uint32_t struct_size;         /**< sizeof(kp_conversion_ops) */
	uint32_t abi_major;           /**< KP_ABI_MAJOR as the provider was built */
	uint32_t flags;               /**< kp_conversion_flags */
	uint32_t reserved;            /**< zero */
	const char *name;             /**< the provider, for messages ("aws") */
	const char *node_class_group; /**< "karpenter.k8s.aws", or NULL */
	const char *node_class_kind;  /**< "EC2NodeClass", or NULL */
	/** Convert @p json (one object, compact JSON) of @p api_version and
	 *  @p kind to @p target (a kp_convert_target): emit the result (and
	 *  report) on @p sink and return KP_OK; KP_ENOTSUP when the object is
	 *  not one this provider converts (nothing emitted); another code (with
	 *  @p err naming the object and field) refuses the object. The core's
	 *  karpenter.sh/v1alpha5 Provisioner and Machine are offered first, before
	 *  the core converts them: a provider may emit the object back with its
	 *  own v1alpha5 defaults applied and an inline provider block replaced by
	 *  a providerRef, followed by the objects it generates (converted to
	 *  @p target); the core converts the first and writes the others after
	 *  it. */
	int (*convert)(void *self, const char *json, const char *api_version, const char *kind,
		       uint32_t target, kp_conversion_sink *sink, kp_error *err);
	/** Frees self when the registry is freed. */
	void (*destroy)(void *self);
} kp_conversion_ops;

/** Static initializer for kp_conversion_ops. @since 0.1 */
#define KP_CONVERSION_OPS_INIT { sizeof(kp_conversion_ops), KP_ABI_MAJOR, 0, 0, NULL, NULL, \
				 NULL, NULL, NULL }

/**
 * @brief Register a provider's conversions.
 * @param[in] registry the registry
 * @param[in] ops the conversions (copied; convert must not be NULL)
 * @param[in] self passed to every slot; owned by the registry from a
 *            successful call on (ops->destroy)
 * @param[out] err optional error detail
 * @return KP_OK; KP_EINVAL; KP_EVERSION (another ABI generation, a
 *         struct_size this library cannot read); KP_ENOMEM
 * @since 0.1
 */
int kp_registry_add_conversion(kp_registry *registry, const kp_conversion_ops *ops, void *self,
			       kp_error *err);

/* ---- the cluster builder ----------------------------------------------- */

struct kp_cluster_builder;

/**
 * @brief Let a cluster builder read registered kinds: add_manifests decodes
 * with the registry, and objects of a registered kind whose status has
 * conditions (status.conditions) are node classes, ready unless their Ready
 * condition says otherwise (none counts as ready); their defaults are the
 * kind's. Set it before adding objects.
 * @param[in,out] builder the builder
 * @param[in] registry the registry, held until the builder is freed; NULL =
 *            core kinds only
 * @param[out] err optional error detail
 * @return KP_OK; KP_EINVAL (NULL builder, objects already added)
 * @since 0.1
 */
int kp_cluster_builder_set_registry(struct kp_cluster_builder *builder, kp_registry *registry,
				    kp_error *err);

KP_END_DECLS

#endif /* KARPENTER_SYS_SCHEMA_H */
