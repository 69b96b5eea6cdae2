/* SPDX-License-Identifier: MIT */
/* Helpers of the limit, fault and page-end tests: timing, slow builds, inputs
 * that end at an unreadable page, a counting (and failing) allocator. */
#ifndef JDOC_TEST_LIMITS_H
#define JDOC_TEST_LIMITS_H
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "testutil.h"

/* No test of these files has a .timeout: Criterion 2.4's parallel runner leaks
 * memory (LeakSanitizer fails the sanitized run) when tests with timeouts overlap. */

static inline double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Under valgrind or a sanitizer everything runs several times slower: sizes
 * shrink and time limits grow there. */
static inline bool slow_env(void)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return true;
#else
#ifdef __has_feature
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
    return true;
#endif
#endif
    const char *pre = getenv("LD_PRELOAD");
    return pre && strstr(pre, "vgpreload");
#endif
}

/* n bytes placed so that the last one is the last readable byte before a
 * PROT_NONE page; the input pages are read-only (jdoc never writes to input). */
typedef struct pagebuf {
    char *map;
    size_t maplen;
} pagebuf;

static inline const char *page_end(pagebuf *pb, const void *src, size_t n)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    size_t body = n ? (n + pg - 1) / pg * pg : pg;
    pb->maplen = body + pg;
    pb->map = mmap(NULL, pb->maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cr_assert(pb->map != MAP_FAILED);
    char *p = pb->map + body - n;
    if (n)
        memcpy(p, src, n);
    cr_assert_eq(mprotect(pb->map, body, PROT_READ), 0);
    cr_assert_eq(mprotect(pb->map + body, pg, PROT_NONE), 0);
    return p;
}

static inline void page_free(pagebuf *pb) { munmap(pb->map, pb->maplen); }

/* Counting allocator: calls, live blocks, and the call that fails (0 = none). */
typedef struct counting {
    long calls, live, fail_at;
    bool failed;   /* a failure was injected */
} counting;

static inline void *c_malloc(void *ud, size_t n)
{
    counting *c = ud;
    if (++c->calls == c->fail_at) {
        c->failed = true;
        return NULL;
    }
    void *p = malloc(n);
    c->live += p != NULL;
    return p;
}
static inline void *c_realloc(void *ud, void *p, size_t n)
{
    counting *c = ud;
    if (++c->calls == c->fail_at) {
        c->failed = true;
        return NULL;
    }
    void *q = realloc(p, n);
    c->live += p == NULL && q != NULL;
    return q;
}
static inline void c_free(void *ud, void *p)
{
    counting *c = ud;
    c->live -= p != NULL;
    free(p);
}

static inline jdoc_parser *parser_k(jdoc_kernel_id k, uint32_t max_depth, bool trust)
{
    jdoc_options o = { .kernel = k, .max_depth = max_depth, .trust_utf8 = trust };
    jdoc_parser *p = jdoc_parser_new(&o);
    cr_assert_not_null(p);
    return p;
}

/* A malloc'd string of `reps` copies of s. */
static inline char *repeat(const char *s, size_t reps, size_t *len)
{
    size_t l = strlen(s);
    char *b = malloc(l * reps + 1);
    cr_assert_not_null(b);
    for (size_t i = 0; i < reps; i++)
        memcpy(b + i * l, s, l);
    b[l * reps] = 0;
    *len = l * reps;
    return b;
}

/* A cursor walk callback that counts. */
static inline int count_cb(jdoc_cursor *c, void *ud)
{
    (void)c;
    ++*(size_t *)ud;
    return 0;
}
#endif
