/*
 * libkarpenter-kwok, experimental: KWOKNodeClass on a core registry
 * (karpenter/sys/schema.h). Define KP_EXPERIMENTAL_API; the symbols sit in
 * KARPENTER_KWOK_EXPERIMENTAL, outside SemVer (VERSIONING.md, "Provider
 * kinds").
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_SYS_KWOK_H
#define KARPENTER_SYS_KWOK_H

#ifndef KP_EXPERIMENTAL_API
#error "karpenter/sys/kwok.h is experimental API: define KP_EXPERIMENTAL_API to use it"
#endif

#include <stdint.h>

#include <karpenter/common.h>
#include <karpenter/kwok_nodeclass.h>
#include <karpenter/sys/schema.h>

KP_BEGIN_DECLS

/**
 * @brief Register karpenter.kwok.sh/v1alpha1 KWOKNodeClass on a registry:
 * its description, its CRD's rule inventory, its defaults (the whole
 * status when absent: one condition {type: Ready, status: "True", reason:
 * Ready, message: "", lastTransitionTime: 2024-01-01T01:01:01Z}) and its
 * validation (spec.nodeRegistrationDelay, status.conditions).
 * @param[in] registry the registry
 * @param[out] out_kind the kind id, may be NULL
 * @param[out] err optional error detail
 * @return KP_OK; KP_EINVAL (NULL registry, already registered); KP_EVERSION;
 *         KP_ENOMEM
 * @since 0.1
 * Ownership: objects of the kind are freed with kp_registry_object_free.
 * Thread-safety: as kp_registry_add_kind.
 */
int kp_kwok_register(kp_registry *registry, uint32_t *out_kind, kp_error *err);

KP_END_DECLS

#endif /* KARPENTER_SYS_KWOK_H */
