/*
 * libkarpenter-kwok: KWOK cloud provider for libkarpenter: the embedded offline default.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_KWOK_H
#define KARPENTER_KWOK_H

#include <karpenter/common.h>
#include <karpenter/kwok_version.h>

KP_BEGIN_DECLS

/**
 * @brief Version of the loaded libkarpenter-kwok.
 * @param[out] major may be NULL
 * @param[out] minor may be NULL
 * @param[out] patch may be NULL
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_kwok_version(int *major, int *minor, int *patch);

/**
 * @brief Version string of the loaded libkarpenter-kwok ("0.1.0").
 * @return static string, never NULL.
 * @since 0.1
 * Thread-safety: safe.
 */
const char *kp_kwok_version_string(void);

/**
 * @brief SONAME of the loaded libkarpenter-kwok ("libkarpenter-kwok.so.0.1").
 * @return static string, never NULL.
 * @since 0.1
 * Thread-safety: safe.
 */
const char *kp_kwok_soname(void);

KP_END_DECLS

#endif /* KARPENTER_KWOK_H */
