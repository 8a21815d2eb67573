/*
 * libkarpenter: karpenter.sh/v1alpha5 Provisioner and Machine to v1beta1
 * NodePool and NodeClaim, as karpenter-convert (aws/karpenter-provider-aws
 * v0.32.x tools/karpenter-convert) and core v0.32.x nodepool.New and
 * nodeclaim.New convert them; karpenter.c then takes them to v1.
 *
 * Provisioner: metadata keeps name, labels, annotations and finalizers;
 * spec.labels/annotations become the template's metadata, taints,
 * startupTaints and requirements its spec, kubeletConfiguration its kubelet
 * (containerRuntime, which v1 has not, dropped), providerRef its
 * nodeClassRef (by name: the provider's node class, whatever template kind
 * it named); ttlSecondsUntilExpired becomes expireAfter (Go's duration
 * text; none is "Never"), consolidation.enabled WhenUnderutilized, else
 * ttlSecondsAfterEmpty WhenEmpty with consolidateAfter; limits.resources
 * the limits; weight stays; the status goes. The provider's v1alpha5
 * defaults (karpenter-convert's default requirements) and an inline
 * provider block are the provider's (kp_conversion_ops, offered first).
 *
 * Machine: the object as it is, spec.machineTemplateRef as nodeClassRef,
 * kubelet as above, status conditions Machine* renamed (MachineLaunched ->
 * Launched, ...).
 *
 * Both: the migration guide's renames, each reported because the meaning
 * widens or moves: label karpenter.sh/provisioner-name ->
 * karpenter.sh/nodepool, annotations karpenter.sh/do-not-evict and
 * karpenter.sh/do-not-consolidate -> karpenter.sh/do-not-disrupt.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include <karpenter/duration.h>

#include "convert/convert_private.h"

#define V1ALPHA5 "karpenter.sh/v1alpha5"

/* A whole number of seconds as Go's time.Duration.String() ("720h0m0s"),
 * into buf (64 bytes hold any). */
static int seconds_text(const kp__node *n, char *buf, size_t size)
{
	if (!n || n->type != KP__N_NUMBER)
		return 0;
	int64_t s = 0;
	for (const char *p = n->text; *p; p++) {
		if (*p < '0' || *p > '9' || s > INT64_MAX / 1000000000 / 10)
			return 0;
		s = s * 10 + (*p - '0');
	}
	if (s > INT64_MAX / 1000000000)
		return 0;
	return kp_duration_format_ns(s * 1000000000, buf, size) == KP_OK;
}

/* Rename a key of a string map (labels, annotations), reporting it. */
static void rename_key(kp__cv *c, const kp__node *o, kp__node *map, const char *path,
		       const char *from, const char *to, const char *why)
{
	if (!map || !kp__node_get(map, from))
		return;
	if (kp__node_get(map, to)) {
		kp__cv_del(map, from);
		kp__cv_report(c, "dropped: %s/%s: %s[%s] (%s is set)", kp__cv_kind(o), kp__cv_name(o),
			      path, from, to);
		return;
	}
	kp__cv_rename(c, map, from, to);
	kp__cv_report(c, "renamed: %s/%s: %s[%s] -> %s[%s] (%s)", kp__cv_kind(o), kp__cv_name(o),
		      path, from, path, to, why);
}

static const char *const do_not_disrupt_why =
	"karpenter.sh/do-not-disrupt blocks every disruption, not only eviction or consolidation";

/* The migration guide's renames in a labels and an annotations map. */
static void guide_renames(kp__cv *c, const kp__node *o, kp__node *labels, const char *lpath,
			  kp__node *ann, const char *apath)
{
	rename_key(c, o, labels, lpath, "karpenter.sh/provisioner-name", KP__CV_NODEPOOL_LABEL,
		   "NodePools replace Provisioners");
	rename_key(c, o, ann, apath, "karpenter.sh/do-not-evict", "karpenter.sh/do-not-disrupt",
		   do_not_disrupt_why);
	rename_key(c, o, ann, apath, "karpenter.sh/do-not-consolidate",
		   "karpenter.sh/do-not-disrupt", do_not_disrupt_why);
}

/* A v1alpha5 KubeletConfiguration as v1beta1's (containerRuntime goes). */
static kp__node *kubelet_of(kp__cv *c, const kp__node *o, kp__node *kubelet, const char *path)
{
	if (kubelet && kp__cv_del(kubelet, "containerRuntime"))
		kp__cv_report(c, "dropped: %s/%s: %s.containerRuntime (containerd is the only "
				 "runtime)", kp__cv_kind(o), kp__cv_name(o), path);
	return kubelet;
}

/* A MachineTemplateRef as a v1beta1 nodeClassRef: by name, the kind and
 * apiVersion (an AWSNodeTemplate's) left for the node class default. */
static kp__node *ref_of(kp__cv *c, const kp__node *o, kp__node *ref, const char *path)
{
	if (!ref || ref->type != KP__N_OBJECT)
		return ref;
	const char *kind = kp__cv_str(ref, "kind");
	if (kind || kp__node_get(ref, "apiVersion"))
		kp__cv_report(c, "renamed: %s/%s: %s %s -> the provider's node class",
			      kp__cv_kind(o), kp__cv_name(o), path, kind ? kind : "reference");
	kp__cv_del(ref, "kind"); /* kind is gone from here on */
	kp__cv_del(ref, "apiVersion");
	return ref;
}

/* metadata keeping only what karpenter-convert keeps. */
static void trim_metadata(kp__cv *c, kp__node *o)
{
	static const char *const keep[] = { "name", "labels", "annotations", "finalizers" };
	kp__node *meta = kp__cv_obj(c, o, "metadata");
	if (meta)
		kp__cv_keep(meta, keep, 4);
}

static void provisioner_to_v1beta1(kp__cv *c, kp__node *o)
{
	const char *name = kp__cv_name(o);
	kp__node *in = kp__cv_take(o, "spec");
	kp__cv_del(o, "status");
	trim_metadata(c, o);
	kp__node *spec = kp__cv_new(c, KP__N_OBJECT);
	kp__cv_set(c, o, "spec", spec);
	kp__node *tmpl = kp__cv_new(c, KP__N_OBJECT), *tmeta = kp__cv_new(c, KP__N_OBJECT);
	kp__node *tspec = kp__cv_new(c, KP__N_OBJECT), *d = kp__cv_new(c, KP__N_OBJECT);
	if (c->rc || !in || in->type != KP__N_OBJECT) {
		kp__node_free(in);
		kp__node_free(tmpl);
		kp__node_free(tmeta);
		kp__node_free(tspec);
		kp__node_free(d);
		if (!c->rc)
			kp__cv_fail(c, KP_EINVAL, "spec", "Provisioner/%s: spec: expected an object",
				    name);
		return;
	}
	/* disruption */
	char dur[64];
	kp__node *ttl_exp = kp__node_get(in, "ttlSecondsUntilExpired");
	kp__node *ttl_empty = kp__node_get(in, "ttlSecondsAfterEmpty");
	const kp__node *enabled = kp__cv_path(in, "consolidation.enabled");
	if (enabled && enabled->type == KP__N_BOOL && enabled->boolean) {
		kp__cv_set_str(c, d, "consolidationPolicy", "WhenUnderutilized");
		kp__cv_report(c, "renamed: Provisioner/%s: spec.consolidation.enabled -> "
				 "spec.disruption.consolidationPolicy: WhenUnderutilized", name);
	} else if (ttl_empty) {
		if (!seconds_text(ttl_empty, dur, sizeof(dur))) {
			kp__cv_fail(c, KP_EINVAL, "spec.ttlSecondsAfterEmpty",
				    "Provisioner/%s: spec.ttlSecondsAfterEmpty: expected a number of "
				    "seconds", name);
		} else {
			kp__cv_set_str(c, d, "consolidationPolicy", "WhenEmpty");
			kp__cv_set_str(c, d, "consolidateAfter", dur);
			kp__cv_report(c, "renamed: Provisioner/%s: spec.ttlSecondsAfterEmpty -> "
					 "spec.disruption.consolidationPolicy: WhenEmpty, "
					 "consolidateAfter: %s", name, dur);
		}
	} else {
		kp__cv_report(c, "warning: Provisioner/%s: neither consolidation nor "
				 "ttlSecondsAfterEmpty: the NodePool takes the default "
				 "consolidationPolicy, which consolidates", name);
	}
	if (ttl_exp && !seconds_text(ttl_exp, dur, sizeof(dur)))
		kp__cv_fail(c, KP_EINVAL, "spec.ttlSecondsUntilExpired",
			    "Provisioner/%s: spec.ttlSecondsUntilExpired: expected a number of "
			    "seconds", name);
	kp__cv_set_str(c, d, "expireAfter", ttl_exp ? dur : "Never");
	if (ttl_exp)
		kp__cv_report(c, "renamed: Provisioner/%s: spec.ttlSecondsUntilExpired -> "
				 "spec.disruption.expireAfter: %s", name, dur);
	/* template */
	kp__node *labels = kp__cv_take(in, "labels"), *ann = kp__cv_take(in, "annotations");
	guide_renames(c, o, labels, "spec.labels", ann, "spec.annotations");
	if (ann)
		kp__cv_set(c, tmeta, "annotations", ann);
	if (labels)
		kp__cv_set(c, tmeta, "labels", labels);
	static const char *const moved[] = { "taints", "startupTaints", "requirements" };
	for (size_t i = 0; i < 3; i++) {
		kp__node *v = kp__cv_take(in, moved[i]);
		if (v)
			kp__cv_set(c, tspec, moved[i], v);
	}
	/* requirements keyed by the old label */
	kp__node *reqs = kp__node_get(tspec, "requirements");
	for (size_t i = 0; reqs && reqs->type == KP__N_ARRAY && i < reqs->n; i++) {
		const char *key = kp__cv_str(reqs->items[i], "key");
		if (key && !strcmp(key, "karpenter.sh/provisioner-name")) {
			kp__cv_set_str(c, reqs->items[i], "key", KP__CV_NODEPOOL_LABEL);
			kp__cv_report(c, "renamed: Provisioner/%s: spec.requirements[%zu].key: "
					 "karpenter.sh/provisioner-name -> %s", name, i,
				      KP__CV_NODEPOOL_LABEL);
		}
	}
	kp__node *kubelet = kubelet_of(c, o, kp__cv_take(in, "kubeletConfiguration"),
				       "spec.kubeletConfiguration");
	if (kubelet)
		kp__cv_set(c, tspec, "kubelet", kubelet);
	kp__node *ref = ref_of(c, o, kp__cv_take(in, "providerRef"), "spec.providerRef");
	if (ref)
		kp__cv_set(c, tspec, "nodeClassRef", ref);
	if (kp__node_get(in, "provider"))
		kp__cv_fail(c, KP_EINVAL, "spec.provider",
			    "Provisioner/%s: spec.provider: an inline provider block needs its "
			    "provider's conversion (none registered converts it)", name);
	/* the NodePool */
	kp__node *limits = kp__cv_take(kp__node_get(in, "limits"), "resources");
	kp__node *weight = kp__cv_take(in, "weight");
	if (tmeta->n)
		kp__cv_set(c, tmpl, "metadata", tmeta);
	else
		kp__node_free(tmeta);
	kp__cv_set(c, tmpl, "spec", tspec);
	kp__cv_set(c, spec, "disruption", d);
	if (limits)
		kp__cv_set(c, spec, "limits", limits);
	kp__cv_set(c, spec, "template", tmpl);
	if (weight)
		kp__cv_set(c, spec, "weight", weight);
	kp__node_free(in);
	kp__cv_set_str(c, o, "apiVersion", KP__CV_V1BETA1);
	kp__cv_set_str(c, o, "kind", "NodePool");
	kp__cv_report(c, "renamed: Provisioner/%s -> NodePool/%s", name, name);
}

static void machine_to_v1beta1(kp__cv *c, kp__node *o)
{
	const char *name = kp__cv_name(o);
	kp__node *meta = kp__node_get(o, "metadata");
	guide_renames(c, o, kp__node_get(meta, "labels"), "metadata.labels",
		      kp__node_get(meta, "annotations"), "metadata.annotations");
	kp__node *spec = kp__node_get(o, "spec");
	if (spec && spec->type == KP__N_OBJECT) {
		kubelet_of(c, o, kp__node_get(spec, "kubelet"), "spec.kubelet");
		kp__node *ref = ref_of(c, o, kp__cv_path(spec, "machineTemplateRef"),
				       "spec.machineTemplateRef");
		if (ref)
			kp__cv_rename(c, spec, "machineTemplateRef", "nodeClassRef");
		kp__node *res = kp__node_get(spec, "resources");
		/* v1beta1 keeps requests only */
		if (res && res->type == KP__N_OBJECT && kp__cv_del(res, "limits"))
			kp__cv_report(c, "dropped: Machine/%s: spec.resources.limits", name);
	}
	kp__node *conds = kp__cv_path(o, "status.conditions");
	for (size_t i = 0; conds && conds->type == KP__N_ARRAY && i < conds->n; i++) {
		const char *type = kp__cv_str(conds->items[i], "type");
		if (!type || strncmp(type, "Machine", 7) || !type[7])
			continue;
		char *renamed = kp__strdup(type + 7);
		if (!renamed) {
			kp__cv_fail(c, KP_ENOMEM, NULL, "out of memory");
			return;
		}
		kp__cv_report(c, "renamed: Machine/%s: status.conditions[%zu].type: %s -> %s", name,
			      i, type, renamed);
		kp__cv_set_str(c, conds->items[i], "type", renamed);
		kp__free(renamed);
	}
	kp__cv_drop_severity(c, o);
	kp__cv_set_str(c, o, "apiVersion", KP__CV_V1BETA1);
	kp__cv_set_str(c, o, "kind", "NodeClaim");
	kp__cv_report(c, "renamed: Machine/%s -> NodeClaim/%s", name, name);
}

int kp__cv_v1alpha5(kp__cv *c, kp__node *o, const char *api_version, const char *kind)
{
	if (strcmp(api_version, V1ALPHA5))
		return KP_ENOTSUP;
	if (!strcmp(kind, "Provisioner"))
		provisioner_to_v1beta1(c, o);
	else if (!strcmp(kind, "Machine"))
		machine_to_v1beta1(c, o);
	else
		return KP_ENOTSUP;
	return c->rc;
}

const char *kp__cv_provisioner_expire(const kp__node *o, char *buf, size_t size)
{
	const char *av = kp__cv_str(o, "apiVersion");
	if (!av || strcmp(av, V1ALPHA5) || strcmp(kp__cv_kind(o), "Provisioner"))
		return NULL;
	const kp__node *ttl = kp__cv_path(o, "spec.ttlSecondsUntilExpired");
	if (!ttl)
		return "Never";
	return seconds_text(ttl, buf, size) ? buf : NULL;
}
