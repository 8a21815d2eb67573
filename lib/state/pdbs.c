/*
 * PodDisruptionBudgets as every decision reads them (state.h; upstream
 * pkg/controllers/state pdb.Limits).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdlib.h>
#include <string.h>

#include <karpenter/labels.h>

#include "state.h"

const char *kp__object_namespace(const kp_object_meta *m)
{
	return m && m->namespace_ && m->namespace_[0] ? m->namespace_ : "default";
}

int kp__pdb_selects(const kp_pdb *b, const kp_pod *p)
{
	if (!b || !b->spec || strcmp(kp__object_namespace(b->metadata),
				     kp__object_namespace(p->metadata)) != 0)
		return 0;
	return kp_label_selector_matches(b->spec->selector,
					 p->metadata ? &p->metadata->labels : NULL);
}

struct kp__pdb_entry {
	const char *ns;
	size_t i;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct kp__pdb_entry *x = a, *y = b;
	int c = strcmp(x->ns, y->ns);
	if (c)
		return c;
	return x->i < y->i ? -1 : x->i > y->i;
}

int kp__pdb_index_init(kp__pdb_index *ix, const kp_pdb *const *pdbs, size_t n_pdbs)
{
	ix->pdbs = pdbs;
	ix->n = 0;
	ix->by_ns = kp__calloc(n_pdbs ? n_pdbs : 1, sizeof(*ix->by_ns));
	if (!ix->by_ns)
		return KP_ENOMEM;
	for (size_t i = 0; i < n_pdbs; i++)
		if (pdbs[i] && pdbs[i]->spec) /* a PDB without a spec selects nothing */
			ix->by_ns[ix->n++] =
				(struct kp__pdb_entry){ kp__object_namespace(pdbs[i]->metadata), i };
	qsort(ix->by_ns, ix->n, sizeof(*ix->by_ns), cmp_entry);
	return KP_OK;
}

void kp__pdb_index_dispose(kp__pdb_index *ix)
{
	kp__free(ix->by_ns);
	ix->by_ns = NULL;
	ix->n = 0;
}

size_t kp__pdbs_selecting(const kp__pdb_index *ix, const kp_pod *p, size_t first[2])
{
	const char *ns = kp__object_namespace(p->metadata);
	size_t lo = 0, hi = ix->n; /* the first entry of ns */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(ix->by_ns[mid].ns, ns) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	const kp_labels *labels = p->metadata ? &p->metadata->labels : NULL;
	size_t n = 0; /* in the input's order: the entries of ns are by index */
	for (size_t k = lo; k < ix->n && !strcmp(ix->by_ns[k].ns, ns); k++) {
		const kp_pdb *b = ix->pdbs[ix->by_ns[k].i];
		if (!kp_label_selector_matches(b->spec->selector, labels))
			continue;
		if (n < 2)
			first[n] = ix->by_ns[k].i;
		n++;
	}
	return n;
}

int kp__pdb_never_allows(const kp_pdb *b)
{
	const kp_pdb_spec *sp = b->spec;
	if (!sp)
		return 0;
	const kp_int_or_string *mu = &sp->max_unavailable, *ma = &sp->min_available;
	return (mu->type == KP_INT_OR_STRING_INT && mu->int_value == 0) ||
	       (mu->type == KP_INT_OR_STRING_STRING && mu->str_value && !strcmp(mu->str_value, "0%")) ||
	       (ma->type == KP_INT_OR_STRING_STRING && ma->str_value && !strcmp(ma->str_value, "100%"));
}
