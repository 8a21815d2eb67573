/*
 * kubectl-karpenter: documents through the library's emitter (writer.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include "writer.h"

/* The emitter hands over 64 KiB at a time. */
static int file_write(void *ctx, const char *data, size_t len)
{
	return fwrite(data, 1, len, ctx) == len ? 0 : -1;
}

static cli_writer *writer_to(FILE *out, uint32_t format, uint32_t indent)
{
	kp_emitter_options o = KP_EMITTER_OPTIONS_INIT;
	o.format = format;
	o.indent = indent;
	kp_emitter *em = NULL;
	return kp_emitter_new(&em, &o, file_write, out, NULL) == KP_OK ? em : NULL;
}

cli_writer *cli_writer_new(FILE *out, enum cli_writer_format format)
{
	return writer_to(out, format == CLI_WRITER_YAML ? KP_FORMAT_YAML : KP_FORMAT_JSON,
			 KP_EMITTER_INDENT_KUBECTL);
}

/* The emitter's error as the commands name it. */
static int cli_error(int rc, const kp_error *e)
{
	switch (rc) {
	case KP_OK: return 0;
	case KP_ENOMEM: return CLI_WRITER_NOMEM;
	case KP_EIO: return CLI_WRITER_IO;
	default: return strstr(e->message, "finite") ? CLI_WRITER_NONFINITE : CLI_WRITER_MISUSE;
	}
}

int cli_write_json_string(FILE *out, const char *s)
{
	cli_writer *w = writer_to(out, KP_FORMAT_JSON, KP_EMITTER_INDENT_COMPACT);
	if (!w)
		return CLI_WRITER_NOMEM;
	kp_emitter_string(w, s);
	kp_error e = KP_ERROR_INIT;
	return cli_error(kp_emitter_close(w, &e), &e);
}

void cli_writer_error(const kp_error *e, const char *prog, FILE *err)
{
	if (e->field[0])
		fprintf(err, "%s: cannot write %s: %s\n", prog, e->field, e->message);
	else
		fprintf(err, "%s: %s\n", prog, e->message);
}

int cli_writer_close(cli_writer *w, FILE *out)
{
	if (!w)
		return CLI_WRITER_NOMEM;
	kp_error e = KP_ERROR_INIT;
	int rc = cli_error(kp_emitter_close(w, &e), &e);
	if (fflush(out) != 0 && !rc)
		rc = CLI_WRITER_IO;
	return rc;
}

int cli_writer_finish(cli_writer *w, FILE *out, int failed, const char *prog, FILE *err)
{
	int rc = cli_writer_close(w, out);
	if (rc && !failed)
		fprintf(err, "%s: %s\n", prog,
			rc == CLI_WRITER_NOMEM ? "out of memory" : "cannot write the document");
	return failed || rc ? -1 : 0;
}
