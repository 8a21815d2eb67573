/*
 * Budget cron schedules: robfig/cron v3 behaviour from the vectors in
 * ../shared/data/cron/robfig-cron-vectors.json (spec_test.go, parser_test.go,
 * constantdelay_test.go), upstream Budget.IsActive cases
 * (pkg/apis/v1/nodepool_budgets_test.go) and this library's messages.
 *
 * Vector rows are evaluated in UTC, which is exact for rows written in
 * "Local" time (the vectors' convention) and, by shifting wall-clock time,
 * for rows in fixed offsets. Rows that need a real IANA zone with daylight
 * saving time (America/New_York, America/Sao_Paulo) are skipped and counted
 * (kp_cron is always UTC, as Karpenter's budgets are), as is the one row for a
 * parser this library does not offer (minutes and hours only, no
 * descriptors). The counts are asserted so a change in the data is noticed.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/karpenter.h>

#include "time/cron_private.h"
#include "kp_test.h"

#define VECTORS "cron/robfig-cron-vectors.json"


#define STAR (UINT64_C(1) << 63)
#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define UNITS " (valid units are ns, us, \xc2\xb5s, ms, s, m, h)"
#define SHAPE5 "(minute hour day-of-month month day-of-week)"
#define SHAPE_SEC "(second minute hour day-of-month month [day-of-week])"
#define DESCRIPTORS                                                                      \
	" (expected @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly or " \
	"@every <duration>)"

/* ------------------------------------------------------------ time helpers */

static int64_t days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/*
 * "YYYY-MM-DDTHH:MM:SS[.fff][Z|+HH:MM|-HH:MM]" to Unix ms; *off_s gets the
 * offset (0 when absent: "Local" rows are evaluated in UTC).
 */
static int64_t iso_ms(const char *s, int *off_s)
{
	int y, mo, d, h, mi, sec, n = 0;
	ck_assert_msg(sscanf(s, "%d-%d-%dT%d:%d:%d%n", &y, &mo, &d, &h, &mi, &sec, &n) == 6,
		      "bad time %s", s);
	const char *p = s + n;
	int64_t ms = 0;
	if (*p == '.') {
		int scale = 100;
		for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10)
			ms += (*p - '0') * scale;
	}
	int off = 0;
	if (*p == '+' || *p == '-') {
		int oh, om;
		ck_assert(sscanf(p + 1, "%d:%d", &oh, &om) == 2);
		off = (oh * 3600 + om * 60) * (*p == '-' ? -1 : 1);
	}
	if (off_s)
		*off_s = off;
	return (days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec - off) * 1000 + ms;
}

/* A table time: ISO 8601 (UTC unless an offset is given) or "@<Unix ms>". */
static int64_t tms(const char *s)
{
	if (s[0] == '@')
		return strtoll(s + 1, NULL, 10);
	return iso_ms(s, NULL);
}

/* --------------------------------------------------------------- vectors */

static cJSON *vectors;

static cJSON *section(const char *name)
{
	cJSON *a = cJSON_GetObjectItemCaseSensitive(vectors, name);
	ck_assert_msg(cJSON_IsArray(a), "section %s missing", name);
	return a;
}

static const char *str(const cJSON *row, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static uint64_t bits_of(const cJSON *row, const char *key)
{
	const char *s = str(row, key);
	ck_assert_msg(s != NULL, "missing %s", key);
	return strtoull(s, NULL, 10);
}

static uint32_t parser_flags(const char *parser)
{
	if (!parser || strcmp(parser, "standard") == 0)
		return 0;
	if (strcmp(parser, "second") == 0)
		return KP_CRON_SECONDS;
	if (strcmp(parser, "second_optional") == 0)
		return KP_CRON_SECONDS_OPTIONAL;
	return UINT32_MAX; /* not offered */
}

/*
 * robfig strips a leading "TZ=<zone> " or "CRON_TZ=<zone> " itself; Karpenter
 * always passes "TZ=UTC " and kp_cron_parse implies it. Returns the schedule
 * after such a prefix and the zone named (or NULL).
 */
static const char *strip_tz(const char *spec, char *zone, size_t zone_size)
{
	zone[0] = '\0';
	if (strncmp(spec, "TZ=", 3) != 0 && strncmp(spec, "CRON_TZ=", 8) != 0)
		return spec;
	const char *eq = strchr(spec, '=');
	const char *sp = strchr(spec, ' ');
	ck_assert(sp != NULL);
	snprintf(zone, zone_size, "%.*s", (int)(sp - eq - 1), eq + 1);
	return sp;
}

static int zone_is_utc(const char *zone)
{
	return zone == NULL || zone[0] == '\0' || strcmp(zone, "UTC") == 0 ||
	       strcmp(zone, "Local") == 0;
}

/* Rows of one section selected for evaluation, and the count skipped. */
struct rows {
	const cJSON *row[128];
	int n;
	int skipped;
};

static struct rows activation_rows, next_rows, next_tz_rows, delay_rows, schedule_rows;

/* Runs in main(), outside any test: no ck_assert here. */
static int add_row(struct rows *r, const cJSON *row)
{
	if (r->n >= N(r->row))
		return -1;
	r->row[r->n++] = row;
	return 0;
}

/* Next rows: skip those needing a DST zone for the schedule or the input. */
static int next_row_needs_iana(const cJSON *row)
{
	const char *spec = str(row, "spec");
	int named_zone = strncmp(spec, "TZ=", 3) == 0 || strncmp(spec, "CRON_TZ=", 8) == 0;
	if (named_zone && strncmp(strchr(spec, '=') + 1, "UTC ", 4) != 0)
		return 1;
	return !zone_is_utc(str(row, "from_location"));
}

static int select_rows(void)
{
	static const char *const names[] = { "activation", "next", "next_with_tz",
					     "constant_delay_next", "parse_schedule" };
	struct rows *dst[] = { &activation_rows, &next_rows, &next_tz_rows, &delay_rows,
			       &schedule_rows };
	for (int i = 0; i < N(names); i++) {
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(vectors, names[i]), *row;
		if (!cJSON_IsArray(a))
			return -1;
		cJSON_ArrayForEach(row, a) {
			if (dst[i] == &next_rows && next_row_needs_iana(row))
				next_rows.skipped++;
			else if (add_row(dst[i], row))
				return -1;
		}
	}
	return 0;
}

static kp_cron *must_parse(const char *spec, uint32_t flags)
{
	kp_cron *c = NULL;
	kp_error err = KP_ERROR_INIT;
	int rc = kp_cron_parse(&c, spec, flags, &err);
	ck_assert_msg(rc == KP_OK, "parse \"%s\": %s", spec, err.message);
	ck_assert_ptr_nonnull(c);
	return c;
}

/* activation: activates == (Next(time - 1s) == time), ParseStandard. */
START_TEST(vec_activation)
{
	const cJSON *row = activation_rows.row[_i];
	kp_cron *c = must_parse(str(row, "spec"), 0);
	int64_t t = iso_ms(str(row, "time"), NULL), next = 0;
	int rc = kp_cron_next_ms(c, &next, t - 1000, NULL);
	int activates = rc == KP_OK && next == t;
	ck_assert_msg(activates == cJSON_IsTrue(cJSON_GetObjectItem(row, "activates")),
		      "%s at %s", str(row, "spec"), str(row, "time"));
	kp_cron_free(c);
}
END_TEST

/* next: secondParser.Parse(spec).Next(from), in UTC. */
START_TEST(vec_next)
{
	const cJSON *row = next_rows.row[_i];
	char zone[64];
	const char *spec = strip_tz(str(row, "spec"), zone, sizeof(zone));
	kp_cron *c = must_parse(spec, KP_CRON_SECONDS);
	int64_t from = iso_ms(str(row, "from"), NULL), next = 42;
	kp_error err = KP_ERROR_INIT;
	int rc = kp_cron_next_ms(c, &next, from, &err);
	const char *want = str(row, "next");
	if (!want) {
		ck_assert_int_eq(rc, KP_ENOTFOUND);
		ck_assert(next == 42);
		ck_assert_str_eq(err.message, "schedule has no activation within 5 years after "
					      "1341876900000 ms");
	} else {
		ck_assert_msg(rc == KP_OK, "%s: %s", spec, err.message);
		ck_assert_msg(next == iso_ms(want, NULL), "%s from %s: got %lld want %s", spec,
			      str(row, "from"), (long long)next, want);
	}
	kp_cron_free(c);
}
END_TEST

/* next_with_tz: ParseStandard, input in a fixed offset: shift wall clock. */
START_TEST(vec_next_with_tz)
{
	const cJSON *row = next_tz_rows.row[_i];
	kp_cron *c = must_parse(str(row, "spec"), 0);
	int off_from, off_next;
	int64_t from = iso_ms(str(row, "from"), &off_from);
	int64_t want = iso_ms(str(row, "next"), &off_next);
	ck_assert_int_eq(off_from, off_next);
	int64_t next;
	ck_assert_int_eq(kp_cron_next_ms(c, &next, from + off_from * INT64_C(1000), NULL), KP_OK);
	ck_assert(next - off_from * INT64_C(1000) == want);
	kp_cron_free(c);
}
END_TEST

/* constant_delay_next: Every(delay).Next(from), via "@every <delay>". */
START_TEST(vec_constant_delay)
{
	const cJSON *row = delay_rows.row[_i];
	int64_t delay_ns = (int64_t)cJSON_GetObjectItem(row, "delay_ns")->valuedouble;
	char d[KP_DURATION_STRING_MAX], spec[64];
	ck_assert_int_eq(kp_duration_format_ns(delay_ns, d, sizeof(d)), KP_OK);
	snprintf(spec, sizeof(spec), "@every %s", d);
	kp_cron *c = must_parse(spec, 0);
	int64_t next;
	ck_assert_int_eq(kp_cron_next_ms(c, &next, iso_ms(str(row, "from"), NULL), NULL), KP_OK);
	ck_assert_msg(next == iso_ms(str(row, "next"), NULL), "%s from %s", spec,
		      str(row, "from"));
	kp_cron_free(c);
}
END_TEST

/* parse_schedule: bit sets (and the @every delay) as robfig builds them. */
START_TEST(vec_parse_schedule)
{
	const cJSON *row = schedule_rows.row[_i];
	const cJSON *exp = cJSON_GetObjectItem(row, "expected");
	char zone[64];
	const char *spec = strip_tz(str(row, "expr"), zone, sizeof(zone));
	uint32_t flags = parser_flags(str(row, "parser"));
	ck_assert(flags != UINT32_MAX);
	kp_cron *c = must_parse(spec, flags);
	uint64_t bits[6];
	int64_t every_s;
	int kind = kp__cron_bits(c, bits, &every_s);
	if (strcmp(str(exp, "kind"), "ConstantDelaySchedule") == 0) {
		ck_assert_int_eq(kind, 1);
		char d[KP_DURATION_STRING_MAX];
		ck_assert_int_eq(kp_duration_format_ns(every_s * INT64_C(1000000000), d, sizeof(d)),
				 KP_OK);
		ck_assert_str_eq(d, str(exp, "Delay"));
	} else {
		static const char *names[6] = { "Second", "Minute", "Hour", "Dom", "Month", "Dow" };
		ck_assert_int_eq(kind, 0);
		for (int f = 0; f < 6; f++)
			ck_assert_msg(bits[f] == bits_of(exp, names[f]), "%s: %s got %llu", spec,
				      names[f], (unsigned long long)bits[f]);
		/* Location: kp_cron is always UTC; only the masks are comparable. */
	}
	kp_cron_free(c);
}
END_TEST

/*
 * Our message for every invalid vector input (robfig's wording differs; the
 * vectors' error_contains is robfig's, shown in the comments).
 */
static const struct {
	const char *expr;
	uint32_t flags;
	const char *message;
} vec_messages[] = {
	/* standard_invalid (TestErrors) */
	{ "xyz", 0, "expected exactly 5 fields " SHAPE5 ", found 1: \"xyz\"" },
	{ "60 0 * * *", 0, "minute field \"60\": value 60 out of range [0, 59]" },
	{ "0 60 * * *", 0, "hour field \"60\": value 60 out of range [0, 23]" },
	{ "0 0 * * XYZ", 0,
	  "day-of-week field \"XYZ\": \"XYZ\" is not a number or day name (SUN-SAT)" },
	/* slash0_invalid, after the TZ prefix robfig strips */
	{ "15/0 * * * *", 0, "minute field \"15/0\": step 0 must be a positive number" },
	/* standard_parse_errors: "failed to parse int from", "expected exactly 5 fields" */
	{ "5 j * * *", 0, "hour field \"j\": \"j\" is not a number" },
	{ "* * * *", 0, "expected exactly 5 fields " SHAPE5 ", found 4: \"* * * *\"" },
	/* parse_errors (second parser) */
	{ "* 5 j * * *", KP_CRON_SECONDS, "hour field \"j\": \"j\" is not a number" },
	{ "@every Xm", KP_CRON_SECONDS,
	  "descriptor \"@every Xm\": invalid duration \"Xm\": expected a number at \"Xm\"" },
	{ "@unrecognized", KP_CRON_SECONDS, "unrecognized descriptor \"@unrecognized\"" DESCRIPTORS },
	{ "* * * *", KP_CRON_SECONDS,
	  "expected 5 to 6 fields " SHAPE_SEC ", found 4: \"* * * *\"" },
	/* robfig: "empty spec string"; with the implied "TZ=UTC " prefix it is 0 fields */
	{ "", KP_CRON_SECONDS, "expected 5 to 6 fields " SHAPE_SEC ", found 0: \"\"" },
};

static void assert_parse_fails(const char *expr, uint32_t flags)
{
	for (int i = 0; i < N(vec_messages); i++) {
		if (strcmp(vec_messages[i].expr, expr) != 0 || vec_messages[i].flags != flags)
			continue;
		kp_cron *c = (kp_cron *)&c; /* must be reset to NULL */
		kp_error err = KP_ERROR_INIT;
		ck_assert_int_eq(kp_cron_parse(&c, expr, flags, &err), KP_EPARSE);
		ck_assert_ptr_null(c);
		ck_assert_int_eq(err.code, KP_EPARSE);
		ck_assert_str_eq(err.message, vec_messages[i].message);
		ck_assert_str_eq(err.field, "");
		return;
	}
	ck_abort_msg("no expected message for \"%s\" (flags %u)", expr, (unsigned)flags);
}

START_TEST(vec_parse_errors)
{
	const cJSON *row;
	int n = 0;
	char zone[64];
	cJSON_ArrayForEach(row, section("standard_invalid")) {
		assert_parse_fails(row->valuestring, 0);
		n++;
	}
	cJSON_ArrayForEach(row, section("slash0_invalid")) {
		/* with our implied "TZ=UTC " the zone prefix is just a 6th field */
		kp_cron *c;
		ck_assert_int_eq(kp_cron_parse(&c, row->valuestring, 0, NULL), KP_EPARSE);
		assert_parse_fails(strip_tz(row->valuestring, zone, sizeof(zone)) + 1, 0);
		n++;
	}
	cJSON_ArrayForEach(row, section("standard_parse_errors")) {
		assert_parse_fails(str(row, "expr"), parser_flags(str(row, "parser")));
		n++;
	}
	cJSON_ArrayForEach(row, section("parse_errors")) {
		assert_parse_fails(str(row, "expr"), parser_flags(str(row, "parser")));
		n++;
	}
	ck_assert_int_eq(n, 4 + 1 + 2 + 5);
}
END_TEST

/* get_range / get_field: robfig's field grammar with arbitrary bounds. */
static const struct {
	const char *expr;
	const char *why;
} range_messages[] = {
	{ "5--5", "\"5--5\" has more than one '-'" },            /* too many hyphens */
	{ "jan-x", "\"jan\" is not a number" },                  /* failed to parse int */
	{ "2-x", "\"x\" is not a number" },                      /* failed to parse int */
	{ "*/-12", "step -12 must be a positive number" },       /* negative number */
	{ "*//2", "\"*//2\" has more than one '/'" },            /* too many slashes */
	{ "1", "value 1 out of range [3, 5]" },                  /* below minimum */
	{ "6", "value 6 out of range [3, 5]" },                  /* above maximum */
	{ "5-3", "range start 5 is after end 3" },               /* beyond end of range */
	{ "*/0", "step 0 must be a positive number" },           /* should be positive */
};

static void check_field_rows(const char *name)
{
	const cJSON *row;
	cJSON_ArrayForEach(row, section(name)) {
		const char *expr = str(row, "expr");
		unsigned min = (unsigned)cJSON_GetObjectItem(row, "min")->valueint;
		unsigned max = (unsigned)cJSON_GetObjectItem(row, "max")->valueint;
		uint64_t bits = 7;
		char why[256] = "";
		int rc = kp__cron_field_bits(&bits, expr, min, max, 0, why, sizeof(why));
		if (str(row, "error_contains")) {
			ck_assert_int_eq(rc, KP_EPARSE);
			ck_assert(bits == 7);
			int found = 0;
			for (int i = 0; i < N(range_messages); i++)
				if (strcmp(range_messages[i].expr, expr) == 0) {
					ck_assert_str_eq(why, range_messages[i].why);
					found = 1;
				}
			ck_assert_msg(found, "no expected message for %s", expr);
		} else {
			ck_assert_msg(rc == KP_OK, "%s: %s", expr, why);
			ck_assert_msg(bits == bits_of(row, "expected_bits"), "%s: %llu", expr,
				      (unsigned long long)bits);
		}
	}
}

START_TEST(vec_get_range_and_field)
{
	check_field_rows("get_range");
	check_field_rows("get_field");
}
END_TEST

/* all_bits: "*" over each field's bounds, also as parsed in a schedule. */
START_TEST(vec_all_bits)
{
	const cJSON *row;
	uint64_t sched[6];
	int64_t every;
	kp_cron *c = must_parse("* * * * * *", KP_CRON_SECONDS);
	kp__cron_bits(c, sched, &every);
	kp_cron_free(c);
	int n = 0;
	cJSON_ArrayForEach(row, section("all_bits")) {
		uint64_t bits;
		char why[256];
		unsigned min = (unsigned)cJSON_GetObjectItem(row, "min")->valueint;
		unsigned max = (unsigned)cJSON_GetObjectItem(row, "max")->valueint;
		uint64_t want = bits_of(row, "expected_all_bits");
		ck_assert_int_eq(kp__cron_field_bits(&bits, "*", min, max, 0, why, sizeof(why)), KP_OK);
		ck_assert(bits == want);
		const char *b = str(row, "bounds");
		int f = strcmp(b, "minutes") == 0 ? 1 : strcmp(b, "hours") == 0 ? 2
			: strcmp(b, "dom") == 0 ? 3 : strcmp(b, "months") == 0 ? 4 : 5;
		ck_assert(sched[f] == want);
		if (f == 1)
			ck_assert(sched[0] == want); /* seconds share the minutes' bounds */
		n++;
	}
	ck_assert_int_eq(n, 5);
}
END_TEST

/* get_bits: [min, max] every step, written as "min-max/step". */
START_TEST(vec_get_bits)
{
	const cJSON *row;
	int n = 0;
	cJSON_ArrayForEach(row, section("get_bits")) {
		char expr[64], why[256];
		uint64_t bits;
		snprintf(expr, sizeof(expr), "%d-%d/%d", cJSON_GetObjectItem(row, "min")->valueint,
			 cJSON_GetObjectItem(row, "max")->valueint,
			 cJSON_GetObjectItem(row, "step")->valueint);
		ck_assert_int_eq(kp__cron_field_bits(&bits, expr, 0, 62, 0, why, sizeof(why)), KP_OK);
		ck_assert_msg(bits == bits_of(row, "expected_bits"), "%s", expr);
		n++;
	}
	ck_assert_int_eq(n, 4);
}
END_TEST

/* Evaluated and skipped rows per section, so a change in the data shows. */
START_TEST(vec_coverage)
{
	ck_assert_int_eq(activation_rows.n, 29);
	ck_assert_int_eq(activation_rows.skipped, 0);
	/*
	 * next: 58 rows; 37 need a DST zone: 20 "TZ=America/New_York", 4
	 * "CRON_TZ=America/New_York", 2 "TZ=America/Sao_Paulo" schedules and 11
	 * inputs located in America/New_York.
	 */
	ck_assert_int_eq(next_rows.n, 21);
	ck_assert_int_eq(next_rows.skipped, 37);
	ck_assert_int_eq(next_tz_rows.n, 4);
	ck_assert_int_eq(delay_rows.n, 14);
	ck_assert_int_eq(schedule_rows.n, 17);
	/* the one no_descriptor_parser_errors row uses NewParser(Minute | Hour) */
	const cJSON *row;
	int n = 0;
	cJSON_ArrayForEach(row, section("no_descriptor_parser_errors")) {
		ck_assert(parser_flags(str(row, "parser")) == UINT32_MAX);
		n++;
	}
	ck_assert_int_eq(n, 1);
}
END_TEST

/* ------------------------------------------------------------ parse: ours */

static const struct {
	const char *spec;
	uint32_t flags;
	int code;
	const char *message;
} bad_specs[] = {
	{ "0 0 * * sat-sun", 0, KP_EPARSE,
	  "day-of-week field \"sat-sun\": range start SAT (6) is after end SUN (0)" },
	{ "0 0 * * tue-mon", 0, KP_EPARSE,
	  "day-of-week field \"tue-mon\": range start TUE (2) is after end MON (1)" },
	{ "0 0 * * 1-7", 0, KP_EPARSE, "day-of-week field \"1-7\": value 7 out of range [0, 6]" },
	{ "0 0 * * 7", 0, KP_EPARSE, "day-of-week field \"7\": value 7 out of range [0, 6]" },
	{ "0 0 * * mon-7", 0, KP_EPARSE, "day-of-week field \"mon-7\": value 7 out of range [0, 6]" },
	{ "* * * *", 0, KP_EPARSE, "expected exactly 5 fields " SHAPE5 ", found 4: \"* * * *\"" },
	{ "* * * * * *", 0, KP_EPARSE,
	  "expected exactly 5 fields " SHAPE5 ", found 6: \"* * * * * *\"" },
	{ "  * *  ", 0, KP_EPARSE, "expected exactly 5 fields " SHAPE5 ", found 2: \"* *\"" },
	{ "", 0, KP_EPARSE, "expected exactly 5 fields " SHAPE5 ", found 0: \"\"" },
	{ " \t\n", 0, KP_EPARSE, "expected exactly 5 fields " SHAPE5 ", found 0: \"\"" },
	{ "60 * * * *", 0, KP_EPARSE, "minute field \"60\": value 60 out of range [0, 59]" },
	{ "60/5 * * * *", 0, KP_EPARSE, "minute field \"60/5\": value 60 out of range [0, 59]" },
	{ "* 24 * * *", 0, KP_EPARSE, "hour field \"24\": value 24 out of range [0, 23]" },
	{ "* * 0 * *", 0, KP_EPARSE, "day-of-month field \"0\": value 0 out of range [1, 31]" },
	{ "* * 1-32 * *", 0, KP_EPARSE,
	  "day-of-month field \"1-32\": value 32 out of range [1, 31]" },
	{ "* * * 0 *", 0, KP_EPARSE, "month field \"0\": value 0 out of range [1, 12]" },
	{ "* * * 13 *", 0, KP_EPARSE, "month field \"13\": value 13 out of range [1, 12]" },
	{ "* * * dec-jan *", 0, KP_EPARSE,
	  "month field \"dec-jan\": range start DEC (12) is after end JAN (1)" },
	{ "* * * JANUARY *", 0, KP_EPARSE,
	  "month field \"JANUARY\": \"JANUARY\" is not a number or month name (JAN-DEC)" },
	{ "* * * * sunday", 0, KP_EPARSE,
	  "day-of-week field \"sunday\": \"sunday\" is not a number or day name (SUN-SAT)" },
	{ "mon * * * *", 0, KP_EPARSE, "minute field \"mon\": \"mon\" is not a number" },
	{ "* * * * -1", 0, KP_EPARSE, "day-of-week field \"-1\": \"-1\": missing range start" },
	{ "5- * * * *", 0, KP_EPARSE, "minute field \"5-\": \"5-\": missing range end" },
	{ "5/ * * * *", 0, KP_EPARSE, "minute field \"5/\": \"5/\": missing step after '/'" },
	{ "/5 * * * *", 0, KP_EPARSE, "minute field \"/5\": \"/5\": missing value" },
	{ "*/x * * * *", 0, KP_EPARSE, "minute field \"*/x\": step \"x\" is not a number" },
	{ "*/-1 * * * *", 0, KP_EPARSE, "minute field \"*/-1\": step -1 must be a positive number" },
	{ "*/0 * * * *", 0, KP_EPARSE, "minute field \"*/0\": step 0 must be a positive number" },
	{ "*/99999999999999999999 * * * *", 0, KP_EPARSE,
	  "minute field \"*/99999999999999999999\": step 99999999999999999999 is too large" },
	{ "*/-99999999999999999999 * * * *", 0, KP_EPARSE,
	  "minute field \"*/-99999999999999999999\": step -99999999999999999999 must be a "
	  "positive number" },
	{ "99999999999999999999 * * * *", 0, KP_EPARSE,
	  "minute field \"99999999999999999999\": value 99999999999999999999 out of range [0, 59]" },
	{ "1-2-3 * * * *", 0, KP_EPARSE, "minute field \"1-2-3\": \"1-2-3\" has more than one '-'" },
	{ "5,1-2-3 * * * *", 0, KP_EPARSE,
	  "minute field \"5,1-2-3\": \"1-2-3\" has more than one '-'" },
	{ "1/2/3 * * * *", 0, KP_EPARSE, "minute field \"1/2/3\": \"1/2/3\" has more than one '/'" },
	{ "0x5 * * * *", 0, KP_EPARSE, "minute field \"0x5\": \"0x5\" is not a number" },
	{ "1_0 * * * *", 0, KP_EPARSE, "minute field \"1_0\": \"1_0\" is not a number" },
	{ "++1 * * * *", 0, KP_EPARSE, "minute field \"++1\": \"++1\" is not a number" },
	{ "\xc3\xa9 * * * *", 0, KP_EPARSE,
	  "minute field \"\\xc3\\xa9\": \"\\xc3\\xa9\" is not a number" },
	/* Karpenter prepends "TZ=UTC ", so a zone in the schedule is a field */
	{ "TZ=UTC * * * *", 0, KP_EPARSE, "minute field \"TZ=UTC\": \"TZ=UTC\" is not a number" },
	{ "TZ=UTC 0 * * * *", 0, KP_EPARSE,
	  "expected exactly 5 fields " SHAPE5 ", found 6: \"TZ=UTC 0 * * * *\"" },
	{ "CRON_TZ=UTC @hourly", 0, KP_EPARSE,
	  "expected exactly 5 fields " SHAPE5 ", found 2: \"CRON_TZ=UTC @hourly\"" },
	/* descriptors are exact and case-sensitive */
	{ "@fortnightly", 0, KP_EPARSE, "unrecognized descriptor \"@fortnightly\"" DESCRIPTORS },
	{ "@HOURLY", 0, KP_EPARSE, "unrecognized descriptor \"@HOURLY\"" DESCRIPTORS },
	{ "@hourly extra", 0, KP_EPARSE, "unrecognized descriptor \"@hourly extra\"" DESCRIPTORS },
	{ "@every", 0, KP_EPARSE, "unrecognized descriptor \"@every\"" DESCRIPTORS },
	{ "  @every  ", 0, KP_EPARSE, "unrecognized descriptor \"@every\"" DESCRIPTORS },
	{ "@every 1d", 0, KP_EPARSE,
	  "descriptor \"@every 1d\": invalid duration \"1d\": unknown unit \"d\"" UNITS },
	{ "@every  5m", 0, KP_EPARSE,
	  "descriptor \"@every  5m\": invalid duration \" 5m\": expected a number at \" 5m\"" },
	{ "@every\t5m", 0, KP_EPARSE, "unrecognized descriptor \"@every\\x095m\"" DESCRIPTORS },
	{ "@every 9223372036854775808ns", 0, KP_EPARSE,
	  "descriptor \"@every 9223372036854775808ns\": invalid duration "
	  "\"9223372036854775808ns\": out of range (durations are int64 nanoseconds, about "
	  "+/-292 years)" },
	/* seconds dialects */
	{ "60 * * * * *", KP_CRON_SECONDS, KP_EPARSE,
	  "second field \"60\": value 60 out of range [0, 59]" },
	{ "* * * *", KP_CRON_SECONDS_OPTIONAL, KP_EPARSE,
	  "expected 5 to 6 fields ([second] minute hour day-of-month month day-of-week), found 4: "
	  "\"* * * *\"" },
	{ "* * * * * * *", KP_CRON_SECONDS, KP_EPARSE,
	  "expected 5 to 6 fields " SHAPE_SEC ", found 7: \"* * * * * * *\"" },
	/* flags */
	{ "* * * * *", 4, KP_EINVAL, "kp_cron_parse: unknown flags 0x4" },
	{ "* * * * *", KP_CRON_SECONDS | KP_CRON_SECONDS_OPTIONAL, KP_EINVAL,
	  "kp_cron_parse: KP_CRON_SECONDS and KP_CRON_SECONDS_OPTIONAL are exclusive" },
};

START_TEST(parse_bad)
{
	kp_cron *c = (kp_cron *)&c;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_cron_parse(&c, bad_specs[_i].spec, bad_specs[_i].flags, &err),
			 bad_specs[_i].code);
	ck_assert_ptr_null(c);
	ck_assert_int_eq(err.code, bad_specs[_i].code);
	ck_assert_str_eq(err.message, bad_specs[_i].message);
	ck_assert_str_eq(err.field, "");
	ck_assert_int_eq(kp_cron_parse(&c, bad_specs[_i].spec, bad_specs[_i].flags, NULL),
			 bad_specs[_i].code);
}
END_TEST

/* Accepted forms and the bit sets they give (second .. day-of-week). */
#define ALL_MIN (UINT64_C(0x0fffffffffffffff) | STAR)
#define ALL_HOUR (UINT64_C(0xffffff) | STAR)
#define ALL_DOM (UINT64_C(0xfffffffe) | STAR)
#define ALL_MONTH (UINT64_C(0x1ffe) | STAR)
#define ALL_DOW (UINT64_C(0x7f) | STAR)

static const struct {
	const char *spec;
	uint32_t flags;
	uint64_t bits[6];
} good_specs[] = {
	{ "* * * * *", 0, { 1, ALL_MIN, ALL_HOUR, ALL_DOM, ALL_MONTH, ALL_DOW } },
	{ "? ? ? ? ?", 0, { 1, ALL_MIN, ALL_HOUR, ALL_DOM, ALL_MONTH, ALL_DOW } },
	/* robfig ignores what follows "*-" */
	{ "*-5 ?-x-y * * *", 0, { 1, ALL_MIN, ALL_HOUR, ALL_DOM, ALL_MONTH, ALL_DOW } },
	/* "/1" keeps the star bit, a larger step drops it */
	{ "*/1 */2 * * *", 0, { 1, ALL_MIN, 0x555555, ALL_DOM, ALL_MONTH, ALL_DOW } },
	/* empty list items are skipped; a field of only commas matches nothing */
	{ "1,,2 , * * *", 0, { 1, 6, 0, ALL_DOM, ALL_MONTH, ALL_DOW } },
	{ "+5 05 * * *", 0, { 1, 32, 32, ALL_DOM, ALL_MONTH, ALL_DOW } },
	{ "0 0 * jAn-MaR MoN,fri", 0, { 1, 1, 1, ALL_DOM, 0xe, 0x22 } },
	{ "0 0 * * SUN", 0, { 1, 1, 1, ALL_DOM, ALL_MONTH, 1 } },
	{ "0 0 * * 0", 0, { 1, 1, 1, ALL_DOM, ALL_MONTH, 1 } },
	{ "0 0 1,15 * sun-sat/2", 0, { 1, 1, 1, (1u << 1) | (1u << 15), ALL_MONTH, 0x55 } },
	{ "0 0 1/10 * *", 0, { 1, 1, 1, (1u << 1) | (1u << 11) | (1u << 21) | (1u << 31), ALL_MONTH,
			       ALL_DOW } },
	{ "58-59/1 0 * * *", 0, { 1, UINT64_C(3) << 58, 1, ALL_DOM, ALL_MONTH, ALL_DOW } },
	/* any Unicode white space separates fields (Go's strings.Fields) */
	{ "0\xc2\xa0" "0\t*\xe3\x80\x80*\xe2\x80\x83*\n", 0,
	  { 1, 1, 1, ALL_DOM, ALL_MONTH, ALL_DOW } },
	{ "@yearly", 0, { 1, 1, 1, 2, 2, ALL_DOW } },
	{ "@annually", 0, { 1, 1, 1, 2, 2, ALL_DOW } },
	{ "@monthly", 0, { 1, 1, 1, 2, ALL_MONTH, ALL_DOW } },
	{ "@weekly", 0, { 1, 1, 1, ALL_DOM, ALL_MONTH, 1 } },
	{ "@daily", 0, { 1, 1, 1, ALL_DOM, ALL_MONTH, ALL_DOW } },
	{ "@midnight", 0, { 1, 1, 1, ALL_DOM, ALL_MONTH, ALL_DOW } },
	{ "@hourly", 0, { 1, 1, ALL_HOUR, ALL_DOM, ALL_MONTH, ALL_DOW } },
	{ " \xc2\xa0@hourly\xe2\x80\x83 ", 0, { 1, 1, ALL_HOUR, ALL_DOM, ALL_MONTH, ALL_DOW } },
	{ "30 5 * * *", KP_CRON_SECONDS, { 1u << 30, 32, ALL_HOUR, ALL_DOM, ALL_MONTH, ALL_DOW } },
	{ "30 5 * * * 1", KP_CRON_SECONDS, { 1u << 30, 32, ALL_HOUR, ALL_DOM, ALL_MONTH, 2 } },
	{ "30 5 * * 1", KP_CRON_SECONDS_OPTIONAL, { 1, 1u << 30, 32, ALL_DOM, ALL_MONTH, 2 } },
	{ "30 5 * * * 1", KP_CRON_SECONDS_OPTIONAL,
	  { 1u << 30, 32, ALL_HOUR, ALL_DOM, ALL_MONTH, 2 } },
};

START_TEST(parse_good)
{
	kp_cron *c = must_parse(good_specs[_i].spec, good_specs[_i].flags);
	uint64_t bits[6];
	int64_t every;
	ck_assert_int_eq(kp__cron_bits(c, bits, &every), 0);
	for (int f = 0; f < 6; f++)
		ck_assert_msg(bits[f] == good_specs[_i].bits[f], "%s: field %d is %llx",
			      good_specs[_i].spec, f, (unsigned long long)bits[f]);
	kp_cron_free(c);
}
END_TEST

static const struct {
	const char *spec;
	int64_t every_s;
} every_specs[] = {
	{ "@every 1h", 3600 },     { "@every 90m", 5400 },  { "@every 1.5s", 1 },
	{ "@every 1500ms", 1 },    { "@every 500ms", 1 },   { "@every 0", 1 },
	{ "@every -5m", 1 },       { "@every 1h0m59.999s", 3659 },
	{ "  @every 5m  ", 300 },
};

START_TEST(parse_every)
{
	kp_cron *c = must_parse(every_specs[_i].spec, 0);
	uint64_t bits[6];
	int64_t every;
	ck_assert_int_eq(kp__cron_bits(c, bits, &every), 1);
	ck_assert(every == every_specs[_i].every_s);
	kp_cron_free(c);
}
END_TEST

START_TEST(parse_arguments)
{
	kp_cron *c;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_cron_parse(NULL, "* * * * *", 0, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "kp_cron_parse: out is NULL");
	ck_assert_int_eq(kp_cron_parse(&c, NULL, 0, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "kp_cron_parse: schedule is NULL");
	kp_cron_free(NULL);
}
END_TEST

/* ------------------------------------------------------------- next: ours */

static const struct {
	const char *spec;
	uint32_t flags;
	const char *after; /* ISO time in UTC, or "@<Unix ms>" */
	int code;
	const char *want;
} next_tab[] = {
	/* sub-second input: the search starts at the next whole second */
	{ "* * * * *", 0, "2024-01-01T12:00:00.999", KP_OK, "2024-01-01T12:01:00.000" },
	{ "* * * * *", 0, "2024-01-01T12:00:59.999", KP_OK,
	  "2024-01-01T12:01:00.000" },
	{ "* * * * *", 0, "2024-01-01T11:59:59.999", KP_OK,
	  "2024-01-01T12:00:00.000" },
	/* day-of-month OR day-of-week when both are restricted */
	{ "0 0 13 * FRI", 0, "2024-01-01T00:00:00.000", KP_OK, "2024-01-05T00:00:00.000" },
	{ "0 0 13 * FRI", 0, "2024-01-12T00:00:00.000", KP_OK, "2024-01-13T00:00:00.000" },
	/* AND when one is a star, Sunday is 0 */
	{ "0 0 * * 0", 0, "2024-01-01T00:00:00.000", KP_OK, "2024-01-07T00:00:00.000" },
	{ "0 0 13 * ?", 0, "2024-01-01T00:00:00.000", KP_OK, "2024-01-13T00:00:00.000" },
	/* leap years: 2000 is one, 1900 and 2100 are not */
	{ "0 0 29 2 *", 0, "1999-01-01T00:00:00.000", KP_OK, "2000-02-29T00:00:00.000" },
	{ "0 0 29 2 *", 0, "1899-01-01T00:00:00.000", KP_OK, "1904-02-29T00:00:00.000" },
	{ "0 0 29 2 *", 0, "2099-03-01T00:00:00.000", KP_OK, "2104-02-29T00:00:00.000" },
	/* the search stops after the 5th calendar year following the start */
	{ "0 0 29 2 *", 0, "1898-06-01T00:00:00.000", KP_ENOTFOUND, "@0" },
	{ "0 0 29 2 *", 0, "1898-12-31T23:59:59.000", KP_OK, "1904-02-29T00:00:00.000" },
	{ "0 0 29 2 *", 0, "2097-03-01T00:00:00.000", KP_ENOTFOUND, "@0" },
	{ "0 0 30 2 *", 0, "@0", KP_ENOTFOUND, "@0" },
	{ ", * * * *", 0, "@0", KP_ENOTFOUND, "@0" },
	{ "* * , * ,", 0, "@0", KP_ENOTFOUND, "@0" },
	{ "* * , * *", 0, "@0", KP_ENOTFOUND, "@0" },
	{ "* * * * ,", 0, "@0", KP_ENOTFOUND, "@0" },
	{ ", * * * * *", KP_CRON_SECONDS, "@0", KP_ENOTFOUND, "@0" },
	/* only one of dom/dow empty, the other restricted: OR still matches */
	{ "0 0 , * 1", 0, "2024-01-02T00:00:00.000", KP_OK, "2024-01-08T00:00:00.000" },
	/* before 1970 */
	{ "0 0 1 1 *", 0, "@-1", KP_OK, "@0" },
	{ "0 0 1 1 *", 0, "@-1000", KP_OK, "@0" },
	{ "30 8 15 7 *", 0, "1000-01-01T00:00:00.000", KP_OK, "1000-07-15T08:30:00.000" },
	/* wrap of every field at once */
	{ "0 0 1 1 *", 0, "2012-12-31T23:59:59.000", KP_OK, "2013-01-01T00:00:00.000" },
	{ "59 23 31 12 *", 0, "2012-12-31T23:59:00.000", KP_OK,
	  "2013-12-31T23:59:00.000" },
	{ "@hourly", 0, "2024-02-29T23:00:00.000", KP_OK, "2024-03-01T00:00:00.000" },
	/* @every counts from the start of the input's second */
	{ "@every 15m", 0, "2012-07-09T14:45:00.005", KP_OK, "2012-07-09T15:00:00.000" },
	{ "@every 1s", 0, "@-1", KP_OK, "@0" },
	/* not representable */
	{ "* * * * *", 0, "@9223372036854775807", KP_ERANGE, "@0" },
	{ "@every 1h", 0, "@9223372036851775807", KP_ERANGE, "@0" },
	{ "* * * * *", 0, "@-9223372036854775808", KP_OK, "@-9223372036854720000" },
};

START_TEST(next_values)
{
	kp_cron *c = must_parse(next_tab[_i].spec, next_tab[_i].flags);
	int64_t next = 42;
	kp_error err = KP_ERROR_INIT;
	int64_t after = tms(next_tab[_i].after), want = tms(next_tab[_i].want);
	int rc = kp_cron_next_ms(c, &next, after, &err);
	ck_assert_msg(rc == next_tab[_i].code, "%s: rc %d (%s)", next_tab[_i].spec, rc, err.message);
	if (rc == KP_OK)
		ck_assert_msg(next == want, "%s after %s: got %lld want %s", next_tab[_i].spec,
			      next_tab[_i].after, (long long)next, next_tab[_i].want);
	else
		ck_assert(next == 42);
	kp_cron_free(c);
}
END_TEST

START_TEST(next_messages)
{
	kp_cron *c = must_parse("0 0 30 2 *", 0);
	int64_t next;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_cron_next_ms(c, &next, 1000, &err), KP_ENOTFOUND);
	ck_assert_str_eq(err.message, "schedule has no activation within 5 years after 1000 ms");
	ck_assert_int_eq(kp_cron_next_ms(c, NULL, 1000, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "kp_cron_next_ms: out_next_ms is NULL");
	ck_assert_int_eq(kp_cron_next_ms(NULL, &next, 1000, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "kp_cron_next_ms: cron is NULL");
	kp_cron_free(c);
	c = must_parse("* * * * *", 0);
	ck_assert_int_eq(kp_cron_next_ms(c, &next, INT64_MAX, &err), KP_ERANGE);
	ck_assert_str_eq(err.message, "next activation (9223372036854780 s) is not representable "
				      "in int64 ms");
	kp_cron_free(c);
}
END_TEST

/* ------------------------------------------------------------ budget: ours */

#define NO_STR ((const char *)0)

static const struct {
	const char *what;
	const char *schedule;
	const char *duration;
	const char *now; /* ISO time in UTC, or "@<Unix ms>" */
	int code;
	int32_t active;
} budget_tab[] = {
	/* upstream nodepool_budgets_test.go, IsActive (clock 2000-06-15T12:30:30Z) */
	{ "nil schedule and duration", NO_STR, NO_STR, "2000-06-15T12:30:30.000", KP_OK, 1 },
	{ "active", "* * * * *", "1h", "2000-06-15T12:30:30.000", KP_OK, 1 },
	{ "inactive", "@yearly", "1h", "2000-06-15T12:30:30.000", KP_OK, 0 },
	{ "always UTC (clock in +01:00)", "@daily", "30m", "2000-05-30T23:00:00.000", KP_OK, 0 },
	{ "hit in the middle", "@yearly", "24h", "1000-01-01T12:00:00.000", KP_OK, 1 },
	{ "duration longer than recurrence", "@daily", "48h", "2024-01-07T00:00:00.000", KP_OK,
	  1 },
	{ "hit after the window", "30 6 * * SUN", "6h", "2024-01-07T00:00:00.000", KP_OK, 0 },
	{ "weekly budget, Thursday", "@weekly", "1h", "2000-06-15T12:30:30.000", KP_OK, 0 },
	/* window [hit, hit + duration) */
	{ "at the hit", "0 12 * * *", "1h", "2024-03-01T12:00:00.000", KP_OK, 1 },
	{ "just before the hit", "0 12 * * *", "1h", "2024-03-01T11:59:59.999", KP_OK, 0 },
	{ "last ms of the window", "0 12 * * *", "1h", "2024-03-01T12:59:59.999", KP_OK, 1 },
	{ "hit exactly duration ago", "0 12 * * *", "1h", "2024-03-01T13:00:00.000", KP_OK, 0 },
	{ "sub-second window edge", "0 12 * * *", "1h0.5s", "2024-03-01T13:00:00.499",
	  KP_OK, 1 },
	{ "sub-second window edge 2", "0 12 * * *", "1h0.5s", "2024-03-01T13:00:00.500",
	  KP_OK, 0 },
	{ "ms ignored below a second", "0 12 * * *", "1h", "2024-03-01T12:59:59.999",
	  KP_OK, 1 },
	{ "window across midnight", "0 23 * * *", "2h", "2024-03-02T00:30:00.000", KP_OK, 1 },
	{ "window across new year", "@yearly", "24h", "2025-01-01T23:59:59.000", KP_OK, 1 },
	/* unset duration is 0: a calendar hit is never <= now after walking back 0 */
	{ "schedule without duration", "* * * * *", NO_STR, "2024-01-01T00:00:00.000", KP_OK, 0 },
	{ "negative duration", "* * * * *", "-1h", "2024-01-01T00:00:00.000", KP_OK, 0 },
	/* no activation: upstream compares Go's zero time, so always active */
	{ "unsatisfiable", "0 0 30 2 *", "1h", "2024-01-01T00:00:00.000", KP_OK, 1 },
	{ "unsatisfiable, no duration", "0 0 31 4 *", NO_STR, "2024-01-01T00:00:00.000", KP_OK,
	  1 },
	{ "unsatisfiable at Go's zero time", "0 0 30 2 *", "1h", "@-62135596800000", KP_OK, 1 },
	{ "unsatisfiable before Go's zero time", "0 0 30 2 *", "1h", "@-62135596800001", KP_OK, 0 },
	/* @every: next = floor(now - duration) + interval */
	{ "@every shorter than duration", "@every 30m", "1h", "2024-01-01T00:00:00.000", KP_OK,
	  1 },
	{ "@every equal to duration", "@every 1h", "1h", "2024-01-01T00:00:00.001", KP_OK,
	  1 },
	{ "@every longer than duration", "@every 1h", "30m", "2024-01-01T00:00:00.000", KP_OK,
	  0 },
	/* extreme inputs stay exact */
	{ "huge duration", "* * * * *", "2562047h", "2024-01-01T00:00:00.000", KP_OK, 1 },
	{ "min duration wraps as in Go", "* * * * *", "-9223372036854775808ns",
	  "2024-01-01T00:00:00.000", KP_OK, 1 },
};

START_TEST(budget_active)
{
	int32_t active = 7;
	kp_error err = KP_ERROR_INIT;
	int rc = kp_cron_budget_active(&active, budget_tab[_i].schedule, budget_tab[_i].duration,
				       tms(budget_tab[_i].now), &err);
	ck_assert_msg(rc == budget_tab[_i].code, "%s: %d %s", budget_tab[_i].what, rc,
		      err.message);
	ck_assert_msg(active == budget_tab[_i].active, "%s: active %d", budget_tab[_i].what,
		      (int)active);
}
END_TEST

static const struct {
	const char *schedule;
	const char *duration;
	int code;
	const char *field;
	const char *message;
} budget_bad[] = {
	/* upstream: "beginning of range (2) beyond end of range (1)" */
	{ "0 0 * * tue-mon", "6h", KP_EPARSE, "schedule",
	  "day-of-week field \"tue-mon\": range start TUE (2) is after end MON (1)" },
	{ "@wrongly", "1h", KP_EPARSE, "schedule",
	  "unrecognized descriptor \"@wrongly\"" DESCRIPTORS },
	/* a duration without a schedule: ParseStandard("TZ=UTC ") has 0 fields */
	{ NO_STR, "1h", KP_EPARSE, "schedule",
	  "expected exactly 5 fields " SHAPE5 ", found 0: \"\"" },
	{ "* * * * *", "1d", KP_EPARSE, "duration",
	  "invalid duration \"1d\": unknown unit \"d\"" UNITS },
	{ "* * * * *", "9223372036854775808ns", KP_ERANGE, "duration",
	  "invalid duration \"9223372036854775808ns\": out of range (durations are int64 "
	  "nanoseconds, about +/-292 years)" },
};

START_TEST(budget_errors)
{
	int32_t active = 7;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_cron_budget_active(&active, budget_bad[_i].schedule,
					       budget_bad[_i].duration, 0, &err),
			 budget_bad[_i].code);
	ck_assert_int_eq(active, 7);
	ck_assert_str_eq(err.field, budget_bad[_i].field);
	ck_assert_str_eq(err.message, budget_bad[_i].message);
}
END_TEST

START_TEST(active_arguments)
{
	kp_error err = KP_ERROR_INIT;
	int32_t active;
	kp_cron *c = must_parse("* * * * *", 0);
	ck_assert_int_eq(kp_cron_active(NULL, &active, 0, 0, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "kp_cron_active: cron is NULL");
	ck_assert_int_eq(kp_cron_active(c, NULL, 0, 0, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "kp_cron_active: out_active is NULL");
	ck_assert_int_eq(kp_cron_budget_active(NULL, NULL, NULL, 0, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "kp_cron_budget_active: out_active is NULL");
	/* the compiled form agrees with the string form */
	ck_assert_int_eq(kp_cron_active(c, &active, 3600 * INT64_C(1000000000),
					tms("2024-01-01T00:00:00.000"), NULL),
			 KP_OK);
	ck_assert_int_eq(active, 1);
	kp_cron_free(c);
}
END_TEST

int main(void)
{
	kp_test_require_data(VECTORS);
	vectors = kp_test_load_json(VECTORS);
	if (!vectors) {
		printf("Bail out! cannot parse %s\n", kp_test_data_path(VECTORS));
		return 1;
	}
	if (select_rows()) {
		printf("Bail out! unexpected layout of %s\n", kp_test_data_path(VECTORS));
		return 1;
	}
	printf("# next: %d rows evaluated in UTC, %d skipped (need the America/New_York or "
	       "America/Sao_Paulo DST zone)\n",
	       next_rows.n, next_rows.skipped);
	printf("# no_descriptor_parser_errors: 1 row skipped (NewParser(Minute | Hour) is not "
	       "offered)\n");

	Suite *vs = suite_create("cron-vectors");
	TCase *tc = tcase_create("robfig");
	tcase_add_loop_test(tc, vec_activation, 0, activation_rows.n);
	tcase_add_loop_test(tc, vec_next, 0, next_rows.n);
	tcase_add_loop_test(tc, vec_next_with_tz, 0, next_tz_rows.n);
	tcase_add_loop_test(tc, vec_constant_delay, 0, delay_rows.n);
	tcase_add_loop_test(tc, vec_parse_schedule, 0, schedule_rows.n);
	tcase_add_test(tc, vec_parse_errors);
	tcase_add_test(tc, vec_get_range_and_field);
	tcase_add_test(tc, vec_all_bits);
	tcase_add_test(tc, vec_get_bits);
	tcase_add_test(tc, vec_coverage);
	suite_add_tcase(vs, tc);

	Suite *s = suite_create("cron");
	tc = tcase_create("parse");
	tcase_add_loop_test(tc, parse_bad, 0, N(bad_specs));
	tcase_add_loop_test(tc, parse_good, 0, N(good_specs));
	tcase_add_loop_test(tc, parse_every, 0, N(every_specs));
	tcase_add_test(tc, parse_arguments);
	suite_add_tcase(s, tc);

	tc = tcase_create("next");
	tcase_add_loop_test(tc, next_values, 0, N(next_tab));
	tcase_add_test(tc, next_messages);
	suite_add_tcase(s, tc);

	tc = tcase_create("budget");
	tcase_add_loop_test(tc, budget_active, 0, N(budget_tab));
	tcase_add_loop_test(tc, budget_errors, 0, N(budget_bad));
	tcase_add_test(tc, active_arguments);
	suite_add_tcase(s, tc);

	Suite *suites[] = { vs, s };
	int rc = kp_test_run(suites, 2);
	cJSON_Delete(vectors);
	return rc;
}
