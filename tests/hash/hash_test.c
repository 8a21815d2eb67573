/* SPDX-License-Identifier: Apache-2.0 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "hash_test.h"
#include "kp_test.h"

kp__node *ht_load_unchecked(const char *relative)
{
	size_t len = 0;
	char *text = kp_test_read_file(kp_test_data_path(relative), &len);
	if (!text) {
		fprintf(stderr, "cannot read %s\n", relative);
		return NULL;
	}
	kp__budget b = { (size_t)1 << 22, 0, (size_t)1 << 26, 0, 200, NULL, 0, 0 };
	kp__node *docs = NULL;
	kp_error e;
	memset(&e, 0, sizeof(e));
	int rc = kp__yaml_parse(&docs, text, len, &b, &e);
	free(text);
	if (rc != KP_OK || !docs || docs->n < 1) {
		fprintf(stderr, "%s: %s\n", relative, rc ? e.message : "no document");
		kp__node_free(docs);
		return NULL;
	}
	kp__node *root = docs->items[0];
	docs->items[0] = NULL;
	docs->n = 0;
	kp__node_free(docs);
	return root;
}

kp__node *ht_load(const char *relative)
{
	kp__node *root = ht_load_unchecked(relative);
	ck_assert_msg(root != NULL, "cannot load %s", relative);
	return root;
}

const kp__node *ht_get(const kp__node *obj, const char *key)
{
	if (!obj || obj->type != KP__N_OBJECT)
		return NULL;
	return kp__node_get(obj, key);
}

const char *ht_str(const kp__node *obj, const char *key)
{
	const kp__node *n = ht_get(obj, key);
	return n && n->type == KP__N_STRING ? n->text : NULL;
}

uint64_t ht_u64(const char *text)
{
	ck_assert_ptr_nonnull(text);
	char *end = NULL;
	unsigned long long v = strtoull(text, &end, 10);
	ck_assert_msg(*text && end && !*end, "not a decimal uint64: \"%s\"", text);
	return (uint64_t)v;
}

void *ht_decode(uint32_t kind, const char *text)
{
	kp_decode_result *res = NULL;
	kp_error e;
	memset(&e, 0, sizeof(e));
	int rc = kp_decode(&res, text, strlen(text), NULL, &e);
	ck_assert_msg(rc == KP_OK, "decode: %s", e.message);
	ck_assert_uint_eq(kp_decode_result_count(res), 1);
	ck_assert_uint_eq(kp_decode_result_at(res, 0)->kind, kind);
	void *obj = NULL;
	ck_assert_int_eq(kp_decode_result_take(res, 0, &obj, &e), KP_OK);
	kp_decode_result_free(res);
	return obj;
}

kp_nodepool *ht_nodepool_from_template(const char *name, const kp__node *tmpl)
{
	kp__buf b;
	memset(&b, 0, sizeof(b));
	kp__buf_puts(&b, "{\"apiVersion\":\"karpenter.sh/v1\",\"kind\":\"NodePool\",\"metadata\":{\"name\":");
	kp__json_write_string(&b, name, strlen(name));
	kp__buf_puts(&b, "},\"spec\":{");
	if (tmpl) {
		kp__buf_puts(&b, "\"template\":");
		kp__json_write(&b, tmpl, 0);
	}
	kp__buf_puts(&b, "}}");
	char *json = kp__buf_take(&b, NULL);
	ck_assert_ptr_nonnull(json);
	kp_nodepool *np = ht_decode(KP_KIND_NODEPOOL, json);
	kp__free(json);
	return np;
}
