/*
 * libkarpenter private: metav1.Time parsing for the decoder (no kp_error:
 * the decoder words its own message with the field path).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_TIMESTAMP_PRIVATE_H
#define KP_TIMESTAMP_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

/* RFC 3339 -> Unix ms: KP_OK or KP_EPARSE. */
int kp__time_parse_rfc3339(const char *s, int64_t *out_ms);
/* Unix ms -> RFC 3339 in UTC ("Z"), milliseconds only when non-zero and
 * without trailing zeros, as Go's time.RFC3339Nano prints them. */
void kp__time_format_rfc3339(int64_t ms, char *buf, size_t size);

/* Days since 1970-01-01 of a proleptic Gregorian date and back (Howard
 * Hinnant's algorithms); shared with the cron module. */
int64_t kp__days_from_civil(int64_t y, unsigned m, unsigned d);
void kp__civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d);

#endif
