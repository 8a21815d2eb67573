/*
 * libkarpenter private: the document tree shared by the JSON and YAML
 * codecs and the schema engine.
 *
 * Both parsers produce the same tree, which is the JSON data model
 * (null, boolean, number, string, array, object) that sigs.k8s.io/yaml
 * produces when it turns YAML into JSON. Numbers keep their text (JSON input
 * as written, YAML input in Go's json.Marshal spelling), so int64 values and
 * quantities never go through a double.
 *
 * Every parse is bounded: input bytes, nesting depth and node count (which
 * also bounds YAML alias expansion) are checked while building, so hostile
 * input ends in an error, never in unbounded memory or recursion.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_DOCUMENT_TREE_H
#define KP_DOCUMENT_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "kp_internal.h"
#include "common/buf.h"

enum kp__node_type {
	KP__N_NULL = 0,
	KP__N_BOOL = 1,
	KP__N_NUMBER = 2,
	KP__N_STRING = 3,
	KP__N_ARRAY = 4,
	KP__N_OBJECT = 5
};

typedef struct kp__node kp__node;
typedef struct kp__tree_arena kp__tree_arena;
struct kp__node {
	uint32_t type;    /* kp__node_type */
	uint32_t line;    /* 1-based source line, 0 if unknown */
	int boolean;      /* KP__N_BOOL */
	uint32_t root;    /* the root of an arena tree (kp__node_new_root) */
	kp__tree_arena *arena; /* where the node, its text, keys and arrays
				  live; NULL for a node on the heap */
	char *text;       /* KP__N_STRING value, KP__N_NUMBER text; NUL-terminated */
	size_t len;       /* strlen(text) */
	kp__node **items; /* KP__N_ARRAY elements, KP__N_OBJECT values */
	char **keys;      /* KP__N_OBJECT keys, parallel to items */
	size_t n;         /* number of elements / members */
	size_t cap;
};

/* Limits and the running count of one parse (or one encode). */
typedef struct kp__budget {
	size_t max_nodes; /* nodes created (including YAML alias copies) */
	size_t nodes;
	size_t max_text;  /* bytes of string and number text created */
	size_t text;
	uint32_t max_depth;
	/* Where the parse allocates (set by the parser: NULL for the heap).
	 * After the limits, so that positional initializers leave it NULL. */
	kp__tree_arena *arena;
	/* The nodes alive at once (the streaming parses free each document,
	 * and each streamed List item, once it is decoded); 0 = no limit.
	 * Set by the streaming parsers (KP__LIVE_BASE plus one node per
	 * KP__LIVE_BYTES bytes of the document read so far), so that the
	 * memory a tree takes stays a small multiple of its input. */
	size_t live;
	size_t max_live;
} kp__budget;

/* The live-node limit of kp__json_parse_each and kp__yaml_parse_each. A
 * node takes 90 to 120 bytes with its text and its place in its parent;
 * no document the API server stores (1.5 MiB) comes near the limit, and a
 * List of any size reads because its items are freed one by one. */
#define KP__LIVE_BASE ((size_t)200000)
#define KP__LIVE_BYTES 16u

/* What *over is set to when a budget is spent (see kp__node_new): */
enum kp__over {
	KP__OVER_NODES = 1, /* max_nodes */
	KP__OVER_TEXT = 2,  /* max_text */
	KP__OVER_LIVE = 3   /* max_live */
};

/* Name of a node type for messages: "null", "boolean", "number", ... */
const char *kp__node_type_name(uint32_t type);

/* Count len bytes of text against the budget; 0 (and *over =
 * KP__OVER_TEXT) when spent. */
int kp__budget_text(kp__budget *b, size_t len, int *over);
/* A new node of the given type, counted against the budget (NULL budget: no
 * limit). Returns NULL on allocation failure or when the budget is spent
 * (*over set to KP__OVER_NODES in that case when over is non-NULL; the
 * functions below that also count text set KP__OVER_TEXT for text). */
kp__node *kp__node_new(kp__budget *b, uint32_t type, uint32_t line, int *over);
/* A string node owning a copy of s[0..len). */
kp__node *kp__node_new_string(kp__budget *b, const char *s, size_t len, uint32_t line, int *over);
/* The root array of a parse whose nodes, texts, keys and arrays are all
 * allocated from one arena (set as b->arena): a parse then costs a few
 * large allocations instead of several per node, and kp__node_free(root)
 * releases everything at once. Nodes of the arena are never freed one by
 * one (kp__node_free on one is a no-op; their memory goes with the root).
 * NULL when out of memory. */
kp__node *kp__node_new_root(kp__budget *b);
/* An arena of its own (for kp__json_parse_each's documents and List
 * items): nodes made while it is b->arena belong to it, and
 * kp__tree_arena_reset releases them all at once for the next document,
 * keeping one chunk for reuse. NULL when out of memory. */
kp__tree_arena *kp__tree_arena_new(void);
void kp__tree_arena_reset(kp__tree_arena *a);
/* Releases the arena and every node in it; NULL is a no-op. */
void kp__tree_arena_free(kp__tree_arena *a);
/* A copy of s[0..n) with a NUL, from b's arena when it has one, else the
 * heap; NULL when out of memory. */
char *kp__node_strndup(kp__budget *b, const char *s, size_t n);
/* Free a node and everything below it; NULL is a no-op; see
 * kp__node_new_root for nodes of an arena. */
void kp__node_free(kp__node *n);
/* Deep copy, counted against the budget. */
kp__node *kp__node_copy(kp__budget *b, const kp__node *n, int *over);

/* Append to an array (takes ownership of child). KP_OK or KP_ENOMEM (child
 * is then freed). */
int kp__node_append(kp__node *arr, kp__node *child);
/* Append a member to an object (takes ownership of key and child, both freed
 * on failure). No duplicate check. */
int kp__node_add(kp__node *obj, char *key, kp__node *child);
/* Member of an object by key (the last one if duplicated); NULL if absent. */
kp__node *kp__node_get(const kp__node *obj, const char *key);
/* Index of the first duplicated key of an object (the later occurrence), or
 * (size_t)-1 when all keys are distinct. O(n log n). */
size_t kp__node_find_duplicate(const kp__node *obj);
/* Remove earlier occurrences of duplicated keys, so that the last one wins.
 * fn (may be NULL) is called once per duplicated key, before anything is
 * removed; a non-zero return stops and is returned. */
int kp__node_dedupe(kp__node *obj, int (*fn)(void *ctx, const char *key), void *ctx);
/* Remove member i of an object (freed). */
void kp__node_remove(kp__node *obj, size_t i);

/* Whether text (NUL-terminated) is valid UTF-8 without NUL bytes. */
int kp__utf8_valid(const char *s, size_t len);

/* The growable output buffer: common/buf.h. */

/* JSON: parse one stream of whitespace-separated values. Each value is
 * appended to *docs (an array node created here). Errors name the line. */
int kp__json_parse(kp__node **docs, const char *data, size_t len, kp__budget *b, kp_error *err);
/* JSON text of a tree; indent 0 = compact. */
void kp__json_write(kp__buf *out, const kp__node *n, int indent);
/* Write tree @p n as a value through emitter @p w (emitter.c): the one
 * emitter every JSON writer of the library goes through. */
struct kp_emitter;
int kp__emit_node(struct kp_emitter *w, const kp__node *n);
/* Fail the emitter (sticky, as its own errors): a value the caller was
 * writing could not be finished. Returns the emitter's error. */
int kp__emitter_fail(struct kp_emitter *w, int code);
/* Write a JSON string literal (quoted, escaped). */
void kp__json_write_string(kp__buf *out, const char *s, size_t len);

/* YAML: parse a stream (every document, including empty ones, which become
 * KP__N_NULL) into *docs. */
int kp__yaml_parse(kp__node **docs, const char *data, size_t len, kp__budget *b, kp_error *err);

/*
 * Streaming parses: each document goes to a sink as soon as it is complete
 * and is released when the sink returns, so a stream of any number of
 * documents holds one document's tree at a time. The elements of a
 * document's top-level "items" array go to item() one by one as they are
 * parsed (after items_begin(), called again if the key repeats: what came
 * before no longer counts, as the last key wins), and the document then
 * reaches doc() with an empty "items" array (items_streamed = 1). In JSON
 * that is done only for a document that is certainly a List (one "kind"
 * ending in "List", one "apiVersion" string, one "items" array, found by a
 * scan that builds nothing); in YAML, where only the document's end tells
 * (kubectl writes "items" before "kind"), for any top-level "items"
 * sequence, and doc() decides: a List keeps what item() did, anything
 * else undoes it and reads the document (its "items" empty, which no
 * kind but a List reads). Every other document reaches doc() whole.
 *
 * Syntax and limit errors win over the sink's, as when the whole stream is
 * parsed first: after a sink error the parse goes on checking the rest of
 * the input (without calling the sink again) and returns a parse error if
 * there is one, else the sink's error (an out-of-memory error stops at once).
 * Nodes, depth and text are counted over the whole stream as by the
 * non-streaming parses, so the same inputs are refused.
 */
typedef struct kp__doc_sink {
	/* doc_index counts the stream's documents from 0 (null ones too). */
	int (*doc)(void *ctx, size_t doc_index, kp__node *doc, int items_streamed);
	/* NULL: Lists reach doc() whole. */
	int (*items_begin)(void *ctx, size_t doc_index);
	int (*item)(void *ctx, size_t doc_index, size_t item_index, kp__node *item);
	void *ctx;
	/*
	 * Optional (both or neither): the members the sink will read, so
	 * that the parser skips the others without building them. Once a
	 * root object (a document, an item of a streamed List) has both an
	 * "apiVersion" and a "kind" string, root_scope() gives its scope
	 * (NULL: keep everything). member_scope() tells for a member of an
	 * object with a scope whether to skip it (*skip = 1: its value is
	 * checked as usual, then dropped, and a null stands in for it so
	 * that a repeated key is still seen) and else the scope of its value
	 * (NULL: keep everything below; an array passes its scope on to its
	 * elements). Members read before the scope is known are kept.
	 */
	const void *(*root_scope)(void *ctx, const char *api_version, const char *kind);
	const void *(*member_scope)(void *ctx, const void *scope, const char *key, int *skip);
} kp__doc_sink;

int kp__json_parse_each(const char *data, size_t len, kp__budget *b, const kp__doc_sink *sink,
			kp_error *err);
int kp__yaml_parse_each(const char *data, size_t len, kp__budget *b, const kp__doc_sink *sink,
			kp_error *err);

/*
 * An input read piece by piece (kp_decode_read): @p head holds bytes read
 * ahead (to tell the format) that come first. The parsers read through
 * kp__reader_read, which counts bytes against max_bytes (KP_ERANGE past
 * it) and checks what the caller's function returns.
 */
typedef struct kp__reader {
	int (*read)(void *ctx, char *buf, size_t cap, size_t *n_read, kp_error *err);
	void *ctx;
	const char *head;
	size_t head_len;
	size_t max_bytes;
	size_t total; /* bytes read so far */
} kp__reader;

/* Up to @p cap bytes into @p buf; *got = 0 at the input's end. */
int kp__reader_read(kp__reader *r, char *buf, size_t cap, size_t *got, kp_error *err);

/* The first window of kp__json_read_each (1 MiB): it doubles while a unit
 * does not fit in half of it. Never changed by the library; tests shrink
 * it so that a window ends inside every kind of token. */
extern size_t kp__json_window;

/* The streaming parses of an input read through @p r (see above). */
int kp__json_read_each(kp__reader *r, kp__budget *b, const kp__doc_sink *sink, kp_error *err);
int kp__yaml_read_each(kp__reader *r, kp__budget *b, const kp__doc_sink *sink, kp_error *err);
/* YAML block-style text of a tree (one document, no "---"), as the
 * emitter writes it (emitter.c: the one YAML writer). */
void kp__yaml_write(kp__buf *out, const kp__node *n);

#endif /* KP_DOCUMENT_TREE_H */
