/*
 * kubectl-karpenter version: versions and SONAMEs of the loaded libraries.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include <karpenter/karpenter.h>
#include <karpenter/kwok.h>
#ifdef KP_HAVE_AWS
#include <karpenter/aws.h>
#endif

#include "cli.h"

static void version_usage(FILE *out)
{
	fputs("Usage: kubectl-karpenter version [-o text|json]\n"
	      "\n"
	      "Prints the version and SONAME of libkarpenter and of each provider\n"
	      "library this tool is linked with (the loaded libraries, which may be\n"
	      "newer than the headers the tool was built with).\n", out);
}

static int version_run(int argc, char **argv, FILE *out, FILE *err)
{
	int json = 0;
	for (int i = 1; i < argc; i++) {
		const char *fmt = NULL;
		if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) && i + 1 < argc)
			fmt = argv[++i];
		else if (!strncmp(argv[i], "--output=", 9))
			fmt = argv[i] + 9;
		else if (!strncmp(argv[i], "-o", 2) && argv[i][2])
			fmt = argv[i] + 2;
		if (fmt && !strcmp(fmt, "json"))
			json = 1;
		else if (fmt && !strcmp(fmt, "text"))
			json = 0;
		else {
			fprintf(err, "kubectl-karpenter version: %s \"%s\"\n",
				fmt ? "unsupported output format" : "unknown argument",
				fmt ? fmt : argv[i]);
			version_usage(err);
			return CLI_USAGE;
		}
	}

	struct {
		const char *name, *version, *soname;
	} libs[] = {
		{ "libkarpenter", kp_version_string(), kp_soname() },
		{ "libkarpenter-kwok", kp_kwok_version_string(), kp_kwok_soname() },
#ifdef KP_HAVE_AWS
		{ "libkarpenter-aws", kp_aws_version_string(), kp_aws_soname() },
#endif
	};
	size_t n = sizeof(libs) / sizeof(libs[0]);

	if (json) {
		fprintf(out, "{\"kubectl-karpenter\":\"%s\",\"libraries\":[", KP_VERSION_STRING);
		for (size_t i = 0; i < n; i++)
			fprintf(out, "%s{\"name\":\"%s\",\"version\":\"%s\",\"soname\":\"%s\"}",
				i ? "," : "", libs[i].name, libs[i].version, libs[i].soname);
		fputs("]}\n", out);
		return CLI_OK;
	}
	fprintf(out, "kubectl-karpenter %s\n", KP_VERSION_STRING);
	fprintf(out, "%-18s %-8s %s\n", "LIBRARY", "VERSION", "SONAME");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%-18s %-8s %s\n", libs[i].name, libs[i].version, libs[i].soname);
	return CLI_OK;
}

const cli_command cli_cmd_version = {
	"version", "Print library versions and SONAMEs", version_run, version_usage,
};
