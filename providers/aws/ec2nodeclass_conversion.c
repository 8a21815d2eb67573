/*
 * libkarpenter-aws: EC2NodeClass between karpenter.k8s.aws/v1beta1 and v1,
 * as aws/karpenter-provider-aws v1.0.x pkg/apis/v1/ec2nodeclass_conversion.go
 * converts it, registered on the core's converter (kp_registry_add_conversion)
 * by kp_aws_register.
 *
 * v1beta1 -> v1: amiFamily AL2, AL2023, Bottlerocket, Windows2019 or
 * Windows2022 without amiSelectorTerms becomes the alias term
 * "<family>@<version>" (version from the v1-alias-version annotation, else
 * "latest"), with amiFamily removed; with terms, both stay. Ubuntu becomes
 * AL2 with the compatibility annotation "amiFamily[,blockDeviceMappings]
 * [,incompatible]": Ubuntu's root volume is injected when no
 * blockDeviceMappings were given, and a placeholder term when no
 * amiSelectorTerms were. Any other family (Custom, none, unknown) becomes
 * Custom. v1 -> v1beta1 undoes it; spec.kubelet, which v1beta1 does not
 * have, is dropped (the NodePool's annotation keeps it).
 *
 * The object arrives as JSON text and leaves as JSON text (cJSON keeps the
 * members' order); numbers go through a double, which holds every integer
 * an EC2NodeClass has exactly.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include <karpenter/aws_ec2nodeclass.h>
#include <karpenter/convert.h>
#include <karpenter/sys/schema.h>

#include "aws_private.h"

#define GROUP "karpenter.k8s.aws"
#define V1 GROUP "/v1"
#define V1BETA1 GROUP "/v1beta1"
#define V1ALPHA1 GROUP "/v1alpha1"
#define UBUNTU_KEY "compatibility.karpenter.k8s.aws/v1beta1-ubuntu"
#define ALIAS_VERSION_KEY "compatibility.karpenter.k8s.aws/v1-alias-version"
#define MIGRATED_KEY "karpenter.sh/stored-version-migrated"

/* Families an alias names, as written in amiFamily. */
static const char *const alias_families[] = { "AL2", "AL2023", "Bottlerocket", "Windows2019",
					      "Windows2022" };
#define N_ALIAS_FAMILIES (sizeof(alias_families) / sizeof(alias_families[0]))

typedef struct conv {
	kp_conversion_sink *sink;
	const char *name;
	int rc; /* first failure */
} conv;

static void report(conv *c, const char *verb, const char *detail)
{
	size_t n = strlen(verb) + strlen(c->name) + strlen(detail) + 32;
	char *line = malloc(n);
	if (!line) {
		c->rc = c->rc ? c->rc : KP_ENOMEM;
		return;
	}
	snprintf(line, n, "%s: EC2NodeClass/%s: %s", verb, c->name, detail);
	int rc = kp_conversion_sink_report(c->sink, line);
	if (rc && !c->rc)
		c->rc = rc;
	free(line);
}

static char *dup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

static cJSON *get(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

static const char *str(const cJSON *o, const char *key)
{
	const cJSON *v = get(o, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Set member key (replacing in place, else appended); takes v. */
static void set(conv *c, cJSON *o, const char *key, cJSON *v)
{
	if (!v || !cJSON_IsObject(o)) {
		cJSON_Delete(v);
		if (!v && !c->rc)
			c->rc = KP_ENOMEM;
		return;
	}
	if (get(o, key)) {
		cJSON_ReplaceItemInObjectCaseSensitive(o, key, v);
		return;
	}
	if (!cJSON_AddItemToObject(o, key, v)) {
		cJSON_Delete(v);
		c->rc = c->rc ? c->rc : KP_ENOMEM;
	}
}

static cJSON *obj(conv *c, cJSON *o, const char *key)
{
	cJSON *v = get(o, key);
	if (v)
		return cJSON_IsObject(v) ? v : NULL;
	v = cJSON_CreateObject();
	set(c, o, key, v);
	return c->rc ? NULL : v;
}

static int del(cJSON *o, const char *key)
{
	if (!get(o, key))
		return 0;
	cJSON_DeleteItemFromObjectCaseSensitive(o, key);
	return 1;
}

static int empty(const cJSON *v)
{
	return !v || cJSON_IsNull(v) ||
	       ((cJSON_IsArray(v) || cJSON_IsObject(v)) && cJSON_GetArraySize(v) == 0);
}

static void set_annotation(conv *c, cJSON *o, const char *key, const char *value)
{
	cJSON *meta = obj(c, o, "metadata");
	cJSON *ann = meta ? obj(c, meta, "annotations") : NULL;
	if (ann)
		set(c, ann, key, cJSON_CreateString(value));
}

static void del_annotation(cJSON *o, const char *key)
{
	cJSON *meta = get(o, "metadata");
	cJSON *ann = get(meta, "annotations");
	del(ann, key);
	if (ann && cJSON_GetArraySize(ann) == 0)
		del(meta, "annotations");
}

static const char *annotation(const cJSON *o, const char *key)
{
	return str(get(get(o, "metadata"), "annotations"), key);
}

/* ---- v1beta1 -> v1 ---------------------------------------------------- */

static void ubuntu_to_v1(conv *c, cJSON *o, cJSON *spec)
{
	char specifiers[64] = "amiFamily";
	set(c, spec, "amiFamily", cJSON_CreateString("AL2"));
	report(c, "renamed", "spec.amiFamily: Ubuntu -> AL2 (annotated " UBUNTU_KEY ")");
	const cJSON *bdm = get(spec, "blockDeviceMappings");
	if (!bdm || cJSON_IsNull(bdm)) {
		/* Ubuntu's default root volume, which AL2's differs from */
		cJSON *list = cJSON_CreateArray(), *m = cJSON_CreateObject(),
		      *ebs = cJSON_CreateObject();
		if (!list || !m || !ebs || !cJSON_AddItemToArray(list, m)) {
			cJSON_Delete(list);
			cJSON_Delete(m);
			cJSON_Delete(ebs);
			c->rc = c->rc ? c->rc : KP_ENOMEM;
			return;
		}
		set(c, m, "deviceName", cJSON_CreateString("/dev/sda1"));
		set(c, m, "rootVolume", cJSON_CreateTrue());
		set(c, m, "ebs", ebs);
		set(c, ebs, "encrypted", cJSON_CreateTrue());
		set(c, ebs, "volumeType", cJSON_CreateString("gp3"));
		set(c, ebs, "volumeSize", cJSON_CreateString("20Gi"));
		set(c, spec, "blockDeviceMappings", list);
		strcat(specifiers, ",blockDeviceMappings");
		report(c, "generated", "spec.blockDeviceMappings (Ubuntu's root volume /dev/sda1)");
	}
	if (empty(get(spec, "amiSelectorTerms"))) {
		cJSON *list = cJSON_CreateArray(), *t = cJSON_CreateObject();
		if (!list || !t || !cJSON_AddItemToArray(list, t)) {
			cJSON_Delete(list);
			cJSON_Delete(t);
			c->rc = c->rc ? c->rc : KP_ENOMEM;
			return;
		}
		set(c, t, "id", cJSON_CreateString("ami-placeholder"));
		set(c, spec, "amiSelectorTerms", list);
		strcat(specifiers, ",incompatible");
		report(c, "warning", "Ubuntu without amiSelectorTerms has no v1 equivalent: the "
				     "class is marked incompatible (amiSelectorTerms id "
				     "ami-placeholder) and launches no nodes until you give it "
				     "amiSelectorTerms");
	}
	set_annotation(c, o, UBUNTU_KEY, specifiers);
}

static void to_v1(conv *c, cJSON *o)
{
	cJSON *spec = obj(c, o, "spec");
	if (!spec)
		return;
	const char *version = annotation(o, ALIAS_VERSION_KEY);
	char *alias_version = dup(version ? version : "latest");
	if (!alias_version) {
		c->rc = KP_ENOMEM;
		return;
	}
	del_annotation(o, ALIAS_VERSION_KEY);
	const char *family = str(spec, "amiFamily");
	size_t f = 0;
	while (family && f < N_ALIAS_FAMILIES && strcmp(family, alias_families[f]))
		f++;
	if (family && f < N_ALIAS_FAMILIES) {
		if (empty(get(spec, "amiSelectorTerms"))) {
			size_t n = strlen(family) + strlen(alias_version) + 2;
			char *alias = malloc(n);
			cJSON *list = cJSON_CreateArray(), *t = cJSON_CreateObject();
			if (!alias || !list || !t || !cJSON_AddItemToArray(list, t)) {
				free(alias);
				cJSON_Delete(list);
				cJSON_Delete(t);
				free(alias_version);
				c->rc = KP_ENOMEM;
				return;
			}
			for (size_t i = 0; family[i]; i++)
				alias[i] = (char)(family[i] >= 'A' && family[i] <= 'Z'
							  ? family[i] - 'A' + 'a' : family[i]);
			snprintf(alias + strlen(family), n - strlen(family), "@%s", alias_version);
			set(c, t, "alias", cJSON_CreateString(alias));
			char *detail = malloc(strlen(alias) + 96);
			if (detail) {
				sprintf(detail, "spec.amiFamily -> spec.amiSelectorTerms[0].alias (%s)",
					alias);
				report(c, "moved", detail);
				free(detail);
			}
			free(alias);
			/* the alias term takes amiFamily's place */
			del(spec, "amiSelectorTerms");
			list->string = dup("amiSelectorTerms");
			if (!list->string ||
			    !cJSON_ReplaceItemViaPointer(spec, get(spec, "amiFamily"), list)) {
				cJSON_Delete(list);
				c->rc = KP_ENOMEM;
			}
		}
	} else if (family && !strcmp(family, "Ubuntu")) {
		ubuntu_to_v1(c, o, spec);
	} else {
		if (!family || strcmp(family, "Custom")) {
			const char *was = family ? family : "(none)";
			char *detail = malloc(strlen(was) + 64);
			if (detail) {
				sprintf(detail, "spec.amiFamily: %s -> Custom", was);
				report(c, "renamed", detail);
				free(detail);
			}
		}
		set(c, spec, "amiFamily", cJSON_CreateString("Custom"));
	}
	free(alias_version);
}

/* ---- v1 -> v1beta1 ---------------------------------------------------- */

/* Family and version of the first alias term, or 0. */
static int alias_of(const cJSON *spec, char *family, size_t fsize, const char **version)
{
	const cJSON *t;
	cJSON_ArrayForEach(t, get(spec, "amiSelectorTerms")) {
		const char *alias = str(t, "alias");
		if (!alias || !*alias)
			continue;
		const char *at = strchr(alias, '@');
		size_t n = at ? (size_t)(at - alias) : strlen(alias);
		for (size_t f = 0; f < N_ALIAS_FAMILIES; f++) {
			const char *name = alias_families[f];
			if (strlen(name) == n && !strncasecmp_ascii(name, alias, n)) {
				snprintf(family, fsize, "%s", name);
				*version = at ? at + 1 : "";
				return 1;
			}
		}
		return 0;
	}
	return 0;
}

static void to_v1beta1(conv *c, cJSON *o)
{
	cJSON *spec = obj(c, o, "spec");
	if (!spec)
		return;
	const char *ubuntu = annotation(o, UBUNTU_KEY);
	char family[32] = "";
	const char *version = NULL;
	int has_alias = alias_of(spec, family, sizeof(family), &version);
	if (has_alias && strcmp(version, "latest"))
		set_annotation(c, o, ALIAS_VERSION_KEY, version);
	if (ubuntu) {
		for (const char *tok = ubuntu; *tok;) {
			size_t n = strcspn(tok, ",");
			if (n == 12 && !strncmp(tok, "incompatible", n) && del(spec, "amiSelectorTerms"))
				report(c, "dropped", "spec.amiSelectorTerms (the Ubuntu placeholder)");
			if (n == 19 && !strncmp(tok, "blockDeviceMappings", n) &&
			    del(spec, "blockDeviceMappings"))
				report(c, "dropped", "spec.blockDeviceMappings (Ubuntu's injected root "
						     "volume)");
			tok += n + (tok[n] == ',');
		}
		set(c, spec, "amiFamily", cJSON_CreateString("Ubuntu"));
		report(c, "renamed", "spec.amiFamily: AL2 -> Ubuntu (from " UBUNTU_KEY ")");
	}
	del_annotation(o, UBUNTU_KEY);
	del_annotation(o, MIGRATED_KEY);
	/* alias terms have no v1beta1 form; amiFamily takes the place of
	 * terms that were all aliases (where v1beta1 -> v1 put them) */
	int add_family = !str(spec, "amiFamily");
	cJSON *terms = get(spec, "amiSelectorTerms");
	for (int i = cJSON_GetArraySize(terms); i-- > 0;) {
		const char *alias = str(cJSON_GetArrayItem(terms, i), "alias");
		if (alias && *alias)
			cJSON_DeleteItemFromArray(terms, i);
	}
	cJSON *fam = add_family ? cJSON_CreateString(has_alias ? family : "Custom") : NULL;
	if (add_family && !fam) {
		c->rc = KP_ENOMEM;
		return;
	}
	if (terms && cJSON_GetArraySize(terms) == 0 && fam) {
		fam->string = dup("amiFamily");
		if (!fam->string || !cJSON_ReplaceItemViaPointer(spec, terms, fam)) {
			cJSON_Delete(fam);
			c->rc = KP_ENOMEM;
			return;
		}
	} else {
		if (terms && cJSON_GetArraySize(terms) == 0)
			del(spec, "amiSelectorTerms");
		if (fam)
			set(c, spec, "amiFamily", fam);
	}
	if (add_family && has_alias)
		report(c, "moved", "spec.amiSelectorTerms[].alias -> spec.amiFamily");
	if (del(spec, "kubelet"))
		report(c, "dropped", "spec.kubelet (v1beta1 keeps it in the NodePool)");
}

/* ---- the registered conversion ------------------------------------------ */

static int ec2_convert(void *self, const char *json, const char *api_version, const char *kind,
		       uint32_t target, kp_conversion_sink *sink, kp_error *err)
{
	(void)self;
	int to = target == KP_CONVERT_V1 && !strcmp(api_version, V1BETA1) &&
		 !strcmp(kind, "EC2NodeClass");
	int back = target == KP_CONVERT_V1BETA1 && !strcmp(api_version, V1) &&
		   !strcmp(kind, "EC2NodeClass");
	if (!to && !back)
		return KP_ENOTSUP;
	cJSON *o = cJSON_Parse(json);
	if (!o || !cJSON_IsObject(o)) {
		cJSON_Delete(o);
		return kp_error_set(err, KP_ENOMEM, NULL, "out of memory");
	}
	const char *name = str(get(o, "metadata"), "name");
	conv c = { sink, name ? name : "", 0 };
	set(&c, o, "apiVersion", cJSON_CreateString(to ? V1 : V1BETA1));
	if (to)
		to_v1(&c, o);
	else
		to_v1beta1(&c, o);
	char *out = c.rc ? NULL : cJSON_PrintUnformatted(o);
	int rc = c.rc ? c.rc : out ? kp_conversion_sink_emit(sink, out) : KP_ENOMEM;
	free(out);
	if (rc) {
		size_t n = strlen(c.name) + 64;
		char *msg = malloc(n);
		if (msg)
			snprintf(msg, n, "EC2NodeClass/%s: %s", c.name, kp_strerror(rc));
		kp_error_set(err, rc, NULL, msg ? msg : kp_strerror(rc));
		free(msg);
	}
	cJSON_Delete(o);
	return rc;
}

int kp__aws_register_conversions(kp_registry *registry, kp_error *err)
{
	kp_conversion_ops ops = KP_CONVERSION_OPS_INIT;
	ops.flags = KP_CONVERSION_F_NODE_CLASS | KP_CONVERSION_F_KUBELET;
	ops.name = "aws";
	ops.node_class_group = GROUP;
	ops.node_class_kind = "EC2NodeClass";
	ops.convert = ec2_convert;
	return kp_registry_add_conversion(registry, &ops, NULL, err);
}
