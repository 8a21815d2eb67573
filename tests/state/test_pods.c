/*
 * Tests of the pod rules every decision shares (lib/state/pods.c, upstream
 * pkg/utils/pod): reschedulable and do-not-disrupt.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include <karpenter/labels.h>
#include <karpenter/objects.h>
#include <karpenter/wellknown.h>

#include "kp_test.h"
#include "state/state.h"

typedef struct pod {
	kp_pod p;
	kp_object_meta m;
	kp_pod_status st;
	kp_owner_reference o;
	kp_owner_reference *op;
	kp_label ann;
} pod;

static void make(pod *x, const char *owner_api, const char *owner_kind, uint32_t phase,
		 int64_t deleted_ms)
{
	memset(x, 0, sizeof(*x));
	x->p.metadata = &x->m;
	x->p.status = &x->st;
	x->st.phase_code = phase;
	x->m.deletion_timestamp_ms = deleted_ms;
	if (owner_kind) {
		x->o.api_version = owner_api;
		x->o.kind = owner_kind;
		x->op = &x->o;
		x->m.owner_references = &x->op;
		x->m.n_owner_references = 1;
	}
}

START_TEST(reschedulable)
{
	static const struct {
		const char *api, *kind;
		uint32_t phase;
		int64_t deleted;
		int want;
	} cases[] = {
		{ NULL, NULL, KP_POD_PHASE_RUNNING, 0, 1 },
		{ "apps/v1", "ReplicaSet", KP_POD_PHASE_PENDING, 0, 1 },
		{ "apps/v1", "ReplicaSet", KP_POD_PHASE_RUNNING, 1000, 0 },   /* terminating */
		{ "apps/v1", "StatefulSet", KP_POD_PHASE_RUNNING, 1000, 1 },  /* comes back */
		{ "apps/v1", "StatefulSet", KP_POD_PHASE_SUCCEEDED, 0, 0 },   /* terminal */
		{ NULL, NULL, KP_POD_PHASE_FAILED, 0, 0 },
		{ "apps/v1", "DaemonSet", KP_POD_PHASE_RUNNING, 0, 0 },
		{ "v1", "Node", KP_POD_PHASE_RUNNING, 0, 0 },                 /* mirror */
		{ "v1", "DaemonSet", KP_POD_PHASE_RUNNING, 0, 1 },            /* not apps/v1 */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		pod x;
		make(&x, cases[i].api, cases[i].kind, cases[i].phase, cases[i].deleted);
		ck_assert_msg(kp__pod_reschedulable(&x.p) == cases[i].want, "case %zu", i);
	}
}
END_TEST

START_TEST(do_not_disrupt)
{
	static const struct {
		const char *value;
		int64_t start_ms, now_ms;
		int want;
	} cases[] = {
		{ NULL, 0, 0, 0 },
		{ "true", 0, 0, 1 },
		{ "false", 0, 0, 0 },
		{ "True", 0, 0, 0 },          /* only "true" */
		{ "1h", 0, 0, 1 },            /* no start time: active */
		{ "1h", 1000, 1000 + 3599999, 1 },
		{ "1h", 1000, 1000 + 3600000, 0 }, /* exactly elapsed */
		{ "1h0m0.0005s", 1000, 1000 + 3600000, 1 }, /* half a millisecond left */
		{ "1h", 5000, 1000, 1 },      /* started in the future */
		{ "0s", 1000, 1000, 0 },
		{ "-1h", 1000, 1000, 0 },
		{ "forever", 1000, 1000, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		pod x;
		make(&x, NULL, NULL, KP_POD_PHASE_RUNNING, 0);
		x.st.start_time_ms = cases[i].start_ms;
		if (cases[i].value) {
			x.ann.key = KP_ANNOTATION_DO_NOT_DISRUPT;
			x.ann.value = cases[i].value;
			x.m.annotations.items = &x.ann;
			x.m.annotations.count = 1;
		}
		ck_assert_msg(kp__pod_do_not_disrupt(&x.p, cases[i].now_ms) == cases[i].want,
			      "case %zu (%s)", i, cases[i].value ? cases[i].value : "none");
	}
}
END_TEST

/* Which PDBs select a pod: an empty namespace is "default" on either
 * side, a null selector selects nothing and an empty one everything. */
START_TEST(pdbs)
{
	pod x;
	make(&x, NULL, NULL, KP_POD_PHASE_RUNNING, 0);
	kp_label app = { "app", "web" };
	x.m.labels.items = &app;
	x.m.labels.count = 1;
	kp_label_selector empty = KP_LABEL_SELECTOR_INIT, web = KP_LABEL_SELECTOR_INIT;
	kp_label other_l = { "app", "db" };
	kp_label_selector other = KP_LABEL_SELECTOR_INIT;
	web.match_labels.items = &app;
	web.match_labels.count = 1;
	other.match_labels.items = &other_l;
	other.match_labels.count = 1;
	kp_object_meta m_none = { 0 }, m_default = { 0 }, m_shop = { 0 };
	m_default.namespace_ = "default";
	m_shop.namespace_ = "shop";
	kp_pdb_spec specs[5];
	kp_pdb b[5];
	kp_object_meta *metas[5] = { &m_none, &m_default, &m_default, &m_shop, &m_default };
	kp_label_selector *sels[5] = { &web, NULL, &empty, &web, &other };
	const kp_pdb *ptr[5];
	for (int i = 0; i < 5; i++) {
		kp_pdb_spec si = KP_PDB_SPEC_INIT;
		specs[i] = si;
		specs[i].selector = sels[i];
		memset(&b[i], 0, sizeof(b[i]));
		b[i].metadata = metas[i];
		b[i].spec = &specs[i];
		ptr[i] = &b[i];
	}
	/* the pod has no namespace: "default" */
	const int want[5] = { 1, 0, 1, 0, 0 };
	for (int i = 0; i < 5; i++)
		ck_assert_msg(kp__pdb_selects(&b[i], &x.p) == want[i], "pdb %d", i);
	/* by namespace, and in the input's order within it */
	size_t first[2];
	kp__pdb_index ix;
	ck_assert_int_eq(kp__pdb_index_init(&ix, ptr, 5), KP_OK);
	ck_assert_uint_eq(kp__pdbs_selecting(&ix, &x.p, first), 2);
	ck_assert_uint_eq(first[0], 0);
	ck_assert_uint_eq(first[1], 2);
	x.m.namespace_ = "shop";
	ck_assert_uint_eq(kp__pdbs_selecting(&ix, &x.p, first), 1);
	ck_assert_uint_eq(first[0], 3);
	x.m.namespace_ = "aaa"; /* before every namespace */
	ck_assert_uint_eq(kp__pdbs_selecting(&ix, &x.p, first), 0);
	x.m.namespace_ = "zzz"; /* after every namespace */
	ck_assert_uint_eq(kp__pdbs_selecting(&ix, &x.p, first), 0);
	kp__pdb_index_dispose(&ix);
	ck_assert_int_eq(kp__pdb_index_init(&ix, NULL, 0), KP_OK);
	ck_assert_uint_eq(kp__pdbs_selecting(&ix, &x.p, first), 0);
	kp__pdb_index_dispose(&ix);
	/* never allows an eviction */
	ck_assert(!kp__pdb_never_allows(&b[0]));
	specs[0].max_unavailable.type = KP_INT_OR_STRING_INT;
	ck_assert(kp__pdb_never_allows(&b[0]));
	specs[0].max_unavailable.int_value = 1;
	ck_assert(!kp__pdb_never_allows(&b[0]));
	specs[0].min_available.type = KP_INT_OR_STRING_STRING;
	specs[0].min_available.str_value = "100%";
	ck_assert(kp__pdb_never_allows(&b[0]));
	specs[0].min_available.str_value = "99%";
	ck_assert(!kp__pdb_never_allows(&b[0]));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("state");
	TCase *tc = tcase_create("pods");
	tcase_add_test(tc, reschedulable);
	tcase_add_test(tc, do_not_disrupt);
	tcase_add_test(tc, pdbs);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
