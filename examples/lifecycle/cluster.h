/*
 * A toy API server and cloud for examples/lifecycle/embed.c: it holds the
 * objects, answers the provider vtable from an in-memory instance list and
 * applies the actions libkarpenter's lifecycle controllers return. Uses
 * the public core API only.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef EXAMPLE_LIFECYCLE_CLUSTER_H
#define EXAMPLE_LIFECYCLE_CLUSTER_H

#include <karpenter/karpenter.h>

#define EX_MAX 64
/* The node class this toy cloud manages, and the Node label naming it. */
#define EX_NODECLASS_GROUP "example.com"
#define EX_NODECLASS_KIND "ExampleNodeClass"
#define EX_NODECLASS_LABEL "example.com/examplenodeclass"

typedef struct ex_cloud ex_cloud;

typedef struct ex_cluster {
	kp_nodeclaim *ncs[EX_MAX];
	size_t n_ncs;
	kp_node *nodes[EX_MAX];
	size_t n_nodes;
	kp_pod *pods[EX_MAX];
	size_t n_pods;
	kp_pdb *pdbs[EX_MAX];
	size_t n_pdbs;
	int64_t now_ms;
	kp_cloudprovider *cp;
	ex_cloud *cloud;
	size_t evicted, force_deleted;  /* pods removed by evict / delete actions */
	size_t lost_pods;               /* pods still bound to a Node when it went away */
} ex_cluster;

int ex_cluster_init(ex_cluster *c, int64_t now_ms);
void ex_cluster_free(ex_cluster *c);
/* Take ownership of a library-built object (kp_decode_one, kp_object_copy). */
int ex_cluster_add(ex_cluster *c, uint32_t kind, void *object);
/* Every controller once over the cluster at c->now_ms. */
int ex_cluster_reconcile(ex_cluster *c, kp_lifecycle_result **out, kp_error *err);
/* Apply the actions as an API server would. */
int ex_cluster_apply(ex_cluster *c, const kp_lifecycle_result *r, kp_error *err);
/* Instances the cloud still has. */
size_t ex_cluster_instances(const ex_cluster *c);
/* Decode one manifest (YAML or JSON) into the cluster. */
int ex_cluster_add_yaml(ex_cluster *c, const char *text, kp_error *err);

#endif
