/*
 * libkarpenter: disruption — emptiness, drift, multi- and single-node
 * consolidation under NodePool disruption budgets, as upstream
 * kubernetes-sigs/karpenter pkg/controllers/disruption decides them, as pure
 * functions over a cluster (kp_cluster_spec) and a clock (now_ms).
 *
 * - kp_disruption_consolidatable: the Consolidatable condition of a
 *   NodeClaim (upstream's NodeClaim disruption controller), self-contained.
 * - kp_disruption_budget_allowed: the disruptions a NodePool's budgets allow
 *   for one reason (upstream NodePool.MustGetAllowedDisruptions).
 * - kp_disruption_run: one or more disruption passes (upstream's controller
 *   loop: Emptiness, Drift, MultiNodeConsolidation, SingleNodeConsolidation,
 *   the first method with a command wins the pass), with every node
 *   explained: whether it is a candidate, empty, drifted, consolidatable,
 *   and each reason it was not disrupted, with a stable code and upstream's
 *   message.
 * - kp_disruption_result_write: that result as the document
 *   `kubectl-karpenter disrupt -o json|yaml` prints (karpenter/emitter.h).
 *
 * Decisions go through the scheduling simulation (kp_cluster_new and
 * kp_sched_simulate with removed_nodes); where upstream waits (the 15 s
 * re-validation of a command) this re-checks on the same snapshot: nothing
 * blocks and nothing reads a clock.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_DISRUPTION_H
#define KARPENTER_DISRUPTION_H

#include <karpenter/common.h>
#include <karpenter/objects.h>
#include <karpenter/nodepool.h>
#include <karpenter/nodeclaim.h>
#include <karpenter/cloudprovider.h>
#include <karpenter/scheduling.h>

KP_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* Consolidatable                                                      */
/* ------------------------------------------------------------------ */

/** kp_disruption_consolidatable's state. Values are never renumbered. @since 0.1 */
enum kp_consolidatable_state {
	KP_CONSOLIDATABLE_TRUE = 1,            /**< consolidatable since *since_ms */
	KP_CONSOLIDATABLE_DISABLED = 2,        /**< consolidateAfter is Never (or unset) */
	KP_CONSOLIDATABLE_NOT_INITIALIZED = 3, /**< the Initialized condition is not True */
	KP_CONSOLIDATABLE_WAITING = 4          /**< inside consolidateAfter: consolidatable at *since_ms */
};

/**
 * @brief The Consolidatable condition of a NodeClaim at @p now_ms, as
 *        upstream's NodeClaim disruption controller sets it.
 *
 * The clock starts at status.lastPodEventTime, or, when it is absent, at
 * the lastTransitionTime of the Initialized condition; the NodeClaim is
 * consolidatable once consolidateAfter has elapsed (a consolidateAfter of
 * 0s: at once). A Consolidatable condition in the input is not read.
 * @param[out] out_state a kp_consolidatable_state
 * @param[out] out_since_ms with KP_CONSOLIDATABLE_TRUE or _WAITING: when the
 *             window ends (ends/ended); else 0. May be NULL.
 * @param[in] nodeclaim the NodeClaim
 * @param[in] nodepool its NodePool (defaults applied)
 * @param[in] now_ms the clock, Unix milliseconds
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL argument; consolidateAfter written but not
 *         parsed: the field names it)
 * @since 0.1
 * Ownership: inputs are only read.
 * Thread-safety: safe.
 */
int kp_disruption_consolidatable(uint32_t *out_state, int64_t *out_since_ms,
				 const kp_nodeclaim *nodeclaim, const kp_nodepool *nodepool,
				 int64_t now_ms, kp_error *err);

/* ------------------------------------------------------------------ */
/* Budgets                                                             */
/* ------------------------------------------------------------------ */

/** Budget value when no active budget limits a reason (upstream math.MaxInt32). @since 0.1 */
#define KP_DISRUPTION_UNLIMITED 2147483647

/** DisruptionReason "Empty". @since 0.1 */
#define KP_DISRUPTION_REASON_EMPTY "Empty"
/** DisruptionReason "Drifted". @since 0.1 */
#define KP_DISRUPTION_REASON_DRIFTED "Drifted"
/** DisruptionReason "Underutilized". @since 0.1 */
#define KP_DISRUPTION_REASON_UNDERUTILIZED "Underutilized"

/**
 * @brief The disruptions a NodePool's budgets allow for one reason
 *        (upstream NodePool.MustGetAllowedDisruptions).
 *
 * Every budget is evaluated; the minimum is taken over those whose reasons
 * are unset or list @p reason, each active one allowing its nodes value
 * (a count, or a percentage of @p num_nodes rounded up), an inactive one
 * KP_DISRUPTION_UNLIMITED. Fail closed as upstream: a budget whose schedule
 * or duration cannot be parsed (or whose nodes value is malformed) makes
 * the whole NodePool allow 0, for every reason.
 * @param[out] out_allowed the allowed disruptions (KP_DISRUPTION_UNLIMITED
 *             when nothing limits them); set to 0 on KP_EPARSE/KP_ERANGE
 *             (fail closed) and untouched on KP_EINVAL
 * @param[in] nodepool the NodePool (defaults applied)
 * @param[in] reason "Empty", "Drifted" or "Underutilized"
 * @param[in] num_nodes the NodePool's managed, initialized nodes
 * @param[in] now_ms the clock, Unix milliseconds
 * @param[out] err optional error detail; on a bad budget its field is
 *             "spec.disruption.budgets[i].schedule" (or .duration, .nodes)
 * @return KP_OK, KP_EINVAL (NULL argument), KP_EPARSE or KP_ERANGE (a bad
 *         budget: *out_allowed is 0)
 * @since 0.1
 * Ownership: inputs are only read.
 * Thread-safety: safe.
 */
int kp_disruption_budget_allowed(int64_t *out_allowed, const kp_nodepool *nodepool,
				 const char *reason, int64_t num_nodes, int64_t now_ms,
				 kp_error *err);

/* ------------------------------------------------------------------ */
/* Passes                                                              */
/* ------------------------------------------------------------------ */

/** Disruption methods, in upstream main's order. @since 0.1 */
enum kp_disruption_method {
	KP_DISRUPTION_METHOD_NONE = 0,
	KP_DISRUPTION_METHOD_EMPTINESS = 1,     /**< "Emptiness" */
	KP_DISRUPTION_METHOD_DRIFT = 2,         /**< "Drift" */
	KP_DISRUPTION_METHOD_MULTI_NODE = 3,    /**< "MultiNodeConsolidation" */
	KP_DISRUPTION_METHOD_SINGLE_NODE = 4    /**< "SingleNodeConsolidation" */
};

/** A command's decision. @since 0.1 */
enum kp_disruption_decision {
	KP_DISRUPTION_NOOP = 0,    /**< "no-op" */
	KP_DISRUPTION_DELETE = 1,  /**< "delete" */
	KP_DISRUPTION_REPLACE = 2  /**< "replace" */
};

/**
 * @brief Why a node was not disrupted. Codes are stable; names are what
 *        kp_disruption_block_code_name returns. Values never renumbered.
 * @since 0.1
 */
enum kp_disruption_block_code {
	KP_BLOCK_NONE = 0,
	KP_BLOCK_UNMANAGED = 1,                /**< "Unmanaged": no NodeClaim */
	KP_BLOCK_NOT_INITIALIZED = 2,          /**< "NotInitialized": no Node, or not initialized */
	KP_BLOCK_DELETING = 3,                 /**< "Deleting" */
	KP_BLOCK_NODEPOOL_NOT_FOUND = 4,       /**< "NodePoolNotFound" (or no nodepool label) */
	KP_BLOCK_DO_NOT_DISRUPT = 5,           /**< "DoNotDisrupt" (node, or a pod: named) */
	KP_BLOCK_PDB = 6,                      /**< "PodDisruptionBudget" (names the PDB and pod) */
	KP_BLOCK_BUDGET = 7,                   /**< "Budget" (names the NodePool and reason) */
	KP_BLOCK_CONSOLIDATION_DISABLED = 8,   /**< "ConsolidationDisabled" (consolidateAfter Never) */
	KP_BLOCK_CONSOLIDATE_AFTER = 9,        /**< "ConsolidateAfter" (with the time) */
	KP_BLOCK_WHEN_EMPTY = 10,              /**< "WhenEmpty": policy WhenEmpty, node not empty */
	KP_BLOCK_PODS_WOULD_NOT_SCHEDULE = 11, /**< "PodsWouldNotSchedule" (a pod and its codes) */
	KP_BLOCK_NO_CHEAPER_REPLACEMENT = 12,  /**< "NoCheaperReplacement" */
	KP_BLOCK_MULTIPLE_REPLACEMENTS = 13,   /**< "MultipleReplacements" */
	KP_BLOCK_SPOT_TO_SPOT = 14,            /**< "SpotToSpot" */
	KP_BLOCK_INSTANCE_TYPE_NOT_FOUND = 15, /**< "InstanceTypeNotFound" (or a missing label) */
	KP_BLOCK_UNINITIALIZED_DESTINATION = 16, /**< "UninitializedDestination" */
	KP_BLOCK_NOT_DRIFTED = 17,             /**< "NotDrifted": Drift does not apply */
	KP_BLOCK_NOT_EMPTY = 18,               /**< "NotEmpty": Emptiness does not apply */
	KP_BLOCK_OTHER_COMMAND = 19,           /**< "NotSelected": a candidate, but the pass's
	                                            command is elsewhere */
	KP_BLOCK_CONSOLIDATE_AFTER_DESTINATION = 20 /**< "ConsolidateAfterDestination": reserved,
	                                            no longer produced: consolidation's simulation
	                                            now skips such destinations, as upstream's */,
	KP_BLOCK_STATIC_NODEPOOL = 21          /**< "StaticNodePool": the NodePool sets
	                                            spec.replicas; Emptiness, Drift and consolidation
	                                            skip its nodes (upstream's StaticDrift is not
	                                            modelled) */
};

/** Flags of kp_disruption_options. @since 0.1 */
enum kp_disruption_flags {
	/* 1u << 0 was the SpotToSpotConsolidation gate, now
	 * KP_FEATURE_GATE_SPOT_TO_SPOT_CONSOLIDATION in feature_gates */
	/** Run passes until one finds no command (at most max_passes when
	 *  it is not 0, and never more than the number of nodes plus one). */
	KP_DISRUPTION_F_CONVERGE = 1u << 1,
	/** Do not explain the nodes: each pass stops at the first command, as
	 *  upstream's loop does (the result then has no nodes, only commands,
	 *  budgets and costs). For controllers and benchmarks. */
	KP_DISRUPTION_F_NO_EXPLAIN = 1u << 2
};

/**
 * @brief Options of kp_disruption_run. Caller-filled, size-tagged.
 * @since 0.1
 */
typedef struct kp_disruption_options {
	uint32_t struct_size;  /**< sizeof(kp_disruption_options) */
	uint32_t flags;        /**< kp_disruption_flags */
	uint32_t max_passes;   /**< passes to run; 0 = 1 (without KP_DISRUPTION_F_CONVERGE) */
	uint32_t feature_gates; /**< kp_feature_gate bits (common.h); disruption reads
	                             KP_FEATURE_GATE_SPOT_TO_SPOT_CONSOLIDATION */
	/** Provider drift (kp_cloudprovider_is_drifted), or NULL: not checked. */
	kp_cloudprovider *cloudprovider;
} kp_disruption_options;

/** Static initializer for kp_disruption_options. @since 0.1 */
#define KP_DISRUPTION_OPTIONS_INIT { sizeof(kp_disruption_options), 0, 0, 0, NULL }

/**
 * @brief Initialize @p opts as KP_DISRUPTION_OPTIONS_INIT does (for FFI).
 * @param[out] opts the struct to fill; NULL is ignored
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_disruption_options_init(kp_disruption_options *opts);

/** One reason a node was not disrupted. Library-made. @since 0.1 */
typedef struct kp_disruption_why {
	uint32_t struct_size; /**< as filled by the library */
	uint32_t code;        /**< a kp_disruption_block_code */
	uint32_t method;      /**< the kp_disruption_method it concerns; NONE = every method */
	uint32_t reserved;    /**< zero */
	const char *message;  /**< upstream's message */
} kp_disruption_why;

/** A node of the input, explained (at the first pass). Library-made. @since 0.1 */
typedef struct kp_disruption_node {
	uint32_t struct_size;     /**< as filled by the library */
	uint32_t candidate;       /**< 1 if a candidate for at least one disruption class */
	uint32_t empty;           /**< 1 if empty (upstream main's IsEmpty) */
	uint32_t drifted;         /**< 1 if drifted */
	uint32_t consolidatable;  /**< 1 if Consolidatable at now_ms */
	uint32_t reserved;        /**< zero */
	const char *nodeclaim;    /**< NodeClaim name, or NULL */
	const char *node;         /**< Node name, or NULL */
	const char *nodepool;     /**< NodePool name (label), or NULL */
	const char *drift_reason; /**< "NodePoolDrifted", ... when drifted, else NULL */
	const char *drift_message; /**< explanation when drifted, else NULL */
	const kp_disruption_why *const *reasons; /**< why not disrupted, method by method */
	size_t n_reasons;         /**< number of reasons */
	int64_t consolidatable_at_ms; /**< when it is/becomes consolidatable (0: never/unknown) */
} kp_disruption_node;

/** A candidate of a command. Library-made. @since 0.1 */
typedef struct kp_disruption_candidate {
	uint32_t struct_size;      /**< as filled by the library */
	uint32_t reserved;         /**< zero */
	const char *nodeclaim;     /**< NodeClaim name */
	const char *node;          /**< Node name */
	const char *nodepool;      /**< NodePool name */
	const char *instance_type; /**< instance type label, or NULL */
	const char *zone;          /**< zone label, or NULL */
	const char *capacity_type; /**< capacity type label, or NULL */
	double price;              /**< hourly price of its offering (0 when unknown) */
} kp_disruption_candidate;

/** A replacement NodeClaim of a command. Library-made. @since 0.1 */
typedef struct kp_disruption_replacement {
	uint32_t struct_size;         /**< as filled by the library */
	uint32_t reserved;            /**< zero */
	const kp_nodeclaim *nodeclaim; /**< the NodeClaim as the simulation builds it, with the
	                                   launch choice's labels (instance type, zone,
	                                   capacity type, nodepool) and, when both capacity
	                                   types were allowed, restricted to spot */
	const char *nodepool;         /**< its NodePool */
	const char *instance_type;    /**< the launch choice */
	const char *zone;             /**< the launch choice's zone */
	const char *capacity_type;    /**< the launch choice's capacity type */
	double price;                 /**< the launch choice's hourly price */
} kp_disruption_replacement;

/** Where a pod of a candidate goes. Library-made. @since 0.1 */
typedef struct kp_disruption_move {
	uint32_t struct_size;   /**< as filled by the library */
	uint32_t reserved;      /**< zero */
	const char *namespace_; /**< pod namespace */
	const char *name;       /**< pod name */
	const char *from;       /**< the candidate node it leaves */
	const char *nodeclaim;  /**< a replacement or in-flight NodeClaim, or NULL */
	const char *node;       /**< an existing node, or NULL */
} kp_disruption_move;

/** A disruption command. Library-made. @since 0.1 */
typedef struct kp_disruption_command {
	uint32_t struct_size; /**< as filled by the library */
	uint32_t pass;        /**< 1-based pass number */
	uint32_t method;      /**< a kp_disruption_method */
	uint32_t decision;    /**< a kp_disruption_decision */
	const char *reason;   /**< "Empty", "Drifted" or "Underutilized" */
	const kp_disruption_candidate *const *candidates; /**< the candidates */
	size_t n_candidates;  /**< number of candidates */
	const kp_disruption_replacement *const *replacements; /**< the replacements */
	size_t n_replacements; /**< number of replacements */
	const kp_disruption_move *const *moves; /**< the candidates' reschedulable pods */
	size_t n_moves;       /**< number of moves */
	double savings;       /**< candidates' prices minus replacements' prices, $/h */
} kp_disruption_command;

/** A NodePool's budget for one reason, at the first pass. Library-made. @since 0.1 */
typedef struct kp_disruption_budget_status {
	uint32_t struct_size; /**< as filled by the library */
	uint32_t limited;     /**< 0 when no budget limits the reason (allowed is then
	                           KP_DISRUPTION_UNLIMITED) */
	const char *nodepool; /**< NodePool name */
	const char *reason;   /**< "Empty", "Drifted" or "Underutilized" */
	int64_t allowed;      /**< minimum over the active budgets, before subtraction */
	int64_t disrupting;   /**< nodes already disrupting (not Ready, or deleting) */
	int64_t remaining;    /**< max(allowed - disrupting, 0) */
	const char *error;    /**< why the NodePool fails closed (a bad budget), or NULL */
} kp_disruption_budget_status;

/** The result of kp_disruption_run. Opaque. */
typedef struct kp_disruption_result kp_disruption_result;

/**
 * @brief Run disruption passes over a cluster.
 *
 * The clock is @p spec->now_ms. Each pass builds a snapshot (kp_cluster_new),
 * finds the candidates of each method and runs the methods in upstream's
 * order; the first method that finds a command ends the pass. Between
 * passes the command is applied as if it completed: its candidates (Node,
 * NodeClaim) are gone, its replacements are launched, registered and
 * initialized at now_ms (named as the simulation named them) and the
 * candidates' pods are bound where the simulation placed them.
 * @param[out] out the result; NULL on failure
 * @param[in] spec the cluster (NodePools with the CRD defaults applied)
 * @param[in] opts options, or NULL for KP_DISRUPTION_OPTIONS_INIT
 * @param[out] err optional error detail
 * @return KP_OK (whether or not anything is disrupted), KP_EINVAL (as
 *         kp_cluster_new; reserved fields; unknown flags), KP_EVERSION,
 *         KP_ENOMEM
 * @since 0.1
 * Ownership: the caller owns *out (kp_disruption_result_free); nothing of
 * @p spec is kept except references on its instance-type catalogues and
 * well-known handle, which must outlive the result.
 * Thread-safety: safe.
 */
int kp_disruption_run(kp_disruption_result **out, const kp_cluster_spec *spec,
		      const kp_disruption_options *opts, kp_error *err);

/**
 * @brief Release a result (NULL-safe).
 * @param[in] result the result, or NULL
 * @since 0.1
 * Thread-safety: needs exclusive access to @p result.
 */
void kp_disruption_result_free(kp_disruption_result *result);

/**
 * @brief Number of commands, one per productive pass, in pass order.
 * @param[in] result the result, or NULL (0)
 * @since 0.1
 * Thread-safety: safe.
 */
size_t kp_disruption_result_command_count(const kp_disruption_result *result);

/**
 * @brief Command @p index.
 * @param[in] result the result
 * @param[in] index 0 .. kp_disruption_result_command_count() - 1
 * @return the command, or NULL when out of range or @p result is NULL
 * @since 0.1
 * Ownership: borrowed from the result.
 * Thread-safety: safe.
 */
const kp_disruption_command *kp_disruption_result_command_at(const kp_disruption_result *result,
							  size_t index);

/**
 * @brief Number of explained nodes: every Node and NodeClaim of the input
 *        at the first pass, sorted by name (0 with KP_DISRUPTION_F_NO_EXPLAIN).
 * @param[in] result the result, or NULL (0)
 * @since 0.1
 * Thread-safety: safe.
 */
size_t kp_disruption_result_node_count(const kp_disruption_result *result);

/**
 * @brief Explained node @p index.
 * @param[in] result the result
 * @param[in] index 0 .. kp_disruption_result_node_count() - 1
 * @return the node, or NULL when out of range or @p result is NULL
 * @since 0.1
 * Ownership: borrowed from the result.
 * Thread-safety: safe.
 */
const kp_disruption_node *kp_disruption_result_node_at(const kp_disruption_result *result,
						    size_t index);

/**
 * @brief Number of budget entries at the first pass: NodePools by name,
 *        each with Empty, Drifted, Underutilized.
 * @param[in] result the result, or NULL (0)
 * @since 0.1
 * Thread-safety: safe.
 */
size_t kp_disruption_result_budget_count(const kp_disruption_result *result);

/**
 * @brief Budget entry @p index.
 * @param[in] result the result
 * @param[in] index 0 .. kp_disruption_result_budget_count() - 1
 * @return the entry, or NULL when out of range or @p result is NULL
 * @since 0.1
 * Ownership: borrowed from the result.
 * Thread-safety: safe.
 */
const kp_disruption_budget_status *kp_disruption_result_budget_at(const kp_disruption_result *result,
							       size_t index);

/**
 * @brief Hourly cost of the managed, not deleting nodes before the first
 *        pass and after the last command (each node at its offering's
 *        price; unknown prices count 0).
 * @param[in] result the result, or NULL (both 0)
 * @param[out] before may be NULL
 * @param[out] after may be NULL
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_disruption_result_cost(const kp_disruption_result *result, double *before, double *after);

/**
 * @brief Name of a method: "Emptiness", "Drift", "MultiNodeConsolidation",
 *        "SingleNodeConsolidation"; "" for KP_DISRUPTION_METHOD_NONE.
 * @param[in] method a kp_disruption_method
 * @return static text, never NULL; "Unknown" for another value
 * @since 0.1
 * Thread-safety: safe.
 */
const char *kp_disruption_method_name(uint32_t method);

/**
 * @brief Name of a decision: "delete", "replace", "no-op".
 * @param[in] decision a kp_disruption_decision
 * @return static text, never NULL; "Unknown" for another value
 * @since 0.1
 * Thread-safety: safe.
 */
const char *kp_disruption_decision_name(uint32_t decision);

/**
 * @brief Stable name of a block code ("Unmanaged", "Budget", ...).
 * @param[in] code a kp_disruption_block_code
 * @return static text, never NULL; "Unknown" for another value
 * @since 0.1
 * Thread-safety: safe.
 */
const char *kp_disruption_block_code_name(uint32_t code);

/**
 * @brief Write @p result as one document: the one `kubectl-karpenter
 *        disrupt -o json|yaml` prints, whose members the README lists
 *        ("disrupt JSON output"; a contract: members are only ever added).
 *        `now` (RFC 3339), `commands[]` (`pass`, `method`, `reason`,
 *        `decision`, `candidates[]`, `replacements[]` with each `nodeClaim`
 *        written from its struct and its `price`, `pods[]`, `savings`),
 *        `nodes[]` (with `drifted` and `reasons[]`), `budgets[]` and
 *        `cost` (`before`, `after`).
 * @param[in,out] em the emitter the document is written into (as one
 *        value: the document itself, or a member's value)
 * @param[in] result the result
 * @param[in] now_ms the clock the result was computed at (the run's
 *        spec->now_ms), written as `now`
 * @param[out] err optional error detail; a number that is not finite is
 *        named by its path in the document (field
 *        "commands[0].candidates[1].price", "cost.after", ...)
 * @return KP_OK; KP_EINVAL (NULL argument; a price, savings or cost that
 *         is not a finite number: checked before anything is written, so
 *         nothing is); the emitter's error
 * @since 0.1
 * Thread-safety: safe for distinct emitters.
 */
int kp_disruption_result_write(kp_emitter *em, const kp_disruption_result *result, int64_t now_ms,
			       kp_error *err);

KP_END_DECLS

#endif /* KARPENTER_DISRUPTION_H */
