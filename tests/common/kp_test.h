/*
 * Shared helpers for the Check test programs: TAP runner and access to the
 * upstream data folder (../shared/data, set by the meson option shared_data
 * and passed in the KP_SHARED_DATA environment variable).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_TEST_H
#define KP_TEST_H

#include <check.h>
#include <cJSON.h>

/*
 * Run the suites with TAP on stdout (meson reads it with protocol 'tap') and
 * return the process exit status.
 */
int kp_test_run(Suite **suites, int n_suites);

/* Absolute path of a file under the shared data folder (static buffer). */
const char *kp_test_data_path(const char *relative);

/*
 * If the shared data file is missing, print a TAP plan that skips the whole
 * program with a reason naming the missing file, and exit. Call from main()
 * before running suites that need it.
 */
void kp_test_require_data(const char *relative);

/* Read a whole file; NULL if missing. Caller frees. */
char *kp_test_read_file(const char *path, size_t *len);

/* Parse a JSON file under the shared data folder (kp_test_require_data first). */
cJSON *kp_test_load_json(const char *relative);

/* An emitter's write callback (kp_write_fn) appending to a NUL-terminated
 * heap string: @p ctx is a char ** (NULL at first; the caller frees it). */
int kp_test_append(void *ctx, const char *data, size_t len);

/*
 * A test allocator installed with kp_set_allocator: it counts every
 * allocation the library makes (malloc and realloc) and can fail one.
 * kp_test_alloc_fail_at(n) resets the count and lets n allocations succeed,
 * then fails every later one (-1 = never fail); kp_test_alloc_count() is the
 * number attempted since that reset. Checked fixtures fork per test, so the hook does
 * not leak into other tests; kp_test_alloc_uninstall restores libc.
 */
void kp_test_alloc_install(void);
void kp_test_alloc_fail_at(long n);
long kp_test_alloc_count(void);
void kp_test_alloc_uninstall(void);

#endif
