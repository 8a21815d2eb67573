/*
 * hashstructure v2 FormatV2 over descriptor tables (see hashstructure.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include <karpenter/objects.h>
#include <karpenter/quantity.h>
#include <karpenter/resources.h>

#include "hashstructure.h"
#include "schema/registry.h"

/* Member access (schema.c's AT/CAT idiom). */
#define CAT(base, off, type) ((type const *)(const void *)((const char *)(base) + (off)))

/* Seconds from 0001-01-01T00:00:00Z to the Unix epoch (Go's unixToInternal). */
#define UNIX_TO_INTERNAL 62135596800ll

void kp__hs_opts_karpenter(kp__hs_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->slices_as_sets = 1;
	o->ignore_zero_value = 1;
	o->zero_nil = 1;
}

/* ------------------------------------------------------------------------ */
/* Primitives                                                               */

static uint64_t fnv_update(uint64_t h, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h *= KP__FNV64_PRIME;
		h ^= p[i];
	}
	return h;
}

uint64_t kp__fnv1_64(const void *data, size_t len)
{
	return fnv_update(KP__FNV64_OFFSET, data, len);
}

static void le64(unsigned char *b, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
}

uint64_t kp__hs_ordered(uint64_t a, uint64_t b)
{
	unsigned char buf[16];
	le64(buf, a);
	le64(buf + 8, b);
	return kp__fnv1_64(buf, sizeof(buf));
}

uint64_t kp__hs_finish(uint64_t h)
{
	unsigned char buf[8];
	le64(buf, h);
	return kp__fnv1_64(buf, sizeof(buf));
}

uint64_t kp__hs_string(const char *s)
{
	return s ? kp__fnv1_64(s, strlen(s)) : KP__FNV64_OFFSET;
}

uint64_t kp__hs_int64(int64_t v)
{
	unsigned char buf[8];
	le64(buf, (uint64_t)v);
	return kp__fnv1_64(buf, sizeof(buf));
}

uint64_t kp__hs_int32(int32_t v)
{
	unsigned char buf[4];
	uint32_t u = (uint32_t)v;
	for (int i = 0; i < 4; i++)
		buf[i] = (unsigned char)(u >> (8 * i));
	return kp__fnv1_64(buf, sizeof(buf));
}

uint64_t kp__hs_bool(int v)
{
	unsigned char b = v ? 1 : 0;
	return kp__fnv1_64(&b, 1);
}

/* time.Time.MarshalBinary of Unix seconds sec and nanoseconds nsec:
 * version, seconds since year 1 (big-endian int64), nanoseconds (int32),
 * zone offset in minutes (int16, -1 = UTC), and for version 2 the offset's
 * seconds (int8). */
static int time_marshal_hash(const kp__hs_opts *o, int64_t unix_s, int32_t nsec, int zero_time,
			     uint64_t *out, kp_error *err)
{
	unsigned char b[16];
	size_t n = 15;
	int16_t off_min;
	int8_t off_sec = 0;
	unsigned char version = 1;
	int64_t sec = zero_time ? 0 : unix_s + UNIX_TO_INTERNAL;
	if (zero_time || o->time_utc) {
		off_min = -1; /* time.Time{} and time.UTC both report Location() == UTC */
	} else {
		int32_t off = o->offset_fn ? o->offset_fn(o->offset_ctx, unix_s) : o->utc_offset_s;
		if (off % 60 != 0) {
			version = 2;
			off_sec = (int8_t)(off % 60);
		}
		off /= 60;
		if (off < -32768 || off == -1 || off > 32767)
			return kp__error(err, KP_ERANGE, NULL,
					 "Time.MarshalBinary: unexpected zone offset");
		off_min = (int16_t)off;
	}
	b[0] = version;
	for (int i = 0; i < 8; i++)
		b[1 + i] = (unsigned char)((uint64_t)sec >> (56 - 8 * i));
	for (int i = 0; i < 4; i++)
		b[9 + i] = (unsigned char)((uint32_t)nsec >> (24 - 8 * i));
	b[13] = (unsigned char)((uint16_t)off_min >> 8);
	b[14] = (unsigned char)(uint16_t)off_min;
	if (version == 2)
		b[n++] = (unsigned char)off_sec;
	*out = kp__fnv1_64(b, n);
	return KP_OK;
}

static void split_ms(int64_t ms, int64_t *sec, int32_t *nsec)
{
	int64_t s = ms / 1000, r = ms % 1000;
	if (r < 0) {
		r += 1000;
		s--;
	}
	*sec = s;
	*nsec = (int32_t)(r * 1000000);
}

int kp__hs_time(const kp__hs_opts *o, int64_t ms, uint64_t *out, kp_error *err)
{
	int64_t sec;
	int32_t nsec;
	split_ms(ms, &sec, &nsec);
	return time_marshal_hash(o, sec, nsec, 0, out, err);
}

/* ------------------------------------------------------------------------ */
/* Zero values (reflect.Value.IsZero)                                        */

static const char *code_name(const kp__enum *e, uint32_t code, int *known)
{
	*known = 0;
	if (!e)
		return "";
	for (size_t i = 0; i < e->n; i++)
		if (e->entries[i].code == code) {
			*known = 1;
			if (e->entries[i].name[0])
				return e->entries[i].name;
		}
	if (code == 0)
		*known = 1; /* no value: Go's "" (tables need not list it) */
	return "";
}

/* An ENUM field's text: as written, else the name of its code (a caller
 * may fill only the code). */
static const char *enum_text(const kp__field *f, const void *s)
{
	const char *v = *CAT(s, f->off, const char *);
	int known;
	if (v || f->kind != KP__FK_ENUM)
		return v;
	uint32_t code = *CAT(s, f->aux, uint32_t);
	return code ? code_name(f->en, code, &known) : NULL;
}

static int duration_present(const kp_api_duration *d)
{
	return d->text != NULL || d->parsed;
}

/* Whether field f of s (NULL: the zero struct) is Go's zero value. */
static int field_is_zero(const kp__type *t, const kp__field *f, const void *s);

static int fk_string_is_zero(const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	int ptr = (f->flags & KP__FF_GO_PTR) != 0;
	const char *v = enum_text(f, s);
	return ptr ? v == NULL : (v == NULL || !*v);
}

static int fk_code_is_zero(const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	int known;
	const char *name = code_name(f->en, *CAT(s, f->off, uint32_t), &known);
	return known && !*name;
}

static int fk_u32_is_zero(const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	return *CAT(s, f->off, uint32_t) == 0;
}

static int fk_int32_is_zero(const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	return *CAT(s, f->off, int32_t) == 0;
}

static int fk_int64_is_zero(const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	return *CAT(s, f->off, int64_t) == 0;
}

static int fk_opt_is_zero(const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	return *CAT(s, f->aux, uint32_t) == 0;
}

static int fk_duration_is_zero(const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	int ptr = (f->flags & KP__FF_GO_PTR) != 0;
	const kp_api_duration *d = CAT(s, f->off, kp_api_duration);
	if (!duration_present(d))
		return 1;
	return !ptr && d->parsed && d->ns == 0;
}

static int fk_nillable_duration_is_zero(const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	/* NillableDuration{Duration: nil, Raw: nil}: absent or "Never". */
	const kp_api_duration *d = CAT(s, f->off, kp_api_duration);
	return !duration_present(d) || (d->parsed && d->never);
}

static int fk_int_or_string_is_zero(const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	int ptr = (f->flags & KP__FF_GO_PTR) != 0;
	const kp_int_or_string *v = CAT(s, f->off, kp_int_or_string);
	if (v->type == KP_INT_OR_STRING_UNSET)
		return 1;
	return !ptr && v->type == KP_INT_OR_STRING_INT && v->int_value == 0;
/* nil; NULL items with a count is malformed, and reported by hashing. */
}

static int fk_slice_is_zero(const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	return *CAT(s, f->off, const void *) == NULL && *CAT(s, f->aux, size_t) == 0;
}

static int fk_map_is_zero(const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	return CAT(s, f->off, kp_labels)->items == NULL && CAT(s, f->off, kp_labels)->count == 0;
}

static int fk_resources_is_zero(const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	return CAT(s, f->off, kp_resource_list)->items == NULL &&
	       CAT(s, f->off, kp_resource_list)->count == 0;
}

static int fk_struct_is_zero(const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	int ptr = (f->flags & KP__FF_GO_PTR) != 0;
	const void *v = *CAT(s, f->off, const void *);
	return ptr ? v == NULL : kp__hs_struct_is_zero(f->elem, v);
}

static int fk_none_is_zero(const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	(void)f;
	(void)s;
/* TAG, IGNORED: not modelled, hence zero */
	return 1;
}

int kp__hs_struct_is_zero(const kp__type *t, const void *s)
{
	if (!s)
		return 1;
	if (t->tag_off && *CAT(s, t->tag_off, uint32_t))
		return 0;
	for (size_t i = 0; i < t->n_fields; i++)
		if (!field_is_zero(t, &t->fields[i], s))
			return 0;
	return 1;
}

/* ------------------------------------------------------------------------ */
/* Values                                                                   */

/* A nil pointer: the zero value of its element type with ZeroNil (hashed as
 * zero_hash), the int 0 without. */
static uint64_t nil_ptr(const kp__hs_opts *o, uint64_t zero_hash)
{
	return o->zero_nil ? zero_hash : kp__hs_int64(0);
}

/* Field hashing of a struct in progress: h = finish(h ^ ordered(name, v)). */
static uint64_t add_field(uint64_t h, const char *name, uint64_t vh)
{
	return kp__hs_finish(h ^ kp__hs_ordered(kp__hs_string(name), vh));
}

/* A slice of n element hashes combined as hashstructure does. */
typedef struct slice_acc {
	uint64_t h;
	int set;     /* hash:"set" */
	int unorder; /* set or SlicesAsSets */
} slice_acc;

static void slice_init(slice_acc *a, const kp__hs_opts *o, const kp__field *f)
{
	a->h = 0;
	a->set = (f->flags & KP__FF_HASH_SET) != 0;
	a->unorder = a->set || o->slices_as_sets;
}

static void slice_add(slice_acc *a, uint64_t e)
{
	a->h = a->unorder ? a->h ^ e : kp__hs_ordered(a->h, e);
}

static uint64_t slice_done(const slice_acc *a)
{
	return a->set ? kp__hs_finish(a->h) : a->h;
}

/* metav1.Time{Time: t}; ms 0 is the zero time.Time. */
static int meta_time(const kp__hs_opts *o, int64_t ms, uint64_t *out, kp_error *err)
{
	uint64_t h = kp__hs_string("Time"), th;
	int64_t sec;
	int32_t nsec;
	split_ms(ms, &sec, &nsec);
	/* time.Time is zero for 0001-01-01T00:00:00Z held in UTC (no location). */
	int zero = ms == 0 || (o->time_utc && sec + UNIX_TO_INTERNAL == 0 && nsec == 0);
	if (zero && o->ignore_zero_value) {
		*out = h;
		return KP_OK;
	}
	int rc = time_marshal_hash(o, sec, nsec, ms == 0, &th, err);
	if (rc)
		return rc;
	*out = add_field(h, "Time", th);
	return KP_OK;
}

/* metav1.Duration{Duration: ns}. */
static uint64_t meta_duration(const kp__hs_opts *o, int64_t ns)
{
	uint64_t h = kp__hs_string("Duration");
	if (ns != 0 || !o->ignore_zero_value)
		h = add_field(h, "Duration", kp__hs_int64(ns));
	return h;
}

/* resource.Quantity: only its exported Format field is visible. */
static uint64_t quantity_hash(const kp__hs_opts *o, const kp_quantity *q)
{
	static const char *const formats[] = { "DecimalSI", "BinarySI", "DecimalExponent" };
	const char *fmt = q->format < 3 ? formats[q->format] : "";
	uint64_t h = kp__hs_string("Quantity");
	if (*fmt || !o->ignore_zero_value)
		h = add_field(h, "Format", kp__hs_string(fmt));
	return h;
}

/* intstr.IntOrString{Type int64, IntVal int32, StrVal string}. */
static uint64_t int_or_string_hash(const kp__hs_opts *o, const kp_int_or_string *v)
{
	int64_t type = v->type == KP_INT_OR_STRING_STRING ? 1 : 0;
	int32_t iv = v->type == KP_INT_OR_STRING_INT ? v->int_value : 0;
	const char *sv = v->type == KP_INT_OR_STRING_STRING && v->str_value ? v->str_value : "";
	uint64_t h = kp__hs_string("IntOrString");
	if (type || !o->ignore_zero_value)
		h = add_field(h, "Type", kp__hs_int64(type));
	if (iv || !o->ignore_zero_value)
		h = add_field(h, "IntVal", kp__hs_int32(iv));
	if (*sv || !o->ignore_zero_value)
		h = add_field(h, "StrVal", kp__hs_string(sv));
	return h;
}

static int hash_struct(const kp__hs_opts *o, const kp__type *t, const void *s, uint64_t *out,
		       kp_error *err);

static int bad_items(kp_error *err)
{
	return kp__error(err, KP_EINVAL, NULL, "NULL items with a non-zero count");
}

/* The value hash of field f of s (NULL or a struct lacking the field: zero). */
static int field_hash(const kp__hs_opts *o, const kp__type *t, const kp__field *f, const void *s,
		uint64_t *out, kp_error *err);

static int fk_string_hash(const kp__hs_opts *o, const kp__type *t, const kp__field *f,
		const void *s, uint64_t *out, kp_error *err)
{
	(void)err;
	int present = s && kp__schema_has_field(t, s, f);
	int ptr = (f->flags & KP__FF_GO_PTR) != 0;
	const char *v = present ? enum_text(f, s) : NULL;
	*out = (ptr && !v) ? nil_ptr(o, kp__hs_string("")) : kp__hs_string(v ? v : "");
	return KP_OK;
}

static int fk_code_hash(const kp__hs_opts *o, const kp__type *t, const kp__field *f, const void *s,
		uint64_t *out, kp_error *err)
{
	(void)o;
	int present = s && kp__schema_has_field(t, s, f);
	int known = 1;
	const char *name = present ? code_name(f->en, *CAT(s, f->off, uint32_t), &known) : "";
	if (!known)
		return kp__error(err, KP_EINVAL, NULL, "unknown code %u",
				 (unsigned)*CAT(s, f->off, uint32_t));
	*out = kp__hs_string(name);
	return KP_OK;
}

static int fk_bool_hash(const kp__hs_opts *o, const kp__type *t, const kp__field *f, const void *s,
		uint64_t *out, kp_error *err)
{
	(void)o;
	(void)err;
	int present = s && kp__schema_has_field(t, s, f);
	*out = kp__hs_bool(present && *CAT(s, f->off, uint32_t));
	return KP_OK;
}

static int fk_int32_hash(const kp__hs_opts *o, const kp__type *t, const kp__field *f,
		const void *s, uint64_t *out, kp_error *err)
{
	(void)o;
	(void)err;
	int present = s && kp__schema_has_field(t, s, f);
	*out = kp__hs_int32(present ? *CAT(s, f->off, int32_t) : 0);
	return KP_OK;
}

static int fk_int64_hash(const kp__hs_opts *o, const kp__type *t, const kp__field *f,
		const void *s, uint64_t *out, kp_error *err)
{
	(void)o;
	(void)err;
	int present = s && kp__schema_has_field(t, s, f);
	*out = kp__hs_int64(present ? *CAT(s, f->off, int64_t) : 0);
	return KP_OK;
}

static int fk_opt_bool_hash(const kp__hs_opts *o, const kp__type *t, const kp__field *f,
		const void *s, uint64_t *out, kp_error *err)
{
	(void)err;
	int present = s && kp__schema_has_field(t, s, f);
	*out = present && *CAT(s, f->aux, uint32_t) ? kp__hs_bool(*CAT(s, f->off, uint32_t))
						    : nil_ptr(o, kp__hs_bool(0));
	return KP_OK;
}

static int fk_opt_int32_hash(const kp__hs_opts *o, const kp__type *t, const kp__field *f,
		const void *s, uint64_t *out, kp_error *err)
{
	(void)err;
	int present = s && kp__schema_has_field(t, s, f);
	*out = present && *CAT(s, f->aux, uint32_t) ? kp__hs_int32(*CAT(s, f->off, int32_t))
						    : nil_ptr(o, kp__hs_int32(0));
	return KP_OK;
}

static int fk_opt_int64_hash(const kp__hs_opts *o, const kp__type *t, const kp__field *f,
		const void *s, uint64_t *out, kp_error *err)
{
	(void)err;
	int present = s && kp__schema_has_field(t, s, f);
	*out = present && *CAT(s, f->aux, uint32_t) ? kp__hs_int64(*CAT(s, f->off, int64_t))
						    : nil_ptr(o, kp__hs_int64(0));
	return KP_OK;
}

static int fk_time_hash(const kp__hs_opts *o, const kp__type *t, const kp__field *f, const void *s,
		uint64_t *out, kp_error *err)
{
	int present = s && kp__schema_has_field(t, s, f);
	int ptr = (f->flags & KP__FF_GO_PTR) != 0;
	int rc = KP_OK;
	int64_t ms = present ? *CAT(s, f->off, int64_t) : 0;
	if (ms == 0 && ptr) {
		uint64_t zero = 0;
		rc = meta_time(o, 0, &zero, err);
		*out = nil_ptr(o, zero);
		return rc;
	}
	return meta_time(o, ms, out, err);
}

static int fk_duration_hash(const kp__hs_opts *o, const kp__type *t, const kp__field *f,
		const void *s, uint64_t *out, kp_error *err)
{
	int present = s && kp__schema_has_field(t, s, f);
	int ptr = (f->flags & KP__FF_GO_PTR) != 0;
	const kp_api_duration *d = present ? CAT(s, f->off, kp_api_duration) : NULL;
	if (!d || !duration_present(d)) {
		*out = ptr ? nil_ptr(o, meta_duration(o, 0)) : meta_duration(o, 0);
		return KP_OK;
	}
	if (!d->parsed)
		return kp__error(err, KP_EINVAL, NULL, "not a duration: \"%s\"", d->text);
	*out = meta_duration(o, d->ns);
	return KP_OK;
}

static int fk_nillable_duration_hash(const kp__hs_opts *o, const kp__type *t, const kp__field *f,
		const void *s, uint64_t *out, kp_error *err)
{
	int present = s && kp__schema_has_field(t, s, f);
	/* NillableDuration{*time.Duration (embedded: "Duration"), Raw
	 * hash:"ignore"}. */
	const kp_api_duration *d = present ? CAT(s, f->off, kp_api_duration) : NULL;
	uint64_t h = kp__hs_string("NillableDuration");
	if (d && duration_present(d) && !d->parsed)
		return kp__error(err, KP_EINVAL, NULL, "not a duration: \"%s\"", d->text);
	if (d && d->parsed && !d->never)
		h = add_field(h, "Duration", kp__hs_int64(d->ns));
	else if (!o->ignore_zero_value)
		h = add_field(h, "Duration", nil_ptr(o, kp__hs_int64(0)));
	*out = h;
	return KP_OK;
}

static int fk_int_or_string_hash(const kp__hs_opts *o, const kp__type *t, const kp__field *f,
		const void *s, uint64_t *out, kp_error *err)
{
	(void)err;
	int present = s && kp__schema_has_field(t, s, f);
	int ptr = (f->flags & KP__FF_GO_PTR) != 0;
	kp_int_or_string zero = { KP_INT_OR_STRING_UNSET, 0, NULL };
	const kp_int_or_string *v = present ? CAT(s, f->off, kp_int_or_string) : &zero;
	if (v->type == KP_INT_OR_STRING_UNSET && ptr)
		*out = nil_ptr(o, int_or_string_hash(o, &zero));
	else
		*out = int_or_string_hash(o, v);
	return KP_OK;
}

static int fk_strings_hash(const kp__hs_opts *o, const kp__type *t, const kp__field *f,
		const void *s, uint64_t *out, kp_error *err)
{
	int present = s && kp__schema_has_field(t, s, f);
	const char *const *v = present ? *CAT(s, f->off, const char *const *) : NULL;
	size_t n = present ? *CAT(s, f->aux, size_t) : 0;
	slice_acc a;
	if (!v && n)
		return bad_items(err);
	slice_init(&a, o, f);
	for (size_t i = 0; i < n; i++)
		slice_add(&a, kp__hs_string(v[i] ? v[i] : ""));
	*out = slice_done(&a);
	return KP_OK;
}

static int fk_map_hash(const kp__hs_opts *o, const kp__type *t, const kp__field *f, const void *s,
		uint64_t *out, kp_error *err)
{
	(void)o;
	int present = s && kp__schema_has_field(t, s, f);
	const kp_labels *m = present ? CAT(s, f->off, kp_labels) : NULL;
	uint64_t h = 0;
	if (m && !m->items && m->count)
		return bad_items(err);
	for (size_t i = 0; m && m->items && i < m->count; i++)
		h ^= kp__hs_ordered(kp__hs_string(m->items[i].key ? m->items[i].key : ""),
				    kp__hs_string(m->items[i].value ? m->items[i].value : ""));
	*out = kp__hs_finish(h);
	return KP_OK;
}

static int fk_resources_hash(const kp__hs_opts *o, const kp__type *t, const kp__field *f,
		const void *s, uint64_t *out, kp_error *err)
{
	int present = s && kp__schema_has_field(t, s, f);
	const kp_resource_list *m = present ? CAT(s, f->off, kp_resource_list) : NULL;
	uint64_t h = 0;
	if (m && !m->items && m->count)
		return bad_items(err);
	for (size_t i = 0; m && m->items && i < m->count; i++)
		h ^= kp__hs_ordered(kp__hs_string(m->items[i].name ? m->items[i].name : ""),
				    quantity_hash(o, &m->items[i].quantity));
	*out = kp__hs_finish(h);
	return KP_OK;
}

static int fk_struct_hash(const kp__hs_opts *o, const kp__type *t, const kp__field *f,
		const void *s, uint64_t *out, kp_error *err)
{
	int present = s && kp__schema_has_field(t, s, f);
	int ptr = (f->flags & KP__FF_GO_PTR) != 0;
	int rc = KP_OK;
	const void *v = present ? *CAT(s, f->off, const void *) : NULL;
	if (!v && ptr) {
		uint64_t zero;
		rc = hash_struct(o, f->elem, NULL, &zero, err);
		*out = nil_ptr(o, zero);
		return rc;
	}
	return hash_struct(o, f->elem, v, out, err);
}

static int fk_list_hash(const kp__hs_opts *o, const kp__type *t, const kp__field *f, const void *s,
		uint64_t *out, kp_error *err)
{
	int present = s && kp__schema_has_field(t, s, f);
	int rc = KP_OK;
	const void *const *v = present ? *CAT(s, f->off, const void *const *) : NULL;
	size_t n = present ? *CAT(s, f->aux, size_t) : 0;
	slice_acc a;
	if (!v && n)
		return bad_items(err);
	slice_init(&a, o, f);
	for (size_t i = 0; v && i < n; i++) {
		uint64_t e;
		rc = hash_struct(o, f->elem, v[i], &e, err);
		if (!v[i]) /* a nil element of a []*T */
			e = nil_ptr(o, e);
		if (rc) {
			char idx[32];
			snprintf(idx, sizeof(idx), "[%zu]", i);
			kp__error_prefix(err, idx);
			return rc;
		}
		slice_add(&a, e);
	}
	*out = slice_done(&a);
	return KP_OK;
}

static int fk_values_hash(const kp__hs_opts *o, const kp__type *t, const kp__field *f,
		const void *s, uint64_t *out, kp_error *err)
{
	int present = s && kp__schema_has_field(t, s, f);
	int rc = KP_OK;
	const char *v = present ? *CAT(s, f->off, const char *) : NULL;
	size_t n = present ? *CAT(s, f->aux, size_t) : 0;
	slice_acc a;
	if (!v && n)
		return bad_items(err);
	slice_init(&a, o, f);
	for (size_t i = 0; v && i < n; i++) {
		uint64_t e;
		rc = hash_struct(o, f->elem, v + i * f->elem->size, &e, err);
		if (rc) {
			char idx[32];
			snprintf(idx, sizeof(idx), "[%zu]", i);
			kp__error_prefix(err, idx);
			return rc;
		}
		slice_add(&a, e);
	}
	*out = slice_done(&a);
	return KP_OK;
}

static int fk_none_hash(const kp__hs_opts *o, const kp__type *t, const kp__field *f,
		const void *s, uint64_t *out, kp_error *err)
{
	(void)o;
	(void)t;
	(void)out;
	return kp__error(err, KP_ENOTSUP, NULL, "field %s cannot be hashed", f->go);
}

static int hash_struct(const kp__hs_opts *o, const kp__type *t, const void *s, uint64_t *out,
		       kp_error *err)
{
	if (s && t->sized) {
		int rc = kp__check_struct_size(s, t->first_size, t->size, t->go, err);
		if (rc)
			return rc;
	}
	uint64_t h = kp__hs_string(t->go);
	for (size_t i = 0; i < t->n_fields; i++) {
		const kp__field *f = &t->fields[i];
		uint64_t vh;
		if (f->flags & KP__FF_HASH_IGNORE)
			continue;
		if (f->kind == KP__FK_TAG || f->kind == KP__FK_IGNORED)
			continue; /* not modelled */
		if (f->kind == KP__FK_API_VERSION || f->kind == KP__FK_KIND)
			return kp__error(err, KP_ENOTSUP, NULL,
					 "%s: hashing a whole top-level object (TypeMeta) is not supported",
					 t->go);
		if (o->ignore_zero_value && field_is_zero(t, f, s))
			continue;
		int rc = field_hash(o, t, f, s, &vh, err);
		if (rc) {
			kp__error_prefix(err, f->json); /* "taints" + "[0].effect" */
			return rc;
		}
		h = add_field(h, f->go, vh);
	}
	*out = h;
	return KP_OK;
}

int kp__hs_struct(const kp__hs_opts *o, const kp__type *t, const void *s, uint64_t *out,
		  kp_error *err)
{
	if (!o || !t || !out)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	uint64_t h;
	int rc = hash_struct(o, t, s, &h, err);
	if (rc == KP_OK)
		*out = h;
	return rc;
}

/* map[string]metav1.Duration: map rules, each value a metav1.Duration. */
static int fk_duration_map_is_zero(const kp__type *t, const kp__field *f, const void *s)
{
	(void)t;
	const kp_duration_map *m = CAT(s, f->off, kp_duration_map);
	return m->keys == NULL && m->n == 0;
}

static int fk_duration_map_hash(const kp__hs_opts *o, const kp__type *t, const kp__field *f,
				const void *s, uint64_t *out, kp_error *err)
{
	const kp_duration_map *m = s && kp__schema_has_field(t, s, f) ? CAT(s, f->off, kp_duration_map)
								      : NULL;
	uint64_t h = 0;
	if (m && (!m->keys || !m->values) && m->n)
		return bad_items(err);
	for (size_t i = 0; m && m->keys && i < m->n; i++) {
		const kp_api_duration *d = &m->values[i];
		if (!d->parsed)
			return kp__error(err, KP_EINVAL, NULL, "not a duration: \"%s\"",
					 d->text ? d->text : "");
		h ^= kp__hs_ordered(kp__hs_string(m->keys[i] ? m->keys[i] : ""),
				    meta_duration(o, d->ns));
	}
	*out = kp__hs_finish(h);
	return KP_OK;
}

/* ------------------------------------------------------------------------ */
/* The field kinds: one row each                                            */

/* How hashstructure sees a field of one kind: reflect.Value.IsZero and the
 * value hash (lib/schema/schema.c has the kind's other operations). */
typedef struct hs_ops {
	int (*is_zero)(const kp__type *t, const kp__field *f, const void *s);
	int (*hash)(const kp__hs_opts *o, const kp__type *t, const kp__field *f, const void *s,
		    uint64_t *out, kp_error *err);
} hs_ops;

static const hs_ops hs_table[] = {
	[KP__FK_STRING] = { fk_string_is_zero, fk_string_hash },
	[KP__FK_ENUM] = { fk_string_is_zero, fk_string_hash },
	[KP__FK_CODE] = { fk_code_is_zero, fk_code_hash },
	[KP__FK_BOOL] = { fk_u32_is_zero, fk_bool_hash },
	[KP__FK_OPT_BOOL] = { fk_opt_is_zero, fk_opt_bool_hash },
	[KP__FK_INT32] = { fk_int32_is_zero, fk_int32_hash },
	[KP__FK_INT64] = { fk_int64_is_zero, fk_int64_hash },
	[KP__FK_OPT_INT32] = { fk_opt_is_zero, fk_opt_int32_hash },
	[KP__FK_OPT_INT64] = { fk_opt_is_zero, fk_opt_int64_hash },
	[KP__FK_TIME] = { fk_int64_is_zero, fk_time_hash },
	[KP__FK_DURATION] = { fk_duration_is_zero, fk_duration_hash },
	[KP__FK_NILLABLE_DURATION] = { fk_nillable_duration_is_zero, fk_nillable_duration_hash },
	[KP__FK_INT_OR_STRING] = { fk_int_or_string_is_zero, fk_int_or_string_hash },
	[KP__FK_STRINGS] = { fk_slice_is_zero, fk_strings_hash },
	[KP__FK_MAP] = { fk_map_is_zero, fk_map_hash },
	[KP__FK_RESOURCES] = { fk_resources_is_zero, fk_resources_hash },
	[KP__FK_STRUCT] = { fk_struct_is_zero, fk_struct_hash },
	[KP__FK_LIST] = { fk_slice_is_zero, fk_list_hash },
	[KP__FK_VALUES] = { fk_slice_is_zero, fk_values_hash },
	[KP__FK_TAG] = { fk_none_is_zero, fk_none_hash },
	[KP__FK_IGNORED] = { fk_none_is_zero, fk_none_hash },
	[KP__FK_API_VERSION] = { fk_string_is_zero, fk_none_hash },
	[KP__FK_DURATION_MAP] = { fk_duration_map_is_zero, fk_duration_map_hash },
	[KP__FK_JSON] = { fk_string_is_zero, fk_string_hash },
	[KP__FK_KIND] = { fk_u32_is_zero, fk_none_hash },
};

/* The row of a field's kind (a kind outside the table: not modelled). */
static const hs_ops *hs_of(const kp__field *f)
{
	static const hs_ops none = { fk_none_is_zero, fk_none_hash };
	if (f->kind >= sizeof(hs_table) / sizeof(hs_table[0]) || !hs_table[f->kind].hash)
		return &none;
	return &hs_table[f->kind];
}

static int field_is_zero(const kp__type *t, const kp__field *f, const void *s)
{
	if (!s || !kp__schema_has_field(t, s, f))
		return 1;
	return hs_of(f)->is_zero(t, f, s);
}

static int field_hash(const kp__hs_opts *o, const kp__type *t, const kp__field *f, const void *s,
		uint64_t *out, kp_error *err)
{
	if ((f->flags & KP__FF_HASH_STRING) && f->kind != KP__FK_STRING && f->kind != KP__FK_ENUM)
		return kp__error(err, KP_ENOTSUP, NULL,
				 "hash:\"string\" is only supported on text fields");
	return hs_of(f)->hash(o, t, f, s, out, err);
}
