/*
 * Well-known labels, label normalization and the restricted-label check
 * (upstream pkg/apis/v1/labels.go).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include <karpenter/wellknown.h>

#include "kp_test.h"

/* The message upstream's IsRestrictedLabel gives for the core rules. */
#define CORE_WELLKNOWN_LIST                                                                       \
	"[karpenter.sh/capacity-type karpenter.sh/nodepool kubernetes.io/arch kubernetes.io/os "  \
	"node.kubernetes.io/instance-type node.kubernetes.io/windows-build "                     \
	"topology.kubernetes.io/region topology.kubernetes.io/zone]"
#define RESTRICTED_MESSAGE(key)                                                                   \
	"using label " key " is not allowed as it might interfere with the internal provisioning " \
	"logic; specify a well known label: " CORE_WELLKNOWN_LIST                                  \
	", or a custom label that does not use a restricted domain: [karpenter.sh]"

START_TEST(constants_match_upstream)
{
	ck_assert_str_eq(KP_LABEL_NODEPOOL, "karpenter.sh/nodepool");
	ck_assert_str_eq(KP_LABEL_CAPACITY_TYPE, "karpenter.sh/capacity-type");
	ck_assert_str_eq(KP_LABEL_NODE_INITIALIZED, "karpenter.sh/initialized");
	ck_assert_str_eq(KP_LABEL_NODE_REGISTERED, "karpenter.sh/registered");
	ck_assert_str_eq(KP_LABEL_NODE_DO_NOT_SYNC_TAINTS, "karpenter.sh/do-not-sync-taints");
	ck_assert_str_eq(KP_ANNOTATION_DO_NOT_DISRUPT, "karpenter.sh/do-not-disrupt");
	ck_assert_str_eq(KP_ANNOTATION_PROVIDER_COMPATIBILITY, "compatibility.karpenter.sh/provider");
	ck_assert_str_eq(KP_ANNOTATION_NODEPOOL_HASH_VERSION, "karpenter.sh/nodepool-hash-version");
	ck_assert_str_eq(KP_FINALIZER_TERMINATION, "karpenter.sh/termination");
	ck_assert_str_eq(KP_LABEL_INSTANCE_TYPE, "node.kubernetes.io/instance-type");
	ck_assert_str_eq(KP_LABEL_WINDOWS_BUILD, "node.kubernetes.io/windows-build");
	ck_assert_str_eq(KP_LABEL_HOSTNAME, "kubernetes.io/hostname");
	ck_assert_str_eq(KP_CAPACITY_TYPE_ON_DEMAND, "on-demand");
	ck_assert_str_eq(KP_CAPACITY_TYPE_SPOT, "spot");
	ck_assert_str_eq(KP_CAPACITY_TYPE_RESERVED, "reserved");
}
END_TEST

START_TEST(core_wellknown_labels_sorted)
{
	static const char *const expected[] = {
		"karpenter.sh/capacity-type",       "karpenter.sh/nodepool",
		"kubernetes.io/arch",               "kubernetes.io/os",
		"node.kubernetes.io/instance-type", "node.kubernetes.io/windows-build",
		"topology.kubernetes.io/region",    "topology.kubernetes.io/zone",
	};
	size_t n = sizeof(expected) / sizeof(expected[0]);
	kp_wellknown *wk;
	ck_assert_int_eq(kp_wellknown_new(&wk, NULL), KP_OK);
	/* NULL means the core rules; a new handle starts with the same rules. */
	kp_wellknown *sets[] = { NULL, wk };
	for (int s = 0; s < 2; s++) {
		ck_assert_uint_eq(kp_wellknown_count(sets[s]), n);
		for (size_t i = 0; i < n; i++) {
			ck_assert_str_eq(kp_wellknown_at(sets[s], i), expected[i]);
			ck_assert_int_eq(kp_wellknown_has(sets[s], expected[i]), 1);
		}
		ck_assert_ptr_null(kp_wellknown_at(sets[s], n));
		ck_assert_int_eq(kp_wellknown_has(sets[s], KP_LABEL_HOSTNAME), 0);
		ck_assert_int_eq(kp_wellknown_has(sets[s], KP_LABEL_NODE_INITIALIZED), 0);
		ck_assert_int_eq(kp_wellknown_has(sets[s], KP_LABEL_ARCH_BETA), 0);
		ck_assert_int_eq(kp_wellknown_has(sets[s], "zone"), 0);
		ck_assert_int_eq(kp_wellknown_has(sets[s], NULL), 0);
	}
	kp_wellknown_free(wk);
}
END_TEST

static const struct {
	const char *key;
	const char *normalized;
} key_aliases[] = {
	{ "failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/zone" },
	{ "failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/region" },
	{ "beta.kubernetes.io/arch", "kubernetes.io/arch" },
	{ "beta.kubernetes.io/os", "kubernetes.io/os" },
	{ "beta.kubernetes.io/instance-type", "node.kubernetes.io/instance-type" },
};

START_TEST(normalize_beta_labels)
{
	const char *got = kp_wellknown_normalize_key(NULL, key_aliases[_i].key);
	ck_assert_str_eq(got, key_aliases[_i].normalized);
	/* A normalized key maps to itself, and is returned as given. */
	ck_assert_ptr_eq(kp_wellknown_normalize_key(NULL, got), got);
}
END_TEST

START_TEST(normalize_returns_input_when_unchanged)
{
	const char *key = "example.com/team";
	ck_assert_ptr_eq(kp_wellknown_normalize_key(NULL, key), key);
	ck_assert_ptr_null(kp_wellknown_normalize_key(NULL, NULL));
	const char *value = "";
	ck_assert_ptr_eq(kp_wellknown_normalize_value(NULL, KP_LABEL_TOPOLOGY_ZONE, value), value);
}
END_TEST

START_TEST(provider_rules)
{
	kp_wellknown *wk;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_wellknown_new(&wk, &err), KP_OK);
	ck_assert_int_eq(kp_wellknown_add_label(wk, "karpenter.k8s.aws/instance-family", &err), KP_OK);
	ck_assert_int_eq(kp_wellknown_add_label(wk, "karpenter.k8s.aws/instance-family", &err), KP_OK);
	ck_assert_int_eq(kp_wellknown_add_restricted_domain(wk, "karpenter.k8s.aws", &err), KP_OK);
	ck_assert_int_eq(kp_wellknown_add_key_alias(wk, "topology.ebs.csi.aws.com/zone",
						    KP_LABEL_TOPOLOGY_ZONE, &err), KP_OK);
	ck_assert_int_eq(kp_wellknown_add_value_alias(wk, KP_LABEL_TOPOLOGY_ZONE, "", "0", &err), KP_OK);

	ck_assert_uint_eq(kp_wellknown_count(wk), 9);
	ck_assert_str_eq(kp_wellknown_at(wk, 0), "karpenter.k8s.aws/instance-family");
	ck_assert_int_eq(kp_wellknown_has(wk, "karpenter.k8s.aws/instance-family"), 1);
	ck_assert_int_eq(kp_wellknown_has(NULL, "karpenter.k8s.aws/instance-family"), 0);

	ck_assert_str_eq(kp_wellknown_normalize_key(wk, "topology.ebs.csi.aws.com/zone"),
			 KP_LABEL_TOPOLOGY_ZONE);
	ck_assert_str_eq(kp_wellknown_normalize_key(wk, KP_LABEL_ARCH_BETA), KP_LABEL_ARCH);
	ck_assert_str_eq(kp_wellknown_normalize_key(NULL, "topology.ebs.csi.aws.com/zone"),
			 "topology.ebs.csi.aws.com/zone");
	ck_assert_str_eq(kp_wellknown_normalize_value(wk, KP_LABEL_TOPOLOGY_ZONE, ""), "0");
	ck_assert_str_eq(kp_wellknown_normalize_value(wk, KP_LABEL_TOPOLOGY_REGION, ""), "");
	ck_assert_str_eq(kp_wellknown_normalize_value(wk, KP_LABEL_TOPOLOGY_ZONE, "a"), "a");
	/* Registering an alias again replaces its target. */
	ck_assert_int_eq(kp_wellknown_add_value_alias(wk, KP_LABEL_TOPOLOGY_ZONE, "", "1", &err), KP_OK);
	ck_assert_str_eq(kp_wellknown_normalize_value(wk, KP_LABEL_TOPOLOGY_ZONE, ""), "1");

	/* The provider's domain is restricted, its well-known label is not. */
	ck_assert_int_eq(kp_wellknown_check_restricted(wk, "karpenter.k8s.aws/instance-family", &err), KP_OK);
	ck_assert_int_eq(kp_wellknown_check_restricted(wk, "karpenter.k8s.aws/custom", &err), KP_EINVAL);
	ck_assert_int_eq(kp_wellknown_check_restricted(NULL, "karpenter.k8s.aws/custom", NULL), KP_OK);
	char full[1024];
	size_t n = kp_wellknown_restricted_message(wk, "karpenter.k8s.aws/custom", full, sizeof(full));
	ck_assert_uint_eq(n, strlen(full));
	ck_assert_str_eq(full,
		"using label karpenter.k8s.aws/custom is not allowed as it might interfere with the "
		"internal provisioning logic; specify a well known label: [karpenter.k8s.aws/instance-family "
		"karpenter.sh/capacity-type karpenter.sh/nodepool kubernetes.io/arch kubernetes.io/os "
		"node.kubernetes.io/instance-type node.kubernetes.io/windows-build "
		"topology.kubernetes.io/region topology.kubernetes.io/zone], or a custom label that does "
		"not use a restricted domain: [karpenter.k8s.aws karpenter.sh]");
	kp_wellknown_free(wk);
}
END_TEST

START_TEST(provider_rules_reject_bad_input)
{
	kp_wellknown *wk;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_wellknown_new(&wk, NULL), KP_OK);
	ck_assert_int_eq(kp_wellknown_add_label(wk, "", &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "key");
	ck_assert_str_eq(err.message, "key is empty");
	ck_assert_int_eq(kp_wellknown_add_label(NULL, "a/b", &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "rule set is NULL");
	ck_assert_int_eq(kp_wellknown_add_restricted_domain(wk, NULL, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "domain");
	ck_assert_str_eq(err.message, "domain is NULL");
	ck_assert_int_eq(kp_wellknown_add_key_alias(wk, "a/b", "a/b", &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "alias");
	ck_assert_str_eq(err.message, "label a/b cannot be an alias of itself");
	ck_assert_int_eq(kp_wellknown_add_value_alias(wk, "a/b", "x", NULL, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "value");
	ck_assert_int_eq(kp_wellknown_new(NULL, &err), KP_EINVAL);
	/* Nothing was added by the failed calls. */
	ck_assert_uint_eq(kp_wellknown_count(wk), 8);
	kp_wellknown_free(wk);
	kp_wellknown_free(NULL);
}
END_TEST

static const struct {
	const char *key;
	const char *domain;
} domains[] = {
	{ "karpenter.sh/nodepool", "karpenter.sh" },
	{ "nodepool", "" },
	{ "a.b/c/d", "a.b" },
	{ "/x", "" },
	{ "", "" },
};

START_TEST(label_domain)
{
	const char *d = NULL;
	size_t n = kp_wellknown_label_domain(domains[_i].key, &d);
	ck_assert_uint_eq(n, strlen(domains[_i].domain));
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(strncmp(d, domains[_i].domain, n), 0);
	ck_assert_uint_eq(kp_wellknown_label_domain(domains[_i].key, NULL), n);
}
END_TEST

/* 1 = rejected by upstream IsRestrictedLabel with the core rules. */
static const struct {
	const char *key;
	int restricted;
} restricted[] = {
	{ "karpenter.sh/nodepool", 0 },          /* well-known in the reserved domain */
	{ "karpenter.sh/capacity-type", 0 },
	{ "karpenter.sh/custom", 1 },            /* reserved domain */
	{ "karpenter.sh/initialized", 1 },
	{ "karpenter.sh/do-not-disrupt", 1 },
	{ "sub.karpenter.sh/custom", 1 },        /* subdomains are reserved too */
	{ "compatibility.karpenter.sh/provider", 1 },
	{ "notkarpenter.sh/custom", 0 },         /* a suffix is not a subdomain */
	{ "karpenter.sh.example.com/custom", 0 },
	{ "karpenter.sh", 0 },                   /* no '/': no domain */
	{ "kubernetes.io/hostname", 1 },         /* RestrictedLabels */
	{ "kubernetes.io/custom", 0 },           /* kubernetes.io is no longer reserved */
	{ "node-restriction.kubernetes.io/team", 0 },
	{ "k8s.io/custom", 0 },
	{ "topology.kubernetes.io/zone", 0 },
	{ "kubernetes.io/arch", 0 },
	{ "example.com/team", 0 },
	{ "team", 0 },
};

START_TEST(restricted_labels)
{
	kp_error err = KP_ERROR_INIT;
	const char *key = restricted[_i].key;
	int rc = kp_wellknown_check_restricted(NULL, key, &err);
	if (!restricted[_i].restricted) {
		ck_assert_int_eq(rc, KP_OK);
		ck_assert_int_eq(err.code, 0); /* untouched */
		return;
	}
	ck_assert_int_eq(rc, KP_EINVAL);
	ck_assert_int_eq(err.code, KP_EINVAL);
	ck_assert_str_eq(err.field, "key");
	char full[1024];
	size_t n = kp_wellknown_restricted_message(NULL, key, full, sizeof(full));
	ck_assert_uint_lt(n, sizeof(full));
	char expected[1024];
	snprintf(expected, sizeof(expected), RESTRICTED_MESSAGE("%s"), key);
	ck_assert_str_eq(full, expected);
	/* kp_error holds the same text, or as much of it as fits. */
	size_t keep = n < KP_ERROR_MESSAGE_MAX ? n : KP_ERROR_MESSAGE_MAX - 1;
	ck_assert_uint_eq(strlen(err.message), keep);
	ck_assert_int_eq(strncmp(err.message, expected, keep), 0);
}
END_TEST

START_TEST(restricted_message_truncates_like_snprintf)
{
	char small[16];
	size_t n = kp_wellknown_restricted_message(NULL, "karpenter.sh/x", small, sizeof(small));
	ck_assert_uint_eq(n, strlen(RESTRICTED_MESSAGE("karpenter.sh/x")));
	ck_assert_str_eq(small, "using label kar");
	ck_assert_uint_eq(kp_wellknown_restricted_message(NULL, "karpenter.sh/x", NULL, 0), n);
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_wellknown_check_restricted(NULL, NULL, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "key is NULL");
}
END_TEST

START_TEST(restricted_label_set)
{
	ck_assert_int_eq(kp_wellknown_is_restricted_label("kubernetes.io/hostname"), 1);
	ck_assert_int_eq(kp_wellknown_is_restricted_label("kubernetes.io/arch"), 0);
	ck_assert_int_eq(kp_wellknown_is_restricted_label("karpenter.sh/custom"), 0);
	ck_assert_int_eq(kp_wellknown_is_restricted_label(NULL), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("wellknown");
	TCase *tc = tcase_create("labels");
	tcase_add_test(tc, constants_match_upstream);
	tcase_add_test(tc, core_wellknown_labels_sorted);
	tcase_add_loop_test(tc, normalize_beta_labels, 0, sizeof(key_aliases) / sizeof(key_aliases[0]));
	tcase_add_test(tc, normalize_returns_input_when_unchanged);
	tcase_add_loop_test(tc, label_domain, 0, sizeof(domains) / sizeof(domains[0]));
	suite_add_tcase(s, tc);

	tc = tcase_create("restricted");
	tcase_add_loop_test(tc, restricted_labels, 0, sizeof(restricted) / sizeof(restricted[0]));
	tcase_add_test(tc, restricted_message_truncates_like_snprintf);
	tcase_add_test(tc, restricted_label_set);
	suite_add_tcase(s, tc);

	tc = tcase_create("provider");
	tcase_add_test(tc, provider_rules);
	tcase_add_test(tc, provider_rules_reject_bad_input);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
