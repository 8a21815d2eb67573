/*
 * kubectl-karpenter: reading the manifests named by -f (see manifests.h).
 * SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <karpenter/codec.h>

#include "manifests.h"

/*
 * Read a whole stream, refusing more than the decoder would accept
 * (KP_DECODE_DEFAULT_MAX_BYTES) with EFBIG, so that a huge file or an
 * endless stdin is refused before it is held in memory.
 */
static char *read_stream(FILE *f, size_t *len)
{
	const size_t limit = KP_DECODE_DEFAULT_MAX_BYTES;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	if (!buf)
		return NULL;
	for (;;) {
		if (n == cap) {
			if (cap > limit) {
				free(buf);
				errno = EFBIG;
				return NULL;
			}
			char *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			cap *= 2;
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

static int add_file(cli_manifests *m, char *name, const char *prog, FILE *err)
{
	size_t len = 0;
	errno = 0;
	FILE *f = fopen(name, "rb");
	char *data = f ? read_stream(f, &len) : NULL;
	int e = errno ? errno : EIO;
	if (f)
		fclose(f);
	if (!data) {
		if (e == EFBIG)
			fprintf(err, "%s: \"%s\" is larger than %zu MiB, the most a manifest may be\n",
				prog, name, (size_t)(KP_DECODE_DEFAULT_MAX_BYTES >> 20));
		else
			fprintf(err, "%s: cannot read \"%s\": %s\n", prog, name, strerror(e));
		free(name);
		return -1;
	}
	if (append(m, name, data, len)) {
		fprintf(err, "%s: out of memory\n", prog);
		return -1;
	}
	return 0;
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

static int add_dir(cli_manifests *m, const char *path, const char *prog, FILE *err)
{
	DIR *d = opendir(path);
	if (!d) {
		fprintf(err, "%s: cannot read \"%s\": %s\n", prog, path, strerror(errno));
		return -1;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	struct dirent *de;
	errno = 0;
	while ((de = readdir(d)) != NULL) {
		if (!is_manifest_name(de->d_name))
			continue;
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 16;
			char **nn = realloc(names, nc * sizeof(*nn));
			if (!nn) {
				rc = -1;
				break;
			}
			names = nn;
			cap = nc;
		}
		if (!(names[n] = dup_str(de->d_name))) {
			rc = -1;
			break;
		}
		n++;
	}
	closedir(d);
	if (rc) {
		fprintf(err, "%s: out of memory\n", prog);
		goto done;
	}
	if (!n) {
		fprintf(err, "%s: \"%s\" has no *.yaml, *.yml or *.json file\n", prog, path);
		rc = -1;
		goto done;
	}
	qsort(names, n, sizeof(*names), cmp_str);
	size_t plen = strlen(path);
	int slash = plen && path[plen - 1] == '/';
	for (size_t i = 0; i < n && !rc; i++) {
		size_t len = plen + 1 + strlen(names[i]) + 1;
		char *full = malloc(len);
		if (!full) {
			fprintf(err, "%s: out of memory\n", prog);
			rc = -1;
			break;
		}
		snprintf(full, len, "%s%s%s", path, slash ? "" : "/", names[i]);
		struct stat st;
		if (stat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
			free(full); /* a directory named x.yaml: not a manifest */
			continue;
		}
		rc = add_file(m, full, prog, err);
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
		return -1;
	}
	if (!strcmp(path, "-")) {
		if (m->stdin_used++) {
			fprintf(err, "%s: stdin (-) given twice\n", prog);
			return -1;
		}
		size_t len = 0;
		errno = 0;
		char *data = read_stream(stdin, &len);
		char *name = dup_str("<stdin>");
		if (!data || !name) {
			if (errno == EFBIG)
				fprintf(err, "%s: stdin is larger than %zu MiB, the most a manifest may be\n",
					prog, (size_t)(KP_DECODE_DEFAULT_MAX_BYTES >> 20));
			else
				fprintf(err, "%s: cannot read stdin: %s\n", prog,
					strerror(errno ? errno : EIO));
			free(data);
			free(name);
			return -1;
		}
		if (append(m, name, data, len)) {
			fprintf(err, "%s: out of memory\n", prog);
			return -1;
		}
		return 0;
	}
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return add_dir(m, path, prog, err);
	char *name = dup_str(path);
	if (!name) {
		fprintf(err, "%s: out of memory\n", prog);
		return -1;
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
}
