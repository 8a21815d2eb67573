/*
 * Shared by the libFuzzer targets that take a cluster written as manifests
 * (fuzz-simulate, fuzz-disrupt, fuzz-lifecycle): the input decoded and
 * given to the library's builder as `kubectl-karpenter` gives it
 * (kp_cluster_builder_add_decoded: the Karpenter kinds defaulted and
 * validated, an object given twice refused; the CLI works on nothing the
 * API server would refuse), and the builder's cluster spec over the
 * built-in KWOK catalogue with the KWOKNodeClasses' readiness.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_FUZZ_CLUSTER_H
#define KP_FUZZ_CLUSTER_H

#define KP_EXPERIMENTAL_API 1 /* KWOKNodeClass through a registry */
#include <stddef.h>
#include <stdint.h>

#include <karpenter/karpenter.h>
#include <karpenter/kwok.h>
#include <karpenter/kwok_nodeclass.h>
#include <karpenter/scheduling.h>
#include <karpenter/sys/kwok.h>

/* Objects of one kind, a view of the builder's. */
typedef struct fuzz_list {
	const void *const *items;
	size_t n;
} fuzz_list;

enum { L_NODEPOOL, L_NODECLAIM, L_NODECLASS, L_POD, L_NODE, L_DAEMONSET, L_PDB, L_PVC, L_PV,
       L_SC, L_CSI, L_NS, L_VA, L_COUNT };

typedef struct fuzz_cluster {
	kp_decode_result *res, *applied; /* what the builder did not take */
	kp_cluster_builder *builder;
	fuzz_list l[L_COUNT];
} fuzz_cluster;

/* Read-only for the targets, built once. */
extern kp_instance_types *fuzz_catalogue;
extern kp_wellknown *fuzz_wellknown;
extern kp_registry *fuzz_registry; /* the core kinds and KWOKNodeClass */
extern uint32_t fuzz_kwok_kind;

/* Decode (limits lowered so that the fuzzer explores them quickly), sort
 * and admit. 0 when the CLI would go on with the input; otherwise the
 * cluster is freed. */
int fuzz_cluster_load(fuzz_cluster *c, const uint8_t *data, size_t size);
/* Objects decoded from @p data replace those of their kind, namespace and
 * name, or join them, as `kubectl-karpenter disrupt --apply` does. -1 when
 * the CLI would stop (the cluster is then freed). */
int fuzz_cluster_apply(fuzz_cluster *c, const uint8_t *data, size_t size);
/* The spec over the cluster's lists (valid while c is); 0, or -1 when out
 * of memory. */
int fuzz_cluster_spec(fuzz_cluster *c, kp_cluster_spec *spec, int64_t now_ms);
void fuzz_cluster_free(fuzz_cluster *c);

/* Read a string the library returned (ASan checks it); NULL is fine. */
void fuzz_touch(const char *s);

/* Every failure must say why. */
#define FUZZ_REQUIRE(cond) do { if (!(cond)) __builtin_trap(); } while (0)

#endif
