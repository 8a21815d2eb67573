/*
 * libkarpenter: Go durations and Karpenter's NillableDuration.
 *
 * Durations in Karpenter's API (consolidateAfter, expireAfter,
 * terminationGracePeriod, budget durations) are Go time.Duration strings:
 * "720h", "1h30m", "1.5h", "300ms", "-1h", "0". This module parses them
 * exactly as Go's time.ParseDuration and prints them exactly as
 * Duration.String(). Values are int64 nanoseconds, as in Go, which covers
 * about +/-292 years; convert to milliseconds (the library's time unit) by
 * dividing by 1000000 where needed.
 *
 * NillableDuration (upstream pkg/apis/v1/duration.go) additionally accepts the
 * literal "Never", meaning "disabled" (a nil duration upstream). Here it is
 * reported through a separate int32_t flag, never through a sentinel value:
 * every int64 is a legal duration.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_DURATION_H
#define KARPENTER_DURATION_H

#include <karpenter/common.h>

KP_BEGIN_DECLS

/**
 * @brief Buffer size that holds any formatted duration and its NUL.
 *
 * The longest output is "-2562047h47m16.854775808s" (25 bytes).
 * @since 0.1
 */
#define KP_DURATION_STRING_MAX 32

/**
 * @brief The NillableDuration literal meaning "disabled".
 *
 * Matched exactly (case-sensitive), as upstream's UnmarshalJSON does.
 * @since 0.1
 */
#define KP_DURATION_NEVER "Never"

/**
 * @brief Parse a Go duration string, as time.ParseDuration.
 *
 * Grammar: an optional sign, then either "0" or one or more
 * `<number><unit>` terms, where a number is decimal digits with an optional
 * fraction (at least one digit in all: "5.", ".5" and "5.0" are valid) and a
 * unit is one of ns, us, µs (U+00B5), μs (U+03BC), ms, s, m, h. Terms add up:
 * "1h30m", "10.5s4m". Fractions are converted as Go does (through a double,
 * nanosecond accurate for fractions of hours; fraction digits beyond what
 * fits in 63 bits, about 19, are ignored). A syntax error is reported before
 * an overflow in the same term. The range is exactly int64 nanoseconds:
 * "-9223372036854775808ns" is accepted, "9223372036854775808ns" is not.
 * There is no "d" unit and no whitespace is allowed anywhere.
 *
 * @param[out] out_ns the duration in nanoseconds; untouched on failure
 * @param[in] text NUL-terminated UTF-8 string
 * @param[out] err optional error detail; the message quotes the input (non
 *             ASCII and control bytes as \\xNN, as Go) and says what is wrong,
 *             e.g. `invalid duration "1d": unknown unit "d" (valid units are
 *             ns, us, µs, ms, s, m, h)`
 * @return KP_OK, KP_EINVAL (NULL argument), KP_EPARSE (not a duration),
 *         KP_ERANGE (does not fit in int64 nanoseconds)
 * @since 0.1
 * Ownership: nothing is retained.
 * Thread-safety: safe.
 */
int kp_duration_parse_ns(int64_t *out_ns, const char *text, kp_error *err);

/**
 * @brief Format a duration as Go's Duration.String().
 *
 * Zero is "0s"; below one second the largest of ns, µs (U+00B5, two bytes)
 * and ms that keeps the integer part non-zero is used with a fraction
 * ("300ms", "1.5µs"); from one second up the form is [Nh][Nm]N[.fff]s with
 * hours and minutes present only when non-zero at that position ("720h0m0s",
 * "1h30m0s", "1m0.5s", "1.5s"). Trailing fraction zeros are dropped.
 *
 * @param[in] ns the duration in nanoseconds
 * @param[out] buf destination; KP_DURATION_STRING_MAX bytes always suffice
 * @param[in] size size of @p buf
 * @return KP_OK, KP_EINVAL (NULL @p buf), KP_ERANGE (@p buf too small; it then
 *         holds "" if size > 0)
 * @since 0.1
 * Ownership: @p buf is caller-owned.
 * Thread-safety: safe.
 */
int kp_duration_format_ns(int64_t ns, char *buf, size_t size);

/**
 * @brief Parse a NillableDuration: "Never" or a Go duration.
 *
 * As upstream's NillableDuration.UnmarshalJSON applied to the decoded JSON
 * string: exactly "Never" sets *out_never to 1 and *out_ns to 0; anything
 * else is parsed by kp_duration_parse_ns and sets *out_never to 0. (Decoding
 * the JSON string, including JSON null, is the caller's business.)
 *
 * @param[out] out_ns the duration in nanoseconds (0 for "Never"); untouched
 *             on failure
 * @param[out] out_never 1 for "Never", else 0; untouched on failure
 * @param[in] text NUL-terminated UTF-8 string
 * @param[out] err optional error detail, as kp_duration_parse_ns
 * @return KP_OK, KP_EINVAL (NULL argument), KP_EPARSE, KP_ERANGE
 * @since 0.1
 * Ownership: nothing is retained.
 * Thread-safety: safe.
 */
int kp_duration_parse_nillable_ns(int64_t *out_ns, int32_t *out_never, const char *text,
				  kp_error *err);

/**
 * @brief Format a NillableDuration as upstream's MarshalJSON (unquoted).
 *
 * "Never" when @p never is non-zero, else kp_duration_format_ns(@p ns).
 * Upstream re-emits the text a value was parsed from when it has one (its Raw
 * field, so "1h" stays "1h" instead of "1h0m0s"); callers that round-trip
 * documents should keep their original text and use this only for values
 * they computed.
 *
 * @param[in] ns the duration in nanoseconds (ignored when @p never is set)
 * @param[in] never non-zero for "Never"
 * @param[out] buf destination; KP_DURATION_STRING_MAX bytes always suffice
 * @param[in] size size of @p buf
 * @return KP_OK, KP_EINVAL (NULL @p buf), KP_ERANGE (@p buf too small; it then
 *         holds "" if size > 0)
 * @since 0.1
 * Ownership: @p buf is caller-owned.
 * Thread-safety: safe.
 */
int kp_duration_format_nillable_ns(int64_t ns, int32_t never, char *buf, size_t size);

KP_END_DECLS

#endif /* KARPENTER_DURATION_H */
