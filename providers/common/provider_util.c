/*
 * Helpers every provider library needs (provider_util.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider_util.h"

int kp_prov__error(kp_error *err, int code, const char *field, const char *fmt, ...)
{
	if (!err)
		return code;
	char message[sizeof(err->message)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	return kp_error_set(err, code, field, message);
}

char *kp_prov__strdup(const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	char *p = malloc(n);
	if (p)
		memcpy(p, s, n);
	return p;
}

void kp_prov__instance_dispose(kp_instance *view)
{
	kp_labels_dispose(&view->labels);
	kp_labels_dispose(&view->annotations);
	kp_resources_dispose(&view->capacity);
	kp_resources_dispose(&view->allocatable);
}
