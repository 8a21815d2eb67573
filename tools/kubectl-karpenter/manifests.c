/*
 * kubectl-karpenter: reading the manifests named by -f (see manifests.h).
 * SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <karpenter/codec.h>

#include "cli.h"
#include "manifests.h"

/*
 * Read a whole stream, refusing more than @p limit bytes with EFBIG, so
 * that a huge file or an endless stdin is refused before it is held in
 * memory: the buffer never grows beyond limit + 1 bytes (the one byte that
 * tells "too large").
 */
static char *read_stream(FILE *f, size_t limit, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	/* A regular file is read into one buffer of its size (and the byte
	 * that tells "grew meanwhile" or "too large"), without the copies and
	 * page faults of a buffer doubling its way up to it. */
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
		cap = (uintmax_t)st.st_size < limit ? (size_t)st.st_size + 1 : limit + 1;
	char *buf = malloc(cap);
	if (!buf) {
		errno = ENOMEM;
		return NULL;
	}
	cli_heap_advise(buf, cap);
	for (;;) {
		if (n == cap) {
			if (n > limit) {
				free(buf);
				errno = EFBIG;
				return NULL;
			}
			size_t ncap = cap > limit / 2 ? limit + 1 : cap * 2;
			char *nb = realloc(buf, ncap);
			if (!nb) {
				free(buf);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			cap = ncap;
		}
		size_t r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0) {
			if (ferror(f)) {
				int e = errno ? errno : EIO;
				free(buf);
				errno = e;
				return NULL;
			}
			break;
		}
	}
	if (n > limit) {
		free(buf);
		errno = EFBIG;
		return NULL;
	}
	*len = n;
	return buf;
}

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

/* Append one file; takes @p name (malloc'd) in every case. */
static int append(cli_manifests *m, char *name, char *data, size_t len)
{
	if (m->count == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 8;
		cli_manifest *items = realloc(m->items, cap * sizeof(*items));
		if (!items) {
			free(name);
			free(data);
			return -1;
		}
		m->items = items;
		m->cap = cap;
	}
	m->items[m->count].name = name;
	m->items[m->count].data = data;
	m->items[m->count].len = len;
	m->count++;
	return 0;
}

/* Read PATH whole: 0, or the errno (EFBIG over @p limit). */
static int read_path(const char *path, size_t limit, char **data, size_t *len)
{
	errno = 0;
	FILE *f = fopen(path, "rb");
	*data = f ? read_stream(f, limit, len) : NULL;
	int e = errno ? errno : EIO;
	if (f)
		fclose(f);
	return *data ? 0 : e;
}

/* The exit code for a read that failed with @p e, after saying why. */
static int read_failed(const char *path, size_t limit, const char *what, int e, const char *prog,
		       FILE *err)
{
	if (e == EFBIG)
		fprintf(err, "%s: \"%s\" is larger than %zu MiB, the most %s may be\n", prog, path,
			limit >> 20, what);
	else if (e == ENOMEM)
		fprintf(err, "%s: out of memory\n", prog);
	else
		fprintf(err, "%s: cannot read \"%s\": %s\n", prog, path, strerror(e));
	return e == ENOMEM ? CLI_INVALID : CLI_USAGE;
}

int cli_read_file(const char *path, size_t limit, const char *what, char **data, size_t *len,
		  const char *prog, FILE *err)
{
	int e = read_path(path, limit, data, len);
	return e ? read_failed(path, limit, what, e, prog, err) : CLI_OK;
}

/* What the next input may hold: the per-file limit, or what is left of
 * the total when that is less (then *by_total is set). */
static size_t input_limit(const cli_manifests *m, int *by_total)
{
	size_t left = m->total < CLI_MAX_TOTAL_INPUT ? CLI_MAX_TOTAL_INPUT - m->total : 0;
	*by_total = left < KP_DECODE_DEFAULT_MAX_BYTES;
	return *by_total ? left : KP_DECODE_DEFAULT_MAX_BYTES;
}

/* Read one file and append it; takes @p name (malloc'd) in every case. */
static int add_file(cli_manifests *m, char *name, const char *prog, FILE *err)
{
	size_t len = 0;
	char *data = NULL;
	int by_total = 0;
	size_t limit = input_limit(m, &by_total);
	int e = read_path(name, limit, &data, &len);
	if (e) {
		int rc = CLI_USAGE;
		if (e == EFBIG && by_total)
			fprintf(err, "%s: the inputs are larger than %zu MiB together, the most one "
				     "command reads (at \"%s\")\n", prog, CLI_MAX_TOTAL_INPUT >> 20, name);
		else
			rc = read_failed(name, KP_DECODE_DEFAULT_MAX_BYTES, "a manifest", e, prog, err);
		free(name);
		return rc;
	}
	m->total += len;
	cli_heap_prepare(m->total);
	if (append(m, name, data, len)) {
		fprintf(err, "%s: out of memory\n", prog);
		return CLI_INVALID;
	}
	return CLI_OK;
}

static int is_manifest_name(const char *n)
{
	size_t l = strlen(n);
	if (n[0] == '.')
		return 0;
	return (l > 5 && !strcmp(n + l - 5, ".yaml")) || (l > 4 && !strcmp(n + l - 4, ".yml")) ||
	       (l > 5 && !strcmp(n + l - 5, ".json"));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* DIR/NAME, allocated. */
static char *join(const char *dir, const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name);
	int slash = dl && dir[dl - 1] == '/';
	char *full = malloc(dl + !slash + nl + 1);
	if (!full)
		return NULL;
	memcpy(full, dir, dl);
	if (!slash)
		full[dl++] = '/';
	memcpy(full + dl, name, nl + 1);
	return full;
}

/*
 * A directory's manifest files. A sub-directory named like a manifest
 * (x.yaml/) is not one and is skipped before counting, so a directory that
 * holds only such sub-directories has no manifest file, as an empty one.
 * Any other entry with a manifest name is read, so one that cannot be read
 * (a dangling link, no permission) is reported, not skipped.
 */
static int add_dir(cli_manifests *m, const char *path, const char *prog, FILE *err)
{
	DIR *d = opendir(path);
	if (!d) {
		fprintf(err, "%s: cannot read \"%s\": %s\n", prog, path, strerror(errno));
		return CLI_USAGE;
	}
	char **names = NULL; /* full paths: one prefix, so they sort as the names */
	size_t n = 0, cap = 0;
	int rc = CLI_OK;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (!is_manifest_name(de->d_name))
			continue;
		char *full = join(path, de->d_name);
		if (!full) {
			rc = CLI_INVALID;
			break;
		}
		struct stat st;
		if (stat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
			free(full);
			continue;
		}
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 16;
			char **nn = realloc(names, nc * sizeof(*nn));
			if (!nn) {
				free(full);
				rc = CLI_INVALID;
				break;
			}
			names = nn;
			cap = nc;
		}
		names[n++] = full;
	}
	closedir(d);
	if (rc) {
		fprintf(err, "%s: out of memory\n", prog);
		goto done;
	}
	if (!n) {
		fprintf(err, "%s: \"%s\" has no *.yaml, *.yml or *.json file\n", prog, path);
		rc = CLI_USAGE;
		goto done;
	}
	qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n && !rc; i++) {
		rc = add_file(m, names[i], prog, err);
		names[i] = NULL; /* taken by add_file */
	}
done:
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

int cli_manifests_add(cli_manifests *m, const char *path, const char *prog, FILE *err)
{
	if (!*path) {
		fprintf(err, "%s: empty file name\n", prog);
		return CLI_USAGE;
	}
	if (!strcmp(path, "-")) {
		if (m->stdin_used++) {
			fprintf(err, "%s: stdin (-) given twice\n", prog);
			return CLI_USAGE;
		}
		size_t len = 0;
		int by_total = 0;
		size_t limit = input_limit(m, &by_total);
		errno = 0;
		char *data = read_stream(stdin, limit, &len);
		int e = errno ? errno : EIO;
		char *name = data ? dup_str("<stdin>") : NULL;
		if (!data || !name) {
			free(data);
			if (data || e == ENOMEM) {
				fprintf(err, "%s: out of memory\n", prog);
				return CLI_INVALID;
			}
			if (e == EFBIG && by_total)
				fprintf(err, "%s: the inputs are larger than %zu MiB together, the "
					     "most one command reads (at stdin)\n", prog,
					CLI_MAX_TOTAL_INPUT >> 20);
			else if (e == EFBIG)
				fprintf(err, "%s: stdin is larger than %zu MiB, the most a manifest may be\n",
					prog, (size_t)(KP_DECODE_DEFAULT_MAX_BYTES >> 20));
			else
				fprintf(err, "%s: cannot read stdin: %s\n", prog, strerror(e));
			return CLI_USAGE;
		}
		m->total += len;
		cli_heap_prepare(m->total);
		if (append(m, name, data, len)) {
			fprintf(err, "%s: out of memory\n", prog);
			return CLI_INVALID;
		}
		return CLI_OK;
	}
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return add_dir(m, path, prog, err);
	char *name = dup_str(path);
	if (!name) {
		fprintf(err, "%s: out of memory\n", prog);
		return CLI_INVALID;
	}
	return add_file(m, name, prog, err);
}

void cli_manifests_free(cli_manifests *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->count; i++) {
		free(m->items[i].name);
		free(m->items[i].data);
	}
	free(m->items);
	m->items = NULL;
	m->count = m->cap = 0;
	m->stdin_used = 0;
	m->total = 0;
}
