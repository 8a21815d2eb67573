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
 * never changes within a major version. No function of this module
 * allocates.
 *
 * Where upstream's results depend on its internal representation (int64 or
 * inf.Dec) or on a cached copy of the parsed text, this module follows the
 * documented rule instead; each function says where that differs.
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
 * Longest text kp_quantity_parse accepts, in bytes without the NUL. Real
 * quantities are far shorter; the bound keeps parsing work small on hostile
 * input.
 */
#define KP_QUANTITY_TEXT_MAX 256

/**
 * @brief A Kubernetes quantity: value = mantissa * 10^exponent.
 *
 * The mantissa is a two's-complement 128-bit integer split into a signed high
 * half and an unsigned low half. Use the functions below rather than reading
 * the members; a zeroed struct is the quantity "0" (DecimalSI). The library
 * never produces a mantissa of -2^127, so negation cannot overflow.
 * Equal values may have different mantissa/exponent pairs ("1" and "1000m");
 * compare with kp_quantity_cmp, never with memcmp.
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
 * fraction ("1.", ".5"), then an optional suffix; no surrounding whitespace.
 * Precision finer than 1n rounds up (away from zero) to 1n. The format is
 * the suffix's, except that a BinarySI value strictly between -1 and 1 becomes
 * DecimalSI. A BinarySI value beyond 2^63-1 in magnitude is capped there, as
 * upstream does.
 *
 * Differences from upstream, both for inputs upstream mishandles: an
 * exponent suffix outside the int32 range ("1e4294967296") is KP_ERANGE where
 * upstream silently wraps it, and text longer than KP_QUANTITY_TEXT_MAX is
 * KP_EPARSE.
 *
 * @param[out] out the parsed quantity; untouched on failure
 * @param[in] text NUL-terminated string
 * @param[out] err optional error detail (message quotes the input and gives
 *             upstream's reason, e.g. "quantities must match the regular
 *             expression ...", "unable to parse quantity's suffix")
 * @return KP_OK, KP_EINVAL (NULL argument), KP_EPARSE (not a quantity),
 *         KP_ERANGE (does not fit the 128-bit mantissa or int32 exponent)
 * @since 0.1
 * Ownership: nothing is retained.
 * Thread-safety: safe.
 */
int kp_quantity_parse(kp_quantity *out, const char *text, kp_error *err);

/**
 * @brief Canonical string of a quantity, as resource.Quantity.String().
 *
 * The number has no fraction and the largest suffix of the quantity's format
 * that keeps the value exact ("1.5" is "1500m", "1.5Gi" is "1536Mi"). A
 * BinarySI value strictly between -1024 and 1024, or that is not an integer,
 * is written as DecimalSI; an unknown format is written as DecimalExponent.
 *
 * Upstream's String() returns the parsed text verbatim when the parser found
 * it already canonical-looking ("100.035k", "1.G", "1E6"); a plain value
 * type cannot keep that text, so this function
 * always computes the canonical form ("100035", "1G", "1e6"), which is what
 * upstream prints for the same value once it has been computed rather than
 * parsed. Where upstream has no suffix for the canonical exponent (DecimalSI
 * beyond 10^18 or below 10^-9, BinarySI beyond 2^60) it drops the suffix and
 * so prints a wrong value; this function writes the exact value with the
 * next format that can express it (DecimalSI, then DecimalExponent; BinarySI
 * multiples of 2^70 and beyond as a multiple of "Ei").
 *
 * @param[in] q the quantity
 * @param[out] buf destination, at least KP_QUANTITY_STRING_MAX bytes for any
 *             quantity
 * @param[in] size size of @p buf
 * @return KP_OK, KP_EINVAL (NULL argument), KP_ERANGE (@p buf too small; it
 *         then holds "" if size > 0)
 * @since 0.1
 * Ownership: writes into the caller's buffer only.
 * Thread-safety: safe.
 */
int kp_quantity_format(const kp_quantity *q, char *buf, size_t size);

/**
 * @brief Compare two quantities by value (formats are ignored).
 *
 * Exact for every pair of quantities. Two quantities with the same exponent
 * (the common case: "100m" against "250m", "2Gi" against "512Mi") cost two
 * integer comparisons.
 * @param[in] a first quantity; NULL counts as zero
 * @param[in] b second quantity; NULL counts as zero
 * @return -1, 0 or 1 as @p a is less than, equal to or greater than @p b.
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_quantity_cmp(const kp_quantity *a, const kp_quantity *b);

/**
 * @brief Sign of a quantity.
 * @param[in] q the quantity; NULL counts as zero
 * @return -1, 0 or 1.
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_quantity_sign(const kp_quantity *q);

/**
 * @brief acc += x, keeping acc's format (as Quantity.Add).
 *
 * When @p acc is zero it takes @p x's format (and value), as upstream does.
 * The sum is exact.
 * @param[in,out] acc the accumulator
 * @param[in] x the addend
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL argument), KP_ERANGE (result does not fit;
 *         acc untouched)
 * @since 0.1
 * Thread-safety: safe (on distinct accumulators).
 */
int kp_quantity_add(kp_quantity *acc, const kp_quantity *x, kp_error *err);

/**
 * @brief acc -= x, keeping acc's format (as Quantity.Sub).
 *
 * When @p acc is zero it takes @p x's format, as upstream does.
 * @param[in,out] acc the accumulator
 * @param[in] x the subtrahend
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL argument), KP_ERANGE (result does not fit;
 *         acc untouched)
 * @since 0.1
 * Thread-safety: safe (on distinct accumulators).
 */
int kp_quantity_sub(kp_quantity *acc, const kp_quantity *x, kp_error *err);

/**
 * @brief Negate in place, keeping the format (as Quantity.Neg).
 * @param[in,out] q the quantity; NULL is a no-op
 * @since 0.1
 * Thread-safety: safe (on distinct quantities).
 */
void kp_quantity_neg(kp_quantity *q);

/**
 * @brief The value in thousandths, rounded up as Quantity.MilliValue().
 *
 * Same as kp_quantity_scaled_value(q, -3, out).
 * @param[in] q the quantity
 * @param[out] out the milli-value; untouched on failure
 * @return KP_OK, KP_EINVAL, KP_ERANGE (does not fit in int64)
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_quantity_milli_value(const kp_quantity *q, int64_t *out);

/**
 * @brief The value rounded up to an integer, as Quantity.Value().
 *
 * Same as kp_quantity_scaled_value(q, 0, out).
 * @param[in] q the quantity
 * @param[out] out the value; untouched on failure
 * @return KP_OK, KP_EINVAL, KP_ERANGE (does not fit in int64)
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_quantity_value(const kp_quantity *q, int64_t *out);

/**
 * @brief The value in units of 10^scale, as Quantity.ScaledValue(scale).
 *
 * An inexact result is rounded away from zero ("1.2" gives 2, "-1.2" gives
 * -2), the documented rule of Value() and what upstream returns for every
 * quantity it holds as int64. For negative inexact quantities that upstream
 * holds as inf.Dec (parsed with more than 18 digits, finer than 1n, or as a
 * BinarySI fraction such as "-0.05Gi") upstream instead truncates and adds
 * one, or wraps silently when the result overflows; this function does not
 * reproduce that.
 * @param[in] q the quantity
 * @param[in] scale power of ten of the unit (-9 nano, -3 milli, 0, 3 kilo)
 * @param[out] out the value; untouched on failure
 * @return KP_OK, KP_EINVAL (NULL argument), KP_ERANGE (does not fit in
 *         int64, where upstream silently overflows)
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_quantity_scaled_value(const kp_quantity *q, int32_t scale, int64_t *out);

/**
 * @brief The value as a double, as Quantity.AsApproximateFloat64().
 *
 * Computes double(mantissa) * 10^exponent with Go's math.Pow10 tables, so a
 * quantity parsed from the same text (or built with the same mantissa and
 * exponent) gives the same double, bit for bit, as upstream; the result may
 * be one or two ulps from the nearest double. Overflow gives +/-infinity.
 * @param[in] q the quantity; NULL counts as zero
 * @return the value.
 * @since 0.1
 * Thread-safety: safe.
 */
double kp_quantity_as_float64(const kp_quantity *q);

/**
 * @brief Build value * 10^exponent in the given format (resource.NewScaledQuantity
 *        with a format; NewQuantity is exponent 0, NewMilliQuantity -3).
 * @param[out] out the quantity
 * @param[in] value the mantissa
 * @param[in] exponent power of ten
 * @param[in] format a kp_quantity_format
 * @return KP_OK, KP_EINVAL (NULL out or unknown format)
 * @since 0.1
 * Thread-safety: safe.
 */
int kp_quantity_from_scaled(kp_quantity *out, int64_t value, int32_t exponent, uint32_t format);

KP_END_DECLS

#endif /* KARPENTER_QUANTITY_H */
