/*
 * kubectl-karpenter: reading a cluster the way every cluster command does
 * (simulate today; disrupt and reconcile build on it).
 *
 * -f paths are read first (an unreadable path is a usage error before any
 * output), then the instance-type catalogue (--instance-types FILE or the
 * KWOK provider's built-in one), then every document is decoded; Karpenter's
 * kinds (NodePool, NodeClaim, KWOKNodeClass) get the API server's defaults
 * and validation, as stored objects would have; an object given twice is
 * refused naming both files. The result is a kp_cluster_spec over the
 * decoded objects, which stay owned by the cli_cluster_input.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KUBECTL_KARPENTER_CLUSTER_INPUT_H
#define KUBECTL_KARPENTER_CLUSTER_INPUT_H

#include <stdint.h>
#include <stdio.h>

#include <karpenter/karpenter.h>

#include "aws_input.h"
#include "common/ptrs.h"
#include "manifests.h"

/* Growable arrays of borrowed pointers: the library's (common/ptrs.h). */

/* The decoded objects by kind, in input order (kp_cluster_new orders them
 * canonically). */
typedef struct cli_objects {
	kp__ptrs nodepools, nodeclaims, kwok_nodeclasses, nodes, pods, daemonsets, pdbs, pvcs,
		pvs, storage_classes, csi_nodes, namespaces;
	/* only when cli_cluster_input.read_volume_attachments is set */
	kp__ptrs volume_attachments;
	/* only with --provider aws (cli_cluster_input.aws) */
	kp__ptrs ec2_nodeclasses;
	struct cli_seen *seen; /* for duplicate detection */
	size_t n_seen, cap_seen;
} cli_objects;

typedef struct cli_cluster_input {
	/* set by the caller before loading: VolumeAttachments are read
	 * (reconcile: Node termination waits for them); otherwise they are
	 * skipped as a kind the command does not read */
	int read_volume_attachments;
	/* set by the caller before loading: --provider aws and its options
	 * (NULL or not enabled: KWOK) */
	const cli_aws_options *aws;
	cli_manifests manifests;
	kp_decode_result **decoded;
	size_t n_decoded;
	cli_objects objs;
	kp_instance_types *its;
	kp_wellknown *wk;
	struct kp_registry *registry; /* the core kinds and KWOKNodeClass */
	uint32_t kwok_kind;           /* KWOKNodeClass's id in registry */
	uint32_t aws_kind;            /* EC2NodeClass's id in registry (aws only) */
	struct kp_aws_catalog *aws_catalog; /* aws only: the catalogue documents */
	/* aws only, filled by cli_cluster_input_spec: the instance types of
	 * each EC2NodeClass (in objs.ec2_nodeclasses order) and their names */
	kp_instance_types **aws_class_its;
	const char **aws_class_names;
	/* filled by cli_cluster_input_spec */
	kp_nodeclass_status *classes;
	const kp_nodeclass_status **class_ptrs;
	kp_instance_types **pool_its;
} cli_cluster_input;

/*
 * Read, decode, default and validate the manifests of @p files and the
 * catalogue @p catalogue (NULL: the KWOK built-in). @p prog prefixes
 * messages on @p err ("kubectl-karpenter simulate"). @p what ends the
 * invalid-input line ("nothing simulated"). Returns the exit code: CLI_OK,
 * CLI_USAGE (a path or the catalogue cannot be read), CLI_INVALID (invalid
 * input, out of memory), after printing why.
 */
int cli_cluster_input_load(cli_cluster_input *in, const char *const *files, size_t n_files,
			   const char *catalogue, const char *prog, const char *what, FILE *err);

/*
 * Fill @p spec (initialised by the caller with KP_CLUSTER_SPEC_INIT) with
 * the loaded objects: every NodePool offered the loaded catalogue, node
 * class readiness from the KWOKNodeClasses' Ready conditions, the
 * well-known labels. @p spec borrows from @p in. 0, or -1 when out of
 * memory (printed).
 */
int cli_cluster_input_spec(cli_cluster_input *in, kp_cluster_spec *spec, const char *prog,
			   FILE *err);

/* A registry with the core kinds and KWOKNodeClass (kp_kwok_register),
 * whose id goes to *kwok_kind: what every command decodes with. */
int cli_registry_new(struct kp_registry **out, uint32_t *kwok_kind, kp_error *err);

/* Free everything (NULL-safe members) and zero @p in. */
void cli_cluster_input_free(cli_cluster_input *in);

/* ------------------------------------------------------------------ */
/* Option parsing shared by the commands                               */

/* One option: --name VALUE, --name=VALUE and, with a short name, -x VALUE
 * and -xVALUE. Every option takes a value. */
typedef struct cli_option {
	const char *name, *short_name;
	int id; /* > 0 */
} cli_option;

/*
 * Parse argv[*i] (advancing *i past a separate value): returns the option's
 * id and sets *val, or 0 after printing "PROG: unknown argument" or "needs
 * a value" on @p err (a usage error).
 */
int cli_next_option(int argc, char **argv, int *i, const cli_option *opts, size_t n_opts,
		    const char **val, const char *prog, FILE *err);

enum { CLI_OUT_TEXT, CLI_OUT_JSON, CLI_OUT_YAML };

/* "text" (or "wide"), "json", "yaml" -> CLI_OUT_*; -1 after printing why. */
int cli_parse_output(const char *val, const char *prog, FILE *err);

/* --now: an RFC 3339 date-time -> Unix ms; -1 after printing why (a usage
 * error). */
int cli_parse_now(const char *val, int64_t *now_ms, const char *prog, FILE *err);

/* The clock when --now is not given: the current time in Unix ms (0 if the
 * system has none). */
int64_t cli_clock_now_ms(void);

/* One feature gate a command accepts, and its flag bit. */
typedef struct cli_gate {
	const char *name;  /* e.g. "NodeRepair" */
	uint32_t bit;
} cli_gate;

/* --feature-gates "Name=true|false[,Name=true|false...]" over @p gates:
 * sets or clears each named gate's bit in *bits; -1 after printing the
 * first entry that is not a known gate with true or false (a usage error;
 * *bits is then unchanged). */
int cli_parse_feature_gates(const char *val, const cli_gate *gates, size_t n_gates,
			    uint32_t *bits, const char *prog, FILE *err);

#endif
