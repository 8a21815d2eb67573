/*
 * Static and requirements drift: table tests transcribed from upstream
 * pkg/controllers/nodeclaim/disruption/drift_test.go (the core's part: no
 * cloud-provider or instance-type drift) and the hash controller's
 * interplay with static drift.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "hash_test.h"
#include "kp_test.h"

/* test.NodePool(): the default test node class, requirements [] unless
 * given (YAML flow list), annotations (flow map body), extra template spec
 * (flow map members, with a leading ", "). */
static kp_nodepool *nodepool(const char *requirements, const char *annotations)
{
	char text[4096];
	snprintf(text, sizeof(text),
		 "apiVersion: karpenter.sh/v1\nkind: NodePool\n"
		 "metadata: {name: default, annotations: {%s}}\n"
		 "spec:\n  template:\n    spec:\n"
		 "      nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass, name: default}\n"
		 "      expireAfter: 720h\n"
		 "      requirements: %s\n",
		 annotations ? annotations : "", requirements ? requirements : "[]");
	return ht_decode(KP_KIND_NODEPOOL, text);
}

/* The NodeClaim of the upstream BeforeEach, Launched=True unless launched
 * says otherwise ("" for no condition); labels override or add to the
 * defaults (flow map members, with a leading ", "). */
static kp_nodeclaim *nodeclaim(const char *labels, const char *annotations, const char *launched)
{
	char text[4096];
	char conditions[256] = "";
	if (!launched)
		launched = "True";
	if (*launched)
		snprintf(conditions, sizeof(conditions),
			 "status: {conditions: [{type: Launched, status: '%s', reason: Launched, "
			 "message: '', lastTransitionTime: '2024-01-01T00:00:00Z'}]}\n", launched);
	snprintf(text, sizeof(text),
		 "apiVersion: karpenter.sh/v1\nkind: NodeClaim\n"
		 "metadata:\n  name: nc\n"
		 "  labels: {karpenter.sh/nodepool: default,"
		 " node.kubernetes.io/instance-type: default-instance-type,"
		 " topology.kubernetes.io/zone: test-zone-1a%s}\n"
		 "  annotations: {%s}\n"
		 "spec: {nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass, name: default},"
		 " requirements: []}\n%s",
		 labels ? labels : ", karpenter.sh/capacity-type: spot", annotations ? annotations : "",
		 conditions);
	return ht_decode(KP_KIND_NODECLAIM, text);
}

static kp_drift *check(const kp_nodepool *np, const kp_nodeclaim *nc, const kp_drift_options *o)
{
	kp_drift *d = NULL;
	kp_error e;
	memset(&e, 0, sizeof(e));
	ck_assert_msg(kp_drift_check(&d, np, nc, o, &e) == KP_OK, "%s: %s", e.field, e.message);
	ck_assert_ptr_nonnull(d);
	ck_assert_uint_eq(d->struct_size, sizeof(kp_drift));
	ck_assert_ptr_nonnull(d->reason);
	ck_assert_ptr_nonnull(d->message);
	return d;
}

static void expect(const kp_nodepool *np, const kp_nodeclaim *nc, uint32_t code, const char *reason,
		   const char *message)
{
	kp_drift *d = check(np, nc, NULL);
	ck_assert_uint_eq(d->reason_code, code);
	ck_assert_str_eq(d->reason, reason);
	if (message)
		ck_assert_str_eq(d->message, message);
	kp_drift_free(d);
}

/* ------------------------------------------------------------------------ */
/* Drift controller cases                                                   */

/* It("should detect static drift before cloud provider drift") */
START_TEST(static_drift_detected)
{
	kp_nodepool *np = nodepool(NULL, "karpenter.sh/nodepool-hash: test-123456789, "
					 "karpenter.sh/nodepool-hash-version: v3");
	kp_nodeclaim *nc = nodeclaim(NULL, "karpenter.sh/nodepool-hash: test-123, "
					   "karpenter.sh/nodepool-hash-version: v3", NULL);
	expect(np, nc, KP_DRIFT_NODEPOOL, "NodePoolDrifted",
	       "NodePool hash test-123456789 differs from the NodeClaim's test-123 (hash version v3): "
	       "a static field of spec.template changed");
	uint32_t d = 9;
	ck_assert_int_eq(kp_drift_static(np, nc, NULL, &d, NULL), KP_OK);
	ck_assert_uint_eq(d, 1);
	kp_nodeclaim_free(nc);
	kp_nodepool_free(np);
}
END_TEST

/* It("should detect node requirement drift before cloud provider drift") */
START_TEST(requirements_drift_detected)
{
	kp_nodepool *np = nodepool("[{key: node.kubernetes.io/instance-type, operator: DoesNotExist}]",
				   NULL);
	kp_nodeclaim *nc = nodeclaim(NULL, NULL, NULL);
	kp_drift *d = check(np, nc, NULL);
	ck_assert_uint_eq(d->reason_code, KP_DRIFT_REQUIREMENTS);
	ck_assert_str_eq(d->reason, "RequirementsDrifted");
	ck_assert_msg(strstr(d->message, "the NodeClaim's labels are not compatible with the "
					 "NodePool's requirements: ") == d->message, "%s", d->message);
	ck_assert_msg(strstr(d->message, "node.kubernetes.io/instance-type"), "%s", d->message);
	kp_drift_free(d);
	uint32_t r = 9;
	ck_assert_int_eq(kp_drift_requirements(np, nc, NULL, &r, NULL), KP_OK);
	ck_assert_uint_eq(r, 1);
	kp_nodeclaim_free(nc);
	kp_nodepool_free(np);
}
END_TEST

/* Static drift is reported before requirements drift. */
START_TEST(static_before_requirements)
{
	kp_nodepool *np = nodepool("[{key: node.kubernetes.io/instance-type, operator: DoesNotExist}]",
				   "karpenter.sh/nodepool-hash: '1', "
				   "karpenter.sh/nodepool-hash-version: v3");
	kp_nodeclaim *nc = nodeclaim(NULL, "karpenter.sh/nodepool-hash: '2', "
					   "karpenter.sh/nodepool-hash-version: v3", NULL);
	expect(np, nc, KP_DRIFT_NODEPOOL, "NodePoolDrifted", NULL);
	kp_nodeclaim_free(nc);
	kp_nodepool_free(np);
}
END_TEST

/* It("should remove the status condition ... launch condition is unknown /
 * false"): a NodeClaim that is not launched is never drifted. */
START_TEST(not_launched)
{
	kp_nodepool *np = nodepool(NULL, "karpenter.sh/nodepool-hash: '1', "
					 "karpenter.sh/nodepool-hash-version: v3");
	const char *states[] = { "Unknown", "False", "" };
	const char *msgs[] = {
		"not evaluated: the NodeClaim is not launched (condition Launched is \"Unknown\")",
		"not evaluated: the NodeClaim is not launched (condition Launched is \"False\")",
		"not evaluated: the NodeClaim is not launched (no Launched condition)",
	};
	for (int i = 0; i < 3; i++) {
		kp_nodeclaim *nc = nodeclaim(NULL, "karpenter.sh/nodepool-hash: '2', "
						   "karpenter.sh/nodepool-hash-version: v3", states[i]);
		expect(np, nc, KP_DRIFT_NONE, "", msgs[i]);
		/* KP_DRIFT_IGNORE_LAUNCHED evaluates it anyway. */
		kp_drift_options o = KP_DRIFT_OPTIONS_INIT;
		o.flags = KP_DRIFT_IGNORE_LAUNCHED;
		kp_drift *d = check(np, nc, &o);
		ck_assert_uint_eq(d->reason_code, KP_DRIFT_NODEPOOL);
		kp_drift_free(d);
		kp_nodeclaim_free(nc);
	}
	kp_nodepool_free(np);
}
END_TEST

/* A run of @p n copies of @p c (malloc'd). */
static char *run_of(char c, size_t n)
{
	char *s = malloc(n + 1);
	ck_assert_ptr_nonnull(s);
	memset(s, c, n);
	s[n] = '\0';
	return s;
}

/* @p fmt with its first "%s" replaced by @p a and its second by @p b, in a
 * malloc'd string (no printf: the formats are not literals). */
static char *text_of(const char *fmt, const char *a, const char *b)
{
	const char *p1 = strstr(fmt, "%s");
	ck_assert_ptr_nonnull(p1);
	const char *p2 = strstr(p1 + 2, "%s");
	ck_assert_ptr_nonnull(p2);
	size_t la = strlen(a), lb = strlen(b), l1 = (size_t)(p1 - fmt), l2 = (size_t)(p2 - p1 - 2);
	char *s = malloc(strlen(fmt) - 4 + la + lb + 1);
	ck_assert_ptr_nonnull(s);
	char *w = s;
	memcpy(w, fmt, l1);
	w += l1;
	memcpy(w, a, la);
	w += la;
	memcpy(w, p1 + 2, l2);
	w += l2;
	memcpy(w, b, lb);
	w += lb;
	strcpy(w, p2 + 2);
	return s;
}

/* A drift message is a result: the objects' text in it (hash annotations
 * of 300 and 70,000 characters, a Launched status as long) is kept whole,
 * never truncated to a fixed buffer. */
static const size_t long_lengths[] = { 300, 70000 };

START_TEST(long_values_kept_whole)
{
	size_t n = long_lengths[_i];
	char *np_hash = run_of('1', n), *nc_hash = run_of('2', n), *status = run_of('S', n);
	char *text = text_of("apiVersion: karpenter.sh/v1\nkind: NodePool\n"
			     "metadata: {name: default, annotations: {karpenter.sh/nodepool-hash: '%s',"
			     " karpenter.sh/nodepool-hash-version: v3}}\n"
			     "spec:\n  template:\n    spec:\n"
			     "      nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass, "
			     "name: default}\n      requirements: []\n%s", np_hash, "");
	kp_nodepool *np = ht_decode(KP_KIND_NODEPOOL, text);
	free(text);
	const char *nc_fmt = "apiVersion: karpenter.sh/v1\nkind: NodeClaim\n"
			     "metadata:\n  name: nc\n  labels: {karpenter.sh/nodepool: default}\n"
			     "  annotations: {karpenter.sh/nodepool-hash: '%s', "
			     "karpenter.sh/nodepool-hash-version: v3}\n"
			     "spec: {nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass, "
			     "name: default}, requirements: []}\n"
			     "status: {conditions: [{type: Launched, status: '%s', reason: Launched, "
			     "message: '', lastTransitionTime: '2024-01-01T00:00:00Z'}]}\n";
	text = text_of(nc_fmt, nc_hash, "True");
	kp_nodeclaim *launched = ht_decode(KP_KIND_NODECLAIM, text);
	free(text);
	text = text_of(nc_fmt, nc_hash, status);
	kp_nodeclaim *pending = ht_decode(KP_KIND_NODECLAIM, text);
	free(text);

	char *want = text_of("NodePool hash %s differs from the NodeClaim's %s (hash version v3): "
			     "a static field of spec.template changed", np_hash, nc_hash);
	expect(np, launched, KP_DRIFT_NODEPOOL, "NodePoolDrifted", want);
	free(want);
	want = text_of("not evaluated: the NodeClaim is not launched (condition Launched is "
		       "\"%s\")%s", status, "");
	expect(np, pending, KP_DRIFT_NONE, "", want);
	free(want);

	kp_nodeclaim_free(pending);
	kp_nodeclaim_free(launched);
	kp_nodepool_free(np);
	free(status);
	free(nc_hash);
	free(np_hash);
}
END_TEST

/* It("should remove the status condition from the nodeClaim if the
 * nodeClaim is no longer drifted"): the BeforeEach NodeClaim carries only
 * the hash annotation. */
START_TEST(not_drifted)
{
	kp_nodepool *np = nodepool(NULL, NULL);
	uint64_t h = 0;
	ck_assert_int_eq(kp_nodepool_hash(np, &h, NULL), KP_OK);
	char ann[128];
	snprintf(ann, sizeof(ann), "karpenter.sh/nodepool-hash: '%llu'", (unsigned long long)h);
	kp_nodeclaim *nc = nodeclaim(NULL, ann, NULL);
	expect(np, nc, KP_DRIFT_NONE, "",
	       "not drifted: static drift not evaluated: the NodePool has no "
	       "karpenter.sh/nodepool-hash annotation; the NodeClaim's labels are compatible with "
	       "the NodePool's requirements");
	kp_nodeclaim_free(nc);
	kp_nodepool_free(np);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* NodeRequirement Drift (DescribeTable)                                    */

typedef struct req_case {
	const char *name;
	const char *old_reqs;
	const char *new_reqs;
	const char *labels;
	int drifted;
} req_case;

#define CT_OD "{key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}"
#define OS_LINUX "{key: kubernetes.io/os, operator: In, values: [linux]}"

static const req_case req_cases[] = {
	{ "should return drifted if the nodePool node requirement is updated",
	  "[" CT_OD ", {key: kubernetes.io/arch, operator: In, values: [amd64]}, " OS_LINUX "]",
	  "[{key: karpenter.sh/capacity-type, operator: In, values: [spot]}]",
	  ", karpenter.sh/capacity-type: on-demand, kubernetes.io/arch: amd64, kubernetes.io/os: linux",
	  1 },
	{ "should return drifted if a new node requirement is added",
	  "[" CT_OD ", " OS_LINUX "]",
	  "[" CT_OD ", " OS_LINUX ", {key: kubernetes.io/arch, operator: In, values: [amd64]}]",
	  ", karpenter.sh/capacity-type: on-demand, kubernetes.io/os: linux", 1 },
	{ "should return drifted if a node requirement is reduced",
	  "[" CT_OD ", {key: kubernetes.io/os, operator: In, values: [linux, windows]}]",
	  "[" CT_OD ", {key: kubernetes.io/os, operator: In, values: [windows]}]",
	  ", karpenter.sh/capacity-type: on-demand, kubernetes.io/os: linux", 1 },
	{ "should not return drifted if a node requirement is expanded",
	  "[" CT_OD ", " OS_LINUX "]",
	  "[" CT_OD ", {key: kubernetes.io/os, operator: In, values: [linux, windows]}]",
	  ", karpenter.sh/capacity-type: on-demand, kubernetes.io/os: linux", 0 },
	{ "should not return drifted if a node requirement set to Exists",
	  "[" CT_OD ", " OS_LINUX "]",
	  "[" CT_OD ", {key: kubernetes.io/os, operator: Exists, values: []}]",
	  ", karpenter.sh/capacity-type: on-demand, kubernetes.io/os: linux", 0 },
	{ "should return drifted if a node requirement set to DoesNotExists",
	  "[" CT_OD ", " OS_LINUX "]",
	  "[" CT_OD ", {key: kubernetes.io/os, operator: DoesNotExist, values: []}]",
	  ", karpenter.sh/capacity-type: on-demand, kubernetes.io/os: linux", 1 },
	{ "should not return drifted if a nodeClaim is greater then node requirement (drifted)",
	  "[" CT_OD ", {key: test-label, operator: Gt, values: ['2']}]",
	  "[" CT_OD ", {key: test-label, operator: Gt, values: ['10']}]",
	  ", karpenter.sh/capacity-type: on-demand, test-label: '5'", 1 },
	{ "should not return drifted if a nodeClaim is less then node requirement (drifted)",
	  "[" CT_OD ", {key: test-label, operator: Lt, values: ['5']}]",
	  "[" CT_OD ", {key: test-label, operator: Lt, values: ['1']}]",
	  ", karpenter.sh/capacity-type: on-demand, test-label: '2'", 1 },
	/* Beyond upstream's table: the asymmetric rules spelled out. */
	{ "a NotIn requirement on a key the NodeClaim lacks does not drift",
	  "[" CT_OD "]", "[" CT_OD ", {key: example.com/team, operator: NotIn, values: [a]}]",
	  ", karpenter.sh/capacity-type: on-demand", 0 },
	{ "an Exists requirement on a key the NodeClaim lacks drifts",
	  "[" CT_OD "]", "[" CT_OD ", {key: example.com/team, operator: Exists}]",
	  ", karpenter.sh/capacity-type: on-demand", 1 },
	{ "removing a requirement never drifts", "[" CT_OD ", " OS_LINUX "]", "[]",
	  ", karpenter.sh/capacity-type: on-demand, kubernetes.io/os: linux", 0 },
	{ "a beta label key is normalized before comparing", "[]",
	  "[{key: beta.kubernetes.io/arch, operator: In, values: [amd64]}]",
	  ", karpenter.sh/capacity-type: spot, kubernetes.io/arch: amd64", 0 },
};

START_TEST(requirements_table)
{
	const req_case *c = &req_cases[_i];
	kp_nodeclaim *nc = nodeclaim(c->labels, NULL, NULL);
	kp_nodepool *np = nodepool(c->old_reqs, NULL);
	kp_drift *d = check(np, nc, NULL);
	ck_assert_msg(d->reason_code == KP_DRIFT_NONE, "%s (old): %s", c->name, d->message);
	kp_drift_free(d);
	kp_nodepool_free(np);

	np = nodepool(c->new_reqs, NULL);
	d = check(np, nc, NULL);
	ck_assert_msg(d->reason_code == (c->drifted ? KP_DRIFT_REQUIREMENTS : KP_DRIFT_NONE),
		      "%s: %s", c->name, d->message);
	ck_assert_str_eq(d->reason, c->drifted ? "RequirementsDrifted" : "");
	kp_drift_free(d);
	kp_nodepool_free(np);
	kp_nodeclaim_free(nc);
}
END_TEST

/* It("should return drifted only on NodeClaims that are drifted from an
 * updated nodePool") */
START_TEST(requirements_only_affected_nodeclaims)
{
	kp_nodeclaim *linux_nc = nodeclaim(", karpenter.sh/capacity-type: on-demand, "
					   "kubernetes.io/os: linux", NULL, NULL);
	kp_nodeclaim *windows_nc = nodeclaim(", karpenter.sh/capacity-type: on-demand, "
					     "kubernetes.io/os: windows", NULL, NULL);
	kp_nodepool *np = nodepool("[" CT_OD ", {key: kubernetes.io/os, operator: In, "
				   "values: [linux, windows]}]", NULL);
	uint32_t d = 9;
	ck_assert_int_eq(kp_drift_requirements(np, linux_nc, NULL, &d, NULL), KP_OK);
	ck_assert_uint_eq(d, 0);
	ck_assert_int_eq(kp_drift_requirements(np, windows_nc, NULL, &d, NULL), KP_OK);
	ck_assert_uint_eq(d, 0);
	kp_nodepool_free(np);
	np = nodepool("[" CT_OD ", " OS_LINUX "]", NULL); /* removed Windows */
	ck_assert_int_eq(kp_drift_requirements(np, linux_nc, NULL, &d, NULL), KP_OK);
	ck_assert_uint_eq(d, 0);
	ck_assert_int_eq(kp_drift_requirements(np, windows_nc, NULL, &d, NULL), KP_OK);
	ck_assert_uint_eq(d, 1);
	kp_nodepool_free(np);
	kp_nodeclaim_free(linux_nc);
	kp_nodeclaim_free(windows_nc);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* NodePool Static Drift (with the hash controller)                         */

static const char static_base[] =
	"      metadata:\n"
	"        annotations: {keyAnnotation: valueAnnotation, keyAnnotation2: valueAnnotation2}\n"
	"        labels: {keyLabel: valueLabel, keyLabel2: valueLabel2}\n"
	"      spec:\n"
	"        requirements: []\n"
	"        nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass, name: %s}\n"
	"        taints: [{key: %s, effect: NoExecute}]\n"
	"        startupTaints: [{key: %s, effect: NoExecute}]\n"
	"        expireAfter: %s\n"
	"        terminationGracePeriod: %s\n";

typedef struct static_change {
	const char *name;
	const char *extra_annotation; /* a template annotation added, or NULL */
	const char *extra_label;
	const char *taint, *startup_taint, *class_name, *expire, *tgp;
} static_change;

static const static_change static_changes[] = {
	{ "Annotations", "keyAnnotationTest", NULL, NULL, NULL, NULL, NULL, NULL },
	{ "Labels", NULL, "keyLabelTest", NULL, NULL, NULL, NULL, NULL },
	{ "Taints", NULL, NULL, "keytest2taint", NULL, NULL, NULL, NULL },
	{ "StartupTaints", NULL, NULL, NULL, "keytest2taint", NULL, NULL, NULL },
	{ "NodeClassRef Name", NULL, NULL, NULL, NULL, "testName", NULL, NULL },
	{ "ExpireAfter", NULL, NULL, NULL, NULL, NULL, "100m", NULL },
	{ "TerminationGracePeriod", NULL, NULL, NULL, NULL, NULL, NULL, "100m" },
};

static kp_nodepool *static_nodepool(const static_change *c, const kp_labels *annotations)
{
	char tmpl[2048], text[4096], ann[512] = "";
	snprintf(tmpl, sizeof(tmpl), static_base, c && c->class_name ? c->class_name : "default",
		 c && c->taint ? c->taint : "keyvalue1",
		 c && c->startup_taint ? c->startup_taint : "startupkeyvalue1",
		 c && c->expire ? c->expire : "5m", c && c->tgp ? c->tgp : "5m");
	for (size_t i = 0; annotations && i < annotations->count; i++) {
		size_t n = strlen(ann);
		snprintf(ann + n, sizeof(ann) - n, "%s'%s': '%s'", i ? ", " : "",
			 annotations->items[i].key, annotations->items[i].value);
	}
	snprintf(text, sizeof(text),
		 "apiVersion: karpenter.sh/v1\nkind: NodePool\n"
		 "metadata: {name: default, annotations: {%s}}\nspec:\n  template:\n%s", ann, tmpl);
	kp_nodepool *np = ht_decode(KP_KIND_NODEPOOL, text);
	kp_template_metadata *m = np->spec->template_->metadata;
	if (c && c->extra_annotation)
		ck_assert_int_eq(kp_labels_set(&m->annotations, c->extra_annotation, "value", NULL), 0);
	if (c && c->extra_label)
		ck_assert_int_eq(kp_labels_set(&m->labels, c->extra_label, "value", NULL), 0);
	return np;
}

/* Merge annotations into an object's (library-owned) metadata. */
static void apply(kp_object_meta *meta, const kp_labels *set)
{
	for (size_t i = 0; i < set->count; i++)
		ck_assert_int_eq(kp_labels_set(&meta->annotations, set->items[i].key,
					       set->items[i].value, NULL), KP_OK);
}

START_TEST(static_fields_drift)
{
	const static_change *c = &static_changes[_i];
	/* BeforeEach: the NodeClaim carries nodePool.Hash(), no version. */
	kp_nodepool *np = static_nodepool(NULL, NULL);
	char text[KP_HASH_STRING_MAX], ann[128];
	ck_assert_int_eq(kp_nodepool_hash_string(np, NULL, text, sizeof(text), NULL), KP_OK);
	snprintf(ann, sizeof(ann), "karpenter.sh/nodepool-hash: '%s'", text);
	kp_nodeclaim *nc = nodeclaim(NULL, ann, NULL);

	/* The hash controller reconciles the NodePool: its NodeClaims are
	 * upgraded first (the NodePool has no version yet), then it is stamped. */
	kp_labels set = { NULL, 0 };
	ck_assert_int_eq(kp_nodeclaim_hash_annotations(&set, np, nc, NULL, NULL), KP_OK);
	ck_assert_uint_eq(set.count, 2);
	apply(nc->metadata, &set);
	kp_labels_dispose(&set);
	ck_assert_int_eq(kp_nodepool_hash_annotations(&set, np, NULL, NULL), KP_OK);
	apply(np->metadata, &set);
	expect(np, nc, KP_DRIFT_NONE, "", NULL);

	/* Change one static field and reconcile again. */
	kp_nodepool *changed = static_nodepool(c, &set);
	kp_labels_dispose(&set);
	ck_assert_int_eq(kp_nodepool_hash_annotations(&set, changed, NULL, NULL), KP_OK);
	apply(changed->metadata, &set);
	kp_labels_dispose(&set);
	ck_assert_int_eq(kp_nodeclaim_hash_annotations(&set, changed, nc, NULL, NULL), KP_OK);
	ck_assert_uint_eq(set.count, 0); /* same version: NodeClaims untouched */
	kp_labels_dispose(&set);
	kp_drift *d = check(changed, nc, NULL);
	ck_assert_msg(d->reason_code == KP_DRIFT_NODEPOOL, "%s: %s", c->name, d->message);
	kp_drift_free(d);
	/* The same answer from the spec alone, without the NodePool's annotations. */
	kp_drift_options o = KP_DRIFT_OPTIONS_INIT;
	o.flags = KP_DRIFT_HASH_FROM_SPEC;
	kp_nodepool *bare = static_nodepool(c, NULL);
	uint32_t drifted = 0;
	ck_assert_int_eq(kp_drift_static(bare, nc, &o, &drifted, NULL), KP_OK);
	ck_assert_uint_eq(drifted, 1);
	ck_assert_int_eq(kp_drift_static(bare, nc, NULL, &drifted, NULL), KP_OK);
	ck_assert_uint_eq(drifted, 0); /* no annotations on the NodePool */
	kp_nodepool_free(bare);
	kp_nodepool_free(changed);
	kp_nodeclaim_free(nc);
	kp_nodepool_free(np);
}
END_TEST

/* The "should not return drifted if ..." Its of the static drift context. */
typedef struct missing_case {
	const char *name;
	const char *np_annotations, *nc_annotations;
	const char *message;
} missing_case;

static const missing_case missing_cases[] = {
	{ "hash annotation not present on the NodePool", "", NULL,
	  "not drifted: static drift not evaluated: the NodePool has no karpenter.sh/nodepool-hash "
	  "annotation; the NodeClaim's labels are compatible with the NodePool's requirements" },
	{ "hash annotation not present on the NodeClaim", NULL,
	  "karpenter.sh/nodepool-hash-version: v3",
	  "not drifted: static drift not evaluated: the NodeClaim has no karpenter.sh/nodepool-hash "
	  "annotation; the NodeClaim's labels are compatible with the NodePool's requirements" },
	{ "hash versions do not match",
	  "karpenter.sh/nodepool-hash: test-hash-1, karpenter.sh/nodepool-hash-version: test-version-1",
	  "karpenter.sh/nodepool-hash: test-hash-2, karpenter.sh/nodepool-hash-version: test-version-2",
	  "not drifted: static drift not evaluated: hash versions differ (NodePool test-version-1, "
	  "NodeClaim test-version-2); the NodeClaim's labels are compatible with the NodePool's "
	  "requirements" },
	{ "hash-version annotation not present on the NodeClaim", NULL,
	  "karpenter.sh/nodepool-hash: test-hash-111111111",
	  "not drifted: static drift not evaluated: the NodeClaim has no "
	  "karpenter.sh/nodepool-hash-version annotation; the NodeClaim's labels are compatible "
	  "with the NodePool's requirements" },
	{ "hashes equal", "karpenter.sh/nodepool-hash: '7', karpenter.sh/nodepool-hash-version: v3",
	  "karpenter.sh/nodepool-hash: '7', karpenter.sh/nodepool-hash-version: v3",
	  "not drifted: static fields match (hash 7, version v3); the NodeClaim's labels are "
	  "compatible with the NodePool's requirements" },
};

START_TEST(static_not_drifted)
{
	const missing_case *c = &missing_cases[_i];
	kp_nodepool *np = nodepool(NULL, c->np_annotations
				   ? c->np_annotations
				   : "karpenter.sh/nodepool-hash: '1', "
				     "karpenter.sh/nodepool-hash-version: v3");
	kp_nodeclaim *nc = nodeclaim(NULL, c->nc_annotations
				     ? c->nc_annotations
				     : "karpenter.sh/nodepool-hash: '2', "
				       "karpenter.sh/nodepool-hash-version: v3", NULL);
	expect(np, nc, KP_DRIFT_NONE, "", c->message);
	uint32_t d = 9;
	ck_assert_int_eq(kp_drift_static(np, nc, NULL, &d, NULL), KP_OK);
	ck_assert_uint_eq(d, 0);
	kp_nodeclaim_free(nc);
	kp_nodepool_free(np);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* API contract                                                             */

START_TEST(api_errors)
{
	kp_nodepool *np = nodepool(NULL, NULL);
	kp_nodeclaim *nc = nodeclaim(NULL, NULL, NULL);
	kp_drift *d = (kp_drift *)&d;
	kp_error e;
	memset(&e, 0, sizeof(e));
	uint32_t v = 9;
	ck_assert_int_eq(kp_drift_check(NULL, np, nc, NULL, &e), KP_EINVAL);
	ck_assert_int_eq(kp_drift_check(&d, NULL, nc, NULL, &e), KP_EINVAL);
	ck_assert_ptr_null(d);
	ck_assert_int_eq(kp_drift_static(np, NULL, NULL, &v, &e), KP_EINVAL);
	ck_assert_int_eq(kp_drift_static(np, nc, NULL, NULL, &e), KP_EINVAL);
	ck_assert_int_eq(kp_drift_requirements(NULL, nc, NULL, &v, &e), KP_EINVAL);
	ck_assert_uint_eq(v, 9);
	kp_drift_options o = KP_DRIFT_OPTIONS_INIT;
	o.flags = 1u << 7;
	ck_assert_int_eq(kp_drift_static(np, nc, &o, &v, &e), KP_EINVAL);
	ck_assert_str_eq(e.field, "flags");
	o.flags = 0;
	o.struct_size = 3;
	ck_assert_int_eq(kp_drift_requirements(np, nc, &o, &v, &e), KP_EVERSION);
	kp_drift_options_init(&o);
	ck_assert_uint_eq(o.struct_size, sizeof(o));
	kp_drift_options_init(NULL);
	kp_drift_free(NULL);
	kp_nodepool_free(np);

	/* A requirement the algebra rejects names its path. */
	np = nodepool("[" CT_OD ", {key: test-label, operator: Gt, values: [ten]}]", NULL);
	ck_assert_int_eq(kp_drift_requirements(np, nc, NULL, &v, &e), KP_EPARSE);
	ck_assert_msg(strncmp(e.field, "spec.template.spec.requirements[1]", 34) == 0, "%s", e.field);
	ck_assert_int_eq(kp_drift_check(&d, np, nc, NULL, &e), KP_EPARSE);
	ck_assert_ptr_null(d);
	kp_nodepool_free(np);

	/* With KP_DRIFT_HASH_FROM_SPEC, an unhashable NodePool fails. */
	np = ht_decode(KP_KIND_NODEPOOL,
		       "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: x}\n"
		       "spec: {template: {spec: {expireAfter: 1 week, requirements: []}}}\n");
	o.flags = KP_DRIFT_HASH_FROM_SPEC;
	ck_assert_int_eq(kp_drift_static(np, nc, &o, &v, &e), KP_EINVAL);
	ck_assert_str_eq(e.field, "spec.template.spec.expireAfter");
	kp_nodepool_free(np);
	kp_nodeclaim_free(nc);
}
END_TEST

/* A NodeClaim without labels or metadata, a NodePool without a template. */
START_TEST(sparse_objects)
{
	kp_nodepool np = KP_NODEPOOL_INIT;
	kp_nodeclaim nc = KP_NODECLAIM_INIT;
	uint32_t v = 9;
	ck_assert_int_eq(kp_drift_requirements(&np, &nc, NULL, &v, NULL), KP_OK);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(kp_drift_static(&np, &nc, NULL, &v, NULL), KP_OK);
	ck_assert_uint_eq(v, 0);
	kp_drift_options o = KP_DRIFT_OPTIONS_INIT;
	o.flags = KP_DRIFT_IGNORE_LAUNCHED | KP_DRIFT_HASH_FROM_SPEC;
	kp_drift *d = check(&np, &nc, &o);
	ck_assert_uint_eq(d->reason_code, KP_DRIFT_NONE);
	ck_assert_str_eq(d->message,
			 "not drifted: static drift not evaluated: the NodeClaim has no "
			 "karpenter.sh/nodepool-hash annotation; the NodeClaim's labels are "
			 "compatible with the NodePool's requirements");
	kp_drift_free(d);
}
END_TEST

static Suite *drift_suite(void)
{
	Suite *s = suite_create("drift");
	TCase *tc = tcase_create("controller");
	tcase_add_test(tc, static_drift_detected);
	tcase_add_test(tc, requirements_drift_detected);
	tcase_add_test(tc, static_before_requirements);
	tcase_add_test(tc, not_launched);
	tcase_add_test(tc, not_drifted);
	tcase_add_loop_test(tc, long_values_kept_whole, 0,
			    (int)(sizeof(long_lengths) / sizeof(long_lengths[0])));
	suite_add_tcase(s, tc);
	tc = tcase_create("requirements");
	tcase_add_loop_test(tc, requirements_table, 0, (int)(sizeof(req_cases) / sizeof(req_cases[0])));
	tcase_add_test(tc, requirements_only_affected_nodeclaims);
	suite_add_tcase(s, tc);
	tc = tcase_create("static");
	tcase_add_loop_test(tc, static_fields_drift, 0,
			    (int)(sizeof(static_changes) / sizeof(static_changes[0])));
	tcase_add_loop_test(tc, static_not_drifted, 0,
			    (int)(sizeof(missing_cases) / sizeof(missing_cases[0])));
	suite_add_tcase(s, tc);
	tc = tcase_create("api");
	tcase_add_test(tc, api_errors);
	tcase_add_test(tc, sparse_objects);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	Suite *suites[] = { drift_suite() };
	return kp_test_run(suites, 1);
}
