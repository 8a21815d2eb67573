/*
 * libkarpenter-aws: EC2NodeClass's CRD defaults (providers/aws/
 * ec2nodeclass_defaults.c) through the registry's hook, one case per
 * `default:` of the CRD's schema, and what they do to the drift hash.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1
#include <stdio.h>
#include <string.h>

#include <karpenter/aws_ec2nodeclass.h>
#include <karpenter/codec.h>

#include "kp_test.h"

static kp_registry *reg;
static uint32_t kind;

static void setup(void)
{
	ck_assert_int_eq(kp_registry_new(&reg, NULL), KP_OK);
	ck_assert_int_eq(kp_aws_register(reg, NULL, &kind, NULL), KP_OK);
}

static void teardown(void)
{
	kp_registry_free(reg);
}

/* An EC2NodeClass with @p extra spec lines and @p status lines, decoded and
 * defaulted as the API server stores it. */
static kp_aws_ec2nodeclass *stored(const char *extra, const char *status)
{
	char text[2048];
	snprintf(text, sizeof(text),
		 "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata: {name: c}\n"
		 "spec:\n  role: r\n  amiSelectorTerms: [{alias: al2023@latest}]\n%s%s", extra,
		 status);
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.registry = reg;
	void *obj = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(kp_decode_one(&obj, kind, text, strlen(text), &o, &e) == KP_OK, "%s",
		      e.message);
	ck_assert_int_eq(kp_registry_object_default(reg, kind, obj, &e), KP_OK);
	return obj;
}

/* spec.metadataOptions absent: the object default. */
START_TEST(metadata_options_object)
{
	kp_aws_ec2nodeclass *nc = stored("", "");
	const kp_aws_metadata_options *mo = nc->spec->metadata_options;
	ck_assert_ptr_nonnull(mo);
	ck_assert_str_eq(mo->http_endpoint, "enabled");
	ck_assert_str_eq(mo->http_protocol_ipv6, "disabled");
	ck_assert_uint_eq(mo->has_http_put_response_hop_limit, 1);
	ck_assert(mo->http_put_response_hop_limit == 1);
	ck_assert_str_eq(mo->http_tokens, "required");
	/* the stored object hashes as one written with those values */
	kp_aws_ec2nodeclass *written = stored("  metadataOptions: {httpEndpoint: enabled, "
					      "httpProtocolIPv6: disabled, "
					      "httpPutResponseHopLimit: 1, httpTokens: required}\n",
					      "");
	uint64_t h1 = 0, h2 = 0;
	ck_assert_int_eq(kp_registry_object_hash(reg, kind, nc, NULL, &h1, NULL), KP_OK);
	ck_assert_int_eq(kp_registry_object_hash(reg, kind, written, NULL, &h2, NULL), KP_OK);
	ck_assert(h1 == h2);
	/* and defaulting again changes nothing */
	ck_assert_int_eq(kp_registry_object_default(reg, kind, nc, NULL), KP_OK);
	ck_assert_int_eq(kp_registry_object_equal(reg, kind, nc, written), 1);
	kp_registry_object_free(reg, kind, written);
	kp_registry_object_free(reg, kind, nc);
}
END_TEST

/* Each member of a given metadataOptions: defaulted when missing, kept
 * when given. */
static const struct {
	const char *given;
	const char *endpoint, *ipv6, *tokens;
	int64_t hops;
} member_cases[] = {
	{ "{httpProtocolIPv6: enabled, httpPutResponseHopLimit: 2, httpTokens: optional}",
	  "enabled", "enabled", "optional", 2 },
	{ "{httpEndpoint: disabled, httpPutResponseHopLimit: 2, httpTokens: optional}",
	  "disabled", "disabled", "optional", 2 },
	{ "{httpEndpoint: disabled, httpProtocolIPv6: enabled, httpTokens: optional}",
	  "disabled", "enabled", "optional", 1 },
	{ "{httpEndpoint: disabled, httpProtocolIPv6: enabled, httpPutResponseHopLimit: 2}",
	  "disabled", "enabled", "required", 2 },
	{ "{}", "enabled", "disabled", "required", 1 },
};

START_TEST(metadata_options_members)
{
	char extra[256];
	snprintf(extra, sizeof(extra), "  metadataOptions: %s\n", member_cases[_i].given);
	kp_aws_ec2nodeclass *nc = stored(extra, "");
	const kp_aws_metadata_options *mo = nc->spec->metadata_options;
	ck_assert_str_eq(mo->http_endpoint, member_cases[_i].endpoint);
	ck_assert_str_eq(mo->http_protocol_ipv6, member_cases[_i].ipv6);
	ck_assert_str_eq(mo->http_tokens, member_cases[_i].tokens);
	ck_assert_uint_eq(mo->has_http_put_response_hop_limit, 1);
	ck_assert(mo->http_put_response_hop_limit == member_cases[_i].hops);
	kp_registry_object_free(reg, kind, nc);
}
END_TEST

/* status.capacityReservations[*].reservationType and .state. */
START_TEST(capacity_reservation_status)
{
	kp_aws_ec2nodeclass *nc = stored(
		"", "status:\n  capacityReservations:\n"
		    "  - {availabilityZone: a, id: cr-1, instanceMatchCriteria: open, "
		    "instanceType: m5.large, ownerID: \"012345678901\"}\n"
		    "  - {availabilityZone: a, id: cr-2, instanceMatchCriteria: open, "
		    "instanceType: m5.large, ownerID: \"012345678901\", "
		    "reservationType: capacity-block, state: expiring}\n");
	const kp_aws_ec2nodeclass_status *st = nc->status;
	ck_assert_str_eq(st->capacity_reservations[0]->reservation_type, "default");
	ck_assert_str_eq(st->capacity_reservations[0]->state, "active");
	ck_assert_str_eq(st->capacity_reservations[1]->reservation_type, "capacity-block");
	ck_assert_str_eq(st->capacity_reservations[1]->state, "expiring");
	kp_registry_object_free(reg, kind, nc);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("aws-ec2nodeclass-defaults");
	TCase *tc = tcase_create("defaults");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, metadata_options_object);
	tcase_add_loop_test(tc, metadata_options_members, 0,
			    (int)(sizeof(member_cases) / sizeof(member_cases[0])));
	tcase_add_test(tc, capacity_reservation_status);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
