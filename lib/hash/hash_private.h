/*
 * libkarpenter private: helpers shared by the files of lib/hash.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_HASH_PRIVATE_H
#define KP_HASH_PRIVATE_H

#include <karpenter/hash.h>

#include "hashstructure.h"

/* kp_hash_options (NULL: defaults) as engine options. */
int kp__hash_opts(const kp_hash_options *opts, kp__hs_opts *o, kp_error *err);
/* NodePool.Hash() with engine options. */
int kp__nodepool_hash(const kp_nodepool *np, const kp__hs_opts *o, uint64_t *out, kp_error *err);
/* An annotation of an object, or NULL (meta may be NULL). */
const char *kp__annotation(const kp_object_meta *meta, const char *key);
/* Whether a NodeClaim has a status condition of this type (any status);
 * *status (may be NULL) receives its status text. */
int kp__nodeclaim_has_condition(const kp_nodeclaim *nc, const char *type, const char **status);

#endif /* KP_HASH_PRIVATE_H */
