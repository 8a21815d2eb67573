/*
 * libkarpenter private: what the cloud-provider wrappers need from the
 * catalogue. Never installed.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_CLOUDPROVIDER_PRIVATE_H
#define KP_CLOUDPROVIDER_PRIVATE_H

#include <karpenter/cloudprovider.h>

/* Make kp_instance_types_add fail from now on (a catalogue handed out by a
 * provider is shared, whatever its reference count). */
void kp__instance_types_freeze(kp_instance_types *its);

/* Prefix err's field with the name of a copied list or map (a resource
 * list's "src[1].name" becomes "NAME[1].name"). */
void kp__cp_prefix_list_error(kp_error *err, const char *name);

#endif /* KP_CLOUDPROVIDER_PRIVATE_H */
