/*
 * Status strings and the caller-owned kp_error record.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kp_internal.h"

KP_EXPORT const char *kp_strerror(int status)
{
	switch (status) {
	case KP_OK: return "success";
	case KP_EINVAL: return "invalid argument";
	case KP_ENOMEM: return "out of memory";
	case KP_ENOTSUP: return "not supported";
	case KP_EVERSION: return "version mismatch";
	case KP_ENOTFOUND: return "not found";
	case KP_EINSUFFICIENT: return "insufficient capacity";
	case KP_ENOTREADY: return "node class not ready";
	case KP_ERANGE: return "value out of range";
	case KP_EPARSE: return "malformed input";
	case KP_EINCOMPATIBLE: return "incompatible";
	case KP_ECREATE: return "launch failed";
	case KP_EIO: return "input could not be read";
	default: return "unknown status";
	}
}

static void copy_trunc(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);
	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

int kp__error(kp_error *err, int code, const char *field, const char *fmt, ...)
{
	if (!err)
		return code;
	err->code = code;
	err->reserved = 0;
	copy_trunc(err->field, sizeof(err->field), field ? field : "");
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	err->provider_code[0] = '\0';
	return code;
}

void kp__error_prefix(kp_error *err, const char *prefix)
{
	if (!err || !prefix || !*prefix)
		return;
	/* Result: prefix, a '.' unless the old path is empty or an index, old path. */
	size_t cap = sizeof(err->field) - 1;
	size_t plen = strlen(prefix), flen = strlen(err->field);
	size_t sep = (flen && err->field[0] != '[') ? 1 : 0;
	if (plen > cap)
		plen = cap;
	size_t room = cap - plen;
	if (sep > room)
		sep = 0;
	room -= sep;
	if (flen > room)
		flen = room; /* keep the leftmost, most specific-to-root part */
	memmove(err->field + plen + sep, err->field, flen);
	memcpy(err->field, prefix, plen);
	if (sep)
		err->field[plen] = '.';
	err->field[plen + sep + flen] = '\0';
}

int kp__check_struct_size(const void *s, size_t min_size, size_t our_size,
			  const char *type_name, kp_error *err)
{
	if (!s)
		return kp__error(err, KP_EINVAL, NULL, "%s is NULL", type_name);
	uint32_t size;
	memcpy(&size, s, sizeof(size));
	if (size < min_size)
		return kp__error(err, KP_EVERSION, "struct_size",
				 "%s.struct_size is %u, smaller than any published size (%zu)",
				 type_name, (unsigned)size, min_size);
	if (size > our_size) {
		const unsigned char *tail = (const unsigned char *)s + our_size;
		for (size_t i = 0; i < size - our_size; i++)
			if (tail[i])
				return kp__error(err, KP_EVERSION, "struct_size",
						 "%s has fields this library version (%zu bytes) does not know",
						 type_name, our_size);
	}
	return KP_OK;
}

/* Copy src into dst[size] whole or cut, always NUL-terminated. */
static void set_text(char *dst, size_t size, const char *src)
{
	size_t n = src ? strlen(src) : 0;
	if (n >= size)
		n = size - 1;
	if (n)
		memcpy(dst, src, n);
	dst[n] = '\0';
}

KP_EXPORT int kp_error_set(kp_error *err, int code, const char *field, const char *message)
{
	if (!err)
		return code;
	err->code = code;
	err->reserved = 0;
	set_text(err->field, sizeof(err->field), field);
	set_text(err->message, sizeof(err->message), message);
	err->provider_code[0] = '\0';
	return code;
}

KP_EXPORT const char *kp_feature_gate_name(uint32_t gate)
{
	switch (gate) {
	case KP_FEATURE_GATE_NODE_REPAIR: return "NodeRepair";
	case KP_FEATURE_GATE_SPOT_TO_SPOT_CONSOLIDATION: return "SpotToSpotConsolidation";
	default: return "Unknown";
	}
}
