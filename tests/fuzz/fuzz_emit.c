/*
 * libFuzzer target: the emitter (karpenter/emitter.h). Arbitrary bytes are
 * read as JSON by the library's reader; every value read is written by the
 * emitter in kubectl's JSON, compact JSON, 2-space JSON and YAML, and each
 * output must read back (JSON with the JSON reader, YAML with the YAML
 * reader) to the same tree: the same types, keys and strings, and numbers
 * of the same value. The bytes are also spliced as they are
 * (kp_emitter_json). Never a crash, a leak or undefined behaviour.
 *
 * Built with -Dfuzz=true and clang (see .ci/run).
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdint.h>
#include <stdlib.h>

#include <karpenter/karpenter.h>

#include "fuzz_doc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void round_trip(const kp__node *v, uint32_t format, uint32_t indent)
{
	kp__buf out = { 0 };
	kp_emitter_options o = KP_EMITTER_OPTIONS_INIT;
	o.format = format;
	o.indent = indent;
	kp_emitter *em = NULL;
	if (kp_emitter_new(&em, &o, fuzz_doc_buf_write, &out, NULL))
		abort();
	if (kp__emit_node(em, v) != KP_OK || kp_emitter_close(em, NULL) != KP_OK)
		abort(); /* a tree the reader built is always writable */
	if (out.failed)
		abort();
	kp__node *docs = fuzz_doc_read(&out, format);
	if (!docs || (fuzz_doc_valid_text(v) && !fuzz_doc_same(v, docs->items[0])))
		abort(); /* what we wrote does not read back */
	kp__node_free(docs);
	kp__buf_dispose(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	kp__budget b = { .max_nodes = 20000, .max_text = 1 << 20, .max_depth = 64 };
	kp__node *docs = NULL;
	if (kp__json_parse(&docs, text, size, &b, NULL) == KP_OK && docs) {
		for (size_t i = 0; i < docs->n; i++) {
			round_trip(docs->items[i], KP_FORMAT_JSON, KP_EMITTER_INDENT_KUBECTL);
			round_trip(docs->items[i], KP_FORMAT_JSON, KP_EMITTER_INDENT_COMPACT);
			round_trip(docs->items[i], KP_FORMAT_JSON, KP_EMITTER_INDENT_2);
			round_trip(docs->items[i], KP_FORMAT_YAML, 0);
		}
	}
	kp__node_free(docs);
	/* the same bytes spliced as one value: written or refused */
	kp__buf out = { 0 };
	kp_emitter *em = NULL;
	if (kp_emitter_new(&em, NULL, fuzz_doc_buf_write, &out, NULL))
		abort();
	kp_emitter_begin_array(em);
	kp_emitter_json(em, text, size);
	kp_emitter_end_array(em);
	(void)kp_emitter_close(em, NULL);
	kp__buf_dispose(&out);
	return 0;
}
