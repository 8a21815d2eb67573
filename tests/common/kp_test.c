/* SPDX-License-Identifier: Apache-2.0 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/common.h>

#include "kp_test.h"

int kp_test_run(Suite **suites, int n_suites)
{
	SRunner *sr = srunner_create(suites[0]);
	for (int i = 1; i < n_suites; i++)
		srunner_add_suite(sr, suites[i]);
	srunner_set_tap(sr, "-");
	srunner_run_all(sr, CK_SILENT);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

const char *kp_test_data_path(const char *relative)
{
	static char buf[4096];
	const char *root = getenv("KP_SHARED_DATA");
	if (!root || !*root)
		root = "../shared/data";
	snprintf(buf, sizeof(buf), "%s/%s", root, relative);
	return buf;
}

void kp_test_require_data(const char *relative)
{
	const char *path = kp_test_data_path(relative);
	FILE *f = fopen(path, "rb");
	if (f) {
		fclose(f);
		return;
	}
	/* A TAP plan of 0 with a SKIP directive: meson reports the test as skipped. */
	printf("1..0 # SKIP upstream data file %s is missing (set -Dshared_data=DIR)\n", path);
	exit(0);
}

char *kp_test_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap + 1);
	size_t r;
	while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			char *nb = realloc(buf, cap * 2 + 1);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	fclose(f);
	if (!buf)
		return NULL;
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

cJSON *kp_test_load_json(const char *relative)
{
	char *text = kp_test_read_file(kp_test_data_path(relative), NULL);
	if (!text)
		return NULL;
	cJSON *j = cJSON_Parse(text);
	free(text);
	return j;
}

static long alloc_count, alloc_fail_at = -1;

/* Counts this allocation and says whether it must fail. */
static int alloc_fails(void)
{
	long i = alloc_count++;
	return alloc_fail_at >= 0 && i >= alloc_fail_at;
}

static void *test_malloc(void *ctx, size_t n)
{
	(void)ctx;
	return alloc_fails() ? NULL : malloc(n);
}

static void *test_realloc(void *ctx, void *p, size_t n)
{
	(void)ctx;
	return alloc_fails() ? NULL : realloc(p, n);
}

static void test_free(void *ctx, void *p)
{
	(void)ctx;
	free(p);
}

void kp_test_alloc_install(void)
{
	kp_allocator a = KP_ALLOCATOR_INIT;
	a.malloc_fn = test_malloc;
	a.realloc_fn = test_realloc;
	a.free_fn = test_free;
	kp_test_alloc_fail_at(-1);
	ck_assert_int_eq(kp_set_allocator(&a, NULL), KP_OK);
}

void kp_test_alloc_fail_at(long n)
{
	alloc_count = 0;
	alloc_fail_at = n;
}

long kp_test_alloc_count(void)
{
	return alloc_count;
}

void kp_test_alloc_uninstall(void)
{
	kp_test_alloc_fail_at(-1);
	ck_assert_int_eq(kp_set_allocator(NULL, NULL), KP_OK);
}

int kp_test_append(void *ctx, const char *data, size_t len)
{
	char **s = ctx;
	size_t have = *s ? strlen(*s) : 0;
	char *t = realloc(*s, have + len + 1);
	ck_assert_ptr_nonnull(t);
	memcpy(t + have, data, len);
	t[have + len] = '\0';
	*s = t;
	return 0;
}
