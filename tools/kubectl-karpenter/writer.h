/*
 * kubectl-karpenter: the commands' documents, written through the
 * library's streaming emitter (karpenter/emitter.h).
 *
 * The commands write their documents as they walk their results instead of
 * building a tree of the whole output: the output of a large simulation
 * (91 MB of JSON for 20,000 pods) then costs no memory beyond the
 * emitter's buffer and a stack of open containers. The text rules
 * (kubectl's 4-space JSON, block YAML, string escaping, plain YAML
 * scalars, numbers) are the library's, so a command's document and
 * kp_encode's JSON are written by one emitter; Kubernetes objects go in
 * straight from their structs (kp_encode_emit).
 *
 * This header only binds an emitter to a stdio stream and maps its errors
 * to the commands' messages; the calls are the emitter's.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KUBECTL_KARPENTER_WRITER_H
#define KUBECTL_KARPENTER_WRITER_H

#include <stddef.h>
#include <stdio.h>

#include <karpenter/karpenter.h>

/* An object's member, the key then the value: the library's helpers
 * (kp__emit_member_string, _number, _bool; lib/document/members.c,
 * compiled into the commands). */
#include "document/members.h"

typedef kp_emitter cli_writer;

enum cli_writer_format { CLI_WRITER_JSON, CLI_WRITER_YAML };

/* Errors of cli_writer_close (0 when everything was written). */
enum {
	CLI_WRITER_NONFINITE = -1, /* a number is NaN or infinite */
	CLI_WRITER_NOMEM = -2,     /* out of memory */
	CLI_WRITER_MISUSE = -3,    /* calls out of order (a bug in the caller) */
	CLI_WRITER_IO = -4         /* the stream refused the output */
};

/* An emitter of one document to @p out (kubectl's 4-space JSON, or YAML);
 * NULL when out of memory. */
cli_writer *cli_writer_new(FILE *out, enum cli_writer_format format);

/* Write @p s as a JSON string (quoted and escaped as the emitter does) to
 * @p out; 0 or a CLI_WRITER_* error. */
int cli_write_json_string(FILE *out, const char *s);

/* Why a library encoder (kp_*_result_write) failed: "PROG: cannot write
 * FIELD: MESSAGE" when the error names a member of the document, else
 * "PROG: MESSAGE". */
void cli_writer_error(const kp_error *e, const char *prog, FILE *err);

/*
 * Finish: end the document (JSON: a newline), flush and free the emitter,
 * then flush @p out, the stream it was made for. Returns 0 or the first
 * error (CLI_WRITER_*); with an error some output may have been written.
 */
int cli_writer_close(cli_writer *w, FILE *out);

/*
 * cli_writer_close for a command: an error is printed as "PROG: out of
 * memory" or "PROG: cannot write the document", unless @p failed (the
 * command stopped writing and said why). 0, or -1 when failed or an error.
 */
int cli_writer_finish(cli_writer *w, FILE *out, int failed, const char *prog, FILE *err);

#endif
