/*
 * The log hook (kp_set_log_handler). The default is silence: library code
 * never writes to stdout or stderr by itself.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <stdio.h>

#include "kp_internal.h"

static kp_log_fn log_fn;
static void *log_ctx;
static int log_max = KP_LOG_ERROR;

KP_EXPORT void kp_set_log_handler(int max_level, kp_log_fn fn, void *ctx)
{
	log_fn = fn;
	log_ctx = ctx;
	log_max = max_level;
}

void kp__log(int level, const char *component, const char *fmt, ...)
{
	if (!log_fn || level > log_max)
		return;
	/* Messages may quote input of any length: formatted into an allocation
	 * of their size; only if that fails, cut to the fixed buffer. */
	char fixed[1024];
	va_list ap, aq;
	va_start(ap, fmt);
	va_copy(aq, ap);
	int n = vsnprintf(fixed, sizeof(fixed), fmt, ap);
	va_end(ap);
	char *msg = n >= 0 && (size_t)n >= sizeof(fixed) ? kp__malloc((size_t)n + 1) : NULL;
	if (msg)
		vsnprintf(msg, (size_t)n + 1, fmt, aq);
	va_end(aq);
	log_fn(log_ctx, level, component, msg ? msg : fixed);
	kp__free(msg);
}
