/*
 * kubectl-karpenter: shared definitions of the subcommands.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KUBECTL_KARPENTER_CLI_H
#define KUBECTL_KARPENTER_CLI_H

#include <stdio.h>

/* Exit codes, documented in the README (a table, one row per condition)
 * and in `--help`. */
enum {
	CLI_OK = 0,      /* success */
	CLI_INVALID = 1, /* invalid input or a failed decision; out of memory;
			    output that cannot be written */
	CLI_USAGE = 2    /* bad command line, or a path it names that cannot be
			    read, has no manifest file or is over the size limit */
};

typedef struct cli_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv, FILE *out, FILE *err);
	void (*usage)(FILE *out);
} cli_command;

extern const cli_command cli_cmd_version;
extern const cli_command cli_cmd_validate;
extern const cli_command cli_cmd_simulate;
extern const cli_command cli_cmd_hash;
extern const cli_command cli_cmd_reconcile;
extern const cli_command cli_cmd_disrupt;
extern const cli_command cli_cmd_convert;
extern const cli_command cli_cmd_instance_types;

#endif
