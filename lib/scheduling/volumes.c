/*
 * Scheduling simulation: volumes (upstream volumetopology.go,
 * pkg/scheduling/volumeusage.go, pkg/utils/volume).
 *
 * For each pod: the PersistentVolumeClaims it mounts (persistentVolumeClaim
 * volumes, and ephemeral volumes, whose claim is "<pod>-<volume>"), checked
 * as upstream's ValidatePersistentVolumeClaims does; the topology
 * alternatives they impose (a bound volume's node affinity terms, or the
 * storage class's allowed topologies; several volumes multiply, keeping the
 * compatible combinations); and the CSI driver of each claim, counted
 * against the attach limits of CSINodes.
 *
 * Offline differences, documented in scheduling.h: a claim without
 * storageClassName uses the default storage class (the newest one annotated
 * storageclass.kubernetes.io/is-default-class: "true", as the admission
 * plugin would have set it); an ephemeral volume whose claim is not in the
 * snapshot uses its volumeClaimTemplate, as the ephemeral volume controller
 * would create it.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include "sched_private.h"

#define DEFAULT_CLASS_ANNOTATION "storageclass.kubernetes.io/is-default-class"
#define BIND_COMPLETED_ANNOTATION "pv.kubernetes.io/bind-completed"

/* In-tree plugin names and their CSI drivers (csi-translation-lib). */
static const char *const in_tree[][2] = {
	{ "kubernetes.io/aws-ebs", "ebs.csi.aws.com" },
	{ "kubernetes.io/gce-pd", "pd.csi.storage.gke.io" },
	{ "kubernetes.io/azure-disk", "disk.csi.azure.com" },
	{ "kubernetes.io/azure-file", "file.csi.azure.com" },
	{ "kubernetes.io/cinder", "cinder.csi.openstack.org" },
	{ "kubernetes.io/vsphere-volume", "csi.vsphere.vmware.com" },
	{ "kubernetes.io/portworx-volume", "pxd.portworx.com" },
};

static const char *meta_ns(const kp_object_meta *m)
{
	return m && m->namespace_ ? m->namespace_ : "default";
}

static const kp_pvc *find_pvc(const kp_cluster_spec *spec, const char *ns, const char *name)
{
	for (size_t i = 0; i < spec->n_pvcs; i++) {
		const kp_pvc *p = spec->pvcs[i];
		if (p && p->metadata && p->metadata->name && strcmp(p->metadata->name, name) == 0 &&
		    strcmp(meta_ns(p->metadata), ns) == 0)
			return p;
	}
	return NULL;
}

static const kp_pv *find_pv(const kp_cluster_spec *spec, const char *name)
{
	for (size_t i = 0; i < spec->n_pvs; i++) {
		const kp_pv *p = spec->pvs[i];
		if (p && p->metadata && p->metadata->name && strcmp(p->metadata->name, name) == 0)
			return p;
	}
	return NULL;
}

static const kp_storage_class *find_sc(const kp_cluster_spec *spec, const char *name)
{
	for (size_t i = 0; i < spec->n_storage_classes; i++) {
		const kp_storage_class *s = spec->storage_classes[i];
		if (s && s->metadata && s->metadata->name && strcmp(s->metadata->name, name) == 0)
			return s;
	}
	return NULL;
}

static const kp_storage_class *default_sc(const kp_cluster_spec *spec)
{
	const kp_storage_class *best = NULL;
	for (size_t i = 0; i < spec->n_storage_classes; i++) {
		const kp_storage_class *s = spec->storage_classes[i];
		if (!s || !s->metadata)
			continue;
		const char *v = kp_labels_get(&s->metadata->annotations, DEFAULT_CLASS_ANNOTATION);
		if (!v || strcmp(v, "true") != 0)
			continue;
		if (!best || s->metadata->creation_timestamp_ms > best->metadata->creation_timestamp_ms ||
		    (s->metadata->creation_timestamp_ms == best->metadata->creation_timestamp_ms &&
		     strcmp(s->metadata->name ? s->metadata->name : "",
			    best->metadata->name ? best->metadata->name : "") < 0))
			best = s;
	}
	return best;
}

/* One claim of a pod as the scheduler sees it. */
struct claim {
	const char *key;            /* "namespace/name" (the cluster's arena) */
	const kp_pvc *pvc;          /* NULL for an ephemeral claim not created yet */
	const kp_pvc_spec *spec;    /* the claim's or the template's */
	int deleting, lost;
};

/* upstream GetPersistentVolumeClaim: 0 = no claim, 1 = found, -1 = missing,
 * KP_ENOMEM when out of memory */
static int pod_claim(struct kp_cluster *c, const kp_cluster_spec *spec, const kp_pod *pod,
		     const kp_volume *vol, struct claim *out)
{
	const char *ns = meta_ns(pod->metadata);
	const char *name = NULL;
	memset(out, 0, sizeof(*out));
	if (vol->persistent_volume_claim) {
		name = vol->persistent_volume_claim->claim_name ? vol->persistent_volume_claim->claim_name
								 : "";
	} else if (vol->ephemeral) {
		/* ephemeral.VolumeClaimName: "<pod>-<volume>", at full length */
		name = kp__arena_printf(&c->arena, "%s-%s",
					pod->metadata && pod->metadata->name ? pod->metadata->name : "",
					vol->name ? vol->name : "");
		if (!name)
			return KP_ENOMEM;
	} else {
		return 0;
	}
	if (!(out->key = kp__arena_printf(&c->arena, "%s/%s", ns, name)))
		return KP_ENOMEM;
	const kp_pvc *pvc = find_pvc(spec, ns, name);
	if (pvc) {
		out->pvc = pvc;
		out->spec = pvc->spec;
		out->deleting = pvc->metadata && pvc->metadata->deletion_timestamp_ms;
		out->lost = pvc->status && pvc->status->phase_code == KP_VOLUME_PHASE_LOST;
		return 1;
	}
	if (vol->ephemeral && vol->ephemeral->volume_claim_template &&
	    vol->ephemeral->volume_claim_template->spec) {
		out->spec = vol->ephemeral->volume_claim_template->spec;
		return 1;
	}
	return -1;
}

int kp__vol_pod(struct kp_cluster *c, const kp_cluster_spec *spec, const kp_pod *p,
		const char ***keys, size_t *n_keys)
{
	*keys = NULL;
	*n_keys = 0;
	const kp_pod_spec *ps = p->spec;
	if (!ps || !ps->n_volumes)
		return KP_OK;
	const char **k = kp__arena_alloc(&c->arena, ps->n_volumes * sizeof(char *));
	if (!k)
		return KP_ENOMEM;
	for (size_t i = 0; i < ps->n_volumes; i++) {
		if (!ps->volumes[i])
			continue;
		struct claim cl;
		int found = pod_claim(c, spec, p, ps->volumes[i], &cl);
		if (found == KP_ENOMEM)
			return KP_ENOMEM;
		if (found == 0)
			continue;
		k[(*n_keys)++] = cl.key;
	}
	*keys = k;
	return KP_OK;
}

static const char *effective_class(const kp_cluster_spec *spec, const kp_pvc_spec *ps)
{
	if (ps && ps->storage_class_name)
		return ps->storage_class_name;
	const kp_storage_class *d = default_sc(spec);
	return d && d->metadata && d->metadata->name ? d->metadata->name : "";
}

/* upstream ResolveDriver */
static const char *resolve_driver(const kp_cluster_spec *spec, const struct claim *cl)
{
	const kp_pvc_spec *ps = cl->spec;
	if (ps && ps->volume_name && ps->volume_name[0]) {
		const kp_pv *pv = find_pv(spec, ps->volume_name);
		if (!pv || !pv->spec)
			return "";
		if (pv->spec->csi && pv->spec->csi->driver)
			return pv->spec->csi->driver;
		if (pv->spec->source == KP_VOLUME_SOURCE_AWS_ELASTIC_BLOCK_STORE)
			return "ebs.csi.aws.com";
		return "";
	}
	const char *scn = effective_class(spec, ps);
	if (!scn[0])
		return "";
	const kp_storage_class *sc = find_sc(spec, scn);
	if (!sc || !sc->provisioner)
		return "";
	for (size_t i = 0; i < sizeof(in_tree) / sizeof(in_tree[0]); i++)
		if (strcmp(sc->provisioner, in_tree[i][0]) == 0)
			return in_tree[i][1];
	return sc->provisioner;
}

/* upstream ValidatePersistentVolumeClaims for one claim; NULL when valid. */
static const char *validate_claim(struct kp_cluster *c, const kp_cluster_spec *spec,
				  const struct claim *cl)
{
	if (cl->deleting)
		return kp__arena_printf(&c->arena, "persistentvolumeclaim %s is being deleted", cl->key);
	if (cl->lost)
		return kp__arena_printf(&c->arena,
					"persistentvolumeclaim %s bound to non-existent persistentvolume",
					cl->key);
	const kp_pvc_spec *ps = cl->spec;
	if (ps && ps->volume_name && ps->volume_name[0]) {
		const kp_pv *pv = find_pv(spec, ps->volume_name);
		if (!pv)
			return kp__arena_printf(&c->arena,
						"failed to validate pvc %s, persistentvolume \"%s\" not found",
						cl->key, ps->volume_name);
		if (pv->metadata && pv->metadata->deletion_timestamp_ms)
			return kp__arena_printf(&c->arena,
						"failed to validate pvc %s, persistentvolume is being deleted",
						cl->key);
		if (cl->pvc && (!cl->pvc->metadata ||
				!kp_labels_get(&cl->pvc->metadata->annotations, BIND_COMPLETED_ANNOTATION)))
			return kp__arena_printf(&c->arena,
						"pvc %s is considered unbound because it does not contain "
						"annotation %s", cl->key, BIND_COMPLETED_ANNOTATION);
		return NULL;
	}
	const char *scn = effective_class(spec, ps);
	if (!scn[0])
		return kp__arena_printf(&c->arena, "unbound pvc %s must define a storage class",
					cl->key);
	const kp_storage_class *sc = find_sc(spec, scn);
	if (!sc)
		return kp__arena_printf(&c->arena,
					"failed to validate pvc %s, failed to get storage class \"%s\"",
					cl->key, scn);
	if (sc->volume_binding_mode_code == KP_VOLUME_BINDING_MODE_IMMEDIATE)
		return kp__arena_printf(&c->arena,
					"failed to validate pvc %s, pvc with immediate volume binding "
					"mode must be bound", cl->key);
	return NULL;
}

static int reqs_from_exprs(kp_wellknown *wk, kp_node_selector_requirement *const *e, size_t n,
			   int skip_hostname, kp_requirements **out)
{
	kp_requirements *r = NULL;
	if (kp_requirements_new(&r, NULL) != KP_OK)
		return KP_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (!e[i] || (skip_hostname && e[i]->key && strcmp(e[i]->key, KP_LABEL_HOSTNAME) == 0))
			continue;
		kp_node_selector_requirement s = *e[i];
		s.struct_size = sizeof(s);
		s.min_values = 0;
		s.reserved = 0;
		if (kp_requirements_add_selector(r, &s, wk, NULL) != KP_OK) {
			kp_requirements_free(r);
			return KP_EINVAL;
		}
	}
	*out = r;
	return KP_OK;
}

/* The topology alternatives of one claim (upstream getRequirements). */
static int claim_alternatives(struct kp_cluster *c, const kp_cluster_spec *spec,
			      const struct claim *cl, kp_requirements ***out, size_t *n)
{
	*out = NULL;
	*n = 0;
	const kp_pvc_spec *ps = cl->spec;
	kp_requirements **alts = NULL;
	size_t cnt = 0;
	if (ps && ps->volume_name && ps->volume_name[0]) {
		const kp_pv *pv = find_pv(spec, ps->volume_name);
		const kp_node_selector *ns = pv && pv->spec && pv->spec->node_affinity
						     ? pv->spec->node_affinity->required : NULL;
		if (!ns || !ns->n_terms)
			return KP_OK;
		/* local volumes are not modelled separately (OTHER): hostPath and
		 * other in-tree sources drop their hostname affinity */
		int local = pv->spec->source == KP_VOLUME_SOURCE_HOST_PATH ||
			    pv->spec->source == KP_VOLUME_SOURCE_OTHER;
		alts = kp__calloc(ns->n_terms, sizeof(*alts));
		if (!alts)
			return KP_ENOMEM;
		for (size_t t = 0; t < ns->n_terms; t++) {
			const kp_node_selector_term *term = ns->terms[t];
			if (!term || !term->n_match_expressions)
				continue;
			kp_requirements *r = NULL;
			int rc = reqs_from_exprs(c->wk, term->match_expressions, term->n_match_expressions,
						 local, &r);
			if (rc == KP_ENOMEM)
				goto oom;
			if (rc != KP_OK)
				continue;
			alts[cnt++] = r; /* may be empty: hostname-only term of a local volume */
		}
	} else {
		const char *scn = effective_class(spec, ps);
		const kp_storage_class *sc = scn[0] ? find_sc(spec, scn) : NULL;
		if (!sc || !sc->n_allowed_topologies)
			return KP_OK;
		alts = kp__calloc(sc->n_allowed_topologies, sizeof(*alts));
		if (!alts)
			return KP_ENOMEM;
		for (size_t t = 0; t < sc->n_allowed_topologies; t++) {
			const kp_topology_selector_term *term = sc->allowed_topologies[t];
			if (!term || !term->n_match_label_expressions)
				continue;
			kp_requirements *r = NULL;
			if (kp_requirements_new(&r, NULL) != KP_OK)
				goto oom;
			for (size_t e = 0; e < term->n_match_label_expressions; e++) {
				const kp_topology_selector_requirement *x = term->match_label_expressions[e];
				if (!x)
					continue;
				kp_node_selector_requirement s = KP_NODE_SELECTOR_REQUIREMENT_INIT;
				s.key = x->key;
				s.op = KP_SELECTOR_OP_IN;
				s.values = x->values;
				s.n_values = x->n_values;
				kp_requirements_add_selector(r, &s, c->wk, NULL);
			}
			alts[cnt++] = r;
		}
	}
	*out = alts;
	*n = cnt;
	if (!cnt) {
		kp__free(alts);
		*out = NULL;
	}
	return KP_OK;
oom:
	for (size_t i = 0; i < cnt; i++)
		kp_requirements_free(alts[i]);
	kp__free(alts);
	return KP_ENOMEM;
}

/* upstream mergeVolumeRequirementAlternatives: the cross product, keeping
 * the compatible combinations unless none is. NULL entries stand for "no
 * requirement". */
static int merge_alternatives(kp_requirements ***alts, size_t *n, kp_requirements **vol,
			      size_t nv)
{
	kp_requirements **out = kp__calloc(*n * nv + 1, sizeof(*out));
	if (!out)
		return KP_ENOMEM;
	size_t k = 0;
	for (int pass = 0; pass < 2 && !k; pass++) {
		for (size_t i = 0; i < *n; i++) {
			for (size_t j = 0; j < nv; j++) {
				kp_requirements *e = (*alts)[i];
				if (!pass && e && kp_requirements_intersects(e, vol[j], NULL) != KP_OK)
					continue;
				kp_requirements *m = NULL;
				if (kp_requirements_new(&m, NULL) != KP_OK ||
				    (e && kp_requirements_add_all(m, e, NULL) != KP_OK) ||
				    kp_requirements_add_all(m, vol[j], NULL) != KP_OK) {
					kp_requirements_free(m);
					for (size_t q = 0; q < k; q++)
						kp_requirements_free(out[q]);
					kp__free(out);
					return KP_ENOMEM;
				}
				out[k++] = m;
			}
		}
	}
	for (size_t i = 0; i < *n; i++)
		kp_requirements_free((*alts)[i]);
	kp__free(*alts);
	*alts = out;
	*n = k;
	return KP_OK;
}

int kp__vol_class(struct kp_cluster *c, const kp_cluster_spec *spec, sc_class *cls,
		  kp_error *err)
{
	(void)err;
	const kp_pod *pod = cls->rep;
	const kp_pod_spec *ps = pod->spec;
	if (!ps || !ps->n_volumes)
		return KP_OK;
	sc_vol *vols = kp__arena_alloc(&c->arena, ps->n_volumes * sizeof(sc_vol));
	if (!vols)
		return KP_ENOMEM;
	kp_requirements **alts = kp__calloc(1, sizeof(*alts)); /* one NULL alternative */
	size_t n_alts = 1;
	if (!alts)
		return KP_ENOMEM;
	int rc = KP_OK;
	for (size_t i = 0; i < ps->n_volumes && rc == KP_OK; i++) {
		if (!ps->volumes[i])
			continue;
		struct claim cl;
		int found = pod_claim(c, spec, pod, ps->volumes[i], &cl);
		if (found == KP_ENOMEM) {
			rc = KP_ENOMEM;
			break;
		}
		if (found == 0)
			continue;
		if (found < 0) {
			if (!cls->bad) {
				cls->bad = kp__arena_printf(&c->arena,
							    "getting persistent volume claim, "
							    "persistentvolumeclaim \"%s\" not found",
							    cl.key);
				cls->bad_field = kp__arena_printf(&c->arena, "spec.volumes[%zu]", i);
			}
			continue;
		}
		const char *bad = validate_claim(c, spec, &cl);
		if (bad && !cls->bad) {
			cls->bad = bad;
			cls->bad_field = kp__arena_printf(&c->arena, "spec.volumes[%zu]", i);
		}
		const char *driver = resolve_driver(spec, &cl);
		if (driver[0]) {
			if (kp__strtab_intern(&c->str, driver, &vols[cls->n_vols].driver) != KP_OK ||
			    kp__strtab_intern(&c->str, cl.key, &vols[cls->n_vols].pvc) != KP_OK) {
				rc = KP_ENOMEM;
				break;
			}
			cls->n_vols++;
		}
		kp_requirements **va = NULL;
		size_t nv = 0;
		if ((rc = claim_alternatives(c, spec, &cl, &va, &nv)) != KP_OK)
			break;
		if (nv) {
			rc = merge_alternatives(&alts, &n_alts, va, nv);
			for (size_t j = 0; j < nv; j++)
				kp_requirements_free(va[j]);
			kp__free(va);
		}
	}
	if (rc == KP_OK)
		cls->vols = vols;
	if (rc == KP_OK && !(n_alts == 1 && !alts[0])) {
		cls->vol_reqs = kp__arena_alloc(&c->arena, n_alts * sizeof(*cls->vol_reqs));
		if (!cls->vol_reqs) {
			rc = KP_ENOMEM;
		} else {
			for (size_t i = 0; i < n_alts; i++) {
				cls->vol_reqs[i] = alts[i];
				alts[i] = NULL;
				if (cls->vol_reqs[i] && kp__cluster_keep_reqs(c, cls->vol_reqs[i]) != KP_OK)
					rc = KP_ENOMEM;
			}
			cls->n_vol_reqs = n_alts;
		}
	}
	for (size_t i = 0; i < n_alts; i++)
		kp_requirements_free(alts[i]);
	kp__free(alts);
	return rc;
}

/* CSINode attach limits of a node and the volumes of its bound pods. */
int kp__vol_nodes(struct kp_cluster *c, const kp_cluster_spec *spec)
{
	for (size_t i = 0; i < c->n_nodes; i++) {
		sc_node *n = &c->nodes[i];
		if (!n->node)
			continue;
		const char *name = n->node->metadata && n->node->metadata->name ? n->node->metadata->name
										 : "";
		for (size_t k = 0; k < spec->n_csi_nodes; k++) {
			const kp_csi_node *cn = spec->csi_nodes[k];
			if (!cn || !cn->metadata || !cn->metadata->name ||
			    strcmp(cn->metadata->name, name) != 0 || !cn->spec)
				continue;
			size_t nd = cn->spec->n_drivers;
			n->vol_limit_driver = kp__arena_alloc(&c->arena, (nd + 1) * sizeof(uint32_t));
			n->vol_limit = kp__arena_alloc(&c->arena, (nd + 1) * sizeof(int64_t));
			if (!n->vol_limit_driver || !n->vol_limit)
				return KP_ENOMEM;
			for (size_t d = 0; d < nd; d++) {
				const kp_csi_node_driver *drv = cn->spec->drivers[d];
				if (!drv || !drv->name || !drv->allocatable)
					continue;
				/* upstream: lo.FromPtr(count), so an unset count is a limit of 0 */
				if (kp__strtab_intern(&c->str, drv->name,
						      &n->vol_limit_driver[n->n_vol_limits]) != KP_OK)
					return KP_ENOMEM;
				n->vol_limit[n->n_vol_limits++] =
					drv->allocatable->has_count ? drv->allocatable->count : 0;
			}
			break;
		}
		size_t total = 0;
		for (size_t p = 0; p < n->n_pods; p++)
			total += c->classes[c->pods[n->pods[p]].cls].n_vols;
		if (!total)
			continue;
		n->vols = kp__arena_alloc(&c->arena, total * sizeof(sc_vol));
		if (!n->vols)
			return KP_ENOMEM;
		for (size_t p = 0; p < n->n_pods; p++) {
			const sc_class *cls = &c->classes[c->pods[n->pods[p]].cls];
			if (!cls->n_vols)
				continue;
			memcpy(n->vols + n->n_vols, cls->vols, cls->n_vols * sizeof(sc_vol));
			n->n_vols += cls->n_vols;
		}
		/* a node already over a limit takes no pod (upstream ExceedsLimits
		 * counts the node's volumes even for a pod without any) */
		for (size_t l = 0; l < n->n_vol_limits && !n->vol_over; l++) {
			int64_t count = 0;
			for (size_t a = 0; a < n->n_vols; a++) {
				if (n->vols[a].driver != n->vol_limit_driver[l])
					continue;
				size_t b = 0;
				while (b < a && !(n->vols[b].driver == n->vols[a].driver &&
						  n->vols[b].pvc == n->vols[a].pvc))
					b++;
				count += b == a;
			}
			if (count > n->vol_limit[l])
				n->vol_over = 1;
		}
	}
	return KP_OK;
}
