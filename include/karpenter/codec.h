/*
 * libkarpenter: decoding and encoding Kubernetes objects as JSON and YAML.
 *
 * Decoding reads what `kubectl apply -f` reads: a JSON stream or a YAML
 * stream of documents, each one object or a `kind: List` (or `<Kind>List`)
 * whose items are objects. YAML is read as Kubernetes clients read it
 * (sigs.k8s.io/yaml): it is converted to the JSON data model first, so
 * unquoted true/false/yes/no/on/off, numbers and null take those JSON types
 * and quoted scalars stay strings (write `value: "true"` for a string).
 * Anchors and aliases are expanded within the node and text budgets; merge
 * keys (<<) are supported.
 *
 * Each object becomes one entry of the result: its kind, apiVersion/kind
 * text, name, namespace, document index and, for a modelled kind, the
 * decoded struct (objects.h, nodepool.h, nodeclaim.h, kwok_nodeclass.h).
 * Objects of kinds the library does not model (EC2NodeClass, ConfigMap,
 * karpenter.sh/v1beta1 NodePool, ...) are entries of kind KP_KIND_UNKNOWN,
 * not errors, so a caller can say which were skipped.
 *
 * Unknown fields. In Karpenter kinds (NodePool, NodeClaim, KWOKNodeClass)
 * every field of the v1 CRD is modelled, so an unknown field is a mistake:
 * strict mode (the default) fails with kubectl's strict-decoding wording,
 * `strict decoding error: unknown field "spec.template.spec.requirement"`
 * (all unknown fields of the object, comma-separated, as the API server
 * lists them); lenient mode (KP_DECODE_LENIENT, like kubectl
 * --validate=warn) drops them and records one warning per field,
 * `unknown field "spec.template.spec.requirement"`. Core kinds are only
 * partly modelled, so their other fields are ignored silently. A field
 * given twice in one object is an error in strict mode (`duplicate field
 * "spec.weight"`) and a warning in lenient mode, where the last one wins.
 *
 * Errors. Every decode error fails the whole call (no partial result).
 * kp_error::field holds the field path inside the object
 * ("spec.template.spec.requirements[0].operator") and kp_error::message
 * starts with the object ("NodePool/default: ", or "document 3: " before the
 * kind and name are known; documents count from 1 in messages), then the
 * path and the problem: `NodePool/default: spec.weight: expected integer,
 * got string`. Syntax errors name the document, line and column.
 *
 * Limits (defaults; each can be lowered or raised in kp_decode_options):
 * input size 64 MiB (KP_DECODE_DEFAULT_MAX_BYTES), nesting depth 100
 * (KP_DECODE_DEFAULT_MAX_DEPTH), and 1,048,576 tree nodes
 * (KP_DECODE_DEFAULT_MAX_NODES) beyond each document's own size in bytes,
 * and beyond the whole input's size: without YAML aliases or merge keys no
 * document reaches it (a node takes at least a byte), so a stream of any
 * number of documents within the input limit reads, while alias expansion
 * (a "billion laughs") is refused naming the document; text created by
 * alias expansion is bounded by twice the input limit. Every list length is bounded by the node limit.
 * Memory: documents are decoded one at a time as they are parsed, and so
 * are the items of a top-level List (JSON or YAML), so a parse holds one
 * document's (or one item's) tree at a time. A document may hold at once
 * 200,000 values plus one per 16 bytes of it (a value takes about 100 bytes
 * in the tree), which no object the API server stores comes near; a denser
 * one (a flow sequence of a million numbers) is refused naming the document
 * and line. This limit is fixed, so that memory stays within a small
 * multiple of the input whatever max_nodes allows.
 * Strings may not contain NUL. Strict mode names at most what fits in
 * kp_error::message; lenient mode keeps at most KP_DECODE_MAX_WARNINGS
 * warnings.
 *
 * Encoding writes one object as JSON (compact or indented) or as one YAML
 * document in block style. Fields are written in the order of the Go
 * declaration, only when present (see objects.h for presence); quantities
 * in their canonical form; durations as their text. Decoding an encoded
 * object gives an equal object.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_CODEC_H
#define KARPENTER_CODEC_H

#include <karpenter/common.h>
#include <karpenter/objects.h>
#include <karpenter/emitter.h>

KP_BEGIN_DECLS

/* enum kp_format (KP_FORMAT_JSON, KP_FORMAT_YAML) is in common.h: the
 * emitter (emitter.h) writes the same formats. */

/** Flags of kp_decode_options. @since 0.1 */
enum kp_decode_flags {
	/** Drop unknown and duplicate fields of Karpenter kinds with a warning
	 * instead of failing (kubectl --validate=warn). */
	KP_DECODE_LENIENT = 1u << 0
};

/** Default input limit of kp_decode, in bytes (64 MiB). @since 0.1 */
#define KP_DECODE_DEFAULT_MAX_BYTES ((size_t)64 << 20)
/** Default nesting limit of kp_decode. @since 0.1 */
#define KP_DECODE_DEFAULT_MAX_DEPTH 100u
/** Default tree node limit of kp_decode: nodes a document (and the whole
 *  input) may create beyond its size in bytes, i.e. by YAML alias expansion.
 *  @since 0.1 */
#define KP_DECODE_DEFAULT_MAX_NODES ((size_t)1 << 20)
/** Largest accepted kp_decode_options::max_depth (parsing recurses). @since 0.1 */
#define KP_DECODE_MAX_DEPTH_LIMIT 1000u
/** Most warnings a result keeps; the last one then says how many were
 *  dropped ("N more warnings not shown"). @since 0.1 */
#define KP_DECODE_MAX_WARNINGS 1000u

/**
 * @brief Options of kp_decode, filled by the caller.
 * @since 0.1
 */
typedef struct kp_decode_options {
	uint32_t struct_size; /**< sizeof(kp_decode_options) */
	uint32_t format;      /**< a kp_format */
	uint32_t flags;       /**< kp_decode_flags */
	uint32_t max_depth;   /**< nesting limit; 0 = KP_DECODE_DEFAULT_MAX_DEPTH; at most
	                           KP_DECODE_MAX_DEPTH_LIMIT */
	size_t max_bytes;     /**< input limit; 0 = KP_DECODE_DEFAULT_MAX_BYTES */
	size_t max_nodes;     /**< node limit beyond the size; 0 = KP_DECODE_DEFAULT_MAX_NODES */
	/* below: @since 0.1, added while 0.1 was being written (callers without
	 * it are served: core kinds only) */
	/** Experimental (karpenter/sys/schema.h): the kinds to decode, core and
	 *  registered; NULL = core kinds only. A result decoded with a registry
	 *  holds it until kp_decode_result_free; an object taken from it is
	 *  freed with kp_registry_object_free. */
	struct kp_registry *registry;
} kp_decode_options;

/** Static initializer for kp_decode_options: auto-detect, strict, default limits. @since 0.1 */
#define KP_DECODE_OPTIONS_INIT { sizeof(kp_decode_options), KP_FORMAT_AUTO, 0, 0, 0, 0, NULL }

/**
 * @brief Initialize options as KP_DECODE_OPTIONS_INIT (for FFI).
 * @param[out] opts the options; NULL is a no-op
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_decode_options_init(kp_decode_options *opts);

/**
 * @brief One decoded object, owned by its kp_decode_result.
 *
 * Library-made: never allocated or embedded by the caller; read members
 * only up to struct_size.
 * @since 0.1
 */
typedef struct kp_decoded_object {
	uint32_t struct_size;    /**< sizeof(kp_decoded_object) as the library knows it */
	uint32_t kind;           /**< a kp_kind, or a registered kind's id (decoded with a
	                              registry); KP_KIND_UNKNOWN for a skipped kind */
	size_t document;         /**< 0-based index of the document in the stream */
	size_t item;             /**< 0-based index in the document's List, or 0 */
	uint32_t in_list;        /**< 1 if the object was an item of a List */
	uint32_t reserved;       /**< zero */
	const char *api_version; /**< apiVersion as written ("" if absent) */
	const char *kind_name;   /**< kind as written */
	const char *name;        /**< metadata.name, or "" */
	const char *namespace_;  /**< metadata.namespace, or "" */
	void *object;            /**< the decoded struct for a modelled kind (kp_nodepool *
	                              for KP_KIND_NODEPOOL, ...); NULL for KP_KIND_UNKNOWN or
	                              after kp_decode_result_take */
} kp_decoded_object;

/**
 * @brief The result of one kp_decode call: objects in stream order and
 *        warnings.
 * @since 0.1
 * Ownership: created by kp_decode, released by kp_decode_result_free,
 * which frees every object still in it.
 * Thread-safety: read-only functions may run concurrently; take needs
 * exclusive access.
 */
typedef struct kp_decode_result kp_decode_result;

/**
 * @brief Decode a JSON or YAML stream.
 *
 * Empty documents (and JSON/YAML nulls) are skipped and produce no entry,
 * but still count in document indexes.
 *
 * @param[out] out the result; NULL on failure
 * @param[in] data the text (need not be NUL-terminated)
 * @param[in] len its length in bytes
 * @param[in] opts options, or NULL for KP_DECODE_OPTIONS_INIT
 * @param[out] err optional error detail (see the file comment for the form)
 * @return KP_OK; KP_EINVAL (NULL argument, bad option, a document that is
 *         not an object or lacks apiVersion/kind, a field of the wrong type,
 *         an unknown or duplicate field in strict mode, an unsupported value
 *         where only a code is kept); KP_EPARSE (malformed JSON or YAML, a
 *         bad quantity or timestamp); KP_ERANGE (a limit exceeded, a number
 *         out of its field's range); KP_EVERSION (options struct_size);
 *         KP_ENOMEM
 * @since 0.1
 * Ownership: @p data is only read during the call; the caller owns *out.
 * Thread-safety: safe.
 */
int kp_decode(kp_decode_result **out, const char *data, size_t len,
	      const kp_decode_options *opts, kp_error *err);

/**
 * @brief Reads input for kp_decode_read.
 *
 * Fills @p buf with 1 to @p cap bytes and sets *n_read, or sets *n_read to
 * 0 at the input's end. A failure returns a negative kp_status (KP_EIO for
 * an I/O error) and may describe it in @p err, which kp_decode_read passes
 * on to its caller.
 * @since 0.1
 */
typedef int (*kp_read_fn)(void *ctx, char *buf, size_t cap, size_t *n_read, kp_error *err);

/**
 * @brief Decode a JSON or YAML stream read piece by piece: kp_decode for an
 *        input that is not in memory (a file, a pipe from kubectl).
 *
 * The result, errors and limits are kp_decode's for the same bytes; only
 * memory differs: what is held is a window of the input as large as the
 * largest document (or List item), not the input. With KP_FORMAT_AUTO the
 * format is told from the first non-blank byte as kp_decode does.
 *
 * Fields no decision reads are skipped without being built: members of an
 * object of a kind whose unknown fields are ignored (the core Kubernetes
 * kinds: Pod, Node, ...) that its schema does not have (managedFields,
 * status.images, containers' env and probes, ...), and everything but apiVersion,
 * kind, metadata.name and metadata.namespace of a kind the registry does
 * not know. They are still checked as JSON or YAML (a syntax error in one
 * is reported), and a repeated key is still seen. Karpenter's kinds and
 * registered provider kinds are read whole (strict decoding names every
 * unknown field), and so is every object in lenient mode. kp_decode does
 * the same.
 *
 * @param[out] out the result; NULL on failure
 * @param[in] read called until it reports the end or fails; never after
 *            this call returns
 * @param[in] ctx passed to @p read
 * @param[in] opts options, or NULL for KP_DECODE_OPTIONS_INIT;
 *            max_bytes bounds the bytes read (KP_ERANGE past it)
 * @param[out] err optional error detail
 * @return as kp_decode; KP_EIO or the status @p read returned when it failed
 * @since 0.1
 * Ownership: the caller owns *out.
 * Thread-safety: safe (as @p read is).
 */
int kp_decode_read(kp_decode_result **out, kp_read_fn read, void *ctx,
		   const kp_decode_options *opts, kp_error *err);

/**
 * @brief Decode a stream that holds exactly one object of @p kind (empty
 *        documents aside) and return it: kp_decode, the checks, and
 *        kp_decode_result_take in one call.
 * @param[out] out the object (a kp_nodepool * for KP_KIND_NODEPOOL, ...);
 *        NULL on failure
 * @param[in] kind the kp_kind wanted
 * @param[in] data the text (need not be NUL-terminated)
 * @param[in] len its length in bytes
 * @param[in] opts options, or NULL for KP_DECODE_OPTIONS_INIT
 * @param[out] err optional error detail
 * @return as kp_decode; KP_EINVAL also for an unknown @p kind, a stream of
 *         no or several objects ("expected one NodePool, found 2 objects"),
 *         or an object of another kind ("expected a NodePool, found v1 Pod
 *         default/web")
 * @since 0.1
 * Ownership: the caller owns *out (kp_object_free with @p kind, or the
 * kind's _free).
 * Thread-safety: safe.
 */
int kp_decode_one(void **out, uint32_t kind, const char *data, size_t len,
		  const kp_decode_options *opts, kp_error *err);

/**
 * @brief Release a result and every object still in it.
 * @param[in] result the result, or NULL (no-op)
 * @since 0.1
 * Thread-safety: needs exclusive access.
 */
void kp_decode_result_free(kp_decode_result *result);

/**
 * @brief Number of objects (modelled or not) in a result.
 * @param[in] result the result
 * @return the count; 0 if @p result is NULL
 * @since 0.1
 * Thread-safety: safe.
 */
size_t kp_decode_result_count(const kp_decode_result *result);

/**
 * @brief Object @p index of a result, in stream order.
 * @param[in] result the result
 * @param[in] index 0 .. kp_decode_result_count() - 1
 * @return the entry, borrowed from @p result; NULL when out of range
 * @since 0.1
 * Thread-safety: safe.
 */
const kp_decoded_object *kp_decode_result_at(const kp_decode_result *result, size_t index);

/**
 * @brief Move the decoded struct of entry @p index out of the result.
 *
 * The entry stays (with its kind and names) but its object becomes NULL.
 * @param[in,out] result the result
 * @param[in] index the entry
 * @param[out] out the struct (cast to the kind's type); NULL on failure
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL argument, index out of range),
 *         KP_ENOTFOUND (an unknown kind, or already taken)
 * @since 0.1
 * Ownership: the caller owns *out and releases it with kp_object_free (or
 * the kind's _free).
 * Thread-safety: needs exclusive access to @p result.
 */
int kp_decode_result_take(kp_decode_result *result, size_t index, void **out, kp_error *err);

/**
 * @brief Number of warnings (lenient mode: dropped fields).
 * @param[in] result the result
 * @return the count; 0 if @p result is NULL
 * @since 0.1
 * Thread-safety: safe.
 */
size_t kp_decode_result_warning_count(const kp_decode_result *result);

/**
 * @brief Warning @p index, e.g. `NodePool/default: unknown field
 *        "spec.template.spec.requirement"`.
 * @param[in] result the result
 * @param[in] index 0 .. kp_decode_result_warning_count() - 1
 * @return the text, borrowed from @p result; NULL when out of range
 * @since 0.1
 * Thread-safety: safe.
 */
const char *kp_decode_result_warning_at(const kp_decode_result *result, size_t index);

/** Flags of kp_encode. @since 0.1 */
enum kp_encode_flags {
	/** JSON: indent with two spaces, one member per line (YAML ignores it). */
	KP_ENCODE_PRETTY = 1u << 0
};

/**
 * @brief Encode one object as JSON or YAML.
 *
 * apiVersion is the object's, or kp_kind_api_version(kind) when NULL; kind
 * is written from @p kind. The YAML form is one document without "---" and
 * ends with a newline; the compact JSON form has no newline.
 *
 * @param[out] out the NUL-terminated text; NULL on failure
 * @param[out] out_len its length without the NUL (may be NULL)
 * @param[in] kind the object's kp_kind
 * @param[in] object the struct of @p kind (library- or caller-built)
 * @param[in] format KP_FORMAT_JSON or KP_FORMAT_YAML
 * @param[in] flags kp_encode_flags
 * @param[out] err optional error detail
 * @return KP_OK; KP_EINVAL (NULL argument, unknown kind or format, a value
 *         that cannot be written: NULL items with a non-zero count, a NULL
 *         string in a list, an effect or operator code out of range);
 *         KP_EVERSION (a struct_size this library cannot read); KP_ENOMEM
 * @since 0.1
 * Ownership: the caller owns *out and releases it with kp_encoded_free.
 * Thread-safety: safe.
 */
int kp_encode(char **out, size_t *out_len, uint32_t kind, const void *object, uint32_t format,
	      uint32_t flags, kp_error *err);

/**
 * @brief A Kubernetes object as a value, written from its struct exactly as
 *        kp_registry_encode encodes it, without an intermediate text.
 * @param[in,out] em the emitter
 * @param[in] registry the registry of @p kind, or NULL for the core kinds
 * @param[in] kind a kp_kind, or a kind of @p registry
 * @param[in] object the object (a kp_nodeclaim * for KP_KIND_NODECLAIM, ...)
 * @return KP_OK; KP_EINVAL (NULL object, unknown kind: nothing is
 *         written then); the error kp_encode gives an object it refuses
 *         (a NULL list item, an unknown code, ...: written from the struct
 *         as it is walked, the value is then cut short and the emitter
 *         fails with that error); the sticky error
 * @since 0.1
 */
int kp_encode_emit(kp_emitter *em, const struct kp_registry *registry, uint32_t kind,
		   const void *object);

/**
 * @brief Release text returned by kp_encode.
 * @param[in] text the text, or NULL (no-op)
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_encoded_free(char *text);

KP_END_DECLS

#endif /* KARPENTER_CODEC_H */
