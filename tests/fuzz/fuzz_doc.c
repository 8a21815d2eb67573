/*
 * Documents the emitter wrote, read back (fuzz_doc.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_doc.h"

int fuzz_doc_buf_write(void *ctx, const char *d, size_t n)
{
	kp__buf_put(ctx, d, n);
	return 0;
}

static int same_number(const kp__node *a, const kp__node *b)
{
	if (a->len == b->len && !memcmp(a->text, b->text, a->len))
		return 1;
	return strtod(a->text, NULL) == strtod(b->text, NULL);
}

int fuzz_doc_same(const kp__node *a, const kp__node *b)
{
	if (a->type != b->type)
		return 0;
	switch (a->type) {
	case KP__N_NULL: return 1;
	case KP__N_BOOL: return !a->boolean == !b->boolean;
	case KP__N_NUMBER: return same_number(a, b);
	case KP__N_STRING: return a->len == b->len && !memcmp(a->text, b->text, a->len);
	default: break;
	}
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++) {
		if (a->type == KP__N_OBJECT && strcmp(a->keys[i], b->keys[i]))
			return 0;
		if (!fuzz_doc_same(a->items[i], b->items[i]))
			return 0;
	}
	return 1;
}

int fuzz_doc_valid_text(const kp__node *n)
{
	if (n->type == KP__N_STRING)
		return kp__utf8_valid(n->text, n->len);
	if (n->type == KP__N_NUMBER)
		return isfinite(strtod(n->text, NULL));
	for (size_t i = 0; i < n->n; i++)
		if ((n->type == KP__N_OBJECT && !kp__utf8_valid(n->keys[i], strlen(n->keys[i]))) ||
		    !fuzz_doc_valid_text(n->items[i]))
			return 0;
	return 1;
}

kp__node *fuzz_doc_read(const kp__buf *out, uint32_t format)
{
	kp__budget b = { .max_nodes = out->len * 2 + 64, .max_text = out->len * 2 + 64,
			 .max_depth = 1000 };
	kp__node *docs = NULL;
	const char *text = out->data ? out->data : "";
	int rc = format == KP_FORMAT_YAML ? kp__yaml_parse(&docs, text, out->len, &b, NULL)
					  : kp__json_parse(&docs, text, out->len, &b, NULL);
	if (rc != KP_OK || !docs || docs->n != 1) {
		kp__node_free(docs);
		return NULL;
	}
	return docs;
}

kp__node *fuzz_doc_check(fuzz_doc_fn write, const void *ctx)
{
	static const struct {
		uint32_t format, indent;
	} styles[] = {
		{ KP_FORMAT_JSON, KP_EMITTER_INDENT_KUBECTL },
		{ KP_FORMAT_JSON, KP_EMITTER_INDENT_COMPACT },
		{ KP_FORMAT_YAML, 0 },
	};
	kp__node *first = NULL;
	int refused = 0;
	for (size_t i = 0; i < sizeof(styles) / sizeof(styles[0]); i++) {
		kp__buf out = { 0 };
		kp_emitter_options o = KP_EMITTER_OPTIONS_INIT;
		o.format = styles[i].format;
		o.indent = styles[i].indent;
		kp_emitter *em = NULL;
		FUZZ_DOC_REQUIRE(kp_emitter_new(&em, &o, fuzz_doc_buf_write, &out, NULL) == KP_OK);
		kp_error err = KP_ERROR_INIT;
		int rc = write(em, ctx, &err);
		FUZZ_DOC_REQUIRE(rc == KP_OK || err.message[0] != '\0');
		FUZZ_DOC_REQUIRE(i == 0 || (rc != KP_OK) == refused); /* alike in every format */
		refused = rc != KP_OK;
		int closed = kp_emitter_close(em, NULL);
		FUZZ_DOC_REQUIRE(refused || (closed == KP_OK && !out.failed));
		if (!refused) {
			kp__node *doc = fuzz_doc_read(&out, styles[i].format);
			FUZZ_DOC_REQUIRE(doc != NULL); /* what was written reads back */
			FUZZ_DOC_REQUIRE(!first || fuzz_doc_same(first->items[0], doc->items[0]));
			if (first)
				kp__node_free(doc);
			else
				first = doc;
		}
		kp__buf_dispose(&out);
	}
	return first;
}
