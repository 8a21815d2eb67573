/*
 * libFuzzer target: conversion (karpenter/convert.h) with the AWS provider's
 * conversions on arbitrary bytes. Any input gives a result or an error:
 * never a crash, a leak or undefined behaviour. And what conversion writes
 * is stable: the v1 objects X2 it writes after one round (input -> v1beta1
 * -> v1 -> v1beta1 -> v1) convert to v1beta1 and back to exactly X2
 * (upstream's webhooks, so without the kubelet migration, whose split
 * copies are new objects). The first round is not checked for equality: an
 * input already at v1beta1 passes through as given, and one the API server
 * would have refused or pruned (a v1-only field or enum value in a v1beta1
 * object, a forged compatibility annotation) is not round-tripped by
 * upstream either; valid inputs' exact round trips are table tests
 * (tests/convert/test_convert.c).
 *
 * Built with -Dfuzz=true and clang (see .ci/run).
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>
#include <karpenter/sys/schema.h>
#include <karpenter/aws_ec2nodeclass.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static kp_registry *registry;

/* Convert text to target; NULL when refused. */
static kp_convert *convert(const char *text, size_t len, uint32_t target, uint32_t flags)
{
	kp_convert_options o = KP_CONVERT_OPTIONS_INIT;
	o.target = target;
	o.flags = flags;
	o.registry = registry;
	kp_convert *c = NULL;
	if (kp_convert_new(&c, &o, NULL))
		abort();
	if (kp_convert_add(c, text, len, "fuzz", NULL) || kp_convert_run(c, NULL)) {
		kp_convert_free(c);
		return NULL;
	}
	for (size_t i = 0; i < kp_convert_report_count(c); i++)
		(void)strlen(kp_convert_report_at(c, i));
	return c;
}

static char *write_json(const kp_convert *c, size_t *len)
{
	char *text = NULL;
	if (kp_convert_write(&text, len, c, KP_FORMAT_JSON, NULL) != KP_OK)
		abort(); /* only out of memory */
	return text;
}

/* v1 objects to v1beta1 and back: never refused (what v1 conversion wrote
 * must convert back), with as many objects. */
static kp_convert *round_trip(kp_convert *x)
{
	size_t len = 0;
	char *text = write_json(x, &len);
	kp_convert *b = convert(text, len, KP_CONVERT_V1BETA1, KP_CONVERT_NO_KUBELET_MIGRATION);
	kp_encoded_free(text);
	if (!b)
		abort();
	text = write_json(b, &len);
	kp_convert_free(b);
	kp_convert *x2 = convert(text, len, KP_CONVERT_V1, KP_CONVERT_NO_KUBELET_MIGRATION);
	kp_encoded_free(text);
	if (!x2 || kp_convert_object_count(x2) != kp_convert_object_count(x))
		abort();
	return x2;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!registry && (kp_registry_new(&registry, NULL) ||
			  kp_aws_register(registry, NULL, NULL, NULL)))
		abort();
	/* the kubelet migration and YAML output, for crashes only */
	kp_convert *any = convert((const char *)data, size, KP_CONVERT_V1, 0);
	if (any) {
		char *yaml = NULL;
		if (kp_convert_write(&yaml, NULL, any, KP_FORMAT_YAML, NULL) != KP_OK)
			abort();
		kp_encoded_free(yaml);
	}
	kp_convert_free(any);

	kp_convert *b = convert((const char *)data, size, KP_CONVERT_V1BETA1,
				KP_CONVERT_NO_KUBELET_MIGRATION);
	if (!b)
		return 0;
	size_t len = 0;
	char *btext = write_json(b, &len);
	kp_convert_free(b);
	kp_convert *x = convert(btext, len, KP_CONVERT_V1, KP_CONVERT_NO_KUBELET_MIGRATION);
	kp_encoded_free(btext);
	if (!x)
		return 0; /* e.g. an annotation v1beta1 output carries that v1 refuses */
	kp_convert *x2 = round_trip(x);
	kp_convert *x3 = round_trip(x2);
	for (size_t i = 0; i < kp_convert_object_count(x2); i++)
		if (strcmp(kp_convert_object_json_at(x2, i), kp_convert_object_json_at(x3, i)))
			abort();
	kp_convert_free(x);
	kp_convert_free(x2);
	kp_convert_free(x3);
	return 0;
}
