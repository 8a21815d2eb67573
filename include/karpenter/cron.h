/*
 * libkarpenter: cron schedules of NodePool disruption budgets.
 *
 * A budget's `schedule` is evaluated upstream (pkg/apis/v1/nodepool.go,
 * Budget.IsActive) as robfig/cron v3's ParseStandard("TZ=UTC " + schedule):
 * always UTC, five fields or a descriptor. This module implements exactly that
 * dialect and robfig's Next semantics, plus the budget activity rule.
 *
 * Dialect (flags 0):
 *   minute hour day-of-month month day-of-week
 *   minute 0-59, hour 0-23, day-of-month 1-31, month 1-12 or JAN-DEC,
 *   day-of-week 0-6 or SUN-SAT (Sunday is 0; 7 is rejected). Names are three
 *   letters, case-insensitive. Each field is a comma-separated list of
 *   `*` or `?` (every value), `N`, `N-M`, each optionally followed by `/step`
 *   (`N/step` means N-max/step). Empty list items are ignored (robfig does
 *   the same, so a field of only commas matches nothing). Numbers are decimal
 *   with an optional '+'. As robfig, text after `*-` is ignored ("*-5" is
 *   "*"). Fields are separated by any Unicode white space.
 *   When both day-of-month and day-of-week are restricted (neither written as
 *   `*`/`?` without a step > 1), a day matches if EITHER matches; otherwise
 *   both must.
 *   Descriptors: @yearly and @annually (0 0 1 1 *), @monthly (0 0 1 * *),
 *   @weekly (0 0 * * 0), @daily and @midnight (0 0 * * *), @hourly
 *   (0 * * * *), and @every <Go duration> (fixed interval, rounded down to
 *   whole seconds, at least one second), all case-sensitive.
 *   Time zone prefixes are not interpreted: Karpenter always prepends
 *   "TZ=UTC ", so a "TZ=..." or "CRON_TZ=..." in the schedule is just a
 *   (malformed) field, as upstream.
 *
 * Note that the NodePool CRD additionally restricts `schedule` by a pattern
 * that rejects "@every ..." and `duration` to whole hours and minutes; this
 * module evaluates what the controller evaluates and does not apply the CRD
 * patterns.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KARPENTER_CRON_H
#define KARPENTER_CRON_H

#include <karpenter/common.h>

KP_BEGIN_DECLS

/**
 * @brief A parsed, immutable cron schedule.
 * @since 0.1
 */
typedef struct kp_cron kp_cron;

/**
 * @brief Flags of kp_cron_parse selecting other robfig/cron v3 dialects.
 *
 * Zero is the budget dialect (ParseStandard). The two flags are exclusive.
 * @since 0.1
 */
enum kp_cron_flags {
	/** A leading seconds field (0-59): "second minute hour day-of-month month
	 *  [day-of-week]", day-of-week optional; robfig's
	 *  NewParser(Second | Minute | Hour | Dom | Month | DowOptional | Descriptor). */
	KP_CRON_SECONDS = 1,
	/** An optional leading seconds field: five fields as the budget dialect
	 *  or six with seconds first; robfig's
	 *  NewParser(SecondOptional | Minute | Hour | Dom | Month | Dow | Descriptor). */
	KP_CRON_SECONDS_OPTIONAL = 2
};

/**
 * @brief Parse a schedule, as robfig/cron v3 Parse("TZ=UTC " + schedule).
 *
 * Leading and trailing white space is ignored. See the file comment for the
 * dialect.
 *
 * @param[out] out the schedule, caller-owned; NULL on failure
 * @param[in] schedule NUL-terminated UTF-8 text ("" is an error: 0 fields)
 * @param[in] flags 0 or one kp_cron_flags value
 * @param[out] err optional error detail; the message names the bad part and
 *             why, e.g. `day-of-week field "sat-sun": range start SAT (6) is
 *             after end SUN (0)`, `minute field "60": value 60 out of range
 *             [0, 59]`, `expected exactly 5 fields (minute hour day-of-month
 *             month day-of-week), found 4: "* * * *"`, `unrecognized
 *             descriptor "@fortnightly" (...)`; err->field is ""
 * @return KP_OK, KP_EINVAL (NULL argument, unknown or conflicting flags),
 *         KP_EPARSE (invalid schedule), KP_ENOMEM
 * @since 0.1
 * Ownership: *out is caller-owned; release it with kp_cron_free.
 * Thread-safety: safe.
 */
int kp_cron_parse(kp_cron **out, const char *schedule, uint32_t flags, kp_error *err);

/**
 * @brief Free a schedule. NULL is a no-op.
 * @param[in] cron the schedule, or NULL
 * @since 0.1
 * Ownership: takes @p cron.
 * Thread-safety: not with concurrent users of @p cron.
 */
void kp_cron_free(kp_cron *cron);

/**
 * @brief The first activation strictly after a time, as robfig's Next.
 *
 * Time has whole-second resolution: the search starts at the second after
 * @p after_ms's second (milliseconds are dropped first), in UTC. A calendar
 * schedule gives up when the search passes the end of the fifth calendar year
 * after the year it starts in (robfig returns the zero time then; this
 * returns KP_ENOTFOUND): "0 0 30 2 *" never fires. An @every schedule counts
 * its interval from the start of @p after_ms's second (robfig's
 * ConstantDelaySchedule): floor(after_ms / 1000) * 1000 + interval.
 *
 * @param[in] cron the schedule
 * @param[out] out_next_ms the activation, Unix milliseconds (a whole second);
 *             untouched on failure
 * @param[in] after_ms Unix milliseconds
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL argument), KP_ENOTFOUND (no activation
 *         within the search limit), KP_ERANGE (the activation is not
 *         representable as int64 milliseconds)
 * @since 0.1
 * Ownership: nothing is retained.
 * Thread-safety: safe; a kp_cron may be shared by threads.
 */
int kp_cron_next_ms(kp_cron *cron, int64_t *out_next_ms, int64_t after_ms, kp_error *err);

/**
 * @brief Whether a budget window is open, as upstream Budget.IsActive.
 *
 * Walks back @p duration_ns from @p now_ms, takes the next activation after
 * that point (kp_cron_next_ms: strictly after, whole seconds) and reports
 * active iff it is not after @p now_ms. So the window of an activation at h is
 * [h, h + duration): an activation exactly at @p now_ms counts, one exactly
 * @p duration_ns ago does not (upstream's comment on IsActive says otherwise,
 * its code does this). With sub-second inputs the check is
 * floor_to_second(now - duration) < h <= now. With @p duration_ns 0
 * (upstream's value for an unset duration) a calendar schedule is never
 * active. When the schedule has no
 * activation within the search limit upstream compares Go's zero time
 * (0001-01-01T00:00:00Z), which is not after any realistic now: such a
 * budget is always active, and so it is here.
 *
 * @param[in] cron the schedule
 * @param[out] out_active 1 if active, else 0; untouched on failure
 * @param[in] duration_ns the window length in nanoseconds
 * @param[in] now_ms the current time, Unix milliseconds
 * @param[out] err optional error detail
 * @return KP_OK, KP_EINVAL (NULL argument), KP_ERANGE (times not
 *         representable)
 * @since 0.1
 * Ownership: nothing is retained.
 * Thread-safety: safe; a kp_cron may be shared by threads.
 */
int kp_cron_active(kp_cron *cron, int32_t *out_active, int64_t duration_ns, int64_t now_ms,
		   kp_error *err);

/**
 * @brief Whether a NodePool disruption budget is active now.
 *
 * Upstream Budget.IsActive on the budget's two optional strings: with
 * neither, the budget is always active; otherwise @p schedule is parsed as
 * kp_cron_parse(flags 0) (NULL counts as "", which fails as upstream's
 * ParseStandard("TZ=UTC ") does), @p duration as kp_duration_parse_ns (NULL
 * is 0), and kp_cron_active decides. Upstream fails closed on an error (no
 * disruptions allowed); callers should do the same.
 *
 * @param[out] out_active 1 if active, else 0; untouched on failure
 * @param[in] schedule the budget's schedule, or NULL if unset
 * @param[in] duration the budget's duration (Go syntax), or NULL if unset
 * @param[in] now_ms the current time, Unix milliseconds
 * @param[out] err optional error detail; err->field is "schedule" or
 *             "duration" for a parse failure
 * @return KP_OK, KP_EINVAL (NULL @p out_active), KP_EPARSE, KP_ERANGE,
 *         KP_ENOMEM
 * @since 0.1
 * Ownership: nothing is retained.
 * Thread-safety: safe.
 */
int kp_cron_budget_active(int32_t *out_active, const char *schedule, const char *duration,
			  int64_t now_ms, kp_error *err);

KP_END_DECLS

#endif /* KARPENTER_CRON_H */
