/*
 * Helpers shared by the drift-hash tests: reading the upstream vector files
 * of ../shared/data/hash with the library's own YAML parser (the internal
 * document tree), and building NodePools and NodeClaims from YAML text with
 * the public codec.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_HASH_TEST_H
#define KP_HASH_TEST_H

#include <stdint.h>

#include <karpenter/karpenter.h>

#include "document/tree.h"

/* Directory of the vector files under the shared data folder. */
#define HT_NODEPOOL_VECTORS "hash/nodepool-vectors.yaml"
#define HT_VECTORS "hash/vectors.yaml"

/* The first document of a shared data file as a tree (ck_abort on error).
 * Free with kp__node_free. */
kp__node *ht_load(const char *relative);

/* The same without Check assertions (usable while building suites, where
 * Check cannot report): NULL on error, with a message on stderr. */
kp__node *ht_load_unchecked(const char *relative);

/* Member of an object node, or NULL. */
const kp__node *ht_get(const kp__node *obj, const char *key);
/* String member of an object node, or NULL. */
const char *ht_str(const kp__node *obj, const char *key);
/* A decimal uint64 (ck_abort when malformed). */
uint64_t ht_u64(const char *text);

/* Decode one object of the given kind from YAML or JSON text (ck_abort on
 * error). Free with kp_object_free. */
void *ht_decode(uint32_t kind, const char *text);

/* A NodePool named name whose spec.template is the tree tmpl (NULL: no
 * template), decoded with kp_decode from JSON text. */
kp_nodepool *ht_nodepool_from_template(const char *name, const kp__node *tmpl);

#endif
