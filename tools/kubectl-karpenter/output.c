/*
 * kubectl-karpenter: the JSON and YAML writers of a cJSON document (see
 * output.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "writer.h"

/* ------------------------------------------------------------------ */
/* Finding a number that cannot be written                             */
/* ------------------------------------------------------------------ */

static int simple_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-'))
			return 0;
	return 1;
}

/* Steps from doc down to the bad number, written as a path. */
static int write_path(const cJSON *const *steps, size_t n, char **path)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return -1;
	for (size_t i = 1; i < n; i++) {
		const cJSON *parent = steps[i - 1], *c = steps[i];
		if (cJSON_IsArray(parent)) {
			size_t k = 0;
			for (const cJSON *x = parent->child; x && x != c; x = x->next)
				k++;
			fprintf(f, "[%zu]", k);
		} else if (c->string && simple_name(c->string)) {
			fprintf(f, "%s%s", i > 1 ? "." : "", c->string);
		} else {
			fputc('[', f);
			cli_write_json_string(f, c->string);
			fputc(']', f);
		}
	}
	if (n <= 1)
		fputs("(the document)", f);
	if (fclose(f) != 0) {
		free(text);
		return -1;
	}
	*path = text;
	return 0;
}

int cli_output_find_nonfinite(const cJSON *doc, char **path)
{
	if (path)
		*path = NULL;
	/* Depth-first walk without recursion; steps holds the way down. */
	const cJSON **steps = NULL;
	size_t n = 0, cap = 0;
	const cJSON *v = doc;
	int rc = CLI_OUTPUT_OK;
	while (v) {
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			const cJSON **s = realloc((void *)steps, ncap * sizeof(*s));
			if (!s) {
				rc = CLI_OUTPUT_NOMEM;
				break;
			}
			steps = s;
			cap = ncap;
		}
		steps[n++] = v;
		if (cJSON_IsNumber(v) && !isfinite(v->valuedouble)) {
			rc = CLI_OUTPUT_NONFINITE;
			if (path && write_path(steps, n, path))
				*path = NULL;
			break;
		}
		if ((cJSON_IsArray(v) || cJSON_IsObject(v)) && v->child) {
			v = v->child;
			continue;
		}
		/* Next sibling of v or of the nearest ancestor that has one. */
		v = NULL;
		while (n > 1) {
			const cJSON *done = steps[--n];
			if (done->next) {
				v = done->next;
				break;
			}
		}
	}
	free((void *)steps);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Writing: the cJSON document through the streaming writer            */
/* ------------------------------------------------------------------ */

static void emit(cli_writer *w, const cJSON *v)
{
	if (cJSON_IsObject(v)) {
		kp_emitter_begin_object(w);
		for (const cJSON *c = v->child; c; c = c->next) {
			kp_emitter_key(w, c->string);
			emit(w, c);
		}
		kp_emitter_end_object(w);
	} else if (cJSON_IsArray(v)) {
		kp_emitter_begin_array(w);
		for (const cJSON *c = v->child; c; c = c->next)
			emit(w, c);
		kp_emitter_end_array(w);
	} else if (cJSON_IsString(v)) {
		kp_emitter_string(w, v->valuestring ? v->valuestring : "");
	} else if (cJSON_IsNumber(v)) {
		kp_emitter_number(w, v->valuedouble);
	} else if (cJSON_IsBool(v)) {
		kp_emitter_bool(w, cJSON_IsTrue(v));
	} else {
		kp_emitter_null(w);
	}
}

static int output(FILE *out, const cJSON *doc, char **bad_path, enum cli_writer_format format)
{
	int rc = cli_output_find_nonfinite(doc, bad_path);
	if (rc)
		return rc;
	cli_writer *w = cli_writer_new(out, format);
	if (!w)
		return CLI_OUTPUT_NOMEM;
	emit(w, doc);
	rc = cli_writer_close(w, out);
	/* write errors show in the stream's error flag, as before */
	return rc == CLI_WRITER_NOMEM ? CLI_OUTPUT_NOMEM : CLI_OUTPUT_OK;
}

int cli_output_json(FILE *out, const cJSON *doc, char **bad_path)
{
	return output(out, doc, bad_path, CLI_WRITER_JSON);
}

int cli_output_yaml(FILE *out, const cJSON *doc, char **bad_path)
{
	return output(out, doc, bad_path, CLI_WRITER_YAML);
}
