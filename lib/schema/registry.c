/*
 * Provider kinds (karpenter/sys/schema.h): public type descriptions compiled
 * into the engine's private kp__type form, and the registry handle that
 * holds the compiled kinds beside the core ones.
 *
 * A description is read record by record with the sizes the provider was
 * built with (kp_schema_type::struct_size, ::field_size): bytes it lacks
 * read as zero, bytes beyond ours must be zero (KP_EVERSION otherwise).
 * Everything is checked before the engine sees it (offsets and sizes within
 * the C struct, element types present, known kinds and flags), and every
 * name is copied, so the engine never reads provider memory after
 * registration.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1
#include <stdatomic.h>
#include <string.h>

#include <karpenter/objects.h>
#include <karpenter/sys/schema.h>

#include "common/sized.h"
#include "schema/metadata_rules.h"
#include "schema/registry.h"

/* First released sizes of the experimental records (outside SemVer, so not
 * in abi/first-sizes.txt; they still are read through the one reader). */
#define FIRST_SCHEMA_TYPE KP__SIZE_THROUGH(kp_schema_type, n_fields)
#define FIRST_SCHEMA_FIELD KP__SIZE_THROUGH(kp_schema_field, tag)
#define FIRST_KIND_SPEC KP__SIZE_THROUGH(kp_kind_spec, reserved)
#define FIRST_CRD_RULE KP__SIZE_THROUGH(kp_crd_rule, message)
#define FIRST_KIND_OPS KP__SIZE_THROUGH(kp_kind_ops, destroy)

struct kp_schema {
	const kp__type *root;
	/* every compiled type, with the public description it came from */
	kp__type **types;
	const kp_schema_type **from;
	size_t n_types;
	size_t cap_types;
	size_t cap_from;
	/* every other block this schema owns (field tables, names, enums) */
	void **blocks;
	size_t n_blocks;
	size_t cap_blocks;
};

/* ---- compiling descriptions ----------------------------------------------- */

static void *own(kp_schema *s, void *p)
{
	if (!p)
		return NULL;
	if (kp__grow((void **)&s->blocks, &s->cap_blocks, s->n_blocks + 1, sizeof(*s->blocks))) {
		kp__free(p);
		return NULL;
	}
	s->blocks[s->n_blocks++] = p;
	return p;
}

static const char *own_str(kp_schema *s, const char *text)
{
	return own(s, kp__strdup(text));
}

/* Read record i of a table of records of size `rec` into *dst (of size
 * `ours`, first released size `first`): KP_EVERSION for a record size below
 * the first size or unknown non-zero bytes. */
static int read_record(void *dst, size_t ours, const void *table, size_t i, size_t rec,
		       size_t first, const char *what, kp_error *err)
{
	if (rec < first)
		return kp__error(err, KP_EVERSION, NULL,
				 "%s: record size %zu is below the smallest known (%zu)", what, rec,
				 first);
	const unsigned char *p = (const unsigned char *)table + i * rec;
	memset(dst, 0, ours);
	memcpy(dst, p, rec < ours ? rec : ours);
	for (size_t k = ours; k < rec; k++)
		if (p[k])
			return kp__error(err, KP_EVERSION, NULL,
					 "%s: record has unknown non-zero bytes from offset %zu "
					 "(built against a newer library)", what, ours);
	return KP_OK;
}

typedef struct cctx {
	kp_schema *s;
	kp_error *err;
	kp__buf path; /* "EC2NodeClassSpec.blockDeviceMappings" for messages */
} cctx;

static int cerr(cctx *c, int code, const char *what)
{
	kp__buf_putc(&c->path, '\0');
	return kp__error(c->err, code, NULL, "%s: %s", c->path.data ? c->path.data : "", what);
}

static const kp__type *compile_type(cctx *c, const kp_schema_type *pub);

static int compile_enum(cctx *c, const kp_schema_field *pf, kp__field *f)
{
	if (!pf->values || !pf->n_values)
		return cerr(c, KP_EINVAL, "an ENUM or CODE field needs values");
	kp__enum *e = own(c->s, kp__calloc(1, sizeof(*e)));
	kp__enum_entry *en = own(c->s, kp__calloc(pf->n_values, sizeof(*en)));
	if (!e || !en)
		return cerr(c, KP_ENOMEM, "out of memory");
	for (size_t i = 0; i < pf->n_values; i++) {
		if (!pf->values[i].name || !pf->values[i].code)
			return cerr(c, KP_EINVAL, "an enum value needs a name and a non-zero code");
		en[i].name = own_str(c->s, pf->values[i].name);
		en[i].code = pf->values[i].code;
		if (!en[i].name)
			return cerr(c, KP_ENOMEM, "out of memory");
	}
	e->entries = en;
	e->n = pf->n_values;
	f->en = e;
	return KP_OK;
}

static int compile_elem(cctx *c, const kp_schema_field *pf, kp__field *f)
{
	if (pf->elem) {
		f->elem = compile_type(c, pf->elem);
		return f->elem ? KP_OK : c->err ? c->err->code : KP_EINVAL;
	}
	if (pf->kind == KP_FIELD_VALUES || !pf->core_type)
		return cerr(c, KP_EINVAL, "a STRUCT, LIST or VALUES field needs an element type");
	f->elem = kp__core_type(pf->core_type);
	if (!f->elem)
		return cerr(c, KP_ENOTSUP, "unknown core type");
	return KP_OK;
}

static int compile_field(cctx *c, const kp_schema_type *t, const kp_schema_field *pf,
			 kp__field *f)
{
	size_t main, aux;
	if (pf->kind > UINT16_MAX || kp__fk_sizes(pf->kind, &main, &aux) < 0)
		return cerr(c, KP_ENOTSUP, "unknown field kind");
	if (!pf->json || !*pf->json || !pf->go || !*pf->go)
		return cerr(c, KP_EINVAL, "a field needs a JSON name and a Go name");
	if (pf->flags & ~(uint32_t)(KP_FIELD_F_HASH_IGNORE | KP_FIELD_F_HASH_STRING |
				    KP_FIELD_F_HASH_SET | KP_FIELD_F_GO_PTR))
		return cerr(c, KP_ENOTSUP, "unknown field flags");
	if (main && (pf->offset > t->c_size || main > t->c_size - pf->offset))
		return cerr(c, KP_EINVAL, "offset beyond the C struct");
	if (aux && (pf->aux_offset > t->c_size || aux > t->c_size - pf->aux_offset))
		return cerr(c, KP_EINVAL, "aux_offset beyond the C struct");
	if (t->sized && main && pf->offset < sizeof(uint32_t))
		return cerr(c, KP_EINVAL, "offset overlaps struct_size");
	/* a count, has-flag or enum code left at aux_offset 0 would be
	 * written over struct_size */
	if (t->sized && aux && pf->aux_offset < sizeof(uint32_t))
		return cerr(c, KP_EINVAL, "aux_offset overlaps struct_size");
	if ((pf->kind == KP_FIELD_TAG || pf->tag) && !t->tag_offset)
		return cerr(c, KP_EINVAL, "a tag needs the type's tag_offset");
	memset(f, 0, sizeof(*f));
	f->json = own_str(c->s, pf->json);
	f->go = own_str(c->s, pf->go);
	if (!f->json || !f->go)
		return cerr(c, KP_ENOMEM, "out of memory");
	f->kind = (uint16_t)pf->kind; /* KP_FIELD_* and KP__FK_* are one numbering */
	f->flags = (uint16_t)pf->flags;
	f->tag = pf->tag;
	f->off = pf->offset;
	f->aux = pf->aux_offset;
	if (pf->kind == KP_FIELD_ENUM || pf->kind == KP_FIELD_CODE)
		return compile_enum(c, pf, f);
	if (pf->kind == KP_FIELD_STRUCT || pf->kind == KP_FIELD_LIST || pf->kind == KP_FIELD_VALUES)
		return compile_elem(c, pf, f);
	return KP_OK;
}

static int compile_fields(cctx *c, const kp_schema_type *t, kp__type *out)
{
	kp__field *fields = own(c->s, kp__calloc(t->n_fields ? t->n_fields : 1, sizeof(*fields)));
	if (!fields)
		return cerr(c, KP_ENOMEM, "out of memory");
	out->fields = fields;
	out->n_fields = t->n_fields;
	size_t mark = c->path.len;
	for (size_t i = 0; i < t->n_fields; i++) {
		kp_schema_field pf;
		kp__buf_printf(&c->path, "[%zu]", i);
		int rc = read_record(&pf, sizeof(pf), t->fields, i, t->field_size, FIRST_SCHEMA_FIELD,
				     "kp_schema_field", c->err);
		if (rc == KP_OK && pf.json) {
			c->path.len = mark;
			kp__buf_printf(&c->path, ".%s", pf.json);
		}
		if (rc == KP_OK)
			rc = compile_field(c, t, &pf, &fields[i]);
		if (rc)
			return rc;
		for (size_t k = 0; k < i; k++)
			if (fields[k].kind != KP__FK_TAG && fields[i].kind != KP__FK_TAG &&
			    !strcmp(fields[k].json, fields[i].json))
				return cerr(c, KP_EINVAL, "duplicate JSON name");
		c->path.len = mark;
	}
	return KP_OK;
}

static const kp__type *compile_type(cctx *c, const kp_schema_type *pub)
{
	kp_schema *s = c->s;
	for (size_t i = 0; i < s->n_types; i++)
		if (s->from[i] == pub)
			return s->types[i];
	kp_schema_type t;
	if (kp__read_sized(&t, sizeof(t), pub, FIRST_SCHEMA_TYPE, "kp_schema_type", c->err))
		return NULL;
	size_t mark = c->path.len;
	kp__buf_printf(&c->path, "%s%s", mark ? " -> " : "", t.go ? t.go : "(unnamed type)");
	int rc = KP_OK;
	if (!t.go || !*t.go)
		rc = cerr(c, KP_EINVAL, "a type needs a Go name");
	else if (!t.c_size || (t.sized && t.c_size < sizeof(uint32_t)))
		rc = cerr(c, KP_EINVAL, "c_size is too small");
	else if (t.sized > 1 || t.reserved)
		rc = cerr(c, KP_EINVAL, "sized is 0 or 1 and reserved is zero");
	else if (t.first_c_size > t.c_size || (t.sized && t.first_c_size &&
					       t.first_c_size < sizeof(uint32_t)))
		rc = cerr(c, KP_EINVAL, "first_c_size is outside 4..c_size");
	else if (t.tag_offset && (t.tag_offset > t.c_size ||
				  t.c_size - t.tag_offset < sizeof(uint32_t)))
		rc = cerr(c, KP_EINVAL, "tag_offset beyond the C struct");
	else if (t.n_fields && !t.fields)
		rc = cerr(c, KP_EINVAL, "NULL fields with a count");
	if (rc)
		return NULL;
	kp__type *out = own(s, kp__calloc(1, sizeof(*out)));
	const char *go = own_str(s, t.go);
	if (!out || !go ||
	    kp__grow((void **)&s->types, &s->cap_types, s->n_types + 1, sizeof(*s->types)) ||
	    kp__grow((void **)&s->from, &s->cap_from, s->n_types + 1, sizeof(*s->from))) {
		cerr(c, KP_ENOMEM, "out of memory");
		return NULL;
	}
	out->go = go;
	out->size = t.c_size;
	out->first_size = t.sized && t.first_c_size ? t.first_c_size : t.c_size;
	out->sized = t.sized ? 1 : 0;
	out->tag_off = t.tag_offset;
	s->types[s->n_types] = out;
	s->from[s->n_types] = pub;
	s->n_types++; /* before the fields: a type may refer to itself */
	if (compile_fields(c, &t, out))
		return NULL;
	c->path.len = mark;
	return out;
}

KP_EXPORT void kp_schema_free(kp_schema *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_blocks; i++)
		kp__free(s->blocks[i]);
	kp__free(s->blocks);
	kp__free(s->types);
	kp__free(s->from);
	kp__free(s);
}

KP_EXPORT int kp_schema_compile(kp_schema **out, const kp_schema_type *type, kp_error *err)
{
	if (out)
		*out = NULL;
	if (!out || !type)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	kp_schema *s = kp__calloc(1, sizeof(*s));
	if (!s)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	kp_error local;
	cctx c = { s, err ? err : &local, { 0 } };
	s->root = compile_type(&c, type);
	kp__buf_dispose(&c.path);
	if (!s->root) {
		kp_schema_free(s);
		return c.err->code ? c.err->code : KP_EINVAL;
	}
	*out = s;
	return KP_OK;
}

const kp__type *kp__schema_root(const kp_schema *s)
{
	return s ? s->root : NULL;
}

/* ---- the registry ------------------------------------------------------ */

struct kp_registry {
	/* holders: the creator and every decode result or builder that keeps
	 * it; atomic, so that threads decoding with one registry may share it */
	atomic_uint refs;
	kp__reg_kind *kinds;
	size_t n;
	size_t cap;
	kp__reg_conversion *conversions; /* kp_registry_add_conversion, in order */
	size_t n_conversions;
	kp__reg_validator *validators; /* kp_registry_add_validator, in order */
	size_t n_validators;
	size_t cap_validators;
};

KP_EXPORT int kp_registry_new(kp_registry **out, kp_error *err)
{
	if (out)
		*out = NULL;
	if (!out)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	kp_registry *r = kp__calloc(1, sizeof(*r));
	if (!r)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	atomic_init(&r->refs, 1);
	*out = r;
	return KP_OK;
}

static void rule_set_dispose(kp__rule_set *rs)
{
	for (size_t i = 0; i < rs->n_strs; i++)
		kp__free(rs->strs[i]);
	kp__free(rs->strs);
	kp__free(rs->rules);
}

static void kind_dispose(kp__reg_kind *k)
{
	if (k->ops.destroy && k->self)
		k->ops.destroy(k->self);
	kp_schema_free(k->schema);
	rule_set_dispose(&k->rules);
	kp__free(k->group);
	kp__free(k->api_version);
	kp__free(k->name);
	kp__free(k->hash_version);
}

kp_registry *kp__registry_ref(kp_registry *r)
{
	if (r)
		atomic_fetch_add_explicit(&r->refs, 1, memory_order_relaxed);
	return r;
}

KP_EXPORT void kp_registry_free(kp_registry *r)
{
	if (!r || atomic_fetch_sub_explicit(&r->refs, 1, memory_order_acq_rel) != 1)
		return;
	for (size_t i = 0; i < r->n; i++)
		kind_dispose(&r->kinds[i]);
	kp__free(r->kinds);
	for (size_t i = 0; i < r->n_conversions; i++) {
		kp__reg_conversion *c = &r->conversions[i];
		if (c->ops.destroy)
			c->ops.destroy(c->self);
		kp__free(c->name);
		kp__free(c->node_class_group);
		kp__free(c->node_class_kind);
	}
	kp__free(r->conversions);
	for (size_t i = 0; i < r->n_validators; i++) {
		kp__reg_validator *v = &r->validators[i];
		if (v->ops.destroy)
			v->ops.destroy(v->self);
		rule_set_dispose(&v->rules);
		kp__free(v->name);
	}
	kp__free(r->validators);
	kp__free(r);
}

/* The registered kind `kind`, or NULL. */
const kp__reg_kind *kp__registry_kind(const kp_registry *r, uint32_t kind)
{
	if (!r || kind < KP_KIND_FIRST_REGISTERED || kind - KP_KIND_FIRST_REGISTERED >= r->n)
		return NULL;
	return &r->kinds[kind - KP_KIND_FIRST_REGISTERED];
}

const kp__kind_info *kp__registry_kind_info(const kp_registry *r, uint32_t kind)
{
	if (kind < KP_KIND_FIRST_REGISTERED)
		return kp__kind_info_get(kind);
	const kp__reg_kind *k = kp__registry_kind(r, kind);
	return k ? &k->info : NULL;
}

KP_EXPORT uint32_t kp_registry_lookup(const kp_registry *r, const char *api_version,
				      const char *kind)
{
	uint32_t k = kp_kind_lookup(api_version, kind);
	if (k != KP_KIND_UNKNOWN || !r || !api_version || !kind)
		return k;
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->kinds[i].name, kind) && !strcmp(r->kinds[i].api_version, api_version))
			return r->kinds[i].info.kind;
	return KP_KIND_UNKNOWN;
}

KP_EXPORT const char *kp_registry_kind_name(const kp_registry *r, uint32_t kind)
{
	const kp__kind_info *k = kp__registry_kind_info(r, kind);
	return k ? k->name : "";
}

KP_EXPORT const char *kp_registry_kind_api_version(const kp_registry *r, uint32_t kind)
{
	const kp__kind_info *k = kp__registry_kind_info(r, kind);
	return k ? k->api_version : "";
}

KP_EXPORT const char *kp_registry_kind_hash_version(const kp_registry *r, uint32_t kind)
{
	const kp__reg_kind *k = kp__registry_kind(r, kind);
	return k && k->hash_version ? k->hash_version : "";
}

/* The object head of every kind: struct_size, kind, apiVersion, metadata. */
static int check_head(const kp__type *t, kp_error *err)
{
	static const struct {
		uint16_t kind;
		size_t off;
		const char *json;
	} head[] = {
		{ KP__FK_API_VERSION, offsetof(kp_nodepool, api_version), "apiVersion" },
		{ KP__FK_KIND, offsetof(kp_nodepool, kind), "kind" },
		{ KP__FK_STRUCT, offsetof(kp_nodepool, metadata), "metadata" },
	};
	if (!t->sized)
		return kp__error(err, KP_EINVAL, "type", "%s: a kind's type must be sized", t->go);
	for (size_t i = 0; i < sizeof(head) / sizeof(head[0]); i++) {
		const kp__field *f = NULL;
		for (size_t k = 0; k < t->n_fields && !f; k++)
			if (!strcmp(t->fields[k].json, head[i].json))
				f = &t->fields[k];
		if (!f || f->kind != head[i].kind || f->off != head[i].off ||
		    (f->kind == KP__FK_STRUCT && f->elem != kp__core_type(KP_CORE_TYPE_OBJECT_META)))
			return kp__error(err, KP_EINVAL, "type",
					 "%s: a kind's type starts with the object head (%s at "
					 "offset %zu)", t->go, head[i].json, head[i].off);
	}
	return KP_OK;
}

static int read_ops(kp__reg_kind *k, const kp_kind_ops *ops, kp_error *err)
{
	if (!ops)
		return KP_OK;
	int rc = kp__read_sized(&k->ops, sizeof(k->ops), ops, FIRST_KIND_OPS, "kp_kind_ops", err);
	if (rc)
		return rc;
	if (k->ops.abi_major != KP_ABI_MAJOR)
		return kp__error(err, KP_EVERSION, "abi_major",
				 "kp_kind_ops: built for ABI %u, this library is ABI %u",
				 (unsigned)k->ops.abi_major, (unsigned)KP_ABI_MAJOR);
	if (k->ops.flags || k->ops.reserved)
		return kp__error(err, KP_EINVAL, "flags", "kp_kind_ops: unknown flags");
	return KP_OK;
}

static const char *rule_str(kp__rule_set *k, char *s)
{
	if (s)
		k->strs[k->n_strs++] = s;
	return s;
}

/* One row of the inventory: id "<Kind>:<path>:<keyword>", texts copied. */
static int add_rule(kp__rule_set *k, const char *kind, uint32_t source, uint32_t flags,
		    const char *path, const char *keyword, const char *text, const char *message)
{
	kp__buf b = { 0 };
	kp__buf_printf(&b, "%s:%s:%s", kind, path, keyword);
	kp_validation_rule *v = &k->rules[k->n_rules];
	v->struct_size = sizeof(*v);
	v->source = source;
	v->flags = flags;
	v->id = rule_str(k, kp__buf_take(&b, NULL));
	v->path = rule_str(k, kp__strdup(path));
	v->keyword = rule_str(k, kp__strdup(keyword));
	v->text = rule_str(k, kp__strdup(text ? text : ""));
	v->message = rule_str(k, kp__strdup(message ? message : ""));
	if (!v->id || !v->path || !v->keyword || !v->text || !v->message)
		return KP_ENOMEM;
	k->n_rules++;
	return KP_OK;
}

static int has_rule(const kp__rule_set *k, const char *path, const char *keyword)
{
	for (size_t i = 0; i < k->n_rules; i++)
		if (strcmp(k->rules[i].path, path) == 0 && strcmp(k->rules[i].keyword, keyword) == 0)
			return 1;
	return 0;
}

static const struct {
	const char *path, *keyword, *text, *message;
} metadata_rules[] = {
#define MD_ROW(PATH, KW, TEXT, MSG) { PATH, KW, TEXT, MSG },
	KP__METADATA_RULES(MD_ROW)
#undef MD_ROW
};
#define N_METADATA_RULES (sizeof(metadata_rules) / sizeof(metadata_rules[0]))

/* Copy a provider's rule table (read with its record size) into a rule
 * set with room for `extra` more rows. */
static int copy_rules(kp__rule_set *k, const char *kind, const kp_crd_rule *rules, size_t n,
		      uint32_t rule_size, size_t extra, kp_error *err)
{
	if (n && !rules)
		return kp__error(err, KP_EINVAL, "rules", "%s: NULL rules with a count", kind);
	if (n > SIZE_MAX / 8 - extra)
		return kp__error(err, KP_EINVAL, "rules", "%s: too many rules", kind);
	size_t cap = n + extra;
	k->rules = kp__calloc(cap ? cap : 1, sizeof(*k->rules));
	k->strs = kp__calloc(cap ? cap : 1, 5 * sizeof(*k->strs));
	if (!k->rules || !k->strs)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	for (size_t i = 0; i < n; i++) {
		kp_crd_rule r;
		int rc = read_record(&r, sizeof(r), rules, i, rule_size, FIRST_CRD_RULE,
				     "kp_crd_rule", err);
		if (rc)
			return rc;
		if (!r.path || !r.keyword || r.source < KP_RULE_SOURCE_OPENAPI ||
		    r.source > KP_RULE_SOURCE_DECODE)
			return kp__error(err, KP_EINVAL, "rules", "%s: rule %zu: path, keyword and a "
					 "known source are required", kind, i);
		if (add_rule(k, kind, r.source, r.flags, r.path, r.keyword, r.text, r.message))
			return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	return KP_OK;
}

/* Copy the kind's rule inventory, then add the API server's metadata rows
 * it does not have (every registered kind is cluster-scoped and has
 * ObjectMeta: its metadata problems carry the core's messages). */
static int fill_rules(kp__reg_kind *k, const kp_kind_spec *sp, kp_error *err)
{
	kp__rule_set *rs = &k->rules;
	int rc = copy_rules(rs, sp->kind, sp->rules, sp->n_rules, sp->rule_size, N_METADATA_RULES,
			    err);
	if (rc)
		return rc;
	for (size_t i = 0; i < N_METADATA_RULES; i++) {
		if (has_rule(rs, metadata_rules[i].path, metadata_rules[i].keyword))
			continue;
		if (add_rule(rs, sp->kind, KP_RULE_SOURCE_METADATA, 0, metadata_rules[i].path,
			     metadata_rules[i].keyword, metadata_rules[i].text,
			     metadata_rules[i].message))
			return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	k->info.rules = rs->rules;
	k->info.n_rules = rs->n_rules;
	return KP_OK;
}

static int fill_kind(kp__reg_kind *k, const kp_kind_spec *sp, kp_error *err)
{
	int rc = kp_schema_compile(&k->schema, sp->type, err);
	if (rc)
		return rc;
	const kp__type *root = k->schema->root;
	if ((rc = check_head(root, err)) != KP_OK)
		return rc;
	if (sp->hash_root) {
		for (size_t i = 0; i < root->n_fields && !k->hash_field; i++)
			if (!strcmp(root->fields[i].json, sp->hash_root) &&
			    root->fields[i].kind == KP__FK_STRUCT)
				k->hash_field = &root->fields[i];
		if (!k->hash_field)
			return kp__error(err, KP_EINVAL, "hash_root",
					 "%s: hash_root \"%s\" is not a struct member", sp->kind,
					 sp->hash_root);
	}
	kp__buf b = { 0 };
	kp__buf_printf(&b, "%s%s%s", sp->group, *sp->group ? "/" : "", sp->version);
	k->api_version = kp__buf_take(&b, NULL);
	k->name = kp__strdup(sp->kind);
	k->group = kp__strdup(sp->group);
	k->hash_version = sp->hash_version ? kp__strdup(sp->hash_version) : NULL;
	if (!k->api_version || !k->name || !k->group || (sp->hash_version && !k->hash_version))
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	k->flags = sp->flags;
	k->info.name = k->name;
	k->info.api_version = k->api_version;
	k->info.karpenter = (sp->flags & KP_KIND_F_CRD) ? 1 : 0;
	k->info.type = root;
	return fill_rules(k, sp, err);
}

KP_EXPORT int kp_registry_add_kind(kp_registry *r, const kp_kind_spec *spec,
				   const kp_kind_ops *ops, void *self, uint32_t *out_kind,
				   kp_error *err)
{
	if (out_kind)
		*out_kind = KP_KIND_UNKNOWN;
	if (!r || !spec)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	kp_kind_spec sp;
	int rc = kp__read_sized(&sp, sizeof(sp), spec, FIRST_KIND_SPEC, "kp_kind_spec", err);
	if (rc)
		return rc;
	if (!sp.group || !sp.version || !*sp.version || !sp.kind || !*sp.kind || !sp.type)
		return kp__error(err, KP_EINVAL, NULL,
				 "kp_kind_spec: group, version, kind and type are required");
	if (sp.reserved)
		return kp__error(err, KP_EINVAL, "reserved", "kp_kind_spec: reserved is not zero");
	if (sp.flags & ~(uint32_t)KP_KIND_F_CRD)
		return kp__error(err, KP_EINVAL, "flags", "kp_kind_spec: unknown flags 0x%x",
				 (unsigned)sp.flags);
	if (r->n >= UINT32_MAX - KP_KIND_FIRST_REGISTERED)
		return kp__error(err, KP_ERANGE, NULL, "too many kinds");
	kp__reg_kind k;
	memset(&k, 0, sizeof(k));
	if ((rc = read_ops(&k, ops, err)) == KP_OK)
		rc = fill_kind(&k, &sp, err);
	if (rc == KP_OK && kp_registry_lookup(r, k.api_version, k.name) != KP_KIND_UNKNOWN)
		rc = kp__error(err, KP_EINVAL, "kind", "%s %s already registered", k.api_version,
			       k.name);
	if (rc == KP_OK && kp__grow((void **)&r->kinds, &r->cap, r->n + 1, sizeof(*r->kinds)))
		rc = kp__error(err, KP_ENOMEM, NULL, "out of memory");
	if (rc) {
		k.ops.destroy = NULL; /* self stays the caller's on failure */
		kind_dispose(&k);
		return rc;
	}
	k.self = self;
	k.info.kind = KP_KIND_FIRST_REGISTERED + (uint32_t)r->n;
	for (size_t i = 0; i < k.rules.n_rules; i++)
		k.rules.rules[i].kind = k.info.kind;
	r->kinds[r->n++] = k;
	if (out_kind)
		*out_kind = k.info.kind;
	return KP_OK;
}

/* ---- objects of any kind -------------------------------------------------- */

KP_EXPORT int kp_registry_object_copy(void **out, const kp_registry *r, uint32_t kind,
				      const void *object, kp_error *err)
{
	if (kind < KP_KIND_FIRST_REGISTERED)
		return kp_object_copy(out, kind, object, err);
	if (!out || !object)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	*out = NULL;
	const kp__kind_info *k = kp__registry_kind_info(r, kind);
	if (!k)
		return kp__error(err, KP_EINVAL, NULL, "unknown kind %u", (unsigned)kind);
	void *copy = NULL;
	int rc = kp__schema_copy(k->type, &copy, object, err);
	if (rc)
		return rc;
	((uint32_t *)copy)[1] = kind;
	*out = copy;
	return KP_OK;
}

KP_EXPORT void kp_registry_object_free(const kp_registry *r, uint32_t kind, void *object)
{
	if (kind < KP_KIND_FIRST_REGISTERED) {
		kp_object_free(kind, object);
		return;
	}
	const kp__kind_info *k = kp__registry_kind_info(r, kind);
	if (k)
		kp__schema_free(k->type, object);
}

KP_EXPORT int kp_registry_object_equal(const kp_registry *r, uint32_t kind, const void *a,
				       const void *b)
{
	const kp__kind_info *k = kp__registry_kind_info(r, kind);
	if (!k || !a || !b)
		return 0;
	return kp__schema_equal(k->type, a, b);
}

static const kp__field *field_named(const kp__type *t, const char *json, uint16_t kind)
{
	for (size_t i = 0; t && i < t->n_fields; i++)
		if (t->fields[i].kind == kind && !strcmp(t->fields[i].json, json))
			return &t->fields[i];
	return NULL;
}

int kp__registry_conditions(const kp_registry *r, uint32_t kind, const void *obj,
			    kp_condition *const **conds, size_t *n)
{
	if (conds)
		*conds = NULL;
	if (n)
		*n = 0;
	const kp__reg_kind *k = kp__registry_kind(r, kind);
	if (!k)
		return 0;
	const kp__field *st = field_named(k->info.type, "status", KP__FK_STRUCT);
	const kp__field *cf = st ? field_named(st->elem, "conditions", KP__FK_LIST) : NULL;
	if (!cf || cf->elem != kp__core_type(KP_CORE_TYPE_CONDITION))
		return 0;
	if (!obj || !conds || !n || !kp__schema_has_field(k->info.type, obj, st))
		return 1;
	const void *status = *(void *const *)(const void *)((const char *)obj + st->off);
	if (!status || !kp__schema_has_field(st->elem, status, cf))
		return 1;
	*conds = *(kp_condition *const *const *)(const void *)((const char *)status + cf->off);
	*n = *conds ? *(const size_t *)(const void *)((const char *)status + cf->aux) : 0;
	return 1;
}

/* ---- conversions --------------------------------------------------------- */

KP_EXPORT int kp_registry_add_conversion(kp_registry *r, const kp_conversion_ops *ops, void *self,
					 kp_error *err)
{
	if (!r || !ops)
		return kp__error(err, KP_EINVAL, NULL, "kp_registry_add_conversion: NULL argument");
	kp__reg_conversion c;
	memset(&c, 0, sizeof(c));
	int rc = kp__read_sized(&c.ops, sizeof(c.ops), ops,
				KP__SIZE_THROUGH(kp_conversion_ops, destroy), "kp_conversion_ops", err);
	if (rc)
		return rc;
	if (c.ops.abi_major != KP_ABI_MAJOR)
		return kp__error(err, KP_EVERSION, "abi_major",
				 "kp_conversion_ops: built for ABI %u, this library is ABI %u",
				 (unsigned)c.ops.abi_major, (unsigned)KP_ABI_MAJOR);
	const uint32_t known = KP_CONVERSION_F_NODE_CLASS | KP_CONVERSION_F_KUBELET;
	if ((c.ops.flags & ~known) || c.ops.reserved)
		return kp__error(err, KP_EINVAL, "flags", "kp_conversion_ops: unknown flags");
	if (!c.ops.convert)
		return kp__error(err, KP_EINVAL, "convert", "kp_conversion_ops: convert is NULL");
	if ((c.ops.flags & (KP_CONVERSION_F_NODE_CLASS | KP_CONVERSION_F_KUBELET)) &&
	    (!c.ops.node_class_group || !c.ops.node_class_kind))
		return kp__error(err, KP_EINVAL, "node_class_kind",
				 "kp_conversion_ops: a node class conversion needs its group and kind");
	c.name = kp__strdup(c.ops.name ? c.ops.name : "");
	c.node_class_group = c.ops.node_class_group ? kp__strdup(c.ops.node_class_group) : NULL;
	c.node_class_kind = c.ops.node_class_kind ? kp__strdup(c.ops.node_class_kind) : NULL;
	kp__reg_conversion *grown =
		kp__realloc(r->conversions, (r->n_conversions + 1) * sizeof(*grown));
	if (!c.name || (c.ops.node_class_group && !c.node_class_group) ||
	    (c.ops.node_class_kind && !c.node_class_kind) || !grown) {
		kp__free(c.name);
		kp__free(c.node_class_group);
		kp__free(c.node_class_kind);
		if (grown)
			r->conversions = grown;
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	/* The copies own the names: the provider's may go away. */
	c.ops.name = c.name;
	c.ops.node_class_group = c.node_class_group;
	c.ops.node_class_kind = c.node_class_kind;
	c.self = self;
	r->conversions = grown;
	r->conversions[r->n_conversions++] = c;
	return KP_OK;
}

size_t kp__registry_conversion_count(const kp_registry *r)
{
	return r ? r->n_conversions : 0;
}

const kp__reg_conversion *kp__registry_conversion(const kp_registry *r, size_t i)
{
	return r && i < r->n_conversions ? &r->conversions[i] : NULL;
}

KP_EXPORT int kp_conversion_sink_emit(kp_conversion_sink *sink, const char *json)
{
	return sink && json ? sink->emit(sink->ctx, json) : KP_EINVAL;
}

KP_EXPORT int kp_conversion_sink_report(kp_conversion_sink *sink, const char *line)
{
	return sink && line ? sink->report(sink->ctx, line) : KP_EINVAL;
}

/* ---- validators (kp_registry_add_validator is lib/validation's: it checks
 * the rows against the kind's inventory) ---------------------------------- */

int kp__rule_set_copy(kp__rule_set *rs, const char *kind, const kp_crd_rule *rules, size_t n,
		      uint32_t rule_size, kp_error *err)
{
	return copy_rules(rs, kind, rules, n, rule_size, 0, err);
}

void kp__rule_set_dispose(kp__rule_set *rs)
{
	rule_set_dispose(rs);
	memset(rs, 0, sizeof(*rs));
}

int kp__registry_append_validator(kp_registry *r, const kp__reg_validator *v)
{
	if (kp__grow((void **)&r->validators, &r->cap_validators, r->n_validators + 1,
		     sizeof(*r->validators)))
		return KP_ENOMEM;
	r->validators[r->n_validators++] = *v;
	return KP_OK;
}

const kp__reg_validator *kp__registry_validator(const kp_registry *r, uint32_t kind, size_t i)
{
	for (size_t j = 0; r && j < r->n_validators; j++)
		if (r->validators[j].kind == kind && i-- == 0)
			return &r->validators[j];
	return NULL;
}
