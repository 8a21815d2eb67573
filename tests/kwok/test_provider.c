/*
 * libkarpenter-kwok provider: create/delete/get/list through the core's
 * kp_cloudprovider wrappers, the cheapest-offering choice, node classes,
 * deterministic provider IDs, and the rest of the contract.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/kwok.h>

#include "kp_test.h"

/* ------------------------------------------------------------------ */
/* A NodeClaim built on the stack                                      */

#define MAX_REQS 8
#define MAX_VALUES 8

struct ncb {
	kp_nodeclaim nc;
	kp_object_meta meta;
	kp_nodeclaim_spec spec;
	kp_nodeclaim_resources res;
	kp_node_class_reference ref;
	kp_nodeclaim_requirement reqs[MAX_REQS];
	kp_nodeclaim_requirement *req_ptrs[MAX_REQS];
	const char *values[MAX_REQS][MAX_VALUES];
	kp_label labels[4];
	kp_resource requests[4];
};

static void ncb_init(struct ncb *b, const char *name)
{
	memset(b, 0, sizeof(*b));
	kp_nodeclaim nc = KP_NODECLAIM_INIT;
	kp_object_meta meta = KP_OBJECT_META_INIT;
	kp_nodeclaim_spec spec = KP_NODECLAIM_SPEC_INIT;
	kp_nodeclaim_resources res = KP_NODECLAIM_RESOURCES_INIT;
	kp_node_class_reference ref = KP_NODE_CLASS_REFERENCE_INIT;
	b->nc = nc;
	b->meta = meta;
	b->spec = spec;
	b->res = res;
	b->ref = ref;
	b->meta.name = name;
	b->ref.group = KP_KWOK_GROUP;
	b->ref.kind = KP_KWOK_NODECLASS_KIND;
	b->ref.name = "default";
	b->spec.node_class_ref = &b->ref;
	b->spec.resources = &b->res;
	b->spec.requirements = b->req_ptrs;
	b->res.requests.items = b->requests;
	b->meta.labels.items = b->labels;
	b->nc.metadata = &b->meta;
	b->nc.spec = &b->spec;
}

/* Add a requirement; values end with NULL. */
static void ncb_req(struct ncb *b, const char *key, const char *op, ...)
{
	size_t i = b->spec.n_requirements++;
	ck_assert_uint_lt(i, MAX_REQS);
	kp_nodeclaim_requirement r = KP_NODECLAIM_REQUIREMENT_INIT;
	r.key = key;
	r.operator_name = op;
	ck_assert_int_eq(kp_selector_op_parse(op, &r.op, NULL), KP_OK);
	va_list ap;
	va_start(ap, op);
	const char *v;
	while ((v = va_arg(ap, const char *)) != NULL) {
		ck_assert_uint_lt(r.n_values, MAX_VALUES);
		b->values[i][r.n_values++] = v;
	}
	va_end(ap);
	r.values = b->values[i];
	b->reqs[i] = r;
	b->req_ptrs[i] = &b->reqs[i];
}

static void ncb_label(struct ncb *b, const char *key, const char *value)
{
	b->labels[b->meta.labels.count].key = key;
	b->labels[b->meta.labels.count++].value = value;
}

static void ncb_request(struct ncb *b, const char *name, const char *quantity)
{
	kp_resource *r = &b->requests[b->res.requests.count++];
	r->name = name;
	ck_assert_int_eq(kp_quantity_parse(&r->quantity, quantity, NULL), KP_OK);
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static kp_cloudprovider *provider(const kp_kwok_provider_options *opts)
{
	kp_cloudprovider *cp = NULL;
	kp_error err = KP_ERROR_INIT;
	int rc = kp_kwok_provider_new(&cp, opts, &err);
	ck_assert_msg(rc == KP_OK, "provider: %s", err.message);
	ck_assert_ptr_nonnull(cp);
	return cp;
}

static kp_nodeclaim *create_ok(kp_cloudprovider *cp, struct ncb *b)
{
	kp_nodeclaim *out = NULL;
	kp_error err = KP_ERROR_INIT;
	int rc = kp_cloudprovider_create(&out, cp, &b->nc, &err);
	ck_assert_msg(rc == KP_OK, "create: %d %s", rc, err.message);
	ck_assert_ptr_nonnull(out);
	return out;
}

static const char *label(const kp_nodeclaim *nc, const char *key)
{
	const char *v = kp_labels_get(&nc->metadata->labels, key);
	return v ? v : "<absent>";
}

static const char *qstr(const kp_resource_list *list, const char *name)
{
	static char buf[4][KP_QUANTITY_STRING_MAX];
	static int slot;
	char *b = buf[slot++ % 4];
	kp_quantity q;
	if (kp_resources_get(&q, list, name, NULL) != KP_OK)
		return "<missing>";
	ck_assert_int_eq(kp_quantity_format(&q, b, KP_QUANTITY_STRING_MAX), KP_OK);
	return b;
}

/* A NodeClaim for the two cheapest generic types, the more expensive first. */
static void two_types(struct ncb *b, const char *name)
{
	ncb_init(b, name);
	ncb_req(b, KP_LABEL_INSTANCE_TYPE, "In", "s-1x-amd64-linux", "c-1x-amd64-linux", NULL);
}

/* ------------------------------------------------------------------ */
/* Create                                                              */

START_TEST(create_picks_cheapest_offering)
{
	kp_cloudprovider *cp = provider(NULL);
	struct ncb b;
	two_types(&b, "nc-a");
	ncb_label(&b, "team", "blue");
	ncb_req(&b, KP_LABEL_NODEPOOL, "In", "default", NULL);
	ncb_request(&b, "cpu", "500m");
	ncb_request(&b, "pods", "3");
	kp_nodeclaim *out = create_ok(cp, &b);

	ck_assert_str_eq(out->status->provider_id, "kwok://kwok-nc-a-0");
	/* c-1x is cheaper; among its offerings spot in test-zone-a comes first. */
	ck_assert_str_eq(label(out, KP_LABEL_INSTANCE_TYPE), "c-1x-amd64-linux");
	ck_assert_str_eq(label(out, KP_LABEL_TOPOLOGY_ZONE), "test-zone-a");
	ck_assert_str_eq(label(out, KP_LABEL_CAPACITY_TYPE), "spot");
	ck_assert_str_eq(label(out, KP_LABEL_ARCH), "amd64");
	ck_assert_str_eq(label(out, KP_LABEL_OS), "linux");
	ck_assert_str_eq(label(out, KP_KWOK_LABEL_INSTANCE_SIZE), "1");
	ck_assert_str_eq(label(out, KP_KWOK_LABEL_INSTANCE_FAMILY), "c");
	ck_assert_str_eq(label(out, KP_KWOK_LABEL_INSTANCE_CPU), "1");
	ck_assert_str_eq(label(out, KP_KWOK_LABEL_INSTANCE_MEMORY), "2Gi");
	ck_assert_str_eq(label(out, KP_KWOK_LABEL_NODE_VIEWER_PRICE), "0.019003");
	ck_assert_str_eq(label(out, KP_KWOK_LABEL_PARTITION), "a");
	ck_assert_str_eq(label(out, KP_KWOK_LABEL_NODE), "fake");
	ck_assert_str_eq(label(out, KP_LABEL_HOSTNAME), "nc-a");
	ck_assert_str_eq(label(out, KP_LABEL_NODEPOOL), "default");
	ck_assert_str_eq(label(out, "team"), "blue");
	ck_assert_str_eq(kp_labels_get(&out->metadata->annotations, KP_KWOK_LABEL_NODE), "fake");

	/* Capacity is the requests; allocatable is the requests with the type's
	 * allocatable assigned over them (upstream toNode). */
	ck_assert_uint_eq(out->status->capacity.count, 2);
	ck_assert_str_eq(qstr(&out->status->capacity, "cpu"), "500m");
	ck_assert_str_eq(qstr(&out->status->capacity, "pods"), "3");
	ck_assert_uint_eq(out->status->allocatable.count, 4);
	ck_assert_str_eq(qstr(&out->status->allocatable, "cpu"), "900m");
	ck_assert_str_eq(qstr(&out->status->allocatable, "memory"), "2038Mi");
	ck_assert_str_eq(qstr(&out->status->allocatable, "pods"), "16");
	ck_assert_str_eq(qstr(&out->status->allocatable, "ephemeral-storage"), "20Gi");
	kp_nodeclaim_free(out);
	kp_cloudprovider_free(cp);
}
END_TEST

START_TEST(create_respects_zone_and_capacity_type)
{
	kp_cloudprovider *cp = provider(NULL);
	struct ncb b;
	two_types(&b, "nc");
	ncb_req(&b, KP_LABEL_TOPOLOGY_ZONE, "In", "test-zone-c", "test-zone-d", NULL);
	kp_nodeclaim *out = create_ok(cp, &b);
	ck_assert_str_eq(label(out, KP_LABEL_INSTANCE_TYPE), "c-1x-amd64-linux");
	ck_assert_str_eq(label(out, KP_LABEL_TOPOLOGY_ZONE), "test-zone-c");
	ck_assert_str_eq(label(out, KP_LABEL_CAPACITY_TYPE), "spot");
	kp_nodeclaim_free(out);

	two_types(&b, "nc");
	ncb_req(&b, KP_LABEL_CAPACITY_TYPE, "In", "on-demand", NULL);
	out = create_ok(cp, &b);
	ck_assert_str_eq(label(out, KP_LABEL_INSTANCE_TYPE), "c-1x-amd64-linux");
	ck_assert_str_eq(label(out, KP_LABEL_TOPOLOGY_ZONE), "test-zone-a");
	ck_assert_str_eq(label(out, KP_LABEL_CAPACITY_TYPE), "on-demand");
	ck_assert_str_eq(label(out, KP_KWOK_LABEL_NODE_VIEWER_PRICE), "0.027147");
	kp_nodeclaim_free(out);

	two_types(&b, "nc");
	ncb_req(&b, KP_LABEL_CAPACITY_TYPE, "NotIn", "spot", NULL);
	ncb_req(&b, KP_LABEL_TOPOLOGY_ZONE, "NotIn", "test-zone-a", "test-zone-b", NULL);
	out = create_ok(cp, &b);
	ck_assert_str_eq(label(out, KP_LABEL_TOPOLOGY_ZONE), "test-zone-c");
	ck_assert_str_eq(label(out, KP_LABEL_CAPACITY_TYPE), "on-demand");
	/* A single-valued In requirement of the NodeClaim becomes a label, then
	 * the chosen offering's labels win. */
	kp_nodeclaim_free(out);
	kp_cloudprovider_free(cp);
}
END_TEST

/* Equal prices: the first type in the requirement's order wins. */
START_TEST(create_ties_are_deterministic)
{
	kp_cloudprovider *cp = provider(NULL);
	struct ncb b;
	ncb_init(&b, "nc");
	ncb_req(&b, KP_LABEL_INSTANCE_TYPE, "In", "c-1x-arm64-windows", "c-1x-amd64-linux",
		"c-1x-arm64-linux", NULL);
	kp_nodeclaim *out = create_ok(cp, &b);
	ck_assert_str_eq(label(out, KP_LABEL_INSTANCE_TYPE), "c-1x-arm64-windows");
	ck_assert_str_eq(label(out, KP_LABEL_OS), "windows");
	ck_assert_str_eq(label(out, KP_LABEL_TOPOLOGY_ZONE), "test-zone-a");
	kp_nodeclaim_free(out);
	kp_cloudprovider_free(cp);
}
END_TEST

START_TEST(create_errors)
{
	kp_cloudprovider *cp = provider(NULL);
	struct ncb b;
	kp_nodeclaim *out = NULL;
	kp_error err = KP_ERROR_INIT;

	ncb_init(&b, "nc");
	ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &b.nc, &err), KP_EINVAL);
	ck_assert_str_eq(err.message,
			 "translating nodeclaim to node, instance type requirement not found");

	ncb_req(&b, KP_LABEL_INSTANCE_TYPE, "In", "c-1x-amd64-linux", "nope", NULL);
	ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &b.nc, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "translating nodeclaim to node, instance type not found "
				      "(instance-type=nope)");

	ncb_init(&b, "nc");
	ncb_req(&b, KP_LABEL_INSTANCE_TYPE, "NotIn", "c-1x-amd64-linux", NULL);
	ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &b.nc, &err), KP_EINVAL);

	two_types(&b, "nc");
	ncb_req(&b, KP_LABEL_TOPOLOGY_ZONE, "In", "elsewhere", NULL);
	ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &b.nc, &err), KP_EINSUFFICIENT);
	ck_assert_str_eq(err.message, "no available offering of 2 instance type(s) is compatible "
				      "with the nodeclaim's requirements");

	two_types(&b, NULL);
	ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &b.nc, &err), KP_EINVAL);
	ck_assert_ptr_null(out);

	/* Failed launches consume no sequence number. */
	two_types(&b, "ok");
	out = create_ok(cp, &b);
	ck_assert_str_eq(out->status->provider_id, "kwok://kwok-ok-0");
	kp_nodeclaim_free(out);
	kp_cloudprovider_free(cp);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Node classes                                                        */

static kp_kwok_nodeclass *nodeclass(const char *name, const char *ready, const char *message)
{
	kp_kwok_nodeclass *nc = calloc(1, sizeof(*nc));
	kp_object_meta *meta = calloc(1, sizeof(*meta));
	kp_kwok_nodeclass_status *st = calloc(1, sizeof(*st));
	kp_condition **conds = calloc(1, sizeof(*conds));
	kp_condition *c = calloc(1, sizeof(*c));
	kp_kwok_nodeclass i1 = KP_KWOK_NODECLASS_INIT;
	kp_object_meta i2 = KP_OBJECT_META_INIT;
	kp_kwok_nodeclass_status i3 = KP_KWOK_NODECLASS_STATUS_INIT;
	kp_condition i4 = KP_CONDITION_INIT;
	*nc = i1;
	*meta = i2;
	*st = i3;
	*c = i4;
	meta->name = name;
	c->type = "Ready";
	c->status = ready;
	c->message = message;
	conds[0] = c;
	st->conditions = conds;
	st->n_conditions = ready ? 1 : 0;
	nc->metadata = meta;
	nc->status = st;
	return nc;
}

static void nodeclass_free(kp_kwok_nodeclass *nc)
{
	free(nc->status->conditions[0]);
	free(nc->status->conditions);
	free(nc->status);
	free(nc->metadata);
	free(nc);
}

START_TEST(nodeclass_missing_and_not_ready)
{
	kp_kwok_nodeclass *ready = nodeclass("ready", "True", "");
	kp_kwok_nodeclass *broken = nodeclass("broken", "False", "no images found");
	kp_kwok_nodeclass *quiet = nodeclass("quiet", "False", "");
	kp_kwok_nodeclass *unknown = nodeclass("unknown", "Unknown", "pending");
	const kp_kwok_nodeclass *ncs[] = { ready, broken, quiet, unknown };
	kp_kwok_provider_options opts = KP_KWOK_PROVIDER_OPTIONS_INIT;
	opts.nodeclasses = ncs;
	opts.n_nodeclasses = 4;
	kp_cloudprovider *cp = provider(&opts);
	nodeclass_free(ready); /* copied */
	nodeclass_free(broken);
	nodeclass_free(quiet);
	nodeclass_free(unknown);

	struct ncb b;
	kp_nodeclaim *out = NULL;
	kp_error err = KP_ERROR_INIT;
	two_types(&b, "nc");
	b.ref.name = "missing";
	ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &b.nc, &err), KP_EINSUFFICIENT);
	ck_assert_str_eq(err.message, "resolving node class from nodeclaim, "
				      "kwoknodeclasses.karpenter.kwok.sh \"missing\" not found");
	b.ref.name = "broken";
	ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &b.nc, &err), KP_ENOTREADY);
	ck_assert_str_eq(err.message, "no images found");
	b.ref.name = "quiet";
	ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &b.nc, &err), KP_ENOTREADY);
	ck_assert_str_eq(err.message, "KWOKNodeClass \"quiet\" is not ready");
	b.spec.node_class_ref = NULL;
	ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &b.nc, &err), KP_EINVAL);
	ck_assert_ptr_null(out);
	b.spec.node_class_ref = &b.ref;

	/* Upstream checks IsFalse(): Unknown launches. */
	b.ref.name = "unknown";
	out = create_ok(cp, &b);
	kp_nodeclaim_free(out);
	b.ref.name = "ready";
	out = create_ok(cp, &b);
	ck_assert_str_eq(out->status->provider_id, "kwok://kwok-nc-1");
	kp_nodeclaim_free(out);
	kp_cloudprovider_free(cp);

	/* Present but empty: no node class exists. */
	opts.n_nodeclasses = 0;
	cp = provider(&opts);
	ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &b.nc, &err), KP_EINSUFFICIENT);
	kp_cloudprovider_free(cp);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Delete, get, list                                                    */

START_TEST(delete_get_list)
{
	kp_cloudprovider *cp = provider(NULL);
	struct ncb b;
	const char *names[] = { "b", "a", "c" };
	kp_nodeclaim *launched[3];
	for (size_t i = 0; i < 3; i++) {
		two_types(&b, names[i]);
		launched[i] = create_ok(cp, &b);
	}
	ck_assert_str_eq(launched[1]->status->provider_id, "kwok://kwok-a-1");

	kp_nodeclaim **all = NULL;
	size_t n = 0;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_cloudprovider_list(&all, &n, cp, &err), KP_OK);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(all[0]->status->provider_id, "kwok://kwok-a-1");
	ck_assert_str_eq(all[1]->status->provider_id, "kwok://kwok-b-0");
	ck_assert_str_eq(all[2]->status->provider_id, "kwok://kwok-c-2");
	ck_assert_str_eq(all[0]->metadata->name, "a");
	ck_assert_str_eq(label(all[0], KP_LABEL_INSTANCE_TYPE), "c-1x-amd64-linux");
	kp_nodeclaims_free(all, n);

	kp_nodeclaim *got = NULL;
	ck_assert_int_eq(kp_cloudprovider_get(&got, cp, "kwok://kwok-b-0", &err), KP_OK);
	ck_assert_str_eq(got->metadata->name, "b");
	ck_assert_str_eq(got->status->provider_id, "kwok://kwok-b-0");
	ck_assert_str_eq(label(got, KP_LABEL_HOSTNAME), "b");
	kp_nodeclaim_free(got);

	/* Delete: the instance is gone at once, reported as not found. */
	ck_assert_int_eq(kp_cloudprovider_delete(cp, launched[0], &err), KP_ENOTFOUND);
	ck_assert_str_eq(err.message, "instance terminated");
	got = NULL;
	ck_assert_int_eq(kp_cloudprovider_get(&got, cp, "kwok://kwok-b-0", &err), KP_ENOTFOUND);
	ck_assert_str_eq(err.message, "finding node, nodes \"kwok-b-0\" not found");
	ck_assert_ptr_null(got);
	ck_assert_int_eq(kp_cloudprovider_delete(cp, launched[0], &err), KP_ENOTFOUND);
	ck_assert_str_eq(err.message, "deleting node, instance \"kwok://kwok-b-0\" not found");

	/* Without a provider ID, by NodeClaim name. */
	two_types(&b, "c");
	ck_assert_int_eq(kp_cloudprovider_delete(cp, &b.nc, &err), KP_ENOTFOUND);
	ck_assert_str_eq(err.message, "instance terminated");
	ck_assert_int_eq(kp_cloudprovider_delete(cp, &b.nc, &err), KP_ENOTFOUND);
	ck_assert_str_eq(err.message, "deleting node, no instance was launched for nodeclaim \"c\"");

	ck_assert_int_eq(kp_cloudprovider_list(&all, &n, cp, &err), KP_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(all[0]->status->provider_id, "kwok://kwok-a-1");
	kp_nodeclaims_free(all, n);

	ck_assert_int_eq(kp_cloudprovider_delete(cp, launched[1], &err), KP_ENOTFOUND);
	all = NULL;
	ck_assert_int_eq(kp_cloudprovider_list(&all, &n, cp, &err), KP_OK);
	ck_assert_uint_eq(n, 0);
	kp_nodeclaims_free(all, n);
	for (size_t i = 0; i < 3; i++)
		kp_nodeclaim_free(launched[i]);
	kp_cloudprovider_free(cp);
}
END_TEST

/* Equal call sequences give equal provider IDs, in a fresh provider or in
 * another run; sequence_start moves the counter. */
START_TEST(deterministic_provider_ids)
{
	char ids[2][4][64];
	for (int run = 0; run < 2; run++) {
		kp_cloudprovider *cp = provider(NULL);
		struct ncb b;
		for (int i = 0; i < 4; i++) {
			two_types(&b, i % 2 ? "odd" : "even");
			kp_nodeclaim *out = create_ok(cp, &b);
			snprintf(ids[run][i], 64, "%s", out->status->provider_id);
			if (i == 1) {
				kp_error err = KP_ERROR_INIT;
				ck_assert_int_eq(kp_cloudprovider_delete(cp, out, &err), KP_ENOTFOUND);
			}
			kp_nodeclaim_free(out);
		}
		kp_cloudprovider_free(cp);
	}
	for (int i = 0; i < 4; i++)
		ck_assert_str_eq(ids[0][i], ids[1][i]);
	ck_assert_str_eq(ids[0][0], "kwok://kwok-even-0");
	ck_assert_str_eq(ids[0][1], "kwok://kwok-odd-1");
	ck_assert_str_eq(ids[0][3], "kwok://kwok-odd-3");

	kp_kwok_provider_options opts = KP_KWOK_PROVIDER_OPTIONS_INIT;
	opts.sequence_start = 1000;
	kp_cloudprovider *cp = provider(&opts);
	struct ncb b;
	two_types(&b, "x");
	kp_nodeclaim *out = create_ok(cp, &b);
	ck_assert_str_eq(out->status->provider_id, "kwok://kwok-x-1000");
	kp_nodeclaim_free(out);
	kp_cloudprovider_free(cp);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The rest of the contract                                            */

START_TEST(contract)
{
	kp_cloudprovider *cp = provider(NULL);
	ck_assert_str_eq(kp_cloudprovider_name(cp), "kwok");

	kp_instance_types *its = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_cloudprovider_get_instance_types(&its, cp, NULL, &err), KP_OK);
	ck_assert_uint_eq(kp_instance_types_count(its), 144);
	kp_instance_types *again = NULL;
	ck_assert_int_eq(kp_cloudprovider_get_instance_types(&again, cp, NULL, &err), KP_OK);
	ck_assert_ptr_eq(its, again); /* a reference to the one catalogue */
	kp_instance_types_free(again);

	const kp_repair_policy *rp = NULL;
	size_t n = 0;
	ck_assert_int_eq(kp_cloudprovider_repair_policies(&rp, &n, cp, &err), KP_OK);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(rp[0].condition_type, "Ready");
	ck_assert_str_eq(rp[0].condition_status, "False");
	ck_assert_int_eq(rp[0].toleration_ms, 600000);
	ck_assert_str_eq(rp[1].condition_type, "Ready");
	ck_assert_str_eq(rp[1].condition_status, "Unknown");
	ck_assert_int_eq(rp[1].toleration_ms, 600000);

	const kp_group_kind *gk = NULL;
	ck_assert_int_eq(kp_cloudprovider_supported_node_classes(&gk, &n, cp, &err), KP_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(gk[0].group, "karpenter.kwok.sh");
	ck_assert_str_eq(gk[0].kind, "KWOKNodeClass");

	struct ncb b;
	two_types(&b, "nc");
	kp_nodeclaim *out = create_ok(cp, &b);
	char reason[32] = "x";
	ck_assert_int_eq(kp_cloudprovider_is_drifted(cp, out, reason, sizeof(reason), &err), KP_OK);
	ck_assert_str_eq(reason, "");
	kp_nodeclaim_free(out);

	kp_cloudprovider_free(cp);
	/* The reference outlives the provider. */
	ck_assert_uint_eq(kp_instance_types_count(its), 144);
	kp_instance_types_free(its);
}
END_TEST

START_TEST(custom_catalogue)
{
	static const char json[] =
		"[{\"name\": \"g5.4xlarge\", \"architecture\": \"amd64\", "
		"  \"operatingSystems\": [\"linux\"], \"resources\": {\"cpu\": \"16\"},"
		"  \"offerings\": [{\"capacityType\": \"on-demand\", \"zone\": \"us-east-1a\", "
		"\"price\": 1.624},"
		"                 {\"capacityType\": \"on-demand\", \"zone\": \"us-east-1c\", "
		"\"price\": 1.525}]}]";
	kp_instance_types *its = NULL;
	ck_assert_int_eq(kp_kwok_catalog_parse(&its, json, strlen(json), NULL, NULL), KP_OK);
	kp_kwok_provider_options opts;
	kp_kwok_provider_options_init(&opts);
	opts.instance_types = its;
	kp_cloudprovider *cp = provider(&opts);
	kp_instance_types_free(its); /* the provider keeps its own reference */

	struct ncb b;
	ncb_init(&b, "gpu");
	ncb_req(&b, KP_LABEL_INSTANCE_TYPE, "In", "g5.4xlarge", NULL);
	kp_nodeclaim *out = create_ok(cp, &b);
	ck_assert_str_eq(label(out, KP_LABEL_TOPOLOGY_ZONE), "us-east-1c");
	ck_assert_str_eq(label(out, KP_KWOK_LABEL_INSTANCE_SIZE), "4xlarge");
	ck_assert_str_eq(label(out, KP_KWOK_LABEL_NODE_VIEWER_PRICE), "1.525000");
	ck_assert_str_eq(qstr(&out->status->allocatable, "cpu"), "15900m");
	kp_nodeclaim_free(out);
	kp_cloudprovider_free(cp);
}
END_TEST

/* Offering requirements beyond zone and capacity type: they constrain the
 * choice, become well-known (so a NodeClaim that does not mention them is
 * compatible, as upstream), and label the instance. */
START_TEST(offering_requirements)
{
	static const char json[] =
		"[{\"name\": \"r\", \"resources\": {\"cpu\": \"2\"}, \"offerings\": ["
		" {\"Price\": 1, \"Requirements\": ["
		"   {\"key\": \"karpenter.sh/capacity-type\", \"operator\": \"In\", \"values\": [\"spot\"]},"
		"   {\"key\": \"topology.kubernetes.io/zone\", \"operator\": \"In\", \"values\": [\"z\"]},"
		"   {\"key\": \"example.com/rack\", \"operator\": \"In\", \"values\": [\"r1\"]}]},"
		" {\"Price\": 2, \"Requirements\": ["
		"   {\"key\": \"karpenter.sh/capacity-type\", \"operator\": \"In\", \"values\": [\"spot\"]},"
		"   {\"key\": \"topology.kubernetes.io/zone\", \"operator\": \"In\", \"values\": [\"z\"]},"
		"   {\"key\": \"example.com/rack\", \"operator\": \"In\", \"values\": [\"r2\"]}]}]}]";
	kp_instance_types *its = NULL;
	ck_assert_int_eq(kp_kwok_catalog_parse(&its, json, strlen(json), NULL, NULL), KP_OK);
	kp_kwok_provider_options opts = KP_KWOK_PROVIDER_OPTIONS_INIT;
	opts.instance_types = its;
	kp_cloudprovider *cp = provider(&opts);
	kp_instance_types_free(its);

	struct ncb b;
	ncb_init(&b, "any");
	ncb_req(&b, KP_LABEL_INSTANCE_TYPE, "In", "r", NULL);
	kp_nodeclaim *out = create_ok(cp, &b);
	ck_assert_str_eq(label(out, "example.com/rack"), "r1");
	ck_assert_str_eq(label(out, KP_KWOK_LABEL_NODE_VIEWER_PRICE), "1.000000");
	kp_nodeclaim_free(out);

	ncb_init(&b, "rack2");
	ncb_req(&b, KP_LABEL_INSTANCE_TYPE, "In", "r", NULL);
	ncb_req(&b, "example.com/rack", "In", "r2", "r3", NULL);
	out = create_ok(cp, &b);
	ck_assert_str_eq(label(out, "example.com/rack"), "r2");
	ck_assert_str_eq(out->status->provider_id, "kwok://kwok-rack2-1");
	kp_nodeclaim_free(out);

	/* get also takes the bare node name, as upstream strips the prefix. */
	kp_nodeclaim *got = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_cloudprovider_get(&got, cp, "kwok-rack2-1", &err), KP_OK);
	ck_assert_str_eq(got->status->provider_id, "kwok://kwok-rack2-1");
	kp_nodeclaim_free(got);
	got = NULL;
	ck_assert_int_eq(kp_cloudprovider_get(&got, cp, "kwok-rack2-9", &err), KP_ENOTFOUND);
	ck_assert_str_eq(err.message, "finding node, nodes \"kwok-rack2-9\" not found");
	kp_cloudprovider_free(cp);
}
END_TEST

START_TEST(options_checks)
{
	kp_cloudprovider *cp = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_kwok_provider_new(NULL, NULL, &err), KP_EINVAL);

	struct {
		kp_kwok_provider_options o;
		uint64_t tail;
	} big;
	memset(&big, 0, sizeof(big));
	kp_kwok_provider_options_init(&big.o);
	big.o.struct_size = sizeof(big);
	cp = provider(&big.o); /* a zero tail is fine */
	kp_cloudprovider_free(cp);
	cp = NULL;
	big.tail = 1;
	ck_assert_int_eq(kp_kwok_provider_new(&cp, &big.o, &err), KP_EVERSION);
	ck_assert_ptr_null(cp);

	kp_kwok_provider_options bad = KP_KWOK_PROVIDER_OPTIONS_INIT;
	bad.reserved = 1;
	ck_assert_int_eq(kp_kwok_provider_new(&cp, &bad, &err), KP_EINVAL);
	ck_assert_ptr_null(cp);

	kp_kwok_provider_options small = KP_KWOK_PROVIDER_OPTIONS_INIT;
	small.struct_size = 8;
	ck_assert_int_eq(kp_kwok_provider_new(&cp, &small, &err), KP_EVERSION);
	ck_assert_ptr_null(cp);

	kp_kwok_provider_options opts = KP_KWOK_PROVIDER_OPTIONS_INIT;
	const kp_kwok_nodeclass *ncs[1] = { NULL };
	opts.nodeclasses = ncs;
	opts.n_nodeclasses = 1;
	ck_assert_int_eq(kp_kwok_provider_new(&cp, &opts, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "nodeclasses[0]");
	ck_assert_ptr_null(cp);
}
END_TEST

static Suite *provider_suite(void)
{
	Suite *s = suite_create("kwok-provider");
	TCase *tc = tcase_create("create");
	tcase_add_test(tc, create_picks_cheapest_offering);
	tcase_add_test(tc, create_respects_zone_and_capacity_type);
	tcase_add_test(tc, create_ties_are_deterministic);
	tcase_add_test(tc, create_errors);
	tcase_add_test(tc, nodeclass_missing_and_not_ready);
	suite_add_tcase(s, tc);
	tc = tcase_create("instances");
	tcase_add_test(tc, delete_get_list);
	tcase_add_test(tc, deterministic_provider_ids);
	suite_add_tcase(s, tc);
	tc = tcase_create("contract");
	tcase_add_test(tc, contract);
	tcase_add_test(tc, custom_catalogue);
	tcase_add_test(tc, offering_requirements);
	tcase_add_test(tc, options_checks);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	Suite *suites[] = { provider_suite() };
	return kp_test_run(suites, 1);
}
