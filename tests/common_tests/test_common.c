/* SPDX-License-Identifier: Apache-2.0 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>

#include "kp_internal.h"
#include "kp_test.h"

START_TEST(strerror_never_null)
{
	ck_assert_str_eq(kp_strerror(KP_OK), "success");
	ck_assert_str_eq(kp_strerror(KP_EINVAL), "invalid argument");
	ck_assert_str_eq(kp_strerror(KP_ENOTFOUND), "not found");
	ck_assert_str_eq(kp_strerror(KP_EINSUFFICIENT), "insufficient capacity");
	ck_assert_str_eq(kp_strerror(KP_ENOTREADY), "node class not ready");
	ck_assert_str_eq(kp_strerror(KP_EINCOMPATIBLE), "incompatible");
	ck_assert_str_eq(kp_strerror(12345), "unknown status");
	ck_assert_str_eq(kp_strerror(-999), "unknown status");
}
END_TEST

START_TEST(error_fill_and_truncate)
{
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp__error(&err, KP_EINVAL, "spec.weight", "must be <= %d", 100), KP_EINVAL);
	ck_assert_int_eq(err.code, KP_EINVAL);
	ck_assert_str_eq(err.field, "spec.weight");
	ck_assert_str_eq(err.message, "must be <= 100");
	ck_assert_str_eq(err.provider_code, "");

	/* NULL err: the code still comes back and nothing crashes. */
	ck_assert_int_eq(kp__error(NULL, KP_ENOMEM, NULL, "x"), KP_ENOMEM);

	/* Over-long field and message are truncated, never overflowed. */
	char longf[400];
	memset(longf, 'f', sizeof(longf) - 1);
	longf[sizeof(longf) - 1] = '\0';
	kp__error(&err, KP_EPARSE, longf, "%s%s", longf, longf);
	ck_assert_uint_eq(strlen(err.field), KP_ERROR_FIELD_MAX - 1);
	ck_assert_uint_eq(strlen(err.message), KP_ERROR_MESSAGE_MAX - 1);
}
END_TEST

START_TEST(error_prefix_builds_paths)
{
	kp_error err = KP_ERROR_INIT;
	kp__error(&err, KP_EINVAL, "operator", "bad");
	kp__error_prefix(&err, "requirements[2]");
	ck_assert_str_eq(err.field, "requirements[2].operator");
	kp__error_prefix(&err, "spec");
	ck_assert_str_eq(err.field, "spec.requirements[2].operator");

	kp__error(&err, KP_EINVAL, "[3]", "bad");
	kp__error_prefix(&err, "values");
	ck_assert_str_eq(err.field, "values[3]");

	kp__error(&err, KP_EINVAL, NULL, "bad");
	kp__error_prefix(&err, "spec");
	ck_assert_str_eq(err.field, "spec");
	kp__error_prefix(NULL, "spec"); /* no-op */

	/* Paths longer than the field are cut at its end, never overflowed. */
	char deep[200];
	memset(deep, 'a', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = '\0';
	kp__error(&err, KP_EINVAL, "x", "bad");
	kp__error_prefix(&err, deep);
	ck_assert_uint_eq(strlen(err.field), KP_ERROR_FIELD_MAX - 1);
	kp__error(&err, KP_EINVAL, "leaf", "bad");
	kp__error_prefix(&err, deep + 76); /* 123 chars + "." + "leaf" = 128 > 127 */
	ck_assert_uint_eq(strlen(err.field), KP_ERROR_FIELD_MAX - 1);
	ck_assert_int_eq(err.field[123], '.');
	ck_assert_str_eq(err.field + 124, "lea");
}
END_TEST

/* A counting allocator proves every allocation goes through the hooks. */
static size_t n_malloc, n_realloc, n_free;
static void *count_malloc(void *ctx, size_t n)
{
	(void)ctx;
	n_malloc++;
	return malloc(n);
}
static void *count_realloc(void *ctx, void *p, size_t n)
{
	(void)ctx;
	n_realloc++;
	return realloc(p, n);
}
static void count_free(void *ctx, void *p)
{
	(void)ctx;
	n_free++;
	free(p);
}

START_TEST(allocator_hooks)
{
	kp_allocator a = KP_ALLOCATOR_INIT;
	kp_error err = KP_ERROR_INIT;

	/* Missing hooks and wrong sizes are refused with the field named. */
	ck_assert_int_eq(kp_set_allocator(&a, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "malloc_fn");
	a.malloc_fn = count_malloc;
	a.realloc_fn = count_realloc;
	a.free_fn = count_free;
	a.struct_size = 8;
	ck_assert_int_eq(kp_set_allocator(&a, &err), KP_EVERSION);
	ck_assert_str_eq(err.field, "struct_size");
	a.struct_size = sizeof(a);
	ck_assert_int_eq(kp_set_allocator(&a, &err), KP_OK);

	char *s = kp__strdup("karpenter");
	ck_assert_str_eq(s, "karpenter");
	size_t cap = 0;
	int *items = NULL;
	ck_assert_int_eq(kp__grow((void **)&items, &cap, 5, sizeof(int)), KP_OK);
	ck_assert_uint_ge(cap, 5);
	kp__free(items);
	kp__free(s);
	kp__free(NULL);
	ck_assert_uint_eq(n_malloc, 1);
	ck_assert_uint_eq(n_realloc, 1);
	ck_assert_uint_eq(n_free, 2);

	ck_assert_int_eq(kp_set_allocator(NULL, NULL), KP_OK);
	kp__free(kp__strdup("back to libc"));
	ck_assert_uint_eq(n_malloc, 1);
}
END_TEST

START_TEST(grow_and_calloc_refuse_overflow)
{
	ck_assert_ptr_null(kp__calloc(SIZE_MAX / 2, 4));
	size_t cap = 0;
	void *p = NULL;
	ck_assert_int_eq(kp__grow(&p, &cap, SIZE_MAX / 2, 16), KP_ENOMEM);
	ck_assert_ptr_null(p);
	ck_assert_uint_eq(cap, 0);
}
END_TEST

struct log_capture {
	int calls;
	int level;
	char component[32];
	char message[64];
};
static void capture_log(void *ctx, int level, const char *component, const char *message)
{
	struct log_capture *c = ctx;
	c->calls++;
	c->level = level;
	snprintf(c->component, sizeof(c->component), "%s", component);
	snprintf(c->message, sizeof(c->message), "%s", message);
}

START_TEST(log_handler_levels)
{
	struct log_capture c = { 0 };
	kp__log(KP_LOG_ERROR, "test", "silent by default");
	kp_set_log_handler(KP_LOG_WARN, capture_log, &c);
	kp__log(KP_LOG_INFO, "test", "too verbose");
	ck_assert_int_eq(c.calls, 0);
	kp__log(KP_LOG_WARN, "scheduling", "pod %s/%s", "default", "web");
	ck_assert_int_eq(c.calls, 1);
	ck_assert_int_eq(c.level, KP_LOG_WARN);
	ck_assert_str_eq(c.component, "scheduling");
	ck_assert_str_eq(c.message, "pod default/web");
	kp_set_log_handler(KP_LOG_DEBUG, NULL, NULL);
	kp__log(KP_LOG_ERROR, "test", "silenced again");
	ck_assert_int_eq(c.calls, 1);
}
END_TEST

/* A message quoting 300 or 70,000 bytes reaches the handler whole. */
static void length_log(void *ctx, int level, const char *component, const char *message)
{
	(void)level;
	(void)component;
	*(size_t *)ctx = strlen(message);
}

START_TEST(log_long_messages_whole)
{
	static const size_t lens[] = { 300, 1023, 1024, 70000 };
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		char *v = malloc(lens[i] + 1);
		memset(v, 'x', lens[i]);
		v[lens[i]] = '\0';
		size_t got = 0;
		kp_set_log_handler(KP_LOG_DEBUG, length_log, &got);
		kp__log(KP_LOG_WARN, "test", "value %s.", v);
		ck_assert_uint_eq(got, lens[i] + strlen("value ."));
		kp_set_log_handler(KP_LOG_DEBUG, NULL, NULL);
		free(v);
	}
}
END_TEST

/* A size-tagged struct as a caller of an older or newer version passes it. */
typedef struct demo_options {
	uint32_t struct_size;
	uint32_t a;
	uint64_t b; /* added in a later version */
} demo_options;

START_TEST(struct_size_rules)
{
	kp_error err = KP_ERROR_INIT;
	demo_options o = { sizeof(demo_options), 1, 2 };
	ck_assert_int_eq(kp__check_struct_size(&o, 8, sizeof(o), "demo_options", &err), KP_OK);
	o.struct_size = 8; /* an older caller: tail treated as zero */
	ck_assert_int_eq(kp__check_struct_size(&o, 8, sizeof(o), "demo_options", &err), KP_OK);
	o.struct_size = 4; /* smaller than anything ever published */
	ck_assert_int_eq(kp__check_struct_size(&o, 8, sizeof(o), "demo_options", &err), KP_EVERSION);
	ck_assert_str_eq(err.message, "demo_options.struct_size is 4, smaller than any published size (8)");

	/* A newer caller: unknown tail bytes must be zero. */
	unsigned char newer[32] = { 0 };
	uint32_t sz = sizeof(newer);
	memcpy(newer, &sz, sizeof(sz));
	ck_assert_int_eq(kp__check_struct_size(newer, 8, sizeof(demo_options), "demo_options", &err), KP_OK);
	newer[30] = 1;
	ck_assert_int_eq(kp__check_struct_size(newer, 8, sizeof(demo_options), "demo_options", &err),
			 KP_EVERSION);
	ck_assert_str_eq(err.message, "demo_options has fields this library version (16 bytes) does not know");
	ck_assert_int_eq(kp__check_struct_size(NULL, 8, 16, "demo_options", &err), KP_EINVAL);
}
END_TEST

START_TEST(version_matches_headers)
{
	int ma = -1, mi = -1, pa = -1;
	kp_version(&ma, &mi, &pa);
	ck_assert_int_eq(ma, KP_VERSION_MAJOR);
	ck_assert_int_eq(mi, KP_VERSION_MINOR);
	ck_assert_int_eq(pa, KP_VERSION_PATCH);
	kp_version(NULL, NULL, NULL);
	ck_assert_str_eq(kp_version_string(), KP_VERSION_STRING);
	ck_assert_str_eq(kp_soname(), KP_SONAME);
	char expect[64];
	if (KP_VERSION_MAJOR == 0)
		snprintf(expect, sizeof(expect), "libkarpenter.so.0.%d", KP_VERSION_MINOR);
	else
		snprintf(expect, sizeof(expect), "libkarpenter.so.%d", KP_VERSION_MAJOR);
	ck_assert_str_eq(kp_soname(), expect);
	ck_assert_int_eq(KP_ABI_MAJOR, KP_VERSION_MAJOR ? KP_VERSION_MAJOR * 10000 : KP_VERSION_MINOR * 100);
}
END_TEST

/* The exports for providers: the same allocator and error filling as the
 * core's. */
START_TEST(provider_exports)
{
	kp_test_alloc_install();
	kp_test_alloc_fail_at(-1);
	void *p = kp_malloc(10);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(kp_test_alloc_count(), 1); /* through the hook */
	p = kp_realloc(p, 100);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(kp_test_alloc_count(), 2);
	kp_free(p);
	kp_free(NULL);
	unsigned char *z = kp_calloc(4, 8);
	ck_assert_ptr_nonnull(z);
	for (int i = 0; i < 32; i++)
		ck_assert_uint_eq(z[i], 0);
	kp_free(z);
	ck_assert_ptr_null(kp_calloc(SIZE_MAX / 2, 4)); /* n * size overflows */
	kp_test_alloc_fail_at(0);
	ck_assert_ptr_null(kp_malloc(1));
	kp_test_alloc_uninstall();

	kp_error e = KP_ERROR_INIT;
	strcpy(e.provider_code, "Throttling");
	ck_assert_int_eq(kp_error_set(&e, KP_ENOTFOUND, "spec.x", "gone"), KP_ENOTFOUND);
	ck_assert_int_eq(e.code, KP_ENOTFOUND);
	ck_assert_str_eq(e.field, "spec.x");
	ck_assert_str_eq(e.message, "gone");
	ck_assert_str_eq(e.provider_code, "");
	char *long_text = malloc(70001);
	memset(long_text, 'f', 70000);
	long_text[70000] = '\0';
	ck_assert_int_eq(kp_error_set(&e, KP_EINVAL, long_text, long_text), KP_EINVAL);
	ck_assert_uint_eq(strlen(e.field), sizeof(e.field) - 1);
	ck_assert_uint_eq(strlen(e.message), sizeof(e.message) - 1);
	ck_assert_int_eq(kp_error_set(&e, KP_EINVAL, NULL, NULL), KP_EINVAL);
	ck_assert_str_eq(e.field, "");
	ck_assert_str_eq(e.message, "");
	ck_assert_int_eq(kp_error_set(NULL, KP_ENOMEM, "a", "b"), KP_ENOMEM);
	free(long_text);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("common");
	TCase *tc = tcase_create("errors");
	tcase_add_test(tc, strerror_never_null);
	tcase_add_test(tc, error_fill_and_truncate);
	tcase_add_test(tc, error_prefix_builds_paths);
	tcase_add_test(tc, struct_size_rules);
	suite_add_tcase(s, tc);
	tc = tcase_create("hooks");
	tcase_add_test(tc, allocator_hooks);
	tcase_add_test(tc, grow_and_calloc_refuse_overflow);
	tcase_add_test(tc, log_handler_levels);
	tcase_add_test(tc, log_long_messages_whole);
	tcase_add_test(tc, provider_exports);
	suite_add_tcase(s, tc);
	tc = tcase_create("version");
	tcase_add_test(tc, version_matches_headers);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
