/*
 * libFuzzer target: encoding is a fixed point. For every object a decode
 * of the input yields (strict and lenient, the core kinds and
 * KWOKNodeClass), in each form (compact JSON, indented JSON, YAML): the
 * encoded text must decode (default limits) to one object of the same kind
 * and name whose encoding in that form is the same bytes, and whose
 * compact JSON is the original's (a YAML or indented round trip loses
 * nothing either). Whatever decodes must encode. On any mismatch the two
 * texts are printed and the target aborts, so that libFuzzer reports the
 * input.
 *
 * Built with -Dfuzz=true and clang (see .ci/run).
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1 /* KWOKNodeClass through a registry */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>
#include <karpenter/sys/kwok.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static kp_registry *registry;

static void setup(void)
{
	uint32_t kwok_kind;
	if (!registry && (kp_registry_new(&registry, NULL) ||
			  kp_kwok_register(registry, &kwok_kind, NULL)))
		__builtin_trap(); /* not input-dependent: the harness is broken */
}

static void fail(const char *what, const kp_decoded_object *o, const char *a, const char *b)
{
	fprintf(stderr, "fuzz-roundtrip: %s/%s: %s\n--- first:\n%s\n--- then:\n%s\n", o->kind_name,
		o->name, what, a ? a : "", b ? b : "");
	abort();
}

static char *encode(const kp_decoded_object *o, uint32_t kind, const void *object, uint32_t format,
		    uint32_t flags)
{
	char *text = NULL;
	kp_error err = KP_ERROR_INIT;
	if (kp_registry_encode(&text, NULL, registry, kind, object, format, flags, &err) != KP_OK)
		fail("a decoded object does not encode", o, err.message, NULL);
	return text;
}

static void round_trip(const kp_decoded_object *o)
{
	static const struct {
		uint32_t format, flags;
	} forms[] = { { KP_FORMAT_JSON, 0 }, { KP_FORMAT_JSON, KP_ENCODE_PRETTY }, { KP_FORMAT_YAML, 0 } };
	char *json = encode(o, o->kind, o->object, KP_FORMAT_JSON, 0);
	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		char *first = encode(o, o->kind, o->object, forms[f].format, forms[f].flags);
		kp_decode_options opts = KP_DECODE_OPTIONS_INIT;
		opts.format = forms[f].format;
		opts.registry = registry;
		kp_decode_result *res = NULL;
		kp_error err = KP_ERROR_INIT;
		if (kp_decode(&res, first, strlen(first), &opts, &err) != KP_OK)
			fail("what was encoded does not decode", o, first, err.message);
		const kp_decoded_object *again = kp_decode_result_at(res, 0);
		if (kp_decode_result_count(res) != 1 || again->kind != o->kind || !again->object ||
		    strcmp(again->name, o->name) != 0)
			fail("what was encoded decodes to another object", o, first, NULL);
		char *then = encode(o, again->kind, again->object, forms[f].format, forms[f].flags);
		if (strcmp(first, then) != 0)
			fail("encode -> decode -> encode is not a fixed point", o, first, then);
		kp_encoded_free(then);
		if (f > 0) {
			then = encode(o, again->kind, again->object, KP_FORMAT_JSON, 0);
			if (strcmp(json, then) != 0)
				fail("a round trip through this form changes the object", o, json, then);
			kp_encoded_free(then);
		}
		kp_decode_result_free(res);
		kp_encoded_free(first);
	}
	kp_encoded_free(json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	setup();
	kp_decode_options opts = KP_DECODE_OPTIONS_INIT;
	opts.max_bytes = 1 << 20;
	opts.max_nodes = 1 << 16;
	opts.registry = registry;
	for (uint32_t flags = 0; flags <= KP_DECODE_LENIENT; flags += KP_DECODE_LENIENT) {
		kp_decode_result *res = NULL;
		kp_error err = KP_ERROR_INIT;
		opts.flags = flags;
		if (kp_decode(&res, (const char *)data, size, &opts, &err) == KP_OK) {
			for (size_t i = 0; i < kp_decode_result_count(res); i++) {
				const kp_decoded_object *o = kp_decode_result_at(res, i);
				if (o && o->object)
					round_trip(o);
			}
		} else if (err.message[0] == '\0') {
			__builtin_trap(); /* every failure must say why */
		}
		kp_decode_result_free(res);
	}
	return 0;
}
