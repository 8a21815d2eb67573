/*
 * libkarpenter: the one reader of caller-filled size-tagged structs
 * (sized.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdint.h>
#include <string.h>

#include "common/sized.h"

int kp__read_sized(void *dst, size_t our_size, const void *src, size_t first_size,
		   const char *type_name, kp_error *err)
{
	int rc = kp__check_struct_size(src, first_size, our_size, type_name, err);
	if (rc)
		return rc;
	uint32_t size;
	memcpy(&size, src, sizeof(size));
	memset(dst, 0, our_size);
	memcpy(dst, src, size < our_size ? size : our_size);
	/* The copy is of our size: it may be handed on as such. */
	size = (uint32_t)our_size;
	memcpy(dst, &size, sizeof(size));
	return KP_OK;
}
