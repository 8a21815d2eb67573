/*
 * The cluster input of the libFuzzer targets (fuzz_cluster.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include "fuzz_cluster.h"

#include <stdlib.h>
#include <string.h>

#include <karpenter/builder.h>
#include <karpenter/sys/kwok.h>

kp_instance_types *fuzz_catalogue;
kp_wellknown *fuzz_wellknown;
kp_registry *fuzz_registry;
uint32_t fuzz_kwok_kind;

static void setup(void)
{
	if (fuzz_catalogue)
		return;
	if (kp_kwok_catalog_builtin(&fuzz_catalogue, NULL) || kp_wellknown_new(&fuzz_wellknown, NULL) ||
	    kp_kwok_wellknown_add(fuzz_wellknown, fuzz_catalogue, NULL) ||
	    kp_registry_new(&fuzz_registry, NULL) ||
	    kp_kwok_register(fuzz_registry, &fuzz_kwok_kind, NULL))
		__builtin_trap(); /* not input-dependent: the harness is broken */
}

/* Decode with the limits lowered, so that the fuzzer explores them quickly. */
static int decode(kp_decode_result **res, const uint8_t *data, size_t size)
{
	kp_decode_options opts = KP_DECODE_OPTIONS_INIT;
	opts.max_bytes = 1 << 20;
	opts.max_nodes = 1 << 16;
	opts.registry = fuzz_registry;
	kp_error err = KP_ERROR_INIT;
	if (kp_decode(res, (const char *)data, size, &opts, &err) != KP_OK) {
		FUZZ_REQUIRE(err.message[0] != '\0');
		return -1;
	}
	return 0;
}

/* Give the builder a decoded stream as the CLI does; 0 when the CLI would
 * go on (no problem listed), and the lists then viewed again. */
static int add(fuzz_cluster *c, kp_decode_result *res, uint32_t flags)
{
	kp_error err = KP_ERROR_INIT;
	flags |= KP_BUILDER_ADD_VALIDATE | KP_BUILDER_ADD_VOLUME_ATTACHMENTS;
	if (kp_cluster_builder_add_decoded(c->builder, res, "fuzz", flags, &err) != KP_OK) {
		FUZZ_REQUIRE(err.message[0] != '\0');
		return -1;
	}
	for (size_t i = 0; i < kp_cluster_builder_problem_count(c->builder); i++) {
		const kp_builder_problem *p = kp_cluster_builder_problem_at(c->builder, i);
		fuzz_touch(p->source);
		fuzz_touch(p->object);
		fuzz_touch(p->field);
		fuzz_touch(p->message);
		fuzz_touch(p->first_source);
		if (p->type != KP_BUILDER_PROBLEM_WARNING)
			return -1; /* the CLI works on nothing the API server refuses */
	}
	static const uint32_t kinds[L_COUNT] = {
		[L_NODEPOOL] = KP_KIND_NODEPOOL, [L_NODECLAIM] = KP_KIND_NODECLAIM,
		[L_POD] = KP_KIND_POD, [L_NODE] = KP_KIND_NODE, [L_DAEMONSET] = KP_KIND_DAEMONSET,
		[L_PDB] = KP_KIND_PDB, [L_PVC] = KP_KIND_PVC, [L_PV] = KP_KIND_PV,
		[L_SC] = KP_KIND_STORAGE_CLASS, [L_CSI] = KP_KIND_CSI_NODE, [L_NS] = KP_KIND_NAMESPACE,
		[L_VA] = KP_KIND_VOLUME_ATTACHMENT,
	};
	for (int k = 0; k < L_COUNT; k++)
		if (kp_cluster_builder_objects(&c->l[k].items, &c->l[k].n, c->builder,
					       k == L_NODECLASS ? fuzz_kwok_kind : kinds[k]) != KP_OK)
			return -1;
	return 0;
}

int fuzz_cluster_load(fuzz_cluster *c, const uint8_t *data, size_t size)
{
	setup();
	memset(c, 0, sizeof(*c));
	if (decode(&c->res, data, size))
		return -1;
	if (kp_cluster_builder_new(&c->builder, NULL) ||
	    kp_cluster_builder_set_registry(c->builder, fuzz_registry, NULL) ||
	    kp_cluster_builder_set_instance_types(c->builder, NULL, fuzz_catalogue, NULL))
		goto fail;
	kp_cluster_builder_set_wellknown(c->builder, fuzz_wellknown);
	if (add(c, c->res, 0) == 0)
		return 0;
fail:
	fuzz_cluster_free(c);
	return -1;
}

int fuzz_cluster_apply(fuzz_cluster *c, const uint8_t *data, size_t size)
{
	if (decode(&c->applied, data, size) || add(c, c->applied, KP_BUILDER_ADD_REPLACE)) {
		fuzz_cluster_free(c);
		return -1;
	}
	return 0;
}

int fuzz_cluster_spec(fuzz_cluster *c, kp_cluster_spec *spec, int64_t now_ms)
{
	kp_cluster_builder_set_now(c->builder, now_ms);
	kp_error err = KP_ERROR_INIT;
	if (kp_cluster_builder_spec(spec, c->builder, &err) != KP_OK) {
		FUZZ_REQUIRE(err.message[0] != '\0');
		return -1;
	}
	return 0;
}

void fuzz_cluster_free(fuzz_cluster *c)
{
	kp_cluster_builder_free(c->builder);
	kp_decode_result_free(c->res);
	kp_decode_result_free(c->applied);
	memset(c, 0, sizeof(*c));
}

void fuzz_touch(const char *s)
{
	if (s)
		(void)strlen(s);
}
