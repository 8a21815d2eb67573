/*
 * Long-value sweep (issue 9): every string leaf of the example cluster's
 * manifests (values and mapping keys) and of a KWOK catalogue entry is set in
 * turn to a long value (300 and 70,000 characters by default) and the result
 * goes through what kubectl-karpenter does with it — decode (and an
 * encode/decode round trip), validate, hash and simulate — in process, by
 * calling the CLI's own command functions (tools/kubectl-karpenter/cmd_*.c,
 * linked in). Every mutation runs in a forked child, so one crash does not
 * hide the next; a child passes when every command returns 0, 1 or 2 and it
 * exits without a signal, a sanitizer report (the suite runs again under
 * ASan/UBSan in CI) or a leak.
 *
 * A leaf is replaced in the source text, so YAML is parsed again by the
 * decoder: a value becomes a double-quoted scalar; a key becomes an explicit
 * key ("? KEY" then ": value"), since YAML limits implicit keys to 1024
 * characters. A value that starts with a digit (a quantity, a duration, a
 * count, a timestamp) becomes "1000...0" followed by its non-digit suffix
 * ("4Gi" -> "100...0Gi"), so that numeric parsers see a huge number; any
 * other value is extended with 'a's to the length.
 *
 * Leaves at the same field path of documents of the same kind (the twenty
 * Pods' containers[0].image, ...) are swept once; KP_SWEEP_FULL=1 sweeps
 * every occurrence. KP_SWEEP_LENGTHS="300,70000" sets the lengths.
 *
 * Output is TAP: one line per manifest file and length, one for the
 * catalogue per length, and one for a pass of the real kubectl-karpenter
 * binary (--cli PATH) over a sample of the same mutations. Each failing
 * mutation is listed as a diagnostic: file, document (kind/name), field path,
 * length, command, and the symptom (exit status or signal, and the first
 * lines of the sanitizer's report).
 *
 * usage: sweep-long-values EXAMPLES_DIR KWOK_CATALOGUE_JSON [--cli PATH]
 *        sweep-long-values EXAMPLES_DIR KWOK_CATALOGUE_JSON --emit-corpus DIR
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _GNU_SOURCE /* mkdtemp, strdup */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <yaml.h>

#include <karpenter/karpenter.h>

#include "cli.h"

extern char **environ;

/* Leak check of a child before it exits, when built with LeakSanitizer. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SWEEP_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SWEEP_ASAN 1
#endif

#define CHILD_TIMEOUT_S 60
#define CHILD_PASS 100 /* a child's exit status when every command behaved */

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("Bail out! ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	exit(99);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);
	if (!d)
		die("out of memory");
	return d;
}

static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

/* ------------------------------------------------------------------ */
/* Files                                                               */
/* ------------------------------------------------------------------ */

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		die("cannot read %s: %s", path, strerror(errno));
	size_t cap = 1 << 16, n = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap) {
			cap *= 2;
			char *nb = realloc(buf, cap);
			if (!nb)
				die("out of memory");
			buf = nb;
		}
		size_t r = fread(buf + n, 1, cap - n - 1, f);
		if (!r)
			break;
		n += r;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static void write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f))
		die("cannot write %s: %s", path, strerror(errno));
}

/* ------------------------------------------------------------------ */
/* Growable string                                                     */
/* ------------------------------------------------------------------ */

typedef struct buf {
	char *s;
	size_t len, cap;
} buf;

static void buf_add(buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (b->len + n + 1 > cap)
			cap *= 2;
		char *ns = realloc(b->s, cap);
		if (!ns)
			die("out of memory");
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void buf_adds(buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

static void buf_fill(buf *b, char c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf_add(b, &c, 1);
}

/* ------------------------------------------------------------------ */
/* Leaves of a YAML stream                                             */
/* ------------------------------------------------------------------ */

typedef struct leaf {
	size_t doc;     /* document index in the file */
	char *path;     /* field path, e.g. spec.template.spec.nodeClassRef.group */
	char *orig;     /* the scalar's value */
	int is_key;     /* a mapping key (the path names the key) */
	int flow;       /* inside a flow collection */
	int block;      /* a literal or folded block scalar */
	size_t start;   /* the scalar's span in the source text */
	size_t end;
	size_t column;  /* column of the span's start */
	int sweep;      /* 1 unless it repeats an earlier leaf (same kind and path) */
} leaf;

typedef struct docinfo {
	char *kind;
	char *name;
} docinfo;

typedef struct manifest {
	char *file;     /* base name */
	char *text;
	size_t len;
	leaf *leaves;
	size_t n_leaves, cap_leaves;
	docinfo *docs;
	size_t n_docs;
	size_t skipped; /* scalars whose span could not be checked against the source */
} manifest;

typedef struct frame {
	int is_map;
	int flow;
	int expect_key;
	size_t index;
	char *key;
	size_t base; /* path length at the collection */
} frame;

/* A key as a path component: .key, or [key] when it holds '.' or '/'. */
static void path_component(buf *p, const char *key)
{
	if (strpbrk(key, "./ []")) {
		buf_adds(p, "[");
		buf_adds(p, key);
		buf_adds(p, "]");
	} else {
		if (p->len)
			buf_adds(p, ".");
		buf_adds(p, key);
	}
}

static void child_component(buf *p, const frame *f)
{
	if (!f)
		return;
	if (f->is_map) {
		path_component(p, f->key ? f->key : "");
	} else {
		char ix[32];
		snprintf(ix, sizeof(ix), "[%zu]", f->index);
		buf_adds(p, ix);
	}
}

static void add_leaf(manifest *m, const leaf *l)
{
	if (m->n_leaves == m->cap_leaves) {
		m->cap_leaves = m->cap_leaves ? m->cap_leaves * 2 : 64;
		leaf *nl = realloc(m->leaves, m->cap_leaves * sizeof(*nl));
		if (!nl)
			die("out of memory");
		m->leaves = nl;
	}
	m->leaves[m->n_leaves++] = *l;
}

/* Whether the event's span is the scalar as written (ASCII text: libyaml
 * counts marks in characters). */
static int span_ok(const manifest *m, const yaml_event_t *ev)
{
	size_t s = ev->start_mark.index, e = ev->end_mark.index;
	const char *v = (const char *)ev->data.scalar.value;
	size_t vl = ev->data.scalar.length;
	if (e > m->len || s >= e)
		return 0;
	switch (ev->data.scalar.style) {
	case YAML_PLAIN_SCALAR_STYLE:
		return e - s == vl && !memcmp(m->text + s, v, vl);
	case YAML_SINGLE_QUOTED_SCALAR_STYLE:
		return m->text[s] == '\'' && m->text[e - 1] == '\'';
	case YAML_DOUBLE_QUOTED_SCALAR_STYLE:
		return m->text[s] == '"' && m->text[e - 1] == '"';
	case YAML_LITERAL_SCALAR_STYLE:
	case YAML_FOLDED_SCALAR_STYLE:
		return m->text[s] == '|' || m->text[s] == '>';
	default:
		return 0;
	}
}

static void scan_yaml(manifest *m)
{
	yaml_parser_t parser;
	if (!yaml_parser_initialize(&parser))
		die("yaml_parser_initialize");
	yaml_parser_set_input_string(&parser, (const unsigned char *)m->text, m->len);
	frame stack[64];
	int depth = 0;
	buf path = { 0 };
	buf_adds(&path, "");
	size_t doc = 0;
	int done = 0;
	while (!done) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&parser, &ev))
			die("%s: YAML error: %s", m->file, parser.problem ? parser.problem : "?");
		frame *top = depth ? &stack[depth - 1] : NULL;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		case YAML_DOCUMENT_START_EVENT:
			depth = 0;
			path.len = 0;
			path.s[0] = '\0';
			docinfo *nd = realloc(m->docs, (m->n_docs + 1) * sizeof(*nd));
			if (!nd)
				die("out of memory");
			m->docs = nd;
			m->docs[m->n_docs].kind = xstrdup("?");
			m->docs[m->n_docs].name = xstrdup("?");
			doc = m->n_docs++;
			break;
		case YAML_MAPPING_START_EVENT:
		case YAML_SEQUENCE_START_EVENT: {
			if (depth == (int)(sizeof(stack) / sizeof(stack[0])))
				die("%s: nested too deeply", m->file);
			size_t keep = path.len;
			child_component(&path, top);
			frame *f = &stack[depth++];
			f->is_map = ev.type == YAML_MAPPING_START_EVENT;
			f->flow = ev.type == YAML_MAPPING_START_EVENT
					  ? ev.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
					  : ev.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE;
			f->flow |= top && top->flow;
			f->expect_key = 1;
			f->index = 0;
			f->key = NULL;
			f->base = path.len;
			(void)keep;
			break;
		}
		case YAML_MAPPING_END_EVENT:
		case YAML_SEQUENCE_END_EVENT:
			if (top) {
				free(top->key);
				depth--;
				top = depth ? &stack[depth - 1] : NULL;
				path.len = top ? top->base : 0;
				path.s[path.len] = '\0';
				if (top) {
					if (top->is_map)
						top->expect_key = 1;
					else
						top->index++;
				}
			}
			break;
		case YAML_SCALAR_EVENT:
		case YAML_ALIAS_EVENT: {
			int is_key = top && top->is_map && top->expect_key;
			const char *value =
				ev.type == YAML_SCALAR_EVENT ? (const char *)ev.data.scalar.value : "";
			if (ev.type == YAML_SCALAR_EVENT) {
				size_t keep = path.len;
				if (is_key)
					path_component(&path, value);
				else
					child_component(&path, top);
				if (span_ok(m, &ev)) {
					leaf l = { 0 };
					l.doc = doc;
					l.path = xstrdup(path.s);
					l.orig = xstrdup(value);
					l.is_key = is_key;
					l.flow = top && top->flow;
					l.block = ev.data.scalar.style == YAML_LITERAL_SCALAR_STYLE ||
						  ev.data.scalar.style == YAML_FOLDED_SCALAR_STYLE;
					l.start = ev.start_mark.index;
					l.end = ev.end_mark.index;
					l.column = ev.start_mark.column;
					add_leaf(m, &l);
					if (!is_key && depth == 1 && !strcmp(path.s, "kind")) {
						free(m->docs[doc].kind);
						m->docs[doc].kind = xstrdup(value);
					}
					if (!is_key && depth == 2 && !strcmp(path.s, "metadata.name")) {
						free(m->docs[doc].name);
						m->docs[doc].name = xstrdup(value);
					}
				} else {
					m->skipped++;
				}
				path.len = keep;
				path.s[keep] = '\0';
			}
			if (is_key) {
				free(top->key);
				top->key = xstrdup(value);
				top->expect_key = 0;
			} else if (top) {
				if (top->is_map)
					top->expect_key = 1;
				else
					top->index++;
			}
			break;
		}
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	free(path.s);
}

/* The dedup key of a leaf: its document's kind and its path without
 * sequence indexes. */
static char *leaf_class(const manifest *m, const leaf *l)
{
	buf b = { 0 };
	buf_adds(&b, m->docs[l->doc].kind);
	buf_adds(&b, l->is_key ? " key " : " value ");
	for (const char *p = l->path; *p; p++) {
		if (*p == '[' && p[1] >= '0' && p[1] <= '9') {
			const char *q = p + 1;
			while (*q >= '0' && *q <= '9')
				q++;
			if (*q == ']') {
				buf_adds(&b, "[]");
				p = q;
				continue;
			}
		}
		buf_add(&b, p, 1);
	}
	return b.s;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ------------------------------------------------------------------ */
/* Mutations                                                           */
/* ------------------------------------------------------------------ */

/* The long value for a scalar: see the top comment. */
static void long_value(buf *b, const char *orig, size_t n)
{
	if (orig[0] >= '0' && orig[0] <= '9') {
		size_t ol = strlen(orig), sl = 0;
		while (sl < ol && !(orig[ol - sl - 1] >= '0' && orig[ol - sl - 1] <= '9'))
			sl++;
		if (sl >= n || strpbrk(orig + ol - sl, "\"\\"))
			sl = 0;
		buf_adds(b, "1");
		buf_fill(b, '0', n - 1 - sl);
		buf_add(b, orig + ol - sl, sl);
		return;
	}
	size_t ol = strlen(orig);
	if (ol >= n || strpbrk(orig, "\"\\") || strspn(orig, " ") || ol != strcspn(orig, "\n\t"))
		ol = 0;
	buf_add(b, orig, ol);
	buf_fill(b, 'a', n - ol);
}

/* The file's text with leaf @p l set to @p n characters. */
static char *mutate_yaml(const manifest *m, const leaf *l, size_t n, size_t *len, char **value)
{
	buf v = { 0 };
	long_value(&v, l->orig, n);
	buf out = { 0 };
	buf_add(&out, m->text, l->start);
	if (l->is_key) {
		/* An explicit key: no 1024-character limit. */
		buf_adds(&out, "? \"");
		buf_add(&out, v.s, v.len);
		buf_adds(&out, "\"");
		if (!l->flow) {
			buf_adds(&out, "\n");
			buf_fill(&out, ' ', l->column);
		} else {
			buf_adds(&out, " ");
		}
	} else {
		buf_adds(&out, "\"");
		buf_add(&out, v.s, v.len);
		buf_adds(&out, "\"");
		if (l->block && l->end > l->start && m->text[l->end - 1] == '\n')
			buf_adds(&out, "\n");
	}
	buf_add(&out, m->text + l->end, m->len - l->end);
	*len = out.len;
	*value = v.s;
	return out.s;
}

/* ------------------------------------------------------------------ */
/* Running one mutation in a child                                     */
/* ------------------------------------------------------------------ */

typedef struct sweep {
	char *tmp;       /* scratch directory */
	char *cluster;   /* tmp/cluster: a copy of the example manifests */
	char *catalogue; /* tmp/catalogue.json */
	char *log;       /* tmp/child.log: the child's stderr */
	const char *cli; /* kubectl-karpenter, for the sampled CLI pass */
	manifest *mans;
	size_t n_mans;
	int full;
} sweep;

static void stage(const char *name)
{
	char line[128];
	int n = snprintf(line, sizeof(line), "== sweep stage: %s\n", name);
	if (write(2, line, (size_t)n) < 0)
		_exit(98);
}

/* Decode strict and lenient; encode what decodes as JSON and YAML and decode
 * that again. Returns 0, or -1 when encoded output does not read back. */
static int decode_round_trip(const char *text, size_t len)
{
	int bad = 0;
	for (uint32_t flags = 0; flags <= KP_DECODE_LENIENT; flags += KP_DECODE_LENIENT) {
		kp_decode_options o = KP_DECODE_OPTIONS_INIT;
		o.flags = flags;
		kp_decode_result *res = NULL;
		kp_error e = KP_ERROR_INIT;
		if (kp_decode(&res, text, len, &o, &e) == KP_OK) {
			for (size_t i = 0; i < kp_decode_result_count(res); i++) {
				const kp_decoded_object *d = kp_decode_result_at(res, i);
				if (!d || !d->object)
					continue;
				for (uint32_t fmt = KP_FORMAT_JSON; fmt <= KP_FORMAT_YAML; fmt++) {
					char *out = NULL;
					size_t ol = 0;
					if (kp_encode(&out, &ol, d->kind, d->object, fmt, 0, &e) ==
					    KP_OK) {
						kp_decode_result *again = NULL;
						kp_decode_options o2 = KP_DECODE_OPTIONS_INIT;
						if (kp_decode(&again, out, ol, &o2, &e) != KP_OK) {
							char msg[400];
							int n = snprintf(msg, sizeof(msg),
									 "encoded %s of %s does not "
									 "decode: %s\n",
									 fmt == KP_FORMAT_JSON ? "JSON"
											       : "YAML",
									 d->kind_name, e.message);
							if (write(2, msg, (size_t)n) < 0)
								_exit(98);
							bad = 1;
						}
						kp_decode_result_free(again);
					}
					kp_encoded_free(out);
				}
			}
		}
		kp_decode_result_free(res);
	}
	return bad ? -1 : 0;
}

static int run_cli(const cli_command *cmd, char **argv, int argc, FILE *null)
{
	return cmd->run(argc, argv, null, null);
}

/* The child: returns its exit status. */
static int child_main(const sweep *s, char *file, const char *text, size_t len,
		      int is_catalogue)
{
	FILE *null = fopen("/dev/null", "w");
	if (!null)
		return 97;
	int bad = 0, rc;
	char *sim_argv[6] = { "simulate", "-f", s->cluster, NULL, NULL, NULL };
	int sim_argc = 3;
	if (is_catalogue) {
		sim_argv[3] = "--instance-types";
		sim_argv[4] = s->catalogue;
		sim_argc = 5;
	} else {
		stage("decode");
		if (decode_round_trip(text, len))
			bad = 1;
		char *val_argv[] = { "validate", "-f", file, NULL };
		stage("validate");
		rc = run_cli(&cli_cmd_validate, val_argv, 3, null);
		if (rc < 0 || rc > 2) {
			fprintf(stderr, "validate returned %d\n", rc);
			bad = 1;
		}
		char *hash_argv[] = { "hash", "-f", file, NULL };
		stage("hash");
		rc = run_cli(&cli_cmd_hash, hash_argv, 3, null);
		if (rc < 0 || rc > 2) {
			fprintf(stderr, "hash returned %d\n", rc);
			bad = 1;
		}
	}
	stage("simulate");
	rc = run_cli(&cli_cmd_simulate, sim_argv, sim_argc, null);
	if (rc < 0 || rc > 2) {
		fprintf(stderr, "simulate returned %d\n", rc);
		bad = 1;
	}
	fclose(null);
	stage("exit");
	return bad ? 96 : CHILD_PASS;
}

/* Distil the child's log into a one-line symptom plus report lines. */
static char *symptom(const sweep *s, int status)
{
	buf b = { 0 };
	char tmp[160];
	if (WIFSIGNALED(status))
		snprintf(tmp, sizeof(tmp), "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else if (WEXITSTATUS(status) == 96)
		snprintf(tmp, sizeof(tmp), "a command misbehaved");
	else
		snprintf(tmp, sizeof(tmp), "exit status %d", WEXITSTATUS(status));
	buf_adds(&b, tmp);
	size_t len = 0;
	char *log = read_file(s->log, &len);
	/* The last stage reached before the report, then the report's first
	 * lines and top frames. */
	const char *last_stage = NULL;
	int frames = 0, lines = 0;
	for (char *line = log; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (!strncmp(line, "== sweep stage: ", 16)) {
			if (!frames && !lines)
				last_stage = line + 16;
		} else if (strstr(line, "ERROR: ") || strstr(line, "runtime error") ||
			   strstr(line, "SUMMARY: ") || strstr(line, "returned ") ||
			   strstr(line, "does not decode") || strstr(line, "LeakSanitizer")) {
			if (lines < 6) {
				buf_adds(&b, "\n    ");
				buf_add(&b, line, strlen(line) > 300 ? 300 : strlen(line));
			}
			lines++;
		} else {
			const char *t = line;
			while (*t == ' ')
				t++;
			if (t[0] == '#' && t[1] >= '0' && t[1] <= '9' && frames < 6 && lines) {
				buf_adds(&b, "\n      ");
				buf_add(&b, t, strlen(t) > 200 ? 200 : strlen(t));
				frames++;
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	if (last_stage) {
		char *out = xasprintf("in %s: %s", last_stage, b.s);
		free(b.s);
		b.s = out;
	}
	free(log);
	return b.s;
}

/* Runs one mutation; returns NULL when it passed, else the symptom. */
static char *run_child(const sweep *s, char *file, const char *text, size_t len,
		       int is_catalogue)
{
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		int fd = open(s->log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, 2) < 0)
			_exit(97);
		close(fd);
		alarm(CHILD_TIMEOUT_S);
		int st = child_main(s, file, text, len, is_catalogue);
#ifdef SWEEP_ASAN
		{
			extern int __lsan_do_recoverable_leak_check(void);
			if (__lsan_do_recoverable_leak_check())
				_exit(95);
		}
#endif
		_exit(st);
	}
	int status = 0;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid: %s", strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_PASS)
		return NULL;
	return symptom(s, status);
}

/* ------------------------------------------------------------------ */
/* The CLI binary                                                      */
/* ------------------------------------------------------------------ */

/* Runs kubectl-karpenter ARGS; NULL when it exited 0, 1 or 2. */
static char *run_binary(const sweep *s, char *const argv[])
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, s->log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	pid_t pid;
	fflush(stdout);
	int e = posix_spawn(&pid, s->cli, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (e)
		return xasprintf("cannot run %s: %s", s->cli, strerror(e));
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid: %s", strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) <= 2) {
		/* A sanitizer report with exitcode 1 would pass the status check. */
		size_t len;
		char *log = read_file(s->log, &len);
		int report = strstr(log, "Sanitizer") || strstr(log, "runtime error");
		free(log);
		if (!report)
			return NULL;
	}
	char *sy = symptom(s, status);
	char *r = xasprintf("%s %s: %s", argv[1], argv[2], sy);
	free(sy);
	return r;
}

/* ------------------------------------------------------------------ */
/* The sweep                                                           */
/* ------------------------------------------------------------------ */

typedef struct tally {
	size_t run, failed;
	buf report;
} tally;

static void note_failure(tally *t, const char *where, size_t n, const char *sy)
{
	char head[64];
	t->failed++;
	snprintf(head, sizeof(head), " (length %zu)", n);
	buf_adds(&t->report, "# FAIL ");
	buf_adds(&t->report, where);
	buf_adds(&t->report, head);
	buf_adds(&t->report, ": ");
	for (const char *p = sy; *p; p++) {
		buf_add(&t->report, p, 1);
		if (*p == '\n')
			buf_adds(&t->report, "#");
	}
	buf_adds(&t->report, "\n");
}

static int tap_no;

static int tap_line(tally *t, const char *what)
{
	printf("%s %d - %s: %zu mutations, %zu failed\n", t->failed ? "not ok" : "ok", ++tap_no,
	       what, t->run, t->failed);
	if (t->report.s)
		fputs(t->report.s, stdout);
	fflush(stdout);
	int failed = t->failed != 0;
	free(t->report.s);
	memset(t, 0, sizeof(*t));
	return failed;
}

static void describe(buf *b, const manifest *m, const leaf *l)
{
	const docinfo *d = &m->docs[l->doc];
	char *s = xasprintf("%s document %zu (%s/%s) %s%s", m->file, l->doc, d->kind, d->name,
			    l->path, l->is_key ? " (the key)" : "");
	buf_adds(b, s);
	free(s);
}

/* CLI sample: every @p every-th swept mutation goes through the binary too. */
typedef struct sample {
	size_t every, seen, run, failed;
	buf report;
} sample;

static void cli_sample(const sweep *s, sample *sm, const manifest *m, const leaf *l, size_t n,
		       char *path)
{
	if (!s->cli || sm->seen++ % sm->every)
		return;
	char *argvs[3][6] = {
		{ "kubectl-karpenter", "validate", "-f", path, NULL, NULL },
		{ "kubectl-karpenter", "hash", "-f", path, NULL, NULL },
		{ "kubectl-karpenter", "simulate", "-f", s->cluster, NULL, NULL },
	};
	for (int i = 0; i < 3; i++) {
		sm->run++;
		char *sy = run_binary(s, argvs[i]);
		if (sy) {
			buf where = { 0 };
			describe(&where, m, l);
			tally t = { 0 };
			note_failure(&t, where.s, n, sy);
			buf_adds(&sm->report, t.report.s);
			free(t.report.s);
			free(where.s);
			free(sy);
			sm->failed++;
		}
	}
}

static int sweep_manifest(const sweep *s, const manifest *m, size_t n, sample *sm)
{
	tally t = { 0 };
	char *path = xasprintf("%s/%s", s->cluster, m->file);
	for (size_t i = 0; i < m->n_leaves; i++) {
		const leaf *l = &m->leaves[i];
		if (!l->sweep)
			continue;
		size_t len;
		char *value;
		char *text = mutate_yaml(m, l, n, &len, &value);
		write_file(path, text, len);
		t.run++;
		char *sy = run_child(s, path, text, len, 0);
		if (sy) {
			buf where = { 0 };
			describe(&where, m, l);
			note_failure(&t, where.s, n, sy);
			free(where.s);
			free(sy);
		}
		cli_sample(s, sm, m, l, n, path);
		free(text);
		free(value);
	}
	write_file(path, m->text, m->len);
	free(path);
	char *what = xasprintf("%s, every leaf at %zu characters", m->file, n);
	int f = tap_line(&t, what);
	free(what);
	return f;
}

/* The catalogue: the first entries of upstream KWOK's file; every string
 * leaf and key of the first entry is swept. */
typedef struct jleaf {
	cJSON *node;
	int is_key;
	char *path;
} jleaf;

static void scan_json(cJSON *node, buf *path, jleaf **out, size_t *n, size_t *cap, int full)
{
	size_t keep = path->len;
	size_t idx = 0;
	for (cJSON *c = node->child; c; c = c->next, idx++) {
		path->len = keep;
		path->s[keep] = '\0';
		if (cJSON_IsObject(node)) {
			path_component(path, c->string);
		} else {
			/* Offerings and requirements repeat one shape: sweep the
			 * first of each list unless KP_SWEEP_FULL. */
			if (idx && !full && (cJSON_IsObject(c) || cJSON_IsArray(c)))
				break;
			char ix[32];
			snprintf(ix, sizeof(ix), "[%zu]", idx);
			buf_adds(path, ix);
		}
		if (*n + 2 > *cap) {
			*cap = *cap ? *cap * 2 : 64;
			jleaf *nl = realloc(*out, *cap * sizeof(*nl));
			if (!nl)
				die("out of memory");
			*out = nl;
		}
		if (cJSON_IsObject(node))
			(*out)[(*n)++] = (jleaf){ c, 1, xasprintf("%s (the key)", path->s) };
		if (cJSON_IsString(c))
			(*out)[(*n)++] = (jleaf){ c, 0, xstrdup(path->s) };
		else if (cJSON_IsObject(c) || cJSON_IsArray(c))
			scan_json(c, path, out, n, cap, full);
	}
	path->len = keep;
	if (path->s)
		path->s[keep] = '\0';
}

static cJSON *load_catalogue(const char *file)
{
	size_t len;
	char *text = read_file(file, &len);
	cJSON *all = cJSON_ParseWithLength(text, len);
	free(text);
	if (!cJSON_IsArray(all) || cJSON_GetArraySize(all) < 1)
		die("%s: not a KWOK instance-type catalogue", file);
	/* Keep the first four entries: the simulation stays quick. */
	while (cJSON_GetArraySize(all) > 4)
		cJSON_DeleteItemFromArray(all, cJSON_GetArraySize(all) - 1);
	return all;
}

static int sweep_catalogue(const sweep *s, const char *file, size_t n)
{
	tally t = { 0 };
	cJSON *all = load_catalogue(file);
	jleaf *leaves = NULL;
	size_t nl = 0, cap = 0;
	buf path = { 0 };
	buf_adds(&path, "[0]");
	scan_json(cJSON_GetArrayItem(all, 0), &path, &leaves, &nl, &cap, s->full);
	free(path.s);
	for (size_t i = 0; i < nl; i++) {
		jleaf *l = &leaves[i];
		char *saved = l->is_key ? l->node->string : l->node->valuestring;
		buf v = { 0 };
		long_value(&v, saved, n);
		if (l->is_key)
			l->node->string = v.s;
		else
			l->node->valuestring = v.s;
		char *text = cJSON_PrintUnformatted(all);
		if (l->is_key)
			l->node->string = saved;
		else
			l->node->valuestring = saved;
		if (!text)
			die("out of memory");
		write_file(s->catalogue, text, strlen(text));
		t.run++;
		char *sy = run_child(s, s->catalogue, text, strlen(text), 1);
		if (sy) {
			char *where = xasprintf("catalogue %s", l->path);
			note_failure(&t, where, n, sy);
			free(where);
			free(sy);
		}
		cJSON_free(text);
		free(v.s);
		free(l->path);
	}
	free(leaves);
	cJSON_Delete(all);
	char *what = xasprintf("KWOK catalogue entry, every leaf at %zu characters", n);
	int f = tap_line(&t, what);
	free(what);
	return f;
}

/* ------------------------------------------------------------------ */
/* Set-up                                                              */
/* ------------------------------------------------------------------ */

static int is_yaml(const char *n)
{
	size_t l = strlen(n);
	return n[0] != '.' && ((l > 5 && !strcmp(n + l - 5, ".yaml")) ||
			       (l > 4 && !strcmp(n + l - 4, ".yml")));
}

static void load_manifests(sweep *s, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		die("cannot read %s: %s", dir, strerror(errno));
	char **names = NULL;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!is_yaml(de->d_name))
			continue;
		char **nn = realloc(names, (n + 1) * sizeof(*nn));
		if (!nn)
			die("out of memory");
		names = nn;
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (!n)
		die("%s has no manifests", dir);
	qsort(names, n, sizeof(*names), cmp_str);
	s->mans = calloc(n, sizeof(*s->mans));
	if (!s->mans)
		die("out of memory");
	s->n_mans = n;
	for (size_t i = 0; i < n; i++) {
		manifest *m = &s->mans[i];
		char *p = xasprintf("%s/%s", dir, names[i]);
		m->file = names[i];
		m->text = read_file(p, &m->len);
		free(p);
		scan_yaml(m);
		p = xasprintf("%s/%s", s->cluster, m->file);
		write_file(p, m->text, m->len);
		free(p);
	}
	free(names);
	/* Mark the first leaf of each (kind, path) class across all files. */
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += s->mans[i].n_leaves;
	char **seen = xmalloc(total * sizeof(*seen));
	size_t n_seen = 0;
	for (size_t i = 0; i < n; i++) {
		manifest *m = &s->mans[i];
		for (size_t j = 0; j < m->n_leaves; j++) {
			leaf *l = &m->leaves[j];
			char *c = leaf_class(m, l);
			int dup = 0;
			for (size_t k = 0; k < n_seen && !dup; k++)
				dup = !strcmp(seen[k], c);
			l->sweep = s->full || !dup;
			if (dup)
				free(c);
			else
				seen[n_seen++] = c;
		}
	}
	for (size_t k = 0; k < n_seen; k++)
		free(seen[k]);
	free(seen);
}

static void free_manifests(sweep *s)
{
	for (size_t i = 0; i < s->n_mans; i++) {
		manifest *m = &s->mans[i];
		for (size_t j = 0; j < m->n_leaves; j++) {
			free(m->leaves[j].path);
			free(m->leaves[j].orig);
		}
		for (size_t j = 0; j < m->n_docs; j++) {
			free(m->docs[j].kind);
			free(m->docs[j].name);
		}
		free(m->leaves);
		free(m->docs);
		free(m->text);
		free(m->file);
	}
	free(s->mans);
}

static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *de;
		while ((de = readdir(d))) {
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			char *p = xasprintf("%s/%s", dir, de->d_name);
			struct stat st;
			if (!lstat(p, &st) && S_ISDIR(st.st_mode))
				remove_tree(p);
			else
				unlink(p);
			free(p);
		}
		closedir(d);
	}
	rmdir(dir);
}

/* --emit-corpus DIR: a few representative long-value inputs for the fuzz
 * targets: the NodePools, the node class and the jobs as one stream, with one
 * leaf set long, at each length. */
static void emit_corpus(sweep *s, const char *dir, const size_t *lengths, size_t n_lengths)
{
	static const struct {
		const char *file, *path;
		int is_key;
	} picks[] = {
		{ "nodepools.yaml", "spec.template.spec.nodeClassRef.group", 0 },
		{ "nodepools.yaml", "spec.template.metadata.labels[example.com/team]", 1 },
		{ "nodepools.yaml", "spec.template.spec.requirements[0].values[0]", 0 },
		{ "nodepools.yaml", "spec.limits.cpu", 0 },
		{ "nodepools.yaml", "spec.disruption.consolidateAfter", 0 },
		{ "nodeclass.yaml", "metadata.name", 0 },
		{ "jobs.yaml", "metadata.labels.app", 0 },
		{ "jobs.yaml", "spec.containers[0].resources.requests.memory", 0 },
	};
	const manifest *parts[3] = { NULL, NULL, NULL };
	static const char *const part_names[3] = { "nodepools.yaml", "nodeclass.yaml", "jobs.yaml" };
	for (size_t i = 0; i < s->n_mans; i++)
		for (int p = 0; p < 3; p++)
			if (!strcmp(s->mans[i].file, part_names[p]))
				parts[p] = &s->mans[i];
	for (int p = 0; p < 3; p++)
		if (!parts[p])
			die("--emit-corpus needs %s", part_names[p]);
	mkdir(dir, 0755);
	size_t written = 0;
	for (size_t k = 0; k < sizeof(picks) / sizeof(picks[0]); k++) {
		for (size_t li = 0; li < n_lengths; li++) {
			const leaf *hit = NULL;
			const manifest *hm = NULL;
			for (int p = 0; p < 3 && !hit; p++) {
				if (strcmp(parts[p]->file, picks[k].file))
					continue;
				for (size_t j = 0; j < parts[p]->n_leaves && !hit; j++) {
					const leaf *l = &parts[p]->leaves[j];
					if (l->is_key == picks[k].is_key && !strcmp(l->path, picks[k].path))
						hit = l, hm = parts[p];
				}
			}
			if (!hit)
				die("--emit-corpus: no leaf %s in %s", picks[k].path, picks[k].file);
			buf out = { 0 };
			for (int p = 0; p < 3; p++) {
				if (p)
					buf_adds(&out, "\n---\n");
				if (parts[p] == hm) {
					size_t len;
					char *value;
					char *t = mutate_yaml(hm, hit, lengths[li], &len, &value);
					buf_add(&out, t, len);
					free(t);
					free(value);
				} else {
					buf_add(&out, parts[p]->text, parts[p]->len);
				}
			}
			char *name = xasprintf("%s/long-%zu-%zu.yaml", dir, k, lengths[li]);
			write_file(name, out.s, out.len);
			free(name);
			free(out.s);
			written++;
		}
	}
	fprintf(stderr, "wrote %zu corpus files to %s\n", written, dir);
}

int main(int argc, char **argv)
{
	sweep s;
	memset(&s, 0, sizeof(s));
	const char *corpus = NULL;
	if (argc < 3) {
		fprintf(stderr, "usage: %s EXAMPLES_DIR KWOK_CATALOGUE_JSON [--cli PATH] "
				"[--emit-corpus DIR]\n", argv[0]);
		return 2;
	}
	if (access(argv[2], R_OK)) {
		printf("1..0 # SKIP %s: %s\n", argv[2], strerror(errno));
		return 77;
	}
	for (int i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "--cli") && i + 1 < argc)
			s.cli = argv[++i];
		else if (!strcmp(argv[i], "--emit-corpus") && i + 1 < argc)
			corpus = argv[++i];
		else {
			fprintf(stderr, "%s: unknown argument %s\n", argv[0], argv[i]);
			return 2;
		}
	}
	size_t lengths[8] = { 300, 70000 }, n_lengths = 2;
	const char *ls = getenv("KP_SWEEP_LENGTHS");
	if (ls && *ls) {
		n_lengths = 0;
		for (const char *p = ls; *p && n_lengths < 8;) {
			char *end;
			unsigned long v = strtoul(p, &end, 10);
			if (end == p || v < 2 || v > (1UL << 20)) {
				fprintf(stderr, "KP_SWEEP_LENGTHS: lengths from 2 to 1048576\n");
				return 2;
			}
			lengths[n_lengths++] = v;
			p = *end == ',' ? end + 1 : end;
		}
	}
	const char *full = getenv("KP_SWEEP_FULL");
	s.full = full && *full && strcmp(full, "0");

	char tmpl[] = "/tmp/kp-sweep-XXXXXX";
	if (!mkdtemp(tmpl))
		die("mkdtemp: %s", strerror(errno));
	s.tmp = tmpl;
	s.cluster = xasprintf("%s/cluster", s.tmp);
	s.catalogue = xasprintf("%s/catalogue.json", s.tmp);
	s.log = xasprintf("%s/child.log", s.tmp);
	if (mkdir(s.cluster, 0700))
		die("mkdir: %s", strerror(errno));
	load_manifests(&s, argv[1]);

	int failed = 0;
	if (corpus) {
		emit_corpus(&s, corpus, lengths, n_lengths);
	} else {
		/* Unmutated, everything must pass: else the sweep measures nothing. */
		size_t leaves = 0, swept = 0, skipped = 0;
		for (size_t i = 0; i < s.n_mans; i++) {
			leaves += s.mans[i].n_leaves;
			skipped += s.mans[i].skipped;
			for (size_t j = 0; j < s.mans[i].n_leaves; j++)
				swept += s.mans[i].leaves[j].sweep;
		}
		printf("# %zu manifests, %zu leaves (%zu swept, the others repeat a swept field "
		       "path%s), %zu scalars not checkable against the source\n",
		       s.n_mans, leaves, swept, s.full ? "; KP_SWEEP_FULL" : "", skipped);
		size_t ct;
		char *cat = read_file(argv[2], &ct);
		free(cat);
		{
			cJSON *all = load_catalogue(argv[2]);
			char *text = cJSON_PrintUnformatted(all);
			write_file(s.catalogue, text, strlen(text));
			cJSON_free(text);
			cJSON_Delete(all);
		}
		tally t = { 0 };
		t.run = 1;
		char *sy = run_child(&s, s.catalogue, NULL, 0, 1);
		if (sy) {
			note_failure(&t, "unmutated cluster", 0, sy);
			free(sy);
		}
		failed |= tap_line(&t, "the unmutated cluster and catalogue");

		sample sm = { 0 };
		sm.every = 1;
		size_t total = swept * n_lengths;
		if (total > 12)
			sm.every = total / 12; /* about 12 mutations x 3 commands */
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (size_t li = 0; li < n_lengths; li++) {
			for (size_t i = 0; i < s.n_mans; i++)
				failed |= sweep_manifest(&s, &s.mans[i], lengths[li], &sm);
			failed |= sweep_catalogue(&s, argv[2], lengths[li]);
		}
		if (s.cli) {
			tally ct2 = { 0 };
			ct2.run = sm.run;
			ct2.failed = sm.failed;
			ct2.report = sm.report;
			failed |= tap_line(&ct2, "kubectl-karpenter binary on a sample of the mutations");
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		printf("# %.1f s\n", (double)(t1.tv_sec - t0.tv_sec) +
					     (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
		printf("1..%d\n", tap_no);
	}
	free_manifests(&s);
	remove_tree(s.tmp);
	free(s.cluster);
	free(s.catalogue);
	free(s.log);
	return failed ? 1 : 0;
}
