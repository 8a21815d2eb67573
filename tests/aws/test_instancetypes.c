/*
 * libkarpenter-aws instance types: the values upstream's instancetype suite
 * (aws/karpenter-provider-aws pkg/providers/instancetype/suite_test.go)
 * asserts for its fake DescribeInstanceTypes data, which is
 * ../shared/data/aws/instance-types.json.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/aws_instancetypes.h>
#include <karpenter/quantity.h>

#include "kp_test.h"

#define TYPES "aws/instance-types.json"
#define OFFERINGS "aws/instance-type-offerings.json"
#define LIMITS "aws/vpc-limits.json"
#define BANDWIDTH "aws/bandwidth.json"
#define PRICES "aws/pricing-on-demand.json"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static void load(kp_aws_catalog *cat, const char *rel,
		 int (*fn)(kp_aws_catalog *, const char *, size_t, const char *, kp_error *))
{
	size_t len = 0;
	char *text = kp_test_read_file(kp_test_data_path(rel), &len);
	ck_assert_ptr_nonnull(text);
	kp_error err = { 0 };
	int rc = fn(cat, text, len, rel, &err);
	ck_assert_msg(rc == KP_OK, "%s: %s", rel, err.message);
	free(text);
}

static kp_aws_catalog *catalog(void)
{
	kp_aws_catalog *cat = NULL;
	ck_assert_int_eq(kp_aws_catalog_new(&cat, NULL), KP_OK);
	load(cat, TYPES, kp_aws_catalog_load_instance_types);
	load(cat, OFFERINGS, kp_aws_catalog_load_offerings);
	load(cat, LIMITS, kp_aws_catalog_load_vpc_limits);
	load(cat, BANDWIDTH, kp_aws_catalog_load_bandwidth);
	load(cat, PRICES, kp_aws_catalog_load_on_demand_prices);
	return cat;
}

static kp_aws_catalog *cat;
static kp_instance_types *its;

static void setup(void)
{
	cat = catalog();
	its = NULL;
}

static void teardown(void)
{
	kp_instance_types_free(its);
	kp_aws_catalog_free(cat);
}

static kp_instance_types *build(const kp_aws_instance_type_options *o)
{
	kp_error err = { 0 };
	kp_instance_types_free(its);
	its = NULL;
	int rc = kp_aws_instance_types_build(&its, cat, o, &err);
	ck_assert_msg(rc == KP_OK, "build: %s: %s", err.field, err.message);
	return its;
}

static const kp_instance_type *type(const char *name)
{
	const kp_instance_type *t = kp_instance_types_find(its, name);
	ck_assert_msg(t != NULL, "no instance type %s", name);
	return t;
}

/* A resource as its canonical quantity string, "absent" when missing. */
static const char *res(const kp_resource_list *l, const char *name)
{
	static char buf[8][KP_QUANTITY_STRING_MAX];
	static int next;
	char *b = buf[next++ % 8];
	kp_quantity q;
	if (kp_resources_get(&q, l, name, NULL) != KP_OK)
		return "absent";
	kp_quantity_format(&q, b, KP_QUANTITY_STRING_MAX);
	return b;
}

static int64_t res_value(const kp_resource_list *l, const char *name)
{
	kp_quantity q;
	int64_t v = -1;
	ck_assert_int_eq(kp_resources_get(&q, l, name, NULL), KP_OK);
	ck_assert_int_eq(kp_quantity_value(&q, &v), KP_OK);
	return v;
}

static int64_t pods_of(const char *name)
{
	return res_value(type(name)->capacity, "pods");
}

/* A requirement of the type as text ("key In [a b]"), "absent" when missing. */
static const char *req(const char *name, const char *key)
{
	static char buf[4][512];
	static int next;
	char *b = buf[next++ % 4];
	kp_requirement *r = kp_requirements_get(type(name)->requirements, key);
	if (!r)
		return "absent";
	kp_requirement_string(r, b, 512);
	return b;
}

static const kp_offering *offering(const char *name, const char *zone, const char *ct)
{
	const kp_instance_type *t = type(name);
	for (size_t i = 0; i < t->n_offerings; i++)
		if (strcmp(t->offerings[i]->zone, zone) == 0 &&
		    strcmp(t->offerings[i]->capacity_type, ct) == 0)
			return t->offerings[i];
	ck_abort_msg("%s: no %s offering in %s", name, ct, zone);
	return NULL;
}

static size_t available_offerings(const char *name)
{
	const kp_instance_type *t = type(name);
	size_t n = 0;
	for (size_t i = 0; i < t->n_offerings; i++)
		n += t->offerings[i]->available;
	return n;
}

static kp_labels labels_of(kp_label *items, size_t n)
{
	kp_labels l = { items, n };
	return l;
}

/* ------------------------------------------------------------------ */
/* Pods                                                                */

START_TEST(pods_default_eni_limited)
{
	build(NULL);
	/* max ENIs * (IPv4 per ENI - 1) + 2 */
	ck_assert_int_eq(pods_of("t3.large"), 35);
	ck_assert_int_eq(pods_of("m6idn.32xlarge"), 394);
	ck_assert_int_eq(pods_of("m5.xlarge"), 58);
}
END_TEST

START_TEST(pods_max_pods_everywhere)
{
	kp_aws_instance_type_options o = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	o.has_max_pods = 1;
	o.max_pods = 10;
	build(&o);
	for (size_t i = 0; i < kp_instance_types_count(its); i++)
		ck_assert_int_eq(res_value(kp_instance_types_at(its, i)->capacity, "pods"), 10);
}
END_TEST

static const struct {
	const char *family;
	int64_t pods_max10;     /* maxPods 10 */
	const char *memory_max10;
	int64_t pods_reserved1; /* reservedENIs 1 */
	const char *memory_reserved1;
} family_cases[] = {
	{ "AL2", 10, "640Mi", 24, "640Mi" },
	{ "AL2023", 10, "640Mi", 24, "640Mi" },
	{ "Bottlerocket", 10, "365Mi", 24, "519Mi" },
	{ "Windows2019", 10, "365Mi", 110, "1465Mi" },
	{ "Windows2022", 10, "365Mi", 110, "1465Mi" },
	{ "Windows2025", 10, "365Mi", 110, "1465Mi" },
	{ "Custom", 10, "640Mi", 24, "640Mi" },
};

START_TEST(pods_and_kube_reserved_per_family)
{
	kp_aws_instance_type_options o = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	o.ami_family = family_cases[_i].family;
	o.has_max_pods = 1;
	o.max_pods = 10;
	build(&o);
	ck_assert_int_eq(pods_of("t3.large"), family_cases[_i].pods_max10);
	/* 11 * pods + 255: ENI-limited pods where the family uses them */
	ck_assert_str_eq(res(type("t3.large")->kube_reserved, "memory"), family_cases[_i].memory_max10);

	kp_aws_instance_type_options r = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	r.ami_family = family_cases[_i].family;
	r.reserved_enis = 1;
	build(&r);
	/* (3 - 1) * (12 - 1) + 2 */
	ck_assert_int_eq(pods_of("t3.large"), family_cases[_i].pods_reserved1);
	ck_assert_str_eq(res(type("t3.large")->kube_reserved, "memory"),
			 family_cases[_i].memory_reserved1);
}
END_TEST

START_TEST(pods_reserved_enis_reach_zero)
{
	kp_aws_instance_type_options o = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	o.reserved_enis = 1000000;
	build(&o);
	ck_assert_int_eq(pods_of("t3.large"), 0);
	ck_assert_str_eq(res(type("t3.large")->capacity, "pods"), "0");
	/* kube-reserved memory still counts the ENI-limited pods */
	ck_assert_str_eq(res(type("t3.large")->kube_reserved, "memory"), "640Mi");
}
END_TEST

START_TEST(pods_per_core)
{
	kp_aws_instance_type_options base = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	build(&base);
	size_t n = kp_instance_types_count(its);
	int64_t *eni = calloc(n, sizeof(*eni)), *cpus = calloc(n, sizeof(*cpus));
	for (size_t i = 0; i < n; i++) {
		eni[i] = res_value(kp_instance_types_at(its, i)->capacity, "pods");
		cpus[i] = res_value(kp_instance_types_at(its, i)->capacity, "cpu");
	}
	kp_aws_instance_type_options o = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	o.has_pods_per_core = 1;
	o.pods_per_core = 1;
	build(&o);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(res_value(kp_instance_types_at(its, i)->capacity, "pods"),
				 cpus[i] < eni[i] ? cpus[i] : eni[i]);
	o.pods_per_core = 4;
	o.has_max_pods = 1;
	o.max_pods = 20;
	build(&o);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(res_value(kp_instance_types_at(its, i)->capacity, "pods"),
				 4 * cpus[i] < 20 ? 4 * cpus[i] : 20);
	/* Bottlerocket ignores podsPerCore */
	kp_aws_instance_type_options br = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	br.ami_family = "Bottlerocket";
	br.has_pods_per_core = 1;
	br.pods_per_core = 1;
	build(&br);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(res_value(kp_instance_types_at(its, i)->capacity, "pods"), eni[i]);
	/* podsPerCore 0 keeps the ENI-limited density */
	o.pods_per_core = 0;
	o.has_max_pods = 0;
	build(&o);
	ck_assert_int_eq(pods_of("t3.large"), 35);
	ck_assert_int_eq(pods_of("m6idn.32xlarge"), 394);
	free(eni);
	free(cpus);
}
END_TEST

START_TEST(pods_efa_only_interfaces)
{
	kp_aws_network_interface a = { sizeof(a), 0, 0, 0, "interface" };
	kp_aws_network_interface b = { sizeof(b), 1, 0, 0, "efa-only" };
	kp_aws_network_interface *nis[] = { &a, &b };
	kp_aws_instance_type_options o = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	o.network_interfaces = nis;
	o.n_network_interfaces = 2;
	o.has_network_interfaces = 1;
	build(&o);
	/* efa-only on card 1 does not take an ENI of card 0: 8 * 49 + 2 */
	ck_assert_int_eq(pods_of("m6idn.32xlarge"), 394);
	ck_assert_str_eq(res(type("m6idn.32xlarge")->capacity, "vpc.amazonaws.com/efa"), "1");
	b.network_card_index = 0;
	b.device_index = 1;
	build(&o);
	/* (8 - 1) * 49 + 2 */
	ck_assert_int_eq(pods_of("m6idn.32xlarge"), 345);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Memory, CPU, overhead                                               */

/* Allocatable as kubelet reported it on real nodes (upstream's table):
 * ours must not exceed it. */
static const struct {
	const char *name;
	int64_t memory_ki, cpu_m;
	const char *memory, *alloc_memory; /* our exact values */
} measured[] = {
	{ "t4g.small", 1408312, 1930, "1835Mi", "1359Mi" },
	{ "t4g.medium", 3377496, 1930, "3729Mi", "3187Mi" },
	{ "t4g.xlarge", 15136012, 3920, "15096Mi", "14103Mi" },
	{ "m5.large", 7220184, 1930, "7577Mi", "6903Mi" },
};

START_TEST(allocatable_within_kubelet)
{
	build(NULL);
	const kp_instance_type *t = type(measured[_i].name);
	ck_assert_str_eq(res(t->capacity, "memory"), measured[_i].memory);
	ck_assert_str_eq(res(t->allocatable, "memory"), measured[_i].alloc_memory);
	ck_assert_int_le(res_value(t->allocatable, "memory"), measured[_i].memory_ki * 1024);
	kp_quantity q;
	int64_t m;
	ck_assert_int_eq(kp_resources_get(&q, t->allocatable, "cpu", NULL), KP_OK);
	ck_assert_int_eq(kp_quantity_milli_value(&q, &m), KP_OK);
	ck_assert_int_eq(m, measured[_i].cpu_m);
}
END_TEST

START_TEST(memory_overhead_option)
{
	kp_aws_instance_type_options o = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	o.vm_memory_overhead_percent = 0;
	build(&o);
	ck_assert_str_eq(res(type("t3.large")->capacity, "memory"), "8Gi");
	/* Graviton: 64 MiB of CMA */
	ck_assert_str_eq(res(type("t4g.small")->capacity, "memory"), "1984Mi");
	o.vm_memory_overhead_percent = 0.5;
	build(&o);
	ck_assert_str_eq(res(type("t3.large")->capacity, "memory"), "4Gi");
	o.vm_memory_overhead_percent = 1;
	kp_error err = { 0 };
	kp_instance_types *x = NULL;
	ck_assert_int_eq(kp_aws_instance_types_build(&x, cat, &o, &err), KP_EINVAL);
	ck_assert_ptr_null(x);
	ck_assert_str_eq(err.field, "vm_memory_overhead_percent");
}
END_TEST

START_TEST(kube_reserved_default_and_override)
{
	build(NULL);
	const kp_instance_type *t = type("m5.xlarge");
	ck_assert_str_eq(res(t->kube_reserved, "cpu"), "80m");
	ck_assert_str_eq(res(t->kube_reserved, "memory"), "893Mi");
	ck_assert_str_eq(res(t->kube_reserved, "ephemeral-storage"), "1Gi");
	ck_assert_uint_eq(t->system_reserved->count, 0);
	ck_assert_str_eq(res(type("m5.large")->kube_reserved, "cpu"), "70m");
	ck_assert_str_eq(res(type("p5.48xlarge")->kube_reserved, "cpu"), "550m");

	kp_label sys[] = { { "cpu", "1" }, { "ephemeral-storage", "1Gi" }, { "memory", "20Gi" } };
	kp_label kube[] = { { "cpu", "2" }, { "ephemeral-storage", "2Gi" }, { "memory", "10Gi" } };
	kp_aws_instance_type_options o = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	o.system_reserved = labels_of(sys, 3);
	o.kube_reserved = labels_of(kube, 3);
	build(&o);
	t = type("m5.xlarge");
	ck_assert_str_eq(res(t->kube_reserved, "cpu"), "2");
	ck_assert_str_eq(res(t->kube_reserved, "memory"), "10Gi");
	ck_assert_str_eq(res(t->kube_reserved, "ephemeral-storage"), "2Gi");
	ck_assert_str_eq(res(t->system_reserved, "cpu"), "1");
	ck_assert_str_eq(res(t->system_reserved, "memory"), "20Gi");
	ck_assert_str_eq(res(t->system_reserved, "ephemeral-storage"), "1Gi");
	/* allocatable = capacity - overhead: 4 - 2 - 1 cpu */
	ck_assert_str_eq(res(t->allocatable, "cpu"), "1");
}
END_TEST

START_TEST(kubelet_json_map)
{
	kp_aws_instance_type_options o = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	o.kubelet_json = "{\"maxPods\":20,\"systemReserved\":{\"cpu\":\"2\",\"memory\":\"20Gi\"},"
			 "\"kubeReserved\":{\"cpu\":\"max_pods * 2\"},"
			 "\"evictionHard\":{\"memory.available\":\"500Mi\"}}";
	build(&o);
	const kp_instance_type *t = type("m5.xlarge");
	ck_assert_int_eq(pods_of("m5.xlarge"), 20);
	ck_assert_str_eq(res(t->system_reserved, "cpu"), "2");
	ck_assert_str_eq(res(t->system_reserved, "memory"), "20Gi");
	/* an expression is dropped while upstream's NodeClassCEL gate is off */
	ck_assert_str_eq(res(t->kube_reserved, "cpu"), "80m");
	ck_assert_str_eq(res(t->eviction_threshold, "memory"), "500Mi");
	o.kubelet_json = "{\"maxPods\":\"x\"}"; /* expression: the default */
	build(&o);
	ck_assert_int_eq(pods_of("m5.xlarge"), 58);
	o.kubelet_json = "{\"maxPods\":-1}";
	kp_error err = { 0 };
	kp_instance_types *x = NULL;
	ck_assert_int_eq(kp_aws_instance_types_build(&x, cat, &o, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "kubelet.maxPods");
}
END_TEST

static const struct {
	const char *family;
	const char *hard, *soft;
	const char *expected; /* NULL: a percentage of capacity memory */
	double fraction;
} eviction_cases[] = {
	{ "AL2", "500Mi", NULL, "500Mi", 0 },
	{ "AL2", "10%", NULL, NULL, 0.10 },
	{ "AL2", "100%", NULL, "0", 0 },
	{ "AL2", NULL, "50Mi", "100Mi", 0 },
	{ "AL2", NULL, "500Mi", "100Mi", 0 },
	{ "AL2", "5%", "10%", NULL, 0.05 },
	{ "AL2", NULL, "100%", "100Mi", 0 },
	{ "Bottlerocket", "1Gi", "10Gi", "1Gi", 0 },
	{ "AL2", "1Gi", "3Gi", "1Gi", 0 },
	{ "AL2", "5%", "2%", NULL, 0.05 },
	{ "AL2", "1Gi", "10%", "1Gi", 0 },
};

START_TEST(eviction_thresholds)
{
	kp_label hard = { "memory.available", eviction_cases[_i].hard };
	kp_label soft = { "memory.available", eviction_cases[_i].soft };
	kp_label sys = { "memory", "20Gi" }, kube = { "memory", "10Gi" };
	kp_aws_instance_type_options o = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	o.ami_family = eviction_cases[_i].family;
	o.vm_memory_overhead_percent = 0;
	o.system_reserved = labels_of(&sys, 1);
	o.kube_reserved = labels_of(&kube, 1);
	if (eviction_cases[_i].hard)
		o.eviction_hard = labels_of(&hard, 1);
	if (eviction_cases[_i].soft)
		o.eviction_soft = labels_of(&soft, 1);
	build(&o);
	const kp_instance_type *t = type("m5.xlarge");
	if (eviction_cases[_i].expected) {
		ck_assert_str_eq(res(t->eviction_threshold, "memory"), eviction_cases[_i].expected);
	} else {
		double want = (double)res_value(t->capacity, "memory") * eviction_cases[_i].fraction;
		double got = (double)res_value(t->eviction_threshold, "memory");
		ck_assert_double_eq_tol(got, want, 10);
	}
}
END_TEST

START_TEST(eviction_default)
{
	build(NULL);
	const kp_instance_type *t = type("m5.xlarge");
	ck_assert_str_eq(res(t->eviction_threshold, "cpu"), "absent");
	ck_assert_str_eq(res(t->eviction_threshold, "memory"), "100Mi");
	/* ceil(20Gi / 100 * 10), printed by Go as 2.147483648e+09 */
	ck_assert_str_eq(res(t->eviction_threshold, "ephemeral-storage"), "2147483648");
	kp_label bad = { "memory.available", "ten%" };
	kp_aws_instance_type_options o = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	o.eviction_hard = labels_of(&bad, 1);
	kp_error err = { 0 };
	kp_instance_types *x = NULL;
	ck_assert_int_eq(kp_aws_instance_types_build(&x, cat, &o, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "evictionHard.memory.available");
}
END_TEST

/* ------------------------------------------------------------------ */
/* Ephemeral storage                                                   */

START_TEST(ephemeral_storage_block_devices)
{
	kp_aws_block_device snap = { .struct_size = sizeof(snap) };
	snap.snapshot_id = "snap-xxxxxxxx";
	kp_aws_block_device_mapping xvda = { sizeof(xvda), 0, "/dev/xvda", &snap };
	kp_aws_block_device_mapping *bdms[] = { &xvda };
	kp_aws_instance_type_options o = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	o.ami_family = "AL2";
	o.block_device_mappings = bdms;
	o.n_block_device_mappings = 1;
	/* only a snapshot: the family default */
	build(&o);
	ck_assert_str_eq(res(type("m5.large")->capacity, "ephemeral-storage"), "20Gi");
	o.ami_family = "Custom";
	build(&o);
	ck_assert_str_eq(res(type("m5.large")->capacity, "ephemeral-storage"), "20Gi");
	o.ami_family = "Bottlerocket";
	xvda.device_name = "/dev/xvdb";
	build(&o);
	ck_assert_str_eq(res(type("m5.large")->capacity, "ephemeral-storage"), "20Gi");
	/* a size on the family's device */
	snap.volume_size = "100Gi";
	build(&o);
	ck_assert_str_eq(res(type("m5.large")->capacity, "ephemeral-storage"), "100Gi");
	/* a size on another device: the default */
	xvda.device_name = "/dev/xvda";
	build(&o);
	ck_assert_str_eq(res(type("m5.large")->capacity, "ephemeral-storage"), "20Gi");
	/* the root volume first */
	xvda.root_volume = 1;
	build(&o);
	ck_assert_str_eq(res(type("m5.large")->capacity, "ephemeral-storage"), "100Gi");
	/* Custom: the last mapping */
	kp_aws_block_device big = { .struct_size = sizeof(big) };
	big.volume_size = "50G";
	kp_aws_block_device_mapping second = { sizeof(second), 0, "/dev/xvdc", &big };
	kp_aws_block_device_mapping *two[] = { &xvda, &second };
	xvda.root_volume = 0;
	o.block_device_mappings = two;
	o.n_block_device_mappings = 2;
	o.ami_family = "Custom";
	build(&o);
	ck_assert_str_eq(res(type("m5.large")->capacity, "ephemeral-storage"), "50G");
	/* Windows' default root volume */
	kp_aws_instance_type_options w = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	w.ami_family = "Windows2022";
	build(&w);
	ck_assert_str_eq(res(type("m5.large")->capacity, "ephemeral-storage"), "50Gi");
	big.volume_size = "lots";
	kp_error err = { 0 };
	kp_instance_types *x = NULL;
	ck_assert_int_eq(kp_aws_instance_types_build(&x, cat, &o, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "blockDeviceMappings[1].ebs.volumeSize");
}
END_TEST

START_TEST(ephemeral_storage_raid0)
{
	kp_label nodefs = { "nodefs.available", "10%" };
	kp_aws_instance_type_options o = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	o.instance_store_policy = "RAID0";
	build(&o);
	ck_assert_str_eq(res(type("m6idn.32xlarge")->capacity, "ephemeral-storage"), "7600G");
	/* no instance store: the default */
	ck_assert_str_eq(res(type("m5.large")->capacity, "ephemeral-storage"), "20Gi");
	o.eviction_hard = labels_of(&nodefs, 1);
	build(&o);
	ck_assert_int_eq(res_value(type("m6idn.32xlarge")->eviction_threshold, "ephemeral-storage"),
			 760000000000LL);
	/* 7600G - 1Gi kube-reserved - 760G eviction */
	ck_assert_int_eq(res_value(type("m6idn.32xlarge")->allocatable, "ephemeral-storage"),
			 7600000000000LL - 1073741824LL - 760000000000LL);
	o.instance_store_policy = "RAID1";
	kp_error err = { 0 };
	kp_instance_types *x = NULL;
	ck_assert_int_eq(kp_aws_instance_types_build(&x, cat, &o, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "instanceStorePolicy");
}
END_TEST

/* ------------------------------------------------------------------ */
/* Extended resources                                                  */

static const struct {
	const char *name, *resource, *value;
} extended[] = {
	{ "g4dn.8xlarge", "nvidia.com/gpu", "1" },
	{ "g5.12xlarge", "nvidia.com/gpu", "4" },
	{ "p5.48xlarge", "nvidia.com/gpu", "8" },
	{ "g4ad.16xlarge", "amd.com/gpu", "4" },
	{ "inf2.xlarge", "aws.amazon.com/neuron", "1" },
	{ "inf2.xlarge", "aws.amazon.com/neuroncore", "2" },
	{ "inf2.24xlarge", "aws.amazon.com/neuron", "6" },
	{ "inf2.24xlarge", "aws.amazon.com/neuroncore", "12" },
	{ "trn1.2xlarge", "aws.amazon.com/neuron", "1" },
	{ "m6idn.32xlarge", "vpc.amazonaws.com/efa", "2" },
	{ "p5.48xlarge", "vpc.amazonaws.com/efa", "32" },
	{ "m5.large", "vpc.amazonaws.com/efa", "0" },
	{ "m5.large", "vpc.amazonaws.com/pod-eni", "9" },
	{ "t3.large", "vpc.amazonaws.com/pod-eni", "0" },
	{ "m5.large", "habana.ai/gaudi", "0" },
	{ "m5.large", "vpc.amazonaws.com/PrivateIPv4Address", "absent" },
};

START_TEST(extended_resources)
{
	build(NULL);
	ck_assert_str_eq(res(type(extended[_i].name)->capacity, extended[_i].resource),
			 extended[_i].value);
}
END_TEST

START_TEST(windows)
{
	kp_aws_instance_type_options o = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	o.ami_family = "Windows2022";
	build(&o);
	/* IPv4 per interface - 1, from upstream's VPC limits */
	ck_assert_str_eq(res(type("m5.large")->capacity, "vpc.amazonaws.com/PrivateIPv4Address"), "9");
	ck_assert_str_eq(req("m5.large", "kubernetes.io/os"), "kubernetes.io/os In [windows]");
	ck_assert_str_eq(req("m5.large", "node.kubernetes.io/windows-build"),
			 "node.kubernetes.io/windows-build In [10.0.20348]");
	ck_assert_int_eq(pods_of("m5.large"), 110);
	/* Windows on arm64: no operating system, no PrivateIPv4Address */
	ck_assert_str_eq(req("c6g.large", "kubernetes.io/os"), "kubernetes.io/os DoesNotExist");
	ck_assert_str_eq(res(type("c6g.large")->capacity, "vpc.amazonaws.com/PrivateIPv4Address"),
			 "absent");
	build(NULL);
	ck_assert_str_eq(req("m5.large", "node.kubernetes.io/windows-build"),
			 "node.kubernetes.io/windows-build DoesNotExist");
}
END_TEST

/* ------------------------------------------------------------------ */
/* Labels                                                              */

static const struct {
	const char *name, *key, *text;
} label_cases[] = {
	{ "m5.large", "node.kubernetes.io/instance-type", "node.kubernetes.io/instance-type In [m5.large]" },
	{ "m5.large", "kubernetes.io/arch", "kubernetes.io/arch In [amd64]" },
	{ "c6g.large", "kubernetes.io/arch", "kubernetes.io/arch In [arm64]" },
	{ "m5.large", "topology.kubernetes.io/region", "topology.kubernetes.io/region In [us-east-1]" },
	{ "m5.large", "karpenter.sh/capacity-type", "karpenter.sh/capacity-type In [on-demand spot]" },
	{ "m5.large", "karpenter.k8s.aws/instance-category", "karpenter.k8s.aws/instance-category In [m]" },
	{ "m5.large", "karpenter.k8s.aws/instance-generation", "karpenter.k8s.aws/instance-generation In [5]" },
	{ "m6idn.32xlarge", "karpenter.k8s.aws/instance-family", "karpenter.k8s.aws/instance-family In [m6idn]" },
	{ "m6idn.32xlarge", "karpenter.k8s.aws/instance-size", "karpenter.k8s.aws/instance-size In [32xlarge]" },
	{ "m6idn.32xlarge", "karpenter.k8s.aws/instance-local-nvme", "karpenter.k8s.aws/instance-local-nvme In [7600]" },
	{ "m5.large", "karpenter.k8s.aws/instance-local-nvme", "karpenter.k8s.aws/instance-local-nvme DoesNotExist" },
	{ "inf2.xlarge", "karpenter.k8s.aws/instance-category", "karpenter.k8s.aws/instance-category In [inf]" },
	{ "inf2.xlarge", "karpenter.k8s.aws/instance-generation", "karpenter.k8s.aws/instance-generation In [2]" },
	{ "m5.large", "karpenter.k8s.aws/instance-cpu", "karpenter.k8s.aws/instance-cpu In [2]" },
	{ "m5.large", "karpenter.k8s.aws/instance-memory", "karpenter.k8s.aws/instance-memory In [8192]" },
	{ "m5.large", "karpenter.k8s.aws/instance-cpu-manufacturer", "karpenter.k8s.aws/instance-cpu-manufacturer In [intel]" },
	{ "c6g.large", "karpenter.k8s.aws/instance-cpu-manufacturer", "karpenter.k8s.aws/instance-cpu-manufacturer In [aws]" },
	{ "c6g.large", "karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz", "karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz In [2500]" },
	{ "m5.large", "karpenter.k8s.aws/instance-network-bandwidth", "karpenter.k8s.aws/instance-network-bandwidth In [750]" },
	{ "c6g.large", "karpenter.k8s.aws/instance-ebs-bandwidth", "karpenter.k8s.aws/instance-ebs-bandwidth In [4750]" },
	{ "m5.large", "karpenter.k8s.aws/instance-hypervisor", "karpenter.k8s.aws/instance-hypervisor In [nitro]" },
	{ "m5.metal", "karpenter.k8s.aws/instance-hypervisor", "karpenter.k8s.aws/instance-hypervisor In []" },
	{ "m7i-flex.large", "karpenter.k8s.aws/instance-capability-flex", "karpenter.k8s.aws/instance-capability-flex In [true]" },
	{ "m5.large", "karpenter.k8s.aws/instance-capability-flex", "karpenter.k8s.aws/instance-capability-flex In [false]" },
	{ "g4dn.8xlarge", "karpenter.k8s.aws/instance-gpu-name", "karpenter.k8s.aws/instance-gpu-name In [t4]" },
	{ "g4dn.8xlarge", "karpenter.k8s.aws/instance-gpu-manufacturer", "karpenter.k8s.aws/instance-gpu-manufacturer In [nvidia]" },
	{ "g4dn.8xlarge", "karpenter.k8s.aws/instance-gpu-count", "karpenter.k8s.aws/instance-gpu-count In [1]" },
	{ "g4dn.8xlarge", "karpenter.k8s.aws/instance-gpu-memory", "karpenter.k8s.aws/instance-gpu-memory In [16384]" },
	{ "m5.large", "karpenter.k8s.aws/instance-gpu-name", "karpenter.k8s.aws/instance-gpu-name DoesNotExist" },
	{ "inf2.xlarge", "karpenter.k8s.aws/instance-accelerator-name", "karpenter.k8s.aws/instance-accelerator-name In [inferentia2]" },
	{ "inf2.xlarge", "karpenter.k8s.aws/instance-accelerator-manufacturer", "karpenter.k8s.aws/instance-accelerator-manufacturer In [aws]" },
	{ "inf2.xlarge", "karpenter.k8s.aws/instance-accelerator-count", "karpenter.k8s.aws/instance-accelerator-count In [1]" },
	{ "m5.large", "karpenter.k8s.aws/instance-tenancy", "karpenter.k8s.aws/instance-tenancy In [dedicated default]" },
	{ "m5.large", "karpenter.k8s.aws/capacity-reservation-id", "karpenter.k8s.aws/capacity-reservation-id DoesNotExist" },
};

/* upstream "should support individual instance type labels": g4dn.8xlarge */
static const struct {
	const char *key, *value;
} g4dn_labels[] = {
	{ "karpenter.k8s.aws/instance-tenancy", "default" },
	{ "karpenter.k8s.aws/instance-hypervisor", "nitro" },
	{ "karpenter.k8s.aws/instance-encryption-in-transit-supported", "true" },
	{ "karpenter.k8s.aws/instance-category", "g" },
	{ "karpenter.k8s.aws/instance-capability-flex", "false" },
	{ "karpenter.k8s.aws/instance-generation", "4" },
	{ "karpenter.k8s.aws/instance-family", "g4dn" },
	{ "karpenter.k8s.aws/instance-size", "8xlarge" },
	{ "karpenter.k8s.aws/instance-cpu", "32" },
	{ "karpenter.k8s.aws/instance-cpu-manufacturer", "intel" },
	{ "karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz", "2500" },
	{ "karpenter.k8s.aws/instance-memory", "131072" },
	{ "karpenter.k8s.aws/instance-ebs-bandwidth", "9500" },
	{ "karpenter.k8s.aws/instance-network-bandwidth", "50000" },
	{ "karpenter.k8s.aws/instance-gpu-name", "t4" },
	{ "karpenter.k8s.aws/instance-gpu-manufacturer", "nvidia" },
	{ "karpenter.k8s.aws/instance-gpu-count", "1" },
	{ "karpenter.k8s.aws/instance-gpu-memory", "16384" },
	{ "karpenter.k8s.aws/instance-local-nvme", "900" },
	{ "kubernetes.io/os", "linux" },
	{ "kubernetes.io/arch", "amd64" },
	{ "topology.kubernetes.io/zone", "test-zone-1a" },
	{ "karpenter.sh/capacity-type", "on-demand" },
};

START_TEST(g4dn_upstream_labels)
{
	build(NULL);
	kp_requirement *r = kp_requirements_get(type("g4dn.8xlarge")->requirements, g4dn_labels[_i].key);
	ck_assert_ptr_nonnull(r);
	ck_assert_msg(kp_requirement_has(r, g4dn_labels[_i].value), "%s: %s", g4dn_labels[_i].key,
		      req("g4dn.8xlarge", g4dn_labels[_i].key));
}
END_TEST

START_TEST(labels)
{
	build(NULL);
	ck_assert_str_eq(req(label_cases[_i].name, label_cases[_i].key), label_cases[_i].text);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Offerings and prices                                                */

START_TEST(offerings_zones_and_prices)
{
	build(NULL);
	/* every zone of the region x capacity type; available where offered */
	const kp_instance_type *t = type("m5.xlarge");
	ck_assert_uint_eq(t->n_offerings, 8);
	ck_assert_double_eq(offering("m5.xlarge", "test-zone-1a", "on-demand")->price, 0.192);
	/* before a spot price update, spot costs what on-demand does */
	ck_assert_double_eq(offering("m5.xlarge", "test-zone-1b", "spot")->price, 0.192);
	ck_assert_uint_eq(offering("m5.xlarge", "test-zone-1a", "spot")->available, 1);
	ck_assert_uint_eq(offering("m5.xlarge", "test-zone-1c", "spot")->available, 0);
	ck_assert_str_eq(req("m5.xlarge", "topology.kubernetes.io/zone"),
			 "topology.kubernetes.io/zone In [test-zone-1a test-zone-1b]");

	/* subnet zones: the intersection, with zone ids */
	kp_aws_zone_info zb = { sizeof(zb), 0, "test-zone-1b", "tstz1-1b" };
	kp_aws_zone_info zc = { sizeof(zc), 0, "test-zone-1c", "tstz1-1c" };
	const kp_aws_zone_info *zones[] = { &zb, &zc };
	kp_aws_instance_type_options o = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	o.has_subnet_zones = 1;
	o.subnet_zones = zones;
	o.n_subnet_zones = 2;
	build(&o);
	ck_assert_str_eq(req("m5.xlarge", "topology.kubernetes.io/zone"),
			 "topology.kubernetes.io/zone In [test-zone-1b]");
	ck_assert_str_eq(req("m5.xlarge", "topology.k8s.aws/zone-id"),
			 "topology.k8s.aws/zone-id In [tstz1-1b]");
	ck_assert_uint_eq(offering("m5.xlarge", "test-zone-1a", "on-demand")->available, 0);
	ck_assert_uint_eq(offering("m5.xlarge", "test-zone-1b", "on-demand")->available, 1);
	ck_assert_uint_eq(available_offerings("m5.xlarge"), 2);
	/* a type the subnets' zones do not offer has no available offering */
	ck_assert_uint_eq(available_offerings("inf2.xlarge"), 0);
}
END_TEST

START_TEST(prices_region_fallback)
{
	kp_aws_instance_type_options o = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	o.region = "eu-west-1";
	build(&o);
	ck_assert_double_eq(offering("m5.large", "test-zone-1a", "on-demand")->price, 0.096);
	ck_assert_str_eq(req("m5.large", "topology.kubernetes.io/region"),
			 "topology.kubernetes.io/region In [eu-west-1]");
	const char *cn = "{\"cn-north-1\": {\"m5.large\": 0.7}}";
	kp_error err = { 0 };
	ck_assert_int_eq(kp_aws_catalog_load_on_demand_prices(cat, cn, strlen(cn), "cn.json", &err), KP_OK);
	o.region = "cn-north-1";
	build(&o);
	ck_assert_double_eq(offering("m5.large", "test-zone-1a", "on-demand")->price, 0.7);
	/* no price: no available offering */
	ck_assert_uint_eq(offering("m5.xlarge", "test-zone-1a", "on-demand")->available, 0);
	ck_assert_uint_eq(available_offerings("m5.xlarge"), 0);
}
END_TEST

START_TEST(spot_prices_zonal_after_update)
{
	const char *history =
		"{\"SpotPriceHistory\": ["
		"{\"AvailabilityZone\": \"test-zone-1a\", \"InstanceType\": \"m5.large\","
		" \"ProductDescription\": \"Linux/UNIX\", \"SpotPrice\": \"0.050\","
		" \"Timestamp\": \"2024-01-01T00:00:00+00:00\"},"
		"{\"AvailabilityZone\": \"test-zone-1b\", \"InstanceType\": \"m5.large\","
		" \"ProductDescription\": \"Linux/UNIX\", \"SpotPrice\": \"0.040\","
		" \"Timestamp\": \"2024-01-01T00:00:00+00:00\"},"
		"{\"AvailabilityZone\": \"test-zone-1b\", \"InstanceType\": \"m5.large\","
		" \"ProductDescription\": \"Windows\", \"SpotPrice\": \"0.010\","
		" \"Timestamp\": \"2024-01-01T00:00:00+00:00\"},"
		"{\"AvailabilityZone\": \"test-zone-1c\", \"InstanceType\": \"m5.large\","
		" \"ProductDescription\": \"Linux/UNIX\", \"SpotPrice\": \"0.030\"}"
		"]}";
	kp_error err = { 0 };
	ck_assert_int_eq(kp_aws_catalog_load_spot_prices(cat, history, strlen(history), "spot.json", &err), KP_OK);
	build(NULL);
	ck_assert_double_eq(offering("m5.large", "test-zone-1a", "spot")->price, 0.05);
	ck_assert_double_eq(offering("m5.large", "test-zone-1b", "spot")->price, 0.04);
	/* no timestamp: skipped, so no spot price in 1c */
	ck_assert_uint_eq(offering("m5.large", "test-zone-1c", "spot")->available, 0);
	ck_assert_uint_eq(offering("m5.large", "test-zone-1c", "on-demand")->available, 1);
	/* after an update, a type it does not name has no spot price */
	ck_assert_uint_eq(offering("m5.xlarge", "test-zone-1a", "spot")->available, 0);
	/* a later update replaces one zone and keeps the others */
	const char *later = "{\"SpotPriceHistory\": [{\"AvailabilityZone\": \"test-zone-1a\","
			    " \"InstanceType\": \"m5.large\", \"SpotPrice\": \"0.061\","
			    " \"Timestamp\": \"2024-01-02T00:00:00+00:00\"}]}";
	ck_assert_int_eq(kp_aws_catalog_load_spot_prices(cat, later, strlen(later), "spot2.json", &err), KP_OK);
	build(NULL);
	ck_assert_double_eq(offering("m5.large", "test-zone-1a", "spot")->price, 0.061);
	ck_assert_double_eq(offering("m5.large", "test-zone-1b", "spot")->price, 0.04);
}
END_TEST

START_TEST(unavailable_offerings_cache)
{
	kp_aws_unavailable_offerings *c = NULL;
	ck_assert_int_eq(kp_aws_unavailable_offerings_new(&c, NULL), KP_OK);
	const int64_t t0 = 1700000000000LL;
	ck_assert_int_eq(kp_aws_unavailable_offerings_mark(c, "m5.large", "test-zone-1a", "spot", t0,
							   NULL), KP_OK);
	ck_assert_int_eq(kp_aws_unavailable_offerings_is_unavailable(c, "m5.large", "test-zone-1a",
								     "spot", t0 + 1), 1);
	ck_assert_int_eq(kp_aws_unavailable_offerings_is_unavailable(c, "m5.large", "test-zone-1a",
								     "on-demand", t0 + 1), 0);
	ck_assert_int_eq(kp_aws_unavailable_offerings_is_unavailable(c, "m5.large", "test-zone-1b",
								     "spot", t0 + 1), 0);
	kp_aws_instance_type_options o = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	o.unavailable = c;
	o.now_ms = t0 + 179999;
	build(&o);
	ck_assert_uint_eq(offering("m5.large", "test-zone-1a", "spot")->available, 0);
	ck_assert_uint_eq(offering("m5.large", "test-zone-1a", "on-demand")->available, 1);
	/* three minutes later it is available again */
	o.now_ms = t0 + 180000;
	build(&o);
	ck_assert_uint_eq(offering("m5.large", "test-zone-1a", "spot")->available, 1);
	/* marking again extends the time */
	ck_assert_int_eq(kp_aws_unavailable_offerings_mark(c, "m5.large", "test-zone-1a", "spot",
							   t0 + 100000, NULL), KP_OK);
	ck_assert_int_eq(kp_aws_unavailable_offerings_is_unavailable(c, "m5.large", "test-zone-1a",
								     "spot", t0 + 279999), 1);
	/* a whole capacity type */
	ck_assert_int_eq(kp_aws_unavailable_offerings_mark_capacity_type(c, "on-demand", t0, NULL),
			 KP_OK);
	o.now_ms = t0 + 1000;
	build(&o);
	ck_assert_uint_eq(offering("t3.large", "test-zone-1b", "on-demand")->available, 0);
	ck_assert_uint_eq(offering("t3.large", "test-zone-1b", "spot")->available, 1);
	kp_error err = { 0 };
	ck_assert_int_eq(kp_aws_unavailable_offerings_mark(c, "", "z", "spot", t0, &err), KP_EINVAL);
	kp_aws_unavailable_offerings_free(c);
}
END_TEST

START_TEST(incompatible_with_node_class)
{
	/* a second network card that t3.large does not have */
	kp_aws_network_interface a = { sizeof(a), 0, 0, 0, "interface" };
	kp_aws_network_interface b = { sizeof(b), 1, 0, 0, "interface" };
	kp_aws_network_interface *nis[] = { &a, &b };
	kp_aws_instance_type_options o = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	o.network_interfaces = nis;
	o.n_network_interfaces = 2;
	o.has_network_interfaces = 1;
	build(&o);
	ck_assert_uint_eq(available_offerings("t3.large"), 0);
	ck_assert_uint_gt(available_offerings("m6idn.32xlarge"), 0);
	/* more EFA-only interfaces than the type has */
	b.network_card_index = 0;
	b.device_index = 1;
	b.interface_type = "efa-only";
	build(&o);
	ck_assert_uint_eq(available_offerings("m5.large"), 0);
	ck_assert_uint_gt(available_offerings("m6idn.32xlarge"), 0);
	/* connection tracking needs nitro */
	kp_aws_instance_type_options ct = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	ct.connection_tracking = 1;
	build(&ct);
	ck_assert_uint_eq(available_offerings("m5.metal"), 0);
	ck_assert_uint_gt(available_offerings("m5.large"), 0);
}
END_TEST

START_TEST(capacity_reservations)
{
	kp_aws_capacity_reservation cr = KP_AWS_CAPACITY_RESERVATION_INIT;
	cr.id = "cr-m5.large-1a-1";
	cr.instance_type = "m5.large";
	cr.availability_zone = "test-zone-1a";
	cr.available_instance_count = 2;
	kp_aws_capacity_reservation cr2 = KP_AWS_CAPACITY_RESERVATION_INIT;
	cr2.id = "cr-m5.large-1b-2";
	cr2.instance_type = "m5.large";
	cr2.availability_zone = "test-zone-1b";
	cr2.reservation_type = "capacity-block";
	cr2.available_instance_count = 0;
	const kp_aws_capacity_reservation *crs[] = { &cr, &cr2 };
	kp_aws_instance_type_options o = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	o.capacity_reservations = crs;
	o.n_capacity_reservations = 2;
	build(&o);
	const kp_offering *r = offering("m5.large", "test-zone-1a", "reserved");
	ck_assert_str_eq(r->reservation_id, "cr-m5.large-1a-1");
	ck_assert_int_eq(r->reservation_capacity, 2);
	ck_assert_uint_eq(r->available, 1);
	/* the on-demand price / 10,000,000 */
	ck_assert_double_eq(r->price, 0.096 / 10000000.0);
	ck_assert_uint_eq(offering("m5.large", "test-zone-1b", "reserved")->available, 0);
	ck_assert_str_eq(req("m5.large", "karpenter.sh/capacity-type"),
			 "karpenter.sh/capacity-type In [on-demand reserved spot]");
	ck_assert_str_eq(req("m5.large", "karpenter.k8s.aws/capacity-reservation-id"),
			 "karpenter.k8s.aws/capacity-reservation-id In [cr-m5.large-1a-1 cr-m5.large-1b-2]");
	ck_assert_str_eq(req("m5.large", "karpenter.k8s.aws/capacity-reservation-type"),
			 "karpenter.k8s.aws/capacity-reservation-type In [capacity-block default]");
	char buf[256];
	kp_requirements_string(r->requirements, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "karpenter.k8s.aws/capacity-reservation-interruptible In [false]") != NULL, "%s", buf);
	/* the reserved offering is preferred: it is the cheapest */
	kp_wellknown *wk = NULL;
	ck_assert_int_eq(kp_wellknown_new(&wk, NULL), KP_OK);
	ck_assert_int_eq(kp_aws_wellknown_add(wk, NULL), KP_OK);
	ck_assert_ptr_eq(kp_instance_type_cheapest_offering(type("m5.large"), NULL, wk), r);
	kp_wellknown_free(wk);
	/* other types are unaffected */
	ck_assert_str_eq(req("m5.xlarge", "karpenter.k8s.aws/capacity-reservation-id"),
			 "karpenter.k8s.aws/capacity-reservation-id DoesNotExist");
	/* expiring reservations are unavailable */
	cr.state = "expiring";
	build(&o);
	ck_assert_uint_eq(offering("m5.large", "test-zone-1a", "reserved")->available, 0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Launch filter                                                       */

static const char *filtered(kp_requirements *reqs, const char *resource, const char *amount)
{
	static char names[1024];
	size_t n = 0;
	const kp_instance_type *const *all = kp_instance_types_items(its, &n);
	const kp_instance_type **v = calloc(n, sizeof(*v));
	memcpy(v, all, n * sizeof(*v));
	kp_resource_list requests = KP_RESOURCE_LIST_INIT;
	kp_quantity q;
	ck_assert_int_eq(kp_quantity_parse(&q, amount, NULL), KP_OK);
	ck_assert_int_eq(kp_resources_set(&requests, resource, &q, NULL), KP_OK);
	kp_wellknown *wk = NULL;
	ck_assert_int_eq(kp_wellknown_new(&wk, NULL), KP_OK);
	ck_assert_int_eq(kp_aws_wellknown_add(wk, NULL), KP_OK);
	size_t kept = kp_aws_launch_filter(v, n, reqs, &requests, wk);
	names[0] = 0;
	for (size_t i = 0; i < kept; i++) {
		strcat(names, i ? " " : "");
		strcat(names, v[i]->name);
	}
	kp_wellknown_free(wk);
	kp_resources_dispose(&requests);
	free(v);
	return names;
}

START_TEST(launch_filter)
{
	build(NULL);
	/* metal, GPU and accelerator types go while an ordinary type fits
	 * (t4g types have no offering in the shipped zones) */
	ck_assert_str_eq(filtered(NULL, "cpu", "1"),
			 "c6g.large m5.large m5.xlarge m6idn.32xlarge m7i-flex.large t3.large");
	/* asking for a GPU leaves only GPU types */
	ck_assert_str_eq(filtered(NULL, "nvidia.com/gpu", "1"), "g4dn.8xlarge g5.12xlarge p5.48xlarge");
	ck_assert_str_eq(filtered(NULL, "aws.amazon.com/neuron", "2"), "inf2.24xlarge");
	/* 100 cpus: m6idn.32xlarge fits, so p5.48xlarge is dropped */
	ck_assert_str_eq(filtered(NULL, "cpu", "100"), "m6idn.32xlarge");
	/* minValues: the exotic filter is not applied */
	const char *families[] = { "m5", "p5" };
	kp_node_selector_requirement sel = KP_NODE_SELECTOR_REQUIREMENT_INIT;
	sel.key = "karpenter.k8s.aws/instance-family";
	sel.op = KP_SELECTOR_OP_IN;
	sel.values = families;
	sel.n_values = 2;
	sel.min_values = 2;
	const kp_node_selector_requirement *sels[] = { &sel };
	kp_requirements *reqs = NULL;
	kp_wellknown *wk = NULL;
	ck_assert_int_eq(kp_wellknown_new(&wk, NULL), KP_OK);
	ck_assert_int_eq(kp_aws_wellknown_add(wk, NULL), KP_OK);
	ck_assert_int_eq(kp_requirements_from_selectors(&reqs, sels, 1, wk, NULL), KP_OK);
	ck_assert_str_eq(filtered(reqs, "cpu", "1"), "m5.large m5.metal m5.xlarge p5.48xlarge");
	/* without minValues, the same families drop the exotic ones */
	kp_requirements_free(reqs);
	sel.min_values = 0;
	ck_assert_int_eq(kp_requirements_from_selectors(&reqs, sels, 1, wk, NULL), KP_OK);
	ck_assert_str_eq(filtered(reqs, "cpu", "1"), "m5.large m5.xlarge");
	kp_requirements_free(reqs);
	kp_wellknown_free(wk);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The provider, offline                                               */

struct claim {
	kp_nodeclaim nc;
	kp_object_meta meta;
	kp_nodeclaim_spec spec;
	kp_nodeclaim_resources res;
	kp_node_class_reference ref;
	kp_nodeclaim_requirement reqs[4];
	kp_nodeclaim_requirement *req_ptrs[4];
	kp_resource requests[2];
};

static void claim_init(struct claim *c, const char *class_name)
{
	kp_nodeclaim nc = KP_NODECLAIM_INIT;
	kp_object_meta meta = KP_OBJECT_META_INIT;
	kp_nodeclaim_spec spec = KP_NODECLAIM_SPEC_INIT;
	kp_nodeclaim_resources res = KP_NODECLAIM_RESOURCES_INIT;
	kp_node_class_reference ref = KP_NODE_CLASS_REFERENCE_INIT;
	c->nc = nc;
	c->meta = meta;
	c->spec = spec;
	c->res = res;
	c->ref = ref;
	c->meta.name = "claim";
	c->ref.group = "karpenter.k8s.aws";
	c->ref.kind = "EC2NodeClass";
	c->ref.name = class_name;
	c->spec.node_class_ref = &c->ref;
	c->spec.resources = &c->res;
	c->spec.requirements = c->req_ptrs;
	c->res.requests.items = c->requests;
	c->requests[0].name = "cpu";
	ck_assert_int_eq(kp_quantity_parse(&c->requests[0].quantity, "1", NULL), KP_OK);
	c->res.requests.count = 1;
	c->nc.metadata = &c->meta;
	c->nc.spec = &c->spec;
}

static void claim_req(struct claim *c, const char *key, const char *const *values, size_t n)
{
	size_t i = c->spec.n_requirements++;
	kp_nodeclaim_requirement r = KP_NODECLAIM_REQUIREMENT_INIT;
	r.key = key;
	r.op = KP_SELECTOR_OP_IN;
	r.operator_name = "In";
	r.values = values;
	r.n_values = n;
	c->reqs[i] = r;
	c->req_ptrs[i] = &c->reqs[i];
}

static kp_cloudprovider *aws_provider(void)
{
	const char *names[] = { "default" };
	kp_instance_types *cats[] = { its };
	kp_aws_provider_options o = KP_AWS_PROVIDER_OPTIONS_INIT;
	o.nodeclass_names = names;
	o.instance_types = cats;
	o.n_nodeclasses = 1;
	kp_cloudprovider *cp = NULL;
	kp_error err = { 0 };
	ck_assert_int_eq(kp_aws_provider_new(&cp, &o, &err), KP_OK);
	return cp;
}

static const char *nc_label(const kp_nodeclaim *nc, const char *key)
{
	const char *v = kp_labels_get(&nc->metadata->labels, key);
	return v ? v : "absent";
}

START_TEST(provider_create)
{
	build(NULL);
	kp_cloudprovider *cp = aws_provider();
	static const char *types[] = { "m5.large", "m5.xlarge", "g4dn.8xlarge" };
	static const char *both[] = { "on-demand", "spot" };
	static const char *od[] = { "on-demand" };
	struct claim c;
	claim_init(&c, "default");
	claim_req(&c, "node.kubernetes.io/instance-type", types, 3);
	claim_req(&c, "karpenter.sh/capacity-type", both, 2);
	kp_nodeclaim *out = NULL;
	kp_error err = { 0 };
	/* spot when allowed; the cheapest offering; GPU types filtered out */
	ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &c.nc, &err), KP_OK);
	ck_assert_str_eq(out->status->provider_id, "aws:///test-zone-1a/i-00000000000000000");
	ck_assert_str_eq(nc_label(out, "node.kubernetes.io/instance-type"), "m5.large");
	ck_assert_str_eq(nc_label(out, "karpenter.sh/capacity-type"), "spot");
	ck_assert_str_eq(nc_label(out, "topology.kubernetes.io/zone"), "test-zone-1a");
	ck_assert_str_eq(nc_label(out, "karpenter.k8s.aws/instance-family"), "m5");
	ck_assert_str_eq(res(&out->status->capacity, "pods"), "29");
	ck_assert_str_eq(res(&out->status->allocatable, "memory"), "6903Mi");
	kp_nodeclaim_free(out);
	/* on-demand only */
	claim_req(&c, "karpenter.sh/capacity-type", od, 1);
	c.reqs[1] = c.reqs[2];
	c.spec.n_requirements = 2;
	ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &c.nc, &err), KP_OK);
	ck_assert_str_eq(nc_label(out, "karpenter.sh/capacity-type"), "on-demand");
	ck_assert_str_eq(out->status->provider_id, "aws:///test-zone-1a/i-00000000000000001");
	/* delete: gone at once */
	ck_assert_int_eq(kp_cloudprovider_delete(cp, out, &err), KP_ENOTFOUND);
	kp_nodeclaim_free(out);
	kp_nodeclaim **list = NULL;
	size_t n = 9;
	ck_assert_int_eq(kp_cloudprovider_list(&list, &n, cp, &err), KP_OK);
	ck_assert_uint_eq(n, 1);
	kp_nodeclaims_free(list, n);
	/* only a GPU type asked for: it is launched */
	static const char *gpu[] = { "g4dn.8xlarge" };
	c.reqs[0].values = gpu;
	c.reqs[0].n_values = 1;
	ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &c.nc, &err), KP_OK);
	ck_assert_str_eq(nc_label(out, "node.kubernetes.io/instance-type"), "g4dn.8xlarge");
	kp_nodeclaim_free(out);
	/* an unknown node class */
	c.ref.name = "other";
	ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &c.nc, &err), KP_EINSUFFICIENT);
	ck_assert_str_eq(err.message, "resolving node class, ec2nodeclasses.karpenter.k8s.aws "
				      "\"other\" not found");
	kp_cloudprovider_free(cp);
}
END_TEST

START_TEST(provider_spot_dearer_than_on_demand)
{
	/* m5.large's spot costs more than the cheapest on-demand offering:
	 * upstream's spot-offering filter drops it, so on-demand launches */
	const char *history =
		"{\"SpotPriceHistory\": ["
		"{\"AvailabilityZone\": \"test-zone-1a\", \"InstanceType\": \"m5.large\","
		" \"SpotPrice\": \"0.5\", \"Timestamp\": \"2024-01-01T00:00:00+00:00\"},"
		"{\"AvailabilityZone\": \"test-zone-1b\", \"InstanceType\": \"m5.large\","
		" \"SpotPrice\": \"0.5\", \"Timestamp\": \"2024-01-01T00:00:00+00:00\"}]}";
	kp_error err = { 0 };
	ck_assert_int_eq(kp_aws_catalog_load_spot_prices(cat, history, strlen(history), "s.json", &err),
			 KP_OK);
	build(NULL);
	kp_cloudprovider *cp = aws_provider();
	static const char *types[] = { "m5.large", "m5.xlarge" };
	static const char *both[] = { "on-demand", "spot" };
	static const char *spot_only[] = { "spot" };
	struct claim c;
	claim_init(&c, "default");
	claim_req(&c, "node.kubernetes.io/instance-type", types, 2);
	claim_req(&c, "karpenter.sh/capacity-type", both, 2);
	kp_nodeclaim *out = NULL;
	ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &c.nc, &err), KP_OK);
	ck_assert_str_eq(nc_label(out, "karpenter.sh/capacity-type"), "on-demand");
	ck_assert_str_eq(nc_label(out, "node.kubernetes.io/instance-type"), "m5.large");
	kp_nodeclaim_free(out);
	/* spot only: the filter does not apply */
	c.reqs[1].values = spot_only;
	c.reqs[1].n_values = 1;
	ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &c.nc, &err), KP_OK);
	ck_assert_str_eq(nc_label(out, "karpenter.sh/capacity-type"), "spot");
	kp_nodeclaim_free(out);
	kp_cloudprovider_free(cp);
}
END_TEST

START_TEST(provider_prefers_reserved)
{
	kp_aws_capacity_reservation cr = KP_AWS_CAPACITY_RESERVATION_INIT;
	cr.id = "cr-1";
	cr.instance_type = "m5.xlarge";
	cr.availability_zone = "test-zone-1b";
	cr.available_instance_count = 1;
	const kp_aws_capacity_reservation *crs[] = { &cr };
	kp_aws_instance_type_options o = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	o.capacity_reservations = crs;
	o.n_capacity_reservations = 1;
	build(&o);
	kp_cloudprovider *cp = aws_provider();
	static const char *types[] = { "m5.large", "m5.xlarge" };
	static const char *all[] = { "on-demand", "reserved", "spot" };
	struct claim c;
	claim_init(&c, "default");
	claim_req(&c, "node.kubernetes.io/instance-type", types, 2);
	claim_req(&c, "karpenter.sh/capacity-type", all, 3);
	kp_nodeclaim *out = NULL;
	kp_error err = { 0 };
	ck_assert_int_eq(kp_cloudprovider_create(&out, cp, &c.nc, &err), KP_OK);
	ck_assert_str_eq(nc_label(out, "karpenter.sh/capacity-type"), "reserved");
	ck_assert_str_eq(nc_label(out, "node.kubernetes.io/instance-type"), "m5.xlarge");
	ck_assert_str_eq(nc_label(out, "karpenter.k8s.aws/capacity-reservation-id"), "cr-1");
	ck_assert_str_eq(nc_label(out, "topology.kubernetes.io/zone"), "test-zone-1b");
	kp_nodeclaim_free(out);
	kp_cloudprovider_free(cp);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Documents                                                           */

START_TEST(describe_filter_and_errors)
{
	kp_aws_catalog *c = NULL;
	kp_error err = { 0 };
	ck_assert_int_eq(kp_aws_catalog_new(&c, NULL), KP_OK);
	const char *doc =
		"{\"InstanceTypes\": ["
		"{\"InstanceType\": \"x1.pv\", \"SupportedVirtualizationTypes\": [\"paravirtual\"],"
		" \"ProcessorInfo\": {\"SupportedArchitectures\": [\"x86_64\"]}},"
		"{\"InstanceType\": \"mac1.metal\", \"SupportedVirtualizationTypes\": [\"hvm\"],"
		" \"ProcessorInfo\": {\"SupportedArchitectures\": [\"x86_64_mac\"]}},"
		"{\"InstanceType\": \"z9.large\", \"SupportedVirtualizationTypes\": [\"hvm\"],"
		" \"SupportedUsageClasses\": [\"on-demand\"],"
		" \"ProcessorInfo\": {\"SupportedArchitectures\": [\"i386\", \"x86_64\"]},"
		" \"VCpuInfo\": {\"DefaultVCpus\": 2}, \"MemoryInfo\": {\"SizeInMiB\": 1024},"
		" \"NetworkInfo\": {\"Ipv4AddressesPerInterface\": 4, \"DefaultNetworkCardIndex\": 0,"
		" \"NetworkCards\": [{\"NetworkCardIndex\": 0, \"MaximumNetworkInterfaces\": 2}]}}"
		"]}";
	ck_assert_int_eq(kp_aws_catalog_load_instance_types(c, doc, strlen(doc), "d.json", &err), KP_OK);
	ck_assert_uint_eq(kp_aws_catalog_count(c), 1);
	ck_assert_str_eq(kp_aws_catalog_name_at(c, 0), "z9.large");
	const char *bad =
		"{\"InstanceTypes\": [{\"InstanceType\": \"y1.large\", \"SupportedVirtualizationTypes\":"
		" [\"hvm\"], \"ProcessorInfo\": {\"SupportedArchitectures\": [\"arm64\"]},"
		" \"VCpuInfo\": {\"DefaultVCpus\": \"two\"}}]}";
	ck_assert_int_eq(kp_aws_catalog_load_instance_types(c, bad, strlen(bad), "bad.json", &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "InstanceTypes[0].VCpuInfo.DefaultVCpus");
	ck_assert_str_eq(err.message, "bad.json: InstanceTypes[0].VCpuInfo.DefaultVCpus: missing or "
				      "not a count");
	ck_assert_uint_eq(kp_aws_catalog_count(c), 1);
	ck_assert_int_eq(kp_aws_catalog_load_instance_types(c, "{", strlen("{"), "x.json", &err), KP_EPARSE);
	const char *empty_offering = "{\"InstanceTypeOfferings\": [{}]}";
	ck_assert_int_eq(kp_aws_catalog_load_offerings(c, empty_offering, strlen(empty_offering),
						       "o.json", &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "InstanceTypeOfferings[0]");
	/* a price the core refuses (over 1e6 per hour): the message names the type */
	const char *gpu =
		"{\"InstanceTypes\": [{\"InstanceType\": \"g9.large\", \"SupportedVirtualizationTypes\": [\"hvm\"],"
		" \"SupportedUsageClasses\": [\"on-demand\"],"
		" \"ProcessorInfo\": {\"SupportedArchitectures\": [\"x86_64\"]},"
		" \"VCpuInfo\": {\"DefaultVCpus\": 2}, \"MemoryInfo\": {\"SizeInMiB\": 1024},"
		" \"GpuInfo\": {\"Gpus\": [{\"Name\": \"T4 (rev 2)\", \"Manufacturer\": \"NVIDIA\", \"Count\": 1}]},"
		" \"NetworkInfo\": {\"Ipv4AddressesPerInterface\": 4, \"DefaultNetworkCardIndex\": 0,"
		" \"NetworkCards\": [{\"NetworkCardIndex\": 0, \"MaximumNetworkInterfaces\": 2}]}}]}";
	kp_aws_catalog *g = NULL;
	ck_assert_int_eq(kp_aws_catalog_new(&g, NULL), KP_OK);
	ck_assert_int_eq(kp_aws_catalog_load_instance_types(g, gpu, strlen(gpu), "g.json", &err), KP_OK);
	/* documents are read to their length: what follows is not read */
	const char *offers = "{\"InstanceTypeOfferings\": [{\"InstanceType\": \"g9.large\","
			     " \"Location\": \"z1\"}]}{not read";
	ck_assert_int_eq(kp_aws_catalog_load_offerings(g, offers, strlen(offers) - 9, "o.json", &err),
			 KP_OK);
	const char *prices = "{\"us-east-1\": {\"g9.large\": 5000000}}";
	ck_assert_int_eq(kp_aws_catalog_load_on_demand_prices(g, prices, strlen(prices), "p.json", &err),
			 KP_OK);
	kp_instance_types *gx = NULL;
	ck_assert_int_eq(kp_aws_instance_types_build(&gx, g, NULL, &err), KP_EINVAL);
	ck_assert_ptr_null(gx);
	ck_assert_msg(strncmp(err.message, "g9.large: ", 10) == 0, "%s", err.message);
	kp_aws_catalog_free(g);
	/* no offerings document: no zone, no offering */
	kp_instance_types *x = NULL;
	ck_assert_int_eq(kp_aws_instance_types_build(&x, c, NULL, &err), KP_OK);
	ck_assert_uint_eq(kp_instance_types_at(x, 0)->n_offerings, 0);
	kp_instance_types_free(x);
	kp_aws_catalog_free(c);
}
END_TEST

START_TEST(options_from_ec2nodeclass)
{
	kp_aws_selector_term term = { .struct_size = sizeof(term) };
	term.alias = "bottlerocket@latest";
	kp_aws_selector_term *terms[] = { &term };
	kp_aws_kubelet kubelet = { .struct_size = sizeof(kubelet) };
	kubelet.has_max_pods = 1;
	kubelet.max_pods = 42;
	kp_aws_ec2nodeclass_spec spec = { .struct_size = sizeof(spec) };
	spec.ami_selector_terms = terms;
	spec.n_ami_selector_terms = 1;
	spec.kubelet = &kubelet;
	spec.instance_store_policy = "RAID0";
	kp_aws_ec2nodeclass nc = { .struct_size = sizeof(nc) };
	nc.spec = &spec;
	kp_aws_instance_type_options o = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	ck_assert_int_eq(kp_aws_instance_type_options_from_ec2nodeclass(&o, &nc, NULL), KP_OK);
	ck_assert_str_eq(o.ami_family, "Bottlerocket");
	ck_assert_int_eq(o.max_pods, 42);
	build(&o);
	ck_assert_int_eq(pods_of("m5.large"), 42);
	ck_assert_str_eq(res(type("m6idn.32xlarge")->capacity, "ephemeral-storage"), "7600G");
	/* spec.amiFamily wins; without either, Custom */
	spec.ami_family = "AL2023";
	ck_assert_int_eq(kp_aws_instance_type_options_from_ec2nodeclass(&o, &nc, NULL), KP_OK);
	ck_assert_str_eq(o.ami_family, "AL2023");
	spec.ami_family = NULL;
	spec.n_ami_selector_terms = 0;
	ck_assert_int_eq(kp_aws_instance_type_options_from_ec2nodeclass(&o, &nc, NULL), KP_OK);
	ck_assert_str_eq(o.ami_family, "Custom");
}
END_TEST

static Suite *instancetypes_suite(void)
{
	Suite *s = suite_create("aws-instancetypes");
	TCase *tc = tcase_create("pods");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, pods_default_eni_limited);
	tcase_add_test(tc, pods_max_pods_everywhere);
	tcase_add_loop_test(tc, pods_and_kube_reserved_per_family, 0,
			    (int)(sizeof(family_cases) / sizeof(family_cases[0])));
	tcase_add_test(tc, pods_reserved_enis_reach_zero);
	tcase_add_test(tc, pods_per_core);
	tcase_add_test(tc, pods_efa_only_interfaces);
	suite_add_tcase(s, tc);

	tc = tcase_create("overhead");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, allocatable_within_kubelet, 0,
			    (int)(sizeof(measured) / sizeof(measured[0])));
	tcase_add_test(tc, memory_overhead_option);
	tcase_add_test(tc, kube_reserved_default_and_override);
	tcase_add_test(tc, kubelet_json_map);
	tcase_add_loop_test(tc, eviction_thresholds, 0,
			    (int)(sizeof(eviction_cases) / sizeof(eviction_cases[0])));
	tcase_add_test(tc, eviction_default);
	suite_add_tcase(s, tc);

	tc = tcase_create("capacity");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, ephemeral_storage_block_devices);
	tcase_add_test(tc, ephemeral_storage_raid0);
	tcase_add_loop_test(tc, extended_resources, 0, (int)(sizeof(extended) / sizeof(extended[0])));
	tcase_add_test(tc, windows);
	tcase_add_loop_test(tc, labels, 0, (int)(sizeof(label_cases) / sizeof(label_cases[0])));
	tcase_add_loop_test(tc, g4dn_upstream_labels, 0,
			    (int)(sizeof(g4dn_labels) / sizeof(g4dn_labels[0])));
	suite_add_tcase(s, tc);

	tc = tcase_create("offerings");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, offerings_zones_and_prices);
	tcase_add_test(tc, prices_region_fallback);
	tcase_add_test(tc, spot_prices_zonal_after_update);
	tcase_add_test(tc, unavailable_offerings_cache);
	tcase_add_test(tc, incompatible_with_node_class);
	tcase_add_test(tc, capacity_reservations);
	tcase_add_test(tc, launch_filter);
	tcase_add_test(tc, provider_create);
	tcase_add_test(tc, provider_prefers_reserved);
	tcase_add_test(tc, provider_spot_dearer_than_on_demand);
	suite_add_tcase(s, tc);

	tc = tcase_create("documents");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, describe_filter_and_errors);
	tcase_add_test(tc, options_from_ec2nodeclass);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	kp_test_require_data(TYPES);
	kp_test_require_data(OFFERINGS);
	kp_test_require_data(LIMITS);
	kp_test_require_data(BANDWIDTH);
	kp_test_require_data(PRICES);
	Suite *suites[] = { instancetypes_suite() };
	return kp_test_run(suites, 1);
}
