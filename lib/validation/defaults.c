/*
 * CRD defaults of Karpenter's kinds, as the API server's structural
 * defaulting applies them: a `default:` fills an absent field whose parent
 * object is present, and the defaults nested under a defaulted object then
 * apply to it as well.
 *
 * The defaults, by CRD path (core main CRDs in ../shared/data/crds):
 *   karpenter.sh_nodepools.yaml
 *     spec.disruption                      {consolidateAfter: 0s}
 *     spec.disruption.budgets              [{nodes: 10%}]
 *     spec.disruption.budgets[*].nodes     10%
 *     spec.disruption.consolidateAfter     0s
 *     spec.disruption.consolidationPolicy  WhenEmptyOrUnderutilized
 *     spec.template.spec.expireAfter       720h
 *     status.nodes                         0
 *   karpenter.sh_nodeclaims.yaml
 *     spec.expireAfter                     720h
 * (KWOKNodeClass's defaults: libkarpenter-kwok, through its registration.)
 * (terminationGracePeriod has no default: absent means "wait forever".)
 *
 * Every allocation is made before anything is attached, so a failure leaves
 * the object unchanged.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include <karpenter/validation.h>

#include "kp_internal.h"
#include "schema/registry.h"

#define NS_PER_HOUR ((int64_t)3600 * 1000000000)


static int duration_absent(const kp_api_duration *d)
{
	return d->text == NULL && !d->parsed;
}

static void set_duration(kp_api_duration *d, char *text, int64_t ns)
{
	d->text = text;
	d->ns = ns;
	d->never = 0;
	d->parsed = 1;
}

/* Defaults are applied to library-owned objects only (validation.h), which
 * always have this library's size: anything else is refused, never
 * written to. */
static int check(const void *s, size_t size, const char *name, kp_error *err)
{
	if (!s)
		return KP_OK;
	return kp__check_struct_size(s, size, size, name, err);
}

KP_EXPORT int kp_nodepool_default(kp_nodepool *np, kp_error *err)
{
	if (!np)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	int rc = check(np, sizeof(*np), "kp_nodepool", err);
	kp_nodepool_spec *s = rc ? NULL : np->spec;
	if (!rc)
		rc = check(s, sizeof(*s), "kp_nodepool_spec", err);
	kp_disruption *d = s && !rc ? s->disruption : NULL;
	if (!rc)
		rc = check(d, sizeof(*d), "kp_disruption", err);
	for (size_t i = 0; !rc && d && d->budgets && i < d->n_budgets; i++) {
		if (!d->budgets[i])
			return kp__error(err, KP_EINVAL, "spec.disruption.budgets", "NULL budget %zu", i);
		rc = check(d->budgets[i], sizeof(kp_budget), "kp_budget", err);
	}
	kp_nodeclaim_template *t = s && !rc ? s->template_ : NULL;
	if (!rc)
		rc = check(t, sizeof(*t), "kp_nodeclaim_template", err);
	kp_nodeclaim_spec *ts = t && !rc ? t->spec : NULL;
	if (!rc)
		rc = check(ts, sizeof(*ts), "kp_nodeclaim_spec", err);
	if (!rc)
		rc = check(np->status, sizeof(kp_nodepool_status), "kp_nodepool_status", err);
	if (rc)
		return rc;

	/* Plan: allocate everything first. */
	kp_disruption *new_d = NULL;
	char *ca = NULL, *policy = NULL, *expire = NULL, *budget_nodes = NULL;
	kp_budget **budgets = NULL;
	kp_budget *budget = NULL;
	char **nodes = NULL;
	size_t n_missing = 0;
	int oom = 0;

	if (s && !d) {
		new_d = kp__calloc(1, sizeof(*new_d));
		if (new_d)
			new_d->struct_size = sizeof(*new_d);
		oom |= !new_d;
	}
	const kp_disruption *dd = d ? d : new_d;
	if (dd && duration_absent(&dd->consolidate_after))
		oom |= !(ca = kp__strdup("0s"));
	if (dd && !dd->consolidation_policy && !dd->consolidation_policy_code)
		oom |= !(policy = kp__strdup("WhenEmptyOrUnderutilized"));
	if (dd && !dd->budgets) {
		budgets = kp__calloc(1, sizeof(*budgets));
		budget = kp__calloc(1, sizeof(*budget));
		budget_nodes = kp__strdup("10%");
		oom |= !budgets || !budget || !budget_nodes;
		if (budget)
			budget->struct_size = sizeof(*budget);
	} else if (dd) {
		for (size_t i = 0; i < dd->n_budgets; i++)
			n_missing += dd->budgets[i]->nodes == NULL;
		if (n_missing) {
			nodes = kp__calloc(n_missing, sizeof(*nodes));
			oom |= !nodes;
			for (size_t i = 0; nodes && i < n_missing; i++)
				oom |= !(nodes[i] = kp__strdup("10%"));
		}
	}
	if (ts && duration_absent(&ts->expire_after))
		oom |= !(expire = kp__strdup("720h"));
	if (oom) {
		kp__free(new_d);
		kp__free(ca);
		kp__free(policy);
		kp__free(expire);
		kp__free(budget_nodes);
		kp__free(budgets);
		kp__free(budget);
		for (size_t i = 0; nodes && i < n_missing; i++)
			kp__free(nodes[i]);
		kp__free(nodes);
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}

	/* Commit. */
	if (new_d)
		s->disruption = d = new_d;
	if (ca)
		set_duration(&d->consolidate_after, ca, 0);
	if (policy) {
		d->consolidation_policy = policy;
		d->consolidation_policy_code = KP_CONSOLIDATION_POLICY_WHEN_EMPTY_OR_UNDERUTILIZED;
	}
	if (budgets) {
		budget->nodes = budget_nodes;
		budgets[0] = budget;
		d->budgets = budgets;
		d->n_budgets = 1;
	}
	for (size_t i = 0, k = 0; nodes && i < d->n_budgets; i++)
		if (!d->budgets[i]->nodes)
			d->budgets[i]->nodes = nodes[k++];
	kp__free(nodes);
	if (expire)
		set_duration(&ts->expire_after, expire, 720 * NS_PER_HOUR);
	if (np->status && !np->status->has_nodes) {
		np->status->has_nodes = 1;
		np->status->nodes = 0;
	}
	return KP_OK;
}

KP_EXPORT int kp_nodeclaim_default(kp_nodeclaim *nc, kp_error *err)
{
	if (!nc)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	int rc = check(nc, sizeof(*nc), "kp_nodeclaim", err);
	if (!rc)
		rc = check(nc->spec, sizeof(kp_nodeclaim_spec), "kp_nodeclaim_spec", err);
	if (rc)
		return rc;
	if (nc->spec && duration_absent(&nc->spec->expire_after)) {
		char *text = kp__strdup("720h");
		if (!text)
			return kp__error(err, KP_ENOMEM, NULL, "out of memory");
		set_duration(&nc->spec->expire_after, text, 720 * NS_PER_HOUR);
	}
	return KP_OK;
}

KP_EXPORT int kp_object_default(uint32_t kind, void *object, kp_error *err)
{
	if (!object)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	switch (kind) {
	case KP_KIND_NODEPOOL:
		return kp_nodepool_default(object, err);
	case KP_KIND_NODECLAIM:
		return kp_nodeclaim_default(object, err);
	case KP_KIND_UNKNOWN:
		return kp__error(err, KP_EINVAL, "kind", "unknown kind");
	default:
		if (kp_kind_name(kind)[0] == '\0')
			return kp__error(err, KP_EINVAL, "kind", "unknown kind %u", kind);
		return KP_OK; /* no CRD defaults for core kinds */
	}
}

KP_EXPORT int kp_registry_object_default(const kp_registry *registry, uint32_t kind, void *object,
					 kp_error *err)
{
	if (kind < KP_KIND_FIRST_REGISTERED)
		return kp_object_default(kind, object, err);
	if (!object)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	const kp__reg_kind *k = kp__registry_kind(registry, kind);
	if (!k)
		return kp__error(err, KP_EINVAL, "kind", "unknown kind %u", (unsigned)kind);
	return k->ops.apply_defaults ? k->ops.apply_defaults(k->self, object, err) : KP_OK;
}
