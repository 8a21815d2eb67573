/*
 * Helpers every provider library needs, written once and compiled into
 * each (hidden: no provider exports them, and the core's ABI has no
 * varargs, STYLE.md rule 19). Only the core's public API is used.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_PROVIDER_UTIL_H
#define KP_PROVIDER_UTIL_H

#include <karpenter/karpenter.h>

#if defined(__GNUC__)
#define KP_PROV_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define KP_PROV_PRINTF(f, a)
#endif

/* Format the message, then fill err as the core does (kp_error_set); a
 * message longer than kp_error's is cut, as every message is. Returns
 * code. */
int kp_prov__error(kp_error *err, int code, const char *field, const char *fmt, ...)
	KP_PROV_PRINTF(4, 5);
/* A malloc'd copy (free()); NULL stays NULL. */
char *kp_prov__strdup(const char *s);
/* Release what a provider filled into a kp_instance it owns (labels,
 * annotations, capacity, allocatable); the struct itself is the caller's. */
void kp_prov__instance_dispose(kp_instance *view);

#endif
