/*
 * A downstream program, built the way a provider controller or another
 * autoscaler builds against libkarpenter: only through pkg-config
 * (see Makefile; CI builds it against a `meson install` into a temporary
 * prefix). It sums pod requests with the library's Quantity type and checks
 * that the loaded libraries are the ones it was compiled for.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include <karpenter/karpenter.h>
#include <karpenter/kwok.h>

int main(int argc, char **argv)
{
	int major = 0, minor = 0;
	kp_version(&major, &minor, NULL);
	/* Same 0.y series (or same major from 1.0 on) as the headers. */
	if (major != KP_VERSION_MAJOR || (major == 0 && minor != KP_VERSION_MINOR)) {
		fprintf(stderr, "built for libkarpenter %s, loaded %s\n", KP_VERSION_STRING,
			kp_version_string());
		return 1;
	}
	printf("libkarpenter %s (%s), libkarpenter-kwok %s (%s)\n", kp_version_string(),
	       kp_soname(), kp_kwok_version_string(), kp_kwok_soname());

	/* Sum the CPU requests given on the command line, e.g. 250m 1.5 2. */
	kp_quantity total = KP_QUANTITY_ZERO;
	for (int i = 1; i < argc; i++) {
		kp_quantity q;
		kp_error err = KP_ERROR_INIT;
		if (kp_quantity_parse(&q, argv[i], &err) != KP_OK ||
		    kp_quantity_add(&total, &q, &err) != KP_OK) {
			fprintf(stderr, "argument %d: %s\n", i, err.message);
			return 1;
		}
	}
	char buf[KP_QUANTITY_STRING_MAX];
	kp_quantity_format(&total, buf, sizeof(buf));
	printf("total cpu: %s\n", buf);
	return 0;
}
