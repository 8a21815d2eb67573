/*
 * Shared by the libFuzzer targets that check written documents (fuzz-emit,
 * fuzz-disrupt, fuzz-lifecycle): what the emitter wrote must read back,
 * with the library's JSON and YAML readers, to the same tree. White-box:
 * the readers' trees (lib/document/tree.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_FUZZ_DOC_H
#define KP_FUZZ_DOC_H

#include <stdint.h>

#include <karpenter/karpenter.h>

#include "document/tree.h"

/* a and b are the same tree (numbers by value). */
int fuzz_doc_same(const kp__node *a, const kp__node *b);

/* Whether every string and key of n is valid UTF-8 (the emitter writes an
 * invalid byte as U+FFFD, which reads back as another string) and every
 * number fits a double (YAML readers, Go's among them, read a float out of
 * range as a string: no YAML text reads back as that number). */
int fuzz_doc_valid_text(const kp__node *n);

/* An emitter's write callback into a kp__buf. */
int fuzz_doc_buf_write(void *ctx, const char *d, size_t n);

/* The text written in @p format (a KP_FORMAT_*), read back by the reader
 * of that format: the stream of exactly one document (->items[0]; free
 * the stream with kp__node_free), or NULL when it does not read so. */
kp__node *fuzz_doc_read(const kp__buf *out, uint32_t format);

/* Writes one document into an emitter; KP_OK or an error with a message. */
typedef int (*fuzz_doc_fn)(kp_emitter *em, const void *ctx, kp_error *err);

/*
 * Write a document with @p write in kubectl's JSON, compact JSON and YAML:
 * every output must read back to the same tree. Returns it as a stream of
 * one document (->items[0]; free the stream with kp__node_free), or NULL when @p write refused the document, which
 * it must do in every format alike and with a message. Traps otherwise.
 */
kp__node *fuzz_doc_check(fuzz_doc_fn write, const void *ctx);

#define FUZZ_DOC_REQUIRE(cond) do { if (!(cond)) __builtin_trap(); } while (0)

#endif
