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

struct kp_registry;
struct kp_error;
/* Register EC2NodeClass's conversions (ec2nodeclass_conversion.c). */
int kp__aws_register_conversions(struct kp_registry *registry, struct kp_error *err);

#endif /* KP_AWS_PRIVATE_H */
