/*
 * libkarpenter private: the validation engine shared by validation.c (the
 * framework: options, results, ObjectMeta, generic OpenAPI checks),
 * validation_kinds.c (kp_validate and the walks over NodePool, NodeClaim
 * and KWOKNodeClass with their CEL rules and upstream's runtime checks),
 * validation_rules.c (the rule inventory, lent to the decoder through
 * crd.h) and validation_regex.c (Go-compatible pattern matching).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_VALIDATION_PRIVATE_H
#define KP_VALIDATION_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include <karpenter/validation.h>

#include "kp_internal.h"
#include "schema/schema.h"

/*
 * Whether pattern (Go RE2 syntax, the subset the CRDs use) matches anywhere
 * in text[0..len), as Go's regexp.MatchString. Returns 1 or 0, KP_EINVAL for
 * a pattern it cannot read, KP_ENOMEM.
 */
int kp__regex_match(const char *pattern, const char *text, size_t len);

/* The inventory rule of kind for a schema path and keyword, or NULL. */
const kp_validation_rule *kp__vrule_find(uint32_t kind, const char *path, const char *keyword);
/* The rule of a kind (core or registered) for a schema path and keyword. */
const kp_validation_rule *kp__vrule_find_in(const kp__kind_info *info, const char *path,
					    const char *keyword);
/* The rule of the kind being validated (c->info). */
#define KP__V_FIND(c, path, keyword) kp__vrule_find_in((c)->info, (path), (keyword))

/* Phases, in the API server's order; problems are reported sorted by phase. */
enum kp__vphase {
	KP__VP_METADATA = 0,
	KP__VP_OPENAPI = 1,
	KP__VP_SCALE = 2,
	KP__VP_LIST_TYPE = 3,
	KP__VP_CEL = 4,
	KP__VP_RUNTIME = 5,
	KP__VP_WARNING = 6 /* not a problem: kp_validation_warning_at */
};

/* A growable NUL-terminated string. */
typedef struct kp__vstr {
	char *data;
	size_t len;
	size_t cap;
} kp__vstr;

typedef struct kp__vproblem kp__vproblem;

typedef struct kp__vctx {
	uint32_t kind;       /* kp_kind */
	uint32_t flags;      /* kp_validate_flags */
	kp_wellknown *wk;    /* NULL = core rules */
	const char *object;  /* "NodePool/name" */
	kp__vstr path;       /* field path, "spec.template.spec.requirements[0]" */
	kp__vstr spath;      /* schema path, "spec.template.spec.requirements[*]" */
	kp__vproblem *items; /* problems found so far */
	size_t n_items;
	size_t cap_items;
	int failed;          /* KP_ENOMEM or KP_EINVAL (an internal inconsistency) */
	int blocking;        /* a problem that stops CEL evaluation was found */
	const void *reg_kind; /* a registered kind (kp__reg_kind), or NULL */
	const kp__kind_info *info; /* the kind (core or registered); a validator's
				    * rules while it runs */
	const struct kp_registry *reg; /* the registry of the validation, or NULL */
} kp__vctx;

/* Saved path lengths (push/pop). */
typedef struct kp__vmark {
	size_t path;
	size_t spath;
} kp__vmark;

/* Enter a property, a list item or a map value (".name", "[i]"/"[*]",
 * ".key"/".*"); leave with kp__v_pop. */
kp__vmark kp__v_push(kp__vctx *c, const char *name);
kp__vmark kp__v_push_index(kp__vctx *c, size_t i);
kp__vmark kp__v_push_key(kp__vctx *c, const char *key);
void kp__v_pop(kp__vctx *c, kp__vmark m);

/* printf into a new string (NULL and c->failed set on allocation failure). */
char *kp__v_printf(kp__vctx *c, const char *fmt, ...) KP_PRINTF(2, 3);
/* Go's %q of s as a new string. */
char *kp__v_quote(kp__vctx *c, const char *s);

/*
 * Record a problem at the current path plus field_suffix (NULL or "" for
 * the current path itself; ".name" or "[i]" otherwise), for rule r (the
 * record keeps r's id). message and detail are copied (NULL reads as "").
 */
void kp__v_report(kp__vctx *c, int phase, uint32_t type, const kp_validation_rule *r,
		  const char *field_suffix, const char *message, const char *detail);
/* Same, at an explicit field path. */
void kp__v_report_at(kp__vctx *c, int phase, uint32_t type, const kp_validation_rule *r,
		     const char *field, const char *message, const char *detail);

/* The rule for the current schema path (plus suffix) and keyword; records an
 * internal failure when the inventory lacks it. */
const kp_validation_rule *kp__v_rule(kp__vctx *c, const char *suffix, const char *keyword);

/*
 * OpenAPI checks at the current path, driven by the inventory (a check
 * applies when the inventory has the rule for the current schema path):
 * - string: maxLength, minLength, pattern (only the first failing, as
 *   kube-openapi's string validator), then enum;
 * - integer: minimum, maximum;
 * - items: maxItems, minItems (call after the items' own checks);
 * - properties: maxProperties (call before the values' checks);
 * - required: Required value for the absent property `name`.
 */
void kp__v_string(kp__vctx *c, const char *value);
void kp__v_int(kp__vctx *c, int64_t value);
void kp__v_items(kp__vctx *c, size_t n);
void kp__v_props(kp__vctx *c, size_t n);
void kp__v_required(kp__vctx *c, const char *name, int present);

/* CEL evaluation result of one rule. */
enum kp__cel {
	KP__CEL_TRUE = 0,
	KP__CEL_FALSE = 1,
	KP__CEL_ERROR = 2
};

/*
 * Report CEL rule `x-kubernetes-validations[index]` of the current schema
 * path (plus suffix) when result is not TRUE. type_name is the schema type
 * of self ("object", "array", "string"); value is self's text for a string
 * (the record shows it) and NULL otherwise; eval_error is the CEL
 * evaluation error text when result is ERROR.
 */
void kp__v_cel(kp__vctx *c, const char *suffix, int index, int result, const char *type_name,
	       const char *value, const char *eval_error);

/* ObjectMeta checks (validation.c). */
void kp__v_metadata(kp__vctx *c, const kp_object_meta *meta, int namespaced);

/* The walks (validation_kinds.c). old may be NULL. */
/* A kind's walk: every check of the kind on obj (old: the object before an
 * update, or NULL). */
typedef void (*kp__v_walk)(kp__vctx *c, const void *obj, const void *old);

/* kp_validate's work for a kind whose walk is given (validation.c): options,
 * copies at this library's struct sizes, metadata, the walk, the result.
 * validation_kinds.c picks the walk, so the framework knows no kind; a
 * NULL walk is the "no validation for kind" error. */
int kp__validate_walk(kp_validation **out, uint32_t kind, const void *object,
		      const void *old_object, const kp_validate_options *opts, kp__v_walk walk,
		      kp_error *err);

void kp__v_nodepool(kp__vctx *c, const kp_nodepool *np, const kp_nodepool *old);
void kp__v_nodeclaim(kp__vctx *c, const kp_nodeclaim *nc, const kp_nodeclaim *old);

/* The text a kp_api_duration holds (as written, or formatted from its value
 * as encoding would write it); NULL when absent. buf needs
 * KP_DURATION_STRING_MAX bytes. */
const char *kp__v_duration_text(const kp_api_duration *d, int nillable, char *buf, size_t size);

#endif /* KP_VALIDATION_PRIVATE_H */
