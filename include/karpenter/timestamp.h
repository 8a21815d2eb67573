/*
 * libkarpenter: metav1.Time, RFC 3339 timestamps as Unix milliseconds.
 *
 * The library has no clock: every decision takes a `now_ms`, and every time
 * in an object (creationTimestamp, deletionTimestamp, condition transition
 * times, status.lastPodEventTime) is decoded to Unix milliseconds. These
 * two functions convert between that representation and the RFC 3339 text
 * the API server writes, exactly as the decoder and encoder do, so that a
 * caller's clock and the manifests' times mean the same instants.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_TIMESTAMP_H
#define KARPENTER_TIMESTAMP_H

#include <stddef.h>
#include <stdint.h>

#include <karpenter/common.h>

KP_BEGIN_DECLS

/**
 * @brief Buffer size that holds any formatted timestamp and its NUL.
 *
 * The longest output is a year of ten characters with a sign
 * ("-292275055-05-16T16:47:04.192Z", 30 bytes); 40 leaves room.
 * @since 0.1
 */
#define KP_TIME_BUF_SIZE 40

/**
 * @brief Parse an RFC 3339 date-time ("2024-01-02T15:04:05Z",
 *        "2024-01-02T15:04:05.25+02:00") into Unix milliseconds.
 *
 * Fractions below a millisecond are truncated, as metav1.Time keeps
 * seconds and the library milliseconds.
 * @param[out] out_ms the instant in milliseconds since 1970-01-01T00:00:00Z
 * @param[in] text NUL-terminated text
 * @param[out] err optional error detail naming the text
 * @return KP_OK, KP_EPARSE (not an RFC 3339 date-time: *out_ms untouched),
 *         KP_EINVAL (NULL argument)
 * @since 0.1
 * Ownership: nothing is retained. Thread-safety: reentrant.
 */
int kp_time_parse_rfc3339(int64_t *out_ms, const char *text, kp_error *err);

/**
 * @brief Format Unix milliseconds as RFC 3339 in UTC, as the encoder writes
 *        metav1.Time: "2024-01-02T15:04:05Z", with ".5", ".25" or ".125"
 *        before the "Z" only when the milliseconds are not zero.
 * @param[in] ms the instant
 * @param[out] buf receives the text and its NUL
 * @param[in] size bytes at @p buf (KP_TIME_BUF_SIZE always suffices)
 * @return KP_OK, KP_ERANGE (@p buf too small; it is left untouched),
 *         KP_EINVAL (NULL @p buf or size 0)
 * @since 0.1
 * Ownership: nothing is retained. Thread-safety: reentrant.
 */
int kp_time_format_rfc3339(int64_t ms, char *buf, size_t size);

KP_END_DECLS

#endif
