/* SPDX-License-Identifier: Apache-2.0 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/labels.h>

#include "k8s/labels_private.h"
#include "kp_internal.h"
#include "kp_test.h"


/* apimachinery's messages, spelled out as content.IsLabelKey/IsLabelValue print them. */
#define NAME_FORMAT                                                                     \
	"name part must consist of alphanumeric characters, '-', '_' or '.', and must "   \
	"start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  "  \
	"or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
#define PREFIX_FORMAT                                                                   \
	"prefix part a lowercase RFC 1123 subdomain must consist of lower case "          \
	"alphanumeric characters, '-' or '.', and must start and end with an "            \
	"alphanumeric character (e.g. 'example.com', regex used for validation is "       \
	"'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
#define KEY_PARTS                                                                       \
	"a valid label key must consist of alphanumeric characters, '-', '_' or '.', "    \
	"and must start and end with an alphanumeric character (e.g. 'MyName',  or "      \
	"'my.name',  or '123-abc', regex used for validation is "                         \
	"'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain "     \
	"prefix and '/' (e.g. 'example.com/MyName')"
#define VALUE_FORMAT                                                                    \
	"a valid label must be an empty string or consist of alphanumeric characters, "   \
	"'-', '_' or '.', and must start and end with an alphanumeric character (e.g. "   \
	"'MyValue',  or 'my_value',  or '12345', regex used for validation is "           \
	"'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
#define PREFIX_EMPTY "prefix part must be non-empty"
#define PREFIX_LONG "prefix part must be no more than 253 bytes"
#define NAME_EMPTY "name part must be non-empty"
#define NAME_LONG "name part must be no more than 63 bytes"
#define VALUE_LONG "must be no more than 63 bytes"

#define A10 "aaaaaaaaaa"
#define A63 A10 A10 A10 A10 A10 A10 "aaa"
#define A64 A63 "a"
#define A253 A63 A63 A63 A63 "a"
#define A254 A253 "a"
#define U10 "AAAAAAAAAA"
#define UP254 U10 U10 U10 U10 U10 U10 U10 U10 U10 U10 U10 U10 U10 U10 U10 U10 U10 U10 U10 U10 U10 U10 U10 U10 U10 "AAAA"

/* The full messages: kp_error::message holds at most 255 bytes of them. */
START_TEST(messages_are_upstream_text)
{
	const char *p[KP_LABEL_MAX_PROBLEMS];
	ck_assert_uint_eq(kp_label_key_problems("a/b/c", p, 4), 1);
	ck_assert_str_eq(p[0], KEY_PARTS);
	ck_assert_uint_eq(strlen(p[0]), 322);
	ck_assert_uint_eq(kp_label_key_problems("A/b", p, 4), 1);
	ck_assert_str_eq(p[0], PREFIX_FORMAT);
	ck_assert_uint_eq(strlen(p[0]), 277);
	ck_assert_uint_eq(kp_label_key_problems("-", p, 4), 1);
	ck_assert_str_eq(p[0], NAME_FORMAT);
	ck_assert_uint_eq(strlen(p[0]), 240);
	ck_assert_uint_eq(kp_label_value_problems("-", p, 4), 1);
	ck_assert_str_eq(p[0], VALUE_FORMAT);
	ck_assert_uint_eq(strlen(p[0]), 269);
}
END_TEST

static const struct key_case {
	const char *key;
	size_t n;
	const char *problems[KP_LABEL_MAX_PROBLEMS];
} key_cases[] = {
	{ "foo", 0, { NULL } },
	{ "a", 0, { NULL } },
	{ "MyName", 0, { NULL } },
	{ "my.name", 0, { NULL } },
	{ "123-abc", 0, { NULL } },
	{ "f_o.o-o", 0, { NULL } },
	{ "example.com/MyName", 0, { NULL } },
	{ "kubernetes.io/hostname", 0, { NULL } },
	{ "karpenter.sh/nodepool", 0, { NULL } },
	{ "node.kubernetes.io/instance-type", 0, { NULL } },
	{ "a-b.c1/x", 0, { NULL } },
	{ A63, 0, { NULL } },
	{ A253 "/" A63, 0, { NULL } },
	{ NULL, 2, { NAME_EMPTY, NAME_FORMAT } },
	{ "", 2, { NAME_EMPTY, NAME_FORMAT } },
	{ "/foo", 1, { PREFIX_EMPTY } },
	{ "foo/", 2, { NAME_EMPTY, NAME_FORMAT } },
	{ "/", 3, { PREFIX_EMPTY, NAME_EMPTY, NAME_FORMAT } },
	{ "a/b/c", 1, { KEY_PARTS } },
	{ "//", 1, { KEY_PARTS } },
	{ "-foo", 1, { NAME_FORMAT } },
	{ "foo-", 1, { NAME_FORMAT } },
	{ "_foo", 1, { NAME_FORMAT } },
	{ "foo.", 1, { NAME_FORMAT } },
	{ "foo bar", 1, { NAME_FORMAT } },
	{ "f\xc3\xb1o", 1, { NAME_FORMAT } },
	{ A64, 1, { NAME_LONG } },
	{ A63 "-", 2, { NAME_LONG, NAME_FORMAT } },
	{ "Example.com/name", 1, { PREFIX_FORMAT } },
	{ "exa_mple.com/x", 1, { PREFIX_FORMAT } },
	{ "example..com/x", 1, { PREFIX_FORMAT } },
	{ ".example.com/x", 1, { PREFIX_FORMAT } },
	{ "example.com./x", 1, { PREFIX_FORMAT } },
	{ "example-.com/x", 1, { PREFIX_FORMAT } },
	{ "-example.com/x", 1, { PREFIX_FORMAT } },
	{ A254 "/x", 1, { PREFIX_LONG } },
	{ UP254 "/", 4, { PREFIX_LONG, PREFIX_FORMAT, NAME_EMPTY, NAME_FORMAT } },
	{ "Bad/-x", 2, { PREFIX_FORMAT, NAME_FORMAT } },
};

START_TEST(key_problems_table)
{
	const struct key_case *c = &key_cases[_i];
	const char *p[KP_LABEL_MAX_PROBLEMS] = { NULL };
	ck_assert_uint_eq(kp_label_key_problems(c->key, p, KP_LABEL_MAX_PROBLEMS), c->n);
	for (size_t i = 0; i < c->n; i++)
		ck_assert_str_eq(p[i], c->problems[i]);
	ck_assert_int_eq(kp_label_key_validate(c->key, NULL), c->n ? KP_EINVAL : KP_OK);
	/* cap limits what is written, not what is counted */
	const char *one[1] = { NULL };
	ck_assert_uint_eq(kp_label_key_problems(c->key, one, 1), c->n);
	if (c->n)
		ck_assert_str_eq(one[0], c->problems[0]);
	else
		ck_assert_ptr_null(one[0]);
	ck_assert_uint_eq(kp_label_key_problems(c->key, NULL, 0), c->n);
}
END_TEST

static const struct value_case {
	const char *value;
	size_t n;
	const char *problems[2];
} value_cases[] = {
	{ "", 0, { NULL } },
	{ NULL, 0, { NULL } },
	{ "a", 0, { NULL } },
	{ "MyValue", 0, { NULL } },
	{ "my_value", 0, { NULL } },
	{ "12345", 0, { NULL } },
	{ "true", 0, { NULL } },
	{ "a.b-c_d", 0, { NULL } },
	{ A63, 0, { NULL } },
	{ "-a", 1, { VALUE_FORMAT } },
	{ "a-", 1, { VALUE_FORMAT } },
	{ "a b", 1, { VALUE_FORMAT } },
	{ "a/b", 1, { VALUE_FORMAT } },
	{ ".", 1, { VALUE_FORMAT } },
	{ A64, 1, { VALUE_LONG } },
	{ A63 "_", 2, { VALUE_LONG, VALUE_FORMAT } },
};

START_TEST(value_problems_table)
{
	const struct value_case *c = &value_cases[_i];
	const char *p[KP_LABEL_MAX_PROBLEMS] = { NULL };
	ck_assert_uint_eq(kp_label_value_problems(c->value, p, KP_LABEL_MAX_PROBLEMS), c->n);
	for (size_t i = 0; i < c->n; i++)
		ck_assert_str_eq(p[i], c->problems[i]);
	ck_assert_int_eq(kp_label_value_validate(c->value, NULL), c->n ? KP_EINVAL : KP_OK);
}
END_TEST

/* kp_error keeps what fits of ErrorBody()'s text (KP_ERROR_MESSAGE_MAX - 1 bytes). */
static void assert_message(const kp_error *err, const char *full)
{
	char want[KP_ERROR_MESSAGE_MAX];
	snprintf(want, sizeof(want), "%s", full);
	ck_assert_str_eq(err->message, want);
}

START_TEST(validate_messages)
{
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_label_key_validate("", &err), KP_EINVAL);
	ck_assert_int_eq(err.code, KP_EINVAL);
	ck_assert_str_eq(err.field, "");
	ck_assert_str_eq(err.message, "Invalid value: \"\": " NAME_EMPTY);

	ck_assert_int_eq(kp_label_key_validate("/x", &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "Invalid value: \"/x\": " PREFIX_EMPTY);

	ck_assert_int_eq(kp_label_key_validate(A64, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "Invalid value: \"" A64 "\": " NAME_LONG);

	ck_assert_int_eq(kp_label_key_validate("a/b/c", &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "Invalid value: \"a/b/c\": " KEY_PARTS);

	ck_assert_int_eq(kp_label_key_validate("a\"b\n", &err), KP_EINVAL);
	assert_message(&err, "Invalid value: \"a\\\"b\\n\": " NAME_FORMAT);

	ck_assert_int_eq(kp_label_value_validate(A64, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "Invalid value: \"" A64 "\": " VALUE_LONG);

	ck_assert_int_eq(kp_label_value_validate("x y", &err), KP_EINVAL);
	assert_message(&err, "Invalid value: \"x y\": " VALUE_FORMAT);

	/* success leaves the record untouched */
	ck_assert_int_eq(kp_label_key_validate("ok", &err), KP_OK);
	assert_message(&err, "Invalid value: \"x y\": " VALUE_FORMAT);
}
END_TEST

/* kp__label_key_parts_problems(prefix, name) answers as kp_label_key_problems
 * on the built key prefix "/" lowercase(name), for any lengths. */
START_TEST(key_parts_match_built_keys)
{
	static const size_t glens[] = { 1, 63, 241, 242, 253, 254, 255, 300, 70000 };
	static const size_t nlens[] = { 1, 13, 63, 64, 300 };
	for (size_t gi = 0; gi < sizeof(glens) / sizeof(glens[0]); gi++) {
		for (size_t ni = 0; ni < sizeof(nlens) / sizeof(nlens[0]); ni++) {
			for (int variant = 0; variant < 3; variant++) {
				size_t gl = glens[gi], nl = nlens[ni];
				char *key = malloc(gl + 1 + nl + 1);
				for (size_t i = 0; i < gl; i++)
					key[i] = variant == 1 ? 'A' : (i % 2 ? '.' : 'a');
				key[gl - 1] = variant == 1 ? 'A' : 'a';
				key[gl] = '/';
				for (size_t i = 0; i < nl; i++)
					key[gl + 1 + i] = variant == 2 && i == nl / 2 ? ' ' : 'K';
				key[gl + 1 + nl] = '\0';
				const char *got[KP_LABEL_MAX_PROBLEMS], *want[KP_LABEL_MAX_PROBLEMS];
				size_t n = kp__label_key_parts_problems(key, gl, key + gl + 1, nl, got,
									KP_LABEL_MAX_PROBLEMS);
				for (size_t i = gl + 1; i < gl + 1 + nl; i++)
					if (key[i] == 'K')
						key[i] = 'k';
				size_t w = kp_label_key_problems(key, want, KP_LABEL_MAX_PROBLEMS);
				ck_assert_uint_eq(n, w);
				for (size_t i = 0; i < n; i++)
					ck_assert_str_eq(got[i], want[i]);
				ck_assert_int_eq(n == 0, gl <= 253 && nl <= 63 && variant == 0);
				free(key);
			}
		}
	}
}
END_TEST

/* A '/' in a part, an empty part, NULL parts, both prefix problems. */
START_TEST(key_parts_edges)
{
	const char *p[KP_LABEL_MAX_PROBLEMS];
	ck_assert_uint_eq(kp__label_key_parts_problems("karpenter.kwok.sh", 17, "KWOKNodeClass", 13,
						       p, KP_LABEL_MAX_PROBLEMS),
			  0);
	ck_assert_uint_eq(kp__label_key_parts_problems("a/b", 3, "c", 1, p, KP_LABEL_MAX_PROBLEMS), 1);
	ck_assert_str_eq(p[0], "a valid label key must consist of alphanumeric characters, '-', '_' or "
			       "'.', and must start and end with an alphanumeric character (e.g. "
			       "'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
			       "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS "
			       "subdomain prefix and '/' (e.g. 'example.com/MyName')");
	ck_assert_uint_eq(kp__label_key_parts_problems("a", 1, "b/c", 3, p, KP_LABEL_MAX_PROBLEMS), 1);
	ck_assert_uint_eq(kp__label_key_parts_problems(NULL, 0, NULL, 0, p, KP_LABEL_MAX_PROBLEMS), 3);
	ck_assert_str_eq(p[0], "prefix part must be non-empty");
	ck_assert_str_eq(p[1], "name part must be non-empty");
	/* only the first `len` bytes count: no NUL needed */
	ck_assert_uint_eq(kp__label_key_parts_problems("ab/", 2, "cd!", 2, p, KP_LABEL_MAX_PROBLEMS), 0);
	char *big = malloc(300);
	memset(big, 'X', 300);
	ck_assert_uint_eq(kp__label_key_parts_problems(big, 300, "n", 1, p, 1), 2);
	ck_assert_str_eq(p[0], "prefix part must be no more than 253 bytes");
	free(big);
}
END_TEST

START_TEST(labels_validate)
{
	kp_label bad_key[] = { { "app", "web" }, { "a b", "x" } };
	kp_label bad_value[] = { { "app", "web" }, { "tier", "-x" } };
	kp_labels ok = { bad_key, 1 }, k = { bad_key, 2 }, v = { bad_value, 2 }, broken = { NULL, 3 };
	kp_error err = KP_ERROR_INIT;

	ck_assert_int_eq(kp_labels_validate(NULL, &err), KP_OK);
	ck_assert_int_eq(kp_labels_validate(&ok, &err), KP_OK);
	ck_assert_int_eq(kp_labels_validate(&k, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "");
	assert_message(&err, "Invalid value: \"a b\": " NAME_FORMAT);
	ck_assert_int_eq(kp_labels_validate(&v, &err), KP_EINVAL);
	assert_message(&err, "Invalid value: \"-x\": " VALUE_FORMAT);
	ck_assert_int_eq(kp_labels_validate(&broken, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "items is NULL but count is 3");
}
END_TEST

static const struct quote_case {
	const char *in;
	size_t size;
	const char *out;
} quote_cases[] = {
	{ "", 64, "\"\"" },
	{ "abc", 64, "\"abc\"" },
	{ "a\"b\\c", 64, "\"a\\\"b\\\\c\"" },
	{ "\a\b\f\n\r\t\v", 64, "\"\\a\\b\\f\\n\\r\\t\\v\"" },
	{ "\x01\x1f\x7f", 64, "\"\\x01\\x1f\\x7f\"" },
	{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 64, "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"" },
	{ "\xff\xc3", 64, "\"\\xff\\xc3\"" },
	{ "\xc0\xaf", 64, "\"\\xc0\\xaf\"" },          /* overlong '/' */
	{ "\xed\xa0\x80", 64, "\"\\xed\\xa0\\x80\"" }, /* surrogate */
	{ "\xc2\x85", 64, "\"\\u0085\"" },             /* C1 control */
	{ "abcdef", 5, "\"ab" },                     /* room is kept for the closing quote */
	{ "abc", 6, "\"abc\"" },
	{ "\n", 4, "\"" },                           /* an escape is never split */
	{ "x", 1, "" },
};

START_TEST(go_quote_table)
{
	const struct quote_case *c = &quote_cases[_i];
	char buf[64];
	memset(buf, 'Z', sizeof(buf));
	size_t n = kp__go_quote(buf, c->size, c->in);
	ck_assert_str_eq(buf, c->out);
	ck_assert_uint_eq(n, strlen(c->out));
}
END_TEST

/* ---- maps ---- */

static void assert_map(const kp_labels *m, const char *const *kv, size_t n)
{
	ck_assert_uint_eq(m->count, n);
	for (size_t i = 0; i < n; i++) {
		ck_assert_str_eq(m->items[i].key, kv[2 * i]);
		ck_assert_str_eq(m->items[i].value, kv[2 * i + 1]);
	}
}

START_TEST(map_set_get_remove)
{
	kp_labels m = KP_LABELS_INIT;
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_labels_set(&m, "zone", "a", &err), KP_OK);
	ck_assert_int_eq(kp_labels_set(&m, "arch", "amd64", &err), KP_OK);
	ck_assert_int_eq(kp_labels_set(&m, "os", NULL, &err), KP_OK);
	ck_assert_int_eq(kp_labels_set(&m, "capacity", "spot", &err), KP_OK);
	const char *const sorted[] = { "arch", "amd64", "capacity", "spot", "os", "", "zone", "a" };
	assert_map(&m, sorted, 4);

	ck_assert_int_eq(kp_labels_set(&m, "os", "linux", &err), KP_OK);
	ck_assert_uint_eq(m.count, 4);
	ck_assert_str_eq(kp_labels_get(&m, "os"), "linux");
	ck_assert_str_eq(kp_labels_get(&m, "zone"), "a");
	ck_assert_ptr_null(kp_labels_get(&m, "zon"));
	ck_assert_ptr_null(kp_labels_get(&m, NULL));
	ck_assert_ptr_null(kp_labels_get(NULL, "os"));

	ck_assert_int_eq(kp_labels_remove(&m, "capacity", &err), KP_OK);
	ck_assert_int_eq(kp_labels_remove(&m, "capacity", &err), KP_ENOTFOUND);
	const char *const after[] = { "arch", "amd64", "os", "linux", "zone", "a" };
	assert_map(&m, after, 3);
	ck_assert_int_eq(kp_labels_remove(&m, "arch", &err), KP_OK);
	ck_assert_int_eq(kp_labels_remove(&m, "zone", &err), KP_OK);
	ck_assert_int_eq(kp_labels_remove(&m, "os", &err), KP_OK);
	ck_assert_uint_eq(m.count, 0);
	ck_assert_ptr_null(m.items);
	ck_assert_int_eq(kp_labels_set(&m, "again", "1", &err), KP_OK);
	ck_assert_str_eq(kp_labels_get(&m, "again"), "1");
	kp_labels_dispose(&m);
	ck_assert_ptr_null(m.items);
	ck_assert_uint_eq(m.count, 0);
	kp_labels_dispose(&m);
	kp_labels_dispose(NULL);

	ck_assert_int_eq(kp_labels_set(NULL, "k", "v", &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "labels is NULL");
	ck_assert_int_eq(kp_labels_set(&m, NULL, "v", &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "key is NULL");
	ck_assert_int_eq(kp_labels_remove(&m, NULL, NULL), KP_EINVAL);
}
END_TEST

START_TEST(map_get_caller_built)
{
	/* unsorted, borrowed storage, NULL value read as "" */
	kp_label items[] = { { "zone", "b" }, { "app", "web" }, { "empty", NULL } };
	kp_labels m = { items, 3 };
	ck_assert_str_eq(kp_labels_get(&m, "app"), "web");
	ck_assert_str_eq(kp_labels_get(&m, "zone"), "b");
	ck_assert_str_eq(kp_labels_get(&m, "empty"), "");
	ck_assert_ptr_null(kp_labels_get(&m, "missing"));
}
END_TEST

START_TEST(map_copy)
{
	char key[] = "zone", value[] = "us-west-2a";
	kp_label items[] = { { key, value }, { "app", "web" }, { "os", NULL } };
	kp_labels src = { items, 3 }, out = { NULL, 99 };
	kp_error err = KP_ERROR_INIT;

	ck_assert_int_eq(kp_labels_copy(&out, &src, &err), KP_OK);
	/* the copy owns its strings */
	key[0] = 'X';
	value[0] = 'X';
	const char *const want[] = { "app", "web", "os", "", "zone", "us-west-2a" };
	assert_map(&out, want, 3);
	ck_assert_int_eq(kp_labels_set(&out, "b", "2", &err), KP_OK);
	ck_assert_str_eq(out.items[1].key, "b");
	kp_labels_dispose(&out);

	ck_assert_int_eq(kp_labels_copy(&out, NULL, &err), KP_OK);
	ck_assert_uint_eq(out.count, 0);
	ck_assert_ptr_null(out.items);
}
END_TEST

START_TEST(map_copy_rejects)
{
	kp_label dup[] = { { "a", "1" }, { "b", "2" }, { "a", "3" } };
	kp_label null_key[] = { { "a", "1" }, { NULL, "2" } };
	kp_labels d = { dup, 3 }, n = { null_key, 2 }, broken = { NULL, 1 };
	kp_labels out = { NULL, 42 };
	kp_error err = KP_ERROR_INIT;

	ck_assert_int_eq(kp_labels_copy(&out, &d, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "[2]");
	ck_assert_str_eq(err.message, "Duplicate value: \"a\"");
	ck_assert_int_eq(kp_labels_copy(&out, &n, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "[1].key");
	ck_assert_str_eq(err.message, "key is NULL");
	ck_assert_int_eq(kp_labels_copy(&out, &broken, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "items is NULL but count is 1");
	ck_assert_int_eq(kp_labels_copy(NULL, &d, &err), KP_EINVAL);
	/* outputs untouched on failure */
	ck_assert_ptr_null(out.items);
	ck_assert_uint_eq(out.count, 42);
}
END_TEST

/* An allocator that fails after a budget of successful calls, and counts calls. */
/* The budget-th allocation from now fails (0-based; -1 = none). */
static void use_budget_allocator(long budget)
{
	kp_test_alloc_install();
	kp_test_alloc_fail_at(budget);
}

START_TEST(map_out_of_memory)
{
	kp_label items[] = { { "c", "3" }, { "a", "1" }, { "b", "2" } };
	kp_labels src = { items, 3 };
	kp_error err = KP_ERROR_INIT;
	const char *const base[] = { "a", "1", "c", "3" };

	/* every allocation point of set (insert and replace) and copy */
	for (long budget = 0; budget < 3; budget++) {
		kp_labels m = KP_LABELS_INIT;
		use_budget_allocator(-1);
		ck_assert_int_eq(kp_labels_set(&m, "c", "3", NULL), KP_OK);
		ck_assert_int_eq(kp_labels_set(&m, "a", "1", NULL), KP_OK);
		use_budget_allocator(budget);
		ck_assert_int_eq(kp_labels_set(&m, "b", "2", &err), KP_ENOMEM);
		ck_assert_int_eq(err.code, KP_ENOMEM);
		assert_map(&m, base, 2);
		if (budget == 0) {
			ck_assert_int_eq(kp_labels_set(&m, "a", "9", &err), KP_ENOMEM);
			assert_map(&m, base, 2);
		}
		kp_labels_dispose(&m);
	}
	for (long budget = 0; budget < 7; budget++) {
		kp_labels out = { NULL, 7 };
		use_budget_allocator(budget);
		ck_assert_int_eq(kp_labels_copy(&out, &src, &err), KP_ENOMEM);
		ck_assert_ptr_null(out.items);
		ck_assert_uint_eq(out.count, 7);
	}
	kp_labels out = KP_LABELS_INIT;
	use_budget_allocator(7);
	ck_assert_int_eq(kp_labels_copy(&out, &src, &err), KP_OK);
	kp_labels_dispose(&out);
	kp_test_alloc_uninstall();
}
END_TEST

/* ---- selectors ---- */

#define LABELS(...) { (kp_label[]){ __VA_ARGS__ }, sizeof((kp_label[]){ __VA_ARGS__ }) / sizeof(kp_label) }
#define VALUES(...) (const char *const[]){ __VA_ARGS__ }, \
	sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(const char *)
#define EXPRS(...) (const kp_label_selector_requirement[]){ __VA_ARGS__ }, \
	sizeof((kp_label_selector_requirement[]){ __VA_ARGS__ }) / sizeof(kp_label_selector_requirement)
#define IN KP_LABEL_SELECTOR_OP_IN
#define NOT_IN KP_LABEL_SELECTOR_OP_NOT_IN
#define EXISTS KP_LABEL_SELECTOR_OP_EXISTS
#define DNE KP_LABEL_SELECTOR_OP_DOES_NOT_EXIST

static const kp_label_selector sel_empty = KP_LABEL_SELECTOR_INIT;
static const kp_label_selector sel_app_web = { LABELS({ "app", "web" }), NULL, 0 };
static const kp_label_selector sel_in = { KP_LABELS_INIT, EXPRS({ "tier", IN, 0, VALUES("a", "b") }) };
static const kp_label_selector sel_in_empty_value = { KP_LABELS_INIT, EXPRS({ "tier", IN, 0, VALUES("") }) };
static const kp_label_selector sel_not_in = { KP_LABELS_INIT, EXPRS({ "tier", NOT_IN, 0, VALUES("a", "b") }) };
static const kp_label_selector sel_exists = { KP_LABELS_INIT, EXPRS({ "tier", EXISTS, 0, NULL, 0 }) };
static const kp_label_selector sel_dne = { KP_LABELS_INIT, EXPRS({ "tier", DNE, 0, NULL, 0 }) };
static const kp_label_selector sel_all = { LABELS({ "app", "web" }, { "env", "prod" }),
	EXPRS({ "tier", IN, 0, VALUES("a", "b") }, { "zone", NOT_IN, 0, VALUES("z1") },
	      { "gpu", DNE, 0, NULL, 0 }, { "os", EXISTS, 0, NULL, 0 }) };
/* selectors Kubernetes refuses to build, which therefore match nothing */
static const kp_label_selector bad_not_in_no_values = { KP_LABELS_INIT, EXPRS({ "tier", NOT_IN, 0, NULL, 0 }) };
static const kp_label_selector bad_dne_values = { KP_LABELS_INIT, EXPRS({ "tier", DNE, 0, VALUES("a") }) };
static const kp_label_selector bad_op_zero = { KP_LABELS_INIT, EXPRS({ "tier", 0, 0, NULL, 0 }) };
static const kp_label_selector bad_op_nine = { KP_LABELS_INIT, EXPRS({ "tier", 9, 0, NULL, 0 }) };
static const kp_label_selector bad_key_not_in = { KP_LABELS_INIT, EXPRS({ "bad key", NOT_IN, 0, VALUES("a") }) };
static const kp_label_selector bad_value_not_in = { KP_LABELS_INIT, EXPRS({ "tier", NOT_IN, 0, VALUES("-a") }) };
static const kp_label_selector bad_match_label = { LABELS({ "app", "a b" }), NULL, 0 };
static const kp_label_selector bad_null_values = { KP_LABELS_INIT, EXPRS({ "tier", NOT_IN, 0, NULL, 1 }) };

static const kp_labels l_empty = KP_LABELS_INIT;
static const kp_labels l_web = LABELS({ "app", "web" });
static const kp_labels l_db = LABELS({ "app", "db" });
static const kp_labels l_web_x = LABELS({ "x", "y" }, { "app", "web" });
static const kp_labels l_tier_a = LABELS({ "tier", "a" });
static const kp_labels l_tier_c = LABELS({ "tier", "c" });
static const kp_labels l_tier_empty = LABELS({ "tier", "" });
static const kp_labels l_other = LABELS({ "other", "a" });
static const kp_labels l_all = LABELS({ "os", "linux" }, { "env", "prod" }, { "tier", "b" },
				      { "zone", "z2" }, { "app", "web" });
static const kp_labels l_all_no_zone = LABELS({ "os", "linux" }, { "env", "prod" }, { "tier", "b" },
					      { "app", "web" });
static const kp_labels l_all_bad_zone = LABELS({ "os", "linux" }, { "env", "prod" }, { "tier", "b" },
					       { "zone", "z1" }, { "app", "web" });
static const kp_labels l_all_gpu = LABELS({ "os", "linux" }, { "env", "prod" }, { "tier", "b" },
					  { "app", "web" }, { "gpu", "true" });
static const kp_labels l_all_no_os = LABELS({ "env", "prod" }, { "tier", "a" }, { "app", "web" });
static const kp_labels l_bad_key = LABELS({ "bad key", "a" });

static const struct match_case {
	const char *name;
	const kp_label_selector *sel;
	const kp_labels *labels;
	int want;
} match_cases[] = {
	{ "nil selector, labels", NULL, &l_web, 0 },
	{ "nil selector, no labels", NULL, &l_empty, 0 },
	{ "nil selector, nil labels", NULL, NULL, 0 },
	{ "empty selector, labels", &sel_empty, &l_web, 1 },
	{ "empty selector, no labels", &sel_empty, &l_empty, 1 },
	{ "empty selector, nil labels", &sel_empty, NULL, 1 },
	{ "matchLabels equal", &sel_app_web, &l_web, 1 },
	{ "matchLabels other value", &sel_app_web, &l_db, 0 },
	{ "matchLabels absent", &sel_app_web, &l_empty, 0 },
	{ "matchLabels nil labels", &sel_app_web, NULL, 0 },
	{ "matchLabels extra labels", &sel_app_web, &l_web_x, 1 },
	{ "In listed", &sel_in, &l_tier_a, 1 },
	{ "In not listed", &sel_in, &l_tier_c, 0 },
	{ "In absent", &sel_in, &l_other, 0 },
	{ "In empty value", &sel_in, &l_tier_empty, 0 },
	{ "In \"\" with empty value", &sel_in_empty_value, &l_tier_empty, 1 },
	{ "In \"\" absent", &sel_in_empty_value, &l_other, 0 },
	{ "NotIn listed", &sel_not_in, &l_tier_a, 0 },
	{ "NotIn not listed", &sel_not_in, &l_tier_c, 1 },
	{ "NotIn absent", &sel_not_in, &l_other, 1 },
	{ "NotIn no labels", &sel_not_in, &l_empty, 1 },
	{ "Exists present", &sel_exists, &l_tier_c, 1 },
	{ "Exists present, empty value", &sel_exists, &l_tier_empty, 1 },
	{ "Exists absent", &sel_exists, &l_other, 0 },
	{ "DoesNotExist present", &sel_dne, &l_tier_empty, 0 },
	{ "DoesNotExist absent", &sel_dne, &l_other, 1 },
	{ "DoesNotExist nil labels", &sel_dne, NULL, 1 },
	{ "all hold", &sel_all, &l_all, 1 },
	{ "all, NotIn key absent", &sel_all, &l_all_no_zone, 1 },
	{ "all, NotIn value listed", &sel_all, &l_all_bad_zone, 0 },
	{ "all, DoesNotExist key present", &sel_all, &l_all_gpu, 0 },
	{ "all, Exists key absent", &sel_all, &l_all_no_os, 0 },
	{ "all, matchLabels missing", &sel_all, &l_tier_a, 0 },
	{ "invalid: NotIn without values", &bad_not_in_no_values, &l_other, 0 },
	{ "invalid: DoesNotExist with values", &bad_dne_values, &l_other, 0 },
	{ "invalid: operator 0", &bad_op_zero, &l_tier_a, 0 },
	{ "invalid: operator 9", &bad_op_nine, &l_tier_a, 0 },
	{ "invalid: bad key, NotIn absent", &bad_key_not_in, &l_other, 0 },
	{ "invalid: bad key, labels have it", &bad_key_not_in, &l_bad_key, 0 },
	{ "invalid: bad value, NotIn", &bad_value_not_in, &l_tier_c, 0 },
	{ "invalid: bad matchLabels value", &bad_match_label, &l_web, 0 },
	{ "invalid: NULL values", &bad_null_values, &l_other, 0 },
};

START_TEST(selector_match_table)
{
	const struct match_case *c = &match_cases[_i];
	ck_assert_msg(kp_label_selector_matches(c->sel, c->labels) == c->want, "%s: expected %d",
		      c->name, c->want);
}
END_TEST

static const kp_label_selector v_bad_ml_key = { LABELS({ "app", "web" }, { "/x", "v" }), NULL, 0 };
static const kp_label_selector v_bad_ml_value = { LABELS({ "app", A64 }), NULL, 0 };
static const kp_label_selector v_in_no_values = { KP_LABELS_INIT,
	EXPRS({ "ok", EXISTS, 0, NULL, 0 }, { "tier", IN, 0, NULL, 0 }) };
static const kp_label_selector v_exists_values = { KP_LABELS_INIT, EXPRS({ "tier", EXISTS, 0, VALUES("a") }) };
static const kp_label_selector v_op_zero_bad_key = { KP_LABELS_INIT, EXPRS({ "", 0, 0, NULL, 0 }) };
static const kp_label_selector v_bad_key = { KP_LABELS_INIT, EXPRS({ "", EXISTS, 0, NULL, 0 }) };
static const kp_label_selector v_bad_value = { KP_LABELS_INIT, EXPRS({ "tier", IN, 0, VALUES("ok", A64) }) };
static const kp_label_selector v_null_exprs = { KP_LABELS_INIT, NULL, 2 };
static const kp_label_selector v_null_ml = { { NULL, 1 }, NULL, 0 };

static const struct validate_case {
	const kp_label_selector *sel;
	int rc;
	const char *field;
	const char *message;
} validate_cases[] = {
	{ NULL, KP_OK, NULL, NULL },
	{ &sel_empty, KP_OK, NULL, NULL },
	{ &sel_all, KP_OK, NULL, NULL },
	{ &sel_in_empty_value, KP_OK, NULL, NULL },
	{ &v_bad_ml_key, KP_EINVAL, "matchLabels", "Invalid value: \"/x\": " PREFIX_EMPTY },
	{ &v_bad_ml_value, KP_EINVAL, "matchLabels", "Invalid value: \"" A64 "\": " VALUE_LONG },
	{ &v_in_no_values, KP_EINVAL, "matchExpressions[1].values",
	  "Required value: must be specified when `operator` is 'In' or 'NotIn'" },
	{ &bad_not_in_no_values, KP_EINVAL, "matchExpressions[0].values",
	  "Required value: must be specified when `operator` is 'In' or 'NotIn'" },
	{ &v_exists_values, KP_EINVAL, "matchExpressions[0].values",
	  "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'" },
	{ &bad_dne_values, KP_EINVAL, "matchExpressions[0].values",
	  "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'" },
	{ &v_op_zero_bad_key, KP_EINVAL, "matchExpressions[0].operator",
	  "Invalid value: \"\": not a valid selector operator" },
	{ &bad_op_nine, KP_EINVAL, "matchExpressions[0].operator",
	  "Invalid value: 9: not a valid selector operator" },
	{ &v_bad_key, KP_EINVAL, "matchExpressions[0].key", "Invalid value: \"\": " NAME_EMPTY },
	{ &bad_key_not_in, KP_EINVAL, "matchExpressions[0].key",
	  "Invalid value: \"bad key\": " NAME_FORMAT },
	{ &v_bad_value, KP_EINVAL, "matchExpressions[0].values[1]",
	  "Invalid value: \"" A64 "\": " VALUE_LONG },
	{ &bad_value_not_in, KP_EINVAL, "matchExpressions[0].values[0]",
	  "Invalid value: \"-a\": " VALUE_FORMAT },
	{ &bad_null_values, KP_EINVAL, "matchExpressions[0].values", "values is NULL but n_values is 1" },
	{ &v_null_exprs, KP_EINVAL, "matchExpressions",
	  "match_expressions is NULL but n_match_expressions is 2" },
	{ &v_null_ml, KP_EINVAL, "matchLabels", "items is NULL but count is 1" },
};

START_TEST(selector_validate_table)
{
	const struct validate_case *c = &validate_cases[_i];
	kp_error err = KP_ERROR_INIT;
	ck_assert_int_eq(kp_label_selector_validate(c->sel, &err), c->rc);
	ck_assert_int_eq(kp_label_selector_validate(c->sel, NULL), c->rc);
	if (c->rc == KP_OK) {
		ck_assert_int_eq(err.code, 0);
		ck_assert_str_eq(err.message, "");
		return;
	}
	ck_assert_int_eq(err.code, c->rc);
	ck_assert_str_eq(err.field, c->field);
	assert_message(&err, c->message);
}
END_TEST

static const struct op_case {
	const char *text;
	uint32_t op;
} op_cases[] = {
	{ "In", KP_LABEL_SELECTOR_OP_IN },
	{ "NotIn", KP_LABEL_SELECTOR_OP_NOT_IN },
	{ "Exists", KP_LABEL_SELECTOR_OP_EXISTS },
	{ "DoesNotExist", KP_LABEL_SELECTOR_OP_DOES_NOT_EXIST },
};

START_TEST(selector_op_names)
{
	const struct op_case *c = &op_cases[_i];
	uint32_t op = 0;
	ck_assert_str_eq(kp_label_selector_op_name(c->op), c->text);
	ck_assert_int_eq(kp_label_selector_op_parse(c->text, &op, NULL), KP_OK);
	ck_assert_uint_eq(op, c->op);
}
END_TEST

START_TEST(selector_op_unknown)
{
	kp_error err = KP_ERROR_INIT;
	uint32_t op = 77;
	ck_assert_str_eq(kp_label_selector_op_name(0), "Unknown");
	ck_assert_str_eq(kp_label_selector_op_name(5), "Unknown");
	ck_assert_int_eq(kp_label_selector_op_parse("in", &op, &err), KP_EINVAL);
	ck_assert_str_eq(err.field, "");
	ck_assert_str_eq(err.message, "Invalid value: \"in\": not a valid selector operator");
	ck_assert_int_eq(kp_label_selector_op_parse("", &op, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "Invalid value: \"\": not a valid selector operator");
	ck_assert_int_eq(kp_label_selector_op_parse("Gt", &op, NULL), KP_EINVAL);
	ck_assert_uint_eq(op, 77);
	ck_assert_int_eq(kp_label_selector_op_parse(NULL, &op, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "text is NULL");
	ck_assert_int_eq(kp_label_selector_op_parse("In", NULL, &err), KP_EINVAL);
	ck_assert_str_eq(err.message, "out is NULL");
}
END_TEST

START_TEST(matching_does_not_allocate)
{
	use_budget_allocator(0);
	ck_assert_int_eq(kp_label_selector_matches(&sel_all, &l_all), 1);
	ck_assert_int_eq(kp_label_selector_matches(&sel_all, &l_all_gpu), 0);
	ck_assert_int_eq(kp_label_selector_matches(&bad_key_not_in, &l_other), 0);
	ck_assert_str_eq(kp_labels_get(&l_all, "zone"), "z2");
	ck_assert_int_eq(kp_label_selector_validate(&bad_value_not_in, NULL), KP_EINVAL);
	ck_assert_int_eq(kp_test_alloc_count(), 0);
	kp_test_alloc_uninstall();
}
END_TEST

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

int main(void)
{
	Suite *s = suite_create("labels");
	TCase *tc = tcase_create("validation");
	tcase_add_test(tc, messages_are_upstream_text);
	tcase_add_loop_test(tc, key_problems_table, 0, N(key_cases));
	tcase_add_loop_test(tc, value_problems_table, 0, N(value_cases));
	tcase_add_test(tc, validate_messages);
	tcase_add_test(tc, labels_validate);
	tcase_add_test(tc, key_parts_match_built_keys);
	tcase_add_test(tc, key_parts_edges);
	tcase_add_loop_test(tc, go_quote_table, 0, N(quote_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("maps");
	tcase_add_test(tc, map_set_get_remove);
	tcase_add_test(tc, map_get_caller_built);
	tcase_add_test(tc, map_copy);
	tcase_add_test(tc, map_copy_rejects);
	tcase_add_test(tc, map_out_of_memory);
	suite_add_tcase(s, tc);

	tc = tcase_create("selectors");
	tcase_add_loop_test(tc, selector_match_table, 0, N(match_cases));
	tcase_add_loop_test(tc, selector_validate_table, 0, N(validate_cases));
	tcase_add_loop_test(tc, selector_op_names, 0, N(op_cases));
	tcase_add_test(tc, selector_op_unknown);
	tcase_add_test(tc, matching_does_not_allocate);
	suite_add_tcase(s, tc);
	return kp_test_run(&s, 1);
}
