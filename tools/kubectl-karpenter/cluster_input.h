/*
 * kubectl-karpenter: reading a cluster the way every cluster command does
 * (simulate, disrupt, reconcile).
 *
 * -f paths are read first (an unreadable path is a usage error before any
 * output), then the instance-type catalogue (--instance-types FILE or the
 * KWOK provider's built-in one), then every document is decoded and given
 * to the library's builder (kp_cluster_builder_add_decoded), which takes
 * the objects as decoded, applies the API server's defaults and validation
 * to Karpenter's kinds (NodePool, NodeClaim, node classes), and refuses an
 * object given twice naming both files: the same rules as a program that
 * builds its cluster with the builder. The commands read the builder's
 * view (kp_cluster_builder_spec, _objects); the objects stay owned by it.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KUBECTL_KARPENTER_CLUSTER_INPUT_H
#define KUBECTL_KARPENTER_CLUSTER_INPUT_H

#include <stdint.h>
#include <stdio.h>

#include <karpenter/karpenter.h>

#include "aws_input.h"
#include "manifests.h"

/* The held objects of one kind, in input order: a view of the builder's
 * (kp_cluster_builder_objects), valid until the input changes. */
typedef struct cli_view {
	const void *const *items;
	size_t count;
} cli_view;

/* The objects by kind, as the builder holds them. */
typedef struct cli_objects {
	cli_view nodepools, nodeclaims, kwok_nodeclasses, nodes, pods, daemonsets, pdbs, pvcs,
		pvs, storage_classes, csi_nodes, namespaces;
	/* only when cli_cluster_input.read_volume_attachments is set */
	cli_view volume_attachments;
	/* only with --provider aws (cli_cluster_input.aws) */
	cli_view ec2_nodeclasses;
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
	kp_decode_result **decoded; /* what the builder did not take */
	size_t n_decoded;
	/* the library's builder: routing by kind, defaults, validation,
	 * identity ("given twice", --apply's replace), the cluster view */
	kp_cluster_builder *builder;
	size_t n_printed; /* the builder's problems printed so far */
	int invalid;      /* a problem made the input invalid */
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
 * disrupt --apply: read, decode, default and validate @p files and let
 * each object replace the loaded one of its kind, namespace and name, or
 * join the input. Exit code as cli_cluster_input_load.
 */
int cli_cluster_input_replace(cli_cluster_input *in, const char *const *files, size_t n_files,
			      const char *prog, const char *what, FILE *err);

/*
 * Fill @p spec (initialised by the caller with KP_CLUSTER_SPEC_INIT; its
 * now_ms is kept) with the builder's view of the loaded objects
 * (kp_cluster_builder_spec): every NodePool offered the loaded catalogue
 * (with --provider aws its EC2NodeClass's), node class readiness from
 * their Ready conditions, the well-known labels. @p spec borrows from
 * @p in. 0, or -1 (printed).
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

/* One feature gate a command accepts: its kp_feature_gate bit (the name is
 * the library's, kp_feature_gate_name). */
typedef struct cli_gate {
	uint32_t bit;
} cli_gate;

/* --feature-gates "Name=true|false[,Name=true|false...]" over @p gates:
 * sets or clears each named gate's bit in *bits; -1 after printing the
 * first entry that is not a known gate with true or false (a usage error;
 * *bits is then unchanged). */
int cli_parse_feature_gates(const char *val, const cli_gate *gates, size_t n_gates,
			    uint32_t *bits, const char *prog, FILE *err);

#endif
