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
	const char *kind; /* of the object reported on */
	const char *name;
	int rc; /* first failure */
} conv;

static void report(conv *c, const char *verb, const char *detail)
{
	size_t n = strlen(verb) + strlen(c->name) + strlen(detail) + 32;
	char *line = malloc(n + strlen(c->kind));
	if (!line) {
		c->rc = c->rc ? c->rc : KP_ENOMEM;
		return;
	}
	snprintf(line, n + strlen(c->kind), "%s: %s/%s: %s", verb, c->kind, c->name, detail);
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
	else if (!c->rc)
		c->rc = KP_EINVAL; /* metadata or its annotations are not objects */
}

static void del_annotation(cJSON *o, const char *key)
{
	cJSON *meta = get(o, "metadata");
	cJSON *ann = get(meta, "annotations");
	if (!cJSON_IsObject(ann))
		return;
	del(ann, key);
	if (cJSON_GetArraySize(ann) == 0)
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
	const cJSON *bdm = get(spec, "blockDeviceMappings");
	int inject = !bdm || cJSON_IsNull(bdm);
	report(c, "renamed", inject ? "spec.amiFamily: Ubuntu -> AL2 (annotated " UBUNTU_KEY
				      "; Ubuntu's root volume /dev/sda1 written to "
				      "spec.blockDeviceMappings)"
				    : "spec.amiFamily: Ubuntu -> AL2 (annotated " UBUNTU_KEY ")");
	if (inject) {
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
	if (!spec) {
		c->rc = c->rc ? c->rc : KP_EINVAL; /* spec is not an object */
		return;
	}
	/* v1beta1's EC2NodeClass has no kubelet (its NodePool has): one here
	 * is a member the API server prunes, and kept it would become v1's
	 * kubelet, which v1 -> v1beta1 drops */
	if (del(spec, "kubelet"))
		report(c, "dropped", "spec.kubelet (not a v1beta1 field)");
	/* nor an amiSelectorTerms alias (v1's; the term stays, as pruned) */
	cJSON *term;
	cJSON_ArrayForEach(term, get(spec, "amiSelectorTerms"))
		if (cJSON_IsObject(term) && del(term, "alias"))
			report(c, "dropped", "spec.amiSelectorTerms[].alias (not a v1beta1 field)");
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
	if (!spec) {
		c->rc = c->rc ? c->rc : KP_EINVAL; /* spec is not an object */
		return;
	}
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

/* ---- v1alpha1 AWSNodeTemplate (karpenter-convert) ---------------------- */

#define ROLE_PLACEHOLDER "$KARPENTER_NODE_ROLE"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The comma-separated values of a selector value, trimmed, as a cJSON
 * string array. */
static cJSON *split_values(conv *c, const char *v)
{
	cJSON *out = cJSON_CreateArray();
	for (const char *p = v; out && p;) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		while (n && *p == ' ')
			p++, n--;
		while (n && p[n - 1] == ' ')
			n--;
		char *item = malloc(n + 1);
		if (!item) {
			cJSON_Delete(out);
			out = NULL;
			break;
		}
		memcpy(item, p, n);
		item[n] = '\0';
		cJSON *sv = cJSON_CreateString(item);
		free(item);
		if (!sv || !cJSON_AddItemToArray(out, sv)) {
			cJSON_Delete(sv);
			cJSON_Delete(out);
			out = NULL;
			break;
		}
		p = end ? end + 1 : NULL;
	}
	if (!out && !c->rc)
		c->rc = KP_ENOMEM;
	return out;
}

/* Every combination of the tag values (createSelectorTags: the first key's
 * values vary fastest), as an array of tag objects; one empty object when
 * there are no tags. */
static cJSON *tag_sets(conv *c, const cJSON *selector, const char *const *keys, size_t n_keys)
{
	cJSON *sets = cJSON_CreateArray(), *empty = cJSON_CreateObject();
	if (!sets || !empty || !cJSON_AddItemToArray(sets, empty)) {
		cJSON_Delete(sets);
		cJSON_Delete(empty);
		c->rc = c->rc ? c->rc : KP_ENOMEM;
		return NULL;
	}
	for (size_t k = 0; k < n_keys && !c->rc; k++) {
		cJSON *values = split_values(c, str(selector, keys[k]));
		cJSON *next = cJSON_CreateArray();
		const cJSON *v, *t;
		cJSON_ArrayForEach(v, values) {
			cJSON_ArrayForEach(t, sets) {
				cJSON *copy = cJSON_Duplicate(t, 1);
				if (!copy || !cJSON_AddItemToArray(next, copy)) {
					cJSON_Delete(copy);
					c->rc = c->rc ? c->rc : KP_ENOMEM;
					break;
				}
				set(c, copy, keys[k], cJSON_CreateString(v->valuestring));
			}
		}
		cJSON_Delete(values);
		cJSON_Delete(sets);
		sets = next;
		if (!sets)
			c->rc = c->rc ? c->rc : KP_ENOMEM;
	}
	if (c->rc) {
		cJSON_Delete(sets);
		return NULL;
	}
	return sets;
}

/* A v1alpha1 selector map as v1 selector terms: its ids (aws::ids, or
 * aws-ids) each a term of their own, then, for AMIs, owners x names x tag
 * combinations (aws::owners, aws::name), for subnets and security groups
 * the tag combinations (karpenter-convert's expansion, with the ids apart:
 * a v1 term cannot combine an id with other fields). */
static cJSON *selector_terms(conv *c, const cJSON *selector, const char *path, int ami)
{
	size_t n = (size_t)cJSON_GetArraySize(selector), n_tags = 0;
	const char **keys = calloc(n ? n : 1, sizeof(*keys));
	const char *ids = NULL, *names = NULL, *owners = NULL;
	const cJSON *e;
	if (!keys) {
		c->rc = c->rc ? c->rc : KP_ENOMEM;
		return NULL;
	}
	cJSON_ArrayForEach(e, selector) {
		if (!cJSON_IsString(e) || !e->string) /* a selector written as a list */
			continue;
		if (!strcmp(e->string, "aws::ids") || !strcmp(e->string, "aws-ids"))
			ids = e->valuestring;
		else if (ami && !strcmp(e->string, "aws::name"))
			names = e->valuestring;
		else if (ami && !strcmp(e->string, "aws::owners"))
			owners = e->valuestring;
		else
			keys[n_tags++] = e->string;
	}
	qsort(keys, n_tags, sizeof(*keys), cmp_str);
	cJSON *terms = cJSON_CreateArray();
	if (ids) {
		if (n_tags || names || owners) {
			size_t m = strlen(path) + 200;
			char *detail = malloc(m);
			if (detail) {
				snprintf(detail, m, "%s: aws::ids and the other keys became separate "
					 "terms (a v1 term cannot combine an id with other fields), "
					 "which v1 ORs where v1alpha1 ANDed them: check the selection",
					 path);
				report(c, "warning", detail);
				free(detail);
			}
		}
		cJSON *values = split_values(c, ids);
		const cJSON *v;
		cJSON_ArrayForEach(v, values) {
			cJSON *t = cJSON_CreateObject();
			if (!t || !cJSON_AddItemToArray(terms, t)) {
				cJSON_Delete(t);
				c->rc = c->rc ? c->rc : KP_ENOMEM;
				break;
			}
			set(c, t, "id", cJSON_CreateString(v->valuestring));
		}
		cJSON_Delete(values);
		if (!n_tags && !names && !owners) {
			free(keys);
			return terms;
		}
	}
	cJSON *sets = tag_sets(c, selector, keys, n_tags);
	cJSON *owner_list = owners ? split_values(c, owners) : cJSON_CreateArray();
	cJSON *name_list = names ? split_values(c, names) : cJSON_CreateArray();
	if (owner_list && !owners)
		cJSON_AddItemToArray(owner_list, cJSON_CreateString(""));
	if (name_list && !names)
		cJSON_AddItemToArray(name_list, cJSON_CreateString(""));
	const cJSON *o, *nm, *ts;
	cJSON_ArrayForEach(o, owner_list) {
		cJSON_ArrayForEach(nm, name_list) {
			cJSON_ArrayForEach(ts, sets) {
				cJSON *t = cJSON_CreateObject();
				if (!t || !cJSON_AddItemToArray(terms, t)) {
					cJSON_Delete(t);
					c->rc = c->rc ? c->rc : KP_ENOMEM;
					continue;
				}
				if (*nm->valuestring)
					set(c, t, "name", cJSON_CreateString(nm->valuestring));
				if (*o->valuestring)
					set(c, t, "owner", cJSON_CreateString(o->valuestring));
				if (cJSON_GetArraySize(ts))
					set(c, t, "tags", cJSON_Duplicate(ts, 1));
			}
		}
	}
	cJSON_Delete(owner_list);
	cJSON_Delete(name_list);
	cJSON_Delete(sets);
	free(keys);
	return terms;
}

/* nodeclassutil.New and karpenter-convert's convertNodeTemplate: a v1alpha1
 * AWSNodeTemplate spec (or a Provisioner's inline provider block) as a
 * v1beta1 EC2NodeClass spec. */
static cJSON *template_spec(conv *c, cJSON *in, kp_error *err)
{
	if (in && !cJSON_IsObject(in)) {
		/* the API server stores no other type; its members are read by name */
		if (!c->rc)
			c->rc = KP_EINVAL;
		size_t n = strlen(c->name) + 100;
		char *msg = malloc(n);
		if (msg)
			snprintf(msg, n, "%s/%s: spec: Invalid value: must be an object", c->kind,
				 c->name);
		kp_error_set(err, KP_EINVAL, "spec", msg ? msg : "spec: must be an object");
		free(msg);
		return NULL;
	}
	if (get(in, "launchTemplate")) {
		if (!c->rc)
			c->rc = KP_EINVAL; /* KP_ENOTSUP would mean "not ours" */
		size_t n = strlen(c->name) + 200;
		char *msg = malloc(n);
		if (msg)
			snprintf(msg, n, "%s/%s: spec.launchTemplate: v1 has no launch templates: "
				 "move its settings (AMI, user data, block devices, security "
				 "groups, metadata options) into the EC2NodeClass", c->kind, c->name);
		kp_error_set(err, KP_EINVAL, "spec.launchTemplate", msg ? msg : "launchTemplate");
		free(msg);
		return NULL;
	}
	cJSON *spec = cJSON_CreateObject();
	if (!spec) {
		c->rc = KP_ENOMEM;
		return NULL;
	}
	const char *family = str(in, "amiFamily");
	set(c, spec, "amiFamily", cJSON_CreateString(family ? family : "AL2"));
	if (get(in, "amiSelector"))
		set(c, spec, "amiSelectorTerms",
		    selector_terms(c, get(in, "amiSelector"), "spec.amiSelector", 1));
	static const char *const copied[] = { "blockDeviceMappings", "context", "detailedMonitoring",
					      "instanceProfile", "metadataOptions" };
	for (size_t i = 0; i < sizeof(copied) / sizeof(*copied); i++)
		if (get(in, copied[i]))
			set(c, spec, copied[i], cJSON_Duplicate(get(in, copied[i]), 1));
	if (!get(in, "instanceProfile")) {
		set(c, spec, "role", cJSON_CreateString(ROLE_PLACEHOLDER));
		const char *kind = c->kind;
		c->kind = "EC2NodeClass";
		report(c, "warning", "spec.role is " ROLE_PLACEHOLDER ": replace it with the name "
				     "of your nodes' IAM role");
		c->kind = kind;
	}
	if (get(in, "securityGroupSelector"))
		set(c, spec, "securityGroupSelectorTerms",
		    selector_terms(c, get(in, "securityGroupSelector"),
				   "spec.securityGroupSelector", 0));
	if (get(in, "subnetSelector"))
		set(c, spec, "subnetSelectorTerms",
		    selector_terms(c, get(in, "subnetSelector"), "spec.subnetSelector", 0));
	static const char *const copied2[] = { "tags", "userData" };
	for (size_t i = 0; i < 2; i++)
		if (get(in, copied2[i]))
			set(c, spec, copied2[i], cJSON_Duplicate(get(in, copied2[i]), 1));
	static const char *const known[] = { "amiFamily", "amiSelector", "blockDeviceMappings",
					     "context", "detailedMonitoring", "instanceProfile",
					     "metadataOptions", "securityGroupSelector",
					     "subnetSelector", "tags", "userData", "apiVersion",
					     "kind" };
	const cJSON *e;
	cJSON_ArrayForEach(e, in) {
		size_t k = 0;
		while (k < sizeof(known) / sizeof(*known) && strcmp(known[k], e->string))
			k++;
		if (k < sizeof(known) / sizeof(*known))
			continue;
		size_t m = strlen(e->string) + 64;
		char *detail = malloc(m);
		if (detail) {
			snprintf(detail, m, "spec.%s (v1beta1 has no such field)", e->string);
			report(c, "dropped", detail);
			free(detail);
		}
	}
	return spec;
}

/* A v1beta1 EC2NodeClass made from a template spec, named name, with the
 * metadata karpenter-convert keeps (name, labels, annotations,
 * finalizers). */
static cJSON *nodeclass_from(conv *c, cJSON *tspec, const cJSON *meta, const char *name,
			     kp_error *err)
{
	cJSON *spec = template_spec(c, tspec, err);
	cJSON *o = spec ? cJSON_CreateObject() : NULL, *m = cJSON_CreateObject();
	if (!o || !m) {
		cJSON_Delete(spec);
		cJSON_Delete(o);
		cJSON_Delete(m);
		c->rc = c->rc ? c->rc : KP_ENOMEM;
		return NULL;
	}
	set(c, o, "apiVersion", cJSON_CreateString(V1BETA1));
	set(c, o, "kind", cJSON_CreateString("EC2NodeClass"));
	set(c, o, "metadata", m);
	set(c, m, "name", cJSON_CreateString(name));
	static const char *const kept[] = { "labels", "annotations", "finalizers" };
	for (size_t i = 0; i < 3; i++)
		if (get(meta, kept[i]))
			set(c, m, kept[i], cJSON_Duplicate(get(meta, kept[i]), 1));
	set(c, o, "spec", spec);
	return o;
}

/* karpenter-convert's Provisioner defaults (v1alpha5 SetDefaults of the
 * AWS provider): os linux, arch amd64, capacity-type on-demand, and
 * categories c, m, r of generation > 2 without instance-type constraints. */
static const char *normalized_key(const char *key)
{
	static const char *const beta[][2] = {
		{ "beta.kubernetes.io/arch", "kubernetes.io/arch" },
		{ "beta.kubernetes.io/os", "kubernetes.io/os" },
		{ "beta.kubernetes.io/instance-type", "node.kubernetes.io/instance-type" },
		{ "failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/zone" },
		{ "failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/region" },
	};
	for (size_t i = 0; i < sizeof(beta) / sizeof(*beta); i++)
		if (!strcmp(key, beta[i][0]))
			return beta[i][1];
	return key;
}

static int has_requirement(const cJSON *reqs, const char *key)
{
	const cJSON *r;
	cJSON_ArrayForEach(r, reqs) {
		const char *k = str(r, "key");
		if (k && !strcmp(normalized_key(k), key))
			return 1;
	}
	return 0;
}

static void add_requirement(conv *c, cJSON *reqs, const char *key, const char *op,
			    const char *const *values, size_t n, char *added, size_t added_size)
{
	cJSON *r = cJSON_CreateObject(), *v = cJSON_CreateArray();
	if (!r || !v || !cJSON_AddItemToArray(reqs, r)) {
		cJSON_Delete(r);
		cJSON_Delete(v);
		c->rc = c->rc ? c->rc : KP_ENOMEM;
		return;
	}
	set(c, r, "key", cJSON_CreateString(key));
	set(c, r, "operator", cJSON_CreateString(op));
	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(v, cJSON_CreateString(values[i]));
	set(c, r, "values", v);
	size_t len = strlen(added);
	snprintf(added + len, added_size - len, "%s%s %s", len ? "; " : "", key, op);
}

static void provisioner_defaults(conv *c, cJSON *spec)
{
	cJSON *reqs = get(spec, "requirements");
	if (!reqs) {
		reqs = cJSON_CreateArray();
		set(c, spec, "requirements", reqs);
	}
	if (!cJSON_IsArray(reqs) || c->rc)
		return;
	cJSON *before = cJSON_Duplicate(reqs, 1);
	char added[256] = ""; /* holds the constant keys below */
	static const char *const linux_[] = { "linux" }, *const amd64[] = { "amd64" },
				 *const on_demand[] = { "on-demand" },
				 *const cmr[] = { "c", "m", "r" }, *const gen[] = { "2" };
	if (!has_requirement(before, "kubernetes.io/os"))
		add_requirement(c, reqs, "kubernetes.io/os", "In", linux_, 1, added, sizeof(added));
	if (!has_requirement(before, "kubernetes.io/arch"))
		add_requirement(c, reqs, "kubernetes.io/arch", "In", amd64, 1, added, sizeof(added));
	if (!has_requirement(before, "karpenter.sh/capacity-type"))
		add_requirement(c, reqs, "karpenter.sh/capacity-type", "In", on_demand, 1, added,
				sizeof(added));
	if (!has_requirement(before, "node.kubernetes.io/instance-type") &&
	    !has_requirement(before, "karpenter.k8s.aws/instance-family") &&
	    !has_requirement(before, "karpenter.k8s.aws/instance-category") &&
	    !has_requirement(before, "karpenter.k8s.aws/instance-generation")) {
		add_requirement(c, reqs, "karpenter.k8s.aws/instance-category", "In", cmr, 3, added,
				sizeof(added));
		add_requirement(c, reqs, "karpenter.k8s.aws/instance-generation", "Gt", gen, 1,
				added, sizeof(added));
	}
	cJSON_Delete(before);
	if (*added) {
		char detail[400];
		snprintf(detail, sizeof(detail), "karpenter-convert's default requirements added "
			 "to spec.requirements: %s", added);
		/* reported under the Provisioner */
		const char *kind = c->kind;
		c->kind = "Provisioner";
		report(c, "warning", detail);
		c->kind = kind;
	}
}

/* ---- the registered conversion ------------------------------------------ */

/* Emit o (compact JSON). */
static void emit(conv *c, const cJSON *o)
{
	if (c->rc)
		return;
	char *out = cJSON_PrintUnformatted(o);
	int rc = out ? kp_conversion_sink_emit(c->sink, out) : KP_ENOMEM;
	free(out);
	if (rc)
		c->rc = rc;
}

/* A v1beta1 EC2NodeClass o, taken on to v1 when that is the target. */
static void finish_nodeclass(conv *c, cJSON *o, uint32_t target)
{
	if (target == KP_CONVERT_V1 && !c->rc) {
		set(c, o, "apiVersion", cJSON_CreateString(V1));
		to_v1(c, o);
	}
	emit(c, o);
}

/* A karpenter.sh/v1alpha5 Provisioner before the core converts it:
 * karpenter-convert's default requirements, and an inline provider block as
 * a generated EC2NodeClass of the Provisioner's name. */
static void provisioner_prepass(conv *c, cJSON *o, uint32_t target, kp_error *err)
{
	cJSON *spec = get(o, "spec");
	if (!cJSON_IsObject(spec))
		return;
	provisioner_defaults(c, spec);
	cJSON *provider = get(spec, "provider");
	cJSON *nc = NULL;
	if (cJSON_IsObject(provider)) {
		c->kind = "Provisioner";
		nc = nodeclass_from(c, provider, NULL, c->name, err);
		cJSON *ref = cJSON_CreateObject();
		if (ref)
			set(c, ref, "name", cJSON_CreateString(c->name));
		set(c, spec, "providerRef", ref);
		del(spec, "provider");
		report(c, "moved", "spec.provider -> a generated EC2NodeClass (spec.providerRef)");
	}
	emit(c, o);
	if (nc) {
		c->kind = "EC2NodeClass";
		size_t n = strlen(c->name) * 2 + 64;
		char *line = malloc(n);
		if (line) {
			snprintf(line, n, "generated: EC2NodeClass/%s from Provisioner/%s spec.provider",
				 c->name, c->name);
			kp_conversion_sink_report(c->sink, line);
			free(line);
		}
		finish_nodeclass(c, nc, target);
		cJSON_Delete(nc);
	}
}

static int ec2_convert(void *self, const char *json, const char *api_version, const char *kind,
		       uint32_t target, kp_conversion_sink *sink, kp_error *err)
{
	(void)self;
	int to = target == KP_CONVERT_V1 && !strcmp(api_version, V1BETA1) &&
		 !strcmp(kind, "EC2NodeClass");
	int back = target == KP_CONVERT_V1BETA1 && !strcmp(api_version, V1) &&
		   !strcmp(kind, "EC2NodeClass");
	int tmpl = !strcmp(api_version, V1ALPHA1) && !strcmp(kind, "AWSNodeTemplate");
	int prov = !strcmp(api_version, "karpenter.sh/v1alpha5") && !strcmp(kind, "Provisioner");
	if (!to && !back && !tmpl && !prov)
		return KP_ENOTSUP;
	cJSON *o = cJSON_Parse(json);
	if (!o || !cJSON_IsObject(o)) {
		cJSON_Delete(o);
		return kp_error_set(err, KP_ENOMEM, NULL, "out of memory");
	}
	const char *name = str(get(o, "metadata"), "name");
	conv c = { sink, tmpl ? "AWSNodeTemplate" : prov ? "Provisioner" : "EC2NodeClass",
		   name ? name : "", 0 };
	kp_error e = KP_ERROR_INIT;
	if (prov) {
		provisioner_prepass(&c, o, target, &e);
	} else if (tmpl) {
		cJSON *nc = nodeclass_from(&c, get(o, "spec"), get(o, "metadata"), c.name, &e);
		if (nc) {
			c.kind = "EC2NodeClass";
			size_t n = strlen(c.name) * 2 + 64;
			char *line = malloc(n);
			if (line) {
				snprintf(line, n, "renamed: AWSNodeTemplate/%s -> EC2NodeClass/%s",
					 c.name, c.name);
				kp_conversion_sink_report(sink, line);
				free(line);
			}
			finish_nodeclass(&c, nc, target);
			cJSON_Delete(nc);
		}
	} else {
		set(&c, o, "apiVersion", cJSON_CreateString(to ? V1 : V1BETA1));
		if (to)
			to_v1(&c, o);
		else
			to_v1beta1(&c, o);
		emit(&c, o);
	}
	int rc = c.rc;
	if (rc && e.code) {
		*err = e;
	} else if (rc) {
		size_t n = strlen(c.name) + strlen(c.kind) + 64;
		char *msg = malloc(n);
		if (msg)
			snprintf(msg, n, "%s/%s: %s", c.kind, c.name, kp_strerror(rc));
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
