/*
 * kubectl-karpenter simulate: the document writer, shared with the
 * end-to-end benchmark (bench/cli_bench.c), which times each stage of the
 * command through the command's own code.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KUBECTL_KARPENTER_CMD_SIMULATE_H
#define KUBECTL_KARPENTER_CMD_SIMULATE_H

#include <stdio.h>

#include <karpenter/scheduling.h>

/* Write the result as simulate's JSON (CLI_OUT_JSON) or YAML (CLI_OUT_YAML)
 * document; 0, or -1 after saying why on @p err. */
int cli_simulate_write_document(const kp_sched_result *res, int format, FILE *out, FILE *err);

#endif
