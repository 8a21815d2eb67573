/*
 * libkarpenter: Kubernetes resource.Quantity.
 *
 * A quantity is a signed decimal number with a suffix format, exactly as
 * k8s.io/apimachinery/pkg/api/resource defines it: "100m", "1.5Gi", "1e3".
 * The value is mantissa * 10^exponent with a signed 128-bit mantissa, which
 * covers every value Kubernetes can serialise at nano precision (upstream's
 * arbitrary-precision fallback is only reached beyond that, and such inputs
 * are rejected here with KP_ERANGE rather than silently rounded).
 *
 * kp_quantity is a plain value type with a fixed layout: it is copied by
 * assignment, needs no freeing and may live in contiguous arrays. Its layout
 * never changes within a major version.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_QUANTITY_H
#define KARPENTER_QUANTITY_H

#include <karpenter/common.h>

KP_BEGIN_DECLS

/** Suffix formats, as apimachinery's resource.Format. */
enum kp_quantity_format {
	KP_QUANTITY_DECIMAL_SI = 0,       /**< "DecimalSI": m, k, M, G, T, P, E */
	KP_QUANTITY_BINARY_SI = 1,        /**< "BinarySI": Ki, Mi, Gi, Ti, Pi, Ei */
	KP_QUANTITY_DECIMAL_EXPONENT = 2  /**< "DecimalExponent": e3, E6 */
};

/** Buffer size that always holds a canonical quantity string and its NUL. */
#define KP_QUANTITY_STRING_MAX 64

/**
 * @brief A Kubernetes quantity: value = mantissa * 10^exponent.
 *
 * The mantissa is a two's-complement 128-bit integer split into a signed high
 * half and an unsigned low half. Use the functions below rather than reading
 * the members; a zeroed struct is the quantity "0" (DecimalSI).
 * @since 0.1
 */
typedef struct kp_quantity {
	uint64_t mantissa_lo; /**< low 64 bits of the mantissa */
	int64_t mantissa_hi;  /**< high 64 bits of the mantissa (sign) */
	int32_t exponent;     /**< power of ten */
	uint32_t format;      /**< a kp_quantity_format */
} kp_quantity;

/** Static initializer: the quantity zero in DecimalSI format. */
#define KP_QUANTITY_ZERO { 0, 0, 0, KP_QUANTITY_DECIMAL_SI }

/**
 * @brief Parse a quantity string ("250m", "1.5Gi", "1e3", "-1").
 *
 * Follows resource.ParseQuantity: optional sign, digits with an optional
 * fraction, then an optional suffix; precision finer than 1n rounds up (away
 * from zero) to 1n. The format is the suffix's.
 *
 * @param[out] out the parsed quantity; untouched on failure
 * @param[in] text NUL-terminated string
 * @param[out] err optional error detail (message quotes the input)
 * @return KP_OK, KP_EINVAL (NULL argument), KP_EPARSE (not a quantity),
 *         KP_ERANGE (does not fit the 128-bit mantissa)
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_quantity_parse(kp_quantity *out, const char *text, kp_error *err);

/**
 * @brief Canonical string of a quantity, as resource.Quantity.String().
 *
 * @param[in] q the quantity
 * @param[out] buf destination, at least KP_QUANTITY_STRING_MAX bytes for any
 *             quantity
 * @param[in] size size of @p buf
 * @return KP_OK, KP_EINVAL (NULL argument), KP_ERANGE (@p buf too small; it
 *         then holds "" if size > 0)
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_quantity_format(const kp_quantity *q, char *buf, size_t size);

/**
 * @brief Compare two quantities by value (formats are ignored).
 * @return -1, 0 or 1 as @p a is less than, equal to or greater than @p b.
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_quantity_cmp(const kp_quantity *a, const kp_quantity *b);

/**
 * @brief Sign of a quantity.
 * @return -1, 0 or 1.
 * @since 0.1
 */
int kp_quantity_sign(const kp_quantity *q);

/**
 * @brief acc += x, keeping acc's format (as Quantity.Add).
 * @return KP_OK, KP_EINVAL, KP_ERANGE (result does not fit; acc untouched)
 * @since 0.1
 */
int kp_quantity_add(kp_quantity *acc, const kp_quantity *x, kp_error *err);

/**
 * @brief acc -= x, keeping acc's format (as Quantity.Sub).
 * @return KP_OK, KP_EINVAL, KP_ERANGE (result does not fit; acc untouched)
 * @since 0.1
 */
int kp_quantity_sub(kp_quantity *acc, const kp_quantity *x, kp_error *err);

/**
 * @brief Negate in place (as Quantity.Neg).
 * @since 0.1
 */
void kp_quantity_neg(kp_quantity *q);

/**
 * @brief The value in thousandths, rounded up as Quantity.MilliValue().
 * @param[out] out the milli-value; untouched on failure
 * @return KP_OK, KP_EINVAL, KP_ERANGE (does not fit in int64)
 * @since 0.1
 */
int kp_quantity_milli_value(const kp_quantity *q, int64_t *out);

/**
 * @brief The value rounded up to an integer, as Quantity.Value().
 * @param[out] out the value; untouched on failure
 * @return KP_OK, KP_EINVAL, KP_ERANGE (does not fit in int64)
 * @since 0.1
 */
int kp_quantity_value(const kp_quantity *q, int64_t *out);

/**
 * @brief Build value * 10^exponent in the given format (resource.NewScaledQuantity
 *        with a format).
 * @param[out] out the quantity
 * @return KP_OK, KP_EINVAL (NULL out or unknown format)
 * @since 0.1
 */
int kp_quantity_from_scaled(kp_quantity *out, int64_t value, int32_t exponent, uint32_t format);

KP_END_DECLS

#endif /* KARPENTER_QUANTITY_H */
