/*
 * libkarpenter-aws: instance types, private interface between the catalogue
 * reader (catalog.c), the price tables (pricing.c), the instance-type
 * builder (types.c) and the unavailable-offerings cache (unavailable.c).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_AWS_INSTANCETYPE_H
#define KP_AWS_INSTANCETYPE_H

#include <stddef.h>
#include <stdint.h>

#define KP_EXPERIMENTAL_API 1
#include <karpenter/aws_instancetypes.h>

#include "provider_util.h"

/* One GPU, inference accelerator or neuron device entry of DescribeInstanceTypes. */
struct kp_aws_device {
	char *name;
	char *manufacturer;
	int64_t count;
	int64_t memory_mib;  /* GPUs: MemoryInfo.SizeInMiB */
	int64_t core_count;  /* neuron devices: CoreInfo.Count */
};

struct kp_aws_network_card {
	int64_t index;
	int64_t max_interfaces;
};

/* What the instance-type computation reads of one InstanceTypeInfo. */
struct kp_aws_type_info {
	char *name;
	char **usage_classes;
	size_t n_usage_classes;
	char *hypervisor;          /* "" when absent (metal) */
	char *arch;                /* "amd64", "arm64" or the unrecognized list */
	int first_arch_is_arm64;   /* Graviton CMA */
	int has_processor;
	char *cpu_manufacturer;
	double clock_ghz;
	int nested_virtualization; /* ProcessorInfo.SupportedFeatures */
	int64_t vcpus;
	int64_t memory_mib;
	int has_ebs_bandwidth;     /* EbsOptimizedSupport "default" with EbsOptimizedInfo */
	int64_t ebs_bandwidth_mbps;
	struct kp_aws_device *gpus;
	size_t n_gpus;
	struct kp_aws_device *accelerators;
	size_t n_accelerators;
	int has_neuron;
	struct kp_aws_device *neurons;
	size_t n_neurons;
	int has_instance_storage;
	int has_storage_total;
	int64_t storage_total_gb;
	char *nvme_support;
	int has_network;
	int encryption_in_transit;
	char *ena_support;
	int has_ipv4_per_interface;
	int64_t ipv4_per_interface;
	int has_default_card;
	int64_t default_card_index;
	struct kp_aws_network_card *cards;
	size_t n_cards;
	int has_max_efa;
	int64_t max_efa;
	int nitro_enclaves;
	char **zones;              /* from DescribeInstanceTypeOfferings, sorted */
	size_t n_zones;
};

struct kp_aws_limits {
	char *name;
	int64_t ipv4_per_interface;
	int trunking;
	int64_t branch_interfaces;
};

struct kp_aws_named_value {
	char *name;
	double value;
};

struct kp_aws_price_table {
	char *region;
	struct kp_aws_named_value *prices; /* sorted by name */
	size_t n;
};

struct kp_aws_spot_price {
	char *instance_type;
	char *zone;
	double price;
};

struct kp_aws_catalog {
	struct kp_aws_type_info *types; /* sorted by name */
	size_t n_types;
	int have_offerings;             /* an offerings document was loaded */
	char **all_zones;               /* every zone the offerings name, sorted */
	size_t n_all_zones;
	struct kp_aws_limits *limits;   /* sorted by name */
	size_t n_limits;
	struct kp_aws_named_value *bandwidth; /* sorted by name */
	size_t n_bandwidth;
	struct kp_aws_price_table *tables;
	size_t n_tables;
	int spot_updated;               /* a spot price history was loaded */
	struct kp_aws_spot_price *spot; /* sorted by type, zone */
	size_t n_spot;
};

/* Errors and copies: the providers' shared helpers (providers/common). */
#define kp_aws__error kp_prov__error
#define kp_aws__strdup kp_prov__strdup
int kp_aws__strcmp_ptr(const void *a, const void *b);
int kp_aws__name_vs_elem(const void *key, const void *elem);

struct cJSON;
/* Parse @p len bytes of JSON (KP_EPARSE naming @p source when malformed). */
int kp_aws__parse_doc(struct cJSON **out, const char *json, size_t len, const char *source,
		      kp_error *err);
/* An object of name -> number from 0 to 1e9, sorted by name. */
int kp_aws__read_number_map(struct kp_aws_named_value **out, size_t *n_out,
			    const struct cJSON *obj, const char *source, const char *where,
			    kp_error *err);
const struct kp_aws_type_info *kp_aws__catalog_find(const kp_aws_catalog *cat, const char *name);
const struct kp_aws_limits *kp_aws__limits_find(const kp_aws_catalog *cat, const char *name);
int kp_aws__bandwidth_find(const kp_aws_catalog *cat, const char *name, int64_t *out);

/* Plain decimal text ("12.5") of @p n bytes as a double, as Go's
 * ParseFloat rounds it (up to 15 significant digits and 22 decimals); 0 or
 * -1. */
int kp_aws__parse_decimal(const char *s, size_t n, double *out);

/* Prices (pricing.c), as upstream's pricing provider answers them. */
int kp_aws__on_demand_price(const kp_aws_catalog *cat, const char *region, const char *type,
			    double *out);
int kp_aws__spot_price(const kp_aws_catalog *cat, const char *region, const char *type,
		       const char *zone, double *out);

#endif /* KP_AWS_INSTANCETYPE_H */
