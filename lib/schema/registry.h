/*
 * libkarpenter private: the registry of provider kinds (registry.c) as the
 * codec, validation and hash modules see it.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_SCHEMA_REGISTRY_H
#define KP_SCHEMA_REGISTRY_H

#ifndef KP_EXPERIMENTAL_API
#define KP_EXPERIMENTAL_API 1
#endif
#include <karpenter/sys/schema.h>

#include "schema/schema.h"

/* One registered kind. */
typedef struct kp__reg_kind {
	kp__kind_info info;        /* id, names, strictness, compiled root type */
	uint32_t flags;            /* kp_kind_flags */
	char *group;
	char *api_version;
	char *name;
	char *hash_version;        /* NULL: none */
	kp_schema *schema;         /* owns info.type */
	const kp__field *hash_field; /* the hash_root member, or NULL */
	kp_validation_rule *rules; /* the rule inventory (info.rules), owned */
	size_t n_rules;
	char **rule_strs;          /* rule ids and copied texts */
	size_t n_rule_strs;
	kp_kind_ops ops;           /* zero when none was given */
	void *self;
} kp__reg_kind;

/* One registered conversion (kp_registry_add_conversion): the ops copied,
 * their names owned. */
typedef struct kp__reg_conversion {
	kp_conversion_ops ops;
	void *self;
	char *name;
	char *node_class_group;
	char *node_class_kind;
} kp__reg_conversion;

/* The sink a conversion writes to: the converter (lib/convert) fills it
 * in; kp_conversion_sink_emit/_report call through it. */
struct kp_conversion_sink {
	int (*emit)(void *ctx, const char *json);
	int (*report)(void *ctx, const char *line);
	void *ctx;
};

/* Registered conversions, in order of registration. */
size_t kp__registry_conversion_count(const kp_registry *r);
const kp__reg_conversion *kp__registry_conversion(const kp_registry *r, size_t i);

/* The registered kind `kind` (>= KP_KIND_FIRST_REGISTERED), or NULL. */
const kp__reg_kind *kp__registry_kind(const kp_registry *r, uint32_t kind);
/* Kind info of a core kind (any registry, NULL too) or a registered one. */
const kp__kind_info *kp__registry_kind_info(const kp_registry *r, uint32_t kind);
/* One more holder of r (kp_registry_free drops one); returns r. */
kp_registry *kp__registry_ref(kp_registry *r);
/* Whether a registered kind's status holds metav1 conditions
 * (status.conditions, a list of KP_CORE_TYPE_CONDITION): a node class the
 * builder reads. With an object (may be NULL otherwise), *conds and *n
 * receive its conditions (NULL, 0 when absent). */
int kp__registry_conditions(const kp_registry *r, uint32_t kind, const void *obj,
			    kp_condition *const **conds, size_t *n);
/* The compiled root type of a schema. */
const kp__type *kp__schema_root(const kp_schema *s);
/* Core types providers may refer to (kp_core_type), or NULL (objects.c). */
const kp__type *kp__core_type(uint32_t core_type);

#endif /* KP_SCHEMA_REGISTRY_H */
