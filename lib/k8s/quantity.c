/*
 * Kubernetes resource.Quantity on a 128-bit decimal mantissa.
 *
 * Behaviour follows k8s.io/apimachinery/pkg/api/resource (quantity.go,
 * amount.go, math.go, suffix.go, scale_int.go). Upstream keeps small values
 * in an int64 and falls back to arbitrary precision (inf.Dec); one 128-bit
 * representation covers both here. Parsing deliberately lands on the same
 * mantissa/exponent pair upstream would hold (the int64 fast path keeps the
 * digits as written, the inf.Dec path stores nano units), because
 * AsApproximateFloat64 depends on that pair and Karpenter prices with it.
 *
 * Nothing here allocates; the scheduler calls parse and cmp in its inner loop.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <karpenter/quantity.h>

#include "kp_internal.h"

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

/* Magnitudes stay within 2^127 - 1 so that negating a mantissa never overflows. */
#define MAG_MAX ((((u128)1) << 127) - 1)
#define U128_MAX (~(u128)0)
#define P19 10000000000000000000ULL

/* Nano units of 2^63 - 1: upstream caps BinarySI text at that value. */
#define NANO_CAP ((u128)INT64_MAX * 1000000000u)

static const u128 pow10_tab[39] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
	100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
	10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL, P19,
	(u128)P19 * 10ULL, (u128)P19 * 100ULL, (u128)P19 * 1000ULL, (u128)P19 * 10000ULL,
	(u128)P19 * 100000ULL, (u128)P19 * 1000000ULL, (u128)P19 * 10000000ULL,
	(u128)P19 * 100000000ULL, (u128)P19 * 1000000000ULL, (u128)P19 * 10000000000ULL,
	(u128)P19 * 100000000000ULL, (u128)P19 * 1000000000000ULL,
	(u128)P19 * 10000000000000ULL, (u128)P19 * 100000000000000ULL,
	(u128)P19 * 1000000000000000ULL, (u128)P19 * 10000000000000000ULL,
	(u128)P19 * 100000000000000000ULL, (u128)P19 * 1000000000000000000ULL,
	(u128)P19 * P19,
};

static inline i128 mant(const kp_quantity *q)
{
	return (i128)(((u128)(uint64_t)q->mantissa_hi << 64) | q->mantissa_lo);
}

static inline void set_mant(kp_quantity *q, i128 m)
{
	q->mantissa_lo = (uint64_t)m;
	q->mantissa_hi = (int64_t)(uint64_t)((u128)m >> 64);
}

static inline u128 mag(i128 m)
{
	return m < 0 ? (u128)0 - (u128)m : (u128)m;
}

static inline i128 signed_mag(u128 u, int negative)
{
	return negative ? (i128)((u128)0 - u) : (i128)u;
}

/* *r = v * 10^n if that is at most limit; -1 otherwise (n >= 0). */
static inline int mul_pow10(u128 v, int64_t n, u128 limit, u128 *r)
{
	if (v == 0) {
		*r = 0;
		return 0;
	}
	if (n > 38 || __builtin_mul_overflow(v, pow10_tab[n], r) || *r > limit)
		return -1;
	return 0;
}

/* Remove factors of ten from v into *e; v != 0. */
static void strip_tens(u128 *v, int64_t *e)
{
	while (*v >> 64) {
		if (*v % 10)
			return;
		*v /= 10;
		(*e)++;
	}
	uint64_t s = (uint64_t)*v;
	while (s % 10 == 0) {
		s /= 10;
		(*e)++;
	}
	*v = s;
}

/*
 * Bring an exponent back into int32 by moving powers of ten into the
 * mantissa; only large exponents can need it (results never go below the
 * smallest input exponent).
 */
static int fit_exponent(u128 *v, int64_t *e)
{
	if (*e <= INT32_MAX)
		return *e >= INT32_MIN ? 0 : -1;
	if (mul_pow10(*v, *e - INT32_MAX, MAG_MAX, v))
		return -1;
	*e = INT32_MAX;
	return 0;
}

/* ---- parsing ---------------------------------------------------------- */

/* Why a text is refused: upstream's three errors, then ours (KP_ERANGE from FAULT_MANTISSA on). */
enum parse_fault {
	FAULT_FORMAT = 1, /* ErrFormatWrong */
	FAULT_NUMERIC,    /* ErrNumeric */
	FAULT_SUFFIX,     /* ErrSuffix */
	FAULT_LONG,
	FAULT_MANTISSA,
	FAULT_EXPONENT
};


static int parse_fail(kp_error *err, enum parse_fault fault, const char *text, size_t len)
{
	if (!err)
		return fault >= FAULT_MANTISSA ? KP_ERANGE : KP_EPARSE;
	char q[KP_QUOTE_EXCERPT_MAX];
	kp__quote_excerpt(q, sizeof(q), text, len);
	switch (fault) {
	case FAULT_FORMAT:
		/* upstream ErrFormatWrong, with its regular expression */
		return kp__error(err, KP_EPARSE, NULL, "invalid quantity %s: quantities must match "
				 "the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'", q);
	case FAULT_NUMERIC:
		return kp__error(err, KP_EPARSE, NULL,
				 "invalid quantity %s: unable to parse numeric part of quantity", q);
	case FAULT_SUFFIX:
		return kp__error(err, KP_EPARSE, NULL,
				 "invalid quantity %s: unable to parse quantity's suffix", q);
	case FAULT_LONG:
		return kp__error(err, KP_EPARSE, NULL, "invalid quantity %s: longer than %d bytes", q,
				 KP_QUANTITY_TEXT_MAX);
	case FAULT_MANTISSA:
		return kp__error(err, KP_ERANGE, NULL,
				 "quantity %s is out of range: needs more than a 128-bit mantissa", q);
	case FAULT_EXPONENT:
	default:
		return kp__error(err, KP_ERANGE, NULL,
				 "quantity %s is out of range: exponent does not fit int32", q);
	}
}

/* The pieces of "<sign><digits>.<digits><suffix>", as upstream's scanner cuts them. */
struct scan {
	const char *num;   /* integer digits after leading zeros */
	size_t n_num;
	const char *den;   /* fraction digits */
	size_t n_den;
	const char *suf;   /* suffix, up to the end of the text */
	size_t n_suf;
	int negative;
	int has_digit;     /* any digit at all before the suffix (inf.Dec needs one) */
};

static inline int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline int is_suffix_letter(char c)
{
	switch (c) {
	case 'e': case 'E': case 'i': case 'n': case 'u': case 'm':
	case 'k': case 'K': case 'M': case 'G': case 'T': case 'P':
		return 1;
	default:
		return 0;
	}
}

static int scan_text(const char *s, size_t len, struct scan *sc)
{
	const char *p = s, *end = s + len;
	sc->negative = 0;
	if (p < end && (*p == '-' || *p == '+'))
		sc->negative = *p++ == '-';
	const char *digits_from = p;
	while (p < end && *p == '0')
		p++;
	sc->num = p;
	while (p < end && is_digit(*p))
		p++;
	sc->n_num = (size_t)(p - sc->num);
	sc->den = p;
	sc->n_den = 0;
	if (p < end && *p == '.') {
		sc->den = ++p;
		while (p < end && is_digit(*p))
			p++;
		sc->n_den = (size_t)(p - sc->den);
	}
	sc->has_digit = sc->num > digits_from || sc->n_num || sc->n_den;
	/* letters, then an optional signed integer, then nothing */
	sc->suf = p;
	while (p < end && is_suffix_letter(*p))
		p++;
	if (p < end && (*p == '-' || *p == '+'))
		p++;
	while (p < end && is_digit(*p))
		p++;
	sc->n_suf = (size_t)(end - sc->suf);
	return p == end ? 0 : -1;
}

/* Digit i of the significant digits: integer part, then fraction. */
static inline unsigned digit_at(const struct scan *sc, size_t i)
{
	return (unsigned)((i < sc->n_num ? sc->num[i] : sc->den[i - sc->n_num]) - '0');
}

enum { BASE10 = 10, BASE2 = 2 };

/* suffix.go's interpret(); an "e<n>" exponent outside int32 is FAULT_EXPONENT. */
static int interpret_suffix(const char *s, size_t n, int *base, int64_t *exp, uint32_t *format)
{
	*base = BASE10;
	*format = KP_QUANTITY_DECIMAL_SI;
	if (n == 0) {
		*exp = 0;
		return 0;
	}
	if (n == 1) {
		switch (s[0]) {
		case 'n': *exp = -9; return 0;
		case 'u': *exp = -6; return 0;
		case 'm': *exp = -3; return 0;
		case 'k': *exp = 3; return 0;
		case 'M': *exp = 6; return 0;
		case 'G': *exp = 9; return 0;
		case 'T': *exp = 12; return 0;
		case 'P': *exp = 15; return 0;
		case 'E': *exp = 18; return 0;
		default: return FAULT_SUFFIX;
		}
	}
	if (n == 2 && s[1] == 'i') {
		static const char bin[] = "KMGTPE";
		const char *hit = memchr(bin, s[0], 6);
		if (hit) {
			*base = BASE2;
			*exp = 10 * (hit - bin + 1);
			*format = KP_QUANTITY_BINARY_SI;
			return 0;
		}
	}
	if (s[0] != 'e' && s[0] != 'E')
		return FAULT_SUFFIX;
	/* strconv.ParseInt(s[1:], 10, 64): sign, then at least one digit */
	size_t i = 1;
	int neg = 0;
	if (s[i] == '+' || s[i] == '-')
		neg = s[i++] == '-';
	if (i == n)
		return FAULT_SUFFIX;
	uint64_t v = 0;
	const uint64_t lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; i < n; i++) {
		if (!is_digit(s[i]))
			return FAULT_SUFFIX;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (lim - d) / 10)
			return FAULT_SUFFIX; /* ParseInt's range error */
		v = v * 10 + d;
	}
	if (v > (neg ? (uint64_t)INT32_MAX + 1 : (uint64_t)INT32_MAX))
		return FAULT_EXPONENT;
	*exp = neg ? -(int64_t)v : (int64_t)v;
	*format = KP_QUANTITY_DECIMAL_EXPONENT;
	return 0;
}

/*
 * Digits accumulated into a magnitude, trailing zeros held back so that
 * long runs of zeros ("1000...0", 40 digits) can end up in the exponent.
 */
struct acc {
	u128 v;
	int64_t zeros;
	int overflow;
};

static inline void acc_push(struct acc *a, unsigned d)
{
	if (d == 0) {
		if (a->v)
			a->zeros++;
		return;
	}
	u128 t;
	if (mul_pow10(a->v, a->zeros + 1, MAG_MAX, &t) || (t += d) > MAG_MAX) {
		a->overflow = 1;
		return;
	}
	a->v = t;
	a->zeros = 0;
}

/*
 * Decimal text upstream hands to inf.Dec: value rounded up to nano, held as
 * nano units (exponent -9) as upstream does, or with a coarser exponent when
 * nano units would not fit 128 bits and nothing was rounded.
 */
static int parse_decimal_long(const struct scan *sc, int64_t exp, u128 *m, int64_t *e)
{
	const size_t n = sc->n_num + sc->n_den;
	const int64_t shift = exp - (int64_t)sc->n_den + 9; /* digits -> nano units */
	size_t keep = n;
	unsigned sticky = 0;
	if (shift < 0) {
		uint64_t drop = (uint64_t)-shift;
		keep = drop >= n ? 0 : n - (size_t)drop;
		for (size_t i = keep; i < n && !sticky; i++)
			sticky = digit_at(sc, i) != 0;
	}
	struct acc a = { 0, 0, 0 };
	for (size_t i = 0; i < keep && !a.overflow; i++)
		acc_push(&a, digit_at(sc, i));
	if (a.overflow)
		return FAULT_MANTISSA;
	const int64_t zeros = a.zeros + (shift > 0 ? shift : 0);
	u128 r;
	if (a.v == 0 && !sticky) {
		*m = 0;
		*e = 0;
	} else if (mul_pow10(a.v, zeros, MAG_MAX - sticky, &r) == 0) {
		*m = r + sticky;
		*e = -9;
	} else if (!sticky) {
		*m = a.v;
		*e = zeros - 9;
	} else {
		return FAULT_MANTISSA;
	}
	return fit_exponent(m, e) ? FAULT_EXPONENT : 0;
}

static inline void add_at(u128 *q, u128 x, int64_t pos, int *sat)
{
	u128 t;
	if (pos > 38 || __builtin_mul_overflow(x, pow10_tab[pos], &t) || __builtin_add_overflow(*q, t, q))
		*sat = 1;
}

/*
 * Binary-suffixed text upstream hands to inf.Dec ("1.5Gi", "9Ei"): digits *
 * 2^shift / 10^n_den, rounded up to nano units. The product is formed digit
 * by digit from the right, so the digits below nano only set a sticky bit
 * and the text may be longer than any integer type. Returns 1 when the value
 * exceeds upstream's cap of 2^63 - 1.
 */
static int parse_binary_long(const struct scan *sc, unsigned shift, u128 *nano)
{
	const size_t n = sc->n_num + sc->n_den;
	const int64_t below = (int64_t)sc->n_den - 9; /* output positions under 1n */
	uint64_t carry = 0;
	u128 q = 0;
	int sat = 0;
	unsigned sticky = 0;
	for (size_t pos = 0; pos < n; pos++) {
		/* 9 * 2^60 + carry (< 2^60) fits 64 bits */
		uint64_t v = ((uint64_t)digit_at(sc, n - 1 - pos) << shift) + carry;
		unsigned out = (unsigned)(v % 10);
		carry = v / 10;
		if ((int64_t)pos < below)
			sticky |= out != 0;
		else if (out && !sat)
			add_at(&q, out, (int64_t)pos - below, &sat);
	}
	if (carry && !sat)
		add_at(&q, carry, (int64_t)n - below, &sat);
	if (sat || q > NANO_CAP - sticky)
		return 1;
	*nano = q + sticky;
	return 0;
}

KP_EXPORT int kp_quantity_parse(kp_quantity *out, const char *text, kp_error *err)
{
	if (!out || !text)
		return kp__error(err, KP_EINVAL, NULL, "quantity parse: %s is NULL", out ? "text" : "out");
	size_t len = 0;
	while (len <= KP_QUANTITY_TEXT_MAX && text[len])
		len++;
	if (len > KP_QUANTITY_TEXT_MAX)
		return parse_fail(err, FAULT_LONG, text, len);
	struct scan sc;
	if (len == 0 || scan_text(text, len, &sc))
		return parse_fail(err, FAULT_FORMAT, text, len);
	int base;
	int64_t exp;
	uint32_t format;
	int fault = interpret_suffix(sc.suf, sc.n_suf, &base, &exp, &format);
	if (fault)
		return parse_fail(err, fault, text, len);

	/* upstream counts an all-zero integer part as the one digit "0" */
	const size_t n_int = sc.n_num ? sc.n_num : 1;
	u128 m;
	int64_t e;
	if (base == BASE10) {
		int64_t scale = exp - (int64_t)sc.n_den;
		if (n_int + sc.n_den <= 18 && scale >= -9) {
			/* upstream's int64 fast path: the digits as written */
			uint64_t v = 0;
			for (size_t i = 0; i < sc.n_num + sc.n_den; i++)
				v = v * 10 + digit_at(&sc, i);
			m = v;
			e = scale;
		} else {
			if (!sc.has_digit)
				return parse_fail(err, FAULT_NUMERIC, text, len);
			fault = parse_decimal_long(&sc, exp, &m, &e);
			if (fault)
				return parse_fail(err, fault, text, len);
		}
	} else if (sc.n_den == 0 && n_int + 3 * (size_t)(exp / 10) <= 14) {
		/* int64 fast path for whole binary amounts: always fits */
		uint64_t v = 0;
		for (size_t i = 0; i < sc.n_num; i++)
			v = v * 10 + digit_at(&sc, i);
		m = (u128)v << exp;
		e = 0;
	} else {
		if (parse_binary_long(&sc, (unsigned)exp, &m)) {
			m = INT64_MAX;
			e = 0;
		} else {
			e = m ? -9 : 0;
			if (m && m < 1000000000u)
				format = KP_QUANTITY_DECIMAL_SI; /* 0 < |x| < 1 is never BinarySI */
		}
	}
	set_mant(out, signed_mag(m, sc.negative));
	out->exponent = (int32_t)e;
	out->format = format;
	return KP_OK;
}

/* ---- formatting ------------------------------------------------------- */

/* Decimal digits of v at p; returns the end. */
static char *put_u128(char *p, u128 v)
{
	char tmp[40];
	size_t n = 0;
	while (v >> 64) {
		uint64_t chunk = (uint64_t)(v % P19);
		v /= P19;
		for (int i = 0; i < 19; i++, chunk /= 10)
			tmp[n++] = (char)('0' + chunk % 10);
	}
	uint64_t s = (uint64_t)v;
	do {
		tmp[n++] = (char)('0' + s % 10);
		s /= 10;
	} while (s);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *put_i64(char *p, int64_t v)
{
	uint64_t u = (uint64_t)v;
	if (v < 0) {
		*p++ = '-';
		u = 0 - u;
	}
	return put_u128(p, u);
}

/* int64Amount/infDecAmount AsCanonicalBytes plus the suffix: exponent a multiple of 3. */
static char *put_decimal(char *p, u128 v, int64_t e, uint32_t format)
{
	static const char *const si[] = { "n", "u", "m", "", "k", "M", "G", "T", "P", "E" };
	strip_tens(&v, &e);
	int pad = (int)(((e % 3) + 3) % 3);
	e -= pad;
	p = put_u128(p, v);
	while (pad--)
		*p++ = '0';
	if (format == KP_QUANTITY_DECIMAL_SI && e >= -9 && e <= 18) {
		const char *s = si[(e + 9) / 3];
		while (*s)
			*p++ = *s++;
	} else if (e != 0) {
		/* DecimalExponent, and DecimalSI beyond its suffixes (upstream drops the suffix) */
		*p++ = 'e';
		p = put_i64(p, e);
	}
	return p;
}

/* |v * 10^e| < 1024 */
static int below_1024(u128 v, int64_t e)
{
	if (e >= 0)
		return e <= 3 && v < 1024 && v * pow10_tab[e] < 1024;
	return -e >= 36 || v < 1024 * pow10_tab[-e];
}

/* AsCanonicalBase1024Bytes for an exact integer >= 1024; 0 if v * 10^e is not one. */
static char *put_binary(char *p, u128 v, int64_t e)
{
	u128 n;
	if (e >= 0) {
		if (mul_pow10(v, e, U128_MAX, &n))
			return NULL;
	} else {
		if (-e > 38 || v % pow10_tab[-e])
			return NULL;
		n = v / pow10_tab[-e];
	}
	static const char *const bin[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	int k = 0;
	while ((n & 1023) == 0) {
		n >>= 10;
		k++;
	}
	if (k > 6) {
		n <<= 10 * (k - 6);
		k = 6;
	}
	p = put_u128(p, n);
	for (const char *s = bin[k]; *s; s++)
		*p++ = *s;
	return p;
}

KP_EXPORT int kp_quantity_format(const kp_quantity *q, char *buf, size_t size)
{
	if (!q || !buf)
		return KP_EINVAL;
	char tmp[KP_QUANTITY_STRING_MAX];
	char *p = tmp;
	const i128 m = mant(q);
	if (m == 0) {
		*p++ = '0';
	} else {
		const u128 v = mag(m);
		const int64_t e = q->exponent;
		if (m < 0)
			*p++ = '-';
		uint32_t format = q->format;
		if (format > KP_QUANTITY_DECIMAL_EXPONENT)
			format = KP_QUANTITY_DECIMAL_EXPONENT;
		char *end = NULL;
		if (format == KP_QUANTITY_BINARY_SI && !below_1024(v, e))
			end = put_binary(p, v, e);
		/* BinarySI below 1024 or with a fraction is written as DecimalSI */
		if (!end)
			end = put_decimal(p, v, e, format == KP_QUANTITY_BINARY_SI ? KP_QUANTITY_DECIMAL_SI : format);
		p = end;
	}
	size_t n = (size_t)(p - tmp);
	if (n >= size) {
		if (size)
			buf[0] = '\0';
		return KP_ERANGE;
	}
	memcpy(buf, tmp, n);
	buf[n] = '\0';
	return KP_OK;
}

/* ---- comparison and arithmetic --------------------------------------- */

static const kp_quantity zero_quantity = KP_QUANTITY_ZERO;

static int cmp_scaled(const kp_quantity *a, const kp_quantity *b)
{
	const i128 ma = mant(a), mb = mant(b);
	const int sa = (ma > 0) - (ma < 0), sb = (mb > 0) - (mb < 0);
	if (sa != sb)
		return sa < sb ? -1 : 1;
	if (sa == 0)
		return 0;
	const u128 ua = mag(ma), ub = mag(mb);
	const int64_t d = (int64_t)a->exponent - b->exponent;
	u128 s;
	int c;
	/* a scaling overflow means that side is larger than any 128-bit magnitude */
	if (d > 0)
		c = mul_pow10(ua, d, U128_MAX, &s) ? 1 : (s > ub) - (s < ub);
	else
		c = mul_pow10(ub, -d, U128_MAX, &s) ? -1 : (ua > s) - (ua < s);
	return sa > 0 ? c : -c;
}

KP_EXPORT int kp_quantity_cmp(const kp_quantity *a, const kp_quantity *b)
{
	if (!a)
		a = &zero_quantity;
	if (!b)
		b = &zero_quantity;
	if (a->exponent == b->exponent) {
		if (a->mantissa_hi != b->mantissa_hi)
			return a->mantissa_hi < b->mantissa_hi ? -1 : 1;
		if (a->mantissa_lo != b->mantissa_lo)
			return a->mantissa_lo < b->mantissa_lo ? -1 : 1;
		return 0;
	}
	return cmp_scaled(a, b);
}

KP_EXPORT int kp_quantity_sign(const kp_quantity *q)
{
	if (!q)
		return 0;
	if (q->mantissa_hi < 0)
		return -1;
	return (q->mantissa_hi | (int64_t)q->mantissa_lo) != 0;
}

/* Signed magnitude with its exponent. */
struct term {
	u128 v;
	int64_t e;
	int negative;
};

/* x + y aligned on the smaller exponent, as upstream; -1 if it does not fit. */
static int sum_aligned(struct term x, struct term y, struct term *r)
{
	if (x.e < y.e) {
		struct term t = x;
		x = y;
		y = t;
	}
	/* now x.e >= y.e */
	if (mul_pow10(x.v, x.e - y.e, U128_MAX, &x.v))
		return -1;
	r->e = y.e;
	if (x.negative == y.negative) {
		r->negative = x.negative;
		if (__builtin_add_overflow(x.v, y.v, &r->v))
			return -1;
	} else if (x.v >= y.v) {
		r->negative = x.negative;
		r->v = x.v - y.v;
	} else {
		r->negative = y.negative;
		r->v = y.v - x.v;
	}
	return 0;
}

static int add_signed(kp_quantity *acc, const kp_quantity *x, int subtract, kp_error *err)
{
	const char *op = subtract ? "sub" : "add";
	if (!acc || !x)
		return kp__error(err, KP_EINVAL, NULL, "quantity %s: %s is NULL", op, acc ? "x" : "acc");
	const i128 ma = mant(acc), mx = mant(x);
	struct term tx = { mag(mx), x->exponent, (mx < 0) != subtract };
	if (ma == 0) {
		/* upstream: a zero receiver takes the operand, format included */
		if (tx.v > MAG_MAX)
			goto range;
		set_mant(acc, signed_mag(tx.v, tx.negative));
		acc->exponent = x->exponent;
		acc->format = x->format;
		return KP_OK;
	}
	if (mx == 0)
		return KP_OK;
	struct term ta = { mag(ma), acc->exponent, ma < 0 }, r;
	if (sum_aligned(ta, tx, &r) || r.v > MAG_MAX) {
		/*
		 * Slow path, exact: with trailing zeros stripped the operand on the
		 * smaller exponent ends in a non-zero digit, so the sum's exponent is
		 * minimal unless both exponents are equal; then dividing by ten is.
		 */
		strip_tens(&ta.v, &ta.e);
		strip_tens(&tx.v, &tx.e);
		if (sum_aligned(ta, tx, &r))
			goto range;
		if (r.v)
			strip_tens(&r.v, &r.e);
		if (r.v > MAG_MAX)
			goto range;
	}
	if (fit_exponent(&r.v, &r.e))
		goto range;
	set_mant(acc, signed_mag(r.v, r.negative));
	acc->exponent = (int32_t)r.e;
	return KP_OK;
range:
	return kp__error(err, KP_ERANGE, NULL, "quantity %s: result needs more than a 128-bit mantissa", op);
}

KP_EXPORT int kp_quantity_add(kp_quantity *acc, const kp_quantity *x, kp_error *err)
{
	return add_signed(acc, x, 0, err);
}

KP_EXPORT int kp_quantity_sub(kp_quantity *acc, const kp_quantity *x, kp_error *err)
{
	return add_signed(acc, x, 1, err);
}

KP_EXPORT void kp_quantity_neg(kp_quantity *q)
{
	if (q)
		set_mant(q, (i128)((u128)0 - (u128)mant(q)));
}

KP_EXPORT int kp_quantity_scaled_value(const kp_quantity *q, int32_t scale, int64_t *out)
{
	if (!q || !out)
		return KP_EINVAL;
	const i128 m = mant(q);
	const int negative = m < 0;
	const u128 v = mag(m);
	const u128 limit = (u128)INT64_MAX + (unsigned)negative;
	const int64_t d = (int64_t)q->exponent - scale;
	u128 r;
	if (d >= 0) {
		if (mul_pow10(v, d, limit, &r))
			return KP_ERANGE;
	} else if (-d > 38) {
		r = v != 0; /* any non-zero value rounds away from zero to one unit */
	} else if (v <= UINT64_MAX && -d <= 19) {
		const uint64_t p = (uint64_t)pow10_tab[-d], s = (uint64_t)v;
		r = s / p + (s % p != 0);
	} else {
		const u128 p = pow10_tab[-d];
		r = v / p + (v % p != 0);
	}
	if (r > limit)
		return KP_ERANGE;
	*out = negative ? (int64_t)(0 - (uint64_t)r) : (int64_t)r;
	return KP_OK;
}

KP_EXPORT int kp_quantity_value(const kp_quantity *q, int64_t *out)
{
	return kp_quantity_scaled_value(q, 0, out);
}

KP_EXPORT int kp_quantity_milli_value(const kp_quantity *q, int64_t *out)
{
	return kp_quantity_scaled_value(q, -3, out);
}

/* Go's math.Pow10, table for table: AsApproximateFloat64 must agree to the bit. */
static double go_pow10(int64_t n)
{
	static const double tab[32] = {
		1e00, 1e01, 1e02, 1e03, 1e04, 1e05, 1e06, 1e07, 1e08, 1e09,
		1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
		1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29,
		1e30, 1e31,
	};
	static const double pos32[10] = {
		1e00, 1e32, 1e64, 1e96, 1e128, 1e160, 1e192, 1e224, 1e256, 1e288,
	};
	static const double neg32[11] = {
		1e-00, 1e-32, 1e-64, 1e-96, 1e-128, 1e-160, 1e-192, 1e-224, 1e-256, 1e-288, 1e-320,
	};
	if (n >= 0 && n <= 308)
		return pos32[n / 32] * tab[n % 32];
	if (n < 0 && n >= -323)
		return neg32[-n / 32] / tab[-n % 32];
	return n > 0 ? (double)INFINITY : 0.0;
}

KP_EXPORT double kp_quantity_as_float64(const kp_quantity *q)
{
	if (!q)
		return 0.0;
	const i128 m = mant(q);
	const double base = (double)m;
	if (q->exponent == 0 || m == 0)
		return base;
	return base * go_pow10(q->exponent);
}

KP_EXPORT int kp_quantity_from_scaled(kp_quantity *out, int64_t value, int32_t exponent, uint32_t format)
{
	if (!out || format > KP_QUANTITY_DECIMAL_EXPONENT)
		return KP_EINVAL;
	set_mant(out, value);
	out->exponent = exponent;
	out->format = format;
	return KP_OK;
}
