/*
 * kubectl-karpenter: the AWS provider's instance types for the commands
 * (`--provider aws`): the catalogue documents (the shipped data or the
 * AWS CLI dumps given), and one kp_instance_types per EC2NodeClass.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KUBECTL_KARPENTER_AWS_INPUT_H
#define KUBECTL_KARPENTER_AWS_INPUT_H

#include <stdint.h>
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

/* The options' ids, and their rows for a command's cli_option table (not
 * --instance-types, whose meaning depends on the provider). */
enum {
	CLI_AWS_OPT_PROVIDER = 1000,
	CLI_AWS_OPT_REGION,
	CLI_AWS_OPT_OFFERINGS,
	CLI_AWS_OPT_SPOT_PRICES,
	CLI_AWS_OPT_RESERVED_ENIS,
	CLI_AWS_OPT_VM_OVERHEAD
};
#define CLI_AWS_OPTION_ROWS \
	{ "--provider", NULL, CLI_AWS_OPT_PROVIDER }, { "--region", NULL, CLI_AWS_OPT_REGION }, \
	{ "--offerings", NULL, CLI_AWS_OPT_OFFERINGS }, \
	{ "--spot-prices", NULL, CLI_AWS_OPT_SPOT_PRICES }, \
	{ "--reserved-enis", NULL, CLI_AWS_OPT_RESERVED_ENIS }, \
	{ "--vm-memory-overhead-percent", NULL, CLI_AWS_OPT_VM_OVERHEAD }

/*
 * Take the value of option @p id (a CLI_AWS_OPT_*): 1 when taken, 0 when
 * @p id is not one of them, -1 after printing why the value is invalid (a
 * usage error).
 */
int cli_aws_take(cli_aws_options *o, int id, const char *val, const char *prog, FILE *err);

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

/* An EC2NodeClass given with a status: its Ready condition as upstream's
 * status controller keeps it (kp_aws_ec2nodeclass_status_ready, changing
 * the decoded object the input holds); CLI_OK or CLI_INVALID after
 * printing why. One without status is left alone (assumed Ready). */
int cli_aws_status_ready(const void *ec2nodeclass, int64_t now_ms, const char *name,
			 const char *prog, FILE *err);

/* The metadata.name of a decoded EC2NodeClass ("" without one). */
const char *cli_aws_nodeclass_name(const void *ec2nodeclass);

/* Add AWS's well-known labels to @p wk; 0 or -1 when out of memory. */
int cli_aws_wellknown(kp_wellknown *wk);

void cli_aws_catalog_free(struct kp_aws_catalog *cat);

struct cli_cluster_input;
/* The AWS provider offline over a loaded input after cli_cluster_input_spec
 * (each EC2NodeClass's catalogue, and its hash for static drift); CLI_OK, or
 * CLI_INVALID after printing why. */
int cli_aws_provider_new(kp_cloudprovider **out, struct cli_cluster_input *in,
			 const char *prog, FILE *err);

#endif
