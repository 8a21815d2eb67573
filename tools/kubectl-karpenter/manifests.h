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
} cli_manifests;

#define CLI_MANIFESTS_INIT { NULL, 0, 0, 0 }

/*
 * Read PATH (a file, "-" or a directory) and append its files to @p m.
 * Returns 0, or -1 after printing "PROG: why" on @p err (unreadable path,
 * stdin given twice, a directory without manifests, out of memory); @p m
 * keeps what was read before.
 */
int cli_manifests_add(cli_manifests *m, const char *path, const char *prog, FILE *err);

/* Free every file's text and name and reset @p m (NULL-safe). */
void cli_manifests_free(cli_manifests *m);

#endif
