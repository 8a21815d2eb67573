/*
 * A cluster built in code, then simulated: two NodePools on the built-in
 * KWOK catalogue, ten pending pods made with kp_pod_new and one pod given
 * as a manifest. Prints each new NodeClaim and where each pod goes.
 *
 * Build: cc main.c $(pkg-config --cflags --libs libkarpenter-kwok)
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include <karpenter/karpenter.h>
#include <karpenter/kwok.h>

static const char extra[] =
	"apiVersion: v1\nkind: Pod\nmetadata: {name: big, namespace: shop}\n"
	"spec: {containers: [{name: main, resources: {requests: {cpu: '30', memory: 64Gi}}}]}\n";

int main(void)
{
	kp_error e = KP_ERROR_INIT;
	kp_instance_types *its = NULL;
	kp_cluster_builder *b = NULL;
	kp_nodepool *np = NULL;
	kp_cluster *cluster = NULL;
	kp_sched_result *res = NULL;
	static const char *const spot[] = { "spot" }, *const amd64[] = { "amd64" };
	int rc = kp_kwok_catalog_builtin(&its, &e);
	if (!rc) rc = kp_cluster_builder_new(&b, &e);
	if (!rc) rc = kp_cluster_builder_set_instance_types(b, NULL, its, &e);
	/* "default" on spot, weight 10; "fallback" on any capacity type. */
	const char *names[2] = { "default", "fallback" };
	for (int i = 0; i < 2 && !rc; i++) {
		rc = kp_nodepool_new(&np, names[i], KP_KWOK_GROUP, KP_KWOK_NODECLASS_KIND, "default", &e);
		if (!rc) rc = kp_nodepool_add_requirement(np, "kubernetes.io/arch", "In", amd64, 1, &e);
		if (!rc && i == 0) {
			rc = kp_nodepool_add_requirement(np, "karpenter.sh/capacity-type", "In", spot, 1, &e);
			np->spec->has_weight = 1;
			np->spec->weight = 10;
		}
		if (!rc) rc = kp_cluster_builder_add_nodepool(b, np, &e);
		kp_nodepool_free(np);
	}
	for (int i = 0; i < 10 && !rc; i++) {
		kp_pod *pod = NULL;
		char name[16];
		snprintf(name, sizeof(name), "web-%d", i);
		rc = kp_pod_new(&pod, "shop", name, "1500m", "2Gi", &e);
		if (!rc) rc = kp_cluster_builder_add_pod(b, pod, &e);
		kp_pod_free(pod);
	}
	if (!rc) rc = kp_cluster_builder_add_manifests(b, extra, strlen(extra), NULL, &e);
	if (!rc) rc = kp_cluster_builder_build(&cluster, b, &e);
	if (!rc) rc = kp_sched_simulate(&res, cluster, NULL, &e);
	for (size_t i = 0; !rc && i < kp_sched_result_nodeclaim_count(res); i++) {
		const kp_sched_nodeclaim *nc = kp_sched_result_nodeclaim_at(res, i);
		printf("nodeclaim %s: %s %s in %s, %zu pods\n", nc->nodeclaim->metadata->name,
		       nc->capacity_type, nc->instance_type, nc->zone, nc->n_pods);
	}
	for (size_t i = 0; !rc && i < kp_sched_result_pod_count(res); i++) {
		const kp_sched_placement *p = kp_sched_result_pod_at(res, i);
		printf("pod %s/%s -> %s\n", p->namespace_, p->name, p->node ? p->node : "(not placed)");
	}
	if (rc)
		fprintf(stderr, "error: %s\n", e.message);
	kp_sched_result_free(res);
	kp_cluster_free(cluster);
	kp_cluster_builder_free(b);
	kp_instance_types_free(its);
	return rc ? 1 : 0;
}
