/* SPDX-License-Identifier: Apache-2.0 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>

#include "kp_test.h"

/* ------------------------------------------------------------ helpers */

#define MAXR 24 /* resources per test list */
#define MAXC 12 /* containers per test pod */

/* A caller-built list parsed from "cpu=1,memory=2Gi", kept in the given order. */
typedef struct tlist {
	kp_resource items[MAXR];
	char names[MAXR][128];
	kp_resource_list list;
} tlist;

static kp_resource_list *tl_parse(tlist *t, const char *spec)
{
	t->list.items = t->items;
	t->list.count = 0;
	while (spec && *spec) {
		const char *end = strchr(spec, ',');
		size_t len = end ? (size_t)(end - spec) : strlen(spec);
		char entry[128];
		ck_assert_uint_lt(len, sizeof(entry));
		memcpy(entry, spec, len);
		entry[len] = '\0';
		char *eq = strchr(entry, '=');
		ck_assert_ptr_nonnull(eq);
		*eq = '\0';
		ck_assert_uint_lt(t->list.count, MAXR);
		size_t i = t->list.count++;
		snprintf(t->names[i], sizeof(t->names[i]), "%s", entry);
		t->items[i].name = t->names[i];
		kp_error err = KP_ERROR_INIT;
		ck_assert_msg(kp_quantity_parse(&t->items[i].quantity, eq + 1, &err) == KP_OK,
			      "bad quantity %s: %s", eq + 1, err.message);
		spec = end ? end + 1 : NULL;
	}
	return &t->list;
}

/* Render "name=quantity,..." in list order. */
static const char *render(const kp_resource_list *l, char *buf, size_t size)
{
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < l->count; i++) {
		char q[KP_QUANTITY_STRING_MAX];
		ck_assert_int_eq(kp_quantity_format(&l->items[i].quantity, q, sizeof(q)), KP_OK);
		int n = snprintf(buf + off, size - off, "%s%s=%s", i ? "," : "", l->items[i].name, q);
		ck_assert(n > 0 && (size_t)n < size - off);
		off += (size_t)n;
	}
	return buf;
}

#define assert_list(l, expected)                                                 \
	do {                                                                     \
		char buf_[1024];                                                 \
		ck_assert_str_eq(render((l), buf_, sizeof(buf_)), (expected));   \
	} while (0)

/* A library-owned list holding spec. */
static void owned(kp_resource_list *out, const char *spec)
{
	tlist t;
	kp_resource_list init = KP_RESOURCE_LIST_INIT;
	*out = init;
	ck_assert_int_eq(kp_resources_copy(out, tl_parse(&t, spec), NULL), KP_OK);
}

static int64_t milli(const kp_resource_list *l, const char *name)
{
	kp_quantity q;
	int64_t v = 0;
	ck_assert_int_eq(kp_resources_get(&q, l, name, NULL), KP_OK);
	ck_assert_int_eq(kp_quantity_milli_value(&q, &v), KP_OK);
	return v;
}

/*
 * A test pod from a compact spec, entries separated by ';':
 *   c:REQ[|LIM]  container          i:REQ[|LIM]  init container
 *   s:REQ[|LIM]  sidecar (restartable init container)
 *   al:LIST / sr:LIST  allocated / status requests of the previous container
 *   o:LIST overhead, pr:LIST / pl:LIST pod-level requests / limits
 *   infeasible  the PodResizePending condition is Infeasible
 * An empty REQ leaves requests unset; "|=" makes the limits equal the requests.
 */
typedef struct tcont {
	kp_container_resources c;
	tlist req, lim, alloc, st;
} tcont;

typedef struct tpod {
	kp_pod_resources p;
	tcont conts[MAXC];
	size_t n_conts;
	const kp_container_resources *regular[MAXC];
	const kp_container_resources *init[MAXC];
	tlist overhead, preq, plim;
} tpod;

static tpod *tp_build(const char *spec)
{
	tpod *tp = calloc(1, sizeof(*tp));
	ck_assert_ptr_nonnull(tp);
	kp_pod_resources_init(&tp->p);
	tp->p.containers = tp->regular;
	tp->p.init_containers = tp->init;
	char copy[1024];
	snprintf(copy, sizeof(copy), "%s", spec);
	tcont *last = NULL;
	for (char *save = NULL, *e = strtok_r(copy, ";", &save); e; e = strtok_r(NULL, ";", &save)) {
		if (strcmp(e, "infeasible") == 0) {
			tp->p.resize_infeasible = 1;
			continue;
		}
		char *colon = strchr(e, ':');
		ck_assert_ptr_nonnull(colon);
		*colon = '\0';
		const char *body = colon + 1;
		if (strcmp(e, "o") == 0) {
			tp->p.overhead = tl_parse(&tp->overhead, body);
		} else if (strcmp(e, "pr") == 0) {
			tp->p.pod_requests = tl_parse(&tp->preq, body);
		} else if (strcmp(e, "pl") == 0) {
			tp->p.pod_limits = tl_parse(&tp->plim, body);
		} else if (strcmp(e, "al") == 0) {
			last->c.allocated = tl_parse(&last->alloc, body);
		} else if (strcmp(e, "sr") == 0) {
			last->c.status_requests = tl_parse(&last->st, body);
		} else {
			ck_assert_uint_lt(tp->n_conts, MAXC);
			last = &tp->conts[tp->n_conts++];
			kp_container_resources_init(&last->c);
			char req[512];
			snprintf(req, sizeof(req), "%s", body);
			char *bar = strchr(req, '|');
			if (bar)
				*bar = '\0';
			if (*req)
				last->c.requests = tl_parse(&last->req, req);
			if (bar && strcmp(bar + 1, "=") == 0)
				last->c.limits = tl_parse(&last->lim, req);
			else if (bar)
				last->c.limits = tl_parse(&last->lim, bar + 1);
			if (strcmp(e, "c") == 0) {
				tp->regular[tp->p.n_containers++] = &last->c;
			} else {
				ck_assert(strcmp(e, "i") == 0 || strcmp(e, "s") == 0);
				last->c.restartable = e[0] == 's';
				tp->init[tp->p.n_init_containers++] = &last->c;
			}
		}
	}
	return tp;
}

/* ------------------------------------------------------- list arithmetic */

struct binop_case {
	const char *acc, *x, *expected;
};

static const struct binop_case add_cases[] = {
	{ "", "cpu=1", "cpu=1" },
	{ "cpu=1,memory=1Gi", "cpu=500m,memory=512Mi", "cpu=1500m,memory=1536Mi" },
	{ "cpu=1", "pods=1,memory=1Gi", "cpu=1,memory=1Gi,pods=1" },
	{ "", "pods=1,cpu=100m,memory=1Gi", "cpu=100m,memory=1Gi,pods=1" },
	{ "ephemeral-storage=1Gi", "ephemeral-storage=1024Mi", "ephemeral-storage=2Gi" },
	{ "hugepages-2Mi=2Mi", "hugepages-2Mi=4Mi", "hugepages-2Mi=6Mi" },
	{ "nvidia.com/gpu=1", "nvidia.com/gpu=2,example.com/foo=3",
	  "example.com/foo=3,nvidia.com/gpu=3" },
	{ "cpu=2,pods=110", "cpu=-500m,pods=-3", "cpu=1500m,pods=107" },
	{ "cpu=1", "", "cpu=1" },
};

START_TEST(add_table)
{
	const struct binop_case *c = &add_cases[_i];
	kp_resource_list acc;
	tlist x;
	owned(&acc, c->acc);
	ck_assert_int_eq(kp_resources_add(&acc, tl_parse(&x, c->x), NULL), KP_OK);
	assert_list(&acc, c->expected);
	kp_resources_dispose(&acc);
}
END_TEST

/* Subtract: only the names acc already has. */
static const struct binop_case sub_cases[] = {
	{ "cpu=2,memory=2Gi", "cpu=500m", "cpu=1500m,memory=2Gi" },
	{ "cpu=1", "cpu=2,memory=1Gi", "cpu=-1" },
	{ "", "cpu=1", "" },
	{ "pods=110", "pods=3", "pods=107" },
	{ "ephemeral-storage=20Gi,hugepages-2Mi=8Mi", "hugepages-2Mi=2Mi,nvidia.com/gpu=1",
	  "ephemeral-storage=20Gi,hugepages-2Mi=6Mi" },
};

START_TEST(sub_table)
{
	const struct binop_case *c = &sub_cases[_i];
	kp_resource_list acc;
	tlist x;
	owned(&acc, c->acc);
	ck_assert_int_eq(kp_resources_sub(&acc, tl_parse(&x, c->x), NULL), KP_OK);
	assert_list(&acc, c->expected);
	kp_resources_dispose(&acc);
}
END_TEST

/* SubtractFrom: every name of x, missing ones counting as zero. */
static const struct binop_case sub_all_cases[] = {
	{ "cpu=1", "cpu=2,memory=1Gi", "cpu=-1,memory=-1Gi" },
	{ "", "pods=1", "pods=-1" },
	{ "cpu=4,memory=8Gi,pods=110", "cpu=1500m,pods=1", "cpu=2500m,memory=8Gi,pods=109" },
	{ "nvidia.com/gpu=8", "nvidia.com/gpu=8", "nvidia.com/gpu=0" },
};

START_TEST(sub_all_table)
{
	const struct binop_case *c = &sub_all_cases[_i];
	kp_resource_list acc;
	tlist x;
	owned(&acc, c->acc);
	ck_assert_int_eq(kp_resources_sub_all(&acc, tl_parse(&x, c->x), NULL), KP_OK);
	assert_list(&acc, c->expected);
	kp_resources_dispose(&acc);
}
END_TEST

static const struct binop_case max_cases[] = {
	{ "cpu=1,memory=4Gi", "cpu=3,memory=2Gi", "cpu=3,memory=4Gi" },
	{ "cpu=1", "memory=2Gi", "cpu=1,memory=2Gi" },
	{ "", "cpu=-1", "cpu=-1" },
	/* ties keep acc's quantity, format included */
	{ "memory=1Gi", "memory=1073741824", "memory=1Gi" },
	{ "memory=1073741824", "memory=1Gi", "memory=1073741824" },
	{ "hugepages-1Gi=2Gi,nvidia.com/gpu=1", "hugepages-1Gi=1Gi,nvidia.com/gpu=4",
	  "hugepages-1Gi=2Gi,nvidia.com/gpu=4" },
};

START_TEST(max_table)
{
	const struct binop_case *c = &max_cases[_i];
	kp_resource_list acc;
	tlist x;
	owned(&acc, c->acc);
	ck_assert_int_eq(kp_resources_max(&acc, tl_parse(&x, c->x), NULL), KP_OK);
	assert_list(&acc, c->expected);
	kp_resources_dispose(&acc);
}
END_TEST

static const struct binop_case min_cases[] = {
	{ "cpu=4,memory=8Gi", "cpu=2,memory=6Gi", "cpu=2,memory=6Gi" },
	{ "cpu=1,memory=4Gi", "cpu=3", "cpu=1" },
	{ "cpu=1", "cpu=2,nvidia.com/gpu=1", "cpu=1" },
	{ "cpu=1", "", "" },
	{ "ephemeral-storage=10G,memory=1Gi,pods=5", "pods=3,memory=1073741824,ephemeral-storage=1Gi",
	  "ephemeral-storage=1Gi,memory=1Gi,pods=3" },
};

START_TEST(min_table)
{
	const struct binop_case *c = &min_cases[_i];
	kp_resource_list acc;
	tlist x;
	owned(&acc, c->acc);
	ck_assert_int_eq(kp_resources_min(&acc, tl_parse(&x, c->x), NULL), KP_OK);
	assert_list(&acc, c->expected);
	kp_resources_dispose(&acc);
}
END_TEST

/* Karpenter's MaxResources/MinResources over three lists, folded pairwise. */
START_TEST(max_min_fold)
{
	static const char *lists[] = { "cpu=1,memory=4Gi", "cpu=3,memory=2Gi", "cpu=2,memory=8Gi" };
	kp_resource_list mx = KP_RESOURCE_LIST_INIT, mn;
	owned(&mn, lists[0]);
	for (size_t i = 0; i < 3; i++) {
		tlist t;
		ck_assert_int_eq(kp_resources_max(&mx, tl_parse(&t, lists[i]), NULL), KP_OK);
		ck_assert_int_eq(kp_resources_min(&mn, tl_parse(&t, lists[i]), NULL), KP_OK);
	}
	assert_list(&mx, "cpu=3,memory=8Gi");
	assert_list(&mn, "cpu=1,memory=2Gi");
	ck_assert_int_eq(milli(&mx, "cpu"), 3000);
	ck_assert_int_eq(milli(&mn, "memory"), INT64_C(2147483648000));
	kp_resources_dispose(&mx);
	kp_resources_dispose(&mn);
}
END_TEST

/* ------------------------------------------------------------------ fits */

static const struct fits_case {
	const char *candidate, *total;
	int rc;
	const char *field, *message;
} fits_cases[] = {
	{ "cpu=1", "cpu=2", KP_OK, NULL, NULL },
	{ "cpu=2", "cpu=2", KP_OK, NULL, NULL },
	{ "cpu=2001m", "cpu=2,memory=1Gi", KP_EINSUFFICIENT, "cpu",
	  "requested cpu 2001m exceeds available 2" },
	{ "nvidia.com/gpu=1", "cpu=2", KP_EINSUFFICIENT, "nvidia.com/gpu",
	  "requested nvidia.com/gpu 1 exceeds available 0" },
	{ "nvidia.com/gpu=0", "cpu=2", KP_OK, NULL, NULL },
	{ "cpu=-1", "", KP_OK, NULL, NULL },
	{ "", "cpu=-1", KP_EINSUFFICIENT, "cpu", "total cpu is negative (-1), nothing fits" },
	{ "memory=1Gi", "cpu=-1m,memory=2Gi", KP_EINSUFFICIENT, "cpu",
	  "total cpu is negative (-1m), nothing fits" },
	{ "memory=1Gi", "memory=1073741824", KP_OK, NULL, NULL },
	{ "ephemeral-storage=10G", "ephemeral-storage=10Gi", KP_OK, NULL, NULL },
	{ "hugepages-2Mi=4Mi", "hugepages-2Mi=2Mi", KP_EINSUFFICIENT, "hugepages-2Mi",
	  "requested hugepages-2Mi 4Mi exceeds available 2Mi" },
	{ "pods=1,cpu=1", "cpu=4,pods=0", KP_EINSUFFICIENT, "pods",
	  "requested pods 1 exceeds available 0" },
	{ "cpu=1500m,memory=3Gi,pods=1", "pods=110,memory=3Gi,cpu=1500m", KP_OK, NULL, NULL },
	{ "", "", KP_OK, NULL, NULL },
};

START_TEST(fits_table)
{
	const struct fits_case *c = &fits_cases[_i];
	tlist a, b;
	kp_error err = KP_ERROR_INIT;
	kp_resource_list *cand = tl_parse(&a, c->candidate), *total = tl_parse(&b, c->total);
	ck_assert_int_eq(kp_resources_fits(cand, total, &err), c->rc);
	ck_assert_int_eq(kp_resources_fits(cand, total, NULL), c->rc);
	if (c->rc == KP_OK) {
		ck_assert_int_eq(err.code, 0); /* untouched on success */
		return;
	}
	ck_assert_int_eq(err.code, c->rc);
	ck_assert_str_eq(err.field, c->field);
	ck_assert_str_eq(err.message, c->message);
}
END_TEST

/* ------------------------------------------------------ get/set/copy/... */

START_TEST(get_set)
{
	kp_resource_list l = KP_RESOURCE_LIST_INIT;
	kp_quantity q;
	kp_error err = KP_ERROR_INIT;

	ck_assert_int_eq(kp_quantity_parse(&q, "2Gi", NULL), KP_OK);
	ck_assert_int_eq(kp_resources_set(&l, KP_RESOURCE_MEMORY, &q, NULL), KP_OK);
	ck_assert_int_eq(kp_quantity_parse(&q, "250m", NULL), KP_OK);
	ck_assert_int_eq(kp_resources_set(&l, KP_RESOURCE_CPU, &q, NULL), KP_OK);
	ck_assert_int_eq(kp_quantity_parse(&q, "1", NULL), KP_OK);
	ck_assert_int_eq(kp_resources_set(&l, "example.com/dongle", &q, NULL), KP_OK);
	assert_list(&l, "cpu=250m,example.com/dongle=1,memory=2Gi");
	ck_assert_int_eq(kp_quantity_parse(&q, "500m", NULL), KP_OK);
	ck_assert_int_eq(kp_resources_set(&l, KP_RESOURCE_CPU, &q, NULL), KP_OK);
	assert_list(&l, "cpu=500m,example.com/dongle=1,memory=2Gi");
	ck_assert_int_eq(milli(&l, "cpu"), 500);

	/* missing: expected outcome, output zeroed */
	ck_assert_int_eq(kp_quantity_parse(&q, "7", NULL), KP_OK);
	ck_assert_int_eq(kp_resources_get(&q, &l, "pods", &err), KP_ENOTFOUND);
	ck_assert_int_eq(kp_quantity_sign(&q), 0);
	ck_assert_str_eq(err.field, "pods");
	ck_assert_str_eq(err.message, "resource \"pods\" not found");

	/* get also reads unsorted caller lists */
	tlist t;
	ck_assert_int_eq(kp_resources_get(&q, tl_parse(&t, "pods=3,cpu=1"), "cpu", NULL), KP_OK);
	ck_assert_int_eq(kp_quantity_cmp(&q, &t.items[1].quantity), 0);

	ck_assert_int_eq(kp_resources_set(&l, "", &q, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "name");
	ck_assert_str_eq(err.message, "resource name is empty");
	assert_list(&l, "cpu=500m,example.com/dongle=1,memory=2Gi");

	kp_resources_dispose(&l);
	ck_assert_ptr_null(l.items);
	ck_assert_uint_eq(l.count, 0);
	kp_resources_dispose(&l);
	kp_resources_dispose(NULL);
}
END_TEST

START_TEST(copy_sorts_and_recycles)
{
	tlist t;
	kp_resource_list l = KP_RESOURCE_LIST_INIT;
	ck_assert_int_eq(kp_resources_copy(&l, tl_parse(&t, "pods=1,nvidia.com/gpu=2,cpu=3"), NULL),
			 KP_OK);
	assert_list(&l, "cpu=3,nvidia.com/gpu=2,pods=1");
	/* the copy owns its names */
	strcpy(t.names[1], "clobbered");
	assert_list(&l, "cpu=3,nvidia.com/gpu=2,pods=1");
	/* replacing keeps the names still wanted and frees the others */
	ck_assert_int_eq(kp_resources_copy(&l, tl_parse(&t, "memory=1Gi,nvidia.com/gpu=4"), NULL),
			 KP_OK);
	assert_list(&l, "memory=1Gi,nvidia.com/gpu=4");
	/* onto itself */
	ck_assert_int_eq(kp_resources_copy(&l, &l, NULL), KP_OK);
	assert_list(&l, "memory=1Gi,nvidia.com/gpu=4");
	ck_assert_int_eq(kp_resources_copy(&l, tl_parse(&t, ""), NULL), KP_OK);
	ck_assert_uint_eq(l.count, 0);
	kp_resources_dispose(&l);
}
END_TEST

START_TEST(is_zero)
{
	tlist t;
	ck_assert_int_eq(kp_resources_is_zero(NULL), 1);
	ck_assert_int_eq(kp_resources_is_zero(tl_parse(&t, "")), 1);
	ck_assert_int_eq(kp_resources_is_zero(tl_parse(&t, "cpu=0,memory=0Gi,pods=0")), 1);
	ck_assert_int_eq(kp_resources_is_zero(tl_parse(&t, "cpu=0,memory=1")), 0);
	ck_assert_int_eq(kp_resources_is_zero(tl_parse(&t, "cpu=-1m")), 0);
}
END_TEST

/* More entries than the inline scratch space, in reverse order. */
START_TEST(many_entries)
{
	tlist t;
	t.list.items = t.items;
	t.list.count = 20;
	for (size_t i = 0; i < 20; i++) {
		snprintf(t.names[i], sizeof(t.names[i]), "example.com/r%02zu", 19 - i);
		t.items[i].name = t.names[i];
		ck_assert_int_eq(kp_quantity_from_scaled(&t.items[i].quantity, (int64_t)(19 - i), 0,
							 KP_QUANTITY_DECIMAL_SI), KP_OK);
	}
	kp_resource_list acc = KP_RESOURCE_LIST_INIT;
	ck_assert_int_eq(kp_resources_add(&acc, &t.list, NULL), KP_OK);
	ck_assert_int_eq(kp_resources_add(&acc, &t.list, NULL), KP_OK);
	ck_assert_uint_eq(acc.count, 20);
	for (size_t i = 0; i < 20; i++) {
		char name[32];
		snprintf(name, sizeof(name), "example.com/r%02zu", i);
		ck_assert_str_eq(acc.items[i].name, name);
		ck_assert_int_eq(milli(&acc, name), (int64_t)(2000 * i));
	}
	kp_resource_list cp = KP_RESOURCE_LIST_INIT;
	ck_assert_int_eq(kp_resources_copy(&cp, &t.list, NULL), KP_OK);
	ck_assert_str_eq(cp.items[0].name, "example.com/r00");
	ck_assert_str_eq(cp.items[19].name, "example.com/r19");
	ck_assert_int_eq(kp_resources_sub_all(&cp, &acc, NULL), KP_OK);
	ck_assert_int_eq(milli(&cp, "example.com/r07"), -7000);
	ck_assert_int_eq(kp_resources_fits(&t.list, &acc, NULL), KP_OK);
	ck_assert_int_eq(kp_resources_fits(&acc, &t.list, NULL), KP_EINSUFFICIENT);
	kp_resources_dispose(&acc);
	kp_resources_dispose(&cp);
}
END_TEST

/* -------------------------------------------------------------- errors */

START_TEST(invalid_lists)
{
	kp_resource_list acc;
	tlist t;
	kp_error err = KP_ERROR_INIT;
	owned(&acc, "cpu=1");

	ck_assert_int_eq(kp_resources_add(&acc, tl_parse(&t, "cpu=1,memory=1,cpu=2"), &err),
			 KP_EINVAL);
	ck_assert_str_eq(err.field, "x[2].name");
	ck_assert_str_eq(err.message, "duplicate resource name \"cpu\"");

	tl_parse(&t, "cpu=1,memory=1");
	t.items[1].name = NULL;
	ck_assert_int_eq(kp_resources_max(&acc, &t.list, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "x[1].name");
	ck_assert_str_eq(err.message, "resource name is NULL");

	tl_parse(&t, "cpu=1");
	t.list.items = NULL;
	ck_assert_int_eq(kp_resources_fits(&t.list, &acc, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "candidate");
	ck_assert_str_eq(err.message, "candidate has 1 items but no array");

	ck_assert_int_eq(kp_resources_sub(&acc, NULL, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "x");
	ck_assert_str_eq(err.message, "x is NULL");

	/* a caller-built, unsorted list is never grown */
	kp_resource_list *unsorted = tl_parse(&t, "memory=1,cpu=1");
	ck_assert_int_eq(kp_resources_add(unsorted, &acc, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "acc");
	ck_assert_str_eq(err.message, "acc is not sorted by name, so it is not a library-owned list");

	assert_list(&acc, "cpu=1");
	kp_resources_dispose(&acc);
}
END_TEST

START_TEST(overflow_is_atomic)
{
	kp_resource_list acc;
	tlist t;
	kp_error err = KP_ERROR_INIT;
	/* 2^127-1: the largest mantissa a quantity holds */
	owned(&acc, "cpu=1,memory=170141183460469231731687303715884105727");
	ck_assert_int_eq(kp_resources_add(&acc, tl_parse(&t, "cpu=1,memory=1,pods=1"), &err),
			 KP_ERANGE);
	ck_assert_str_eq(err.field, "memory");
	ck_assert_str_eq(err.message, "sum of resource \"memory\" does not fit in a quantity");
	assert_list(&acc, "cpu=1,memory=170141183460469231731687303715884105727");

	ck_assert_int_eq(kp_resources_sub_all(&acc, tl_parse(&t, "cpu=1,memory=-1,pods=1"), &err),
			 KP_ERANGE);
	ck_assert_str_eq(err.field, "memory");
	ck_assert_str_eq(err.message, "difference of resource \"memory\" does not fit in a quantity");
	assert_list(&acc, "cpu=1,memory=170141183460469231731687303715884105727");
	kp_resources_dispose(&acc);
}
END_TEST

START_TEST(enomem_leaves_outputs_unchanged)
{
	kp_test_alloc_install();
	int saw_enomem = 0;
	for (long k = 0;; k++) {
		kp_resource_list acc, out, rec;
		tlist t;
		owned(&acc, "cpu=1,example.com/a=1,memory=1Gi,pods=1");
		owned(&out, "example.com/old=1");
		owned(&rec, "example.com/keep=1");
		tpod *tp = tp_build("c:cpu=1,example.com/new=2|example.com/lim=1;s:example.com/side=1;"
				    "i:cpu=4;o:example.com/oh=1");
		kp_resource_list *x = tl_parse(&t, "example.com/b=1,cpu=1,example.com/c=2,example.com/d=3");
		kp_test_alloc_fail_at(k); /* failures change nothing */
		int rc_add = kp_resources_add(&acc, x, NULL);
		int rc_pod = kp_resources_pod_requests(&out, &tp->p, NULL);
		int rc_copy = kp_resources_copy(&rec, x, NULL);
		kp_test_alloc_fail_at(-1);
		saw_enomem |= rc_add == KP_ENOMEM || rc_pod == KP_ENOMEM || rc_copy == KP_ENOMEM;
		if (rc_add == KP_ENOMEM)
			assert_list(&acc, "cpu=1,example.com/a=1,memory=1Gi,pods=1");
		else
			assert_list(&acc, "cpu=2,example.com/a=1,example.com/b=1,example.com/c=2,"
					  "example.com/d=3,memory=1Gi,pods=1");
		if (rc_pod == KP_ENOMEM)
			assert_list(&out, "example.com/old=1");
		else
			assert_list(&out, "cpu=4,example.com/lim=1,example.com/new=2,"
					  "example.com/oh=1,example.com/side=1");
		if (rc_copy == KP_ENOMEM)
			assert_list(&rec, "example.com/keep=1");
		else
			assert_list(&rec, "cpu=1,example.com/b=1,example.com/c=2,example.com/d=3");
		kp_resources_dispose(&acc);
		kp_resources_dispose(&out);
		kp_resources_dispose(&rec);
		free(tp);
		if (rc_add == KP_OK && rc_pod == KP_OK && rc_copy == KP_OK)
			break;
		ck_assert_int_lt(k, 200);
	}
	ck_assert(saw_enomem);
	kp_test_alloc_uninstall();
}
END_TEST

/* ------------------------------------------------------------ pods */

struct pod_case {
	const char *name, *pod, *requests, *limits;
};

#define SAME(x) x, x
static const struct pod_case pod_cases[] = {
	/* sigs.k8s.io/karpenter pkg/utils/resources/suite_test.go */
	{ "sidecar adds to containers", "c:cpu=2,memory=1Gi|=;s:cpu=1,memory=2Gi|=",
	  SAME("cpu=3,memory=3Gi") },
	{ "containers, sidecar, init and overhead",
	  "o:cpu=5,memory=1Gi;c:cpu=2,memory=1Gi|=;i:cpu=4,memory=2Gi|=;s:cpu=3,memory=3Gi|=",
	  SAME("cpu=10,memory=5Gi") },
	{ "init after sidecar exceeds containers",
	  "c:cpu=2,memory=1Gi|=;s:cpu=4,memory=2Gi|=;i:cpu=10,memory=2Gi|=",
	  SAME("cpu=14,memory=4Gi") },
	{ "init after sidecar below containers",
	  "c:cpu=2,memory=2Gi|=;s:cpu=4,memory=2Gi|=;i:cpu=1,memory=1Gi|=",
	  SAME("cpu=6,memory=4Gi") },
	{ "init after several sidecars exceeds",
	  "c:cpu=3,memory=3Gi|=;s:cpu=2,memory=2Gi|=;s:cpu=1,memory=1Gi|=;s:cpu=3,memory=3Gi|=;"
	  "s:cpu=5,memory=5Gi|=;i:cpu=20,memory=20Gi|=",
	  SAME("cpu=31,memory=31Gi") },
	{ "init after several sidecars below",
	  "c:cpu=3,memory=3Gi|=;s:cpu=2,memory=2Gi|=;s:cpu=1,memory=1Gi|=;s:cpu=3,memory=3Gi|=;"
	  "s:cpu=5,memory=5Gi|=;i:cpu=1,memory=1Gi|=",
	  SAME("cpu=14,memory=14Gi") },
	{ "first init exceeds all sidecars and containers",
	  "c:cpu=3,memory=3Gi|=;i:cpu=25,memory=25Gi|=;s:cpu=1,memory=1Gi|=;i:cpu=3,memory=3Gi|=;"
	  "i:cpu=1,memory=1Gi|=;s:cpu=5,memory=5Gi|=;i:cpu=1,memory=1Gi|=;i:cpu=1,memory=1Gi|=;"
	  "s:cpu=1,memory=1Gi|=",
	  SAME("cpu=25,memory=25Gi") },
	{ "interspersed sidecars and inits",
	  "c:cpu=3,memory=3Gi|=;i:cpu=2,memory=2Gi|=;s:cpu=1,memory=1Gi|=;i:cpu=3,memory=3Gi|=;"
	  "i:cpu=1,memory=1Gi|=;s:cpu=5,memory=5Gi|=;i:cpu=1,memory=1Gi|=;i:cpu=1,memory=1Gi|=;"
	  "s:cpu=1,memory=1Gi|=;i:cpu=2,memory=1Gi|=",
	  SAME("cpu=10,memory=10Gi") },
	{ "first init exceeds cpu only",
	  "c:cpu=3,memory=3Gi|=;i:cpu=25,memory=4Gi|=;s:cpu=1,memory=1Gi|=;s:cpu=5,memory=5Gi|=",
	  SAME("cpu=25,memory=9Gi") },
	{ "first init exceeds memory only",
	  "c:cpu=3,memory=3Gi|=;i:cpu=4,memory=25Gi|=;s:cpu=1,memory=1Gi|=;s:cpu=5,memory=5Gi|=",
	  SAME("cpu=9,memory=25Gi") },
	{ "init after sidecar exceeds cpu only",
	  "c:cpu=2,memory=4Gi|=;s:cpu=4,memory=2Gi|=;i:cpu=10,memory=2Gi|=",
	  SAME("cpu=14,memory=6Gi") },
	{ "init after sidecar exceeds memory only",
	  "c:cpu=10,memory=2Gi|=;s:cpu=4,memory=2Gi|=;i:cpu=2,memory=4Gi|=",
	  SAME("cpu=14,memory=6Gi") },
	{ "pod-level requests and limits",
	  "pr:cpu=2,memory=2Gi;pl:cpu=4,memory=4Gi;c:cpu=1,memory=1Gi|cpu=3,memory=3Gi",
	  "cpu=2,memory=2Gi", "cpu=4,memory=4Gi" },
	{ "pod-level requests only",
	  "pr:cpu=2,memory=2Gi;c:cpu=1,memory=1Gi|=;s:cpu=1,memory=1Gi|=",
	  SAME("cpu=2,memory=2Gi") },
	{ "pod-level requests defaulted from limits",
	  "pr:cpu=10,memory=10Gi;pl:cpu=10,memory=10Gi;c:cpu=1,memory=1Gi|=;s:cpu=1,memory=1Gi|=",
	  SAME("cpu=10,memory=10Gi") },
	{ "allocated above spec (resize down in progress)",
	  "c:cpu=2,memory=512Mi;al:cpu=6,memory=2Gi;sr:cpu=2,memory=512Mi",
	  "cpu=6,memory=2Gi", "" },
	{ "spec above allocated (resize up in progress)",
	  "c:cpu=8,memory=4Gi;al:cpu=2,memory=1Gi;sr:cpu=8,memory=4Gi", "cpu=8,memory=4Gi", "" },
	{ "no status", "c:cpu=4,memory=2Gi", "cpu=4,memory=2Gi", "" },

	/* k8s.io/component-helpers resource/helpers_test.go */
	{ "larger init container", "i:cpu=4;c:cpu=1", "cpu=4", "" },
	{ "larger containers", "i:cpu=2;c:cpu=2;c:cpu=3", "cpu=5", "" },
	{ "overhead on requests, and on non-zero limits only",
	  "o:cpu=1,memory=1Gi;i:cpu=2|cpu=2;c:cpu=2;c:cpu=3", "cpu=6,memory=1Gi", "cpu=3" },
	{ "overhead on limits", "o:cpu=1,memory=1Gi;i:|cpu=2;c:|cpu=2;c:|cpu=3",
	  "cpu=6,memory=1Gi", "cpu=6" },
	{ "resize infeasible: actuated", "infeasible;c:cpu=4;sr:cpu=2", "cpu=2", "" },
	{ "resize infeasible and in progress", "infeasible;c:cpu=6;al:cpu=4;sr:cpu=2", "cpu=4", "" },
	{ "resized without resize status", "c:cpu=4;sr:cpu=2", "cpu=4", "" },
	{ "per-resource 3-way maximum",
	  "c:cpu=30m,memory=20M,ephemeral-storage=10G;"
	  "al:cpu=20m,memory=10M,ephemeral-storage=30G;sr:cpu=10m,memory=30M,ephemeral-storage=20G",
	  "cpu=30m,ephemeral-storage=30G,memory=30M", "" },
	{ "resize infeasible: sidecar", "infeasible;s:cpu=4;sr:cpu=2", "cpu=2", "" },
	{ "resized sidecar without resize status", "s:cpu=4;sr:cpu=2", "cpu=4", "" },
	{ "infeasible without any status", "infeasible;c:cpu=4;o:cpu=1", "cpu=1", "" },
	{ "sidecar", "s:cpu=1;c:cpu=1", "cpu=2", "" },
	{ "several sidecars", "i:cpu=5;s:cpu=1;s:cpu=2;s:cpu=3;c:cpu=1", "cpu=7", "" },
	{ "sidecars and inits", "i:cpu=5;s:cpu=1;s:cpu=2;i:cpu=5;s:cpu=3;c:cpu=1", "cpu=8", "" },
	{ "sidecar, init and regular", "s:cpu=10;i:cpu=200;c:cpu=100", "cpu=210", "" },
	{ "max of sums, not sum of maxes", "c:cpu=1;al:cpu=2;c:cpu=2;al:cpu=1", "cpu=3", "" },
	{ "requests, limits and overhead", "o:cpu=5,memory=5;c:cpu=1,memory=10|cpu=2,memory=12",
	  "cpu=6,memory=15", "cpu=7,memory=17" },
	{ "some limits and overhead", "o:cpu=5,memory=5;c:cpu=1,memory=10|cpu=2",
	  "cpu=6,memory=15", "cpu=7" },
	{ "just overhead", "o:cpu=5,memory=5", "cpu=5,memory=5", "" },
	{ "no resources", "c:", "", "" },
	{ "one limited, one unlimited container", "c:|cpu=2,memory=2Gi;c:",
	  SAME("cpu=2,memory=2Gi") },
	{ "one limited, one unlimited init container", "i:|cpu=2,memory=2Gi;i:",
	  SAME("cpu=2,memory=2Gi") },

	/* limits stand in for missing requests (the API server's defaulting) */
	{ "limit only", "c:|cpu=9", SAME("cpu=9") },
	{ "limit fills the missing request only", "c:cpu=1|cpu=2,memory=1Gi",
	  "cpu=1,memory=1Gi", "cpu=2,memory=1Gi" },
	{ "init limit without request", "c:cpu=1;i:|cpu=4,memory=1Gi", SAME("cpu=4,memory=1Gi") },
	{ "zero limit gets no overhead", "o:cpu=1;c:|cpu=0", "cpu=1", "cpu=0" },

	/* extended resources and pod-level rules */
	{ "extended and hugepages",
	  "c:cpu=1,nvidia.com/gpu=1|nvidia.com/gpu=1;c:cpu=500m,hugepages-2Mi=4Mi|hugepages-2Mi=4Mi",
	  "cpu=1500m,hugepages-2Mi=4Mi,nvidia.com/gpu=1", "hugepages-2Mi=4Mi,nvidia.com/gpu=1" },
	{ "pod level sets cpu, memory and hugepages only",
	  "pr:cpu=2,nvidia.com/gpu=4;pl:hugepages-2Mi=8Mi,memory=1Gi,nvidia.com/gpu=4;"
	  "c:cpu=1,nvidia.com/gpu=1|cpu=1,nvidia.com/gpu=1",
	  "cpu=2,nvidia.com/gpu=1", "cpu=1,hugepages-2Mi=8Mi,memory=1Gi,nvidia.com/gpu=1" },
	{ "overhead on top of pod level", "o:cpu=250m;pr:cpu=2;pl:cpu=4;c:cpu=1|cpu=1",
	  "cpu=2250m", "cpu=4250m" },
	{ "ephemeral storage from init", "c:ephemeral-storage=1Gi;i:ephemeral-storage=10Gi",
	  "ephemeral-storage=10Gi", "" },
	{ "a tie keeps the first quantity", "c:memory=1Gi;i:memory=1073741824", "memory=1Gi", "" },
};

START_TEST(pod_table)
{
	const struct pod_case *c = &pod_cases[_i];
	tpod *tp = tp_build(c->pod);
	kp_resource_list req = KP_RESOURCE_LIST_INIT, lim = KP_RESOURCE_LIST_INIT;
	kp_error err = KP_ERROR_INIT;
	ck_assert_msg(kp_resources_pod_requests(&req, &tp->p, &err) == KP_OK, "%s: %s", c->name,
		      err.message);
	ck_assert_msg(kp_resources_pod_limits(&lim, &tp->p, &err) == KP_OK, "%s: %s", c->name,
		      err.message);
	char buf[1024];
	ck_assert_msg(strcmp(render(&req, buf, sizeof(buf)), c->requests) == 0,
		      "%s: requests %s, want %s", c->name, buf, c->requests);
	ck_assert_msg(strcmp(render(&lim, buf, sizeof(buf)), c->limits) == 0,
		      "%s: limits %s, want %s", c->name, buf, c->limits);
	kp_resources_dispose(&req);
	kp_resources_dispose(&lim);
	free(tp);
}
END_TEST

/* One output list recycled across pods of different shapes. */
START_TEST(pod_output_recycled)
{
	static const char *pods[] = { "c:cpu=1,memory=1Gi", "c:memory=2Gi,example.com/x=1",
				      "c:cpu=3", "c:" };
	static const char *want[] = { "cpu=1,memory=1Gi", "example.com/x=1,memory=2Gi", "cpu=3", "" };
	kp_resource_list out = KP_RESOURCE_LIST_INIT;
	for (size_t i = 0; i < 4; i++) {
		tpod *tp = tp_build(pods[i]);
		ck_assert_int_eq(kp_resources_pod_requests(&out, &tp->p, NULL), KP_OK);
		assert_list(&out, want[i]);
		free(tp);
	}
	kp_resources_dispose(&out);
}
END_TEST

START_TEST(requests_for_pods)
{
	tpod *a = tp_build("c:cpu=2,memory=1Gi|=;s:cpu=1,memory=2Gi|=");
	tpod *b = tp_build("c:cpu=500m,memory=512Mi,pods=5|cpu=1");
	const kp_pod_resources *pods[] = { &a->p, &b->p };
	kp_resource_list out = KP_RESOURCE_LIST_INIT;

	ck_assert_int_eq(kp_resources_requests_for_pods(&out, NULL, 0, NULL), KP_OK);
	assert_list(&out, "pods=0");
	ck_assert_int_eq(kp_resources_requests_for_pods(&out, pods, 2, NULL), KP_OK);
	/* the container's own "pods" request is replaced by the pod count */
	assert_list(&out, "cpu=3500m,memory=3584Mi,pods=2");
	ck_assert_int_eq(milli(&out, "cpu"), 3500);
	ck_assert_int_eq(kp_resources_limits_for_pods(&out, pods, 2, NULL), KP_OK);
	assert_list(&out, "cpu=4,memory=3Gi,pods=2");

	const kp_pod_resources *many[1000];
	tpod *empty = tp_build("c:");
	for (size_t i = 0; i < 1000; i++)
		many[i] = &empty->p;
	ck_assert_int_eq(kp_resources_requests_for_pods(&out, many, 1000, NULL), KP_OK);
	assert_list(&out, "pods=1e3");

	kp_resources_dispose(&out);
	free(a);
	free(b);
	free(empty);
}
END_TEST

START_TEST(pod_inputs_validated)
{
	tpod *tp = tp_build("c:cpu=1;s:cpu=1");
	kp_resource_list out;
	kp_error err = KP_ERROR_INIT;
	owned(&out, "cpu=9");

	tp->conts[1].c.restartable = 2;
	ck_assert_int_eq(kp_resources_pod_requests(&out, &tp->p, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "init_containers[0].restartable");
	ck_assert_str_eq(err.message, "restartable must be 0 or 1, got 2");
	tp->conts[1].c.restartable = 1;

	tp->conts[0].c.struct_size = 8;
	ck_assert_int_eq(kp_resources_pod_limits(&out, &tp->p, &err), KP_EVERSION);
	ck_assert_str_eq(err.field, "containers[0].struct_size");
	tp->conts[0].c.struct_size = sizeof(kp_container_resources);

	tp->conts[0].req.items[0].name = "";
	const kp_pod_resources *pods[] = { &tp->p, &tp->p };
	ck_assert_int_eq(kp_resources_requests_for_pods(&out, pods, 2, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "pods[0].containers[0].requests[0].name");
	ck_assert_str_eq(err.message, "resource name is empty");
	tp->conts[0].req.items[0].name = "cpu";

	tp->p.n_init_containers = 2;
	tp->init[1] = NULL;
	ck_assert_int_eq(kp_resources_pod_requests(&out, &tp->p, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "init_containers[1]");
	ck_assert_str_eq(err.message, "init_containers[1] is NULL");
	tp->p.n_init_containers = 1;

	/* a newer caller's bigger struct: a zero tail is accepted, anything else is not */
	struct {
		kp_pod_resources p;
		unsigned char tail[8];
	} big;
	memset(&big, 0, sizeof(big));
	big.p = tp->p;
	big.p.struct_size = sizeof(big);
	ck_assert_int_eq(kp_resources_pod_requests(&out, &big.p, &err), KP_OK);
	assert_list(&out, "cpu=2");
	big.tail[3] = 1;
	ck_assert_int_eq(kp_resources_pod_requests(&out, &big.p, &err), KP_EVERSION);
	ck_assert_str_eq(err.field, "struct_size");

	ck_assert_int_eq(kp_resources_pod_requests(&out, NULL, &err), KP_EINVAL);
	ck_assert_int_eq(kp_resources_requests_for_pods(&out, NULL, 3, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "pods");
	assert_list(&out, "cpu=2");
	kp_resources_dispose(&out);
	free(tp);
}
END_TEST

START_TEST(pod_overflow)
{
	tpod *tp = tp_build("c:memory=170141183460469231731687303715884105727;c:memory=1");
	kp_resource_list out = KP_RESOURCE_LIST_INIT;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_resources_pod_requests(&out, &tp->p, &err), KP_ERANGE);
	ck_assert_str_eq(err.field, "memory");
	ck_assert_uint_eq(out.count, 0);
	free(tp);
}
END_TEST

/* More resources than the inline scratch lists hold, with and without memory. */
START_TEST(pod_many_resources)
{
	char spec[1024], want[1024];
	int off = snprintf(spec, sizeof(spec), "c:");
	for (int i = 0; i < 20; i++)
		off += snprintf(spec + off, sizeof(spec) - (size_t)off, "%sexample.com/r%02d=1",
				i ? "," : "", i);
	off += snprintf(spec + off, sizeof(spec) - (size_t)off, ";s:");
	for (int i = 19; i >= 0; i--)
		off += snprintf(spec + off, sizeof(spec) - (size_t)off, "example.com/r%02d=%d,", i,
				i % 3);
	snprintf(spec + off - 1, sizeof(spec) - (size_t)off + 1, ";i:example.com/r05=9");
	off = 0;
	for (int i = 0; i < 20; i++)
		off += snprintf(want + off, sizeof(want) - (size_t)off, "%sexample.com/r%02d=%d",
				i ? "," : "", i, i == 5 ? 11 : 1 + i % 3);
	tpod *tp = tp_build(spec);
	for (long k = -1;; k++) {
		kp_resource_list out;
		owned(&out, "cpu=1");
		kp_test_alloc_install();
		kp_test_alloc_fail_at(k);
		int rc = kp_resources_pod_requests(&out, &tp->p, NULL);
		kp_test_alloc_fail_at(-1);
		if (k >= 0 && rc == KP_ENOMEM) {
			assert_list(&out, "cpu=1");
		} else {
			ck_assert_int_eq(rc, KP_OK);
			assert_list(&out, want);
		}
		kp_resources_dispose(&out);
		if (k >= 0 && rc == KP_OK)
			break;
		ck_assert_int_lt(k, 200);
	}
	kp_test_alloc_uninstall();
	free(tp);
}
END_TEST

/* The init structs match their macros. */
START_TEST(init_functions)
{
	kp_container_resources c, cm = KP_CONTAINER_RESOURCES_INIT;
	kp_pod_resources p, pm = KP_POD_RESOURCES_INIT;
	memset(&c, 0xff, sizeof(c));
	memset(&p, 0xff, sizeof(p));
	kp_container_resources_init(&c);
	kp_pod_resources_init(&p);
	kp_container_resources_init(NULL);
	kp_pod_resources_init(NULL);
	ck_assert_uint_eq(c.struct_size, sizeof(c));
	ck_assert_uint_eq(p.struct_size, sizeof(p));
	ck_assert_ptr_null(c.requests);
	ck_assert_ptr_null(p.containers);
	ck_assert_uint_eq(cm.restartable, c.restartable);
	ck_assert_uint_eq(pm.n_init_containers, p.n_init_containers);
}
END_TEST

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

int main(void)
{
	Suite *s = suite_create("resources");
	TCase *tc = tcase_create("lists");
	tcase_add_loop_test(tc, add_table, 0, N(add_cases));
	tcase_add_loop_test(tc, sub_table, 0, N(sub_cases));
	tcase_add_loop_test(tc, sub_all_table, 0, N(sub_all_cases));
	tcase_add_loop_test(tc, max_table, 0, N(max_cases));
	tcase_add_loop_test(tc, min_table, 0, N(min_cases));
	tcase_add_test(tc, max_min_fold);
	tcase_add_loop_test(tc, fits_table, 0, N(fits_cases));
	tcase_add_test(tc, get_set);
	tcase_add_test(tc, copy_sorts_and_recycles);
	tcase_add_test(tc, is_zero);
	tcase_add_test(tc, many_entries);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_test(tc, invalid_lists);
	tcase_add_test(tc, overflow_is_atomic);
	tcase_add_test(tc, enomem_leaves_outputs_unchanged);
	suite_add_tcase(s, tc);

	tc = tcase_create("pods");
	tcase_add_loop_test(tc, pod_table, 0, N(pod_cases));
	tcase_add_test(tc, pod_output_recycled);
	tcase_add_test(tc, requests_for_pods);
	tcase_add_test(tc, pod_inputs_validated);
	tcase_add_test(tc, pod_overflow);
	tcase_add_test(tc, pod_many_resources);
	tcase_add_test(tc, init_functions);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
