/*
 * Validation of Karpenter's kinds: the framework behind kp_validate
 * (options, copies, the result and its accessors), the inventory-driven
 * OpenAPI checks shared by every walk, and the API server's ObjectMeta
 * checks. It knows no kind: validation_kinds.c holds the walks and
 * kp_validate, which picks a kind's walk and calls kp__validate_walk. See
 * validation.h for the model.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/duration.h>
#include <karpenter/labels.h>

#include "common/sized.h"
#include "validation_private.h"
#include "schema/registry.h"

struct kp__vproblem {
	kp_field_error pub;
	int phase;
	char *strings; /* field, message and detail, one allocation */
};

struct kp_validation {
	kp__vproblem *items;
	size_t n;
	char *object;
	kp__vproblem *warnings;
	size_t n_warnings;
};

/* ------------------------------------------------------------------------ */
/* Strings and paths                                                        */

static void vfail(kp__vctx *c, int code)
{
	if (!c->failed)
		c->failed = code;
}

static void vstr_put(kp__vctx *c, kp__vstr *s, const char *text, size_t n)
{
	if (kp__grow((void **)&s->data, &s->cap, s->len + n + 1, 1)) {
		vfail(c, KP_ENOMEM);
		return;
	}
	memcpy(s->data + s->len, text, n);
	s->len += n;
	s->data[s->len] = '\0';
}

static void vstr_puts(kp__vctx *c, kp__vstr *s, const char *text)
{
	vstr_put(c, s, text, strlen(text));
}

static const char *vstr_get(const kp__vstr *s)
{
	return s->data ? s->data : "";
}

static kp__vmark mark(const kp__vctx *c)
{
	kp__vmark m = { c->path.len, c->spath.len };
	return m;
}

kp__vmark kp__v_push(kp__vctx *c, const char *name)
{
	kp__vmark m = mark(c);
	if (c->path.len)
		vstr_puts(c, &c->path, ".");
	vstr_puts(c, &c->path, name);
	if (c->spath.len)
		vstr_puts(c, &c->spath, ".");
	vstr_puts(c, &c->spath, name);
	return m;
}

kp__vmark kp__v_push_index(kp__vctx *c, size_t i)
{
	kp__vmark m = mark(c);
	char buf[32]; /* "[" 20 digits "]": fits */
	snprintf(buf, sizeof(buf), "[%zu]", i);
	vstr_puts(c, &c->path, buf);
	vstr_puts(c, &c->spath, "[*]");
	return m;
}

kp__vmark kp__v_push_key(kp__vctx *c, const char *key)
{
	kp__vmark m = mark(c);
	vstr_puts(c, &c->path, ".");
	vstr_puts(c, &c->path, key ? key : "");
	vstr_puts(c, &c->spath, ".*");
	return m;
}

void kp__v_pop(kp__vctx *c, kp__vmark m)
{
	c->path.len = m.path;
	if (c->path.data)
		c->path.data[m.path] = '\0';
	c->spath.len = m.spath;
	if (c->spath.data)
		c->spath.data[m.spath] = '\0';
}

/* The library's printf-to-heap (kp__strdup_vprintf), failing the context
 * when it cannot. */
KP_PRINTF(2, 0) static char *vprintf_new(kp__vctx *c, const char *fmt, va_list ap)
{
	char *s = kp__strdup_vprintf(fmt, ap);
	if (!s)
		vfail(c, KP_ENOMEM);
	return s;
}

char *kp__v_printf(kp__vctx *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vprintf_new(c, fmt, ap);
	va_end(ap);
	return s;
}

char *kp__v_quote(kp__vctx *c, const char *s)
{
	if (!s)
		s = "";
	/* strconv.Quote writes at most 4 bytes per input byte, plus quotes. */
	size_t size = strlen(s) * 4 + 3;
	char *q = kp__malloc(size);
	if (!q) {
		vfail(c, KP_ENOMEM);
		return NULL;
	}
	kp__go_quote(q, size, s);
	return q;
}

const char *kp__v_duration_text(const kp_api_duration *d, int nillable, char *buf, size_t size)
{
	if (d->text)
		return d->text;
	if (!d->parsed)
		return NULL;
	if (kp_duration_format_nillable_ns(d->ns, nillable ? d->never : 0, buf, size) != KP_OK)
		return NULL;
	return buf;
}

/* ------------------------------------------------------------------------ */
/* Problems                                                                 */

void kp__v_report_at(kp__vctx *c, int phase, uint32_t type, const kp_validation_rule *r,
		     const char *field, const char *message, const char *detail)
{
	if (c->failed)
		return;
	if (!r) {
		vfail(c, KP_EINVAL);
		return;
	}
	if (!field)
		field = "";
	if (!message)
		message = "";
	if (!detail)
		detail = "";
	size_t lf = strlen(field) + 1, lm = strlen(message) + 1, ld = strlen(detail) + 1;
	if (kp__grow((void **)&c->items, &c->cap_items, c->n_items + 1, sizeof(kp__vproblem))) {
		vfail(c, KP_ENOMEM);
		return;
	}
	char *buf = kp__malloc(lf + lm + ld);
	if (!buf) {
		vfail(c, KP_ENOMEM);
		return;
	}
	memcpy(buf, field, lf);
	memcpy(buf + lf, message, lm);
	memcpy(buf + lf + lm, detail, ld);
	kp__vproblem *p = &c->items[c->n_items++];
	memset(p, 0, sizeof(*p));
	p->pub.struct_size = sizeof(kp_field_error);
	p->pub.type = type;
	p->pub.source = r->source;
	p->pub.rule = r->id;
	p->pub.field = buf;
	p->pub.message = buf + lf;
	p->pub.detail = buf + lf + lm;
	p->phase = phase;
	p->strings = buf;
}

void kp__v_report(kp__vctx *c, int phase, uint32_t type, const kp_validation_rule *r,
		  const char *field_suffix, const char *message, const char *detail)
{
	if (!field_suffix || !*field_suffix) {
		kp__v_report_at(c, phase, type, r, vstr_get(&c->path), message, detail);
		return;
	}
	kp__vmark m = mark(c);
	if (field_suffix[0] == '.' && c->path.len == 0)
		field_suffix++;
	vstr_puts(c, &c->path, field_suffix);
	kp__v_report_at(c, phase, type, r, vstr_get(&c->path), message, detail);
	kp__v_pop(c, m);
}

const kp_validation_rule *kp__v_rule(kp__vctx *c, const char *suffix, const char *keyword)
{
	const kp_validation_rule *r;
	if (!suffix || !*suffix) {
		r = KP__V_FIND(c, vstr_get(&c->spath), keyword);
	} else {
		kp__vmark m = mark(c);
		if (suffix[0] == '.' && c->spath.len == 0)
			suffix++;
		vstr_puts(c, &c->spath, suffix);
		r = KP__V_FIND(c, vstr_get(&c->spath), keyword);
		kp__v_pop(c, m);
	}
	if (!r)
		vfail(c, KP_EINVAL); /* the walk and the inventory disagree */
	return r;
}

/* A rule that may or may not exist for the current schema path. */
static const kp_validation_rule *rule_opt(kp__vctx *c, const char *keyword)
{
	return KP__V_FIND(c, vstr_get(&c->spath), keyword);
}

/* ------------------------------------------------------------------------ */
/* OpenAPI checks                                                           */

static size_t rune_count(const char *s)
{
	size_t n = 0;
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		unsigned c = *p;
		size_t w = 1;
		if (c >= 0xc2 && c <= 0xdf)
			w = 2;
		else if (c >= 0xe0 && c <= 0xef)
			w = 3;
		else if (c >= 0xf0 && c <= 0xf4)
			w = 4;
		/* a valid sequence counts once, each invalid byte once (utf8.RuneCount) */
		size_t k = 1;
		while (k < w && (p[k] & 0xc0) == 0x80)
			k++;
		if (k == w && w > 1) {
			uint32_t cp = c & (w == 2 ? 0x1f : w == 3 ? 0x0f : 0x07);
			for (size_t i = 1; i < w; i++)
				cp = (cp << 6) | (p[i] & 0x3f);
			uint32_t min = w == 2 ? 0x80 : w == 3 ? 0x800 : 0x10000;
			if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
				w = 1;
		} else {
			w = 1;
		}
		p += w;
		n++;
	}
	return n;
}

static void report_invalid_str(kp__vctx *c, const kp_validation_rule *r, const char *value,
			       const char *detail)
{
	char *q = kp__v_quote(c, value);
	char *m = q ? kp__v_printf(c, "Invalid value: %s: %s", q, detail) : NULL;
	if (m)
		kp__v_report(c, KP__VP_OPENAPI, KP_FIELD_ERROR_INVALID, r, NULL, m, detail);
	kp__free(q);
	kp__free(m);
}

void kp__v_string(kp__vctx *c, const char *value)
{
	if (!value)
		return;
	const kp_validation_rule *r;
	const char *path = vstr_get(&c->path);
	if ((r = rule_opt(c, "maxLength")) && !(r->flags & KP_RULE_F_INERT) &&
	    (long long)rune_count(value) > atoll(r->text)) {
		long long max = atoll(r->text);
		char *m = kp__v_printf(c, "Too long: may not be more than %lld %s", max,
				       max == 1 ? "byte" : "bytes");
		char *d = kp__v_printf(c, "may not be more than %lld %s", max,
				       max == 1 ? "byte" : "bytes");
		if (m && d)
			kp__v_report(c, KP__VP_OPENAPI, KP_FIELD_ERROR_TOO_LONG, r, NULL, m, d);
		kp__free(m);
		kp__free(d);
	} else if ((r = rule_opt(c, "minLength")) && (long long)rune_count(value) < atoll(r->text)) {
		char *d = kp__v_printf(c, "%s in body should be at least %s chars long", path, r->text);
		if (d)
			report_invalid_str(c, r, value, d);
		kp__free(d);
	} else if ((r = rule_opt(c, "pattern")) && !(r->flags & KP_RULE_F_INERT)) {
		int rc = kp__regex_match(r->text, value, strlen(value));
		if (rc < 0) {
			vfail(c, rc);
			return;
		}
		if (!rc) {
			char *d = kp__v_printf(c, "%s in body should match '%s'", path, r->text);
			if (d)
				report_invalid_str(c, r, value, d);
			kp__free(d);
		}
	}
	if ((r = rule_opt(c, "enum")) && r->source == KP_RULE_SOURCE_OPENAPI) {
		/* r->text is the list as the API server prints it: "a", "b" */
		int found = 0;
		const char *p = r->text;
		size_t vlen = strlen(value);
		while (*p == '"') {
			const char *e = strchr(p + 1, '"');
			if (!e)
				break;
			if ((size_t)(e - p - 1) == vlen && memcmp(p + 1, value, vlen) == 0)
				found = 1;
			p = e + 1;
			while (*p == ',' || *p == ' ')
				p++;
		}
		if (!found) {
			char *q = kp__v_quote(c, value);
			char *d = kp__v_printf(c, "supported values: %s", r->text);
			char *m = q && d ? kp__v_printf(c, "Unsupported value: %s: %s", q, d) : NULL;
			if (m)
				kp__v_report(c, KP__VP_OPENAPI, KP_FIELD_ERROR_NOT_SUPPORTED, r, NULL, m, d);
			kp__free(q);
			kp__free(d);
			kp__free(m);
		}
	}
}

void kp__v_int(kp__vctx *c, int64_t value)
{
	const kp_validation_rule *r;
	const char *path = vstr_get(&c->path);
	const char *what = NULL;
	if ((r = rule_opt(c, "minimum")) && value < atoll(r->text))
		what = "greater than or equal to";
	else if ((r = rule_opt(c, "maximum")) && value > atoll(r->text))
		what = "less than or equal to";
	if (!what)
		return;
	char *d = kp__v_printf(c, "%s in body should be %s %s", path, what, r->text);
	char *m = d ? kp__v_printf(c, "Invalid value: %lld: %s", (long long)value, d) : NULL;
	if (m)
		kp__v_report(c, KP__VP_OPENAPI, KP_FIELD_ERROR_INVALID, r, NULL, m, d);
	kp__free(d);
	kp__free(m);
}

static void too_many(kp__vctx *c, const kp_validation_rule *r, size_t n)
{
	long long max = atoll(r->text);
	const char *items = max == 1 ? "item" : "items";
	char *d = kp__v_printf(c, "must have at most %lld %s", max, items);
	char *m = d ? kp__v_printf(c, "Too many: %zu: %s", n, d) : NULL;
	if (m)
		kp__v_report(c, KP__VP_OPENAPI, KP_FIELD_ERROR_TOO_MANY, r, NULL, m, d);
	kp__free(d);
	kp__free(m);
}

/* kube-openapi's TooFewItems, which the API server reports as
 * field.Invalid with the list's size as the value. */
static void too_few(kp__vctx *c, const kp_validation_rule *r, size_t n)
{
	char *d = kp__v_printf(c, "%s in body should have at least %lld items", vstr_get(&c->path),
			       atoll(r->text));
	char *m = d ? kp__v_printf(c, "Invalid value: %zu: %s", n, d) : NULL;
	if (m)
		kp__v_report(c, KP__VP_OPENAPI, KP_FIELD_ERROR_INVALID, r, NULL, m, d);
	kp__free(d);
	kp__free(m);
}

void kp__v_items(kp__vctx *c, size_t n)
{
	const kp_validation_rule *r = rule_opt(c, "maxItems");
	if (r && (long long)n > atoll(r->text))
		too_many(c, r, n);
	r = rule_opt(c, "minItems");
	if (r && (long long)n < atoll(r->text))
		too_few(c, r, n);
}

void kp__v_props(kp__vctx *c, size_t n)
{
	const kp_validation_rule *r = rule_opt(c, "maxProperties");
	if (r && (long long)n > atoll(r->text))
		too_many(c, r, n);
}

void kp__v_required(kp__vctx *c, const char *name, int present)
{
	if (present)
		return;
	/* name is a property name of the schema (a literal of the walks, the
	 * longest 27 bytes), never input: it fits */
	char suffix[128];
	snprintf(suffix, sizeof(suffix), ".%s", name);
	const kp_validation_rule *r = kp__v_rule(c, suffix, "required");
	kp__v_report(c, KP__VP_OPENAPI, KP_FIELD_ERROR_REQUIRED, r, suffix, "Required value", "");
}

void kp__v_cel(kp__vctx *c, const char *suffix, int index, int result, const char *type_name,
	       const char *value, const char *eval_error)
{
	if (result == KP__CEL_TRUE)
		return;
	char kw[48];
	snprintf(kw, sizeof(kw), "x-kubernetes-validations[%d]", index);
	const kp_validation_rule *r = kp__v_rule(c, suffix, kw);
	if (!r)
		return;
	char *d, *m;
	if (result == KP__CEL_ERROR) {
		d = kp__v_printf(c, "%s evaluating rule: %s", eval_error ? eval_error : "error",
				 r->message);
		m = d ? kp__v_printf(c, "Invalid value: \"%s\": %s", type_name, d) : NULL;
	} else if (value) {
		char *q = kp__v_quote(c, value);
		d = kp__v_printf(c, "%s", r->message);
		m = q && d ? kp__v_printf(c, "Invalid value: %s: %s", q, d) : NULL;
		kp__free(q);
	} else {
		d = kp__v_printf(c, "%s", r->message);
		m = d ? kp__v_printf(c, "Invalid value: %s", d) : NULL;
	}
	if (m)
		kp__v_report(c, KP__VP_CEL, KP_FIELD_ERROR_INVALID, r, suffix, m, d);
	kp__free(d);
	kp__free(m);
}

/* ------------------------------------------------------------------------ */
/* ObjectMeta (k8s.io/apimachinery/pkg/api/validation ValidateObjectMeta)   */

static const char dns1123_subdomain_fmt[] =
	"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
static const char dns1123_subdomain_msg[] =
	"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
	"'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex "
	"used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

static void meta_invalid(kp__vctx *c, const kp_validation_rule *r, const char *field,
			 const char *value, const char *detail)
{
	char *q = kp__v_quote(c, value);
	char *m = q ? kp__v_printf(c, "Invalid value: %s: %s", q, detail) : NULL;
	if (m)
		kp__v_report_at(c, KP__VP_METADATA, KP_FIELD_ERROR_INVALID, r, field, m, detail);
	kp__free(q);
	kp__free(m);
}

/* IsDNS1123Subdomain, with NameIsDNSSubdomain's masking of a trailing '-'
 * in a generateName prefix. */
static void check_subdomain(kp__vctx *c, const char *field, const char *name, int prefix)
{
	const kp_validation_rule *r = kp__v_rule(c, NULL, "dns1123-subdomain");
	size_t len = strlen(name);
	char *masked = NULL;
	const char *check = name;
	if (prefix && len > 1 && name[len - 1] == '-') {
		masked = kp__v_printf(c, "%.*sa", (int)(len - 2), name);
		if (!masked)
			return;
		check = masked;
	}
	if (strlen(check) > 253)
		meta_invalid(c, r, field, name, "must be no more than 253 characters");
	char *anchored = kp__v_printf(c, "^%s$", dns1123_subdomain_fmt);
	if (anchored) {
		int rc = kp__regex_match(anchored, check, strlen(check));
		if (rc < 0)
			vfail(c, rc);
		else if (!rc)
			meta_invalid(c, r, field, name, dns1123_subdomain_msg);
	}
	kp__free(anchored);
	kp__free(masked);
}

/* A JSON string array, as json.Marshal writes []string (ASCII-escaped
 * enough for messages: quotes and backslashes). */
static char *json_strings(kp__vctx *c, const char *const *items, size_t n)
{
	kp__vstr s = { NULL, 0, 0 };
	vstr_puts(c, &s, "[");
	for (size_t i = 0; i < n; i++) {
		if (i)
			vstr_puts(c, &s, ",");
		char *q = kp__v_quote(c, items[i]);
		if (q)
			vstr_puts(c, &s, q);
		kp__free(q);
	}
	vstr_puts(c, &s, "]");
	if (c->failed) {
		kp__free(s.data);
		return NULL;
	}
	return s.data;
}

static void meta_labels(kp__vctx *c, const kp_labels *labels)
{
	const char *field = "metadata.labels";
	for (size_t i = 0; labels->items && i < labels->count; i++) {
		const kp_label *l = &labels->items[i];
		const char *probs[KP_LABEL_MAX_PROBLEMS];
		size_t n = kp_label_key_problems(l->key, probs, KP_LABEL_MAX_PROBLEMS);
		if (n) {
			const kp_validation_rule *r = kp__v_rule(c, ".labels", "label-key");
			for (size_t j = 0; j < n && j < KP_LABEL_MAX_PROBLEMS; j++)
				meta_invalid(c, r, field, l->key, probs[j]);
		}
		n = kp_label_value_problems(l->value, probs, KP_LABEL_MAX_PROBLEMS);
		if (n) {
			const kp_validation_rule *r = kp__v_rule(c, ".labels", "label-value");
			for (size_t j = 0; j < n && j < KP_LABEL_MAX_PROBLEMS; j++)
				meta_invalid(c, r, field, l->value ? l->value : "", probs[j]);
		}
	}
}

static void meta_annotations(kp__vctx *c, const kp_labels *ann)
{
	const char *field = "metadata.annotations";
	uint64_t total = 0;
	for (size_t i = 0; ann->items && i < ann->count; i++) {
		const kp_label *l = &ann->items[i];
		const char *key = l->key ? l->key : "";
		total += strlen(key) + (l->value ? strlen(l->value) : 0);
		char *lower = kp__v_printf(c, "%s", key);
		if (!lower)
			return;
		for (char *p = lower; *p; p++)
			if (*p >= 'A' && *p <= 'Z')
				*p = (char)(*p - 'A' + 'a');
		const char *probs[KP_LABEL_MAX_PROBLEMS];
		size_t n = kp_label_key_problems(lower, probs, KP_LABEL_MAX_PROBLEMS);
		if (n) {
			const kp_validation_rule *r = kp__v_rule(c, ".annotations", "key");
			for (size_t j = 0; j < n && j < KP_LABEL_MAX_PROBLEMS; j++)
				meta_invalid(c, r, field, key, probs[j]);
		}
		kp__free(lower);
	}
	if (total > 262144) {
		const kp_validation_rule *r = kp__v_rule(c, ".annotations", "size");
		kp__v_report_at(c, KP__VP_METADATA, KP_FIELD_ERROR_TOO_LONG, r, field,
				"Too long: may not be more than 262144 bytes",
				"may not be more than 262144 bytes");
	}
}

static void meta_owner_refs(kp__vctx *c, const kp_object_meta *meta)
{
	for (size_t i = 0; meta->owner_references && i < meta->n_owner_references; i++) {
		const kp_owner_reference *o = meta->owner_references[i];
		if (!o)
			continue;
		kp__vmark m0 = kp__v_push(c, "ownerReferences");
		kp__vmark m = kp__v_push_index(c, i);
		const char *av = o->api_version ? o->api_version : "";
		const kp_validation_rule *r;
		if (!*av) {
			r = kp__v_rule(c, ".apiVersion", "required");
			kp__v_report(c, KP__VP_METADATA, KP_FIELD_ERROR_REQUIRED, r, ".apiVersion",
				     "Required value: must not be empty", "must not be empty");
		} else {
			/* schema.ParseGroupVersion, then a non-empty version */
			const char *slash = strchr(av, '/');
			int bad = 0;
			if (strcmp(av, "/") == 0)
				bad = 1;
			else if (slash && strchr(slash + 1, '/'))
				bad = 1;
			else if (slash && !slash[1])
				bad = 1;
			if (bad) {
				r = kp__v_rule(c, ".apiVersion", "group-version");
				kp__vmark m2 = kp__v_push(c, "apiVersion");
				char *q = kp__v_quote(c, av);
				char *msg = q ? kp__v_printf(c, "Invalid value: %s: %s", q, r ? r->message : "")
					      : NULL;
				if (msg && r)
					kp__v_report(c, KP__VP_METADATA, KP_FIELD_ERROR_INVALID, r, NULL, msg,
						     r->message);
				kp__free(q);
				kp__free(msg);
				kp__v_pop(c, m2);
			}
		}
		static const char *const names[] = { "kind", "name", "uid" };
		const char *vals[] = { o->kind, o->name, o->uid };
		for (size_t k = 0; k < 3; k++) {
			if (vals[k] && *vals[k])
				continue;
			char suffix[16];
			snprintf(suffix, sizeof(suffix), ".%s", names[k]);
			r = kp__v_rule(c, suffix, "required");
			kp__v_report(c, KP__VP_METADATA, KP_FIELD_ERROR_REQUIRED, r, suffix,
				     "Required value: must not be empty", "must not be empty");
		}
		kp__v_pop(c, m);
		kp__v_pop(c, m0);
	}
}

static void meta_finalizers(kp__vctx *c, const kp_object_meta *meta)
{
	const char *field = "metadata.finalizers";
	int orphan = 0, foreground = 0;
	for (size_t i = 0; meta->finalizers && i < meta->n_finalizers; i++) {
		const char *f = meta->finalizers[i] ? meta->finalizers[i] : "";
		const char *probs[KP_LABEL_MAX_PROBLEMS];
		size_t n = kp_label_key_problems(f, probs, KP_LABEL_MAX_PROBLEMS);
		if (n) {
			const kp_validation_rule *r = kp__v_rule(c, ".finalizers", "qualified-name");
			for (size_t j = 0; j < n && j < KP_LABEL_MAX_PROBLEMS; j++)
				meta_invalid(c, r, field, f, probs[j]);
		}
		orphan |= strcmp(f, "orphan") == 0;
		foreground |= strcmp(f, "foregroundDeletion") == 0;
	}
	if (orphan && foreground) {
		const kp_validation_rule *r = kp__v_rule(c, ".finalizers", "conflict");
		char *v = json_strings(c, meta->finalizers, meta->n_finalizers);
		char *m = v && r ? kp__v_printf(c, "Invalid value: %s: %s", v, r->message) : NULL;
		if (m)
			kp__v_report_at(c, KP__VP_METADATA, KP_FIELD_ERROR_INVALID, r, field, m,
					r->message);
		kp__free(v);
		kp__free(m);
	}
}

void kp__v_metadata(kp__vctx *c, const kp_object_meta *meta, int namespaced)
{
	static const kp_object_meta empty = KP_OBJECT_META_INIT;
	if (!meta)
		meta = &empty;
	kp__vmark m = kp__v_push(c, "metadata");
	const char *name = meta->name ? meta->name : "";
	const char *gen = meta->generate_name ? meta->generate_name : "";
	if (*gen) {
		kp__vmark g = kp__v_push(c, "generateName");
		check_subdomain(c, "metadata.generateName", gen, 1);
		kp__v_pop(c, g);
	}
	/* The API server generates a name from generateName before validating. */
	if (!*name && !*gen) {
		const kp_validation_rule *r = kp__v_rule(c, ".name", "required");
		if (r)
			kp__v_report(c, KP__VP_METADATA, KP_FIELD_ERROR_REQUIRED, r, ".name",
				     "Required value: name or generateName is required", r->message);
	} else if (*name) {
		kp__vmark nm = kp__v_push(c, "name");
		check_subdomain(c, "metadata.name", name, 0);
		kp__v_pop(c, nm);
	}
	const char *ns = meta->namespace_ ? meta->namespace_ : "";
	if (!namespaced && *ns) {
		const kp_validation_rule *r = kp__v_rule(c, ".namespace", "forbidden");
		if (r)
			kp__v_report(c, KP__VP_METADATA, KP_FIELD_ERROR_FORBIDDEN, r, ".namespace",
				     "Forbidden: not allowed on this type", r->message);
	}
	if (meta->generation < 0) {
		const kp_validation_rule *r = kp__v_rule(c, ".generation", "minimum");
		char *msg = r ? kp__v_printf(c, "Invalid value: %lld: %s", (long long)meta->generation,
					     r->message)
			      : NULL;
		if (msg)
			kp__v_report(c, KP__VP_METADATA, KP_FIELD_ERROR_INVALID, r, ".generation", msg,
				     r->message);
		kp__free(msg);
	}
	meta_labels(c, &meta->labels);
	meta_annotations(c, &meta->annotations);
	meta_owner_refs(c, meta);
	meta_finalizers(c, meta);
	kp__v_pop(c, m);
}

/* ------------------------------------------------------------------------ */
/* API                                                                      */

KP_EXPORT void kp_validate_options_init(kp_validate_options *opts)
{
	if (!opts)
		return;
	kp_validate_options o = KP_VALIDATE_OPTIONS_INIT;
	*opts = o;
}

static int is_blocking(uint32_t type)
{
	return type == KP_FIELD_ERROR_NOT_SUPPORTED || type == KP_FIELD_ERROR_REQUIRED ||
	       type == KP_FIELD_ERROR_TOO_LONG || type == KP_FIELD_ERROR_TOO_MANY;
}

static void free_items(kp__vproblem *items, size_t n)
{
	for (size_t i = 0; items && i < n; i++)
		kp__free(items[i].strings);
	kp__free(items);
}

/* Order by phase (stable), and apply the API server's rule that CEL rules are
 * not evaluated after a blocking problem. */
static int finish(kp__vctx *c, kp_validation *v)
{
	int blocked = 0;
	for (size_t i = 0; i < c->n_items; i++)
		if (c->items[i].phase < KP__VP_CEL && is_blocking(c->items[i].pub.type))
			blocked = 1;
	blocked = blocked && !(c->flags & KP_VALIDATE_ALL_CEL);
	const kp_validation_rule *skipped = NULL;
	if (blocked) {
		/* The notice comes only for kinds whose CRD has CEL rules. */
		skipped = KP__V_FIND(c, "*", "x-kubernetes-validations-skipped");
		if (skipped)
			kp__v_report_at(c, KP__VP_CEL, KP_FIELD_ERROR_INVALID, skipped, "<nil>",
					"Invalid value: null: some validation rules were not checked "
					"because the object was invalid; correct the existing errors "
					"to complete validation",
					skipped->message);
		if (c->failed)
			return c->failed;
	}
	kp__vproblem *out = kp__calloc(c->n_items ? c->n_items : 1, sizeof(*out));
	kp__vproblem *warnings = kp__calloc(c->n_items ? c->n_items : 1, sizeof(*warnings));
	if (!out || !warnings) {
		kp__free(out);
		kp__free(warnings);
		return KP_ENOMEM;
	}
	size_t n = 0, n_warnings = 0;
	for (size_t i = 0; i < c->n_items; i++) {
		kp__vproblem *p = &c->items[i];
		if (p->phase == KP__VP_WARNING && p->strings) {
			warnings[n_warnings++] = *p;
			p->strings = NULL;
		}
	}
	for (int phase = KP__VP_METADATA; phase <= KP__VP_RUNTIME; phase++) {
		for (size_t i = 0; i < c->n_items; i++) {
			kp__vproblem *p = &c->items[i];
			if (p->phase != phase || !p->strings)
				continue;
			if (blocked && phase == KP__VP_CEL && p->pub.rule != (skipped ? skipped->id : NULL)) {
				kp__free(p->strings);
				p->strings = NULL;
				continue;
			}
			out[n++] = *p;
			p->strings = NULL;
		}
	}
	free_items(c->items, c->n_items);
	c->items = NULL;
	c->n_items = 0;
	for (size_t i = 0; i < n; i++)
		out[i].pub.object = v->object;
	for (size_t i = 0; i < n_warnings; i++)
		warnings[i].pub.object = v->object;
	v->items = out;
	v->n = n;
	v->warnings = warnings;
	v->n_warnings = n_warnings;
	return KP_OK;
}

int kp__validate_walk(kp_validation **out, uint32_t kind, const void *object,
		      const void *old_object, const kp_validate_options *opts, kp__v_walk walk,
		      kp_error *err)
{
	if (out)
		*out = NULL;
	if (!out || !object)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	kp_validate_options o = KP_VALIDATE_OPTIONS_INIT;
	if (opts) {
		int rc = KP__READ_SIZED(&o, opts, kp_validate_options, err);
		if (rc)
			return rc;
	}
	const uint32_t known = KP_VALIDATE_NO_RUNTIME | KP_VALIDATE_NO_STATUS |
			       KP_VALIDATE_NO_METADATA | KP_VALIDATE_ALL_CEL;
	if (o.flags & ~known)
		return kp__error(err, KP_EINVAL, "flags", "unknown flags 0x%x", o.flags & ~known);
	if (!walk)
		return kp__error(err, KP_EINVAL, "kind", "no validation for kind %u (%s)", kind,
				 kp_registry_kind_name(o.registry, kind));

	/* Work on copies with this library's struct sizes, so the walks can read
	 * every member of a caller-built object written against older headers. */
	const kp_registry *reg = o.registry;
	void *obj = NULL, *old = NULL;
	int rc = kp_registry_object_copy(&obj, reg, kind, object, err);
	if (rc)
		return rc;
	if (old_object &&
	    (rc = kp_registry_object_copy(&old, reg, kind, old_object, err)) != KP_OK) {
		kp_registry_object_free(reg, kind, obj);
		return rc;
	}

	kp_validation *v = kp__calloc(1, sizeof(*v));
	kp__vctx c;
	memset(&c, 0, sizeof(c));
	c.kind = kind;
	c.flags = o.flags;
	c.wk = o.wellknown;
	c.reg_kind = kp__registry_kind(reg, kind);
	c.info = kp__registry_kind_info(reg, kind);
	c.reg = reg;
	/* Every kind shares the object head: struct_size, kind, api_version, metadata. */
	const kp_object_meta *meta = ((const kp_nodepool *)obj)->metadata;
	if (v)
		v->object = kp__v_printf(&c, "%s/%s", kp_registry_kind_name(reg, kind),
					 meta && meta->name ? meta->name : "");
	if (!v || !v->object) {
		rc = kp__error(err, KP_ENOMEM, NULL, "out of memory");
		goto done;
	}
	c.object = v->object;

	if (!(c.flags & KP_VALIDATE_NO_METADATA) && !old)
		kp__v_metadata(&c, meta, kp_kind_namespaced(kind));
	walk(&c, obj, old);
	if (!c.failed)
		c.failed = finish(&c, v);
	if (c.failed == KP_ENOMEM)
		rc = kp__error(err, KP_ENOMEM, NULL, "out of memory");
	else if (c.failed)
		rc = kp__error(err, KP_EINVAL, NULL, "internal error: validation rule missing for %s",
			       vstr_get(&c.spath));
done:
	free_items(c.items, c.n_items);
	kp__free(c.path.data);
	kp__free(c.spath.data);
	kp_registry_object_free(reg, kind, obj);
	kp_registry_object_free(reg, kind, old);
	if (rc) {
		kp_validation_free(v);
		return rc;
	}
	*out = v;
	return KP_OK;
}

KP_EXPORT void kp_validation_free(kp_validation *validation)
{
	if (!validation)
		return;
	free_items(validation->items, validation->n);
	free_items(validation->warnings, validation->n_warnings);
	kp__free(validation->object);
	kp__free(validation);
}

KP_EXPORT size_t kp_validation_count(const kp_validation *validation)
{
	return validation ? validation->n : 0;
}

KP_EXPORT const kp_field_error *kp_validation_at(const kp_validation *validation, size_t index)
{
	if (!validation || index >= validation->n)
		return NULL;
	return &validation->items[index].pub;
}

KP_EXPORT size_t kp_validation_warning_count(const kp_validation *validation)
{
	return validation ? validation->n_warnings : 0;
}

KP_EXPORT const kp_field_error *kp_validation_warning_at(const kp_validation *validation,
							 size_t index)
{
	if (!validation || index >= validation->n_warnings)
		return NULL;
	return &validation->warnings[index].pub;
}
