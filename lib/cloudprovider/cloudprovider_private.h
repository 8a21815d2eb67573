/*
 * libkarpenter private: what the cloud-provider wrappers need from the
 * catalogue. Never installed.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_CLOUDPROVIDER_PRIVATE_H
#define KP_CLOUDPROVIDER_PRIVATE_H

#include <karpenter/cloudprovider.h>

/*
 * The highest hourly price an offering may have. Upstream sets none, but a
 * price of 1.7e308 makes every sum of prices (a NodeClaim's, a simulation's
 * total) overflow to infinity; no instance costs a million dollars an hour,
 * so a larger price is a mistake in the catalogue. libkarpenter-kwok checks
 * the same bound (KP_KWOK_PRICE_MAX) to name the JSON field.
 */
#define KP__PRICE_MAX 1e6

/* Make kp_instance_types_add fail from now on (a catalogue handed out by a
 * provider is shared, whatever its reference count). */
void kp__instance_types_freeze(kp_instance_types *its);

/* Prefix err's field with the name of a copied list or map (a resource
 * list's "src[1].name" becomes "NAME[1].name"). */
void kp__cp_prefix_list_error(kp_error *err, const char *name);

/* kp_instance_type_worst_launch_price over the available offerings that
 * @p usable also accepts (NULL: every available one). Disruption passes it
 * the reservations an earlier pass used up: the provider reports those
 * offerings unavailable to the next loop, while the caller's catalogue
 * still says available. */
typedef int (*kp__offering_usable)(const kp_offering *of, void *ctx);
double kp__worst_launch_price(const kp_instance_type *it, kp_requirements *reqs, kp_wellknown *wk,
			      kp__offering_usable usable, void *ctx);
/* kp_instance_type_cheapest_offering over the available offerings that
 * @p usable also accepts (NULL: every available one). */
const kp_offering *kp__cheapest_offering(const kp_instance_type *it, kp_requirements *reqs,
					 kp_wellknown *wk, kp__offering_usable usable, void *ctx);

#endif /* KP_CLOUDPROVIDER_PRIVATE_H */
