/*
 * libkarpenter-aws private helpers.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_AWS_PRIVATE_H
#define KP_AWS_PRIVATE_H

#include <stddef.h>

#if defined(__GNUC__)
#define KP_EXPORT __attribute__((visibility("default")))
#else
#define KP_EXPORT
#endif

/* strncasecmp for ASCII, independent of the locale. */
static inline int strncasecmp_ascii(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
		if (x >= 'A' && x <= 'Z')
			x = (unsigned char)(x - 'A' + 'a');
		if (y >= 'A' && y <= 'Z')
			y = (unsigned char)(y - 'A' + 'a');
		if (x != y || !x)
			return x - y;
	}
	return 0;
}

/* A copy of @p s with the library's allocator (kp_malloc), as the decoder
 * allocates an object's strings: for text attached to a decoded object
 * (ec2nodeclass.c). NULL when out of memory. */
char *kp__aws_object_strdup(const char *s);

struct kp_registry;
struct kp_error;
struct kp_crd_rule;
struct kp_validation_sink;
/* EC2NodeClass's rule inventory and validate slot, and the AWS build's
 * NodePool/NodeClaim validators (ec2nodeclass_validation.c). */
const struct kp_crd_rule *kp__aws_ec2nodeclass_rules(size_t *n);
int kp__aws_ec2nodeclass_validate(void *self, const void *object, const void *old_object,
				  struct kp_validation_sink *sink, struct kp_error *err);
int kp__aws_register_validators(struct kp_registry *registry, struct kp_error *err);
/* EC2NodeClass's CRD defaults, the kind's apply_defaults slot
 * (ec2nodeclass_defaults.c). */
int kp__aws_ec2nodeclass_defaults(void *self, void *object, struct kp_error *err);
/* Register EC2NodeClass's conversions (ec2nodeclass_conversion.c). */
int kp__aws_register_conversions(struct kp_registry *registry, struct kp_error *err);

#endif /* KP_AWS_PRIVATE_H */
