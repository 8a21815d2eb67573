/*
 * kubectl-karpenter: Karpenter's decisions, offline, from the command line.
 * Installed on PATH it is also the kubectl plugin `kubectl karpenter`.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "manifests.h"

static const cli_command *const commands[] = {
	&cli_cmd_version,
	&cli_cmd_validate,
	&cli_cmd_simulate,
	&cli_cmd_hash,
	&cli_cmd_reconcile,
	&cli_cmd_disrupt,
	&cli_cmd_convert,
	&cli_cmd_instance_types,
};
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
	fputs("Usage: kubectl-karpenter COMMAND [OPTIONS]\n"
	      "       kubectl karpenter COMMAND [OPTIONS]   (as a kubectl plugin)\n"
	      "\n"
	      "Commands:\n", out);
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fputs("\n"
	      "Run 'kubectl-karpenter COMMAND --help' for a command's options.\n"
	      "Every command that reads manifests also takes:\n"
	      "  --max-file-size SIZE   the most one manifest file or stdin may hold (default 8Gi)\n"
	      "  --max-input-size SIZE  the most all -f inputs may hold together (default 32Gi)\n"
	      "Exit codes: 0 success, 1 invalid input or a failed decision, 2 usage error\n"
	      "(an unreadable path or one without a manifest included).\n", out);
}

/*
 * Output that could not be written (a full disk, a closed pipe) is a
 * failure, never a silent success: exit 1 unless the command already
 * failed.
 */
static int finish_output(int rc)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	/* errno is known only when this flush failed, not when an earlier
	 * write (or a command's own fflush) did. */
	if (errno)
		fprintf(stderr, "kubectl-karpenter: cannot write the output: %s\n", strerror(errno));
	else
		fputs("kubectl-karpenter: cannot write the output\n", stderr);
	return rc ? rc : CLI_INVALID;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return CLI_USAGE;
	}
	const char *name = argv[1];
	if (!strcmp(name, "-h") || !strcmp(name, "--help") || !strcmp(name, "help")) {
		usage(stdout);
		return CLI_OK;
	}
	for (size_t i = 0; i < N_COMMANDS; i++) {
		if (strcmp(commands[i]->name, name) != 0)
			continue;
		for (int a = 2; a < argc; a++) {
			if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
				commands[i]->usage(stdout);
				return CLI_OK;
			}
		}
		/* The input limits, one pair of options for every command. */
		int n = cli_limits_take(argc, argv, 2, stderr);
		if (n < 0)
			return CLI_USAGE;
		int rc = commands[i]->run(n - 1, argv + 1, stdout, stderr);
		return finish_output(rc);
	}
	fprintf(stderr, "kubectl-karpenter: unknown command \"%s\"\n\n", name);
	usage(stderr);
	return CLI_USAGE;
}
