/* SPDX-License-Identifier: Apache-2.0
 * The shared internal hash map (lib/common/map.c). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <karpenter/karpenter.h>

#include "common/map.h"
#include "kp_internal.h"
#include "kp_test.h"

START_TEST(empty_map)
{
	kp__map m = { 0 };
	uint32_t v = 7;
	ck_assert_int_eq(kp__map_get(&m, "a", 1, &v), 0);
	ck_assert_int_eq(kp__map_gets(&m, "", &v), 0);
	ck_assert_int_eq(kp__map_get_u32(&m, 0, &v), 0);
	ck_assert_uint_eq(v, 7);
	ck_assert_uint_eq(kp__map_count(&m), 0);
	kp__map_free(&m);
	kp__map_free(&m);
	kp__map_free(NULL);
}
END_TEST

START_TEST(byte_keys)
{
	kp__map m = { 0 };
	char key[32];
	for (uint32_t i = 0; i < 20000; i++) {
		int n = snprintf(key, sizeof(key), "key-%u", i);
		uint32_t v = 0;
		int inserted = 0;
		ck_assert_int_eq(kp__map_put(&m, key, (size_t)n, i * 3, &v, &inserted), KP_OK);
		ck_assert_int_eq(inserted, 1);
		ck_assert_uint_eq(v, i * 3);
	}
	ck_assert_uint_eq(kp__map_count(&m), 20000);
	for (uint32_t i = 0; i < 20000; i++) {
		snprintf(key, sizeof(key), "key-%u", i);
		uint32_t v = 0;
		ck_assert_int_eq(kp__map_gets(&m, key, &v), 1);
		ck_assert_uint_eq(v, i * 3);
	}
	ck_assert_int_eq(kp__map_gets(&m, "key-20000", &(uint32_t){ 0 }), 0);
	ck_assert_int_eq(kp__map_gets(&m, "key-", &(uint32_t){ 0 }), 0);
	/* A key already present keeps its value and is not counted twice. */
	uint32_t v = 0;
	int inserted = 1;
	const char *stored = NULL;
	ck_assert_int_eq(kp__map_put_key(&m, "key-42", 6, 999, &v, &inserted, &stored), KP_OK);
	ck_assert_int_eq(inserted, 0);
	ck_assert_uint_eq(v, 126);
	ck_assert_str_eq(stored, "key-42");
	ck_assert_uint_eq(kp__map_count(&m), 20000);
	/* val and inserted may be NULL */
	ck_assert_int_eq(kp__map_put(&m, "key-43", 6, 1, NULL, NULL), KP_OK);
	ck_assert_uint_eq(kp__map_count(&m), 20000);
	kp__map_free(&m);
	ck_assert_uint_eq(kp__map_count(&m), 0);
	ck_assert_int_eq(kp__map_gets(&m, "key-1", &v), 0);
}
END_TEST

START_TEST(keys_are_copied_bytes)
{
	kp__map m = { 0 };
	char scratch[8] = "abc";
	const char *stored = NULL;
	ck_assert_int_eq(kp__map_put_key(&m, scratch, 3, 1, NULL, NULL, &stored), KP_OK);
	ck_assert_ptr_ne(stored, scratch);
	memcpy(scratch, "xyz", 3);
	ck_assert_str_eq(stored, "abc");
	uint32_t v = 0;
	ck_assert_int_eq(kp__map_gets(&m, "abc", &v), 1);
	ck_assert_uint_eq(v, 1);
	ck_assert_int_eq(kp__map_gets(&m, "xyz", &v), 0);
	/* Lengths count, not NUL bytes: "ab", "ab\0" and "ab\0c" are three keys;
	 * the empty key is a key. */
	ck_assert_int_eq(kp__map_put(&m, "ab", 2, 2, NULL, NULL), KP_OK);
	ck_assert_int_eq(kp__map_put(&m, "ab\0", 3, 3, NULL, NULL), KP_OK);
	ck_assert_int_eq(kp__map_put(&m, "ab\0c", 4, 4, NULL, NULL), KP_OK);
	ck_assert_int_eq(kp__map_put_key(&m, "", 0, 5, NULL, NULL, &stored), KP_OK);
	ck_assert_str_eq(stored, "");
	ck_assert_uint_eq(kp__map_count(&m), 5);
	ck_assert_int_eq(kp__map_get(&m, "ab\0", 3, &v), 1);
	ck_assert_uint_eq(v, 3);
	ck_assert_int_eq(kp__map_get(&m, "ab\0c", 4, &v), 1);
	ck_assert_uint_eq(v, 4);
	ck_assert_int_eq(kp__map_gets(&m, "ab", &v), 1);
	ck_assert_uint_eq(v, 2);
	ck_assert_int_eq(kp__map_gets(&m, "", &v), 1);
	ck_assert_uint_eq(v, 5);
	/* A key longer than a key chunk (4096 bytes), then short ones again. */
	static char big[10000];
	memset(big, 'k', sizeof(big) - 1);
	ck_assert_int_eq(kp__map_put_key(&m, big, sizeof(big) - 1, 6, NULL, NULL, &stored), KP_OK);
	ck_assert_uint_eq(strlen(stored), sizeof(big) - 1);
	ck_assert_int_eq(kp__map_put(&m, "after", 5, 7, NULL, NULL), KP_OK);
	ck_assert_int_eq(kp__map_gets(&m, big, &v), 1);
	ck_assert_uint_eq(v, 6);
	ck_assert_int_eq(kp__map_gets(&m, "after", &v), 1);
	ck_assert_uint_eq(v, 7);
	ck_assert_int_eq(kp__map_gets(&m, "abc", &v), 1);
	ck_assert_uint_eq(v, 1);
	kp__map_free(&m);
}
END_TEST

START_TEST(u32_keys)
{
	kp__map m = { 0 };
	/* consecutive ids, the extremes, and multiples of 2^20 (same low bits) */
	for (uint32_t i = 0; i < 50000; i++) {
		int inserted = 0;
		ck_assert_int_eq(kp__map_put_u32(&m, i, i + 1, NULL, &inserted), KP_OK);
		ck_assert_int_eq(inserted, 1);
	}
	for (uint32_t k = 1; k < 4096; k++)
		ck_assert_int_eq(kp__map_put_u32(&m, k << 20, k, NULL, NULL), KP_OK);
	ck_assert_int_eq(kp__map_put_u32(&m, UINT32_MAX, 77, NULL, NULL), KP_OK);
	ck_assert_uint_eq(kp__map_count(&m), 50000 + 4095 + 1);
	uint32_t v = 0;
	for (uint32_t i = 0; i < 50000; i++) {
		ck_assert_int_eq(kp__map_get_u32(&m, i, &v), 1);
		ck_assert_uint_eq(v, i + 1);
	}
	for (uint32_t k = 1; k < 4096; k++) {
		ck_assert_int_eq(kp__map_get_u32(&m, k << 20, &v), 1);
		ck_assert_uint_eq(v, k);
	}
	ck_assert_int_eq(kp__map_get_u32(&m, UINT32_MAX, &v), 1);
	ck_assert_uint_eq(v, 77);
	ck_assert_int_eq(kp__map_get_u32(&m, 50000, &v), 0);
	ck_assert_int_eq(kp__map_get_u32(&m, UINT32_MAX - 1, &v), 0);
	/* present: the first value stays */
	int inserted = 1;
	ck_assert_int_eq(kp__map_put_u32(&m, 5, 1234, &v, &inserted), KP_OK);
	ck_assert_int_eq(inserted, 0);
	ck_assert_uint_eq(v, 6);
	kp__map_free(&m);
}
END_TEST

/* Every allocation failure comes back as KP_ENOMEM and leaves the map
 * as it was: the keys inserted before are found, the failed one is not. */
START_TEST(out_of_memory_leaves_map_intact)
{
	kp_test_alloc_install();
	for (long fail = 0; fail < 12; fail++) {
		kp__map bytes = { 0 }, ints = { 0 };
		kp_test_alloc_fail_at(fail);
		uint32_t nb = 0, ni = 0;
		char key[16];
		for (uint32_t i = 0; i < 300; i++) {
			int n = snprintf(key, sizeof(key), "%u", i);
			if (kp__map_put(&bytes, key, (size_t)n, i, NULL, NULL) != KP_OK)
				break;
			nb++;
		}
		for (uint32_t i = 0; i < 300; i++) {
			if (kp__map_put_u32(&ints, i * 7, i, NULL, NULL) != KP_OK)
				break;
			ni++;
		}
		kp_test_alloc_fail_at(-1);
		ck_assert_uint_eq(kp__map_count(&bytes), nb);
		ck_assert_uint_eq(kp__map_count(&ints), ni);
		ck_assert_uint_lt(nb + ni, 600); /* something failed */
		for (uint32_t i = 0; i <= nb && i < 300; i++) {
			snprintf(key, sizeof(key), "%u", i);
			uint32_t v = UINT32_MAX;
			ck_assert_int_eq(kp__map_gets(&bytes, key, &v), i < nb);
			if (i < nb)
				ck_assert_uint_eq(v, i);
		}
		for (uint32_t i = 0; i <= ni && i < 300; i++) {
			uint32_t v = UINT32_MAX;
			ck_assert_int_eq(kp__map_get_u32(&ints, i * 7, &v), i < ni);
			if (i < ni)
				ck_assert_uint_eq(v, i);
		}
		kp__map_free(&bytes);
		kp__map_free(&ints);
	}
	kp_test_alloc_uninstall();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("map");
	TCase *tc = tcase_create("map");
	tcase_add_test(tc, empty_map);
	tcase_add_test(tc, byte_keys);
	tcase_add_test(tc, keys_are_copied_bytes);
	tcase_add_test(tc, u32_keys);
	tcase_add_test(tc, out_of_memory_leaves_map_intact);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
