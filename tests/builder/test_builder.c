/*
 * The construction layer (builder.h): constructors, the cluster builder's
 * copying, defaults, duplicate and all-or-nothing rules, per-NodePool
 * catalogues, node class readiness, and order independence.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1 /* the builder reads KWOKNodeClass through a registry */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>
#include <karpenter/kwok.h>
#include <karpenter/sys/kwok.h>

#include "kp_test.h"

static const char pools[] =
	"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: a}\n"
	"spec: {template: {spec: {nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, "
	"name: default}, requirements: [{key: kubernetes.io/arch, operator: In, values: [amd64]}]}}}\n";

static kp_instance_types *builtin(void)
{
	kp_instance_types *its = NULL;
	ck_assert_int_eq(kp_kwok_catalog_builtin(&its, NULL), KP_OK);
	return its;
}

/* Simulate and return "pod->target,..." (pods in result order) plus the
 * NodeClaims' types; caller frees. */
static char *outcome(kp_cluster_builder *b)
{
	kp_cluster *c = NULL;
	kp_sched_result *r = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(kp_cluster_builder_build(&c, b, &e) == KP_OK, "%s", e.message);
	ck_assert_int_eq(kp_sched_simulate(&r, c, NULL, &e), KP_OK);
	size_t cap = 4096, len = 0;
	char *s = calloc(1, cap);
	for (size_t i = 0; i < kp_sched_result_pod_count(r); i++) {
		const kp_sched_placement *p = kp_sched_result_pod_at(r, i);
		len += (size_t)snprintf(s + len, cap - len, "%s->%s,", p->name, p->node ? p->node : "-");
	}
	for (size_t i = 0; i < kp_sched_result_nodeclaim_count(r); i++)
		len += (size_t)snprintf(s + len, cap - len, "[%s]",
					kp_sched_result_nodeclaim_at(r, i)->instance_type);
	kp_sched_result_free(r);
	kp_cluster_free(c);
	return s;
}

static int append(void *ctx, const char *d, size_t n)
{
	char **s = ctx;
	size_t len = *s ? strlen(*s) : 0;
	*s = realloc(*s, len + n + 1);
	memcpy(*s + len, d, n);
	(*s)[len + n] = '\0';
	return 0;
}

/* The result as the document simulate prints (kp_sched_result_write),
 * compact: the launched NodeClaim carries the launch choice's labels. */
START_TEST(result_document)
{
	kp_cluster_builder *b = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_cluster_builder_new(&b, &e), KP_OK);
	kp_instance_types *its = builtin();
	ck_assert_int_eq(kp_cluster_builder_set_instance_types(b, NULL, its, &e), KP_OK);
	kp_instance_types_free(its);
	static const char pool[] =
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: a}\nspec:\n"
		"  template:\n    spec:\n      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: d}\n"
		"      requirements: [{key: node.kubernetes.io/instance-type, operator: In, values: [c-2x-amd64-linux]}]\n";
	ck_assert_int_eq(kp_cluster_builder_add_manifests(b, pool, strlen(pool), NULL, &e), KP_OK);
	kp_pod *p = NULL;
	ck_assert_int_eq(kp_pod_new(&p, "shop", "web", "1", "1Gi", &e), KP_OK);
	ck_assert_int_eq(kp_cluster_builder_add_pod(b, p, &e), KP_OK);
	kp_pod_free(p);
	kp_cluster *c = NULL;
	kp_sched_result *r = NULL;
	ck_assert_int_eq(kp_cluster_builder_build(&c, b, &e), KP_OK);
	ck_assert_int_eq(kp_sched_simulate(&r, c, NULL, &e), KP_OK);
	char *text = NULL;
	kp_emitter_options o = KP_EMITTER_OPTIONS_INIT;
	o.indent = KP_EMITTER_INDENT_COMPACT;
	kp_emitter *em = NULL;
	ck_assert_int_eq(kp_emitter_new(&em, &o, append, &text, &e), KP_OK);
	ck_assert_int_eq(kp_sched_result_write(em, r, &e), KP_OK);
	ck_assert_int_eq(kp_emitter_close(em, &e), KP_OK);
	ck_assert_ptr_nonnull(strstr(text, "\"karpenter.sh/capacity-type\":\"spot\",\"karpenter.sh/nodepool\":\"a\","));
	ck_assert_ptr_nonnull(strstr(text, "\"node.kubernetes.io/instance-type\":\"c-2x-amd64-linux\""));
	ck_assert_ptr_nonnull(strstr(text, "],\"pods\":[{\"namespace\":\"shop\",\"name\":\"web\","
					   "\"nodeClaim\":\"a-00001\",\"node\":null,\"reasons\":[]}],"
					   "\"cost\":"));
	ck_assert_int_eq(strncmp(text, "{\"nodeClaims\":[{\"nodeClaim\":{\"apiVersion\":\"karpenter.sh/v1\"", 54), 0);
	free(text);
	ck_assert_int_eq(kp_sched_result_write(NULL, r, &e), KP_EINVAL);
	kp_sched_result_free(r);
	kp_cluster_free(c);
	kp_cluster_builder_free(b);
}
END_TEST

START_TEST(pod_new_requests)
{
	kp_pod *p = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_pod_new(&p, NULL, "web", "1500m", "2Gi", &e), KP_OK);
	ck_assert_str_eq(p->metadata->namespace_, "default");
	ck_assert_str_eq(p->metadata->name, "web");
	ck_assert_uint_eq(p->status->phase_code, KP_POD_PHASE_PENDING);
	ck_assert_str_eq(p->status->phase, "Pending");
	ck_assert_uint_eq(p->spec->n_containers, 1);
	const kp_resource_list *req = &p->spec->containers[0]->resources->requests;
	ck_assert_uint_eq(req->count, 2);
	char q[KP_QUANTITY_STRING_MAX];
	ck_assert_str_eq(req->items[0].name, "cpu");
	kp_quantity_format(&req->items[0].quantity, q, sizeof(q));
	ck_assert_str_eq(q, "1500m");
	ck_assert_str_eq(req->items[1].name, "memory");
	kp_quantity_format(&req->items[1].quantity, q, sizeof(q));
	ck_assert_str_eq(q, "2Gi");
	kp_pod_free(p);

	ck_assert_int_eq(kp_pod_new(&p, "ns", "x", "1.5.5", NULL, &e), KP_EPARSE);
	ck_assert_ptr_null(p);
	ck_assert_str_eq(e.field, "spec.containers[0].resources.requests.cpu");
	ck_assert_int_eq(kp_pod_new(&p, "ns", "", NULL, NULL, &e), KP_EINVAL);
	ck_assert_str_eq(e.field, "metadata.name");
}
END_TEST

START_TEST(nodepool_new_defaults_and_requirements)
{
	kp_nodepool *np = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_nodepool_new(&np, "p", "karpenter.kwok.sh", "KWOKNodeClass", "default", &e),
			 KP_OK);
	/* CRD defaults: consolidationPolicy, consolidateAfter, expireAfter, budgets. */
	ck_assert_str_eq(np->spec->disruption->consolidation_policy, "WhenEmptyOrUnderutilized");
	ck_assert_str_eq(np->spec->template_->spec->expire_after.text, "720h");
	ck_assert_uint_eq(np->spec->disruption->n_budgets, 1);
	ck_assert_str_eq(np->spec->disruption->budgets[0]->nodes, "10%");
	static const char *const zones[] = { "test-zone-a", "test-zone-b" };
	ck_assert_int_eq(kp_nodepool_add_requirement(np, "topology.kubernetes.io/zone", "In", zones, 2,
						     &e), KP_OK);
	const kp_nodeclaim_spec *s = np->spec->template_->spec;
	ck_assert_uint_eq(s->n_requirements, 1);
	ck_assert_str_eq(s->requirements[0]->key, "topology.kubernetes.io/zone");
	ck_assert_str_eq(s->requirements[0]->operator_name, "In");
	ck_assert_uint_eq(s->requirements[0]->op, KP_SELECTOR_OP_IN);
	ck_assert_uint_eq(s->requirements[0]->n_values, 2);
	ck_assert_str_eq(s->requirements[0]->values[1], "test-zone-b");
	/* An unknown operator leaves the NodePool as it was. */
	ck_assert_int_eq(kp_nodepool_add_requirement(np, "k", "Equals", NULL, 0, &e), KP_EINVAL);
	ck_assert_uint_eq(np->spec->template_->spec->n_requirements, 1);
	ck_assert_int_eq(kp_nodepool_add_requirement(np, "k", "Exists", NULL, 0, &e), KP_OK);
	ck_assert_uint_eq(np->spec->template_->spec->n_requirements, 2);
	ck_assert_str_eq(np->spec->template_->spec->requirements[0]->values[0], "test-zone-a");
	kp_nodepool_free(np);
}
END_TEST

START_TEST(builder_copies_and_simulates)
{
	kp_cluster_builder *b = NULL;
	kp_error e = KP_ERROR_INIT;
	kp_instance_types *its = builtin();
	ck_assert_int_eq(kp_cluster_builder_new(&b, &e), KP_OK);
	ck_assert_int_eq(kp_cluster_builder_set_instance_types(b, NULL, its, &e), KP_OK);
	kp_instance_types_free(its); /* the builder holds its own reference */
	size_t skipped = 9;
	ck_assert_int_eq(kp_cluster_builder_add_manifests(b, pools, strlen(pools), &skipped, &e), KP_OK);
	ck_assert_uint_eq(skipped, 0);
	kp_pod *p = NULL;
	ck_assert_int_eq(kp_pod_new(&p, "shop", "web", "1", "1Gi", &e), KP_OK);
	ck_assert_int_eq(kp_cluster_builder_add_pod(b, p, &e), KP_OK);
	kp_pod_free(p); /* copied */
	char *s = outcome(b);
	ck_assert_str_eq(s, "web->a-00001,[c-2x-amd64-linux]");
	free(s);
	/* Building again gives the same snapshot. */
	s = outcome(b);
	ck_assert_str_eq(s, "web->a-00001,[c-2x-amd64-linux]");
	free(s);
	kp_cluster_builder_free(b);
}
END_TEST

START_TEST(builder_refuses_duplicates_and_keeps_all_or_nothing)
{
	kp_cluster_builder *b = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_cluster_builder_new(&b, &e), KP_OK);
	kp_pod *p = NULL;
	ck_assert_int_eq(kp_pod_new(&p, "shop", "web", "1", NULL, &e), KP_OK);
	ck_assert_int_eq(kp_cluster_builder_add_pod(b, p, &e), KP_OK);
	ck_assert_int_eq(kp_cluster_builder_add_pod(b, p, &e), KP_OK);
	kp_pod_free(p);
	kp_cluster *c = NULL;
	ck_assert_int_eq(kp_cluster_builder_build(&c, b, &e), KP_EINVAL);
	ck_assert_ptr_null(c);
	ck_assert_str_eq(e.message, "Pod shop/web given twice");
	kp_cluster_builder_free(b);

	/* A stream whose second object is invalid adds nothing. */
	ck_assert_int_eq(kp_cluster_builder_new(&b, &e), KP_OK);
	static const char bad[] =
		"apiVersion: v1\nkind: Pod\nmetadata: {name: a, namespace: x}\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {namespace: x}\n---\n"
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n";
	size_t skipped = 7;
	ck_assert_int_eq(kp_cluster_builder_add_manifests(b, bad, strlen(bad), &skipped, &e), KP_EINVAL);
	ck_assert_uint_eq(skipped, 7); /* untouched on failure */
	/* a nameless object is named by its place in the stream */
	ck_assert_str_eq(e.message, "Pod (document 2): Pod without a name");
	ck_assert_int_eq(kp_cluster_builder_build(&c, b, &e), KP_OK);
	ck_assert_ptr_nonnull(c);
	kp_cluster_free(c);
	/* A kind the snapshot does not read is skipped and counted. */
	static const char other[] = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n";
	ck_assert_int_eq(kp_cluster_builder_add_manifests(b, other, strlen(other), &skipped, &e), KP_OK);
	ck_assert_uint_eq(skipped, 1);
	/* So is a KWOKNodeClass when no registry knows it (the builder has none) */
	static const char kwok[] = "apiVersion: karpenter.kwok.sh/v1alpha1\nkind: KWOKNodeClass\n"
				   "metadata: {name: default}\n";
	ck_assert_int_eq(kp_cluster_builder_add_manifests(b, kwok, strlen(kwok), &skipped, &e), KP_OK);
	ck_assert_uint_eq(skipped, 1);
	/* and the kind's old number is not one the snapshot reads */
	kp_kwok_nodeclass dummy_kw = KP_KWOK_NODECLASS_INIT;
	ck_assert_int_eq(kp_cluster_builder_add(b, 3, &dummy_kw, &e), KP_EINVAL);
	kp_pod dummy = KP_POD_INIT;
	ck_assert_int_eq(kp_cluster_builder_add(b, 99, &dummy, &e), KP_EINVAL);
	ck_assert_str_eq(e.field, "kind");
	kp_cluster_builder_free(b);
}
END_TEST

/* An object's identity is kind, namespace and name, with the namespace as
 * the API server gives it (kp_kind_namespaced): a Pod written without one
 * is default's, and a namespace on a cluster-scoped kind is no part of it.
 * kubectl-karpenter simulate refuses the same pairs (tests/tools). */
START_TEST(builder_identity_is_the_api_servers)
{
	static const struct {
		const char *text, *message;
	} cases[] = {
		{ "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\n---\n"
		  "apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: default}\n",
		  "Pod default/web given twice" },
		{ "apiVersion: v1\nkind: Node\nmetadata: {name: node-a, namespace: x}\n---\n"
		  "apiVersion: v1\nkind: Node\nmetadata: {name: node-a}\n",
		  "Node node-a given twice" },
		{ "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: p, namespace: \"\"}\n"
		  "spec: {}\n---\napiVersion: policy/v1\nkind: PodDisruptionBudget\n"
		  "metadata: {name: p, namespace: default}\nspec: {}\n",
		  "PodDisruptionBudget default/p given twice" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		kp_cluster_builder *b = NULL;
		kp_error e = KP_ERROR_INIT;
		ck_assert_int_eq(kp_cluster_builder_new(&b, &e), KP_OK);
		ck_assert_int_eq(kp_cluster_builder_add_manifests(b, cases[i].text,
								  strlen(cases[i].text), NULL, &e),
				 KP_OK);
		kp_cluster *c = NULL;
		ck_assert_int_eq(kp_cluster_builder_build(&c, b, &e), KP_EINVAL);
		ck_assert_str_eq(e.message, cases[i].message);
		kp_cluster_builder_free(b);
	}
	ck_assert_int_eq(kp_kind_namespaced(KP_KIND_POD), 1);
	ck_assert_int_eq(kp_kind_namespaced(KP_KIND_PVC), 1);
	ck_assert_int_eq(kp_kind_namespaced(KP_KIND_NODEPOOL), 0);
	ck_assert_int_eq(kp_kind_namespaced(KP_KIND_NAMESPACE), 0);
	ck_assert_int_eq(kp_kind_namespaced(KP_KIND_FIRST_REGISTERED), 0);
}
END_TEST

/* ---- decoded objects with their source (kp_cluster_builder_add_decoded) */

static kp_decode_result *decode(const char *text, kp_registry *reg)
{
	kp_decode_result *res = NULL;
	kp_decode_options o = KP_DECODE_OPTIONS_INIT;
	o.registry = reg;
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(kp_decode(&res, text, strlen(text), &o, &e) == KP_OK, "%s", e.message);
	return res;
}

static const char *pod_name(const void *o)
{
	return ((const kp_pod *)o)->metadata->name;
}

/* Objects are taken as decoded (no copy), in the order added; kinds the
 * builder does not read stay in the result; sources name both files of an
 * object given twice, and the snapshot is then refused. */
START_TEST(builder_takes_decoded_objects_with_their_source)
{
	kp_cluster_builder *b = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_cluster_builder_new(&b, &e), KP_OK);
	kp_decode_result *a = decode("apiVersion: v1\nkind: Pod\nmetadata: {name: web}\n---\n"
				     "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n"
				     "apiVersion: v1\nkind: Pod\nmetadata: {name: db, namespace: x}\n",
				     NULL);
	const void *web = kp_decode_result_at(a, 0)->object;
	ck_assert_int_eq(kp_cluster_builder_add_decoded(b, a, "a.yaml", 0, &e), KP_OK);
	ck_assert_ptr_null(kp_decode_result_at(a, 0)->object); /* taken */
	ck_assert_uint_eq(kp_decode_result_at(a, 1)->kind, KP_KIND_UNKNOWN);
	const void *const *pods = NULL;
	size_t n = 0;
	ck_assert_int_eq(kp_cluster_builder_objects(&pods, &n, b, KP_KIND_POD), KP_OK);
	ck_assert_uint_eq(n, 2);
	ck_assert_ptr_eq(pods[0], web); /* the decoded object itself */
	ck_assert_str_eq(pod_name(pods[1]), "db");
	kp_cluster_spec spec;
	ck_assert_int_eq(kp_cluster_builder_spec(&spec, b, &e), KP_OK);
	ck_assert_uint_eq(spec.n_pods, 2);
	ck_assert_ptr_eq(spec.pods[0], web);
	ck_assert_uint_eq(spec.n_nodepools, 0);

	/* default/web again, written with its namespace, from another file */
	kp_decode_result *c = decode("apiVersion: v1\nkind: Pod\nmetadata: {name: web, "
				     "namespace: default}\n", NULL);
	ck_assert_int_eq(kp_cluster_builder_add_decoded(b, c, "b.yaml", 0, &e), KP_OK);
	ck_assert_uint_eq(kp_cluster_builder_problem_count(b), 1);
	const kp_builder_problem *p = kp_cluster_builder_problem_at(b, 0);
	ck_assert_uint_eq(p->type, KP_BUILDER_PROBLEM_DUPLICATE);
	ck_assert_str_eq(p->object, "Pod default/web");
	ck_assert_str_eq(p->message, "given twice");
	ck_assert_str_eq(p->source, "b.yaml");
	ck_assert_str_eq(p->first_source, "a.yaml");
	ck_assert_ptr_null(kp_cluster_builder_problem_at(b, 1));
	ck_assert_int_eq(kp_cluster_builder_spec(&spec, b, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "the input has 1 problem (kp_cluster_builder_problem_at)");
	kp_cluster *cl = NULL;
	ck_assert_int_eq(kp_cluster_builder_build(&cl, b, &e), KP_EINVAL);
	ck_assert_ptr_null(cl);
	ck_assert_int_eq(kp_cluster_builder_add_decoded(b, c, "b.yaml", 8, &e), KP_EINVAL);
	ck_assert_str_eq(e.field, "flags");
	kp_cluster_builder_free(b);
	kp_decode_result_free(a);
	kp_decode_result_free(c);
}
END_TEST

/* KP_BUILDER_ADD_REPLACE (disrupt --apply): an object of a held identity
 * takes its place, a new one joins at the end. */
START_TEST(builder_replaces_by_identity)
{
	kp_cluster_builder *b = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_cluster_builder_new(&b, &e), KP_OK);
	kp_decode_result *base = decode(
		"apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n---\n"
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: a}\n"
		"spec: {weight: 1, template: {spec: {nodeClassRef: {group: g, kind: K, name: nc}, "
		"requirements: []}}}\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: z}\n", NULL);
	kp_decode_result *apply = decode(
		"apiVersion: v1\nkind: Pod\nmetadata: {name: w}\n---\n"
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: a}\n"
		"spec: {weight: 5, template: {spec: {nodeClassRef: {group: g, kind: K, name: nc}, "
		"requirements: []}}}\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: x, namespace: default, labels: {v: \"2\"}}\n",
		NULL);
	ck_assert_int_eq(kp_cluster_builder_add_decoded(b, base, "base.yaml", 0, &e), KP_OK);
	ck_assert_int_eq(kp_cluster_builder_add_decoded(b, apply, "apply.yaml",
							KP_BUILDER_ADD_REPLACE, &e), KP_OK);
	ck_assert_uint_eq(kp_cluster_builder_problem_count(b), 0);
	kp_cluster_spec spec;
	ck_assert_int_eq(kp_cluster_builder_spec(&spec, b, &e), KP_OK);
	ck_assert_uint_eq(spec.n_nodepools, 1);
	ck_assert_int_eq(spec.nodepools[0]->spec->weight, 5);
	ck_assert_uint_eq(spec.n_pods, 3);
	ck_assert_str_eq(pod_name(spec.pods[0]), "x");
	ck_assert_str_eq(kp_labels_get(&spec.pods[0]->metadata->labels, "v"), "2");
	ck_assert_str_eq(pod_name(spec.pods[1]), "z");
	ck_assert_str_eq(pod_name(spec.pods[2]), "w");
	kp_cluster *c = NULL;
	ck_assert_int_eq(kp_cluster_builder_build(&c, b, &e), KP_OK);
	kp_cluster_free(c);
	kp_cluster_builder_free(b);
	kp_decode_result_free(base);
	kp_decode_result_free(apply);
}
END_TEST

/* KP_BUILDER_ADD_VALIDATE: what the API server would refuse is listed with
 * its source, object, field and message, and left out; a nameless object
 * is named by its place. VolumeAttachments only when asked for. */
START_TEST(builder_validates_and_lists_every_problem)
{
	kp_cluster_builder *b = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_cluster_builder_new(&b, &e), KP_OK);
	kp_decode_result *r = decode(
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: a}\n"
		"spec: {template: {spec: {nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, "
		"name: default}, requirements: [{key: kubernetes.io/arch, operator: Foo, "
		"values: [amd64]}]}}}\n---\n"
		"apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {}}\n---\n"
		"apiVersion: storage.k8s.io/v1\nkind: VolumeAttachment\nmetadata: {name: va}\n"
		"spec: {attacher: a, nodeName: node-1, source: {}}\n", NULL);
	ck_assert_int_eq(kp_cluster_builder_add_decoded(b, r, "c.yaml", KP_BUILDER_ADD_VALIDATE, &e),
			 KP_OK);
	ck_assert_uint_ge(kp_cluster_builder_problem_count(b), 2);
	const kp_builder_problem *p = kp_cluster_builder_problem_at(b, 0);
	ck_assert_uint_eq(p->type, KP_BUILDER_PROBLEM_INVALID);
	ck_assert_str_eq(p->source, "c.yaml");
	ck_assert_str_eq(p->object, "NodePool/a");
	ck_assert_str_eq(p->field, "spec.template.spec.requirements[0].operator");
	ck_assert_str_eq(p->message, "Unsupported value: \"Foo\": supported values: \"In\", "
				     "\"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\", "
				     "\"Gte\", \"Lte\"");
	p = kp_cluster_builder_problem_at(b, kp_cluster_builder_problem_count(b) - 1);
	ck_assert_str_eq(p->object, "Node (document 2: items[0])");
	ck_assert_str_eq(p->field, "metadata.name");
	ck_assert_str_eq(p->message, "Required value: name or generateName is required");
	const void *const *objs = NULL;
	size_t n = 9;
	ck_assert_int_eq(kp_cluster_builder_objects(&objs, &n, b, KP_KIND_NODEPOOL), KP_OK);
	ck_assert_uint_eq(n, 0); /* refused, not added */
	ck_assert_ptr_nonnull(kp_decode_result_at(r, 0)->object); /* left in the result */
	ck_assert_int_eq(kp_cluster_builder_objects(&objs, &n, b, KP_KIND_VOLUME_ATTACHMENT), KP_OK);
	ck_assert_uint_eq(n, 0);
	kp_cluster_builder_free(b);
	kp_decode_result_free(r);

	/* the same VolumeAttachment with the flag; reads() is the kind table */
	ck_assert_int_eq(kp_cluster_builder_new(&b, &e), KP_OK);
	r = decode("apiVersion: storage.k8s.io/v1\nkind: VolumeAttachment\nmetadata: {name: va}\n"
		   "spec: {attacher: a, nodeName: node-1, source: {}}\n", NULL);
	ck_assert_int_eq(kp_cluster_builder_add_decoded(b, r, NULL,
							KP_BUILDER_ADD_VOLUME_ATTACHMENTS, &e), KP_OK);
	ck_assert_int_eq(kp_cluster_builder_objects(&objs, &n, b, KP_KIND_VOLUME_ATTACHMENT), KP_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(kp_cluster_builder_reads(b, KP_KIND_POD), 1);
	ck_assert_int_eq(kp_cluster_builder_reads(b, KP_KIND_NAMESPACE), 1);
	ck_assert_int_eq(kp_cluster_builder_reads(b, KP_KIND_VOLUME_ATTACHMENT), 0);
	ck_assert_int_eq(kp_cluster_builder_reads(b, KP_KIND_UNKNOWN), 0);
	ck_assert_int_eq(kp_cluster_builder_reads(b, KP_KIND_FIRST_REGISTERED), 0);
	ck_assert_int_eq(kp_cluster_builder_reads(NULL, KP_KIND_POD), 0);
	kp_registry *reg = NULL;
	uint32_t kwok = 0;
	kp_cluster_builder *b2 = NULL;
	ck_assert_int_eq(kp_cluster_builder_new(&b2, &e), KP_OK);
	ck_assert_int_eq(kp_registry_new(&reg, &e), KP_OK);
	ck_assert_int_eq(kp_kwok_register(reg, &kwok, &e), KP_OK);
	ck_assert_int_eq(kp_cluster_builder_set_registry(b2, reg, &e), KP_OK);
	ck_assert_int_eq(kp_cluster_builder_reads(b2, kwok), 1);
	kp_registry_free(reg);
	kp_cluster_builder_free(b2);
	kp_cluster_builder_free(b);
	kp_decode_result_free(r);
}
END_TEST

START_TEST(builder_per_pool_catalogue_and_nodeclass_readiness)
{
	kp_cluster_builder *b = NULL;
	kp_error e = KP_ERROR_INIT;
	kp_instance_types *its = builtin();
	ck_assert_int_eq(kp_cluster_builder_new(&b, &e), KP_OK);
	/* KWOKNodeClass is libkarpenter-kwok's kind: the builder reads it
	 * through a registry, held by the builder from here on. */
	kp_registry *reg = NULL;
	ck_assert_int_eq(kp_registry_new(&reg, &e), KP_OK);
	ck_assert_int_eq(kp_kwok_register(reg, NULL, &e), KP_OK);
	ck_assert_int_eq(kp_cluster_builder_set_registry(b, reg, &e), KP_OK);
	kp_registry_free(reg);
	/* Only pool "a" has instance types: the pod goes nowhere else. */
	ck_assert_int_eq(kp_cluster_builder_set_instance_types(b, "a", its, &e), KP_OK);
	static const char more[] =
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: z}\n"
		"spec: {weight: 100, template: {spec: {nodeClassRef: {group: karpenter.kwok.sh, "
		"kind: KWOKNodeClass, name: default}, requirements: []}}}\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: shop}\n"
		"spec: {containers: [{name: m, resources: {requests: {cpu: '1'}}}]}\n";
	ck_assert_int_eq(kp_cluster_builder_add_manifests(b, pools, strlen(pools), NULL, &e), KP_OK);
	ck_assert_int_eq(kp_cluster_builder_add_manifests(b, more, strlen(more), NULL, &e), KP_OK);
	/* the registry is set before objects are added */
	ck_assert_int_eq(kp_cluster_builder_set_registry(b, NULL, &e), KP_EINVAL);
	ck_assert_str_eq(e.message, "the registry is set before any object is added");
	char *s = outcome(b);
	ck_assert_str_eq(s, "web->a-00001,[c-2x-amd64-linux]");
	free(s);
	/* A KWOKNodeClass that is not Ready makes both pools unusable. */
	static const char notready[] =
		"apiVersion: karpenter.kwok.sh/v1alpha1\nkind: KWOKNodeClass\nmetadata: {name: default}\n"
		"status: {conditions: [{type: Ready, status: 'False', reason: Broken, message: broken, "
		"lastTransitionTime: '2024-01-01T00:00:00Z'}]}\n";
	ck_assert_int_eq(kp_cluster_builder_add_manifests(b, notready, strlen(notready), NULL, &e),
			 KP_OK);
	kp_cluster *c = NULL;
	kp_sched_result *r = NULL;
	ck_assert_int_eq(kp_cluster_builder_build(&c, b, &e), KP_OK);
	ck_assert_int_eq(kp_sched_simulate(&r, c, NULL, &e), KP_OK);
	const kp_sched_placement *p = kp_sched_result_pod_at(r, 0);
	ck_assert_ptr_null(p->node);
	ck_assert_uint_ge(p->n_reasons, 1);
	ck_assert_uint_eq(p->reasons[0]->code, KP_REASON_NODEPOOL_NOT_READY);
	kp_sched_result_free(r);
	kp_cluster_free(c);
	kp_cluster_builder_free(b);
	kp_instance_types_free(its);
}
END_TEST

START_TEST(builder_order_does_not_matter)
{
	char *first = NULL;
	for (int order = 0; order < 2; order++) {
		kp_cluster_builder *b = NULL;
		kp_instance_types *its = builtin();
		ck_assert_int_eq(kp_cluster_builder_new(&b, NULL), KP_OK);
		ck_assert_int_eq(kp_cluster_builder_set_instance_types(b, NULL, its, NULL), KP_OK);
		kp_instance_types_free(its);
		for (int k = 0; k < 6; k++) {
			int i = order ? 5 - k : k;
			char name[8];
			snprintf(name, sizeof(name), "p%d", i);
			kp_pod *p = NULL;
			ck_assert_int_eq(kp_pod_new(&p, "ns", name, i % 2 ? "3" : "500m", "1Gi", NULL), KP_OK);
			ck_assert_int_eq(kp_cluster_builder_add_pod(b, p, NULL), KP_OK);
			kp_pod_free(p);
			if (k == 3)
				ck_assert_int_eq(kp_cluster_builder_add_manifests(b, pools, strlen(pools), NULL,
										  NULL), KP_OK);
		}
		char *s = outcome(b);
		if (!first)
			first = s;
		else {
			ck_assert_str_eq(s, first);
			free(s);
		}
		kp_cluster_builder_free(b);
	}
	free(first);
}
END_TEST

/* Text and code fields: the text alone is enough, the code alone is
 * enough, and the two disagreeing are refused with the field's path. */
START_TEST(text_and_code_one_rule)
{
	kp_pod *p = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_pod_new(&p, "ns", "done", "3500m", NULL, &e), KP_OK);
	kp_pod_status st = *p->status;
	kp_pod_status *orig = p->status;
	st.phase = "Succeeded";
	st.phase_code = 0; /* text only */
	p->status = &st;
	kp_pod *copy = NULL;
	ck_assert_int_eq(kp_pod_copy(&copy, p, &e), KP_OK);
	ck_assert_uint_eq(copy->status->phase_code, KP_POD_PHASE_SUCCEEDED);
	kp_pod_free(copy);
	st.phase = NULL;
	st.phase_code = KP_POD_PHASE_FAILED; /* code only */
	ck_assert_int_eq(kp_pod_copy(&copy, p, &e), KP_OK);
	ck_assert_str_eq(copy->status->phase, "Failed");
	kp_pod_free(copy);
	st.phase = "Running";
	st.phase_code = KP_POD_PHASE_SUCCEEDED; /* both, disagreeing */
	ck_assert_int_eq(kp_pod_copy(&copy, p, &e), KP_EINVAL);
	ck_assert_ptr_null(copy);
	ck_assert_str_eq(e.field, "status.phase");
	ck_assert_str_eq(e.message, "status.phase: the text \"Running\" and the code (Succeeded) name "
				    "different values");
	kp_cluster_builder *b = NULL;
	ck_assert_int_eq(kp_cluster_builder_new(&b, &e), KP_OK);
	ck_assert_int_eq(kp_cluster_builder_add_pod(b, p, &e), KP_EINVAL);
	kp_cluster_builder_free(b);
	/* kp_cluster_new reads pods in place: it refuses what a copy would
	 * have to reconcile (a known text without its code) and any
	 * disagreement, naming the pod. */
	st.phase = "Succeeded";
	st.phase_code = 0;
	const kp_pod *pods[1] = { p };
	kp_cluster_spec spec = KP_CLUSTER_SPEC_INIT;
	spec.pods = pods;
	spec.n_pods = 1;
	kp_cluster *c = NULL;
	ck_assert_int_eq(kp_cluster_new(&c, &spec, &e), KP_EINVAL);
	ck_assert_ptr_null(c);
	ck_assert_str_eq(e.field, "pods[0].status.phase");
	ck_assert_str_eq(e.message, "status.phase: the text \"Succeeded\" and the code (none set) name "
				    "different values");
	st.phase_code = KP_POD_PHASE_SUCCEEDED;
	ck_assert_int_eq(kp_cluster_new(&c, &spec, &e), KP_OK);
	kp_cluster_free(c);
	p->status = orig;
	kp_pod_free(p);
}
END_TEST

/* The trap the rule closes: a finished pod given by its phase text alone
 * no longer occupies its node. */
START_TEST(finished_pod_by_text_frees_its_node)
{
	static const char cluster[] =
		"apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {kubernetes.io/hostname: n1}}\n"
		"status: {allocatable: {cpu: '4', memory: 8Gi, pods: '10'}}\n";
	kp_cluster_builder *b = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_int_eq(kp_cluster_builder_new(&b, &e), KP_OK);
	ck_assert_int_eq(kp_cluster_builder_add_manifests(b, cluster, strlen(cluster), NULL, &e), KP_OK);
	kp_pod *done = NULL, *next = NULL;
	ck_assert_int_eq(kp_pod_new(&done, "ns", "done", "3500m", NULL, &e), KP_OK);
	kp_pod_spec spec = *done->spec;
	kp_pod_status st = *done->status;
	kp_pod_spec *ospec = done->spec;
	kp_pod_status *ost = done->status;
	spec.node_name = "n1";
	st.phase = "Succeeded";
	st.phase_code = 0;
	done->spec = &spec;
	done->status = &st;
	ck_assert_int_eq(kp_cluster_builder_add_pod(b, done, &e), KP_OK);
	done->spec = ospec;
	done->status = ost;
	kp_pod_free(done);
	ck_assert_int_eq(kp_pod_new(&next, "ns", "next", "3", NULL, &e), KP_OK);
	ck_assert_int_eq(kp_cluster_builder_add_pod(b, next, &e), KP_OK);
	kp_pod_free(next);
	char *s = outcome(b);
	ck_assert_str_eq(s, "next->n1,");
	free(s);
	kp_cluster_builder_free(b);
}
END_TEST

/* kp_cluster_describe: pools in the order tried (and why one cannot
 * provision), nodes with their state, pods by state, ignored pods and why. */
START_TEST(describe_snapshot)
{
	static const char more[] =
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: broken}\n"
		"spec: {weight: 50, template: {spec: {nodeClassRef: {group: karpenter.kwok.sh, "
		"kind: KWOKNodeClass, name: default}, requirements: []}}}\n"
		"status: {conditions: [{type: Ready, status: 'False', reason: R, message: no subnets, "
		"lastTransitionTime: '2024-01-01T00:00:00Z'}]}\n---\n"
		"apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {kubernetes.io/hostname: n1}}\n"
		"status: {allocatable: {cpu: '4', memory: 8Gi, pods: '10'}}\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: on-n1, namespace: d}\n"
		"spec: {nodeName: n1, containers: [{name: m}]}\nstatus: {phase: Running}\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: done, namespace: d}\n"
		"spec: {containers: [{name: m}]}\nstatus: {phase: Succeeded}\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: lost, namespace: d}\n"
		"spec: {nodeName: gone, containers: [{name: m}]}\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: d}\n"
		"spec: {containers: [{name: m}]}\n";
	kp_cluster_builder *b = NULL;
	kp_error e = KP_ERROR_INIT;
	kp_instance_types *its = builtin();
	ck_assert_int_eq(kp_cluster_builder_new(&b, &e), KP_OK);
	ck_assert_int_eq(kp_cluster_builder_set_instance_types(b, NULL, its, &e), KP_OK);
	kp_instance_types_free(its);
	ck_assert_int_eq(kp_cluster_builder_add_manifests(b, pools, strlen(pools), NULL, &e), KP_OK);
	ck_assert_int_eq(kp_cluster_builder_add_manifests(b, more, strlen(more), NULL, &e), KP_OK);
	kp_cluster *c = NULL;
	ck_assert_int_eq(kp_cluster_builder_build(&c, b, &e), KP_OK);
	char *text = NULL;
	ck_assert_int_eq(kp_cluster_describe(&text, c, &e), KP_OK);
	ck_assert_str_eq(text,
		"snapshot: 2 NodePools, 1 nodes, 4 pods in 1 classes, 0 topology groups\n"
		"nodepools (in the order they are tried):\n"
		"  broken: weight 50, not usable: NodePoolNotReady: the NodePool is not ready "
		"(Ready=False: no subnets)\n"
		"  a: weight 0, usable, 72 instance types\n"
		"nodes (in the order they are tried):\n"
		"  n1: unmanaged, initialized, 1 bound pods\n"
		"pods: 1 pending, 1 bound (1 reschedulable), 0 of DaemonSets, 2 ignored\n"
		"  ignored d/done: terminal (Succeeded or Failed)\n"
		"  ignored d/lost: bound to a node that is not in the snapshot\n");
	kp_cluster_description_free(text);
	ck_assert_int_eq(kp_cluster_describe(&text, NULL, &e), KP_EINVAL);
	ck_assert_ptr_null(text);
	kp_cluster_free(c);
	kp_cluster_builder_free(b);
}
END_TEST

static Suite *builder_suite(void)
{
	Suite *s = suite_create("builder");
	TCase *tc = tcase_create("constructors");
	tcase_add_test(tc, pod_new_requests);
	tcase_add_test(tc, nodepool_new_defaults_and_requirements);
	suite_add_tcase(s, tc);
	tc = tcase_create("cluster builder");
	tcase_add_test(tc, builder_copies_and_simulates);
	tcase_add_test(tc, builder_refuses_duplicates_and_keeps_all_or_nothing);
	tcase_add_test(tc, builder_identity_is_the_api_servers);
	tcase_add_test(tc, builder_takes_decoded_objects_with_their_source);
	tcase_add_test(tc, builder_replaces_by_identity);
	tcase_add_test(tc, builder_validates_and_lists_every_problem);
	tcase_add_test(tc, result_document);
	tcase_add_test(tc, builder_per_pool_catalogue_and_nodeclass_readiness);
	tcase_add_test(tc, builder_order_does_not_matter);
	tcase_add_test(tc, text_and_code_one_rule);
	tcase_add_test(tc, finished_pod_by_text_frees_its_node);
	tcase_add_test(tc, describe_snapshot);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	Suite *suites[] = { builder_suite() };
	return kp_test_run(suites, 1);
}
