/*
 * NodePool drift hash: every vector of ../shared/data/hash/nodepool-vectors.yaml
 * (each template decoded with the public codec inside a NodePool, then
 * kp_nodepool_hash), its alternative_hashes where kp_hash_options expresses
 * them, the hash controller's annotations and the public API's contract.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "hash_test.h"
#include "kp_test.h"

static const kp__node *vectors_list(const kp__node *root)
{
	const kp__node *v = ht_get(root, "vectors");
	ck_assert_msg(v && v->type == KP__N_ARRAY, "no vectors list");
	return v;
}

/* Number of vectors; runs while building the suite, without Check
 * assertions (a broken file then fails the count test instead). */
static size_t n_vectors(void)
{
	kp__node *root = ht_load_unchecked(HT_NODEPOOL_VECTORS);
	const kp__node *v = root ? ht_get(root, "vectors") : NULL;
	size_t n = v && v->type == KP__N_ARRAY ? v->n : 0;
	kp__node_free(root);
	return n;
}

START_TEST(vector_count)
{
	/* 36 listed vectors (ids H1..H12 and N14..N48 with gaps). */
	ck_assert_uint_eq(n_vectors(), 36);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Every vector                                                             */

START_TEST(vector_expected_hash)
{
	kp__node *root = ht_load(HT_NODEPOOL_VECTORS);
	ck_assert_str_eq(ht_str(root, "hash_version"), KP_NODEPOOL_HASH_VERSION);
	const kp__node *vec = vectors_list(root)->items[_i];
	const char *id = ht_str(vec, "id");
	uint64_t want = ht_u64(ht_str(vec, "expected_hash"));
	kp_nodepool *np = ht_nodepool_from_template(id, ht_get(vec, "template"));
	uint64_t got = 0;
	kp_error e;
	memset(&e, 0, sizeof(e));
	ck_assert_msg(kp_nodepool_hash(np, &got, &e) == KP_OK, "%s: %s", id, e.message);
	ck_assert_msg(got == want, "%s: got %" PRIu64 ", want %" PRIu64, id, got, want);
	char text[KP_HASH_STRING_MAX];
	ck_assert_int_eq(kp_nodepool_hash_string(np, NULL, text, sizeof(text), &e), KP_OK);
	ck_assert_str_eq(text, ht_str(vec, "expected_hash"));
	kp_nodepool_free(np);
	kp__node_free(root);
}
END_TEST

/* same_hash_as lists other vectors with equal hashes: check both ways. */
START_TEST(vector_same_hash_as)
{
	kp__node *root = ht_load(HT_NODEPOOL_VECTORS);
	const kp__node *list = vectors_list(root);
	const kp__node *vec = list->items[_i];
	const kp__node *same = ht_get(vec, "same_hash_as");
	/* Some ids (N31, N34, ...) are named in texts but not listed; skip them. */
	for (size_t i = 0; same && i < same->n; i++)
		for (size_t j = 0; j < list->n; j++)
			if (!strcmp(ht_str(list->items[j], "id"), same->items[i]->text))
				ck_assert_str_eq(ht_str(list->items[j], "expected_hash"),
						 ht_str(vec, "expected_hash"));
	kp__node_free(root);
}
END_TEST

/* America/New_York: EST (-5h), EDT (-4h) from the second Sunday of March
 * 2:00 local to the first Sunday of November 2:00 local (rules since 2007). */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static int64_t nth_sunday(int64_t year, unsigned month, unsigned n)
{
	int64_t first = days_from_civil(year, month, 1);
	int64_t wday = ((first % 7) + 11) % 7; /* 1970-01-01 was a Thursday (4) */
	int64_t sunday = first + (7 - wday) % 7;
	return sunday + 7 * (int64_t)(n - 1);
}

static int32_t new_york_offset(void *ctx, int64_t unix_s)
{
	(void)ctx;
	int64_t days = unix_s >= 0 ? unix_s / 86400 : -((-unix_s + 86399) / 86400);
	/* Year of the instant (UTC); good enough away from New Year. */
	int64_t y = 1970 + days / 365;
	while (days_from_civil(y, 1, 1) > days)
		y--;
	while (days_from_civil(y + 1, 1, 1) <= days)
		y++;
	int64_t start = nth_sunday(y, 3, 2) * 86400 + 2 * 3600 + 5 * 3600; /* 2:00 EST */
	int64_t end = nth_sunday(y, 11, 1) * 86400 + 2 * 3600 + 4 * 3600;  /* 2:00 EDT */
	return unix_s >= start && unix_s < end ? -4 * 3600 : -5 * 3600;
}

START_TEST(vector_alternative_hashes)
{
	kp__node *root = ht_load(HT_NODEPOOL_VECTORS);
	const kp__node *vec = vectors_list(root)->items[_i];
	const kp__node *alt = ht_get(vec, "alternative_hashes");
	if (!alt) {
		kp__node_free(root);
		return;
	}
	const char *id = ht_str(vec, "id");
	kp_nodepool *np = ht_nodepool_from_template(id, ht_get(vec, "template"));
	for (size_t i = 0; i < alt->n; i++) {
		const char *key = alt->keys[i];
		kp_hash_options o = KP_HASH_OPTIONS_INIT;
		if (!strcmp(key, "time_UTC_location"))
			o.time_location = KP_HASH_TIME_UTC;
		else if (!strcmp(key, "controller_TZ_Asia_Kolkata"))
			o.utc_offset_s = 5 * 3600 + 30 * 60;
		else if (!strcmp(key, "controller_TZ_America_New_York"))
			o.utc_offset_fn = new_york_offset;
		else
			ck_abort_msg("%s: alternative %s is not mapped to kp_hash_options", id, key);
		uint64_t got = 0;
		kp_error e;
		memset(&e, 0, sizeof(e));
		ck_assert_int_eq(kp_nodepool_hash_ext(np, &o, &got, &e), KP_OK);
		uint64_t want = ht_u64(alt->items[i]->text);
		ck_assert_msg(got == want, "%s %s: got %" PRIu64 ", want %" PRIu64, id, key, got, want);
		/* The default options are the UTC-controller convention. */
		o.utc_offset_fn = NULL;
		o.utc_offset_s = 0;
		o.time_location = KP_HASH_TIME_LOCAL;
		ck_assert_int_eq(kp_nodepool_hash_ext(np, &o, &got, &e), KP_OK);
		ck_assert(got == ht_u64(ht_str(vec, "expected_hash")));
	}
	kp_nodepool_free(np);
	kp__node_free(root);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Defaulting: the controller hashes the stored (defaulted) object          */

#define H1_HASH UINT64_C(12745407319442031341)

static const char h1_without_expire[] =
	"apiVersion: karpenter.sh/v1\n"
	"kind: NodePool\n"
	"metadata: {name: default}\n"
	"spec:\n"
	"  template:\n"
	"    spec:\n"
	"      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"
	"      requirements: []\n";

START_TEST(defaulted_expire_after_is_h1)
{
	kp_nodepool *np = ht_decode(KP_KIND_NODEPOOL, h1_without_expire);
	uint64_t raw = 0, defaulted = 0;
	ck_assert_int_eq(kp_nodepool_hash(np, &raw, NULL), KP_OK);
	ck_assert(raw == UINT64_C(7428780003907761376)); /* H2: as written, no expireAfter */
	ck_assert_int_eq(kp_nodepool_default(np, NULL), KP_OK);
	ck_assert_int_eq(kp_nodepool_hash(np, &defaulted, NULL), KP_OK);
	ck_assert(defaulted == H1_HASH); /* expireAfter: 720h */
	kp_nodepool_free(np);
}
END_TEST

/* Fields outside spec.template (disruption, limits, weight) and the
 * requirements do not change the hash (upstream "should not update the
 * drift hash when NodePool behavior field is updated"). */
START_TEST(behaviour_fields_not_hashed)
{
	kp_nodepool *np = ht_decode(KP_KIND_NODEPOOL,
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default}\n"
		"spec:\n"
		"  weight: 80\n"
		"  limits: {cpu: '16'}\n"
		"  disruption: {consolidationPolicy: WhenEmpty, consolidateAfter: 30s,\n"
		"               budgets: [{nodes: '1'}]}\n"
		"  template:\n"
		"    spec:\n"
		"      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n"
		"      expireAfter: 720h\n"
		"      requirements:\n"
		"      - {key: topology.kubernetes.io/zone, operator: In, values: [test]}\n");
	uint64_t h = 0;
	ck_assert_int_eq(kp_nodepool_hash(np, &h, NULL), KP_OK);
	ck_assert(h == H1_HASH);
	kp_nodepool_free(np);
}
END_TEST

/* A NodePool built by the caller (no codec) hashes like the decoded one. */
START_TEST(caller_built_nodepool)
{
	kp_node_class_reference ref = KP_NODE_CLASS_REFERENCE_INIT;
	ref.group = "karpenter.kwok.sh";
	ref.kind = "KWOKNodeClass";
	ref.name = "default";
	kp_nodeclaim_spec spec = KP_NODECLAIM_SPEC_INIT;
	spec.node_class_ref = &ref;
	spec.expire_after.ns = INT64_C(720) * 3600 * 1000000000;
	spec.expire_after.parsed = 1;
	kp_nodeclaim_template tmpl = KP_NODECLAIM_TEMPLATE_INIT;
	tmpl.spec = &spec;
	kp_nodepool_spec nps = KP_NODEPOOL_SPEC_INIT;
	nps.template_ = &tmpl;
	kp_nodepool np = KP_NODEPOOL_INIT;
	np.spec = &nps;
	uint64_t h = 0;
	ck_assert_int_eq(kp_nodepool_hash(&np, &h, NULL), KP_OK);
	ck_assert(h == H1_HASH);

	/* H4: one taint with a value. */
	kp_taint taint = { "example.com/special", "true", KP_TAINT_EFFECT_NO_SCHEDULE, 0, 0 };
	spec.taints = &taint;
	spec.n_taints = 1;
	ck_assert_int_eq(kp_nodepool_hash(&np, &h, NULL), KP_OK);
	ck_assert(h == UINT64_C(15377148642321071670));

	/* H12: taints: [] (present, empty) differs from no taints. */
	spec.n_taints = 0;
	ck_assert_int_eq(kp_nodepool_hash(&np, &h, NULL), KP_OK);
	ck_assert(h == UINT64_C(845502862369909111));

	/* H2: expireAfter Never hashes like none. */
	spec.taints = NULL;
	spec.expire_after.never = 1;
	spec.expire_after.ns = 0;
	ck_assert_int_eq(kp_nodepool_hash(&np, &h, NULL), KP_OK);
	ck_assert(h == UINT64_C(7428780003907761376));
	spec.expire_after.parsed = 0;
	spec.expire_after.never = 0;
	ck_assert_int_eq(kp_nodepool_hash(&np, &h, NULL), KP_OK);
	ck_assert(h == UINT64_C(7428780003907761376));
}
END_TEST

/* N45: no template at all hashes the zero NodeClaimTemplate. */
START_TEST(zero_template)
{
	kp_nodepool np = KP_NODEPOOL_INIT;
	uint64_t h = 0;
	ck_assert_int_eq(kp_nodepool_hash(&np, &h, NULL), KP_OK);
	ck_assert(h == UINT64_C(17307646073972311821));
	kp_nodepool_spec nps = KP_NODEPOOL_SPEC_INIT;
	np.spec = &nps;
	ck_assert_int_eq(kp_nodepool_hash(&np, &h, NULL), KP_OK);
	ck_assert(h == UINT64_C(17307646073972311821));
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Errors                                                                   */

START_TEST(errors)
{
	kp_error e;
	memset(&e, 0, sizeof(e));
	uint64_t h = 42;
	kp_nodepool np = KP_NODEPOOL_INIT;
	ck_assert_int_eq(kp_nodepool_hash(NULL, &h, &e), KP_EINVAL);
	ck_assert_int_eq(kp_nodepool_hash(&np, NULL, &e), KP_EINVAL);
	ck_assert(h == 42);

	/* A duration that is not one (kept by the codec for validation). */
	kp_nodepool *bad = ht_decode(KP_KIND_NODEPOOL,
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: bad}\n"
		"spec: {template: {spec: {nodeClassRef: {group: g, kind: k, name: x},"
		" expireAfter: 30d}}}\n");
	ck_assert_int_eq(kp_nodepool_hash(bad, &h, &e), KP_EINVAL);
	ck_assert(h == 42);
	ck_assert_str_eq(e.field, "spec.template.spec.expireAfter");
	ck_assert_str_eq(e.message, "not a duration: \"30d\"");
	kp_nodepool_free(bad);

	/* Options: struct_size and location. */
	kp_hash_options o = KP_HASH_OPTIONS_INIT;
	o.time_location = 7;
	ck_assert_int_eq(kp_nodepool_hash_ext(&np, &o, &h, &e), KP_EINVAL);
	o.time_location = KP_HASH_TIME_LOCAL;
	o.struct_size = 4;
	ck_assert_int_eq(kp_nodepool_hash_ext(&np, &o, &h, &e), KP_EVERSION);
	kp_hash_options_init(&o);
	ck_assert_uint_eq(o.struct_size, sizeof(o));
	kp_hash_options_init(NULL);

	/* An offset Go cannot marshal (-60 s is offset -1 minute). */
	kp_nodepool *timed = ht_decode(KP_KIND_NODEPOOL,
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: t}\n"
		"spec: {template: {spec: {taints: [{key: a, effect: NoExecute,"
		" timeAdded: '2024-01-01T00:00:00Z'}]}}}\n");
	o.utc_offset_s = -60;
	ck_assert_int_eq(kp_nodepool_hash_ext(timed, &o, &h, &e), KP_ERANGE);
	ck_assert_str_eq(e.field, "spec.template.spec.taints[0].timeAdded");
	/* Offsets with seconds use MarshalBinary's version 2 (no error). */
	o.utc_offset_s = 3600 + 30;
	ck_assert_int_eq(kp_nodepool_hash_ext(timed, &o, &h, &e), KP_OK);
	kp_nodepool_free(timed);

	/* Decimal text: buffer too small. */
	char small[5] = "xxxx";
	ck_assert_int_eq(kp_nodepool_hash_string(&np, NULL, small, sizeof(small), &e), KP_ERANGE);
	ck_assert_str_eq(small, "xxxx");
	ck_assert_int_eq(kp_nodepool_hash_string(&np, NULL, NULL, 0, &e), KP_EINVAL);

	/* struct_size of a newer caller that sets a field we do not know. */
	struct {
		kp_nodepool_spec spec;
		uint64_t newer_field;
	} newer = { KP_NODEPOOL_SPEC_INIT, 1 };
	newer.spec.struct_size = sizeof(newer);
	np.spec = &newer.spec;
	ck_assert_int_eq(kp_nodepool_hash(&np, &h, &e), KP_EVERSION);
	ck_assert_str_eq(e.field, "spec.struct_size");
	newer.newer_field = 0; /* zero tail: read as this version's struct */
	ck_assert_int_eq(kp_nodepool_hash(&np, &h, &e), KP_OK);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Hash controller annotations                                              */

static kp_nodepool *fixture_nodepool(const char *annotations)
{
	char text[2048];
	snprintf(text, sizeof(text),
		 "apiVersion: karpenter.sh/v1\nkind: NodePool\n"
		 "metadata: {name: default, annotations: {%s}}\n"
		 "spec:\n  template:\n    metadata:\n"
		 "      labels: {keyLabel: valueLabel, testing/cluster: unspecified}\n"
		 "      annotations: {keyAnnotation: valueAnnotation, keyAnnotation2: valueAnnotation2}\n"
		 "    spec:\n"
		 "      taints: [{key: key, effect: NoExecute}]\n"
		 "      startupTaints: [{key: key, effect: NoExecute}]\n"
		 "      requirements: []\n"
		 "      nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass, name: default}\n"
		 "      terminationGracePeriod: 5m\n"
		 "      expireAfter: 5m\n", annotations);
	return ht_decode(KP_KIND_NODEPOOL, text);
}

/* H10: the hash controller suite's NodePool. */
#define H10 "10317254286844711616"

static kp_nodeclaim *fixture_nodeclaim(const char *annotations, const char *drifted_status)
{
	char text[2048];
	int n = snprintf(text, sizeof(text),
			 "apiVersion: karpenter.sh/v1\nkind: NodeClaim\n"
			 "metadata: {name: nc, labels: {karpenter.sh/nodepool: default},"
			 " annotations: {%s}}\n"
			 "spec: {nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass,"
			 " name: default}, requirements: []}\n", annotations);
	if (drifted_status)
		snprintf(text + n, sizeof(text) - (size_t)n,
			 "status: {conditions: [{type: Drifted, status: '%s', reason: Drifted,"
			 " message: '', lastTransitionTime: '2024-01-01T00:00:00Z'}]}\n",
			 drifted_status);
	return ht_decode(KP_KIND_NODECLAIM, text);
}

START_TEST(nodepool_annotations)
{
	kp_nodepool *np = fixture_nodepool("karpenter.sh/nodepool-hash: abceduefed, "
					   "karpenter.sh/nodepool-hash-version: test");
	kp_labels out = { (kp_label *)1, 99 };
	ck_assert_int_eq(kp_nodepool_hash_annotations(&out, np, NULL, NULL), KP_OK);
	ck_assert_uint_eq(out.count, 2);
	ck_assert_str_eq(kp_labels_get(&out, KP_ANNOTATION_NODEPOOL_HASH), H10);
	ck_assert_str_eq(kp_labels_get(&out, KP_ANNOTATION_NODEPOOL_HASH_VERSION), "v3");
	kp_labels_dispose(&out);
	ck_assert_int_eq(kp_nodepool_hash_annotations(NULL, np, NULL, NULL), KP_EINVAL);
	kp_nodepool_free(np);
}
END_TEST

/* Upstream hash suite: the version-upgrade rule, one row per It(). */
typedef struct upgrade_case {
	const char *name;
	const char *nodepool_annotations;
	const char *nodeclaim_annotations;
	const char *drifted; /* Drifted condition status, or NULL for none */
	const char *want_hash; /* NULL: not written */
	const char *want_version;
} upgrade_case;

static const upgrade_case upgrade_cases[] = {
	{ "hash versions differ: NodeClaims take the new hash and version",
	  "karpenter.sh/nodepool-hash: abceduefed, karpenter.sh/nodepool-hash-version: test",
	  "karpenter.sh/nodepool-hash: '123456', karpenter.sh/nodepool-hash-version: test", NULL,
	  H10, "v3" },
	{ "NodePool already at the controller's version: NodeClaims untouched",
	  "karpenter.sh/nodepool-hash: abceduefed, karpenter.sh/nodepool-hash-version: v3",
	  "karpenter.sh/nodepool-hash: '123456', karpenter.sh/nodepool-hash-version: test", NULL,
	  NULL, NULL },
	{ "NodeClaim already at the controller's version: untouched",
	  "karpenter.sh/nodepool-hash: abceduefed, karpenter.sh/nodepool-hash-version: test-version",
	  "karpenter.sh/nodepool-hash: '1234564654', karpenter.sh/nodepool-hash-version: v3", NULL,
	  NULL, NULL },
	{ "drifted NodeClaim keeps its hash, takes the version",
	  "karpenter.sh/nodepool-hash: abceduefed, karpenter.sh/nodepool-hash-version: test",
	  "karpenter.sh/nodepool-hash: '123456', karpenter.sh/nodepool-hash-version: test", "True",
	  NULL, "v3" },
	{ "a Drifted condition of any status counts",
	  "karpenter.sh/nodepool-hash: abceduefed, karpenter.sh/nodepool-hash-version: test",
	  "karpenter.sh/nodepool-hash: '123456', karpenter.sh/nodepool-hash-version: test", "False",
	  NULL, "v3" },
	{ "NodePool without annotations (first reconcile) upgrades NodeClaims",
	  "", "karpenter.sh/nodepool-hash: '123456'", NULL, H10, "v3" },
	{ "NodeClaim without annotations gets both", "karpenter.sh/nodepool-hash-version: v2", "",
	  NULL, H10, "v3" },
};

START_TEST(nodeclaim_upgrade_rule)
{
	const upgrade_case *c = &upgrade_cases[_i];
	kp_nodepool *np = fixture_nodepool(c->nodepool_annotations);
	kp_nodeclaim *nc = fixture_nodeclaim(c->nodeclaim_annotations, c->drifted);
	kp_labels out = { NULL, 0 };
	kp_error e;
	memset(&e, 0, sizeof(e));
	ck_assert_msg(kp_nodeclaim_hash_annotations(&out, np, nc, NULL, &e) == KP_OK, "%s: %s",
		      c->name, e.message);
	const char *h = kp_labels_get(&out, KP_ANNOTATION_NODEPOOL_HASH);
	const char *v = kp_labels_get(&out, KP_ANNOTATION_NODEPOOL_HASH_VERSION);
	if (c->want_hash)
		ck_assert_msg(h && !strcmp(h, c->want_hash), "%s: hash %s", c->name, h ? h : "(none)");
	else
		ck_assert_msg(h == NULL, "%s: hash written", c->name);
	if (c->want_version)
		ck_assert_msg(v && !strcmp(v, c->want_version), "%s", c->name);
	else
		ck_assert_msg(v == NULL, "%s: version written", c->name);
	ck_assert_uint_eq(out.count, (c->want_hash != NULL) + (c->want_version != NULL));
	kp_labels_dispose(&out);
	kp_nodeclaim_free(nc);
	kp_nodepool_free(np);
}
END_TEST

START_TEST(nodeclaim_upgrade_errors)
{
	kp_nodepool *np = fixture_nodepool("");
	kp_nodeclaim *nc = fixture_nodeclaim("", NULL);
	kp_labels out = { NULL, 0 };
	ck_assert_int_eq(kp_nodeclaim_hash_annotations(NULL, np, nc, NULL, NULL), KP_EINVAL);
	ck_assert_int_eq(kp_nodeclaim_hash_annotations(&out, NULL, nc, NULL, NULL), KP_EINVAL);
	ck_assert_int_eq(kp_nodeclaim_hash_annotations(&out, np, NULL, NULL, NULL), KP_EINVAL);
	ck_assert_ptr_null(out.items);
	kp_nodeclaim_free(nc);
	kp_nodepool_free(np);
}
END_TEST

static Suite *nodepool_hash_suite(void)
{
	Suite *s = suite_create("nodepool_hash");
	size_t n = n_vectors();
	TCase *tc = tcase_create("vectors");
	tcase_add_test(tc, vector_count);
	tcase_add_loop_test(tc, vector_expected_hash, 0, (int)n);
	tcase_add_loop_test(tc, vector_same_hash_as, 0, (int)n);
	tcase_add_loop_test(tc, vector_alternative_hashes, 0, (int)n);
	suite_add_tcase(s, tc);
	tc = tcase_create("api");
	tcase_add_test(tc, defaulted_expire_after_is_h1);
	tcase_add_test(tc, behaviour_fields_not_hashed);
	tcase_add_test(tc, caller_built_nodepool);
	tcase_add_test(tc, zero_template);
	tcase_add_test(tc, errors);
	suite_add_tcase(s, tc);
	tc = tcase_create("annotations");
	tcase_add_test(tc, nodepool_annotations);
	tcase_add_loop_test(tc, nodeclaim_upgrade_rule, 0,
			    (int)(sizeof(upgrade_cases) / sizeof(upgrade_cases[0])));
	tcase_add_test(tc, nodeclaim_upgrade_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	kp_test_require_data(HT_NODEPOOL_VECTORS);
	Suite *suites[] = { nodepool_hash_suite() };
	return kp_test_run(suites, 1);
}
