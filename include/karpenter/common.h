/*
 * libkarpenter: common definitions shared by every module.
 *
 * Status codes, the caller-owned error record, and the two process-wide hooks
 * (allocator and log handler), which are the library's only global state.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_COMMON_H
#define KARPENTER_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#define KP_BEGIN_DECLS extern "C" {
#define KP_END_DECLS }
#else
#define KP_BEGIN_DECLS
#define KP_END_DECLS
#endif

#if defined(__GNUC__) || defined(__clang__)
#define KP_DEPRECATED(msg) __attribute__((deprecated(msg)))
#else
#define KP_DEPRECATED(msg)
#endif

KP_BEGIN_DECLS

/**
 * @brief Status codes returned by every fallible call.
 *
 * KP_OK is zero; failures are negative. Values are never renumbered and
 * retired values stay reserved. The "expected outcome" codes mirror the typed
 * errors of Karpenter's cloud-provider contract.
 */
enum kp_status {
	KP_OK = 0,
	KP_EINVAL = -1,        /**< invalid argument or input */
	KP_ENOMEM = -2,        /**< allocation failed */
	KP_ENOTSUP = -3,       /**< not implemented by this object or provider */
	KP_EVERSION = -4,      /**< struct_size/ABI version mismatch */
	KP_ENOTFOUND = -5,     /**< object not found (NodeClaimNotFound) */
	KP_EINSUFFICIENT = -6, /**< insufficient capacity */
	KP_ENOTREADY = -7,     /**< node class not ready */
	KP_ERANGE = -8,        /**< value out of the representable range */
	KP_EPARSE = -9,        /**< malformed text (quantity, selector, ...) */
	KP_EINCOMPATIBLE = -10, /**< inputs are valid but cannot be combined */
	KP_ECREATE = -11,      /**< a provider failed to launch an instance (CreateError) */
	KP_EIO = -12           /**< an input could not be read (kp_decode_read's reader) */
};

/** Size of kp_error::message, including the terminating NUL. */
#define KP_ERROR_MESSAGE_MAX 512
/** Size of kp_error::field, including the terminating NUL. */
#define KP_ERROR_FIELD_MAX 128
/** Size of kp_error::provider_code, including the terminating NUL. */
#define KP_ERROR_PROVIDER_CODE_MAX 64

/**
 * @brief Detail about a failure, owned by the caller.
 *
 * Pass a pointer as the last argument of any fallible call, or NULL if the
 * detail is not wanted. On failure the library fills every member; on success
 * it leaves the record untouched. Strings are always NUL-terminated and
 * truncated (never overflowed) when too long.
 *
 * @since 0.1
 * Ownership: caller-owned storage; the library keeps no pointer to it.
 * Thread-safety: use one record per thread.
 */
typedef struct kp_error {
	int32_t code;                                 /**< a kp_status value */
	uint32_t reserved;                            /**< zero */
	char field[KP_ERROR_FIELD_MAX];               /**< field path, e.g. "spec.requirements[0].operator", or "" */
	char message[KP_ERROR_MESSAGE_MAX];           /**< human-readable message */
	char provider_code[KP_ERROR_PROVIDER_CODE_MAX]; /**< provider error code (e.g. AWS), or "" */
} kp_error;

/** Static initializer for kp_error. */
#define KP_ERROR_INIT { 0, 0, "", "", "" }

/**
 * @brief Static text for a status code.
 * @param[in] status a kp_status value (any int is accepted)
 * @return a static NUL-terminated string, never NULL.
 * @since 0.1
 * Thread-safety: safe.
 */
const char *kp_strerror(int status);

/**
 * @brief Allocator hooks.
 *
 * Every allocation the library makes goes through these three functions.
 * realloc_fn(ctx, NULL, n) must behave as malloc_fn; free_fn(ctx, NULL) must
 * be a no-op.
 *
 * @since 0.1
 */
typedef struct kp_allocator {
	uint32_t struct_size;                                   /**< sizeof(kp_allocator) */
	uint32_t reserved;                                      /**< zero */
	void *ctx;                                              /**< passed to each hook */
	void *(*malloc_fn)(void *ctx, size_t size);             /**< allocate */
	void *(*realloc_fn)(void *ctx, void *ptr, size_t size); /**< resize */
	void (*free_fn)(void *ctx, void *ptr);                  /**< release */
} kp_allocator;

/** Static initializer for kp_allocator (hooks must still be set). */
#define KP_ALLOCATOR_INIT { sizeof(kp_allocator), 0, NULL, NULL, NULL, NULL }

/**
 * @brief Install the allocator used by every later call.
 *
 * Call once, before any other kp_ call; the struct is copied. Passing NULL
 * restores libc malloc/realloc/free.
 *
 * @param[in] allocator hooks, or NULL for the default
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (missing hook), KP_EVERSION (bad struct_size)
 * @since 0.1
 * Thread-safety: not safe; call before other threads use the library.
 */
int kp_set_allocator(const kp_allocator *allocator, kp_error *err);

/**
 * @brief Allocate through the installed allocator (kp_set_allocator), as
 *        the core does: for provider libraries, which see only the public
 *        API. A size of 0 allocates 1 byte.
 * @return the block, or NULL when out of memory
 * @since 0.1
 * Ownership: release with kp_free. Thread-safety: as the hook.
 */
void *kp_malloc(size_t size);

/**
 * @brief kp_malloc of @p n zeroed elements of @p size bytes.
 * @return the block, or NULL when out of memory or when n * size overflows
 * @since 0.1
 */
void *kp_calloc(size_t n, size_t size);

/**
 * @brief Resize a block from kp_malloc, kp_calloc or kp_realloc.
 * @return the block, or NULL (the old block is then unchanged)
 * @since 0.1
 */
void *kp_realloc(void *ptr, size_t size);

/**
 * @brief Release a block from kp_malloc, kp_calloc or kp_realloc (NULL-safe).
 * @since 0.1
 */
void kp_free(void *ptr);

/**
 * @brief Fill an error the way the core does (for provider libraries): the
 *        code, the field path and the message, each cut to its member's
 *        size; provider_code is cleared.
 * @param[out] err the error, or NULL (nothing is written)
 * @param[in] code a kp_status
 * @param[in] field the field path, or NULL for none
 * @param[in] message the message, or NULL for none
 * @return @p code, so that a caller can `return kp_error_set(...)`
 * @since 0.1
 * Thread-safety: safe (writes only @p err).
 */
int kp_error_set(kp_error *err, int code, const char *field, const char *message);

/** Log levels passed to the log handler. */
enum kp_log_level {
	KP_LOG_ERROR = 0,
	KP_LOG_WARN = 1,
	KP_LOG_INFO = 2,
	KP_LOG_DEBUG = 3
};

/**
 * @brief Receives one pre-formatted log message.
 * @param ctx the pointer given to kp_set_log_handler
 * @param level a kp_log_level
 * @param component module name, e.g. "scheduling"
 * @param message the message, NUL-terminated, without trailing newline
 */
typedef void (*kp_log_fn)(void *ctx, int level, const char *component, const char *message);

/**
 * @brief Install a log handler; the default is silence.
 *
 * Messages above @p max_level are not formatted at all.
 *
 * @param[in] max_level the most verbose kp_log_level delivered
 * @param[in] fn handler, or NULL to silence the library
 * @param[in] ctx passed to @p fn
 * @since 0.1
 * Thread-safety: not safe; call before other threads use the library.
 */
void kp_set_log_handler(int max_level, kp_log_fn fn, void *ctx);

/**
 * Feature gates, as upstream names them in --feature-gates: one set of bits
 * for every decision's options (kp_disruption_options::feature_gates,
 * kp_lifecycle_options::feature_gates). A gate a decision does not use is
 * ignored. Off unless set, as upstream's defaults for these two. Values are
 * never renumbered.
 * @since 0.1
 */
enum kp_feature_gate {
	KP_FEATURE_GATE_NODE_REPAIR = 1u << 0,                /**< "NodeRepair" */
	KP_FEATURE_GATE_SPOT_TO_SPOT_CONSOLIDATION = 1u << 1  /**< "SpotToSpotConsolidation" */
};

/** Every kp_feature_gate bit. @since 0.1 */
#define KP_FEATURE_GATES_ALL \
	((uint32_t)(KP_FEATURE_GATE_NODE_REPAIR | KP_FEATURE_GATE_SPOT_TO_SPOT_CONSOLIDATION))

/**
 * @brief Upstream's name of one gate ("NodeRepair", "SpotToSpotConsolidation").
 * @param[in] gate one kp_feature_gate bit
 * @return static text; "Unknown" for anything else
 * @since 0.1
 * Thread-safety: safe.
 */
const char *kp_feature_gate_name(uint32_t gate);

/** Input and output formats. @since 0.1 */
enum kp_format {
	KP_FORMAT_AUTO = 0, /**< decode: JSON if the first non-blank byte is '{', else YAML */
	KP_FORMAT_JSON = 1, /**< JSON */
	KP_FORMAT_YAML = 2  /**< YAML */
};

KP_END_DECLS

#endif /* KARPENTER_COMMON_H */
