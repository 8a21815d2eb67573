/*
 * The KWOK catalogue loader at scale (issue 11): a type with many distinct
 * zones and offerings loads in proportion to its size. A scan per value
 * once made 100,000 zones take 40 s (and 40,000 zones 3.9 s); with 80,000
 * here that code runs into the suite's 30 s timeout. No timing is asserted:
 * the test checks what was loaded.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>
#include <karpenter/kwok.h>

#include "kp_test.h"

/* One type with @p n offerings: zone z<i % zones>, capacity types
 * alternating spot / on-demand. */
static char *catalogue(size_t n, size_t zones, size_t *len)
{
	size_t cap = 256 + n * 220, used = 0;
	char *s = malloc(cap);
	ck_assert_ptr_nonnull(s);
	used += (size_t)snprintf(s + used, cap - used,
				 "[{\"name\": \"c-4x-amd64-linux\", \"architecture\": \"amd64\", "
				 "\"operatingSystems\": [\"linux\"], \"resources\": {\"cpu\": \"4\", "
				 "\"memory\": \"8Gi\"}, \"offerings\": [");
	for (size_t i = 0; i < n; i++)
		used += (size_t)snprintf(
			s + used, cap - used,
			"%s{\"Price\":0.5,\"Available\":true,\"Requirements\":["
			"{\"key\":\"karpenter.sh/capacity-type\",\"operator\":\"In\","
			"\"values\":[\"%s\"]},{\"key\":\"topology.kubernetes.io/zone\","
			"\"operator\":\"In\",\"values\":[\"z%zu\"]}]}",
			i ? ", " : "", i % 2 ? "on-demand" : "spot", i % zones);
	used += (size_t)snprintf(s + used, cap - used, "]}]");
	*len = used;
	return s;
}

static const struct {
	size_t offerings, zones;
} sizes[] = { { 80000, 80000 }, { 80000, 40000 }, { 80000, 7 } }; /* within the 16 MiB limit */

START_TEST(many_zones)
{
	size_t len;
	char *text = catalogue(sizes[_i].offerings, sizes[_i].zones, &len);
	kp_instance_types *its = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_msg(kp_kwok_catalog_parse(&its, text, len, "scale.json", &err) == KP_OK, "%s",
		      err.message);
	ck_assert_uint_eq(kp_instance_types_count(its), 1);
	const kp_instance_type *it = kp_instance_types_at(its, 0);
	ck_assert_uint_eq(it->n_offerings, sizes[_i].offerings);
	kp_requirement *zone = kp_requirements_get(it->requirements, KP_LABEL_TOPOLOGY_ZONE);
	ck_assert_ptr_nonnull(zone);
	ck_assert_uint_eq(kp_requirement_value_count(zone), sizes[_i].zones);
	ck_assert_str_eq(kp_requirement_value_at(zone, 0), "z0");
	kp_requirement *ct = kp_requirements_get(it->requirements, KP_LABEL_CAPACITY_TYPE);
	ck_assert_uint_eq(kp_requirement_value_count(ct), 2);
	ck_assert_str_eq(kp_requirement_value_at(ct, 0), "on-demand");
	ck_assert_str_eq(kp_requirement_value_at(ct, 1), "spot");
	kp_instance_types_free(its);
	free(text);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kwok-catalog-scale");
	TCase *tc = tcase_create("zones");
	tcase_set_timeout(tc, 0); /* the suite's own timeout (meson, scaled under sanitizers) bounds it */
	tcase_add_loop_test(tc, many_zones, 0, (int)(sizeof(sizes) / sizeof(sizes[0])));
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
