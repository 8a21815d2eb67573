/*
 * Version of the loaded libkarpenter-aws.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <karpenter/aws.h>

#define KP_EXPORT __attribute__((visibility("default")))

KP_EXPORT void kp_aws_version(int *major, int *minor, int *patch)
{
	if (major)
		*major = KP_AWS_VERSION_MAJOR;
	if (minor)
		*minor = KP_AWS_VERSION_MINOR;
	if (patch)
		*patch = KP_AWS_VERSION_PATCH;
}

KP_EXPORT const char *kp_aws_version_string(void)
{
	return KP_AWS_VERSION_STRING;
}

KP_EXPORT const char *kp_aws_soname(void)
{
	return KP_AWS_SONAME;
}
