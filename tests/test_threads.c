/* SPDX-License-Identifier: MIT */
/* Threads: 8 threads with a parser each on the same documents, then 8 threads reading one
 * shared document through the functions jdoc.h calls safe to share; every answer equals the
 * single-threaded one. Built-in documents always, ../shared/corpus when present. */
#include <criterion/criterion.h>
#include <pthread.h>
#include "testutil.h"

#define THREADS 8
#define MAX_PATHS 96

static bool slow_env(void)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return true;
#else
#ifdef __has_feature
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
    return true;
#endif
#endif
    const char *pre = getenv("LD_PRELOAD");
    return pre && strstr(pre, "vgpreload");
#endif
}

static const char *const builtin[] = {
    "{\"Id\":\"8dfafdbc3a40\",\"Names\":[\"/web-1\"],\"State\":\"running\",\"Labels\":{\"com.docker.compose.service\":"
    "\"web\"},\"Ports\":[{\"PrivatePort\":80,\"PublicPort\":8080,\"Type\":\"tcp\"}],\"Created\":1700000000}",
    "[1,-2,3.5e10,18446744073709551615,-9223372036854775808,1e400,0.1,true,false,null,\"\",[],{}]",
    "{\"esc\":\"tab\\there \\u00e9 \\ud83d\\ude00\",\"k\\u0065y\":[\"\\\"q\\\"\",\"a\\\\b\"],\"plain\":\"abc\"}",
    "{\"a\":{\"b\":{\"c\":{\"d\":[[[[\"deep\"]]]]}}},\"list\":[{\"x\":1},{\"x\":2},{\"x\":3},{\"y\":4}]}",
    "\"just a string\"",
    "123456789012",
    /* escaped keys: matching them writes nothing, so they are shared too */
    "{\"k\\u0065y\":{\"a\\\"b\":{\"c\\\\d\":[{\"\\u00e9t\\u00e9\":1},{\"\\/\":2}]}},\"\\ud83d\\ude00\":\"x\",\"key\":0}",
    /* 80 levels: the sampled paths of its deepest values are longer than 64
     * steps, so they are compiled with the parser's allocator at each fetch */
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[{\"d\\u0065ep\":[1,2]}"
    "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
};

typedef struct doc {
    char *name;
    char *json;
    size_t len;
    bool owned;
    /* computed single-threaded */
    size_t np;
    char *ptr[MAX_PATHS];        /* pointer paths of sampled values */
    jdoc_path *compiled[MAX_PATHS];
    bool escaped_keys;           /* some key has a backslash */
    uint64_t own, shared;        /* answers with a parser per thread, on a shared document */
} doc;

static doc docs[128];
static size_t ndocs;

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}
#define MIX(h, x) ((h) = mix((h), &(x), sizeof(x)))

/* A value's type and content. `shared`: decode only escape-free strings (an
 * escaped one writes the parser's scratch memory), else its raw text. */
static uint64_t value_digest(uint64_t h, jdoc_value v, bool shared)
{
    jdoc_type t = jdoc_typeof(v);
    MIX(h, t);
    const char *s;
    size_t n;
    jdoc_status st = jdoc_get_raw(v, &s, &n);
    MIX(h, st);
    bool escaped = st == JDOC_OK && memchr(s, '\\', n);
    size_t off = jdoc_offset(v), count = jdoc_count(v);
    MIX(h, off);
    MIX(h, count);
    switch (t) {
    case JDOC_BOOL: {
        bool b = false;
        st = jdoc_get_bool(v, &b);
        MIX(h, st);
        MIX(h, b);
        break;
    }
    case JDOC_INT: {
        int64_t i = 0;
        st = jdoc_get_int64(v, &i);
        MIX(h, st);
        MIX(h, i);
        break;
    }
    case JDOC_UINT: {
        uint64_t u = 0;
        st = jdoc_get_uint64(v, &u);
        MIX(h, st);
        MIX(h, u);
        break;
    }
    case JDOC_DOUBLE: {
        double d = 0;
        st = jdoc_get_double(v, &d);
        MIX(h, st);
        MIX(h, d);
        break;
    }
    case JDOC_STRING:
        if (shared && escaped) {
            h = mix(h, s, n);
        } else {
            st = jdoc_get_string(v, &s, &n);
            MIX(h, st);
            if (st == JDOC_OK)
                h = mix(h, s, n);
        }
        break;
    default:
        break;
    }
    return h;
}

/* Everything asked of one document: the sampled paths (pointer, and compiled
 * when given), iteration over the root; with its own parser also escaped
 * strings and keys, validation and a cursor walk. */
static int leaf_count(jdoc_cursor *c, void *ud)
{
    (void)c;
    ++*(size_t *)ud;
    return 0;
}

static uint64_t answers(const doc *dc, jdoc_doc *d, bool shared)
{
    uint64_t h = 0xcbf29ce484222325ull;
    jdoc_value root = jdoc_root(d), v;
    for (size_t i = 0; i < dc->np; i++) {
        jdoc_status st = jdoc_pointer(root, dc->ptr[i], strlen(dc->ptr[i]), &v);
        MIX(h, st);
        if (st == JDOC_OK)
            h = value_digest(h, v, shared);
        if (dc->compiled[i]) {   /* compiled paths are shared by all threads */
            jdoc_value w;
            st = jdoc_fetch_path(root, dc->compiled[i], &w);
            MIX(h, st);
            MIX(h, w.idx);
        }
    }
    jdoc_iter it;
    if (jdoc_iter_init(root, &it) == JDOC_OK) {
        size_t n = 0;
        while (jdoc_iter_next(&it, &v) && n++ < 1000) {
            h = value_digest(h, v, shared);
            const char *k;
            size_t kl;
            /* decoded keys with a parser of one's own; raw keys (no write) when shared */
            if (it.object && (shared ? jdoc_iter_key_raw(&it, &k, &kl) : jdoc_iter_key(&it, &k, &kl)) == JDOC_OK)
                h = mix(h, k, kl);
        }
        MIX(h, it.status);
    }
    jdoc_status st = jdoc_fetch(root, "/1/..", &v);
    MIX(h, st);
    if (!shared) {
        st = jdoc_validate(d);
        MIX(h, st);
        jdoc_cursor *c = jdoc_cursor_new(d);
        size_t leaves = 0;
        if (c && jdoc_cursor_each_leaf(c, leaf_count, &leaves) == JDOC_OK)
            MIX(h, leaves);
        jdoc_cursor_free(c);
    }
    return h;
}

/* Paths of up to MAX_PATHS values spread over the document, and whether any key is escaped. */
static void prepare(doc *dc, jdoc_parser *p)
{
    jdoc_doc *d;
    dc->np = 0;
    if (jdoc_parse(p, dc->json, dc->len, &d) != JDOC_OK)
        return;
    jdoc_value root = jdoc_root(d);
    /* all values by an explicit stack, first the number, then every k-th */
    jdoc_iter st[128];
    size_t total = 0, pass;
    for (pass = 0; pass < 2; pass++) {
        size_t every = pass ? total / MAX_PATHS + 1 : 0, seen = 0;
        int top = -1;
        if (jdoc_iter_init(root, &st[0]) == JDOC_OK)
            top = 0;
        while (top >= 0) {
            jdoc_value v;
            if (!jdoc_iter_next(&st[top], &v)) {
                top--;
                continue;
            }
            if (st[top].object) {
                const char *k;
                size_t kl;
                if (jdoc_iter_key_raw(&st[top], &k, &kl) == JDOC_OK && memchr(k, '\\', kl))
                    dc->escaped_keys = true;
            }
            if (pass == 0) {
                total++;
            } else if (seen++ % every == 0 && dc->np < MAX_PATHS) {
                char buf[1024];
                size_t l = jdoc_path_of(v, JDOC_SYNTAX_POINTER, buf, sizeof buf);
                if (l < sizeof buf) {
                    dc->ptr[dc->np] = strdup(buf);
                    dc->compiled[dc->np] = jdoc_path_compile(buf, l, JDOC_SYNTAX_POINTER, NULL);
                    dc->np++;
                }
            }
            jdoc_type t = jdoc_typeof(v);
            if ((t == JDOC_ARRAY || t == JDOC_OBJECT) && top + 1 < 128)
                jdoc_iter_init(v, &st[++top]);
        }
    }
}

static void add_doc(const char *name, char *json, size_t len, bool owned)
{
    if (ndocs == sizeof docs / sizeof *docs)
        return;
    doc *dc = &docs[ndocs++];
    memset(dc, 0, sizeof *dc);
    dc->name = strdup(name);
    dc->json = json;
    dc->len = len;
    dc->owned = owned;
}

static void load_dir(const char *dir, size_t max_size)
{
    char **list = tu_list(dir);
    if (!list)
        return;
    for (char **f = list; *f; f++) {
        size_t len;
        char *b = tu_read(*f, &len);
        if (b && len <= max_size)
            add_doc(*f, b, len, true);
        else
            free(b);
    }
    tu_free_list(list);
}

/* Cold start: 8 threads create their first parsers at the same moment, so
 * the one-time CPU feature detection runs concurrently (ThreadSanitizer
 * watches it in the TSan build). All must pick the same kernel. */
static pthread_barrier_t cold_barrier;
static void *cold_start(void *arg)
{
    pthread_barrier_wait(&cold_barrier);
    jdoc_parser *p = jdoc_parser_new(NULL);
    jdoc_doc *d;
    const char **name = arg;
    *name = p && jdoc_parse(p, "[1]", 3, &d) == JDOC_OK ? jdoc_kernel_name(p) : "failed";
    jdoc_parser_free(p);
    return NULL;
}

static bool cold(void)
{
    pthread_t t[THREADS];
    const char *names[THREADS];
    pthread_barrier_init(&cold_barrier, NULL, THREADS);
    for (int i = 0; i < THREADS; i++)
        if (pthread_create(&t[i], NULL, cold_start, &names[i]) != 0)
            return false;
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&cold_barrier);
    for (int i = 0; i < THREADS; i++)
        if (strcmp(names[i], names[0]) != 0 || strcmp(names[0], "failed") == 0)
            return false;
    return true;
}

/* The documents and their single-threaded answers; false when no parser. */
static bool setup_docs(void)
{
    if (!cold())
        return false;
    ndocs = 0;
    for (size_t i = 0; i < sizeof builtin / sizeof *builtin; i++)
        add_doc("built-in", (char *)builtin[i], strlen(builtin[i]), false);
    if (tu_corpus_present()) {
        const char *pre = getenv("LD_PRELOAD");
        size_t max = pre && strstr(pre, "vgpreload") ? 256 * 1024 : slow_env() ? 1024 * 1024 : 8 * 1024 * 1024;
        load_dir(CORPUS "/standard", max);
        load_dir(CORPUS "/docker", max);
    } else {
        tu_note("corpus", "built-in documents only");
    }
    jdoc_parser *p = jdoc_parser_new(NULL);
    if (!p)
        return false;
    for (size_t i = 0; i < ndocs; i++) {
        prepare(&docs[i], p);
        jdoc_doc *d;
        if (jdoc_parse(p, docs[i].json, docs[i].len, &d) == JDOC_OK) {
            docs[i].own = answers(&docs[i], d, false);
            docs[i].shared = answers(&docs[i], d, true);
        } else {
            docs[i].own = docs[i].shared = (uint64_t)jdoc_last_error(p)->code << 32 | jdoc_last_error(p)->offset;
        }
    }
    jdoc_parser_free(p);
    return true;
}

static void teardown_docs(void)
{
    for (size_t i = 0; i < ndocs; i++) {
        for (size_t k = 0; k < docs[i].np; k++) {
            free(docs[i].ptr[k]);
            jdoc_path_free(docs[i].compiled[k]);
        }
        if (docs[i].owned)
            free(docs[i].json);
        free(docs[i].name);
    }
    ndocs = 0;
}

typedef struct job {
    int id, rounds;
    jdoc_kernel_id kernel;
    const doc *shared_doc;       /* part 2: the document */
    jdoc_doc *shared_parsed;
    size_t mismatches, done;
    char first[256];
} job;

/* Part 1: a parser per thread, every document, each thread from another start. */
static void *own_parser(void *arg)
{
    job *j = arg;
    jdoc_options o = { .kernel = j->kernel };
    jdoc_parser *p = jdoc_parser_new(&o);
    if (!p) {
        snprintf(j->first, sizeof j->first, "parser_new failed");
        j->mismatches++;
        return NULL;
    }
    for (int r = 0; r < j->rounds; r++)
        for (size_t k = 0; k < ndocs; k++) {
            const doc *dc = &docs[(k + (size_t)j->id * 7) % ndocs];
            jdoc_doc *d;
            uint64_t got;
            if (jdoc_parse(p, dc->json, dc->len, &d) == JDOC_OK)
                got = answers(dc, d, false);
            else
                got = (uint64_t)jdoc_last_error(p)->code << 32 | jdoc_last_error(p)->offset;
            if (got != dc->own) {
                if (!j->mismatches)
                    snprintf(j->first, sizeof j->first, "%s: thread %d (%s) round %d differs", dc->name, j->id,
                             jdoc_kernel_name(p), r);
                j->mismatches++;
            }
            j->done++;
        }
    jdoc_parser_free(p);
    return NULL;
}

/* Part 2: one parsed document, read by every thread. */
static void *shared_reader(void *arg)
{
    job *j = arg;
    for (int r = 0; r < j->rounds; r++) {
        uint64_t got = answers(j->shared_doc, j->shared_parsed, true);
        if (got != j->shared_doc->shared) {
            if (!j->mismatches)
                snprintf(j->first, sizeof j->first, "%s: thread %d round %d differs", j->shared_doc->name, j->id, r);
            j->mismatches++;
        }
        j->done++;
    }
    return NULL;
}

/* Run THREADS jobs; the number of mismatches, the first described in msg. */
static size_t run_threads(void *(*fn)(void *), job *jobs, char *msg, size_t cap, size_t *done)
{
    pthread_t t[THREADS];
    size_t bad = 0;
    for (int i = 0; i < THREADS; i++)
        if (pthread_create(&t[i], NULL, fn, &jobs[i]) != 0) {
            snprintf(msg, cap, "pthread_create failed");
            return 1;
        }
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < THREADS; i++) {
        if (jobs[i].mismatches && !bad)
            snprintf(msg, cap, "%s", jobs[i].first);
        bad += jobs[i].mismatches;
        *done += jobs[i].done;
    }
    return bad;
}

/* Answer: parsers in different threads do not interfere: 8 threads (each
 * kernel this CPU runs, in turn) parse and query every document and get the
 * single-threaded answers. */
static size_t a_parser_per_thread(char *msg, size_t cap)
{
    job jobs[THREADS];
    jdoc_kernel_id kernels[JDOC_KERNEL_COUNT];
    int nk = 0;
    for (int k = JDOC_KERNEL_SCALAR; k < JDOC_KERNEL_COUNT; k++)
        if (jdoc_kernel_supported((jdoc_kernel_id)k))
            kernels[nk++] = (jdoc_kernel_id)k;
    for (int i = 0; i < THREADS; i++)
        jobs[i] = (job){ .id = i, .rounds = slow_env() ? 1 : 2, .kernel = kernels[i % nk] };
    size_t done = 0, bad = run_threads(own_parser, jobs, msg, cap, &done);
    fprintf(stderr, "threads: %d threads, %zu documents (%s), %zu parses\n", THREADS, ndocs,
            tu_corpus_present() ? "built-in and corpus" : "built-in only: ../shared/corpus not present", done);
    return bad;
}

/* Answer: one parsed document can be read by 8 threads at once through
 * jdoc_fetch/jdoc_pointer/jdoc_fetch_path (with shared compiled paths, and
 * paths longer than 64 steps, compiled with the parser's allocator: the
 * default one is thread-safe), iteration (raw keys) and the typed getters,
 * escape-free strings only (jdoc.h: no cursors, no jdoc_validate, no escaped
 * strings). Documents with escaped keys are shared too: matching a key,
 * escaped or not, writes nothing. The same answers. */
static size_t one_shared_document(char *msg, size_t cap)
{
    jdoc_parser *p = jdoc_parser_new(NULL);
    size_t shared = 0, skipped = 0, bad = 0, done = 0, escaped = 0;
    for (size_t k = 0; k < ndocs; k++) {
        jdoc_doc *d;
        if (jdoc_parse(p, docs[k].json, docs[k].len, &d) != JDOC_OK) {
            skipped++;
            continue;
        }
        job jobs[THREADS];
        for (int i = 0; i < THREADS; i++)
            jobs[i] = (job){ .id = i, .rounds = slow_env() ? 1 : 3, .shared_doc = &docs[k], .shared_parsed = d };
        bad += run_threads(shared_reader, jobs, msg, cap, &done);
        shared++;
        escaped += docs[k].escaped_keys;
    }
    jdoc_parser_free(p);
    if (!shared || !escaped) {
        snprintf(msg, cap, "%zu documents shared, %zu with escaped keys", shared, escaped);
        bad++;
    }
    fprintf(stderr, "threads: %zu documents each read by %d threads at once (%zu with escaped keys), %zu not JSON\n",
            shared, THREADS, escaped, skipped);
    return bad;
}

#if defined(__SANITIZE_THREAD__)
#define TSAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TSAN_BUILD 1
#endif
#endif

#ifdef TSAN_BUILD
/* Criterion's runner does not start under ThreadSanitizer (Criterion issue
 * #274: its inheritable arena cannot be mapped), so a TSan build of this file
 * is a plain program; TSan itself makes it exit nonzero on any report. */
int main(void)
{
    char msg[256] = "";
    int failed = 0, passed = 0;
    if (!setup_docs()) {
        fprintf(stderr, "threads: cold start or parser_new failed\n");
        return 1;
    }
    size_t (*tests[])(char *, size_t) = { a_parser_per_thread, one_shared_document };
    const char *names[] = { "a_parser_per_thread", "one_shared_document" };
    for (int i = 0; i < 2; i++) {
        msg[0] = 0;
        size_t bad = tests[i](msg, sizeof msg);
        fprintf(stderr, "[%s] threads::%s%s%s\n", bad ? "FAIL" : "PASS", names[i], bad ? ": " : "", msg);
        bad ? failed++ : passed++;
    }
    teardown_docs();
    printf("test_threads: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
#else
static void setup(void) { cr_assert(setup_docs(), "cold start or parser_new failed"); }
TestSuite(threads, .init = setup, .fini = teardown_docs);

Test(threads, a_parser_per_thread)
{
    char msg[256] = "";
    size_t bad = a_parser_per_thread(msg, sizeof msg);
    cr_expect_eq(bad, 0, "%s (%zu mismatches)", msg, bad);
}

Test(threads, one_shared_document)
{
    char msg[256] = "";
    size_t bad = one_shared_document(msg, sizeof msg);
    cr_expect_eq(bad, 0, "%s (%zu mismatches)", msg, bad);
}
#endif
