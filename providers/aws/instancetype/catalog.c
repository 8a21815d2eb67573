/*
 * libkarpenter-aws: the instance-type catalogue, read from the AWS CLI's
 * JSON documents (DescribeInstanceTypes, DescribeInstanceTypeOfferings) and
 * from upstream's VPC-limit and bandwidth tables.
 *
 * Each load parses into fresh arrays and swaps them in only when the whole
 * document was read, so a failed load leaves the catalogue unchanged.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../aws_private.h"
#include "instancetype.h"


int kp_aws__strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* bsearch: a name against an element whose first member is its name. */
int kp_aws__name_vs_elem(const void *key, const void *elem)
{
	return strcmp((const char *)key, *(const char *const *)elem);
}

static const char *src_name(const char *source)
{
	return source && *source ? source : "<input>";
}

/* A field path "Base[i].Member" for messages; fits kp_error's field. */
struct path {
	char s[160];
};

static const char *path_at(struct path *p, const char *base, size_t i, const char *member)
{
	snprintf(p->s, sizeof(p->s), "%s[%zu]%s%s", base, i, member && *member ? "." : "",
		 member ? member : "");
	return p->s;
}

int kp_aws__parse_doc(cJSON **out, const char *json, size_t len, const char *source,
		      kp_error *err)
{
	if (!json)
		return kp_aws__error(err, KP_EINVAL, NULL, "%s: no document", src_name(source));
	cJSON *doc = cJSON_ParseWithLength(json, len);
	if (!doc)
		return kp_aws__error(err, KP_EPARSE, NULL, "%s: not a JSON document", src_name(source));
	*out = doc;
	return KP_OK;
}

/* An integer member: a JSON number with an integral value. */
static int get_int(const cJSON *obj, const char *name, int64_t *out, int *present)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
	*present = 0;
	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsNumber(v))
		return -1;
	double d = v->valuedouble;
	if (d != d || d < -9.2e18 || d > 9.2e18 || (double)(int64_t)d != d)
		return -1;
	*out = (int64_t)d;
	*present = 1;
	return 0;
}

static int get_str(const cJSON *obj, const char *name, const char **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
	*out = NULL;
	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsString(v))
		return -1;
	*out = v->valuestring;
	return 0;
}

static int get_bool(const cJSON *obj, const char *name, int *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
	*out = 0;
	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsBool(v))
		return -1;
	*out = cJSON_IsTrue(v);
	return 0;
}

static int str_in_array(const cJSON *arr, const char *s)
{
	const cJSON *e;
	cJSON_ArrayForEach(e, arr) {
		if (cJSON_IsString(e) && strcmp(e->valuestring, s) == 0)
			return 1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Lifetime                                                            */

static void device_free(struct kp_aws_device *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(d[i].name);
		free(d[i].manufacturer);
	}
	free(d);
}

static void strv_free(char **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void type_info_dispose(struct kp_aws_type_info *t)
{
	free(t->name);
	strv_free(t->usage_classes, t->n_usage_classes);
	free(t->hypervisor);
	free(t->arch);
	free(t->cpu_manufacturer);
	device_free(t->gpus, t->n_gpus);
	device_free(t->accelerators, t->n_accelerators);
	device_free(t->neurons, t->n_neurons);
	free(t->nvme_support);
	free(t->ena_support);
	free(t->cards);
	strv_free(t->zones, t->n_zones);
	memset(t, 0, sizeof(*t));
}

static void types_free(struct kp_aws_type_info *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		type_info_dispose(&t[i]);
	free(t);
}

static void named_free(struct kp_aws_named_value *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

KP_EXPORT int kp_aws_catalog_new(kp_aws_catalog **out, kp_error *err)
{
	if (!out)
		return kp_aws__error(err, KP_EINVAL, NULL, "kp_aws_catalog_new: out is NULL");
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
	return KP_OK;
}

KP_EXPORT void kp_aws_catalog_free(kp_aws_catalog *cat)
{
	if (!cat)
		return;
	types_free(cat->types, cat->n_types);
	strv_free(cat->all_zones, cat->n_all_zones);
	for (size_t i = 0; i < cat->n_limits; i++)
		free(cat->limits[i].name);
	free(cat->limits);
	named_free(cat->bandwidth, cat->n_bandwidth);
	for (size_t i = 0; i < cat->n_tables; i++) {
		free(cat->tables[i].region);
		named_free(cat->tables[i].prices, cat->tables[i].n);
	}
	free(cat->tables);
	for (size_t i = 0; i < cat->n_spot; i++) {
		free(cat->spot[i].instance_type);
		free(cat->spot[i].zone);
	}
	free(cat->spot);
	free(cat);
}

KP_EXPORT size_t kp_aws_catalog_count(const kp_aws_catalog *cat)
{
	return cat ? cat->n_types : 0;
}

KP_EXPORT const char *kp_aws_catalog_name_at(const kp_aws_catalog *cat, size_t index)
{
	return cat && index < cat->n_types ? cat->types[index].name : NULL;
}

static int type_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kp_aws_type_info *)a)->name,
		      ((const struct kp_aws_type_info *)b)->name);
}

const struct kp_aws_type_info *kp_aws__catalog_find(const kp_aws_catalog *cat, const char *name)
{
	return cat->n_types ? bsearch(name, cat->types, cat->n_types, sizeof(*cat->types),
				      kp_aws__name_vs_elem) : NULL;
}

static int limits_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kp_aws_limits *)a)->name, ((const struct kp_aws_limits *)b)->name);
}

const struct kp_aws_limits *kp_aws__limits_find(const kp_aws_catalog *cat, const char *name)
{
	return cat->n_limits ? bsearch(name, cat->limits, cat->n_limits, sizeof(*cat->limits),
				       kp_aws__name_vs_elem) : NULL;
}

static int named_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kp_aws_named_value *)a)->name,
		      ((const struct kp_aws_named_value *)b)->name);
}

int kp_aws__bandwidth_find(const kp_aws_catalog *cat, const char *name, int64_t *out)
{
	const struct kp_aws_named_value *v = cat->n_bandwidth
		? bsearch(name, cat->bandwidth, cat->n_bandwidth, sizeof(*v), kp_aws__name_vs_elem)
		: NULL;
	if (!v)
		return 0;
	*out = (int64_t)v->value;
	return 1;
}

/* ------------------------------------------------------------------ */
/* DescribeInstanceTypes                                               */

#define BAD(member, what) \
	do { \
		rc = kp_aws__error(err, KP_EINVAL, path_at(&p, "InstanceTypes", idx, member), \
				   "%s: InstanceTypes[%zu].%s: %s", src_name(source), idx, member, \
				   what); \
		goto fail; \
	} while (0)

static int read_devices(const cJSON *parent, const char *arr_name, int kind,
			struct kp_aws_device **out, size_t *n_out, int *present)
{
	/* kind 0: GPUs (MemoryInfo.SizeInMiB), 1: accelerators, 2: neuron (CoreInfo.Count) */
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(parent, arr_name);
	*out = NULL;
	*n_out = 0;
	if (present)
		*present = parent != NULL;
	if (!arr || cJSON_IsNull(arr))
		return 0;
	if (!cJSON_IsArray(arr))
		return -1;
	size_t n = (size_t)cJSON_GetArraySize(arr);
	if (!n)
		return 0;
	struct kp_aws_device *d = calloc(n, sizeof(*d));
	if (!d)
		return -2;
	size_t i = 0;
	const cJSON *e;
	cJSON_ArrayForEach(e, arr) {
		const char *name, *manu;
		int has;
		if (!cJSON_IsObject(e) || get_str(e, "Name", &name) || get_str(e, "Manufacturer", &manu) ||
		    get_int(e, "Count", &d[i].count, &has)) {
			device_free(d, n);
			return -1;
		}
		if (kind == 0) {
			const cJSON *mi = cJSON_GetObjectItemCaseSensitive(e, "MemoryInfo");
			if (mi && get_int(mi, "SizeInMiB", &d[i].memory_mib, &has)) {
				device_free(d, n);
				return -1;
			}
		} else if (kind == 2) {
			const cJSON *ci = cJSON_GetObjectItemCaseSensitive(e, "CoreInfo");
			if (ci && get_int(ci, "Count", &d[i].core_count, &has)) {
				device_free(d, n);
				return -1;
			}
		}
		d[i].name = kp_aws__strdup(name ? name : "");
		d[i].manufacturer = kp_aws__strdup(manu ? manu : "");
		if (!d[i].name || !d[i].manufacturer) {
			device_free(d, n);
			return -2;
		}
		i++;
	}
	*out = d;
	*n_out = n;
	return 0;
}

/* Each part of an InstanceTypeInfo: 0, or a negative status (err set). */
#define PART(name) \
	static int name(struct kp_aws_type_info *t, const cJSON *o, size_t idx, const char *source, \
			kp_error *err)
#define PART_END \
	return 0; \
nomem: \
	rc = kp_aws__error(err, KP_ENOMEM, NULL, "out of memory"); \
fail: \
	return rc

PART(read_usage)
{
	struct path p;
	int rc = KP_OK;
	const char *s;
	const cJSON *uc = cJSON_GetObjectItemCaseSensitive(o, "SupportedUsageClasses");
	if (uc && !cJSON_IsArray(uc))
		BAD("SupportedUsageClasses", "not an array");
	if (uc && cJSON_GetArraySize(uc) > 0) {
		size_t n = (size_t)cJSON_GetArraySize(uc);
		if (!(t->usage_classes = calloc(n, sizeof(char *))))
			goto nomem;
		const cJSON *e;
		cJSON_ArrayForEach(e, uc) {
			if (!cJSON_IsString(e))
				BAD("SupportedUsageClasses", "not an array of strings");
			if (!(t->usage_classes[t->n_usage_classes++] = kp_aws__strdup(e->valuestring)))
				goto nomem;
		}
	}
	if (get_str(o, "Hypervisor", &s))
		BAD("Hypervisor", "not a string");
	if (!(t->hypervisor = kp_aws__strdup(s ? s : "")))
		goto nomem;
	if (get_str(o, "NitroEnclavesSupport", &s))
		BAD("NitroEnclavesSupport", "not a string");
	t->nitro_enclaves = s && strcmp(s, "supported") == 0;
	PART_END;
}

/* Architecture: the first recognized one, as upstream getArchitecture. */
PART(read_processor)
{
	struct path p;
	int rc = KP_OK;
	const char *s, *first = NULL;
	const cJSON *proc = cJSON_GetObjectItemCaseSensitive(o, "ProcessorInfo");
	const cJSON *archs = cJSON_GetObjectItemCaseSensitive(proc, "SupportedArchitectures");
	const cJSON *e;
	cJSON_ArrayForEach(e, archs) {
		if (!cJSON_IsString(e))
			BAD("ProcessorInfo.SupportedArchitectures", "not an array of strings");
		if (!first)
			first = e->valuestring;
		const char *kube = strcmp(e->valuestring, "x86_64") == 0 ? "amd64"
				 : strcmp(e->valuestring, "arm64") == 0 ? "arm64" : NULL;
		if (!t->arch && kube && !(t->arch = kp_aws__strdup(kube)))
			goto nomem;
	}
	t->first_arch_is_arm64 = first && strcmp(first, "arm64") == 0;
	t->has_processor = 1;
	if (get_str(proc, "Manufacturer", &s))
		BAD("ProcessorInfo.Manufacturer", "not a string");
	if (!(t->cpu_manufacturer = kp_aws__strdup(s ? s : "")))
		goto nomem;
	const cJSON *clk = cJSON_GetObjectItemCaseSensitive(proc, "SustainedClockSpeedInGhz");
	if (clk && !cJSON_IsNull(clk)) {
		if (!cJSON_IsNumber(clk))
			BAD("ProcessorInfo.SustainedClockSpeedInGhz", "not a number");
		t->clock_ghz = clk->valuedouble;
	}
	const cJSON *feat = cJSON_GetObjectItemCaseSensitive(proc, "SupportedFeatures");
	t->nested_virtualization = feat && str_in_array(feat, "nested-virtualization");
	PART_END;
}

PART(read_sizes)
{
	struct path p;
	int rc = KP_OK, has;
	const char *s;
	const cJSON *vcpu = cJSON_GetObjectItemCaseSensitive(o, "VCpuInfo");
	if (!vcpu || get_int(vcpu, "DefaultVCpus", &t->vcpus, &has) || !has || t->vcpus < 0 ||
	    t->vcpus > 1000000)
		BAD("VCpuInfo.DefaultVCpus", "missing or not a count");
	const cJSON *mem = cJSON_GetObjectItemCaseSensitive(o, "MemoryInfo");
	if (!mem || get_int(mem, "SizeInMiB", &t->memory_mib, &has) || !has || t->memory_mib < 0 ||
	    t->memory_mib > ((int64_t)1 << 40))
		BAD("MemoryInfo.SizeInMiB", "missing or not a size");
	const cJSON *ebs = cJSON_GetObjectItemCaseSensitive(o, "EbsInfo");
	if (ebs) {
		const cJSON *opt = cJSON_GetObjectItemCaseSensitive(ebs, "EbsOptimizedInfo");
		if (get_str(ebs, "EbsOptimizedSupport", &s))
			BAD("EbsInfo.EbsOptimizedSupport", "not a string");
		if (opt && s && strcmp(s, "default") == 0) {
			if (get_int(opt, "MaximumBandwidthInMbps", &t->ebs_bandwidth_mbps, &has))
				BAD("EbsInfo.EbsOptimizedInfo.MaximumBandwidthInMbps", "not an integer");
			t->has_ebs_bandwidth = 1;
		}
	}
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(o, "InstanceStorageInfo");
	if (st && !cJSON_IsNull(st)) {
		t->has_instance_storage = 1;
		if (get_int(st, "TotalSizeInGB", &t->storage_total_gb, &t->has_storage_total) ||
		    t->storage_total_gb < 0)
			BAD("InstanceStorageInfo.TotalSizeInGB", "not a size");
		if (get_str(st, "NvmeSupport", &s))
			BAD("InstanceStorageInfo.NvmeSupport", "not a string");
		if (!(t->nvme_support = kp_aws__strdup(s ? s : "")))
			goto nomem;
	}
	PART_END;
}

PART(read_accelerators)
{
	struct path p;
	int rc = KP_OK;
	int r = read_devices(cJSON_GetObjectItemCaseSensitive(o, "GpuInfo"), "Gpus", 0, &t->gpus,
			     &t->n_gpus, NULL);
	if (r == -1)
		BAD("GpuInfo.Gpus", "not an array of GPUs");
	if (r == -2)
		goto nomem;
	r = read_devices(cJSON_GetObjectItemCaseSensitive(o, "InferenceAcceleratorInfo"),
			 "Accelerators", 1, &t->accelerators, &t->n_accelerators, NULL);
	if (r == -1)
		BAD("InferenceAcceleratorInfo.Accelerators", "not an array of accelerators");
	if (r == -2)
		goto nomem;
	const cJSON *neuron = cJSON_GetObjectItemCaseSensitive(o, "NeuronInfo");
	r = read_devices(neuron, "NeuronDevices", 2, &t->neurons, &t->n_neurons, &t->has_neuron);
	if (r == -1)
		BAD("NeuronInfo.NeuronDevices", "not an array of devices");
	if (r == -2)
		goto nomem;
	if (t->has_neuron && !t->n_neurons)
		BAD("NeuronInfo.NeuronDevices", "empty (upstream reads the first device)");
	PART_END;
}

PART(read_network)
{
	struct path p;
	int rc = KP_OK, has;
	const char *s;
	const cJSON *net = cJSON_GetObjectItemCaseSensitive(o, "NetworkInfo");
	if (!net || !cJSON_IsObject(net))
		BAD("NetworkInfo", "missing (upstream reads its network cards)");
	t->has_network = 1;
	if (get_bool(net, "EncryptionInTransitSupported", &t->encryption_in_transit))
		BAD("NetworkInfo.EncryptionInTransitSupported", "not a boolean");
	if (get_str(net, "EnaSupport", &s))
		BAD("NetworkInfo.EnaSupport", "not a string");
	if (!(t->ena_support = kp_aws__strdup(s ? s : "")))
		goto nomem;
	if (get_int(net, "Ipv4AddressesPerInterface", &t->ipv4_per_interface,
		    &t->has_ipv4_per_interface) || t->ipv4_per_interface < 0)
		BAD("NetworkInfo.Ipv4AddressesPerInterface", "not a count");
	if (get_int(net, "DefaultNetworkCardIndex", &t->default_card_index, &t->has_default_card) ||
	    t->default_card_index < 0)
		BAD("NetworkInfo.DefaultNetworkCardIndex", "not an index");
	const cJSON *cards = cJSON_GetObjectItemCaseSensitive(net, "NetworkCards");
	if (cards && !cJSON_IsArray(cards))
		BAD("NetworkInfo.NetworkCards", "not an array");
	if (cards && cJSON_GetArraySize(cards) > 0) {
		size_t n = (size_t)cJSON_GetArraySize(cards);
		if (!(t->cards = calloc(n, sizeof(*t->cards))))
			goto nomem;
		const cJSON *e;
		cJSON_ArrayForEach(e, cards) {
			struct kp_aws_network_card *c = &t->cards[t->n_cards++];
			if (!cJSON_IsObject(e) || get_int(e, "NetworkCardIndex", &c->index, &has) ||
			    get_int(e, "MaximumNetworkInterfaces", &c->max_interfaces, &has) ||
			    c->max_interfaces < 0)
				BAD("NetworkInfo.NetworkCards", "not an array of network cards");
		}
	}
	if (!t->has_default_card || (size_t)t->default_card_index >= t->n_cards ||
	    !t->has_ipv4_per_interface)
		BAD("NetworkInfo", "needs DefaultNetworkCardIndex naming one of NetworkCards, and "
				   "Ipv4AddressesPerInterface (upstream's ENI-limited pods read them)");
	const cJSON *efa = cJSON_GetObjectItemCaseSensitive(net, "EfaInfo");
	if (efa && !cJSON_IsNull(efa) &&
	    (get_int(efa, "MaximumEfaInterfaces", &t->max_efa, &t->has_max_efa) || t->max_efa < 0))
		BAD("NetworkInfo.EfaInfo.MaximumEfaInterfaces", "not a count");
	PART_END;
}

/* Fills @p t from one InstanceTypeInfo; 1 = filtered out (not hvm or no
 * supported architecture), 0 = kept, negative = error (err set). */
static int read_type(struct kp_aws_type_info *t, const cJSON *o, size_t idx, const char *source,
		     kp_error *err)
{
	struct path p;
	int rc = KP_OK;
	const char *s;
	if (!cJSON_IsObject(o))
		BAD("", "not an object");
	if (get_str(o, "InstanceType", &s) || !s || !*s)
		BAD("InstanceType", "missing or not a string");
	const cJSON *virt = cJSON_GetObjectItemCaseSensitive(o, "SupportedVirtualizationTypes");
	const cJSON *proc = cJSON_GetObjectItemCaseSensitive(o, "ProcessorInfo");
	const cJSON *archs = proc ? cJSON_GetObjectItemCaseSensitive(proc, "SupportedArchitectures") : NULL;
	/* Upstream's DescribeInstanceTypes filter: hvm, x86_64 or arm64. */
	if (!virt || !str_in_array(virt, "hvm") || !archs ||
	    !(str_in_array(archs, "x86_64") || str_in_array(archs, "arm64")))
		return 1;
	if (!(t->name = kp_aws__strdup(s)))
		return kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
	static int (*const parts[])(struct kp_aws_type_info *, const cJSON *, size_t, const char *,
				    kp_error *) = { read_usage, read_processor, read_sizes,
						    read_accelerators, read_network };
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if ((rc = parts[i](t, o, idx, source, err)))
			return rc;
	return 0;
fail:
	return rc;
}
#undef PART
#undef PART_END
#undef BAD

KP_EXPORT int kp_aws_catalog_load_instance_types(kp_aws_catalog *cat, const char *json, size_t len,
						 const char *source, kp_error *err)
{
	if (!cat)
		return kp_aws__error(err, KP_EINVAL, NULL, "kp_aws_catalog_load_instance_types: NULL catalogue");
	cJSON *doc = NULL;
	int rc = kp_aws__parse_doc(&doc, json, len, source, err);
	if (rc)
		return rc;
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(doc, "InstanceTypes");
	if (!cJSON_IsArray(arr)) {
		cJSON_Delete(doc);
		return kp_aws__error(err, KP_EINVAL, "InstanceTypes",
				     "%s: InstanceTypes: missing or not an array (expected the "
				     "output of aws ec2 describe-instance-types)", src_name(source));
	}
	size_t n_new = (size_t)cJSON_GetArraySize(arr);
	size_t cap = cat->n_types + n_new;
	struct kp_aws_type_info *all = calloc(cap ? cap : 1, sizeof(*all));
	if (!all) {
		cJSON_Delete(doc);
		return kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	size_t n = 0, idx = 0;
	const cJSON *o;
	cJSON_ArrayForEach(o, arr) {
		int r = read_type(&all[n], o, idx++, source, err);
		if (r < 0) {
			types_free(all, n + 1);
			cJSON_Delete(doc);
			return r;
		}
		if (r == 0)
			n++;
		else
			type_info_dispose(&all[n]);
	}
	cJSON_Delete(doc);
	/* Old types not described again; a type given twice keeps its last
	 * description: stable sort new ones, drop earlier duplicates. */
	qsort(all, n, sizeof(*all), type_cmp); /* ties: order does not matter after dedupe below */
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m && strcmp(all[m - 1].name, all[i].name) == 0) {
			type_info_dispose(&all[m - 1]);
			all[m - 1] = all[i];
		} else {
			all[m++] = all[i];
		}
	}
	n = m;
	for (size_t i = 0; i < cat->n_types; i++) {
		struct kp_aws_type_info *dup =
			n ? bsearch(cat->types[i].name, all, n, sizeof(*all), kp_aws__name_vs_elem) : NULL;
		if (dup) {
			/* keep the zones already loaded */
			dup->zones = cat->types[i].zones;
			dup->n_zones = cat->types[i].n_zones;
			cat->types[i].zones = NULL;
			cat->types[i].n_zones = 0;
			type_info_dispose(&cat->types[i]);
		} else {
			all[n++] = cat->types[i];
		}
	}
	free(cat->types);
	qsort(all, n, sizeof(*all), type_cmp);
	cat->types = all;
	cat->n_types = n;
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* DescribeInstanceTypeOfferings                                       */

struct pair {
	const char *type;
	const char *zone;
};

static int pair_cmp(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	int c = strcmp(x->type, y->type);
	return c ? c : strcmp(x->zone, y->zone);
}

KP_EXPORT int kp_aws_catalog_load_offerings(kp_aws_catalog *cat, const char *json, size_t len,
					    const char *source, kp_error *err)
{
	if (!cat)
		return kp_aws__error(err, KP_EINVAL, NULL, "kp_aws_catalog_load_offerings: NULL catalogue");
	cJSON *doc = NULL;
	int rc = kp_aws__parse_doc(&doc, json, len, source, err);
	if (rc)
		return rc;
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(doc, "InstanceTypeOfferings");
	if (!cJSON_IsArray(arr)) {
		cJSON_Delete(doc);
		return kp_aws__error(err, KP_EINVAL, "InstanceTypeOfferings",
				     "%s: InstanceTypeOfferings: missing or not an array (expected the "
				     "output of aws ec2 describe-instance-type-offerings "
				     "--location-type availability-zone)", src_name(source));
	}
	size_t n = (size_t)cJSON_GetArraySize(arr), k = 0;
	struct pair *pairs = calloc(n ? n : 1, sizeof(*pairs));
	char ***zones = calloc(cat->n_types ? cat->n_types : 1, sizeof(*zones));
	size_t *n_zones = calloc(cat->n_types ? cat->n_types : 1, sizeof(*n_zones));
	const char **all = calloc(n ? n : 1, sizeof(*all));
	size_t n_all = 0;
	struct path p;
	if (!pairs || !zones || !n_zones || !all)
		goto nomem;
	const cJSON *o;
	cJSON_ArrayForEach(o, arr) {
		const char *t, *z;
		if (!cJSON_IsObject(o) || get_str(o, "InstanceType", &t) || !t ||
		    get_str(o, "Location", &z) || !z || !*z) {
			rc = kp_aws__error(err, KP_EINVAL, path_at(&p, "InstanceTypeOfferings", k, NULL),
					   "%s: InstanceTypeOfferings[%zu]: needs InstanceType and "
					   "Location strings", src_name(source), k);
			goto out;
		}
		pairs[k].type = t;
		pairs[k++].zone = z;
	}
	qsort(pairs, k, sizeof(*pairs), pair_cmp);
	for (size_t i = 0; i < k; i++) {
		if (i && pair_cmp(&pairs[i - 1], &pairs[i]) == 0)
			continue;
		all[n_all++] = pairs[i].zone;
		const struct kp_aws_type_info *ti = kp_aws__catalog_find(cat, pairs[i].type);
		if (!ti)
			continue;
		size_t ti_idx = (size_t)(ti - cat->types);
		char **v = realloc(zones[ti_idx], (n_zones[ti_idx] + 1) * sizeof(char *));
		if (!v)
			goto nomem;
		zones[ti_idx] = v;
		if (!(v[n_zones[ti_idx]] = kp_aws__strdup(pairs[i].zone)))
			goto nomem;
		n_zones[ti_idx]++;
	}
	/* Every zone of the region (upstream allZones): distinct, sorted. */
	qsort(all, n_all, sizeof(*all), kp_aws__strcmp_ptr);
	size_t m = 0;
	for (size_t i = 0; i < n_all; i++) {
		if (m && strcmp(all[m - 1], all[i]) == 0)
			continue;
		all[m++] = all[i];
	}
	char **copy = calloc(m ? m : 1, sizeof(*copy));
	if (!copy)
		goto nomem;
	for (size_t i = 0; i < m; i++) {
		if (!(copy[i] = kp_aws__strdup(all[i]))) {
			strv_free(copy, i);
			goto nomem;
		}
	}
	for (size_t i = 0; i < cat->n_types; i++) {
		strv_free(cat->types[i].zones, cat->types[i].n_zones);
		cat->types[i].zones = zones[i];
		cat->types[i].n_zones = n_zones[i];
		zones[i] = NULL;
	}
	strv_free(cat->all_zones, cat->n_all_zones);
	cat->all_zones = copy;
	cat->n_all_zones = m;
	cat->have_offerings = 1;
	rc = KP_OK;
	goto out;
nomem:
	rc = kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
out:
	if (zones)
		for (size_t i = 0; i < cat->n_types; i++)
			strv_free(zones[i], n_zones ? n_zones[i] : 0);
	free(zones);
	free(n_zones);
	free((void *)all);
	free(pairs);
	cJSON_Delete(doc);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Upstream's tables: VPC limits, bandwidth                            */

KP_EXPORT int kp_aws_catalog_load_vpc_limits(kp_aws_catalog *cat, const char *json, size_t len,
					     const char *source, kp_error *err)
{
	if (!cat)
		return kp_aws__error(err, KP_EINVAL, NULL, "kp_aws_catalog_load_vpc_limits: NULL catalogue");
	cJSON *doc = NULL;
	int rc = kp_aws__parse_doc(&doc, json, len, source, err);
	if (rc)
		return rc;
	if (!cJSON_IsObject(doc)) {
		cJSON_Delete(doc);
		return kp_aws__error(err, KP_EINVAL, NULL, "%s: not an object of instance types",
				     src_name(source));
	}
	size_t n = (size_t)cJSON_GetArraySize(doc), k = 0;
	struct kp_aws_limits *l = calloc(n ? n : 1, sizeof(*l));
	if (!l) {
		cJSON_Delete(doc);
		return kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	const cJSON *o;
	cJSON_ArrayForEach(o, doc) {
		int has = 0, has2 = 0;
		if (!cJSON_IsObject(o) || get_int(o, "IPv4PerInterface", &l[k].ipv4_per_interface, &has) ||
		    get_bool(o, "IsTrunkingCompatible", &l[k].trunking) ||
		    get_int(o, "BranchInterface", &l[k].branch_interfaces, &has2) || !has) {
			rc = kp_aws__error(err, KP_EINVAL, o->string, "%s: %s: needs the integer "
					   "IPv4PerInterface and BranchInterface and the boolean "
					   "IsTrunkingCompatible", src_name(source), o->string);
			break;
		}
		if (!(l[k].name = kp_aws__strdup(o->string))) {
			rc = kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
			break;
		}
		k++;
	}
	cJSON_Delete(doc);
	if (rc) {
		for (size_t i = 0; i < k; i++)
			free(l[i].name);
		free(l);
		return rc;
	}
	qsort(l, k, sizeof(*l), limits_cmp);
	for (size_t i = 0; i < cat->n_limits; i++)
		free(cat->limits[i].name);
	free(cat->limits);
	cat->limits = l;
	cat->n_limits = k;
	return KP_OK;
}

int kp_aws__read_number_map(struct kp_aws_named_value **out, size_t *n_out, const cJSON *obj,
			    const char *source, const char *where, kp_error *err)
{
	if (!cJSON_IsObject(obj))
		return kp_aws__error(err, KP_EINVAL, where, "%s: %s: not an object", src_name(source),
				     where ? where : "document");
	size_t n = (size_t)cJSON_GetArraySize(obj), k = 0;
	struct kp_aws_named_value *v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		return kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
	const cJSON *e;
	cJSON_ArrayForEach(e, obj) {
		if (!cJSON_IsNumber(e) || !(e->valuedouble >= 0 && e->valuedouble <= 1e9)) {
			int rc = kp_aws__error(err, KP_EINVAL, e->string, "%s: %s%s%s: not a number "
					       "from 0 to 1e9", src_name(source), where ? where : "",
					       where ? "." : "", e->string);
			named_free(v, k);
			return rc;
		}
		v[k].value = e->valuedouble;
		if (!(v[k].name = kp_aws__strdup(e->string))) {
			named_free(v, k);
			return kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
		}
		k++;
	}
	qsort(v, k, sizeof(*v), named_cmp);
	*out = v;
	*n_out = k;
	return KP_OK;
}

KP_EXPORT int kp_aws_catalog_load_bandwidth(kp_aws_catalog *cat, const char *json, size_t len,
					    const char *source, kp_error *err)
{
	if (!cat)
		return kp_aws__error(err, KP_EINVAL, NULL, "kp_aws_catalog_load_bandwidth: NULL catalogue");
	cJSON *doc = NULL;
	int rc = kp_aws__parse_doc(&doc, json, len, source, err);
	if (rc)
		return rc;
	struct kp_aws_named_value *v = NULL;
	size_t n = 0;
	rc = kp_aws__read_number_map(&v, &n, doc, source, NULL, err);
	cJSON_Delete(doc);
	if (rc)
		return rc;
	named_free(cat->bandwidth, cat->n_bandwidth);
	cat->bandwidth = v;
	cat->n_bandwidth = n;
	return KP_OK;
}
