/*
 * libkarpenter-kwok private helpers shared by its sources. Never installed.
 * The library uses only libkarpenter's public API; nothing here is kp__.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_KWOK_PRIVATE_H
#define KP_KWOK_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include <karpenter/kwok.h>

#include "provider_util.h"

/* Put on the definition of every exported function. */
#define KP_EXPORT __attribute__((visibility("default")))

#if defined(__GNUC__) || defined(__clang__)
#define KP_KWOK_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define KP_KWOK_PRINTF(a, b)
#endif

/*
 * The highest hourly price an offering may have: the core's own bound
 * (kp_instance_types_add refuses more, to keep sums of prices finite),
 * checked here first so that the error names the JSON field as written.
 */
#define KP_KWOK_PRICE_MAX 1e6

/* Errors and copies: the providers' shared helpers (providers/common). */
#define kp_kwok__error kp_prov__error
#define kp_kwok__strdup kp_prov__strdup

/*
 * One offering as upstream's InstanceTypeOptions holds it after decoding:
 * zone and capacity type, price, reservation capacity, further
 * requirements (borrowed).
 */
struct kp_kwok_offering_in {
	const char *capacity_type;
	const char *zone;
	double price;
	int64_t reservation_capacity;
	const kp_node_selector_requirement *const *requirements;
	size_t n_requirements;
};

/* One instance type as upstream's InstanceTypeOptions (all borrowed). */
struct kp_kwok_type_in {
	const char *name;
	const char *arch;
	const char *const *oses;
	size_t n_oses;
	const kp_resource_list *resources; /* any list, NULL = none */
	const struct kp_kwok_offering_in *const *offerings;
	size_t n_offerings;
};

/*
 * Apply upstream's setDefaultOptions and newInstanceType to @p in and add
 * the result to @p its. Errors come from the core (kp_instance_types_add)
 * with their field; the caller adds its context.
 */
int kp_kwok__catalog_add(kp_instance_types *its, const struct kp_kwok_type_in *in,
			 kp_error *err);

#endif /* KP_KWOK_PRIVATE_H */
