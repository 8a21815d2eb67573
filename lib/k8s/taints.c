/*
 * Taints and tolerations: core/v1 ToleratesTaint and MatchTaint, Karpenter's
 * Taints.Tolerates and KnownEphemeralTaints (pkg/scheduling/taints.go), and
 * Kubernetes' node taint validation.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <karpenter/labels.h>
#include <karpenter/taints.h>

#include "kp_internal.h"

#define SUPPORTED_EFFECTS "supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""
#define SUPPORTED_OPS "supported values: \"Equal\", \"Exists\", \"Lt\", \"Gt\""

static const char *const effect_names[] = {
	[KP_TAINT_EFFECT_NONE] = "",
	[KP_TAINT_EFFECT_NO_SCHEDULE] = "NoSchedule",
	[KP_TAINT_EFFECT_PREFER_NO_SCHEDULE] = "PreferNoSchedule",
	[KP_TAINT_EFFECT_NO_EXECUTE] = "NoExecute",
};
#define N_EFFECTS (sizeof(effect_names) / sizeof(effect_names[0]))

static const char *const op_names[] = {
	[KP_TOLERATION_OP_EQUAL] = "Equal",
	[KP_TOLERATION_OP_EXISTS] = "Exists",
	[KP_TOLERATION_OP_LT] = "Lt",
	[KP_TOLERATION_OP_GT] = "Gt",
};
#define N_OPS (sizeof(op_names) / sizeof(op_names[0]))

/* pkg/scheduling/taints.go KnownEphemeralTaints, in upstream's order. */
static const kp_taint known_ephemeral[] = {
	{ KP_TAINT_KEY_NODE_NOT_READY, "", KP_TAINT_EFFECT_NO_SCHEDULE, 0, 0 },
	{ KP_TAINT_KEY_NODE_NOT_READY, "", KP_TAINT_EFFECT_NO_EXECUTE, 0, 0 },
	{ KP_TAINT_KEY_NODE_UNREACHABLE, "", KP_TAINT_EFFECT_NO_SCHEDULE, 0, 0 },
	{ KP_TAINT_KEY_EXTERNAL_CLOUD_PROVIDER, "true", KP_TAINT_EFFECT_NO_SCHEDULE, 0, 0 },
	KP_TAINT_UNREGISTERED_NO_EXECUTE,
};
#define N_KNOWN_EPHEMERAL (sizeof(known_ephemeral) / sizeof(known_ephemeral[0]))

static inline const char *str(const char *s)
{
	return s ? s : "";
}

KP_EXPORT const char *kp_taint_effect_name(uint32_t effect)
{
	return effect < N_EFFECTS ? effect_names[effect] : "Unknown";
}

KP_EXPORT const char *kp_toleration_op_name(uint32_t op)
{
	return op < N_OPS && op_names[op] ? op_names[op] : "Unknown";
}

/* field.NotSupported(...).ErrorBody() for a string value. */
static int unsupported(kp_error *err, const char *text, const char *supported)
{
	if (!err)
		return KP_EINVAL;
	char quoted[KP_ERROR_MESSAGE_MAX];
	kp__go_quote(quoted, sizeof(quoted), text);
	return kp__error(err, KP_EINVAL, NULL, "Unsupported value: %s: %s", quoted, supported);
}

KP_EXPORT int kp_taint_effect_parse(const char *text, uint32_t *out, kp_error *err)
{
	if (!text || !out)
		return kp__error(err, KP_EINVAL, NULL, "%s is NULL", text ? "out" : "text");
	for (uint32_t e = 0; e < N_EFFECTS; e++)
		if (strcmp(text, effect_names[e]) == 0) {
			*out = e;
			return KP_OK;
		}
	return unsupported(err, text, SUPPORTED_EFFECTS);
}

KP_EXPORT int kp_toleration_op_parse(const char *text, uint32_t *out, kp_error *err)
{
	if (!text || !out)
		return kp__error(err, KP_EINVAL, NULL, "%s is NULL", text ? "out" : "text");
	if (text[0] == '\0') { /* Kubernetes defaults an empty operator to Equal */
		*out = KP_TOLERATION_OP_EQUAL;
		return KP_OK;
	}
	for (uint32_t op = 0; op < N_OPS; op++)
		if (strcmp(text, op_names[op]) == 0) {
			*out = op;
			return KP_OK;
		}
	return unsupported(err, text, SUPPORTED_OPS);
}

/*
 * Canonical decimal int64 as Lt/Gt read it: content.IsDecimalInteger ("0",
 * or an optional '-' and digits with no leading zero) and then the int64
 * range of strconv.ParseInt.
 */
static int parse_decimal_int64(const char *s, int64_t *out)
{
	int neg = s[0] == '-';
	const char *p = s + neg;
	if (p[0] == '0') {
		if (neg || p[1] != '\0')
			return 0;
		*out = 0;
		return 1;
	}
	if (*p < '1' || *p > '9')
		return 0;
	uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	uint64_t v = 0;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return 0;
		unsigned d = (unsigned)(*p - '0');
		if (v > (limit - d) / 10)
			return 0;
		v = v * 10 + d;
	}
	if (!neg)
		*out = (int64_t)v;
	else
		*out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	return 1;
}

KP_EXPORT int kp_toleration_tolerates(const kp_toleration *toleration, const kp_taint *taint)
{
	if (!toleration || !taint)
		return 0;
	if (toleration->effect != KP_TAINT_EFFECT_NONE && toleration->effect != taint->effect)
		return 0;
	if (toleration->key && toleration->key[0] && strcmp(toleration->key, str(taint->key)) != 0)
		return 0;

	switch (toleration->op) {
	case KP_TOLERATION_OP_EQUAL:
		return strcmp(str(toleration->value), str(taint->value)) == 0;
	case KP_TOLERATION_OP_EXISTS:
		return 1;
	case KP_TOLERATION_OP_LT:
	case KP_TOLERATION_OP_GT: {
		int64_t limit, have;
		if (!parse_decimal_int64(str(toleration->value), &limit) ||
		    !parse_decimal_int64(str(taint->value), &have))
			return 0;
		return toleration->op == KP_TOLERATION_OP_LT ? have < limit : have > limit;
	}
	default:
		return 0;
	}
}

/* Effect name, or its number for values outside the enum. */
static const char *effect_text(uint32_t effect, char tmp[16])
{
	if (effect < N_EFFECTS)
		return kp_taint_effect_name(effect);
	snprintf(tmp, 16, "%u", (unsigned)effect);
	return tmp;
}

/* Appends to a fixed buffer, silently truncating (kp_error truncates anyway). */
struct sbuf {
	char buf[KP_ERROR_MESSAGE_MAX];
	size_t len;
};

static void sb_printf(struct sbuf *b, const char *fmt, ...) KP_PRINTF(2, 3);
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	size_t room = sizeof(b->buf) - b->len;
	if (room <= 1)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b->buf + b->len, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += (size_t)n < room ? (size_t)n : room - 1;
}

KP_EXPORT int kp_taints_tolerates(const kp_taint *taints, size_t n_taints,
				  const kp_toleration *tolerations, size_t n_tolerations,
				  kp_error *err)
{
	if ((n_taints && !taints) || (n_tolerations && !tolerations))
		return kp__error(err, KP_EINVAL, NULL, "%s is NULL but its count is %zu",
				 n_taints && !taints ? "taints" : "tolerations",
				 n_taints && !taints ? n_taints : n_tolerations);

	struct sbuf msg = { "", 0 };
	size_t first = SIZE_MAX;
	for (size_t i = 0; i < n_taints; i++) {
		const kp_taint *taint = &taints[i];
		size_t j = 0;
		while (j < n_tolerations && !kp_toleration_tolerates(&tolerations[j], taint))
			j++;
		if (j < n_tolerations)
			continue;
		if (!err)
			return KP_EINCOMPATIBLE;
		if (first == SIZE_MAX)
			first = i;
		char tmp[16];
		const char *value = str(taint->value);
		sb_printf(&msg, "%sdid not tolerate taint (taint=%s%s%s:%s)", msg.len ? "; " : "",
			  str(taint->key), value[0] ? "=" : "", value,
			  effect_text(taint->effect, tmp));
	}
	if (first == SIZE_MAX)
		return KP_OK;
	char field[32];
	snprintf(field, sizeof(field), "[%zu]", first);
	return kp__error(err, KP_EINCOMPATIBLE, field, "%s", msg.buf);
}

KP_EXPORT int kp_taint_match(const kp_taint *a, const kp_taint *b)
{
	return a && b && a->effect == b->effect && strcmp(str(a->key), str(b->key)) == 0;
}

KP_EXPORT const kp_taint *kp_taints_known_ephemeral(size_t *count)
{
	if (count)
		*count = N_KNOWN_EPHEMERAL;
	return known_ephemeral;
}

KP_EXPORT int kp_taint_is_known_ephemeral(const kp_taint *taint)
{
	if (!taint)
		return 0;
	for (size_t i = 0; i < N_KNOWN_EPHEMERAL; i++)
		if (kp_taint_match(&known_ephemeral[i], taint))
			return 1;
	static const char prefix[] = KP_TAINT_KEY_PREFIX_NODE_READINESS;
	return strncmp(str(taint->key), prefix, sizeof(prefix) - 1) == 0;
}

KP_EXPORT int kp_taint_format(const kp_taint *taint, char *buf, size_t size)
{
	if (!taint || !buf)
		return KP_EINVAL;
	char tmp[16];
	const char *value = str(taint->value);
	int n = snprintf(buf, size, "%s%s%s:%s", str(taint->key), value[0] ? "=" : "", value,
			 effect_text(taint->effect, tmp));
	if (n < 0 || (size_t)n >= size) {
		if (size)
			buf[0] = '\0';
		return KP_ERANGE;
	}
	return KP_OK;
}

KP_EXPORT int kp_taint_validate(const kp_taint *taint, kp_error *err)
{
	if (!taint)
		return kp__error(err, KP_EINVAL, NULL, "taint is NULL");
	if (kp_label_key_validate(taint->key, err) != KP_OK) {
		kp__error_prefix(err, "key");
		return KP_EINVAL;
	}

	const char *problems[KP_LABEL_MAX_PROBLEMS];
	size_t n = kp_label_value_problems(taint->value, problems, KP_LABEL_MAX_PROBLEMS);
	if (n) {
		if (!err)
			return KP_EINVAL;
		/* Kubernetes joins the value's problems with ";" into one error. */
		char quoted[KP_ERROR_MESSAGE_MAX], detail[2 * KP_ERROR_MESSAGE_MAX] = "";
		size_t len = 0;
		for (size_t i = 0; i < n && len < sizeof(detail); i++) {
			int w = snprintf(detail + len, sizeof(detail) - len, "%s%s", i ? ";" : "",
					 problems[i]);
			len += w > 0 ? (size_t)w : 0;
		}
		kp__go_quote(quoted, sizeof(quoted), taint->value);
		return kp__error(err, KP_EINVAL, "value", "Invalid value: %s: %s", quoted, detail);
	}

	if (taint->effect == KP_TAINT_EFFECT_NONE)
		return kp__error(err, KP_EINVAL, "effect", "Required value");
	if (taint->effect >= N_EFFECTS)
		return kp__error(err, KP_EINVAL, "effect", "Unsupported value: %u: " SUPPORTED_EFFECTS,
				 (unsigned)taint->effect);
	return KP_OK;
}

static int duplicate(const kp_taint *taint, size_t index, kp_error *err)
{
	if (!err)
		return KP_EINVAL;
	char key[KP_ERROR_MESSAGE_MAX], value[KP_ERROR_MESSAGE_MAX], added[32], field[32];
	kp__go_quote(key, sizeof(key), taint->key);
	kp__go_quote(value, sizeof(value), taint->value);
	/* Upstream prints a pointer here; the instant itself is more useful. */
	if (taint->time_added_ms)
		snprintf(added, sizeof(added), "%lld", (long long)taint->time_added_ms);
	else
		snprintf(added, sizeof(added), "<nil>");
	snprintf(field, sizeof(field), "[%zu]", index);
	return kp__error(err, KP_EINVAL, field,
			 "Duplicate value: core.Taint{Key:%s, Value:%s, Effect:\"%s\", TimeAdded:%s}: "
			 "taints must be unique by key and effect pair",
			 key, value, effect_names[taint->effect], added);
}

KP_EXPORT int kp_taints_validate(const kp_taint *taints, size_t n_taints, kp_error *err)
{
	if (n_taints && !taints)
		return kp__error(err, KP_EINVAL, NULL, "taints is NULL but n_taints is %zu", n_taints);
	for (size_t i = 0; i < n_taints; i++) {
		if (kp_taint_validate(&taints[i], err) != KP_OK) {
			if (err) {
				char idx[32];
				snprintf(idx, sizeof(idx), "[%zu]", i);
				kp__error_prefix(err, idx);
			}
			return KP_EINVAL;
		}
		for (size_t j = 0; j < i; j++)
			if (kp_taint_match(&taints[i], &taints[j]))
				return duplicate(&taints[i], i, err);
	}
	return KP_OK;
}
