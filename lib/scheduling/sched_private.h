/*
 * libkarpenter private: the scheduling simulation's compiled snapshot and
 * per-simulation state. Never installed.
 *
 * Layout of the module:
 *   sched_util.c  arena, string interning (on common/map.h), key buffers, the
 *                 snapshot's owned requirement sets
 *   itindex.c     catalogue indexes: offering pairs, requirement columns
 *   cluster.c     kp_cluster_new: compiles the snapshot (nodes, pools,
 *                 instance types, daemon overhead groups)
 *   podclass.c    pods -> canonical pod classes and their relaxation chain
 *                 (upstream preferences.go), provisionability (Validate)
 *   volumes.c     volume topology, claim validation, CSI attach limits
 *   topology.c    topology spread, pod affinity / anti-affinity
 *                 (upstream topology*.go)
 *   fits.c        feasibility checks with structured verdicts (sc_fit)
 *                 and their reason texts
 *   reservations.c reserved capacity (upstream reservationmanager.go and
 *                 NodeClaim's reserved offerings)
 *   simulate.c    the simulation loop: queue, existing nodes, NodeClaims
 *   result.c      finalization, NodeClaim objects, reasons, accessors
 *   sched.c       kp_sched_simulate: runs simulate.c, then result.c
 * No two files call each other, directly or round a loop
 * (tests/lint/check-layering.py): cluster.c builds on podclass.c,
 * topology.c and volumes.c; result.c explains with simulate.c's checks;
 * sched.c drives simulate.c and result.c; simulate.c and result.c decide and
 * explain with fits.c.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_SCHED_PRIVATE_H
#define KP_SCHED_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include <karpenter/scheduling.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/map.h"
#include "sched_index.h"
#include "kp_internal.h"

/* ------------------------------------------------------------------ */
/* Arena: bump allocation for everything a snapshot or a result keeps  */

/* The arena: lib/common/arena.h. */
typedef kp__arena sc_arena;

/* String interning: id <-> string. */
typedef struct sc_strtab {
	kp__map map;
	const char **strs;
	size_t n, cap;
} sc_strtab;
int kp__strtab_intern(sc_strtab *t, const char *s, uint32_t *id);
int kp__strtab_find(const sc_strtab *t, const char *s, uint32_t *id);
void kp__strtab_free(sc_strtab *t);

/* The string buffer (common/buf.h), also for the canonical keys: binary
 * fields appended with these. */
typedef kp__buf sc_buf;
void kp__buf_str(sc_buf *b, const char *s); /* length-prefixed; NULL != "" */
void kp__buf_u32(sc_buf *b, uint32_t v);
void kp__buf_i64(sc_buf *b, int64_t v);

/* ------------------------------------------------------------------ */
/* Resources: interned names, int64 vectors                            */

#define SC_RES_PODS 0 /* "pods" is always resource 0 */

/*
 * Unit of a resource's int64 values, as a power of ten: whole bytes (0) for
 * memory, ephemeral-storage, storage and hugepages-*, as kube-scheduler keeps
 * them, so that quantities up to 8 EiB stay exact (NodePool limits such as
 * 10000000Gi overflow int64 thousandths of a byte); thousandths (-3) for
 * everything else (cpu, pods, nodes, extended resources).
 */
int kp__res_exponent(const char *name);
/* q in that unit, rounded up as Quantity.ScaledValue; saturates on overflow. */
int64_t kp__res_value(const char *name, const kp_quantity *q);

/* Saturating arithmetic on resource values. */
static inline int64_t kp__sat_add(int64_t a, int64_t b)
{
	if (b > 0 && a > INT64_MAX - b)
		return INT64_MAX;
	if (b < 0 && a < INT64_MIN - b)
		return INT64_MIN;
	return a + b;
}

/* ------------------------------------------------------------------ */
/* The snapshot                                                        */

/* A host port (upstream HostPort): IP (16 bytes, v4 mapped), port, protocol. */
typedef struct sc_port {
	uint8_t ip[16];
	int32_t port;
	uint32_t proto; /* interned protocol string id */
	uint32_t unspecified;
	uint32_t owner; /* pod index (for "same pod" exclusion) */
} sc_port;

/* A volume a pod mounts, for CSI attach limits (upstream Volumes). */
typedef struct sc_vol {
	uint32_t driver; /* interned driver id */
	uint32_t pvc;    /* interned "namespace/name" id */
} sc_vol;

/* A compiled instance type of a catalogue. */
typedef struct sc_it {
	const kp_instance_type *it;
	int64_t *alloc;    /* n_res, milli */
	int64_t *capacity; /* n_res, milli */
	int alloc_negative;
	double min_price;  /* cheapest available offering (any requirements), DBL_MAX if none */
} sc_it;

/* One label key of a catalogue's instance types, as a column: the distinct
 * requirement blocks on the key and, per instance type, which one it has. */
typedef struct sc_column {
	const char *key;
	kp_requirement **blocks;
	size_t n_blocks;
	int32_t *of_it;            /* per instance type: block index, -1 when undefined */
} sc_column;

typedef struct sc_catalog {
	kp_instance_types *its; /* a reference */
	sc_it *items;
	size_t n;
	/* offerings as (zone, capacity type) pairs: an offering whose
	 * requirements are exactly its zone and capacity type is "standard";
	 * its compatibility with a requirement set is decided by two lookups */
	const char **zones;
	size_t n_zones;
	const char **cts;
	size_t n_cts;
	uint64_t *std_mask;        /* per instance type: pairs of available standard offerings */
	uint8_t *nonstd;           /* per instance type: has another kind of offering */
	uint16_t **off_pair;       /* per instance type, per offering: pair, UINT16_MAX if not standard */
	int pairs_ok;              /* zones x cts fits 64 bits */
	int all_std;               /* every available offering is standard */
	uint32_t *by_name;         /* instance types in name order */
	sc_column *cols;           /* sorted by key */
	size_t n_cols;
	size_t max_blocks;
	/* available reserved offerings (reservations.c): instance type i has
	 * resv_offs[resv_first[i] .. resv_first[i + 1]); NULL when none */
	uint32_t *resv_first;
	struct sc_resv_off *resv_offs;
	const char **resv_extra;   /* keys of their requirements besides zone and capacity type */
	size_t n_resv_extra;
} sc_catalog;

/* An available offering of capacity type "reserved" and its reservation. */
struct sc_resv_off {
	uint32_t off;              /* offering index in its instance type */
	uint32_t resv;             /* reservation (kp_cluster::resv_ids) */
	uint16_t pair;             /* its (zone, capacity type) pair when by_pair */
	uint16_t by_pair;          /* kp__cat_offering_pair decides it */
};

/* The offering pairs a requirement set allows (catalog.c). */
uint64_t kp__cat_allowed_pairs(const sc_catalog *cat, kp_requirements *reqs);
/* upstream offering.Available && reqs.IsCompatible(offering.Requirements) */
int kp__cat_offering_ok(const struct kp_cluster *c, const sc_catalog *cat, size_t it, size_t o,
			uint64_t allowed, kp_requirements *reqs);
/* Whether instance type @p it has an available compatible offering. */
int kp__cat_has_offering(const struct kp_cluster *c, const sc_catalog *cat, size_t it,
			 uint64_t allowed, kp_requirements *reqs);
/* Cheapest available compatible offering (first on ties), or -1. */
int kp__cat_cheapest(const struct kp_cluster *c, const sc_catalog *cat, size_t it, uint64_t allowed,
		     kp_requirements *reqs);
int kp__cat_compile(struct kp_cluster *c, sc_catalog *cat);
/* Whether @p of's compatibility with a requirement set that defines none
 * of its other keys is that of its (zone, capacity type) pair: its zone and
 * capacity type requirements are exact and its other keys well known
 * (undefined, they are allowed). 1 with *pair set, else 0. */
int kp__cat_offering_pair(const struct kp_cluster *c, const sc_catalog *cat,
			  const kp_offering *of, uint16_t *pair);

/* Instance-type compatibility with one requirement set (upstream
 * it.Requirements.Intersects(reqs)), evaluated column by column. */
typedef struct sc_itcompat {
	const sc_catalog *cat;
	size_t n;                  /* columns the set constrains */
	const sc_column **col;
	kp_requirement **req;
	int8_t **ok;               /* per column: per block -1 unknown, 0, 1 */
	int8_t *mem;
	size_t cap_cols;
} sc_itcompat;
int kp__itcompat_init(sc_itcompat *x, const sc_catalog *cat, kp_requirements *reqs);
int kp__itcompat_ok(sc_itcompat *x, size_t it);
void kp__itcompat_dispose(sc_itcompat *x);

/* Upstream DaemonOverheadGroup: instance types sharing one set of compatible daemons. */
typedef struct sc_dgroup {
	int64_t *overhead; /* n_res; NULL when no daemon is compatible */
	sc_port *ports;
	size_t n_ports;
} sc_dgroup;

/* A NodePool turned into a NodeClaim template. */
typedef struct sc_pool {
	const char *name;
	const kp_nodepool *np;      /* the snapshot's deep copy */
	uint32_t index;             /* position in spec->nodepools */
	int32_t weight;
	uint32_t usable;            /* 1 when it provisions (ready, has instance types) */
	uint32_t unusable_code;     /* reason code when not usable */
	const char *unusable_msg;
	kp_requirements *reqs;      /* template requirements (upstream NewNodeClaimTemplate) */
	kp_taint *taints;
	size_t n_taints;
	int has_prefer_no_schedule;
	sc_catalog *cat;
	uint32_t *opts;             /* instance types (catalogue indices) left by the template filter */
	size_t n_opts;
	uint32_t *it_group;         /* per catalogue index: daemon group (UINT32_MAX = not an option) */
	sc_dgroup *groups;
	size_t n_groups;
	int has_limits;
	int64_t *limits;            /* n_res */
	uint8_t *limited;           /* n_res: 1 when the resource has a limit */
	int64_t *usage;             /* n_res: capacity of active existing nodes of the pool */
	const char *hash;           /* karpenter.sh/nodepool-hash value */
	const char *nodeclass_label_key; /* "<group>/<kind lowercased>" or NULL */
	const char *nodeclass_key_problem; /* why that key is not a valid label key, or NULL */
} sc_pool;

/* An existing Node or in-flight NodeClaim (upstream StateNode). */
typedef struct sc_node {
	const char *name;
	const char *hostname;
	const kp_node *node;           /* may be NULL (NodeClaim only) */
	const kp_nodeclaim *nodeclaim; /* may be NULL (unmanaged node) */
	int32_t pool;                  /* pool index or -1 */
	uint32_t initialized, managed, deleting, inflight;
	kp_requirements *reqs;         /* labels + hostname In [hostname] */
	kp_labels labels;              /* effective labels (borrowed from the objects) */
	kp_taint *taints;              /* effective taints */
	size_t n_taints;
	int64_t *avail;                /* allocatable - requests of bound pods */
	int64_t *ds_pending;           /* daemon requests still to come, clamped >= 0 */
	int64_t *capacity;             /* for NodePool limits, includes nodes: 1 */
	sc_port *ports;                /* host ports of bound pods */
	size_t n_ports;
	sc_vol *vols;                  /* volumes of bound pods */
	size_t n_vols;
	uint32_t *vol_limit_driver;    /* CSINode attach limits */
	int64_t *vol_limit;
	size_t n_vol_limits;
	int vol_over;                  /* bound volumes already exceed a limit */
	uint32_t *pods;                /* bound pods (indices) */
	size_t n_pods;
} sc_node;

/* A topology group a pod of a variant is checked against, with what the
 * quick pre-check needs (topology.c). */
typedef struct sc_qk {
	uint32_t g;
	uint8_t self;      /* the group selects the pod */
	uint8_t pod_key;   /* the pod's strict requirements define the key */
	uint8_t hostname;
	uint8_t type;
} sc_qk;

/* One step of a pod class's relaxation chain (upstream Preferences.Relax). */
typedef struct sc_variant {
	kp_requirements *reqs;    /* NewPodRequirements: selector + heaviest preference + first required term */
	kp_requirements *strict;  /* NewStrictPodRequirements */
	const kp_toleration *tols;
	size_t n_tols;
	uint32_t *groups;         /* topology groups owned (indices into the cluster's group table) */
	size_t n_groups;
	const char *relaxed;      /* what this step removed, NULL for the first */
	uint32_t id;              /* index among all variants of the snapshot */
	sc_qk *qk;                /* owned groups, then inverse groups selecting the pod */
	size_t n_qk;
} sc_variant;

/* Pods with identical scheduling constraints. */
typedef struct sc_class {
	const kp_pod *rep;        /* representative (snapshot copy) */
	uint32_t ns;              /* interned namespace */
	const char *bad;          /* not provisionable: why (upstream Validate), else NULL */
	const char *bad_field;
	sc_variant *variants;
	size_t n_variants;
	uint32_t *inverse;        /* inverse anti-affinity groups (required anti-affinity terms) */
	size_t n_inverse;
	sc_port *ports;           /* host ports (owner unset) */
	size_t n_ports;
	sc_vol *vols;             /* volumes (CSI drivers) */
	size_t n_vols;
	kp_requirements **vol_reqs; /* volume topology alternatives (NULL entries allowed) */
	size_t n_vol_reqs;
	uint32_t topo;            /* 1 when topology may matter (owns or is selected by a group) */
	uint32_t *sel_groups;     /* groups (regular and inverse) that select its pods */
	size_t n_sel_groups;
} sc_class;

/* A pod of the snapshot. */
typedef struct sc_pod {
	const kp_pod *pod;        /* the caller's, during kp_cluster_new only (NULL after) */
	const char *ns, *name, *uid;
	int64_t created_ms;
	uint32_t cls;
	int32_t node;             /* bound node index, -1 when pending */
	uint32_t state;           /* SC_POD_* */
	uint32_t ignored_why;     /* SC_IGNORED_* when SC_POD_IGNORED (kp_cluster_describe) */
	int64_t *req;             /* n_res */
	const kp_resource_list *req_list; /* requests as quantities (for NodeClaim requests) */
} sc_pod;

enum {
	SC_POD_PENDING = 1u << 0,      /* provisionable pending pod */
	SC_POD_BOUND = 1u << 1,        /* counts on its node */
	SC_POD_RESCHEDULABLE = 1u << 2,/* moves when its node goes (upstream IsReschedulable) */
	SC_POD_DAEMON = 1u << 3,       /* owned by a DaemonSet */
	SC_POD_IGNORED = 1u << 4,      /* not considered at all */
	SC_POD_TOPOLOGY = 1u << 5      /* counted for topology (scheduled, not terminal/terminating) */
};

/* Why a pod is not considered at all (upstream's pod filters). */
enum {
	SC_IGNORED_TERMINAL = 1,       /* phase Succeeded or Failed */
	SC_IGNORED_UNKNOWN_NODE,       /* bound to a node that is not in the snapshot */
	SC_IGNORED_DAEMON,             /* pending, owned by a DaemonSet */
	SC_IGNORED_MIRROR,             /* pending, a static pod's mirror (owned by a Node) */
	SC_IGNORED_PREEMPTING          /* pending with a nominated node */
};

/* Domains of one topology key offered by the NodePools (upstream
 * TopologyDomainGroup): domain i comes from pool[i], whose taints apply. */
struct sc_domgroups {
	const char *key;
	uint32_t *dom;
	uint32_t *pool;
	size_t n, cap_dom, cap_pool;
};

/* Topology group (upstream TopologyGroup), static part. */
enum { SC_TOPO_SPREAD = 0, SC_TOPO_AFFINITY = 1, SC_TOPO_ANTI = 2 };

/* A domain of a group in the snapshot: its count over bound pods, how many
 * existing nodes register it, whether a NodePool's instance types do. */
typedef struct sc_gdom {
	uint32_t dom;      /* interned value */
	int32_t cnt;
	int32_t reg_nodes;
	uint32_t reg_pool;
} sc_gdom;

typedef struct sc_group {
	uint32_t type;
	uint32_t inverse;          /* upstream inverseTopologyGroups */
	const char *key;           /* topology key */
	uint32_t key_id;           /* index in kp_cluster::topo_keys */
	int hostname;              /* key is kubernetes.io/hostname */
	int32_t max_skew;
	int32_t min_domains;       /* -1 when unset */
	uint32_t *namespaces;      /* sorted interned ids */
	size_t n_namespaces;
	const kp_label_selector *selector; /* NULL selects nothing */
	uint32_t selector_ok;      /* the selector passed kp_label_selector_validate (checked
	                              once: an invalid one selects nothing) */
	/* node filter (topology spread only) */
	uint32_t taint_honor, affinity_honor;
	kp_requirements **filter_reqs;
	size_t n_filter_reqs;
	const kp_toleration *tols;
	size_t n_tols;
	/* the snapshot's state (see topology.c) */
	sc_gdom *base;
	size_t n_base;
	int32_t base_owners;       /* inverse: bound pods owning it */
} sc_group;

/* The snapshot's part of topology (topology.c): the groups, their keys and
 * the NodePool domains per key. Read through the kp__topo_* functions
 * outside topology.c; released with kp__topo_snapshot_free. */
typedef struct sc_topo_snapshot {
	sc_group *groups;
	size_t n_groups, cap_groups;
	const char **topo_keys;    /* distinct topology keys (sc_group::key_id) */
	size_t n_topo_keys, cap_topo_keys;
	kp__map group_by_key;      /* canonical group definition -> group */
	struct sc_domgroups *domgroups; /* upstream buildDomainGroups, by key */
	size_t n_domgroups, cap_domgroups;
} sc_topo_snapshot;

struct kp_cluster {
	sc_arena arena;
	kp_wellknown *wk;          /* the caller's or NULL */
	int64_t now_ms;
	sc_strtab res;             /* resource names */
	sc_strtab str;             /* other interned strings: namespaces, keys, domains, drivers */
	size_t n_res;
	sc_catalog *cats;
	size_t n_cats;
	sc_pool *pools;            /* in spec order */
	size_t n_pools;
	uint32_t *pool_order;      /* upstream OrderByWeight */
	int tolerate_pns;          /* some pool has a PreferNoSchedule taint */
	uint32_t *res_fmt;         /* per resource: quantity format of the first request seen */
	size_t cap_res_fmt;
	sc_node *nodes;            /* in sort order: initialized first, then by name */
	size_t n_nodes;
	kp__map node_by_name;       /* state node and NodeClaim names -> node (removed_nodes) */
	kp__map node_by_node_name;  /* Node names -> state node (pods' spec.nodeName) */
	kp__map taken_names;        /* every Node and NodeClaim name of the input */
	sc_pod *pods;              /* spec order */
	size_t n_pods;
	kp__map pod_by_key;         /* "namespace/name" -> pod index */
	sc_class *classes;
	size_t n_classes;
	size_t n_variants;         /* over all classes (sc_variant::id) */
	kp_pod **daemons;          /* daemon pods (snapshot copies) */
	size_t n_daemons;
	int64_t **daemon_req;
	sc_port **daemon_ports;
	size_t *daemon_n_ports;
	sc_topo_snapshot topo;     /* topology groups (topology.c owns them) */
	kp_pod **owned_pods;       /* copies kept for classes */
	size_t n_owned_pods, cap_owned_pods;
	void *tmp_pairs, *tmp_dpairs; /* requests as (resource, milli) pairs during the build */
	kp_nodepool **owned_pools;
	size_t n_owned_pools;
	kp_node **owned_nodes;
	size_t n_owned_nodes, cap_owned_nodes;
	kp_nodeclaim **owned_nodeclaims;
	size_t n_owned_nodeclaims, cap_owned_nodeclaims;
	kp_namespace **namespaces; /* copies of the Namespaces with a name (namespaceSelector) */
	size_t n_namespaces;
	/* canonical order (cluster.c): the spec's object arrays sorted by
	 * namespace/name, then uid, so that document order decides nothing */
	void **canon;              /* the sorted pointer arrays */
	size_t n_canon, cap_canon;
	uint32_t *pool_spec_index; /* per pool: its position in the caller's nodepools */
	uint32_t *pod_spec_index;  /* per pod: its position in the caller's pods */
	uint32_t *pod_at_spec;     /* per position in the caller's pods: the pod */
	/* what every simulation starts from (kp__sched_index_moving): the
	 * pending pods and the deleting nodes, in index order */
	uint32_t *pending;
	size_t n_pending;
	uint32_t *deleting;
	size_t n_deleting;
	/* what an existing node has left before any simulation places a pod
	 * (avail - ds_pending, n_res per node), and its maximum per block of
	 * SC_NODE_BLOCK nodes in try order: a placement only lowers what a
	 * node has left, so a block whose maximum is below a pod's request
	 * holds no node for it */
	int64_t *base_rem;
	int64_t *blk_max;
	size_t n_blk;
	void **to_free;            /* requirements sets to release */
	size_t n_to_free, cap_to_free;
	/* reservations (reservations.c, upstream NewReservationManager): the
	 * distinct reservation IDs of the reserved offerings, the label key
	 * that carries each in its offerings' requirements (NULL: none), and
	 * the instances left (the smallest reservation_capacity given) */
	const char **resv_ids;
	const char **resv_keys;
	int64_t *resv_cap;
	size_t n_resv;
};

/* Register a kp_requirements set for release with the cluster. */
int kp__cluster_keep_reqs(struct kp_cluster *c, kp_requirements *r);

/* The mutable parts of a pod's spec that relaxation edits (upstream
 * Preferences works on a copy of the pod). */
typedef struct sc_relax {
	const kp_pod *pod;
	kp_node_selector_term *const *req_terms; /* required node affinity terms left */
	size_t n_req;
	const kp_preferred_scheduling_term **pref_node; /* by weight, descending (stable) */
	size_t n_pref_node;
	const kp_weighted_pod_affinity_term **pref_aff;
	size_t n_pref_aff;
	const kp_weighted_pod_affinity_term **pref_anti;
	size_t n_pref_anti;
	const kp_topology_spread_constraint **tsc;
	size_t n_tsc;
	int pns;                                 /* PreferNoSchedule tolerated by relaxation */
} sc_relax;

/* topology.c: groups owned by a pod in the given relaxation state */
int kp__topo_variant_groups(struct kp_cluster *c, const sc_class *cls, const sc_relax *st,
			    const kp_toleration *tols, size_t n_tols, uint32_t **out, size_t *n_out);
int kp__topo_inverse_groups(struct kp_cluster *c, const sc_class *cls, uint32_t **out,
			    size_t *n_out);

/* podclass.c */
int kp__sched_pods_intern(struct kp_cluster *c, const kp_cluster_spec *spec, kp_error *err);
int kp__sched_pods_bind(struct kp_cluster *c, const kp_cluster_spec *spec, kp_error *err);
int kp__sched_daemons(struct kp_cluster *c, const kp_cluster_spec *spec, kp_error *err);
int kp__sched_daemon_terms(const struct kp_cluster *c, const kp_pod *pod,
			   kp_requirements ***out, size_t *n_out);
int kp__ports_conflict(const sc_port *a, size_t na, const sc_port *b, size_t nb);
/* volumes.c */
int kp__vol_pod(struct kp_cluster *c, const kp_cluster_spec *spec, const kp_pod *p,
		const char ***keys, size_t *n_keys);
int kp__vol_class(struct kp_cluster *c, const kp_cluster_spec *spec, sc_class *cls,
		  kp_error *err);
int kp__vol_nodes(struct kp_cluster *c, const kp_cluster_spec *spec);
int kp__sched_daemon_compatible_node(const struct kp_cluster *c, size_t daemon, const sc_node *n);

/* topology.c: building groups for the classes (snapshot) */
int kp__topo_build(struct kp_cluster *c, kp_error *err);
/* Number of topology groups of the snapshot. */
size_t kp__topo_group_count(const struct kp_cluster *c);
/* Release the snapshot's topology part (c->topo). */
void kp__topo_snapshot_free(struct kp_cluster *c);

/* ------------------------------------------------------------------ */
/* One simulation                                                      */

typedef struct sc_nc sc_nc;
typedef struct sc_sim sc_sim;
typedef struct sc_topo sc_topo;

/* A reason being built (only when diagnosing). Its texts are allocated
 * at their full length (kp__why replaces them); release with
 * kp__why_dispose. Zero-initialize before first use. */
typedef struct sc_why {
	uint32_t code;
	char *field;  /* NULL = none */
	char *msg;    /* NULL = "" (also when out of memory) */
} sc_why;

/* What topology.c caches on a NodeClaim: its hostname domain and, per
 * topology key, the single domain its requirements allow (valid while
 * kdom_ver == reqs_ver + 1). */
typedef struct sc_nc_topo {
	uint32_t host_dom;         /* its hostname's domain id, UINT32_MAX until needed */
	uint32_t *kdom;            /* per topology key */
	uint64_t kdom_ver;
} sc_nc_topo;

/* NodeClaim opened by this simulation (upstream scheduling.NodeClaim). */
struct sc_nc {
	uint32_t pool;
	uint32_t id;               /* creation order */
	char hostname[40];         /* "hostname-placeholder-%04u" of a uint32_t: at most 31 bytes */
	uint64_t reqs_ver;         /* bumped when reqs change */
	sc_nc_topo topo;           /* topology.c's caches (kp__topo_nc_init) */
	int64_t *maxalloc;         /* n_res: largest allocatable over its options */
	int64_t *minslack;         /* n_res: smallest allocatable less daemon overhead */
	kp_requirements *reqs;
	uint32_t *its;             /* catalogue indices still possible */
	size_t n_its;
	int64_t *requests;         /* n_res: sum of pod requests */
	uint32_t *pods;
	size_t n_pods, cap_pods;
	sc_port *ports;
	size_t n_ports, cap_ports;
	const sc_variant **absorbed; /* variants whose requirements change nothing (no topology) */
	size_t n_absorbed, cap_absorbed;
	uint32_t oprev, onext;     /* neighbours in its pod count's order list, UINT32_MAX at the ends */
	int64_t oseq;              /* rank in that list: ascending from head to tail */
	int min_values_relaxed;
	uint32_t *resv;            /* reservations held (ascending), upstream reservedOfferings */
	size_t n_resv;
	int dropped;               /* removed by minValues truncation */
	size_t n_opts_final;
	uint32_t *final_its;       /* after truncation, ordered by price */
};

/* What one simulation does with an existing node (kp_sched_options
 * removed_nodes, kp_node deleting). */
typedef enum sc_node_fate {
	SC_NODE_KEPT = 0,     /* takes pods */
	SC_NODE_REMOVED = 1,  /* in removed_nodes: takes no pod, its reschedulable pods move,
	                         its capacity goes back to its NodePool's limits */
	SC_NODE_DELETING = 2  /* being deleted in the snapshot: takes no pod, its reschedulable
	                         pods move; its capacity never counted in the NodePool's usage */
} sc_node_fate;

/* An existing node during one simulation: what placements added on top of
 * the snapshot's sc_node, each part copied on first write. */
typedef struct sc_node_sim {
	sc_node_fate fate;
	int closed;                /* in exclude_nodes: takes no pod of a removed node */
	int64_t *rem;              /* n_res remaining resources, NULL until kp__sched_node_rem */
	kp_requirements *reqs;     /* requirements after placements, NULL = the snapshot's */
	sc_port *ports;            /* host ports of the pods placed */
	size_t n_ports, cap_ports;
	sc_vol *vols;              /* volumes of the pods placed */
	size_t n_vols, cap_vols;
} sc_node_sim;

/* A snapshot pod's part in one simulation. */
typedef enum sc_pod_role {
	SC_SIM_NONE = 0,     /* not part of it: bound and staying, or left out by only_pods */
	SC_SIM_SCHEDULE = 1, /* to place: pending, or moving off a removed or deleting node */
	SC_SIM_REPORT = 2    /* pending but not provisionable (upstream Validate drops it):
	                        reported as unplaced, never scheduled */
} sc_pod_role;

/* A snapshot pod during one simulation. Every pod with a role other than
 * SC_SIM_NONE is excluded from the snapshot's topology counts (topology.c). */
typedef struct sc_pod_sim {
	sc_pod_role role;
	int32_t placed_node;       /* existing node, or -1 */
	int32_t placed_nc;         /* NodeClaim id, or -1 */
	uint32_t placed_variant;   /* relaxation step it was placed (or last tried) with */
	int64_t last_len;          /* queue length when it last failed, -1 before */
} sc_pod_sim;

/* What the in-flight scan remembers for one variant (simulate.c), from
 * kp__topo_quick_reject's verdicts. */
typedef struct sc_variant_sim {
	uint64_t *blocked;         /* bit per NodeClaim id: SC_REJECT_FOREVER */
	size_t blocked_words;
	size_t n_blocked;          /* bits set */
	uint32_t *amemo;           /* per NodeClaim id: the affinity stamp of an
	                              SC_REJECT_UNTIL_AFFINITY verdict, 0 = none */
	size_t amemo_cap;
} sc_variant_sim;

/* The NodeClaims with one pod count, in in-flight order (simulate.c). */
struct sc_order_list {
	uint32_t head, tail;       /* NodeClaim ids, UINT32_MAX when empty */
	uint32_t next, prev;       /* neighbouring counts with NodeClaims, UINT32_MAX at the ends */
	int64_t front, back;       /* oseq of the next push at each end */
};

struct sc_sim {
	const struct kp_cluster *c;
	const struct kp__sched_sets *sets; /* by-index options (sched_index.h), or NULL */
	uint32_t min_values_best_effort;
	uint32_t resv_mode;        /* a kp_reserved_offering_mode */
	int64_t *resv_rem;         /* per reservation: instances left (NULL: not counted) */
	int resv_blocked;          /* the last try_new stopped on a reserved offering error */
	size_t max_its;
	sc_node_sim *nodes;        /* per snapshot node */
	/* the pods this simulation touches (a role other than SC_SIM_NONE), in
	 * snapshot index order; their state is pods[slot], the slot found with
	 * kp__psim: nothing here is sized by the snapshot's pods */
	uint32_t *act;
	size_t n_act;
	sc_pod_sim *pods;          /* per slot (n_act) */
	kp__map pslot;             /* snapshot pod index -> slot */
	uint32_t *gone;            /* nodes whose fate is not SC_NODE_KEPT */
	size_t n_gone;
	uint32_t *touched;         /* nodes with an overlay (rem set), in first-touch order */
	size_t n_touched, cap_touched;
	/* new NodeClaims */
	sc_nc **ncs;               /* creation order */
	size_t n_ncs, cap_ncs;
	/* in-flight order (upstream sorts the NodeClaims by pod count
	 * ascending, stably, before each pod): one list per pod count, the
	 * non-empty lists chained by count (simulate.c) */
	struct sc_order_list *olists; /* indexed by pod count */
	size_t cap_olists;
	uint32_t ofirst;           /* smallest pod count with NodeClaims, UINT32_MAX when none */
	/* NodePool limits */
	int64_t **pool_rem;        /* per pool, NULL when no limits */
	/* the queue of pods (snapshot indices) */
	uint32_t *queue;
	size_t q_head, q_len, q_cap;
	sc_topo *topo;
	uint32_t next_hostname;
	sc_variant_sim *variants;  /* per variant (sc_variant::id) */
	struct sc_price_order *porders; /* instance types by price, per (catalogue, allowed pairs) */
	size_t n_porders, cap_porders;
	/* scratch */
	sc_itcompat itc;
	uint32_t *scratch_its;
	size_t cap_scratch;
	int64_t *scratch_res;
	int64_t *scratch_req;
	int oom;
	/* tests only (kp__sched_simulate_verify): confirm every quick
	 * rejection with the full check, counting the ones it contradicts */
	int verify_quick;
	size_t quick_checked, quick_contradicted;
	/* tests only: keep the in-flight order also as one array sorted the
	 * way upstream sorts (stable, by pod count) and compare it with the
	 * lists after every change, counting the differences */
	int verify_order;
	uint32_t *order_ref;
	size_t cap_order_ref;
	size_t order_checked, order_mismatched;
};

/* The simulation state of snapshot pod @p pod, NULL when this simulation
 * does not touch it (role SC_SIM_NONE). */
static inline sc_pod_sim *kp__psim(const sc_sim *s, uint32_t pod)
{
	uint32_t slot;
	return kp__map_get_u32(&s->pslot, pod, &slot) ? &s->pods[slot] : NULL;
}

/* Nodes per block of kp_cluster::blk_max. */
#define SC_NODE_BLOCK 64

/* cluster.c: the snapshot's pending pods, deleting nodes, base remainders
 * and block maxima (after the build). */
int kp__sched_index_moving(struct kp_cluster *c);

/* topology.c: per-simulation state */
int kp__topo_sim_new(sc_sim *s);
void kp__topo_sim_free(sc_sim *s);
/* A new NodeClaim's topology caches: empty; released with kp__topo_nc_dispose. */
void kp__topo_nc_init(sc_nc_topo *t);
void kp__topo_nc_dispose(sc_nc_topo *t);
/* Tighten @p node_reqs for placing pod @p pod (variant @p v) on a node with
 * @p taints; *out gets a new set (or NULL when nothing changes). Returns
 * KP_OK, KP_EINCOMPATIBLE (with w filled) or KP_ENOMEM. */
int kp__topo_add_requirements(sc_sim *s, uint32_t pod, const sc_variant *v,
			      const kp_taint *taints, size_t n_taints, kp_requirements *node_reqs,
			      uint32_t compat_flags, kp_requirements **out, sc_why *w);
int kp__topo_record(sc_sim *s, uint32_t pod, const sc_variant *v, const kp_taint *taints,
		    size_t n_taints, kp_requirements *reqs, uint32_t compat_flags);
int kp__topo_register_hostname(sc_sim *s, const char *hostname);
/* What the cheap topology pre-check of a pod against a NodeClaim knows
 * (the in-flight scan uses it before the full check). */
typedef enum sc_reject {
	SC_REJECT_UNKNOWN = 0,       /* the full check must decide */
	SC_REJECT_NOW = 1,           /* the full check would fail now */
	SC_REJECT_FOREVER = 2,       /* ... now and for the rest of the simulation:
	                                anti-affinity and hostname counts only grow */
	SC_REJECT_UNTIL_AFFINITY = 3 /* ... as long as kp__topo_affinity_stamp is
	                                unchanged (a pod affinity domain without pods) */
} sc_reject;
sc_reject kp__topo_quick_reject(sc_sim *s, uint32_t pod, const sc_variant *v, sc_nc *nc);
/* kp_sched_simulate with every quick rejection of the in-flight scan
 * confirmed by the full check (sched.c; white-box tests): how many were
 * checked and how many the full check contradicted (should be 0). */
int kp__sched_simulate_verify(const kp_cluster *cluster, size_t *checked, size_t *contradicted,
			      kp_error *err);
uint32_t kp__topo_affinity_stamp(sc_sim *s, const sc_variant *v);
int kp__topo_update(sc_sim *s, uint32_t pod, const sc_variant *v);

/* ------------------------------------------------------------------ */
/* Feasibility verdicts (fits.c)                                       */

/* Why a pod cannot go where it was checked. */
typedef enum sc_fit_code {
	SC_FIT_OK = 0,
	SC_FIT_TAINT,        /* taint @c taint of the node or NodePool is not tolerated */
	SC_FIT_VOLUMES_OVER, /* the node's bound volumes already exceed an attach limit */
	SC_FIT_VOLUME_LIMIT, /* driver @c driver would attach @c need volumes, limit @c have */
	SC_FIT_HOST_PORT,    /* a host port of the pod is taken (@c where) */
	SC_FIT_RESOURCES     /* resource @c res: the pod requests @c need, @c have remains
	                        (a negative @c have: the node is over-committed already) */
} sc_fit_code;

/* Where a conflict was found, for the wording of the reason. */
typedef enum sc_fit_where {
	SC_FIT_AT_NODECLAIM = 0,
	SC_FIT_AT_NODE = 1
} sc_fit_where;

/* A structured verdict: the code and what it names. Filled only when a
 * check fails; its fields are indices into the inputs of that check. */
typedef struct sc_fit {
	sc_fit_code code;
	sc_fit_where where;
	uint32_t taint;      /* SC_FIT_TAINT: index into the taints checked */
	uint32_t res;        /* SC_FIT_RESOURCES: resource index (kp_cluster::res) */
	uint32_t driver;     /* SC_FIT_VOLUME_LIMIT: interned CSI driver name */
	int64_t need, have;  /* SC_FIT_RESOURCES, SC_FIT_VOLUME_LIMIT */
} sc_fit;

/* Pure checks: no simulation needed (consolidation calls them per
 * candidate). Each returns 1 when the pod fits, else 0 with *f filled. */
/* upstream Taints.ToleratesPod: the first taint no toleration tolerates */
int kp__fit_taints(const kp_taint *taints, size_t n_taints, const kp_toleration *tols,
		   size_t n_tols, sc_fit *f);
/* requests against what remains (resource values, kp__res_value units) */
int kp__fit_resources(const int64_t *req, const int64_t *avail, size_t n_res, sc_fit *f);
/* the pod's host ports against those in use (upstream HostPortUsage.Conflicts) */
int kp__fit_ports(const sc_port *pod, size_t n_pod, const sc_port *used, size_t n_used,
		  sc_fit *f);
/* The checks of upstream ExistingNode.CanAdd before requirements and
 * topology, in its order (taints, volume limits, host ports, resources),
 * on a simulation's overlay of existing node @p node. KP_OK,
 * KP_EINCOMPATIBLE with *f filled, or KP_ENOMEM (s->oom set). */
int kp__fit_node_cheap(sc_sim *s, uint32_t node, uint32_t pod, const sc_variant *v, sc_fit *f);
/* Existing node @p node's remaining resources in this simulation, copied
 * from the snapshot on first use; NULL when out of memory (s->oom set). */
const int64_t *kp__sched_node_rem(sc_sim *s, uint32_t node);
/* The reason text of a verdict into @p w (NULL: nothing); @p taints are the
 * ones the verdict was made on and @p v the variant checked. */
void kp__fit_why(const struct kp_cluster *c, const sc_fit *f, const kp_taint *taints,
		 size_t n_taints, const sc_variant *v, sc_why *w);
/* A resource value as a quantity in the format the pods' requests used. */
void kp__fit_fmt_value(char *buf, size_t size, const struct kp_cluster *c, size_t r, int64_t v);

/* Well-known compat flag helper. */
#define SC_ALLOW KP_COMPAT_ALLOW_UNDEFINED_WELLKNOWN

/* Messages */
void kp__why(sc_why *w, uint32_t code, const char *field, const char *fmt, ...) KP_PRINTF(4, 5);
void kp__why_dispose(sc_why *w);

/* reservations.c */
/* The snapshot's reservations and each catalogue's reserved offerings
 * (after the catalogues are compiled). */
int kp__resv_compile(struct kp_cluster *c);
/* This simulation's reservation counts (none under
 * KP_RESERVED_OFFERING_IGNORE or without reserved offerings). */
int kp__resv_sim_init(sc_sim *s);
/* upstream offeringsToReserve: the reservations NodeClaim @p nc may hold
 * with options @p its (catalogue indices) and requirements @p reqs, as a
 * sorted list in *out (caller frees; NULL when none). Under
 * KP_RESERVED_OFFERING_STRICT, KP_EINCOMPATIBLE with @p w filled when it
 * would hold none while it could or did. KP_OK, KP_EINCOMPATIBLE,
 * KP_ENOMEM. */
int kp__resv_offerings(sc_sim *s, const sc_nc *nc, const uint32_t *its, size_t n_its,
		       kp_requirements *reqs, uint32_t **out, size_t *n_out, sc_why *w);
/* upstream Reserve then releaseReservedOfferings: @p nc holds @p resv
 * (taken over) instead of what it held. */
void kp__resv_commit(sc_sim *s, sc_nc *nc, uint32_t *resv, size_t n_resv);
/* The launch choice of a finalized NodeClaim while reservations are
 * counted (s->resv_rem set and its catalogue has reserved offerings): the
 * cheapest available offering compatible with @p reqs over its final
 * options, the first on ties, leaving out the reserved offerings of
 * reservations it does not hold. NULL when there is none. */
const kp_offering *kp__resv_launch_choice(const sc_sim *s, const sc_nc *nc, kp_requirements *reqs,
					  const kp_instance_type **it_out);
/* Whether a finalized NodeClaim's requirements name every reservation it
 * holds by its ID label (it holds some, each with a key): they then allow
 * no other reserved offering, and the launch choice needs no
 * kp__resv_launch_choice. */
int kp__resv_held_by_id(const struct kp_cluster *c, const sc_nc *nc);
/* upstream FinalizeScheduling's part: capacity type In [reserved] and the
 * reservation IDs on their label keys, added to @p reqs (which has no
 * capacity-type requirement left), for a NodeClaim holding any. */
int kp__resv_finalize(const struct kp_cluster *c, const sc_nc *nc, kp_requirements *reqs);

/* result.c */
struct kp_sched_result;
int kp__sched_result_build(sc_sim *s, struct kp_sched_result **out, kp_error *err);
int kp__sched_diagnose(sc_sim *s, uint32_t pod, sc_why **whys, const char ***nodes,
		       const char ***pools, size_t *n, kp_error *err);

/* simulate.c helpers used by result.c */
int kp__sched_finalize(sc_sim *s);
void kp__sched_porders_free(sc_sim *s);
/* The simulation loop on a zeroed sc_sim whose c, min_values_best_effort
 * and max_its are set (simulate.c): initialize, then solve. */
int kp__sched_run(sc_sim *s, const kp_sched_options *o, kp_error *err);
/* Release a simulation's state and s itself (porders excepted: result.c's). */
void kp__sched_sim_free(sc_sim *s);
/* Whether existing node i is closed to pod (exclude_nodes: a pod moving off
 * a removed node). */
int kp__sched_node_closed(const sc_sim *s, uint32_t i, uint32_t pod);
int kp__sched_nc_fits_existing(sc_sim *s, uint32_t node, uint32_t pod, const sc_variant *v,
			       sc_why *w, kp_requirements **out_reqs);
int kp__sched_nc_try_pool(sc_sim *s, uint32_t pool, uint32_t pod, const sc_variant *v,
			  sc_why *w);

#endif /* KP_SCHED_PRIVATE_H */
