/*
 * libkarpenter private helpers shared by every module: export macro,
 * allocation through the installed hooks, error reporting and logging.
 * Never installed.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_INTERNAL_H
#define KP_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <karpenter/common.h>

/* Put on the definition of every exported function (never in a public header). */
#define KP_EXPORT __attribute__((visibility("default")))

#if defined(__GNUC__) || defined(__clang__)
#define KP_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define KP_PRINTF(a, b)
#endif

/* Allocation through the kp_set_allocator hooks. kp__free(NULL) is a no-op. */
void *kp__malloc(size_t size);
void *kp__calloc(size_t n, size_t size);   /* zeroed; NULL on n*size overflow */
void *kp__realloc(void *ptr, size_t size);
void kp__free(void *ptr);
char *kp__strdup(const char *s);
char *kp__strndup(const char *s, size_t n);
/* A printf-formatted string allocated to its full length (results such as
 * reason messages are never cut); NULL when out of memory. */
char *kp__strdup_printf(const char *fmt, ...) KP_PRINTF(1, 2);
char *kp__strdup_vprintf(const char *fmt, va_list ap);
/* Grow *items (of elem_size bytes each) so that it holds at least need. */
int kp__grow(void **items, size_t *cap, size_t need, size_t elem_size);

/*
 * Fill err (if non-NULL) and return code. field may be NULL or "".
 * The message is printf-formatted and truncated to fit.
 */
int kp__error(kp_error *err, int code, const char *field, const char *fmt, ...) KP_PRINTF(4, 5);
/* Prefix err->field with "prefix." (or "prefix" when the field is empty). */
void kp__error_prefix(kp_error *err, const char *prefix);

/*
 * Quote s as Go's strconv.Quote (%q) does, so messages match upstream's
 * byte for byte; truncates between escapes. Returns the length written.
 */
size_t kp__go_quote(char *dst, size_t size, const char *s);

/*
 * Quote an excerpt of user input for a parse error, as Go's time package
 * quotes: bytes below 0x20 or above 0x7f as \xNN, '"' and '\\' escaped. Only
 * the first KP_QUOTE_EXCERPT_INPUT bytes are shown, then "..." after the
 * closing quote. dst needs KP_QUOTE_EXCERPT_MAX bytes; returns the length.
 */
#define KP_QUOTE_EXCERPT_INPUT 48
#define KP_QUOTE_EXCERPT_MAX (KP_QUOTE_EXCERPT_INPUT * 4 + 8)
size_t kp__quote_excerpt(char *dst, size_t size, const char *s, size_t len);

/*
 * snprintf-style appender over a caller's fixed buffer: len counts every
 * byte appended, buf keeps what fits; kp__sbuf_end NUL-terminates and
 * returns the full length (so callers can report truncation). Never
 * allocates: for messages built on hot paths.
 */
typedef struct kp__sbuf {
	char *buf;
	size_t size;
	size_t len;
} kp__sbuf;
#define KP__SBUF(buf, size) { (buf), (size), 0 }
void kp__sbuf_putn(kp__sbuf *b, const char *s, size_t n);
void kp__sbuf_put(kp__sbuf *b, const char *s);
void kp__sbuf_int(kp__sbuf *b, int64_t v);
size_t kp__sbuf_end(kp__sbuf *b);

/* Length (1 to 4) of the well-formed UTF-8 character at s[0..len) (len > 0)
 * and its code point in *cp; 0 when the byte at s does not start one within
 * len bytes (what Go's utf8.DecodeRune reports as RuneError of width 1, and
 * what the writers turn into U+FFFD, one per byte). It stops at the first
 * byte that does not continue the character, so a NUL-terminated string may
 * pass len 4 (lib/common/utf8.c). */
size_t kp__utf8_char(const char *s, size_t len, uint32_t *cp);

/* Binary search of an array sorted by a key (lib/common/sorted.c):
 * cmp_at(ctx, i) compares element i with the key sought, as strcmp does
 * (element minus key). Returns the element's index with *found = 1, or
 * where it would be inserted with *found = 0 (found may be NULL). */
size_t kp__sorted_find(size_t n, int (*cmp_at)(const void *ctx, size_t i), const void *ctx,
		       int *found);
/* kp__sorted_find over a sorted array of strings. */
size_t kp__strs_find(const char *const *items, size_t n, const char *key, int *found);

/* Log through the kp_set_log_handler hook; formatted only when delivered. */
void kp__log(int level, const char *component, const char *fmt, ...) KP_PRINTF(3, 4);

/*
 * struct_size check for caller-filled size-tagged structs: accept any size
 * from the first published size up to ours; reject larger sizes whose tail
 * bytes are not all zero (a newer caller asking for something we lack).
 */
int kp__check_struct_size(const void *s, size_t min_size, size_t our_size,
			  const char *type_name, kp_error *err);

#endif /* KP_INTERNAL_H */
