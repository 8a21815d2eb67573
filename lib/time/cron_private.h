/*
 * White-box hooks of lib/time/cron.c for tests/time/test_cron.c. Not exported.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_CRON_PRIVATE_H
#define KP_CRON_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include <karpenter/cron.h>

/*
 * robfig's getField with arbitrary bounds (max <= 62) and names 0 (none),
 * 1 (months) or 2 (days of week). On failure writes the reason to why.
 */
int kp__cron_field_bits(uint64_t *out, const char *text, unsigned min, unsigned max, int names,
			char *why, size_t why_size);

/* A schedule's bit sets (second .. day-of-week) and the @every interval.
 * Returns 0 for a calendar schedule, 1 for @every. */
int kp__cron_bits(kp_cron *cron, uint64_t bits[6], int64_t *every_s);

#endif
