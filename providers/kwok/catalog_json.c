/*
 * libkarpenter-kwok: reading a catalogue from upstream KWOK's JSON formats.
 *
 * The document is what upstream unmarshals into []InstanceTypeOptions
 * (kwok/cloudprovider/helpers.go) with Go's encoding/json, whose rules are
 * kept where they show: case-insensitive keys, the last duplicate wins,
 * unknown keys are ignored, null leaves a field unset. Offerings are read
 * in the generated format ({Price, Available, ReservationCapacity,
 * Requirements}) or the simplified one of upstream's
 * examples/instance_types.json ({capacityType, zone, price}: the fields of
 * the original cloudprovider.Offering, which today's upstream no longer
 * reads).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cJSON.h>

#include "kwok_private.h"

/* ------------------------------------------------------------------ */
/* Context: the source name, the path of the value being read, and the */
/* allocations to release once the current instance type is added.    */

struct ctx {
	const char *source;
	kp_error *err;
	/*
	 * The path feeds only kp_error's field[KP_ERROR_FIELD_MAX] (the same
	 * size) and message, so it is kept bounded, as the field would be;
	 * a path cut short (a 300-character key) ends in "..." so that it is
	 * never mistaken for the whole path.
	 */
	char path[KP_ERROR_FIELD_MAX];
	size_t len;
	void **scratch;
	size_t n_scratch, cap_scratch;
};

static size_t path_push(struct ctx *c, const char *fmt, ...) KP_KWOK_PRINTF(2, 3);
static size_t path_push(struct ctx *c, const char *fmt, ...)
{
	size_t old = c->len;
	if (c->len < sizeof(c->path) - 1) {
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(c->path + c->len, sizeof(c->path) - c->len, fmt, ap);
		va_end(ap);
		if (n > 0)
			c->len += (size_t)n;
		if (c->len > sizeof(c->path) - 1) {
			c->len = sizeof(c->path) - 1;
			memcpy(c->path + c->len - 3, "...", 4);
		}
	}
	return old;
}

static size_t path_key(struct ctx *c, const char *key)
{
	return path_push(c, c->len ? ".%s" : "%s", key);
}

static size_t path_index(struct ctx *c, size_t i)
{
	return path_push(c, "[%zu]", i);
}

static void path_pop(struct ctx *c, size_t old)
{
	c->len = old;
	c->path[old] = '\0';
}

/* "SOURCE: PATH: PROBLEM", field PATH. */
static int fail(struct ctx *c, int code, const char *fmt, ...) KP_KWOK_PRINTF(3, 4);
static int fail(struct ctx *c, int code, const char *fmt, ...)
{
	/* Only ever part of kp_error's message[KP_ERROR_MESSAGE_MAX], which
	 * would cut it at the same length. */
	char problem[KP_ERROR_MESSAGE_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(problem, sizeof(problem), fmt, ap);
	va_end(ap);
	if (c->len)
		return kp_kwok__error(c->err, code, c->path, "%s: %s: %s", c->source, c->path,
				      problem);
	return kp_kwok__error(c->err, code, NULL, "%s: %s", c->source, problem);
}

/* Re-report an error of the core (@p e) at the current path. */
static int fail_from(struct ctx *c, int code, const kp_error *e)
{
	if (code == KP_ENOMEM)
		return fail(c, code, "out of memory");
	size_t old = c->len;
	if (e->field[0])
		path_push(c, e->field[0] == '[' || !c->len ? "%s" : ".%s", e->field);
	int rc = fail(c, code, "%s", e->message);
	path_pop(c, old);
	return rc;
}

static void *scratch_alloc(struct ctx *c, size_t n, size_t size)
{
	if (c->n_scratch == c->cap_scratch) {
		size_t cap = c->cap_scratch ? c->cap_scratch * 2 : 16;
		void **p = realloc(c->scratch, cap * sizeof(*p));
		if (!p)
			return NULL;
		c->scratch = p;
		c->cap_scratch = cap;
	}
	void *p = calloc(n ? n : 1, size);
	if (p)
		c->scratch[c->n_scratch++] = p;
	return p;
}

static void scratch_release(struct ctx *c)
{
	for (size_t i = 0; i < c->n_scratch; i++)
		free(c->scratch[i]);
	c->n_scratch = 0;
}

/* ------------------------------------------------------------------ */
/* JSON helpers                                                        */

static const char *type_name(const cJSON *j)
{
	if (cJSON_IsString(j))
		return "string";
	if (cJSON_IsNumber(j))
		return "number";
	if (cJSON_IsBool(j))
		return "bool";
	if (cJSON_IsArray(j))
		return "array";
	if (cJSON_IsObject(j))
		return "object";
	if (cJSON_IsNull(j))
		return "null";
	return "invalid value";
}

/* Go's encoding/json: keys match case-insensitively and the last one wins. */
static const cJSON *member(const cJSON *obj, const char *name)
{
	const cJSON *found = NULL;
	for (const cJSON *ch = obj ? obj->child : NULL; ch; ch = ch->next)
		if (ch->string && strcasecmp(ch->string, name) == 0)
			found = ch;
	return found;
}

static int expect(struct ctx *c, const cJSON *j, const char *what)
{
	return fail(c, KP_EINVAL, "expected %s, got %s", what, type_name(j));
}

/* A string field: absent or null leaves *out untouched. */
static int read_string(struct ctx *c, const cJSON *obj, const char *name, const char **out)
{
	const cJSON *j = member(obj, name);
	if (!j || cJSON_IsNull(j))
		return KP_OK;
	size_t old = path_key(c, j->string);
	int rc = KP_OK;
	if (cJSON_IsString(j))
		*out = j->valuestring;
	else
		rc = expect(c, j, "string");
	path_pop(c, old);
	return rc;
}

/* An array of strings (null items read as ""); absent or null gives none. */
static int read_strings(struct ctx *c, const cJSON *j, const char *const **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	if (!j || cJSON_IsNull(j))
		return KP_OK;
	if (!cJSON_IsArray(j))
		return expect(c, j, "array of strings");
	size_t count = (size_t)cJSON_GetArraySize(j);
	const char **v = scratch_alloc(c, count, sizeof(*v));
	if (!v)
		return fail(c, KP_ENOMEM, "out of memory");
	size_t i = 0;
	for (const cJSON *it = j->child; it; it = it->next, i++) {
		if (cJSON_IsNull(it)) {
			v[i] = "";
		} else if (cJSON_IsString(it)) {
			v[i] = it->valuestring;
		} else {
			size_t old = path_index(c, i);
			int rc = expect(c, it, "string");
			path_pop(c, old);
			return rc;
		}
	}
	*out = v;
	*n = count;
	return KP_OK;
}

/*
 * A quantity, as Quantity.UnmarshalJSON reads it: a string, or a bare
 * number (read by value: the shortest decimal text that gives the same
 * double), or null (zero).
 */
static int read_quantity(struct ctx *c, const cJSON *j, kp_quantity *out)
{
	char num[40];
	const char *text;
	if (cJSON_IsNull(j)) {
		kp_quantity zero = KP_QUANTITY_ZERO;
		*out = zero;
		return KP_OK;
	} else if (cJSON_IsString(j)) {
		text = j->valuestring;
	} else if (cJSON_IsNumber(j)) {
		double d = j->valuedouble;
		if (!isfinite(d))
			return fail(c, KP_ERANGE, "number out of range");
		for (int prec = 1; prec <= 17; prec++) {
			snprintf(num, sizeof(num), "%.*g", prec, d);
			if (strtod(num, NULL) == d)
				break;
		}
		text = num;
	} else {
		return expect(c, j, "quantity string");
	}
	kp_error qe = KP_ERROR_INIT;
	int rc = kp_quantity_parse(out, text, &qe);
	if (rc != KP_OK)
		return fail(c, rc, "%s", qe.message);
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* Offerings                                                           */

/* One corev1.NodeSelectorRequirement {key, operator, values}. */
static int read_requirement(struct ctx *c, const cJSON *j, kp_node_selector_requirement *out)
{
	if (cJSON_IsNull(j))
		return fail(c, KP_EINVAL, "expected requirement object, got null");
	if (!cJSON_IsObject(j))
		return expect(c, j, "requirement object");
	kp_node_selector_requirement r = KP_NODE_SELECTOR_REQUIREMENT_INIT;
	const char *key = "", *op = "";
	int rc = read_string(c, j, "key", &key);
	if (rc == KP_OK)
		rc = read_string(c, j, "operator", &op);
	if (rc != KP_OK)
		return rc;
	const cJSON *oj = member(j, "operator");
	size_t old = path_key(c, oj ? oj->string : "operator");
	kp_error e = KP_ERROR_INIT;
	rc = kp_selector_op_parse(op, &r.op, &e);
	if (rc != KP_OK) {
		rc = fail(c, rc, "%s", e.message);
		path_pop(c, old);
		return rc;
	}
	path_pop(c, old);
	const cJSON *vj = member(j, "values");
	old = path_key(c, vj ? vj->string : "values");
	rc = read_strings(c, vj, &r.values, &r.n_values);
	path_pop(c, old);
	if (rc != KP_OK)
		return rc;
	r.key = key;
	*out = r;
	return KP_OK;
}

/*
 * Take the zone (or capacity type) of an offering from its first
 * requirement on @p key, which must be In with one value; the others are
 * kept as further requirements.
 */
static int take_single(struct ctx *c, const kp_node_selector_requirement *r, const char *what,
		       const char **slot, const char *field_value)
{
	if (field_value)
		return fail(c, KP_EINVAL, "the %s is given twice (requirement and \"%s\")",
			    r->key, what);
	if (r->op != KP_SELECTOR_OP_IN || r->n_values != 1)
		return fail(c, KP_EINVAL, "the %s requirement must be In with exactly one value",
			    r->key);
	*slot = r->values[0];
	return KP_OK;
}

static int read_offering(struct ctx *c, const cJSON *j, struct kp_kwok_offering_in *out)
{
	memset(out, 0, sizeof(*out));
	if (cJSON_IsNull(j))
		return fail(c, KP_EINVAL, "expected offering object, got null");
	if (!cJSON_IsObject(j))
		return expect(c, j, "offering object");

	/* Simplified format (the original cloudprovider.Offering fields). */
	const char *zone = NULL, *capacity_type = NULL;
	int rc = read_string(c, j, "zone", &zone);
	if (rc == KP_OK)
		rc = read_string(c, j, "capacityType", &capacity_type);
	if (rc != KP_OK)
		return rc;

	/* Price (both formats: Go matches "price" to Price). */
	const cJSON *pj = member(j, "price");
	if (pj && !cJSON_IsNull(pj)) {
		size_t old = path_key(c, pj->string);
		if (!cJSON_IsNumber(pj))
			rc = expect(c, pj, "number");
		else if (!isfinite(pj->valuedouble))
			rc = fail(c, KP_ERANGE, "number out of range");
		else if (!(pj->valuedouble >= 0 && pj->valuedouble <= KP_KWOK_PRICE_MAX))
			rc = fail(c, KP_EINVAL, "price %.10g is not a finite number from 0 to %.0f",
				  pj->valuedouble, KP_KWOK_PRICE_MAX);
		path_pop(c, old);
		if (rc != KP_OK)
			return rc;
		out->price = pj->valuedouble;
	}
	/* Available: read for its type only; setDefaultOptions sets it true. */
	const cJSON *aj = member(j, "available");
	if (aj && !cJSON_IsNull(aj) && !cJSON_IsBool(aj)) {
		size_t old = path_key(c, aj->string);
		rc = expect(c, aj, "bool");
		path_pop(c, old);
		return rc;
	}
	const cJSON *rcj = member(j, "reservationCapacity");
	if (rcj && !cJSON_IsNull(rcj)) {
		size_t old = path_key(c, rcj->string);
		double d = rcj->valuedouble;
		if (!cJSON_IsNumber(rcj))
			rc = expect(c, rcj, "integer");
		else if (!(d >= -9.2233720368547758e18 && d < 9.2233720368547758e18) ||
			 (double)(int64_t)d != d)
			rc = fail(c, KP_EINVAL, "expected integer, got %.17g", d);
		path_pop(c, old);
		if (rc != KP_OK)
			return rc;
		out->reservation_capacity = (int64_t)d;
	}

	/* Generated format: requirements, of which zone and capacity type
	 * become the offering's own fields. */
	const cJSON *rj = member(j, "requirements");
	if (rj && !cJSON_IsNull(rj)) {
		size_t old = path_key(c, rj->string);
		if (!cJSON_IsArray(rj)) {
			rc = expect(c, rj, "array of requirements");
			path_pop(c, old);
			return rc;
		}
		size_t n = (size_t)cJSON_GetArraySize(rj);
		kp_node_selector_requirement *reqs = scratch_alloc(c, n, sizeof(*reqs));
		const kp_node_selector_requirement **further = scratch_alloc(c, n, sizeof(*further));
		if (!reqs || !further) {
			path_pop(c, old);
			return fail(c, KP_ENOMEM, "out of memory");
		}
		size_t i = 0, n_further = 0;
		const char *req_zone = NULL, *req_ct = NULL;
		for (const cJSON *it = rj->child; it && rc == KP_OK; it = it->next, i++) {
			size_t o2 = path_index(c, i);
			rc = read_requirement(c, it, &reqs[i]);
			if (rc == KP_OK && !req_zone && strcmp(reqs[i].key, KP_LABEL_TOPOLOGY_ZONE) == 0)
				rc = take_single(c, &reqs[i], "zone", &req_zone, zone);
			else if (rc == KP_OK && !req_ct &&
				 strcmp(reqs[i].key, KP_LABEL_CAPACITY_TYPE) == 0)
				rc = take_single(c, &reqs[i], "capacityType", &req_ct, capacity_type);
			else if (rc == KP_OK)
				further[n_further++] = &reqs[i];
			path_pop(c, o2);
		}
		path_pop(c, old);
		if (rc != KP_OK)
			return rc;
		if (req_zone)
			zone = req_zone;
		if (req_ct)
			capacity_type = req_ct;
		out->requirements = further;
		out->n_requirements = n_further;
	}
	if (!zone)
		return fail(c, KP_EINVAL, "no zone: give a " KP_LABEL_TOPOLOGY_ZONE
			    " requirement (In, one value) or \"zone\"");
	if (!capacity_type)
		return fail(c, KP_EINVAL, "no capacity type: give a " KP_LABEL_CAPACITY_TYPE
			    " requirement (In, one value) or \"capacityType\"");
	out->zone = zone;
	out->capacity_type = capacity_type;
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* Instance types                                                      */

static int read_resources(struct ctx *c, const cJSON *j, kp_resource_list *res)
{
	if (!j || cJSON_IsNull(j))
		return KP_OK;
	size_t old = path_key(c, j->string);
	int rc = KP_OK;
	if (!cJSON_IsObject(j))
		rc = expect(c, j, "object of quantities");
	for (const cJSON *it = rc == KP_OK ? j->child : NULL; it && rc == KP_OK; it = it->next) {
		size_t o2 = path_key(c, it->string);
		kp_quantity q;
		if (!it->string[0]) {
			rc = fail(c, KP_EINVAL, "empty resource name");
		} else {
			rc = read_quantity(c, it, &q);
			if (rc == KP_OK) {
				kp_error e = KP_ERROR_INIT;
				/* A map: the last duplicate wins, as Go's decoder. */
				rc = kp_resources_set(res, it->string, &q, &e);
				if (rc != KP_OK)
					rc = fail_from(c, rc, &e);
			}
		}
		path_pop(c, o2);
	}
	path_pop(c, old);
	return rc;
}

static int read_instance_type(struct ctx *c, const cJSON *j, kp_instance_types *its)
{
	if (!cJSON_IsObject(j) && !cJSON_IsNull(j))
		return expect(c, j, "instance type object");
	struct kp_kwok_type_in in;
	memset(&in, 0, sizeof(in));
	kp_resource_list res = KP_RESOURCE_LIST_INIT;
	int rc = read_string(c, j, "name", &in.name);
	if (rc == KP_OK)
		rc = read_string(c, j, "architecture", &in.arch);
	if (rc == KP_OK) {
		const cJSON *oj = member(j, "operatingSystems");
		size_t old = oj ? path_key(c, oj->string) : c->len;
		rc = read_strings(c, oj, &in.oses, &in.n_oses);
		path_pop(c, old);
	}
	if (rc == KP_OK)
		rc = read_resources(c, member(j, "resources"), &res);
	const cJSON *offj = member(j, "offerings");
	if (rc == KP_OK && offj && !cJSON_IsNull(offj)) {
		size_t old = path_key(c, offj->string);
		if (!cJSON_IsArray(offj)) {
			rc = expect(c, offj, "array of offerings");
		} else {
			size_t n = (size_t)cJSON_GetArraySize(offj);
			struct kp_kwok_offering_in *offs = scratch_alloc(c, n, sizeof(*offs));
			const struct kp_kwok_offering_in **ptrs = scratch_alloc(c, n, sizeof(*ptrs));
			if (!offs || !ptrs)
				rc = fail(c, KP_ENOMEM, "out of memory");
			size_t i = 0;
			for (const cJSON *it = offj->child; it && rc == KP_OK; it = it->next, i++) {
				size_t o2 = path_index(c, i);
				rc = read_offering(c, it, &offs[i]);
				ptrs[i] = &offs[i];
				path_pop(c, o2);
			}
			in.offerings = ptrs;
			in.n_offerings = n;
		}
		path_pop(c, old);
	}
	if (rc == KP_OK) {
		in.resources = &res;
		kp_error e = KP_ERROR_INIT;
		rc = kp_kwok__catalog_add(its, &in, &e);
		if (rc != KP_OK)
			rc = fail_from(c, rc, &e);
	}
	kp_resources_dispose(&res);
	scratch_release(c);
	return rc;
}

/* 1-based line and column of byte @p off. */
static void line_col(const char *text, size_t off, size_t *line, size_t *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

KP_EXPORT int kp_kwok_catalog_parse(kp_instance_types **out, const char *json, size_t len,
				    const char *source, kp_error *err)
{
	struct ctx c;
	memset(&c, 0, sizeof(c));
	c.source = source ? source : "<buffer>";
	c.err = err;
	if (!out || !json)
		return fail(&c, KP_EINVAL, "%s is NULL", out ? "json" : "out");
	if (len > KP_KWOK_CATALOG_MAX_BYTES)
		return fail(&c, KP_ERANGE, "input of %zu bytes is larger than the limit of %zu bytes",
			    len, (size_t)KP_KWOK_CATALOG_MAX_BYTES);

	const char *end = NULL;
	cJSON *root = cJSON_ParseWithLengthOpts(json, len, &end, 0);
	size_t line, col;
	if (!root) {
		size_t off = end && end >= json && end <= json + len ? (size_t)(end - json) : 0;
		line_col(json, off, &line, &col);
		return fail(&c, KP_EPARSE, "invalid JSON at line %zu, column %zu", line, col);
	}
	size_t off = end ? (size_t)(end - json) : len;
	while (off < len && (json[off] == ' ' || json[off] == '\t' || json[off] == '\n' ||
			     json[off] == '\r'))
		off++;
	if (off < len && !(json[off] == '\0' && off + 1 == len)) {
		line_col(json, off, &line, &col);
		cJSON_Delete(root);
		return fail(&c, KP_EPARSE, "invalid JSON at line %zu, column %zu: data after the "
			    "top-level value", line, col);
	}
	int rc = KP_OK;
	if (!cJSON_IsArray(root) && !cJSON_IsNull(root))
		rc = expect(&c, root, "array of instance types");

	kp_instance_types *its = NULL;
	if (rc == KP_OK) {
		kp_error e = KP_ERROR_INIT;
		rc = kp_instance_types_new(&its, &e);
		if (rc != KP_OK)
			rc = fail_from(&c, rc, &e);
	}
	size_t i = 0;
	for (const cJSON *it = rc == KP_OK && cJSON_IsArray(root) ? root->child : NULL;
	     it && rc == KP_OK; it = it->next, i++) {
		size_t old = path_index(&c, i);
		rc = read_instance_type(&c, it, its);
		path_pop(&c, old);
	}
	cJSON_Delete(root);
	free(c.scratch);
	if (rc != KP_OK) {
		kp_instance_types_free(its);
		return rc;
	}
	*out = its;
	return KP_OK;
}

KP_EXPORT int kp_kwok_catalog_load_file(kp_instance_types **out, const char *path, kp_error *err)
{
	if (!out || !path)
		return kp_kwok__error(err, KP_EINVAL, NULL, "kwok catalogue: %s is NULL",
				      out ? "path" : "out");
	FILE *f = fopen(path, "rb");
	if (!f) {
		int e = errno;
		if (e == ENOENT)
			return kp_kwok__error(err, KP_ENOTFOUND, NULL, "%s: no such file", path);
		return kp_kwok__error(err, KP_EINVAL, NULL, "%s: cannot open (%s)", path,
				      e == EACCES ? "permission denied" : "open failed");
	}
	/* Read at most one byte beyond the limit, to tell "too large". */
	const size_t limit = KP_KWOK_CATALOG_MAX_BYTES + 1;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	int rc = KP_OK;
	while (buf) {
		if (n == cap) {
			if (cap >= limit)
				break;
			size_t ncap = cap * 2 > limit ? limit : cap * 2;
			char *nb = realloc(buf, ncap);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap = ncap;
		}
		size_t r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0) {
			if (ferror(f))
				rc = kp_kwok__error(err, KP_EINVAL, NULL, "%s: cannot read the file",
						    path);
			break;
		}
	}
	fclose(f);
	if (!buf)
		return kp_kwok__error(err, KP_ENOMEM, NULL, "%s: out of memory", path);
	if (rc == KP_OK && n > KP_KWOK_CATALOG_MAX_BYTES)
		rc = kp_kwok__error(err, KP_ERANGE, NULL, "%s: file is larger than the limit of "
				    "%zu bytes", path, (size_t)KP_KWOK_CATALOG_MAX_BYTES);
	if (rc == KP_OK)
		rc = kp_kwok_catalog_parse(out, buf, n, path, err);
	free(buf);
	return rc;
}
