/*
 * Random valid clusters for property tests of the scheduling simulation:
 * seeded and deterministic, written as YAML documents (for sched_harness)
 * so that a test can shuffle their order.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_SCHED_GEN_H
#define KP_SCHED_GEN_H

#include <stddef.h>
#include <stdint.h>

/* splitmix64 */
typedef struct g_rng {
	uint64_t state;
} g_rng;
uint64_t g_rng_next(g_rng *r);
size_t g_rng_below(g_rng *r, size_t n);

/* One cluster: its documents (each a YAML document without "---"). */
typedef struct g_cluster {
	char **docs;
	size_t n_docs, cap_docs;
	char **taken;        /* names of the Nodes and NodeClaims it has */
	size_t n_taken, cap_taken;
} g_cluster;

/*
 * A random cluster from @p seed: one to three NodePools (equal weights
 * likely, some with taints, zone requirements or limits), existing Nodes
 * (unmanaged, and managed ones with their NodeClaims), in-flight NodeClaims
 * (some named as new NodeClaims would be), running pods on the nodes
 * sharing required pod anti-affinity groups, pending pods with equal queue
 * keys, pod anti-affinity, pod affinity and topology spread constraints.
 */
void g_cluster_make(g_cluster *gc, uint64_t seed);
/* Shuffle the documents (Fisher-Yates with @p rng). */
void g_cluster_shuffle(g_cluster *gc, g_rng *rng);
/* The documents joined into one YAML stream (free() it). */
char *g_cluster_yaml(const g_cluster *gc);
void g_cluster_free(g_cluster *gc);

#endif
