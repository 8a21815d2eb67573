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

int main(void)
{
	Suite *s = suite_create("state");
	TCase *tc = tcase_create("pods");
	tcase_add_test(tc, reschedulable);
	tcase_add_test(tc, do_not_disrupt);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
