/*
 * An input read piece by piece for the streaming parses (tree.h,
 * kp__reader): bytes read ahead come first, then the caller's function;
 * every byte counts against the input limit.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include "tree.h"

int kp__reader_read(kp__reader *r, char *buf, size_t cap, size_t *got, kp_error *err)
{
	*got = 0;
	if (!cap)
		return KP_OK;
	size_t n = 0;
	if (r->head_len) {
		n = r->head_len < cap ? r->head_len : cap;
		memcpy(buf, r->head, n);
		r->head += n;
		r->head_len -= n;
	} else if (r->read) {
		kp_error e = KP_ERROR_INIT;
		int rc = r->read(r->ctx, buf, cap, &n, &e);
		if (rc) {
			if (rc > 0 || !e.message[0])
				return kp__error(err, rc < 0 ? rc : KP_EIO, NULL,
						 "the input could not be read (%s)",
						 kp_strerror(rc < 0 ? rc : KP_EIO));
			if (err)
				*err = e;
			return rc;
		}
		if (n > cap)
			return kp__error(err, KP_EINVAL, NULL,
					 "the read function returned %zu bytes for a buffer of %zu", n,
					 cap);
	}
	if (n > r->max_bytes - r->total || r->total > r->max_bytes) {
		return kp__error(err, KP_ERANGE, NULL,
				 "the input is larger than %zu bytes, the limit (max_bytes)",
				 r->max_bytes);
	}
	r->total += n;
	*got = n;
	return KP_OK;
}
