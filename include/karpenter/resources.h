/*
 * libkarpenter: resource lists (corev1.ResourceList) and a pod's effective
 * requests and limits, as Karpenter computes them for scheduling.
 *
 * A resource list maps resource names ("cpu", "memory", "nvidia.com/gpu")
 * to quantities. The arithmetic follows sigs.k8s.io/karpenter
 * pkg/utils/resources; the pod aggregation follows Kubernetes'
 * component-helpers PodRequests/PodLimits (KEP-753 sidecars, pod overhead,
 * KEP-2837 pod-level resources, in-place resize status).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_RESOURCES_H
#define KARPENTER_RESOURCES_H

#include <karpenter/common.h>
#include <karpenter/quantity.h>

KP_BEGIN_DECLS

/** @name Well-known resource names (corev1.ResourceName)
 * @{ */
#define KP_RESOURCE_CPU "cpu"                             /**< cores; "100m" is 0.1 core */
#define KP_RESOURCE_MEMORY "memory"                       /**< bytes */
#define KP_RESOURCE_STORAGE "storage"                     /**< bytes (volumes) */
#define KP_RESOURCE_EPHEMERAL_STORAGE "ephemeral-storage" /**< bytes of node-local storage */
#define KP_RESOURCE_PODS "pods"                           /**< number of pods */
#define KP_RESOURCE_HUGEPAGES_PREFIX "hugepages-"         /**< prefix of "hugepages-<size>" */
#define KP_RESOURCE_HUGEPAGES_2MI "hugepages-2Mi"         /**< 2 MiB huge pages, in bytes */
#define KP_RESOURCE_HUGEPAGES_1GI "hugepages-1Gi"         /**< 1 GiB huge pages, in bytes */
#define KP_RESOURCE_NODES "nodes"                         /**< Karpenter's node count (NodePool limits) */
/** @} */

/**
 * @brief One entry of a resource list.
 *
 * Plain value type with a fixed layout (a map entry has nothing to grow), so
 * arrays of it are contiguous.
 * @since 0.1
 */
typedef struct kp_resource {
	const char *name;     /**< resource name, e.g. KP_RESOURCE_CPU; never NULL or "" */
	kp_quantity quantity; /**< the amount */
} kp_resource;

/**
 * @brief A resource list: an array of entries with distinct names.
 *
 * Two ownership cases, as kp_labels (libgit2's git_strarray):
 * - a list the caller builds (pointing at its own storage, in any order) is
 *   only ever read by the library;
 * - a list the library fills, or that the caller starts as
 *   KP_RESOURCE_LIST_INIT and lets the library grow, owns its items and
 *   names, is kept sorted by name (strcmp) so output is deterministic, and is
 *   released with kp_resources_dispose.
 *
 * Every parameter the library writes (an accumulator or an output) must be of
 * the second kind: never pass a caller-built list to a function that grows,
 * replaces or disposes it. Writing into a library-owned list reuses its
 * storage, so a list recycled across calls stops allocating.
 *
 * Names in a list must be distinct; every function rejects duplicates with
 * KP_EINVAL. Sorted input lists are checked in linear time.
 * @since 0.1
 */
typedef struct kp_resource_list {
	kp_resource *items; /**< the entries, sorted by name when library-owned */
	size_t count;       /**< number of entries */
} kp_resource_list;

/** Static initializer for an empty, library-growable list. */
#define KP_RESOURCE_LIST_INIT { NULL, 0 }

/**
 * @brief Release a library-owned list and reset it to empty.
 * @param[in,out] list the list, or NULL (no-op)
 * @since 0.1
 * Ownership: frees the items and names; @p list itself is caller storage and
 * may be reused afterwards.
 * Thread-safety: not safe on the same list.
 */
void kp_resources_dispose(kp_resource_list *list);

/**
 * @brief Look up one resource.
 * @param[out] out the quantity; set to zero (KP_QUANTITY_ZERO) when the
 *             resource is missing, untouched on KP_EINVAL
 * @param[in] list any list
 * @param[in] name resource name
 * @param[out] err optional error detail
 * @return KP_OK, KP_ENOTFOUND (missing, an expected outcome: @p out is zero),
 *         KP_EINVAL (NULL argument, invalid list)
 * @since 0.1
 * Ownership: nothing is retained.
 * Thread-safety: safe.
 */
int kp_resources_get(kp_quantity *out, const kp_resource_list *list, const char *name,
		     kp_error *err);

/**
 * @brief Set one resource, adding it in name order if missing.
 * @param[in,out] list a library-owned list
 * @param[in] name resource name (copied), not empty
 * @param[in] quantity the value (copied)
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL argument, empty name, invalid list),
 *         KP_ENOMEM; @p list is unchanged on failure
 * @since 0.1
 * Ownership: the list keeps its own copy of @p name.
 * Thread-safety: not safe on the same list.
 */
int kp_resources_set(kp_resource_list *list, const char *name, const kp_quantity *quantity,
		     kp_error *err);

/**
 * @brief Replace @p out with a sorted copy of @p src.
 *
 * Also the way to turn a caller-built list into a library-owned one.
 * @param[in,out] out a library-owned list; its previous entries are released
 * @param[in] src any list (may be @p out itself)
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL argument, invalid @p src), KP_ENOMEM;
 *         @p out is unchanged on failure
 * @since 0.1
 * Ownership: names are copied.
 * Thread-safety: not safe on the same @p out.
 */
int kp_resources_copy(kp_resource_list *out, const kp_resource_list *src, kp_error *err);

/**
 * @brief acc += x for every resource of @p x; resources missing from @p acc
 *        are added (Karpenter resources.MergeInto / Merge).
 *
 * Each sum keeps the format of @p acc's quantity, a zero taking @p x's
 * (Quantity.Add). @p x may be @p acc itself, here and in the functions below.
 * @param[in,out] acc a library-owned list
 * @param[in] x any list
 * @param[out] err optional error detail; on KP_ERANGE its field is the
 *             resource name
 * @return KP_OK, KP_EINVAL, KP_ENOMEM, KP_ERANGE (a sum does not fit a
 *         quantity); @p acc is unchanged on failure
 * @since 0.1
 * Ownership: @p x is borrowed for the call; names added to @p acc are copied.
 * Thread-safety: not safe on the same @p acc.
 */
int kp_resources_add(kp_resource_list *acc, const kp_resource_list *x, kp_error *err);

/**
 * @brief acc -= x for the resources @p acc already has (Karpenter
 *        resources.Subtract).
 *
 * Resources only in @p x are ignored, so this never adds entries; results may
 * go negative (kp_resources_fits then rejects every candidate).
 * @param[in,out] acc a library-owned list
 * @param[in] x any list
 * @param[out] err optional error detail; on KP_ERANGE its field is the
 *             resource name
 * @return KP_OK, KP_EINVAL, KP_ERANGE; @p acc is unchanged on failure
 * @since 0.1
 * Ownership: @p x is borrowed for the call; @p acc gains no entries.
 * Thread-safety: not safe on the same @p acc.
 */
int kp_resources_sub(kp_resource_list *acc, const kp_resource_list *x, kp_error *err);

/**
 * @brief acc -= x for every resource of @p x, missing ones counting as zero
 *        (Karpenter resources.SubtractFrom).
 *
 * Unlike kp_resources_sub, a resource only in @p x is added as its negation.
 * @param[in,out] acc a library-owned list
 * @param[in] x any list
 * @param[out] err optional error detail; on KP_ERANGE its field is the
 *             resource name
 * @return KP_OK, KP_EINVAL, KP_ENOMEM, KP_ERANGE; @p acc is unchanged on
 *         failure
 * @since 0.1
 * Ownership: @p x is borrowed for the call; names added to @p acc are copied.
 * Thread-safety: not safe on the same @p acc.
 */
int kp_resources_sub_all(kp_resource_list *acc, const kp_resource_list *x, kp_error *err);

/**
 * @brief acc = max(acc, x) per resource over the union of names (Karpenter
 *        resources.MaxResources).
 *
 * On a tie @p acc keeps its own quantity (and so its format).
 * @param[in,out] acc a library-owned list
 * @param[in] x any list
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL, KP_ENOMEM; @p acc is unchanged on failure
 * @since 0.1
 * Ownership: @p x is borrowed for the call; names added to @p acc are copied.
 * Thread-safety: not safe on the same @p acc.
 */
int kp_resources_max(kp_resource_list *acc, const kp_resource_list *x, kp_error *err);

/**
 * @brief acc = min(acc, x) per resource over the intersection of names
 *        (Karpenter resources.MinResources): resources missing from @p x are
 *        removed from @p acc.
 * @param[in,out] acc a library-owned list
 * @param[in] x any list
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL; @p acc is unchanged on failure
 * @since 0.1
 * Ownership: @p x is borrowed for the call; dropped names are freed.
 * Thread-safety: not safe on the same @p acc.
 */
int kp_resources_min(kp_resource_list *acc, const kp_resource_list *x, kp_error *err);

/**
 * @brief Whether @p candidate fits in @p total (Karpenter resources.Fits).
 *
 * Fits when every candidate quantity is at most the total's quantity of the
 * same name, a name missing from @p total counting as zero (so a zero or
 * negative candidate fits without it). Nothing fits when any quantity of
 * @p total is negative, even one the candidate does not ask for.
 * @param[in] candidate any list, e.g. a pod's requests
 * @param[in] total any list, e.g. a node's remaining allocatable
 * @param[out] err optional error detail; on KP_EINSUFFICIENT its field is the
 *             first offending resource (in @p total's order for a negative
 *             total, else in @p candidate's order) and the message gives both
 *             quantities
 * @return KP_OK (fits), KP_EINSUFFICIENT (does not fit, an expected outcome),
 *         KP_EINVAL (NULL argument, invalid list)
 * @since 0.1
 * Ownership: inputs are borrowed for the call; nothing is retained.
 * Thread-safety: safe.
 */
int kp_resources_fits(const kp_resource_list *candidate, const kp_resource_list *total,
		      kp_error *err);

/**
 * @brief Whether every quantity in the list is zero.
 * @param[in] list any list, or NULL
 * @return 1 if @p list is NULL, empty or all zero, else 0.
 * @since 0.1
 * Ownership: inputs are borrowed for the call; nothing is retained.
 * Thread-safety: safe.
 */
int kp_resources_is_zero(const kp_resource_list *list);

/**
 * @brief The resources of one container (corev1.Container.Resources and the
 *        resource fields of its ContainerStatus).
 *
 * Caller-filled and size-tagged: start from KP_CONTAINER_RESOURCES_INIT (or
 * kp_container_resources_init). Every list is borrowed for the call only; a
 * NULL list is an absent field, which for the status fields is not the same
 * as an empty one.
 * @since 0.1
 */
typedef struct kp_container_resources {
	uint32_t struct_size;                     /**< sizeof(kp_container_resources) */
	uint32_t restartable;                     /**< 1 for an init container with restartPolicy Always (a sidecar); ignored for regular containers */
	const kp_resource_list *requests;         /**< spec resources.requests, or NULL */
	const kp_resource_list *limits;           /**< spec resources.limits, or NULL */
	const kp_resource_list *allocated;        /**< status.allocatedResources, or NULL if not reported */
	const kp_resource_list *status_requests;  /**< status.resources.requests, or NULL if not reported */
} kp_container_resources;

/** Static initializer for kp_container_resources: no resources. */
#define KP_CONTAINER_RESOURCES_INIT { sizeof(kp_container_resources), 0, NULL, NULL, NULL, NULL }

/**
 * @brief Initialize @p c as KP_CONTAINER_RESOURCES_INIT does (for FFI).
 * @param[out] c the struct to fill; NULL is ignored
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_container_resources_init(kp_container_resources *c);

/**
 * @brief The resource-relevant parts of one pod.
 *
 * Caller-filled and size-tagged: start from KP_POD_RESOURCES_INIT (or
 * kp_pod_resources_init). Everything is borrowed for the call only.
 * Containers are given as pointer arrays (NULL with a zero count when there
 * are none); init containers in spec order, which matters for sidecars.
 * @since 0.1
 */
typedef struct kp_pod_resources {
	uint32_t struct_size;   /**< sizeof(kp_pod_resources) */
	uint32_t resize_infeasible; /**< 1 if the PodResizePending condition has reason Infeasible */
	const kp_container_resources *const *containers;      /**< spec.containers */
	size_t n_containers;                                  /**< number of containers */
	const kp_container_resources *const *init_containers; /**< spec.initContainers, in order */
	size_t n_init_containers;                             /**< number of init containers */
	const kp_resource_list *overhead;      /**< spec.overhead, or NULL */
	const kp_resource_list *pod_requests;  /**< spec.resources.requests (pod-level), or NULL */
	const kp_resource_list *pod_limits;    /**< spec.resources.limits (pod-level), or NULL */
} kp_pod_resources;

/** Static initializer for kp_pod_resources: an empty pod. */
#define KP_POD_RESOURCES_INIT { sizeof(kp_pod_resources), 0, NULL, 0, NULL, 0, NULL, NULL, NULL }

/**
 * @brief Initialize @p p as KP_POD_RESOURCES_INIT does (for FFI).
 * @param[out] p the struct to fill; NULL is ignored
 * @since 0.1
 * Thread-safety: safe.
 */
void kp_pod_resources_init(kp_pod_resources *p);

/**
 * @brief A pod's effective requests, as the scheduler sees them (Karpenter
 *        resources.Ceiling(pod).Requests).
 *
 * Rules, in order:
 * 1. A container's requests are its spec requests plus, for every resource
 *    with a limit but no request, the limit (the API server's defaulting), so
 *    raw and stored pods give the same answer.
 * 2. Regular containers are summed. Init containers run one at a time, each
 *    alongside the sidecars (restartable init containers) started before it;
 *    sidecars keep running, so each sidecar is also added to the sum. The
 *    result is, per resource, the larger of that sum and the largest
 *    init-time use (KEP-753).
 * 3. When any container reports status resources, or @p resize_infeasible is
 *    set, rule 2 is evaluated three times, with spec, allocated and actuated
 *    (status, else allocated) requests, and the per-resource maximum is taken,
 *    leaving spec out when the resize is infeasible (in-place resize).
 * 4. Pod-level requests for cpu, memory and hugepages-* replace the
 *    aggregate for those resources (KEP-2837; pass them as the API server
 *    stores them, i.e. already defaulted).
 * 5. Pod overhead is added to every resource it names.
 *
 * The result never contains "pods"; see kp_resources_requests_for_pods.
 * @param[in,out] out a library-owned list, replaced by the result
 * @param[in] pod the pod
 * @param[out] err optional error detail; the field names the offending input
 *             (e.g. "init_containers[1].requests[0].name") or, on KP_ERANGE,
 *             the resource
 * @return KP_OK, KP_EINVAL, KP_EVERSION (bad struct_size), KP_ENOMEM,
 *         KP_ERANGE; @p out is unchanged on failure
 * @since 0.1
 * Ownership: inputs are borrowed for the call; @p out owns copies of
 * the names it holds.
 * Thread-safety: safe for distinct @p out.
 */
int kp_resources_pod_requests(kp_resource_list *out, const kp_pod_resources *pod, kp_error *err);

/**
 * @brief A pod's effective limits (Karpenter resources.Ceiling(pod).Limits).
 *
 * Container limits aggregated as in kp_resources_pod_requests rule 2 (spec
 * only, no defaulting from requests); pod-level limits for cpu, memory and
 * hugepages-* replace the aggregate; overhead is added only to resources that
 * already have a non-zero limit. Status resources are not used.
 * @param[in,out] out a library-owned list, replaced by the result
 * @param[in] pod the pod
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL, KP_EVERSION, KP_ENOMEM, KP_ERANGE; @p out is
 *         unchanged on failure
 * @since 0.1
 * Ownership: inputs are borrowed for the call; @p out owns copies of
 * the names it holds.
 * Thread-safety: safe for distinct @p out.
 */
int kp_resources_pod_limits(kp_resource_list *out, const kp_pod_resources *pod, kp_error *err);

/**
 * @brief Total requests of a set of pods, with "pods" set to their number
 *        (Karpenter resources.RequestsForPods).
 *
 * The sum of kp_resources_pod_requests over @p pods; "pods" is then
 * overwritten with @p n_pods in DecimalExponent format (so zero pods give
 * {pods: 0}).
 * @param[in,out] out a library-owned list, replaced by the result
 * @param[in] pods pointer array of pods (NULL if @p n_pods is 0)
 * @param[in] n_pods number of pods
 * @param[out] err optional error detail; fields of a bad input are prefixed
 *             with "pods[i]"
 * @return KP_OK, KP_EINVAL, KP_EVERSION, KP_ENOMEM, KP_ERANGE; @p out is
 *         unchanged on failure
 * @since 0.1
 * Ownership: inputs are borrowed for the call; @p out owns copies of
 * the names it holds.
 * Thread-safety: safe for distinct @p out.
 */
int kp_resources_requests_for_pods(kp_resource_list *out, const kp_pod_resources *const *pods,
				   size_t n_pods, kp_error *err);

/**
 * @brief Total limits of a set of pods, with "pods" set to their number
 *        (Karpenter resources.LimitsForPods).
 * @param[in,out] out a library-owned list, replaced by the result
 * @param[in] pods pointer array of pods (NULL if @p n_pods is 0)
 * @param[in] n_pods number of pods
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL, KP_EVERSION, KP_ENOMEM, KP_ERANGE; @p out is
 *         unchanged on failure
 * @since 0.1
 * Ownership: inputs are borrowed for the call; @p out owns copies of
 * the names it holds.
 * Thread-safety: safe for distinct @p out.
 */
int kp_resources_limits_for_pods(kp_resource_list *out, const kp_pod_resources *const *pods,
				 size_t n_pods, kp_error *err);

KP_END_DECLS

#endif /* KARPENTER_RESOURCES_H */
