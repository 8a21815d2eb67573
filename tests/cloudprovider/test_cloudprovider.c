/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The provider interface (include/karpenter/cloudprovider.h): registration
 * checks, and the wrappers around a tiny in-test provider that keeps its
 * instances in an array (upstream pkg/cloudprovider/fake plays this part).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/cloudprovider.h>
#include <karpenter/version.h>

#include "kp_test.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the in-test provider ---- */

struct rec {
	char provider_id[64];
	char name[64];
	int64_t deletion_ms;
};

struct fake {
	int *destroyed;            /* incremented by destroy */
	kp_instance_types *its;
	struct rec recs[8];
	size_t n;
	unsigned launched;
	kp_instance views[8];
	const kp_instance *ptrs[8];
	/* next create fails with this code, message and reason (once) */
	int fail_rc;
	const char *fail_message;
	const char *fail_reason;
	int create_without_id;     /* next create returns no provider ID */
	int list_duplicates;       /* list returns the first record twice */
	int bad_labels;            /* records carry a duplicate label key */
	const char *drift;         /* is_drifted reason */
	const kp_nodeclaim *last_created; /* what create was given */
};

static const kp_label fake_labels[] = {
	{ KP_LABEL_CAPACITY_TYPE, "spot" },
	{ KP_LABEL_INSTANCE_TYPE, "small" },
	{ KP_LABEL_TOPOLOGY_ZONE, "zone-a" },
	{ "team", "provider" },
};
static const kp_label fake_annotations[] = { { "example.com/hash", "new" } };
static kp_resource fake_capacity[2];
static kp_resource fake_allocatable[2];

static void fake_resources(void)
{
	fake_capacity[0].name = "cpu";
	fake_capacity[1].name = "memory";
	ck_assert_int_eq(kp_quantity_parse(&fake_capacity[0].quantity, "2", NULL), KP_OK);
	ck_assert_int_eq(kp_quantity_parse(&fake_capacity[1].quantity, "4Gi", NULL), KP_OK);
	fake_allocatable[0] = fake_capacity[0];
	fake_allocatable[1].name = "memory";
	ck_assert_int_eq(kp_quantity_parse(&fake_allocatable[1].quantity, "3Gi", NULL), KP_OK);
}

static const kp_label dup_labels[] = { { "team", "x" }, { "team", "y" } };

static void fill(const struct fake *f, const struct rec *r, kp_instance *out)
{
	out->provider_id = r->provider_id;
	out->image_id = "img-1";
	out->nodeclaim_name = r->name;
	out->labels.items = (kp_label *)(uintptr_t)fake_labels;
	out->labels.count = N(fake_labels);
	out->annotations.items = (kp_label *)(uintptr_t)fake_annotations;
	out->annotations.count = N(fake_annotations);
	out->capacity.items = fake_capacity;
	out->capacity.count = N(fake_capacity);
	out->allocatable.items = fake_allocatable;
	out->allocatable.count = N(fake_allocatable);
	out->created_ms = 1700000000000;
	out->deletion_ms = r->deletion_ms;
	if (f->bad_labels) {
		out->labels.items = (kp_label *)(uintptr_t)dup_labels;
		out->labels.count = N(dup_labels);
	}
}

static int fake_fail(kp_error *err, int rc, const char *message, const char *reason)
{
	snprintf(err->message, sizeof(err->message), "%s", message ? message : "");
	snprintf(err->provider_code, sizeof(err->provider_code), "%s", reason ? reason : "");
	err->code = rc;
	return rc;
}

static int fake_create(void *self, const kp_nodeclaim *nc, kp_instance *out, kp_error *err)
{
	struct fake *f = self;
	f->last_created = nc;
	ck_assert_uint_eq(out->struct_size, sizeof(kp_instance));
	if (f->fail_rc) {
		int rc = f->fail_rc;
		f->fail_rc = 0;
		return fake_fail(err, rc, f->fail_message, f->fail_reason);
	}
	ck_assert_uint_lt(f->n, N(f->recs));
	struct rec *r = &f->recs[f->n++];
	snprintf(r->name, sizeof(r->name), "%s", nc->metadata->name);
	snprintf(r->provider_id, sizeof(r->provider_id), "fake:///%s-%u", nc->metadata->name,
		 ++f->launched);
	fill(f, r, out);
	if (f->create_without_id)
		out->provider_id = NULL;
	return KP_OK;
}

static struct rec *find(struct fake *f, const char *id)
{
	for (size_t i = 0; id && i < f->n; i++)
		if (strcmp(f->recs[i].provider_id, id) == 0)
			return &f->recs[i];
	return NULL;
}

/* First call starts termination (KP_OK), the next one finds it gone. */
static int fake_delete(void *self, const kp_nodeclaim *nc, kp_error *err)
{
	struct fake *f = self;
	const char *id = nc->status ? nc->status->provider_id : NULL;
	struct rec *r = find(f, id);
	if (!r)
		return fake_fail(err, KP_ENOTFOUND, "instance terminated", NULL);
	if (!r->deletion_ms) {
		r->deletion_ms = 1700000001000;
		return KP_OK;
	}
	*r = f->recs[--f->n];
	return fake_fail(err, KP_ENOTFOUND, "instance terminated", NULL);
}

static int fake_get(void *self, const char *id, kp_instance *out, kp_error *err)
{
	struct fake *f = self;
	struct rec *r = find(f, id);
	if (!r) {
		char msg[128];
		snprintf(msg, sizeof(msg), "no nodeclaim exists with id (id=%s)", id);
		return fake_fail(err, KP_ENOTFOUND, msg, NULL);
	}
	fill(f, r, out);
	return KP_OK;
}

static int fake_list(void *self, const kp_instance *const **out, size_t *n, kp_error *err)
{
	struct fake *f = self;
	for (size_t i = 0; i < f->n; i++) {
		kp_instance_init(&f->views[i]);
		fill(f, &f->recs[i], &f->views[i]);
		f->ptrs[i] = &f->views[i];
	}
	*out = f->ptrs;
	*n = f->n;
	if (f->list_duplicates && f->n) {
		f->ptrs[f->n] = &f->views[0];
		*n = f->n + 1;
	}
	(void)err;
	return KP_OK;
}

static int fake_instance_types(void *self, const kp_nodepool *np, kp_instance_types **out,
			       kp_error *err)
{
	struct fake *f = self;
	if (np && np->metadata && np->metadata->name && !strcmp(np->metadata->name, "broken"))
		return fake_fail(err, KP_ENOTREADY, "node class \"broken\" is not ready", NULL);
	*out = kp_instance_types_ref(f->its);
	return KP_OK;
}

static int fake_is_drifted(void *self, const kp_nodeclaim *nc, char *reason, size_t size,
			   kp_error *err)
{
	struct fake *f = self;
	(void)nc;
	if (f->drift && !strcmp(f->drift, "fail"))
		return fake_fail(err, KP_EINVAL, "cannot tell", NULL);
	snprintf(reason, size, "%s", f->drift ? f->drift : "");
	return KP_OK;
}

static const kp_repair_policy fake_policies[] = {
	{ "Ready", "False", 10 * 60 * 1000 },
	{ "Ready", "Unknown", 10 * 60 * 1000 },
};

static int fake_repair(void *self, const kp_repair_policy **out, size_t *n, kp_error *err)
{
	(void)self;
	(void)err;
	*out = fake_policies;
	*n = N(fake_policies);
	return KP_OK;
}

static const kp_group_kind fake_classes[] = { { "karpenter.test.sh", "TestNodeClass" } };

static int fake_classes_fn(void *self, const kp_group_kind **out, size_t *n, kp_error *err)
{
	(void)self;
	(void)err;
	*out = fake_classes;
	*n = N(fake_classes);
	return KP_OK;
}

static void fake_destroy(void *self)
{
	struct fake *f = self;
	if (f->destroyed)
		(*f->destroyed)++;
	kp_instance_types_free(f->its);
	free(f);
}

static const kp_cloudprovider_ops fake_ops = {
	.struct_size = sizeof(kp_cloudprovider_ops),
	.abi_major = KP_ABI_MAJOR,
	.name = "fake",
	.create = fake_create,
	.delete_instance = fake_delete,
	.get = fake_get,
	.list = fake_list,
	.get_instance_types = fake_instance_types,
	.is_drifted = fake_is_drifted,
	.repair_policies = fake_repair,
	.supported_node_classes = fake_classes_fn,
	.destroy = fake_destroy,
};

static struct fake *fake_new(int *destroyed)
{
	struct fake *f = calloc(1, sizeof(*f));
	ck_assert_ptr_nonnull(f);
	f->destroyed = destroyed;
	fake_resources();
	ck_assert_int_eq(kp_instance_types_new(&f->its, NULL), KP_OK);
	kp_offering_spec o = KP_OFFERING_SPEC_INIT;
	o.capacity_type = "spot";
	o.zone = "zone-a";
	o.price = 0.1;
	o.available = 1;
	const kp_offering_spec *offs[1] = { &o };
	kp_resource_list cap = { fake_capacity, N(fake_capacity) };
	kp_instance_type_spec spec = KP_INSTANCE_TYPE_SPEC_INIT;
	spec.name = "small";
	spec.capacity = &cap;
	spec.offerings = offs;
	spec.n_offerings = 1;
	ck_assert_int_eq(kp_instance_types_add(f->its, &spec, NULL), KP_OK);
	return f;
}

static kp_cloudprovider *fake_provider(struct fake **out, int *destroyed)
{
	struct fake *f = fake_new(destroyed);
	kp_cloudprovider *cp = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_msg(kp_cloudprovider_new(&cp, &fake_ops, f, &err) == KP_OK, "%s", err.message);
	if (out)
		*out = f;
	return cp;
}

/* A caller-built NodeClaim, as the provisioner makes it. */
struct claim {
	kp_label labels[3];
	kp_label annotations[2];
	const char *types[2];
	kp_nodeclaim_requirement req;
	kp_nodeclaim_requirement *reqs[1];
	kp_node_class_reference ref;
	kp_object_meta meta;
	kp_nodeclaim_spec spec;
	kp_nodeclaim_status status;
	kp_nodeclaim nc;
};

static void claim_init(struct claim *c, const char *name)
{
	static const kp_label labels[3] = {
		{ KP_LABEL_NODEPOOL, "default" },
		{ "team", "a" },
		{ KP_LABEL_TOPOLOGY_ZONE, "user-zone" },
	};
	static const kp_label annotations[2] = { { "example.com/hash", "old" }, { "a", "1" } };
	memset(c, 0, sizeof(*c));
	memcpy(c->labels, labels, sizeof(labels));
	memcpy(c->annotations, annotations, sizeof(annotations));
	c->types[0] = "small";
	c->types[1] = "large";
	kp_nodeclaim_requirement req = KP_NODECLAIM_REQUIREMENT_INIT;
	req.key = KP_LABEL_INSTANCE_TYPE;
	req.operator_name = "In";
	req.op = KP_SELECTOR_OP_IN;
	req.values = c->types;
	req.n_values = 2;
	c->req = req;
	c->reqs[0] = &c->req;
	kp_node_class_reference ref = KP_NODE_CLASS_REFERENCE_INIT;
	ref.group = "karpenter.test.sh";
	ref.kind = "TestNodeClass";
	ref.name = "default";
	c->ref = ref;
	kp_object_meta meta = KP_OBJECT_META_INIT;
	meta.name = name;
	meta.labels.items = c->labels;
	meta.labels.count = 3;
	meta.annotations.items = c->annotations;
	meta.annotations.count = 2;
	c->meta = meta;
	kp_nodeclaim_spec spec = KP_NODECLAIM_SPEC_INIT;
	spec.requirements = c->reqs;
	spec.n_requirements = 1;
	spec.node_class_ref = &c->ref;
	c->spec = spec;
	kp_nodeclaim_status status = KP_NODECLAIM_STATUS_INIT;
	c->status = status;
	kp_nodeclaim nc = KP_NODECLAIM_INIT;
	nc.metadata = &c->meta;
	nc.spec = &c->spec;
	c->nc = nc;
}

static const char *quantity_of(const kp_resource_list *l, const char *name)
{
	static char buf[KP_QUANTITY_STRING_MAX];
	kp_quantity q;
	ck_assert_int_eq(kp_resources_get(&q, l, name, NULL), KP_OK);
	kp_quantity_format(&q, buf, sizeof(buf));
	return buf;
}

/* ---- registration ---- */

struct wide_ops {
	kp_cloudprovider_ops ops;
	void (*future_slot)(void);
};

static void future(void)
{
}

static const struct refusal {
	const char *what;
	int code;
	const char *field;
} refusals[] = {
	{ "abi", KP_EVERSION, "abi_major" },
	{ "small struct_size", KP_EVERSION, "struct_size" },
	{ "unknown tail", KP_EVERSION, "struct_size" },
	{ "no create", KP_EINVAL, "create" },
	{ "no delete", KP_EINVAL, "delete_instance" },
	{ "no get", KP_EINVAL, "get" },
	{ "no list", KP_EINVAL, "list" },
	{ "no get_instance_types", KP_EINVAL, "get_instance_types" },
	{ "no name", KP_EINVAL, "name" },
	{ "flags", KP_EINVAL, "flags" },
	{ "reserved", KP_EINVAL, "reserved" },
};

START_TEST(registration_refused)
{
	const struct refusal *r = &refusals[_i];
	int destroyed = 0;
	struct fake *f = fake_new(&destroyed);
	struct wide_ops w;
	memset(&w, 0, sizeof(w));
	w.ops = fake_ops;
	char want[KP_ERROR_MESSAGE_MAX];
	want[0] = '\0';
	if (!strcmp(r->what, "abi")) {
		w.ops.abi_major = KP_ABI_MAJOR + 100;
		snprintf(want, sizeof(want), "kp_cloudprovider_ops.abi_major is %u, but this "
			 "libkarpenter has ABI %u: rebuild the provider against it",
			 (unsigned)KP_ABI_MAJOR + 100, (unsigned)KP_ABI_MAJOR);
	} else if (!strcmp(r->what, "small struct_size")) {
		w.ops.struct_size = offsetof(kp_cloudprovider_ops, create);
		snprintf(want, sizeof(want), "kp_cloudprovider_ops.struct_size is %zu, smaller than "
			 "any published size (%zu)", offsetof(kp_cloudprovider_ops, create),
			 /* the 0.1 size: up to the destroy slot */
			 offsetof(kp_cloudprovider_ops, destroy) + sizeof(void (*)(void *)));
	} else if (!strcmp(r->what, "unknown tail")) {
		w.ops.struct_size = sizeof(w);
		w.future_slot = future;
		snprintf(want, sizeof(want), "kp_cloudprovider_ops has fields this library version "
			 "(%zu bytes) does not know", sizeof(kp_cloudprovider_ops));
	} else if (!strcmp(r->what, "no create")) {
		w.ops.create = NULL;
		snprintf(want, sizeof(want), "provider \"fake\": required method create is NULL");
	} else if (!strcmp(r->what, "no delete")) {
		w.ops.delete_instance = NULL;
		snprintf(want, sizeof(want), "provider \"fake\": required method delete_instance is NULL");
	} else if (!strcmp(r->what, "no get")) {
		w.ops.get = NULL;
		snprintf(want, sizeof(want), "provider \"fake\": required method get is NULL");
	} else if (!strcmp(r->what, "no list")) {
		w.ops.list = NULL;
		snprintf(want, sizeof(want), "provider \"fake\": required method list is NULL");
	} else if (!strcmp(r->what, "no get_instance_types")) {
		w.ops.get_instance_types = NULL;
		snprintf(want, sizeof(want),
			 "provider \"fake\": required method get_instance_types is NULL");
	} else if (!strcmp(r->what, "no name")) {
		w.ops.name = "";
		snprintf(want, sizeof(want), "kp_cloudprovider_ops.name is empty");
	} else if (!strcmp(r->what, "flags")) {
		w.ops.flags = 0x6;
		snprintf(want, sizeof(want), "kp_cloudprovider_ops.flags has unknown bits 0x6");
	} else if (!strcmp(r->what, "reserved")) {
		w.ops.reserved = 1;
		snprintf(want, sizeof(want), "kp_cloudprovider_ops.reserved is not zero");
	}
	kp_cloudprovider *cp = (kp_cloudprovider *)&want; /* must be reset to NULL */
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_cloudprovider_new(&cp, &w.ops, f, &err), r->code);
	ck_assert_ptr_null(cp);
	ck_assert_int_eq(err.code, r->code);
	ck_assert_str_eq(err.field, r->field);
	ck_assert_str_eq(err.message, want);
	/* On failure the caller still owns self. */
	ck_assert_int_eq(destroyed, 0);
	fake_destroy(f);
	ck_assert_int_eq(destroyed, 1);
}
END_TEST

START_TEST(registration_accepted)
{
	int destroyed = 0;
	struct fake *f = fake_new(&destroyed);
	/* A newer provider whose extra slot is NULL, flags THREADSAFE. */
	struct wide_ops w;
	memset(&w, 0, sizeof(w));
	w.ops = fake_ops;
	w.ops.struct_size = sizeof(w);
	w.ops.flags = KP_PROVIDER_F_THREADSAFE;
	kp_cloudprovider *cp = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_cloudprovider_new(&cp, &w.ops, f, &err), KP_OK);
	/* The vtable and its name are copied. */
	memset(&w, 0xff, sizeof(w));
	ck_assert_str_eq(kp_cloudprovider_name(cp), "fake");
	ck_assert_str_eq(kp_cloudprovider_name(NULL), "");
	kp_cloudprovider_free(cp);
	ck_assert_int_eq(destroyed, 1);
	kp_cloudprovider_free(NULL);

	ck_assert_int_eq(kp_cloudprovider_new(NULL, &fake_ops, NULL, &err), KP_EINVAL);
	ck_assert_int_eq(kp_cloudprovider_new(&cp, NULL, NULL, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "kp_cloudprovider_ops is NULL");

	/* The initializers. */
	kp_cloudprovider_ops ops;
	memset(&ops, 0xff, sizeof(ops));
	kp_cloudprovider_ops_init(&ops);
	ck_assert_uint_eq(ops.struct_size, sizeof(ops));
	ck_assert_uint_eq(ops.abi_major, KP_ABI_MAJOR);
	ck_assert(ops.create == NULL);
	ck_assert(ops.destroy == NULL);
	kp_cloudprovider_ops_init(NULL);
	kp_instance inst;
	memset(&inst, 0xff, sizeof(inst));
	kp_instance_init(&inst);
	ck_assert_uint_eq(inst.struct_size, sizeof(inst));
	ck_assert_ptr_null(inst.provider_id);
	ck_assert_uint_eq(inst.labels.count, 0);
	ck_assert_int_eq(inst.deletion_ms, 0);
	kp_instance_init(NULL);
}
END_TEST

/* ---- create, delete, get, list ---- */

START_TEST(create_round_trip)
{
	struct fake *f;
	kp_cloudprovider *cp = fake_provider(&f, NULL);
	struct claim c;
	claim_init(&c, "default-abcde");
	kp_nodeclaim *out = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_msg(kp_cloudprovider_create(&out, cp, &c.nc, &err) == KP_OK, "%s", err.message);
	ck_assert_ptr_eq(f->last_created, &c.nc); /* the provider sees the caller's object */
	ck_assert_ptr_nonnull(out);
	ck_assert_ptr_ne(out, &c.nc);
	ck_assert_str_eq(out->metadata->name, "default-abcde");
	/* User labels win over the provider's; the provider's fill the rest. */
	const kp_labels *l = &out->metadata->labels;
	ck_assert_uint_eq(l->count, 5);
	ck_assert_str_eq(kp_labels_get(l, "team"), "a");
	ck_assert_str_eq(kp_labels_get(l, KP_LABEL_TOPOLOGY_ZONE), "user-zone");
	ck_assert_str_eq(kp_labels_get(l, KP_LABEL_NODEPOOL), "default");
	ck_assert_str_eq(kp_labels_get(l, KP_LABEL_INSTANCE_TYPE), "small");
	ck_assert_str_eq(kp_labels_get(l, KP_LABEL_CAPACITY_TYPE), "spot");
	/* Provider annotations win. */
	const kp_labels *a = &out->metadata->annotations;
	ck_assert_uint_eq(a->count, 2);
	ck_assert_str_eq(kp_labels_get(a, "example.com/hash"), "new");
	ck_assert_str_eq(kp_labels_get(a, "a"), "1");
	/* Status from the instance; the spec copied. */
	ck_assert_ptr_nonnull(out->status);
	ck_assert_str_eq(out->status->provider_id, "fake:///default-abcde-1");
	ck_assert_str_eq(out->status->image_id, "img-1");
	ck_assert_str_eq(quantity_of(&out->status->capacity, "memory"), "4Gi");
	ck_assert_str_eq(quantity_of(&out->status->allocatable, "memory"), "3Gi");
	ck_assert_str_eq(quantity_of(&out->status->allocatable, "cpu"), "2");
	ck_assert_uint_eq(out->spec->n_requirements, 1);
	ck_assert_str_eq(out->spec->requirements[0]->values[1], "large");
	ck_assert_str_eq(out->spec->node_class_ref->kind, "TestNodeClass");
	/* The input is untouched. */
	ck_assert_str_eq(c.labels[1].value, "a");
	ck_assert_ptr_null(c.nc.status);

	/* Delete: in progress, then gone. */
	ck_assert_int_eq(kp_cloudprovider_delete(cp, out, &err), KP_OK);
	kp_nodeclaim *got = NULL;
	ck_assert_int_eq(kp_cloudprovider_get(&got, cp, out->status->provider_id, &err), KP_OK);
	ck_assert_int_eq(got->metadata->deletion_timestamp_ms, 1700000001000);
	kp_nodeclaim_free(got);
	ck_assert_int_eq(kp_cloudprovider_delete(cp, out, &err), KP_ENOTFOUND);
	ck_assert_int_eq(err.code, KP_ENOTFOUND);
	ck_assert_str_eq(err.message, "instance terminated");
	ck_assert_int_eq(kp_cloudprovider_delete(cp, out, &err), KP_ENOTFOUND);
	got = (kp_nodeclaim *)out;
	ck_assert_int_eq(kp_cloudprovider_get(&got, cp, out->status->provider_id, &err),
			 KP_ENOTFOUND);
	ck_assert_ptr_null(got);
	ck_assert_str_eq(err.message, "no nodeclaim exists with id (id=fake:///default-abcde-1)");
	kp_nodeclaim_free(out);
	kp_cloudprovider_free(cp);
}
END_TEST

START_TEST(create_keeps_status)
{
	kp_cloudprovider *cp = fake_provider(NULL, NULL);
	struct claim c;
	claim_init(&c, "x");
	c.status.node_name = "node-1";
	c.status.provider_id = "stale";
	c.nc.status = &c.status;
	kp_nodeclaim *out = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &c.nc, &err), KP_OK);
	ck_assert_str_eq(out->status->provider_id, "fake:///x-1");
	ck_assert_str_eq(out->status->node_name, "node-1");
	kp_nodeclaim_free(out);
	kp_cloudprovider_free(cp);
}
END_TEST

START_TEST(create_failures)
{
	static const struct {
		int rc;
		const char *message;
		const char *reason;
		int want;
		const char *want_message;
	} cases[] = {
		{ KP_EINSUFFICIENT, "all requested instance types were unavailable during launch",
		  NULL, KP_EINSUFFICIENT, "all requested instance types were unavailable during launch" },
		{ KP_ENOTREADY, "EC2NodeClass \"default\" is not ready", NULL, KP_ENOTREADY,
		  "EC2NodeClass \"default\" is not ready" },
		{ KP_ECREATE, "launching instance: UnauthorizedOperation", "LaunchTemplateNotFound",
		  KP_ECREATE, "launching instance: UnauthorizedOperation" },
		{ KP_ECREATE, "", "SomeReason", KP_ECREATE, "provider \"fake\": create: launch failed" },
		{ 7, "positive", NULL, KP_EINVAL,
		  "provider \"fake\": create returned 7, which is not a kp_status" },
	};
	struct fake *f;
	kp_cloudprovider *cp = fake_provider(&f, NULL);
	struct claim c;
	claim_init(&c, "x");
	for (size_t i = 0; i < N(cases); i++) {
		f->fail_rc = cases[i].rc;
		f->fail_message = cases[i].message;
		f->fail_reason = cases[i].reason;
		kp_nodeclaim *out = (kp_nodeclaim *)&c; /* must be reset */
		kp_error err = KP_ERROR_INIT;
		ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &c.nc, &err), cases[i].want);
		ck_assert_ptr_null(out);
		ck_assert_int_eq(err.code, cases[i].want);
		ck_assert_str_eq(err.message, cases[i].want_message);
		ck_assert_str_eq(err.provider_code,
				 cases[i].rc > 0 ? "" : cases[i].reason ? cases[i].reason : "");
	}
	/* Without an error record the code still comes back. */
	f->fail_rc = KP_EINSUFFICIENT;
	kp_nodeclaim *out = NULL;
	ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &c.nc, NULL), KP_EINSUFFICIENT);

	/* An instance without a provider ID breaks the contract. */
	f->create_without_id = 1;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &c.nc, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "provider \"fake\": create returned an instance without a "
				      "provider ID");
	ck_assert_str_eq(err.field, "provider_id");
	ck_assert_ptr_null(out);

	/* Labels the core cannot copy: the field names the record's member. */
	f->create_without_id = 0;
	f->bad_labels = 1;
	ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &c.nc, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "labels[1]");
	ck_assert_ptr_null(out);
	f->bad_labels = 0;

	ck_assert_int_eq(kp_cloudprovider_create(NULL, cp, &c.nc, &err), KP_EINVAL);
	ck_assert_int_eq(kp_cloudprovider_create(&out, NULL, &c.nc, &err), KP_EINVAL);
	ck_assert_int_eq(kp_cloudprovider_create(&out, cp, NULL, &err), KP_EINVAL);
	c.nc.struct_size = 4;
	ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &c.nc, &err), KP_EVERSION);
	kp_cloudprovider_free(cp);
}
END_TEST

START_TEST(list_sorted)
{
	struct fake *f;
	kp_cloudprovider *cp = fake_provider(&f, NULL);
	kp_nodeclaim **ncs = NULL;
	size_t n = 99;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_cloudprovider_list(&ncs, &n, cp, &err), KP_OK);
	ck_assert_ptr_null(ncs);
	ck_assert_uint_eq(n, 0);
	const char *names[] = { "b", "c", "a" };
	for (size_t i = 0; i < N(names); i++) {
		struct claim c;
		claim_init(&c, names[i]);
		kp_nodeclaim *out = NULL;
		ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &c.nc, &err), KP_OK);
		if (i == 1)
			ck_assert_int_eq(kp_cloudprovider_delete(cp, out, &err), KP_OK);
		kp_nodeclaim_free(out);
	}
	ck_assert_int_eq(kp_cloudprovider_list(&ncs, &n, cp, &err), KP_OK);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(ncs[0]->status->provider_id, "fake:///a-3");
	ck_assert_str_eq(ncs[1]->status->provider_id, "fake:///b-1");
	ck_assert_str_eq(ncs[2]->status->provider_id, "fake:///c-2");
	ck_assert_str_eq(ncs[0]->metadata->name, "a");
	ck_assert_int_eq(ncs[0]->metadata->creation_timestamp_ms, 1700000000000);
	ck_assert_int_eq(ncs[0]->metadata->deletion_timestamp_ms, 0);
	ck_assert_int_eq(ncs[2]->metadata->deletion_timestamp_ms, 1700000001000);
	ck_assert_str_eq(kp_labels_get(&ncs[1]->metadata->labels, "team"), "provider");
	ck_assert_ptr_null(ncs[1]->spec);
	kp_nodeclaims_free(ncs, n);
	kp_nodeclaims_free(NULL, 3);

	/* A bad record: nothing is returned, nothing leaks. */
	f->bad_labels = 1;
	ncs = (kp_nodeclaim **)&f;
	ck_assert_int_eq(kp_cloudprovider_list(&ncs, &n, cp, &err), KP_EINVAL);
	ck_assert_ptr_null(ncs);
	ck_assert_str_eq(err.field, "[0].labels[1]");
	f->bad_labels = 0;

	f->list_duplicates = 1;
	ncs = (kp_nodeclaim **)&f;
	ck_assert_int_eq(kp_cloudprovider_list(&ncs, &n, cp, &err), KP_EINVAL);
	ck_assert_ptr_null(ncs);
	ck_assert_uint_eq(n, 0);
	ck_assert_str_eq(err.message,
			 "provider \"fake\": list returned provider ID \"fake:///b-1\" twice");
	kp_cloudprovider_free(cp);
}
END_TEST

/* ---- instance types, drift, repair, node classes ---- */

START_TEST(instance_types_shared)
{
	struct fake *f;
	kp_cloudprovider *cp = fake_provider(&f, NULL);
	kp_instance_types *its = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_cloudprovider_get_instance_types(&its, cp, NULL, &err), KP_OK);
	ck_assert_ptr_eq(its, f->its);
	ck_assert_uint_eq(kp_instance_types_count(its), 1);
	ck_assert_str_eq(kp_instance_types_at(its, 0)->name, "small");
	kp_instance_type_spec spec = KP_INSTANCE_TYPE_SPEC_INIT;
	spec.name = "sneaky";
	ck_assert_int_eq(kp_instance_types_add(its, &spec, &err), KP_EINVAL);
	kp_instance_types_free(its);

	kp_object_meta meta = KP_OBJECT_META_INIT;
	meta.name = "broken";
	kp_nodepool np = KP_NODEPOOL_INIT;
	np.metadata = &meta;
	its = (kp_instance_types *)&f;
	ck_assert_int_eq(kp_cloudprovider_get_instance_types(&its, cp, &np, &err), KP_ENOTREADY);
	ck_assert_ptr_null(its);
	ck_assert_str_eq(err.message, "node class \"broken\" is not ready");
	kp_cloudprovider_free(cp);
}
END_TEST

START_TEST(drift_and_repair)
{
	struct fake *f;
	kp_cloudprovider *cp = fake_provider(&f, NULL);
	struct claim c;
	claim_init(&c, "x");
	char reason[8];
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_cloudprovider_is_drifted(cp, &c.nc, reason, sizeof(reason), &err), KP_OK);
	ck_assert_str_eq(reason, "");
	f->drift = "AMIDrift";
	ck_assert_int_eq(kp_cloudprovider_is_drifted(cp, &c.nc, reason, sizeof(reason), &err), KP_OK);
	ck_assert_str_eq(reason, "AMIDrif"); /* truncated to the buffer */
	f->drift = "fail";
	ck_assert_int_eq(kp_cloudprovider_is_drifted(cp, &c.nc, reason, sizeof(reason), &err),
			 KP_EINVAL);
	ck_assert_str_eq(reason, "");
	ck_assert_str_eq(err.message, "cannot tell");
	ck_assert_int_eq(kp_cloudprovider_is_drifted(cp, &c.nc, NULL, 0, &err), KP_EINVAL);

	const kp_repair_policy *policies = NULL;
	size_t n = 0;
	ck_assert_int_eq(kp_cloudprovider_repair_policies(&policies, &n, cp, &err), KP_OK);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(policies[1].condition_status, "Unknown");
	ck_assert_int_eq(policies[1].toleration_ms, 600000);

	const kp_group_kind *classes = NULL;
	ck_assert_int_eq(kp_cloudprovider_supported_node_classes(&classes, &n, cp, &err), KP_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(classes[0].kind, "TestNodeClass");
	kp_cloudprovider_free(cp);
}
END_TEST

START_TEST(optional_slots_missing)
{
	kp_cloudprovider_ops ops = fake_ops;
	ops.is_drifted = NULL;
	ops.repair_policies = NULL;
	ops.supported_node_classes = NULL;
	int destroyed = 0;
	struct fake *f = fake_new(&destroyed);
	f->drift = "AMIDrift";
	kp_cloudprovider *cp = NULL;
	ck_assert_int_eq(kp_cloudprovider_new(&cp, &ops, f, NULL), KP_OK);
	struct claim c;
	claim_init(&c, "x");
	char reason[16] = "garbage";
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_cloudprovider_is_drifted(cp, &c.nc, reason, sizeof(reason), &err), KP_OK);
	ck_assert_str_eq(reason, "");
	const kp_repair_policy *policies = fake_policies;
	size_t n = 9;
	ck_assert_int_eq(kp_cloudprovider_repair_policies(&policies, &n, cp, &err), KP_OK);
	ck_assert_ptr_null(policies);
	ck_assert_uint_eq(n, 0);
	const kp_group_kind *classes = fake_classes;
	ck_assert_int_eq(kp_cloudprovider_supported_node_classes(&classes, &n, cp, &err), KP_ENOTSUP);
	ck_assert_ptr_null(classes);
	ck_assert_str_eq(err.message, "provider \"fake\" does not implement supported_node_classes");
	ck_assert_int_eq(kp_cloudprovider_manages_nodeclaim(cp, &c.nc), 0);
	kp_cloudprovider_free(cp);
	ck_assert_int_eq(destroyed, 1);
}
END_TEST

START_TEST(manages)
{
	kp_cloudprovider *cp = fake_provider(NULL, NULL);
	struct claim c;
	claim_init(&c, "x");
	ck_assert_int_eq(kp_cloudprovider_manages_nodeclaim(cp, &c.nc), 1);
	kp_nodeclaim_template tmpl = KP_NODECLAIM_TEMPLATE_INIT;
	tmpl.spec = &c.spec;
	kp_nodepool_spec spec = KP_NODEPOOL_SPEC_INIT;
	spec.template_ = &tmpl;
	kp_nodepool np = KP_NODEPOOL_INIT;
	np.spec = &spec;
	ck_assert_int_eq(kp_cloudprovider_manages(cp, &np), 1);
	c.ref.group = "karpenter.k8s.aws";
	ck_assert_int_eq(kp_cloudprovider_manages(cp, &np), 0);
	ck_assert_int_eq(kp_cloudprovider_manages_nodeclaim(cp, &c.nc), 0);
	c.ref.group = "karpenter.test.sh";
	c.ref.kind = "OtherNodeClass";
	ck_assert_int_eq(kp_cloudprovider_manages(cp, &np), 0);
	c.spec.node_class_ref = NULL;
	ck_assert_int_eq(kp_cloudprovider_manages(cp, &np), 0);
	tmpl.spec = NULL;
	ck_assert_int_eq(kp_cloudprovider_manages(cp, &np), 0);
	ck_assert_int_eq(kp_cloudprovider_manages(cp, NULL), 0);
	ck_assert_int_eq(kp_cloudprovider_manages(NULL, &np), 0);
	ck_assert_int_eq(kp_cloudprovider_manages_nodeclaim(cp, NULL), 0);
	kp_cloudprovider_free(cp);
}
END_TEST

START_TEST(get_arguments)
{
	kp_cloudprovider *cp = fake_provider(NULL, NULL);
	kp_nodeclaim *out = NULL;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_cloudprovider_get(&out, cp, "", &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "provider_id");
	ck_assert_int_eq(kp_cloudprovider_get(&out, cp, NULL, &err), KP_EINVAL);
	ck_assert_int_eq(kp_cloudprovider_get(NULL, cp, "x", &err), KP_EINVAL);
	ck_assert_int_eq(kp_cloudprovider_get(&out, NULL, "x", &err), KP_EINVAL);
	ck_assert_int_eq(kp_cloudprovider_delete(cp, NULL, &err), KP_EINVAL);
	ck_assert_int_eq(kp_cloudprovider_delete(NULL, NULL, &err), KP_EINVAL);
	size_t n;
	kp_nodeclaim **ncs;
	ck_assert_int_eq(kp_cloudprovider_list(&ncs, NULL, cp, &err), KP_EINVAL);
	ck_assert_int_eq(kp_cloudprovider_list(&ncs, &n, NULL, &err), KP_EINVAL);
	kp_instance_types *its;
	ck_assert_int_eq(kp_cloudprovider_get_instance_types(NULL, cp, NULL, &err), KP_EINVAL);
	ck_assert_int_eq(kp_cloudprovider_get_instance_types(&its, NULL, NULL, &err), KP_EINVAL);
	kp_cloudprovider_free(cp);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cloudprovider");
	TCase *tc = tcase_create("registration");
	tcase_add_loop_test(tc, registration_refused, 0, (int)N(refusals));
	tcase_add_test(tc, registration_accepted);
	suite_add_tcase(s, tc);

	tc = tcase_create("instances");
	tcase_add_test(tc, create_round_trip);
	tcase_add_test(tc, create_keeps_status);
	tcase_add_test(tc, create_failures);
	tcase_add_test(tc, list_sorted);
	tcase_add_test(tc, get_arguments);
	suite_add_tcase(s, tc);

	tc = tcase_create("catalogue and policies");
	tcase_add_test(tc, instance_types_shared);
	tcase_add_test(tc, drift_and_repair);
	tcase_add_test(tc, optional_slots_missing);
	tcase_add_test(tc, manages);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
