/*
 * Long-value sweep (issue 9): every string leaf of the example cluster's
 * manifests (values and mapping keys) and of a KWOK catalogue entry is set in
 * turn to a long value (300 and 70,000 characters by default) and the result
 * goes through what kubectl-karpenter does with it — decode (and an
 * encode/decode round trip), validate, hash and simulate — in process, by
 * calling the CLI's own command functions (tools/kubectl-karpenter/cmd_*.c,
 * linked in). Mutations run in a forked child, in order; when the child
 * dies (a signal, a sanitizer report: the suite runs again under ASan/UBSan
 * in CI) the mutation it was on is the failing one and a new child resumes
 * with the next, so one crash does not hide the next. A mutation passes when
 * every command returns 0, 1 or 2, encoded output decodes again, and nothing
 * crashes, reports or leaks (a batch that leaks is run again one mutation per
 * child to find the leaking ones).
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
 * Pods' containers[0].image, ...) are swept once, and so are the keys of one
 * map (a long key is an unknown one, whichever it replaced); in the catalogue,
 * the first of each list of objects. KP_SWEEP_FULL=1 sweeps every occurrence.
 * KP_SWEEP_LENGTHS="300,70000" sets the lengths. Under ASan on two cores the
 * default sweep (about 530 mutations) takes about 50 s of CPU.
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
	size_t parent;  /* length of the path's parent part (the map of a key) */
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
					l.parent = keep;
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
 * sequence indexes; for a key, the path of its map (one key of a map stands
 * for all: set long, any key is an ordinary unknown one). */
static char *leaf_class(const manifest *m, const leaf *l)
{
	buf b = { 0 };
	buf_adds(&b, m->docs[l->doc].kind);
	buf_adds(&b, l->is_key ? " key " : " value ");
	const char *end = l->path + (l->is_key ? l->parent : strlen(l->path));
	for (const char *p = l->path; p < end; p++) {
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
/* The catalogue: the first entries of upstream KWOK's file; every     */
/* string leaf and key of the first entry is swept.                    */
/* ------------------------------------------------------------------ */

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

/* ------------------------------------------------------------------ */
/* Jobs: one mutation each, run in batches by forked children          */
/* ------------------------------------------------------------------ */

typedef struct job {
	long man;      /* index in sweep.mans, or -1 for the catalogue */
	size_t leaf;   /* index in the manifest's leaves or in sweep.jleaves */
	size_t length; /* characters */
	char *failure; /* the symptom, when it failed */
} job;

typedef struct sweep {
	char *tmp;       /* scratch directory */
	char *cluster;   /* tmp/cluster: a copy of the example manifests */
	char *catalogue; /* tmp/catalogue.json */
	char *log;       /* tmp/child.log: the child's stderr */
	const char *cli; /* kubectl-karpenter, for the sampled CLI pass */
	manifest *mans;
	size_t n_mans;
	int full;
	cJSON *cat;
	char *cat_text;
	jleaf *jleaves;
	size_t n_jleaves;
	job *jobs;
	size_t n_jobs;
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
		if (kp_decode(&res, text, len, &o, &e) != KP_OK) {
			kp_decode_result_free(res);
			continue;
		}
		for (size_t i = 0; i < kp_decode_result_count(res); i++) {
			const kp_decoded_object *d = kp_decode_result_at(res, i);
			if (!d || !d->object)
				continue;
			for (uint32_t fmt = KP_FORMAT_JSON; fmt <= KP_FORMAT_YAML; fmt++) {
				char *out = NULL;
				size_t ol = 0;
				if (kp_encode(&out, &ol, d->kind, d->object, fmt, 0, &e) == KP_OK) {
					kp_decode_result *again = NULL;
					kp_decode_options o2 = KP_DECODE_OPTIONS_INIT;
					o2.flags = flags;
					if (kp_decode(&again, out, ol, &o2, &e) != KP_OK) {
						fprintf(stderr, "encoded %s of %s does not decode: %s\n",
							fmt == KP_FORMAT_JSON ? "JSON" : "YAML",
							d->kind_name, e.message);
						bad = 1;
					}
					kp_decode_result_free(again);
				}
				kp_encoded_free(out);
			}
		}
		kp_decode_result_free(res);
	}
	return bad ? -1 : 0;
}

static int cli_ok(const char *what, int rc)
{
	if (rc >= 0 && rc <= 2)
		return 1;
	fprintf(stderr, "%s returned %d\n", what, rc);
	return 0;
}

/* The mutated text of a job, and the file it replaces. */
static char *job_text(const sweep *s, const job *j, size_t *len, char **file)
{
	if (j->man < 0) {
		const jleaf *l = &s->jleaves[j->leaf];
		char *saved = l->is_key ? l->node->string : l->node->valuestring;
		buf v = { 0 };
		long_value(&v, saved, j->length);
		if (l->is_key)
			l->node->string = v.s;
		else
			l->node->valuestring = v.s;
		char *text = cJSON_PrintUnformatted(s->cat);
		if (l->is_key)
			l->node->string = saved;
		else
			l->node->valuestring = saved;
		free(v.s);
		if (!text)
			die("out of memory");
		*len = strlen(text);
		*file = xstrdup(s->catalogue);
		return text;
	}
	const manifest *m = &s->mans[j->man];
	char *value;
	char *text = mutate_yaml(m, &m->leaves[j->leaf], j->length, len, &value);
	free(value);
	*file = xasprintf("%s/%s", s->cluster, m->file);
	return text;
}

static void restore(const sweep *s, const job *j)
{
	if (j->man < 0) {
		write_file(s->catalogue, s->cat_text, strlen(s->cat_text));
	} else {
		char *file = xasprintf("%s/%s", s->cluster, s->mans[j->man].file);
		write_file(file, s->mans[j->man].text, s->mans[j->man].len);
		free(file);
	}
}

/* In the child: one job through decode, validate, hash and simulate.
 * Returns 0, or -1 when a command misbehaved without crashing. */
static int child_job(const sweep *s, const job *j, FILE *null)
{
	size_t len;
	char *file;
	char *text = job_text(s, j, &len, &file);
	write_file(file, text, len);
	int ok = 1;
	char a_validate[] = "validate", a_hash[] = "hash", a_simulate[] = "simulate", a_f[] = "-f",
	     a_it[] = "--instance-types";
	if (j->man >= 0) {
		char *val_argv[] = { a_validate, a_f, file, NULL };
		char *hash_argv[] = { a_hash, a_f, file, NULL };
		stage("decode");
		ok &= decode_round_trip(text, len) == 0;
		stage("validate");
		ok &= cli_ok("validate", cli_cmd_validate.run(3, val_argv, null, null));
		stage("hash");
		ok &= cli_ok("hash", cli_cmd_hash.run(3, hash_argv, null, null));
	}
	char *sim_argv[] = { a_simulate, a_f, s->cluster, a_it, s->catalogue, NULL };
	stage("simulate");
	/* Manifests on the built-in catalogue, as `simulate` runs by default;
	 * a catalogue mutation through --instance-types. */
	ok &= cli_ok("simulate", cli_cmd_simulate.run(j->man >= 0 ? 3 : 5, sim_argv, null, null));
	stage("done");
	restore(s, j);
	free(file);
	free(text);
	return ok ? 0 : -1;
}

#ifdef SWEEP_ASAN
int __lsan_do_recoverable_leak_check(void);
#endif

/* The child: jobs [from, to); reports "INDEX ok" or "INDEX bad" on @p fd
 * and stops after a bad one. Exit: CHILD_PASS, CHILD_BAD, CHILD_LEAK. */
enum { CHILD_BAD = 96, CHILD_LEAK = 95 };

static void child(const sweep *s, size_t from, size_t to, int fd)
{
	int log = open(s->log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (log < 0 || dup2(log, 2) < 0)
		_exit(97);
	close(log);
	FILE *null = fopen("/dev/null", "w");
	if (!null)
		_exit(97);
	for (size_t i = from; i < to; i++) {
		/* The log holds the current job's output only. */
		fflush(stderr);
		if (ftruncate(2, 0) || lseek(2, 0, SEEK_SET) < 0)
			_exit(97);
		alarm(CHILD_TIMEOUT_S);
		int r = child_job(s, &s->jobs[i], null);
		fflush(stderr);
		char line[64];
		int n = snprintf(line, sizeof(line), "%zu %s\n", i, r ? "bad" : "ok");
		if (write(fd, line, (size_t)n) != n)
			_exit(97);
		if (r)
			_exit(CHILD_BAD);
	}
	fclose(null);
	alarm(0);
#ifdef SWEEP_ASAN
	if (__lsan_do_recoverable_leak_check())
		_exit(CHILD_LEAK);
#endif
	_exit(CHILD_PASS);
}

/* Distil the child's log into a one-line symptom plus report lines. */
static char *symptom(const sweep *s, int status)
{
	buf b = { 0 };
	char tmp[160];
	if (WIFSIGNALED(status))
		snprintf(tmp, sizeof(tmp), "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else if (WEXITSTATUS(status) == CHILD_BAD)
		snprintf(tmp, sizeof(tmp), "a command misbehaved");
	else if (WEXITSTATUS(status) == CHILD_LEAK)
		snprintf(tmp, sizeof(tmp), "memory leaked");
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
		const char *t = line;
		while (*t == ' ')
			t++;
		if (!strncmp(line, "== sweep stage: ", 16)) {
			if (!lines)
				last_stage = line + 16;
		} else if (strstr(line, "ERROR: ") || strstr(line, "runtime error") ||
			   strstr(line, "SUMMARY: ") || strstr(line, "returned ") ||
			   strstr(line, "does not decode") || strstr(line, "leak of")) {
			if (lines < 4) {
				buf_adds(&b, "\n    ");
				buf_add(&b, line, strlen(line) > 240 ? 240 : strlen(line));
			}
			lines++;
		} else if (t[0] == '#' && t[1] >= '0' && t[1] <= '9' && frames < 6 && lines) {
			buf_adds(&b, "\n      ");
			buf_add(&b, t, strlen(t) > 200 ? 200 : strlen(t));
			frames++;
		}
		line = nl ? nl + 1 : NULL;
	}
	if (last_stage && strcmp(last_stage, "done")) {
		char *out = xasprintf("in %s: %s", last_stage, b.s);
		free(b.s);
		b.s = out;
	}
	free(log);
	return b.s;
}

static void restore_all(const sweep *s)
{
	for (size_t i = 0; i < s->n_mans; i++) {
		char *file = xasprintf("%s/%s", s->cluster, s->mans[i].file);
		write_file(file, s->mans[i].text, s->mans[i].len);
		free(file);
	}
	write_file(s->catalogue, s->cat_text, strlen(s->cat_text));
}

/* Runs jobs [from, to), forking a new child after each failure. A batch
 * that leaks is run again one job per child to find the leaking ones. */
static void run_jobs(sweep *s, size_t from, size_t to, int single)
{
	while (from < to) {
		size_t end = single ? from + 1 : to;
		int fds[2];
		if (pipe(fds))
			die("pipe: %s", strerror(errno));
		fflush(stdout);
		fflush(stderr);
		pid_t pid = fork();
		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (pid == 0) {
			close(fds[0]);
			child(s, from, end, fds[1]);
		}
		close(fds[1]);
		FILE *in = fdopen(fds[0], "r");
		if (!in)
			die("fdopen: %s", strerror(errno));
		size_t next = from; /* the first job not reported */
		char line[64];
		while (fgets(line, sizeof(line), in)) {
			size_t idx;
			char word[8];
			if (sscanf(line, "%zu %7s", &idx, word) == 2 && idx + 1 > next)
				next = idx + 1;
		}
		fclose(in);
		int status = 0;
		while (waitpid(pid, &status, 0) < 0)
			if (errno != EINTR)
				die("waitpid: %s", strerror(errno));
		restore_all(s);
		if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_PASS) {
			from = end;
		} else if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_LEAK) {
			if (single) {
				s->jobs[from].failure = symptom(s, status);
				from = end;
			} else {
				run_jobs(s, from, end, 1);
				from = end;
			}
		} else if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_BAD) {
			s->jobs[next - 1].failure = symptom(s, status);
			from = next;
		} else {
			/* Died in the job after the last one reported. */
			if (next >= end)
				next = end - 1; /* died on the way out */
			s->jobs[next].failure = symptom(s, status);
			from = next + 1;
		}
	}
}

/* ------------------------------------------------------------------ */
/* The CLI binary on a sample                                          */
/* ------------------------------------------------------------------ */

/* Runs kubectl-karpenter ARGS; NULL when it exited 0, 1 or 2 without a
 * sanitizer report. */
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
	char *r = xasprintf("kubectl-karpenter %s: %s", argv[1], sy);
	free(sy);
	return r;
}

/* ------------------------------------------------------------------ */
/* Report                                                              */
/* ------------------------------------------------------------------ */

static int tap_no;

static void describe(buf *b, const sweep *s, const job *j)
{
	char *d;
	if (j->man < 0) {
		d = xasprintf("catalogue %s", s->jleaves[j->leaf].path);
	} else {
		const manifest *m = &s->mans[j->man];
		const leaf *l = &m->leaves[j->leaf];
		d = xasprintf("%s document %zu (%s/%s) %s%s", m->file, l->doc, m->docs[l->doc].kind,
			      m->docs[l->doc].name, l->path, l->is_key ? " (the key)" : "");
	}
	buf_adds(b, d);
	free(d);
}

static void add_failure(buf *r, const sweep *s, const job *j, const char *sy)
{
	char head[64];
	buf_adds(r, "# FAIL ");
	describe(r, s, j);
	snprintf(head, sizeof(head), " (length %zu): ", j->length);
	buf_adds(r, head);
	for (const char *p = sy; *p; p++) {
		buf_add(r, p, 1);
		if (*p == '\n')
			buf_adds(r, "#");
	}
	buf_adds(r, "\n");
}

static int tap_line(size_t run, size_t failed, const buf *report, const char *what)
{
	printf("%s %d - %s: %zu mutations, %zu failed\n", failed ? "not ok" : "ok", ++tap_no, what,
	       run, failed);
	if (report->s)
		fputs(report->s, stdout);
	fflush(stdout);
	return failed != 0;
}

/* One TAP line per manifest and length (and the catalogue per length). */
static int report(const sweep *s, const size_t *lengths, size_t n_lengths)
{
	int failed = 0;
	for (size_t li = 0; li < n_lengths; li++) {
		for (long m = 0; m <= (long)s->n_mans; m++) {
			long man = m == (long)s->n_mans ? -1 : m;
			size_t run = 0, nf = 0;
			buf r = { 0 };
			for (size_t i = 0; i < s->n_jobs; i++) {
				const job *j = &s->jobs[i];
				if (j->man != man || j->length != lengths[li])
					continue;
				run++;
				if (j->failure) {
					nf++;
					add_failure(&r, s, j, j->failure);
				}
			}
			char *what = man < 0 ? xasprintf("KWOK catalogue entry, every leaf at %zu "
							 "characters", lengths[li])
					     : xasprintf("%s, every leaf at %zu characters",
							 s->mans[man].file, lengths[li]);
			failed |= tap_line(run, nf, &r, what);
			free(what);
			free(r.s);
		}
	}
	return failed;
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

static void free_sweep(sweep *s)
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
	for (size_t i = 0; i < s->n_jleaves; i++)
		free(s->jleaves[i].path);
	free(s->jleaves);
	for (size_t i = 0; i < s->n_jobs; i++)
		free(s->jobs[i].failure);
	free(s->jobs);
	cJSON_Delete(s->cat);
	cJSON_free(s->cat_text);
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
static void emit_corpus(const sweep *s, const char *dir, const size_t *lengths, size_t n_lengths)
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
	static const char *const part_names[3] = { "nodepools.yaml", "nodeclass.yaml", "jobs.yaml" };
	const manifest *parts[3] = { NULL, NULL, NULL };
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
					if (l->is_key == picks[k].is_key && !strcmp(l->path, picks[k].path)) {
						hit = l;
						hm = parts[p];
					}
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

static void add_job(sweep *s, long man, size_t index, size_t length)
{
	job *nj = realloc(s->jobs, (s->n_jobs + 1) * sizeof(*nj));
	if (!nj)
		die("out of memory");
	s->jobs = nj;
	s->jobs[s->n_jobs++] = (job){ man, index, length, NULL };
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

	load_manifests(&s, argv[1]);
	if (corpus) {
		emit_corpus(&s, corpus, lengths, n_lengths);
		free_sweep(&s);
		return 0;
	}
	if (access(argv[2], R_OK)) {
		printf("1..0 # SKIP %s: %s\n", argv[2], strerror(errno));
		free_sweep(&s);
		return 0; /* TAP: the plan "1..0 # SKIP" says skipped; an exit status would be an error */
	}

	char tmpl[] = "/tmp/kp-sweep-XXXXXX";
	if (!mkdtemp(tmpl))
		die("mkdtemp: %s", strerror(errno));
	s.tmp = tmpl;
	s.cluster = xasprintf("%s/cluster", s.tmp);
	s.catalogue = xasprintf("%s/catalogue.json", s.tmp);
	s.log = xasprintf("%s/child.log", s.tmp);
	if (mkdir(s.cluster, 0700))
		die("mkdir: %s", strerror(errno));
	s.cat = load_catalogue(argv[2]);
	s.cat_text = cJSON_PrintUnformatted(s.cat);
	if (!s.cat_text)
		die("out of memory");
	{
		buf path = { 0 };
		size_t cap = 0;
		buf_adds(&path, "[0]");
		scan_json(cJSON_GetArrayItem(s.cat, 0), &path, &s.jleaves, &s.n_jleaves, &cap, s.full);
		free(path.s);
	}
	restore_all(&s);

	size_t leaves = 0, swept = 0, skipped = 0;
	for (size_t li = 0; li < n_lengths; li++) {
		for (size_t i = 0; i < s.n_mans; i++)
			for (size_t j = 0; j < s.mans[i].n_leaves; j++)
				if (s.mans[i].leaves[j].sweep)
					add_job(&s, (long)i, j, lengths[li]);
		for (size_t j = 0; j < s.n_jleaves; j++)
			add_job(&s, -1, j, lengths[li]);
	}
	for (size_t i = 0; i < s.n_mans; i++) {
		leaves += s.mans[i].n_leaves;
		skipped += s.mans[i].skipped;
		for (size_t j = 0; j < s.mans[i].n_leaves; j++)
			swept += s.mans[i].leaves[j].sweep;
	}
	printf("# %zu manifests: %zu leaves, %zu swept (the others repeat a swept field path "
	       "or another key of the same map%s), %zu scalars not checkable against the "
	       "source; %zu catalogue leaves; %zu mutations\n",
	       s.n_mans, leaves, swept, s.full ? "; KP_SWEEP_FULL" : "", skipped, s.n_jleaves,
	       s.n_jobs);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);

	/* Unmutated, everything must pass: else the sweep measures nothing. */
	int failed = 0;
	{
		char a_simulate[] = "simulate", a_f[] = "-f", a_validate[] = "validate";
		char *sim_argv[] = { a_simulate, a_f, s.cluster, NULL };
		char *val_argv[] = { a_validate, a_f, s.cluster, NULL };
		FILE *null = fopen("/dev/null", "w");
		int v = cli_cmd_validate.run(3, val_argv, null, null);
		int r = cli_cmd_simulate.run(3, sim_argv, null, null);
		fclose(null);
		buf none = { 0 };
		/* The example cluster is valid; one of its pods cannot be placed. */
		failed |= tap_line(2, (v != 0) + (r != 1), &none, "the unmutated example cluster: "
				   "validate exits 0, simulate 1");
	}

	run_jobs(&s, 0, s.n_jobs, 0);
	failed |= report(&s, lengths, n_lengths);

	if (s.cli) {
		/* The real binary on about a dozen of the same mutations. */
		size_t every = s.n_jobs > 12 ? s.n_jobs / 12 : 1, run = 0, nf = 0;
		buf r = { 0 };
		for (size_t i = 0; i < s.n_jobs; i += every) {
			const job *j = &s.jobs[i];
			size_t len;
			char *file;
			char *text = job_text(&s, j, &len, &file);
			write_file(file, text, len);
			char a0[] = "kubectl-karpenter", a_v[] = "validate", a_h[] = "hash",
			     a_s[] = "simulate", a_f[] = "-f", a_it[] = "--instance-types";
			char *argvs[3][7] = {
				{ a0, a_v, a_f, file, NULL, NULL },
				{ a0, a_h, a_f, file, NULL, NULL },
				{ a0, a_s, a_f, s.cluster, j->man < 0 ? a_it : NULL, s.catalogue },
			};
			for (int c = j->man < 0 ? 2 : 0; c < 3; c++) {
				run++;
				char *sy = run_binary(&s, argvs[c]);
				if (sy) {
					nf++;
					add_failure(&r, &s, j, sy);
					free(sy);
				}
			}
			restore_all(&s);
			free(file);
			free(text);
		}
		failed |= tap_line(run, nf, &r, "the kubectl-karpenter binary on a sample of the "
				   "mutations (command runs)");
		free(r.s);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("# %.1f s\n", (double)(t1.tv_sec - t0.tv_sec) +
				     (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	printf("1..%d\n", tap_no);
	free_sweep(&s);
	remove_tree(s.tmp);
	free(s.cluster);
	free(s.catalogue);
	free(s.log);
	return failed ? 1 : 0;
}
