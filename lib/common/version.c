/*
 * Version of the loaded library (may be newer than the caller's headers).
 * SPDX-License-Identifier: Apache-2.0
 */
#include <karpenter/version.h>

#include "kp_internal.h"

KP_EXPORT void kp_version(int *major, int *minor, int *patch)
{
	if (major)
		*major = KP_VERSION_MAJOR;
	if (minor)
		*minor = KP_VERSION_MINOR;
	if (patch)
		*patch = KP_VERSION_PATCH;
}

KP_EXPORT const char *kp_version_string(void)
{
	return KP_VERSION_STRING;
}

KP_EXPORT const char *kp_soname(void)
{
	return KP_SONAME;
}
