/*
 * kubectl-karpenter: the AWS provider's instance types for the commands.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KP_EXPERIMENTAL_API 1
#include <karpenter/karpenter.h>
#ifdef KP_HAVE_AWS
#include <karpenter/aws_ec2nodeclass.h>
#include <karpenter/aws_instancetypes.h>
#endif

#include "aws_input.h"
#include "cli.h"
#include "cluster_input.h"
#include "manifests.h"

#ifndef KP_AWS_DATA_DIR
#define KP_AWS_DATA_DIR ""
#endif

/* The most one catalogue document may hold (an AWS CLI dump of every type
 * of a region is a few MiB). */
#define DOC_MAX_BYTES ((size_t)256 << 20)

const char cli_aws_usage[] =
	"  --provider kwok|aws       the provider (default kwok)\n"
	"  --instance-types FILE     with --provider aws: the output of aws ec2\n"
	"                            describe-instance-types (default: the shipped set)\n"
	"  --offerings FILE          aws: aws ec2 describe-instance-type-offerings\n"
	"                            --location-type availability-zone (default: shipped)\n"
	"  --spot-prices FILE        aws: aws ec2 describe-spot-price-history (default: spot\n"
	"                            costs what on-demand does, as upstream at start-up)\n"
	"  --region R                aws: the region (default us-east-1); prices fall back to\n"
	"                            us-east-1's as upstream's do\n"
	"  --reserved-enis N         aws: upstream's RESERVED_ENIS (default 0)\n"
	"  --vm-memory-overhead-percent F\n"
	"                            aws: upstream's VM_MEMORY_OVERHEAD_PERCENT (default 0.075)\n";

int cli_aws_take(cli_aws_options *o, int id, const char *val, const char *prog, FILE *err)
{
	char *end = NULL;
	switch (id) {
	case CLI_AWS_OPT_PROVIDER:
		if (strcmp(val, "aws") && strcmp(val, "kwok")) {
			fprintf(err, "%s: invalid value \"%s\" for --provider (kwok or aws)\n", prog, val);
			return -1;
		}
		o->enabled = !strcmp(val, "aws");
		return 1;
	case CLI_AWS_OPT_REGION:
		o->region = val;
		break;
	case CLI_AWS_OPT_OFFERINGS:
		o->offerings_file = val;
		break;
	case CLI_AWS_OPT_SPOT_PRICES:
		o->spot_file = val;
		break;
	case CLI_AWS_OPT_RESERVED_ENIS:
		errno = 0;
		o->reserved_enis = strtol(val, &end, 10);
		if (errno || !*val || *end || o->reserved_enis < 0 || o->reserved_enis > 1000000000) {
			fprintf(err, "%s: invalid value \"%s\" for --reserved-enis (an integer >= 0)\n",
				prog, val);
			return -1;
		}
		break;
	case CLI_AWS_OPT_VM_OVERHEAD:
		errno = 0;
		o->vm_overhead = strtod(val, &end);
		if (errno || !*val || *end || !(o->vm_overhead >= 0 && o->vm_overhead < 1)) {
			fprintf(err, "%s: invalid value \"%s\" for --vm-memory-overhead-percent (a "
				"fraction from 0 to below 1, e.g. 0.075)\n", prog, val);
			return -1;
		}
		break;
	default:
		return 0;
	}
	o->aws_only_given = 1;
	return 1;
}

int cli_aws_check(const cli_aws_options *o, const char *prog, FILE *err)
{
	if (o->aws_only_given && !o->enabled) {
		fprintf(err, "%s: --region, --offerings, --spot-prices, --reserved-enis and "
			"--vm-memory-overhead-percent need --provider aws\n", prog);
		return CLI_USAGE;
	}
#ifndef KP_HAVE_AWS
	if (o->enabled) {
		fprintf(err, "%s: this build has no AWS provider (libkarpenter-aws)\n", prog);
		return CLI_USAGE;
	}
#endif
	return CLI_OK;
}

#ifdef KP_HAVE_AWS
typedef int (*aws_loader)(kp_aws_catalog *, const char *, size_t, const char *, kp_error *);

/* Load @p given, else @p shipped from the data folder (optional ones may
 * be absent). */
static int load(kp_aws_catalog *cat, const char *given, const char *shipped, int optional,
		aws_loader fn, const char *what, const char *prog, FILE *err)
{
	char *path = NULL;
	const char *file = given;
	if (!file) {
		const char *dir = getenv("KARPENTER_AWS_DATA");
		if (!dir || !*dir)
			dir = KP_AWS_DATA_DIR;
		size_t n = strlen(dir) + 1 + strlen(shipped) + 1;
		if (!(path = malloc(n))) {
			fprintf(err, "%s: out of memory\n", prog);
			return CLI_INVALID;
		}
		snprintf(path, n, "%s/%s", dir, shipped);
		FILE *probe = fopen(path, "rb");
		if (!probe) {
			int rc = optional ? CLI_OK : CLI_USAGE;
			if (!optional)
				fprintf(err, "%s: cannot read the shipped %s %s: %s (set KARPENTER_AWS_DATA "
					"or give the file)\n", prog, what, path, strerror(errno));
			free(path);
			return rc;
		}
		fclose(probe);
		file = path;
	}
	char *text = NULL;
	size_t len = 0;
	int rc = cli_read_file(file, DOC_MAX_BYTES, what, &text, &len, prog, err);
	if (rc) {
		free(path);
		return rc;
	}
	kp_error e = KP_ERROR_INIT;
	rc = fn(cat, text, len, file, &e);
	free(text);
	free(path);
	if (rc == KP_ENOMEM) {
		fprintf(err, "%s: out of memory\n", prog);
		return CLI_INVALID;
	}
	if (rc) {
		fprintf(err, "%s: %s\n", prog, e.message);
		return CLI_INVALID;
	}
	return CLI_OK;
}

int cli_aws_catalog_load(kp_aws_catalog **out, const cli_aws_options *o, const char *prog,
			 FILE *err)
{
	kp_aws_catalog *cat = NULL;
	if (kp_aws_catalog_new(&cat, NULL)) {
		fprintf(err, "%s: out of memory\n", prog);
		return CLI_INVALID;
	}
	static const struct {
		const char *shipped;
		int optional;
		aws_loader fn;
		const char *what;
	} docs[] = {
		{ "instance-types.json", 0, kp_aws_catalog_load_instance_types,
		  "DescribeInstanceTypes output" },
		{ "instance-type-offerings.json", 0, kp_aws_catalog_load_offerings,
		  "DescribeInstanceTypeOfferings output" },
		{ "vpc-limits.json", 0, kp_aws_catalog_load_vpc_limits, "VPC limits" },
		{ "bandwidth.json", 0, kp_aws_catalog_load_bandwidth, "bandwidth table" },
		{ "pricing-on-demand.json", 0, kp_aws_catalog_load_on_demand_prices,
		  "on-demand prices" },
		{ "pricing-on-demand-us-gov.json", 1, kp_aws_catalog_load_on_demand_prices,
		  "on-demand prices" },
		{ "pricing-on-demand-cn.json", 1, kp_aws_catalog_load_on_demand_prices,
		  "on-demand prices" },
	};
	const char *given[] = { o->types_file, o->offerings_file, NULL, NULL, NULL, NULL, NULL };
	int rc = CLI_OK;
	for (size_t i = 0; rc == CLI_OK && i < sizeof(docs) / sizeof(docs[0]); i++)
		rc = load(cat, given[i], docs[i].shipped, docs[i].optional, docs[i].fn, docs[i].what,
			  prog, err);
	if (rc == CLI_OK && o->spot_file)
		rc = load(cat, o->spot_file, NULL, 0, kp_aws_catalog_load_spot_prices,
			  "DescribeSpotPriceHistory output", prog, err);
	if (rc) {
		kp_aws_catalog_free(cat);
		return rc;
	}
	*out = cat;
	return CLI_OK;
}

int cli_aws_instance_types(kp_instance_types **out, const kp_aws_catalog *cat,
			   const cli_aws_options *o, const void *ec2nodeclass, const char *name,
			   const char *prog, FILE *err)
{
	kp_aws_instance_type_options opts = KP_AWS_INSTANCE_TYPE_OPTIONS_INIT;
	kp_error e = KP_ERROR_INIT;
	if (ec2nodeclass &&
	    kp_aws_instance_type_options_from_ec2nodeclass(&opts, ec2nodeclass, &e) != KP_OK) {
		fprintf(err, "%s: EC2NodeClass/%s: %s\n", prog, name, e.message);
		return CLI_INVALID;
	}
	const kp_aws_ec2nodeclass *nc = ec2nodeclass;
	if (nc && !nc->status)
		fprintf(err, "Note: EC2NodeClass/%s has no status: assumed Ready, as a cluster's "
			"status controller would make it\n", name);
	if (nc && !(nc->status && nc->status->n_subnets))
		fprintf(err, "Note: EC2NodeClass/%s: without status.subnets, a type's zones are every "
			"zone that offers it\n", name);
	opts.region = o->region;
	opts.reserved_enis = (int32_t)o->reserved_enis;
	opts.vm_memory_overhead_percent = o->vm_overhead;
	int rc = kp_aws_instance_types_build(out, cat, &opts, &e);
	if (rc == KP_ENOMEM) {
		fprintf(err, "%s: out of memory\n", prog);
		return CLI_INVALID;
	}
	if (rc) {
		fprintf(err, "%s: %s%s%s%s\n", prog, ec2nodeclass ? "EC2NodeClass/" : "",
			ec2nodeclass ? name : "", ec2nodeclass ? ": " : "", e.message);
		return CLI_INVALID;
	}
	return CLI_OK;
}

int cli_aws_status_ready(const void *ec2nodeclass, int64_t now_ms, const char *name,
			 const char *prog, FILE *err)
{
	/* the input's own object, held mutable by its builder */
	kp_aws_ec2nodeclass *nc = (kp_aws_ec2nodeclass *)(uintptr_t)ec2nodeclass;
	kp_error e = KP_ERROR_INIT;
	if (!nc->status || kp_aws_ec2nodeclass_status_ready(nc, 0, now_ms, &e) == KP_OK)
		return CLI_OK;
	fprintf(err, "%s: EC2NodeClass/%s: %s\n", prog, name, e.message);
	return CLI_INVALID;
}

const char *cli_aws_nodeclass_name(const void *ec2nodeclass)
{
	const kp_aws_ec2nodeclass *nc = ec2nodeclass;
	return nc && nc->metadata && nc->metadata->name ? nc->metadata->name : "";
}

int cli_aws_wellknown(kp_wellknown *wk)
{
	return kp_aws_wellknown_add(wk, NULL) == KP_OK ? 0 : -1;
}

void cli_aws_catalog_free(struct kp_aws_catalog *cat)
{
	kp_aws_catalog_free(cat);
}

int cli_aws_provider_new(kp_cloudprovider **out, struct cli_cluster_input *in,
			 const char *prog, FILE *err)
{
	kp_aws_provider_options ao = KP_AWS_PROVIDER_OPTIONS_INIT;
	ao.nodeclass_names = in->aws_class_names;
	ao.instance_types = in->aws_class_its;
	ao.n_nodeclasses = in->objs.ec2_nodeclasses.count;
	ao.nodeclasses = (const kp_aws_ec2nodeclass *const *)in->objs.ec2_nodeclasses.items;
	kp_error e = KP_ERROR_INIT;
	if (kp_aws_provider_new(out, &ao, &e) != KP_OK) {
		fprintf(err, "%s: %s%s%s\n", prog, e.field, *e.field ? ": " : "", e.message);
		return CLI_INVALID;
	}
	return CLI_OK;
}
#else
int cli_aws_provider_new(kp_cloudprovider **out, struct cli_cluster_input *in,
			 const char *prog, FILE *err)
{
	(void)out;
	(void)in;
	fprintf(err, "%s: this build has no AWS provider (libkarpenter-aws)\n", prog);
	return CLI_USAGE;
}

int cli_aws_catalog_load(struct kp_aws_catalog **out, const cli_aws_options *o, const char *prog,
			 FILE *err)
{
	(void)out;
	(void)o;
	fprintf(err, "%s: this build has no AWS provider (libkarpenter-aws)\n", prog);
	return CLI_USAGE;
}

int cli_aws_instance_types(kp_instance_types **out, const struct kp_aws_catalog *cat,
			   const cli_aws_options *o, const void *ec2nodeclass, const char *name,
			   const char *prog, FILE *err)
{
	(void)out;
	(void)cat;
	(void)o;
	(void)ec2nodeclass;
	(void)name;
	fprintf(err, "%s: this build has no AWS provider (libkarpenter-aws)\n", prog);
	return CLI_USAGE;
}

int cli_aws_status_ready(const void *ec2nodeclass, int64_t now_ms, const char *name,
			 const char *prog, FILE *err)
{
	(void)ec2nodeclass;
	(void)now_ms;
	(void)name;
	(void)prog;
	(void)err;
	return CLI_OK;
}

const char *cli_aws_nodeclass_name(const void *ec2nodeclass)
{
	(void)ec2nodeclass;
	return "";
}

int cli_aws_wellknown(kp_wellknown *wk)
{
	(void)wk;
	return 0;
}

void cli_aws_catalog_free(struct kp_aws_catalog *cat)
{
	(void)cat;
}
#endif
