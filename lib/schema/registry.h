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

/* A rule inventory owned by the registry: rows and their copied texts. */
typedef struct kp__rule_set {
	kp_validation_rule *rules;
	size_t n_rules;
	char **strs;               /* rule ids and copied texts */
	size_t n_strs;
} kp__rule_set;

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
	kp__rule_set rules;        /* the rule inventory (info.rules), owned */
	kp_kind_ops ops;           /* zero when none was given */
	void *self;
} kp__reg_kind;

/* One validator added to a kind (kp_registry_add_validator): the ops
 * copied, its rules owned; info is the kind's, with the validator's rules,
 * so that the sink's checks find them while it runs. */
typedef struct kp__reg_validator {
	uint32_t kind;
	kp__kind_info info;
	kp__rule_set rules;
	kp_validator_ops ops;
	void *self;
	char *name;
} kp__reg_validator;

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

/* Copy a provider's rule table into an empty rule set (kp_crd_rule records
 * of rule_size bytes); release with kp__rule_set_dispose. */
int kp__rule_set_copy(kp__rule_set *rs, const char *kind, const kp_crd_rule *rules, size_t n,
		      uint32_t rule_size, kp_error *err);
void kp__rule_set_dispose(kp__rule_set *rs);
/* Keep a validator (its ops, rules and name now owned by the registry):
 * KP_OK or KP_ENOMEM (then nothing is kept). */
int kp__registry_append_validator(kp_registry *r, const kp__reg_validator *v);
/* Validators added to `kind`, in order of registration: the i-th, or NULL
 * past the last. */
const kp__reg_validator *kp__registry_validator(const kp_registry *r, uint32_t kind, size_t i);

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
