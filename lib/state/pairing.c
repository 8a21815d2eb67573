/*
 * Pairing Nodes with NodeClaims by provider ID (state.h).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include "common/map.h"
#include "state.h"

static const char *nc_pid(const kp_nodeclaim *nc)
{
	const char *pid = nc && nc->status ? nc->status->provider_id : NULL;
	return pid && pid[0] ? pid : NULL;
}

int kp__state_pair(size_t *pairs, uint8_t *nc_paired, const char *const *node_pids, size_t n_nodes,
		   const kp_nodeclaim *const *ncs, size_t n_ncs)
{
	if (nc_paired && n_ncs)
		memset(nc_paired, 0, n_ncs);
	for (size_t i = 0; i < n_nodes; i++)
		pairs[i] = KP__STATE_NONE;
	if (!n_nodes || !n_ncs)
		return KP_OK;
	/* One entry per provider ID: the first NodeClaim not yet taken, and
	 * a chain through the later ones with the same ID, in input order. */
	if (n_ncs > UINT32_MAX)
		return KP_ENOMEM; /* the map's values are 32-bit */
	kp__map ids = { 0 };
	size_t *first = kp__calloc(n_ncs, sizeof(*first)); /* per ID */
	size_t *tail = kp__calloc(n_ncs, sizeof(*tail));   /* per ID, while chaining */
	size_t *next = kp__calloc(n_ncs, sizeof(*next));   /* per NodeClaim */
	int rc = first && tail && next ? KP_OK : KP_ENOMEM;
	size_t n_ids = 0;
	for (size_t j = 0; j < n_ncs && rc == KP_OK; j++) {
		next[j] = KP__STATE_NONE;
		const char *pid = nc_pid(ncs[j]);
		if (!pid)
			continue;
		uint32_t id;
		int inserted;
		if (kp__map_put(&ids, pid, strlen(pid), (uint32_t)n_ids, &id, &inserted) != KP_OK) {
			rc = KP_ENOMEM;
			break;
		}
		if (inserted)
			first[n_ids++] = j;
		else
			next[tail[id]] = j;
		tail[id] = j;
	}
	for (size_t i = 0; i < n_nodes && rc == KP_OK; i++) {
		const char *pid = node_pids[i];
		uint32_t id;
		if (!pid || !pid[0] || !kp__map_gets(&ids, pid, &id) || first[id] == KP__STATE_NONE)
			continue;
		size_t j = first[id];
		pairs[i] = j;
		if (nc_paired)
			nc_paired[j] = 1;
		first[id] = next[j];
	}
	kp__map_free(&ids);
	kp__free(first);
	kp__free(next);
	kp__free(tail);
	return rc;
}
