/*
 * libkarpenter-aws: AWS cloud provider for libkarpenter (EC2 through libcurl).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_AWS_H
#define KARPENTER_AWS_H

#include <karpenter/common.h>
#include <karpenter/aws_version.h>

KP_BEGIN_DECLS

/**
 * @brief Version of the loaded libkarpenter-aws.
 * @param[out] major may be NULL
 * @param[out] minor may be NULL
 * @param[out] patch may be NULL
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_aws_version(int *major, int *minor, int *patch);

/**
 * @brief Version string of the loaded libkarpenter-aws ("0.1.0").
 * @return static string, never NULL.
 * @since 0.1
 * Thread-safety: safe.
 */
const char *kp_aws_version_string(void);

/**
 * @brief SONAME of the loaded libkarpenter-aws ("libkarpenter-aws.so.0.1").
 * @return static string, never NULL.
 * @since 0.1
 * Thread-safety: safe.
 */
const char *kp_aws_soname(void);

KP_END_DECLS

#endif /* KARPENTER_AWS_H */
