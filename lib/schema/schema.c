/*
 * The descriptor engine: decode, encode, free, copy and compare any struct of
 * the object model by walking its kp__type table (see schema.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/duration.h>
#include <karpenter/emitter.h>
#include <karpenter/objects.h>

#include "schema.h"
#include "registry.h"

#define AT(s, off, T) ((T *)(void *)((char *)(s) + (off)))
#define CAT(s, off, T) ((T const *)(const void *)((const char *)(s) + (off)))

/* Free a string the library allocated (stored as const char *). */
static void free_str(const char *s)
{
	kp__free((void *)(uintptr_t)s);
}

/* ------------------------------------------------------------------------ */
/* Field extents and caller struct sizes                                    */

static size_t field_end(const kp__field *f);

/* Whether a (possibly caller-built, older) struct holds field f. */
static int has_field(const kp__type *t, const void *s, const kp__field *f)
{
	if (!t->sized)
		return 1;
	return *CAT(s, 0, uint32_t) >= field_end(f);
}

int kp__schema_has_field(const kp__type *t, const void *s, const kp__field *f)
{
	return has_field(t, s, f);
}

/*
 * A caller's struct may be as small as its type's first released size
 * (common/sized.h); fields beyond its struct_size read as zero (has_field).
 * Entry points that read caller-built objects directly rather than through
 * these tables normalize them with kp_object_copy first.
 */
static int check_size(const kp__type *t, const void *s, const char *path, kp_error *err)
{
	if (!t->sized)
		return KP_OK;
	int rc = kp__check_struct_size(s, t->first_size, t->size, t->go, err);
	if (rc && err && path && *path)
		kp__error_prefix(err, path);
	return rc;
}

/* ------------------------------------------------------------------------ */
/* Enums                                                                    */

static const kp__enum_entry *enum_by_name(const kp__enum *e, const char *name)
{
	for (size_t i = 0; i < e->n; i++)
		if (strcmp(e->entries[i].name, name) == 0)
			return &e->entries[i];
	return NULL;
}

static const char *enum_name(const kp__enum *e, uint32_t code)
{
	for (size_t i = 0; i < e->n; i++)
		if (e->entries[i].code == code && e->entries[i].name[0])
			return e->entries[i].name;
	return NULL;
}

/* ------------------------------------------------------------------------ */
/* Decoding                                                                 */

/*
 * Three paths name where the decoder is: the one messages name (map keys
 * in brackets, "spec.limits[cpu]"), the API server's (kube-openapi joins
 * map keys with a dot, "spec.limits.cpu") and the rule inventory's schema
 * path ("spec.limits.*", "taints[*]"). A decode keeps only the steps (keys
 * point into the tree or the field table, both alive during the decode) and
 * renders a path when a message or a CRD rule lookup asks for it: nearly
 * every field decodes without anyone reading its path.
 */
enum dstep_kind { STEP_KEY, STEP_INDEX, STEP_MAP_KEY };

struct kp__dstep {
	uint32_t kind; /* dstep_kind */
	const char *key;
	size_t index;
};

typedef size_t pmark; /* the number of steps to return to */

static pmark path_push(kp__dctx *c, uint32_t kind, const char *key, size_t index)
{
	pmark m = c->n_steps;
	if (kp__grow((void **)&c->steps, &c->cap_steps, c->n_steps + 1, sizeof(*c->steps)) !=
	    KP_OK) {
		c->steps_failed = 1;
		return m;
	}
	c->steps[c->n_steps].kind = kind;
	c->steps[c->n_steps].key = key;
	c->steps[c->n_steps].index = index;
	c->n_steps++;
	return m;
}

static int path_failed(const kp__dctx *c)
{
	return c->steps_failed;
}

static pmark path_push_key(kp__dctx *c, const char *key)
{
	return path_push(c, STEP_KEY, key, 0);
}

static pmark path_push_index(kp__dctx *c, size_t i)
{
	return path_push(c, STEP_INDEX, NULL, i);
}

static pmark path_push_map_key(kp__dctx *c, const char *key)
{
	return path_push(c, STEP_MAP_KEY, key, 0);
}

static void path_pop(kp__dctx *c, pmark m)
{
	if (m < c->n_steps)
		c->n_steps = m;
}

enum path_style { PATH_MESSAGE, PATH_API, PATH_SCHEMA };

static const char *path_render(kp__buf *b, const kp__dctx *c, enum path_style style)
{
	b->len = 0;
	for (size_t i = 0; i < c->n_steps; i++) {
		const struct kp__dstep *st = &c->steps[i];
		int first = b->len == 0;
		switch (st->kind) {
		case STEP_KEY:
			if (!first)
				kp__buf_putc(b, '.');
			kp__buf_puts(b, st->key);
			break;
		case STEP_INDEX:
			if (style == PATH_SCHEMA)
				kp__buf_puts(b, "[*]");
			else
				kp__buf_printf(b, "[%zu]", st->index);
			break;
		default: /* STEP_MAP_KEY */
			if (style == PATH_MESSAGE) {
				kp__buf_putc(b, '[');
				kp__buf_puts(b, st->key);
				kp__buf_putc(b, ']');
			} else if (style == PATH_API) {
				if (!first)
					kp__buf_putc(b, '.');
				kp__buf_puts(b, st->key);
			} else {
				kp__buf_puts(b, first ? "*" : ".*");
			}
			break;
		}
	}
	kp__buf_put(b, "", 0); /* a NUL even for the empty path */
	return b->data && !b->failed ? b->data : "";
}

static const char *path_str(kp__dctx *c)
{
	return path_render(&c->path, c, PATH_MESSAGE);
}

static const char *kpath_str(kp__dctx *c)
{
	return path_render(&c->kpath, c, PATH_API);
}

static const char *spath_str(kp__dctx *c)
{
	return path_render(&c->spath, c, PATH_SCHEMA);
}

static int derr(kp__dctx *c, int code, const char *fmt, ...) KP_PRINTF(3, 4);

static int derr(kp__dctx *c, int code, const char *fmt, ...)
{
	if (path_failed(c))
		return kp__error(c->err, KP_ENOMEM, NULL, "out of memory");
	/* a human message for kp_error::message, which has this size: cut there anyway */
	char detail[KP_ERROR_MESSAGE_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	const char *path = path_str(c);
	if (*path)
		return kp__error(c->err, code, path, "%s: %s: %s", c->ident, path, detail);
	return kp__error(c->err, code, NULL, "%s: %s", c->ident, detail);
}

static int oom(kp__dctx *c)
{
	return kp__error(c->err, KP_ENOMEM, NULL, "out of memory");
}

/* Karpenter kinds are CRDs: the API server checks them against their OpenAPI
 * schema, and its messages are the ones to give. */
static int crd_kind(const kp__dctx *c)
{
	return c->info && c->info->karpenter;
}

/*
 * Whether a JSON number is an integer as the API server sees it, and its
 * value. Decoding JSON, the API server keeps a number as int64 when it has
 * no fraction or exponent and fits, else as float64; kube-openapi then
 * accepts a float64 where an integer is wanted when it is integral and
 * within +-2^53 (swag.IsFloat64AJSONInteger). "2.0", "1e3" are integers.
 */
static int json_integer(const char *s, int64_t *out)
{
	const char *p = s;
	int neg = *p == '-';
	if (*p == '-' || *p == '+')
		p++;
	const char *ip = p;
	while (*p >= '0' && *p <= '9')
		p++;
	size_t ni = (size_t)(p - ip), nf = 0;
	const char *fp = p;
	int plain = 1;
	if (*p == '.') {
		plain = 0;
		fp = ++p;
		while (*p >= '0' && *p <= '9')
			p++;
		nf = (size_t)(p - fp);
	}
	if (ni + nf == 0)
		return 0;
	long exp = 0;
	if (*p == 'e' || *p == 'E') {
		plain = 0;
		p++;
		int eneg = *p == '-';
		if (*p == '-' || *p == '+')
			p++;
		if (*p < '0' || *p > '9')
			return 0;
		for (; *p >= '0' && *p <= '9'; p++)
			if (exp < 100000)
				exp = exp * 10 + (*p - '0');
		if (eneg)
			exp = -exp;
	}
	if (*p)
		return 0;
	/* digit k of the number's digits, the decimal point after `point` of them */
	size_t nd = ni + nf;
#define DIGIT(k) ((k) < ni ? ip[k] - '0' : (k) < nd ? fp[(k) - ni] - '0' : 0)
	long point = (long)ni + exp;
	for (size_t k = point > 0 ? (size_t)point : 0; k < nd; k++)
		if (DIGIT(k))
			return 0; /* a fraction */
	uint64_t limit = plain ? (neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX)
			       : (uint64_t)1 << 53;
	uint64_t v = 0;
	for (long k = 0; k < point; k++) {
		unsigned d = (unsigned)DIGIT((size_t)k);
		if (v > (limit - d) / 10)
			return 0; /* int64 overflow: a float64; beyond 2^53: not integral */
		v = v * 10 + d;
	}
#undef DIGIT
	if (neg)
		*out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	else
		*out = (int64_t)v;
	return 1;
}

/* The JSON type name kube-openapi gives a value: a number is "integer" when
 * the API server decodes it as int64. */
static const char *json_type(const kp__node *n)
{
	int64_t v;
	if (n->type == KP__N_NUMBER) {
		const char *p = n->text + (n->text[0] == '-');
		if (!*p)
			return "number";
		for (; *p; p++)
			if (*p < '0' || *p > '9')
				return "number";
		return json_integer(n->text, &v) ? "integer" : "number";
	}
	return kp__node_type_name(n->type);
}

/* kube-openapi's InvalidType as the API server reports it (field.TypeInvalid):
 * Invalid value: "<got>": <path> in body must be of type <want>: "<got>" */
static int crd_type_err(kp__dctx *c, const char *want, const char *got)
{
	return derr(c, KP_EINVAL, "Invalid value: \"%s\": %s in body must be of type %s: \"%s\"", got,
		    kpath_str(c), want, got);
}

/*
 * A value of the wrong JSON type. want is the OpenAPI type the CRD declares
 * (string, integer, boolean, object, array, or "integer,string" for
 * x-kubernetes-int-or-string); legacy is how other kinds word it.
 */
static int type_err2(kp__dctx *c, const char *want, const char *legacy, const kp__node *n)
{
	if (crd_kind(c))
		return crd_type_err(c, want, json_type(n));
	return derr(c, KP_EINVAL, "expected %s, got %s", legacy, kp__node_type_name(n->type));
}

static int type_err(kp__dctx *c, const char *want, const kp__node *n)
{
	return type_err2(c, want, want, n);
}

static int warn(kp__dctx *c, const char *what, const char *path)
{
	if (!c->warn)
		return KP_OK;
	/* The path holds input (field names of any length): built, not cut. */
	kp__buf msg = { 0 };
	kp__buf_printf(&msg, "%s: %s \"", c->ident, what);
	kp__buf_puts(&msg, path);
	kp__buf_putc(&msg, '"');
	int rc = msg.failed || c->warn(c->warn_ctx, msg.data) != KP_OK ? oom(c) : KP_OK;
	kp__buf_dispose(&msg);
	return rc;
}

static int unknown_field(kp__dctx *c, const char *key)
{
	pmark old = path_push_key(c, key);
	int rc = KP_OK;
	if (path_failed(c)) {
		rc = oom(c);
	} else if (c->unknown_mode == KP__UNKNOWN_ERROR) {
		if (c->n_unknown == 0)
			snprintf(c->first_unknown, sizeof(c->first_unknown), "%s", path_str(c));
		/* The message holds KP_ERROR_MESSAGE_MAX bytes: collect no more. */
		if (c->unknown.len < KP_ERROR_MESSAGE_MAX) {
			if (c->n_unknown)
				kp__buf_puts(&c->unknown, ", ");
			kp__buf_printf(&c->unknown, "unknown field \"%.*s\"", KP_ERROR_MESSAGE_MAX,
				       path_str(c));
		}
		c->n_unknown++;
		if (c->unknown.failed)
			rc = oom(c);
	} else if (c->unknown_mode == KP__UNKNOWN_WARN) {
		rc = warn(c, "unknown field", path_str(c));
	}
	path_pop(c, old);
	return rc;
}

static int dup_cb(void *ctx, const char *key)
{
	kp__dctx *c = ctx;
	pmark old = c->dup_map ? path_push_map_key(c, key) : path_push_key(c, key);
	int rc = path_failed(c) ? oom(c) : warn(c, "duplicate field", path_str(c));
	path_pop(c, old);
	return rc;
}

/* Duplicate keys of an object: an error (strict) or the last wins (lenient). */
static int check_duplicates(kp__dctx *c, kp__node *obj, int map)
{
	if (obj->n < 2)
		return KP_OK;
	if (!c->lenient) {
		size_t i = kp__node_find_duplicate(obj);
		if (i == (size_t)-1)
			return KP_OK;
		pmark old = map ? path_push_map_key(c, obj->keys[i]) : path_push_key(c, obj->keys[i]);
		int rc = path_failed(c) ? oom(c)
					: kp__error(c->err, KP_EINVAL, path_str(c),
						    "%s: duplicate field \"%s\"", c->ident, path_str(c));
		path_pop(c, old);
		return rc;
	}
	c->dup_map = map;
	int rc = kp__node_dedupe(obj, dup_cb, c);
	if (rc == KP_ENOMEM)
		return oom(c);
	return rc;
}

static int parse_int(kp__dctx *c, const kp__node *n, int64_t min, int64_t max, int64_t *out)
{
	if (n->type != KP__N_NUMBER)
		return type_err(c, "integer", n);
	if (crd_kind(c)) {
		int64_t r;
		if (!json_integer(n->text, &r))
			return crd_type_err(c, "integer", "number");
		if (r < min || r > max)
			return derr(c, KP_ERANGE, "number %s is out of range (%lld to %lld)", n->text,
				    (long long)min, (long long)max);
		*out = r;
		return KP_OK;
	}
	const char *p = n->text;
	int neg = *p == '-';
	if (neg)
		p++;
	if (!*p)
		return derr(c, KP_EINVAL, "expected integer, got number %s", n->text);
	uint64_t v = 0;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return derr(c, KP_EINVAL, "expected integer, got number %s", n->text);
		if (v > (UINT64_MAX - 9) / 10) {
			v = UINT64_MAX;
			break;
		}
		v = v * 10 + (uint64_t)(*p - '0');
	}
	int64_t r;
	if (neg) {
		if (v > (uint64_t)INT64_MAX + 1)
			return derr(c, KP_ERANGE, "number %s is out of range", n->text);
		r = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	} else {
		if (v > (uint64_t)INT64_MAX)
			return derr(c, KP_ERANGE, "number %s is out of range", n->text);
		r = (int64_t)v;
	}
	if (r < min || r > max)
		return derr(c, KP_ERANGE, "number %s is out of range (%lld to %lld)", n->text,
			    (long long)min, (long long)max);
	*out = r;
	return KP_OK;
}

static int decode_string(kp__dctx *c, const kp__node *n, const char **out)
{
	if (n->type != KP__N_STRING)
		return type_err(c, "string", n);
	char *s = kp__strndup(n->text, n->len);
	if (!s)
		return oom(c);
	free_str(*out);
	*out = s;
	return KP_OK;
}

static int decode_struct(const kp__type *t, void *dst, kp__node *n, kp__dctx *c);
static void free_fields(const kp__type *t, void *s);

static int unsupported(kp__dctx *c, const kp__enum *e, const char *value)
{
	char list[200];
	size_t len = 0;
	list[0] = '\0';
	for (size_t i = 0; i < e->n; i++) {
		if (!e->entries[i].name[0])
			continue;
		int w = snprintf(list + len, sizeof(list) - len, "%s\"%s\"", len ? ", " : "",
				 e->entries[i].name);
		if (w < 0 || (size_t)w >= sizeof(list) - len)
			break;
		len += (size_t)w;
	}
	return derr(c, KP_EINVAL, "Unsupported value: \"%s\": supported values: %s", value, list);
}

static int decode_strings(kp__dctx *c, const kp__field *f, void *dst, const kp__node *n)
{
	if (n->type != KP__N_ARRAY)
		return type_err(c, "array", n);
	const char **items = kp__calloc(n->n ? n->n : 1, sizeof(*items));
	if (!items)
		return oom(c);
	for (size_t i = 0; i < n->n; i++) {
		const kp__node *e = n->items[i];
		const char *s = NULL;
		int rc = KP_OK;
		if (e->type == KP__N_NULL) {
			s = kp__strdup("");
			if (!s)
				rc = oom(c);
		} else {
			pmark old = path_push_index(c, i);
			rc = decode_string(c, e, &s);
			path_pop(c, old);
		}
		if (rc) {
			for (size_t j = 0; j < i; j++)
				free_str(items[j]);
			kp__free(items);
			return rc;
		}
		items[i] = s;
	}
	*AT(dst, f->off, const char **) = items;
	*AT(dst, f->aux, size_t) = n->n;
	return KP_OK;
}

static int label_cmp(const void *a, const void *b)
{
	return strcmp(((const kp_label *)a)->key, ((const kp_label *)b)->key);
}

static int resource_cmp(const void *a, const void *b)
{
	return strcmp(((const kp_resource *)a)->name, ((const kp_resource *)b)->name);
}

static void labels_dispose(kp_labels *l)
{
	if (l->items)
		for (size_t i = 0; i < l->count; i++) {
			free_str(l->items[i].key);
			free_str(l->items[i].value);
		}
	kp__free(l->items);
	l->items = NULL;
	l->count = 0;
}

static void resources_dispose(kp_resource_list *l)
{
	if (l->items)
		for (size_t i = 0; i < l->count; i++)
			free_str(l->items[i].name);
	kp__free(l->items);
	l->items = NULL;
	l->count = 0;
}

static int decode_map(kp__dctx *c, kp_labels *out, kp__node *n)
{
	if (n->type != KP__N_OBJECT)
		return type_err(c, "object", n);
	int rc = check_duplicates(c, n, 1);
	if (rc)
		return rc;
	kp_labels l = { kp__calloc(n->n ? n->n : 1, sizeof(kp_label)), 0 };
	if (!l.items)
		return oom(c);
	for (size_t i = 0; i < n->n; i++) {
		const kp__node *v = n->items[i];
		const char *value = NULL;
		pmark old = path_push_map_key(c, n->keys[i]);
		if (v->type == KP__N_NULL) {
			value = kp__strdup("");
			rc = value ? KP_OK : oom(c);
		} else {
			rc = decode_string(c, v, &value);
		}
		path_pop(c, old);
		const char *key = rc ? NULL : kp__strdup(n->keys[i]);
		if (!rc && !key) {
			free_str(value);
			rc = oom(c);
		}
		if (rc) {
			labels_dispose(&l);
			return rc;
		}
		l.items[l.count].key = key;
		l.items[l.count].value = value;
		l.count++;
	}
	qsort(l.items, l.count, sizeof(kp_label), label_cmp);
	*out = l;
	return KP_OK;
}

/*
 * Go's ParseQuantity reads "-", "+", "." and a bare suffix such as "Ki" as
 * zero, but the quantity pattern of the Karpenter CRDs needs a digit in the
 * number: the API server refuses them for those kinds.
 */
static int has_mantissa_digit(const char *s)
{
	if (*s == '+' || *s == '-')
		s++;
	for (; (*s >= '0' && *s <= '9') || *s == '.'; s++)
		if (*s != '.')
			return 1;
	return 0;
}

/* Go's %q of a value for a message (truncated to the message's size). */
static const char *msg_quote(char *buf, size_t size, const char *s)
{
	kp__go_quote(buf, size, s);
	return buf;
}

/* resource.ParseQuantity; q NULL: refuse (a quantity without a digit, which
 * Go reads as zero but no CRD pattern accepts). */
static int parse_quantity(kp__dctx *c, const char *text, kp_quantity *q)
{
	int rc = q ? kp_quantity_parse(q, text, NULL) : KP_EPARSE;
	if (rc == KP_ERANGE)
		return derr(c, KP_ERANGE, "quantity \"%s\" is out of range", text);
	if (rc)
		return derr(c, KP_EPARSE,
			    "quantities must match the regular expression "
			    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
	return KP_OK;
}

/*
 * A quantity of a Karpenter kind, as the API server checks it against the
 * CRD (x-kubernetes-int-or-string, so type integer or string, and a pattern
 * on strings) before the controller parses it. The pattern is the CRD's, from
 * the rule inventory (tests compare it with the CRD files).
 */
static int decode_crd_quantity(kp__dctx *c, const kp__node *v, kp_quantity *q)
{
	if (v->type == KP__N_NUMBER) {
		int64_t iv;
		if (!json_integer(v->text, &iv))
			return crd_type_err(c, "integer,string", "number");
		/* The API server stores an integral float ("2.0", "1e3") as the
		 * integer it is, which the controller then reads. */
		if (kp_quantity_from_scaled(q, iv, 0, KP_QUANTITY_DECIMAL_SI) != KP_OK)
			return derr(c, KP_EINVAL, "quantity %s cannot be represented", v->text);
		return KP_OK;
	}
	if (v->type != KP__N_STRING)
		return crd_type_err(c, "integer,string", json_type(v));
	const char *pattern = c->crd && c->info ? c->crd->find(c->info, spath_str(c), "pattern") : NULL;
	int m = pattern ? c->crd->match(pattern, v->text, v->len) : has_mantissa_digit(v->text);
	if (m == KP_ENOMEM)
		return oom(c);
	if (m < 0)
		return derr(c, KP_EINVAL, "cannot read the CRD pattern of this field");
	if (m == 0 && pattern) {
		char qv[KP_ERROR_MESSAGE_MAX];
		return derr(c, KP_EPARSE, "Invalid value: %s: %s in body should match '%s'",
			    msg_quote(qv, sizeof(qv), v->text), kpath_str(c), pattern);
	}
	return parse_quantity(c, v->text, m ? q : NULL);
}

static int decode_quantity(kp__dctx *c, const kp__node *v, kp_quantity *q)
{
	if (crd_kind(c))
		return decode_crd_quantity(c, v, q);
	if (v->type != KP__N_STRING && v->type != KP__N_NUMBER)
		return type_err(c, "quantity (string or number)", v);
	return parse_quantity(c, v->text, q);
}

static int decode_resources(kp__dctx *c, kp_resource_list *out, kp__node *n)
{
	if (n->type != KP__N_OBJECT)
		return type_err(c, "object", n);
	int rc = check_duplicates(c, n, 1);
	if (rc)
		return rc;
	kp_resource_list l = { kp__calloc(n->n ? n->n : 1, sizeof(kp_resource)), 0 };
	if (!l.items)
		return oom(c);
	for (size_t i = 0; i < n->n; i++) {
		const kp__node *v = n->items[i];
		pmark old = path_push_map_key(c, n->keys[i]);
		kp_quantity q = KP_QUANTITY_ZERO;
		rc = decode_quantity(c, v, &q);
		path_pop(c, old);
		const char *name = rc ? NULL : kp__strdup(n->keys[i]);
		if (!rc && !name)
			rc = oom(c);
		if (rc) {
			resources_dispose(&l);
			return rc;
		}
		l.items[l.count].name = name;
		l.items[l.count].quantity = q;
		l.count++;
	}
	qsort(l.items, l.count, sizeof(kp_resource), resource_cmp);
	*out = l;
	return KP_OK;
}

static void *alloc_struct(const kp__type *t)
{
	void *s = kp__calloc(1, t->size);
	if (s && t->sized)
		*AT(s, 0, uint32_t) = (uint32_t)t->size;
	return s;
}

static int decode_new_struct(kp__dctx *c, const kp__type *t, kp__node *n, void **out)
{
	void *s = alloc_struct(t);
	if (!s)
		return oom(c);
	if (n->type != KP__N_NULL) {
		if (n->type != KP__N_OBJECT) {
			kp__free(s);
			return type_err(c, "object", n);
		}
		int rc = decode_struct(t, s, n, c);
		if (rc) {
			kp__schema_free(t, s);
			return rc;
		}
	}
	*out = s;
	return KP_OK;
}

static int decode_list(kp__dctx *c, const kp__field *f, void *dst, kp__node *n)
{
	if (n->type != KP__N_ARRAY)
		return type_err(c, "array", n);
	void **items = kp__calloc(n->n ? n->n : 1, sizeof(void *));
	if (!items)
		return oom(c);
	for (size_t i = 0; i < n->n; i++) {
		pmark old = path_push_index(c, i);
		int rc = decode_new_struct(c, f->elem, n->items[i], &items[i]);
		path_pop(c, old);
		if (rc) {
			for (size_t j = 0; j < i; j++)
				kp__schema_free(f->elem, items[j]);
			kp__free(items);
			return rc;
		}
	}
	*AT(dst, f->off, void **) = items;
	*AT(dst, f->aux, size_t) = n->n;
	return KP_OK;
}

static int decode_values(kp__dctx *c, const kp__field *f, void *dst, kp__node *n)
{
	if (n->type != KP__N_ARRAY)
		return type_err(c, "array", n);
	const kp__type *t = f->elem;
	char *items = kp__calloc(n->n ? n->n : 1, t->size);
	if (!items)
		return oom(c);
	for (size_t i = 0; i < n->n; i++) {
		kp__node *e = n->items[i];
		pmark old = path_push_index(c, i);
		int rc = KP_OK;
		if (e->type == KP__N_OBJECT)
			rc = decode_struct(t, items + i * t->size, e, c);
		else if (e->type != KP__N_NULL)
			rc = type_err(c, "object", e);
		path_pop(c, old);
		if (rc) {
			for (size_t j = 0; j <= i; j++)
				free_fields(t, items + j * t->size);
			kp__free(items);
			return rc;
		}
	}
	*AT(dst, f->off, void *) = items;
	*AT(dst, f->aux, size_t) = n->n;
	return KP_OK;
}

static int decode_duration(kp__dctx *c, const kp__field *f, void *dst, const kp__node *n)
{
	kp_api_duration *d = AT(dst, f->off, kp_api_duration);
	const char *text = NULL;
	int rc = decode_string(c, n, &text);
	if (rc)
		return rc;
	free_str(d->text);
	memset(d, 0, sizeof(*d));
	d->text = text;
	int64_t ns = 0;
	int32_t never = 0;
	if (f->kind == KP__FK_NILLABLE_DURATION)
		rc = kp_duration_parse_nillable_ns(&ns, &never, text, NULL);
	else
		rc = kp_duration_parse_ns(&ns, text, NULL);
	if (rc == KP_OK) {
		d->ns = ns;
		d->never = never;
		d->parsed = 1;
	}
	/* Text that is not a duration is kept for validation to report. */
	return KP_OK;
}

/*
 * metav1.Time. For a Karpenter kind the CRD says {type: string, format:
 * date-time}, and the API server's messages are kube-openapi's: a value that
 * is not a date-time string fails the format ("must be of type date-time"),
 * and a non-string scalar fails the type validator's format check first,
 * which names the Go format of the decoded value: "int64" or "float64" for
 * a number, "" for a boolean or an object. (An array passes that validator
 * upstream and then fails in the controller; it is reported as not a string.)
 */
static int decode_time(kp__dctx *c, const kp__node *n, int64_t *out)
{
	const char *format = "date-time";
	if (crd_kind(c) && c->crd) { /* crd_kind: c->info is set */
		const char *f = c->crd->find(c->info, spath_str(c), "format");
		if (f)
			format = f;
	}
	if (n->type != KP__N_STRING) {
		if (!crd_kind(c))
			return type_err(c, "string (RFC 3339 time)", n);
		if (n->type == KP__N_ARRAY)
			return crd_type_err(c, "string", "array");
		const char *got = "";
		if (n->type == KP__N_NUMBER)
			got = strcmp(json_type(n), "integer") == 0 ? "int64" : "float64";
		return crd_type_err(c, format, got);
	}
	if (kp__time_parse_rfc3339(n->text, out) == KP_OK)
		return KP_OK;
	if (!crd_kind(c))
		return derr(c, KP_EPARSE,
			    "invalid time \"%.64s\": expected RFC 3339, e.g. \"2024-01-01T00:00:00Z\"",
			    n->text);
	/* FormatOf: Invalid value: "<v>": <path> in body must be of type date-time: "<v>" */
	char qv[KP_ERROR_MESSAGE_MAX / 2];
	msg_quote(qv, sizeof(qv), n->text);
	return derr(c, KP_EPARSE, "Invalid value: %s: %s in body must be of type %s: %s", qv,
		    kpath_str(c), format, qv);
}

static int decode_field(kp__dctx *c, const kp__type *t, const kp__field *f, void *dst, kp__node *n);

static int fk_string_decode(kp__dctx *c, const kp__type *t, const kp__field *f, void *dst,
		kp__node *n)
{
	(void)t;
	return decode_string(c, n, AT(dst, f->off, const char *));
}

static int fk_enum_decode(kp__dctx *c, const kp__type *t, const kp__field *f, void *dst,
		kp__node *n)
{
	(void)t;
	int rc = KP_OK;
	rc = decode_string(c, n, AT(dst, f->off, const char *));
	if (rc)
		return rc;
	const kp__enum_entry *e = enum_by_name(f->en, n->text);
	*AT(dst, f->aux, uint32_t) = e ? e->code : 0;
	return KP_OK;
}

static int fk_code_decode(kp__dctx *c, const kp__type *t, const kp__field *f, void *dst,
		kp__node *n)
{
	(void)t;
	if (n->type != KP__N_STRING)
		return type_err(c, "string", n);
	const kp__enum_entry *e = enum_by_name(f->en, n->text);
	if (!e)
		return unsupported(c, f->en, n->text);
	*AT(dst, f->off, uint32_t) = e->code;
	return KP_OK;
}

static int fk_bool_decode(kp__dctx *c, const kp__type *t, const kp__field *f, void *dst,
		kp__node *n)
{
	(void)t;
	if (n->type != KP__N_BOOL)
		return type_err(c, "boolean", n);
	*AT(dst, f->off, uint32_t) = n->boolean ? 1 : 0;
	if (f->kind == KP__FK_OPT_BOOL)
		*AT(dst, f->aux, uint32_t) = 1;
	return KP_OK;
}

static int fk_int32_decode(kp__dctx *c, const kp__type *t, const kp__field *f, void *dst,
		kp__node *n)
{
	(void)t;
	int rc = KP_OK;
	int64_t v;
	rc = parse_int(c, n, INT32_MIN, INT32_MAX, &v);
	if (rc)
		return rc;
	*AT(dst, f->off, int32_t) = (int32_t)v;
	if (f->kind == KP__FK_OPT_INT32)
		*AT(dst, f->aux, uint32_t) = 1;
	return KP_OK;
}

static int fk_int64_decode(kp__dctx *c, const kp__type *t, const kp__field *f, void *dst,
		kp__node *n)
{
	(void)t;
	int rc = KP_OK;
	int64_t v;
	rc = parse_int(c, n, INT64_MIN, INT64_MAX, &v);
	if (rc)
		return rc;
	*AT(dst, f->off, int64_t) = v;
	if (f->kind == KP__FK_OPT_INT64)
		*AT(dst, f->aux, uint32_t) = 1;
	return KP_OK;
}

static int fk_time_decode(kp__dctx *c, const kp__type *t, const kp__field *f, void *dst,
		kp__node *n)
{
	(void)t;
	return decode_time(c, n, AT(dst, f->off, int64_t));
}

static int fk_duration_decode(kp__dctx *c, const kp__type *t, const kp__field *f, void *dst,
		kp__node *n)
{
	(void)t;
	return decode_duration(c, f, dst, n);
}

static int fk_int_or_string_decode(kp__dctx *c, const kp__type *t, const kp__field *f, void *dst,
		kp__node *n)
{
	(void)t;
	int rc = KP_OK;
	int64_t v;
	kp_int_or_string *is = AT(dst, f->off, kp_int_or_string);
	if (n->type == KP__N_NUMBER) {
		rc = parse_int(c, n, INT32_MIN, INT32_MAX, &v);
		if (rc)
			return rc;
		free_str(is->str_value);
		is->str_value = NULL;
		is->type = KP_INT_OR_STRING_INT;
		is->int_value = (int32_t)v;
		return KP_OK;
	}
	if (n->type != KP__N_STRING)
		return type_err2(c, "integer,string", "integer or string", n);
	rc = decode_string(c, n, &is->str_value);
	if (rc)
		return rc;
	is->type = KP_INT_OR_STRING_STRING;
	is->int_value = 0;
	return KP_OK;
}

static int fk_strings_decode(kp__dctx *c, const kp__type *t, const kp__field *f, void *dst,
		kp__node *n)
{
	(void)t;
	return decode_strings(c, f, dst, n);
}

static int fk_map_decode(kp__dctx *c, const kp__type *t, const kp__field *f, void *dst, kp__node *n)
{
	(void)t;
	return decode_map(c, AT(dst, f->off, kp_labels), n);
}

static int fk_resources_decode(kp__dctx *c, const kp__type *t, const kp__field *f, void *dst,
		kp__node *n)
{
	(void)t;
	return decode_resources(c, AT(dst, f->off, kp_resource_list), n);
}

static int fk_struct_decode(kp__dctx *c, const kp__type *t, const kp__field *f, void *dst,
		kp__node *n)
{
	int rc = KP_OK;
	void *s = NULL;
	if (n->type != KP__N_OBJECT)
		return type_err(c, "object", n);
	rc = decode_new_struct(c, f->elem, n, &s);
	if (rc)
		return rc;
	*AT(dst, f->off, void *) = s;
	if (f->tag && t->tag_off)
		*AT(dst, t->tag_off, uint32_t) = f->tag;
	return KP_OK;
}

static int fk_list_decode(kp__dctx *c, const kp__type *t, const kp__field *f, void *dst,
		kp__node *n)
{
	(void)t;
	return decode_list(c, f, dst, n);
}

static int fk_values_decode(kp__dctx *c, const kp__type *t, const kp__field *f, void *dst,
		kp__node *n)
{
	(void)t;
	return decode_values(c, f, dst, n);
}

static int json_sorted(kp__buf *b, const kp__node *n);

/* The type's member keeping an OTHER source (KP__FF_OTHER_SOURCE), or NULL. */
static const kp__field *other_source_field(const kp__type *t)
{
	for (size_t i = 0; i < t->n_fields; i++)
		if (t->fields[i].flags & KP__FF_OTHER_SOURCE)
			return &t->fields[i];
	return NULL;
}

static int fk_tag_decode(kp__dctx *c, const kp__type *t, const kp__field *f, void *dst, kp__node *n)
{
	if (t->tag_off)
		*AT(dst, t->tag_off, uint32_t) = f->tag;
	const kp__field *o = f->tag == KP_VOLUME_SOURCE_OTHER ? other_source_field(t) : NULL;
	if (!o)
		return KP_OK;
	/* {"<key>":<the value as Go's json.Marshal writes it>} */
	kp__buf b = { 0 };
	kp__buf_putc(&b, '{');
	kp__json_write_string(&b, f->json, strlen(f->json));
	kp__buf_putc(&b, ':');
	if (json_sorted(&b, n) != KP_OK) {
		kp__buf_dispose(&b);
		return oom(c);
	}
	kp__buf_putc(&b, '}');
	char *text = kp__buf_take(&b, NULL);
	if (!text)
		return oom(c);
	const char **slot = AT(dst, o->off, const char *);
	free_str(*slot);
	*slot = text;
	return KP_OK;
}

static int fk_kind_decode(kp__dctx *c, const kp__type *t, const kp__field *f, void *dst,
		kp__node *n)
{
	(void)t;
	(void)n;
	*AT(dst, f->off, uint32_t) = c->kind;
	return KP_OK;
}

static int fk_none_decode(kp__dctx *c, const kp__type *t, const kp__field *f, void *dst,
		kp__node *n)
{
	(void)c;
	(void)t;
	(void)f;
	(void)dst;
	(void)n;
	return KP_OK;
}

static const kp__field *find_field(const kp__type *t, const char *json)
{
	/* the first byte rules out nearly every field without a call */
	for (size_t i = 0; i < t->n_fields; i++)
		if (t->fields[i].json[0] == json[0] && !(t->fields[i].flags & KP__FF_OTHER_SOURCE) &&
		    strcmp(t->fields[i].json, json) == 0)
			return &t->fields[i];
	return NULL;
}

const kp__type *kp__schema_member(const kp__type *t, const char *json, int *known)
{
	const kp__field *f = find_field(t, json);
	*known = f != NULL;
	if (!f)
		return NULL;
	switch (f->kind) {
	case KP__FK_STRUCT:
	case KP__FK_LIST:
	case KP__FK_VALUES:
		return f->elem;
	default:
		return NULL;
	}
}

static int decode_struct(const kp__type *t, void *dst, kp__node *n, kp__dctx *c)
{
	int rc = check_duplicates(c, n, 0);
	if (rc)
		return rc;
	for (size_t i = 0; i < n->n; i++) {
		const kp__field *f = find_field(t, n->keys[i]);
		if (!f) {
			rc = unknown_field(c, n->keys[i]);
			if (rc)
				return rc;
			continue;
		}
		kp__node *v = n->items[i];
		if (v->type == KP__N_NULL)
			continue; /* JSON null: absent */
		pmark old = path_push_key(c, f->json);
		rc = path_failed(c) ? oom(c) : decode_field(c, t, f, dst, v);
		path_pop(c, old);
		if (rc)
			return rc;
	}
	/* several sources given (the API server refuses that): the last one's
	 * tag wins; an OTHER source kept before it is dropped, so that the
	 * object encodes and reads back as itself */
	const kp__field *o = t->tag_off ? other_source_field(t) : NULL;
	if (o && *AT(dst, t->tag_off, uint32_t) != KP_VOLUME_SOURCE_OTHER) {
		const char **slot = AT(dst, o->off, const char *);
		free_str(*slot);
		*slot = NULL;
	}
	return KP_OK;
}

int kp__schema_decode(const kp__type *t, kp__node *node, void **out, kp__dctx *ctx)
{
	void *s = NULL;
	if (node->type != KP__N_OBJECT)
		return type_err(ctx, "object", node);
	int rc = decode_new_struct(ctx, t, node, &s);
	if (rc)
		return rc;
	if (ctx->n_unknown) {
		kp__schema_free(t, s);
		const char *list = ctx->unknown.data ? ctx->unknown.data : "";
		return kp__error(ctx->err, KP_EINVAL, ctx->first_unknown,
				 "%s: strict decoding error: %s", ctx->ident, list);
	}
	*out = s;
	return KP_OK;
}

void kp__dctx_dispose(kp__dctx *ctx)
{
	kp__free(ctx->steps);
	ctx->steps = NULL;
	ctx->n_steps = ctx->cap_steps = 0;
	kp__buf_dispose(&ctx->path);
	kp__buf_dispose(&ctx->kpath);
	kp__buf_dispose(&ctx->spath);
	kp__buf_dispose(&ctx->unknown);
}

/* ------------------------------------------------------------------------ */
/* Free                                                                     */

static void free_field(const kp__field *f, void *s);

static void fk_string_free(const kp__field *f, void *s)
{
	free_str(*AT(s, f->off, const char *));
}

static void fk_duration_free(const kp__field *f, void *s)
{
	free_str(AT(s, f->off, kp_api_duration)->text);
}

static void fk_int_or_string_free(const kp__field *f, void *s)
{
	free_str(AT(s, f->off, kp_int_or_string)->str_value);
}

static void fk_strings_free(const kp__field *f, void *s)
{
	const char **items = *AT(s, f->off, const char **);
	size_t n = *AT(s, f->aux, size_t);
	if (items)
		for (size_t i = 0; i < n; i++)
			free_str(items[i]);
	kp__free(items);
}

static void fk_map_free(const kp__field *f, void *s)
{
	labels_dispose(AT(s, f->off, kp_labels));
}

static void fk_resources_free(const kp__field *f, void *s)
{
	resources_dispose(AT(s, f->off, kp_resource_list));
}

static void fk_struct_free(const kp__field *f, void *s)
{
	kp__schema_free(f->elem, *AT(s, f->off, void *));
}

static void fk_list_free(const kp__field *f, void *s)
{
	void **items = *AT(s, f->off, void **);
	size_t n = *AT(s, f->aux, size_t);
	if (items)
		for (size_t i = 0; i < n; i++)
			kp__schema_free(f->elem, items[i]);
	kp__free(items);
}

static void fk_values_free(const kp__field *f, void *s)
{
	char *items = *AT(s, f->off, char *);
	size_t n = *AT(s, f->aux, size_t);
	if (items)
		for (size_t i = 0; i < n; i++)
			free_fields(f->elem, items + i * f->elem->size);
	kp__free(items);
}

static void fk_none_free(const kp__field *f, void *s)
{
	(void)f;
	(void)s;


}

static void free_fields(const kp__type *t, void *s)
{
	for (size_t i = 0; i < t->n_fields; i++)
		free_field(&t->fields[i], s);
}

void kp__schema_free(const kp__type *t, void *s)
{
	if (!s)
		return;
	free_fields(t, s);
	kp__free(s);
}

/* ------------------------------------------------------------------------ */
/* Copy                                                                     */

static int copy_fields(const kp__type *t, void *dst, const void *src, kp__buf *path, kp_error *err);

static int copy_err(kp__buf *path, kp_error *err, int code, const char *what)
{
	if (code == KP_ENOMEM)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	const char *p = path->data ? path->data : "";
	return kp__error(err, code, p, "%s%s%s", p, *p ? ": " : "", what);
}

static int dup_str(const char *s, const char **out)
{
	*out = NULL;
	if (!s)
		return KP_OK;
	*out = kp__strdup(s);
	return *out ? KP_OK : KP_ENOMEM;
}

/* KP_EINVAL: an enum-like field's text and code name different values
 * (@p want: the code's name, or NULL and then @p otherwise). */
static int enum_mismatch(kp__buf *path, kp_error *err, const char *text, const char *want,
			 const char *otherwise)
{
	kp__buf m = { 0 };
	kp__buf_printf(&m, "the text \"%s\" and the code (%s) name different values", text,
		       want ? want : otherwise);
	int rc = copy_err(path, err, m.data ? KP_EINVAL : KP_ENOMEM, m.data ? m.data : "out of memory");
	kp__buf_dispose(&m);
	return rc;
}

/*
 * An enum-like field keeps its text (what the API server stores) and a code
 * the algorithms read (phase / phase_code, operator / op, ...). A copy is
 * where caller-built objects enter the library, so it applies the one rule
 * (builder.h): a code left 0 is filled from the text, a text left NULL from
 * the code, and a text and a code that name different values are refused,
 * never silently read two ways. An unknown text keeps code 0, as decoding
 * does.
 */
static int copy_enum(const kp__field *f, void *d, const void *s, kp__buf *path, kp_error *err)
{
	const char *text = *CAT(s, f->off, const char *);
	uint32_t code = *CAT(s, f->aux, uint32_t);
	const kp__enum_entry *named = text ? enum_by_name(f->en, text) : NULL;
	if (!text && code) {
		text = enum_name(f->en, code);
		if (!text)
			return copy_err(path, err, KP_EINVAL, "unknown code");
	} else if (text && !code) {
		code = named ? named->code : 0;
	} else if (text && code && (!named || named->code != code)) {
		return enum_mismatch(path, err, text, enum_name(f->en, code), "unknown");
	}
	*AT(d, f->aux, uint32_t) = code;
	return dup_str(text, AT(d, f->off, const char *));
}

/* Whether an enum-like field's text and code agree (copy_enum's rule,
 * without copying): a code 0 beside a known text, or a code naming another
 * value, is refused. */
static int enum_agrees(const kp__field *f, const void *s, kp__buf *path, kp_error *err)
{
	const char *text = *CAT(s, f->off, const char *);
	uint32_t code = *CAT(s, f->aux, uint32_t);
	const kp__enum_entry *named = text ? enum_by_name(f->en, text) : NULL;
	if (!text || (!named && !code) || (named && named->code == code))
		return KP_OK;
	return enum_mismatch(path, err, text, enum_name(f->en, code), code ? "unknown" : "none set");
}

static int enums_agree(const kp__type *t, const void *s, kp__buf *path, kp_error *err);

static int enums_agree_field(const kp__field *f, const void *s, kp__buf *path, kp_error *err);

static int fk_enum_enums_agree(const kp__field *f, const void *s, kp__buf *path, kp_error *err)
{
	return enum_agrees(f, s, path, err);
}

static int fk_struct_enums_agree(const kp__field *f, const void *s, kp__buf *path, kp_error *err)
{
	const void *v = *CAT(s, f->off, const void *);
	return v ? enums_agree(f->elem, v, path, err) : KP_OK;
}

static int fk_list_enums_agree(const kp__field *f, const void *s, kp__buf *path, kp_error *err)
{
	const void *const *items = *CAT(s, f->off, const void *const *);
	size_t n = items ? *CAT(s, f->aux, size_t) : 0;
	for (size_t i = 0; i < n; i++) {
		if (!items[i])
			continue; /* reported where the object is read */
		size_t old = path->len;
		kp__buf_printf(path, "[%zu]", i);
		int rc = enums_agree(f->elem, items[i], path, err);
		path->len = old;
		if (path->data)
			path->data[old] = '\0';
		if (rc)
			return rc;
	}
	return KP_OK;
}

static int fk_values_enums_agree(const kp__field *f, const void *s, kp__buf *path, kp_error *err)
{
	const char *items = *CAT(s, f->off, const char *);
	size_t n = items ? *CAT(s, f->aux, size_t) : 0;
	for (size_t i = 0; i < n; i++) {
		int rc = enums_agree(f->elem, items + i * f->elem->size, path, err);
		if (rc)
			return rc;
	}
	return KP_OK;
}

static int fk_none_enums_agree(const kp__field *f, const void *s, kp__buf *path, kp_error *err)
{
	(void)f;
	(void)s;
	(void)path;
	(void)err;
	return KP_OK;
}

static int enums_agree(const kp__type *t, const void *s, kp__buf *path, kp_error *err)
{
	if (t->sized && *CAT(s, 0, uint32_t) < t->first_size)
		return KP_OK; /* a bad size is reported where the object is read */
	for (size_t i = 0; i < t->n_fields; i++) {
		const kp__field *f = &t->fields[i];
		if (!has_field(t, s, f))
			continue;
		size_t old = path->len;
		if (old)
			kp__buf_putc(path, '.');
		kp__buf_puts(path, f->json);
		int rc = enums_agree_field(f, s, path, err);
		path->len = old;
		if (path->data)
			path->data[old] = '\0';
		if (rc)
			return rc;
	}
	return KP_OK;
}

int kp__schema_enums_agree(const kp__type *t, const void *s, kp_error *err)
{
	kp__buf path = { 0 };
	int rc = s ? enums_agree(t, s, &path, err) : KP_OK;
	kp__buf_dispose(&path);
	return rc;
}

static int copy_struct_ptr(const kp__type *t, const void *src, void **out, kp__buf *path,
			   kp_error *err)
{
	*out = NULL;
	if (!src)
		return KP_OK;
	int rc = check_size(t, src, path->data, err);
	if (rc)
		return rc;
	void *d = alloc_struct(t);
	if (!d)
		return copy_err(path, err, KP_ENOMEM, "out of memory");
	rc = copy_fields(t, d, src, path, err);
	if (rc) {
		kp__schema_free(t, d);
		return rc;
	}
	*out = d;
	return KP_OK;
}

static int copy_field(const kp__type *t, const kp__field *f, void *d, const void *s, kp__buf *path,
		kp_error *err);

static int fk_string_copy(const kp__type *t, const kp__field *f, void *d, const void *s,
		kp__buf *path, kp_error *err)
{
	int rc = KP_OK;
	rc = dup_str(*CAT(s, f->off, const char *), AT(d, f->off, const char *));
	(void)t;
	if (rc == KP_ENOMEM)
		return copy_err(path, err, KP_ENOMEM, "out of memory");
	return rc;
}

static int fk_enum_copy(const kp__type *t, const kp__field *f, void *d, const void *s,
		kp__buf *path, kp_error *err)
{
	int rc = KP_OK;
	rc = copy_enum(f, d, s, path, err);
	(void)t;
	if (rc == KP_ENOMEM)
		return copy_err(path, err, KP_ENOMEM, "out of memory");
	return rc;
}

static int fk_u32_copy(const kp__type *t, const kp__field *f, void *d, const void *s,
		kp__buf *path, kp_error *err)
{
	int rc = KP_OK;
	*AT(d, f->off, uint32_t) = *CAT(s, f->off, uint32_t);
	(void)t;
	if (rc == KP_ENOMEM)
		return copy_err(path, err, KP_ENOMEM, "out of memory");
	return rc;
}

static int fk_opt_u32_copy(const kp__type *t, const kp__field *f, void *d, const void *s,
		kp__buf *path, kp_error *err)
{
	int rc = KP_OK;
	*AT(d, f->off, uint32_t) = *CAT(s, f->off, uint32_t);
	*AT(d, f->aux, uint32_t) = *CAT(s, f->aux, uint32_t);
	(void)t;
	if (rc == KP_ENOMEM)
		return copy_err(path, err, KP_ENOMEM, "out of memory");
	return rc;
}

static int fk_int64_copy(const kp__type *t, const kp__field *f, void *d, const void *s,
		kp__buf *path, kp_error *err)
{
	int rc = KP_OK;
	*AT(d, f->off, int64_t) = *CAT(s, f->off, int64_t);
	(void)t;
	if (rc == KP_ENOMEM)
		return copy_err(path, err, KP_ENOMEM, "out of memory");
	return rc;
}

static int fk_opt_int64_copy(const kp__type *t, const kp__field *f, void *d, const void *s,
		kp__buf *path, kp_error *err)
{
	int rc = KP_OK;
	*AT(d, f->off, int64_t) = *CAT(s, f->off, int64_t);
	*AT(d, f->aux, uint32_t) = *CAT(s, f->aux, uint32_t);
	(void)t;
	if (rc == KP_ENOMEM)
		return copy_err(path, err, KP_ENOMEM, "out of memory");
	return rc;
}

static int fk_duration_copy(const kp__type *t, const kp__field *f, void *d, const void *s,
		kp__buf *path, kp_error *err)
{
	int rc = KP_OK;
	const kp_api_duration *sd = CAT(s, f->off, kp_api_duration);
	kp_api_duration *dd = AT(d, f->off, kp_api_duration);
	dd->ns = sd->ns;
	dd->never = sd->never;
	dd->parsed = sd->parsed;
	rc = dup_str(sd->text, &dd->text);
	(void)t;
	if (rc == KP_ENOMEM)
		return copy_err(path, err, KP_ENOMEM, "out of memory");
	return rc;
}

static int fk_int_or_string_copy(const kp__type *t, const kp__field *f, void *d, const void *s,
		kp__buf *path, kp_error *err)
{
	int rc = KP_OK;
	const kp_int_or_string *si = CAT(s, f->off, kp_int_or_string);
	kp_int_or_string *di = AT(d, f->off, kp_int_or_string);
	di->type = si->type;
	di->int_value = si->int_value;
	rc = dup_str(si->str_value, &di->str_value);
	(void)t;
	if (rc == KP_ENOMEM)
		return copy_err(path, err, KP_ENOMEM, "out of memory");
	return rc;
}

static int fk_strings_copy(const kp__type *t, const kp__field *f, void *d, const void *s,
		kp__buf *path, kp_error *err)
{
	int rc = KP_OK;
	do {
		const char *const *items = *CAT(s, f->off, const char *const *);
		size_t n = *CAT(s, f->aux, size_t);
		if (!items) {
			if (n)
				return copy_err(path, err, KP_EINVAL, "NULL list with a non-zero count");
			break;
		}
		const char **c = kp__calloc(n ? n : 1, sizeof(*c));
		if (!c)
			return copy_err(path, err, KP_ENOMEM, "out of memory");
		*AT(d, f->off, const char **) = c;
		for (size_t i = 0; i < n; i++) {
			rc = dup_str(items[i] ? items[i] : "", &c[i]);
			if (rc)
				break;
			*AT(d, f->aux, size_t) = i + 1;
		}
	} while (0);
	(void)t;
	if (rc == KP_ENOMEM)
		return copy_err(path, err, KP_ENOMEM, "out of memory");
	return rc;
}

static int fk_map_copy(const kp__type *t, const kp__field *f, void *d, const void *s,
		kp__buf *path, kp_error *err)
{
	int rc = KP_OK;
	do {
		const kp_labels *sl = CAT(s, f->off, kp_labels);
		kp_labels *dl = AT(d, f->off, kp_labels);
		if (!sl->items) {
			if (sl->count)
				return copy_err(path, err, KP_EINVAL, "NULL map with a non-zero count");
			break;
		}
		dl->items = kp__calloc(sl->count ? sl->count : 1, sizeof(kp_label));
		if (!dl->items)
			return copy_err(path, err, KP_ENOMEM, "out of memory");
		for (size_t i = 0; i < sl->count; i++) {
			if (!sl->items[i].key)
				return copy_err(path, err, KP_EINVAL, "NULL key in a map");
			rc = dup_str(sl->items[i].key, &dl->items[i].key);
			if (rc == KP_OK)
				rc = dup_str(sl->items[i].value ? sl->items[i].value : "",
					     &dl->items[i].value);
			if (rc) {
				free_str(dl->items[i].key);
				break;
			}
			dl->count = i + 1;
		}
		if (rc == KP_OK)
			qsort(dl->items, dl->count, sizeof(kp_label), label_cmp);
	} while (0);
	(void)t;
	if (rc == KP_ENOMEM)
		return copy_err(path, err, KP_ENOMEM, "out of memory");
	return rc;
}

static int fk_resources_copy(const kp__type *t, const kp__field *f, void *d, const void *s,
		kp__buf *path, kp_error *err)
{
	int rc = KP_OK;
	do {
		const kp_resource_list *sl = CAT(s, f->off, kp_resource_list);
		kp_resource_list *dl = AT(d, f->off, kp_resource_list);
		if (!sl->items) {
			if (sl->count)
				return copy_err(path, err, KP_EINVAL, "NULL list with a non-zero count");
			break;
		}
		dl->items = kp__calloc(sl->count ? sl->count : 1, sizeof(kp_resource));
		if (!dl->items)
			return copy_err(path, err, KP_ENOMEM, "out of memory");
		for (size_t i = 0; i < sl->count; i++) {
			if (!sl->items[i].name)
				return copy_err(path, err, KP_EINVAL, "NULL resource name");
			rc = dup_str(sl->items[i].name, &dl->items[i].name);
			if (rc)
				break;
			dl->items[i].quantity = sl->items[i].quantity;
			dl->count = i + 1;
		}
		if (rc == KP_OK)
			qsort(dl->items, dl->count, sizeof(kp_resource), resource_cmp);
	} while (0);
	(void)t;
	if (rc == KP_ENOMEM)
		return copy_err(path, err, KP_ENOMEM, "out of memory");
	return rc;
}

static int fk_struct_copy(const kp__type *t, const kp__field *f, void *d, const void *s,
		kp__buf *path, kp_error *err)
{
	int rc = KP_OK;
	return copy_struct_ptr(f->elem, *CAT(s, f->off, const void *), AT(d, f->off, void *),
			       path, err);
	(void)t;
	if (rc == KP_ENOMEM)
		return copy_err(path, err, KP_ENOMEM, "out of memory");
	return rc;
}

static int fk_list_copy(const kp__type *t, const kp__field *f, void *d, const void *s,
		kp__buf *path, kp_error *err)
{
	int rc = KP_OK;
	do {
		const void *const *items = *CAT(s, f->off, const void *const *);
		size_t n = *CAT(s, f->aux, size_t);
		if (!items) {
			if (n)
				return copy_err(path, err, KP_EINVAL, "NULL list with a non-zero count");
			break;
		}
		void **c = kp__calloc(n ? n : 1, sizeof(void *));
		if (!c)
			return copy_err(path, err, KP_ENOMEM, "out of memory");
		*AT(d, f->off, void **) = c;
		for (size_t i = 0; i < n; i++) {
			if (!items[i])
				return copy_err(path, err, KP_EINVAL, "NULL item in a list");
			size_t old = path->len;
			kp__buf_printf(path, "[%zu]", i);
			rc = copy_struct_ptr(f->elem, items[i], &c[i], path, err);
			path->len = old;
			if (path->data)
				path->data[old] = '\0';
			if (rc)
				return rc;
			*AT(d, f->aux, size_t) = i + 1;
		}
	} while (0);
	(void)t;
	if (rc == KP_ENOMEM)
		return copy_err(path, err, KP_ENOMEM, "out of memory");
	return rc;
}

static int fk_values_copy(const kp__type *t, const kp__field *f, void *d, const void *s,
		kp__buf *path, kp_error *err)
{
	int rc = KP_OK;
	do {
		const char *items = *CAT(s, f->off, const char *);
		size_t n = *CAT(s, f->aux, size_t);
		if (!items) {
			if (n)
				return copy_err(path, err, KP_EINVAL, "NULL list with a non-zero count");
			break;
		}
		char *c = kp__calloc(n ? n : 1, f->elem->size);
		if (!c)
			return copy_err(path, err, KP_ENOMEM, "out of memory");
		*AT(d, f->off, char *) = c;
		for (size_t i = 0; i < n; i++) {
			*AT(d, f->aux, size_t) = i + 1;
			rc = copy_fields(f->elem, c + i * f->elem->size, items + i * f->elem->size, path,
					 err);
			if (rc)
				return rc;
		}
	} while (0);
	(void)t;
	if (rc == KP_ENOMEM)
		return copy_err(path, err, KP_ENOMEM, "out of memory");
	return rc;
}

static int fk_none_copy(const kp__type *t, const kp__field *f, void *d, const void *s,
		kp__buf *path, kp_error *err)
{
	(void)f;
	(void)d;
	(void)s;
	int rc = KP_OK;

	(void)t;
	if (rc == KP_ENOMEM)
		return copy_err(path, err, KP_ENOMEM, "out of memory");
	return rc;
}

static int copy_fields(const kp__type *t, void *dst, const void *src, kp__buf *path, kp_error *err)
{
	if (t->tag_off)
		*AT(dst, t->tag_off, uint32_t) = *CAT(src, t->tag_off, uint32_t);
	for (size_t i = 0; i < t->n_fields; i++) {
		const kp__field *f = &t->fields[i];
		if (!has_field(t, src, f))
			continue;
		size_t old = path->len;
		if (old)
			kp__buf_putc(path, '.');
		kp__buf_puts(path, f->json);
		int rc = copy_field(t, f, dst, src, path, err);
		path->len = old;
		if (path->data)
			path->data[old] = '\0';
		if (rc)
			return rc;
	}
	return KP_OK;
}

int kp__schema_copy(const kp__type *t, void **out, const void *src, kp_error *err)
{
	kp__buf path = { 0 };
	int rc = copy_struct_ptr(t, src, out, &path, err);
	kp__buf_dispose(&path);
	return rc;
}

/* ------------------------------------------------------------------------ */
/* Equality                                                                 */

static int str_eq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

static int equal_fields(const kp__type *t, const void *a, const void *b);

static int equal_struct_ptr(const kp__type *t, const void *a, const void *b)
{
	if (!a || !b)
		return a == b;
	return equal_fields(t, a, b);
}

static const kp_label *label_find(const kp_labels *l, const char *key)
{
	for (size_t i = 0; i < l->count; i++)
		if (str_eq(l->items[i].key, key))
			return &l->items[i];
	return NULL;
}

static const kp_resource *resource_find(const kp_resource_list *l, const char *name)
{
	for (size_t i = 0; i < l->count; i++)
		if (str_eq(l->items[i].name, name))
			return &l->items[i];
	return NULL;
}

static int equal_field(const kp__field *f, const void *a, const void *b);

static int fk_string_equal(const kp__field *f, const void *a, const void *b)
{
	return str_eq(*CAT(a, f->off, const char *), *CAT(b, f->off, const char *));
}

static int fk_enum_equal(const kp__field *f, const void *a, const void *b)
{
	return str_eq(*CAT(a, f->off, const char *), *CAT(b, f->off, const char *)) &&
	       *CAT(a, f->aux, uint32_t) == *CAT(b, f->aux, uint32_t);
}

static int fk_u32_equal(const kp__field *f, const void *a, const void *b)
{
	return *CAT(a, f->off, uint32_t) == *CAT(b, f->off, uint32_t);
}

static int fk_opt_u32_equal(const kp__field *f, const void *a, const void *b)
{
	return *CAT(a, f->aux, uint32_t) == *CAT(b, f->aux, uint32_t) &&
	       (!*CAT(a, f->aux, uint32_t) ||
		*CAT(a, f->off, uint32_t) == *CAT(b, f->off, uint32_t));
}

static int fk_int64_equal(const kp__field *f, const void *a, const void *b)
{
	return *CAT(a, f->off, int64_t) == *CAT(b, f->off, int64_t);
}

static int fk_opt_int64_equal(const kp__field *f, const void *a, const void *b)
{
	return *CAT(a, f->aux, uint32_t) == *CAT(b, f->aux, uint32_t) &&
	       (!*CAT(a, f->aux, uint32_t) || *CAT(a, f->off, int64_t) == *CAT(b, f->off, int64_t));
}

static int fk_duration_equal(const kp__field *f, const void *a, const void *b)
{
	const kp_api_duration *x = CAT(a, f->off, kp_api_duration);
	const kp_api_duration *y = CAT(b, f->off, kp_api_duration);
	if (!str_eq(x->text, y->text) || x->parsed != y->parsed)
		return 0;
	return !x->parsed || (x->ns == y->ns && x->never == y->never);
}

static int fk_int_or_string_equal(const kp__field *f, const void *a, const void *b)
{
	const kp_int_or_string *x = CAT(a, f->off, kp_int_or_string);
	const kp_int_or_string *y = CAT(b, f->off, kp_int_or_string);
	if (x->type != y->type)
		return 0;
	if (x->type == KP_INT_OR_STRING_INT)
		return x->int_value == y->int_value;
	if (x->type == KP_INT_OR_STRING_STRING)
		return str_eq(x->str_value, y->str_value);
	return 1;
}

static int fk_strings_equal(const kp__field *f, const void *a, const void *b)
{
	const char *const *x = *CAT(a, f->off, const char *const *);
	const char *const *y = *CAT(b, f->off, const char *const *);
	size_t n = *CAT(a, f->aux, size_t);
	if ((!x) != (!y) || n != *CAT(b, f->aux, size_t))
		return 0;
	for (size_t i = 0; x && i < n; i++)
		if (!str_eq(x[i], y[i]))
			return 0;
	return 1;
}

static int fk_map_equal(const kp__field *f, const void *a, const void *b)
{
	const kp_labels *x = CAT(a, f->off, kp_labels);
	const kp_labels *y = CAT(b, f->off, kp_labels);
	if ((!x->items) != (!y->items) || x->count != y->count)
		return 0;
	for (size_t i = 0; x->items && i < x->count; i++) {
		const kp_label *l = label_find(y, x->items[i].key);
		if (!l || !str_eq(l->value, x->items[i].value))
			return 0;
	}
	return 1;
}

static int fk_resources_equal(const kp__field *f, const void *a, const void *b)
{
	const kp_resource_list *x = CAT(a, f->off, kp_resource_list);
	const kp_resource_list *y = CAT(b, f->off, kp_resource_list);
	if ((!x->items) != (!y->items) || x->count != y->count)
		return 0;
	for (size_t i = 0; x->items && i < x->count; i++) {
		const kp_resource *r = resource_find(y, x->items[i].name);
		if (!r || kp_quantity_cmp(&r->quantity, &x->items[i].quantity) != 0)
			return 0;
	}
	return 1;
}

static int fk_struct_equal(const kp__field *f, const void *a, const void *b)
{
	return equal_struct_ptr(f->elem, *CAT(a, f->off, const void *), *CAT(b, f->off, const void *));
}

static int fk_list_equal(const kp__field *f, const void *a, const void *b)
{
	const void *const *x = *CAT(a, f->off, const void *const *);
	const void *const *y = *CAT(b, f->off, const void *const *);
	size_t n = *CAT(a, f->aux, size_t);
	if ((!x) != (!y) || n != *CAT(b, f->aux, size_t))
		return 0;
	for (size_t i = 0; x && i < n; i++)
		if (!equal_struct_ptr(f->elem, x[i], y[i]))
			return 0;
	return 1;
}

static int fk_values_equal(const kp__field *f, const void *a, const void *b)
{
	const char *x = *CAT(a, f->off, const char *);
	const char *y = *CAT(b, f->off, const char *);
	size_t n = *CAT(a, f->aux, size_t);
	if ((!x) != (!y) || n != *CAT(b, f->aux, size_t))
		return 0;
	for (size_t i = 0; x && i < n; i++)
		if (!equal_fields(f->elem, x + i * f->elem->size, y + i * f->elem->size))
			return 0;
	return 1;
}

static int fk_none_equal(const kp__field *f, const void *a, const void *b)
{
	(void)f;
	(void)a;
	(void)b;
	return 1;
}

static int equal_fields(const kp__type *t, const void *a, const void *b)
{
	if (t->tag_off && *CAT(a, t->tag_off, uint32_t) != *CAT(b, t->tag_off, uint32_t))
		return 0;
	for (size_t i = 0; i < t->n_fields; i++) {
		const kp__field *f = &t->fields[i];
		int ha = has_field(t, a, f), hb = has_field(t, b, f);
		if (ha && hb) {
			if (!equal_field(f, a, b))
				return 0;
		}
		/* A field one side lacks (older struct_size) reads as zero; only
		 * library-built and same-version objects are compared in
		 * practice, so treat it as equal. */
	}
	return 1;
}

int kp__schema_equal(const kp__type *t, const void *a, const void *b)
{
	return equal_struct_ptr(t, a, b);
}

/* ------------------------------------------------------------------------ */
/* Encoding                                                                 */

/* One walk writes an encoding either into a document tree
 * (kp__schema_encode) or as an emitter's events (kp__schema_emit), so the
 * two never differ. A member's key waits until its value comes: a field
 * that writes nothing leaves no key, exactly as a tree member never added. */
typedef struct ectx {
	kp_error *err;
	kp__buf path;
	const kp__kind_info *info; /* top-level kind, or NULL */
	kp_emitter *em;            /* events, or NULL: a tree into root */
	kp__node *root;
	kp__node **open;           /* the tree's open containers, innermost last */
	size_t depth, cap_open;
	const char *key;           /* the key waiting for its value, or NULL */
	int took;                  /* the last key got its value */
} ectx;

/* apiVersion default and kind name of a top-level kind ("" below it). */
static const char *top_api_version(const ectx *c)
{
	return c->info ? c->info->api_version : "";
}

static const char *top_kind_name(const ectx *c)
{
	return c->info ? c->info->name : "";
}

static int eerr(ectx *c, int code, const char *fmt, ...) KP_PRINTF(3, 4);

static int eerr(ectx *c, int code, const char *fmt, ...)
{
	if (code == KP_ENOMEM || c->path.failed)
		return kp__error(c->err, KP_ENOMEM, NULL, "out of memory");
	char detail[KP_ERROR_MESSAGE_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	const char *p = c->path.data ? c->path.data : "";
	return kp__error(c->err, code, p, "%s%s%s", p, *p ? ": " : "", detail);
}

static int eoom(ectx *c)
{
	return kp__error(c->err, KP_ENOMEM, NULL, "out of memory");
}

static kp__node *mk(uint32_t type)
{
	return kp__node_new(NULL, type, 0, NULL);
}

static kp__node *mk_string(const char *s)
{
	return kp__node_new_string(NULL, s ? s : "", s ? strlen(s) : 0, 0, NULL);
}

static kp__node *mk_number_i64(int64_t v)
{
	char buf[24];
	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	kp__node *n = kp__node_new_string(NULL, buf, strlen(buf), 0, NULL);
	if (n)
		n->type = KP__N_NUMBER;
	return n;
}

static kp__node *mk_bool(uint32_t v)
{
	kp__node *n = mk(KP__N_BOOL);
	if (n)
		n->boolean = v != 0;
	return n;
}

/* ---- events ---- */

static void ev_key(ectx *c, const char *key)
{
	c->key = key;
	c->took = 0;
}

/* Tree mode: hang @p n (owned) where the next value goes. */
static int put_node(ectx *c, kp__node *n)
{
	if (!n)
		return eoom(c);
	if (!c->depth) {
		kp__node_free(c->root); /* only ever one root */
		c->root = n;
		return KP_OK;
	}
	kp__node *top = c->open[c->depth - 1];
	if (top->type == KP__N_OBJECT) {
		char *k = kp__strdup(c->key ? c->key : "");
		c->key = NULL;
		c->took = 1;
		if (!k) {
			kp__node_free(n);
			return eoom(c);
		}
		return kp__node_add(top, k, n) == KP_OK ? KP_OK : eoom(c);
	}
	return kp__node_append(top, n) == KP_OK ? KP_OK : eoom(c);
}

/* Emitter mode: the waiting key, before its value. */
static int flush_key(ectx *c)
{
	if (!c->key)
		return KP_OK;
	int rc = kp_emitter_key(c->em, c->key);
	c->key = NULL;
	c->took = 1;
	return rc;
}

static int em_rc(ectx *c, int rc)
{
	return rc == KP_ENOMEM ? eoom(c) : rc;
}

static int ev_string(ectx *c, const char *v)
{
	if (!c->em)
		return put_node(c, mk_string(v));
	int rc = flush_key(c);
	return em_rc(c, rc ? rc : kp_emitter_string(c->em, v ? v : ""));
}

static int ev_int(ectx *c, int64_t v)
{
	if (!c->em)
		return put_node(c, mk_number_i64(v));
	int rc = flush_key(c);
	return em_rc(c, rc ? rc : kp_emitter_int(c->em, v));
}

static int ev_bool(ectx *c, uint32_t v)
{
	if (!c->em)
		return put_node(c, mk_bool(v));
	int rc = flush_key(c);
	return em_rc(c, rc ? rc : kp_emitter_bool(c->em, v != 0));
}

/* A value parsed from text (a JSON field): copied into the tree, or its
 * events. */
static int ev_value(ectx *c, const kp__node *v)
{
	if (!c->em)
		return put_node(c, kp__node_copy(NULL, v, NULL));
	int rc = flush_key(c);
	return em_rc(c, rc ? rc : kp__emit_node(c->em, v));
}

static int ev_begin(ectx *c, int object)
{
	if (c->em) {
		int rc = flush_key(c);
		return em_rc(c, rc ? rc : object ? kp_emitter_begin_object(c->em)
						  : kp_emitter_begin_array(c->em));
	}
	if (c->depth == c->cap_open &&
	    kp__grow((void **)&c->open, &c->cap_open, c->depth + 1, sizeof(*c->open)))
		return eoom(c);
	kp__node *n = mk(object ? KP__N_OBJECT : KP__N_ARRAY);
	int rc = put_node(c, n);
	if (rc == KP_OK)
		c->open[c->depth++] = n;
	return rc;
}

static int ev_end(ectx *c, int object)
{
	c->key = NULL; /* a member that wrote nothing */
	if (c->em)
		return em_rc(c, object ? kp_emitter_end_object(c->em) : kp_emitter_end_array(c->em));
	c->depth--;
	return KP_OK;
}

static int encode_struct(ectx *c, const kp__type *t, const void *s);

static int encode_field(ectx *c, const kp__type *t, const kp__field *f, const void *s);

static int fk_string_encode(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	const char *v = *CAT(s, f->off, const char *);
	return v ? ev_string(c, v) : KP_OK;
}

static int fk_api_version_encode(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	const char *v = *CAT(s, f->off, const char *);
	return ev_string(c, v ? v : top_api_version(c));
}

static int fk_kind_encode(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	(void)f;
	(void)s;
	return ev_string(c, top_kind_name(c));
}

static int fk_enum_encode(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	const char *v = *CAT(s, f->off, const char *);
	uint32_t code = *CAT(s, f->aux, uint32_t);
	if (!v && code) {
		v = enum_name(f->en, code);
		if (!v)
			return eerr(c, KP_EINVAL, "unknown code %u", (unsigned)code);
	}
	return v ? ev_string(c, v) : KP_OK;
}

static int fk_code_encode(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	uint32_t code = *CAT(s, f->off, uint32_t);
	if (!code)
		return KP_OK;
	const char *v = enum_name(f->en, code);
	if (!v)
		return eerr(c, KP_EINVAL, "unknown code %u", (unsigned)code);
	return ev_string(c, v);
}

static int fk_bool_encode(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	return *CAT(s, f->off, uint32_t) ? ev_bool(c, 1) : KP_OK;
}

static int fk_opt_bool_encode(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	return *CAT(s, f->aux, uint32_t) ? ev_bool(c, *CAT(s, f->off, uint32_t)) : KP_OK;
}

static int fk_int32_encode(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	return *CAT(s, f->off, int32_t) ? ev_int(c, *CAT(s, f->off, int32_t)) : KP_OK;
}

static int fk_opt_int32_encode(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	return *CAT(s, f->aux, uint32_t) ? ev_int(c, *CAT(s, f->off, int32_t)) : KP_OK;
}

static int fk_int64_encode(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	return *CAT(s, f->off, int64_t) ? ev_int(c, *CAT(s, f->off, int64_t)) : KP_OK;
}

static int fk_opt_int64_encode(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	return *CAT(s, f->aux, uint32_t) ? ev_int(c, *CAT(s, f->off, int64_t)) : KP_OK;
}

static int fk_time_encode(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	int64_t ms = *CAT(s, f->off, int64_t);
	if (!ms)
		return KP_OK;
	char buf[48]; /* int64 ms: a year of at most 10 characters + 20: fits */
	kp__time_format_rfc3339(ms, buf, sizeof(buf));
	return ev_string(c, buf);
}

static int fk_duration_encode(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	const kp_api_duration *d = CAT(s, f->off, kp_api_duration);
	char buf[KP_DURATION_STRING_MAX];
	const char *v = d->text;
	if (!v && d->parsed) {
		int32_t never = f->kind == KP__FK_NILLABLE_DURATION ? d->never : 0;
		kp_duration_format_nillable_ns(d->ns, never, buf, sizeof(buf));
		v = buf;
	}
	return v ? ev_string(c, v) : KP_OK;
}

static int fk_int_or_string_encode(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	const kp_int_or_string *is = CAT(s, f->off, kp_int_or_string);
	if (is->type == KP_INT_OR_STRING_INT)
		return ev_int(c, is->int_value);
	if (is->type == KP_INT_OR_STRING_STRING)
		return ev_string(c, is->str_value);
	if (is->type == KP_INT_OR_STRING_UNSET)
		return KP_OK;
	return eerr(c, KP_EINVAL, "unknown int-or-string type %u", (unsigned)is->type);
}

static int fk_strings_encode(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	const char *const *items = *CAT(s, f->off, const char *const *);
	size_t n = *CAT(s, f->aux, size_t);
	if (!items) {
		if (n)
			return eerr(c, KP_EINVAL, "NULL list with a non-zero count");
		return KP_OK;
	}
	int rc = ev_begin(c, 0);
	for (size_t i = 0; rc == KP_OK && i < n; i++)
		rc = ev_string(c, items[i]);
	return rc ? rc : ev_end(c, 0);
}

static int fk_map_encode(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	const kp_labels *l = CAT(s, f->off, kp_labels);
	if (!l->items) {
		if (l->count)
			return eerr(c, KP_EINVAL, "NULL map with a non-zero count");
		return KP_OK;
	}
	for (size_t i = 0; i < l->count; i++) /* refused before anything is written */
		if (!l->items[i].key)
			return eerr(c, KP_EINVAL, "NULL key in a map");
	int rc = ev_begin(c, 1);
	for (size_t i = 0; rc == KP_OK && i < l->count; i++) {
		ev_key(c, l->items[i].key);
		rc = ev_string(c, l->items[i].value);
	}
	return rc ? rc : ev_end(c, 1);
}

static int fk_resources_encode(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	const kp_resource_list *l = CAT(s, f->off, kp_resource_list);
	if (!l->items) {
		if (l->count)
			return eerr(c, KP_EINVAL, "NULL list with a non-zero count");
		return KP_OK;
	}
	for (size_t i = 0; i < l->count; i++) /* refused before anything is written */
		if (!l->items[i].name)
			return eerr(c, KP_EINVAL, "NULL resource name");
	int rc = ev_begin(c, 1);
	for (size_t i = 0; rc == KP_OK && i < l->count; i++) {
		char q[KP_QUANTITY_STRING_MAX];
		if (kp_quantity_format(&l->items[i].quantity, q, sizeof(q)) != KP_OK)
			return eerr(c, KP_EINVAL, "quantity of %s cannot be formatted",
				    l->items[i].name);
		ev_key(c, l->items[i].name);
		rc = ev_string(c, q);
	}
	return rc ? rc : ev_end(c, 1);
}

static int fk_struct_encode(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	const void *p = *CAT(s, f->off, const void *);
	return p ? encode_struct(c, f->elem, p) : KP_OK;
}

static int fk_list_encode(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	const char *items = *CAT(s, f->off, const char *);
	size_t n = *CAT(s, f->aux, size_t);
	if (!items) {
		if (n)
			return eerr(c, KP_EINVAL, "NULL list with a non-zero count");
		return KP_OK;
	}
	int rc = ev_begin(c, 0);
	for (size_t i = 0; rc == KP_OK && i < n; i++) {
		const void *e = f->kind == KP__FK_LIST ? ((const void *const *)(const void *)items)[i]
						       : (const void *)(items + i * f->elem->size);
		size_t old = c->path.len;
		kp__buf_printf(&c->path, "[%zu]", i);
		rc = e ? encode_struct(c, f->elem, e) : eerr(c, KP_EINVAL, "NULL item in a list");
		c->path.len = old;
		if (c->path.data)
			c->path.data[old] = '\0';
	}
	return rc ? rc : ev_end(c, 0);
}

static int fk_tag_encode(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	if (!t->tag_off || *CAT(s, t->tag_off, uint32_t) != f->tag)
		return KP_OK;
	int rc = ev_begin(c, 1);
	return rc ? rc : ev_end(c, 1);
}

static int fk_none_encode(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	(void)c;
	(void)t;
	(void)f;
	(void)s;
	return KP_OK;
}

static int parse_json_field(ectx *c, const kp__field *f, const void *s, kp__node **docs);

/* An OTHER source, from the member that keeps it ({"iscsi":{...}}),
 * written under its own key; nothing when it is not known (a caller-built
 * volume without it, or one older than the member). */
static int encode_other_source(ectx *c, const kp__type *t, const void *s)
{
	const kp__field *f = other_source_field(t);
	if (!f || !has_field(t, s, f))
		return KP_OK;
	kp__node *docs = NULL;
	int rc = parse_json_field(c, f, s, &docs);
	if (rc || !docs)
		return rc;
	const kp__node *v = docs->items[0];
	if (v->type != KP__N_OBJECT || v->n != 1) {
		kp__node_free(docs);
		return eerr(c, KP_EINVAL, "other_source is not an object of one member");
	}
	ev_key(c, v->keys[0]);
	rc = ev_value(c, v->items[0]);
	kp__node_free(docs);
	return rc;
}

static int encode_struct(ectx *c, const kp__type *t, const void *s)
{
	int rc = check_size(t, s, c->path.data, c->err);
	if (rc)
		return rc;
	if ((rc = ev_begin(c, 1)) != KP_OK)
		return rc;
	int tag_written = 0;
	for (size_t i = 0; i < t->n_fields; i++) {
		const kp__field *f = &t->fields[i];
		if (!has_field(t, s, f))
			continue;
		/* Several source keys share KP_VOLUME_SOURCE_OTHER: the source is
		 * written once, from the member that keeps it as written. */
		if (f->kind == KP__FK_TAG && tag_written)
			continue;
		if (f->flags & KP__FF_OTHER_SOURCE)
			continue;
		if (f->kind == KP__FK_TAG && f->tag == KP_VOLUME_SOURCE_OTHER &&
		    *CAT(s, t->tag_off, uint32_t) == f->tag) {
			tag_written = 1;
			if ((rc = encode_other_source(c, t, s)) != KP_OK)
				return rc;
			continue;
		}
		size_t old = c->path.len;
		if (old)
			kp__buf_putc(&c->path, '.');
		kp__buf_puts(&c->path, f->json);
		ev_key(c, f->json);
		rc = encode_field(c, t, f, s);
		c->path.len = old;
		if (c->path.data)
			c->path.data[old] = '\0';
		if (rc)
			return rc;
		if (f->kind == KP__FK_TAG && c->took)
			tag_written = 1;
	}
	return ev_end(c, 1);
}

static void ectx_dispose(ectx *c)
{
	kp__buf_dispose(&c->path);
	kp__free(c->open);
	kp__node_free(c->root);
}

int kp__schema_encode(const kp__type *t, const void *s, const kp__kind_info *info,
		      kp__node **out, kp_error *err)
{
	ectx c;
	memset(&c, 0, sizeof(c));
	c.err = err;
	c.info = info;
	*out = NULL;
	int rc = encode_struct(&c, t, s);
	if (rc == KP_OK) {
		*out = c.root;
		c.root = NULL;
	}
	ectx_dispose(&c);
	return rc;
}

int kp__schema_emit(kp_emitter *em, const kp__type *t, const void *s, const kp__kind_info *info,
		    kp_error *err)
{
	ectx c;
	memset(&c, 0, sizeof(c));
	c.err = err;
	c.info = info;
	c.em = em;
	int rc = encode_struct(&c, t, s);
	ectx_dispose(&c);
	return rc;
}

/* ------------------------------------------------------------------------ */
/* map[string]metav1.Duration                                               */

static void duration_map_dispose(kp_duration_map *m)
{
	const char **keys = (const char **)(uintptr_t)m->keys;
	kp_api_duration *values = (kp_api_duration *)(uintptr_t)m->values;
	for (size_t i = 0; keys && i < m->n; i++)
		free_str(keys[i]);
	for (size_t i = 0; values && i < m->n; i++)
		free_str(values[i].text);
	kp__free(keys);
	kp__free(values);
	memset(m, 0, sizeof(*m));
}

typedef struct dm_entry {
	const char *key;
	kp_api_duration value;
} dm_entry;

static int dm_entry_cmp(const void *a, const void *b)
{
	return strcmp(((const dm_entry *)a)->key, ((const dm_entry *)b)->key);
}

/* Split sorted entries into m (which takes their strings). */
static int dm_from_entries(kp_duration_map *m, dm_entry *e, size_t n)
{
	const char **keys = kp__calloc(n ? n : 1, sizeof(*keys));
	kp_api_duration *values = kp__calloc(n ? n : 1, sizeof(*values));
	if (!keys || !values) {
		kp__free(keys);
		kp__free(values);
		return KP_ENOMEM;
	}
	qsort(e, n, sizeof(*e), dm_entry_cmp);
	for (size_t i = 0; i < n; i++) {
		keys[i] = e[i].key;
		values[i] = e[i].value;
	}
	m->keys = keys;
	m->values = values;
	m->n = n;
	return KP_OK;
}

static void dm_entries_free(dm_entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free_str(e[i].key);
		free_str(e[i].value.text);
	}
	kp__free(e);
}

static int fk_duration_map_decode(kp__dctx *c, const kp__type *t, const kp__field *f, void *dst,
				  kp__node *n)
{
	(void)t;
	if (n->type != KP__N_OBJECT)
		return type_err(c, "object", n);
	int rc = check_duplicates(c, n, 1);
	if (rc)
		return rc;
	dm_entry *e = kp__calloc(n->n ? n->n : 1, sizeof(*e));
	if (!e)
		return oom(c);
	const kp__field one = { "", "", KP__FK_DURATION, 0, 0, 0, 0, NULL, NULL };
	size_t k = 0;
	for (; rc == KP_OK && k < n->n; k++) {
		pmark old = path_push_map_key(c, n->keys[k]);
		rc = decode_duration(c, &one, &e[k].value, n->items[k]);
		path_pop(c, old);
		if (rc == KP_OK && !(e[k].key = kp__strdup(n->keys[k])))
			rc = oom(c);
	}
	kp_duration_map *m = AT(dst, f->off, kp_duration_map);
	if (rc == KP_OK) {
		duration_map_dispose(m);
		if (dm_from_entries(m, e, n->n) == KP_OK) {
			kp__free(e);
			return KP_OK;
		}
		rc = oom(c);
	}
	dm_entries_free(e, k);
	return rc;
}

static void fk_duration_map_free(const kp__field *f, void *s)
{
	duration_map_dispose(AT(s, f->off, kp_duration_map));
}

static int fk_duration_map_copy(const kp__type *t, const kp__field *f, void *d, const void *s,
				kp__buf *path, kp_error *err)
{
	(void)t;
	const kp_duration_map *sm = CAT(s, f->off, kp_duration_map);
	if (!sm->keys || !sm->values) {
		if (sm->n)
			return copy_err(path, err, KP_EINVAL, "NULL map with a non-zero count");
		return KP_OK;
	}
	dm_entry *e = kp__calloc(sm->n ? sm->n : 1, sizeof(*e));
	if (!e)
		return copy_err(path, err, KP_ENOMEM, "out of memory");
	size_t k = 0;
	int rc = KP_OK;
	for (; rc == KP_OK && k < sm->n; k++) {
		if (!sm->keys[k]) {
			rc = copy_err(path, err, KP_EINVAL, "NULL key in a map");
			break;
		}
		e[k].value = sm->values[k];
		e[k].value.text = NULL;
		if (dup_str(sm->keys[k], &e[k].key) || dup_str(sm->values[k].text, &e[k].value.text))
			rc = copy_err(path, err, KP_ENOMEM, "out of memory");
	}
	if (rc == KP_OK && dm_from_entries(AT(d, f->off, kp_duration_map), e, sm->n) == KP_OK) {
		kp__free(e);
		return KP_OK;
	}
	dm_entries_free(e, k < sm->n ? k + 1 : k);
	return rc ? rc : copy_err(path, err, KP_ENOMEM, "out of memory");
}

static int dm_value_equal(const kp_api_duration *x, const kp_api_duration *y)
{
	if (!str_eq(x->text, y->text) || x->parsed != y->parsed)
		return 0;
	return !x->parsed || x->ns == y->ns;
}

static int fk_duration_map_equal(const kp__field *f, const void *a, const void *b)
{
	const kp_duration_map *x = CAT(a, f->off, kp_duration_map);
	const kp_duration_map *y = CAT(b, f->off, kp_duration_map);
	if ((!x->keys) != (!y->keys) || x->n != y->n)
		return 0;
	for (size_t i = 0; x->keys && i < x->n; i++)
		if (!str_eq(x->keys[i], y->keys[i]) || !dm_value_equal(&x->values[i], &y->values[i]))
			return 0;
	return 1;
}

static int fk_duration_map_encode(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	const kp_duration_map *m = CAT(s, f->off, kp_duration_map);
	if (!m->keys || !m->values) {
		if (m->n)
			return eerr(c, KP_EINVAL, "NULL map with a non-zero count");
		return KP_OK;
	}
	for (size_t i = 0; i < m->n; i++) /* refused before anything is written */
		if (!m->keys[i])
			return eerr(c, KP_EINVAL, "NULL key in a map");
	int rc = ev_begin(c, 1);
	for (size_t i = 0; rc == KP_OK && i < m->n; i++) {
		const kp_api_duration *d = &m->values[i];
		char buf[KP_DURATION_STRING_MAX];
		const char *v = d->text;
		if (!v && d->parsed) {
			kp_duration_format_nillable_ns(d->ns, 0, buf, sizeof(buf));
			v = buf;
		}
		ev_key(c, m->keys[i]);
		rc = ev_string(c, v ? v : "");
	}
	return rc ? rc : ev_end(c, 1);
}

/* ------------------------------------------------------------------------ */
/* Raw JSON values (apiextensionsv1.JSON)                                   */

typedef struct json_member {
	const char *key;
	const kp__node *value;
	size_t index;
} json_member;

static int json_member_cmp(const void *a, const void *b)
{
	const json_member *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c ? c : (x->index < y->index ? -1 : x->index > y->index);
}

/* n as Go's json.Marshal writes a decoded value: compact, object keys in
 * byte order, the last of duplicated keys. */
static int json_sorted(kp__buf *b, const kp__node *n)
{
	if (n->type == KP__N_ARRAY) {
		kp__buf_putc(b, '[');
		for (size_t i = 0; i < n->n; i++) {
			if (i)
				kp__buf_putc(b, ',');
			if (json_sorted(b, n->items[i]))
				return KP_ENOMEM;
		}
		kp__buf_putc(b, ']');
		return KP_OK;
	}
	if (n->type != KP__N_OBJECT) {
		kp__json_write(b, n, 0);
		return KP_OK;
	}
	json_member *m = kp__calloc(n->n ? n->n : 1, sizeof(*m));
	if (!m)
		return KP_ENOMEM;
	for (size_t i = 0; i < n->n; i++)
		m[i] = (json_member){ n->keys[i], n->items[i], i };
	qsort(m, n->n, sizeof(*m), json_member_cmp);
	kp__buf_putc(b, '{');
	int first = 1, rc = KP_OK;
	for (size_t i = 0; rc == KP_OK && i < n->n; i++) {
		if (i + 1 < n->n && !strcmp(m[i].key, m[i + 1].key))
			continue; /* a later duplicate wins */
		if (!first)
			kp__buf_putc(b, ',');
		first = 0;
		kp__json_write_string(b, m[i].key, strlen(m[i].key));
		kp__buf_putc(b, ':');
		rc = json_sorted(b, m[i].value);
	}
	kp__buf_putc(b, '}');
	kp__free(m);
	return rc;
}

static int fk_json_decode(kp__dctx *c, const kp__type *t, const kp__field *f, void *dst,
			  kp__node *n)
{
	(void)t;
	kp__buf b = { 0 };
	if (json_sorted(&b, n) != KP_OK) {
		kp__buf_dispose(&b);
		return oom(c);
	}
	char *text = kp__buf_take(&b, NULL);
	if (!text)
		return oom(c);
	const char **slot = AT(dst, f->off, const char *);
	free_str(*slot);
	*slot = text;
	return KP_OK;
}

/* A JSON field's text as one value: *docs holds it (docs->items[0]), or
 * NULL when the field is unset. */
static int parse_json_field(ectx *c, const kp__field *f, const void *s, kp__node **docs)
{
	*docs = NULL;
	const char *text = *CAT(s, f->off, const char *);
	if (!text)
		return KP_OK;
	size_t len = strlen(text);
	/* the text was written from a decoded tree: these limits are never met */
	kp__budget b = { (size_t)1 << 20, 0, len * 2 + 64, 0, 1000, NULL, 0, 0 };
	kp_error e;
	memset(&e, 0, sizeof(e));
	int rc = kp__json_parse(docs, text, len, &b, &e);
	if (rc == KP_ENOMEM)
		return eoom(c);
	if (rc || (*docs)->n != 1) {
		kp__node_free(*docs);
		*docs = NULL;
		return eerr(c, KP_EINVAL, "not one JSON value: %s", rc ? e.message : "");
	}
	return KP_OK;
}

static int fk_json_encode(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	kp__node *docs = NULL;
	int rc = parse_json_field(c, f, s, &docs);
	if (rc == KP_OK && docs)
		rc = ev_value(c, docs->items[0]);
	kp__node_free(docs);
	return rc;
}

/* ------------------------------------------------------------------------ */
/* The field kinds: one row of operations each                              */

/* What the engine does with a field of one kind. Adding a field kind is one
 * row here (and one in lib/hash/hashstructure.c for drift hashing). */
typedef struct fk_ops {
	size_t size;     /* bytes of the member at off (0: none) */
	size_t aux_size; /* bytes of the member at aux (0: none) */
	int (*decode)(kp__dctx *c, const kp__type *t, const kp__field *f, void *dst, kp__node *n);
	void (*free)(const kp__field *f, void *s);
	int (*enums_agree)(const kp__field *f, const void *s, kp__buf *path, kp_error *err);
	int (*copy)(const kp__type *t, const kp__field *f, void *d, const void *s, kp__buf *path,
		    kp_error *err);
	int (*equal)(const kp__field *f, const void *a, const void *b);
	int (*encode)(ectx *c, const kp__type *t, const kp__field *f, const void *s);
} fk_ops;

static const fk_ops fk_table[] = {
	[KP__FK_STRING] = { sizeof(const char *), 0, fk_string_decode, fk_string_free,
		fk_none_enums_agree, fk_string_copy, fk_string_equal, fk_string_encode },
	[KP__FK_ENUM] = { sizeof(const char *), sizeof(uint32_t), fk_enum_decode, fk_string_free,
		fk_enum_enums_agree, fk_enum_copy, fk_enum_equal, fk_enum_encode },
	[KP__FK_CODE] = { sizeof(uint32_t), 0, fk_code_decode, fk_none_free, fk_none_enums_agree,
		fk_u32_copy, fk_u32_equal, fk_code_encode },
	[KP__FK_BOOL] = { sizeof(uint32_t), 0, fk_bool_decode, fk_none_free, fk_none_enums_agree,
		fk_u32_copy, fk_u32_equal, fk_bool_encode },
	[KP__FK_OPT_BOOL] = { sizeof(uint32_t), sizeof(uint32_t), fk_bool_decode, fk_none_free,
		fk_none_enums_agree, fk_opt_u32_copy, fk_opt_u32_equal, fk_opt_bool_encode },
	[KP__FK_INT32] = { sizeof(int32_t), 0, fk_int32_decode, fk_none_free, fk_none_enums_agree,
		fk_u32_copy, fk_u32_equal, fk_int32_encode },
	[KP__FK_INT64] = { sizeof(int64_t), 0, fk_int64_decode, fk_none_free, fk_none_enums_agree,
		fk_int64_copy, fk_int64_equal, fk_int64_encode },
	[KP__FK_OPT_INT32] = { sizeof(int32_t), sizeof(uint32_t), fk_int32_decode, fk_none_free,
		fk_none_enums_agree, fk_opt_u32_copy, fk_opt_u32_equal, fk_opt_int32_encode },
	[KP__FK_OPT_INT64] = { sizeof(int64_t), sizeof(uint32_t), fk_int64_decode, fk_none_free,
		fk_none_enums_agree, fk_opt_int64_copy, fk_opt_int64_equal, fk_opt_int64_encode },
	[KP__FK_TIME] = { sizeof(int64_t), 0, fk_time_decode, fk_none_free, fk_none_enums_agree,
		fk_int64_copy, fk_int64_equal, fk_time_encode },
	[KP__FK_DURATION] = { sizeof(kp_api_duration), 0, fk_duration_decode, fk_duration_free,
		fk_none_enums_agree, fk_duration_copy, fk_duration_equal, fk_duration_encode },
	[KP__FK_NILLABLE_DURATION] = { sizeof(kp_api_duration), 0, fk_duration_decode,
		fk_duration_free, fk_none_enums_agree, fk_duration_copy, fk_duration_equal,
		fk_duration_encode },
	[KP__FK_INT_OR_STRING] = { sizeof(kp_int_or_string), 0, fk_int_or_string_decode,
		fk_int_or_string_free, fk_none_enums_agree, fk_int_or_string_copy,
		fk_int_or_string_equal, fk_int_or_string_encode },
	[KP__FK_STRINGS] = { sizeof(void *), sizeof(size_t), fk_strings_decode, fk_strings_free,
		fk_none_enums_agree, fk_strings_copy, fk_strings_equal, fk_strings_encode },
	[KP__FK_MAP] = { sizeof(kp_labels), 0, fk_map_decode, fk_map_free, fk_none_enums_agree,
		fk_map_copy, fk_map_equal, fk_map_encode },
	[KP__FK_RESOURCES] = { sizeof(kp_resource_list), 0, fk_resources_decode,
		fk_resources_free, fk_none_enums_agree, fk_resources_copy, fk_resources_equal,
		fk_resources_encode },
	[KP__FK_STRUCT] = { sizeof(void *), 0, fk_struct_decode, fk_struct_free,
		fk_struct_enums_agree, fk_struct_copy, fk_struct_equal, fk_struct_encode },
	[KP__FK_LIST] = { sizeof(void *), sizeof(size_t), fk_list_decode, fk_list_free,
		fk_list_enums_agree, fk_list_copy, fk_list_equal, fk_list_encode },
	[KP__FK_VALUES] = { sizeof(void *), sizeof(size_t), fk_values_decode, fk_values_free,
		fk_values_enums_agree, fk_values_copy, fk_values_equal, fk_list_encode },
	[KP__FK_TAG] = { 0, 0, fk_tag_decode, fk_none_free, fk_none_enums_agree, fk_none_copy,
		fk_none_equal, fk_tag_encode },
	[KP__FK_IGNORED] = { 0, 0, fk_none_decode, fk_none_free, fk_none_enums_agree,
		fk_none_copy, fk_none_equal, fk_none_encode },
	[KP__FK_API_VERSION] = { sizeof(const char *), 0, fk_string_decode, fk_string_free,
		fk_none_enums_agree, fk_string_copy, fk_string_equal, fk_api_version_encode },
	[KP__FK_DURATION_MAP] = { sizeof(kp_duration_map), 0, fk_duration_map_decode,
		fk_duration_map_free, fk_none_enums_agree, fk_duration_map_copy, fk_duration_map_equal,
		fk_duration_map_encode },
	[KP__FK_JSON] = { sizeof(const char *), 0, fk_json_decode, fk_string_free,
		fk_none_enums_agree, fk_string_copy, fk_string_equal, fk_json_encode },
	[KP__FK_KIND] = { sizeof(uint32_t), 0, fk_kind_decode, fk_none_free, fk_none_enums_agree,
		fk_u32_copy, fk_u32_equal, fk_kind_encode },
};

/* The row of a field's kind; a kind outside the table has none of the
 * operations (descriptors are checked when built: kp_schema_compile). */
static const fk_ops *fk_of(const kp__field *f)
{
	static const fk_ops none = { 0, 0, fk_none_decode, fk_none_free, fk_none_enums_agree,
				     fk_none_copy, fk_none_equal, fk_none_encode };
	if (f->kind >= sizeof(fk_table) / sizeof(fk_table[0]) || !fk_table[f->kind].decode)
		return &none;
	return &fk_table[f->kind];
}

int kp__fk_sizes(uint32_t kind, size_t *size, size_t *aux_size)
{
	if (kind == 0 || kind >= sizeof(fk_table) / sizeof(fk_table[0]) || !fk_table[kind].decode)
		return -1;
	*size = fk_table[kind].size;
	*aux_size = fk_table[kind].aux_size;
	return 0;
}

static size_t field_end(const kp__field *f)
{
	const fk_ops *k = fk_of(f);
	if (!k->size)
		return 0;
	size_t end = f->off + k->size, aux_end = k->aux_size ? f->aux + k->aux_size : 0;
	return end > aux_end ? end : aux_end;
}

static int decode_field(kp__dctx *c, const kp__type *t, const kp__field *f, void *dst, kp__node *n)
{
	return fk_of(f)->decode(c, t, f, dst, n);
}

static void free_field(const kp__field *f, void *s)
{
	fk_of(f)->free(f, s);
}

static int enums_agree_field(const kp__field *f, const void *s, kp__buf *path, kp_error *err)
{
	return fk_of(f)->enums_agree(f, s, path, err);
}

static int copy_field(const kp__type *t, const kp__field *f, void *d, const void *s, kp__buf *path,
		kp_error *err)
{
	return fk_of(f)->copy(t, f, d, s, path, err);
}

static int equal_field(const kp__field *f, const void *a, const void *b)
{
	return fk_of(f)->equal(f, a, b);
}

static int encode_field(ectx *c, const kp__type *t, const kp__field *f, const void *s)
{
	return fk_of(f)->encode(c, t, f, s);
}
