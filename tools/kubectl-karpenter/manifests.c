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

cli_input_limits cli_limits = { CLI_DEFAULT_MAX_FILE, CLI_DEFAULT_MAX_INPUT };

/* A size for messages: whole GiB or MiB when it is one, else bytes. */
static void size_text(char *buf, size_t n, size_t v)
{
	if (v && v % ((size_t)1 << 30) == 0)
		snprintf(buf, n, "%zu GiB", v >> 30);
	else if (v && v % ((size_t)1 << 20) == 0)
		snprintf(buf, n, "%zu MiB", v >> 20);
	else
		snprintf(buf, n, "%zu bytes", v);
}

static void say_file_limit(const char *prog, const char *name, int is_stdin, FILE *err)
{
	char lim[48];
	size_text(lim, sizeof(lim), cli_limits.max_file);
	if (is_stdin)
		fprintf(err, "%s: stdin is larger than %s, the most a manifest may be; raise it with "
			     "--max-file-size\n", prog, lim);
	else
		fprintf(err, "%s: \"%s\" is larger than %s, the most a manifest may be; raise it with "
			     "--max-file-size\n", prog, name, lim);
}

static void say_total_limit(const char *prog, const char *name, int is_stdin, FILE *err)
{
	char lim[48];
	size_text(lim, sizeof(lim), cli_limits.max_input);
	if (is_stdin)
		fprintf(err, "%s: the inputs are larger than %s together, the most one command reads "
			     "(at stdin); raise it with --max-input-size\n", prog, lim);
	else
		fprintf(err, "%s: the inputs are larger than %s together, the most one command reads "
			     "(at \"%s\"); raise it with --max-input-size\n", prog, lim, name);
}

/* Append one input; takes @p name (malloc'd) in every case. */
static int append(cli_manifests *m, char *name, int is_stdin, size_t size)
{
	if (m->count == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 8;
		cli_manifest *items = realloc(m->items, cap * sizeof(*items));
		if (!items) {
			free(name);
			return -1;
		}
		m->items = items;
		m->cap = cap;
	}
	m->items[m->count].name = name;
	m->items[m->count].is_stdin = is_stdin;
	m->items[m->count].size = size;
	m->count++;
	return 0;
}

/* Open PATH for reading: the stream, or NULL with errno set (a directory
 * is EISDIR). */
static FILE *open_file(const char *path, struct stat *st)
{
	errno = 0;
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	if (fstat(fileno(f), st) != 0) {
		int e = errno;
		fclose(f);
		errno = e;
		return NULL;
	}
	if (S_ISDIR(st->st_mode)) {
		fclose(f);
		errno = EISDIR;
		return NULL;
	}
	return f;
}

/* Read PATH whole: 0, or the errno (EFBIG over @p limit). */
static int read_path(const char *path, size_t limit, char **data, size_t *len)
{
	struct stat st;
	FILE *f = open_file(path, &st);
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

/* Check one file and append it; takes @p name (malloc'd) in every case. */
static int add_file(cli_manifests *m, char *name, const char *prog, FILE *err)
{
	struct stat st;
	FILE *f = open_file(name, &st);
	if (!f) {
		int rc = read_failed(name, 0, "a manifest", errno ? errno : EIO, prog, err);
		free(name);
		return rc;
	}
	fclose(f);
	size_t size = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size : 0;
	if (size > cli_limits.max_file) {
		say_file_limit(prog, name, 0, err);
		free(name);
		return CLI_USAGE;
	}
	if (size > cli_limits.max_input - m->total || m->total > cli_limits.max_input) {
		say_total_limit(prog, name, 0, err);
		free(name);
		return CLI_USAGE;
	}
	m->total += size;
	cli_heap_prepare(m->total);
	if (append(m, name, 0, size)) {
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
		/* stdin redirected from a file has a size to check now; a pipe
		 * is checked as it is read */
		struct stat st;
		size_t size = 0;
		if (fstat(fileno(stdin), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
			off_t at = ftello(stdin);
			size = (size_t)st.st_size - (at > 0 && at < st.st_size ? (size_t)at : 0);
		}
		if (size > cli_limits.max_file) {
			say_file_limit(prog, "<stdin>", 1, err);
			return CLI_USAGE;
		}
		if (size > cli_limits.max_input - m->total || m->total > cli_limits.max_input) {
			say_total_limit(prog, "<stdin>", 1, err);
			return CLI_USAGE;
		}
		char *name = dup_str("<stdin>");
		if (!name || append(m, name, 1, size)) {
			fprintf(err, "%s: out of memory\n", prog);
			return CLI_INVALID;
		}
		m->total += size;
		cli_heap_prepare(m->total);
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

/* kp_decode_read's reader over one input, counting against the limits. */
typedef struct file_reader {
	FILE *f;
	cli_manifests *m;
	const cli_manifest *in;
	const char *prog;
	size_t read;    /* bytes of this input */
	int limit;      /* 1: the file limit was passed, 2: the total */
} file_reader;

static int read_some(void *ctx, char *buf, size_t cap, size_t *n_read, kp_error *e)
{
	file_reader *r = ctx;
	size_t n = fread(buf, 1, cap, r->f);
	if (n == 0 && ferror(r->f)) {
		int en = errno ? errno : EIO;
		snprintf(e->message, sizeof(e->message), "cannot read \"%s\": %s", r->in->name,
			 strerror(en));
		e->code = KP_EIO;
		return KP_EIO;
	}
	r->read += n;
	r->m->read += n;
	if (r->read > cli_limits.max_file || r->m->read > cli_limits.max_input) {
		r->limit = r->read > cli_limits.max_file ? 1 : 2;
		e->code = KP_ERANGE;
		e->message[0] = '\0';
		return KP_ERANGE;
	}
	*n_read = n;
	return KP_OK;
}

int cli_manifest_decode(cli_manifests *m, size_t i, kp_decode_options *opts,
			kp_decode_result **out, kp_error *e, int *usage)
{
	const cli_manifest *in = &m->items[i];
	*usage = 0;
	*out = NULL;
	file_reader r = { NULL, m, in, NULL, 0, 0 };
	struct stat st;
	r.f = in->is_stdin ? stdin : open_file(in->name, &st);
	if (!r.f) {
		*usage = 1;
		snprintf(e->message, sizeof(e->message), "cannot read \"%s\": %s", in->name,
			 strerror(errno ? errno : EIO));
		e->code = KP_EIO;
		return KP_EIO;
	}
	/* the library's own input limit stays out of the way: read_some
	 * refuses first, naming the option */
	opts->max_bytes = cli_limits.max_file < SIZE_MAX ? cli_limits.max_file + 1 : SIZE_MAX;
	int rc = kp_decode_read(out, read_some, &r, opts, e);
	if (!in->is_stdin)
		fclose(r.f);
	if (rc == KP_EIO || r.limit)
		*usage = 1;
	if (r.limit) {
		char lim[48], at[32];
		size_text(lim, sizeof(lim), r.limit == 1 ? cli_limits.max_file : cli_limits.max_input);
		int q = !in->is_stdin;
		snprintf(at, sizeof(at), "%s", in->is_stdin ? "stdin" : "");
		if (r.limit == 1)
			snprintf(e->message, sizeof(e->message),
				 "%s%.400s%s is larger than %s, the most a manifest may be; raise it "
				 "with --max-file-size", q ? "\"" : "", q ? in->name : at, q ? "\"" : "",
				 lim);
		else
			snprintf(e->message, sizeof(e->message),
				 "the inputs are larger than %s together, the most one command reads "
				 "(at %s%.400s%s); raise it with --max-input-size", lim, q ? "\"" : "",
				 q ? in->name : at, q ? "\"" : "");
	}
	return rc;
}

/* A size: bytes, or a number with a binary (Ki..Ti) or decimal (k..T)
 * suffix, as Kubernetes quantities write them. 0 on success. */
static int parse_size(const char *s, size_t *out)
{
	if (!*s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	static const struct { const char *sfx; unsigned long long mul; } sfx[] = {
		{ "", 1 }, { "k", 1000ULL }, { "M", 1000000ULL }, { "G", 1000000000ULL },
		{ "T", 1000000000000ULL }, { "Ki", 1ULL << 10 }, { "Mi", 1ULL << 20 },
		{ "Gi", 1ULL << 30 }, { "Ti", 1ULL << 40 },
	};
	for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		if (strcmp(end, sfx[i].sfx) != 0)
			continue;
		if (v == 0 || v > (unsigned long long)SIZE_MAX / sfx[i].mul)
			return -1;
		*out = (size_t)(v * sfx[i].mul);
		return 0;
	}
	return -1;
}

int cli_limits_take(int argc, char **argv, int first, FILE *err)
{
	static const char *const names[] = { "--max-file-size", "--max-input-size" };
	int out = first;
	for (int a = first; a < argc; a++) {
		const char *arg = argv[a], *val = NULL;
		int which = -1;
		for (int k = 0; k < 2; k++) {
			size_t n = strlen(names[k]);
			if (strncmp(arg, names[k], n) != 0)
				continue;
			if (arg[n] == '=') {
				which = k;
				val = arg + n + 1;
			} else if (!arg[n]) {
				which = k;
				val = a + 1 < argc ? argv[++a] : NULL;
			}
		}
		if (which < 0) {
			argv[out++] = argv[a];
			continue;
		}
		size_t v = 0;
		if (!val || parse_size(val, &v)) {
			fprintf(err, "kubectl-karpenter: %s needs a size greater than 0 (bytes, or with "
				     "Ki, Mi, Gi, Ti), got \"%s\"\n", names[which], val ? val : "");
			return -1;
		}
		if (which == 0)
			cli_limits.max_file = v;
		else
			cli_limits.max_input = v;
	}
	argv[out] = NULL;
	return out;
}

void cli_manifests_free(cli_manifests *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->count; i++)
		free(m->items[i].name);
	free(m->items);
	m->items = NULL;
	m->count = m->cap = 0;
	m->stdin_used = 0;
	m->total = m->read = 0;
}
