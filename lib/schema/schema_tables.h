/*
 * Macros that write kp__type descriptor tables (lib/schema/objects.c, and
 * test fixtures that describe their own structs for the same engine).
 * Define S as the C struct being described before a table. Private.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_SCHEMA_TABLES_H
#define KP_SCHEMA_TABLES_H

#include <stddef.h>

#include "common/sized.h"
#include "schema.h"

#define F_(k, m, a, j, g, e, en_, fl, tg) \
	{ .json = (j), .go = (g), .kind = (k), .flags = (fl), .tag = (tg), .off = (m), .aux = (a), \
	  .elem = (e), .en = (en_) }
#define OFF(m) offsetof(S, m)

#define STR(m, j, g) F_(KP__FK_STRING, OFF(m), 0, j, g, NULL, NULL, 0, 0)
#define ENUMS(m, code, j, g, E) F_(KP__FK_ENUM, OFF(m), OFF(code), j, g, NULL, &(E), 0, 0)
#define CODE(m, j, g, E) F_(KP__FK_CODE, OFF(m), 0, j, g, NULL, &(E), 0, 0)
#define BOOL(m, j, g) F_(KP__FK_BOOL, OFF(m), 0, j, g, NULL, NULL, 0, 0)
#define OPT_BOOL(m, has, j, g) F_(KP__FK_OPT_BOOL, OFF(m), OFF(has), j, g, NULL, NULL, 0, 0)
#define I32(m, j, g) F_(KP__FK_INT32, OFF(m), 0, j, g, NULL, NULL, 0, 0)
#define I64(m, j, g) F_(KP__FK_INT64, OFF(m), 0, j, g, NULL, NULL, 0, 0)
#define OPT_I32(m, has, j, g) F_(KP__FK_OPT_INT32, OFF(m), OFF(has), j, g, NULL, NULL, 0, 0)
#define OPT_I64(m, has, j, g) F_(KP__FK_OPT_INT64, OFF(m), OFF(has), j, g, NULL, NULL, 0, 0)
#define TIME(m, j, g) F_(KP__FK_TIME, OFF(m), 0, j, g, NULL, NULL, 0, 0)
#define DURATION(m, j, g) F_(KP__FK_DURATION, OFF(m), 0, j, g, NULL, NULL, 0, 0)
#define NILLABLE_DURATION(m, j, g) F_(KP__FK_NILLABLE_DURATION, OFF(m), 0, j, g, NULL, NULL, 0, 0)
#define INT_OR_STRING(m, j, g) F_(KP__FK_INT_OR_STRING, OFF(m), 0, j, g, NULL, NULL, 0, 0)
#define STRINGS(m, n, j, g) F_(KP__FK_STRINGS, OFF(m), OFF(n), j, g, NULL, NULL, 0, 0)
#define MAP(m, j, g) F_(KP__FK_MAP, OFF(m), 0, j, g, NULL, NULL, 0, 0)
#define RESOURCES(m, j, g) F_(KP__FK_RESOURCES, OFF(m), 0, j, g, NULL, NULL, 0, 0)
#define STRUCT(m, j, g, T) F_(KP__FK_STRUCT, OFF(m), 0, j, g, &(T), NULL, 0, 0)
#define LIST(m, n, j, g, T) F_(KP__FK_LIST, OFF(m), OFF(n), j, g, &(T), NULL, 0, 0)
#define VALUES(m, n, j, g, T) F_(KP__FK_VALUES, OFF(m), OFF(n), j, g, &(T), NULL, 0, 0)
/* A source struct whose presence also sets the type's tag. */
#define SOURCE(m, j, g, T, tg) F_(KP__FK_STRUCT, OFF(m), 0, j, g, &(T), NULL, 0, tg)
/* A source recorded only as the type's tag. */
#define TAG(j, g, tg) F_(KP__FK_TAG, 0, 0, j, g, NULL, NULL, 0, tg)
/* The member keeping an OTHER source as written (KP__FF_OTHER_SOURCE). */
#define OTHER_SOURCE(m) F_(KP__FK_JSON, OFF(m), 0, "", "", NULL, NULL, KP__FF_OTHER_SOURCE, 0)
#define IGNORED(j, g) F_(KP__FK_IGNORED, 0, 0, j, g, NULL, NULL, 0, 0)
#define API_VERSION(m) F_(KP__FK_API_VERSION, OFF(m), 0, "apiVersion", "APIVersion", NULL, NULL, 0, 0)
#define KIND(m) F_(KP__FK_KIND, OFF(m), 0, "kind", "Kind", NULL, NULL, 0, 0)

#define N_(a) (sizeof(a) / sizeof((a)[0]))
/* A size-tagged struct type, a fixed-layout value type, a tagged struct. */
/* A public type's first released size is KP__FIRST_SIZE(ctype)
 * (common/sized.h); SIZED_FROM names it for a type that has none there. */
#define SIZED_FROM(name, goname, ctype, first) \
	static const kp__type name = { goname, sizeof(ctype), (first), 1, 0, name##_f, N_(name##_f) }
#define SIZED(name, goname, ctype) SIZED_FROM(name, goname, ctype, KP__FIRST_SIZE(ctype))
#define FIXED(name, goname, ctype) \
	static const kp__type name = { goname, sizeof(ctype), sizeof(ctype), 0, 0, name##_f, \
				       N_(name##_f) }
#define TAGGED(name, goname, ctype, tagm) \
	static const kp__type name = { goname, sizeof(ctype), KP__FIRST_SIZE(ctype), 1, \
				       offsetof(ctype, tagm), name##_f, N_(name##_f) }
#define PUBLIC(name, goname, ctype) \
	const kp__type name = { goname, sizeof(ctype), KP__FIRST_SIZE(ctype), 1, 0, name##_f, \
				N_(name##_f) }

#endif
