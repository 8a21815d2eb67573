/* SPDX-License-Identifier: Apache-2.0 */
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>

#include "kp_internal.h"
#include "kp_test.h"

START_TEST(strerror_never_null)
{
	ck_assert_str_eq(kp_strerror(KP_OK), "success");
	ck_assert_str_eq(kp_strerror(KP_ENOTFOUND), "not found");
	ck_assert_str_eq(kp_strerror(KP_EINSUFFICIENT), "insufficient capacity");
	ck_assert_str_eq(kp_strerror(12345), "unknown status");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("common");
	TCase *tc = tcase_create("errors");
	tcase_add_test(tc, strerror_never_null);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
