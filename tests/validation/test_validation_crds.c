/*
 * Validation against upstream data (../shared/data):
 *
 * - the rule inventory equals the v1 CRDs: every constraint (pattern,
 *   maxLength, minLength, minimum, maximum, maxItems, maxProperties, format,
 *   enum, required), every x-kubernetes-validations rule (expression and
 *   message) and every x-kubernetes-list-type set/map of
 *   crds/karpenter.sh_nodepools.yaml, karpenter.sh_nodeclaims.yaml and
 *   karpenter.kwok.sh_kwoknodeclasses.yaml is an inventory row with the
 *   CRD's text (KWOKNodeClass's rows are those libkarpenter-kwok registers),
 *   and every CRD row of the inventories is in a CRD;
 * - every NodePool, NodeClaim and KWOKNodeClass of manifests/v1 validates
 *   after defaulting, except windows-custom-userdata.yaml, whose
 *   nodeClassRef.group "karpenter.k8s.aws/v1" breaks the group pattern.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L
#define KP_EXPERIMENTAL_API 1
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>
#include <karpenter/sys/kwok.h>

#include "document/tree.h"
#include "schema/registry.h"
#include "validation/validation_private.h"
#include "kp_test.h"

/* The core kinds and KWOKNodeClass (set up in main). */
static kp_registry *reg;
static uint32_t kwok_kind;

static struct {
	uint32_t kind;
	const char *file;
} crds[] = {
	{ KP_KIND_NODEPOOL, "crds/karpenter.sh_nodepools.yaml" },
	{ KP_KIND_NODECLAIM, "crds/karpenter.sh_nodeclaims.yaml" },
	{ KP_KIND_UNKNOWN, "crds/karpenter.kwok.sh_kwoknodeclasses.yaml" }, /* kwok_kind */
};

/* Rows found in the CRDs, to check the converse. */
static const kp_validation_rule *seen[1024];
static size_t n_seen;

static void expect_rule(uint32_t kind, const char *path, const char *keyword, const char *text,
			const char *message)
{
	const kp_validation_rule *r = kp__vrule_find_in(kp__registry_kind_info(reg, kind), path,
							keyword);
	ck_assert_msg(r != NULL, "%s: %s %s (%s) is not in the inventory",
		      kp_registry_kind_name(reg, kind), path, keyword, text);
	ck_assert_msg(!strcmp(r->text, text), "%s: text %s, CRD has %s", r->id, r->text, text);
	if (message)
		ck_assert_msg(!strcmp(r->message, message), "%s: message %s, CRD has %s", r->id,
			      r->message, message);
	ck_assert_uint_lt(n_seen, sizeof(seen) / sizeof(seen[0]));
	seen[n_seen++] = r;
}

static char *join(const char *a, const char *sep, const char *b)
{
	size_t n = strlen(a) + strlen(sep) + strlen(b) + 1;
	char *s = malloc(n);
	snprintf(s, n, "%s%s%s", *a ? a : "", *a ? sep : "", b);
	return s;
}

static void walk(uint32_t kind, const char *path, const kp__node *s)
{
	static const char *const scalars[] = { "maxLength", "minLength", "pattern", "format", "minimum",
					       "maximum", "maxItems", "minItems", "maxProperties" };
	for (size_t i = 0; i < sizeof(scalars) / sizeof(scalars[0]); i++) {
		const kp__node *v = kp__node_get(s, scalars[i]);
		if (v)
			expect_rule(kind, path, scalars[i], v->text, NULL);
	}
	const kp__node *en = kp__node_get(s, "enum");
	if (en) {
		char *list = malloc(1);
		list[0] = '\0';
		for (size_t i = 0; i < en->n; i++) {
			char q[256];
			snprintf(q, sizeof(q), "\"%s\"", en->items[i]->text);
			char *nl = join(list, ", ", q);
			free(list);
			list = nl;
		}
		expect_rule(kind, path, "enum", list, NULL);
		free(list);
	}
	const kp__node *xv = kp__node_get(s, "x-kubernetes-validations");
	for (size_t i = 0; xv && i < xv->n; i++) {
		char kw[64];
		snprintf(kw, sizeof(kw), "x-kubernetes-validations[%zu]", i);
		expect_rule(kind, path, kw, kp__node_get(xv->items[i], "rule")->text,
			    kp__node_get(xv->items[i], "message")->text);
	}
	const kp__node *lt = kp__node_get(s, "x-kubernetes-list-type");
	if (lt && (!strcmp(lt->text, "set") || !strcmp(lt->text, "map"))) {
		const kp__node *keys = kp__node_get(s, "x-kubernetes-list-map-keys");
		char text[128];
		snprintf(text, sizeof(text), "%s%s%s", lt->text, keys ? " " : "",
			 keys ? keys->items[0]->text : "");
		ck_assert_uint_le(keys ? keys->n : 1, 1);
		expect_rule(kind, path, "x-kubernetes-list-type", text, NULL);
	}
	const kp__node *props = kp__node_get(s, "properties");
	for (size_t i = 0; props && i < props->n; i++) {
		char *p = join(path, ".", props->keys[i]);
		walk(kind, p, props->items[i]);
		free(p);
	}
	const kp__node *req = kp__node_get(s, "required");
	for (size_t i = 0; req && i < req->n; i++) {
		char *p = join(path, ".", req->items[i]->text);
		expect_rule(kind, p, "required", "", NULL);
		free(p);
	}
	const kp__node *items = kp__node_get(s, "items");
	if (items) {
		char *p = join(path, "", "[*]");
		walk(kind, p, items);
		free(p);
	}
	const kp__node *ap = kp__node_get(s, "additionalProperties");
	if (ap && ap->type == KP__N_OBJECT) {
		char *p = join(path, "", ".*");
		walk(kind, p, ap);
		free(p);
	}
}

START_TEST(test_inventory_is_the_crds)
{
	n_seen = 0;
	for (size_t c = 0; c < sizeof(crds) / sizeof(crds[0]); c++) {
		size_t len;
		char *text = kp_test_read_file(kp_test_data_path(crds[c].file), &len);
		ck_assert_ptr_nonnull(text);
		kp__budget b = { (size_t)1 << 20, 0, (size_t)1 << 26, 0, 100, NULL, 0, 0 };
		kp__node *docs = NULL;
		kp_error e = KP_ERROR_INIT;
		ck_assert_msg(kp__yaml_parse(&docs, text, len, &b, &e) == KP_OK, "%s", e.message);
		const kp__node *crd = docs->items[0];
		const kp__node *ver = kp__node_get(kp__node_get(crd, "spec"), "versions")->items[0];
		const kp__node *schema = kp__node_get(kp__node_get(ver, "schema"), "openAPIV3Schema");
		walk(crds[c].kind, "", schema);
		/* the scale subresource's paths */
		const kp__node *sub = kp__node_get(ver, "subresources");
		const kp__node *scale = sub ? kp__node_get(sub, "scale") : NULL;
		if (scale) {
			expect_rule(crds[c].kind, "spec.replicas", "scale.specReplicasPath",
				    kp__node_get(scale, "specReplicasPath")->text, NULL);
			expect_rule(crds[c].kind, "status.nodes", "scale.statusReplicasPath",
				    kp__node_get(scale, "statusReplicasPath")->text, NULL);
		}
		kp__node_free(docs);
		free(text);
	}
	/* conversely: every CRD row of the inventory came from a CRD */
	size_t crd_rows = 0, all_rows = 0;
	for (size_t c = 0; c < sizeof(crds) / sizeof(crds[0]); c++)
		all_rows += kp_registry_rule_count(reg, crds[c].kind);
	for (size_t i = 0; i < kp_validation_rule_count(); i++)
		ck_assert_uint_ne(kp_validation_rule_at(i)->kind, 3); /* none is KWOK's */
	for (size_t i = 0; i < all_rows; i++) {
		size_t c = 0, k = i;
		while (k >= kp_registry_rule_count(reg, crds[c].kind))
			k -= kp_registry_rule_count(reg, crds[c++].kind);
		const kp_validation_rule *r = kp_registry_rule_at(reg, crds[c].kind, k);
		ck_assert_ptr_nonnull(r);
		ck_assert_uint_eq(r->kind, crds[c].kind);
		int from_crd = r->source == KP_RULE_SOURCE_OPENAPI || r->source == KP_RULE_SOURCE_DECODE ||
			       r->source == KP_RULE_SOURCE_LIST_TYPE || r->source == KP_RULE_SOURCE_SCALE ||
			       (r->source == KP_RULE_SOURCE_CEL && strcmp(r->path, "*"));
		if (!from_crd)
			continue;
		crd_rows++;
		int found = 0;
		for (size_t j = 0; j < n_seen; j++)
			found |= seen[j] == r;
		ck_assert_msg(found, "inventory row %s is not in the CRDs", r->id);
	}
	ck_assert_uint_eq(crd_rows, n_seen);
}
END_TEST

/* ------------------------------------------------------------------------ */

static const char wanted_windows_error[] =
	"NodePool/windows2022: spec.template.spec.nodeClassRef.group: Invalid value: "
	"\"karpenter.k8s.aws/v1\": spec.template.spec.nodeClassRef.group in body should match "
	"'^[^/]*$'\n";

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * A quantity that fails the CRD's pattern: the decode error quotes the CRD's
 * own pattern, read here from the CRD text (every int-or-string quantity
 * map of the NodePool and NodeClaim CRDs has the same one).
 */
static char *crd_quantity_pattern(const char *file, size_t *count)
{
	static const char key[] = "pattern: ^(\\+|-)?(([0-9]+";
	char *text = kp_test_read_file(kp_test_data_path(file), NULL);
	ck_assert_ptr_nonnull(text);
	char *pattern = NULL;
	*count = 0;
	for (char *p = text; (p = strstr(p, key)) != NULL; p++) {
		const char *start = p + strlen("pattern: ");
		size_t len = strcspn(start, "\n");
		char *one = strndup(start, len);
		if (pattern) {
			ck_assert_str_eq(one, pattern);
			free(one);
		} else {
			pattern = one;
		}
		(*count)++;
	}
	free(text);
	ck_assert_ptr_nonnull(pattern);
	return pattern;
}

static const struct {
	const char *crd;
	const char *yaml;
	const char *field;  /* the message's path */
	const char *kpath;  /* the API server's path */
} quantity_fields[] = {
	{ "crds/karpenter.sh_nodepools.yaml",
	  "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: q}\nspec: {limits: {cpu: 1x}}\n",
	  "spec.limits[cpu]", "spec.limits.cpu" },
	{ "crds/karpenter.sh_nodepools.yaml",
	  "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: q}\nspec: {}\n"
	  "status: {resources: {cpu: 1x}}\n",
	  "status.resources[cpu]", "status.resources.cpu" },
	{ "crds/karpenter.sh_nodeclaims.yaml",
	  "apiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata: {name: q}\n"
	  "spec: {resources: {requests: {cpu: 1x}}}\n",
	  "spec.resources.requests[cpu]", "spec.resources.requests.cpu" },
	{ "crds/karpenter.sh_nodeclaims.yaml",
	  "apiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata: {name: q}\nspec: {}\n"
	  "status: {allocatable: {cpu: 1x}}\n",
	  "status.allocatable[cpu]", "status.allocatable.cpu" },
	{ "crds/karpenter.sh_nodeclaims.yaml",
	  "apiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata: {name: q}\nspec: {}\n"
	  "status: {capacity: {cpu: 1x}}\n",
	  "status.capacity[cpu]", "status.capacity.cpu" },
};

START_TEST(test_quantity_pattern_is_the_crds)
{
	size_t count;
	char *pattern = crd_quantity_pattern(quantity_fields[_i].crd, &count);
	ck_assert_uint_ge(count, 2);
	const char *kind = strstr(quantity_fields[_i].yaml, "NodePool") ? "NodePool" : "NodeClaim";
	char want[1024];
	snprintf(want, sizeof(want),
		 "%s/q: %s: Invalid value: \"1x\": %s in body should match '%s'", kind,
		 quantity_fields[_i].field, quantity_fields[_i].kpath, pattern);
	kp_decode_result *r = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_decode(&r, quantity_fields[_i].yaml, strlen(quantity_fields[_i].yaml),
				   NULL, &e),
			 KP_EPARSE);
	ck_assert_ptr_null(r);
	ck_assert_str_eq(e.message, want);
	ck_assert_str_eq(e.field, quantity_fields[_i].field);
	free(pattern);
}
END_TEST

START_TEST(test_manifests)
{
	const char *dir = kp_test_data_path("manifests/v1");
	char dirpath[4096];
	snprintf(dirpath, sizeof(dirpath), "%s", dir);
	DIR *d = opendir(dirpath);
	ck_assert_msg(d != NULL, "cannot open %s", dirpath);
	char *names[256];
	size_t n = 0;
	for (struct dirent *de; (de = readdir(d)) != NULL;) {
		size_t l = strlen(de->d_name);
		if (l > 5 && !strcmp(de->d_name + l - 5, ".yaml") && n < 256)
			names[n++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), name_cmp);
	ck_assert_uint_ge(n, 20);
	size_t validated = 0, skipped = 0, windows = 0;
	for (size_t i = 0; i < n; i++) {
		char path[4200];
		snprintf(path, sizeof(path), "%s/%s", dirpath, names[i]);
		size_t len;
		char *text = kp_test_read_file(path, &len);
		ck_assert_ptr_nonnull(text);
		kp_decode_result *r = NULL;
		kp_error e = KP_ERROR_INIT;
		kp_decode_options dopts = KP_DECODE_OPTIONS_INIT;
		dopts.registry = reg;
		ck_assert_msg(kp_decode(&r, text, len, &dopts, &e) == KP_OK, "%s: %s", names[i], e.message);
		char report[4096] = "";
		for (size_t k = 0; k < kp_decode_result_count(r); k++) {
			const kp_decoded_object *o = kp_decode_result_at(r, k);
			if (o->kind != KP_KIND_NODEPOOL && o->kind != KP_KIND_NODECLAIM &&
			    o->kind != kwok_kind) {
				ck_assert_str_eq(o->kind_name, "EC2NodeClass");
				skipped++;
				continue;
			}
			ck_assert_int_eq(kp_registry_object_default(reg, o->kind, o->object, &e), KP_OK);
			kp_validation *v = NULL;
			kp_validate_options vo = KP_VALIDATE_OPTIONS_INIT;
			vo.registry = reg;
			ck_assert_int_eq(kp_validate(&v, o->kind, o->object, NULL, &vo, &e), KP_OK);
			for (size_t j = 0; j < kp_validation_count(v); j++) {
				const kp_field_error *fe = kp_validation_at(v, j);
				size_t used = strlen(report);
				snprintf(report + used, sizeof(report) - used, "%s: %s: %s\n", fe->object,
					 fe->field, fe->message);
			}
			kp_validation_free(v);
			validated++;
		}
		if (!strcmp(names[i], "windows-custom-userdata.yaml")) {
			ck_assert_str_eq(report, wanted_windows_error);
			windows = 1;
		} else {
			ck_assert_msg(report[0] == '\0', "%s:\n%s", names[i], report);
		}
		kp_decode_result_free(r);
		free(text);
		free(names[i]);
	}
	ck_assert_uint_eq(windows, 1);
	ck_assert_uint_ge(validated, 22);
	ck_assert_uint_ge(skipped, 20);
}
END_TEST

int main(void)
{
	kp_test_require_data("crds/karpenter.sh_nodepools.yaml");
	kp_test_require_data("crds/karpenter.sh_nodeclaims.yaml");
	kp_test_require_data("crds/karpenter.kwok.sh_kwoknodeclasses.yaml");
	kp_test_require_data("manifests/v1/windows-custom-userdata.yaml");
	if (kp_registry_new(&reg, NULL) || kp_kwok_register(reg, &kwok_kind, NULL))
		return 99;
	crds[2].kind = kwok_kind;
	Suite *s = suite_create("validation-crds");
	TCase *tc = tcase_create("crds");
	tcase_add_test(tc, test_inventory_is_the_crds);
	tcase_add_test(tc, test_manifests);
	tcase_add_loop_test(tc, test_quantity_pattern_is_the_crds, 0,
			    (int)(sizeof(quantity_fields) / sizeof(quantity_fields[0])));
	suite_add_tcase(s, tc);
	int rc = kp_test_run(&s, 1);
	kp_registry_free(reg);
	return rc;
}
