/*
 * The validation walks over NodePool and NodeClaim (and registered kinds): their
 * OpenAPI constraints (read from the inventory for each schema path), their
 * CEL rules (one C function each, with CEL's semantics), list-type
 * uniqueness, the scale subresource, and upstream's runtime checks
 * (pkg/apis/v1/nodepool_validation.go, nodeclaim_validation.go).
 *
 * Properties are visited in the CRD's order (alphabetical, as controller-gen
 * writes them), an object's required fields after its properties, a list's
 * items before its maxItems, an object's own CEL rules before its
 * properties'.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include <karpenter/cron.h>
#include <karpenter/duration.h>
#include <karpenter/labels.h>
#include <karpenter/requirements.h>
#include <karpenter/taints.h>
#include <karpenter/wellknown.h>

#include "k8s/labels_private.h"
#include "schema/schema.h"
#include "validation_private.h"
#include "schema/registry.h"

/* ------------------------------------------------------------------------ */
/* Small helpers                                                            */

static const char *sget(const kp__vstr *s)
{
	return s->data ? s->data : "";
}

/* A required-field check that applies only when the CRD has it here. */
static void required_opt(kp__vctx *c, const char *name, int present)
{
	char suffix[64]; /* name: a condition property literal (18 bytes at most): fits */
	snprintf(suffix, sizeof(suffix), "%s%s", c->spath.len ? "." : "", name);
	char *sp = kp__v_printf(c, "%s%s", sget(&c->spath), suffix);
	if (!sp)
		return;
	const kp_validation_rule *r = KP__V_FIND(c, sp, "required");
	kp__free(sp);
	if (r)
		kp__v_required(c, name, present);
}

/* The operator as written, or the name of its code for a caller-built
 * requirement; NULL when absent. */
static const char *op_text(const kp_nodeclaim_requirement *r)
{
	if (r->operator_name)
		return r->operator_name;
	if (r->op)
		return kp_selector_op_name(r->op);
	return NULL;
}

static const char *effect_name(uint32_t effect)
{
	return effect <= KP_TAINT_EFFECT_NO_EXECUTE ? kp_taint_effect_name(effect) : NULL;
}

/* strconv.ParseInt(s, 10, 64) (also strconv.Atoi on 64-bit platforms). */
static int parse_int64(const char *s, int64_t *out)
{
	const char *p = s;
	int neg = 0;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (!*p)
		return -1;
	uint64_t v = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		uint64_t d = (uint64_t)(*p - '0');
		if (v > (lim - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = neg ? (v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v) : (int64_t)v;
	return 0;
}

/* CEL: x.find("^([^/]+)").endsWith("karpenter.sh") */
static int domain_ends_with_karpenter(const char *key)
{
	const char *slash = strchr(key, '/');
	size_t n = slash ? (size_t)(slash - key) : strlen(key);
	static const char suffix[] = "karpenter.sh";
	size_t sl = sizeof(suffix) - 1;
	return n >= sl && memcmp(key + n - sl, suffix, sl) == 0;
}

/* The fold of CEL's all(): FALSE if any element is FALSE, else the first
 * ERROR, else TRUE. */
typedef struct cel_all {
	int result;
	const char *error;
} cel_all;

static void all_add(cel_all *a, int r, const char *error)
{
	if (a->result == KP__CEL_FALSE)
		return;
	if (r == KP__CEL_FALSE) {
		a->result = KP__CEL_FALSE;
		a->error = NULL;
	} else if (r == KP__CEL_ERROR && a->result == KP__CEL_TRUE) {
		a->result = KP__CEL_ERROR;
		a->error = error;
	}
}

/* ------------------------------------------------------------------------ */
/* Message lists (upstream's multierr, joined with "; ")                     */

typedef struct msglist {
	char **items;
	size_t n;
	size_t cap;
} msglist;

static void ml_add(kp__vctx *c, msglist *l, char *msg)
{
	if (!msg)
		return;
	if (kp__grow((void **)&l->items, &l->cap, l->n + 1, sizeof(char *))) {
		kp__free(msg);
		if (!c->failed)
			c->failed = KP_ENOMEM;
		return;
	}
	l->items[l->n++] = msg;
}

static char *ml_join(kp__vctx *c, const msglist *l, const char *sep)
{
	size_t len = 1;
	for (size_t i = 0; i < l->n; i++)
		len += strlen(l->items[i]) + (i ? strlen(sep) : 0);
	char *s = kp__malloc(len);
	if (!s) {
		if (!c->failed)
			c->failed = KP_ENOMEM;
		return NULL;
	}
	s[0] = '\0';
	for (size_t i = 0; i < l->n; i++) {
		if (i)
			strcat(s, sep);
		strcat(s, l->items[i]);
	}
	return s;
}

static void ml_free(msglist *l)
{
	for (size_t i = 0; i < l->n; i++)
		kp__free(l->items[i]);
	kp__free(l->items);
	l->items = NULL;
	l->n = l->cap = 0;
}

/* Go's %v of a []string: [a b c]. */
static char *go_slice(kp__vctx *c, const char *const *v, size_t n)
{
	msglist l = { NULL, 0, 0 };
	for (size_t i = 0; i < n; i++)
		ml_add(c, &l, kp__v_printf(c, "%s", v[i] ? v[i] : ""));
	char *j = c->failed ? NULL : ml_join(c, &l, " ");
	char *s = j ? kp__v_printf(c, "[%s]", j) : NULL;
	kp__free(j);
	ml_free(&l);
	return s;
}

static void report_runtime(kp__vctx *c, const char *suffix, const char *keyword, const char *msg)
{
	const kp_validation_rule *r = kp__v_rule(c, suffix, keyword);
	if (r && msg)
		kp__v_report(c, KP__VP_RUNTIME, KP_FIELD_ERROR_RUNTIME, r, suffix, msg, msg);
}

/* ------------------------------------------------------------------------ */
/* Shared pieces of the schemas                                             */

static void v_duration(kp__vctx *c, const char *name, const kp_api_duration *d, int nillable)
{
	char buf[KP_DURATION_STRING_MAX];
	const char *text = kp__v_duration_text(d, nillable, buf, sizeof(buf));
	if (!text)
		return;
	kp__vmark m = kp__v_push(c, name);
	kp__v_string(c, text);
	/* The CRD's pattern bounds no number: what it lets through beyond Go's
	 * time.Duration (about 2562047h47m) fails Go's time.ParseDuration when
	 * Karpenter reads the object, with Go's message. */
	const kp_validation_rule *r = KP__V_FIND(c, sget(&c->spath), "runtime-duration");
	int64_t ns;
	if (r && d->text && !(nillable && !strcmp(d->text, KP_DURATION_NEVER)) &&
	    strspn(d->text, "0123456789hms") == strlen(d->text) &&
	    kp_duration_parse_ns(&ns, d->text, NULL) != KP_OK) {
		char *q = kp__v_quote(c, d->text);
		char *msg = q ? kp__v_printf(c, "Invalid value: %s: time: invalid duration %s", q, q)
			      : NULL;
		if (msg)
			kp__v_report(c, KP__VP_RUNTIME, KP_FIELD_ERROR_RUNTIME, r, NULL, msg, msg);
		kp__free(q);
		kp__free(msg);
	}
	kp__v_pop(c, m);
}

static void v_string_field(kp__vctx *c, const char *name, const char *value)
{
	if (!value)
		return;
	kp__vmark m = kp__v_push(c, name);
	kp__v_string(c, value);
	kp__v_pop(c, m);
}

static void v_taints(kp__vctx *c, const char *name, const kp_taint *taints, size_t n)
{
	if (!taints)
		return;
	kp__vmark m = kp__v_push(c, name);
	for (size_t i = 0; i < n; i++) {
		const kp_taint *t = &taints[i];
		kp__vmark mi = kp__v_push_index(c, i);
		if (t->effect > KP_TAINT_EFFECT_NO_EXECUTE) {
			/* Decoding rejects an unknown effect; a caller-built one may hold
			 * any code. */
			const kp_validation_rule *r = kp__v_rule(c, ".effect", "enum");
			char *d = r ? kp__v_printf(c, "supported values: %s", r->text) : NULL;
			char *msg = d ? kp__v_printf(c, "Unsupported value: \"%u\": %s", t->effect, d) : NULL;
			if (msg)
				kp__v_report(c, KP__VP_OPENAPI, KP_FIELD_ERROR_NOT_SUPPORTED, r, ".effect", msg,
					     d);
			kp__free(d);
			kp__free(msg);
		}
		v_string_field(c, "key", t->key);
		v_string_field(c, "value", t->value);
		kp__v_required(c, "effect", t->effect != KP_TAINT_EFFECT_NONE);
		kp__v_required(c, "key", t->key != NULL);
		kp__v_pop(c, mi);
	}
	kp__v_pop(c, m);
}

/* CEL rules of one requirement key (x-kubernetes-validations on key). */
static void cel_requirement_key(kp__vctx *c, const char *key)
{
	int in_exceptions = !strcmp(key, KP_LABEL_CAPACITY_TYPE) || !strcmp(key, KP_LABEL_NODEPOOL);
	int r0 = in_exceptions || !domain_ends_with_karpenter(key) ? KP__CEL_TRUE : KP__CEL_FALSE;
	kp__v_cel(c, NULL, 0, r0, "string", key, NULL);
	int hostname = strcmp(key, KP_LABEL_HOSTNAME) != 0 ? KP__CEL_TRUE : KP__CEL_FALSE;
	if (c->kind == KP_KIND_NODEPOOL) {
		int nodepool = strcmp(key, KP_LABEL_NODEPOOL) != 0 ? KP__CEL_TRUE : KP__CEL_FALSE;
		kp__v_cel(c, NULL, 1, nodepool, "string", key, NULL);
		kp__v_cel(c, NULL, 2, hostname, "string", key, NULL);
	} else {
		kp__v_cel(c, NULL, 1, hostname, "string", key, NULL);
	}
}

static const char no_such_operator[] = "no such key: operator";
static const char no_such_values[] = "no such key: values";
static const char int_conversion[] = "type conversion error from 'string' to 'int'";

/* The three CEL rules on the requirements list. */
static void cel_requirements(kp__vctx *c, kp_nodeclaim_requirement *const *reqs, size_t n)
{
	cel_all a0 = { KP__CEL_TRUE, NULL }, a1 = { KP__CEL_TRUE, NULL }, a2 = { KP__CEL_TRUE, NULL };
	for (size_t i = 0; i < n; i++) {
		const kp_nodeclaim_requirement *r = reqs[i];
		const char *op = op_text(r);
		int has_values = r->values != NULL;
		/* x.operator == 'In' ? x.values.size() != 0 : true */
		if (!op)
			all_add(&a0, KP__CEL_ERROR, no_such_operator);
		else if (!strcmp(op, "In"))
			all_add(&a0, has_values ? (r->n_values ? KP__CEL_TRUE : KP__CEL_FALSE) : KP__CEL_ERROR,
				no_such_values);
		/* (op is Gt/Lt/Gte/Lte) ? (x.values.size() == 1 && int(x.values[0]) >= 0) : true */
		if (!op) {
			all_add(&a1, KP__CEL_ERROR, no_such_operator);
		} else if (!strcmp(op, "Gt") || !strcmp(op, "Lt") || !strcmp(op, "Gte") ||
			   !strcmp(op, "Lte")) {
			if (!has_values) {
				all_add(&a1, KP__CEL_ERROR, no_such_values);
			} else if (r->n_values != 1) {
				all_add(&a1, KP__CEL_FALSE, NULL);
			} else {
				int64_t v;
				if (parse_int64(r->values[0] ? r->values[0] : "", &v))
					all_add(&a1, KP__CEL_ERROR, int_conversion);
				else
					all_add(&a1, v >= 0 ? KP__CEL_TRUE : KP__CEL_FALSE, NULL);
			}
		}
		/* (x.operator == 'In' && has(x.minValues)) ? x.values.size() >= x.minValues : true */
		if (!op) {
			/* error && has(): FALSE wins over the error */
			if (r->has_min_values)
				all_add(&a2, KP__CEL_ERROR, no_such_operator);
		} else if (!strcmp(op, "In") && r->has_min_values) {
			if (!has_values)
				all_add(&a2, KP__CEL_ERROR, no_such_values);
			else
				all_add(&a2, (int64_t)r->n_values >= r->min_values ? KP__CEL_TRUE : KP__CEL_FALSE,
					NULL);
		}
	}
	kp__v_cel(c, NULL, 0, a0.result, "array", NULL, a0.error);
	kp__v_cel(c, NULL, 1, a1.result, "array", NULL, a1.error);
	kp__v_cel(c, NULL, 2, a2.result, "array", NULL, a2.error);
}

static void v_requirements(kp__vctx *c, kp_nodeclaim_requirement *const *reqs, size_t n)
{
	if (!reqs)
		return;
	kp__vmark m = kp__v_push(c, "requirements");
	cel_requirements(c, reqs, n);
	for (size_t i = 0; i < n; i++) {
		const kp_nodeclaim_requirement *r = reqs[i];
		kp__vmark mi = kp__v_push_index(c, i);
		if (r->key) {
			kp__vmark mk = kp__v_push(c, "key");
			kp__v_string(c, r->key);
			cel_requirement_key(c, r->key);
			kp__v_pop(c, mk);
		}
		if (r->has_min_values) {
			kp__vmark mv = kp__v_push(c, "minValues");
			kp__v_int(c, r->min_values);
			kp__v_pop(c, mv);
		}
		v_string_field(c, "operator", op_text(r));
		/* values: the CRD's maxLength and pattern sit on the array, where
		 * kube-openapi ignores them (KP_RULE_F_INERT). */
		kp__v_required(c, "key", r->key != NULL);
		kp__v_required(c, "operator", op_text(r) != NULL);
		kp__v_pop(c, mi);
	}
	kp__v_items(c, n);
	kp__v_pop(c, m);
}

/*
 * A NodeClaim launched from a NodePool carries the label group "/"
 * lowercase(kind) of its nodeClassRef (upstream's NodeClassLabelKey). The
 * CRD limits neither length, so the API server accepts a group or kind that
 * makes an invalid key; no NodeClaim could then be created (the scheduler
 * skips such NodePools). The object stays valid: this is a warning. A group
 * or kind the CRD already refuses (empty, or with a '/') is left to that
 * error.
 */
static void warn_label_key(kp__vctx *c, const kp_node_class_reference *ref)
{
	if (!ref->group || !ref->kind || !*ref->group || !*ref->kind || strchr(ref->group, '/') ||
	    strchr(ref->kind, '/'))
		return;
	size_t glen = strlen(ref->group), klen = strlen(ref->kind);
	const char *problems[KP_LABEL_MAX_PROBLEMS];
	size_t n = kp__label_key_parts_problems(ref->group, glen, ref->kind, klen, problems,
						KP_LABEL_MAX_PROBLEMS);
	if (n == 0)
		return;
	const kp_validation_rule *r = kp__v_rule(c, NULL, "runtime-label-key");
	char *key = kp__v_printf(c, "%s/%s", ref->group, ref->kind);
	if (!r || !key) {
		kp__free(key);
		return;
	}
	for (char *p = key + glen + 1; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	/* The key may be 70,000 bytes: the message shows an excerpt, the sizes in full. */
	char q[KP_QUOTE_EXCERPT_MAX];
	kp__quote_excerpt(q, sizeof(q), key, glen + 1 + klen);
	msglist l = { NULL, 0, 0 };
	for (size_t i = 0; i < n && i < KP_LABEL_MAX_PROBLEMS; i++)
		ml_add(c, &l, kp__v_printf(c, "%s", problems[i]));
	char *why = c->failed ? NULL : ml_join(c, &l, "; ");
	char *msg = why ? kp__v_printf(c,
				       "NodeClaim label key %s (group \"/\" lowercase(kind), %zu + 1 + "
				       "%zu bytes) is not a valid label key: %s; no NodeClaim can be "
				       "launched from this NodePool",
				       q, glen, klen, why)
			: NULL;
	if (msg)
		kp__v_report(c, KP__VP_WARNING, KP_FIELD_ERROR_RUNTIME, r, NULL, msg, why);
	kp__free(msg);
	kp__free(why);
	ml_free(&l);
	kp__free(key);
}

/* nodeClassRef; old is the stored nodeClassRef on an update (NodePool only
 * has transition rules here). */
static void v_node_class_ref(kp__vctx *c, const kp_node_class_reference *ref,
			     const kp_node_class_reference *old)
{
	if (!ref)
		return;
	kp__vmark m = kp__v_push(c, "nodeClassRef");
	if (old && c->kind == KP_KIND_NODEPOOL) {
		/* self.group == oldSelf.group; self.kind == oldSelf.kind */
		const char *pairs[2][2] = { { ref->group, old->group }, { ref->kind, old->kind } };
		const char *errs[2] = { "no such key: group", "no such key: kind" };
		for (int i = 0; i < 2; i++) {
			if (!pairs[i][0] || !pairs[i][1])
				kp__v_cel(c, NULL, i, KP__CEL_ERROR, "object", NULL, errs[i]);
			else
				kp__v_cel(c, NULL, i, strcmp(pairs[i][0], pairs[i][1]) ? KP__CEL_FALSE
										    : KP__CEL_TRUE,
					  "object", NULL, NULL);
		}
	}
	static const char *const names[] = { "group", "kind", "name" };
	const char *vals[] = { ref->group, ref->kind, ref->name };
	for (int i = 0; i < 3; i++) {
		if (!vals[i])
			continue;
		kp__vmark mf = kp__v_push(c, names[i]);
		kp__v_string(c, vals[i]);
		/* self != '' */
		kp__v_cel(c, NULL, 0, *vals[i] ? KP__CEL_TRUE : KP__CEL_FALSE, "string", vals[i], NULL);
		kp__v_pop(c, mf);
	}
	for (int i = 0; i < 3; i++)
		kp__v_required(c, names[i], vals[i] != NULL);
	if (c->kind == KP_KIND_NODEPOOL && !(c->flags & KP_VALIDATE_NO_RUNTIME))
		warn_label_key(c, ref);
	kp__v_pop(c, m);
}

/* NodeClaimSpec / NodeClaimTemplateSpec, at the current path. */
static void v_claim_spec(kp__vctx *c, const kp_nodeclaim_spec *s, const kp_nodeclaim_spec *old)
{
	v_duration(c, "expireAfter", &s->expire_after, 1);
	v_node_class_ref(c, s->node_class_ref, old ? old->node_class_ref : NULL);
	v_requirements(c, s->requirements, s->n_requirements);
	/* resources.requests: quantities, enforced by decoding */
	v_taints(c, "startupTaints", s->startup_taints, s->n_startup_taints);
	v_taints(c, "taints", s->taints, s->n_taints);
	v_duration(c, "terminationGracePeriod", &s->termination_grace_period, 0);
	kp__v_required(c, "nodeClassRef", s->node_class_ref != NULL);
	kp__v_required(c, "requirements", s->requirements != NULL);
}

static void v_conditions(kp__vctx *c, kp_condition *const *conds, size_t n)
{
	if (!conds)
		return;
	kp__vmark m = kp__v_push(c, "conditions");
	for (size_t i = 0; i < n; i++) {
		const kp_condition *k = conds[i];
		kp__vmark mi = kp__v_push_index(c, i);
		/* lastTransitionTime: date-time, enforced by decoding */
		v_string_field(c, "message", k->message);
		kp__vmark mg = kp__v_push(c, "observedGeneration");
		kp__v_int(c, k->observed_generation);
		kp__v_pop(c, mg);
		v_string_field(c, "reason", k->reason);
		v_string_field(c, "status", k->status);
		v_string_field(c, "type", k->type);
		required_opt(c, "lastTransitionTime", k->last_transition_time_ms != 0);
		required_opt(c, "message", k->message != NULL);
		required_opt(c, "reason", k->reason != NULL);
		required_opt(c, "status", k->status != NULL);
		required_opt(c, "type", k->type != NULL);
		kp__v_pop(c, mi);
	}
	/* x-kubernetes-list-type: map, keyed by type: each key's second
	 * occurrence is a duplicate (a missing key is a key too). */
	const kp_validation_rule *lt = KP__V_FIND(c, sget(&c->spath), "x-kubernetes-list-type");
	for (size_t i = 1; lt && i < n; i++) {
		const char *t = conds[i]->type;
		size_t seen = 0;
		for (size_t j = 0; j < i; j++) {
			const char *u = conds[j]->type;
			if ((!t && !u) || (t && u && !strcmp(t, u)))
				seen++;
		}
		if (seen != 1)
			continue;
		char *q = t ? kp__v_quote(c, t) : NULL;
		char *v = t ? (q ? kp__v_printf(c, "{\"type\":%s}", q) : NULL) : kp__v_printf(c, "{}");
		char *msg = v ? kp__v_printf(c, "Duplicate value: %s", v) : NULL;
		char suffix[32];
		snprintf(suffix, sizeof(suffix), "[%zu]", i);
		if (msg)
			kp__v_report(c, KP__VP_LIST_TYPE, KP_FIELD_ERROR_DUPLICATE, lt, suffix, msg, "");
		kp__free(q);
		kp__free(v);
		kp__free(msg);
	}
	kp__v_pop(c, m);
}

/* ------------------------------------------------------------------------ */
/* NodePool                                                                 */

static void v_budgets(kp__vctx *c, kp_budget *const *budgets, size_t n)
{
	if (!budgets)
		return;
	kp__vmark m = kp__v_push(c, "budgets");
	/* self.all(x, has(x.schedule) == has(x.duration)) */
	int ok = KP__CEL_TRUE;
	for (size_t i = 0; i < n; i++) {
		const kp_budget *b = budgets[i];
		int has_duration = b->duration.text != NULL || b->duration.parsed;
		if ((b->schedule != NULL) != has_duration)
			ok = KP__CEL_FALSE;
	}
	kp__v_cel(c, NULL, 0, ok, "array", NULL, NULL);
	for (size_t i = 0; i < n; i++) {
		const kp_budget *b = budgets[i];
		kp__vmark mi = kp__v_push_index(c, i);
		v_duration(c, "duration", &b->duration, 0);
		v_string_field(c, "nodes", b->nodes);
		if (b->reasons) {
			kp__vmark mr = kp__v_push(c, "reasons");
			for (size_t j = 0; j < b->n_reasons; j++) {
				kp__vmark mj = kp__v_push_index(c, j);
				kp__v_string(c, b->reasons[j] ? b->reasons[j] : "");
				kp__v_pop(c, mj);
			}
			kp__v_items(c, b->n_reasons);
			/* x-kubernetes-list-type: set */
			const kp_validation_rule *lt = kp__v_rule(c, NULL, "x-kubernetes-list-type");
			for (size_t j = 1; lt && j < b->n_reasons; j++) {
				const char *x = b->reasons[j] ? b->reasons[j] : "";
				size_t seen = 0;
				for (size_t k = 0; k < j; k++)
					seen += !strcmp(b->reasons[k] ? b->reasons[k] : "", x);
				if (seen != 1)
					continue;
				char *q = kp__v_quote(c, x);
				char *msg = q ? kp__v_printf(c, "Duplicate value: %s", q) : NULL;
				char suffix[32];
				snprintf(suffix, sizeof(suffix), "[%zu]", j);
				if (msg)
					kp__v_report(c, KP__VP_LIST_TYPE, KP_FIELD_ERROR_DUPLICATE, lt, suffix, msg,
						     "");
				kp__free(q);
				kp__free(msg);
			}
			kp__v_pop(c, mr);
		}
		v_string_field(c, "schedule", b->schedule);
		kp__v_required(c, "nodes", b->nodes != NULL);
		kp__v_pop(c, mi);
	}
	kp__v_items(c, n);
	kp__v_pop(c, m);
}

static void v_disruption(kp__vctx *c, const kp_disruption *d)
{
	if (!d)
		return;
	kp__vmark m = kp__v_push(c, "disruption");
	v_budgets(c, d->budgets, d->n_budgets);
	v_duration(c, "consolidateAfter", &d->consolidate_after, 1);
	const char *policy = d->consolidation_policy;
	static const char *const policies[] = { NULL, "WhenEmpty", "WhenEmptyOrUnderutilized",
						"Balanced" };
	if (!policy && d->consolidation_policy_code >= 1 && d->consolidation_policy_code <= 3)
		policy = policies[d->consolidation_policy_code];
	v_string_field(c, "consolidationPolicy", policy);
	kp__v_pop(c, m);
}

static void v_labels(kp__vctx *c, const kp_labels *labels)
{
	if (!labels->items)
		return;
	kp__vmark m = kp__v_push(c, "labels");
	kp__v_props(c, labels->count);
	/* self.all(x, x in [capacity-type, nodepool] || !x.find("^([^/]+)").endsWith("karpenter.sh")) */
	int r0 = KP__CEL_TRUE, r1 = KP__CEL_TRUE, r2 = KP__CEL_TRUE;
	for (size_t i = 0; i < labels->count; i++) {
		const char *k = labels->items[i].key ? labels->items[i].key : "";
		if (strcmp(k, KP_LABEL_CAPACITY_TYPE) && strcmp(k, KP_LABEL_NODEPOOL) &&
		    domain_ends_with_karpenter(k))
			r0 = KP__CEL_FALSE;
		if (!strcmp(k, KP_LABEL_NODEPOOL))
			r1 = KP__CEL_FALSE;
		if (!strcmp(k, KP_LABEL_HOSTNAME))
			r2 = KP__CEL_FALSE;
	}
	kp__v_cel(c, NULL, 0, r0, "object", NULL, NULL);
	kp__v_cel(c, NULL, 1, r1, "object", NULL, NULL);
	kp__v_cel(c, NULL, 2, r2, "object", NULL, NULL);
	for (size_t i = 0; i < labels->count; i++) {
		kp__vmark mk = kp__v_push_key(c, labels->items[i].key);
		kp__v_string(c, labels->items[i].value ? labels->items[i].value : "");
		kp__v_pop(c, mk);
	}
	kp__v_pop(c, m);
}

/* ---- NodePool.RuntimeValidate ------------------------------------------ */

static const char supported_ops[] = "[In NotIn Exists DoesNotExist Gt Lt Gte Lte]";

static char *restricted_message(kp__vctx *c, const char *key)
{
	size_t n = kp_wellknown_restricted_message(c->wk, key, NULL, 0);
	char *s = kp__malloc(n + 1);
	if (!s) {
		if (!c->failed)
			c->failed = KP_ENOMEM;
		return NULL;
	}
	kp_wellknown_restricted_message(c->wk, key, s, n + 1);
	return s;
}

static void runtime_labels(kp__vctx *c, const kp_labels *labels)
{
	for (size_t i = 0; labels->items && i < labels->count; i++) {
		const char *key = labels->items[i].key ? labels->items[i].key : "";
		const char *value = labels->items[i].value ? labels->items[i].value : "";
		char *qk = kp__v_quote(c, key);
		if (!qk)
			return;
		if (!strcmp(key, KP_LABEL_NODEPOOL)) {
			char *msg = kp__v_printf(c, "invalid key name %s in labels, restricted", qk);
			report_runtime(c, NULL, "runtime-nodepool-label", msg);
			kp__free(msg);
		}
		const char *probs[KP_LABEL_MAX_PROBLEMS];
		size_t n = kp_label_key_problems(key, probs, KP_LABEL_MAX_PROBLEMS);
		for (size_t j = 0; j < n && j < KP_LABEL_MAX_PROBLEMS; j++) {
			char *qp = kp__v_quote(c, probs[j]);
			char *msg = qp ? kp__v_printf(c, "invalid key name %s in labels, %s", qk, qp) : NULL;
			report_runtime(c, NULL, "runtime-key-qualified-name", msg);
			kp__free(qp);
			kp__free(msg);
		}
		n = kp_label_value_problems(value, probs, KP_LABEL_MAX_PROBLEMS);
		for (size_t j = 0; j < n && j < KP_LABEL_MAX_PROBLEMS; j++) {
			char *msg = kp__v_printf(c, "invalid value: %s for label[%s], %s", value, key, probs[j]);
			report_runtime(c, NULL, "runtime-value", msg);
			kp__free(msg);
		}
		if (kp_wellknown_check_restricted(c->wk, key, NULL) != KP_OK) {
			char *rm = restricted_message(c, key);
			char *msg = rm ? kp__v_printf(c, "invalid key name %s in labels, %s", qk, rm) : NULL;
			report_runtime(c, NULL, "runtime-restricted", msg);
			kp__free(rm);
			kp__free(msg);
		}
		kp__free(qk);
	}
}

typedef struct taint_seen {
	const char **keys;
	uint32_t *effects;
	size_t n;
	size_t cap_keys;
	size_t cap_effects;
} taint_seen;

static void runtime_taints(kp__vctx *c, const char *field, const kp_taint *taints, size_t n,
			   taint_seen *seen)
{
	msglist errs = { NULL, 0, 0 };
	kp__vmark m = kp__v_push(c, field);
	for (size_t i = 0; taints && i < n; i++) {
		const kp_taint *t = &taints[i];
		const char *key = t->key ? t->key : "";
		char suffix[32];
		snprintf(suffix, sizeof(suffix), "[%zu]", i);
		if (!*key) {
			/* fmt.Errorf("invalid value: %w in %s", errs, fieldName) with the
			 * errors gathered so far for this field */
			char *prev = errs.n ? ml_join(c, &errs, "; ") : kp__v_printf(c, "%%!w(<nil>)");
			char *msg = prev ? kp__v_printf(c, "invalid value: %s in %s", prev, field) : NULL;
			kp__free(prev);
			if (msg) {
				const kp_validation_rule *r = kp__v_rule(c, "[*]", "runtime-empty-key");
				if (r)
					kp__v_report(c, KP__VP_RUNTIME, KP_FIELD_ERROR_RUNTIME, r, suffix, msg, msg);
				ml_add(c, &errs, msg);
			}
		}
		const char *probs[KP_LABEL_MAX_PROBLEMS];
		size_t np = kp_label_key_problems(key, probs, KP_LABEL_MAX_PROBLEMS);
		for (size_t j = 0; j < np && j < KP_LABEL_MAX_PROBLEMS; j++) {
			char *msg = kp__v_printf(c, "invalid value: %s in %s", probs[j], field);
			const kp_validation_rule *r = kp__v_rule(c, "[*]", "runtime-key-qualified-name");
			if (msg && r)
				kp__v_report(c, KP__VP_RUNTIME, KP_FIELD_ERROR_RUNTIME, r, suffix, msg, msg);
			ml_add(c, &errs, msg);
		}
		if (t->value && *t->value) {
			np = kp_label_key_problems(t->value, probs, KP_LABEL_MAX_PROBLEMS);
			for (size_t j = 0; j < np && j < KP_LABEL_MAX_PROBLEMS; j++) {
				char *msg = kp__v_printf(c, "invalid value: %s in %s", probs[j], field);
				const kp_validation_rule *r = kp__v_rule(c, "[*]", "runtime-value-qualified-name");
				if (msg && r)
					kp__v_report(c, KP__VP_RUNTIME, KP_FIELD_ERROR_RUNTIME, r, suffix, msg, msg);
				ml_add(c, &errs, msg);
			}
		}
		const char *effect = effect_name(t->effect);
		char num[16]; /* outlives the block: effect may point here below */
		if (!effect) {
			snprintf(num, sizeof(num), "%u", t->effect);
			char *q = kp__v_quote(c, num);
			char *msg = q ? kp__v_printf(c, "invalid value: %s in %s", q, field) : NULL;
			const kp_validation_rule *r = kp__v_rule(c, "[*]", "runtime-effect");
			if (msg && r)
				kp__v_report(c, KP__VP_RUNTIME, KP_FIELD_ERROR_RUNTIME, r, suffix, msg, msg);
			kp__free(q);
			ml_add(c, &errs, msg);
			effect = num;
		}
		int dup = 0;
		for (size_t k = 0; k < seen->n; k++)
			if (seen->effects[k] == t->effect && !strcmp(seen->keys[k], key))
				dup = 1;
		if (dup) {
			char *msg = kp__v_printf(c, "duplicate taint Key/Effect pair %s=%s", key, effect);
			const kp_validation_rule *r = kp__v_rule(c, "[*]", "runtime-duplicate");
			if (msg && r)
				kp__v_report(c, KP__VP_RUNTIME, KP_FIELD_ERROR_RUNTIME, r, suffix, msg, msg);
			ml_add(c, &errs, msg);
		} else if (!kp__grow((void **)&seen->keys, &seen->cap_keys, seen->n + 1, sizeof(char *)) &&
			   !kp__grow((void **)&seen->effects, &seen->cap_effects, seen->n + 1,
				     sizeof(uint32_t))) {
			seen->keys[seen->n] = key;
			seen->effects[seen->n] = t->effect;
			seen->n++;
		} else if (!c->failed) {
			c->failed = KP_ENOMEM;
		}
	}
	kp__v_pop(c, m);
	ml_free(&errs);
}

/* ValidateRequirement: every problem of one requirement, joined. */
static char *runtime_requirement(kp__vctx *c, const kp_nodeclaim_requirement *r)
{
	msglist l = { NULL, 0, 0 };
	const char *key = kp_wellknown_normalize_key(c->wk, r->key ? r->key : "");
	const char *op = op_text(r);
	if (!op)
		op = "";
	int gt_like = !strcmp(op, "Gt") || !strcmp(op, "Lt") || !strcmp(op, "Gte") || !strcmp(op, "Lte");
	int is_in = !strcmp(op, "In");
	if (!is_in && !gt_like && strcmp(op, "NotIn") && strcmp(op, "Exists") &&
	    strcmp(op, "DoesNotExist"))
		ml_add(c, &l, kp__v_printf(c, "key %s has an unsupported operator %s not in %s", key, op,
					   supported_ops));
	if (kp_wellknown_check_restricted(c->wk, key, NULL) != KP_OK)
		ml_add(c, &l, restricted_message(c, key));
	/* validateWellKnownValues: capacity-type has known values */
	if (is_in && kp_wellknown_has(c->wk, key) && !strcmp(key, KP_LABEL_CAPACITY_TYPE)) {
		static const char *const known[] = { KP_CAPACITY_TYPE_ON_DEMAND, KP_CAPACITY_TYPE_RESERVED,
						     KP_CAPACITY_TYPE_SPOT };
		size_t valid = 0;
		const char **invalid = kp__calloc(r->n_values ? r->n_values : 1, sizeof(char *));
		size_t n_invalid = 0;
		if (!invalid) {
			if (!c->failed)
				c->failed = KP_ENOMEM;
		} else {
			for (size_t i = 0; r->values && i < r->n_values; i++) {
				const char *v = r->values[i] ? r->values[i] : "";
				int k = !strcmp(v, known[0]) || !strcmp(v, known[1]) || !strcmp(v, known[2]);
				if (k)
					valid++;
				else
					invalid[n_invalid++] = v;
			}
			char *all = go_slice(c, r->values, r->values ? r->n_values : 0);
			if (valid == 0) {
				char *inv = go_slice(c, invalid, n_invalid);
				if (all && inv)
					ml_add(c, &l, kp__v_printf(c,
						"no valid values found in %s for %s, expected one of: "
						"map[on-demand:{} reserved:{} spot:{}], got: %s", all, key, inv));
				kp__free(inv);
			} else if (r->has_min_values && (int64_t)valid < r->min_values) {
				if (all)
					ml_add(c, &l, kp__v_printf(c,
						"not enough valid values found in %s for %s, expected at least "
						"%lld valid values from: [on-demand reserved spot], got: %zu",
						all, key, (long long)r->min_values, valid));
			}
			kp__free(all);
			kp__free(invalid);
		}
	}
	const char *probs[KP_LABEL_MAX_PROBLEMS];
	size_t np = kp_label_key_problems(key, probs, KP_LABEL_MAX_PROBLEMS);
	for (size_t j = 0; j < np && j < KP_LABEL_MAX_PROBLEMS; j++)
		ml_add(c, &l, kp__v_printf(c, "key %s is not a qualified name, %s", key, probs[j]));
	for (size_t i = 0; r->values && i < r->n_values; i++) {
		const char *v = r->values[i] ? r->values[i] : "";
		np = kp_label_value_problems(v, probs, KP_LABEL_MAX_PROBLEMS);
		for (size_t j = 0; j < np && j < KP_LABEL_MAX_PROBLEMS; j++)
			ml_add(c, &l, kp__v_printf(c, "invalid value %s for key %s, %s", v, key, probs[j]));
	}
	size_t nv = r->values ? r->n_values : 0;
	if (is_in && nv == 0)
		ml_add(c, &l, kp__v_printf(c, "key %s with operator %s must have a value defined", key, op));
	if (is_in && r->has_min_values && (int64_t)nv < r->min_values)
		ml_add(c, &l, kp__v_printf(c,
			"key %s with operator %s must have at least minimum number of values defined in "
			"'values' field", key, op));
	if (gt_like) {
		int64_t v = 0;
		if (nv != 1 || parse_int64(r->values[0] ? r->values[0] : "", &v) || v < 0)
			ml_add(c, &l, kp__v_printf(c,
				"key %s with operator %s must have a single positive integer value", key, op));
	}
	char *joined = NULL;
	if (l.n && !c->failed) {
		char *j = ml_join(c, &l, "; ");
		joined = j ? kp__v_printf(c, "invalid value: %s in requirements, restricted", j) : NULL;
		kp__free(j);
	}
	ml_free(&l);
	return joined;
}

static void runtime_nodepool(kp__vctx *c, const kp_nodepool *np)
{
	const kp_nodeclaim_template *t = np->spec ? np->spec->template_ : NULL;
	if (!t)
		return;
	kp__vmark m0 = kp__v_push(c, "spec");
	kp__vmark m1 = kp__v_push(c, "template");
	if (t->metadata) {
		kp__vmark m = kp__v_push(c, "metadata");
		kp__vmark ml = kp__v_push(c, "labels");
		runtime_labels(c, &t->metadata->labels);
		kp__v_pop(c, ml);
		kp__v_pop(c, m);
	}
	const kp_nodeclaim_spec *s = t->spec;
	if (s) {
		kp__vmark m = kp__v_push(c, "spec");
		taint_seen seen = { NULL, NULL, 0, 0, 0 };
		runtime_taints(c, "taints", s->taints, s->n_taints, &seen);
		runtime_taints(c, "startupTaints", s->startup_taints, s->n_startup_taints, &seen);
		kp__free(seen.keys);
		kp__free(seen.effects);
		if (s->requirements) {
			kp__vmark mr = kp__v_push(c, "requirements");
			for (size_t i = 0; i < s->n_requirements; i++) {
				char *msg = runtime_requirement(c, s->requirements[i]);
				char suffix[32];
				snprintf(suffix, sizeof(suffix), "[%zu]", i);
				if (msg) {
					const kp_validation_rule *r = kp__v_rule(c, "[*]", "runtime-requirement");
					if (r)
						kp__v_report(c, KP__VP_RUNTIME, KP_FIELD_ERROR_RUNTIME, r, suffix, msg,
							     msg);
				}
				kp__free(msg);
			}
			for (size_t i = 0; i < s->n_requirements; i++) {
				const char *key = s->requirements[i]->key;
				if (!key || strcmp(key, KP_LABEL_NODEPOOL))
					continue;
				char *q = kp__v_quote(c, key);
				char *msg = q ? kp__v_printf(c, "invalid key: %s in requirements, restricted", q)
					      : NULL;
				char suffix[48];
				snprintf(suffix, sizeof(suffix), "[%zu].key", i);
				const kp_validation_rule *r = kp__v_rule(c, "[*].key", "runtime-nodepool-key");
				if (msg && r)
					kp__v_report(c, KP__VP_RUNTIME, KP_FIELD_ERROR_RUNTIME, r, suffix, msg, msg);
				kp__free(q);
				kp__free(msg);
			}
			kp__v_pop(c, mr);
		}
		kp__v_pop(c, m);
	}
	kp__v_pop(c, m1);
	kp__v_pop(c, m0);
}

/* Each budget schedule should parse as a cron: the CRD's pattern accepts
 * some that robfig/cron refuses ("0 9 * * fri-mon"), and the API server
 * stores them; upstream's disruption controller then fails closed for that
 * NodePool (no disruption for any reason). So this is a warning, not an
 * error: the object is valid, as stored; `disrupt` fails closed as
 * upstream. The cron module's message names the bad field. */
static void runtime_budget_crons(kp__vctx *c, const kp_disruption *d)
{
	if (!d || !d->budgets)
		return;
	kp__vmark m0 = kp__v_push(c, "spec");
	kp__vmark m1 = kp__v_push(c, "disruption");
	kp__vmark m2 = kp__v_push(c, "budgets");
	for (size_t i = 0; i < d->n_budgets; i++) {
		const char *s = d->budgets[i]->schedule;
		if (!s)
			continue;
		kp_cron *cron = NULL;
		kp_error e;
		memset(&e, 0, sizeof(e));
		int rc = kp_cron_parse(&cron, s, 0, &e);
		kp_cron_free(cron);
		if (rc == KP_ENOMEM) {
			if (!c->failed)
				c->failed = KP_ENOMEM;
			break;
		}
		if (rc == KP_OK)
			continue;
		kp__vmark mi = kp__v_push_index(c, i);
		kp__vmark ms = kp__v_push(c, "schedule");
		const kp_validation_rule *r = kp__v_rule(c, NULL, "cron");
		char *q = kp__v_quote(c, s);
		char *msg = q ? kp__v_printf(c, "Invalid value: %s: %s", q, e.message) : NULL;
		if (msg && r)
			kp__v_report(c, KP__VP_WARNING, KP_FIELD_ERROR_INVALID, r, NULL, msg, e.message);
		kp__free(q);
		kp__free(msg);
		kp__v_pop(c, ms);
		kp__v_pop(c, mi);
	}
	kp__v_pop(c, m2);
	kp__v_pop(c, m1);
	kp__v_pop(c, m0);
}

/* ---- the NodePool walk ------------------------------------------------- */

static void scale_check(kp__vctx *c, const char *field, const char *keyword, int64_t v)
{
	const char *detail = NULL;
	char buf[64];
	if (v < 0) {
		detail = "should be a non-negative integer";
	} else if (v > INT32_MAX) {
		snprintf(buf, sizeof(buf), "should be less than or equal to %d", INT32_MAX);
		detail = buf;
	}
	if (!detail)
		return;
	const kp_validation_rule *r = kp__v_rule(c, NULL, keyword);
	char *msg = kp__v_printf(c, "Invalid value: %lld: %s", (long long)v, detail);
	/* the API server names the field with the CRD's path, leading dot included */
	if (msg && r)
		kp__v_report_at(c, KP__VP_SCALE, KP_FIELD_ERROR_INVALID, r, field, msg, detail);
	kp__free(msg);
}

void kp__v_nodepool(kp__vctx *c, const kp_nodepool *np, const kp_nodepool *old)
{
	const kp_nodepool_spec *s = np->spec;
	const kp_nodepool_spec *os = old ? old->spec : NULL;
	if (s) {
		kp__vmark m = kp__v_push(c, "spec");
		/* x-kubernetes-validations on spec */
		if (os)
			kp__v_cel(c, NULL, 0, s->has_replicas == os->has_replicas ? KP__CEL_TRUE : KP__CEL_FALSE,
				  "object", NULL, NULL);
		int has_limits = s->limits.items != NULL;
		int nodes_only = !has_limits || s->limits.count == 0 ||
				 (s->limits.count == 1 && s->limits.items[0].name &&
				  !strcmp(s->limits.items[0].name, "nodes"));
		kp__v_cel(c, NULL, 1, !s->has_replicas || nodes_only ? KP__CEL_TRUE : KP__CEL_FALSE,
			  "object", NULL, NULL);
		kp__v_cel(c, NULL, 2, !s->has_replicas || !s->has_weight ? KP__CEL_TRUE : KP__CEL_FALSE,
			  "object", NULL, NULL);

		v_disruption(c, s->disruption);
		/* limits: quantities, enforced by decoding */
		if (s->has_replicas) {
			kp__vmark mr = kp__v_push(c, "replicas");
			kp__v_int(c, s->replicas);
			scale_check(c, ".spec.replicas", "scale.specReplicasPath", s->replicas);
			kp__v_pop(c, mr);
		}
		const kp_nodeclaim_template *t = s->template_;
		const kp_nodeclaim_template *ot = os ? os->template_ : NULL;
		if (t) {
			kp__vmark mt = kp__v_push(c, "template");
			if (t->metadata) {
				kp__vmark mm = kp__v_push(c, "metadata");
				v_labels(c, &t->metadata->labels);
				kp__v_pop(c, mm);
			}
			if (t->spec) {
				kp__vmark ms = kp__v_push(c, "spec");
				v_claim_spec(c, t->spec, ot ? ot->spec : NULL);
				kp__v_pop(c, ms);
			}
			kp__v_required(c, "spec", t->spec != NULL);
			kp__v_pop(c, mt);
		}
		if (s->has_weight) {
			kp__vmark mw = kp__v_push(c, "weight");
			kp__v_int(c, s->weight);
			kp__v_pop(c, mw);
		}
		kp__v_required(c, "template", t != NULL);
		kp__v_pop(c, m);
	}
	if (np->status && !(c->flags & KP_VALIDATE_NO_STATUS)) {
		kp__vmark m = kp__v_push(c, "status");
		v_conditions(c, np->status->conditions, np->status->n_conditions);
		if (np->status->has_nodes) {
			kp__vmark mn = kp__v_push(c, "nodes");
			scale_check(c, ".status.nodes", "scale.statusReplicasPath", np->status->nodes);
			kp__v_pop(c, mn);
		}
		kp__v_pop(c, m);
	}
	kp__v_required(c, "spec", s != NULL);
	if (!(c->flags & KP_VALIDATE_NO_RUNTIME)) {
		runtime_nodepool(c, np);
		runtime_budget_crons(c, s ? s->disruption : NULL);
	}
}

/* ------------------------------------------------------------------------ */
/* NodeClaim                                                                */

void kp__v_nodeclaim(kp__vctx *c, const kp_nodeclaim *nc, const kp_nodeclaim *old)
{
	const kp_nodeclaim_spec *s = nc->spec;
	if (s) {
		kp__vmark m = kp__v_push(c, "spec");
		if (old && old->spec) {
			/* self == oldSelf, as deep equality of the two specs */
			kp_nodeclaim a = KP_NODECLAIM_INIT, b = KP_NODECLAIM_INIT;
			a.spec = (kp_nodeclaim_spec *)(uintptr_t)s;
			b.spec = old->spec;
			int eq = kp__schema_equal(&kp__type_nodeclaim, &a, &b);
			kp__v_cel(c, NULL, 0, eq ? KP__CEL_TRUE : KP__CEL_FALSE, "object", NULL, NULL);
		}
		v_claim_spec(c, s, NULL);
		kp__v_pop(c, m);
	}
	if (nc->status && !(c->flags & KP_VALIDATE_NO_STATUS)) {
		kp__vmark m = kp__v_push(c, "status");
		/* allocatable, capacity: quantities; lastPodEventTime: date-time;
		 * all enforced by decoding */
		v_conditions(c, nc->status->conditions, nc->status->n_conditions);
		kp__v_pop(c, m);
	}
	kp__v_required(c, "spec", s != NULL);
}

/* ------------------------------------------------------------------------ */
/* The kinds' walks and kp_validate                                         */

static void walk_nodepool(kp__vctx *c, const void *obj, const void *old)
{
	kp__v_nodepool(c, obj, old);
}

static void walk_nodeclaim(kp__vctx *c, const void *obj, const void *old)
{
	kp__v_nodeclaim(c, obj, old);
}

static const struct {
	uint32_t kind;
	kp__v_walk walk;
} walks[] = {
	{ KP_KIND_NODEPOOL, walk_nodepool },
	{ KP_KIND_NODECLAIM, walk_nodeclaim },
};

/* ------------------------------------------------------------------------ */
/* Registered kinds (karpenter/sys/schema.h): metadata, then the kind's own  */
/* validate callback, whose problems arrive through a sink.                 */

#define SINK_DEPTH 32

struct kp_validation_sink {
	kp__vctx *c;
	kp__vmark marks[SINK_DEPTH];
	size_t depth;
};

static int sink_status(const kp_validation_sink *sink)
{
	return sink->c->failed == KP_ENOMEM ? KP_ENOMEM : KP_OK;
}

KP_EXPORT int kp_validation_sink_push(kp_validation_sink *sink, const char *name)
{
	if (!sink || !name)
		return KP_EINVAL;
	if (sink->depth >= SINK_DEPTH)
		return KP_ERANGE;
	sink->marks[sink->depth++] = kp__v_push(sink->c, name);
	return sink_status(sink);
}

KP_EXPORT void kp_validation_sink_pop(kp_validation_sink *sink)
{
	if (sink && sink->depth)
		kp__v_pop(sink->c, sink->marks[--sink->depth]);
}

KP_EXPORT uint32_t kp_validation_sink_flags(const kp_validation_sink *sink)
{
	return sink ? sink->c->flags : 0;
}

KP_EXPORT int kp_validation_sink_duration(kp_validation_sink *sink, const char *name,
					  const kp_api_duration *duration, uint32_t nillable)
{
	if (!sink || !name || !duration)
		return KP_EINVAL;
	v_duration(sink->c, name, duration, nillable ? 1 : 0);
	return sink_status(sink);
}

KP_EXPORT int kp_validation_sink_conditions(kp_validation_sink *sink,
					    kp_condition *const *conditions, size_t n_conditions)
{
	if (!sink || (!conditions && n_conditions))
		return KP_EINVAL;
	v_conditions(sink->c, conditions, n_conditions);
	return sink_status(sink);
}

static const kp_validation_rule provider_rule = {
	sizeof(kp_validation_rule), KP_KIND_UNKNOWN, KP_RULE_SOURCE_RUNTIME, 0, "provider", "", "",
	"", ""
};

KP_EXPORT int kp_validation_sink_add(kp_validation_sink *sink, const char *field,
				     const char *message)
{
	if (!sink || !field || !message)
		return KP_EINVAL;
	kp__v_report_at(sink->c, KP__VP_RUNTIME, KP_FIELD_ERROR_RUNTIME, &provider_rule, field,
			message, "");
	return sink->c->failed == KP_ENOMEM ? KP_ENOMEM : KP_OK;
}

KP_EXPORT int kp_validation_sink_push_index(kp_validation_sink *sink, size_t index)
{
	if (!sink)
		return KP_EINVAL;
	if (sink->depth >= SINK_DEPTH)
		return KP_ERANGE;
	sink->marks[sink->depth++] = kp__v_push_index(sink->c, index);
	return sink_status(sink);
}

KP_EXPORT int kp_validation_sink_push_key(kp_validation_sink *sink, const char *key)
{
	if (!sink || !key)
		return KP_EINVAL;
	if (sink->depth >= SINK_DEPTH)
		return KP_ERANGE;
	sink->marks[sink->depth++] = kp__v_push_key(sink->c, key);
	return sink_status(sink);
}

/* KP_EINVAL when the check found its inventory row missing (the caller's
 * walk and rules disagree), else the sink's status. */
static int sink_checked(kp_validation_sink *sink)
{
	return sink->c->failed == KP_EINVAL ? KP_EINVAL : sink_status(sink);
}

KP_EXPORT int kp_validation_sink_string(kp_validation_sink *sink, const char *value)
{
	if (!sink)
		return KP_EINVAL;
	if (value)
		kp__v_string(sink->c, value);
	return sink_checked(sink);
}

KP_EXPORT int kp_validation_sink_int(kp_validation_sink *sink, int64_t value)
{
	if (!sink)
		return KP_EINVAL;
	kp__v_int(sink->c, value);
	return sink_checked(sink);
}

KP_EXPORT int kp_validation_sink_items(kp_validation_sink *sink, size_t n)
{
	if (!sink)
		return KP_EINVAL;
	kp__v_items(sink->c, n);
	return sink_checked(sink);
}

KP_EXPORT int kp_validation_sink_props(kp_validation_sink *sink, size_t n)
{
	if (!sink)
		return KP_EINVAL;
	kp__v_props(sink->c, n);
	return sink_checked(sink);
}

KP_EXPORT int kp_validation_sink_required(kp_validation_sink *sink, const char *name,
					  uint32_t present)
{
	if (!sink || !name)
		return KP_EINVAL;
	kp__v_required(sink->c, name, present != 0);
	return sink_checked(sink);
}

KP_EXPORT int kp_validation_sink_cel(kp_validation_sink *sink, uint32_t index, uint32_t result,
				     const char *type_name, const char *value,
				     const char *eval_error)
{
	if (!sink || result > KP_CEL_ERROR || index > INT32_MAX)
		return KP_EINVAL;
	static const int results[] = { KP__CEL_TRUE, KP__CEL_FALSE, KP__CEL_ERROR };
	kp__v_cel(sink->c, NULL, (int)index, results[result], type_name ? type_name : "object",
		  value, eval_error);
	return sink_checked(sink);
}

/* Run one validate callback (a registered kind's or a validator's) on a
 * fresh sink at the object's root. */
static void run_callback(kp__vctx *c, int (*validate)(void *, const void *, const void *,
						      kp_validation_sink *, kp_error *),
			 void *self, const void *obj, const void *old)
{
	kp_validation_sink sink;
	memset(&sink, 0, sizeof(sink));
	sink.c = c;
	kp_error e;
	memset(&e, 0, sizeof(e));
	int rc = validate(self, obj, old, &sink, &e);
	while (sink.depth)
		kp_validation_sink_pop(&sink);
	if (rc == KP_ENOMEM && !c->failed)
		c->failed = KP_ENOMEM;
	else if (rc && !c->failed)
		kp__v_report_at(c, KP__VP_RUNTIME, KP_FIELD_ERROR_RUNTIME, &provider_rule,
				e.field, e.message, "");
}

static void walk_registered(kp__vctx *c, const void *obj, const void *old)
{
	const kp__reg_kind *k = c->reg_kind;
	if (k && k->ops.validate)
		run_callback(c, k->ops.validate, k->self, obj, old);
}

/* The validators added to c->kind (kp_registry_add_validator), in order of
 * registration. */
static void run_validators(kp__vctx *c, const void *obj, const void *old)
{
	const kp__kind_info *own = c->info;
	const kp__reg_validator *v;
	for (size_t i = 0; !c->failed && (v = kp__registry_validator(c->reg, c->kind, i)); i++) {
		c->info = &v->info; /* the sink's checks find the validator's rules */
		run_callback(c, v->ops.validate, v->self, obj, old);
	}
	c->info = own;
}

/* The kind's own walk: a core kind's, or a registered kind's callback. */
static kp__v_walk own_walk(uint32_t kind)
{
	if (kind >= KP_KIND_FIRST_REGISTERED)
		return walk_registered;
	for (size_t i = 0; i < sizeof(walks) / sizeof(walks[0]); i++)
		if (walks[i].kind == kind)
			return walks[i].walk;
	return NULL;
}

/* The owner's rules, then the added ones. */
static void walk_all(kp__vctx *c, const void *obj, const void *old)
{
	own_walk(c->kind)(c, obj, old);
	run_validators(c, obj, old);
}

KP_EXPORT int kp_validate(kp_validation **out, uint32_t kind, const void *object,
			  const void *old_object, const kp_validate_options *opts, kp_error *err)
{
	return kp__validate_walk(out, kind, object, old_object, opts,
				 own_walk(kind) ? walk_all : NULL, err);
}
