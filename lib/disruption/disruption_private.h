/*
 * libkarpenter disruption: internal state shared by the module's files.
 * Never installed.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_DISRUPTION_PRIVATE_H
#define KP_DISRUPTION_PRIVATE_H

#include <karpenter/disruption.h>
#include <karpenter/scheduling.h>

#include "kp_internal.h"
#include "common/map.h"
#include "common/ptrs.h"
#include "scheduling/sched_index.h"
#include "state/state.h"

#include <stdint.h>

/* Drop const from a pointer the module owns (to free or fill it). */
#define KP__DMUT(p) ((void *)(uintptr_t)(p))

/* Reason indexes: Empty, Drifted, Underutilized. */
enum { KP__R_EMPTY = 0, KP__R_DRIFTED = 1, KP__R_UNDERUTILIZED = 2, KP__N_REASONS = 3 };
extern const char *const kp__disruption_reasons[KP__N_REASONS];

/* Growable arrays of pointers: common/ptrs.h. */

/* One node of the cluster as upstream's cluster state sees it: a Node
 * and/or its NodeClaim, with its pods. */
typedef struct kp__dnode {
	const kp_node *node;
	const kp_nodeclaim *nc;
	const kp_nodepool *np; /* NULL when not found */
	size_t pool;           /* index in the pass's NodePools when np */
	const char *name;      /* the node's name (Node, else NodeClaim's nodeName or name) */
	const char *nc_name, *node_name, *pool_name;
	const char *it_name, *zone, *ct;
	const kp_instance_type *it;
	double price;
	const kp_labels *labels; /* the Node's labels, else the NodeClaim's */
	uint32_t managed, initialized, deleting, ready, terminating;
	const kp_pod **pods;   /* bound pods (borrowed) */
	size_t n_pods;
	const kp_pod **resched; /* reschedulable pods */
	uint32_t *resched_ix;   /* their snapshot pod indices (sched_index.h) */
	size_t n_resched;
	double resched_cost;   /* 1 + sum of positive eviction costs */
	double disruption_cost;
	uint32_t empty;
	/* candidate filters: codes (0 = passes) and messages per class */
	uint32_t graceful_code, eventual_code;
	char *graceful_msg, *eventual_msg;
	uint32_t drifted;
	char *drift_reason, *drift_msg;
	int64_t drift_later_ms; /* not drifted yet: when its instance type drifts it (0: no) */
	int64_t drift_time_ms;
	uint32_t cons_state;
	int64_t cons_at_ms;
	/* reschedulable pods upstream does not simulate (not currently
	 * reschedulable: an active do-not-disrupt, a fully blocking PDB), as
	 * snapshot pod indices */
	uint32_t *kept;
	size_t n_kept;
	uint32_t snap;          /* its snapshot node index, or KP__SCHED_NONE */
	kp__ptrs why;          /* kp_disruption_why * */
} kp__dnode;

/* A pass's view of the cluster. */
typedef struct kp__dstate {
	const kp_cluster_spec *spec;
	const kp_disruption_options *opts;
	int64_t now_ms;
	kp_cluster *cluster;
	kp__dnode *nodes;
	size_t n_nodes;
	/* budgets: remaining per NodePool and reason, and the statuses */
	int64_t *remaining; /* [pool * KP__N_REASONS + reason] */
	kp_disruption_budget_status *budgets; /* same layout */
	char **budget_errors; /* per pool */
	uint32_t explain;   /* record reasons (first pass) */
	/* every simulation: nodes inside their consolidateAfter window
	 * (closed to a consolidation's moved pods), and the kept pods of
	 * deleting nodes */
	uint32_t *closed;       /* snapshot node indices */
	size_t n_closed;
	uint32_t *deleting_kept; /* snapshot pod indices */
	size_t n_deleting_kept;
	kp__dnode **by_snap;    /* snapshot node index -> node */
	kp__pdb_index pdbs; /* spec->pdbs by namespace */
	/* reservations with no instance left (earlier passes counted):
	 * their offerings are no launch option, as the provider reports them
	 * unavailable (IDs; kp__dstate_reservations) */
	kp__map resv_out;
} kp__dstate;

/* Fill st->resv_out from the snapshot's reservation counts. */
int kp__dstate_reservations(kp__dstate *st);
/* 1 unless @p of is a reserved offering whose reservation st->resv_out
 * lists (kp__offering_usable; ctx is the kp__dstate). */
int kp__dstate_offering_usable(const kp_offering *of, void *ctx);

int kp__dstate_build(kp__dstate *st, const kp_cluster_spec *spec,
		     const kp_disruption_options *opts, uint32_t explain, kp_error *err);
void kp__dstate_free(kp__dstate *st);

/* Add a reason to a node (explain mode only); fmt printf-style. */
int kp__dwhy(kp__dstate *st, kp__dnode *n, uint32_t code, uint32_t method, const char *fmt, ...)
	KP_PRINTF(5, 6);

/* A computed command (the result's struct plus what it owns). */
typedef struct kp__cmd {
	kp_disruption_command pub;
	kp__ptrs cands, repls, moves;
	kp__ptrs repl_ofs; /* per replacement: its launch offering (const kp_offering *, or NULL) */
	kp__dnode **dn;  /* the candidates' state nodes (valid for the pass only) */
	size_t n_dn;
	kp_nodeclaim **owned_ncs;
	size_t n_owned_ncs;
	char **strs;     /* owned strings */
	size_t n_strs, cap_strs;
} kp__cmd;

void kp__cmd_free(kp__cmd *c);
char *kp__cmd_strdup(kp__cmd *c, const char *s);

/* Run the methods in order; *out is the first command (NULL if none). In
 * explain mode every method runs on every candidate to explain nodes. */
int kp__methods_run(kp__dstate *st, uint32_t pass, kp__cmd **out, kp_error *err);

/* Consolidatable state of a NodeClaim (budgets.c). */
const kp_condition *kp__nc_condition(const kp_nodeclaim *nc, const char *type);

#endif
