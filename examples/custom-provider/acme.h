/*
 * "Acme Cloud": a small third-party cloud provider for libkarpenter, written
 * against the public headers only (karpenter/karpenter.h), the way an
 * out-of-tree provider library would be.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef ACME_H
#define ACME_H

#include <karpenter/karpenter.h>

/** The node class Acme supports: acme.example.com/AcmeNodeClass. */
#define ACME_NODECLASS_GROUP "acme.example.com"
#define ACME_NODECLASS_KIND "AcmeNodeClass"
/** A provider label, declared well-known to the scheduler. */
#define ACME_LABEL_FAMILY "acme.example.com/family"

/**
 * Create the Acme provider and register it with libkarpenter.
 * Returns a kp_status; on failure *out is NULL and err says why.
 */
int acme_provider_new(kp_cloudprovider **out, kp_error *err);

#endif /* ACME_H */
