/*
 * The hashstructure v2 (FormatV2) engine over descriptor tables: FNV-1 and
 * its combinators, the worked example and time example of
 * nodepool-vectors.yaml, the map/slice/pointer/zero-value rules on a
 * synthetic type. (The EC2NodeClass vectors of vectors.yaml run from outside
 * the core, through the provider-kind API: tests/aws.)
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "hash/hashstructure.h"
#include "hash_test.h"
#include "kp_test.h"

/* ------------------------------------------------------------------------ */
/* FNV and combinators                                                      */

START_TEST(fnv1_64)
{
	ck_assert(kp__fnv1_64("", 0) == UINT64_C(14695981039346656037));
	ck_assert(kp__hs_string("") == UINT64_C(14695981039346656037));
	ck_assert(kp__hs_string(NULL) == UINT64_C(14695981039346656037));
	/* Published FNV-1 (not FNV-1a) test vectors. */
	ck_assert(kp__hs_string("a") == UINT64_C(0xaf63bd4c8601b7be));
	ck_assert(kp__hs_string("foobar") == UINT64_C(0x340d8765a4dda9c2));
	ck_assert(kp__hs_string("NodeClaimTemplate") == UINT64_C(17307646073972311821));
}
END_TEST

START_TEST(combinators)
{
	unsigned char b[16] = { 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0 };
	ck_assert(kp__hs_ordered(1, 2) == kp__fnv1_64(b, 16));
	ck_assert(kp__hs_finish(1) == kp__fnv1_64(b, 8));
	ck_assert(kp__hs_int64(1) == kp__fnv1_64(b, 8));
	ck_assert(kp__hs_int32(1) == kp__fnv1_64(b, 4));
	ck_assert(kp__hs_bool(1) == kp__fnv1_64(b, 1));
	ck_assert(kp__hs_bool(0) == kp__fnv1_64(b + 1, 1));
	/* An empty map: finish(0). */
	ck_assert(kp__hs_finish(0) == UINT64_C(12161962213042174405));
	/* Signed values are written two's complement. */
	unsigned char m[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	ck_assert(kp__hs_int64(-1) == kp__fnv1_64(m, 8));
	ck_assert(kp__hs_int32(-1) == kp__fnv1_64(m, 4));
}
END_TEST

/* The worked example of nodepool-vectors.yaml, step by step:
 * 'T: start fnv("T")' and 'T: after field F (value hash V)'. */
START_TEST(worked_example)
{
	kp__node *root = ht_load(HT_NODEPOOL_VECTORS);
	const kp__node *steps = ht_get(ht_get(root, "worked_example"), "steps");
	ck_assert_ptr_nonnull(steps);
	ck_assert_uint_gt(steps->n, 0);
	uint64_t h = 0;
	for (size_t i = 0; i < steps->n; i++) {
		const char *what = steps->items[i]->items[0]->text;
		uint64_t want = ht_u64(steps->items[i]->items[1]->text);
		const char *start = strstr(what, ": start fnv(\"");
		const char *after = strstr(what, ": after field ");
		if (start) {
			char name[128];
			size_t n = (size_t)(start - what);
			ck_assert_uint_lt(n, sizeof(name));
			memcpy(name, what, n);
			name[n] = '\0';
			h = kp__hs_string(name);
		} else {
			ck_assert_msg(after != NULL, "step %s", what);
			char field[128];
			unsigned long long vh;
			ck_assert_int_eq(sscanf(after, ": after field %127s (value hash %llu)", field, &vh),
					 2);
			h = kp__hs_finish(h ^ kp__hs_ordered(kp__hs_string(field), vh));
		}
		ck_assert_msg(h == want, "%s: got %" PRIu64, what, h);
	}
	kp__node_free(root);
}
END_TEST

static size_t unhex(const char *hex, unsigned char *out, size_t cap)
{
	size_t n = strlen(hex) / 2;
	ck_assert_uint_le(n, cap);
	for (size_t i = 0; i < n; i++) {
		unsigned v;
		ck_assert_int_eq(sscanf(hex + 2 * i, "%2x", &v), 1);
		out[i] = (unsigned char)v;
	}
	return n;
}

/* A struct with one *metav1.Time field, to reach the metav1.Time hash. */
typedef struct timed {
	uint32_t struct_size;
	uint32_t reserved;
	int64_t t_ms;
} timed;
static const kp__field t_timed_f[] = {
	{ .json = "t", .go = "T", .kind = KP__FK_TIME, .flags = KP__FF_GO_PTR,
	  .off = offsetof(timed, t_ms) },
};
static const kp__type t_timed = { "Timed", sizeof(timed), sizeof(timed), 1, 0, t_timed_f, 1 };

START_TEST(time_example)
{
	kp__node *root = ht_load(HT_NODEPOOL_VECTORS);
	const kp__node *ex = ht_get(ht_get(root, "worked_example"), "time_example");
	ck_assert_ptr_nonnull(ex);
	int64_t ms = 0;
	ck_assert_int_eq(kp__time_parse_rfc3339(ht_str(ex, "timeAdded"), &ms), KP_OK);
	unsigned char b[32];
	size_t n;
	uint64_t h = 0;
	kp__hs_opts o;
	kp__hs_opts_karpenter(&o);

	/* Local zone at offset 0 (the expected_hash convention). */
	n = unhex(ht_str(ex, "marshal_binary_hex_local_zone_utc_offset_0"), b, sizeof(b));
	ck_assert_int_eq(kp__hs_time(&o, ms, &h, NULL), KP_OK);
	ck_assert(h == kp__fnv1_64(b, n));
	ck_assert(h == ht_u64(ht_str(ex, "fnv_of_that")));

	/* metav1.Time{Time} as a struct field value. */
	timed v = { sizeof(timed), 0, ms };
	uint64_t s = 0;
	ck_assert_int_eq(kp__hs_struct(&o, &t_timed, &v, &s, NULL), KP_OK);
	uint64_t meta = ht_u64(ht_str(ex, "metav1_Time_struct_hash"));
	ck_assert(s == kp__hs_finish(kp__hs_string("Timed") ^ kp__hs_ordered(kp__hs_string("T"), meta)));

	/* time.UTC location: offset -1. */
	o.time_utc = 1;
	n = unhex(ht_str(ex, "marshal_binary_hex_time_UTC_location"), b, sizeof(b));
	ck_assert_int_eq(kp__hs_time(&o, ms, &h, NULL), KP_OK);
	ck_assert(h == kp__fnv1_64(b, n));

	/* +05:30 and a zone with seconds (MarshalBinary version 2). */
	o.time_utc = 0;
	o.utc_offset_s = 19800;
	ck_assert_int_eq(kp__hs_time(&o, ms, &h, NULL), KP_OK);
	unsigned char k[15] = { 1, 0, 0, 0, 0x0e, 0xdd, 0x23, 0xf7, 0x80, 0, 0, 0, 0, 0x01, 0x4a };
	ck_assert(h == kp__fnv1_64(k, 15));
	o.utc_offset_s = -(3600 + 61);
	ck_assert_int_eq(kp__hs_time(&o, ms, &h, NULL), KP_OK);
	unsigned char v2[16] = { 2, 0, 0, 0, 0x0e, 0xdd, 0x23, 0xf7, 0x80, 0, 0, 0, 0, 0xff, 0xc3,
				 0xff };
	ck_assert(h == kp__fnv1_64(v2, 16));
	/* Milliseconds become nanoseconds; times before 1970 floor. */
	o.utc_offset_s = 0;
	ck_assert_int_eq(kp__hs_time(&o, -1, &h, NULL), KP_OK);
	/* 62135596799 s and 999000000 ns since year 1 */
	unsigned char neg[15] = { 1, 0, 0, 0, 0x0e, 0x77, 0x91, 0xf6, 0xff, 0x3b, 0x8b, 0x87, 0xc0,
				  0, 0 };
	ck_assert(h == kp__fnv1_64(neg, 15));
	/* Offsets Go refuses. */
	o.utc_offset_s = -60;
	ck_assert_int_eq(kp__hs_time(&o, ms, &h, NULL), KP_ERANGE);
	o.utc_offset_s = 32768 * 60;
	ck_assert_int_eq(kp__hs_time(&o, ms, &h, NULL), KP_ERANGE);
	kp__node_free(root);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Rules on a synthetic type                                                */

typedef struct tinner {
	uint32_t struct_size;
	uint32_t reserved;
	const char *a;
	const char *ign; /* hash:"ignore" */
} tinner;

typedef struct touter {
	uint32_t struct_size;
	uint32_t flag;
	int32_t i32;
	uint32_t has_p32;
	int32_t p32;
	uint32_t code;
	const char *s;
	const char *ps;
	const char *const *list;
	size_t n_list;
	const char *const *set;
	size_t n_set;
	kp_labels map;
	tinner *inner_value;
	tinner *inner_ptr;
	tinner **items;
	size_t n_items;
	const char *ignored;
	kp_api_duration d_ptr;
	kp_api_duration d_val;
	kp_api_duration nd;
	const char *en;
	uint32_t en_code;
	uint32_t reserved;
} touter;

static const kp__enum_entry colour_e[] = { { "", 0 }, { "Red", 1 } };
static const kp__enum colour = { colour_e, 2 };

#define TF(k, m, a, j, g, e, fl) \
	{ .json = (j), .go = (g), .kind = (k), .flags = (fl), .off = offsetof(S, m), .aux = (a), \
	  .elem = (e) }
#define S tinner
static const kp__field t_inner_f[] = {
	TF(KP__FK_STRING, a, 0, "a", "A", NULL, 0),
	TF(KP__FK_STRING, ign, 0, "ign", "Ign", NULL, KP__FF_HASH_IGNORE),
};
#undef S
static const kp__type t_inner = { "Inner", sizeof(tinner), sizeof(tinner), 1, 0, t_inner_f, 2 };
#define S touter
static const kp__field t_outer_f[] = {
	TF(KP__FK_BOOL, flag, 0, "flag", "Flag", NULL, 0),
	TF(KP__FK_INT32, i32, 0, "i32", "I32", NULL, 0),
	TF(KP__FK_OPT_INT32, p32, offsetof(touter, has_p32), "p32", "P32", NULL, 0),
	{ .json = "code", .go = "Code", .kind = KP__FK_CODE, .off = offsetof(touter, code),
	  .en = &colour },
	TF(KP__FK_STRING, s, 0, "s", "S", NULL, 0),
	TF(KP__FK_STRING, ps, 0, "ps", "PS", NULL, KP__FF_GO_PTR),
	TF(KP__FK_STRINGS, list, offsetof(touter, n_list), "list", "List", NULL, 0),
	TF(KP__FK_STRINGS, set, offsetof(touter, n_set), "set", "Set", NULL, KP__FF_HASH_SET),
	TF(KP__FK_MAP, map, 0, "map", "Map", NULL, 0),
	TF(KP__FK_STRUCT, inner_value, 0, "innerValue", "InnerValue", &t_inner, 0),
	TF(KP__FK_STRUCT, inner_ptr, 0, "innerPtr", "InnerPtr", &t_inner, KP__FF_GO_PTR),
	TF(KP__FK_LIST, items, offsetof(touter, n_items), "items", "Items", &t_inner, 0),
	TF(KP__FK_STRING, ignored, 0, "ignored", "Ignored", NULL, KP__FF_HASH_IGNORE),
	TF(KP__FK_DURATION, d_ptr, 0, "dPtr", "DPtr", NULL, KP__FF_GO_PTR),
	TF(KP__FK_DURATION, d_val, 0, "dVal", "DVal", NULL, 0),
	TF(KP__FK_NILLABLE_DURATION, nd, 0, "nd", "ND", NULL, 0),
	{ .json = "en", .go = "En", .kind = KP__FK_ENUM, .off = offsetof(touter, en),
	  .aux = offsetof(touter, en_code), .en = &colour },
};
#undef S
static const kp__type t_outer = { "Outer", sizeof(touter), sizeof(touter), 1, 0, t_outer_f,
				  sizeof(t_outer_f) / sizeof(t_outer_f[0]) };

static uint64_t field(uint64_t h, const char *name, uint64_t vh)
{
	return kp__hs_finish(h ^ kp__hs_ordered(kp__hs_string(name), vh));
}

static uint64_t hash_outer(const kp__hs_opts *o, const touter *v)
{
	uint64_t h = 0;
	kp_error e;
	memset(&e, 0, sizeof(e));
	ck_assert_msg(kp__hs_struct(o, &t_outer, v, &h, &e) == KP_OK, "%s: %s", e.field, e.message);
	return h;
}

static const uint64_t *outer_start(void)
{
	static uint64_t h;
	h = kp__hs_string("Outer");
	return &h;
}

START_TEST(zero_fields_are_skipped)
{
	kp__hs_opts o;
	kp__hs_opts_karpenter(&o);
	touter v;
	memset(&v, 0, sizeof(v));
	v.struct_size = sizeof(v);
	const uint64_t base = *outer_start();
	ck_assert(hash_outer(&o, &v) == base);
	ck_assert(hash_outer(&o, NULL) == base);
	/* Empty Go strings are zero; a *string to "" is not. */
	v.s = "";
	ck_assert(hash_outer(&o, &v) == base);
	v.ps = "";
	ck_assert(hash_outer(&o, &v) == field(base, "PS", kp__hs_string("")));
	v.ps = NULL;
	/* hash:"ignore" */
	v.ignored = "x";
	ck_assert(hash_outer(&o, &v) == base);
	/* Integers at their width; *int32 present even when 0. */
	v.i32 = 5;
	ck_assert(hash_outer(&o, &v) == field(base, "I32", kp__hs_int32(5)));
	v.i32 = 0;
	v.has_p32 = 1;
	ck_assert(hash_outer(&o, &v) == field(base, "P32", kp__hs_int32(0)));
	v.has_p32 = 0;
	v.flag = 1;
	ck_assert(hash_outer(&o, &v) == field(base, "Flag", kp__hs_bool(1)));
	v.flag = 0;
	/* Codes hash as their names; the empty name is zero. */
	v.code = 1;
	ck_assert(hash_outer(&o, &v) == field(base, "Code", kp__hs_string("Red")));
	v.code = 0;
	ck_assert(hash_outer(&o, &v) == base);
	/* Enum text as written; a caller may fill only the code. */
	v.en = "Red";
	ck_assert(hash_outer(&o, &v) == field(base, "En", kp__hs_string("Red")));
	v.en = NULL;
	v.en_code = 1;
	ck_assert(hash_outer(&o, &v) == field(base, "En", kp__hs_string("Red")));
	v.en_code = 0;
	/* Field order matters: the finish after each field chains them. */
	v.i32 = 5;
	v.s = "x";
	ck_assert(hash_outer(&o, &v) ==
		  field(field(base, "I32", kp__hs_int32(5)), "S", kp__hs_string("x")));
	ck_assert(hash_outer(&o, &v) !=
		  field(field(base, "S", kp__hs_string("x")), "I32", kp__hs_int32(5)));
}
END_TEST

START_TEST(maps_nil_empty_unordered)
{
	kp__hs_opts o;
	kp__hs_opts_karpenter(&o);
	touter v;
	memset(&v, 0, sizeof(v));
	v.struct_size = sizeof(v);
	const uint64_t base = *outer_start();
	kp_label none[1];
	v.map.items = none; /* present, empty */
	ck_assert(hash_outer(&o, &v) == field(base, "Map", UINT64_C(12161962213042174405)));
	kp_label ab[2] = { { "a", "1" }, { "b", "" } };
	kp_label ba[2] = { { "b", "" }, { "a", "1" } };
	uint64_t want = kp__hs_finish(kp__hs_ordered(kp__hs_string("a"), kp__hs_string("1")) ^
				      kp__hs_ordered(kp__hs_string("b"), kp__hs_string("")));
	v.map.items = ab;
	v.map.count = 2;
	ck_assert(hash_outer(&o, &v) == field(base, "Map", want));
	v.map.items = ba;
	ck_assert(hash_outer(&o, &v) == field(base, "Map", want));
	v.map.items = NULL; /* NULL items with a count */
	kp_error e;
	memset(&e, 0, sizeof(e));
	uint64_t h;
	ck_assert_int_eq(kp__hs_struct(&o, &t_outer, &v, &h, &e), KP_EINVAL);
	ck_assert_str_eq(e.field, "map");
}
END_TEST

START_TEST(slices_as_sets)
{
	kp__hs_opts o;
	kp__hs_opts_karpenter(&o);
	touter v;
	memset(&v, 0, sizeof(v));
	v.struct_size = sizeof(v);
	const uint64_t base = *outer_start();
	const char *xy[] = { "x", "y" }, *yx[] = { "y", "x" }, *xx[] = { "x", "x" };
	/* Present and empty: value 0, no finish. */
	v.list = xy;
	ck_assert(hash_outer(&o, &v) == field(base, "List", 0));
	v.n_list = 2;
	uint64_t set = kp__hs_string("x") ^ kp__hs_string("y");
	ck_assert(hash_outer(&o, &v) == field(base, "List", set));
	v.list = yx;
	ck_assert(hash_outer(&o, &v) == field(base, "List", set));
	v.list = xx; /* duplicates cancel */
	ck_assert(hash_outer(&o, &v) == field(base, "List", 0));
	/* hash:"set" finishes. */
	v.list = NULL;
	v.n_list = 0;
	v.set = xy;
	v.n_set = 2;
	ck_assert(hash_outer(&o, &v) == field(base, "Set", kp__hs_finish(set)));
	/* Without SlicesAsSets a plain slice is ordered, a set still a set. */
	o.slices_as_sets = 0;
	ck_assert(hash_outer(&o, &v) == field(base, "Set", kp__hs_finish(set)));
	v.set = NULL;
	v.n_set = 0;
	v.list = xy;
	v.n_list = 2;
	uint64_t ordered = kp__hs_ordered(kp__hs_ordered(0, kp__hs_string("x")), kp__hs_string("y"));
	ck_assert(hash_outer(&o, &v) == field(base, "List", ordered));
	v.list = yx;
	ck_assert(hash_outer(&o, &v) != field(base, "List", ordered));
}
END_TEST

START_TEST(structs_and_pointers)
{
	kp__hs_opts o;
	kp__hs_opts_karpenter(&o);
	touter v;
	memset(&v, 0, sizeof(v));
	v.struct_size = sizeof(v);
	const uint64_t base = *outer_start();
	const uint64_t inner = kp__hs_string("Inner");
	tinner in;
	memset(&in, 0, sizeof(in));
	in.struct_size = sizeof(in);
	/* A zero struct value is skipped; a pointer to one is hashed. */
	v.inner_value = &in;
	ck_assert(hash_outer(&o, &v) == base);
	v.inner_value = NULL;
	v.inner_ptr = &in;
	ck_assert(hash_outer(&o, &v) == field(base, "InnerPtr", inner));
	v.inner_ptr = NULL;
	/* IsZero looks at hash:"ignore" fields too (upstream N46). */
	in.ign = "x";
	v.inner_value = &in;
	ck_assert(kp__hs_struct_is_zero(&t_inner, &in) == 0);
	ck_assert(hash_outer(&o, &v) == field(base, "InnerValue", inner));
	in.ign = NULL;
	in.a = "v";
	ck_assert(hash_outer(&o, &v) ==
		  field(base, "InnerValue", field(inner, "A", kp__hs_string("v"))));
	v.inner_value = NULL;
	/* Lists of structs; a nil element is the zero struct (ZeroNil). */
	tinner *items[2] = { &in, NULL };
	v.items = items;
	v.n_items = 2;
	uint64_t e0 = field(inner, "A", kp__hs_string("v"));
	ck_assert(hash_outer(&o, &v) == field(base, "Items", e0 ^ inner));
	o.zero_nil = 0;
	ck_assert(hash_outer(&o, &v) == field(base, "Items", e0 ^ kp__hs_int64(0)));
	o.zero_nil = 1;
	/* Errors name the path through lists. */
	in.struct_size = 4; /* smaller than any published size */
	kp_error e;
	memset(&e, 0, sizeof(e));
	uint64_t h;
	ck_assert_int_eq(kp__hs_struct(&o, &t_outer, &v, &h, &e), KP_EVERSION);
	ck_assert_str_eq(e.field, "items[0].struct_size");
}
END_TEST

START_TEST(durations)
{
	kp__hs_opts o;
	kp__hs_opts_karpenter(&o);
	touter v;
	memset(&v, 0, sizeof(v));
	v.struct_size = sizeof(v);
	const uint64_t base = *outer_start();
	const uint64_t dur = kp__hs_string("Duration"), nd = kp__hs_string("NillableDuration");
	kp_api_duration zero = { "0s", 0, 0, 1 }, hour = { "1h", INT64_C(3600000000000), 0, 1 };
	kp_api_duration never = { "Never", 0, 1, 1 }, bad = { "1 week", 0, 0, 0 };
	/* *metav1.Duration 0s: present, inner 0 skipped (upstream N35). */
	v.d_ptr = zero;
	ck_assert(hash_outer(&o, &v) == field(base, "DPtr", dur));
	v.d_ptr = hour;
	ck_assert(hash_outer(&o, &v) ==
		  field(base, "DPtr", field(dur, "Duration", kp__hs_int64(hour.ns))));
	memset(&v.d_ptr, 0, sizeof(v.d_ptr));
	/* metav1.Duration value 0s is zero. */
	v.d_val = zero;
	ck_assert(hash_outer(&o, &v) == base);
	memset(&v.d_val, 0, sizeof(v.d_val));
	/* NillableDuration: Never is zero, 0s is not (upstream N34). */
	v.nd = never;
	ck_assert(hash_outer(&o, &v) == base);
	v.nd = zero;
	ck_assert(hash_outer(&o, &v) == field(base, "ND", field(nd, "Duration", kp__hs_int64(0))));
	/* Text that is not a duration cannot be hashed. */
	v.nd = bad;
	kp_error e;
	memset(&e, 0, sizeof(e));
	uint64_t h;
	ck_assert_int_eq(kp__hs_struct(&o, &t_outer, &v, &h, &e), KP_EINVAL);
	ck_assert_str_eq(e.field, "nd");
	ck_assert_str_eq(e.message, "not a duration: \"1 week\"");
}
END_TEST

/* Without IgnoreZeroValue every field is visited, zero or not. */
START_TEST(without_ignore_zero)
{
	typedef struct small {
		uint32_t struct_size;
		uint32_t has_p;
		int32_t p;
		uint32_t reserved;
		const char *s;
	} small;
	static const kp__field f[] = {
		{ .json = "s", .go = "S", .kind = KP__FK_STRING, .off = offsetof(small, s) },
		{ .json = "p", .go = "P", .kind = KP__FK_OPT_INT32, .off = offsetof(small, p),
		  .aux = offsetof(small, has_p) },
	};
	static const kp__type t = { "Small", sizeof(small), sizeof(small), 1, 0, f, 2 };
	kp__hs_opts o;
	kp__hs_opts_karpenter(&o);
	o.ignore_zero_value = 0;
	small v = { sizeof(small), 0, 0, 0, NULL };
	uint64_t h = 0, base = kp__hs_string("Small");
	ck_assert_int_eq(kp__hs_struct(&o, &t, &v, &h, NULL), KP_OK);
	/* ZeroNil: a nil *int32 is the int32 0. */
	ck_assert(h == field(field(base, "S", kp__hs_string("")), "P", kp__hs_int32(0)));
	/* Without ZeroNil: the int 0 (8 bytes). */
	o.zero_nil = 0;
	ck_assert_int_eq(kp__hs_struct(&o, &t, &v, &h, NULL), KP_OK);
	ck_assert(h == field(field(base, "S", kp__hs_string("")), "P", kp__hs_int64(0)));
}
END_TEST

START_TEST(unsupported_and_invalid)
{
	kp__hs_opts o;
	kp__hs_opts_karpenter(&o);
	kp_error e;
	memset(&e, 0, sizeof(e));
	uint64_t h = 7;
	touter v;
	memset(&v, 0, sizeof(v));
	v.struct_size = sizeof(v);
	v.code = 9; /* not in the enum table */
	ck_assert_int_eq(kp__hs_struct(&o, &t_outer, &v, &h, &e), KP_EINVAL);
	ck_assert_str_eq(e.field, "code");
	ck_assert(h == 7);
	/* A top-level object (TypeMeta) is not hashable. */
	kp_nodepool np = KP_NODEPOOL_INIT;
	np.api_version = "karpenter.sh/v1";
	ck_assert_int_eq(kp__hs_struct(&o, &kp__type_nodepool, &np, &h, &e), KP_ENOTSUP);
	/* hash:"string" on a field that is not text. */
	static const kp__field f[] = {
		{ .json = "n", .go = "N", .kind = KP__FK_INT64, .flags = KP__FF_HASH_STRING,
		  .off = 8 },
	};
	static const kp__type t = { "Q", 16, 16, 1, 0, f, 1 };
	struct {
		uint32_t struct_size, r;
		int64_t n;
	} q = { 16, 0, 3 };
	ck_assert_int_eq(kp__hs_struct(&o, &t, &q, &h, &e), KP_ENOTSUP);
	ck_assert_int_eq(kp__hs_struct(NULL, &t, &q, &h, &e), KP_EINVAL);
	ck_assert_int_eq(kp__hs_struct(&o, &t, &q, NULL, &e), KP_EINVAL);
}
END_TEST

static Suite *hashstructure_suite(void)
{
	Suite *s = suite_create("hashstructure");
	TCase *tc = tcase_create("primitives");
	tcase_add_test(tc, fnv1_64);
	tcase_add_test(tc, combinators);
	tcase_add_test(tc, worked_example);
	tcase_add_test(tc, time_example);
	suite_add_tcase(s, tc);
	tc = tcase_create("rules");
	tcase_add_test(tc, zero_fields_are_skipped);
	tcase_add_test(tc, maps_nil_empty_unordered);
	tcase_add_test(tc, slices_as_sets);
	tcase_add_test(tc, structs_and_pointers);
	tcase_add_test(tc, durations);
	tcase_add_test(tc, without_ignore_zero);
	tcase_add_test(tc, unsupported_and_invalid);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	kp_test_require_data(HT_NODEPOOL_VECTORS);
	Suite *suites[] = { hashstructure_suite() };
	return kp_test_run(suites, 1);
}
