/*
 * Lifecycle test harness (see lc_harness.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "lc_harness.h"

static int find_id(const lc_cloud *c, const char *id)
{
	for (size_t i = 0; i < c->n_ids; i++)
		if (strcmp(c->ids[i], id) == 0)
			return (int)i;
	return -1;
}

static void add_id(lc_cloud *c, const char *id)
{
	if (find_id(c, id) < 0 && c->n_ids < 64)
		{ char *d = malloc(strlen(id) + 1); strcpy(d, id); c->ids[c->n_ids++] = d; }
}

static kp_label inst_labels[] = {
	{ "karpenter.sh/capacity-type", "on-demand" },
	{ "node.kubernetes.io/instance-type", "m-2x" },
	{ "topology.kubernetes.io/zone", "zone-a" },
};
static kp_resource inst_res[3];

static void fill(kp_instance *out, const char *id, const char *name)
{
	out->provider_id = id;
	out->nodeclaim_name = name;
	out->labels.items = inst_labels;
	out->labels.count = 3;
	kp_quantity_parse(&inst_res[0].quantity, "2", NULL);
	inst_res[0].name = "cpu";
	kp_quantity_parse(&inst_res[1].quantity, "8Gi", NULL);
	inst_res[1].name = "memory";
	kp_quantity_parse(&inst_res[2].quantity, "110", NULL);
	inst_res[2].name = "pods";
	out->capacity.items = inst_res;
	out->capacity.count = 3;
	out->allocatable.items = inst_res;
	out->allocatable.count = 3;
}

static int fc_create(void *self, const kp_nodeclaim *nc, kp_instance *out, kp_error *err)
{
	lc_cloud *c = self;
	c->create_calls++;
	if (c->create_rc) {
		kp_error_set(err, c->create_rc, NULL, c->create_msg);
		if (err)
			snprintf(err->provider_code, sizeof(err->provider_code), "%s", c->create_code);
		return c->create_rc;
	}
	static char id[128];
	snprintf(id, sizeof(id), "fake://%s", nc->metadata->name);
	add_id(c, id);
	fill(out, id, nc->metadata->name);
	return KP_OK;
}

static int fc_delete(void *self, const kp_nodeclaim *nc, kp_error *err)
{
	lc_cloud *c = self;
	c->delete_calls++;
	int i = find_id(c, nc->status->provider_id);
	if (i < 0)
		return kp_error_set(err, KP_ENOTFOUND, NULL, "instance not found");
	free(c->ids[i]);
	c->ids[i] = c->ids[--c->n_ids];
	return KP_OK;
}

static int fc_get(void *self, const char *id, kp_instance *out, kp_error *err)
{
	lc_cloud *c = self;
	if (find_id(c, id) < 0)
		return kp_error_set(err, KP_ENOTFOUND, NULL, "instance not found");
	fill(out, id, NULL);
	return KP_OK;
}

static int fc_list(void *self, const kp_instance *const **out, size_t *n, kp_error *err)
{
	(void)err;
	lc_cloud *c = self;
	for (size_t i = 0; i < c->n_ids; i++) {
		kp_instance_init(&c->recs[i]);
		fill(&c->recs[i], c->ids[i], NULL);
		c->rec_ptrs[i] = &c->recs[i];
	}
	*out = c->n_ids ? c->rec_ptrs : NULL;
	*n = c->n_ids;
	return KP_OK;
}

static int fc_its(void *self, const kp_nodepool *np, kp_instance_types **out, kp_error *err)
{
	(void)self;
	(void)np;
	return kp_instance_types_new(out, err);
}

static int fc_classes(void *self, const kp_group_kind **out, size_t *n, kp_error *err)
{
	(void)self;
	(void)err;
	static const kp_group_kind gk[] = { { "karpenter.test.sh", "TestNodeClass" } };
	*out = gk;
	*n = 1;
	return KP_OK;
}

static int fc_repair(void *self, const kp_repair_policy **out, size_t *n, kp_error *err)
{
	(void)self;
	(void)err;
	static const kp_repair_policy pol[] = { { "Ready", "False", 10 * 60000 } };
	*out = pol;
	*n = 1;
	return KP_OK;
}

static void fc_destroy(void *self)
{
	lc_cloud *c = self;
	for (size_t i = 0; i < c->n_ids; i++)
		free(c->ids[i]);
	free(c);
}

void lc_world_init(lc_world *w, int64_t now_ms)
{
	memset(w, 0, sizeof(*w));
	w->cloud = calloc(1, sizeof(lc_cloud));
	kp_cloudprovider_ops ops = KP_CLOUDPROVIDER_OPS_INIT;
	ops.name = "fake";
	ops.create = fc_create;
	ops.delete_instance = fc_delete;
	ops.get = fc_get;
	ops.list = fc_list;
	ops.get_instance_types = fc_its;
	ops.supported_node_classes = fc_classes;
	ops.repair_policies = fc_repair;
	ops.destroy = fc_destroy;
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(kp_cloudprovider_new(&w->cp, &ops, w->cloud, &e) == KP_OK, "%s", e.message);
	ck_assert_int_eq(kp_cluster_builder_new(&w->builder, &e), KP_OK);
	kp_cluster_spec_init(&w->spec);
	w->spec.now_ms = now_ms;
	kp_lifecycle_options_init(&w->opts);
	w->opts.cloudprovider = w->cp;
}

void lc_world_free(lc_world *w)
{
	kp_lifecycle_result_free(w->r);
	kp_cluster_builder_free(w->builder);
	kp_cloudprovider_free(w->cp);
}

void *lc_add(lc_world *w, const char *yaml)
{
	kp_decode_result *res = NULL;
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(kp_decode(&res, yaml, strlen(yaml), NULL, &e) == KP_OK, "decode: %s",
		      e.message);
	ck_assert_uint_eq(kp_decode_result_count(res), 1);
	void *obj = kp_decode_result_at(res, 0)->object;
	/* the builder takes it (no copy: the test may still change it), with
	 * the CRD defaults the API server applies, as kubectl-karpenter reads */
	ck_assert_msg(kp_cluster_builder_add_decoded(w->builder, res, "test",
						     KP_BUILDER_ADD_VOLUME_ATTACHMENTS, &e) == KP_OK,
		      "builder: %s", e.message);
	ck_assert_msg(kp_decode_result_at(res, 0)->object == NULL, "the builder does not read it");
	kp_decode_result_free(res);
	/* the cluster is the builder's, with the test's clock and node classes */
	kp_cluster_spec view;
	ck_assert_msg(kp_cluster_builder_spec(&view, w->builder, &e) == KP_OK, "builder: %s",
		      e.message);
	view.now_ms = w->spec.now_ms;
	view.nodeclasses = w->spec.nodeclasses;
	view.n_nodeclasses = w->spec.n_nodeclasses;
	w->spec = view;
	w->np = (const void *const *)view.nodepools;
	w->nc = (const void *const *)view.nodeclaims;
	w->node = (const void *const *)view.nodes;
	w->pod = (const void *const *)view.pods;
	return obj;
}

void lc_instance(lc_world *w, const char *provider_id)
{
	add_id(w->cloud, provider_id);
}

int lc_has_instance(const lc_world *w, const char *provider_id)
{
	return find_id(w->cloud, provider_id) >= 0;
}

kp_lifecycle_result **lc_fresh(lc_world *w)
{
	kp_lifecycle_result_free(w->r);
	w->r = NULL;
	return &w->r;
}

kp_lifecycle_result *lc_reconcile(lc_world *w)
{
	kp_error e = KP_ERROR_INIT;
	int rc = kp_lifecycle_reconcile(lc_fresh(w), &w->spec, &w->opts, &e);
	ck_assert_msg(rc == KP_OK, "reconcile: %d %s: %s", rc, e.field, e.message);
	return w->r;
}

const kp_lifecycle_action *lc_action(const lc_world *w, size_t i)
{
	const kp_lifecycle_action *a = kp_lifecycle_result_action_at(w->r, i);
	ck_assert_msg(a != NULL, "no action %zu", i);
	return a;
}

const char *lc_summary(const lc_world *w)
{
	static char buf[8192];
	size_t len = 0;
	buf[0] = 0;
	for (size_t i = 0; i < kp_lifecycle_result_action_count(w->r) && len < sizeof(buf); i++) {
		const kp_lifecycle_action *a = kp_lifecycle_result_action_at(w->r, i);
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s %s/%s %s\n",
					kp_lifecycle_verb_name(a->verb), kp_kind_name(a->kind),
					a->name, a->reason);
	}
	return buf;
}

const kp_condition *lc_nc_cond(const kp_lifecycle_action *a, const char *type)
{
	static const kp_condition none = KP_CONDITION_INIT;
	ck_assert_uint_eq(a->kind, KP_KIND_NODECLAIM);
	ck_assert_ptr_nonnull(a->object);
	const kp_nodeclaim *nc = a->object;
	for (size_t i = 0; nc->status && i < nc->status->n_conditions; i++)
		if (strcmp(nc->status->conditions[i]->type, type) == 0)
			return nc->status->conditions[i];
	return &none;
}

const kp_lifecycle_action *lc_last(const lc_world *w, uint32_t verb, const char *controller)
{
	const kp_lifecycle_action *hit = NULL;
	for (size_t i = 0; i < kp_lifecycle_result_action_count(w->r); i++) {
		const kp_lifecycle_action *a = kp_lifecycle_result_action_at(w->r, i);
		if (a->verb == verb && (!controller || strcmp(a->controller, controller) == 0))
			hit = a;
	}
	return hit;
}

const char *lc_np_conds(const kp_lifecycle_action *a)
{
	const kp_nodepool *np = a->object;
	ck_assert_ptr_nonnull(np);
	return lc_conds(np->status ? np->status->conditions : NULL,
			np->status ? np->status->n_conditions : 0);
}

const char *lc_nc_conds(const kp_lifecycle_action *a)
{
	const kp_nodeclaim *nc = a->object;
	ck_assert_ptr_nonnull(nc);
	return lc_conds(nc->status ? nc->status->conditions : NULL,
			nc->status ? nc->status->n_conditions : 0);
}

const char *lc_conds(kp_condition *const *conds, size_t n)
{
	static char buf[2048];
	size_t len = 0;
	buf[0] = 0;
	for (size_t i = 0; i < n && len < sizeof(buf); i++) {
		const kp_condition *c = conds[i];
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s=%s/%s", i ? " " : "",
					c->type, c->status, c->reason ? c->reason : "");
	}
	return buf;
}

const char *lc_nodeclaim_yaml(const char *name, const char *meta_extra, const char *spec_extra,
			      const char *status)
{
	static char buf[8192];
	snprintf(buf, sizeof(buf),
		 "apiVersion: karpenter.sh/v1\nkind: NodeClaim\n"
		 "metadata: {name: %s, uid: uid-%s, creationTimestamp: '2024-01-01T00:00:00Z', "
		 "labels: {karpenter.sh/nodepool: default, karpenter.test.sh/testnodeclass: default}%s}\n"
		 "spec: {nodeClassRef: {group: karpenter.test.sh, kind: TestNodeClass, name: default}, "
		 "requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}]%s}\n"
		 "%s%s%s",
		 name, name, meta_extra ? meta_extra : "", spec_extra ? spec_extra : "",
		 status ? "status: {" : "", status ? status : "", status ? "}\n" : "");
	return buf;
}
