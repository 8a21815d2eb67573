/*
 * Tests of pairing Nodes with NodeClaims by provider ID (lib/state/state.h):
 * the rule for duplicates, what pairs with nothing, and a cluster whose
 * names sort differently from its provider IDs.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/nodeclaim.h>

#include "kp_test.h"
#include "state/state.h"

/* NodeClaims with the given provider IDs (NULL: no status; "": empty). */
typedef struct ncs {
	kp_nodeclaim nc[16];
	kp_nodeclaim_status st[16];
	const kp_nodeclaim *ptr[16];
} ncs;

static void make(ncs *c, const char *const *pids, size_t n)
{
	memset(c, 0, sizeof(*c));
	for (size_t j = 0; j < n; j++) {
		c->st[j].provider_id = pids[j];
		c->nc[j].status = pids[j] ? &c->st[j] : NULL;
		c->ptr[j] = &c->nc[j];
	}
}

START_TEST(first_unpaired_in_input_order)
{
	/* two NodeClaims share "a": the first Node with "a" takes the first,
	 * the second the next one; a third Node with "a" takes nothing */
	static const char *const nc_pids[] = { "b", "a", NULL, "", "a", "c" };
	static const char *const node_pids[] = { "a", "x", "a", NULL, "a", "c", "" };
	ncs c;
	make(&c, nc_pids, 6);
	c.ptr[5] = NULL; /* a NULL entry pairs with nothing */
	size_t pairs[7];
	uint8_t paired[6];
	ck_assert_int_eq(kp__state_pair(pairs, paired, node_pids, 7, c.ptr, 6), KP_OK);
	const size_t want[] = { 1, KP__STATE_NONE, 4, KP__STATE_NONE, KP__STATE_NONE, KP__STATE_NONE,
				KP__STATE_NONE };
	for (size_t i = 0; i < 7; i++)
		ck_assert_msg(pairs[i] == want[i], "node %zu: %zu, want %zu", i, pairs[i], want[i]);
	const uint8_t want_paired[] = { 0, 1, 0, 0, 1, 0 };
	ck_assert_mem_eq(paired, want_paired, 6);
	/* no NodeClaims, no Nodes */
	ck_assert_int_eq(kp__state_pair(pairs, NULL, node_pids, 7, NULL, 0), KP_OK);
	ck_assert_uint_eq(pairs[0], KP__STATE_NONE);
	ck_assert_int_eq(kp__state_pair(pairs, paired, NULL, 0, c.ptr, 6), KP_OK);
	ck_assert_uint_eq(paired[1], 0);
}
END_TEST

/* 20,000 pairs whose Nodes come in the reverse order of their NodeClaims
 * (names that sort differently): every Node finds its own. */
START_TEST(reverse_order)
{
	enum { N = 20000 };
	kp_nodeclaim *nc = calloc(N, sizeof(*nc));
	kp_nodeclaim_status *st = calloc(N, sizeof(*st));
	const kp_nodeclaim **ptr = calloc(N, sizeof(*ptr));
	char (*ids)[32] = calloc(N, sizeof(*ids));
	const char **node_pids = calloc(N, sizeof(*node_pids));
	size_t *pairs = calloc(N, sizeof(*pairs));
	ck_assert(nc && st && ptr && ids && node_pids && pairs);
	for (size_t j = 0; j < N; j++) {
		snprintf(ids[j], sizeof(ids[j]), "kwok://node-%05zu", j);
		st[j].provider_id = ids[j];
		nc[j].status = &st[j];
		ptr[j] = &nc[j];
		node_pids[N - 1 - j] = ids[j];
	}
	ck_assert_int_eq(kp__state_pair(pairs, NULL, node_pids, N, ptr, N), KP_OK);
	for (size_t i = 0; i < N; i++)
		ck_assert_uint_eq(pairs[i], N - 1 - i);
	free(nc);
	free(st);
	free(ptr);
	free(ids);
	free(node_pids);
	free(pairs);
}
END_TEST

START_TEST(out_of_memory)
{
	static const char *const nc_pids[] = { "a", "b" };
	static const char *const node_pids[] = { "b", "a" };
	ncs c;
	make(&c, nc_pids, 2);
	size_t pairs[2];
	int failed = 0;
	kp_test_alloc_install();
	for (long n = 0; n < 16; n++) {
		kp_test_alloc_fail_at(n);
		int rc = kp__state_pair(pairs, NULL, node_pids, 2, c.ptr, 2);
		ck_assert(rc == KP_OK || rc == KP_ENOMEM);
		failed += rc == KP_ENOMEM;
		if (rc == KP_OK) {
			ck_assert_uint_eq(pairs[0], 1);
			ck_assert_uint_eq(pairs[1], 0);
		}
	}
	kp_test_alloc_uninstall();
	ck_assert_int_gt(failed, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("state");
	TCase *tc = tcase_create("pairing");
	tcase_add_test(tc, first_unpaired_in_input_order);
	tcase_add_test(tc, reverse_order);
	tcase_add_test(tc, out_of_memory);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
