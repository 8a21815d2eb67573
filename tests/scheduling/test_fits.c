/*
 * The feasibility verdicts (lib/scheduling/fits.c): each check names what
 * failed by index (taint, resource, driver) rather than by text, and the
 * reason text is written from the verdict (white-box).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdint.h>
#include <string.h>

#include <karpenter/karpenter.h>

#include "kp_test.h"
#include "scheduling/sched_private.h"

static const kp_taint taints[] = {
	{ "dedicated", "gpu", KP_TAINT_EFFECT_NO_SCHEDULE, 0, 0 },
	{ "team", "a", KP_TAINT_EFFECT_NO_EXECUTE, 0, 0 },
	{ KP_TAINT_KEY_NODE_UNSCHEDULABLE, NULL, KP_TAINT_EFFECT_NO_SCHEDULE, 0, 0 },
};

static const kp_toleration tol_dedicated[] = {
	{ "dedicated", "gpu", KP_TOLERATION_OP_EQUAL, KP_TAINT_EFFECT_NO_SCHEDULE, 0, 0, 0 },
};

static const kp_toleration tol_all[] = {
	{ "", NULL, KP_TOLERATION_OP_EXISTS, KP_TAINT_EFFECT_NONE, 0, 0, 0 },
};

START_TEST(taints_name_the_first_not_tolerated)
{
	sc_fit f;
	memset(&f, 0xff, sizeof(f));
	ck_assert_int_eq(kp__fit_taints(taints, 3, NULL, 0, &f), 0);
	ck_assert_int_eq(f.code, SC_FIT_TAINT);
	ck_assert_uint_eq(f.taint, 0);
	ck_assert_int_eq(kp__fit_taints(taints, 3, tol_dedicated, 1, &f), 0);
	ck_assert_int_eq(f.code, SC_FIT_TAINT);
	ck_assert_uint_eq(f.taint, 1);
	ck_assert_int_eq(kp__fit_taints(taints + 2, 1, tol_dedicated, 1, &f), 0);
	ck_assert_uint_eq(f.taint, 0);
	ck_assert_int_eq(kp__fit_taints(taints, 1, tol_dedicated, 1, &f), 1);
	ck_assert_int_eq(kp__fit_taints(taints, 3, tol_all, 1, &f), 1);
	ck_assert_int_eq(kp__fit_taints(NULL, 0, NULL, 0, &f), 1);
}
END_TEST

START_TEST(resources_name_the_resource)
{
	sc_fit f;
	const int64_t req[3] = { 1000, 0, 5 };
	const int64_t over[3] = { 500, 100, 10 };
	ck_assert_int_eq(kp__fit_resources(req, over, 3, &f), 0);
	ck_assert_int_eq(f.code, SC_FIT_RESOURCES);
	ck_assert_uint_eq(f.res, 0);
	ck_assert_int_eq(f.need, 1000);
	ck_assert_int_eq(f.have, 500);
	/* an over-committed resource (negative remainder) is named first,
	 * even one the pod does not request */
	const int64_t negative[3] = { 500, -1, 10 };
	ck_assert_int_eq(kp__fit_resources(req, negative, 3, &f), 0);
	ck_assert_uint_eq(f.res, 1);
	ck_assert_int_eq(f.need, 0);
	ck_assert_int_eq(f.have, -1);
	const int64_t exact[3] = { 1000, 0, 5 };
	ck_assert_int_eq(kp__fit_resources(req, exact, 3, &f), 1);
	ck_assert_int_eq(kp__fit_resources(req, exact, 0, &f), 1);
}
END_TEST

START_TEST(ports_conflict_on_protocol_port_and_ip)
{
	sc_fit f;
	sc_port pod = { { 0 }, 8080, 1, 1, 0 };  /* unspecified IP */
	sc_port other_port = { { 0 }, 8081, 1, 1, 0 };
	sc_port other_proto = { { 0 }, 8080, 2, 1, 0 };
	sc_port same = { { 0 }, 8080, 1, 0, 7 };
	ck_assert_int_eq(kp__fit_ports(&pod, 1, &other_port, 1, &f), 1);
	ck_assert_int_eq(kp__fit_ports(&pod, 1, &other_proto, 1, &f), 1);
	ck_assert_int_eq(kp__fit_ports(&pod, 0, &same, 1, &f), 1);
	ck_assert_int_eq(kp__fit_ports(&pod, 1, &same, 1, &f), 0);
	ck_assert_int_eq(f.code, SC_FIT_HOST_PORT);
	ck_assert_int_eq(f.where, SC_FIT_AT_NODECLAIM);
}
END_TEST

/* The texts come from the verdict's fields: the taint by its index, the
 * resource by name in its requests' format, the driver by name. */
START_TEST(reasons_from_verdicts)
{
	struct kp_cluster c;
	memset(&c, 0, sizeof(c));
	uint32_t id;
	ck_assert_int_eq(kp__strtab_intern(&c.res, "pods", &id), KP_OK);
	ck_assert_int_eq(kp__strtab_intern(&c.res, "cpu", &id), KP_OK);
	ck_assert_int_eq(kp__strtab_intern(&c.res, "memory", &id), KP_OK);
	ck_assert_int_eq(kp__strtab_intern(&c.str, "ebs.csi.aws.com", &id), KP_OK);
	c.n_res = 3;
	sc_variant v;
	memset(&v, 0, sizeof(v));
	v.tols = tol_dedicated;
	v.n_tols = 1;
	sc_why w = { 0 };

	sc_fit f;
	ck_assert_int_eq(kp__fit_taints(taints, 3, v.tols, v.n_tols, &f), 0);
	kp__fit_why(&c, &f, taints, 3, &v, &w);
	ck_assert_uint_eq(w.code, KP_REASON_TAINTS);
	ck_assert_str_eq(w.field, "team=a:NoExecute");
	ck_assert_str_eq(w.msg, "did not tolerate taint (taint=team=a:NoExecute); did not tolerate "
				"taint (taint=node.kubernetes.io/unschedulable:NoSchedule)");

	/* a cordoned node says so */
	ck_assert_int_eq(kp__fit_taints(taints + 2, 1, v.tols, v.n_tols, &f), 0);
	kp__fit_why(&c, &f, taints + 2, 1, &v, &w);
	ck_assert_uint_eq(w.code, KP_REASON_NODE_NOT_SCHEDULABLE);
	ck_assert_str_eq(w.field, "node.kubernetes.io/unschedulable:NoSchedule");

	const int64_t req[3] = { 1000, 300, 0 }, rem[3] = { 10000, 250, 0 };
	ck_assert_int_eq(kp__fit_resources(req, rem, 3, &f), 0);
	kp__fit_why(&c, &f, NULL, 0, &v, &w);
	ck_assert_uint_eq(w.code, KP_REASON_RESOURCES);
	ck_assert_str_eq(w.field, "cpu");
	ck_assert_str_eq(w.msg, "exceeds node resources: cpu requests 300m, 250m remains");

	f = (sc_fit){ .code = SC_FIT_VOLUME_LIMIT, .driver = id, .need = 3, .have = 2 };
	kp__fit_why(&c, &f, NULL, 0, &v, &w);
	ck_assert_uint_eq(w.code, KP_REASON_VOLUMES);
	ck_assert_str_eq(w.field, "ebs.csi.aws.com");
	ck_assert_str_eq(w.msg, "would exceed the volume limit of driver ebs.csi.aws.com (3 volumes, "
				"limit 2)");

	f = (sc_fit){ .code = SC_FIT_VOLUMES_OVER };
	kp__fit_why(&c, &f, NULL, 0, &v, &w);
	ck_assert_uint_eq(w.code, KP_REASON_VOLUMES);
	ck_assert_ptr_null(w.field);
	ck_assert_str_eq(w.msg, "the node's volumes already exceed its attach limit");

	f = (sc_fit){ .code = SC_FIT_HOST_PORT, .where = SC_FIT_AT_NODE };
	kp__fit_why(&c, &f, NULL, 0, &v, &w);
	ck_assert_uint_eq(w.code, KP_REASON_HOST_PORTS);
	ck_assert_str_eq(w.msg, "a host port of the pod is already in use on the node");
	f.where = SC_FIT_AT_NODECLAIM;
	kp__fit_why(&c, &f, NULL, 0, &v, &w);
	ck_assert_str_eq(w.msg, "a host port of the pod conflicts with the NodeClaim's daemons or pods");

	/* no reason wanted: nothing happens */
	kp__fit_why(&c, &f, NULL, 0, &v, NULL);
	kp__why_dispose(&w);
	kp__strtab_free(&c.res);
	kp__strtab_free(&c.str);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fits");
	TCase *tc = tcase_create("verdicts");
	tcase_add_test(tc, taints_name_the_first_not_tolerated);
	tcase_add_test(tc, resources_name_the_resource);
	tcase_add_test(tc, ports_conflict_on_protocol_port_and_ip);
	tcase_add_test(tc, reasons_from_verdicts);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
