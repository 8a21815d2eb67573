/*
 * sched-bench: input generators and the lower bound.
 *
 * Everything here builds caller-side objects (kp_pod, kp_node, kp_nodepool)
 * in an arena owned by the benchmark, exactly as an embedding program would
 * build them before calling kp_cluster_new. Nothing is timed here.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_BENCH_GEN_H
#define KP_BENCH_GEN_H

#include <stddef.h>
#include <stdint.h>

#include <karpenter/karpenter.h>
#include <karpenter/scheduling.h>

/* ------------------------------------------------------------------ */
/* Arena: bump allocation in chunks, released at once                  */

typedef struct bench_chunk bench_chunk;

typedef struct bench_arena {
	bench_chunk *head; /* newest chunk first */
	size_t used;       /* bytes used in head */
	size_t bytes;      /* bytes requested over the arena's life */
} bench_arena;

/* Zeroed, 16-byte aligned memory; exits the program when out of memory. */
void *bench_alloc(bench_arena *a, size_t size);
char *bench_strdup(bench_arena *a, const char *s);
void bench_arena_free(bench_arena *a);

/* ------------------------------------------------------------------ */
/* Deterministic PRNG: splitmix64                                      */

typedef struct bench_rng {
	uint64_t state;
} bench_rng;

uint64_t bench_rng_next(bench_rng *r);
/* Uniform in [0, n) by modulo; the bias (n / 2^64) is irrelevant here. */
size_t bench_rng_below(bench_rng *r, size_t n);

/* ------------------------------------------------------------------ */
/* The inputs of one scenario                                          */

/* Requests of one pending pod, kept for the lower bound. */
typedef struct bench_request {
	int64_t cpu_milli;
	int64_t mem_bytes;
	uint16_t anti_hostname;  /* 1 if no two such pods may share a node */
	uint16_t zone_affinity;  /* 1 + label value index for zone self-affinity, else 0 */
} bench_request;

typedef struct bench_input {
	bench_arena arena;
	kp_wellknown *wk;           /* label rules given to the snapshot (owned) */
	kp_instance_types *its;     /* the NodePool's catalogue (one reference, owned) */
	kp_nodepool *nodepool;      /* in the arena */
	kp_requirements *np_reqs;   /* the NodePool's requirements, for the bound (owned) */
	kp_pod **pods;
	size_t n_pods, cap_pods;
	kp_node **nodes;
	size_t n_nodes;
	bench_request *reqs;        /* parallel to pods */
	/* allocatable of the existing nodes, summed (free capacity for the bound) */
	int64_t existing_cpu_milli, existing_mem_bytes, existing_pods;
} bench_input;

void bench_input_free(bench_input *in);

/* The 400 types of upstream fake.InstanceTypes(400) and their well-known
 * labels ("size", "special", "integer"); the NodePool of upstream's
 * scheduling benchmark (no requirements; with @p limits, upstream's limits
 * cpu 10000000 and memory 10000000Gi, else none). Returns KP_OK or a
 * kp_status with @p err filled. */
int bench_setup_fake(bench_input *in, size_t n_types, int limits, kp_error *err);

/* bench_setup_fake, and every type also reserved: one offering of capacity
 * type reserved in test-zone-1 at its price / 100,000, reservation
 * "r-<type>" with @p left instances, its ID on karpenter.sh/reservation-id
 * (made well known), as upstream's scheduling suite writes them. */
int bench_setup_fake_reserved(bench_input *in, size_t n_types, int limits, int64_t left,
			      kp_error *err);

/* The built-in KWOK catalogue, KWOK's label rules and the NodePool of
 * upstream's KWOK performance suite (os In [linux], capacity-type In
 * [on-demand], instance-size Lt 32, no limits). @p n_types gets the number of
 * instance types that NodePool admits. */
int bench_setup_kwok(bench_input *in, size_t *n_types, kp_error *err);

/* Upstream makeDiversePods(count) with a splitmix64 stream seeded by @p seed. */
void bench_pods_diverse(bench_input *in, size_t count, uint64_t seed);

/* @p count identical pods (label app=@p app) requesting @p cpu and @p memory;
 * with @p zone_spread, each has a zone topology spread constraint (maxSkew 1,
 * DoNotSchedule) selecting app=@p app. */
void bench_pods_uniform(bench_input *in, size_t count, const char *app, const char *cpu,
			const char *memory, int zone_spread);

/* @p count existing, ready, initialized nodes with @p cpu, @p memory, @p pods
 * of capacity and allocatable, spread round-robin over @p n_zones zones
 * test-zone-1..N, with hostname labels. */
void bench_nodes_existing(bench_input *in, size_t count, const char *cpu, const char *memory,
			  const char *pods, size_t n_zones);

/* ------------------------------------------------------------------ */
/* Lower bound on the hourly cost of the new nodes (bench/README.md)   */

typedef struct bench_bound {
	double value;          /* max of the three below */
	double resources;      /* LP dual bound on (cpu, memory) */
	double pods;           /* single-resource bound on pod slots */
	double anti;           /* one node per hostname anti-affinity pod */
	size_t n_types;        /* instance types the NodePool admits */
} bench_bound;

int bench_lower_bound(bench_bound *out, const bench_input *in, kp_error *err);

#endif /* KP_BENCH_GEN_H */
