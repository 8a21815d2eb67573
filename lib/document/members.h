/*
 * libkarpenter private: an object's member (its key, then its value)
 * through the public emitter, for the writers of the library's documents
 * (members.c). Written against karpenter/emitter.h only, so
 * kubectl-karpenter compiles members.c into its commands (as it compiles
 * lib/common/map.c) rather than keeping its own copies.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_DOCUMENT_MEMBERS_H
#define KP_DOCUMENT_MEMBERS_H

#include <karpenter/emitter.h>

/* A member whose value is a string (NULL: null). The emitter's status. */
int kp__emit_member_string(kp_emitter *em, const char *key, const char *value);
/* A member whose value is a number (kp_emitter_number). */
int kp__emit_member_number(kp_emitter *em, const char *key, double value);
/* A member whose value is true (non-zero) or false. */
int kp__emit_member_bool(kp_emitter *em, const char *key, int value);

#endif
