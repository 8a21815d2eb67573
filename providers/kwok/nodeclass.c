/*
 * KWOKNodeClass (karpenter.kwok.sh/v1alpha1, upstream kwok/apis/v1alpha1)
 * registered on a core registry through the provider-kind API: its
 * description, the rule inventory of its CRD
 * (../shared/data/crds/karpenter.kwok.sh_kwoknodeclasses.yaml, one row per
 * keyword, in the CRD's order), its defaults and its validation.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1
#include <stddef.h>
#include <string.h>

#include <karpenter/kwok.h>
#include <karpenter/sys/kwok.h>

#include "kwok_private.h"

#define N_(a) (sizeof(a) / sizeof((a)[0]))
#define TYPE(name, goname) \
	static const kp_schema_type name = { sizeof(kp_schema_type), sizeof(kp_schema_field), \
					     goname, sizeof(S), 0, 0, 1, 0, name##_f, N_(name##_f) }

#define S kp_kwok_nodeclass_spec
static const kp_schema_field t_spec_f[] = {
	{ KP_FIELD_DURATION, 0, "nodeRegistrationDelay", "NodeRegistrationDelay",
	  offsetof(S, node_registration_delay), 0, NULL, NULL, 0, 0, 0 },
};
TYPE(t_spec, "KWOKNodeClassSpec");
#undef S

#define S kp_kwok_nodeclass_status
static const kp_schema_field t_status_f[] = {
	{ KP_FIELD_LIST, 0, "conditions", "Conditions", offsetof(S, conditions),
	  offsetof(S, n_conditions), NULL, NULL, 0, KP_CORE_TYPE_CONDITION, 0 },
};
TYPE(t_status, "KWOKNodeClassStatus");
#undef S

#define S kp_kwok_nodeclass
static const kp_schema_field t_nodeclass_f[] = {
	{ KP_FIELD_API_VERSION, 0, "apiVersion", "APIVersion", offsetof(S, api_version), 0, NULL,
	  NULL, 0, 0, 0 },
	{ KP_FIELD_KIND, 0, "kind", "Kind", offsetof(S, kind), 0, NULL, NULL, 0, 0, 0 },
	{ KP_FIELD_STRUCT, 0, "metadata", "ObjectMeta", offsetof(S, metadata), 0, NULL, NULL, 0,
	  KP_CORE_TYPE_OBJECT_META, 0 },
	{ KP_FIELD_STRUCT, 0, "spec", "Spec", offsetof(S, spec), 0, &t_spec, NULL, 0, 0, 0 },
	{ KP_FIELD_STRUCT, 0, "status", "Status", offsetof(S, status), 0, &t_status, NULL, 0, 0,
	  0 },
};
TYPE(t_nodeclass, "KWOKNodeClass");
#undef S

#define R(SRC, FLAGS, PATH, KW, TEXT, MSG) { KP_RULE_SOURCE_##SRC, FLAGS, PATH, KW, TEXT, MSG }
static const kp_crd_rule rules[] = {
	/* (the API server's ObjectMeta rows are the core's: kp_registry_add_kind adds them) */
	R(OPENAPI, 0, "spec.nodeRegistrationDelay", "pattern", "^([0-9]+(s|m|h))+$", ""),
	R(DECODE, 0, "status.conditions[*].lastTransitionTime", "format", "date-time", ""),
	R(OPENAPI, 0, "status.conditions[*].message", "maxLength", "32768", ""),
	R(DECODE, 0, "status.conditions[*].observedGeneration", "format", "int64", ""),
	R(OPENAPI, 0, "status.conditions[*].observedGeneration", "minimum", "0", ""),
	R(OPENAPI, 0, "status.conditions[*].reason", "maxLength", "1024", ""),
	R(OPENAPI, 0, "status.conditions[*].reason", "minLength", "1", ""),
	R(OPENAPI, 0, "status.conditions[*].reason", "pattern",
	  "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$",
	  ""),
	R(OPENAPI, 0, "status.conditions[*].status", "enum",
	  "\"True\", \"False\", \"Unknown\"",
	  ""),
	R(OPENAPI, 0, "status.conditions[*].type", "maxLength", "316", ""),
	R(OPENAPI, 0, "status.conditions[*].type", "pattern",
	  "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-"
	  "Za-z0-9_.]*)?[A-Za-z0-9])$",
	  ""),
	R(OPENAPI, 0, "status.conditions[*].lastTransitionTime", "required", "", ""),
	R(OPENAPI, 0, "status.conditions[*].message", "required", "", ""),
	R(OPENAPI, 0, "status.conditions[*].reason", "required", "", ""),
	R(OPENAPI, 0, "status.conditions[*].status", "required", "", ""),
	R(OPENAPI, 0, "status.conditions[*].type", "required", "", ""),
};

/* 2024-01-01T01:01:01Z, the CRD's default lastTransitionTime. */
#define READY_TIME_MS ((int64_t)1704070861000)

static char *dup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = kp_malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

/* The CRD's only default: the whole status, when absent. Everything is
 * allocated before anything is attached. */
static int apply_defaults(void *self, void *object, kp_error *err)
{
	(void)self;
	kp_kwok_nodeclass *nc = object;
	if (nc->status)
		return KP_OK;
	kp_kwok_nodeclass_status *st = kp_calloc(1, sizeof(*st));
	kp_condition **conds = kp_calloc(1, sizeof(*conds));
	kp_condition *cond = kp_calloc(1, sizeof(*cond));
	char *type = dup("Ready"), *status = dup("True");
	char *reason = dup("Ready"), *message = dup("");
	if (!st || !conds || !cond || !type || !status || !reason || !message) {
		kp_free(st);
		kp_free(conds);
		kp_free(cond);
		kp_free(type);
		kp_free(status);
		kp_free(reason);
		kp_free(message);
		return kp_error_set(err, KP_ENOMEM, NULL, "out of memory");
	}
	cond->struct_size = sizeof(*cond);
	cond->type = type;
	cond->status = status;
	cond->reason = reason;
	cond->message = message;
	cond->last_transition_time_ms = READY_TIME_MS;
	conds[0] = cond;
	st->struct_size = sizeof(*st);
	st->conditions = conds;
	st->n_conditions = 1;
	nc->status = st;
	return KP_OK;
}

/* The CRD's OpenAPI rules on spec and status (no CEL rules, no update rules). */
static int validate(void *self, const void *object, const void *old_object,
		    kp_validation_sink *sink, kp_error *err)
{
	(void)self;
	(void)old_object;
	(void)err;
	const kp_kwok_nodeclass *nc = object;
	int rc = KP_OK;
	if (nc->spec && (rc = kp_validation_sink_push(sink, "spec")) == KP_OK) {
		rc = kp_validation_sink_duration(sink, "nodeRegistrationDelay",
						 &nc->spec->node_registration_delay, 0);
		kp_validation_sink_pop(sink);
	}
	if (rc == KP_OK && nc->status && !(kp_validation_sink_flags(sink) & KP_VALIDATE_NO_STATUS) &&
	    (rc = kp_validation_sink_push(sink, "status")) == KP_OK) {
		rc = kp_validation_sink_conditions(sink, nc->status->conditions,
						   nc->status->n_conditions);
		kp_validation_sink_pop(sink);
	}
	return rc;
}

KP_EXPORT int kp_kwok_register(kp_registry *registry, uint32_t *out_kind, kp_error *err)
{
	kp_kind_spec spec = KP_KIND_SPEC_INIT;
	spec.flags = KP_KIND_F_CRD;
	spec.group = KP_KWOK_GROUP;
	spec.version = "v1alpha1";
	spec.kind = KP_KWOK_NODECLASS_KIND;
	spec.type = &t_nodeclass;
	spec.rules = rules;
	spec.n_rules = N_(rules);
	kp_kind_ops ops = KP_KIND_OPS_INIT;
	ops.name = KP_KWOK_PROVIDER_NAME;
	ops.apply_defaults = apply_defaults;
	ops.validate = validate;
	return kp_registry_add_kind(registry, &spec, &ops, NULL, out_kind, err);
}
