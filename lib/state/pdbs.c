/*
 * PodDisruptionBudgets as every decision reads them (state.h; upstream
 * pkg/controllers/state pdb.Limits).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
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

size_t kp__pdbs_selecting(const kp_pdb *const *pdbs, size_t n_pdbs, const kp_pod *p,
			  size_t first[2])
{
	size_t n = 0;
	for (size_t i = 0; i < n_pdbs; i++) {
		if (!kp__pdb_selects(pdbs[i], p))
			continue;
		if (n < 2)
			first[n] = i;
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
