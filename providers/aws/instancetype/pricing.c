/*
 * libkarpenter-aws: prices, as upstream's pricing provider answers them
 * (pkg/providers/pricing): on-demand from the generated table of the
 * region, else of us-east-1; spot per zone from a DescribeSpotPriceHistory
 * update, and before any update the on-demand price in every zone.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../aws_private.h"
#include "instancetype.h"


static void table_dispose(struct kp_aws_price_table *t)
{
	free(t->region);
	for (size_t i = 0; i < t->n; i++)
		free(t->prices[i].name);
	free(t->prices);
}

KP_EXPORT int kp_aws_catalog_load_on_demand_prices(kp_aws_catalog *cat, const char *json, size_t len,
						   const char *source, kp_error *err)
{
	if (!cat || !json)
		return kp_aws__error(err, KP_EINVAL, NULL,
				     "kp_aws_catalog_load_on_demand_prices: NULL argument");
	cJSON *doc = NULL;
	int rc = kp_aws__parse_doc(&doc, json, len, source, err);
	if (rc)
		return rc;
	if (!cJSON_IsObject(doc)) {
		rc = kp_aws__error(err, KP_EINVAL, NULL, "%s: not an object of regions",
				   source ? source : "<input>");
		goto out;
	}
	size_t n = (size_t)cJSON_GetArraySize(doc), k = 0;
	struct kp_aws_price_table *t = calloc(n ? n : 1, sizeof(*t));
	if (!t) {
		rc = kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
		goto out;
	}
	const cJSON *r;
	cJSON_ArrayForEach(r, doc) {
		rc = kp_aws__read_number_map(&t[k].prices, &t[k].n, r, source, r->string, err);
		if (!rc && !(t[k].region = kp_aws__strdup(r->string))) {
			table_dispose(&t[k]);
			rc = kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
		}
		if (rc)
			break;
		k++;
	}
	if (!rc) {
		struct kp_aws_price_table *all =
			realloc(cat->tables, (cat->n_tables + k) * sizeof(*all) + 1);
		if (!all) {
			rc = kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
		} else {
			cat->tables = all;
			for (size_t i = 0; i < k; i++) {
				size_t j = 0;
				while (j < cat->n_tables && strcmp(all[j].region, t[i].region) != 0)
					j++;
				if (j < cat->n_tables)
					table_dispose(&all[j]);
				else
					cat->n_tables++;
				all[j] = t[i];
			}
			k = 0;
		}
	}
	for (size_t i = 0; i < k; i++)
		table_dispose(&t[i]);
	free(t);
out:
	cJSON_Delete(doc);
	return rc;
}

static const struct kp_aws_price_table *table_for(const kp_aws_catalog *cat, const char *region)
{
	const struct kp_aws_price_table *fallback = NULL;
	for (size_t i = 0; i < cat->n_tables; i++) {
		if (strcmp(cat->tables[i].region, region) == 0)
			return &cat->tables[i];
		if (strcmp(cat->tables[i].region, "us-east-1") == 0)
			fallback = &cat->tables[i];
	}
	return fallback;
}

int kp_aws__on_demand_price(const kp_aws_catalog *cat, const char *region, const char *type,
			    double *out)
{
	const struct kp_aws_price_table *t = table_for(cat, region);
	if (!t || !t->n)
		return 0;
	const struct kp_aws_named_value *v =
		bsearch(type, t->prices, t->n, sizeof(*t->prices), kp_aws__name_vs_elem);
	if (!v)
		return 0;
	*out = v->value;
	return 1;
}

static int spot_cmp(const void *a, const void *b)
{
	const struct kp_aws_spot_price *x = a, *y = b;
	int c = strcmp(x->instance_type, y->instance_type);
	return c ? c : strcmp(x->zone, y->zone);
}

static int spot_key_cmp(const void *key, const void *elem)
{
	const char *const *k = key;
	const struct kp_aws_spot_price *e = elem;
	int c = strcmp(k[0], e->instance_type);
	return c ? c : strcmp(k[1], e->zone);
}

int kp_aws__spot_price(const kp_aws_catalog *cat, const char *region, const char *type,
		       const char *zone, double *out)
{
	/* Upstream keys spot prices by the types the static table knows, so a
	 * type without an on-demand price has no spot price either until an
	 * update names it. */
	double od;
	int known = kp_aws__on_demand_price(cat, region, type, &od);
	if (!cat->spot_updated) {
		if (known)
			*out = od;
		return known;
	}
	const char *key[2] = { type, zone };
	const struct kp_aws_spot_price *v =
		cat->n_spot ? bsearch(key, cat->spot, cat->n_spot, sizeof(*v), spot_key_cmp) : NULL;
	if (!v)
		return 0;
	*out = v->price;
	return 1;
}

/* A record and its position, for a stable sort with qsort. */
struct tagged {
	struct kp_aws_spot_price p;
	size_t pos;
};

static int tagged_cmp(const void *a, const void *b)
{
	const struct tagged *x = a, *y = b;
	int c = spot_cmp(&x->p, &y->p);
	return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

int kp_aws__parse_decimal(const char *s, size_t n, double *out)
{
	/* strconv.ParseFloat of plain decimal text ("0.0416"), locale-free:
	 * an exact integer divided by an exact power of ten is correctly
	 * rounded, as ParseFloat is, while both stay exact (< 2^53, <= 1e22);
	 * longer text is refused. */
	if (!s || !n)
		return -1;
	uint64_t mant = 0;
	int digits = 0, frac = 0, dot = 0;
	for (const char *p = s; p < s + n; p++) {
		if (*p >= '0' && *p <= '9') {
			if (mant > ((uint64_t)1 << 53) / 10)
				return -1;
			mant = mant * 10 + (uint64_t)(*p - '0');
			digits++;
			frac += dot;
		} else if (*p == '.' && !dot) {
			dot = 1;
		} else {
			return -1;
		}
	}
	if (!digits || frac > 22)
		return -1;
	double scale = 1;
	for (int i = 0; i < frac; i++)
		scale *= 10;
	*out = (double)mant / scale;
	return 0;
}

static int parse_price(const char *s, double *out)
{
	return s && !kp_aws__parse_decimal(s, strlen(s), out) && *out <= 1e6 ? 0 : -1;
}

KP_EXPORT int kp_aws_catalog_load_spot_prices(kp_aws_catalog *cat, const char *json, size_t len,
					      const char *source, kp_error *err)
{
	if (!cat || !json)
		return kp_aws__error(err, KP_EINVAL, NULL, "kp_aws_catalog_load_spot_prices: NULL argument");
	const char *src = source ? source : "<input>";
	cJSON *doc = NULL;
	int rc = kp_aws__parse_doc(&doc, json, len, source, err);
	if (rc)
		return rc;
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(doc, "SpotPriceHistory");
	if (!cJSON_IsArray(arr)) {
		rc = kp_aws__error(err, KP_EINVAL, "SpotPriceHistory", "%s: SpotPriceHistory: missing "
				   "or not an array (expected the output of aws ec2 "
				   "describe-spot-price-history)", src);
		cJSON_Delete(doc);
		return rc;
	}
	size_t n = (size_t)cJSON_GetArraySize(arr), k = 0;
	/* Merged with earlier updates (upstream combineZonalPricing). */
	struct kp_aws_spot_price *v = calloc(cat->n_spot + n + 1, sizeof(*v));
	if (!v) {
		cJSON_Delete(doc);
		return kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	size_t idx = 0;
	const cJSON *o;
	cJSON_ArrayForEach(o, arr) {
		const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, "InstanceType");
		const cJSON *az = cJSON_GetObjectItemCaseSensitive(o, "AvailabilityZone");
		const cJSON *pr = cJSON_GetObjectItemCaseSensitive(o, "SpotPrice");
		const cJSON *ts = cJSON_GetObjectItemCaseSensitive(o, "Timestamp");
		const cJSON *pd = cJSON_GetObjectItemCaseSensitive(o, "ProductDescription");
		if (!cJSON_IsObject(o) || !cJSON_IsString(it) || !cJSON_IsString(az)) {
			char field[64];
			snprintf(field, sizeof(field), "SpotPriceHistory[%zu]", idx);
			rc = kp_aws__error(err, KP_EINVAL, field, "%s: %s: needs InstanceType and "
					   "AvailabilityZone strings", src, field);
			break;
		}
		idx++;
		double price;
		if (!ts || cJSON_IsNull(ts) || !cJSON_IsString(pr) || parse_price(pr->valuestring, &price))
			continue;
		if (cJSON_IsString(pd) && strcmp(pd->valuestring, "Linux/UNIX") != 0 &&
		    strcmp(pd->valuestring, "Linux/UNIX (Amazon VPC)") != 0)
			continue;
		v[k].instance_type = kp_aws__strdup(it->valuestring);
		v[k].zone = kp_aws__strdup(az->valuestring);
		v[k].price = price;
		if (!v[k].instance_type || !v[k].zone) {
			k++;
			rc = kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
			break;
		}
		k++;
	}
	cJSON_Delete(doc);
	if (rc) {
		for (size_t i = 0; i < k; i++) {
			free(v[i].instance_type);
			free(v[i].zone);
		}
		free(v);
		return rc;
	}
	/* Later records win: order old ones first, then new ones in document
	 * order, stable-sort by key, keep the last of each key. */
	memmove(v + cat->n_spot, v, k * sizeof(*v));
	if (cat->n_spot)
		memcpy(v, cat->spot, cat->n_spot * sizeof(*v));
	size_t total = cat->n_spot + k;
	struct tagged *tg = malloc((total ? total : 1) * sizeof(*tg));
	if (!tg) {
		for (size_t i = cat->n_spot; i < total; i++) {
			free(v[i].instance_type);
			free(v[i].zone);
		}
		free(v);
		return kp_aws__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	for (size_t i = 0; i < total; i++) {
		tg[i].p = v[i];
		tg[i].pos = i;
	}
	qsort(tg, total, sizeof(*tg), tagged_cmp);
	size_t m = 0;
	for (size_t i = 0; i < total; i++) {
		if (m && spot_cmp(&v[m - 1], &tg[i].p) == 0) {
			free(v[m - 1].instance_type);
			free(v[m - 1].zone);
			v[m - 1] = tg[i].p;
		} else {
			v[m++] = tg[i].p;
		}
	}
	free(tg);
	free(cat->spot);
	cat->spot = v;
	cat->n_spot = m;
	cat->spot_updated = 1;
	return KP_OK;
}
