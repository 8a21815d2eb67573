/*
 * libkarpenter private: descriptor tables for the object model and the
 * engine they drive.
 *
 * Each C struct of the object model (objects.h, nodepool.h, nodeclaim.h)
 * and each fixed value type stored in it (kp_taint, kp_toleration,
 * kp_label_selector, ...) is described once, in objects.c, by a kp__type:
 * its Go type name, its size and one kp__field line per field (JSON name,
 * Go field name, kind, offsets, element type, enum table, hash-tag flags),
 * in Go declaration order. Providers' kinds get the same form from their
 * public descriptions (registry.c, karpenter/sys/schema.h). Decoding (tree
 * -> struct), encoding (struct -> tree), deep free, deep copy and deep
 * equality are generic walks over these tables, which call the field
 * kind's row of operations (schema.c, fk_table); drift hashing
 * (hashstructure v2 over Go type and field names) walks the same tables
 * with its own row per kind (lib/hash/hashstructure.c).
 *
 * The same C struct may have several descriptors when Kubernetes has several
 * Go types of one shape (kp_condition: Condition, NodeCondition,
 * PodCondition; kp_nodeclaim_spec: NodeClaimSpec, NodeClaimTemplateSpec).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_SCHEMA_SCHEMA_H
#define KP_SCHEMA_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "kp_internal.h"
#include "document/tree.h"

/* Field kinds. The C representation is given for each. The numbers are
 * those of the public enum kp_field_kind (karpenter/sys/schema.h). */
enum kp__fk {
	KP__FK_STRING = 1,          /* const char * at off */
	KP__FK_ENUM,                /* const char * at off (as written) + uint32 code at aux */
	KP__FK_CODE,                /* uint32 code at off; an unknown name is a decode error */
	KP__FK_BOOL,                /* uint32 at off */
	KP__FK_OPT_BOOL,            /* uint32 at off, uint32 has-flag at aux */
	KP__FK_INT32,               /* int32_t at off */
	KP__FK_INT64,               /* int64_t at off */
	KP__FK_OPT_INT32,           /* int32_t at off, uint32 has-flag at aux */
	KP__FK_OPT_INT64,           /* int64_t at off, uint32 has-flag at aux */
	KP__FK_TIME,                /* int64_t Unix ms at off (metav1.Time) */
	KP__FK_DURATION,            /* kp_api_duration at off (metav1.Duration) */
	KP__FK_NILLABLE_DURATION,   /* kp_api_duration at off (NillableDuration, "Never") */
	KP__FK_INT_OR_STRING,       /* kp_int_or_string at off */
	KP__FK_STRINGS,             /* const char *const * at off, size_t count at aux */
	KP__FK_MAP,                 /* kp_labels at off (map[string]string) */
	KP__FK_RESOURCES,           /* kp_resource_list at off (corev1.ResourceList) */
	KP__FK_STRUCT,              /* elem * at off */
	KP__FK_LIST,                /* elem ** at off, size_t count at aux */
	KP__FK_VALUES,              /* elem * (contiguous fixed-layout values) at off, count at aux */
	KP__FK_TAG,                 /* the key's presence sets the type's tag to `tag` */
	KP__FK_IGNORED,             /* accepted (strict mode) and dropped */
	KP__FK_API_VERSION,         /* top-level apiVersion: const char * at off */
	KP__FK_KIND,                /* top-level kind: uint32 kp_kind at off */
	KP__FK_DURATION_MAP,        /* kp_duration_map at off (map[string]metav1.Duration) */
	KP__FK_JSON                 /* const char * at off: any JSON value, compact, keys sorted */
};

/* Field flags: upstream hash struct tags. */
enum kp__ff {
	KP__FF_HASH_IGNORE = 1u << 0, /* hash:"ignore" */
	KP__FF_HASH_STRING = 1u << 1, /* hash:"string" */
	KP__FF_HASH_SET = 1u << 2,    /* hash:"set" */
	/* The Go field is a pointer (*string, *NamedString, *metav1.Duration,
	 * *intstr.IntOrString, *metav1.Time, *T): a present value is never
	 * reflect-zero, even when what it points to is ("", 0s, {}). Without it
	 * STRING, ENUM, DURATION, INT_OR_STRING, TIME and STRUCT are Go values,
	 * zero when empty. OPT_* kinds are always pointers; lists and maps
	 * are nil-able by nature. Read only by drift hashing (lib/hash). */
	KP__FF_GO_PTR = 1u << 3,
	/* A KP__FK_JSON member holding the type's KP_VOLUME_SOURCE_OTHER source
	 * as written ({"iscsi":{...}}): set by that source's TAG key, encoded
	 * under it, never read or written under a key of its own. */
	KP__FF_OTHER_SOURCE = 1u << 4
};

typedef struct kp__enum_entry {
	const char *name;
	uint32_t code;
} kp__enum_entry;

typedef struct kp__enum {
	const kp__enum_entry *entries;
	size_t n;
} kp__enum;

typedef struct kp__type kp__type;

typedef struct kp__field {
	const char *json;      /* JSON member name */
	const char *go;        /* Go field name (embedded fields: the type name) */
	uint16_t kind;         /* kp__fk */
	uint16_t flags;        /* kp__ff */
	uint32_t tag;          /* KP__FK_TAG, KP__FK_STRUCT: value stored in the type's tag */
	size_t off;            /* offset of the member */
	size_t aux;            /* offset of the count, has-flag or code */
	const kp__type *elem;  /* STRUCT, LIST, VALUES */
	const kp__enum *en;    /* ENUM, CODE */
} kp__field;

struct kp__type {
	const char *go;          /* Go type name, e.g. "NodeClaimTemplateSpec" */
	size_t size;             /* sizeof the C struct */
	size_t first_size;       /* smallest struct_size a caller may pass (its first
	                            release, common/sized.h); = size when not sized */
	int sized;               /* starts with uint32_t struct_size */
	size_t tag_off;          /* offset of a uint32 tag (kp_volume::source), or 0 */
	const kp__field *fields; /* in Go declaration order */
	size_t n_fields;
};

/* Descriptors of the top-level kinds and of shared types (objects.c). */
extern const kp__type kp__type_nodepool;
extern const kp__type kp__type_nodeclaim;
extern const kp__type kp__type_pod;
extern const kp__type kp__type_node;
extern const kp__type kp__type_daemonset;
extern const kp__type kp__type_pdb;
extern const kp__type kp__type_pvc;
extern const kp__type kp__type_pv;
extern const kp__type kp__type_storage_class;
extern const kp__type kp__type_csi_node;
extern const kp__type kp__type_namespace;
extern const kp__type kp__type_volume_attachment;
extern const kp__type kp__type_nodeclaim_template; /* NodeClaimTemplate */
extern const kp__type kp__type_object_meta;

/* Kind registry (objects.c). */
typedef struct kp__kind_info {
	uint32_t kind;           /* kp_kind */
	const char *name;        /* "NodePool" */
	const char *api_version; /* "karpenter.sh/v1" */
	int karpenter;           /* unknown fields are reported (strict/lenient) */
	int namespaced;          /* lives in a namespace (kp_kind_namespaced) */
	const kp__type *type;
	/* a registered kind's rule inventory (core kinds: NULL, the inventory
	 * of lib/validation/validation_rules.c) */
	const struct kp_validation_rule *rules;
	size_t n_rules;
} kp__kind_info;

const kp__kind_info *kp__kind_info_get(uint32_t kind);

/* How unknown fields are treated during one decode. */
enum kp__unknown_mode {
	KP__UNKNOWN_IGNORE = 0,
	KP__UNKNOWN_ERROR = 1,
	KP__UNKNOWN_WARN = 2
};

/* Decode context: one object. */
/*
 * A kind's CRD constraints, which decoding quotes in its messages:
 * kube-apiserver checks a field against the CRD (type, pattern, format)
 * before the controller parses it, so a quantity that fails the CRD's
 * pattern is reported with that pattern. The engine does not know the CRDs
 * (they sit above it, in lib/validation); its caller passes them in.
 */
typedef struct kp__crd_rules {
	/* The text of the kind's rule for a schema path ("spec.limits.*") and
	 * OpenAPI keyword ("pattern", "format"), or NULL. */
	const char *(*find)(const kp__kind_info *info, const char *path, const char *keyword);
	/* Go's regexp.MatchString: 1, 0, or a negative kp_status. */
	int (*match)(const char *pattern, const char *text, size_t len);
} kp__crd_rules;

typedef struct kp__dctx {
	uint32_t unknown_mode;  /* kp__unknown_mode */
	int lenient;            /* duplicates: warn and keep the last */
	uint32_t kind;          /* kp_kind of the object (written to KP__FK_KIND) */
	const kp__kind_info *info; /* the kind's entry (objects.c), or NULL: not a CRD */
	const char *ident;      /* "NodePool/default" or "document 3", for messages */
	kp_error *err;
	const kp__crd_rules *crd; /* NULL: no CRD messages (plain parse errors) */
	/* called for each warning; returns KP_OK or KP_ENOMEM */
	int (*warn)(void *warn_ctx, const char *message);
	void *warn_ctx;
	/* private to schema.c: where the decoder is, as a stack of steps
	 * (a key, an index, a map key) that is rendered into the three
	 * path texts only when a message or a rule lookup needs one */
	struct kp__dstep *steps;
	size_t n_steps;
	size_t cap_steps;
	int steps_failed;
	kp__buf path;           /* field path for messages: "spec.limits[cpu]" */
	kp__buf kpath;          /* the API server's path: "spec.limits.cpu" */
	kp__buf spath;          /* schema path of the rule inventory: "spec.limits.*" */
	kp__buf unknown;        /* collected unknown fields (strict) */
	size_t n_unknown;
	/* only ever copied into kp_error::field, which has this size: a long
	 * path is cut there as in any kp_error, never in data */
	char first_unknown[KP_ERROR_FIELD_MAX];
	int dup_map;            /* the object being de-duplicated is a map */
} kp__dctx;

/* Whether objects of type t have the JSON member @p json (*known), and the
 * type its value decodes with (an object, or each element of an array), or
 * NULL when it is not a struct: what the parsers may skip (kp__doc_sink). */
const kp__type *kp__schema_member(const kp__type *t, const char *json, int *known);

/* Decode an object node into a new struct of type t (*out on success). The
 * node may be modified (duplicates removed in lenient mode). In strict mode
 * unknown fields fail the decode after the whole object was read, naming
 * all of them. */
int kp__schema_decode(const kp__type *t, kp__node *node, void **out, kp__dctx *ctx);
/* Release ctx's buffers. */
void kp__dctx_dispose(kp__dctx *ctx);

/* Encode a struct of type t into a tree (apiVersion default and kind name
 * from `info` for a top-level kind; NULL otherwise). */
int kp__schema_encode(const kp__type *t, const void *s, const kp__kind_info *info,
		      kp__node **out, kp_error *err);
/* The same encoding as @p em's events, with no tree between (one walk
 * writes both). On an error the emitter has written part of the value:
 * the caller fails it. */
struct kp_emitter;
int kp__schema_emit(struct kp_emitter *em, const kp__type *t, const void *s,
		    const kp__kind_info *info, kp_error *err);

/* Free a library-built struct of type t and everything it owns. */
void kp__schema_free(const kp__type *t, void *s);
/* Deep copy (src may be caller-built, with an older struct_size). */
int kp__schema_copy(const kp__type *t, void **out, const void *src, kp_error *err);
/* Whether every enum-like field of a (possibly caller-built) struct has a
 * text and a code that agree, as kp__schema_copy would make them: KP_OK, or
 * KP_EINVAL naming the field. For entry points that read caller objects in
 * place instead of copying them. */
int kp__schema_enums_agree(const kp__type *t, const void *s, kp_error *err);
/* Deep equality: 1 if equal (quantities by value, maps and resource lists
 * as sets), 0 if not. */
int kp__schema_equal(const kp__type *t, const void *a, const void *b);

/* The C sizes of a field kind's members: at off and at aux (0: none).
 * -1 for a kind the engine does not have. */
int kp__fk_sizes(uint32_t kind, size_t *size, size_t *aux_size);

/* Whether a (possibly caller-built, older) struct of type t holds field f
 * (fields beyond its struct_size read as zero). */
int kp__schema_has_field(const kp__type *t, const void *s, const kp__field *f);

/* RFC 3339 <-> Unix ms (metav1.Time): lib/time/timestamp.c. */
#include "time/timestamp_private.h"

/* Whether member bytes [off, off + n) of a size-tagged struct are present
 * given its struct_size (the caller may have an older, shorter struct). */
#define KP__HAS_MEMBER(ptr, type, member) \
	((ptr)->struct_size >= offsetof(type, member) + sizeof(((type *)0)->member))

#endif /* KP_SCHEMA_SCHEMA_H */
