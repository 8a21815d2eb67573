/*
 * Size-tagged structs (lib/common/sized.h): every public size-tagged type
 * has a first released size, equal to the one recorded when it was
 * released (abi/first-sizes.txt), and a caller passing exactly that
 * struct_size is served, through the one reader and through public calls.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>

#include "common/sized.h"
#include "kp_test.h"

#ifndef KP_FIRST_SIZES
#error "KP_FIRST_SIZES must name abi/first-sizes.txt"
#endif

typedef struct sized_type {
	const char *name;
	size_t first, ours;
} sized_type;

#define ENTRY(T) { #T, KP__FIRST_SIZE(T), sizeof(T) },
static const sized_type types[] = { KP__SIZED_TYPES(ENTRY) };
#define N_TYPES (sizeof(types) / sizeof(types[0]))

/* The first size covers struct_size and lies within the struct. */
START_TEST(first_size_is_within_the_struct)
{
	const sized_type *t = &types[_i];
	ck_assert_msg(t->first > sizeof(uint32_t), "%s: first size %zu", t->name, t->first);
	ck_assert_msg(t->first <= t->ours, "%s: first size %zu > sizeof %zu", t->name, t->first,
		      t->ours);
}
END_TEST

/* The first sizes equal the released ones (LP64; elsewhere the file's
 * numbers do not apply). */
START_TEST(first_sizes_match_the_release_record)
{
	if (sizeof(void *) != 8 || sizeof(size_t) != 8)
		return;
	size_t len = 0;
	char *text = kp_test_read_file(KP_FIRST_SIZES, &len);
	ck_assert_ptr_nonnull(text);
	size_t seen = 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (line[0] == '#')
			continue;
		char name[128];
		size_t size;
		ck_assert_int_eq(sscanf(line, "%127s %zu", name, &size), 2);
		size_t i = 0;
		while (i < N_TYPES && strcmp(types[i].name, name))
			i++;
		ck_assert_msg(i < N_TYPES, "%s is recorded but has no first size in sized.h", name);
		ck_assert_msg(types[i].first == size, "%s: first size %zu, released as %zu", name,
			      types[i].first, size);
		seen++;
	}
	ck_assert_msg(seen == N_TYPES, "%zu types in sized.h, %zu recorded: record the new ones",
		      (size_t)N_TYPES, seen);
	free(text);
}
END_TEST

/* A caller passing the first size is read whole, with the tail as zero; a
 * smaller size and unknown non-zero tail bytes are refused. */
START_TEST(the_reader_serves_the_first_size)
{
	const sized_type *t = &types[_i];
	size_t big = t->ours + 16;
	unsigned char *caller = calloc(1, big), *mine = malloc(t->ours);
	ck_assert_ptr_nonnull(caller);
	ck_assert_ptr_nonnull(mine);
	memset(caller, 0xa5, t->first);
	uint32_t size = (uint32_t)t->first;
	memcpy(caller, &size, sizeof(size));
	memset(mine, 0xff, t->ours);
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp__read_sized(mine, t->ours, caller, t->first, t->name, &e), KP_OK);
	uint32_t got;
	memcpy(&got, mine, sizeof(got));
	ck_assert_uint_eq(got, t->ours);
	ck_assert_int_eq(memcmp(mine + 4, caller + 4, t->first - 4), 0);
	for (size_t i = t->first; i < t->ours; i++)
		ck_assert_msg(mine[i] == 0, "%s: byte %zu of the tail not zero", t->name, i);

	size = (uint32_t)t->first - 1;
	memcpy(caller, &size, sizeof(size));
	ck_assert_int_eq(kp__read_sized(mine, t->ours, caller, t->first, t->name, &e), KP_EVERSION);
	ck_assert_str_eq(e.field, "struct_size");

	size = (uint32_t)big; /* a newer caller: zero tail is fine, a set byte is not */
	memcpy(caller, &size, sizeof(size));
	memset(caller + t->first, 0, big - t->first);
	ck_assert_int_eq(kp__read_sized(mine, t->ours, caller, t->first, t->name, &e), KP_OK);
	caller[big - 1] = 1;
	ck_assert_int_eq(kp__read_sized(mine, t->ours, caller, t->first, t->name, &e), KP_EVERSION);
	free(caller);
	free(mine);
}
END_TEST

/* Public calls served with first-size option structs. */
START_TEST(public_calls_take_first_size_options)
{
	kp_error e = KP_ERROR_INIT;
	static const char np[] =
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: a}\n"
		"spec: {template: {spec: {nodeClassRef: {group: g, kind: K, name: default}, requirements: []}}}\n";
	kp_decode_options dopts = KP_DECODE_OPTIONS_INIT;
	dopts.struct_size = (uint32_t)KP__FIRST_SIZE(kp_decode_options);
	kp_decode_result *res = NULL;
	ck_assert_int_eq(kp_decode(&res, np, strlen(np), &dopts, &e), KP_OK);
	kp_nodepool *pool = kp_decode_result_at(res, 0)->object;
	ck_assert_int_eq(kp_nodepool_default(pool, &e), KP_OK);

	kp_validate_options vopts = KP_VALIDATE_OPTIONS_INIT;
	vopts.struct_size = (uint32_t)KP__FIRST_SIZE(kp_validate_options);
	kp_validation *v = NULL;
	ck_assert_int_eq(kp_validate(&v, KP_KIND_NODEPOOL, pool, NULL, &vopts, &e), KP_OK);
	kp_validation_free(v);

	kp_hash_options hopts = KP_HASH_OPTIONS_INIT;
	hopts.struct_size = (uint32_t)KP__FIRST_SIZE(kp_hash_options);
	uint64_t h = 0;
	ck_assert_int_eq(kp_nodepool_hash_ext(pool, &hopts, &h, &e), KP_OK);

	kp_cluster_spec spec = KP_CLUSTER_SPEC_INIT;
	spec.struct_size = (uint32_t)KP__FIRST_SIZE(kp_cluster_spec);
	const kp_nodepool *pools[1] = { pool };
	spec.nodepools = pools;
	spec.n_nodepools = 1;
	kp_cluster *c = NULL;
	ck_assert_msg(kp_cluster_new(&c, &spec, &e) == KP_OK, "%s", e.message);
	kp_sched_options sopts = KP_SCHED_OPTIONS_INIT;
	sopts.struct_size = (uint32_t)KP__FIRST_SIZE(kp_sched_options);
	kp_sched_result *r = NULL;
	ck_assert_int_eq(kp_sched_simulate(&r, c, &sopts, &e), KP_OK);
	kp_sched_result_free(r);
	kp_cluster_free(c);
	kp_decode_result_free(res);
}
END_TEST

static Suite *sized_suite(void)
{
	Suite *s = suite_create("sized");
	TCase *tc = tcase_create("first sizes");
	tcase_add_loop_test(tc, first_size_is_within_the_struct, 0, (int)N_TYPES);
	tcase_add_test(tc, first_sizes_match_the_release_record);
	tcase_add_loop_test(tc, the_reader_serves_the_first_size, 0, (int)N_TYPES);
	tcase_add_test(tc, public_calls_take_first_size_options);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	Suite *suites[] = { sized_suite() };
	return kp_test_run(suites, 1);
}
