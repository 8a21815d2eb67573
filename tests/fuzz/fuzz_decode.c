/*
 * libFuzzer target: the manifest decoder, the encoder, CRD defaulting and the
 * validator on arbitrary bytes. Any input must give a result or an error: never a crash,
 * a leak, undefined behaviour or unbounded memory (the decoder's limits are
 * lowered here so that the fuzzer explores them quickly).
 *
 * Built with -Dfuzz=true and clang (see .ci/run).
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <karpenter/karpenter.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Validate as given, against itself as the old object, then defaulted. */
static void validate(uint32_t kind, void *object)
{
	kp_validation *v = NULL;
	if (kp_validate(&v, kind, object, NULL, NULL, NULL) == KP_OK)
		(void)kp_validation_count(v);
	kp_validation_free(v);
	v = NULL;
	if (kp_validate(&v, kind, object, object, NULL, NULL) == KP_OK)
		(void)kp_validation_count(v);
	kp_validation_free(v);
	v = NULL;
	if (kp_object_default(kind, object, NULL) == KP_OK &&
	    kp_validate(&v, kind, object, NULL, NULL, NULL) == KP_OK)
		(void)kp_validation_count(v);
	kp_validation_free(v);
}

static void exercise(kp_decode_result *res)
{
	size_t n = kp_decode_result_count(res);
	for (size_t i = 0; i < n; i++) {
		const kp_decoded_object *o = kp_decode_result_at(res, i);
		if (!o || !o->object)
			continue;
		validate(o->kind, o->object);
		/* Round trip: whatever decodes must encode, and decode again. */
		for (uint32_t fmt = KP_FORMAT_JSON; fmt <= KP_FORMAT_YAML; fmt++) {
			char *text = NULL;
			size_t len = 0;
			if (kp_encode(&text, &len, o->kind, o->object, fmt, 0, NULL) == KP_OK) {
				kp_decode_result *again = NULL;
				kp_decode(&again, text, len, NULL, NULL);
				kp_decode_result_free(again);
			}
			kp_encoded_free(text);
		}
	}
	for (size_t i = 0; i < kp_decode_result_warning_count(res); i++)
		(void)strlen(kp_decode_result_warning_at(res, i));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	kp_decode_options opts = KP_DECODE_OPTIONS_INIT;
	opts.max_bytes = 1 << 20;
	opts.max_nodes = 1 << 16;
	for (uint32_t flags = 0; flags <= KP_DECODE_LENIENT; flags += KP_DECODE_LENIENT) {
		kp_decode_result *res = NULL;
		kp_error err = KP_ERROR_INIT;
		opts.flags = flags;
		if (kp_decode(&res, (const char *)data, size, &opts, &err) == KP_OK)
			exercise(res);
		else if (err.message[0] == '\0')
			__builtin_trap(); /* every failure must say why */
		kp_decode_result_free(res);
	}
	return 0;
}
