/*
 * A small regular-expression matcher for the patterns of the v1 CRDs.
 *
 * kube-apiserver checks an OpenAPI `pattern` with Go's regexp package (RE2
 * syntax, leftmost-first, linear time). Validation only needs "does the
 * pattern match somewhere in the text", so this is a Thompson NFA simulated
 * over the text's runes (no captures, no backtracking): time is
 * O(len(text) * len(program)) whatever the input, like RE2.
 *
 * Supported syntax (everything the CRDs use, plus the obvious neighbours):
 * literals, `.` (any rune but '\n'), `[...]` classes with ranges and `^`
 * negation, the escapes `\s \S \d \D \w \W` and `\<punctuation>`, groups
 * `( )` and `(?: )`, alternation `|`, repetition `* + ? {m} {m,} {m,n}`
 * (a trailing `?` for non-greedy is accepted and ignored: it cannot change
 * whether a match exists), and the anchors `^` (start of text) and `$` (end
 * of text), which is what they mean in Go without the `m` flag.
 *
 * Text is decoded as Go decodes it: UTF-8 runes, each invalid byte one
 * U+FFFD rune.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdint.h>
#include <string.h>

#include "validation_private.h"

enum { MAX_REPEAT = 1000, MAX_PROGRAM = 20000 };

/* ------------------------------------------------------------------------ */
/* Syntax tree                                                              */

enum node_type { N_EMPTY, N_RUNE, N_ANY, N_CLASS, N_BEGIN, N_END, N_CAT, N_ALT, N_REPEAT };

typedef struct range {
	uint32_t lo, hi;
} range;

typedef struct node node;
struct node {
	int type;
	uint32_t rune;   /* N_RUNE */
	int negate;      /* N_CLASS */
	range *ranges;   /* N_CLASS */
	size_t n_ranges;
	node *a, *b;     /* N_CAT, N_ALT: children; N_REPEAT: a */
	int min, max;    /* N_REPEAT; max -1 = unbounded */
};

typedef struct parser {
	const char *p, *end;
	int failed; /* 1 syntax, 2 memory */
} parser;

static node *new_node(parser *ps, int type)
{
	node *n = kp__calloc(1, sizeof(*n));
	if (!n)
		ps->failed = 2;
	else
		n->type = type;
	return n;
}

static void free_node(node *n)
{
	if (!n)
		return;
	free_node(n->a);
	free_node(n->b);
	kp__free(n->ranges);
	kp__free(n);
}

static int add_range(parser *ps, node *n, uint32_t lo, uint32_t hi)
{
	range *r = kp__realloc(n->ranges, (n->n_ranges + 1) * sizeof(*r));
	if (!r) {
		ps->failed = 2;
		return -1;
	}
	n->ranges = r;
	r[n->n_ranges].lo = lo;
	r[n->n_ranges].hi = hi;
	n->n_ranges++;
	return 0;
}

/* Perl classes: \s is [\t\n\f\r ], \d [0-9], \w [0-9A-Za-z_]. */
static int add_perl_class(parser *ps, node *n, char c)
{
	switch (c) {
	case 's':
		return add_range(ps, n, '\t', '\n') || add_range(ps, n, '\f', '\r') ||
		       add_range(ps, n, ' ', ' ');
	case 'd':
		return add_range(ps, n, '0', '9');
	case 'w':
		return add_range(ps, n, '0', '9') || add_range(ps, n, 'A', 'Z') ||
		       add_range(ps, n, '_', '_') || add_range(ps, n, 'a', 'z');
	default:
		return -1;
	}
}

static int is_perl_class(char c)
{
	return c == 's' || c == 'd' || c == 'w' || c == 'S' || c == 'D' || c == 'W';
}

/* One UTF-8 rune; invalid bytes are U+FFFD of width 1 (as Go). */
static size_t decode_rune(const unsigned char *p, const unsigned char *end, uint32_t *out)
{
	size_t n = kp__utf8_char((const char *)p, (size_t)(end - p), out);
	if (n)
		return n;
	*out = 0xfffd;
	return 1;
}

static uint32_t next_rune(parser *ps)
{
	uint32_t r;
	ps->p += decode_rune((const unsigned char *)ps->p, (const unsigned char *)ps->end, &r);
	return r;
}

static node *parse_alt(parser *ps);

static node *parse_class(parser *ps)
{
	node *n = new_node(ps, N_CLASS);
	if (!n)
		return NULL;
	if (ps->p < ps->end && *ps->p == '^') {
		n->negate = 1;
		ps->p++;
	}
	int first = 1;
	while (ps->p < ps->end && (*ps->p != ']' || first)) {
		first = 0;
		uint32_t lo;
		if (*ps->p == '\\' && ps->p + 1 < ps->end) {
			char e = ps->p[1];
			if (is_perl_class(e)) {
				if (e >= 'a') {
					if (add_perl_class(ps, n, e))
						goto fail;
				} else {
					/* A negated Perl class inside a class is not used by
					 * any CRD; refuse rather than get it wrong. */
					ps->failed = 1;
					goto fail;
				}
				ps->p += 2;
				continue;
			}
			ps->p++;
			lo = next_rune(ps);
		} else {
			lo = next_rune(ps);
		}
		uint32_t hi = lo;
		if (ps->p + 1 < ps->end && *ps->p == '-' && ps->p[1] != ']') {
			ps->p++;
			if (*ps->p == '\\' && ps->p + 1 < ps->end)
				ps->p++;
			hi = next_rune(ps);
			if (hi < lo) {
				ps->failed = 1;
				goto fail;
			}
		}
		if (add_range(ps, n, lo, hi))
			goto fail;
	}
	if (ps->p >= ps->end) {
		ps->failed = 1;
		goto fail;
	}
	ps->p++; /* ']' */
	return n;
fail:
	if (!ps->failed)
		ps->failed = 1;
	free_node(n);
	return NULL;
}

static node *parse_atom(parser *ps)
{
	char c = *ps->p;
	node *n;
	switch (c) {
	case '(': {
		ps->p++;
		if (ps->end - ps->p >= 2 && ps->p[0] == '?' && ps->p[1] == ':')
			ps->p += 2;
		n = parse_alt(ps);
		if (!n)
			return NULL;
		if (ps->p >= ps->end || *ps->p != ')') {
			ps->failed = 1;
			free_node(n);
			return NULL;
		}
		ps->p++;
		return n;
	}
	case '[':
		ps->p++;
		return parse_class(ps);
	case '.':
		ps->p++;
		return new_node(ps, N_ANY);
	case '^':
		ps->p++;
		return new_node(ps, N_BEGIN);
	case '$':
		ps->p++;
		return new_node(ps, N_END);
	case '\\':
		if (ps->p + 1 >= ps->end) {
			ps->failed = 1;
			return NULL;
		}
		if (is_perl_class(ps->p[1])) {
			char e = ps->p[1];
			ps->p += 2;
			n = new_node(ps, N_CLASS);
			if (!n)
				return NULL;
			n->negate = e < 'a';
			if (add_perl_class(ps, n, (char)(e | 0x20))) {
				free_node(n);
				return NULL;
			}
			return n;
		}
		ps->p++;
		n = new_node(ps, N_RUNE);
		if (n)
			n->rune = next_rune(ps);
		return n;
	case '*':
	case '+':
	case '?':
	case ')':
	case '|':
		ps->failed = 1;
		return NULL;
	default:
		n = new_node(ps, N_RUNE);
		if (n)
			n->rune = next_rune(ps);
		return n;
	}
}

static int parse_int(parser *ps, int *out)
{
	int v = 0, digits = 0;
	while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') {
		v = v * 10 + (*ps->p - '0');
		if (v > MAX_REPEAT)
			return -1;
		ps->p++;
		digits++;
	}
	*out = v;
	return digits ? 0 : -1;
}

static node *parse_repeat(parser *ps)
{
	node *n = parse_atom(ps);
	while (n && ps->p < ps->end) {
		int min, max;
		char c = *ps->p;
		if (c == '*') {
			min = 0, max = -1;
			ps->p++;
		} else if (c == '+') {
			min = 1, max = -1;
			ps->p++;
		} else if (c == '?') {
			min = 0, max = 1;
			ps->p++;
		} else if (c == '{') {
			const char *save = ps->p;
			ps->p++;
			if (parse_int(ps, &min)) {
				/* Not a repetition: Go reads "{" literally then. */
				ps->p = save;
				break;
			}
			max = min;
			if (ps->p < ps->end && *ps->p == ',') {
				ps->p++;
				if (ps->p < ps->end && *ps->p == '}')
					max = -1;
				else if (parse_int(ps, &max) || max < min) {
					ps->failed = 1;
					free_node(n);
					return NULL;
				}
			}
			if (ps->p >= ps->end || *ps->p != '}') {
				ps->failed = 1;
				free_node(n);
				return NULL;
			}
			ps->p++;
		} else {
			break;
		}
		if (ps->p < ps->end && *ps->p == '?')
			ps->p++; /* non-greedy: same match/no-match answer */
		node *r = new_node(ps, N_REPEAT);
		if (!r) {
			free_node(n);
			return NULL;
		}
		r->a = n;
		r->min = min;
		r->max = max;
		n = r;
	}
	return n;
}

static node *parse_concat(parser *ps)
{
	node *n = NULL;
	while (ps->p < ps->end && *ps->p != '|' && *ps->p != ')') {
		node *r = parse_repeat(ps);
		if (!r) {
			free_node(n);
			return NULL;
		}
		if (!n) {
			n = r;
			continue;
		}
		node *c = new_node(ps, N_CAT);
		if (!c) {
			free_node(n);
			free_node(r);
			return NULL;
		}
		c->a = n;
		c->b = r;
		n = c;
	}
	return n ? n : new_node(ps, N_EMPTY);
}

static node *parse_alt(parser *ps)
{
	node *n = parse_concat(ps);
	while (n && ps->p < ps->end && *ps->p == '|') {
		ps->p++;
		node *r = parse_concat(ps);
		if (!r) {
			free_node(n);
			return NULL;
		}
		node *a = new_node(ps, N_ALT);
		if (!a) {
			free_node(n);
			free_node(r);
			return NULL;
		}
		a->a = n;
		a->b = r;
		n = a;
	}
	return n;
}

/* ------------------------------------------------------------------------ */
/* Program                                                                  */

enum op { O_RUNE, O_ANY, O_CLASS, O_BEGIN, O_END, O_SPLIT, O_JMP, O_MATCH };

typedef struct inst {
	int op;
	uint32_t rune;
	const node *cls; /* O_CLASS: the class node (owned by the tree) */
	size_t x, y;     /* O_SPLIT: both; O_JMP: x */
} inst;

typedef struct prog {
	inst *code;
	size_t n, cap;
	int failed;
} prog;

static size_t emit(prog *p, int op)
{
	if (p->failed)
		return 0;
	if (p->n >= MAX_PROGRAM) {
		p->failed = 1;
		return 0;
	}
	if (kp__grow((void **)&p->code, &p->cap, p->n + 1, sizeof(inst))) {
		p->failed = 2;
		return 0;
	}
	memset(&p->code[p->n], 0, sizeof(inst));
	p->code[p->n].op = op;
	return p->n++;
}

static void compile(prog *p, const node *n)
{
	size_t s, j;
	if (p->failed)
		return;
	switch (n->type) {
	case N_EMPTY:
		break;
	case N_RUNE:
		s = emit(p, O_RUNE);
		if (!p->failed)
			p->code[s].rune = n->rune;
		break;
	case N_ANY:
		emit(p, O_ANY);
		break;
	case N_CLASS:
		s = emit(p, O_CLASS);
		if (!p->failed)
			p->code[s].cls = n;
		break;
	case N_BEGIN:
		emit(p, O_BEGIN);
		break;
	case N_END:
		emit(p, O_END);
		break;
	case N_CAT:
		compile(p, n->a);
		compile(p, n->b);
		break;
	case N_ALT:
		s = emit(p, O_SPLIT);
		compile(p, n->a);
		j = emit(p, O_JMP);
		if (p->failed)
			return;
		p->code[s].x = s + 1;
		p->code[s].y = p->n;
		compile(p, n->b);
		if (!p->failed)
			p->code[j].x = p->n;
		break;
	case N_REPEAT:
		for (int i = 0; i < n->min; i++)
			compile(p, n->a);
		if (n->max < 0) {
			/* x*: L: split body, out; body; jmp L */
			s = emit(p, O_SPLIT);
			compile(p, n->a);
			j = emit(p, O_JMP);
			if (p->failed)
				return;
			p->code[j].x = s;
			p->code[s].x = s + 1;
			p->code[s].y = p->n;
		} else {
			/* (x(x(x)?)?)? for the optional copies */
			size_t opt = (size_t)(n->max - n->min);
			size_t splits[MAX_REPEAT];
			for (size_t i = 0; i < opt; i++) {
				splits[i] = emit(p, O_SPLIT);
				compile(p, n->a);
			}
			if (p->failed)
				return;
			for (size_t i = 0; i < opt; i++) {
				p->code[splits[i]].x = splits[i] + 1;
				p->code[splits[i]].y = p->n;
			}
		}
		break;
	default:
		p->failed = 1;
		break;
	}
}

static int class_has(const node *cls, uint32_t r)
{
	int in = 0;
	for (size_t i = 0; i < cls->n_ranges; i++)
		if (r >= cls->ranges[i].lo && r <= cls->ranges[i].hi) {
			in = 1;
			break;
		}
	return in != cls->negate;
}

/* ------------------------------------------------------------------------ */
/* Simulation                                                               */

typedef struct threads {
	size_t *pcs;
	size_t n;
} threads;

/* Add pc and its epsilon closure at text position (at_begin, at_end). */
static int add_thread(const prog *p, threads *t, size_t *mark, size_t gen, size_t *stack, size_t pc,
		      int at_begin, int at_end)
{
	size_t sp = 0;
	stack[sp++] = pc;
	while (sp) {
		pc = stack[--sp];
		if (mark[pc] == gen)
			continue;
		mark[pc] = gen;
		const inst *in = &p->code[pc];
		switch (in->op) {
		case O_JMP:
			stack[sp++] = in->x;
			break;
		case O_SPLIT:
			/* order is irrelevant without captures */
			stack[sp++] = in->y;
			stack[sp++] = in->x;
			break;
		case O_BEGIN:
			if (at_begin)
				stack[sp++] = pc + 1;
			break;
		case O_END:
			if (at_end)
				stack[sp++] = pc + 1;
			break;
		case O_MATCH:
			return 1;
		default:
			t->pcs[t->n++] = pc;
			break;
		}
	}
	return 0;
}

int kp__regex_match(const char *pattern, const char *text, size_t len)
{
	parser ps = { pattern, pattern + strlen(pattern), 0 };
	node *tree = parse_alt(&ps);
	if (tree && ps.p != ps.end)
		ps.failed = 1;
	if (!tree || ps.failed) {
		int f = ps.failed;
		free_node(tree);
		return f == 2 ? KP_ENOMEM : KP_EINVAL;
	}
	prog p = { NULL, 0, 0, 0 };
	compile(&p, tree);
	emit(&p, O_MATCH);
	if (p.failed) {
		int f = p.failed;
		kp__free(p.code);
		free_node(tree);
		return f == 2 ? KP_ENOMEM : KP_EINVAL;
	}

	/* A closure pops each instruction unmarked at most once and then pushes
	 * at most two entries, so 2n + 1 bounds the stack. */
	size_t *buf = kp__calloc(p.n * 5 + 1, sizeof(size_t));
	if (!buf) {
		kp__free(p.code);
		free_node(tree);
		return KP_ENOMEM;
	}
	size_t *mark = buf, *stack = buf + p.n;
	threads cur = { buf + 3 * p.n + 1, 0 }, nxt = { buf + 4 * p.n + 1, 0 };
	size_t gen = 0;
	int matched = 0;
	const unsigned char *s = (const unsigned char *)text, *end = s + len;

	/* mark[] starts at 0; generations start at 1 */
	gen++;
	matched = add_thread(&p, &cur, mark, gen, stack, 0, 1, s == end);
	while (!matched && s < end) {
		uint32_t r;
		size_t w = decode_rune(s, end, &r);
		const unsigned char *after = s + w;
		gen++;
		nxt.n = 0;
		for (size_t i = 0; i < cur.n && !matched; i++) {
			const inst *in = &p.code[cur.pcs[i]];
			int ok = 0;
			switch (in->op) {
			case O_RUNE:
				ok = in->rune == r;
				break;
			case O_ANY:
				ok = r != '\n';
				break;
			case O_CLASS:
				ok = class_has(in->cls, r);
				break;
			default:
				break;
			}
			if (ok)
				matched = add_thread(&p, &nxt, mark, gen, stack, cur.pcs[i] + 1, 0,
						     after == end);
		}
		/* Unanchored search: a new attempt may start at every position. */
		if (!matched)
			matched = add_thread(&p, &nxt, mark, gen, stack, 0, 0, after == end);
		threads tmp = cur;
		cur = nxt;
		nxt = tmp;
		s = after;
	}
	kp__free(buf);
	kp__free(p.code);
	free_node(tree);
	return matched;
}
