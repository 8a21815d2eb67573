/*
 * kubectl-karpenter: reading the manifests named by -f, as kubectl does.
 *
 * A path is a file, "-" (stdin, at most once) or a directory, which stands
 * for its *.yaml, *.yml and *.json files sorted by name (byte order), not
 * recursively (kubectl -f DIR without -R). Everything is read before any
 * decoding, so an unreadable path is reported before any output.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KUBECTL_KARPENTER_MANIFESTS_H
#define KUBECTL_KARPENTER_MANIFESTS_H

#include <stddef.h>
#include <stdio.h>

/* One file's text. */
typedef struct cli_manifest {
	char *name; /* the path as given (a directory's files as DIR/FILE), or "<stdin>" */
	char *data; /* its bytes (not NUL-terminated) */
	size_t len; /* their number */
} cli_manifest;

typedef struct cli_manifests {
	cli_manifest *items;
	size_t count;
	size_t cap;
	int stdin_used;
	size_t total; /* bytes read so far, against CLI_MAX_TOTAL_INPUT */
} cli_manifests;

#define CLI_MANIFESTS_INIT { NULL, 0, 0, 0, 0 }

/* The most all -f inputs of one command may hold together (each file and
 * stdin is at most KP_DECODE_DEFAULT_MAX_BYTES, 64 MiB): what the command
 * holds in memory is a small multiple of it. */
#define CLI_MAX_TOTAL_INPUT ((size_t)256 << 20)

/*
 * Read PATH (a file, "-" or a directory) and append its files to @p m.
 * Returns the exit code: CLI_OK; CLI_USAGE after printing "PROG: why" on
 * @p err for a path that cannot be read (missing, no permission, ...),
 * stdin given twice, an empty name, a directory without a manifest file,
 * a file larger than KP_DECODE_DEFAULT_MAX_BYTES, inputs larger than
 * CLI_MAX_TOTAL_INPUT together (refused as soon as a read passes it);
 * CLI_INVALID when out of memory. @p m keeps what was read before.
 */
int cli_manifests_add(cli_manifests *m, const char *path, const char *prog, FILE *err);

/*
 * Read the file PATH whole into *data (malloc'd, not NUL-terminated) and
 * *len, refusing more than @p limit bytes (a multiple of 1 MiB) as "the
 * most WHAT may be". Returns the exit code as cli_manifests_add, after
 * printing why on @p err; a directory cannot be read as a file (EISDIR).
 */
int cli_read_file(const char *path, size_t limit, const char *what, char **data, size_t *len,
		  const char *prog, FILE *err);

/* Free every file's text and name and reset @p m (NULL-safe). */
void cli_manifests_free(cli_manifests *m);

/* Get malloc's heap ready for the objects decoded from @p input_bytes of
 * manifests (heap.c: transparent huge pages where the system has them).
 * Only ever grows; no effect on what is decoded. */
void cli_heap_prepare(size_t input_bytes);
/* The same for a large buffer of its own (the input as read). */
void cli_heap_advise(void *p, size_t n);

#endif
