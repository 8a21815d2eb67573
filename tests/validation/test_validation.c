/*
 * Validation of NodePool, NodeClaim and KWOKNodeClass (validation.h).
 *
 * The heart is one table: each case is an object (small YAML, a fixture or
 * a builder for big inputs), optionally the stored object of an update, and
 * the exact, complete list of problems kp_validate must report, each as
 * kubectl prints it ("field: message"). Every case names the rules it
 * exercises, and a coverage test requires, for every rule of the inventory,
 * a case where it fails and a case where it holds (the fixtures
 * nodepool-valid.yaml, nodepool-static-valid.yaml, nodeclaim-valid.yaml and
 * kwok-nodeclass-valid.yaml set every field of their kind, so they hold
 * every rule of it that needs no old object). Rules that decoding enforces
 * have their failing case in a second table, asserting kp_decode's error.
 *
 * The expected messages are kube-apiserver's (k8s.io/apiextensions-apiserver
 * v0.36, the version upstream Karpenter builds with) and upstream
 * Karpenter's RuntimeValidate text; the failing inputs include those of
 * upstream's pkg/apis/v1/nodepool_validation_cel_test.go and
 * nodeclaim_validation_cel_test.go.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L
#define KP_EXPERIMENTAL_API 1
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>
#include <karpenter/sys/kwok.h>

#include "schema/registry.h"
#include "validation/validation_private.h"
#include "kp_test.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define FIXTURE(name) KP_FIXTURES "/" name

/* ------------------------------------------------------------------------ */
/* Building blocks                                                          */

#define NP_HEAD "apiVersion: karpenter.sh/v1\nkind: NodePool\n"
#define NC_HEAD "apiVersion: karpenter.sh/v1\nkind: NodeClaim\n"
#define KW_HEAD "apiVersion: karpenter.kwok.sh/v1alpha1\nkind: KWOKNodeClass\n"
#define META "metadata: {name: test}\n"
#define REF "nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass, name: default}"
#define CT "{key: karpenter.sh/capacity-type, operator: Exists}"
#define NP_SPEC_OK "spec: {template: {spec: {" REF ", requirements: [" CT "]}}}\n"
#define NC_SPEC_OK "spec: {" REF ", requirements: [" CT "]}\n"

/* A NodePool whose spec is {body} */
#define NP(body) NP_HEAD META "spec: {" body "}\n"
/* ... whose template spec has extra fields (", field: value") */
#define NP_T(extra) NP("template: {spec: {" REF ", requirements: [" CT "]" extra "}}")
/* ... with these requirements */
#define NP_R(reqs) NP("template: {spec: {" REF ", requirements: [" reqs "]}}")
/* ... with this disruption */
#define NP_D(dis) NP("disruption: {" dis "}, template: {spec: {" REF ", requirements: [" CT "]}}")
/* ... with these template labels */
#define NP_L(labels) \
	NP("template: {metadata: {labels: {" labels "}}, spec: {" REF ", requirements: [" CT "]}}")
/* ... with this status */
#define NP_S(status) NP_T("") "status: {" status "}\n"
/* ... with these status conditions */
#define NP_C(conds) NP_S("conditions: [" conds "]")

#define NC(spec) NC_HEAD META "spec: {" spec "}\n"
#define NC_T(extra) NC(REF ", requirements: [" CT "]" extra)
#define NC_R(reqs) NC(REF ", requirements: [" reqs "]")
#define NC_C(conds) NC_T("") "status: {conditions: [" conds "]}\n"

#define KW(spec) KW_HEAD META "spec: {" spec "}\n"
#define KW_C(conds) KW("") "status: {conditions: [" conds "]}\n"

#define LTT "lastTransitionTime: \"2024-01-01T00:00:00Z\""
#define COND_OK "{type: Ready, status: \"True\", reason: Ready, message: \"\", " LTT "}"

/* Patterns of the CRDs, as C literals. */
#define P_BUDGET_DUR "^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$"
#define P_NODES "^((100|[0-9]{1,2})%|[0-9]+)$"
#define P_SCHEDULE \
	"^(@(annually|yearly|monthly|weekly|daily|midnight|hourly))|((.+)\\s(.+)\\s(.+)\\s(.+)\\s(.+))$"
#define P_NILLABLE "^(([0-9]+(s|m|h))+|Never)$"
#define P_DURATION "^([0-9]+(s|m|h))+$"
#define P_LABEL_VALUE "^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$"
#define P_GROUP "^[^/]*$"
#define P_KEY                                                                       \
	"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\\/))?" \
	"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$"
#define P_REASON_NP "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$"
#define P_REASON_NC "^([A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?|)$"
#define P_COND_TYPE                                                             \
	"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?" \
	"(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$"

/* kube-apiserver's messages. */
#define PAT(f, v, p) f ": Invalid value: \"" v "\": " f " in body should match '" p "'"
#define REQUIRED(f) f ": Required value"
#define NOTSUP(f, v, list) f ": Unsupported value: \"" v "\": supported values: " list
#define GE(f, v, b) f ": Invalid value: " v ": " f " in body should be greater than or equal to " b
#define LE(f, v, b) f ": Invalid value: " v ": " f " in body should be less than or equal to " b
#define TOOLONG(f, n) f ": Too long: may not be more than " n " bytes"
#define TOOMANY(f, n, m) f ": Too many: " n ": must have at most " m " items"
#define MINLEN(f, v, n) f ": Invalid value: \"" v "\": " f " in body should be at least " n " chars long"
#define CEL(f, msg) f ": Invalid value: " msg
#define CELV(f, v, msg) f ": Invalid value: \"" v "\": " msg
#define CELERR(f, type, err, msg) f ": Invalid value: \"" type "\": " err " evaluating rule: " msg
#define SKIPPED                                                                          \
	"<nil>: Invalid value: null: some validation rules were not checked because the " \
	"object was invalid; correct the existing errors to complete validation"

#define AND_SKIPPED , SKIPPED

#define OPS "\"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\", \"Gte\", \"Lte\""
#define POLICIES "\"WhenEmpty\", \"WhenEmptyOrUnderutilized\", \"Balanced\""
#define REASONS "\"Underutilized\", \"Empty\", \"Drifted\""
#define STATUSES "\"True\", \"False\", \"Unknown\""

#define DNS_MSG                                                                             \
	"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, " \
	"'-' or '.', and must start and end with an alphanumeric character (e.g. "           \
	"'example.com', regex used for validation is "                                       \
	"'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
#define NAME_MSG                                                                            \
	"name part must consist of alphanumeric characters, '-', '_' or '.', and must start " \
	"and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "          \
	"'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
#define VALUE_MSG                                                                      \
	"a valid label must be an empty string or consist of alphanumeric characters, " \
	"'-', '_' or '.', and must start and end with an alphanumeric character (e.g. " \
	"'MyValue',  or 'my_value',  or '12345', regex used for validation is "         \
	"'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
#define WELL_KNOWN                                                                             \
	"[karpenter.sh/capacity-type karpenter.sh/nodepool kubernetes.io/arch kubernetes.io/os " \
	"node.kubernetes.io/instance-type node.kubernetes.io/windows-build "                     \
	"topology.kubernetes.io/region topology.kubernetes.io/zone]"
#define RESTRICTED(key)                                                                   \
	"using label " key " is not allowed as it might interfere with the internal "        \
	"provisioning logic; specify a well known label: " WELL_KNOWN ", or a custom label " \
	"that does not use a restricted domain: [karpenter.sh]"

/* Strings of a given length. */
#define A10 "aaaaaaaaaa"
#define A50 A10 A10 A10 A10 A10
#define A60 A50 A10
#define A250 A50 A50 A50 A50 A50
#define A300 A250 A50
/* a 64-byte label value, a 317-byte key, a 268-byte key whose prefix is too long */
#define V64 A60 "aaaa"
#define K317 "example.com/" A300 "aaaaa"
#define K_LONG_PREFIX "test.com.test." A250 "/test"

/* ------------------------------------------------------------------------ */
/* Builders for big inputs                                                  */

typedef struct sbuf {
	char *s;
	size_t len, cap;
} sbuf;

static void put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	ck_assert_int_ge(n, 0);
	if (b->len + (size_t)n + 1 > b->cap) {
		b->cap = (b->len + (size_t)n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		ck_assert_ptr_nonnull(b->s);
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

static char *build_budgets51(void)
{
	sbuf b = { 0 };
	put(&b, NP_HEAD META "spec: {disruption: {budgets: [");
	for (int i = 0; i < 51; i++)
		put(&b, "%s{nodes: \"%d\"}", i ? ", " : "", i);
	put(&b, "]}, template: {spec: {" REF ", requirements: [" CT "]}}}\n");
	return b.s;
}

static char *build_reasons51(void)
{
	static const char *const r[] = { "Underutilized", "Empty", "Drifted" };
	sbuf b = { 0 };
	put(&b, NP_HEAD META "spec: {disruption: {budgets: [{nodes: \"1\", reasons: [");
	for (int i = 0; i < 51; i++)
		put(&b, "%s%s", i ? ", " : "", r[i % 3]);
	put(&b, "]}]}, template: {spec: {" REF ", requirements: [" CT "]}}}\n");
	return b.s;
}

static char *build_labels(int n)
{
	sbuf b = { 0 };
	put(&b, NP_HEAD META "spec: {template: {metadata: {labels: {");
	for (int i = 0; i < n; i++)
		put(&b, "%sl%d: v", i ? ", " : "", i);
	put(&b, "}}, spec: {" REF ", requirements: [" CT "]}}}\n");
	return b.s;
}

static char *build_labels101(void)
{
	return build_labels(101);
}

static char *build_labels100(void)
{
	return build_labels(100);
}

static char *build_requirements(const char *head, int nodepool, int n)
{
	sbuf b = { 0 };
	put(&b, "%s" META "spec: {%s" REF ", requirements: [", head,
	    nodepool ? "template: {spec: {" : "");
	for (int i = 0; i < n; i++)
		put(&b, "%s{key: example.com/k%d, operator: In, values: [v]}", i ? ", " : "", i);
	put(&b, "]%s}\n", nodepool ? "}}" : "");
	return b.s;
}

static char *build_np_requirements101(void)
{
	return build_requirements(NP_HEAD, 1, 101);
}

static char *build_np_requirements100(void)
{
	return build_requirements(NP_HEAD, 1, 100);
}

static char *build_nc_requirements101(void)
{
	return build_requirements(NC_HEAD, 0, 101);
}

static char *build_condition(const char *head_and_spec, const char *field, size_t len)
{
	sbuf b = { 0 };
	put(&b, "%sstatus: {conditions: [{type: %s, status: \"True\", reason: %s, message: \"%s\", " LTT
		"}]}\n",
	    head_and_spec, "Ready", "Ready", "");
	/* Rewrite the one field with a long value. */
	char *text = malloc(len + 1);
	memset(text, 'a', len);
	text[len] = '\0';
	sbuf o = { 0 };
	if (!strcmp(field, "message"))
		put(&o, "%sstatus: {conditions: [{type: Ready, status: \"True\", reason: Ready, message: %s, "
			LTT "}]}\n", head_and_spec, text);
	else if (!strcmp(field, "reason"))
		put(&o, "%sstatus: {conditions: [{type: Ready, status: \"True\", reason: %s, message: \"\", "
			LTT "}]}\n", head_and_spec, text);
	else
		put(&o, "%sstatus: {conditions: [{type: %s, status: \"True\", reason: Ready, message: \"\", "
			LTT "}]}\n", head_and_spec, text);
	free(text);
	free(b.s);
	return o.s;
}

static char *build_np_message32769(void) { return build_condition(NP_T(""), "message", 32769); }
static char *build_np_reason1025(void) { return build_condition(NP_T(""), "reason", 1025); }
static char *build_np_type317(void) { return build_condition(NP_T(""), "type", 317); }
static char *build_nc_message32769(void) { return build_condition(NC_T(""), "message", 32769); }
static char *build_nc_reason1025(void) { return build_condition(NC_T(""), "reason", 1025); }
static char *build_nc_type317(void) { return build_condition(NC_T(""), "type", 317); }
static char *build_kw_message32769(void) { return build_condition(KW(""), "message", 32769); }
static char *build_kw_reason1025(void) { return build_condition(KW(""), "reason", 1025); }
static char *build_kw_type317(void) { return build_condition(KW(""), "type", 317); }

static char *build_annotations(const char *head, const char *spec, size_t size)
{
	sbuf b = { 0 };
	char *v = malloc(size + 1);
	memset(v, 'x', size);
	v[size] = '\0';
	put(&b, "%smetadata: {name: test, annotations: {big: %s}}\n%s", head, v, spec);
	free(v);
	return b.s;
}

/* 262144 bytes is the limit; "big" counts 3 */
static char *build_np_annotations_big(void) { return build_annotations(NP_HEAD, NP_SPEC_OK, 262142); }
static char *build_np_annotations_max(void) { return build_annotations(NP_HEAD, NP_SPEC_OK, 262141); }
static char *build_nc_annotations_big(void) { return build_annotations(NC_HEAD, NC_SPEC_OK, 262142); }
static char *build_kw_annotations_big(void) { return build_annotations(KW_HEAD, "", 262142); }

/* ------------------------------------------------------------------------ */
/* The table                                                                */

typedef struct vcase {
	const char *rules;     /* space-separated rule ids; "all:<Kind>" for the fixtures */
	const char *yaml;      /* the object, or */
	const char *file;      /* a fixture file, or */
	char *(*build)(void);  /* a builder (malloc'd text) */
	const char *old;       /* the stored object of an update, or NULL */
	uint32_t flags;        /* kp_validate_flags */
	int no_defaults;       /* validate without kp_object_default */
	const char *expect[10]; /* every problem, in order, as "field: message" */
} vcase;

#define CRD KP_VALIDATE_NO_RUNTIME

/* ObjectMeta: the same rules for every kind. */
#define METADATA_CASES(K, HEAD, SPEC, SKIP_RULE, SKIP)                                                        \
	{ K ":metadata.generateName:dns1123-subdomain",                                      \
	  HEAD "metadata: {generateName: test-}\n" SPEC, NULL, NULL, NULL, 0, 0, { NULL } },   \
	{ K ":metadata.generateName:dns1123-subdomain",                                      \
	  HEAD "metadata: {generateName: Bad_}\n" SPEC, NULL, NULL, NULL, 0, 0,                \
	  { "metadata.generateName: Invalid value: \"Bad_\": " DNS_MSG } },                    \
	{ K ":metadata.name:required" SKIP_RULE,                                             \
	  HEAD "metadata: {labels: {a: b}}\n" SPEC, NULL, NULL, NULL, 0, 0,                    \
	  { "metadata.name: Required value: name or generateName is required" SKIP } },        \
	{ K ":metadata.name:dns1123-subdomain", HEAD "metadata: {name: Bad_Name}\n" SPEC, NULL, \
	  NULL, NULL, 0, 0, { "metadata.name: Invalid value: \"Bad_Name\": " DNS_MSG } },       \
	{ K ":metadata.name:dns1123-subdomain",                                              \
	  HEAD "metadata: {name: " A250 "aaaa}\n" SPEC, NULL, NULL, NULL, 0, 0,                \
	  { "metadata.name: Invalid value: \"" A250 "aaaa\": must be no more than 253 characters" } }, \
	{ K ":metadata.namespace:forbidden", HEAD "metadata: {name: test, namespace: default}\n" \
	  SPEC, NULL, NULL, NULL, 0, 0, { "metadata.namespace: Forbidden: not allowed on this type" } }, \
	{ K ":metadata.generation:minimum", HEAD "metadata: {name: test, generation: -1}\n" SPEC, \
	  NULL, NULL, NULL, 0, 0,                                                              \
	  { "metadata.generation: Invalid value: -1: must be greater than or equal to 0" } },   \
	{ K ":metadata.labels:label-key", HEAD "metadata: {name: test, labels: {bad key: v}}\n" \
	  SPEC, NULL, NULL, NULL, 0, 0, { "metadata.labels: Invalid value: \"bad key\": " NAME_MSG } }, \
	{ K ":metadata.labels:label-value",                                                  \
	  HEAD "metadata: {name: test, labels: {k: \"bad value\"}}\n" SPEC, NULL, NULL, NULL, 0, 0, \
	  { "metadata.labels: Invalid value: \"bad value\": " VALUE_MSG } },                   \
	{ K ":metadata.annotations:key",                                                     \
	  HEAD "metadata: {name: test, annotations: {Bad Key: v}}\n" SPEC, NULL, NULL, NULL, 0, 0, \
	  { "metadata.annotations: Invalid value: \"Bad Key\": " NAME_MSG } },                  \
	{ K ":metadata.ownerReferences[*].apiVersion:required "                              \
	  K ":metadata.ownerReferences[*].kind:required "                                    \
	  K ":metadata.ownerReferences[*].name:required "                                    \
	  K ":metadata.ownerReferences[*].uid:required" SKIP_RULE,                             \
	  HEAD "metadata: {name: test, ownerReferences: [{}]}\n" SPEC, NULL, NULL, NULL, 0, 0,  \
	  { "metadata.ownerReferences[0].apiVersion: Required value: must not be empty",       \
	    "metadata.ownerReferences[0].kind: Required value: must not be empty",             \
	    "metadata.ownerReferences[0].name: Required value: must not be empty",             \
	    "metadata.ownerReferences[0].uid: Required value: must not be empty" SKIP } },      \
	{ K ":metadata.ownerReferences[*].apiVersion:group-version",                         \
	  HEAD "metadata: {name: test, ownerReferences: [{apiVersion: a/b/c, kind: K, name: o, " \
	  "uid: u}, {apiVersion: group/, kind: K, name: o, uid: u}]}\n" SPEC, NULL, NULL, NULL, 0, 0, \
	  { "metadata.ownerReferences[0].apiVersion: Invalid value: \"a/b/c\": must be "       \
	    "<group>/<version> or <version>",                                                 \
	    "metadata.ownerReferences[1].apiVersion: Invalid value: \"group/\": must be "      \
	    "<group>/<version> or <version>" } },                                             \
	{ K ":metadata.finalizers:qualified-name",                                           \
	  HEAD "metadata: {name: test, finalizers: [\"bad finalizer\"]}\n" SPEC, NULL, NULL, NULL, \
	  0, 0, { "metadata.finalizers: Invalid value: \"bad finalizer\": " NAME_MSG } },       \
	{ K ":metadata.finalizers:conflict",                                                 \
	  HEAD "metadata: {name: test, finalizers: [orphan, foregroundDeletion]}\n" SPEC, NULL, \
	  NULL, NULL, 0, 0,                                                                    \
	  { "metadata.finalizers: Invalid value: [\"orphan\",\"foregroundDeletion\"]: "        \
	    "finalizer orphan and foregroundDeletion cannot be both set" } }

static const vcase cases[] = {
	/* ---------------------------------------------------------------- valid */
	{ "all:NodePool", NULL, FIXTURE("nodepool-valid.yaml"), NULL, NULL, 0, 0, { NULL } },
	{ "all:NodePool", NULL, FIXTURE("nodepool-static-valid.yaml"), NULL, NULL, 0, 0, { NULL } },
	{ "all:NodeClaim", NULL, FIXTURE("nodeclaim-valid.yaml"), NULL, NULL, 0, 0, { NULL } },
	{ "all:KWOKNodeClass", NULL, FIXTURE("kwok-nodeclass-valid.yaml"), NULL, NULL, 0, 0, { NULL } },
	/* the smallest valid objects */
	{ "NodePool:spec:required", NP_HEAD META NP_SPEC_OK, NULL, NULL, NULL, 0, 0, { NULL } },
	{ "NodeClaim:spec:required", NC_HEAD META NC_SPEC_OK, NULL, NULL, NULL, 0, 0, { NULL } },
	{ "KWOKNodeClass:spec.nodeRegistrationDelay:pattern", KW_HEAD META, NULL, NULL, NULL, 0, 0,
	  { NULL } },
	/* bounds, exactly at the limit */
	{ "NodePool:spec.template.metadata.labels:maxProperties", NULL, NULL, build_labels100, NULL, 0,
	  0, { NULL } },
	{ "NodePool:spec.template.spec.requirements:maxItems", NULL, NULL, build_np_requirements100,
	  NULL, 0, 0, { NULL } },
	{ "NodePool:metadata.annotations:size", NULL, NULL, build_np_annotations_max, NULL, 0, 0,
	  { NULL } },
	{ "NodePool:spec.weight:minimum", NP("weight: 1, template: {spec: {" REF ", requirements: []}}"),
	  NULL, NULL, NULL, 0, 0, { NULL } },
	{ "NodePool:spec.template.metadata.labels.*:maxLength",
	  NP_L("app: " A60 "aaa"), NULL, NULL, NULL, 0, 0, { NULL } },
	{ "NodePool:spec.template.spec.requirements[*].key:maxLength",
	  NP_R("{key: example.com/" A300 "aaaa, operator: Exists}"), NULL, NULL, NULL, CRD, 0, { NULL } },
	/* upstream CEL tests that must succeed */
	{ "NodePool:spec.template.spec.requirements[*].key:x-kubernetes-validations[0]",
	  NP_R("{key: kubernetes.io/test, operator: In, values: [test]}, "
	       "{key: k8s.io/test, operator: In, values: [test]}, "
	       "{key: subdomain.kubernetes.io/test, operator: In, values: [test]}, "
	       "{key: subdomain.k8s.io/test, operator: In, values: [test]}, "
	       "{key: topology.kubernetes.io/region, operator: In, values: [test]}, "
	       "{key: node.kubernetes.io/windows-build, operator: In, values: [test]}"),
	  NULL, NULL, NULL, 0, 0, { NULL } },
	{ "NodePool:spec.template.spec.requirements:x-kubernetes-validations[0] "
	  "NodePool:spec.template.spec.requirements:x-kubernetes-validations[1]",
	  NP_R("{key: topology.kubernetes.io/zone, operator: In, values: [test]}, "
	       "{key: topology.kubernetes.io/zone, operator: Gt, values: [\"1\"]}, "
	       "{key: topology.kubernetes.io/zone, operator: Lt, values: [\"1\"]}, "
	       "{key: topology.kubernetes.io/zone, operator: NotIn}, "
	       "{key: topology.kubernetes.io/zone, operator: Exists}"),
	  NULL, NULL, NULL, 0, 0, { NULL } },
	{ "NodePool:spec.template.spec.requirements:x-kubernetes-validations[0]", NP_R(""), NULL, NULL,
	  NULL, 0, 0, { NULL } },
	{ "NodePool:spec.template.metadata.labels:x-kubernetes-validations[0]",
	  NP_L("kubernetes.io: v, k8s.io/key: v, subdomain.kubernetes.io/key: v, "
	       "kops.k8s.io/instancegroup: karpenter-nodes, kops.k8s.io/gpu: \"1\""),
	  NULL, NULL, NULL, 0, 0, { NULL } },
	{ "NodePool:spec.template.spec.taints[*].key:pattern",
	  NP_T(", taints: [{key: a, value: b, effect: NoSchedule}, {key: Test, value: f, effect: "
	       "PreferNoSchedule}, {key: test.com/Test, value: f, effect: PreferNoSchedule}, "
	       "{key: test.com.com/test, value: f, effect: PreferNoSchedule}, {key: key-only, "
	       "effect: NoExecute}, {key: a, effect: NoExecute}]"),
	  NULL, NULL, NULL, 0, 0, { NULL } },
	{ "NodePool:spec.disruption.budgets[*].schedule:pattern NodePool:spec.disruption.budgets[*].schedule:cron",
	  NP_D("budgets: [{nodes: \"10\", schedule: \"@annually\", duration: 20m}, {nodes: \"10\", "
	       "schedule: \"0 22 * * sat,sun\", duration: 2h20m}]"),
	  NULL, NULL, NULL, 0, 0, { NULL } },
	/* The values' maxLength and pattern sit on the array: kube-openapi skips them. */
	{ "NodePool:spec.template.spec.requirements[*].values:maxLength "
	  "NodePool:spec.template.spec.requirements[*].values:pattern",
	  NP_R("{key: example.com/k, operator: In, values: [\"" V64 "\", \"not a label value\"]}"),
	  NULL, NULL, NULL, CRD, 0, { NULL } },
	{ "NodeClaim:spec.requirements[*].values:maxLength NodeClaim:spec.requirements[*].values:pattern",
	  NC_R("{key: example.com/k, operator: In, values: [\"" V64 "\", \"not a label value\"]}"),
	  NULL, NULL, NULL, 0, 0, { NULL } },

	/* ------------------------------------------------------------- ObjectMeta */
	METADATA_CASES("NodePool", NP_HEAD, NP_SPEC_OK, " NodePool:*:x-kubernetes-validations-skipped",
		       AND_SKIPPED),
	METADATA_CASES("NodeClaim", NC_HEAD, NC_SPEC_OK,
		       " NodeClaim:*:x-kubernetes-validations-skipped", AND_SKIPPED),
	/* KWOKNodeClass has no CEL rules, so nothing is skipped */
	METADATA_CASES("KWOKNodeClass", KW_HEAD, "", "", ),
	{ "NodePool:metadata.annotations:size NodePool:*:x-kubernetes-validations-skipped", NULL, NULL,
	  build_np_annotations_big, NULL, 0, 0,
	  { "metadata.annotations: Too long: may not be more than 262144 bytes", SKIPPED } },
	{ "NodeClaim:metadata.annotations:size", NULL, NULL, build_nc_annotations_big, NULL, 0, 0,
	  { "metadata.annotations: Too long: may not be more than 262144 bytes", SKIPPED } },
	{ "KWOKNodeClass:metadata.annotations:size", NULL, NULL, build_kw_annotations_big, NULL, 0, 0,
	  { "metadata.annotations: Too long: may not be more than 262144 bytes" } },

	/* ---------------------------------------------------- NodePool: OpenAPI */
	{ "NodePool:spec:required", NP_HEAD META, NULL, NULL, NULL, 0, 0,
	  { REQUIRED("spec"), SKIPPED } },
	{ "NodePool:spec.template:required", NP("weight: 10"), NULL, NULL, NULL, 0, 0,
	  { REQUIRED("spec.template"), SKIPPED } },
	{ "NodePool:spec.template.spec:required", NP("template: {metadata: {labels: {a: b}}}"), NULL,
	  NULL, NULL, 0, 0, { REQUIRED("spec.template.spec"), SKIPPED } },
	{ "NodePool:spec.template.spec.nodeClassRef:required "
	  "NodePool:spec.template.spec.requirements:required",
	  NP("template: {spec: {expireAfter: 1h}}"), NULL, NULL, NULL, 0, 0,
	  { REQUIRED("spec.template.spec.nodeClassRef"), REQUIRED("spec.template.spec.requirements"),
	    SKIPPED } },
	{ "NodePool:spec.template.spec.nodeClassRef.group:required "
	  "NodePool:spec.template.spec.nodeClassRef.kind:required "
	  "NodePool:spec.template.spec.nodeClassRef.name:required",
	  NP("template: {spec: {nodeClassRef: {}, requirements: []}}"), NULL, NULL, NULL, 0, 0,
	  { REQUIRED("spec.template.spec.nodeClassRef.group"),
	    REQUIRED("spec.template.spec.nodeClassRef.kind"),
	    REQUIRED("spec.template.spec.nodeClassRef.name"), SKIPPED } },
	{ "NodePool:spec.template.spec.nodeClassRef.group:pattern",
	  NP("template: {spec: {nodeClassRef: {group: karpenter.test.sh/v1, kind: K, name: default}, "
	     "requirements: []}}"),
	  NULL, NULL, NULL, 0, 0,
	  { PAT("spec.template.spec.nodeClassRef.group", "karpenter.test.sh/v1", P_GROUP) } },
	{ "NodePool:spec.weight:maximum",
	  NP("weight: 101, template: {spec: {" REF ", requirements: []}}"), NULL, NULL, NULL, 0, 0,
	  { LE("spec.weight", "101", "100") } },
	{ "NodePool:spec.weight:minimum",
	  NP("weight: 0, template: {spec: {" REF ", requirements: []}}"), NULL, NULL, NULL, 0, 0,
	  { GE("spec.weight", "0", "1") } },
	{ "NodePool:spec.replicas:minimum NodePool:spec.replicas:scale.specReplicasPath",
	  NP("replicas: -100, template: {spec: {" REF ", requirements: []}}"), NULL, NULL, NULL, 0, 0,
	  { GE("spec.replicas", "-100", "0"),
	    ".spec.replicas: Invalid value: -100: should be a non-negative integer" } },
	{ "NodePool:spec.replicas:scale.specReplicasPath",
	  NP("replicas: 3000000000, template: {spec: {" REF ", requirements: []}}"), NULL, NULL, NULL,
	  0, 0, { ".spec.replicas: Invalid value: 3000000000: should be less than or equal to 2147483647" } },
	{ "NodePool:status.nodes:scale.statusReplicasPath", NP_S("nodes: -1"), NULL, NULL, NULL, 0, 0,
	  { ".status.nodes: Invalid value: -1: should be a non-negative integer" } },
	{ "NodePool:spec.template.spec.expireAfter:pattern", NP_T(", expireAfter: 1hr"), NULL, NULL,
	  NULL, 0, 0, { PAT("spec.template.spec.expireAfter", "1hr", P_NILLABLE) } },
	{ "NodePool:spec.template.spec.expireAfter:pattern", NP_T(", expireAfter: \"-1s\""), NULL, NULL,
	  NULL, 0, 0, { PAT("spec.template.spec.expireAfter", "-1s", P_NILLABLE) } },
	{ "NodePool:spec.template.spec.expireAfter:pattern", NP_T(", expireAfter: FooNever"), NULL,
	  NULL, NULL, 0, 0, { PAT("spec.template.spec.expireAfter", "FooNever", P_NILLABLE) } },
	{ "NodePool:spec.template.spec.terminationGracePeriod:pattern",
	  NP_T(", terminationGracePeriod: Never"), NULL, NULL, NULL, 0, 0,
	  { PAT("spec.template.spec.terminationGracePeriod", "Never", P_DURATION) } },
	{ "NodePool:spec.template.spec.terminationGracePeriod:pattern",
	  NP_T(", terminationGracePeriod: 1h30m5s"), NULL, NULL, NULL, 0, 0, { NULL } },
	{ "NodePool:spec.disruption.consolidateAfter:pattern", NP_D("consolidateAfter: 1hr"), NULL,
	  NULL, NULL, 0, 0, { PAT("spec.disruption.consolidateAfter", "1hr", P_NILLABLE) } },
	{ "NodePool:spec.disruption.consolidationPolicy:enum", NP_D("consolidationPolicy: whenempty"),
	  NULL, NULL, NULL, 0, 0,
	  { NOTSUP("spec.disruption.consolidationPolicy", "whenempty", POLICIES), SKIPPED } },
	{ "NodePool:spec.disruption.consolidationPolicy:enum", NP_D("consolidationPolicy: \"\""), NULL,
	  NULL, NULL, 0, 0, { NOTSUP("spec.disruption.consolidationPolicy", "", POLICIES), SKIPPED } },
	{ "NodePool:spec.disruption.budgets:maxItems", NULL, NULL, build_budgets51, NULL, 0, 0,
	  { TOOMANY("spec.disruption.budgets", "51", "50"), SKIPPED } },
	{ "NodePool:spec.disruption.budgets[*].nodes:pattern",
	  NP_D("budgets: [{nodes: \"-10\"}, {nodes: \"-10%\"}, {nodes: \"1000%\"}, {nodes: \"100%\"}]"),
	  NULL, NULL, NULL, 0, 0,
	  { PAT("spec.disruption.budgets[0].nodes", "-10", P_NODES),
	    PAT("spec.disruption.budgets[1].nodes", "-10%", P_NODES),
	    PAT("spec.disruption.budgets[2].nodes", "1000%", P_NODES) } },
	{ "NodePool:spec.disruption.budgets[*].nodes:required NodePool:*:x-kubernetes-validations-skipped",
	  NP_D("budgets: [{reasons: [Empty]}]"), NULL, NULL, NULL, 0, 1,
	  { REQUIRED("spec.disruption.budgets[0].nodes"), SKIPPED } },
	{ "NodePool:spec.disruption.budgets[*].duration:pattern",
	  NP_D("budgets: [{nodes: \"10\", schedule: \"* * * * *\", duration: 30s}, {nodes: \"10\", "
	       "schedule: \"* * * * *\", duration: \"-20m\"}]"),
	  NULL, NULL, NULL, 0, 0,
	  { PAT("spec.disruption.budgets[0].duration", "30s", P_BUDGET_DUR),
	    PAT("spec.disruption.budgets[1].duration", "-20m", P_BUDGET_DUR) } },
	/* the pattern bounds no number; Go's time.Duration does (audit finding 6):
	 * 2562047h passes, 2562048h and 9999999999h fail time.ParseDuration */
	{ "NodePool:spec.disruption.budgets[*].duration:runtime-duration",
	  NP_D("budgets: [{nodes: \"10\", schedule: \"* * * * *\", duration: 2562047h}, {nodes: \"10\", "
	       "schedule: \"* * * * *\", duration: 2562048h}, {nodes: \"1\", schedule: \"* * * * *\", "
	       "duration: 9999999999h}]"),
	  NULL, NULL, NULL, 0, 0,
	  { "spec.disruption.budgets[1].duration: Invalid value: \"2562048h\": time: invalid duration "
	    "\"2562048h\"",
	    "spec.disruption.budgets[2].duration: Invalid value: \"9999999999h\": time: invalid duration "
	    "\"9999999999h\"" } },
	{ "NodePool:spec.disruption.consolidateAfter:runtime-duration",
	  NP_D("consolidateAfter: 9999999999h"), NULL, NULL, NULL, 0, 0,
	  { "spec.disruption.consolidateAfter: Invalid value: \"9999999999h\": time: invalid duration "
	    "\"9999999999h\"" } },
	{ "NodePool:spec.template.spec.expireAfter:runtime-duration "
	  "NodePool:spec.template.spec.terminationGracePeriod:runtime-duration",
	  NP_T(", expireAfter: 2562048h, terminationGracePeriod: 9223372037s"), NULL, NULL, NULL, 0, 0,
	  { "spec.template.spec.expireAfter: Invalid value: \"2562048h\": time: invalid duration "
	    "\"2562048h\"",
	    "spec.template.spec.terminationGracePeriod: Invalid value: \"9223372037s\": time: invalid "
	    "duration \"9223372037s\"" } },
	{ "NodeClaim:spec.expireAfter:runtime-duration NodeClaim:spec.terminationGracePeriod:runtime-duration",
	  NC_T(", expireAfter: 99999999999m, terminationGracePeriod: 9999999999h"), NULL, NULL, NULL, 0, 0,
	  { "spec.expireAfter: Invalid value: \"99999999999m\": time: invalid duration \"99999999999m\"",
	    "spec.terminationGracePeriod: Invalid value: \"9999999999h\": time: invalid duration "
	    "\"9999999999h\"" } },
	/* (the cron parser's own complaints about these are warnings:
	 * test_cron_warning) */
	{ "NodePool:spec.disruption.budgets[*].schedule:pattern",
	  NP_D("budgets: [{nodes: \"10\", schedule: \"*\", duration: 20m}, {nodes: \"10\", "
	       "schedule: \"* * * * \", duration: 20m}]"),
	  NULL, NULL, NULL, 0, 0,
	  { PAT("spec.disruption.budgets[0].schedule", "*", P_SCHEDULE),
	    PAT("spec.disruption.budgets[1].schedule", "* * * * ", P_SCHEDULE) } },
	{ "NodePool:spec.disruption.budgets[*].reasons:maxItems "
	  "NodePool:spec.disruption.budgets[*].reasons:x-kubernetes-list-type",
	  NULL, NULL, build_reasons51, NULL, 0, 0,
	  { TOOMANY("spec.disruption.budgets[0].reasons", "51", "50"),
	    "spec.disruption.budgets[0].reasons[3]: Duplicate value: \"Underutilized\"",
	    "spec.disruption.budgets[0].reasons[4]: Duplicate value: \"Empty\"",
	    "spec.disruption.budgets[0].reasons[5]: Duplicate value: \"Drifted\"", SKIPPED } },
	{ "NodePool:spec.disruption.budgets[*].reasons[*]:enum",
	  NP_D("budgets: [{nodes: \"10\", reasons: [invalid, expired, \"\"]}]"), NULL, NULL, NULL, 0,
	  0,
	  { NOTSUP("spec.disruption.budgets[0].reasons[0]", "invalid", REASONS),
	    NOTSUP("spec.disruption.budgets[0].reasons[1]", "expired", REASONS),
	    NOTSUP("spec.disruption.budgets[0].reasons[2]", "", REASONS), SKIPPED } },
	{ "NodePool:spec.disruption.budgets[*].reasons:x-kubernetes-list-type",
	  NP_D("budgets: [{nodes: \"10\", reasons: [Empty, Drifted, Empty, Empty]}]"), NULL, NULL,
	  NULL, 0, 0, { "spec.disruption.budgets[0].reasons[2]: Duplicate value: \"Empty\"" } },
	{ "NodePool:spec.template.metadata.labels:maxProperties", NULL, NULL, build_labels101, NULL,
	  0, 0, { TOOMANY("spec.template.metadata.labels", "101", "100"), SKIPPED } },
	{ "NodePool:spec.template.metadata.labels.*:maxLength", NP_L("app: " V64), NULL, NULL, NULL,
	  CRD, 0, { TOOLONG("spec.template.metadata.labels.app", "63"), SKIPPED } },
	{ "NodePool:spec.template.metadata.labels.*:pattern",
	  NP_L("example.com/app: \"/ is not allowed\""), NULL, NULL, NULL, CRD, 0,
	  { PAT("spec.template.metadata.labels.example.com/app", "/ is not allowed",
		P_LABEL_VALUE) } },
	{ "NodePool:spec.template.spec.requirements:maxItems", NULL, NULL, build_np_requirements101,
	  NULL, 0, 0, { TOOMANY("spec.template.spec.requirements", "101", "100"), SKIPPED } },
	{ "NodePool:spec.template.spec.requirements[*].key:maxLength",
	  NP_R("{key: " K317 ", operator: Exists}"), NULL, NULL, NULL, CRD, 0,
	  { TOOLONG("spec.template.spec.requirements[0].key", "316"), SKIPPED } },
	{ "NodePool:spec.template.spec.requirements[*].key:pattern",
	  NP_R("{key: \"test.com.com}\", operator: Exists}, {key: Test.com/test, operator: Exists}, "
	       "{key: test/test/test, operator: Exists}, {key: test/, operator: Exists}, "
	       "{key: /test, operator: Exists}"),
	  NULL, NULL, NULL, CRD, 0,
	  { PAT("spec.template.spec.requirements[0].key", "test.com.com}", P_KEY),
	    PAT("spec.template.spec.requirements[1].key", "Test.com/test", P_KEY),
	    PAT("spec.template.spec.requirements[2].key", "test/test/test", P_KEY),
	    PAT("spec.template.spec.requirements[3].key", "test/", P_KEY),
	    PAT("spec.template.spec.requirements[4].key", "/test", P_KEY) } },
	{ "NodePool:spec.template.spec.requirements[*].minValues:minimum",
	  NP_R("{key: node.kubernetes.io/instance-type, operator: In, values: [a], minValues: 0}, "
	       "{key: node.kubernetes.io/instance-type, operator: In, values: [a], minValues: -1}"),
	  NULL, NULL, NULL, CRD, 0,
	  { GE("spec.template.spec.requirements[0].minValues", "0", "1"),
	    GE("spec.template.spec.requirements[1].minValues", "-1", "1") } },
	{ "NodePool:spec.template.spec.requirements[*].minValues:maximum",
	  NP_R("{key: node.kubernetes.io/instance-type, operator: Exists, minValues: 51}"), NULL,
	  NULL, NULL, CRD, 0, { LE("spec.template.spec.requirements[0].minValues", "51", "50") } },
	{ "NodePool:spec.template.spec.requirements[*].operator:enum",
	  NP_R("{key: topology.kubernetes.io/zone, operator: unknown, values: [test]}"), NULL, NULL,
	  NULL, CRD, 0,
	  { NOTSUP("spec.template.spec.requirements[0].operator", "unknown", OPS), SKIPPED } },
	{ "NodePool:spec.template.spec.requirements[*].key:required "
	  "NodePool:spec.template.spec.requirements[*].operator:required",
	  NP_R("{values: [a]}"), NULL, NULL, NULL, CRD, 0,
	  { REQUIRED("spec.template.spec.requirements[0].key"),
	    REQUIRED("spec.template.spec.requirements[0].operator"), SKIPPED } },
#define TAINT_CASES(F)                                                                        \
	{ "NodePool:spec.template.spec." F "[*].key:required NodePool:spec.template.spec." F      \
	  "[*].effect:required",                                                                 \
	  NP_T(", " F ": [{value: v}]"), NULL, NULL, NULL, CRD, 0,                               \
	  { REQUIRED("spec.template.spec." F "[0].effect"),                                      \
	    REQUIRED("spec.template.spec." F "[0].key"), SKIPPED } },                            \
	{ "NodePool:spec.template.spec." F "[*].key:minLength",                                  \
	  NP_T(", " F ": [{key: \"\", effect: NoSchedule}]"), NULL, NULL, NULL, CRD, 0,          \
	  { MINLEN("spec.template.spec." F "[0].key", "", "1") } },                               \
	{ "NodePool:spec.template.spec." F "[*].key:pattern",                                    \
	  NP_T(", " F ": [{key: \"???\", effect: NoSchedule}, {key: test/, effect: NoSchedule}]"),  \
	  NULL, NULL, NULL, CRD, 0,                                                              \
	  { PAT("spec.template.spec." F "[0].key", "???", P_KEY),                                \
	    PAT("spec.template.spec." F "[1].key", "test/", P_KEY) } },                          \
	{ "NodePool:spec.template.spec." F "[*].value:pattern",                                  \
	  NP_T(", " F ": [{key: invalid-value, value: \"???\", effect: NoSchedule}, "            \
	       "{key: empty-value, value: \"\", effect: NoSchedule}]"),                          \
	  NULL, NULL, NULL, CRD, 0,                                                              \
	  { PAT("spec.template.spec." F "[0].value", "???", P_KEY),                              \
	    PAT("spec.template.spec." F "[1].value", "", P_KEY) } }
	TAINT_CASES("taints"),
	TAINT_CASES("startupTaints"),
	{ "NodePool:status.conditions[*].lastTransitionTime:required "
	  "NodePool:status.conditions[*].message:required NodePool:status.conditions[*].reason:required "
	  "NodePool:status.conditions[*].status:required NodePool:status.conditions[*].type:required",
	  NP_C("{}"), NULL, NULL, NULL, 0, 0,
	  { REQUIRED("status.conditions[0].lastTransitionTime"), REQUIRED("status.conditions[0].message"),
	    REQUIRED("status.conditions[0].reason"), REQUIRED("status.conditions[0].status"),
	    REQUIRED("status.conditions[0].type"), SKIPPED } },
	{ "NodePool:status.conditions[*].message:maxLength", NULL, NULL, build_np_message32769, NULL, 0,
	  0, { TOOLONG("status.conditions[0].message", "32768"), SKIPPED } },
	{ "NodePool:status.conditions[*].reason:maxLength", NULL, NULL, build_np_reason1025, NULL, 0,
	  0, { TOOLONG("status.conditions[0].reason", "1024"), SKIPPED } },
	{ "NodePool:status.conditions[*].type:maxLength", NULL, NULL, build_np_type317, NULL, 0, 0,
	  { TOOLONG("status.conditions[0].type", "316"), SKIPPED } },
	{ "NodePool:status.conditions[*].reason:minLength NodePool:status.conditions[*].reason:pattern "
	  "NodePool:status.conditions[*].status:enum NodePool:status.conditions[*].type:pattern "
	  "NodePool:status.conditions[*].observedGeneration:minimum",
	  NP_C("{type: Ready, status: \"True\", reason: \"\", message: \"\", " LTT "}, "
	       "{type: \"bad type\", status: Maybe, reason: 1bad, message: \"\", " LTT
	       ", observedGeneration: -1}"),
	  NULL, NULL, NULL, 0, 0,
	  { MINLEN("status.conditions[0].reason", "", "1"),
	    GE("status.conditions[1].observedGeneration", "-1", "0"),
	    PAT("status.conditions[1].reason", "1bad", P_REASON_NP),
	    NOTSUP("status.conditions[1].status", "Maybe", STATUSES),
	    PAT("status.conditions[1].type", "bad type", P_COND_TYPE), SKIPPED } },
	{ "NodePool:status.conditions:x-kubernetes-list-type",
	  NP_C(COND_OK ", " COND_OK ", {status: \"True\", reason: A, message: \"\", " LTT "}, "
	       "{status: \"True\", reason: A, message: \"\", " LTT "}, " COND_OK),
	  NULL, NULL, NULL, 0, 0,
	  { REQUIRED("status.conditions[2].type"), REQUIRED("status.conditions[3].type"),
	    "status.conditions[1]: Duplicate value: {\"type\":\"Ready\"}",
	    "status.conditions[3]: Duplicate value: {}", SKIPPED } },
	{ "NodePool:status.conditions:x-kubernetes-list-type", NP_C(COND_OK), NULL, NULL, NULL,
	  KP_VALIDATE_NO_STATUS, 0, { NULL } },

	/* -------------------------------------------------------- NodePool: CEL */
	{ "NodePool:spec:x-kubernetes-validations[1]",
	  NP("replicas: 10, limits: {cpu: \"1000\"}, template: {spec: {" REF ", requirements: []}}"),
	  NULL, NULL, NULL, 0, 0,
	  { CEL("spec", "only 'limits.nodes' is supported on static NodePools") } },
	{ "NodePool:spec:x-kubernetes-validations[1]",
	  NP("replicas: 10, limits: {nodes: \"10\", cpu: \"1\"}, template: {spec: {" REF
	     ", requirements: []}}"),
	  NULL, NULL, NULL, 0, 0,
	  { CEL("spec", "only 'limits.nodes' is supported on static NodePools") } },
	{ "NodePool:spec:x-kubernetes-validations[1]",
	  NP("replicas: 10, limits: {}, template: {spec: {" REF ", requirements: []}}"), NULL, NULL,
	  NULL, 0, 0, { NULL } },
	{ "NodePool:spec:x-kubernetes-validations[2]",
	  NP("replicas: 10, weight: 25, template: {spec: {" REF ", requirements: []}}"), NULL, NULL,
	  NULL, 0, 0, { CEL("spec", "'weight' is not supported on static NodePools") } },
	{ "NodePool:spec:x-kubernetes-validations[0]",
	  NP("replicas: 3, template: {spec: {" REF ", requirements: []}}"), NULL, NULL,
	  NP("template: {spec: {" REF ", requirements: []}}"), 0, 0,
	  { CEL("spec", "Cannot transition NodePool between static (replicas set) and dynamic "
			"(replicas unset) provisioning modes") } },
	{ "NodePool:spec:x-kubernetes-validations[0]",
	  NP("template: {spec: {" REF ", requirements: []}}"), NULL, NULL,
	  NP("replicas: 3, template: {spec: {" REF ", requirements: []}}"), 0, 0,
	  { CEL("spec", "Cannot transition NodePool between static (replicas set) and dynamic "
			"(replicas unset) provisioning modes") } },
	{ "NodePool:spec:x-kubernetes-validations[0] "
	  "NodePool:spec.template.spec.nodeClassRef:x-kubernetes-validations[0] "
	  "NodePool:spec.template.spec.nodeClassRef:x-kubernetes-validations[1]",
	  NP("replicas: 5, limits: {nodes: \"100\"}, template: {spec: {" REF ", requirements: []}}"),
	  NULL, NULL,
	  NP("replicas: 3, limits: {nodes: \"10\"}, template: {spec: {" REF ", requirements: []}}"), 0,
	  0, { NULL } },
	{ "NodePool:spec.template.spec.nodeClassRef:x-kubernetes-validations[0]",
	  NP("template: {spec: {nodeClassRef: {group: karpenter.test.mutated.sh, kind: TestNodeClass, "
	     "name: default}, requirements: []}}"),
	  NULL, NULL, NP_HEAD META NP_SPEC_OK, 0, 0,
	  { CEL("spec.template.spec.nodeClassRef", "nodeClassRef.group is immutable") } },
	{ "NodePool:spec.template.spec.nodeClassRef:x-kubernetes-validations[1]",
	  NP("template: {spec: {nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass2, name: "
	     "other}, requirements: []}}"),
	  NULL, NULL, NP_HEAD META NP_SPEC_OK, 0, 0,
	  { CEL("spec.template.spec.nodeClassRef", "nodeClassRef.kind is immutable") } },
	{ "NodePool:spec.template.spec.nodeClassRef.group:x-kubernetes-validations[0]",
	  NP("template: {spec: {nodeClassRef: {group: \"\", kind: TestNodeClass, name: default}, "
	     "requirements: []}}"),
	  NULL, NULL, NULL, 0, 0,
	  { CELV("spec.template.spec.nodeClassRef.group", "", "group may not be empty") } },
	{ "NodePool:spec.template.spec.nodeClassRef.kind:x-kubernetes-validations[0]",
	  NP("template: {spec: {nodeClassRef: {group: g.sh, kind: \"\", name: default}, "
	     "requirements: []}}"),
	  NULL, NULL, NULL, 0, 0,
	  { CELV("spec.template.spec.nodeClassRef.kind", "", "kind may not be empty") } },
	{ "NodePool:spec.template.spec.nodeClassRef.name:x-kubernetes-validations[0]",
	  NP("template: {spec: {nodeClassRef: {group: g.sh, kind: K, name: \"\"}, requirements: []}}"),
	  NULL, NULL, NULL, 0, 0,
	  { CELV("spec.template.spec.nodeClassRef.name", "", "name may not be empty") } },
	{ "NodePool:spec.disruption.budgets:x-kubernetes-validations[0]",
	  NP_D("budgets: [{nodes: \"10\", duration: 20m}, {nodes: \"10\", schedule: \"* * * * *\", "
	       "duration: 20m}, {nodes: \"10\"}]"),
	  NULL, NULL, NULL, 0, 0,
	  { CEL("spec.disruption.budgets", "'schedule' must be set with 'duration'") } },
	{ "NodePool:spec.disruption.budgets:x-kubernetes-validations[0]",
	  NP_D("budgets: [{nodes: \"10\", schedule: \"* * * * *\"}]"), NULL, NULL, NULL, 0, 0,
	  { CEL("spec.disruption.budgets", "'schedule' must be set with 'duration'") } },
	{ "NodePool:spec.template.metadata.labels:x-kubernetes-validations[0]",
	  NP_L("karpenter.sh/unknown: v, sub.karpenter.sh: v"), NULL, NULL, NULL, CRD, 0,
	  { CEL("spec.template.metadata.labels", "label domain \"karpenter.sh\" is restricted") } },
	{ "NodePool:spec.template.metadata.labels:x-kubernetes-validations[1]",
	  NP_L("karpenter.sh/nodepool: v"), NULL, NULL, NULL, CRD, 0,
	  { CEL("spec.template.metadata.labels", "label \"karpenter.sh/nodepool\" is restricted") } },
	{ "NodePool:spec.template.metadata.labels:x-kubernetes-validations[2]",
	  NP_L("kubernetes.io/hostname: v"), NULL, NULL, NULL, CRD, 0,
	  { CEL("spec.template.metadata.labels", "label \"kubernetes.io/hostname\" is restricted") } },
	{ "NodePool:spec.template.spec.requirements[*].key:x-kubernetes-validations[0]",
	  NP_R("{key: karpenter.sh/test, operator: In, values: [test]}, "
	       "{key: notkarpenter.sh/test, operator: Exists}"),
	  NULL, NULL, NULL, CRD, 0,
	  { CELV("spec.template.spec.requirements[0].key", "karpenter.sh/test",
		 "label domain \"karpenter.sh\" is restricted"),
	    CELV("spec.template.spec.requirements[1].key", "notkarpenter.sh/test",
		 "label domain \"karpenter.sh\" is restricted") } },
	{ "NodePool:spec.template.spec.requirements[*].key:x-kubernetes-validations[1]",
	  NP_R("{key: karpenter.sh/nodepool, operator: In, values: [test]}"), NULL, NULL, NULL, CRD, 0,
	  { CELV("spec.template.spec.requirements[0].key", "karpenter.sh/nodepool",
		 "label \"karpenter.sh/nodepool\" is restricted") } },
	{ "NodePool:spec.template.spec.requirements[*].key:x-kubernetes-validations[2]",
	  NP_R("{key: kubernetes.io/hostname, operator: In, values: [test]}"), NULL, NULL, NULL, CRD,
	  0,
	  { CELV("spec.template.spec.requirements[0].key", "kubernetes.io/hostname",
		 "label \"kubernetes.io/hostname\" is restricted") } },
	{ "NodePool:spec.template.spec.requirements:x-kubernetes-validations[0]",
	  NP_R("{key: example.com/a, operator: In, values: []}"), NULL, NULL, NULL, CRD, 0,
	  { CEL("spec.template.spec.requirements",
		"requirements with operator 'In' must have a value defined") } },
	{ "NodePool:spec.template.spec.requirements:x-kubernetes-validations[0]",
	  NP_R("{key: example.com/a, operator: In}"), NULL, NULL, NULL, CRD, 0,
	  { CELERR("spec.template.spec.requirements", "array", "no such key: values",
		   "requirements with operator 'In' must have a value defined") } },
	{ "NodePool:spec.template.spec.requirements:x-kubernetes-validations[0]",
	  NP_R("{key: example.com/a, operator: In}, {key: example.com/b, operator: In, values: []}"),
	  NULL, NULL, NULL, CRD, 0,
	  { CEL("spec.template.spec.requirements",
		"requirements with operator 'In' must have a value defined") } },
	{ "NodePool:spec.template.spec.requirements:x-kubernetes-validations[1]",
	  NP_R("{key: topology.kubernetes.io/zone, operator: Gt, values: [\"1\", \"2\"]}"), NULL, NULL,
	  NULL, CRD, 0,
	  { CEL("spec.template.spec.requirements", "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' "
						   "must have a single positive integer value") } },
	{ "NodePool:spec.template.spec.requirements:x-kubernetes-validations[1]",
	  NP_R("{key: topology.kubernetes.io/zone, operator: Lte, values: [\"-1\"]}"), NULL, NULL,
	  NULL, CRD, 0,
	  { CEL("spec.template.spec.requirements", "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' "
						   "must have a single positive integer value") } },
	{ "NodePool:spec.template.spec.requirements:x-kubernetes-validations[1]",
	  NP_R("{key: topology.kubernetes.io/zone, operator: Lt, values: [a]}"), NULL, NULL, NULL, CRD,
	  0,
	  { CELERR("spec.template.spec.requirements", "array",
		   "type conversion error from 'string' to 'int'",
		   "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive "
		   "integer value") } },
	{ "NodePool:spec.template.spec.requirements:x-kubernetes-validations[1]",
	  NP_R("{key: topology.kubernetes.io/zone, operator: Gte}"), NULL, NULL, NULL, CRD, 0,
	  { CELERR("spec.template.spec.requirements", "array", "no such key: values",
		   "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive "
		   "integer value") } },
	{ "NodePool:spec.template.spec.requirements:x-kubernetes-validations[2]",
	  NP_R("{key: node.kubernetes.io/instance-type, operator: In, values: [insance-type-1], "
	       "minValues: 2}"),
	  NULL, NULL, NULL, CRD, 0,
	  { CEL("spec.template.spec.requirements", "requirements with 'minValues' must have at least "
						   "that many values specified in the 'values' field") } },
	/* absent operator with minValues: the API server would not run CEL; ALL_CEL shows how
	 * the rules evaluate */
	{ "NodePool:spec.template.spec.requirements:x-kubernetes-validations[2]",
	  NP_R("{key: example.com/a, minValues: 1}"), NULL, NULL, NULL, CRD | KP_VALIDATE_ALL_CEL, 0,
	  { REQUIRED("spec.template.spec.requirements[0].operator"),
	    CELERR("spec.template.spec.requirements", "array", "no such key: operator",
		   "requirements with operator 'In' must have a value defined"),
	    CELERR("spec.template.spec.requirements", "array", "no such key: operator",
		   "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive "
		   "integer value"),
	    CELERR("spec.template.spec.requirements", "array", "no such key: operator",
		   "requirements with 'minValues' must have at least that many values specified in "
		   "the 'values' field") } },

	/* ---------------------------------------------------- NodePool: runtime */
	{ "NodePool:spec.template.metadata.labels:runtime-nodepool-label "
	  "NodePool:spec.template.metadata.labels:x-kubernetes-validations[1]",
	  NP_L("karpenter.sh/nodepool: v"), NULL, NULL, NULL, 0, 0,
	  { CEL("spec.template.metadata.labels", "label \"karpenter.sh/nodepool\" is restricted"),
	    "spec.template.metadata.labels: invalid key name \"karpenter.sh/nodepool\" in labels, "
	    "restricted" } },
	{ "NodePool:spec.template.metadata.labels:runtime-key-qualified-name",
	  NP_L("spaces are not allowed: v"), NULL, NULL, NULL, 0, 0,
	  { "spec.template.metadata.labels: invalid key name \"spaces are not allowed\" in labels, \""
	    NAME_MSG "\"" } },
	{ "NodePool:spec.template.metadata.labels:runtime-key-qualified-name",
	  NP_L(K_LONG_PREFIX ": v"), NULL, NULL, NULL, 0, 0,
	  { "spec.template.metadata.labels: invalid key name \"" K_LONG_PREFIX "\" in labels, "
	    "\"prefix part must be no more than 253 bytes\"" } },
	{ "NodePool:spec.template.metadata.labels:runtime-value",
	  NP_L("app: \"/ is not allowed\""), NULL, NULL, NULL, 0, 0,
	  { PAT("spec.template.metadata.labels.app", "/ is not allowed", P_LABEL_VALUE),
	    "spec.template.metadata.labels: invalid value: / is not allowed for label[app], " VALUE_MSG } },
	{ "NodePool:spec.template.metadata.labels:runtime-restricted "
	  "NodePool:spec.template.metadata.labels:x-kubernetes-validations[0]",
	  NP_L("karpenter.sh/unknown: v"), NULL, NULL, NULL, 0, 0,
	  { CEL("spec.template.metadata.labels", "label domain \"karpenter.sh\" is restricted"),
	    "spec.template.metadata.labels: invalid key name \"karpenter.sh/unknown\" in labels, "
	    RESTRICTED("karpenter.sh/unknown") } },
	{ "NodePool:spec.template.metadata.labels:runtime-restricted",
	  NP_L("kubernetes.io/hostname: v"), NULL, NULL, NULL, KP_VALIDATE_ALL_CEL, 0,
	  { CEL("spec.template.metadata.labels", "label \"kubernetes.io/hostname\" is restricted"),
	    "spec.template.metadata.labels: invalid key name \"kubernetes.io/hostname\" in labels, "
	    RESTRICTED("kubernetes.io/hostname") } },
#define RUNTIME_TAINT_CASES(F)                                                                  \
	{ "NodePool:spec.template.spec." F "[*]:runtime-empty-key "                                \
	  "NodePool:spec.template.spec." F "[*]:runtime-key-qualified-name",                       \
	  NP_T(", " F ": [{key: \"\", effect: NoSchedule}, {key: \"\", effect: NoExecute}]"), NULL, \
	  NULL, NULL, 0, 0,                                                                        \
	  { MINLEN("spec.template.spec." F "[0].key", "", "1"),                                    \
	    MINLEN("spec.template.spec." F "[1].key", "", "1"),                                    \
	    "spec.template.spec." F "[0]: invalid value: %!w(<nil>) in " F,                        \
	    "spec.template.spec." F "[0]: invalid value: name part must be non-empty in " F,       \
	    "spec.template.spec." F "[0]: invalid value: " NAME_MSG " in " F,                      \
	    "spec.template.spec." F "[1]: invalid value: invalid value: %!w(<nil>) in " F          \
	    "; invalid value: name part must be non-empty in " F "; invalid value: " NAME_MSG      \
	    " in " F " in " F,                                                                     \
	    "spec.template.spec." F "[1]: invalid value: name part must be non-empty in " F,       \
	    "spec.template.spec." F "[1]: invalid value: " NAME_MSG " in " F } },                  \
	{ "NodePool:spec.template.spec." F "[*]:runtime-key-qualified-name",                       \
	  NP_T(", " F ": [{key: " K_LONG_PREFIX ", effect: NoSchedule}]"), NULL, NULL, NULL, 0, 0,  \
	  { "spec.template.spec." F "[0]: invalid value: prefix part must be no more than 253 "    \
	    "bytes in " F } },                                                                    \
	{ "NodePool:spec.template.spec." F "[*]:runtime-value-qualified-name",                     \
	  NP_T(", " F ": [{key: a, value: " V64 ", effect: NoSchedule}]"), NULL, NULL, NULL, 0, 0,   \
	  { "spec.template.spec." F "[0]: invalid value: name part must be no more than 63 bytes " \
	    "in " F } },                                                                           \
	{ "NodePool:spec.template.spec." F "[*]:runtime-duplicate",                                \
	  NP_T(", " F ": [{key: c, effect: NoSchedule}, {key: c, effect: NoSchedule}]"), NULL,      \
	  NULL, NULL, 0, 0,                                                                        \
	  { "spec.template.spec." F "[1]: duplicate taint Key/Effect pair c=NoSchedule" } }
	RUNTIME_TAINT_CASES("taints"),
	RUNTIME_TAINT_CASES("startupTaints"),
	{ "NodePool:spec.template.spec.startupTaints[*]:runtime-duplicate",
	  NP_T(", taints: [{key: a, effect: NoSchedule}], startupTaints: [{key: a, effect: NoSchedule}, "
	       "{key: a, effect: NoExecute}]"),
	  NULL, NULL, NULL, 0, 0,
	  { "spec.template.spec.startupTaints[0]: duplicate taint Key/Effect pair a=NoSchedule" } },
	{ "NodePool:spec.template.spec.requirements[*]:runtime-requirement",
	  NP_R("{key: topology.kubernetes.io/zone, operator: In}, "
	       "{key: topology.kubernetes.io/zone, operator: Gt, values: [\"1\", \"2\"]}, "
	       "{key: example.com/a, operator: In, values: [\"/bad\"]}, "
	       "{key: node.kubernetes.io/instance-type, operator: In, values: [a], minValues: 2}, "
	       "{key: beta.kubernetes.io/arch, operator: Lte, values: [\"-1\"]}"),
	  NULL, NULL, NULL, KP_VALIDATE_ALL_CEL, 0,
	  { CELERR("spec.template.spec.requirements", "array", "no such key: values",
		   "requirements with operator 'In' must have a value defined"),
	    CEL("spec.template.spec.requirements", "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' "
						   "must have a single positive integer value"),
	    CEL("spec.template.spec.requirements", "requirements with 'minValues' must have at least "
						   "that many values specified in the 'values' field"),
	    "spec.template.spec.requirements[0]: invalid value: key topology.kubernetes.io/zone with "
	    "operator In must have a value defined in requirements, restricted",
	    "spec.template.spec.requirements[1]: invalid value: key topology.kubernetes.io/zone with "
	    "operator Gt must have a single positive integer value in requirements, restricted",
	    "spec.template.spec.requirements[2]: invalid value: invalid value /bad for key "
	    "example.com/a, " VALUE_MSG " in requirements, restricted",
	    "spec.template.spec.requirements[3]: invalid value: key node.kubernetes.io/instance-type "
	    "with operator In must have at least minimum number of values defined in 'values' field "
	    "in requirements, restricted",
	    "spec.template.spec.requirements[4]: invalid value: invalid value -1 for key "
	    "kubernetes.io/arch, " VALUE_MSG "; key kubernetes.io/arch with operator Lte must have a "
	    "single positive integer value in requirements, restricted" } },
	{ "NodePool:spec.template.spec.requirements[*]:runtime-requirement",
	  NP_R("{key: karpenter.sh/capacity-type, operator: In, values: [foo, bar]}, "
	       "{key: karpenter.sh/capacity-type, operator: In, values: [spot, foo], minValues: 2}, "
	       "{key: karpenter.sh/capacity-type, operator: In, values: [spot, foo], minValues: 1}, "
	       "{key: " K_LONG_PREFIX ", operator: Exists}"),
	  NULL, NULL, NULL, 0, 0,
	  { "spec.template.spec.requirements[0]: invalid value: no valid values found in [foo bar] for "
	    "karpenter.sh/capacity-type, expected one of: map[on-demand:{} reserved:{} spot:{}], got: "
	    "[foo bar] in requirements, restricted",
	    "spec.template.spec.requirements[1]: invalid value: not enough valid values found in "
	    "[spot foo] for karpenter.sh/capacity-type, expected at least 2 valid values from: "
	    "[on-demand reserved spot], got: 1 in requirements, restricted",
	    "spec.template.spec.requirements[3]: invalid value: key " K_LONG_PREFIX " is not a "
	    "qualified name, prefix part must be no more than 253 bytes in requirements, "
	    "restricted" } },
	{ "NodePool:spec.template.spec.requirements[*]:runtime-requirement "
	  "NodePool:spec.template.spec.requirements[*].key:runtime-nodepool-key",
	  NP_R("{key: karpenter.sh/nodepool, operator: In, values: [test]}, "
	       "{key: karpenter.sh/test, operator: In, values: [test]}, "
	       "{key: example.com/a, operator: Bogus}"),
	  NULL, NULL, NULL, KP_VALIDATE_ALL_CEL, 0,
	  { NOTSUP("spec.template.spec.requirements[2].operator", "Bogus", OPS),
	    CELV("spec.template.spec.requirements[0].key", "karpenter.sh/nodepool",
		 "label \"karpenter.sh/nodepool\" is restricted"),
	    CELV("spec.template.spec.requirements[1].key", "karpenter.sh/test",
		 "label domain \"karpenter.sh\" is restricted"),
	    "spec.template.spec.requirements[1]: invalid value: " RESTRICTED("karpenter.sh/test")
	    " in requirements, restricted",
	    "spec.template.spec.requirements[2]: invalid value: key example.com/a has an unsupported "
	    "operator Bogus not in [In NotIn Exists DoesNotExist Gt Lt Gte Lte] in requirements, "
	    "restricted",
	    "spec.template.spec.requirements[0].key: invalid key: \"karpenter.sh/nodepool\" in "
	    "requirements, restricted" } },
	/* schedules the CRD's pattern accepts and cron refuses are stored by
	 * the API server: warnings (test_cron_warning); only the pattern fails */
	{ "NodePool:spec.disruption.budgets[*].schedule:pattern",
	  NP_D("budgets: [{nodes: \"10\", schedule: \"0 9 * * sat-sun\", duration: 1h}, "
	       "{nodes: \"10\", schedule: \"60 * * * *\", duration: 1h}, "
	       "{nodes: \"10\", schedule: \"@fortnightly\", duration: 1h}]"),
	  NULL, NULL, NULL, 0, 0,
	  { PAT("spec.disruption.budgets[2].schedule", "@fortnightly", P_SCHEDULE) } },

	/* ----------------------------------------------------------- NodeClaim */
	{ "NodeClaim:spec:required", NC_HEAD META, NULL, NULL, NULL, 0, 0,
	  { REQUIRED("spec"), SKIPPED } },
	{ "NodeClaim:spec.nodeClassRef:required NodeClaim:spec.requirements:required",
	  NC("expireAfter: 1h"), NULL, NULL, NULL, 0, 0,
	  { REQUIRED("spec.nodeClassRef"), REQUIRED("spec.requirements"), SKIPPED } },
	{ "NodeClaim:spec.nodeClassRef.group:required NodeClaim:spec.nodeClassRef.kind:required "
	  "NodeClaim:spec.nodeClassRef.name:required",
	  NC("nodeClassRef: {}, requirements: []"), NULL, NULL, NULL, 0, 0,
	  { REQUIRED("spec.nodeClassRef.group"), REQUIRED("spec.nodeClassRef.kind"),
	    REQUIRED("spec.nodeClassRef.name"), SKIPPED } },
	{ "NodeClaim:spec.nodeClassRef.group:pattern",
	  NC("nodeClassRef: {group: karpenter.test.sh/v1, kind: TestNodeClass, name: nodeclass-test}, "
	     "requirements: []"),
	  NULL, NULL, NULL, 0, 0, { PAT("spec.nodeClassRef.group", "karpenter.test.sh/v1", P_GROUP) } },
	{ "NodeClaim:spec.nodeClassRef.group:x-kubernetes-validations[0] "
	  "NodeClaim:spec.nodeClassRef.kind:x-kubernetes-validations[0] "
	  "NodeClaim:spec.nodeClassRef.name:x-kubernetes-validations[0]",
	  NC("nodeClassRef: {group: \"\", kind: \"\", name: \"\"}, requirements: []"), NULL, NULL, NULL,
	  0, 0,
	  { CELV("spec.nodeClassRef.group", "", "group may not be empty"),
	    CELV("spec.nodeClassRef.kind", "", "kind may not be empty"),
	    CELV("spec.nodeClassRef.name", "", "name may not be empty") } },
	{ "NodeClaim:spec.expireAfter:pattern", NC_T(", expireAfter: 1hr"), NULL, NULL, NULL, 0, 0,
	  { PAT("spec.expireAfter", "1hr", P_NILLABLE) } },
	{ "NodeClaim:spec.terminationGracePeriod:pattern", NC_T(", terminationGracePeriod: \"-1s\""),
	  NULL, NULL, NULL, 0, 0, { PAT("spec.terminationGracePeriod", "-1s", P_DURATION) } },
	{ "NodeClaim:spec.requirements:maxItems", NULL, NULL, build_nc_requirements101, NULL, 0, 0,
	  { TOOMANY("spec.requirements", "101", "100"), SKIPPED } },
	{ "NodeClaim:spec.requirements[*].key:maxLength NodeClaim:spec.requirements[*].key:pattern",
	  NC_R("{key: " K317 ", operator: Exists}, {key: \"???\", operator: Exists}"), NULL, NULL, NULL,
	  0, 0,
	  { TOOLONG("spec.requirements[0].key", "316"), PAT("spec.requirements[1].key", "???", P_KEY),
	    SKIPPED } },
	{ "NodeClaim:spec.requirements[*].minValues:minimum NodeClaim:spec.requirements[*].minValues:maximum",
	  NC_R("{key: node.kubernetes.io/instance-type, operator: In, values: [a], minValues: 0}, "
	       "{key: node.kubernetes.io/instance-type, operator: Exists, minValues: 51}"),
	  NULL, NULL, NULL, 0, 0,
	  { GE("spec.requirements[0].minValues", "0", "1"),
	    LE("spec.requirements[1].minValues", "51", "50") } },
	{ "NodeClaim:spec.requirements[*].operator:enum NodeClaim:spec.requirements[*].key:required "
	  "NodeClaim:spec.requirements[*].operator:required",
	  NC_R("{key: topology.kubernetes.io/zone, operator: unknown, values: [test]}, {}"), NULL, NULL,
	  NULL, 0, 0,
	  { NOTSUP("spec.requirements[0].operator", "unknown", OPS), REQUIRED("spec.requirements[1].key"),
	    REQUIRED("spec.requirements[1].operator"), SKIPPED } },
	{ "NodeClaim:spec.requirements[*].key:x-kubernetes-validations[0] "
	  "NodeClaim:spec.requirements[*].key:x-kubernetes-validations[1]",
	  NC_R("{key: karpenter.sh/test, operator: In, values: [test]}, "
	       "{key: kubernetes.io/hostname, operator: In, values: [test]}, "
	       "{key: karpenter.sh/nodepool, operator: In, values: [test]}"),
	  NULL, NULL, NULL, 0, 0,
	  { CELV("spec.requirements[0].key", "karpenter.sh/test",
		 "label domain \"karpenter.sh\" is restricted"),
	    CELV("spec.requirements[1].key", "kubernetes.io/hostname",
		 "label \"kubernetes.io/hostname\" is restricted") } },
	{ "NodeClaim:spec.requirements:x-kubernetes-validations[0] "
	  "NodeClaim:spec.requirements:x-kubernetes-validations[1] "
	  "NodeClaim:spec.requirements:x-kubernetes-validations[2]",
	  NC_R("{key: example.com/a, operator: In, values: []}, "
	       "{key: example.com/b, operator: Gt, values: [a]}, "
	       "{key: example.com/c, operator: In, values: [a], minValues: 2}"),
	  NULL, NULL, NULL, 0, 0,
	  { CEL("spec.requirements", "requirements with operator 'In' must have a value defined"),
	    CELERR("spec.requirements", "array", "type conversion error from 'string' to 'int'",
		   "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive "
		   "integer value"),
	    CEL("spec.requirements", "requirements with 'minValues' must have at least that many "
				     "values specified in the 'values' field") } },
	{ "NodeClaim:spec.taints[*].key:required NodeClaim:spec.taints[*].effect:required "
	  "NodeClaim:spec.startupTaints[*].key:required NodeClaim:spec.startupTaints[*].effect:required",
	  NC_T(", taints: [{value: v}], startupTaints: [{value: v}]"), NULL, NULL, NULL, 0, 0,
	  { REQUIRED("spec.startupTaints[0].effect"), REQUIRED("spec.startupTaints[0].key"),
	    REQUIRED("spec.taints[0].effect"), REQUIRED("spec.taints[0].key"), SKIPPED } },
	{ "NodeClaim:spec.taints[*].key:minLength NodeClaim:spec.taints[*].key:pattern "
	  "NodeClaim:spec.taints[*].value:pattern NodeClaim:spec.startupTaints[*].key:minLength "
	  "NodeClaim:spec.startupTaints[*].key:pattern NodeClaim:spec.startupTaints[*].value:pattern",
	  NC_T(", taints: [{key: \"\", effect: NoSchedule}, {key: \"???\", effect: NoSchedule}, "
	       "{key: invalid-value, value: \"???\", effect: NoSchedule}], startupTaints: [{key: \"\", "
	       "effect: NoSchedule}, {key: \"???\", value: \"???\", effect: NoSchedule}]"),
	  NULL, NULL, NULL, 0, 0,
	  { MINLEN("spec.startupTaints[0].key", "", "1"), PAT("spec.startupTaints[1].key", "???", P_KEY),
	    PAT("spec.startupTaints[1].value", "???", P_KEY), MINLEN("spec.taints[0].key", "", "1"),
	    PAT("spec.taints[1].key", "???", P_KEY), PAT("spec.taints[2].value", "???", P_KEY) } },
	{ "NodeClaim:spec:x-kubernetes-validations[0]", NC_T(", expireAfter: 1h"), NULL, NULL,
	  NC_HEAD META NC_SPEC_OK, 0, 0, { CEL("spec", "spec is immutable") } },
	{ "NodeClaim:spec:x-kubernetes-validations[0]", NC_R("{key: karpenter.sh/capacity-type, "
							     "operator: Exists, minValues: 1}"),
	  NULL, NULL, NC_HEAD META NC_SPEC_OK, 0, 0, { CEL("spec", "spec is immutable") } },
	{ "NodeClaim:spec:x-kubernetes-validations[0]", NC_HEAD META NC_SPEC_OK, NULL, NULL,
	  NC_HEAD "metadata: {name: test, labels: {changed: \"true\"}}\n" NC_SPEC_OK
	  "status: {nodeName: node-1}\n", 0, 0, { NULL } },
	{ "NodeClaim:status.conditions[*].lastTransitionTime:required "
	  "NodeClaim:status.conditions[*].status:required NodeClaim:status.conditions[*].type:required",
	  NC_C("{reason: \"\", message: \"\"}"), NULL, NULL, NULL, 0, 0,
	  { REQUIRED("status.conditions[0].lastTransitionTime"), REQUIRED("status.conditions[0].status"),
	    REQUIRED("status.conditions[0].type"), SKIPPED } },
	{ "NodeClaim:status.conditions[*].message:maxLength", NULL, NULL, build_nc_message32769, NULL,
	  0, 0, { TOOLONG("status.conditions[0].message", "32768"), SKIPPED } },
	{ "NodeClaim:status.conditions[*].reason:maxLength", NULL, NULL, build_nc_reason1025, NULL, 0,
	  0, { TOOLONG("status.conditions[0].reason", "1024"), SKIPPED } },
	{ "NodeClaim:status.conditions[*].type:maxLength", NULL, NULL, build_nc_type317, NULL, 0, 0,
	  { TOOLONG("status.conditions[0].type", "316"), SKIPPED } },
	{ "NodeClaim:status.conditions[*].reason:pattern NodeClaim:status.conditions[*].status:enum "
	  "NodeClaim:status.conditions[*].type:pattern "
	  "NodeClaim:status.conditions[*].observedGeneration:minimum "
	  "NodeClaim:status.conditions:x-kubernetes-list-type",
	  NC_C("{type: \"bad type\", status: Maybe, reason: 1bad, " LTT ", observedGeneration: -1}, "
	       "{type: Ready, status: \"True\", " LTT "}, {type: Ready, status: \"True\", " LTT "}"),
	  NULL, NULL, NULL, 0, 0,
	  { GE("status.conditions[0].observedGeneration", "-1", "0"),
	    PAT("status.conditions[0].reason", "1bad", P_REASON_NC),
	    NOTSUP("status.conditions[0].status", "Maybe", STATUSES),
	    PAT("status.conditions[0].type", "bad type", P_COND_TYPE),
	    "status.conditions[2]: Duplicate value: {\"type\":\"Ready\"}", SKIPPED } },

	/* ------------------------------------------------------- KWOKNodeClass */
	{ "KWOKNodeClass:spec.nodeRegistrationDelay:pattern", KW("nodeRegistrationDelay: 1hr"), NULL,
	  NULL, NULL, 0, 0, { PAT("spec.nodeRegistrationDelay", "1hr", P_DURATION) } },
	{ "KWOKNodeClass:status.conditions[*].lastTransitionTime:required "
	  "KWOKNodeClass:status.conditions[*].message:required "
	  "KWOKNodeClass:status.conditions[*].reason:required "
	  "KWOKNodeClass:status.conditions[*].status:required "
	  "KWOKNodeClass:status.conditions[*].type:required",
	  KW_C("{}"), NULL, NULL, NULL, 0, 0,
	  { REQUIRED("status.conditions[0].lastTransitionTime"), REQUIRED("status.conditions[0].message"),
	    REQUIRED("status.conditions[0].reason"), REQUIRED("status.conditions[0].status"),
	    REQUIRED("status.conditions[0].type") } },
	{ "KWOKNodeClass:status.conditions[*].message:maxLength", NULL, NULL, build_kw_message32769,
	  NULL, 0, 0, { TOOLONG("status.conditions[0].message", "32768") } },
	{ "KWOKNodeClass:status.conditions[*].reason:maxLength", NULL, NULL, build_kw_reason1025, NULL,
	  0, 0, { TOOLONG("status.conditions[0].reason", "1024") } },
	{ "KWOKNodeClass:status.conditions[*].type:maxLength", NULL, NULL, build_kw_type317, NULL, 0,
	  0, { TOOLONG("status.conditions[0].type", "316") } },
	{ "KWOKNodeClass:status.conditions[*].reason:minLength "
	  "KWOKNodeClass:status.conditions[*].reason:pattern KWOKNodeClass:status.conditions[*].status:enum "
	  "KWOKNodeClass:status.conditions[*].type:pattern "
	  "KWOKNodeClass:status.conditions[*].observedGeneration:minimum",
	  KW_C("{type: Ready, status: \"True\", reason: \"\", message: \"\", " LTT "}, "
	       "{type: \"bad type\", status: Maybe, reason: 1bad, message: \"\", " LTT
	       ", observedGeneration: -1}, " COND_OK ", " COND_OK),
	  NULL, NULL, NULL, 0, 0,
	  { MINLEN("status.conditions[0].reason", "", "1"),
	    GE("status.conditions[1].observedGeneration", "-1", "0"),
	    PAT("status.conditions[1].reason", "1bad", P_REASON_NP),
	    NOTSUP("status.conditions[1].status", "Maybe", STATUSES),
	    PAT("status.conditions[1].type", "bad type", P_COND_TYPE) } },
};

/* The quantity pattern of the v1 CRDs, as the inventory and the CRDs have it
 * (test_validation_crds.c compares the decode message with the CRD text). */
#define P_QUANTITY \
	"^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-" \
	"9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$"
/* kube-openapi's messages, as the API server reports them (KPATH: map keys
 * joined with '.'): a pattern, a type and a date-time format failure. */
#define QPAT(VALUE, KPATH) "Invalid value: \"" VALUE "\": " KPATH " in body should match '" P_QUANTITY "'"
#define TYPE(KPATH, WANT, GOT) \
	"Invalid value: \"" GOT "\": " KPATH " in body must be of type " WANT ": \"" GOT "\""
#define DATETIME(KPATH, QUOTED) \
	"Invalid value: " QUOTED ": " KPATH " in body must be of type date-time: " QUOTED

/* Rules that decoding enforces: the decode error. */
typedef struct dcase {
	const char *rules;
	const char *yaml;
	const char *message;
} dcase;

static const dcase decode_cases[] = {
	/* kube-openapi type errors, one per JSON type (issue 9) */
	{ "type:string", NP("template: {spec: {nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass, name: 5}, requirements: []}}"),
	  "NodePool/test: spec.template.spec.nodeClassRef.name: "
	  TYPE("spec.template.spec.nodeClassRef.name", "string", "integer") },
	{ "type:string", NP("template: {spec: {nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass, name: 1.5}, requirements: []}}"),
	  "NodePool/test: spec.template.spec.nodeClassRef.name: "
	  TYPE("spec.template.spec.nodeClassRef.name", "string", "number") },
	{ "type:string", NP("template: {spec: {nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass, name: true}, requirements: []}}"),
	  "NodePool/test: spec.template.spec.nodeClassRef.name: "
	  TYPE("spec.template.spec.nodeClassRef.name", "string", "boolean") },
	{ "type:string", NP("template: {spec: {nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass, name: [a]}, requirements: []}}"),
	  "NodePool/test: spec.template.spec.nodeClassRef.name: "
	  TYPE("spec.template.spec.nodeClassRef.name", "string", "array") },
	{ "type:string", NP("template: {spec: {nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass, name: {a: b}}, requirements: []}}"),
	  "NodePool/test: spec.template.spec.nodeClassRef.name: "
	  TYPE("spec.template.spec.nodeClassRef.name", "string", "object") },
	{ "type:string", NP("template: {metadata: {labels: {enabled: true}}, spec: {" REF ", requirements: []}}"),
	  "NodePool/test: spec.template.metadata.labels[enabled]: "
	  TYPE("spec.template.metadata.labels.enabled", "string", "boolean") },
	{ "type:integer", NP("weight: \"10\", template: {spec: {" REF ", requirements: []}}"),
	  "NodePool/test: spec.weight: " TYPE("spec.weight", "integer", "string") },
	{ "type:integer", NP("weight: false, template: {spec: {" REF ", requirements: []}}"),
	  "NodePool/test: spec.weight: " TYPE("spec.weight", "integer", "boolean") },
	/* beyond int64 the API server holds a float64, and 2^53 < it */
	{ "type:integer", NP("replicas: 9223372036854775808, template: {spec: {" REF ", requirements: []}}"),
	  "NodePool/test: spec.replicas: " TYPE("spec.replicas", "integer", "number") },
	{ "type:integer",
	  "{\"apiVersion\": \"karpenter.sh/v1\", \"kind\": \"NodePool\", \"metadata\": {\"name\": "
	  "\"test\"}, \"spec\": {\"replicas\": 1e16}}",
	  "NodePool/test: spec.replicas: " TYPE("spec.replicas", "integer", "number") },
	{ "type:object", NP("template: []"), "NodePool/test: spec.template: " TYPE("spec.template", "object", "array") },
	{ "type:array", NP("template: {spec: {" REF ", requirements: {}}}"),
	  "NodePool/test: spec.template.spec.requirements: "
	  TYPE("spec.template.spec.requirements", "array", "object") },
	{ "type:boolean", NC_T("") "status: {conditions: [{type: Ready, status: \"True\", " LTT ", observedGeneration: true}]}\n",
	  "NodeClaim/test: status.conditions[0].observedGeneration: "
	  TYPE("status.conditions[0].observedGeneration", "integer", "boolean") },
	/* x-kubernetes-int-or-string: type [integer, string] */
	{ "type:int-or-string", NP("limits: {cpu: 1.5}, template: {spec: {" REF ", requirements: []}}"),
	  "NodePool/test: spec.limits[cpu]: " TYPE("spec.limits.cpu", "integer,string", "number") },
	{ "type:int-or-string", NP("limits: {cpu: true}, template: {spec: {" REF ", requirements: []}}"),
	  "NodePool/test: spec.limits[cpu]: " TYPE("spec.limits.cpu", "integer,string", "boolean") },
	{ "type:int-or-string", NC_T(", resources: {requests: {cpu: [1]}}"),
	  "NodeClaim/test: spec.resources.requests[cpu]: "
	  TYPE("spec.resources.requests.cpu", "integer,string", "array") },
	/* date-time: the type validator's format check names the value's Go format */
	{ "type:date-time", NP_T(", taints: [{key: a, effect: NoExecute, timeAdded: 1.5}]"),
	  "NodePool/test: spec.template.spec.taints[0].timeAdded: "
	  DATETIME("spec.template.spec.taints[0].timeAdded", "\"float64\"") },
	{ "type:date-time", NP_T(", taints: [{key: a, effect: NoExecute, timeAdded: true}]"),
	  "NodePool/test: spec.template.spec.taints[0].timeAdded: "
	  DATETIME("spec.template.spec.taints[0].timeAdded", "\"\"") },
	{ "type:date-time", NP_T(", taints: [{key: a, effect: NoExecute, timeAdded: [x]}]"),
	  "NodePool/test: spec.template.spec.taints[0].timeAdded: "
	  TYPE("spec.template.spec.taints[0].timeAdded", "string", "array") },
	/* Go's %q of the value */
	{ "type:date-time", NP_T(", taints: [{key: a, effect: NoExecute, timeAdded: \"a\\tb\\\"\"}]"),
	  "NodePool/test: spec.template.spec.taints[0].timeAdded: "
	  DATETIME("spec.template.spec.taints[0].timeAdded", "\"a\\tb\\\"\"") },
	{ "NodePool:spec.limits.*:pattern", NP("limits: {cpu: abc}, template: {spec: {" REF
					       ", requirements: []}}"),
	  "NodePool/test: spec.limits[cpu]: " QPAT("abc", "spec.limits.cpu") },
	/* Go's parser reads these as zero; the CRD's quantity pattern needs a digit */
	{ "NodePool:spec.limits.*:pattern", NP("limits: {cpu: \"-\"}, template: {spec: {" REF
					       ", requirements: []}}"),
	  "NodePool/test: spec.limits[cpu]: " QPAT("-", "spec.limits.cpu") },
	{ "NodePool:spec.limits.*:pattern", NP("limits: {memory: Ki}, template: {spec: {" REF
					       ", requirements: []}}"),
	  "NodePool/test: spec.limits[memory]: " QPAT("Ki", "spec.limits.memory") },
	{ "NodePool:spec.replicas:format", NP("replicas: 1.5, template: {spec: {" REF
					      ", requirements: []}}"),
	  "NodePool/test: spec.replicas: " TYPE("spec.replicas", "integer", "number") },
	{ "NodePool:spec.weight:format", NP("weight: 3000000000, template: {spec: {" REF
					    ", requirements: []}}"),
	  "NodePool/test: spec.weight: number 3000000000 is out of range (-2147483648 to 2147483647)" },
	{ "NodePool:spec.template.spec.taints[*].effect:enum", NP_T(", taints: [{key: a, effect: Foo}]"),
	  "NodePool/test: spec.template.spec.taints[0].effect: Unsupported value: \"Foo\": supported "
	  "values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"" },
	/* present but empty is the enum's failure, not "Required value" */
	{ "NodePool:spec.template.spec.taints[*].effect:enum", NP_T(", taints: [{key: a, effect: \"\"}]"),
	  "NodePool/test: spec.template.spec.taints[0].effect: Unsupported value: \"\": supported "
	  "values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"" },
	{ "NodePool:spec.template.spec.startupTaints[*].effect:enum",
	  NP_T(", startupTaints: [{key: a, effect: none}]"),
	  "NodePool/test: spec.template.spec.startupTaints[0].effect: Unsupported value: \"none\": "
	  "supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"" },
	{ "NodePool:spec.template.spec.taints[*].timeAdded:format",
	  NP_T(", taints: [{key: a, effect: NoExecute, timeAdded: yesterday}]"),
	  "NodePool/test: spec.template.spec.taints[0].timeAdded: "
	  DATETIME("spec.template.spec.taints[0].timeAdded", "\"yesterday\"") },
	{ "NodePool:spec.template.spec.startupTaints[*].timeAdded:format",
	  NP_T(", startupTaints: [{key: a, effect: NoExecute, timeAdded: \"2024-02-30T00:00:00Z\"}]"),
	  "NodePool/test: spec.template.spec.startupTaints[0].timeAdded: "
	  DATETIME("spec.template.spec.startupTaints[0].timeAdded", "\"2024-02-30T00:00:00Z\"") },
	{ "NodePool:status.conditions[*].lastTransitionTime:format",
	  NP_C("{type: Ready, status: \"True\", reason: Ready, message: \"\", lastTransitionTime: bad}"),
	  "NodePool/test: status.conditions[0].lastTransitionTime: "
	  DATETIME("status.conditions[0].lastTransitionTime", "\"bad\"") },
	{ "NodePool:status.conditions[*].observedGeneration:format",
	  NP_C("{type: Ready, status: \"True\", reason: Ready, message: \"\", " LTT
	       ", observedGeneration: x}"),
	  "NodePool/test: status.conditions[0].observedGeneration: "
	  TYPE("status.conditions[0].observedGeneration", "integer", "string") },
	{ "NodePool:status.nodeClassObservedGeneration:format", NP_S("nodeClassObservedGeneration: a"),
	  "NodePool/test: status.nodeClassObservedGeneration: "
	  TYPE("status.nodeClassObservedGeneration", "integer", "string") },
	{ "NodePool:status.nodes:format", NP_S("nodes: 1.5"),
	  "NodePool/test: status.nodes: " TYPE("status.nodes", "integer", "number") },
	{ "NodePool:status.resources.*:pattern", NP_S("resources: {cpu: 1x}"),
	  "NodePool/test: status.resources[cpu]: " QPAT("1x", "status.resources.cpu") },
	{ "NodeClaim:spec.resources.requests.*:pattern", NC_T(", resources: {requests: {cpu: zz}}"),
	  "NodeClaim/test: spec.resources.requests[cpu]: " QPAT("zz", "spec.resources.requests.cpu") },
	{ "NodeClaim:spec.taints[*].timeAdded:format",
	  NC_T(", taints: [{key: a, effect: NoExecute, timeAdded: 0}]"),
	  "NodeClaim/test: spec.taints[0].timeAdded: "
	  DATETIME("spec.taints[0].timeAdded", "\"int64\"") },
	{ "NodeClaim:spec.taints[*].effect:enum", NC_T(", taints: [{key: a, effect: noschedule}]"),
	  "NodeClaim/test: spec.taints[0].effect: Unsupported value: \"noschedule\": supported values: "
	  "\"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"" },
	{ "NodeClaim:spec.startupTaints[*].effect:enum",
	  NC_T(", startupTaints: [{key: a, effect: Never, timeAdded: now}]"),
	  "NodeClaim/test: spec.startupTaints[0].effect: Unsupported value: \"Never\": supported "
	  "values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"" },
	{ "NodeClaim:spec.startupTaints[*].timeAdded:format",
	  NC_T(", startupTaints: [{key: a, effect: NoSchedule, timeAdded: now}]"),
	  "NodeClaim/test: spec.startupTaints[0].timeAdded: "
	  DATETIME("spec.startupTaints[0].timeAdded", "\"now\"") },
	{ "NodeClaim:status.allocatable.*:pattern", NC_T("") "status: {allocatable: {cpu: \"1..\"}}\n",
	  "NodeClaim/test: status.allocatable[cpu]: " QPAT("1..", "status.allocatable.cpu") },
	{ "NodeClaim:status.capacity.*:pattern", NC_T("") "status: {capacity: {cpu: \"1Z\"}}\n",
	  "NodeClaim/test: status.capacity[cpu]: " QPAT("1Z", "status.capacity.cpu") },
	{ "NodeClaim:status.lastPodEventTime:format", NC_T("") "status: {lastPodEventTime: x}\n",
	  "NodeClaim/test: status.lastPodEventTime: "
	  DATETIME("status.lastPodEventTime", "\"x\"") },
	{ "NodeClaim:status.conditions[*].lastTransitionTime:format",
	  NC_C("{type: Ready, status: \"True\", lastTransitionTime: 2024}"),
	  "NodeClaim/test: status.conditions[0].lastTransitionTime: "
	  DATETIME("status.conditions[0].lastTransitionTime", "\"int64\"") },
	{ "NodeClaim:status.conditions[*].observedGeneration:format",
	  NC_C("{type: Ready, status: \"True\", " LTT ", observedGeneration: 9223372036854775808}"),
	  "NodeClaim/test: status.conditions[0].observedGeneration: "
	  TYPE("status.conditions[0].observedGeneration", "integer", "number") },
	{ "KWOKNodeClass:status.conditions[*].observedGeneration:format",
	  KW_C("{type: Ready, status: \"True\", reason: Ready, message: \"\", " LTT ", "
	       "observedGeneration: 1.5}"),
	  "KWOKNodeClass/test: status.conditions[0].observedGeneration: "
	  TYPE("status.conditions[0].observedGeneration", "integer", "number") },
	{ "KWOKNodeClass:status.conditions[*].lastTransitionTime:format",
	  KW_C("{type: Ready, status: \"True\", reason: Ready, message: \"\", lastTransitionTime: x}"),
	  "KWOKNodeClass/test: status.conditions[0].lastTransitionTime: "
	  DATETIME("status.conditions[0].lastTransitionTime", "\"x\"") },
};

/* ------------------------------------------------------------------------ */
/* Running a case                                                           */

static char *case_text(const vcase *c, size_t *len)
{
	char *text;
	if (c->yaml) {
		text = strdup(c->yaml);
	} else if (c->file) {
		text = kp_test_read_file(c->file, NULL);
		ck_assert_msg(text != NULL, "cannot read %s", c->file);
	} else {
		text = c->build();
	}
	ck_assert_ptr_nonnull(text);
	*len = strlen(text);
	return text;
}

/* The core kinds and KWOKNodeClass, registered from libkarpenter-kwok's
 * description (set up in main, inherited by the forked tests). */
static kp_registry *reg;
static uint32_t kwok_kind;

/* Every rule: the core inventory, then KWOKNodeClass's. */
static size_t all_rule_count(void)
{
	return kp_validation_rule_count() + kp_registry_rule_count(reg, kwok_kind);
}

static const kp_validation_rule *all_rule_at(size_t i)
{
	size_t n = kp_validation_rule_count();
	return i < n ? kp_validation_rule_at(i) : kp_registry_rule_at(reg, kwok_kind, i - n);
}

/* Decode one object (and apply defaults unless told not to). */
static void *decode_one(const char *text, size_t len, int defaults, uint32_t *kind)
{
	kp_decode_result *r = NULL;
	kp_error e = KP_ERROR_INIT;
	kp_decode_options d = KP_DECODE_OPTIONS_INIT;
	d.registry = reg;
	int rc = kp_decode(&r, text, len, &d, &e);
	ck_assert_msg(rc == KP_OK, "decode failed: %s", e.message);
	ck_assert_uint_eq(kp_decode_result_count(r), 1);
	void *obj = NULL;
	*kind = kp_decode_result_at(r, 0)->kind;
	ck_assert_int_eq(kp_decode_result_take(r, 0, &obj, &e), KP_OK);
	kp_decode_result_free(r);
	if (defaults)
		ck_assert_int_eq(kp_registry_object_default(reg, *kind, obj, &e), KP_OK);
	return obj;
}

/* The problems as "field: message" lines, joined with newlines. */
static char *problems_text(const kp_validation *v)
{
	sbuf b = { 0 };
	put(&b, "%s", "");
	for (size_t i = 0; i < kp_validation_count(v); i++) {
		const kp_field_error *fe = kp_validation_at(v, i);
		put(&b, "%s: %s\n", fe->field, fe->message);
	}
	return b.s;
}

static kp_validation *run_case(const vcase *c, uint32_t *kind_out)
{
	size_t len;
	char *text = case_text(c, &len);
	uint32_t kind, old_kind = 0;
	void *obj = decode_one(text, len, !c->no_defaults, &kind);
	void *old = NULL;
	if (c->old) {
		old = decode_one(c->old, strlen(c->old), 1, &old_kind);
		ck_assert_uint_eq(old_kind, kind);
	}
	kp_validate_options o = KP_VALIDATE_OPTIONS_INIT;
	o.flags = c->flags;
	o.registry = reg;
	kp_validation *v = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(kp_validate(&v, kind, obj, old, &o, &e) == KP_OK, "validate: %s", e.message);
	kp_registry_object_free(reg, kind, obj);
	kp_registry_object_free(reg, kind, old);
	free(text);
	*kind_out = kind;
	return v;
}

START_TEST(test_case)
{
	const vcase *c = &cases[_i];
	uint32_t kind;
	kp_validation *v = run_case(c, &kind);
	sbuf want = { 0 };
	put(&want, "%s", "");
	for (size_t i = 0; i < N(c->expect) && c->expect[i]; i++)
		put(&want, "%s\n", c->expect[i]);
	char *got = problems_text(v);
	ck_assert_msg(strcmp(got, want.s) == 0, "case %d (%s)\nwant:\n%s\ngot:\n%s", _i, c->rules,
		      want.s, got);
	/* every problem names an inventory rule of the right kind, and the object */
	for (size_t i = 0; i < kp_validation_count(v); i++) {
		const kp_field_error *fe = kp_validation_at(v, i);
		ck_assert_uint_eq(fe->struct_size, sizeof(kp_field_error));
		char prefix[32];
		snprintf(prefix, sizeof(prefix), "%s/", kp_registry_kind_name(reg, kind));
		ck_assert_msg(!strncmp(fe->object, prefix, strlen(prefix)), "object %s", fe->object);
		int found = 0;
		for (size_t r = 0; r < all_rule_count(); r++)
			if (all_rule_at(r)->id == fe->rule)
				found = all_rule_at(r)->kind == kind;
		ck_assert_msg(found, "rule %s of %s: %s is not in the inventory", fe->rule, fe->field,
			      fe->message);
	}
	free(got);
	free(want.s);
	kp_validation_free(v);
}
END_TEST

START_TEST(test_decode_case)
{
	const dcase *c = &decode_cases[_i];
	kp_decode_result *r = NULL;
	kp_error e = KP_ERROR_INIT;
	kp_decode_options d = KP_DECODE_OPTIONS_INIT;
	d.registry = reg;
	int rc = kp_decode(&r, c->yaml, strlen(c->yaml), &d, &e);
	ck_assert_msg(rc != KP_OK, "case %d (%s) decoded", _i, c->rules);
	ck_assert_ptr_null(r);
	ck_assert_str_eq(e.message, c->message);
}
END_TEST

/* The API server takes an integral float where the CRD wants an integer
 * (swag.IsFloat64AJSONInteger) and stores the integer: "2.0" is 2. */
START_TEST(test_integral_floats)
{
	static const char json[] =
		"{\"apiVersion\": \"karpenter.sh/v1\", \"kind\": \"NodePool\", \"metadata\": "
		"{\"name\": \"f\"}, \"spec\": {\"replicas\": 2.0, \"limits\": {\"nodes\": 1.5e1, "
		"\"cpu\": 1e3, \"memory\": -0.0}, \"template\": {\"spec\": {\"nodeClassRef\": "
		"{\"group\": \"a\", \"kind\": \"B\", \"name\": \"c\"}, \"requirements\": []}}}}";
	uint32_t kind;
	kp_nodepool *np = decode_one(json, strlen(json), 0, &kind);
	ck_assert_uint_eq(kind, KP_KIND_NODEPOOL);
	ck_assert_uint_eq(np->spec->has_replicas, 1);
	ck_assert_int_eq(np->spec->replicas, 2);
	ck_assert_uint_eq(np->spec->limits.count, 3);
	static const char *const names[] = { "cpu", "memory", "nodes" };
	static const int64_t values[] = { 1000, 0, 15 };
	for (size_t i = 0; i < 3; i++) {
		int64_t v = -1;
		ck_assert_str_eq(np->spec->limits.items[i].name, names[i]);
		ck_assert_int_eq(kp_quantity_value(&np->spec->limits.items[i].quantity, &v), KP_OK);
		ck_assert_int_eq(v, values[i]);
	}
	kp_object_free(kind, np);
}
END_TEST

/* Rules that warn instead of failing: test_label_key_warning,
 * test_cron_warning. */
static const char label_key_rule[] = "NodePool:spec.template.spec.nodeClassRef:runtime-label-key";
static const char cron_rule[] = "NodePool:spec.disruption.budgets[*].schedule:cron";
static const char warning_fails[] = "NodePool:spec.template.spec.nodeClassRef:runtime-label-key "
				    "NodePool:spec.disruption.budgets[*].schedule:cron";

/* A NodePool whose nodeClassRef group of `glen` bytes ("a.a.a...", a DNS
 * subdomain whatever its length) and kind (as given) is validated with and
 * without the runtime checks; returns the warning message or NULL, and checks
 * that the NodePool is valid either way. */
static char *label_key_warning(size_t glen, const char *kind, uint32_t flags)
{
	char *group = malloc(glen + 1);
	for (size_t i = 0; i < glen; i++)
		group[i] = i % 2 ? '.' : 'a';
	if (glen)
		group[glen - 1] = 'a';
	group[glen] = '\0';
	size_t cap = glen + strlen(kind) + 512;
	char *yaml = malloc(cap);
	snprintf(yaml, cap,
		 "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: big}\n"
		 "spec: {template: {spec: {nodeClassRef: {group: \"%s\", kind: \"%s\", name: c}, "
		 "requirements: []}}}\n",
		 group, kind);
	uint32_t k;
	void *np = decode_one(yaml, strlen(yaml), 1, &k);
	/* the decoded group is the whole group, not a truncated copy */
	ck_assert_uint_eq(strlen(((kp_nodepool *)np)->spec->template_->spec->node_class_ref->group), glen);
	kp_validate_options o = KP_VALIDATE_OPTIONS_INIT;
	o.flags = flags;
	kp_validation *v = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_validate(&v, k, np, NULL, &o, &e), KP_OK);
	ck_assert_uint_eq(kp_validation_count(v), 0);
	ck_assert_ptr_null(kp_validation_at(v, 0));
	char *msg = NULL;
	if (kp_validation_warning_count(v)) {
		ck_assert_uint_eq(kp_validation_warning_count(v), 1);
		const kp_field_error *w = kp_validation_warning_at(v, 0);
		ck_assert_str_eq(w->object, "NodePool/big");
		ck_assert_str_eq(w->field, "spec.template.spec.nodeClassRef");
		ck_assert_str_eq(w->rule, label_key_rule);
		ck_assert_uint_eq(w->type, KP_FIELD_ERROR_RUNTIME);
		ck_assert_uint_eq(w->source, KP_RULE_SOURCE_RUNTIME);
		msg = strdup(w->message);
	}
	ck_assert_ptr_null(kp_validation_warning_at(v, 1));
	kp_validation_free(v);
	kp_object_free(k, np);
	free(yaml);
	free(group);
	return msg;
}

#define LONG_PREFIX "prefix part must be no more than 253 bytes"
#define NO_LAUNCH "; no NodeClaim can be launched from this NodePool"

/* A budget schedule the CRD's pattern accepts but robfig/cron refuses is
 * stored by the API server; upstream's disruption controller then fails
 * closed for that NodePool. So it is a warning naming the cron problem, and
 * the NodePool is valid (kubectl-karpenter disrupt fails closed). */
START_TEST(test_cron_warning)
{
	static const char yaml[] =
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: np}\n"
		"spec: {disruption: {budgets: [{nodes: \"10\", schedule: \"0 9 * * sat-sun\", "
		"duration: 1h}, {nodes: \"10\", schedule: \"60 * * * *\", duration: 1h}, "
		"{nodes: \"1\", schedule: \"0 9 * * 1-5\", duration: 8h}]}, template: {spec: "
		"{nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: c}, "
		"requirements: []}}}\n";
	static const char *const want[][2] = {
		{ "spec.disruption.budgets[0].schedule",
		  "Invalid value: \"0 9 * * sat-sun\": day-of-week field \"sat-sun\": range start SAT "
		  "(6) is after end SUN (0)" },
		{ "spec.disruption.budgets[1].schedule",
		  "Invalid value: \"60 * * * *\": minute field \"60\": value 60 out of range [0, 59]" },
	};
	uint32_t k;
	void *np = decode_one(yaml, strlen(yaml), 1, &k);
	kp_validate_options o = KP_VALIDATE_OPTIONS_INIT;
	kp_validation *v = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_validate(&v, k, np, NULL, &o, &e), KP_OK);
	ck_assert_uint_eq(kp_validation_count(v), 0);
	ck_assert_uint_eq(kp_validation_warning_count(v), 2);
	for (size_t i = 0; i < 2; i++) {
		const kp_field_error *w = kp_validation_warning_at(v, i);
		ck_assert_str_eq(w->object, "NodePool/np");
		ck_assert_str_eq(w->field, want[i][0]);
		ck_assert_str_eq(w->message, want[i][1]);
		ck_assert_str_eq(w->rule, cron_rule);
	}
	kp_validation_free(v);
	/* the API server's checks alone say nothing */
	o.flags = KP_VALIDATE_NO_RUNTIME;
	ck_assert_int_eq(kp_validate(&v, k, np, NULL, &o, &e), KP_OK);
	ck_assert_uint_eq(kp_validation_warning_count(v), 0);
	kp_validation_free(v);
	kp_object_free(k, np);
}
END_TEST

START_TEST(test_label_key_warning)
{
	/* 253 bytes is the longest prefix; the kind is lowercased first */
	ck_assert_ptr_null(label_key_warning(241, "KWOKNodeClass", 0));
	ck_assert_ptr_null(label_key_warning(253, "KWOKNodeClass", 0));
	char *m = label_key_warning(254, "KWOKNodeClass", 0);
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(m, "NodeClaim label key \"a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.\"... "
			    "(group \"/\" lowercase(kind), 254 + 1 + 13 bytes) is not a valid label key: "
			    LONG_PREFIX NO_LAUNCH);
	free(m);
	/* the CRD's runtime flag: the API server alone accepts it silently */
	ck_assert_ptr_null(label_key_warning(254, "KWOKNodeClass", KP_VALIDATE_NO_RUNTIME));
	m = label_key_warning(300, "KWOKNodeClass", 0);
	ck_assert_ptr_nonnull(strstr(m, "300 + 1 + 13 bytes) is not a valid label key: " LONG_PREFIX NO_LAUNCH));
	free(m);
	m = label_key_warning(70000, "KWOKNodeClass", 0);
	ck_assert_ptr_nonnull(strstr(m, "70000 + 1 + 13 bytes) is not a valid label key: " LONG_PREFIX NO_LAUNCH));
	free(m);
	/* the name part: 63 bytes at most, a label name */
	char kind[80];
	memset(kind, 'K', 63);
	kind[63] = '\0';
	ck_assert_ptr_null(label_key_warning(9, kind, 0));
	strcat(kind, "K");
	m = label_key_warning(9, kind, 0);
	ck_assert_str_eq(m, "NodeClaim label key \"a.a.a.a.a/kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\"... "
			    "(group \"/\" lowercase(kind), 9 + 1 + 64 bytes) is not a valid label key: "
			    "name part must be no more than 63 bytes" NO_LAUNCH);
	free(m);
	m = label_key_warning(3, "Node Class", 0);
	ck_assert_str_eq(m, "NodeClaim label key \"a.a/node class\" (group \"/\" lowercase(kind), 3 + 1 + "
			    "10 bytes) is not a valid label key: name part must consist of alphanumeric "
			    "characters, '-', '_' or '.', and must start and end with an alphanumeric "
			    "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
			    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')" NO_LAUNCH);
	free(m);
}
END_TEST

/*
 * Long values (300 and 70,000 bytes) in every kind of string field: decoding,
 * defaulting and validating never crash, and the data is never cut: the
 * decoded strings, a re-encoded copy and warnings hold them whole. Only the
 * human messages of problems may quote an excerpt.
 */
static const size_t long_lens[] = { 300, 70000 };

static char *repeat(char ch, size_t n)
{
	char *s = malloc(n + 1);
	memset(s, ch, n);
	s[n] = '\0';
	return s;
}

START_TEST(test_long_values)
{
	size_t n = long_lens[_i];
	char *v = repeat('v', n), *k = repeat('k', n);
	size_t cap = 20 * n + 2048; /* 17 long values */
	char *yaml = malloc(cap);
	/* JSON: YAML allows no implicit key over 1024 characters */
	snprintf(yaml, cap,
		 "{\"apiVersion\": \"karpenter.sh/v1\", \"kind\": \"NodePool\", "
		 "\"metadata\": {\"name\": \"%s\", \"labels\": {\"%s\": \"%s\"}, "
		 "\"annotations\": {\"%s\": \"%s\"}}, "
		 "\"spec\": {\"limits\": {\"%s\": \"1\"}, "
		 "\"template\": {\"metadata\": {\"labels\": {\"%s\": \"%s\"}}, "
		 "\"spec\": {\"nodeClassRef\": {\"group\": \"%s\", \"kind\": \"%s\", \"name\": \"%s\"}, "
		 "\"expireAfter\": \"%s\", "
		 "\"requirements\": [{\"key\": \"%s\", \"operator\": \"In\", \"values\": [\"%s\"]}], "
		 "\"taints\": [{\"key\": \"%s\", \"value\": \"%s\", \"effect\": \"NoSchedule\"}], "
		 "\"%s\": \"unknown\"}}}}",
		 v, k, v, k, v, k, k, v, v, k, v, v, k, v, k, v, k);
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.flags = KP_DECODE_LENIENT;
	kp_decode_result *r = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(kp_decode(&r, yaml, strlen(yaml), &o, &e) == KP_OK, "%s", e.message);
	/* the unknown field's warning names it whole */
	ck_assert_uint_eq(kp_decode_result_warning_count(r), 1);
	const char *w = kp_decode_result_warning_at(r, 0);
	char *tail = malloc(n + 64);
	snprintf(tail, n + 64, ": unknown field \"spec.template.spec.%s\"", k);
	ck_assert_msg(strlen(w) > strlen(tail) && !strcmp(w + strlen(w) - strlen(tail), tail),
		      "%.80s", w);
	free(tail);
	void *obj = NULL;
	ck_assert_int_eq(kp_decode_result_take(r, 0, &obj, &e), KP_OK);
	kp_decode_result_free(r);
	kp_nodepool *np = obj;
	ck_assert_str_eq(np->metadata->name, v);
	ck_assert_str_eq(np->spec->limits.items[0].name, k);
	kp_nodeclaim_spec *cs = np->spec->template_->spec;
	ck_assert_str_eq(cs->node_class_ref->group, v);
	ck_assert_str_eq(cs->node_class_ref->kind, k);
	ck_assert_str_eq(cs->expire_after.text, v);
	ck_assert_str_eq(cs->requirements[0]->key, k);
	ck_assert_str_eq(cs->requirements[0]->values[0], v);
	ck_assert_str_eq(cs->taints[0].value, v);
	ck_assert_int_eq(kp_object_default(KP_KIND_NODEPOOL, np, &e), KP_OK);

	kp_validation *val = NULL;
	ck_assert_int_eq(kp_validate(&val, KP_KIND_NODEPOOL, np, NULL, NULL, &e), KP_OK);
	ck_assert_uint_gt(kp_validation_count(val), 5);
	for (size_t i = 0; i < kp_validation_count(val); i++) {
		const kp_field_error *fe = kp_validation_at(val, i);
		ck_assert_ptr_nonnull(fe->message);
		ck_assert_uint_gt(strlen(fe->message), 0);
	}
	/* the group is a valid DNS subdomain label only up to 63 bytes: a
	 * 300-byte "vvv..." prefix is too long for the NodeClaim label key */
	ck_assert_uint_eq(kp_validation_warning_count(val), 1);
	kp_validation_free(val);

	/* re-encoded whole */
	char *json = NULL;
	size_t len = 0;
	ck_assert_int_eq(kp_encode(&json, &len, KP_KIND_NODEPOOL, np, KP_FORMAT_JSON, 0, &e), KP_OK);
	kp_decode_result *r2 = NULL;
	ck_assert_int_eq(kp_decode(&r2, json, len, NULL, &e), KP_OK);
	kp_nodepool *np2 = (kp_nodepool *)(uintptr_t)kp_decode_result_at(r2, 0)->object;
	ck_assert_str_eq(np2->spec->template_->spec->node_class_ref->group, v);
	ck_assert_str_eq(np2->spec->template_->spec->taints[0].key, k);
	ck_assert_str_eq(np2->metadata->annotations.items[0].value, v);
	kp_decode_result_free(r2);
	kp_encoded_free(json);
	kp_object_free(KP_KIND_NODEPOOL, np);
	free(yaml);
	free(v);
	free(k);
}
END_TEST

/* The type, date-time and pattern messages quote long values into the
 * kp_error's message, cut to fit, never past it. */
START_TEST(test_long_values_in_decode_errors)
{
	size_t n = long_lens[_i];
	char *v = repeat('x', n);
	static const char *const heads[] = {
		"{\"apiVersion\": \"karpenter.sh/v1\", \"kind\": \"NodePool\", \"metadata\": {\"name\": \"l\"}, "
		"\"spec\": {\"limits\": {\"cpu\": \"",
		"{\"apiVersion\": \"karpenter.sh/v1\", \"kind\": \"NodeClaim\", \"metadata\": {\"name\": \"l\"}, "
		"\"spec\": {\"taints\": [{\"key\": \"a\", \"effect\": \"NoSchedule\", \"timeAdded\": \"",
		"{\"apiVersion\": \"karpenter.sh/v1\", \"kind\": \"NodePool\", \"metadata\": {\"name\": \"l\"}, "
		"\"spec\": {\"template\": {\"spec\": {\"",
	};
	static const char *const tails[] = { "\"}}}", "\"}]}}", "\": 1}}}}" };
	static const char *const starts[] = {
		"NodePool/l: spec.limits[cpu]: Invalid value: \"xxx",
		"NodeClaim/l: spec.taints[0].timeAdded: Invalid value: \"xxx",
		"NodePool/l: strict decoding error: unknown field \"spec.template.spec.xxx",
	};
	for (size_t f = 0; f < 3; f++) {
		size_t cap = n + 512;
		char *yaml = malloc(cap);
		snprintf(yaml, cap, "%s%s%s", heads[f], v, tails[f]);
		kp_decode_result *r = NULL;
		kp_error e = KP_ERROR_INIT;
		ck_assert_int_ne(kp_decode(&r, yaml, strlen(yaml), NULL, &e), KP_OK);
		ck_assert_ptr_null(r);
		ck_assert_msg(!strncmp(e.message, starts[f], strlen(starts[f])), "%s", e.message);
		ck_assert_uint_lt(strlen(e.message), sizeof(e.message));
		free(yaml);
	}
	free(v);
}
END_TEST

/* Every rule of the inventory has a failing case and a passing case. */
static int case_claims(const char *rules, const char *id)
{
	size_t n = strlen(id);
	for (const char *p = rules; (p = strstr(p, id)) != NULL; p += n)
		if ((p == rules || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return 1;
	return 0;
}

/* Rules whose failing case needs a caller-built object: test_caller_built. */
static const char caller_built_fails[] = "NodePool:spec.template.spec.taints[*]:runtime-effect "
					 "NodePool:spec.template.spec.startupTaints[*]:runtime-effect "
					 "NodePool:spec.template.spec.startupTaints[*].effect:enum "
					 "NodePool:spec.template.spec.taints[*].effect:enum";

START_TEST(test_coverage)
{
	for (size_t i = 0; i < all_rule_count(); i++) {
		const kp_validation_rule *r = all_rule_at(i);
		int fails = 0, holds = 0;
		char all[64];
		snprintf(all, sizeof(all), "all:%s", kp_registry_kind_name(reg, r->kind));
		if (r->source == KP_RULE_SOURCE_DECODE) {
			for (size_t k = 0; k < N(decode_cases); k++)
				fails |= case_claims(decode_cases[k].rules, r->id);
		}
		for (size_t k = 0; k < N(cases); k++) {
			const vcase *c = &cases[k];
			int claims = case_claims(c->rules, r->id);
			int valid = c->expect[0] == NULL;
			if (claims && !valid)
				fails = 1;
			if ((claims && valid) ||
			    (valid && !(r->flags & KP_RULE_F_TRANSITION) && !strcmp(c->rules, all)))
				holds = 1;
		}
		fails |= case_claims(caller_built_fails, r->id);
		fails |= case_claims(warning_fails, r->id);
		if (r->flags & KP_RULE_F_INERT)
			fails = 1; /* never reported, by definition; its "holds" case shows it */
		ck_assert_msg(fails, "rule %s has no failing case", r->id);
		ck_assert_msg(holds, "rule %s has no passing case", r->id);
	}
}
END_TEST

/* Every rule a failing case claims is reported by it (or, for decode
 * rules, by the decode table). */
START_TEST(test_claims)
{
	const vcase *c = &cases[_i];
	if (c->expect[0] == NULL || !strncmp(c->rules, "all:", 4))
		return;
	uint32_t kind;
	kp_validation *v = run_case(c, &kind);
	char *rules = strdup(c->rules);
	for (char *save = NULL, *id = strtok_r(rules, " ", &save); id; id = strtok_r(NULL, " ", &save)) {
		int seen = 0;
		for (size_t i = 0; i < kp_validation_count(v); i++)
			seen |= !strcmp(kp_validation_at(v, i)->rule, id);
		ck_assert_msg(seen, "case %d claims %s, which it does not report", _i, id);
	}
	free(rules);
	kp_validation_free(v);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* The inventory                                                            */

START_TEST(test_inventory)
{
	size_t n = all_rule_count();
	ck_assert_uint_gt(kp_validation_rule_count(), 150);
	ck_assert_ptr_null(kp_validation_rule_at(kp_validation_rule_count()));
	ck_assert_uint_eq(kp_registry_rule_count(reg, kwok_kind), 32);
	ck_assert_ptr_null(kp_registry_rule_at(reg, kwok_kind, 32));
	ck_assert_uint_eq(kp_registry_rule_count(reg, KP_KIND_NODEPOOL) +
			  kp_registry_rule_count(reg, KP_KIND_NODECLAIM), kp_validation_rule_count());
	ck_assert_uint_eq(kp_registry_rule_count(NULL, kwok_kind), 0);
	size_t per_source[8] = { 0 };
	for (size_t i = 0; i < n; i++) {
		const kp_validation_rule *r = all_rule_at(i);
		ck_assert_uint_eq(r->struct_size, sizeof(kp_validation_rule));
		char id[1024];
		snprintf(id, sizeof(id), "%s:%s:%s", kp_registry_kind_name(reg, r->kind), r->path,
			 r->keyword);
		ck_assert_str_eq(r->id, id);
		ck_assert_uint_ge(r->source, KP_RULE_SOURCE_OPENAPI);
		ck_assert_uint_le(r->source, KP_RULE_SOURCE_DECODE);
		per_source[r->source]++;
		ck_assert_ptr_eq(kp__vrule_find_in(kp__registry_kind_info(reg, r->kind), r->path,
						   r->keyword), r);
		for (size_t j = 0; j < i; j++)
			ck_assert_str_ne(all_rule_at(j)->id, r->id);
		if (r->source == KP_RULE_SOURCE_CEL && strcmp(r->path, "*"))
			ck_assert_uint_eq(!!strstr(r->text, "oldSelf"), !!(r->flags & KP_RULE_F_TRANSITION));
	}
	/* the counts the report quotes */
	ck_assert_uint_eq(per_source[KP_RULE_SOURCE_OPENAPI], 112);
	ck_assert_uint_eq(per_source[KP_RULE_SOURCE_DECODE], 24);
	ck_assert_uint_eq(per_source[KP_RULE_SOURCE_CEL], 27 + 2);
	ck_assert_uint_eq(per_source[KP_RULE_SOURCE_LIST_TYPE], 3);
	ck_assert_uint_eq(per_source[KP_RULE_SOURCE_SCALE], 2);
	ck_assert_uint_eq(per_source[KP_RULE_SOURCE_METADATA], 3 * 16);
	ck_assert_uint_eq(per_source[KP_RULE_SOURCE_RUNTIME], 4 + 2 * 5 + 3 + 1 + 6); /* + label-key warning, 6 durations */
}
END_TEST

/* ------------------------------------------------------------------------ */
/* The pattern matcher                                                      */

typedef struct rcase {
	const char *pattern, *text;
	int match;
} rcase;

static const rcase regex_cases[] = {
	{ P_NODES, "10%", 1 },
	{ P_NODES, "100%", 1 },
	{ P_NODES, "101%", 0 },
	{ P_NODES, "0", 1 },
	{ P_NODES, "", 0 },
	{ P_NODES, "5 ", 0 },
	{ P_BUDGET_DUR, "8h", 1 },
	{ P_BUDGET_DUR, "1h30m", 1 },
	{ P_BUDGET_DUR, "1h30m0s", 1 },
	{ P_BUDGET_DUR, "30m0s", 1 },
	{ P_BUDGET_DUR, "1h0m0s", 1 },
	{ P_BUDGET_DUR, "30s", 0 },
	{ P_BUDGET_DUR, "1m30h", 0 },
	/* the schedule pattern is anchored at one end per alternative, as written */
	{ P_SCHEDULE, "@daily", 1 },
	{ P_SCHEDULE, "@dailyish", 1 },
	{ P_SCHEDULE, "x@daily", 0 },
	{ P_SCHEDULE, "* * * * *", 1 },
	{ P_SCHEDULE, "* * * *", 0 },
	{ P_SCHEDULE, "a\nb c d e f", 1 },
	{ P_SCHEDULE, "a b c d e\n", 0 },
	{ P_SCHEDULE, "a\tb\tc\td\te", 1 },
	{ P_NILLABLE, "Never", 1 },
	{ P_NILLABLE, "FooNever", 0 },
	{ P_NILLABLE, "1h1m1s", 1 },
	{ P_NILLABLE, "1.5h", 0 },
	{ P_GROUP, "", 1 },
	{ P_GROUP, "karpenter.k8s.aws/v1", 0 },
	{ P_GROUP, "\xc3\xa9\xff", 1 },
	{ P_KEY, "a", 1 },
	{ P_KEY, "example.com/Name_1.x", 1 },
	{ P_KEY, "Example.com/x", 0 },
	{ P_KEY, "example.com/", 0 },
	{ P_KEY, "a/b/c", 0 },
	{ P_KEY, "-a", 0 },
	{ P_LABEL_VALUE, "", 1 },
	{ P_LABEL_VALUE, "a-b", 1 },
	{ P_LABEL_VALUE, "a-", 0 },
	{ P_REASON_NC, "", 1 },
	{ P_REASON_NP, "", 0 },
	{ P_COND_TYPE, "example.com/Ready", 1 },
	/* syntax the CRDs do not use but the matcher reads */
	{ "^a{2,3}$", "aaaa", 0 },
	{ "^a{2,3}$", "aaa", 1 },
	{ "^a{2,}$", "aaaaaa", 1 },
	{ "^(?:ab)+$", "ababab", 1 },
	{ "^\\d\\w\\S$", "1_x", 1 },
	{ "^\\D$", "1", 0 },
	{ "^[\\s]$", " ", 1 },
	{ "b", "abc", 1 },
	{ "^.$", "\xc3\xa9", 1 },
	{ "^..$", "\xc3\xa9", 0 },
	{ "^.$", "\n", 0 },
	{ "^[^a]$", "\n", 1 },
	{ "a{", "a{", 1 },
	{ "^$", "", 1 },
	{ "x*", "", 1 },
};

START_TEST(test_regex)
{
	const rcase *c = &regex_cases[_i];
	ck_assert_msg(kp__regex_match(c->pattern, c->text, strlen(c->text)) == c->match,
		      "/%s/ on \"%s\": want %d", c->pattern, c->text, c->match);
}
END_TEST

START_TEST(test_regex_errors)
{
	static const char *const bad[] = { "(", "a)", "[a", "*", "+a", "a{3,2}", "[z-a]", "\\",
					   "[\\S]" };
	for (size_t i = 0; i < N(bad); i++)
		ck_assert_int_eq(kp__regex_match(bad[i], "a", 1), KP_EINVAL);
	/* linear time: a hostile schedule of 200 kB is answered at once */
	size_t n = 200000;
	char *s = malloc(n + 1);
	for (size_t i = 0; i < n; i++)
		s[i] = i % 2 ? ' ' : 'x';
	s[n] = '\0';
	s[n - 1] = '\n';
	ck_assert_int_eq(kp__regex_match(P_SCHEDULE, s, n), 0);
	free(s);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* API behaviour                                                            */

static void *decode_text(const char *text, uint32_t *kind)
{
	return decode_one(text, strlen(text), 1, kind);
}

START_TEST(test_api_errors)
{
	uint32_t kind;
	void *np = decode_text(NP_HEAD META NP_SPEC_OK, &kind);
	kp_validation *v = (kp_validation *)1;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_validate(NULL, kind, np, NULL, NULL, &e), KP_EINVAL);
	ck_assert_int_eq(kp_validate(&v, kind, NULL, NULL, NULL, &e), KP_EINVAL);
	ck_assert_ptr_null(v);
	ck_assert_int_eq(kp_validate(&v, KP_KIND_POD, np, NULL, NULL, &e), KP_EINVAL);
	ck_assert_str_eq(e.field, "kind");
	kp_validate_options o = KP_VALIDATE_OPTIONS_INIT;
	o.flags = 1u << 20;
	ck_assert_int_eq(kp_validate(&v, kind, np, NULL, &o, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "unknown flags 0x100000");
	kp_validate_options_init(&o);
	ck_assert_uint_eq(o.struct_size, sizeof(o));
	ck_assert_uint_eq(o.flags, 0);
	kp_validate_options_init(NULL);
	/* a newer caller's options with unknown non-zero tail bytes */
	struct {
		kp_validate_options o;
		uint64_t more;
	} big = { KP_VALIDATE_OPTIONS_INIT, 1 };
	big.o.struct_size = sizeof(big);
	ck_assert_int_eq(kp_validate(&v, kind, np, NULL, &big.o, &e), KP_EVERSION);
	big.more = 0;
	ck_assert_int_eq(kp_validate(&v, kind, np, NULL, &big.o, &e), KP_OK);
	ck_assert_uint_eq(kp_validation_count(v), 0);
	ck_assert_ptr_null(kp_validation_at(v, 0));
	kp_validation_free(v);
	ck_assert_uint_eq(kp_validation_count(NULL), 0);
	ck_assert_ptr_null(kp_validation_at(NULL, 0));
	kp_validation_free(NULL);
	kp_object_free(kind, np);
}
END_TEST

/* A caller-built NodePool (no decoding): operator codes without text, a
 * smaller struct_size from an older header, no metadata. */
/* Duplicate taints with an effect code no name exists for: the message
 * names the code (and must not read a buffer that went out of scope). */
START_TEST(test_duplicate_unknown_effect)
{
	kp_node_class_reference ref = KP_NODE_CLASS_REFERENCE_INIT;
	ref.group = "karpenter.test.sh";
	ref.kind = "TestNodeClass";
	ref.name = "default";
	kp_nodeclaim_spec spec = KP_NODECLAIM_SPEC_INIT;
	spec.node_class_ref = &ref;
	kp_taint taints[] = { { "a", NULL, 7, 0, 0 }, { "a", NULL, 7, 0, 0 } };
	spec.taints = taints;
	spec.n_taints = 2;
	kp_nodeclaim_template t = KP_NODECLAIM_TEMPLATE_INIT;
	t.spec = &spec;
	kp_nodepool_spec s = KP_NODEPOOL_SPEC_INIT;
	s.template_ = &t;
	kp_object_meta meta = KP_OBJECT_META_INIT;
	meta.name = "dup";
	kp_nodepool np = KP_NODEPOOL_INIT;
	np.metadata = &meta;
	np.spec = &s;
	kp_validation *v = NULL;
	ck_assert_int_eq(kp_validate(&v, KP_KIND_NODEPOOL, &np, NULL, NULL, NULL), KP_OK);
	char *got = problems_text(v);
	ck_assert_msg(strstr(got, "spec.template.spec.taints[1]: duplicate taint Key/Effect pair a=7\n"),
		      "%s", got);
	free(got);
	kp_validation_free(v);
}
END_TEST

START_TEST(test_caller_built)
{
	kp_node_class_reference ref = KP_NODE_CLASS_REFERENCE_INIT;
	ref.group = "karpenter.test.sh";
	ref.kind = "TestNodeClass";
	ref.name = "default";
	kp_nodeclaim_requirement r0 = KP_NODECLAIM_REQUIREMENT_INIT, r1 = KP_NODECLAIM_REQUIREMENT_INIT;
	r0.key = "topology.kubernetes.io/zone";
	r0.op = KP_SELECTOR_OP_IN; /* no operator_name: the code's name is used */
	static const char *const zones[] = { "us-west-2a" };
	r0.values = zones;
	r0.n_values = 1;
	r1.key = "example.com/a";
	r1.op = KP_SELECTOR_OP_GT;
	kp_nodeclaim_requirement *reqs[] = { &r0, &r1 };
	kp_nodeclaim_spec spec = KP_NODECLAIM_SPEC_INIT;
	spec.node_class_ref = &ref;
	spec.requirements = reqs;
	spec.n_requirements = 2;
	kp_taint taints[] = { { "a", NULL, 7, 0, 0 } };
	spec.taints = taints;
	spec.n_taints = 1;
	kp_taint startup[] = { { "b", "v", 9, 0, 0 } };
	spec.startup_taints = startup;
	spec.n_startup_taints = 1;
	spec.expire_after.parsed = 1; /* no text: formatted from the value */
	spec.expire_after.never = 1;
	kp_nodeclaim_template t = KP_NODECLAIM_TEMPLATE_INIT;
	t.spec = &spec;
	kp_nodepool_spec s = KP_NODEPOOL_SPEC_INIT;
	s.template_ = &t;
	kp_disruption d = KP_DISRUPTION_INIT;
	d.consolidation_policy_code = KP_CONSOLIDATION_POLICY_BALANCED;
	d.consolidate_after.parsed = 1;
	d.consolidate_after.ns = 90 * INT64_C(1000000000);
	s.disruption = &d;
	kp_nodepool np = KP_NODEPOOL_INIT;
	np.spec = &s;
	kp_validation *v = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_validate(&v, KP_KIND_NODEPOOL, &np, NULL, NULL, &e), KP_OK);
	char *got = problems_text(v);
	ck_assert_str_eq(got,
		"metadata.name: Required value: name or generateName is required\n"
		"spec.template.spec.startupTaints[0].effect: Unsupported value: \"9\": supported "
		"values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"\n"
		"spec.template.spec.taints[0].effect: Unsupported value: \"7\": supported values: "
		"\"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"\n"
		SKIPPED "\n"
		"spec.template.spec.taints[0]: invalid value: \"7\" in taints\n"
		"spec.template.spec.startupTaints[0]: invalid value: \"9\" in startupTaints\n"
		"spec.template.spec.requirements[1]: invalid value: key example.com/a with operator Gt "
		"must have a single positive integer value in requirements, restricted\n");
	ck_assert_str_eq(kp_validation_at(v, 0)->object, "NodePool/");
	free(got);
	kp_validation_free(v);

	/* the CEL rules see the operator codes too */
	taints[0].effect = KP_TAINT_EFFECT_NO_SCHEDULE;
	startup[0].effect = KP_TAINT_EFFECT_NO_EXECUTE;
	kp_object_meta meta = KP_OBJECT_META_INIT;
	meta.name = "caller";
	np.metadata = &meta;
	ck_assert_int_eq(kp_validate(&v, KP_KIND_NODEPOOL, &np, NULL, NULL, &e), KP_OK);
	got = problems_text(v);
	ck_assert_str_eq(got,
		CELERR("spec.template.spec.requirements", "array", "no such key: values",
		       "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive "
		       "integer value") "\n"
		"spec.template.spec.requirements[1]: invalid value: key example.com/a with operator Gt "
		"must have a single positive integer value in requirements, restricted\n");
	free(got);
	kp_validation_free(v);

	/* a struct_size this library cannot read */
	r1.struct_size = 8;
	ck_assert_int_eq(kp_validate(&v, KP_KIND_NODEPOOL, &np, NULL, NULL, &e), KP_EVERSION);
	ck_assert_ptr_null(v);
	r1.struct_size = sizeof(r1);

	/* a list with a NULL item */
	reqs[1] = NULL;
	ck_assert_int_eq(kp_validate(&v, KP_KIND_NODEPOOL, &np, NULL, NULL, &e), KP_EINVAL);
	ck_assert_ptr_null(v);
}
END_TEST

START_TEST(test_flags)
{
	uint32_t kind;
	void *np = decode_text(NP_L("karpenter.sh/x: v") "status: {conditions: [{}]}\n", &kind);
	kp_validate_options o = KP_VALIDATE_OPTIONS_INIT;
	kp_validation *v = NULL;
	/* everything: status blocks CEL */
	ck_assert_int_eq(kp_validate(&v, kind, np, NULL, &o, NULL), KP_OK);
	ck_assert_uint_eq(kp_validation_count(v), 7);
	ck_assert_str_eq(kp_validation_at(v, 5)->field, "<nil>");
	ck_assert_uint_eq(kp_validation_at(v, 6)->source, KP_RULE_SOURCE_RUNTIME);
	kp_validation_free(v);
	/* without status: the CEL rule runs */
	o.flags = KP_VALIDATE_NO_STATUS;
	ck_assert_int_eq(kp_validate(&v, kind, np, NULL, &o, NULL), KP_OK);
	ck_assert_uint_eq(kp_validation_count(v), 2);
	ck_assert_uint_eq(kp_validation_at(v, 0)->source, KP_RULE_SOURCE_CEL);
	ck_assert_str_eq(kp_validation_at(v, 0)->detail, "label domain \"karpenter.sh\" is restricted");
	ck_assert_str_eq(kp_validation_at(v, 0)->rule,
			 "NodePool:spec.template.metadata.labels:x-kubernetes-validations[0]");
	ck_assert_uint_eq(kp_validation_at(v, 0)->type, KP_FIELD_ERROR_INVALID);
	ck_assert_uint_eq(kp_validation_at(v, 1)->type, KP_FIELD_ERROR_RUNTIME);
	kp_validation_free(v);
	/* ... and without runtime checks */
	o.flags = KP_VALIDATE_NO_STATUS | KP_VALIDATE_NO_RUNTIME;
	ck_assert_int_eq(kp_validate(&v, kind, np, NULL, &o, NULL), KP_OK);
	ck_assert_uint_eq(kp_validation_count(v), 1);
	kp_validation_free(v);
	/* all CEL despite the blocking status */
	o.flags = KP_VALIDATE_ALL_CEL | KP_VALIDATE_NO_RUNTIME;
	ck_assert_int_eq(kp_validate(&v, kind, np, NULL, &o, NULL), KP_OK);
	ck_assert_uint_eq(kp_validation_count(v), 6);
	ck_assert_uint_eq(kp_validation_at(v, 5)->source, KP_RULE_SOURCE_CEL);
	ck_assert_uint_eq(kp_validation_at(v, 0)->type, KP_FIELD_ERROR_REQUIRED);
	ck_assert_str_eq(kp_validation_at(v, 0)->detail, "");
	kp_validation_free(v);
	kp_object_free(kind, np);

	/* metadata */
	np = decode_text(NP_HEAD "metadata: {name: Bad}\n" NP_SPEC_OK, &kind);
	o.flags = 0;
	ck_assert_int_eq(kp_validate(&v, kind, np, NULL, &o, NULL), KP_OK);
	ck_assert_uint_eq(kp_validation_count(v), 1);
	ck_assert_uint_eq(kp_validation_at(v, 0)->source, KP_RULE_SOURCE_METADATA);
	kp_validation_free(v);
	o.flags = KP_VALIDATE_NO_METADATA;
	ck_assert_int_eq(kp_validate(&v, kind, np, NULL, &o, NULL), KP_OK);
	ck_assert_uint_eq(kp_validation_count(v), 0);
	kp_validation_free(v);
	kp_object_free(kind, np);
}
END_TEST

/* A provider's label rules change the runtime checks. */
START_TEST(test_wellknown_handle)
{
	kp_wellknown *wk = NULL;
	ck_assert_int_eq(kp_wellknown_new(&wk, NULL), KP_OK);
	ck_assert_int_eq(kp_wellknown_add_restricted_domain(wk, "karpenter.k8s.aws", NULL), KP_OK);
	ck_assert_int_eq(kp_wellknown_add_label(wk, "karpenter.k8s.aws/instance-family", NULL), KP_OK);
	uint32_t kind;
	void *np = decode_text(NP_R("{key: karpenter.k8s.aws/instance-family, operator: Exists}, "
				    "{key: karpenter.k8s.aws/unknown, operator: Exists}"),
			       &kind);
	kp_validate_options o = KP_VALIDATE_OPTIONS_INIT;
	kp_validation *v = NULL;
	ck_assert_int_eq(kp_validate(&v, kind, np, NULL, &o, NULL), KP_OK);
	ck_assert_uint_eq(kp_validation_count(v), 0);
	kp_validation_free(v);
	o.wellknown = wk;
	ck_assert_int_eq(kp_validate(&v, kind, np, NULL, &o, NULL), KP_OK);
	ck_assert_uint_eq(kp_validation_count(v), 1);
	ck_assert_str_eq(kp_validation_at(v, 0)->field, "spec.template.spec.requirements[1]");
	ck_assert_msg(strstr(kp_validation_at(v, 0)->message,
			     "using label karpenter.k8s.aws/unknown is not allowed") != NULL,
		      "%s", kp_validation_at(v, 0)->message);
	ck_assert_msg(strstr(kp_validation_at(v, 0)->message, "domain: [karpenter.k8s.aws "
							      "karpenter.sh]") != NULL,
		      "%s", kp_validation_at(v, 0)->message);
	kp_validation_free(v);
	kp_object_free(kind, np);
	kp_wellknown_free(wk);
}
END_TEST

/* Allocation failures: every failure point gives KP_ENOMEM, nothing leaks. */
START_TEST(test_out_of_memory)
{
	kp_test_alloc_install();
	size_t len;
	vcase c = { "", NULL, FIXTURE("nodepool-valid.yaml"), NULL, NULL, 0, 0, { NULL } };
	char *text = case_text(&c, &len);
	/* an object with problems of every phase */
	static const char bad[] = NP_HEAD "metadata: {name: Bad, labels: {\"x y\": v}}\n"
		"spec: {replicas: -1, disruption: {budgets: [{nodes: \"10\", schedule: \"0 0 * * sat-sun\", "
		"duration: 1h, reasons: [Empty, Empty]}]}, template: {metadata: {labels: {karpenter.sh/a: v}}, "
		"spec: {" REF ", requirements: [{key: a, operator: In}], taints: [{key: \"\", effect: "
		"NoSchedule}]}}}\n";
	const char *texts[] = { text, bad };
	for (size_t t = 0; t < N(texts); t++) {
		uint32_t kind;
		void *np = decode_text(texts[t], &kind);
		kp_validation *ref = NULL;
		kp_validate_options o = KP_VALIDATE_OPTIONS_INIT;
		o.flags = KP_VALIDATE_ALL_CEL;
		ck_assert_int_eq(kp_validate(&ref, kind, np, NULL, &o, NULL), KP_OK);
		char *want = problems_text(ref);
		kp_validation_free(ref);
		for (long k = 0;; k++) {
			kp_validation *v = NULL;
			kp_error e = KP_ERROR_INIT;
			kp_test_alloc_fail_at(k);
			int rc = kp_validate(&v, kind, np, NULL, &o, &e);
			kp_test_alloc_fail_at(-1);
			if (rc == KP_OK) {
				char *got = problems_text(v);
				ck_assert_str_eq(got, want);
				free(got);
				kp_validation_free(v);
				break;
			}
			ck_assert_int_eq(rc, KP_ENOMEM);
			ck_assert_ptr_null(v);
		}
		free(want);
		kp_object_free(kind, np);
	}
	free(text);
}
END_TEST

/* Validating twice gives the same answer, byte for byte. */
START_TEST(test_deterministic)
{
	size_t len;
	char *text = case_text(&cases[_i], &len);
	uint32_t kind;
	void *obj = decode_one(text, len, !cases[_i].no_defaults, &kind);
	kp_validation *a = NULL, *b = NULL;
	kp_validate_options o = KP_VALIDATE_OPTIONS_INIT;
	o.flags = cases[_i].flags | KP_VALIDATE_ALL_CEL;
	o.registry = reg;
	ck_assert_int_eq(kp_validate(&a, kind, obj, NULL, &o, NULL), KP_OK);
	ck_assert_int_eq(kp_validate(&b, kind, obj, NULL, &o, NULL), KP_OK);
	char *ta = problems_text(a), *tb = problems_text(b);
	ck_assert_str_eq(ta, tb);
	free(ta);
	free(tb);
	kp_validation_free(a);
	kp_validation_free(b);
	kp_registry_object_free(reg, kind, obj);
	free(text);
}
END_TEST

static Suite *validation_suite(void)
{
	Suite *s = suite_create("validation");
	TCase *tc = tcase_create("cases");
	tcase_add_loop_test(tc, test_case, 0, (int)N(cases));
	tcase_add_loop_test(tc, test_claims, 0, (int)N(cases));
	tcase_add_loop_test(tc, test_decode_case, 0, (int)N(decode_cases));
	tcase_add_test(tc, test_integral_floats);
	tcase_add_test(tc, test_label_key_warning);
	tcase_add_test(tc, test_cron_warning);
	tcase_add_loop_test(tc, test_long_values, 0, 2);
	tcase_add_loop_test(tc, test_long_values_in_decode_errors, 0, 2);
	tcase_add_test(tc, test_coverage);
	tcase_add_test(tc, test_inventory);
	suite_add_tcase(s, tc);
	tc = tcase_create("regex");
	tcase_add_loop_test(tc, test_regex, 0, (int)N(regex_cases));
	tcase_add_test(tc, test_regex_errors);
	suite_add_tcase(s, tc);
	tc = tcase_create("api");
	tcase_add_test(tc, test_api_errors);
	tcase_add_test(tc, test_caller_built);
	tcase_add_test(tc, test_duplicate_unknown_effect);
	tcase_add_test(tc, test_flags);
	tcase_add_test(tc, test_wellknown_handle);
	tcase_add_test(tc, test_out_of_memory);
	tcase_add_loop_test(tc, test_deterministic, 0, (int)N(cases));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (kp_registry_new(&reg, NULL) || kp_kwok_register(reg, &kwok_kind, NULL))
		return 99;
	Suite *s = validation_suite();
	int rc = kp_test_run(&s, 1);
	kp_registry_free(reg);
	return rc;
}
