/*
 * Registers the "Acme Cloud" provider (acme.c) with libkarpenter, lists its
 * instance types, launches a NodeClaim through the core's wrappers and
 * deletes it until the provider reports it gone (KP_ENOTFOUND), as
 * Karpenter's termination controller does. Built in-tree by meson and
 * out-of-tree with `pkg-config --cflags --libs libkarpenter` (Makefile).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include "acme.h"

static const char *quantity(const kp_resource_list *list, const char *name, char *buf,
			    size_t size)
{
	kp_quantity q;
	kp_resources_get(&q, list, name, NULL); /* zero when absent */
	kp_quantity_format(&q, buf, size);
	return buf;
}

static int report(const char *what, const kp_error *err)
{
	fprintf(stderr, "%s: %s (%s)\n", what, err->message, kp_strerror(err->code));
	return 1;
}

/* A NodeClaim as Karpenter's provisioner would hand it to the provider. */
struct claim {
	kp_label labels[1];
	const char *types[3];
	const char *capacity_types[2];
	kp_nodeclaim_requirement reqs[2];
	kp_nodeclaim_requirement *req_ptrs[2];
	kp_resource requests[3];
	kp_nodeclaim_resources resources;
	kp_node_class_reference ref;
	kp_object_meta meta;
	kp_nodeclaim_spec spec;
	kp_nodeclaim nc;
};

static void claim_init(struct claim *c, const char *name, const char *cpu, const char *memory,
		       const char *gpu)
{
	memset(c, 0, sizeof(*c));
	c->labels[0].key = KP_LABEL_NODEPOOL;
	c->labels[0].value = "default";
	c->types[0] = "acme.small";
	c->types[1] = "acme.medium";
	c->types[2] = "acme.large";
	c->capacity_types[0] = KP_CAPACITY_TYPE_SPOT;
	c->capacity_types[1] = KP_CAPACITY_TYPE_ON_DEMAND;
	kp_nodeclaim_requirement r = KP_NODECLAIM_REQUIREMENT_INIT;
	r.key = KP_LABEL_INSTANCE_TYPE;
	r.operator_name = gpu ? "Exists" : "In"; /* a GPU claim leaves the type open */
	r.values = gpu ? NULL : c->types;
	r.n_values = gpu ? 0 : 3;
	c->reqs[0] = r;
	r.key = KP_LABEL_CAPACITY_TYPE;
	r.operator_name = "In";
	r.values = c->capacity_types;
	r.n_values = 2;
	c->reqs[1] = r;
	c->req_ptrs[0] = &c->reqs[0];
	c->req_ptrs[1] = &c->reqs[1];
	size_t n = 0;
	c->requests[n].name = KP_RESOURCE_CPU;
	kp_quantity_parse(&c->requests[n++].quantity, cpu, NULL);
	c->requests[n].name = KP_RESOURCE_MEMORY;
	kp_quantity_parse(&c->requests[n++].quantity, memory, NULL);
	if (gpu) {
		c->requests[n].name = "nvidia.com/gpu";
		kp_quantity_parse(&c->requests[n++].quantity, gpu, NULL);
	}
	kp_nodeclaim_resources res = KP_NODECLAIM_RESOURCES_INIT;
	res.requests.items = c->requests;
	res.requests.count = n;
	c->resources = res;
	kp_node_class_reference ref = KP_NODE_CLASS_REFERENCE_INIT;
	ref.group = ACME_NODECLASS_GROUP;
	ref.kind = ACME_NODECLASS_KIND;
	ref.name = "default";
	c->ref = ref;
	kp_object_meta meta = KP_OBJECT_META_INIT;
	meta.name = name;
	meta.labels.items = c->labels;
	meta.labels.count = 1;
	c->meta = meta;
	kp_nodeclaim_spec spec = KP_NODECLAIM_SPEC_INIT;
	spec.requirements = c->req_ptrs;
	spec.n_requirements = 2;
	spec.resources = &c->resources;
	spec.node_class_ref = &c->ref;
	c->spec = spec;
	kp_nodeclaim nc = KP_NODECLAIM_INIT;
	nc.metadata = &c->meta;
	nc.spec = &c->spec;
	c->nc = nc;
}

int main(void)
{
	kp_error err = KP_ERROR_INIT;
	kp_cloudprovider *cp = NULL;
	if (acme_provider_new(&cp, &err) != KP_OK)
		return report("registering the acme provider", &err);
	printf("provider: %s (libkarpenter %s)\n", kp_cloudprovider_name(cp), kp_version_string());

	/* The catalogue, as the scheduler sees it. */
	kp_instance_types *its = NULL;
	if (kp_cloudprovider_get_instance_types(&its, cp, NULL, &err) != KP_OK)
		return report("getting instance types", &err);
	printf("instance types: %zu\n", kp_instance_types_count(its));
	for (size_t i = 0; i < kp_instance_types_count(its); i++) {
		const kp_instance_type *it = kp_instance_types_at(its, i);
		const kp_offering *of = kp_instance_type_cheapest_offering(it, NULL, NULL);
		char cpu[KP_QUANTITY_STRING_MAX], mem[KP_QUANTITY_STRING_MAX];
		printf("  %s: allocatable cpu %s, memory %s; cheapest %s in %s at %.4f/h\n", it->name,
		       quantity(it->allocatable, KP_RESOURCE_CPU, cpu, sizeof(cpu)),
		       quantity(it->allocatable, KP_RESOURCE_MEMORY, mem, sizeof(mem)),
		       of->capacity_type, of->zone, of->price);
	}
	kp_instance_types_free(its);

	/* Launch. */
	struct claim c;
	claim_init(&c, "default-x7k2p", "3", "8Gi", NULL);
	printf("manages %s: %s\n", c.meta.name,
	       kp_cloudprovider_manages_nodeclaim(cp, &c.nc) ? "yes" : "no");
	kp_nodeclaim *launched = NULL;
	if (kp_cloudprovider_create(&launched, cp, &c.nc, &err) != KP_OK)
		return report("launching", &err);
	const kp_labels *labels = &launched->metadata->labels;
	char cpu[KP_QUANTITY_STRING_MAX], mem[KP_QUANTITY_STRING_MAX];
	printf("launched %s: %s (%s, %s, %s)\n", launched->metadata->name,
	       launched->status->provider_id, kp_labels_get(labels, KP_LABEL_INSTANCE_TYPE),
	       kp_labels_get(labels, KP_LABEL_CAPACITY_TYPE),
	       kp_labels_get(labels, KP_LABEL_TOPOLOGY_ZONE));
	printf("  nodepool %s, allocatable cpu %s, memory %s\n",
	       kp_labels_get(labels, KP_LABEL_NODEPOOL),
	       quantity(&launched->status->allocatable, KP_RESOURCE_CPU, cpu, sizeof(cpu)),
	       quantity(&launched->status->allocatable, KP_RESOURCE_MEMORY, mem, sizeof(mem)));

	kp_nodeclaim **all = NULL;
	size_t n = 0;
	if (kp_cloudprovider_list(&all, &n, cp, &err) != KP_OK)
		return report("listing", &err);
	printf("instances: %zu\n", n);
	kp_nodeclaims_free(all, n);

	/* Delete until the provider says the instance is gone. */
	for (int attempt = 1;; attempt++) {
		int rc = kp_cloudprovider_delete(cp, launched, &err);
		if (rc == KP_OK) {
			printf("delete #%d: termination in progress\n", attempt);
			continue;
		}
		if (rc == KP_ENOTFOUND) {
			printf("delete #%d: instance gone (%s)\n", attempt, err.message);
			break;
		}
		return report("deleting", &err);
	}
	kp_nodeclaim *gone = NULL;
	int rc = kp_cloudprovider_get(&gone, cp, launched->status->provider_id, &err);
	printf("get after delete: %s\n", kp_strerror(rc));
	kp_nodeclaim_free(launched);

	/* A claim nothing can satisfy: the provider's typed error comes back. */
	claim_init(&c, "default-gpu4", "1", "1Gi", "4");
	rc = kp_cloudprovider_create(&launched, cp, &c.nc, &err);
	printf("launch 4 GPUs: %s: %s\n", kp_strerror(rc), err.message);

	kp_cloudprovider_free(cp);
	return rc == KP_EINSUFFICIENT ? 0 : 1;
}
