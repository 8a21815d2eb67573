/*
 * Version of the loaded libkarpenter-kwok.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <karpenter/kwok.h>

#define KP_EXPORT __attribute__((visibility("default")))

KP_EXPORT void kp_kwok_version(int *major, int *minor, int *patch)
{
	if (major)
		*major = KP_KWOK_VERSION_MAJOR;
	if (minor)
		*minor = KP_KWOK_VERSION_MINOR;
	if (patch)
		*patch = KP_KWOK_VERSION_PATCH;
}

KP_EXPORT const char *kp_kwok_version_string(void)
{
	return KP_KWOK_VERSION_STRING;
}

KP_EXPORT const char *kp_kwok_soname(void)
{
	return KP_KWOK_SONAME;
}
