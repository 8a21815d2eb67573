/*
 * libkarpenter: karpenter.sh NodePool and NodeClaim between v1beta1 and v1,
 * as kubernetes-sigs/karpenter v1.0.x pkg/apis/v1/nodepool_conversion.go
 * and nodeclaim_conversion.go convert them.
 *
 * v1beta1 -> v1 (ConvertFrom): disruption.expireAfter moves to
 * template.spec.expireAfter (NodePool) or comes from the NodeClaim's NodePool
 * ("Never" without one); consolidationPolicy WhenUnderutilized becomes
 * WhenEmptyOrUnderutilized with consolidateAfter 0s; nodeClassRef
 * {apiVersion, kind, name} becomes {group, kind, name} (an empty kind or
 * apiVersion takes the registry's first node class) and its v1beta1 form is
 * kept as JSON in the nodeclass-reference annotation; kubelet leaves the
 * spec for the kubelet-conversion annotation; a template's resources and
 * status fields v1 has no place for are dropped.
 *
 * v1 -> v1beta1 (ConvertTo) undoes it from the annotations, which are then
 * removed with karpenter.sh/stored-version-migrated.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdlib.h>
#include <string.h>

#include <karpenter/duration.h>

#include "convert/convert_private.h"

/* v1beta1 CRD defaults the rules read (karpenter.sh_nodepools.yaml). */
#define V1BETA1_POLICY_DEFAULT "WhenUnderutilized"
#define V1_POLICY_DEFAULT "WhenEmptyOrUnderutilized"
#define EXPIRE_DEFAULT "720h"

/* ---- Go's json.Marshal, for the annotations' exact text ---------------- */

/* A JSON string as Go writes it: kp__json_write_string plus Go's HTML
 * escaping of <, > and &. */
static void go_string(kp__buf *b, const char *s)
{
	kp__buf tmp = { NULL, 0, 0, 0 };
	kp__json_write_string(&tmp, s, strlen(s));
	for (size_t i = 0; i < tmp.len && !tmp.failed; i++) {
		char ch = tmp.data[i];
		if (ch == '<')
			kp__buf_puts(b, "\\u003c");
		else if (ch == '>')
			kp__buf_puts(b, "\\u003e");
		else if (ch == '&')
			kp__buf_puts(b, "\\u0026");
		else
			kp__buf_putc(b, ch);
	}
	if (tmp.failed)
		b->failed = 1;
	kp__buf_dispose(&tmp);
}

static int cmp_keys(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A Go value of the map kinds (map[string]string, map[string]Duration):
 * keys sorted; as_duration writes each value as Go's Duration.String(). */
static void go_map(kp__cv *c, kp__buf *b, const kp__node *m, int as_duration)
{
	char **keys = kp__calloc(m->n ? m->n : 1, sizeof(*keys));
	if (!keys) {
		kp__cv_fail(c, KP_ENOMEM, NULL, "out of memory");
		return;
	}
	size_t n = 0;
	for (size_t i = 0; i < m->n; i++)
		if (kp__node_get(m, m->keys[i]) == m->items[i]) /* the last duplicate wins */
			keys[n++] = m->keys[i];
	qsort(keys, n, sizeof(*keys), cmp_keys);
	kp__buf_putc(b, '{');
	for (size_t i = 0; i < n; i++) {
		const kp__node *v = kp__node_get(m, keys[i]);
		if (i)
			kp__buf_putc(b, ',');
		go_string(b, keys[i]);
		kp__buf_putc(b, ':');
		const char *text = v->type == KP__N_STRING || v->type == KP__N_NUMBER ? v->text : "";
		int64_t ns = 0;
		char dur[64];
		if (as_duration && v->type == KP__N_STRING &&
		    kp_duration_parse_ns(&ns, text, NULL) == KP_OK &&
		    kp_duration_format_ns(ns, dur, sizeof(dur)) == KP_OK)
			text = dur;
		go_string(b, text);
	}
	kp__buf_putc(b, '}');
	kp__free(keys);
}

/* The fields of v1beta1 KubeletConfiguration in Go declaration order. */
enum go_kind { GO_STRINGS, GO_NUMBER, GO_MAP, GO_DURATION_MAP, GO_BOOL };
static const struct {
	const char *json;
	enum go_kind kind;
} kubelet_fields[] = {
	{ "clusterDNS", GO_STRINGS },
	{ "maxPods", GO_NUMBER },
	{ "podsPerCore", GO_NUMBER },
	{ "systemReserved", GO_MAP },
	{ "kubeReserved", GO_MAP },
	{ "evictionHard", GO_MAP },
	{ "evictionSoft", GO_MAP },
	{ "evictionSoftGracePeriod", GO_DURATION_MAP },
	{ "evictionMaxPodGracePeriod", GO_NUMBER },
	{ "imageGCHighThresholdPercent", GO_NUMBER },
	{ "imageGCLowThresholdPercent", GO_NUMBER },
	{ "cpuCFSQuota", GO_BOOL },
};

char *kp__cv_kubelet_json(kp__cv *c, const kp__node *k)
{
	kp__buf b = { NULL, 0, 0, 0 };
	int first = 1;
	kp__buf_putc(&b, '{');
	for (size_t f = 0; f < sizeof(kubelet_fields) / sizeof(kubelet_fields[0]); f++) {
		const kp__node *v = kp__node_get(k, kubelet_fields[f].json);
		if (kp__cv_empty(v)) /* omitempty; nil pointers */
			continue;
		enum go_kind gk = kubelet_fields[f].kind;
		if ((gk == GO_STRINGS && v->type != KP__N_ARRAY) ||
		    (gk == GO_NUMBER && v->type != KP__N_NUMBER) ||
		    ((gk == GO_MAP || gk == GO_DURATION_MAP) && v->type != KP__N_OBJECT) ||
		    (gk == GO_BOOL && v->type != KP__N_BOOL))
			continue;
		if (!first)
			kp__buf_putc(&b, ',');
		first = 0;
		go_string(&b, kubelet_fields[f].json);
		kp__buf_putc(&b, ':');
		switch (gk) {
		case GO_STRINGS:
			kp__buf_putc(&b, '[');
			for (size_t i = 0; i < v->n; i++) {
				const kp__node *s = v->items[i];
				if (i)
					kp__buf_putc(&b, ',');
				go_string(&b, s->type == KP__N_STRING ? s->text : "");
			}
			kp__buf_putc(&b, ']');
			break;
		case GO_NUMBER:
			kp__buf_put(&b, v->text, v->len);
			break;
		case GO_MAP:
		case GO_DURATION_MAP:
			go_map(c, &b, v, gk == GO_DURATION_MAP);
			break;
		case GO_BOOL:
			kp__buf_puts(&b, v->boolean ? "true" : "false");
			break;
		}
	}
	kp__buf_putc(&b, '}');
	char *s = kp__buf_take(&b, NULL);
	if (!s)
		kp__cv_fail(c, KP_ENOMEM, NULL, "out of memory");
	return s;
}

/* json.Marshal of a v1beta1 NodeClassReference: kind and apiVersion
 * omitempty, name always; a nil reference is "null". */
static char *nodeclass_ref_json(kp__cv *c, const kp__node *ref)
{
	kp__buf b = { NULL, 0, 0, 0 };
	if (!ref || ref->type != KP__N_OBJECT) {
		kp__buf_puts(&b, "null");
	} else {
		const char *kind = kp__cv_str(ref, "kind"), *name = kp__cv_str(ref, "name");
		const char *av = kp__cv_str(ref, "apiVersion");
		kp__buf_putc(&b, '{');
		if (kind && *kind) {
			kp__buf_puts(&b, "\"kind\":");
			go_string(&b, kind);
			kp__buf_putc(&b, ',');
		}
		kp__buf_puts(&b, "\"name\":");
		go_string(&b, name ? name : "");
		if (av && *av) {
			kp__buf_puts(&b, ",\"apiVersion\":");
			go_string(&b, av);
		}
		kp__buf_putc(&b, '}');
	}
	char *s = kp__buf_take(&b, NULL);
	if (!s)
		kp__cv_fail(c, KP_ENOMEM, NULL, "out of memory");
	return s;
}

/* ---- shared pieces ------------------------------------------------------ */

static void set_annotation(kp__cv *c, kp__node *o, const char *key, const char *value)
{
	kp__node *meta = kp__cv_obj(c, o, "metadata");
	kp__node *ann = meta ? kp__cv_obj(c, meta, "annotations") : NULL;
	if (ann)
		kp__cv_set_str(c, ann, key, value);
	else if (!c->rc)
		kp__cv_fail(c, KP_EINVAL, meta ? "metadata.annotations" : "metadata",
			    "%s/%s: %s: expected an object", kp__cv_kind(o), kp__cv_name(o),
			    meta ? "metadata.annotations" : "metadata");
}

static void del_annotation(kp__node *o, const char *key)
{
	kp__node *ann = kp__cv_path(o, "metadata.annotations");
	if (!ann || ann->type != KP__N_OBJECT)
		return;
	kp__cv_del(ann, key);
	if (ann->n == 0)
		kp__cv_del(kp__node_get(o, "metadata"), "annotations");
}

static const char *annotation(const kp__node *o, const char *key)
{
	return kp__cv_str(kp__cv_path(o, "metadata.annotations"), key);
}

/* The first registered node class (upstream's injection.GetNodeClasses()[0]). */
static void default_node_class(const kp__cv *c, const char **group, const char **kind)
{
	*group = *kind = NULL;
	for (size_t i = 0; i < kp__registry_conversion_count(c->registry); i++) {
		const kp__reg_conversion *rc = kp__registry_conversion(c->registry, i);
		if (rc->ops.flags & KP_CONVERSION_F_NODE_CLASS) {
			*group = rc->node_class_group;
			*kind = rc->node_class_kind;
			return;
		}
	}
}

/* A member a rule adds to a v1 reference, where Go's order puts it (kind,
 * name, group; apiVersion stands where group will), so that v1beta1 -> v1 ->
 * v1beta1 -> v1 writes the same order. */
static void add_ref_member(kp__cv *c, kp__node *ref, const char *key, const char *value)
{
	static const char *const order[] = { "kind", "name", "group", "apiVersion" };
	size_t k = 0;
	while (k < 3 && strcmp(order[k], key))
		k++;
	const char *before = "";
	for (size_t i = k + 1; i < 4 && !*before; i++)
		if (kp__node_get(ref, order[i]))
			before = order[i];
	kp__cv_set_before(c, ref, key, kp__cv_new_str(c, value), before);
}

/* spec (NodeClaim spec or NodePool template spec) of object `what` at
 * `path`: nodeClassRef and kubelet to v1, the annotations set. */
static void spec_to_v1(kp__cv *c, kp__node *o, kp__node *spec, const char *what,
		       const char *path)
{
	const char *name = kp__cv_name(o);
	kp__node *ref = kp__node_get(spec, "nodeClassRef");
	char *ref_json = nodeclass_ref_json(c, ref);
	if (ref_json)
		set_annotation(c, o, KP__CV_NODECLASS_ANNOTATION, ref_json);
	kp__free(ref_json);
	if (ref && ref->type == KP__N_OBJECT) {
		/* v1beta1's reference has no group: one here is a member the API
		 * server prunes, and keeping it would leave v1's group where it
		 * stood rather than in Go's order (a second round trip moves it) */
		if (kp__cv_del(ref, "group"))
			kp__cv_report(c, "dropped: %s/%s: %s.nodeClassRef.group (not a v1beta1 field)",
				      what, name, path);
		const char *dgroup, *dkind;
		default_node_class(c, &dgroup, &dkind);
		const char *av = kp__cv_str(ref, "apiVersion");
		const char *kind = kp__cv_str(ref, "kind");
		if ((!kind || !*kind) && dkind) {
			kp__cv_del(ref, "kind"); /* kind is gone from here on */
			add_ref_member(c, ref, "kind", dkind);
		}
		if (av && *av) {
			char *group = kp__strdup(av);
			if (!group) {
				kp__cv_fail(c, KP_ENOMEM, NULL, "out of memory");
				return;
			}
			group[strcspn(group, "/")] = '\0';
			kp__cv_rename(c, ref, "apiVersion", "group");
			kp__cv_set_str(c, ref, "group", group);
			kp__cv_report(c, "renamed: %s/%s: %s.nodeClassRef.apiVersion -> "
					 "%s.nodeClassRef.group", what, name, path, path);
			kp__free(group);
		} else {
			kp__cv_del(ref, "apiVersion");
			if (dgroup)
				add_ref_member(c, ref, "group", dgroup);
		}
		/* v1's reference has no omitempty: an absent member is "" */
		static const char *const members[] = { "kind", "name", "group" };
		for (size_t i = 0; i < 3; i++)
			if (!kp__node_get(ref, members[i]))
				add_ref_member(c, ref, members[i], "");
	} else if (!ref) {
		/* upstream writes an empty reference (v1 validation refuses it) */
		kp__node *empty = kp__cv_new(c, KP__N_OBJECT);
		kp__cv_set(c, spec, "nodeClassRef", empty);
		if (empty) { /* json.Marshal of an empty v1 NodeClassReference */
			kp__cv_set_str(c, empty, "kind", "");
			kp__cv_set_str(c, empty, "name", "");
			kp__cv_set_str(c, empty, "group", "");
		}
	}
	kp__node *kubelet = kp__cv_take(spec, "kubelet");
	if (kubelet && kubelet->type == KP__N_OBJECT) {
		char *k = kp__cv_kubelet_json(c, kubelet);
		if (k)
			set_annotation(c, o, KP__CV_KUBELET_ANNOTATION, k);
		kp__free(k);
		kp__cv_report(c, "moved: %s/%s: %s.kubelet -> metadata.annotations[%s]", what, name,
			      path, KP__CV_KUBELET_ANNOTATION);
	} else {
		del_annotation(o, KP__CV_KUBELET_ANNOTATION);
	}
	kp__node_free(kubelet);
}

/* The v1beta1 reference kept in the annotation (@p v, taken), written over
 * the v1 one in its order: group becomes apiVersion where it stood. */
static void restore_ref(kp__cv *c, kp__node *ref, kp__node *v)
{
	kp__cv_rename(c, ref, "group", "apiVersion");
	static const char *const keys[] = { "apiVersion", "kind", "name" };
	for (size_t i = 0; i < 3; i++) {
		kp__node *val = kp__cv_take(v, keys[i]);
		if (val)
			kp__cv_set(c, ref, keys[i], val);
		else
			kp__cv_del(ref, keys[i]);
	}
	/* anything else the annotation holds */
	while (v->n && !c->rc) {
		char *key = kp__strdup(v->keys[0]);
		kp__node *val = key ? kp__cv_take(v, key) : NULL;
		if (!key) {
			kp__cv_fail(c, KP_ENOMEM, NULL, "out of memory");
			break;
		}
		kp__cv_set(c, ref, key, val);
		kp__free(key);
	}
	kp__node_free(v);
}

/* A compatibility annotation's JSON object (heap tree), or NULL after
 * recording the failure, in upstream's words ("unmarshaling WHAT
 * annotation"). */
static kp__node *annotation_object(kp__cv *c, const kp__node *o, const char *key,
				   const char *text, const char *what)
{
	int bad = 0;
	kp__node *v = kp__cv_parse(c, text, &bad);
	if (v && v->type == KP__N_OBJECT)
		return v;
	kp__node_free(v);
	if (!c->rc)
		kp__cv_fail(c, KP_EINVAL, "metadata.annotations",
			    "%s/%s: metadata.annotations[%s]: unmarshaling %s annotation: not a "
			    "JSON object", kp__cv_kind(o), kp__cv_name(o), key, what);
	return NULL;
}

/* spec back to v1beta1 from the annotations. */
static void spec_to_v1beta1(kp__cv *c, kp__node *o, kp__node *spec, const char *what,
			    const char *path)
{
	const char *name = kp__cv_name(o);
	const char *ref_ann = annotation(o, KP__CV_NODECLASS_ANNOTATION);
	kp__node *ref = kp__node_get(spec, "nodeClassRef");
	if (!ref) {
		/* upstream always writes a reference: the empty one is {"name":""} */
		kp__node *empty = kp__cv_new(c, KP__N_OBJECT);
		kp__cv_set(c, spec, "nodeClassRef", empty);
		if (empty)
			kp__cv_set_str(c, empty, "name", "");
	} else if (ref->type == KP__N_OBJECT && ref_ann && !strcmp(ref_ann, "null")) {
		/* the v1beta1 object had no reference: v1beta1 -> v1 -> v1beta1
		 * gives it back without one (upstream writes {"name":""}) */
		kp__cv_del(spec, "nodeClassRef");
	} else if (ref->type == KP__N_OBJECT) {
		if (ref_ann) {
			kp__node *v = annotation_object(c, o, KP__CV_NODECLASS_ANNOTATION, ref_ann,
							"nodeClassRef");
			if (!v)
				return;
			restore_ref(c, ref, v);
		} else {
			if (kp__cv_del(ref, "group"))
				kp__cv_report(c, "dropped: %s/%s: %s.nodeClassRef.group", what, name,
					      path);
			if (!kp__node_get(ref, "name")) /* no omitempty */
				kp__cv_set_str(c, ref, "name", "");
		}
	}
	const char *kubelet = annotation(o, KP__CV_KUBELET_ANNOTATION);
	if (kubelet) {
		kp__node *v = annotation_object(c, o, KP__CV_KUBELET_ANNOTATION, kubelet,
						"kubelet config");
		if (!v)
			return;
		kp__cv_set_before(c, spec, "kubelet", v, "nodeClassRef");
		kp__cv_report(c, "moved: %s/%s: metadata.annotations[%s] -> %s.kubelet", what, name,
			      KP__CV_KUBELET_ANNOTATION, path);
	}
	del_annotation(o, KP__CV_KUBELET_ANNOTATION);
	del_annotation(o, KP__CV_NODECLASS_ANNOTATION);
	del_annotation(o, KP__CV_MIGRATED_ANNOTATION);
}

/* Keep only the status members both versions have. */
static void keep_status(kp__cv *c, kp__node *o, const char *const *keep, size_t n_keep)
{
	kp__node *st = kp__node_get(o, "status");
	if (!st || st->type != KP__N_OBJECT)
		return;
	for (size_t i = 0; i < st->n; i++) {
		int kept = 0;
		for (size_t k = 0; k < n_keep && !kept; k++)
			kept = !strcmp(st->keys[i], keep[k]);
		if (!kept)
			kp__cv_report(c, "dropped: %s/%s: status.%s", kp__cv_kind(o), kp__cv_name(o),
				      st->keys[i]);
	}
	kp__cv_keep(st, keep, n_keep);
	kp__cv_drop_severity(c, o);
}

/* ---- NodePool ----------------------------------------------------------- */

/* spec, template.spec and disruption of a NodePool (created when absent);
 * *had_disruption says whether the input had a disruption block. */
static int nodepool_parts(kp__cv *c, kp__node *o, kp__node **tspec, kp__node **d,
			  int *had_disruption)
{
	kp__node *spec = kp__cv_obj(c, o, "spec");
	kp__node *tmpl = spec ? kp__cv_obj(c, spec, "template") : NULL;
	*tspec = tmpl ? kp__cv_obj(c, tmpl, "spec") : NULL;
	*had_disruption = kp__node_get(spec, "disruption") != NULL;
	*d = spec ? kp__cv_obj(c, spec, "disruption") : NULL;
	if (!*tspec || !*d)
		return c->rc ? c->rc : kp__cv_fail(c, KP_EINVAL, "spec", "NodePool/%s: spec: "
						   "expected an object", kp__cv_name(o));
	return KP_OK;
}

/* A disruption block the input did not have and no rule wrote to goes. */
static void drop_empty_disruption(kp__node *o, const kp__node *d, int had_disruption)
{
	if (!had_disruption && d->n == 0)
		kp__cv_del(kp__node_get(o, "spec"), "disruption");
}

/*
 * Defaults. Upstream's webhook sees the v1beta1 object after the API
 * server's defaulting (consolidationPolicy WhenUnderutilized, expireAfter
 * 720h, budgets [{nodes: 10%}]). Where a default converts to exactly the
 * v1 CRD's default at the field's v1 place (WhenEmptyOrUnderutilized with
 * consolidateAfter 0s, template expireAfter 720h, the same budgets), the
 * output leaves the field out, as the input did: the API server defaults
 * it alike. Values the input gave are converted and written as upstream
 * writes them.
 */
static void nodepool_to_v1(kp__cv *c, kp__node *o)
{
	const char *name = kp__cv_name(o);
	kp__node *tspec, *d;
	int had_d;
	if (nodepool_parts(c, o, &tspec, &d, &had_d))
		return;
	kp__node *exp = kp__cv_take(d, "expireAfter");
	if (exp) {
		kp__cv_set(c, tspec, "expireAfter", exp);
		kp__cv_report(c, "moved: NodePool/%s: spec.disruption.expireAfter -> "
				 "spec.template.spec.expireAfter", name);
	}
	const char *policy = kp__cv_str(d, "consolidationPolicy");
	if (policy && !strcmp(policy, V1BETA1_POLICY_DEFAULT)) {
		kp__cv_set_str(c, d, "consolidationPolicy", V1_POLICY_DEFAULT);
		kp__cv_report(c, "renamed: NodePool/%s: spec.disruption.consolidationPolicy: "
				 "WhenUnderutilized -> WhenEmptyOrUnderutilized", name);
		kp__cv_set_str(c, d, "consolidateAfter", "0s");
	} else if (!policy) {
		/* the defaulted WhenUnderutilized: consolidateAfter becomes 0s,
		 * v1's default, so it goes like the policy */
		if (kp__cv_del(d, "consolidateAfter"))
			kp__cv_report(c, "dropped: NodePool/%s: spec.disruption.consolidateAfter "
					 "(WhenUnderutilized, the default policy, has none)", name);
	} else if (!kp__node_get(d, "consolidateAfter")) {
		/* a nil NillableDuration marshals as "Never" */
		kp__cv_set_str(c, d, "consolidateAfter", "Never");
	}
	/* v1 defaults an absent disruption alike: an empty one goes (one the
	 * input gave empty, or a v1alpha5 one whose expireAfter moved) */
	drop_empty_disruption(o, d, 0);
	spec_to_v1(c, o, tspec, "NodePool", "spec.template.spec");
	if (kp__cv_del(tspec, "resources"))
		kp__cv_report(c, "dropped: NodePool/%s: spec.template.spec.resources", name);
	static const char *const status_keep[] = { "resources", "conditions" };
	keep_status(c, o, status_keep, 2);
}

static void nodepool_to_v1beta1(kp__cv *c, kp__node *o)
{
	const char *name = kp__cv_name(o);
	kp__node *tspec, *d;
	int had_d;
	if (nodepool_parts(c, o, &tspec, &d, &had_d))
		return;
	const char *policy = kp__cv_str(d, "consolidationPolicy");
	if (!policy || !strcmp(policy, V1_POLICY_DEFAULT)) {
		if (policy) {
			kp__cv_set_str(c, d, "consolidationPolicy", V1BETA1_POLICY_DEFAULT);
			kp__cv_report(c, "renamed: NodePool/%s: spec.disruption.consolidationPolicy: "
					 "WhenEmptyOrUnderutilized -> WhenUnderutilized", name);
		}
		if (kp__cv_del(d, "consolidateAfter"))
			kp__cv_report(c, "dropped: NodePool/%s: spec.disruption.consolidateAfter",
				      name);
	} else if (!kp__node_get(d, "consolidateAfter")) {
		kp__cv_set_str(c, d, "consolidateAfter", "0s"); /* the v1 default */
	}
	kp__node *exp = kp__cv_take(tspec, "expireAfter");
	if (exp) {
		kp__cv_set_before(c, d, "expireAfter", exp, "budgets");
		kp__cv_report(c, "moved: NodePool/%s: spec.template.spec.expireAfter -> "
				 "spec.disruption.expireAfter", name);
	}
	drop_empty_disruption(o, d, had_d);
	if (kp__cv_del(tspec, "terminationGracePeriod"))
		kp__cv_report(c, "dropped: NodePool/%s: spec.template.spec.terminationGracePeriod",
			      name);
	spec_to_v1beta1(c, o, tspec, "NodePool", "spec.template.spec");
	static const char *const status_keep[] = { "resources", "conditions" };
	keep_status(c, o, status_keep, 2);
}

/* ---- NodeClaim ---------------------------------------------------------- */

/* An object's spec, created when absent; NULL (the failure recorded) when
 * it is not an object. */
static kp__node *spec_of(kp__cv *c, kp__node *o)
{
	kp__node *spec = kp__cv_obj(c, o, "spec");
	if (!spec && !c->rc)
		kp__cv_fail(c, KP_EINVAL, "spec", "%s/%s: spec: expected an object",
			    kp__cv_kind(o), kp__cv_name(o));
	return spec;
}

static const char *const nodeclaim_status[] = { "nodeName", "providerID", "imageID",
						 "capacity", "allocatable", "conditions" };

static void nodeclaim_to_v1(kp__cv *c, kp__node *o)
{
	const char *name = kp__cv_name(o);
	kp__node *spec = spec_of(c, o);
	if (!spec)
		return;
	spec_to_v1(c, o, spec, "NodeClaim", "spec");
	/* expireAfter: the NodePool's, when it is among the inputs, else a nil
	 * NillableDuration ("Never"), as setExpireAfter leaves it. */
	const char *np = kp__cv_str(kp__cv_path(o, "metadata.labels"), KP__CV_NODEPOOL_LABEL);
	const char *expire = np ? kp__cv_expire_of(c, np) : NULL;
	kp__cv_set_str(c, spec, "expireAfter", expire ? expire : "Never");
	if (expire)
		kp__cv_report(c, "moved: NodeClaim/%s: NodePool/%s spec.disruption.expireAfter -> "
				 "spec.expireAfter", name, np);
	keep_status(c, o, nodeclaim_status, sizeof(nodeclaim_status) / sizeof(*nodeclaim_status));
}

static void nodeclaim_to_v1beta1(kp__cv *c, kp__node *o)
{
	const char *name = kp__cv_name(o);
	kp__node *spec = spec_of(c, o);
	if (!spec)
		return;
	if (kp__cv_del(spec, "expireAfter"))
		kp__cv_report(c, "dropped: NodeClaim/%s: spec.expireAfter", name);
	if (kp__cv_del(spec, "terminationGracePeriod"))
		kp__cv_report(c, "dropped: NodeClaim/%s: spec.terminationGracePeriod", name);
	spec_to_v1beta1(c, o, spec, "NodeClaim", "spec");
	keep_status(c, o, nodeclaim_status, sizeof(nodeclaim_status) / sizeof(*nodeclaim_status));
}

const char *kp__cv_nodepool_expire(const kp__node *o)
{
	const char *av = kp__cv_str(o, "apiVersion");
	if (!av)
		return NULL;
	const kp__node *v = !strcmp(av, KP__CV_V1BETA1)
				    ? kp__cv_path(o, "spec.disruption.expireAfter")
				    : !strcmp(av, KP__CV_V1) ? kp__cv_path(o, "spec.template.spec.expireAfter")
							     : NULL;
	if (v && v->type == KP__N_STRING)
		return v->text;
	return !strcmp(av, KP__CV_V1BETA1) || !strcmp(av, KP__CV_V1) ? EXPIRE_DEFAULT : NULL;
}

int kp__cv_karpenter(kp__cv *c, kp__node *o, const char *api_version, const char *kind)
{
	int np = !strcmp(kind, "NodePool"), nc = !strcmp(kind, "NodeClaim");
	if (!np && !nc)
		return KP_ENOTSUP;
	int to_v1 = c->target == KP_CONVERT_V1;
	if (strcmp(api_version, to_v1 ? KP__CV_V1BETA1 : KP__CV_V1) != 0)
		return KP_ENOTSUP;
	kp__cv_prune_nulls(o);
	kp__cv_set_str(c, o, "apiVersion", to_v1 ? KP__CV_V1 : KP__CV_V1BETA1);
	if (np)
		(to_v1 ? nodepool_to_v1 : nodepool_to_v1beta1)(c, o);
	else
		(to_v1 ? nodeclaim_to_v1 : nodeclaim_to_v1beta1)(c, o);
	return c->rc;
}
