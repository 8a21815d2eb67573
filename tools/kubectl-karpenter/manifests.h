/*
 * kubectl-karpenter: reading the manifests named by -f, as kubectl does.
 *
 * A path is a file, "-" (stdin, at most once) or a directory, which stands
 * for its *.yaml, *.yml and *.json files sorted by name (byte order), not
 * recursively (kubectl -f DIR without -R). Every path is checked before
 * anything is decoded, so an unreadable path is reported before any
 * output; the text is then read piece by piece as it is decoded.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KUBECTL_KARPENTER_MANIFESTS_H
#define KUBECTL_KARPENTER_MANIFESTS_H

#include <stddef.h>
#include <stdio.h>

#include <karpenter/codec.h>

/* One input: a file or stdin, opened and decoded only when it is read
 * (cli_manifest_decode), so that what a command holds is the decoded
 * objects, never the text. */
typedef struct cli_manifest {
	char *name;   /* the path as given (a directory's files as DIR/FILE), or "<stdin>" */
	int is_stdin;
	size_t size;  /* the size of a regular file when it was added; 0 otherwise */
} cli_manifest;

typedef struct cli_manifests {
	cli_manifest *items;
	size_t count;
	size_t cap;
	int stdin_used;
	size_t total; /* bytes of the regular files added, then bytes read */
	size_t read;  /* bytes read so far, against cli_limits.max_input */
} cli_manifests;

#define CLI_MANIFESTS_INIT { NULL, 0, 0, 0, 0, 0 }

/*
 * Input limits, the same for every command (README): one manifest file or
 * stdin, and all -f inputs of one command together. Reading is streamed, so
 * memory follows the decoded objects, not these: the defaults read a dump
 * of a 5,000-node, 100,000-pod cluster (1.2 GB of kubectl JSON) with room to
 * spare. main() sets them from --max-file-size and --max-input-size.
 */
typedef struct cli_input_limits {
	size_t max_file;
	size_t max_input;
} cli_input_limits;

#define CLI_DEFAULT_MAX_FILE ((size_t)8 << 30)
#define CLI_DEFAULT_MAX_INPUT ((size_t)32 << 30)
extern cli_input_limits cli_limits;

/*
 * Take the input-limit options (--max-file-size SIZE, --max-input-size
 * SIZE, or with "=") out of argv[first..argc), setting cli_limits; SIZE is
 * bytes or a quantity with Ki, Mi, Gi, Ti (or k, M, G, T). Returns the new
 * argc, or -1 after printing why on @p err (a usage error).
 */
int cli_limits_take(int argc, char **argv, int first, FILE *err);

/*
 * Check PATH (a file, "-" or a directory) and append its files to @p m:
 * each is opened to see that it can be read, and a regular file's size is
 * checked against the limits, so that a path that cannot be read or is too
 * large is reported before anything is decoded. Returns the exit code:
 * CLI_OK; CLI_USAGE after printing "PROG: why" on @p err for a path that
 * cannot be read (missing, no permission, ...), stdin given twice, an
 * empty name, a directory without a manifest file, a file larger than
 * cli_limits.max_file, files larger than cli_limits.max_input together;
 * CLI_INVALID when out of memory. @p m keeps what was added before.
 */
int cli_manifests_add(cli_manifests *m, const char *path, const char *prog, FILE *err);

/*
 * Decode input @p i of @p m with kp_decode_read, reading it piece by piece
 * (the limits are checked as it is read: stdin and files that grew). On
 * failure *usage is set when the input could not be read or passed a limit
 * (exit 2; e->message names the input, and the option for a limit), else
 * the decode error is in @p e (exit 1). opts->max_bytes is set from the
 * limits.
 */
int cli_manifest_decode(cli_manifests *m, size_t i, kp_decode_options *opts,
			kp_decode_result **out, kp_error *e, int *usage);

/*
 * Read the file PATH whole into *data (malloc'd, not NUL-terminated) and
 * *len, refusing more than @p limit bytes (a multiple of 1 MiB) as "the
 * most WHAT may be". Returns the exit code as cli_manifests_add, after
 * printing why on @p err; a directory cannot be read as a file (EISDIR).
 */
int cli_read_file(const char *path, size_t limit, const char *what, char **data, size_t *len,
		  const char *prog, FILE *err);

/* Free every input's name and reset @p m (NULL-safe). */
void cli_manifests_free(cli_manifests *m);

/* Get malloc's heap ready for the objects decoded from @p input_bytes of
 * manifests (heap.c: transparent huge pages where the system has them).
 * Only ever grows; no effect on what is decoded. */
void cli_heap_prepare(size_t input_bytes);
/* The same for a large buffer of its own (the input as read). */
void cli_heap_advise(void *p, size_t n);

#endif
