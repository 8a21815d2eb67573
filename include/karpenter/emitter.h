/*
 * libkarpenter: writing JSON and YAML documents as a stream.
 *
 * A kp_emitter writes one document through a caller's write callback as
 * the caller walks its data: begin and end an object or an array, a key,
 * a scalar, or a whole Kubernetes object straight from its struct
 * (kp_encode_emit, codec.h). Nothing but a 64 KiB buffer and the stack of open
 * containers is held, so a result of any size is written in constant
 * memory. kubectl-karpenter writes every document it prints with it, and
 * kp_encode's JSON goes through it too: one set of text rules.
 *
 * The text rules, for every format:
 *  - JSON is written as kubectl writes it: members in the order given,
 *    KP_EMITTER_INDENT_KUBECTL (4 spaces, ": "), 2 spaces, or compact; a
 *    document ends with a newline when indented. Strings are escaped as
 *    Go's encoding/json escapes them without its HTML escaping (", \,
 *    \n \r \t \b \f, other C0 controls as \u00XX, U+2028 and U+2029), and
 *    a byte that is not valid UTF-8 is written as \ufffd.
 *  - YAML is block YAML ("- " under the key, empty containers as {} and
 *    []): a string is plain when every YAML 1.1 and 1.2 reader reads it
 *    back as the same string, else double-quoted with the JSON escapes and
 *    DEL, the C1 controls, U+FEFF, U+FFFE and U+FFFF escaped; a key longer
 *    than a simple key may be is written as an explicit key ("? ").
 *  - Numbers: kp_emitter_int writes every int64_t as it is; kp_emitter_number
 *    writes the shortest text that reads back as the same double (YAML
 *    floats always with a '.').
 * Every document the emitter writes reads back, with the library's decoder
 * and with other JSON and YAML readers, to what was written.
 *
 * Errors are sticky: the first one (a call out of order, a number that is
 * not finite, out of memory, the callback refusing) stops all output, every
 * later call returns it, and kp_emitter_close reports it.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_EMITTER_H
#define KARPENTER_EMITTER_H

#include <stddef.h>
#include <stdint.h>

#include <karpenter/common.h>

KP_BEGIN_DECLS

struct kp_registry;

/**
 * @brief Where an emitter's bytes go: write @p len bytes of @p data.
 * @return 0 when written; anything else stops the emitter (KP_EIO).
 * @since 0.1
 */
typedef int (*kp_write_fn)(void *ctx, const char *data, size_t len);

/** JSON indentation of kp_emitter_options. @since 0.1 */
enum kp_emitter_indent {
	KP_EMITTER_INDENT_KUBECTL = 0, /**< 4 spaces and ": ", as kubectl -o json */
	KP_EMITTER_INDENT_COMPACT = 1, /**< no whitespace at all, no final newline */
	KP_EMITTER_INDENT_2 = 2        /**< 2 spaces and ": " */
};

/**
 * @brief Options of kp_emitter_new. Caller-filled, size-tagged.
 * @since 0.1
 */
typedef struct kp_emitter_options {
	uint32_t struct_size; /**< sizeof(kp_emitter_options) */
	uint32_t format;      /**< KP_FORMAT_JSON (default when 0) or KP_FORMAT_YAML */
	uint32_t indent;      /**< JSON: a kp_emitter_indent */
	uint32_t reserved;    /**< zero */
} kp_emitter_options;

/** Static initializer for kp_emitter_options. @since 0.1 */
#define KP_EMITTER_OPTIONS_INIT { sizeof(kp_emitter_options), 0, 0, 0 }

/**
 * @brief Initialize @p opts as KP_EMITTER_OPTIONS_INIT does (for FFI).
 * @since 0.1
 */
void kp_emitter_options_init(kp_emitter_options *opts);

/** @brief A streaming writer of one document. @since 0.1 */
typedef struct kp_emitter kp_emitter;

/**
 * @brief A new emitter of one document.
 * @param[out] out the emitter; NULL on failure
 * @param[in] opts options, or NULL for KP_EMITTER_OPTIONS_INIT
 * @param[in] write the callback (required)
 * @param[in] ctx passed to @p write
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL out or write, an unknown format or
 *         indent, reserved fields), KP_EVERSION, KP_ENOMEM
 * @since 0.1
 * Ownership: the caller owns *out and ends it with kp_emitter_close.
 * Thread-safety: one emitter, one thread at a time.
 */
int kp_emitter_new(kp_emitter **out, const kp_emitter_options *opts, kp_write_fn write,
		   void *ctx, kp_error *err);

/** @brief Open an object (a value). @return KP_OK or the sticky error. @since 0.1 */
int kp_emitter_begin_object(kp_emitter *em);
/** @brief Close the innermost object. @since 0.1 */
int kp_emitter_end_object(kp_emitter *em);
/** @brief Open an array (a value). @since 0.1 */
int kp_emitter_begin_array(kp_emitter *em);
/** @brief Close the innermost array. @since 0.1 */
int kp_emitter_end_array(kp_emitter *em);
/** @brief The next member's key, in an object (NUL-terminated UTF-8). @since 0.1 */
int kp_emitter_key(kp_emitter *em, const char *key);
/** @brief A string value; NULL writes null. @since 0.1 */
int kp_emitter_string(kp_emitter *em, const char *s);
/** @brief A string value of @p len bytes (it may hold NUL, written
 *         escaped). @since 0.1 */
int kp_emitter_string_n(kp_emitter *em, const char *s, size_t len);
/** @brief A number; NaN and infinities set KP_EINVAL. @since 0.1 */
int kp_emitter_number(kp_emitter *em, double d);
/** @brief An integer, written exactly. @since 0.1 */
int kp_emitter_int(kp_emitter *em, int64_t v);
/** @brief true or false. @since 0.1 */
int kp_emitter_bool(kp_emitter *em, int b);
/** @brief null. @since 0.1 */
int kp_emitter_null(kp_emitter *em);

/**
 * @brief A JSON value given as text, read as kp_decode reads JSON (a lone
 *        surrogate escape is U+FFFD, NUL is refused) and written as if each
 *        of its members had been written by the calls above: strings in
 *        the emitter's format, numbers as written (in YAML a number with a
 *        fraction or an exponent in YAML 1.1's float form, 1e2 as 1.0e+2).
 * @return KP_OK, or KP_EPARSE for text that is not one JSON value (the
 *         emitter is then failed; what came before the fault may have been
 *         written)
 * @since 0.1
 */
int kp_emitter_json(kp_emitter *em, const char *text, size_t len);

/**
 * @brief The first error so far (KP_OK when none), without ending.
 * @since 0.1
 */
int kp_emitter_status(const kp_emitter *em);

/**
 * @brief End the document (it must be complete: one value, every
 *        container closed), hand the rest of the buffer to the callback and
 *        free the emitter (NULL: KP_EINVAL).
 * @param[in] em the emitter (freed)
 * @param[out] err optional error detail: which error stopped it
 * @return KP_OK, or the first error: KP_EINVAL (calls out of order, an
 *         unfinished document, a number that is not finite), KP_EPARSE
 *         (kp_emitter_json), KP_ENOMEM, KP_EIO (the callback refused)
 * @since 0.1
 */
int kp_emitter_close(kp_emitter *em, kp_error *err);

KP_END_DECLS

#endif /* KARPENTER_EMITTER_H */
