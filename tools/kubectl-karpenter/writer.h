/*
 * kubectl-karpenter: a streaming JSON / YAML writer.
 *
 * The commands write their documents as they walk their results, through a
 * buffered writer, instead of building a cJSON tree of the whole output
 * and printing it afterwards: the output of a large simulation (91 MB of
 * JSON for 20,000 pods) then costs no memory beyond the writer's buffer
 * and a stack of open containers. The bytes are exactly those of
 * output.h's cJSON writers (kubectl's 4-space JSON indent; block YAML with
 * "- " under the key, empty containers as {} and []), whose text rules
 * (string escaping, plain YAML scalars, numbers, explicit YAML keys) are
 * shared: output.c writes a cJSON document through this writer.
 *
 * Calls: an object's members are cli_writer_key followed by one value; an
 * array's elements are values; a value is a scalar or a begin/end pair.
 * Misuse (a value without a key in an object, unbalanced ends) and a
 * number that is not finite set an error that cli_writer_close returns;
 * nothing after it is written. A command checks its numbers before it
 * starts writing (see simulate's check_costs), so that an error never
 * leaves half a document.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KUBECTL_KARPENTER_WRITER_H
#define KUBECTL_KARPENTER_WRITER_H

#include <stddef.h>
#include <stdio.h>

typedef struct cli_writer cli_writer;

enum cli_writer_format { CLI_WRITER_JSON, CLI_WRITER_YAML };

/* Errors of cli_writer_close (0 when everything was written). */
enum {
	CLI_WRITER_NONFINITE = -1, /* a number is NaN or infinite */
	CLI_WRITER_NOMEM = -2,     /* out of memory */
	CLI_WRITER_MISUSE = -3,    /* calls out of order (a bug in the caller) */
	CLI_WRITER_IO = -4         /* the stream refused the output */
};

/* A writer of one document to @p out; NULL when out of memory. */
cli_writer *cli_writer_new(FILE *out, enum cli_writer_format format);

void cli_writer_begin_object(cli_writer *w);
void cli_writer_end_object(cli_writer *w);
void cli_writer_begin_array(cli_writer *w);
void cli_writer_end_array(cli_writer *w);
/* The next member's key, in an object. */
void cli_writer_key(cli_writer *w, const char *key);
/* Scalars. A NULL string is written as null. */
void cli_writer_string(cli_writer *w, const char *s);
void cli_writer_number(cli_writer *w, double d);
void cli_writer_bool(cli_writer *w, int b);
void cli_writer_null(cli_writer *w);

/* An object's member: the key, then the value (a NULL string is null). */
void cli_writer_member_string(cli_writer *w, const char *key, const char *s);
void cli_writer_member_number(cli_writer *w, const char *key, double d);
void cli_writer_member_bool(cli_writer *w, const char *key, int b);

/*
 * Splice a JSON value given as text (e.g. an object kp_encode wrote) into
 * the document, as if each of its members had been written by the calls
 * above: strings are unescaped and re-written in the writer's format,
 * numbers read as doubles. Returns 0, or -1 for text that is not one JSON
 * value (then the writer's error is CLI_WRITER_MISUSE).
 */
int cli_writer_json_value(cli_writer *w, const char *text, size_t len);

/* Write @p s as a JSON string (quoted and escaped as the writer does) to
 * @p out; 0 or a CLI_WRITER_* error. */
int cli_write_json_string(FILE *out, const char *s);

/*
 * Finish: end the document (JSON: a newline), flush the buffer and free
 * the writer. Returns 0 or the first error (CLI_WRITER_*); with an error
 * some output may have been written.
 */
int cli_writer_close(cli_writer *w);

/*
 * cli_writer_close for a command: an error is printed as "PROG: out of
 * memory" or "PROG: cannot write the document", unless @p failed (the
 * command stopped writing and said why). 0, or -1 when failed or an error.
 */
int cli_writer_finish(cli_writer *w, int failed, const char *prog, FILE *err);

#endif
