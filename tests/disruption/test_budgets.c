/*
 * Disruption budgets (upstream pkg/apis/v1 nodepool_budgets_test.go, same
 * fixtures and clock) and the Consolidatable condition (upstream's NodeClaim
 * disruption controller consolidation tests).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include <karpenter/karpenter.h>
#include <karpenter/disruption.h>

#include "kp_test.h"

#define H1 { "1h", 3600000000000LL, 0, 1 }
#define H(t, ns) { t, ns, 0, 1 }

static const char *const drift_under[] = { "Drifted", "Underutilized" };
static const char *const drifted[] = { "Drifted" };
static const char *const all3[] = { "Underutilized", "Drifted", "Empty" };
static const char *const empty_only[] = { "Empty" };

/* upstream's six budgets */
static kp_budget B[7];
static kp_budget *BP[7];
static kp_disruption D;
static kp_nodepool_spec S;
static kp_object_meta M;
static kp_nodepool NP;

/* 2000-06-15T12:30:30Z */
#define NOW 961072230000LL

static void setup(void)
{
	kp_budget init = KP_BUDGET_INIT;
	kp_api_duration h1 = H1;
	for (int i = 0; i < 7; i++) {
		B[i] = init;
		B[i].schedule = "* * * * *";
		B[i].duration = h1;
		BP[i] = &B[i];
	}
	B[0].nodes = "10";
	B[1].nodes = "100";
	B[2].nodes = "100%";
	B[3].nodes = "15";
	B[3].reasons = drift_under;
	B[3].n_reasons = 2;
	B[4].nodes = "5";
	B[4].reasons = drifted;
	B[4].n_reasons = 1;
	B[5].nodes = "0";
	B[5].schedule = "@weekly";
	B[5].reasons = all3;
	B[5].n_reasons = 3;
	B[6].nodes = "4";
	B[6].reasons = empty_only;
	B[6].n_reasons = 1;
	kp_disruption d = KP_DISRUPTION_INIT;
	D = d;
	D.budgets = BP;
	D.n_budgets = 6;
	kp_nodepool_spec s = KP_NODEPOOL_SPEC_INIT;
	S = s;
	S.disruption = &D;
	memset(&M, 0, sizeof(M));
	M.struct_size = sizeof(M);
	M.name = "np";
	kp_nodepool np = KP_NODEPOOL_INIT;
	NP = np;
	NP.metadata = &M;
	NP.spec = &S;
}

static int64_t allowed(const char *reason, int want_rc)
{
	int64_t a = -1;
	kp_error e = KP_ERROR_INIT;
	int rc = kp_disruption_budget_allowed(&a, &NP, reason, 100, NOW, &e);
	ck_assert_int_eq(rc, want_rc);
	return a;
}

static const char *const reasons[] = { "Empty", "Underutilized", "Drifted" };

START_TEST(all_reasons_zero_when_all_reason_budget_active)
{
	B[5].schedule = "* * * * *";
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(allowed(reasons[i], KP_OK), 0);
}
END_TEST

START_TEST(unlimited_when_no_budget_active)
{
	for (int i = 0; i < 6; i++)
		B[i].schedule = "@yearly";
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(allowed(reasons[i], KP_OK), KP_DISRUPTION_UNLIMITED);
}
END_TEST

START_TEST(inactive_reason_budgets_ignored)
{
	B[3].schedule = "@yearly";
	B[4].schedule = "@yearly";
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(allowed(reasons[i], KP_OK), 10);
}
END_TEST

START_TEST(budget_without_reasons_applies_to_all)
{
	D.n_budgets = 1;
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(allowed(reasons[i], KP_OK), 10);
}
END_TEST

START_TEST(minimum_per_reason)
{
	D.n_budgets = 7;
	ck_assert_int_eq(allowed("Empty", KP_OK), 4);
	ck_assert_int_eq(allowed("Drifted", KP_OK), 5);
	ck_assert_int_eq(allowed("Underutilized", KP_OK), 10);
}
END_TEST

START_TEST(invalid_schedule_fails_closed)
{
	B[0].schedule = "@wrongly";
	kp_error e = KP_ERROR_INIT;
	int64_t a = -1;
	/* every reason is 0, even those the bad budget does not list */
	B[0].reasons = drifted;
	B[0].n_reasons = 1;
	ck_assert_int_eq(kp_disruption_budget_allowed(&a, &NP, "Empty", 100, NOW, &e), KP_EPARSE);
	ck_assert_int_eq(a, 0);
	ck_assert_str_eq(e.field, "spec.disruption.budgets[0].schedule");
}
END_TEST

START_TEST(invalid_nodes_fails_closed)
{
	B[0].nodes = "1000a%";
	kp_error e = KP_ERROR_INIT;
	int64_t a = -1;
	ck_assert_int_eq(kp_disruption_budget_allowed(&a, &NP, "Empty", 100, NOW, &e), KP_EPARSE);
	ck_assert_int_eq(a, 0);
	ck_assert_str_eq(e.field, "spec.disruption.budgets[0].nodes");
}
END_TEST

START_TEST(percentage_rounds_up)
{
	static const char *const pct[] = { "10%", "5%", "100%", "0%", "1%" };
	static const int64_t n[] = { 7, 10, 3, 50, 1 };
	static const int64_t want[] = { 1, 1, 3, 0, 1 };
	for (int i = 0; i < 5; i++) {
		kp_budget b = KP_BUDGET_INIT;
		b.nodes = pct[i];
		kp_budget *bp = &b;
		D.budgets = &bp;
		D.n_budgets = 1;
		int64_t a = -1;
		ck_assert_int_eq(kp_disruption_budget_allowed(&a, &NP, "Empty", n[i], NOW, NULL), KP_OK);
		ck_assert_int_eq(a, want[i]);
	}
}
END_TEST

START_TEST(cron_error_message)
{
	/* 2024-01-07T00:00:00Z */
	B[0].schedule = "0 0 * * tue-mon";
	kp_api_duration h6 = H("6h", 21600000000000LL);
	B[0].duration = h6;
	D.n_budgets = 1;
	kp_error e = KP_ERROR_INIT;
	int64_t a = -1;
	ck_assert_int_eq(kp_disruption_budget_allowed(&a, &NP, "Empty", 100, 1704585600000LL, &e),
			 KP_EPARSE);
	/* upstream (robfig) says "beginning of range (2) beyond end of range
	 * (1)"; lib/time's cron module words it as below */
	ck_assert_str_eq(e.message, "day-of-week field \"tue-mon\": range start TUE (2) is after end MON (1)");
	ck_assert_str_eq(e.field, "spec.disruption.budgets[0].schedule");
}
END_TEST

START_TEST(schedule_after_duration_inactive)
{
	B[0].schedule = "30 6 * * SUN";
	kp_api_duration h6 = H("6h", 21600000000000LL);
	B[0].duration = h6;
	D.n_budgets = 1;
	int64_t a = -1;
	ck_assert_int_eq(kp_disruption_budget_allowed(&a, &NP, "Empty", 100, 1704585600000LL, NULL),
			 KP_OK);
	ck_assert_int_eq(a, KP_DISRUPTION_UNLIMITED);
}
END_TEST

START_TEST(null_arguments)
{
	int64_t a = 7;
	ck_assert_int_eq(kp_disruption_budget_allowed(NULL, &NP, "Empty", 1, NOW, NULL), KP_EINVAL);
	ck_assert_int_eq(kp_disruption_budget_allowed(&a, NULL, "Empty", 1, NOW, NULL), KP_EINVAL);
	ck_assert_int_eq(a, 7);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Consolidatable                                                      */

static kp_condition INIT_COND;
static kp_condition *CONDS[1];
static kp_nodeclaim_status NST;
static kp_nodeclaim NC;

static void nc_setup(int64_t initialized_ms, int64_t last_pod_event_ms, const char *status)
{
	memset(&INIT_COND, 0, sizeof(INIT_COND));
	INIT_COND.struct_size = sizeof(INIT_COND);
	INIT_COND.type = "Initialized";
	INIT_COND.status = status;
	INIT_COND.last_transition_time_ms = initialized_ms;
	CONDS[0] = &INIT_COND;
	kp_nodeclaim_status st = KP_NODECLAIM_STATUS_INIT;
	NST = st;
	NST.conditions = CONDS;
	NST.n_conditions = 1;
	NST.last_pod_event_time_ms = last_pod_event_ms;
	kp_nodeclaim nc = KP_NODECLAIM_INIT;
	NC = nc;
	NC.status = &NST;
}

static void consolidate_after(const char *text, int64_t ns, int never)
{
	kp_api_duration d = { text, ns, never, 1 };
	D.consolidate_after = d;
}

START_TEST(consolidatable_after_window)
{
	consolidate_after("30s", 30000000000LL, 0);
	nc_setup(1000000, 0, "True");
	uint32_t state = 0;
	int64_t at = 0;
	ck_assert_int_eq(kp_disruption_consolidatable(&state, &at, &NC, &NP, 1000000 + 29999, NULL), KP_OK);
	ck_assert_uint_eq(state, KP_CONSOLIDATABLE_WAITING);
	ck_assert_int_eq(at, 1030000);
	ck_assert_int_eq(kp_disruption_consolidatable(&state, &at, &NC, &NP, 1030000, NULL), KP_OK);
	ck_assert_uint_eq(state, KP_CONSOLIDATABLE_TRUE);
}
END_TEST

START_TEST(consolidatable_from_last_pod_event)
{
	consolidate_after("5m", 300000000000LL, 0);
	nc_setup(1000000, 2000000, "True");
	uint32_t state = 0;
	int64_t at = 0;
	ck_assert_int_eq(kp_disruption_consolidatable(&state, &at, &NC, &NP, 1000000 + 300000, NULL), KP_OK);
	ck_assert_uint_eq(state, KP_CONSOLIDATABLE_WAITING);
	ck_assert_int_eq(at, 2300000);
	ck_assert_int_eq(kp_disruption_consolidatable(&state, &at, &NC, &NP, 2300000, NULL), KP_OK);
	ck_assert_uint_eq(state, KP_CONSOLIDATABLE_TRUE);
}
END_TEST

START_TEST(consolidatable_never_and_uninitialized)
{
	consolidate_after("Never", 0, 1);
	nc_setup(1000, 0, "True");
	uint32_t state = 0;
	ck_assert_int_eq(kp_disruption_consolidatable(&state, NULL, &NC, &NP, 5000000, NULL), KP_OK);
	ck_assert_uint_eq(state, KP_CONSOLIDATABLE_DISABLED);
	consolidate_after("0s", 0, 0);
	nc_setup(1000, 0, "False");
	ck_assert_int_eq(kp_disruption_consolidatable(&state, NULL, &NC, &NP, 5000000, NULL), KP_OK);
	ck_assert_uint_eq(state, KP_CONSOLIDATABLE_NOT_INITIALIZED);
	nc_setup(1000, 0, "True");
	ck_assert_int_eq(kp_disruption_consolidatable(&state, NULL, &NC, &NP, 1000, NULL), KP_OK);
	ck_assert_uint_eq(state, KP_CONSOLIDATABLE_TRUE);
}
END_TEST

START_TEST(names)
{
	ck_assert_str_eq(kp_disruption_method_name(KP_DISRUPTION_METHOD_MULTI_NODE), "MultiNodeConsolidation");
	ck_assert_str_eq(kp_disruption_decision_name(KP_DISRUPTION_REPLACE), "replace");
	ck_assert_str_eq(kp_disruption_block_code_name(KP_BLOCK_PDB), "PodDisruptionBudget");
	ck_assert_str_eq(kp_disruption_block_code_name(KP_BLOCK_UNINITIALIZED_DESTINATION),
			 "UninitializedDestination");
	ck_assert_str_eq(kp_disruption_block_code_name(999), "Unknown");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("disruption-budgets");
	TCase *tc = tcase_create("budgets");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, all_reasons_zero_when_all_reason_budget_active);
	tcase_add_test(tc, unlimited_when_no_budget_active);
	tcase_add_test(tc, inactive_reason_budgets_ignored);
	tcase_add_test(tc, budget_without_reasons_applies_to_all);
	tcase_add_test(tc, minimum_per_reason);
	tcase_add_test(tc, invalid_schedule_fails_closed);
	tcase_add_test(tc, invalid_nodes_fails_closed);
	tcase_add_test(tc, percentage_rounds_up);
	tcase_add_test(tc, cron_error_message);
	tcase_add_test(tc, schedule_after_duration_inactive);
	tcase_add_test(tc, null_arguments);
	tcase_add_test(tc, consolidatable_after_window);
	tcase_add_test(tc, consolidatable_from_last_pod_event);
	tcase_add_test(tc, consolidatable_never_and_uninitialized);
	tcase_add_test(tc, names);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
