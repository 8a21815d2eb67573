/*
 * Karpenter's requirements algebra (upstream pkg/scheduling/requirement.go
 * and requirements.go).
 *
 * A requirement is one immutable block: header, sorted value pointers, then
 * the bytes of its key, values and bound texts. Blocks are reference-counted
 * so that copying a set, or adding to a set a requirement equal to one it
 * already has, costs a counter increment instead of string copies. The
 * scheduler's hot queries (intersects, compatible, has) only walk sorted
 * arrays and never allocate.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/requirements.h>

#include "common/sized.h"
#include "kp_internal.h"

enum {
	F_COMPLEMENT = 1u << 0, /* values are excluded, not allowed */
	F_GTE = 1u << 1,
	F_LTE = 1u << 2,
};

struct kp_requirement {
	atomic_size_t refs;
	uint32_t flags;
	int32_t min_values; /* 0 = unset */
	int64_t gte;        /* inclusive, valid with F_GTE */
	int64_t lte;        /* inclusive, valid with F_LTE */
	const char *key;
	const char *bound_text[2]; /* decimal gte, lte: selector output borrows them */
	size_t n_values;
	const char *values[]; /* byte-wise ascending, unique */
};

/* Intersections of up to this many values need no temporary allocation. */
#define STACK_VALUES 64
/* "-9223372036854775808" plus NUL */
#define INT64_TEXT 21

/* ------------------------------------------------------------------ */
/* small helpers                                                        */

/* Go's %q for the label keys in Compatible's message. UTF-8 passes through. */
static void sb_quote(kp__sbuf *b, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	kp__sbuf_put(b, "\"");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		char esc[5] = { '\\', 0, 0, 0, 0 };  /* one escape: at most "\\xNN" */
		switch (*p) {
		case '"': esc[1] = '"'; break;
		case '\\': esc[1] = '\\'; break;
		case '\a': esc[1] = 'a'; break;
		case '\b': esc[1] = 'b'; break;
		case '\f': esc[1] = 'f'; break;
		case '\n': esc[1] = 'n'; break;
		case '\r': esc[1] = 'r'; break;
		case '\t': esc[1] = 't'; break;
		case '\v': esc[1] = 'v'; break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				esc[1] = 'x';
				esc[2] = hex[*p >> 4];
				esc[3] = hex[*p & 15];
			} else {
				kp__sbuf_putn(b, (const char *)p, 1);
				continue;
			}
		}
		kp__sbuf_put(b, esc);
	}
	kp__sbuf_put(b, "\"");
}

/* strconv.Atoi: optional sign, base-10 digits, int64 range; nothing else. */
static int parse_int64(const char *s, int64_t *out)
{
	int neg = 0;
	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	if (!*s)
		return 0;
	uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	uint64_t v = 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return 0;
		unsigned d = (unsigned)(*s - '0');
		if (v > (limit - d) / 10)
			return 0;
		v = v * 10 + d;
	}
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 1;
}

static int within(uint32_t flags, int64_t gte, int64_t lte, const char *value)
{
	if (!(flags & (F_GTE | F_LTE)))
		return 1;
	int64_t v;
	if (!parse_int64(value, &v))
		return 0;
	return !((flags & F_GTE) && v < gte) && !((flags & F_LTE) && v > lte);
}

static int find_value(const kp_requirement *r, const char *value)
{
	int found;
	kp__strs_find((const char *const *)r->values, r->n_values, value, &found);
	return found;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* ------------------------------------------------------------------ */
/* operators                                                           */

static const char *const op_names[] = {
	"", "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "Gte", "Lte",
};
#define N_OPS (sizeof(op_names) / sizeof(op_names[0]))

KP_EXPORT const char *kp_selector_op_name(uint32_t op)
{
	return op < N_OPS && op_names[op] && *op_names[op] ? op_names[op] : "Unknown";
}

KP_EXPORT int kp_selector_op_parse(const char *name, uint32_t *op, kp_error *err)
{
	if (!name || !op)
		return kp__error(err, KP_EINVAL, "operator", "%s is NULL", name ? "op" : "name");
	for (uint32_t i = 1; i < N_OPS; i++) {
		if (strcmp(name, op_names[i]) == 0) {
			*op = i;
			return KP_OK;
		}
	}
	return kp__error(err, KP_EINVAL, "operator",
			 "unsupported operator %s not in [DoesNotExist Exists Gt Gte In Lt Lte NotIn]",
			 name);
}

KP_EXPORT void kp_node_selector_requirement_init(kp_node_selector_requirement *req)
{
	if (!req)
		return;
	memset(req, 0, sizeof(*req));
	req->struct_size = sizeof(*req);
}

/* ------------------------------------------------------------------ */
/* single requirements                                                 */

/* One allocation holding everything; values must be sorted and unique. */
static kp_requirement *req_make(const char *key, uint32_t flags, int64_t gte, int64_t lte,
				int32_t min_values, const char *const *values, size_t n)
{
	if (!(flags & F_GTE))
		gte = 0;
	if (!(flags & F_LTE))
		lte = 0;
	size_t bytes = strlen(key) + 1;
	for (size_t i = 0; i < n; i++)
		bytes += strlen(values[i]) + 1;
	if (flags & (F_GTE | F_LTE))
		bytes += 2 * INT64_TEXT;
	size_t head = sizeof(kp_requirement) + n * sizeof(const char *);
	kp_requirement *r = kp__malloc(head + bytes);
	if (!r)
		return NULL;
	atomic_init(&r->refs, 1);
	r->flags = flags;
	r->min_values = min_values;
	r->gte = gte;
	r->lte = lte;
	r->n_values = n;
	char *pool = (char *)r + head;
	size_t len = strlen(key) + 1;
	memcpy(pool, key, len);
	r->key = pool;
	pool += len;
	for (size_t i = 0; i < n; i++) {
		len = strlen(values[i]) + 1;
		memcpy(pool, values[i], len);
		r->values[i] = pool;
		pool += len;
	}
	r->bound_text[0] = r->bound_text[1] = NULL;
	if (flags & F_GTE) {
		snprintf(pool, INT64_TEXT, "%" PRId64, gte);
		r->bound_text[0] = pool;
	}
	if (flags & F_LTE) {
		snprintf(pool + INT64_TEXT, INT64_TEXT, "%" PRId64, lte);
		r->bound_text[1] = pool + INT64_TEXT;
	}
	return r;
}

static kp_requirement *req_ref(kp_requirement *r)
{
	atomic_fetch_add_explicit(&r->refs, 1, memory_order_relaxed);
	return r;
}

KP_EXPORT void kp_requirement_free(kp_requirement *req)
{
	if (req && atomic_fetch_sub_explicit(&req->refs, 1, memory_order_acq_rel) == 1)
		kp__free(req);
}

KP_EXPORT int kp_requirement_copy(kp_requirement **out, kp_requirement *req, kp_error *err)
{
	if (!out || !req) {
		if (out)
			*out = NULL;
		return kp__error(err, KP_EINVAL, NULL, "%s is NULL", out ? "requirement" : "out");
	}
	*out = req_ref(req);
	return KP_OK;
}

static int is_bound_op(uint32_t op)
{
	return op == KP_SELECTOR_OP_GT || op == KP_SELECTOR_OP_LT || op == KP_SELECTOR_OP_GTE ||
	       op == KP_SELECTOR_OP_LTE;
}

/* Validate and canonicalize sel into a requirement; values already normalized. */
static int req_from_parts(kp_requirement **out, const char *key, uint32_t op,
			  const char **values, size_t n, int32_t min_values, kp_error *err)
{
	uint32_t flags = 0;
	int64_t gte = 0, lte = 0;

	if (is_bound_op(op)) {
		const char *name = kp_selector_op_name(op);
		if (n != 1)
			return kp__error(err, KP_EINVAL, "values",
					 "key %s with operator %s must have a single integer value, got %zu values",
					 key, name, n);
		int64_t v;
		if (!parse_int64(values[0], &v))
			return kp__error(err, KP_EPARSE, "values[0]",
					 "key %s with operator %s must have a single integer value, not \"%s\"",
					 key, name, values[0]);
		flags = F_COMPLEMENT;
		switch (op) {
		case KP_SELECTOR_OP_GT:
			/* Nothing exceeds the largest integer. */
			if (v == INT64_MAX) {
				flags = 0;
				min_values = 0;
				break;
			}
			flags |= F_GTE;
			gte = v + 1;
			break;
		case KP_SELECTOR_OP_LT:
			/* Upstream wraps around here and matches everything; nothing is smaller. */
			if (v == INT64_MIN) {
				flags = 0;
				min_values = 0;
				break;
			}
			flags |= F_LTE;
			lte = v - 1;
			break;
		case KP_SELECTOR_OP_GTE:
			flags |= F_GTE;
			gte = v;
			break;
		default:
			flags |= F_LTE;
			lte = v;
			break;
		}
		n = 0;
	} else if (op == KP_SELECTOR_OP_IN || op == KP_SELECTOR_OP_NOT_IN) {
		if (op == KP_SELECTOR_OP_NOT_IN)
			flags = F_COMPLEMENT;
		if (n > 1) {
			qsort(values, n, sizeof(*values), cmp_str);
			size_t w = 1;
			for (size_t i = 1; i < n; i++)
				if (strcmp(values[i], values[w - 1]) != 0)
					values[w++] = values[i];
			n = w;
		}
	} else {
		flags = op == KP_SELECTOR_OP_EXISTS ? F_COMPLEMENT : 0;
		n = 0;
	}

	kp_requirement *r = req_make(key, flags, gte, lte, min_values, values, n);
	if (!r)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	*out = r;
	return KP_OK;
}

static int check_selector(const kp_node_selector_requirement *sel, kp_error *err)
{
	int rc = KP__CHECK_SIZED(sel, kp_node_selector_requirement, err);
	if (rc != KP_OK)
		return rc;
	if (!sel->key)
		return kp__error(err, KP_EINVAL, "key", "key is NULL");
	if (sel->op == 0 || sel->op >= N_OPS)
		return kp__error(err, KP_EINVAL, "operator", "key %s has an unsupported operator %u",
				 sel->key, (unsigned)sel->op);
	if (sel->n_values && !sel->values)
		return kp__error(err, KP_EINVAL, "values", "key %s has %zu values but values is NULL",
				 sel->key, sel->n_values);
	for (size_t i = 0; i < sel->n_values; i++) {
		if (!sel->values[i]) {
			char field[32]; /* "values[<size_t>]": fits by construction */
			snprintf(field, sizeof(field), "values[%zu]", i);
			return kp__error(err, KP_EINVAL, field, "key %s has a NULL value", sel->key);
		}
	}
	if (sel->min_values < 0)
		return kp__error(err, KP_EINVAL, "min_values", "key %s has a negative minValues %d",
				 sel->key, (int)sel->min_values);
	return KP_OK;
}

KP_EXPORT int kp_requirement_new(kp_requirement **out, const kp_node_selector_requirement *sel,
				 kp_wellknown *wk, kp_error *err)
{
	if (!out)
		return kp__error(err, KP_EINVAL, NULL, "out is NULL");
	*out = NULL;
	int rc = check_selector(sel, err);
	if (rc != KP_OK)
		return rc;

	const char *key = kp_wellknown_normalize_key(wk, sel->key);
	/* Operators without values ignore them, so do not even copy them. */
	size_t n = sel->op == KP_SELECTOR_OP_EXISTS || sel->op == KP_SELECTOR_OP_DOES_NOT_EXIST
			   ? 0
			   : sel->n_values;
	const char *stack[STACK_VALUES];
	const char **values = stack;
	if (n > STACK_VALUES) {
		values = kp__calloc(n, sizeof(*values));
		if (!values)
			return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	for (size_t i = 0; i < n; i++)
		values[i] = kp_wellknown_normalize_value(wk, key, sel->values[i]);
	rc = req_from_parts(out, key, sel->op, values, n, sel->min_values, err);
	if (values != stack)
		kp__free(values);
	return rc;
}

/* Would a requirement with these parts be identical to r? */
static int req_equals(const kp_requirement *r, uint32_t flags, int64_t gte, int64_t lte,
		      int32_t min_values, const char *const *values, size_t n)
{
	if (r->flags != flags || r->min_values != min_values || r->n_values != n)
		return 0;
	if (((flags & F_GTE) && r->gte != gte) || ((flags & F_LTE) && r->lte != lte))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (values[i] != r->values[i] && strcmp(values[i], r->values[i]) != 0)
			return 0;
	return 1;
}

/*
 * The tighter of both bounds: returns which bounds are set; sets *crossed
 * when they leave no integer.
 */
static uint32_t combine_bounds(const kp_requirement *a, const kp_requirement *b, int64_t *gte,
			       int64_t *lte, int *crossed)
{
	uint32_t bflags = (a->flags | b->flags) & (F_GTE | F_LTE);
	*gte = *lte = 0;
	if (bflags & F_GTE)
		*gte = !(a->flags & F_GTE) ? b->gte : !(b->flags & F_GTE) ? a->gte
						   : a->gte > b->gte ? a->gte : b->gte;
	if (bflags & F_LTE)
		*lte = !(a->flags & F_LTE) ? b->lte : !(b->flags & F_LTE) ? a->lte
						   : a->lte < b->lte ? a->lte : b->lte;
	*crossed = (bflags & (F_GTE | F_LTE)) == (F_GTE | F_LTE) && *gte > *lte;
	return bflags;
}

/*
 * Merge the sorted value arrays of a and b by the set operation their
 * complements call for, keeping only values within the bounds. Writes up to
 * a->n_values + b->n_values pointers (borrowed from a and b) to out.
 */
static size_t merge_values(const kp_requirement *a, const kp_requirement *b, uint32_t bflags,
			   int64_t gte, int64_t lte, const char **out)
{
	int ca = (a->flags & F_COMPLEMENT) != 0, cb = (b->flags & F_COMPLEMENT) != 0;
	/*
	 * Both complements: union of the exclusions. One complement: the finite
	 * side minus the other's exclusions. Neither: the common values.
	 */
	int keep_only_a = cb, keep_only_b = ca, keep_both = ca == cb;

	size_t i = 0, j = 0, n = 0;
	while (i < a->n_values || j < b->n_values) {
		const char *v;
		int keep;
		int c = i == a->n_values ? 1 : j == b->n_values ? -1 : strcmp(a->values[i], b->values[j]);
		if (c < 0) {
			v = a->values[i++];
			keep = keep_only_a;
		} else if (c > 0) {
			v = b->values[j++];
			keep = keep_only_b;
		} else {
			v = a->values[i++];
			j++;
			keep = keep_both;
		}
		if (keep && within(bflags, gte, lte, v))
			out[n++] = v;
	}
	return n;
}

/* The intersection, as a new block or a new reference to a or b; NULL: out of memory. */
static kp_requirement *req_intersect(kp_requirement *a, kp_requirement *b)
{
	int64_t gte, lte;
	int crossed;
	uint32_t bflags = combine_bounds(a, b, &gte, &lte, &crossed);
	int32_t min_values = a->min_values > b->min_values ? a->min_values : b->min_values;

	const char *stack[STACK_VALUES];
	const char **values = stack;
	size_t n = 0;
	uint32_t flags = 0;
	/* Crossed bounds allow nothing: DoesNotExist. */
	if (!crossed) {
		size_t cap = a->n_values + b->n_values;
		if (cap > STACK_VALUES && !(values = kp__calloc(cap, sizeof(*values))))
			return NULL;
		n = merge_values(a, b, bflags, gte, lte, values);
		flags = a->flags & b->flags & F_COMPLEMENT;
		/* A finite set is already clipped to the bounds. */
		if (flags)
			flags |= bflags;
	}

	kp_requirement *r;
	if (req_equals(a, flags, gte, lte, min_values, values, n))
		r = req_ref(a);
	else if (req_equals(b, flags, gte, lte, min_values, values, n))
		r = req_ref(b);
	else
		r = req_make(a->key, flags, gte, lte, min_values, values, n);
	if (values != stack)
		kp__free(values);
	return r;
}

static int same_key(const kp_requirement *a, const kp_requirement *b)
{
	return a->key == b->key || strcmp(a->key, b->key) == 0;
}

KP_EXPORT int kp_requirement_intersection(kp_requirement **out, kp_requirement *a,
					  kp_requirement *b, kp_error *err)
{
	if (!out)
		return kp__error(err, KP_EINVAL, NULL, "out is NULL");
	*out = NULL;
	if (!a || !b)
		return kp__error(err, KP_EINVAL, NULL, "requirement is NULL");
	if (!same_key(a, b))
		return kp__error(err, KP_EINVAL, "key",
				 "cannot intersect requirements on different keys %s and %s", a->key,
				 b->key);
	kp_requirement *r = req_intersect(a, b);
	if (!r)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	*out = r;
	return KP_OK;
}

/* Is some value of fin (a finite set) allowed by other, within the bounds? */
static int finite_meets(const kp_requirement *fin, const kp_requirement *other, uint32_t bflags,
			int64_t gte, int64_t lte)
{
	int excluded = (other->flags & F_COMPLEMENT) != 0;
	size_t j = 0;
	for (size_t i = 0; i < fin->n_values; i++) {
		const char *v = fin->values[i];
		int c = 1;
		while (j < other->n_values && (c = strcmp(other->values[j], v)) < 0)
			j++;
		int in_other = j < other->n_values && c == 0;
		if (in_other != excluded && within(bflags, gte, lte, v))
			return 1;
	}
	return 0;
}

static int req_intersects(const kp_requirement *a, const kp_requirement *b)
{
	int64_t gte, lte;
	int crossed;
	uint32_t bflags = combine_bounds(a, b, &gte, &lte, &crossed);
	if (crossed)
		return 0;
	int ca = (a->flags & F_COMPLEMENT) != 0, cb = (b->flags & F_COMPLEMENT) != 0;
	if (ca && cb)
		return 1;
	return ca ? finite_meets(b, a, bflags, gte, lte) : finite_meets(a, b, bflags, gte, lte);
}

KP_EXPORT int kp_requirement_intersects(kp_requirement *a, kp_requirement *b)
{
	return a && b && req_intersects(a, b);
}

KP_EXPORT int kp_requirement_has(kp_requirement *req, const char *value)
{
	if (!req || !value)
		return 0;
	int found = find_value(req, value);
	if (req->flags & F_COMPLEMENT)
		found = !found;
	return found && within(req->flags, req->gte, req->lte, value);
}

KP_EXPORT const char *kp_requirement_key(kp_requirement *req)
{
	return req ? req->key : NULL;
}

static uint32_t req_operator(const kp_requirement *r)
{
	if (r->flags & F_COMPLEMENT)
		return r->n_values ? KP_SELECTOR_OP_NOT_IN : KP_SELECTOR_OP_EXISTS;
	return r->n_values ? KP_SELECTOR_OP_IN : KP_SELECTOR_OP_DOES_NOT_EXIST;
}

KP_EXPORT uint32_t kp_requirement_operator(kp_requirement *req)
{
	return req ? req_operator(req) : 0;
}

KP_EXPORT int64_t kp_requirement_len(kp_requirement *req)
{
	if (!req)
		return 0;
	if (req->flags & F_COMPLEMENT)
		return INT64_MAX - (int64_t)req->n_values;
	return (int64_t)req->n_values;
}

KP_EXPORT size_t kp_requirement_value_count(kp_requirement *req)
{
	return req ? req->n_values : 0;
}

KP_EXPORT const char *kp_requirement_value_at(kp_requirement *req, size_t index)
{
	return req && index < req->n_values ? req->values[index] : NULL;
}

KP_EXPORT int kp_requirement_gte(kp_requirement *req, int64_t *gte)
{
	if (!req || !(req->flags & F_GTE))
		return 0;
	if (gte)
		*gte = req->gte;
	return 1;
}

KP_EXPORT int kp_requirement_lte(kp_requirement *req, int64_t *lte)
{
	if (!req || !(req->flags & F_LTE))
		return 0;
	if (lte)
		*lte = req->lte;
	return 1;
}

KP_EXPORT int32_t kp_requirement_min_values(kp_requirement *req)
{
	return req ? req->min_values : 0;
}

static int excludes_integer(const kp_requirement *r, int64_t v)
{
	char tmp[INT64_TEXT]; /* an int64_t in decimal: fits by construction */
	snprintf(tmp, sizeof(tmp), "%" PRId64, v);
	return find_value(r, tmp);
}

/*
 * Upstream draws a random integer from the bounded range. We take the first
 * integer from the start of the range whose text is not excluded; with n
 * excluded values that is at most n + 1 probes.
 */
static int pick_integer(const kp_requirement *r, int64_t *out)
{
	int64_t v, end, step = 1;
	if (r->flags & F_GTE) {
		v = r->gte;
		end = (r->flags & F_LTE) ? r->lte : INT64_MAX;
	} else if ((r->flags & F_LTE) && r->lte < 0) {
		v = r->lte;
		end = INT64_MIN;
		step = -1;
	} else {
		v = 0;
		end = (r->flags & F_LTE) ? r->lte : INT64_MAX;
	}
	for (;; v += step) {
		if (!excludes_integer(r, v)) {
			*out = v;
			return 1;
		}
		if (v == end)
			return 0;
	}
}

KP_EXPORT size_t kp_requirement_any(kp_requirement *req, char *buf, size_t size)
{
	kp__sbuf b = KP__SBUF(buf, size);
	if (req) {
		uint32_t op = req_operator(req);
		int64_t v;
		if (op == KP_SELECTOR_OP_IN)
			kp__sbuf_put(&b, req->values[0]);
		else if (op != KP_SELECTOR_OP_DOES_NOT_EXIST && pick_integer(req, &v))
			kp__sbuf_int(&b, v);
	}
	return kp__sbuf_end(&b);
}

/* Upstream String() shows at most this many values. */
#define STRING_VALUES 5

static void sb_requirement(kp__sbuf *b, const kp_requirement *r)
{
	uint32_t op = req_operator(r);
	kp__sbuf_put(b, r->key);
	kp__sbuf_put(b, " ");
	kp__sbuf_put(b, kp_selector_op_name(op));
	if (op == KP_SELECTOR_OP_IN || op == KP_SELECTOR_OP_NOT_IN) {
		kp__sbuf_put(b, " [");
		size_t shown = r->n_values > STRING_VALUES ? STRING_VALUES : r->n_values;
		for (size_t i = 0; i < shown; i++) {
			if (i)
				kp__sbuf_put(b, " ");
			kp__sbuf_put(b, r->values[i]);
		}
		if (shown < r->n_values) {
			kp__sbuf_put(b, " and ");
			kp__sbuf_int(b, (int64_t)(r->n_values - shown));
			kp__sbuf_put(b, " others");
		}
		kp__sbuf_put(b, "]");
	}
	if (r->flags & F_GTE) {
		kp__sbuf_put(b, " >=");
		kp__sbuf_int(b, r->gte);
	}
	if (r->flags & F_LTE) {
		kp__sbuf_put(b, " <=");
		kp__sbuf_int(b, r->lte);
	}
	if (r->min_values) {
		kp__sbuf_put(b, " minValues ");
		kp__sbuf_int(b, r->min_values);
	}
}

KP_EXPORT size_t kp_requirement_string(kp_requirement *req, char *buf, size_t size)
{
	kp__sbuf b = KP__SBUF(buf, size);
	if (req)
		sb_requirement(&b, req);
	return kp__sbuf_end(&b);
}

KP_EXPORT size_t kp_requirement_selector_count(kp_requirement *req)
{
	if (!req)
		return 0;
	return (req->flags & (F_GTE | F_LTE)) == (F_GTE | F_LTE) ? 2 : 1;
}

KP_EXPORT int kp_requirement_selector(kp_requirement *req, size_t index,
				      kp_node_selector_requirement *out, kp_error *err)
{
	if (!req)
		return kp__error(err, KP_EINVAL, NULL, "requirement is NULL");
	int rc = KP__CHECK_SIZED(out, kp_node_selector_requirement, err);
	if (rc != KP_OK)
		return rc;
	if (index >= kp_requirement_selector_count(req))
		return kp__error(err, KP_EINVAL, "index", "requirement %s has no selector %zu",
				 req->key, index);
	out->key = req->key;
	out->min_values = req->min_values;
	if ((req->flags & F_GTE) && index == 0) {
		out->op = KP_SELECTOR_OP_GTE;
		out->values = &req->bound_text[0];
		out->n_values = 1;
	} else if (req->flags & F_LTE) {
		out->op = KP_SELECTOR_OP_LTE;
		out->values = &req->bound_text[1];
		out->n_values = 1;
	} else {
		out->op = req_operator(req);
		out->values = req->n_values ? req->values : NULL;
		out->n_values = req->n_values;
	}
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* requirement sets                                                    */

struct kp_requirements {
	kp_requirement **items; /* ascending by key */
	size_t count;
	size_t cap;
};

struct set_key {
	const kp_requirements *s;
	const char *key;
};

static int set_cmp_at(const void *ctx, size_t i)
{
	const struct set_key *k = ctx;
	return strcmp(k->s->items[i]->key, k->key);
}

static size_t set_find(const kp_requirements *s, const char *key, int *found)
{
	struct set_key k = { s, key };
	return kp__sorted_find(s->count, set_cmp_at, &k, found);
}

KP_EXPORT int kp_requirements_new(kp_requirements **out, kp_error *err)
{
	if (!out)
		return kp__error(err, KP_EINVAL, NULL, "out is NULL");
	*out = kp__calloc(1, sizeof(**out));
	if (!*out)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	return KP_OK;
}

KP_EXPORT void kp_requirements_free(kp_requirements *reqs)
{
	if (!reqs)
		return;
	for (size_t i = 0; i < reqs->count; i++)
		kp_requirement_free(reqs->items[i]);
	kp__free(reqs->items);
	kp__free(reqs);
}

KP_EXPORT int kp_requirements_copy(kp_requirements **out, kp_requirements *reqs, kp_error *err)
{
	if (!out)
		return kp__error(err, KP_EINVAL, NULL, "out is NULL");
	*out = NULL;
	if (!reqs)
		return kp__error(err, KP_EINVAL, NULL, "requirements is NULL");
	kp_requirements *c = kp__calloc(1, sizeof(*c));
	if (!c || (reqs->count && !(c->items = kp__calloc(reqs->count, sizeof(*c->items))))) {
		kp__free(c);
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	c->cap = reqs->count;
	for (size_t i = 0; i < reqs->count; i++)
		c->items[i] = req_ref(reqs->items[i]);
	c->count = reqs->count;
	*out = c;
	return KP_OK;
}

static int set_add(kp_requirements *s, kp_requirement *req)
{
	int found;
	size_t at = set_find(s, req->key, &found);
	if (found) {
		/* Upstream intersects incoming with existing: the result takes req's key. */
		kp_requirement *r = req_intersect(req, s->items[at]);
		if (!r)
			return KP_ENOMEM;
		kp_requirement_free(s->items[at]);
		s->items[at] = r;
		return KP_OK;
	}
	if (kp__grow((void **)&s->items, &s->cap, s->count + 1, sizeof(*s->items)) != KP_OK)
		return KP_ENOMEM;
	memmove(s->items + at + 1, s->items + at, (s->count - at) * sizeof(*s->items));
	s->items[at] = req_ref(req);
	s->count++;
	return KP_OK;
}

KP_EXPORT int kp_requirements_add(kp_requirements *reqs, kp_requirement *req, kp_error *err)
{
	if (!reqs || !req)
		return kp__error(err, KP_EINVAL, NULL, "%s is NULL", reqs ? "requirement" : "requirements");
	if (set_add(reqs, req) != KP_OK)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	return KP_OK;
}

KP_EXPORT int kp_requirements_add_all(kp_requirements *reqs, kp_requirements *src, kp_error *err)
{
	if (!reqs || !src)
		return kp__error(err, KP_EINVAL, NULL, "requirements is NULL");
	/* Every requirement intersected with itself is itself. */
	if (reqs == src)
		return KP_OK;
	for (size_t i = 0; i < src->count; i++)
		if (set_add(reqs, src->items[i]) != KP_OK)
			return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	return KP_OK;
}

KP_EXPORT int kp_requirements_add_selector(kp_requirements *reqs,
					   const kp_node_selector_requirement *sel,
					   kp_wellknown *wk, kp_error *err)
{
	if (!reqs)
		return kp__error(err, KP_EINVAL, NULL, "requirements is NULL");
	kp_requirement *r;
	int rc = kp_requirement_new(&r, sel, wk, err);
	if (rc != KP_OK)
		return rc;
	rc = set_add(reqs, r);
	kp_requirement_free(r);
	if (rc != KP_OK)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	return KP_OK;
}

KP_EXPORT int kp_requirements_from_selectors(kp_requirements **out,
					     const kp_node_selector_requirement *const *sels,
					     size_t n_sels, kp_wellknown *wk, kp_error *err)
{
	if (!out)
		return kp__error(err, KP_EINVAL, NULL, "out is NULL");
	*out = NULL;
	if (n_sels && !sels)
		return kp__error(err, KP_EINVAL, NULL, "%zu requirements but the array is NULL",
				 n_sels);
	kp_requirements *s;
	int rc = kp_requirements_new(&s, err);
	for (size_t i = 0; rc == KP_OK && i < n_sels; i++) {
		rc = kp_requirements_add_selector(s, sels[i], wk, err);
		if (rc != KP_OK) {
			char prefix[32]; /* "[<size_t>]": fits by construction */
			snprintf(prefix, sizeof(prefix), "[%zu]", i);
			kp__error_prefix(err, prefix);
		}
	}
	if (rc != KP_OK) {
		kp_requirements_free(s);
		return rc;
	}
	*out = s;
	return KP_OK;
}

KP_EXPORT int kp_requirements_from_labels(kp_requirements **out, const kp_labels *labels,
					  kp_wellknown *wk, kp_error *err)
{
	if (!out)
		return kp__error(err, KP_EINVAL, NULL, "out is NULL");
	*out = NULL;
	if (!labels || (labels->count && !labels->items))
		return kp__error(err, KP_EINVAL, NULL, "labels is NULL");
	kp_requirements *s;
	int rc = kp_requirements_new(&s, err);
	for (size_t i = 0; rc == KP_OK && i < labels->count; i++) {
		const kp_label *l = &labels->items[i];
		if (!l->key || !l->value) {
			char field[48]; /* "items[<size_t>].value": fits by construction */
			snprintf(field, sizeof(field), "items[%zu].%s", i, l->key ? "value" : "key");
			rc = kp__error(err, KP_EINVAL, field, "label %s is NULL", l->key ? "value" : "key");
			break;
		}
		kp_node_selector_requirement sel = KP_NODE_SELECTOR_REQUIREMENT_INIT;
		sel.key = l->key;
		sel.op = KP_SELECTOR_OP_IN;
		sel.values = &l->value;
		sel.n_values = 1;
		rc = kp_requirements_add_selector(s, &sel, wk, err);
	}
	if (rc != KP_OK) {
		kp_requirements_free(s);
		return rc;
	}
	*out = s;
	return KP_OK;
}

KP_EXPORT size_t kp_requirements_count(kp_requirements *reqs)
{
	return reqs ? reqs->count : 0;
}

KP_EXPORT kp_requirement *kp_requirements_at(kp_requirements *reqs, size_t index)
{
	return reqs && index < reqs->count ? reqs->items[index] : NULL;
}

KP_EXPORT kp_requirement *kp_requirements_get(kp_requirements *reqs, const char *key)
{
	if (!reqs || !key)
		return NULL;
	int found;
	size_t at = set_find(reqs, key, &found);
	return found ? reqs->items[at] : NULL;
}

KP_EXPORT int kp_requirements_has(kp_requirements *reqs, const char *key)
{
	return kp_requirements_get(reqs, key) != NULL;
}

KP_EXPORT int kp_requirements_has_min_values(kp_requirements *reqs)
{
	for (size_t i = 0; reqs && i < reqs->count; i++)
		if (reqs->items[i]->min_values)
			return 1;
	return 0;
}

static int is_negative_op(uint32_t op)
{
	return op == KP_SELECTOR_OP_NOT_IN || op == KP_SELECTOR_OP_DOES_NOT_EXIST;
}

static void sb_conflict(kp__sbuf *b, const kp_requirement *existing,
			const kp_requirement *incoming)
{
	if (b->len)
		kp__sbuf_put(b, "; ");
	kp__sbuf_put(b, "key ");
	kp__sbuf_put(b, incoming->key);
	kp__sbuf_put(b, ", ");
	sb_requirement(b, incoming);
	kp__sbuf_put(b, " not in ");
	sb_requirement(b, existing);
}

KP_EXPORT int kp_requirements_intersects(kp_requirements *reqs, kp_requirements *incoming,
					 kp_error *err)
{
	if (!reqs || !incoming)
		return kp__error(err, KP_EINVAL, NULL, "requirements is NULL");
	/* for kp_error's message[]: truncates as snprintf, as kp_error does */
	char msg[KP_ERROR_MESSAGE_MAX];
	kp__sbuf b = KP__SBUF(msg, sizeof(msg));
	int conflicts = 0;
	size_t i = 0, j = 0;
	while (i < reqs->count && j < incoming->count) {
		const kp_requirement *e = reqs->items[i], *in = incoming->items[j];
		int c = e->key == in->key ? 0 : strcmp(e->key, in->key);
		if (c < 0) {
			i++;
			continue;
		}
		if (c > 0) {
			j++;
			continue;
		}
		i++, j++;
		if (req_intersects(e, in) ||
		    (is_negative_op(req_operator(in)) && is_negative_op(req_operator(e))))
			continue;
		if (!err)
			return KP_EINCOMPATIBLE;
		conflicts++;
		sb_conflict(&b, e, in);
	}
	if (!conflicts)
		return KP_OK;
	kp__sbuf_end(&b);
	return kp__error(err, KP_EINCOMPATIBLE, NULL, "%s", msg);
}

static int hints(const char *candidate, const char *key, const char *suffix, size_t suffix_len)
{
	size_t n = strlen(candidate);
	return strstr(candidate, key) ||
	       (n >= suffix_len && memcmp(candidate + n - suffix_len, suffix, suffix_len) == 0);
}

static int undefined_label(kp_requirements *reqs, const char *key, uint32_t flags,
			   kp_wellknown *wk, kp_error *err)
{
	if (!err)
		return KP_EINCOMPATIBLE;
	const char *slash = strchr(key, '/');
	const char *suffix = slash ? slash + 1 : key;
	size_t suffix_len = strlen(suffix);
	const char *hint = NULL;
	if (flags & KP_COMPAT_ALLOW_UNDEFINED_WELLKNOWN) {
		size_t n = kp_wellknown_count(wk);
		for (size_t i = 0; !hint && i < n; i++)
			if (hints(kp_wellknown_at(wk, i), key, suffix, suffix_len))
				hint = kp_wellknown_at(wk, i);
	}
	for (size_t i = 0; !hint && i < reqs->count; i++)
		if (hints(reqs->items[i]->key, key, suffix, suffix_len))
			hint = reqs->items[i]->key;

	/* for kp_error's message[]: truncates as snprintf, as kp_error does */
	char msg[KP_ERROR_MESSAGE_MAX];
	kp__sbuf b = KP__SBUF(msg, sizeof(msg));
	kp__sbuf_put(&b, "label ");
	sb_quote(&b, key);
	kp__sbuf_put(&b, " does not have known values");
	if (hint) {
		kp__sbuf_put(&b, " (typo of ");
		sb_quote(&b, hint);
		kp__sbuf_put(&b, "?)");
	}
	kp__sbuf_end(&b);
	return kp__error(err, KP_EINCOMPATIBLE, NULL, "%s", msg);
}

KP_EXPORT int kp_requirements_compatible(kp_requirements *reqs, kp_requirements *incoming,
					 uint32_t flags, kp_wellknown *wk, kp_error *err)
{
	if (!reqs || !incoming)
		return kp__error(err, KP_EINVAL, NULL, "requirements is NULL");
	if (flags & ~(uint32_t)KP_COMPAT_ALLOW_UNDEFINED_WELLKNOWN)
		return kp__error(err, KP_EINVAL, "flags", "unknown flags 0x%x", (unsigned)flags);
	size_t i = 0;
	for (size_t j = 0; j < incoming->count; j++) {
		const kp_requirement *in = incoming->items[j];
		int c = 1;
		while (i < reqs->count && (c = strcmp(reqs->items[i]->key, in->key)) < 0)
			i++;
		if (i < reqs->count && c == 0)
			continue;
		if (is_negative_op(req_operator(in)))
			continue;
		if ((flags & KP_COMPAT_ALLOW_UNDEFINED_WELLKNOWN) && kp_wellknown_has(wk, in->key))
			continue;
		return undefined_label(reqs, in->key, flags, wk, err);
	}
	return kp_requirements_intersects(reqs, incoming, err);
}

KP_EXPORT size_t kp_requirements_string(kp_requirements *reqs, char *buf, size_t size)
{
	kp__sbuf b = KP__SBUF(buf, size);
	size_t shown = 0;
	for (size_t i = 0; reqs && i < reqs->count; i++) {
		if (kp_wellknown_is_restricted_label(reqs->items[i]->key))
			continue;
		if (shown++)
			kp__sbuf_put(&b, ", ");
		sb_requirement(&b, reqs->items[i]);
	}
	return kp__sbuf_end(&b);
}
