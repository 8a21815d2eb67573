/*
 * libkarpenter private: the v1 CRDs' constraints (the rule inventory of
 * validation_rules.c and the RE2 matcher of validation_regex.c) as the
 * hooks the schema engine quotes in decode errors (lib/codec passes them to
 * kp__schema_decode). Kept apart from validation_private.h so that a
 * decoder needs only this.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_VALIDATION_CRD_H
#define KP_VALIDATION_CRD_H

#include "schema/schema.h"

extern const kp__crd_rules kp__crd_rules_v1;

#endif /* KP_VALIDATION_CRD_H */
