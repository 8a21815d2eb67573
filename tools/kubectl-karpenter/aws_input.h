/*
 * kubectl-karpenter: the AWS provider's instance types for the commands
 * (`--provider aws`): the catalogue documents (the shipped data or the
 * AWS CLI dumps given), and one kp_instance_types per EC2NodeClass.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KUBECTL_KARPENTER_AWS_INPUT_H
#define KUBECTL_KARPENTER_AWS_INPUT_H

#include <stdio.h>

#include <karpenter/karpenter.h>

/* The options every command with --provider aws takes. */
typedef struct cli_aws_options {
	int enabled;            /* --provider aws */
	const char *region;     /* --region, NULL = us-east-1 */
	const char *types_file; /* --instance-types: describe-instance-types output */
	const char *offerings_file; /* --offerings */
	const char *spot_file;  /* --spot-prices */
	long reserved_enis;     /* --reserved-enis */
	double vm_overhead;     /* --vm-memory-overhead-percent */
	int aws_only_given;     /* an option above other than --instance-types was given */
} cli_aws_options;

#define CLI_AWS_OPTIONS_INIT { 0, NULL, NULL, NULL, NULL, 0, 0.075, 0 }

/* The usage lines of the options, for --help. */
extern const char cli_aws_usage[];

/*
 * Take one option: --provider, --region, --offerings, --spot-prices,
 * --reserved-enis, --vm-memory-overhead-percent (not --instance-types,
 * whose meaning depends on the provider). 1 if @p name is one of them and
 * its value is valid, 0 if it is not one, -1 after printing why the value is
 * invalid (a usage error).
 */
int cli_aws_option(cli_aws_options *o, const char *name, const char *val, const char *prog,
		   FILE *err);

/* After parsing: a usage error (printed, CLI_USAGE) for AWS options without
 * --provider aws, or --provider aws in a build without libkarpenter-aws. */
int cli_aws_check(const cli_aws_options *o, const char *prog, FILE *err);

struct kp_aws_catalog;

/* Read the catalogue documents; CLI_OK, CLI_USAGE (a file cannot be read),
 * CLI_INVALID (refused), after printing why. */
int cli_aws_catalog_load(struct kp_aws_catalog **out, const cli_aws_options *o, const char *prog,
			 FILE *err);

/* The instance types for one EC2NodeClass (a decoded kp_aws_ec2nodeclass,
 * or NULL for the defaults); CLI_OK or CLI_INVALID after printing why. */
int cli_aws_instance_types(kp_instance_types **out, const struct kp_aws_catalog *cat,
			   const cli_aws_options *o, const void *ec2nodeclass, const char *name,
			   const char *prog, FILE *err);

/* Add AWS's well-known labels to @p wk; 0 or -1 when out of memory. */
int cli_aws_wellknown(kp_wellknown *wk);

void cli_aws_catalog_free(struct kp_aws_catalog *cat);

#endif
