/*
 * libkarpenter-aws: one EC2 instance type as upstream builds it
 * (pkg/providers/instancetype/types.go NewInstanceType, the offering
 * resolvers and the compatibility checks), written into the core's
 * kp_instance_types.
 *
 * Quantities are made the way upstream makes them: from the same text
 * ("%dMi", "%dG", "1Gi") or, where upstream formats a float64 with
 * fmt.Sprint and parses the result, with the same value and format, so
 * their canonical strings are upstream's too.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include <karpenter/quantity.h>

#include "../aws_private.h"
#include "instancetype.h"

#define LABEL_GROUP "karpenter.k8s.aws/"
#define RES_POD_ENI "vpc.amazonaws.com/pod-eni"
#define RES_PRIVATE_IPV4 "vpc.amazonaws.com/PrivateIPv4Address"
#define RES_EFA "vpc.amazonaws.com/efa"

/* ------------------------------------------------------------------ */
/* AMI families (pkg/providers/amifamily)                              */

enum family_kind { FAM_AL2, FAM_AL2023, FAM_BOTTLEROCKET, FAM_WINDOWS, FAM_CUSTOM };

struct family {
	enum family_kind kind;
	const char *name;             /* as the EC2NodeClass spells it */
	const char *windows_build;    /* node.kubernetes.io/windows-build */
	int uses_eni_limited_memory_overhead;
	int pods_per_core_enabled;
	int supports_eni_limited_pod_density;
	const char *ephemeral_device; /* NULL for Custom */
	const char *default_size;     /* size of the default mapping of that device */
};

static const struct family families[] = {
	{ FAM_AL2, "AL2", NULL, 1, 1, 1, "/dev/xvda", "20Gi" },
	{ FAM_AL2023, "AL2023", NULL, 1, 1, 1, "/dev/xvda", "20Gi" },
	{ FAM_BOTTLEROCKET, "Bottlerocket", NULL, 0, 0, 1, "/dev/xvdb", "20Gi" },
	{ FAM_WINDOWS, "Windows2019", "10.0.17763", 0, 1, 0, "/dev/sda1", "50Gi" },
	{ FAM_WINDOWS, "Windows2022", "10.0.20348", 0, 1, 0, "/dev/sda1", "50Gi" },
	{ FAM_WINDOWS, "Windows2025", "10.0.26100", 0, 1, 0, "/dev/sda1", "50Gi" },
	{ FAM_CUSTOM, "Custom", NULL, 1, 1, 1, NULL, NULL },
};

/* upstream GetAMIFamily: an unknown name is AL2 */
static const struct family *family_of(const char *name)
{
	for (size_t i = 0; name && i < sizeof(families) / sizeof(families[0]); i++)
		if (strcmp(families[i].name, name) == 0)
			return &families[i];
	return &families[0];
}

/* upstream amifamily.DefaultEBS.VolumeSize */
#define DEFAULT_EBS_SIZE "20Gi"

/* ------------------------------------------------------------------ */
/* Kubelet settings, typed or from main's open map                     */

struct kv {
	const char *key;
	const char *value;
};

struct kvlist {
	struct kv *items;
	size_t n;
};

struct kubelet {
	int has_max_pods;
	int32_t max_pods;
	int has_pods_per_core;
	int32_t pods_per_core;
	struct kvlist kube_reserved, system_reserved, eviction_hard;
	cJSON *doc; /* owns the strings of a parsed kubelet_json */
};

static void kubelet_dispose(struct kubelet *k)
{
	free(k->kube_reserved.items);
	free(k->system_reserved.items);
	free(k->eviction_hard.items);
	cJSON_Delete(k->doc);
}

static int kv_from_labels(struct kvlist *out, const kp_labels *l)
{
	out->n = 0;
	out->items = calloc(l->count ? l->count : 1, sizeof(struct kv));
	if (!out->items)
		return KP_ENOMEM;
	for (size_t i = 0; i < l->count; i++) {
		out->items[out->n].key = l->items[i].key;
		out->items[out->n++].value = l->items[i].value;
	}
	return KP_OK;
}

static int kv_from_json(struct kvlist *out, const cJSON *obj, const char *field, kp_error *err)
{
	out->n = 0;
	out->items = calloc(1, sizeof(struct kv));
	if (!out->items)
		return kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
	if (!obj || cJSON_IsNull(obj))
		return KP_OK;
	if (!cJSON_IsObject(obj))
		return kp_aws__error(err, KP_EINVAL, field, "kubelet.%s: not an object of strings", field);
	size_t n = (size_t)cJSON_GetArraySize(obj);
	free(out->items);
	if (!(out->items = calloc(n ? n : 1, sizeof(struct kv))))
		return kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
	const cJSON *e;
	cJSON_ArrayForEach(e, obj) {
		if (!cJSON_IsString(e))
			return kp_aws__error(err, KP_EINVAL, field, "kubelet.%s.%s: not a string", field,
					     e->string);
		out->items[out->n].key = e->string;
		out->items[out->n++].value = e->valuestring;
	}
	return KP_OK;
}

static int is_quantity(const char *s)
{
	kp_quantity q;
	return kp_quantity_parse(&q, s, NULL) == KP_OK;
}

/* With upstream's NodeClassCEL gate off (its default), kubeReserved and
 * systemReserved keep only the entries that are quantities: expressions
 * fall back to the defaults (types.go resolveResourceExpressions). */
static void keep_quantities(struct kvlist *l)
{
	size_t m = 0;
	for (size_t i = 0; i < l->n; i++)
		if (is_quantity(l->items[i].value))
			l->items[m++] = l->items[i];
	l->n = m;
}

static int kubelet_resolve(struct kubelet *k, const kp_aws_instance_type_options *o, kp_error *err)
{
	memset(k, 0, sizeof(*k));
	int rc;
	if (!o->kubelet_json) {
		k->has_max_pods = o->has_max_pods != 0;
		k->max_pods = o->max_pods;
		k->has_pods_per_core = o->has_pods_per_core != 0;
		k->pods_per_core = o->pods_per_core;
		if (kv_from_labels(&k->kube_reserved, &o->kube_reserved) ||
		    kv_from_labels(&k->system_reserved, &o->system_reserved) ||
		    kv_from_labels(&k->eviction_hard, &o->eviction_hard))
			return kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
	} else {
		if (!(k->doc = cJSON_Parse(o->kubelet_json)))
			return kp_aws__error(err, KP_EPARSE, "kubelet_json", "kubelet: not a JSON document");
		if (!cJSON_IsObject(k->doc) && !cJSON_IsNull(k->doc))
			return kp_aws__error(err, KP_EINVAL, "kubelet_json", "kubelet: not an object");
		const cJSON *mp = cJSON_GetObjectItemCaseSensitive(k->doc, "maxPods");
		if (mp && cJSON_IsNumber(mp)) {
			if (mp->valuedouble < 0 || mp->valuedouble > 2147483647.0 ||
			    mp->valuedouble != (double)(int32_t)mp->valuedouble)
				return kp_aws__error(err, KP_EINVAL, "kubelet.maxPods",
						     "kubelet.maxPods: not an int32 >= 0");
			k->has_max_pods = 1;
			k->max_pods = (int32_t)mp->valuedouble;
		} else if (mp && !cJSON_IsString(mp) && !cJSON_IsNull(mp)) {
			/* a string is a CEL expression: gate off, the default */
			return kp_aws__error(err, KP_EINVAL, "kubelet.maxPods",
					     "kubelet.maxPods: not an integer or a string");
		}
		const cJSON *ppc = cJSON_GetObjectItemCaseSensitive(k->doc, "podsPerCore");
		if (ppc && !cJSON_IsNull(ppc)) {
			if (!cJSON_IsNumber(ppc) || ppc->valuedouble < 0 || ppc->valuedouble > 2147483647.0 ||
			    ppc->valuedouble != (double)(int32_t)ppc->valuedouble)
				return kp_aws__error(err, KP_EINVAL, "kubelet.podsPerCore",
						     "kubelet.podsPerCore: not an int32 >= 0");
			k->has_pods_per_core = 1;
			k->pods_per_core = (int32_t)ppc->valuedouble;
		}
		if ((rc = kv_from_json(&k->kube_reserved,
				       cJSON_GetObjectItemCaseSensitive(k->doc, "kubeReserved"),
				       "kubeReserved", err)) ||
		    (rc = kv_from_json(&k->system_reserved,
				       cJSON_GetObjectItemCaseSensitive(k->doc, "systemReserved"),
				       "systemReserved", err)) ||
		    (rc = kv_from_json(&k->eviction_hard,
				       cJSON_GetObjectItemCaseSensitive(k->doc, "evictionHard"),
				       "evictionHard", err)))
			return rc;
	}
	keep_quantities(&k->kube_reserved);
	keep_quantities(&k->system_reserved);
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* Quantities                                                          */

static int q_text(kp_quantity *q, const char *text)
{
	return kp_quantity_parse(q, text, NULL);
}

static int q_int(kp_quantity *q, int64_t v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	return q_text(q, buf);
}

/* resource.MustParse(fmt.Sprint(v)) for an integral float64 v >= 0: Go
 * prints %v with the shortest digits, in exponent form from 1e6 (the %g
 * rule with precision 6), which parses as DecimalExponent. */
static int q_go_float(kp_quantity *q, double v)
{
	if (!(v >= 0) || v > 9.2e18)
		return KP_ERANGE;
	if (v < 1e6)
		return q_int(q, (int64_t)v);
	return kp_quantity_from_scaled(q, (int64_t)v, 0, KP_QUANTITY_DECIMAL_EXPONENT);
}

static int set_res(kp_resource_list *l, const char *name, const kp_quantity *q)
{
	return kp_resources_set(l, name, q, NULL);
}

static int set_res_int(kp_resource_list *l, const char *name, int64_t v)
{
	kp_quantity q;
	int rc = q_int(&q, v);
	return rc ? rc : set_res(l, name, &q);
}

/* ------------------------------------------------------------------ */
/* Requirements under construction                                     */

#define MAX_REQS 48

struct reqs {
	kp_node_selector_requirement r[MAX_REQS];
	const kp_node_selector_requirement *ptrs[MAX_REQS];
	size_t n;
	/* value arrays and strings made for this type, freed after the add */
	void **owned;
	size_t n_owned, cap_owned;
	int oom;
};

static void *own(struct reqs *rq, void *p)
{
	if (!p) {
		rq->oom = 1;
		return NULL;
	}
	if (rq->n_owned == rq->cap_owned) {
		size_t cap = rq->cap_owned ? rq->cap_owned * 2 : 32;
		void **v = realloc(rq->owned, cap * sizeof(*v));
		if (!v) {
			free(p);
			rq->oom = 1;
			return NULL;
		}
		rq->owned = v;
		rq->cap_owned = cap;
	}
	rq->owned[rq->n_owned++] = p;
	return p;
}

static void reqs_dispose(struct reqs *rq)
{
	for (size_t i = 0; i < rq->n_owned; i++)
		free(rq->owned[i]);
	free(rq->owned);
	memset(rq, 0, sizeof(*rq));
}

static kp_node_selector_requirement *req_add(struct reqs *rq, const char *key, uint32_t op,
					     const char *const *values, size_t n)
{
	if (rq->n == MAX_REQS) {
		rq->oom = 1;
		return NULL;
	}
	kp_node_selector_requirement *r = &rq->r[rq->n];
	kp_node_selector_requirement init = KP_NODE_SELECTOR_REQUIREMENT_INIT;
	*r = init;
	r->key = key;
	r->op = op;
	if (n) {
		const char **v = own(rq, malloc(n * sizeof(char *)));
		if (!v)
			return NULL;
		memcpy(v, values, n * sizeof(char *));
		r->values = v;
		r->n_values = n;
	}
	rq->ptrs[rq->n] = r;
	rq->n++;
	return r;
}

static void req_in1(struct reqs *rq, const char *key, const char *value)
{
	req_add(rq, key, KP_SELECTOR_OP_IN, &value, 1);
}

static void req_absent(struct reqs *rq, const char *key)
{
	req_add(rq, key, KP_SELECTOR_OP_DOES_NOT_EXIST, NULL, 0);
}

/* In [value], or DoesNotExist when value is NULL (upstream inserts into a
 * DoesNotExist requirement, which makes it In). */
static void req_opt(struct reqs *rq, const char *key, const char *value)
{
	if (value)
		req_in1(rq, key, value);
	else
		req_absent(rq, key);
}

static char *fmt_int(struct reqs *rq, int64_t v)
{
	char *s = own(rq, malloc(24));
	if (s)
		snprintf(s, 24, "%lld", (long long)v);
	return s;
}

/* upstream lowerKabobCase: spaces to '-', ASCII lower case */
static char *kabob(struct reqs *rq, const char *s)
{
	size_t n = strlen(s);
	char *o = own(rq, malloc(n + 1));
	if (!o)
		return NULL;
	for (size_t i = 0; i <= n; i++) {
		char c = s[i];
		o[i] = c == ' ' ? '-' : (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
	}
	return o;
}

static char *substr(struct reqs *rq, const char *s, size_t n)
{
	char *o = own(rq, malloc(n + 1));
	if (o) {
		memcpy(o, s, n);
		o[n] = 0;
	}
	return o;
}

/* upstream instanceTypeScheme `(^[a-z]+)(\-[0-9]+tb)?([0-9]+).*\.`:
 * category and generation, or 0 when the name does not match. */
static int scheme(const char *name, size_t *cat_len, size_t *gen_off, size_t *gen_len)
{
	size_t i = 0;
	while (name[i] >= 'a' && name[i] <= 'z')
		i++;
	if (!i)
		return 0;
	size_t j = i;
	if (name[j] == '-') {
		size_t k = j + 1, d = 0;
		while (name[k + d] >= '0' && name[k + d] <= '9')
			d++;
		if (d && name[k + d] == 't' && name[k + d + 1] == 'b' && name[k + d + 2] >= '0' &&
		    name[k + d + 2] <= '9')
			j = k + d + 2;
	}
	size_t g = 0;
	while (name[j + g] >= '0' && name[j + g] <= '9')
		g++;
	if (!g || !strchr(name + j + g, '.'))
		return 0;
	*cat_len = i;
	*gen_off = j;
	*gen_len = g;
	return 1;
}

/* ------------------------------------------------------------------ */
/* Capacity (types.go computeCapacity and helpers)                     */

struct build {
	const kp_aws_catalog *cat;
	const kp_aws_instance_type_options *o;
	const struct family *fam;
	const char *region;
	struct kubelet kubelet;
};

static int64_t count_efa_only(const struct build *b, int card0_only)
{
	int64_t n = 0;
	for (size_t i = 0; i < b->o->n_network_interfaces; i++) {
		const kp_aws_network_interface *ni = b->o->network_interfaces[i];
		if (ni && ni->interface_type && strcmp(ni->interface_type, "efa-only") == 0 &&
		    (!card0_only || ni->network_card_index == 0))
			n++;
	}
	return n;
}

/* ENILimitedPods: usable ENIs of the default card * (IPs per ENI - 1) + 2 */
static int64_t eni_limited_pods(const struct build *b, const struct kp_aws_type_info *t,
				int64_t reserved_enis)
{
	int64_t enis = t->cards[t->default_card_index].max_interfaces;
	int64_t usable = enis - reserved_enis - count_efa_only(b, 1);
	if (usable <= 0)
		return 0;
	return usable * (t->ipv4_per_interface - 1) + 2;
}

static int64_t pods(const struct build *b, const struct kp_aws_type_info *t)
{
	int64_t count;
	if (b->kubelet.has_max_pods)
		count = b->kubelet.max_pods;
	else if (b->fam->supports_eni_limited_pod_density)
		count = eni_limited_pods(b, t, b->o->reserved_enis);
	else
		count = 110;
	if (b->kubelet.has_pods_per_core && b->kubelet.pods_per_core > 0 &&
	    b->fam->pods_per_core_enabled) {
		int64_t ppc = (int64_t)b->kubelet.pods_per_core * t->vcpus;
		if (ppc < count)
			count = ppc;
	}
	return count;
}

static int memory(kp_quantity *q, const struct build *b, const struct kp_aws_type_info *t)
{
	int64_t mib = t->memory_mib;
	if (t->first_arch_is_arm64)
		mib -= 64; /* Graviton CMA */
	double bytes = (double)(mib * 1024 * 1024);
	int64_t overhead = (int64_t)ceil(bytes * b->o->vm_memory_overhead_percent / 1024 / 1024);
	char buf[32];
	snprintf(buf, sizeof(buf), "%lldMi", (long long)(mib - overhead));
	return q_text(q, buf);
}

static int parse_volume(kp_quantity *q, const kp_aws_block_device_mapping *m, size_t i,
			const char **text, kp_error *err)
{
	*text = m && m->ebs ? m->ebs->volume_size : NULL;
	if (!*text)
		return 0;
	if (kp_quantity_parse(q, *text, NULL) != KP_OK) {
		char field[64];
		snprintf(field, sizeof(field), "blockDeviceMappings[%zu].ebs.volumeSize", i);
		return kp_aws__error(err, KP_EINVAL, field, "%s: not a quantity", field);
	}
	return 1;
}

/* ephemeralStorage: RAID0 instance store, else the root volume, else the
 * family's device (the last mapping for Custom), else the family default. */
static int ephemeral_storage(kp_quantity *q, const struct build *b,
			     const struct kp_aws_type_info *t, kp_error *err)
{
	const kp_aws_instance_type_options *o = b->o;
	const char *text;
	int r;
	if (o->instance_store_policy && strcmp(o->instance_store_policy, "RAID0") == 0 &&
	    t->has_instance_storage && t->has_storage_total) {
		char buf[32];
		snprintf(buf, sizeof(buf), "%lldG", (long long)t->storage_total_gb);
		return q_text(q, buf);
	}
	size_t n = o->n_block_device_mappings;
	if (n) {
		for (size_t i = 0; i < n; i++) {
			if (o->block_device_mappings[i] && o->block_device_mappings[i]->root_volume) {
				if ((r = parse_volume(q, o->block_device_mappings[i], i, &text, err)))
					return r < 0 ? r : KP_OK;
				break;
			}
		}
		if (b->fam->kind == FAM_CUSTOM) {
			if ((r = parse_volume(q, o->block_device_mappings[n - 1], n - 1, &text, err)))
				return r < 0 ? r : KP_OK;
			return q_text(q, DEFAULT_EBS_SIZE);
		}
		for (size_t i = 0; i < n; i++) {
			const kp_aws_block_device_mapping *m = o->block_device_mappings[i];
			if (m && m->device_name && strcmp(m->device_name, b->fam->ephemeral_device) == 0) {
				if ((r = parse_volume(q, m, i, &text, err)))
					return r < 0 ? r : KP_OK;
				break;
			}
		}
	}
	return q_text(q, b->fam->default_size ? b->fam->default_size : DEFAULT_EBS_SIZE);
}

static int64_t gpu_count(const struct kp_aws_type_info *t, const char *manufacturer)
{
	int64_t n = 0;
	for (size_t i = 0; i < t->n_gpus; i++)
		if (strcmp(t->gpus[i].manufacturer, manufacturer) == 0)
			n += t->gpus[i].count;
	return n;
}

static int capacity(kp_resource_list *cap, const struct build *b, const struct kp_aws_type_info *t,
		    const kp_quantity *storage, int64_t n_pods, int windows)
{
	kp_quantity q;
	int rc;
	if ((rc = set_res_int(cap, KP_RESOURCE_CPU, t->vcpus)) || (rc = memory(&q, b, t)) ||
	    (rc = set_res(cap, KP_RESOURCE_MEMORY, &q)) ||
	    (rc = set_res(cap, KP_RESOURCE_EPHEMERAL_STORAGE, storage)) ||
	    (rc = set_res_int(cap, KP_RESOURCE_PODS, n_pods)))
		return rc;
	const struct kp_aws_limits *lim = kp_aws__limits_find(b->cat, t->name);
	if ((rc = set_res_int(cap, RES_POD_ENI, lim && lim->trunking ? lim->branch_interfaces : 0)))
		return rc;
	int64_t neuron = 0, neuron_cores = 0;
	if (t->has_neuron) {
		for (size_t i = 0; i < t->n_neurons; i++)
			neuron += t->neurons[i].count;
		neuron_cores = t->neurons[0].count * t->neurons[0].core_count;
	}
	int64_t efa = b->o->has_network_interfaces ? count_efa_only(b, 0)
						   : t->has_max_efa ? t->max_efa : 0;
	if ((rc = set_res_int(cap, "nvidia.com/gpu", gpu_count(t, "NVIDIA"))) ||
	    (rc = set_res_int(cap, "amd.com/gpu", gpu_count(t, "AMD"))) ||
	    (rc = set_res_int(cap, "aws.amazon.com/neuron", neuron)) ||
	    (rc = set_res_int(cap, "aws.amazon.com/neuroncore", neuron_cores)) ||
	    (rc = set_res_int(cap, "habana.ai/gaudi", gpu_count(t, "Habana"))) ||
	    (rc = set_res_int(cap, RES_EFA, efa)))
		return rc;
	if (windows)
		rc = set_res_int(cap, RES_PRIVATE_IPV4, lim ? lim->ipv4_per_interface - 1 : 0);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Overhead                                                            */

static int user_values(kp_resource_list *l, const struct kvlist *kv, const char *what,
		       kp_error *err)
{
	for (size_t i = 0; i < kv->n; i++) {
		kp_quantity q;
		if (kp_quantity_parse(&q, kv->items[i].value, NULL) != KP_OK) {
			char field[KP_ERROR_FIELD_MAX];
			snprintf(field, sizeof(field), "%s.%s", what, kv->items[i].key);
			return kp_aws__error(err, KP_EINVAL, field, "kubelet.%s: not a quantity", field);
		}
		int rc = kp_resources_set(l, kv->items[i].key, &q, err);
		if (rc)
			return rc;
	}
	return KP_OK;
}

static int kube_reserved(kp_resource_list *l, const struct build *b, int64_t vcpus,
			 int64_t memory_pods, kp_error *err)
{
	static const struct {
		int64_t start, end;
		double percentage;
	} ranges[] = { { 0, 1000, 0.06 }, { 1000, 2000, 0.01 }, { 2000, 4000, 0.005 },
		       { 4000, (int64_t)1 << 31, 0.0025 } };
	char buf[32];
	kp_quantity q;
	int rc;
	snprintf(buf, sizeof(buf), "%lldMi", (long long)(11 * memory_pods + 255));
	if ((rc = q_text(&q, buf)) || (rc = set_res(l, KP_RESOURCE_MEMORY, &q)) ||
	    (rc = q_text(&q, "1Gi")) || (rc = set_res(l, KP_RESOURCE_EPHEMERAL_STORAGE, &q)))
		return rc;
	int64_t milli = vcpus * 1000, cpu_m = 0;
	int any = 0;
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		if (milli < ranges[i].start)
			continue;
		double r = (double)(ranges[i].end - ranges[i].start);
		if (milli < ranges[i].end)
			r = (double)(milli - ranges[i].start);
		cpu_m += (int64_t)(r * ranges[i].percentage);
		any = 1;
	}
	if (any) {
		snprintf(buf, sizeof(buf), "%lldm", (long long)cpu_m);
		if ((rc = q_text(&q, buf)) || (rc = set_res(l, KP_RESOURCE_CPU, &q)))
			return rc;
	}
	return user_values(l, &b->kubelet.kube_reserved, "kubeReserved", err);
}

/* computeEvictionSignal: a percentage of @p capacity (100% disables), else
 * a quantity. */
static int eviction_signal(kp_quantity *q, const kp_quantity *capacity, const char *key,
			   const char *value, kp_error *err)
{
	size_t n = strlen(value);
	char field[KP_ERROR_FIELD_MAX];
	snprintf(field, sizeof(field), "evictionHard.%s", key);
	if (n && value[n - 1] == '%') {
		/* strings.Trim(v, "%") then ParseFloat */
		double p;
		if (kp_aws__parse_decimal(value, n - 1, &p))
			return kp_aws__error(err, KP_EINVAL, field, "kubelet.%s: not a percentage", field);
		if (p == 100)
			p = 0;
		int rc = q_go_float(q, ceil(kp_quantity_as_float64(capacity) / 100 * p));
		return rc ? kp_aws__error(err, rc, field, "kubelet.%s: out of range", field) : KP_OK;
	}
	if (kp_quantity_parse(q, value, NULL) != KP_OK)
		return kp_aws__error(err, KP_EINVAL, field, "kubelet.%s: not a quantity or a percentage",
				     field);
	return KP_OK;
}

static int eviction_threshold(kp_resource_list *l, const struct build *b, const kp_quantity *mem,
			      const kp_quantity *storage, kp_error *err)
{
	kp_quantity q;
	int64_t bytes;
	int rc;
	if ((rc = q_text(&q, "100Mi")) || (rc = set_res(l, KP_RESOURCE_MEMORY, &q)))
		return rc;
	if (kp_quantity_value(storage, &bytes) != KP_OK)
		return kp_aws__error(err, KP_ERANGE, "ephemeral-storage", "ephemeral storage out of range");
	if ((rc = q_go_float(&q, ceil((double)bytes / 100 * 10))) ||
	    (rc = set_res(l, KP_RESOURCE_EPHEMERAL_STORAGE, &q)))
		return rc;
	const struct kvlist *h = &b->kubelet.eviction_hard;
	for (size_t i = 0; i < h->n; i++) {
		const char *res = strcmp(h->items[i].key, "memory.available") == 0 ? KP_RESOURCE_MEMORY
				: strcmp(h->items[i].key, "nodefs.available") == 0
					? KP_RESOURCE_EPHEMERAL_STORAGE : NULL;
		if (!res)
			continue;
		if ((rc = eviction_signal(&q, strcmp(res, KP_RESOURCE_MEMORY) == 0 ? mem : storage,
					  h->items[i].key, h->items[i].value, err)) ||
		    (rc = set_res(l, res, &q)))
			return rc;
	}
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* Compatibility with the node class (compatibility.go)                */

static int compatible(const struct build *b, const struct kp_aws_type_info *t)
{
	const kp_aws_instance_type_options *o = b->o;
	if (o->has_network_interfaces) {
		if (!t->n_cards || strcmp(t->ena_support, "unsupported") == 0)
			return 0;
		for (size_t i = 0; i < o->n_network_interfaces; i++) {
			const kp_aws_network_interface *ni = o->network_interfaces[i];
			if (!ni)
				continue;
			if (ni->network_card_index < 0 || (size_t)ni->network_card_index >= t->n_cards)
				return 0;
			const struct kp_aws_network_card *card = NULL;
			for (size_t c = 0; c < t->n_cards && !card; c++)
				if (t->cards[c].index == ni->network_card_index)
					card = &t->cards[c];
			if (!card || card->max_interfaces <= ni->device_index)
				return 0;
		}
		int64_t efas = count_efa_only(b, 0);
		if (efas > 0 && (!t->has_max_efa || efas > t->max_efa))
			return 0;
	}
	if (strcmp(b->fam->name, "AL2023") == 0 && strncmp(t->name, "a1.", 3) == 0)
		return 0;
	if (o->nested_virtualization && !t->nested_virtualization)
		return 0;
	if (o->connection_tracking && strcmp(t->hypervisor, "nitro") != 0)
		return 0;
	return 1;
}

/* ------------------------------------------------------------------ */
/* One instance type                                                   */

static int has_str(const char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return 1;
	return 0;
}

static const kp_aws_zone_info *subnet_zone(const kp_aws_instance_type_options *o, const char *zone)
{
	for (size_t i = 0; i < o->n_subnet_zones; i++)
		if (o->subnet_zones[i] && o->subnet_zones[i]->zone &&
		    strcmp(o->subnet_zones[i]->zone, zone) == 0)
			return o->subnet_zones[i];
	return NULL;
}

/* The zones a type can launch in: offering zones ∩ subnet zones. */
static int available_zone(const struct build *b, const struct kp_aws_type_info *t, const char *z)
{
	return has_str((const char *const *)t->zones, t->n_zones, z) && (!b->o->has_subnet_zones || subnet_zone(b->o, z));
}

struct offer {
	kp_offering_spec spec;
	const kp_node_selector_requirement *ptrs[4];
	kp_node_selector_requirement r[4];
	const char *vals[4];
};

static void offer_req(struct offer *of, size_t i, const char *key, const char *value)
{
	kp_node_selector_requirement init = KP_NODE_SELECTOR_REQUIREMENT_INIT;
	of->r[i] = init;
	of->r[i].key = key;
	if (value) {
		of->vals[i] = value;
		of->r[i].op = KP_SELECTOR_OP_IN;
		of->r[i].values = &of->vals[i];
		of->r[i].n_values = 1;
	} else {
		of->r[i].op = KP_SELECTOR_OP_DOES_NOT_EXIST;
	}
	of->ptrs[i] = &of->r[i];
}

/* The requirements of one type (types.go computeRequirements), in parts. */
struct type_zones {
	const char **cts;
	size_t n_cts;
	const kp_aws_capacity_reservation **crs;
	size_t n_crs;
	const char **zones;
	size_t n_zones;
	const char **zone_ids;
	size_t n_zone_ids;
};

static void reqs_well_known(struct reqs *rq, const struct build *b, const struct kp_aws_type_info *t,
			    const struct type_zones *tz)
{
	const char **cts = tz->cts, **zones = tz->zones;
	size_t n_cts = tz->n_cts, n_zones = tz->n_zones;
	int is_windows = b->fam->kind == FAM_WINDOWS;
	int windows_os = is_windows && strcmp(t->arch, "amd64") == 0;

	req_in1(rq, "node.kubernetes.io/instance-type", t->name);
	req_in1(rq, "kubernetes.io/arch", t->arch);
	if (is_windows && !windows_os)
		req_add(rq, "kubernetes.io/os", KP_SELECTOR_OP_IN, NULL, 0);
	else
		req_in1(rq, "kubernetes.io/os", windows_os ? "windows" : "linux");
	req_add(rq, "topology.kubernetes.io/zone", KP_SELECTOR_OP_IN, zones, n_zones);
	req_in1(rq, "topology.kubernetes.io/region", b->region);
	req_opt(rq, "node.kubernetes.io/windows-build", b->fam->windows_build);
	req_add(rq, "karpenter.sh/capacity-type", KP_SELECTOR_OP_IN, cts, n_cts);
	req_in1(rq, LABEL_GROUP "instance-cpu", fmt_int(rq, t->vcpus));
	req_opt(rq, LABEL_GROUP "instance-cpu-manufacturer",
		t->has_processor ? kabob(rq, t->cpu_manufacturer) : NULL);
	req_opt(rq, LABEL_GROUP "instance-cpu-sustained-clock-speed-mhz",
		t->has_processor ? fmt_int(rq, (int64_t)round(t->clock_ghz * 1000)) : NULL);
	req_in1(rq, LABEL_GROUP "instance-memory", fmt_int(rq, t->memory_mib));
	req_opt(rq, LABEL_GROUP "instance-ebs-bandwidth",
		t->has_ebs_bandwidth ? fmt_int(rq, t->ebs_bandwidth_mbps) : NULL);
	int64_t bw;
	req_opt(rq, LABEL_GROUP "instance-network-bandwidth",
		kp_aws__bandwidth_find(b->cat, t->name, &bw) ? fmt_int(rq, bw) : NULL);

}

static void reqs_name(struct reqs *rq, const struct kp_aws_type_info *t)
{
	size_t cat_len, gen_off, gen_len;
	int sch = scheme(t->name, &cat_len, &gen_off, &gen_len);
	req_opt(rq, LABEL_GROUP "instance-category", sch ? substr(rq, t->name, cat_len) : NULL);
	req_opt(rq, LABEL_GROUP "instance-generation",
		sch ? substr(rq, t->name + gen_off, gen_len) : NULL);
	const char *dot = strchr(t->name, '.');
	int two_parts = dot && !strchr(dot + 1, '.');
	size_t part0 = dot ? (size_t)(dot - t->name) : strlen(t->name);
	req_opt(rq, LABEL_GROUP "instance-family", two_parts ? substr(rq, t->name, part0) : NULL);
	req_opt(rq, LABEL_GROUP "instance-size", two_parts ? dot + 1 : NULL);
	const char *flex = "false";
	for (size_t i = 0; i + 5 <= part0; i++)
		if (memcmp(t->name + i, "-flex", 5) == 0)
			flex = "true";
	req_in1(rq, LABEL_GROUP "instance-capability-flex", flex);
	req_opt(rq, LABEL_GROUP "instance-local-nvme",
		t->has_instance_storage && strcmp(t->nvme_support, "unsupported") != 0 &&
				t->has_storage_total
			? fmt_int(rq, t->storage_total_gb) : NULL);

}

static void reqs_devices(struct reqs *rq, const struct kp_aws_type_info *t)
{
	const struct kp_aws_device *gpu = t->n_gpus == 1 ? &t->gpus[0] : NULL;
	req_opt(rq, LABEL_GROUP "instance-gpu-name", gpu ? kabob(rq, gpu->name) : NULL);
	req_opt(rq, LABEL_GROUP "instance-gpu-manufacturer", gpu ? kabob(rq, gpu->manufacturer) : NULL);
	req_opt(rq, LABEL_GROUP "instance-gpu-count", gpu ? fmt_int(rq, gpu->count) : NULL);
	req_opt(rq, LABEL_GROUP "instance-gpu-memory", gpu ? fmt_int(rq, gpu->memory_mib) : NULL);
	const char *acc_name = NULL, *acc_manu = NULL, *acc_count = NULL;
	if (t->n_accelerators == 1 && !t->has_neuron) {
		acc_name = kabob(rq, t->accelerators[0].name);
		acc_manu = kabob(rq, t->accelerators[0].manufacturer);
		acc_count = fmt_int(rq, t->accelerators[0].count);
	}
	if (t->has_neuron && t->n_neurons == 1) {
		acc_name = kabob(rq, t->neurons[0].name);
		acc_manu = "aws";
		acc_count = fmt_int(rq, t->neurons[0].count);
	}
	req_opt(rq, LABEL_GROUP "instance-accelerator-name", acc_name);
	req_opt(rq, LABEL_GROUP "instance-accelerator-manufacturer", acc_manu);
	req_opt(rq, LABEL_GROUP "instance-accelerator-count", acc_count);

}

static void reqs_reservations(struct reqs *rq, const struct kp_aws_type_info *t,
			      const struct type_zones *tz)
{
	static const char *const tenancies[] = { "default", "dedicated" };
	const kp_aws_capacity_reservation **crs = tz->crs;
	const char **zone_ids = tz->zone_ids;
	size_t n_crs = tz->n_crs, n_zone_ids = tz->n_zone_ids;
	req_in1(rq, LABEL_GROUP "instance-hypervisor", t->hypervisor);
	req_in1(rq, LABEL_GROUP "instance-encryption-in-transit-supported",
		t->encryption_in_transit ? "true" : "false");
	req_in1(rq, LABEL_GROUP "nitro-sandbox", t->nitro_enclaves ? "true" : "false");
	req_add(rq, LABEL_GROUP "instance-tenancy", KP_SELECTOR_OP_IN, tenancies, 2);
	if (n_zone_ids)
		req_add(rq, "topology.k8s.aws/zone-id", KP_SELECTOR_OP_IN, zone_ids, n_zone_ids);
	if (n_crs) {
		const char **ids = own(rq, calloc(n_crs, sizeof(char *)));
		const char **types = own(rq, calloc(n_crs, sizeof(char *)));
		const char **intr = own(rq, calloc(n_crs, sizeof(char *)));
		if (ids && types && intr) {
			for (size_t i = 0; i < n_crs; i++) {
				ids[i] = crs[i]->id ? crs[i]->id : "";
				types[i] = crs[i]->reservation_type ? crs[i]->reservation_type : "default";
				intr[i] = crs[i]->interruptible ? "true" : "false";
			}
			req_add(rq, LABEL_GROUP "capacity-reservation-id", KP_SELECTOR_OP_IN, ids, n_crs);
			req_add(rq, LABEL_GROUP "capacity-reservation-type", KP_SELECTOR_OP_IN, types, n_crs);
			req_add(rq, LABEL_GROUP "capacity-reservation-interruptible", KP_SELECTOR_OP_IN,
				intr, n_crs);
		}
	} else {
		req_absent(rq, LABEL_GROUP "capacity-reservation-id");
		req_absent(rq, LABEL_GROUP "capacity-reservation-type");
		req_absent(rq, LABEL_GROUP "capacity-reservation-interruptible");
	}
}

/* Offerings: every zone of the region x on-demand/spot, then the
 * reservations (offering.go BaseResolver, ReservedCapacityResolver).
 * *n_out offerings in @p offers (room for n_all_zones * 2 + n_crs). */
static void type_offerings(struct offer *offers, const kp_offering_spec **offer_ptrs,
			   size_t *n_out, const struct build *b, const struct kp_aws_type_info *t,
			   const struct type_zones *tz)
{
	const kp_aws_instance_type_options *o = b->o;
	const char **cts = tz->cts;
	size_t n_cts = tz->n_cts, n_crs = tz->n_crs, n_offers = 0;
	const kp_aws_capacity_reservation **crs = tz->crs;
	int compat = compatible(b, t);
	for (size_t z = 0; z < b->cat->n_all_zones; z++) {
		const char *zone = b->cat->all_zones[z];
		const kp_aws_zone_info *zi = subnet_zone(o, zone);
		for (size_t c = 0; c < n_cts; c++) {
			if (strcmp(cts[c], "reserved") == 0)
				continue;
			struct offer *of = &offers[n_offers];
			kp_offering_spec init = KP_OFFERING_SPEC_INIT;
			of->spec = init;
			double price = 0;
			int has_price = strcmp(cts[c], "on-demand") == 0
				? kp_aws__on_demand_price(b->cat, b->region, t->name, &price)
				: kp_aws__spot_price(b->cat, b->region, t->name, zone, &price);
			int ice = o->unavailable &&
				  kp_aws_unavailable_offerings_is_unavailable(o->unavailable, t->name,
									      zone, cts[c], o->now_ms);
			of->spec.capacity_type = cts[c];
			of->spec.zone = zone;
			of->spec.price = has_price ? price : 0;
			of->spec.available = compat && !ice && has_price && available_zone(b, t, zone);
			offer_req(of, 0, LABEL_GROUP "capacity-reservation-id", NULL);
			offer_req(of, 1, LABEL_GROUP "capacity-reservation-type", NULL);
			offer_req(of, 2, LABEL_GROUP "capacity-reservation-interruptible", NULL);
			of->spec.n_requirements = 3;
			if (zi && zi->zone_id)
				offer_req(of, of->spec.n_requirements++, "topology.k8s.aws/zone-id",
					  zi->zone_id);
			of->spec.requirements = of->ptrs;
			offer_ptrs[n_offers] = &of->spec;
			n_offers++;
		}
	}
	for (size_t i = 0; i < n_crs; i++) {
		const kp_aws_capacity_reservation *cr = crs[i];
		struct offer *of = &offers[n_offers];
		kp_offering_spec init = KP_OFFERING_SPEC_INIT;
		of->spec = init;
		double odp = 0;
		const char *zone = cr->availability_zone ? cr->availability_zone : "";
		const kp_aws_zone_info *zi = subnet_zone(o, zone);
		of->spec.capacity_type = "reserved";
		of->spec.zone = zone;
		of->spec.reservation_id = cr->id;
		/* "free", keeping the relative order for consolidation */
		of->spec.price = kp_aws__on_demand_price(b->cat, b->region, t->name, &odp)
			? odp / 10000000.0 : 0;
		of->spec.reservation_capacity = cr->available_instance_count > 0
			? cr->available_instance_count : 0;
		of->spec.available = compat && cr->available_instance_count != 0 &&
				     available_zone(b, t, zone) &&
				     !(cr->state && strcmp(cr->state, "expiring") == 0);
		offer_req(of, 0, LABEL_GROUP "capacity-reservation-id", cr->id ? cr->id : "");
		offer_req(of, 1, LABEL_GROUP "capacity-reservation-type",
			  cr->reservation_type ? cr->reservation_type : "default");
		offer_req(of, 2, LABEL_GROUP "capacity-reservation-interruptible",
			  cr->interruptible ? "true" : "false");
		of->spec.n_requirements = 3;
		if (zi && zi->zone_id)
			offer_req(of, of->spec.n_requirements++, "topology.k8s.aws/zone-id", zi->zone_id);
		of->spec.requirements = of->ptrs;
		offer_ptrs[n_offers] = &of->spec;
		n_offers++;
	}
	*n_out = n_offers;
}

static int add_type(kp_instance_types *its, struct build *b, const struct kp_aws_type_info *t,
		    kp_error *err)
{
	const kp_aws_instance_type_options *o = b->o;
	struct reqs rq;
	memset(&rq, 0, sizeof(rq));
	kp_resource_list cap = KP_RESOURCE_LIST_INIT, kr = KP_RESOURCE_LIST_INIT,
			 sr = KP_RESOURCE_LIST_INIT, et = KP_RESOURCE_LIST_INIT;
	struct offer *offers = NULL;
	const kp_offering_spec **offer_ptrs = NULL;
	size_t n_offers = 0;
	int rc = KP_OK;

	/* Capacity types: on-demand and spot as EC2 lists them, then reserved. */
	const kp_aws_capacity_reservation **crs = NULL;
	size_t n_crs = 0;
	if (o->n_capacity_reservations &&
	    !(crs = calloc(o->n_capacity_reservations, sizeof(*crs))))
		goto nomem;
	for (size_t i = 0; i < o->n_capacity_reservations; i++) {
		const kp_aws_capacity_reservation *cr = o->capacity_reservations[i];
		if (cr && cr->instance_type && strcmp(cr->instance_type, t->name) == 0)
			crs[n_crs++] = cr;
	}
	const char *cts[3];
	size_t n_cts = 0;
	for (size_t i = 0; i < t->n_usage_classes; i++) {
		const char *u = t->usage_classes[i];
		if ((strcmp(u, "on-demand") == 0 || strcmp(u, "spot") == 0) &&
		    !has_str(cts, n_cts, u))
			cts[n_cts++] = u;
	}
	if (n_crs)
		cts[n_cts++] = "reserved";

	/* Zones */
	const char **zones = calloc(t->n_zones + 1, sizeof(char *));
	const char **zone_ids = calloc(t->n_zones + 1, sizeof(char *));
	size_t n_zones = 0, n_zone_ids = 0;
	if (!zones || !zone_ids) {
		free(zones);
		free(zone_ids);
		goto nomem;
	}
	own(&rq, zones);
	own(&rq, zone_ids);
	for (size_t i = 0; i < t->n_zones; i++) {
		if (!available_zone(b, t, t->zones[i]))
			continue;
		zones[n_zones++] = t->zones[i];
		const kp_aws_zone_info *zi = subnet_zone(o, t->zones[i]);
		if (zi && zi->zone_id)
			zone_ids[n_zone_ids++] = zi->zone_id;
	}

	struct type_zones tz = { cts, n_cts, crs, n_crs, zones, n_zones, zone_ids, n_zone_ids };
	reqs_well_known(&rq, b, t, &tz);
	reqs_name(&rq, t);
	reqs_devices(&rq, t);
	reqs_reservations(&rq, t, &tz);
	if (rq.oom)
		goto nomem;

	/* Capacity and overhead */
	kp_quantity storage, mem;
	if ((rc = ephemeral_storage(&storage, b, t, err)))
		goto out;
	int64_t n_pods = pods(b, t);
	int64_t memory_pods = b->fam->uses_eni_limited_memory_overhead ? eni_limited_pods(b, t, 0)
								       : n_pods;
	int windows_os = b->fam->kind == FAM_WINDOWS && strcmp(t->arch, "amd64") == 0;
	if ((rc = memory(&mem, b, t)) || (rc = capacity(&cap, b, t, &storage, n_pods, windows_os)) ||
	    (rc = kube_reserved(&kr, b, t->vcpus, memory_pods, err)) ||
	    (rc = user_values(&sr, &b->kubelet.system_reserved, "systemReserved", err)) ||
	    (rc = eviction_threshold(&et, b, &mem, &storage, err)))
		goto out;

	size_t max_offers = b->cat->n_all_zones * 2 + n_crs;
	offers = calloc(max_offers + 1, sizeof(*offers));
	offer_ptrs = calloc(max_offers + 1, sizeof(*offer_ptrs));
	if (!offers || !offer_ptrs)
		goto nomem;
	type_offerings(offers, offer_ptrs, &n_offers, b, t, &tz);

	kp_instance_type_spec spec = KP_INSTANCE_TYPE_SPEC_INIT;
	spec.name = t->name;
	spec.requirements = rq.ptrs;
	spec.n_requirements = rq.n;
	spec.capacity = &cap;
	spec.kube_reserved = &kr;
	spec.system_reserved = &sr;
	spec.eviction_threshold = &et;
	spec.offerings = offer_ptrs;
	spec.n_offerings = n_offers;
	rc = kp_instance_types_add(its, &spec, err);
	if (rc && err) {
		/* name the instance type: "m5.large: <the core's message>" */
		char msg[sizeof(err->message)];
		size_t n = strlen(t->name);
		if (n > sizeof(msg) / 2)
			n = sizeof(msg) / 2;
		memcpy(msg, t->name, n);
		memcpy(msg + n, ": ", 2);
		size_t rest = sizeof(msg) - n - 3;
		size_t m = strlen(err->message);
		memcpy(msg + n + 2, err->message, m < rest ? m : rest);
		msg[n + 2 + (m < rest ? m : rest)] = 0;
		memcpy(err->message, msg, sizeof(msg));
	}
	goto out;
nomem:
	rc = kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
out:
	free(crs);
	free(offers);
	free(offer_ptrs);
	kp_resources_dispose(&cap);
	kp_resources_dispose(&kr);
	kp_resources_dispose(&sr);
	kp_resources_dispose(&et);
	reqs_dispose(&rq);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Options and the build                                               */

KP_EXPORT void kp_aws_instance_type_options_init(kp_aws_instance_type_options *opts)
{
	if (opts) {
		kp_aws_instance_type_options init = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
		*opts = init;
	}
}

static const char *family_from_alias(const char *alias)
{
	const char *at = strchr(alias, '@');
	size_t n = at ? (size_t)(at - alias) : strlen(alias);
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		const char *f = families[i].name;
		if (families[i].kind != FAM_CUSTOM && strlen(f) == n &&
		    strncasecmp_ascii(f, alias, n) == 0)
			return f;
	}
	return NULL;
}

KP_EXPORT int kp_aws_instance_type_options_from_ec2nodeclass(kp_aws_instance_type_options *opts,
							     const kp_aws_ec2nodeclass *nodeclass,
							     kp_error *err)
{
	if (!opts || !nodeclass || !nodeclass->spec)
		return kp_aws__error(err, KP_EINVAL, NULL, "kp_aws_instance_type_options_from_"
				     "ec2nodeclass: needs options and an EC2NodeClass with a spec");
	if (opts->struct_size < sizeof(*opts) ||
	    nodeclass->struct_size < offsetof(kp_aws_ec2nodeclass, status) ||
	    nodeclass->spec->struct_size < sizeof(*nodeclass->spec))
		return kp_aws__error(err, KP_EVERSION, "struct_size",
				     "kp_aws_instance_type_options_from_ec2nodeclass: struct_size "
				     "older than this library");
	const kp_aws_ec2nodeclass_spec *s = nodeclass->spec;
	const char *family = s->ami_family;
	for (size_t i = 0; !family && i < s->n_ami_selector_terms; i++)
		if (s->ami_selector_terms[i] && s->ami_selector_terms[i]->alias &&
		    *s->ami_selector_terms[i]->alias)
			family = family_from_alias(s->ami_selector_terms[i]->alias);
	opts->ami_family = family ? family : "Custom";
	kp_labels none = KP_LABELS_INIT;
	opts->has_max_pods = opts->has_pods_per_core = 0;
	opts->max_pods = opts->pods_per_core = 0;
	opts->kube_reserved = opts->system_reserved = opts->eviction_hard = opts->eviction_soft = none;
	opts->kubelet_json = s->kubelet_json;
	if (s->kubelet) {
		opts->has_max_pods = s->kubelet->has_max_pods;
		opts->max_pods = s->kubelet->max_pods;
		opts->has_pods_per_core = s->kubelet->has_pods_per_core;
		opts->pods_per_core = s->kubelet->pods_per_core;
		opts->kube_reserved = s->kubelet->kube_reserved;
		opts->system_reserved = s->kubelet->system_reserved;
		opts->eviction_hard = s->kubelet->eviction_hard;
		opts->eviction_soft = s->kubelet->eviction_soft;
	}
	opts->block_device_mappings = s->block_device_mappings;
	opts->n_block_device_mappings = s->n_block_device_mappings;
	opts->instance_store_policy = s->instance_store_policy;
	opts->network_interfaces = s->network_interfaces;
	opts->n_network_interfaces = s->n_network_interfaces;
	opts->has_network_interfaces = s->network_interfaces != NULL;
	opts->connection_tracking = s->connection_tracking != NULL;
	opts->nested_virtualization = s->cpu_options && s->cpu_options->nested_virtualization &&
				      strcmp(s->cpu_options->nested_virtualization, "enabled") == 0;
	opts->status = nodeclass->struct_size >= sizeof(*nodeclass) ? nodeclass->status : NULL;
	return KP_OK;
}

/* The status's subnets and capacity reservations as the options' zone and
 * reservation lists (status_options): the arrays the build reads. */
struct status_lists {
	kp_aws_zone_info *zones;
	const kp_aws_zone_info **zone_ptrs;
	kp_aws_capacity_reservation *crs;
	const kp_aws_capacity_reservation **cr_ptrs;
};

static void status_lists_free(struct status_lists *l)
{
	free(l->zones);
	free(l->zone_ptrs);
	free(l->crs);
	free(l->cr_ptrs);
}

/* @p eff: the options with status.subnets' zones (when it lists any) and
 * status.capacityReservations (when it lists any) in place of the given
 * lists. The status has no instance count: each reservation offers one
 * instance (upstream reads the count from EC2). */
static int status_options(kp_aws_instance_type_options *eff, struct status_lists *l,
			  const kp_aws_ec2nodeclass_status *st, kp_error *err)
{
	memset(l, 0, sizeof(*l));
	size_t nz = st->subnets ? st->n_subnets : 0;
	size_t nc = st->capacity_reservations ? st->n_capacity_reservations : 0;
	if (nz) {
		l->zones = calloc(nz, sizeof(*l->zones));
		l->zone_ptrs = calloc(nz, sizeof(*l->zone_ptrs));
	}
	if (nc) {
		l->crs = calloc(nc, sizeof(*l->crs));
		l->cr_ptrs = calloc(nc, sizeof(*l->cr_ptrs));
	}
	if ((nz && (!l->zones || !l->zone_ptrs)) || (nc && (!l->crs || !l->cr_ptrs))) {
		status_lists_free(l);
		return kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	size_t k = 0;
	for (size_t i = 0; i < nz; i++) {
		const kp_aws_subnet_status *sn = st->subnets[i];
		if (!sn || !sn->zone)
			continue;
		kp_aws_zone_info z = KP_AWS_ZONE_INFO_INIT;
		z.zone = sn->zone;
		z.zone_id = sn->zone_id;
		l->zones[k] = z;
		l->zone_ptrs[k] = &l->zones[k];
		k++;
	}
	if (nz) {
		eff->has_subnet_zones = 1;
		eff->subnet_zones = l->zone_ptrs;
		eff->n_subnet_zones = k;
	}
	k = 0;
	for (size_t i = 0; i < nc; i++) {
		const kp_aws_capacity_reservation_status *c = st->capacity_reservations[i];
		if (!c)
			continue;
		kp_aws_capacity_reservation r = KP_AWS_CAPACITY_RESERVATION_INIT;
		r.interruptible = c->interruptible;
		r.id = c->id;
		r.instance_type = c->instance_type;
		r.availability_zone = c->availability_zone;
		r.reservation_type = c->reservation_type;
		r.state = c->state;
		r.available_instance_count = 1;
		l->crs[k] = r;
		l->cr_ptrs[k] = &l->crs[k];
		k++;
	}
	if (nc) {
		eff->capacity_reservations = l->cr_ptrs;
		eff->n_capacity_reservations = k;
	}
	return KP_OK;
}

KP_EXPORT int kp_aws_instance_types_build(kp_instance_types **out, const kp_aws_catalog *cat,
					  const kp_aws_instance_type_options *opts, kp_error *err)
{
	if (out)
		*out = NULL;
	if (!out || !cat)
		return kp_aws__error(err, KP_EINVAL, NULL, "kp_aws_instance_types_build: NULL argument");
	kp_aws_instance_type_options defaults = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	const kp_aws_instance_type_options *o = opts ? opts : &defaults;
	if (o->struct_size != sizeof(*o))
		return kp_aws__error(err, KP_EVERSION, "struct_size", "kp_aws_instance_type_options."
				     "struct_size is %u, this library has %zu", o->struct_size,
				     sizeof(*o));
	if (o->reserved_enis < 0)
		return kp_aws__error(err, KP_EINVAL, "reserved_enis", "reserved ENIs must be >= 0");
	if (!(o->vm_memory_overhead_percent >= 0 && o->vm_memory_overhead_percent < 1))
		return kp_aws__error(err, KP_EINVAL, "vm_memory_overhead_percent",
				     "the VM memory overhead must be from 0 to below 1 (a fraction)");
	if (o->instance_store_policy && strcmp(o->instance_store_policy, "RAID0") != 0)
		return kp_aws__error(err, KP_EINVAL, "instanceStorePolicy",
				     "instanceStorePolicy: unsupported value \"%s\" (only \"RAID0\")",
				     o->instance_store_policy);
	kp_aws_instance_type_options eff = *o;
	struct status_lists lists;
	memset(&lists, 0, sizeof(lists));
	if (o->status) {
		if (o->status->struct_size < sizeof(*o->status))
			return kp_aws__error(err, KP_EVERSION, "status.struct_size",
					     "kp_aws_ec2nodeclass_status older than this library");
		int src = status_options(&eff, &lists, o->status, err);
		if (src)
			return src;
		o = &eff;
	}
	struct build b = { .cat = cat, .o = o, .fam = family_of(o->ami_family),
			   .region = o->region && *o->region ? o->region : "us-east-1" };
	int rc = kubelet_resolve(&b.kubelet, o, err);
	kp_instance_types *its = NULL;
	if (!rc)
		rc = kp_instance_types_new(&its, err);
	for (size_t i = 0; !rc && i < cat->n_types; i++)
		rc = add_type(its, &b, &cat->types[i], err);
	kubelet_dispose(&b.kubelet);
	status_lists_free(&lists);
	if (rc) {
		kp_instance_types_free(its);
		return rc;
	}
	*out = its;
	return KP_OK;
}
