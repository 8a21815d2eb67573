/*
 * kubectl-karpenter: writing a cJSON document as JSON (kubectl's 4-space
 * indent) or as block YAML, so that both read back as the same document.
 *
 * Strings: invalid UTF-8 bytes are written as U+FFFD, one per byte, as Go's
 * encoding/json does, in both formats; JSON escapes what RFC 8259 requires
 * plus U+2028/U+2029 (as Go does); YAML writes a string plain only when
 * every YAML 1.1 and 1.2 reader reads it back as the same string, and
 * otherwise double-quoted with every character YAML does not allow raw
 * escaped (C0 and C1 controls, DEL, NEL, U+2028/U+2029, U+FEFF, U+FFFE,
 * U+FFFF). A mapping key too long for a YAML simple key is written as an
 * explicit key ("? key").
 *
 * Numbers: the shortest text that reads back as the same double; a number
 * that is not finite (NaN, an infinity) cannot be written: the writers
 * then write nothing and name it.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KUBECTL_KARPENTER_OUTPUT_H
#define KUBECTL_KARPENTER_OUTPUT_H

#include <stdio.h>

#include <cjson/cJSON.h>

/* Return codes of the writers. */
enum {
	CLI_OUTPUT_OK = 0,
	CLI_OUTPUT_NONFINITE = -1, /* a number is NaN or infinite; nothing written */
	CLI_OUTPUT_NOMEM = -2      /* out of memory; nothing written */
};

/*
 * Find the first number of doc (depth first, in document order) that is not
 * finite. Returns 0 when there is none, CLI_OUTPUT_NONFINITE when there is
 * one, with *path (when path is not NULL) set to an allocated path such as
 * "nodeClaims[2].price" or "cost" (free() it; NULL when it could not be
 * allocated), or CLI_OUTPUT_NOMEM.
 */
int cli_output_find_nonfinite(const cJSON *doc, char **path);

/*
 * Write doc as JSON followed by a newline. Returns CLI_OUTPUT_OK, or an
 * error code of cli_output_find_nonfinite (then nothing is written and
 * *bad_path, when bad_path is not NULL, names the number).
 */
int cli_output_json(FILE *out, const cJSON *doc, char **bad_path);

/* Write doc as block YAML (as cli_output_json). */
int cli_output_yaml(FILE *out, const cJSON *doc, char **bad_path);

#endif
