/*
 * libkarpenter private: github.com/mitchellh/hashstructure/v2 FormatV2 over
 * the object model's descriptor tables (lib/schema/schema.h).
 *
 * Upstream hashes Go values by reflection: a struct is hashed through its
 * Go type name and its exported Go field names in declaration order, which
 * is exactly what a kp__type records. One walk therefore serves every
 * hashed type: the NodePool drift hash (NodeClaimTemplate), and provider
 * node-class hashes built from their own descriptor tables.
 *
 * The rules (hashstructure v2.0.2, FormatV2):
 * - Every primitive is hashed with a fresh FNV-1 64 (not FNV-1a): strings
 *   as their bytes, integers little-endian at their Go width (int32: 4
 *   bytes; int, int64, time.Duration: 8; bool: one byte 0/1).
 * - ordered(a, b) = fnv(le64(a) || le64(b)); finish(x) = fnv(le64(x)).
 * - struct: h = fnv(type name); for each exported field not tagged
 *   hash:"ignore" (and, with IgnoreZeroValue, not reflect-zero):
 *   h = finish(h ^ ordered(fnv(field name), value hash)).
 * - pointers are followed; a nil pointer is the zero value of its element
 *   type with ZeroNil, the int 0 without.
 * - map: XOR over entries of ordered(key hash, value hash), then finish.
 * - slice: with SlicesAsSets (or hash:"set") XOR of the element hashes,
 *   finished only with hash:"set"; otherwise h = ordered(h, element) in
 *   order.
 * - hash:"string" hashes the value's String() (here: a STRING field that
 *   already holds that text).
 * - time.Time: fnv(MarshalBinary()), whose zone offset depends on the
 *   time's location (see kp__hs_opts).
 *
 * C presence maps to Go zero values as objects.h describes: NULL strings,
 * lists, maps and struct pointers are nil (or "" / the zero struct for Go
 * value fields); has_x flags are Go pointers; kp__field flag KP__FF_GO_PTR
 * marks the fields whose Go type is a pointer.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_HASH_HASHSTRUCTURE_H
#define KP_HASH_HASHSTRUCTURE_H

#include <stddef.h>
#include <stdint.h>

#include "kp_internal.h"
#include "schema/schema.h"

/* hash/fnv New64 parameters. */
#define KP__FNV64_OFFSET 14695981039346656037ull
#define KP__FNV64_PRIME 1099511628211ull

/* hashstructure.HashOptions plus how time.Time values are located. */
typedef struct kp__hs_opts {
	int slices_as_sets;    /* SlicesAsSets */
	int ignore_zero_value; /* IgnoreZeroValue */
	int zero_nil;          /* ZeroNil */
	/* metav1.Time values: 1 = held in time.UTC (MarshalBinary offset -1);
	 * 0 = held in the local zone (metav1.Time.UnmarshalJSON calls
	 * .Local()), whose offset east of UTC in seconds is offset_fn(ctx,
	 * unix_s) when offset_fn is set, else utc_offset_s. */
	int time_utc;
	int32_t utc_offset_s;
	int32_t (*offset_fn)(void *ctx, int64_t unix_s);
	void *offset_ctx;
} kp__hs_opts;

/* The options of every Karpenter drift hash: SlicesAsSets, IgnoreZeroValue
 * and ZeroNil, local zone at offset 0. */
void kp__hs_opts_karpenter(kp__hs_opts *o);

/* FNV-1 64 of a byte string. */
uint64_t kp__fnv1_64(const void *data, size_t len);
/* fnv(le64(a) || le64(b)) */
uint64_t kp__hs_ordered(uint64_t a, uint64_t b);
/* fnv(le64(h)) */
uint64_t kp__hs_finish(uint64_t h);
/* A Go string. */
uint64_t kp__hs_string(const char *s);
/* Go integers at their width, and a bool (one byte). */
uint64_t kp__hs_int64(int64_t v);
uint64_t kp__hs_int32(int32_t v);
uint64_t kp__hs_bool(int v);

/* time.Time at Unix milliseconds ms (fnv of its MarshalBinary), located as
 * o says. KP_ERANGE for a zone offset Go refuses to marshal. */
int kp__hs_time(const kp__hs_opts *o, int64_t ms, uint64_t *out, kp_error *err);

/* Hash a struct value of type t (s NULL: the zero value), as hashstructure
 * visits a struct: never skipped itself, only its fields. Errors name the
 * field path (JSON names) in err->field: KP_EINVAL (a duration or enum code
 * that is not a value, NULL items with a count), KP_EVERSION (struct_size),
 * KP_ENOTSUP (a field kind hashstructure cannot hash here), KP_ERANGE. */
int kp__hs_struct(const kp__hs_opts *o, const kp__type *t, const void *s, uint64_t *out,
		  kp_error *err);

/* reflect.Value.IsZero of a struct value of type t (s NULL: zero). Every
 * field counts, hash:"ignore" ones too. */
int kp__hs_struct_is_zero(const kp__type *t, const void *s);

#endif /* KP_HASH_HASHSTRUCTURE_H */
