/*
 * Cron schedules of NodePool disruption budgets: robfig/cron v3's
 * ParseStandard("TZ=UTC " + schedule), SpecSchedule.Next,
 * ConstantDelaySchedule (@every) and upstream Budget.IsActive
 * (pkg/apis/v1/nodepool.go).
 *
 * A calendar schedule is six bit sets (second .. day-of-week): bit n set means
 * value n matches; bit 63 (STAR_BIT) records that the field was written as
 * '*' or '?' without a step above 1, which decides robfig's day-of-month /
 * day-of-week rule. Next walks the UTC calendar field by field, jumping to the
 * next set bit instead of stepping one unit at a time (same result: every
 * jump lands on the earliest candidate robfig's stepping would reach).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <karpenter/cron.h>
#include <karpenter/duration.h>

#include "kp_internal.h"
#include "time/cron_private.h"
#include "time/timestamp_private.h"

#define STAR_BIT (UINT64_C(1) << 63)
#define SEARCH_YEARS 5
/* Go's zero time.Time, 0001-01-01T00:00:00Z, in Unix milliseconds. */
#define GO_ZERO_TIME_MS INT64_C(-62135596800000)

enum { F_SEC, F_MIN, F_HOUR, F_DOM, F_MONTH, F_DOW, F_COUNT };
enum { KIND_SPEC = 0, KIND_EVERY = 1 };
enum { NAMES_NONE = 0, NAMES_MONTH = 1, NAMES_DOW = 2 };

struct kp_cron {
	uint32_t kind;
	uint64_t bits[F_COUNT];
	int64_t every_s; /* KIND_EVERY: interval in whole seconds, >= 1 */
};

struct bounds {
	unsigned min, max;
	int names;
	const char *label;
};

static const struct bounds field_bounds[F_COUNT] = {
	{ 0, 59, NAMES_NONE, "second" },
	{ 0, 59, NAMES_NONE, "minute" },
	{ 0, 23, NAMES_NONE, "hour" },
	{ 1, 31, NAMES_NONE, "day-of-month" },
	{ 1, 12, NAMES_MONTH, "month" },
	{ 0, 6, NAMES_DOW, "day-of-week" },
};

static const char *const month_names[13] = {
	NULL, "JAN", "FEB", "MAR", "APR", "MAY", "JUN",
	"JUL", "AUG", "SEP", "OCT", "NOV", "DEC",
};
static const char *const dow_names[7] = { "SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT" };

/* ---------------------------------------------------------------- text */

/*
 * Byte length of the Unicode white space character (Go's unicode.IsSpace) at
 * p, or 0. The multi-byte ones are matched by their exact UTF-8 encoding.
 */
static size_t space_len(const char *s, size_t avail)
{
	const unsigned char *p = (const unsigned char *)s;
	if (avail == 0)
		return 0;
	if (*p == ' ' || (*p >= '\t' && *p <= '\r'))
		return 1;
	if (avail >= 2 && p[0] == 0xc2 && (p[1] == 0x85 || p[1] == 0xa0))
		return 2; /* U+0085, U+00A0 */
	if (avail < 3)
		return 0;
	if (p[0] == 0xe1 && p[1] == 0x9a && p[2] == 0x80)
		return 3; /* U+1680 */
	if (p[0] == 0xe2 && p[1] == 0x80 &&
	    ((p[2] >= 0x80 && p[2] <= 0x8a) || p[2] == 0xa8 || p[2] == 0xa9 || p[2] == 0xaf))
		return 3; /* U+2000-U+200A, U+2028, U+2029, U+202F */
	if (p[0] == 0xe2 && p[1] == 0x81 && p[2] == 0x9f)
		return 3; /* U+205F */
	if (p[0] == 0xe3 && p[1] == 0x80 && p[2] == 0x80)
		return 3; /* U+3000 */
	return 0;
}

struct span {
	const char *p;
	size_t n;
};

static int span_eq(struct span s, const char *lit)
{
	return strlen(lit) == s.n && memcmp(s.p, lit, s.n) == 0;
}

/* ---------------------------------------------------------------- fields */

/* Why a field failed, written into a caller buffer. */
struct why {
	char *buf;
	size_t size;
};

static int why_set(struct why *w, const char *fmt, ...) KP_PRINTF(2, 3);
static int why_set(struct why *w, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(w->buf, w->size, fmt, ap);
	va_end(ap);
	return KP_EPARSE;
}

enum { NUM_OK, NUM_SYNTAX, NUM_RANGE };

/* strconv.Atoi: [+-]?[0-9]+ fitting in int64. */
static int atoi64(struct span s, int64_t *out)
{
	size_t i = 0;
	int neg = 0;
	if (s.n > 0 && (s.p[0] == '+' || s.p[0] == '-')) {
		neg = s.p[0] == '-';
		i = 1;
	}
	if (i == s.n)
		return NUM_SYNTAX;
	uint64_t v = 0;
	int range = 0;
	for (; i < s.n; i++) {
		char c = s.p[i];
		if (c < '0' || c > '9')
			return NUM_SYNTAX;
		if (v > (UINT64_C(1) << 63) / 10)
			range = 1;
		else
			v = v * 10 + (uint64_t)(c - '0');
		if (v > (UINT64_C(1) << 63))
			range = 1;
	}
	if (range || (!neg && v > (uint64_t)INT64_MAX))
		return NUM_RANGE;
	*out = neg ? (v == (UINT64_C(1) << 63) ? INT64_MIN : -(int64_t)v) : (int64_t)v;
	return NUM_OK;
}

struct value {
	int64_t v;
	int named; /* came from a name (JAN, SUN, ...) */
};

static const char *value_name(const struct bounds *b, int64_t v)
{
	if (b->names == NAMES_MONTH && v >= 1 && v <= 12)
		return month_names[v];
	if (b->names == NAMES_DOW && v >= 0 && v <= 6)
		return dow_names[v];
	return NULL;
}

static void value_str(char *buf, size_t size, const struct bounds *b, struct value v)
{
	const char *name = v.named ? value_name(b, v.v) : NULL;
	if (name)
		snprintf(buf, size, "%s (%lld)", name, (long long)v.v);
	else
		snprintf(buf, size, "%lld", (long long)v.v);
}

/* A range start or end: a name (month/day fields) or a non-negative integer. */
static int parse_value(struct span tok, const struct bounds *b, const char *missing,
		       struct span elem, struct value *out, struct why *w)
{
	char q[KP_QUOTE_EXCERPT_MAX];
	if (tok.n == 0) {
		kp__quote_excerpt(q, sizeof(q), elem.p, elem.n);
		return why_set(w, "%s: missing %s", q, missing);
	}
	if (b->names != NAMES_NONE && tok.n == 3) {
		int lo = b->names == NAMES_MONTH ? 1 : 0, hi = b->names == NAMES_MONTH ? 12 : 6;
		for (int v = lo; v <= hi; v++) {
			const char *name = value_name(b, v);
			int eq = 1;
			for (int k = 0; k < 3 && eq; k++) {
				char c = tok.p[k];
				if (c >= 'a' && c <= 'z')
					c = (char)(c - 'a' + 'A');
				eq = c == name[k];
			}
			if (eq) {
				out->v = v;
				out->named = 1;
				return KP_OK;
			}
		}
	}
	int64_t v;
	kp__quote_excerpt(q, sizeof(q), tok.p, tok.n);
	switch (atoi64(tok, &v)) {
	case NUM_OK:
		break;
	case NUM_RANGE:
		return why_set(w, "value %.*s out of range [%u, %u]", (int)tok.n, tok.p, b->min,
			       b->max);
	default:
		if (b->names == NAMES_MONTH)
			return why_set(w, "%s is not a number or month name (JAN-DEC)", q);
		if (b->names == NAMES_DOW)
			return why_set(w, "%s is not a number or day name (SUN-SAT)", q);
		return why_set(w, "%s is not a number", q);
	}
	if (v < 0) /* unreachable: tokens are split at '-' and "+-1" is a syntax error */
		return why_set(w, "value %lld out of range [%u, %u]", (long long)v, b->min, b->max);
	out->v = v;
	out->named = 0;
	return KP_OK;
}

static uint64_t range_bits(unsigned lo, unsigned hi, uint64_t step)
{
	uint64_t bits = 0;
	for (uint64_t i = lo; i <= hi; i += step)
		bits |= UINT64_C(1) << i;
	return bits;
}

/* One list element: "*" | "?" | N | N-M, then an optional "/step". */
static int parse_range(struct span e, const struct bounds *b, uint64_t *out, struct why *w)
{
	char q[KP_QUOTE_EXCERPT_MAX];
	const char *slash = memchr(e.p, '/', e.n);
	struct span rng = { e.p, slash ? (size_t)(slash - e.p) : e.n };
	const char *hyphen = memchr(rng.p, '-', rng.n);
	struct span lo_tok = { rng.p, hyphen ? (size_t)(hyphen - rng.p) : rng.n };
	struct value start, end;
	uint64_t extra = 0;
	int rc;

	if (span_eq(lo_tok, "*") || span_eq(lo_tok, "?")) {
		/* as robfig, anything after "*-" is ignored */
		start.v = b->min;
		end.v = b->max;
		start.named = end.named = 0;
		extra = STAR_BIT;
	} else {
		rc = parse_value(lo_tok, b, hyphen ? "range start" : "value", e, &start, w);
		if (rc)
			return rc;
		if (!hyphen) {
			end = start;
		} else {
			struct span hi_tok = { hyphen + 1, rng.n - lo_tok.n - 1 };
			if (memchr(hi_tok.p, '-', hi_tok.n)) {
				kp__quote_excerpt(q, sizeof(q), e.p, e.n);
				return why_set(w, "%s has more than one '-'", q);
			}
			rc = parse_value(hi_tok, b, "range end", e, &end, w);
			if (rc)
				return rc;
		}
	}

	uint64_t step = 1;
	if (slash) {
		struct span st = { slash + 1, e.n - rng.n - 1 };
		if (memchr(st.p, '/', st.n)) {
			kp__quote_excerpt(q, sizeof(q), e.p, e.n);
			return why_set(w, "%s has more than one '/'", q);
		}
		if (st.n == 0) {
			kp__quote_excerpt(q, sizeof(q), e.p, e.n);
			return why_set(w, "%s: missing step after '/'", q);
		}
		int64_t sv;
		switch (atoi64(st, &sv)) {
		case NUM_OK:
			break;
		case NUM_RANGE:
			if (st.p[0] == '-')
				return why_set(w, "step %.*s must be a positive number", (int)st.n,
					       st.p);
			return why_set(w, "step %.*s is too large", (int)st.n, st.p);
		default:
			kp__quote_excerpt(q, sizeof(q), st.p, st.n);
			return why_set(w, "step %s is not a number", q);
		}
		if (sv < 0)
			return why_set(w, "step %lld must be a positive number", (long long)sv);
		step = (uint64_t)sv;
		if (!hyphen)
			end.v = b->max; /* "N/step" is "N-max/step" */
		if (step > 1)
			extra = 0;
	}

	char vs[48], ve[48];
	if (start.v < b->min || start.v > b->max) {
		value_str(vs, sizeof(vs), b, start);
		return why_set(w, "value %s out of range [%u, %u]", vs, b->min, b->max);
	}
	if (end.v < b->min || end.v > b->max) {
		value_str(ve, sizeof(ve), b, end);
		return why_set(w, "value %s out of range [%u, %u]", ve, b->min, b->max);
	}
	if (start.v > end.v) {
		value_str(vs, sizeof(vs), b, start);
		value_str(ve, sizeof(ve), b, end);
		return why_set(w, "range start %s is after end %s", vs, ve);
	}
	if (step == 0)
		return why_set(w, "step 0 must be a positive number");
	*out = range_bits((unsigned)start.v, (unsigned)end.v, step) | extra;
	return KP_OK;
}

/* A field: comma-separated elements; empty elements are skipped, as robfig. */
static int parse_field(struct span f, const struct bounds *b, uint64_t *out, struct why *w)
{
	uint64_t bits = 0;
	size_t i = 0;
	while (i < f.n) {
		size_t j = i;
		while (j < f.n && f.p[j] != ',')
			j++;
		if (j > i) {
			uint64_t eb;
			struct span e = { f.p + i, j - i };
			int rc = parse_range(e, b, &eb, w);
			if (rc)
				return rc;
			bits |= eb;
		}
		i = j + 1;
	}
	*out = bits;
	return KP_OK;
}

/* White-box test hooks, declared in cron_private.h. */
int kp__cron_field_bits(uint64_t *out, const char *text, unsigned min, unsigned max, int names,
			char *why, size_t why_size)
{
	struct bounds b = { min, max, names, "field" };
	struct why w = { why, why_size };
	struct span f = { text, strlen(text) };
	if (max > 62 || min > max)
		return KP_EINVAL;
	return parse_field(f, &b, out, &w);
}

int kp__cron_bits(kp_cron *cron, uint64_t bits[6], int64_t *every_s)
{
	memcpy(bits, cron->bits, sizeof(cron->bits));
	*every_s = cron->every_s;
	return (int)cron->kind;
}

/* ---------------------------------------------------------------- parse */

static uint64_t all_bits(const struct bounds *b)
{
	return range_bits(b->min, b->max, 1) | STAR_BIT;
}

static int parse_descriptor(kp_cron *c, struct span d, kp_error *err)
{
	static const struct {
		const char *name;
		const char *fields[F_COUNT]; /* "" = every value */
	} descriptors[] = {
		{ "@yearly", { "0", "0", "0", "1", "1", "" } },
		{ "@annually", { "0", "0", "0", "1", "1", "" } },
		{ "@monthly", { "0", "0", "0", "1", "", "" } },
		{ "@weekly", { "0", "0", "0", "", "", "0" } },
		{ "@daily", { "0", "0", "0", "", "", "" } },
		{ "@midnight", { "0", "0", "0", "", "", "" } },
		{ "@hourly", { "0", "0", "", "", "", "" } },
	};
	char q[KP_QUOTE_EXCERPT_MAX];
	for (size_t i = 0; i < sizeof(descriptors) / sizeof(descriptors[0]); i++) {
		if (!span_eq(d, descriptors[i].name))
			continue;
		c->kind = KIND_SPEC;
		for (int f = 0; f < F_COUNT; f++) {
			const char *v = descriptors[i].fields[f];
			c->bits[f] = *v ? UINT64_C(1) << (v[0] - '0') : all_bits(&field_bounds[f]);
		}
		return KP_OK;
	}
	static const char every[] = "@every ";
	if (d.n >= sizeof(every) - 1 && memcmp(d.p, every, sizeof(every) - 1) == 0) {
		size_t n = d.n - (sizeof(every) - 1);
		char *text = kp__strndup(d.p + sizeof(every) - 1, n);
		if (!text)
			return kp__error(err, KP_ENOMEM, NULL, "out of memory");
		kp_error derr;
		memset(&derr, 0, sizeof(derr));
		int64_t ns;
		int rc = kp_duration_parse_ns(&ns, text, &derr);
		kp__free(text);
		if (rc) {
			kp__quote_excerpt(q, sizeof(q), d.p, d.n);
			return kp__error(err, KP_EPARSE, NULL, "descriptor %s: %s", q, derr.message);
		}
		/* robfig's Every: at least one second, whole seconds */
		c->kind = KIND_EVERY;
		c->every_s = ns < INT64_C(1000000000) ? 1 : ns / INT64_C(1000000000);
		return KP_OK;
	}
	kp__quote_excerpt(q, sizeof(q), d.p, d.n);
	return kp__error(err, KP_EPARSE, NULL,
			 "unrecognized descriptor %s (expected @yearly, @annually, @monthly, "
			 "@weekly, @daily, @midnight, @hourly or @every <duration>)", q);
}

KP_EXPORT int kp_cron_parse(kp_cron **out, const char *schedule, uint32_t flags, kp_error *err)
{
	if (!out || !schedule)
		return kp__error(err, KP_EINVAL, NULL, "kp_cron_parse: %s is NULL",
				 !out ? "out" : "schedule");
	*out = NULL;
	if (flags & ~(uint32_t)(KP_CRON_SECONDS | KP_CRON_SECONDS_OPTIONAL))
		return kp__error(err, KP_EINVAL, NULL, "kp_cron_parse: unknown flags 0x%x",
				 (unsigned)flags);
	if ((flags & KP_CRON_SECONDS) && (flags & KP_CRON_SECONDS_OPTIONAL))
		return kp__error(err, KP_EINVAL, NULL,
				 "kp_cron_parse: KP_CRON_SECONDS and KP_CRON_SECONDS_OPTIONAL "
				 "are exclusive");

	/* Split on white space; remember up to 7 fields and the trimmed text. */
	struct span fields[7];
	size_t n_fields = 0, len = strlen(schedule), i = 0;
	const char *first = NULL, *last_end = NULL;
	while (i < len) {
		size_t sp = space_len(schedule + i, len - i);
		if (sp) {
			i += sp;
			continue;
		}
		size_t j = i;
		while (j < len && !space_len(schedule + j, len - j))
			j++;
		if (n_fields < 7)
			fields[n_fields] = (struct span){ schedule + i, j - i };
		n_fields++;
		if (!first)
			first = schedule + i;
		last_end = schedule + j;
		i = j;
	}

	kp_cron *c = kp__calloc(1, sizeof(*c));
	if (!c)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");

	int rc;
	if (first && *first == '@') {
		struct span trimmed = { first, (size_t)(last_end - first) };
		rc = parse_descriptor(c, trimmed, err);
		if (rc) {
			kp_cron_free(c);
			return rc;
		}
		*out = c;
		return KP_OK;
	}

	char q[KP_QUOTE_EXCERPT_MAX];
	size_t want_min = 5, want_max = 5;
	const char *shape = "(minute hour day-of-month month day-of-week)";
	if (flags & KP_CRON_SECONDS) {
		want_max = 6;
		shape = "(second minute hour day-of-month month [day-of-week])";
	} else if (flags & KP_CRON_SECONDS_OPTIONAL) {
		want_max = 6;
		shape = "([second] minute hour day-of-month month day-of-week)";
	}
	if (n_fields < want_min || n_fields > want_max) {
		kp__quote_excerpt(q, sizeof(q), first ? first : "", first ? (size_t)(last_end - first) : 0);
		kp_cron_free(c);
		if (want_min == want_max)
			return kp__error(err, KP_EPARSE, NULL,
					 "expected exactly %zu fields %s, found %zu: %s", want_min,
					 shape, n_fields, q);
		return kp__error(err, KP_EPARSE, NULL, "expected %zu to %zu fields %s, found %zu: %s",
				 want_min, want_max, shape, n_fields, q);
	}

	/* Lay the given fields over the defaults "0 0 0 * * *". */
	struct span full[F_COUNT] = {
		{ "0", 1 }, { "0", 1 }, { "0", 1 }, { "*", 1 }, { "*", 1 }, { "*", 1 },
	};
	size_t at = F_MIN;
	if ((flags & KP_CRON_SECONDS) || ((flags & KP_CRON_SECONDS_OPTIONAL) && n_fields == 6))
		at = F_SEC;
	for (size_t k = 0; k < n_fields; k++)
		full[at + k] = fields[k];

	for (int f = 0; f < F_COUNT; f++) {
		char why[KP_ERROR_MESSAGE_MAX];
		struct why w = { why, sizeof(why) };
		if (parse_field(full[f], &field_bounds[f], &c->bits[f], &w)) {
			kp__quote_excerpt(q, sizeof(q), full[f].p, full[f].n);
			kp_cron_free(c);
			return kp__error(err, KP_EPARSE, NULL, "%s field %s: %s", field_bounds[f].label,
					 q, why);
		}
	}
	c->kind = KIND_SPEC;
	*out = c;
	return KP_OK;
}

KP_EXPORT void kp_cron_free(kp_cron *cron)
{
	kp__free(cron);
}

/* ---------------------------------------------------------------- calendar */

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;
	if ((a % b != 0) && ((a < 0) != (b < 0)))
		q--;
	return q;
}

/* a - floor(a / b) * b, in [0, b) for b > 0, without overflow */
static int64_t floor_mod(int64_t a, int64_t b)
{
	int64_t r = a % b;
	return r < 0 ? r + b : r;
}

static unsigned days_in_month(int64_t y, unsigned m)
{
	static const unsigned dim[13] = { 0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return 29;
	return dim[m];
}

struct civil {
	int64_t y;
	unsigned mo, d, h, mi, s;
};

static void next_day(struct civil *t)
{
	if (++t->d > days_in_month(t->y, t->mo)) {
		t->d = 1;
		if (++t->mo > 12) {
			t->mo = 1;
			t->y++;
		}
	}
}

/* Lowest set bit of bits in (after, max], or -1. */
static int next_bit(uint64_t bits, unsigned after, unsigned max)
{
	for (unsigned v = after + 1; v <= max; v++)
		if (bits & (UINT64_C(1) << v))
			return (int)v;
	return -1;
}

static int day_matches(const kp_cron *c, const struct civil *t)
{
	int64_t days = kp__days_from_civil(t->y, t->mo, t->d);
	int64_t wd = (days + 4) % 7; /* 1970-01-01 was a Thursday */
	if (wd < 0)
		wd += 7;
	int dom = (c->bits[F_DOM] & (UINT64_C(1) << t->d)) != 0;
	int dow = (c->bits[F_DOW] & (UINT64_C(1) << wd)) != 0;
	if ((c->bits[F_DOM] & STAR_BIT) || (c->bits[F_DOW] & STAR_BIT))
		return dom && dow;
	return dom || dow;
}

static uint64_t in_bounds(uint64_t bits, int f)
{
	return bits & range_bits(field_bounds[f].min, field_bounds[f].max, 1);
}

/*
 * SpecSchedule.Next in UTC on whole seconds: the earliest matching second at
 * or after start_s, giving up past the end of year(start_s) + 5. Returns 1 and
 * sets *out_s when found.
 */
static int spec_next(const kp_cron *c, int64_t start_s, int64_t *out_s)
{
	for (int f = 0; f < F_COUNT; f++)
		if (f != F_DOM && f != F_DOW && !in_bounds(c->bits[f], f))
			return 0; /* a field that matches nothing: robfig searches in vain */

	struct civil t;
	int64_t days = floor_div(start_s, 86400), sod = start_s - days * 86400;
	kp__civil_from_days(days, &t.y, &t.mo, &t.d);
	t.h = (unsigned)(sod / 3600);
	t.mi = (unsigned)(sod / 60 % 60);
	t.s = (unsigned)(sod % 60);
	int64_t year_limit = t.y + SEARCH_YEARS;
	int added = 0; /* once a field moved, every lower field sits at its minimum */
	int v;

wrap:
	if (t.y > year_limit)
		return 0;

	if (!(c->bits[F_MONTH] & (UINT64_C(1) << t.mo))) {
		if (!added) {
			added = 1;
			t.d = 1;
			t.h = t.mi = t.s = 0;
		}
		v = next_bit(c->bits[F_MONTH], t.mo, 12);
		if (v < 0) {
			t.mo = 1;
			t.y++;
			goto wrap;
		}
		t.mo = (unsigned)v;
	}

	while (!day_matches(c, &t)) {
		if (!added) {
			added = 1;
			t.h = t.mi = t.s = 0;
		}
		next_day(&t);
		if (t.d == 1)
			goto wrap;
	}

	if (!(c->bits[F_HOUR] & (UINT64_C(1) << t.h))) {
		if (!added) {
			added = 1;
			t.mi = t.s = 0;
		}
		v = next_bit(c->bits[F_HOUR], t.h, 23);
		if (v < 0) {
			t.h = 0;
			next_day(&t);
			goto wrap;
		}
		t.h = (unsigned)v;
	}

	if (!(c->bits[F_MIN] & (UINT64_C(1) << t.mi))) {
		if (!added) {
			added = 1;
			t.s = 0;
		}
		v = next_bit(c->bits[F_MIN], t.mi, 59);
		if (v < 0) {
			t.mi = 0;
			if (++t.h == 24) {
				t.h = 0;
				next_day(&t);
			}
			goto wrap;
		}
		t.mi = (unsigned)v;
	}

	if (!(c->bits[F_SEC] & (UINT64_C(1) << t.s))) {
		added = 1;
		v = next_bit(c->bits[F_SEC], t.s, 59);
		if (v < 0) {
			t.s = 0;
			if (++t.mi == 60) {
				t.mi = 0;
				if (++t.h == 24) {
					t.h = 0;
					next_day(&t);
				}
			}
			goto wrap;
		}
		t.s = (unsigned)v;
	}

	*out_s = kp__days_from_civil(t.y, t.mo, t.d) * 86400 + t.h * 3600 + t.mi * 60 + t.s;
	return 1;
}

/*
 * The next activation after the instant floor_s + frac (frac < 1 s): returns 1
 * and sets *out_s, or 0 when a calendar schedule has none in range.
 */
static int next_after(const kp_cron *c, int64_t floor_s, int64_t *out_s)
{
	if (c->kind == KIND_EVERY) {
		/* ConstantDelaySchedule: t + delay - t's sub-second part */
		*out_s = floor_s + c->every_s;
		return 1;
	}
	return spec_next(c, floor_s + 1, out_s);
}

KP_EXPORT int kp_cron_next_ms(kp_cron *cron, int64_t *out_next_ms, int64_t after_ms, kp_error *err)
{
	if (!cron || !out_next_ms)
		return kp__error(err, KP_EINVAL, NULL, "kp_cron_next_ms: %s is NULL",
				 !cron ? "cron" : "out_next_ms");
	int64_t s;
	if (!next_after(cron, floor_div(after_ms, 1000), &s))
		return kp__error(err, KP_ENOTFOUND, NULL,
				 "schedule has no activation within %d years after %lld ms",
				 SEARCH_YEARS, (long long)after_ms);
	if (s > INT64_MAX / 1000 || s < INT64_MIN / 1000)
		return kp__error(err, KP_ERANGE, NULL,
				 "next activation (%lld s) is not representable in int64 ms",
				 (long long)s);
	*out_next_ms = s * 1000;
	return KP_OK;
}

KP_EXPORT int kp_cron_active(kp_cron *cron, int32_t *out_active, int64_t duration_ns,
			     int64_t now_ms, kp_error *err)
{
	if (!cron || !out_active)
		return kp__error(err, KP_EINVAL, NULL, "kp_cron_active: %s is NULL",
				 !cron ? "cron" : "out_active");
	/*
	 * checkpoint = now - duration. Go negates the duration first, and
	 * -MinInt64 wraps to MinInt64; mirror that. Work in (seconds, fraction)
	 * so nothing overflows.
	 */
	int64_t back = duration_ns == INT64_MIN ? INT64_MIN : -duration_ns;
	int64_t now_s = floor_div(now_ms, 1000), now_frac_ns = floor_mod(now_ms, 1000) * 1000000;
	int64_t back_s = floor_div(back, 1000000000), back_frac_ns = floor_mod(back, 1000000000);
	int64_t cp_s = now_s + back_s + (now_frac_ns + back_frac_ns >= 1000000000 ? 1 : 0);

	int64_t next_s;
	if (!next_after(cron, cp_s, &next_s)) {
		/* upstream gets Go's zero time, which is after nothing realistic */
		*out_active = !(GO_ZERO_TIME_MS > now_ms);
		return KP_OK;
	}
	/* next is a whole second: next <= now iff next_s <= floor(now) */
	*out_active = next_s <= now_s;
	return KP_OK;
}

KP_EXPORT int kp_cron_budget_active(int32_t *out_active, const char *schedule,
				    const char *duration, int64_t now_ms, kp_error *err)
{
	if (!out_active)
		return kp__error(err, KP_EINVAL, NULL, "kp_cron_budget_active: out_active is NULL");
	if (!schedule && !duration) {
		*out_active = 1;
		return KP_OK;
	}
	int64_t duration_ns = 0;
	int rc;
	if (duration) {
		rc = kp_duration_parse_ns(&duration_ns, duration, err);
		if (rc) {
			kp__error_prefix(err, "duration");
			return rc;
		}
	}
	kp_cron *c;
	rc = kp_cron_parse(&c, schedule ? schedule : "", 0, err);
	if (rc) {
		kp__error_prefix(err, "schedule");
		return rc;
	}
	int32_t active;
	rc = kp_cron_active(c, &active, duration_ns, now_ms, err);
	kp_cron_free(c);
	if (rc)
		return rc;
	*out_active = active;
	return KP_OK;
}
