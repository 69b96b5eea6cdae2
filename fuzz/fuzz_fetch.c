/* SPDX-License-Identifier: MIT */
/* fuzz_fetch: a document (the input up to its first NUL byte) and paths (the
 * NUL-separated rest, plus the paths of values sampled from the document)
 * through every way of fetching and every typed getter: defined statuses only,
 * the ways agree, and a found value's raw text re-parses to the same value. */
#include "fuzz_util.h"

#define MAX_PATHS 16
#define MAX_SAMPLES 24
#define MAX_DEPTH_ITER ((int)JDOC_DEFAULT_MAX_DEPTH + 2)

static jdoc_parser *p, *p2;   /* the document's, and the one that re-parses raw text */
static uint64_t rng;
static bool validated;        /* the document passed jdoc_validate */

static bool same(jdoc_value a, jdoc_value b) { return a.doc == b.doc && (!a.doc || a.idx == b.idx); }

/* Re-parse the raw text of v with the second parser: same type, same scalar value. */
static void reparse(jdoc_value v, jdoc_type t)
{
    const char *raw;
    size_t rl;
    FZ_CHECK(jdoc_get_raw(v, &raw, &rl) == JDOC_OK, "get_raw");
    if (t == JDOC_INVALID)
        return;
    char *copy = fz_copy(raw, rl);
    jdoc_doc *d2;
    jdoc_status st = jdoc_parse(p2, copy, rl, &d2);
    FZ_CHECK(st == JDOC_OK, "raw text %s of a %s does not re-parse: %s", fz_show(raw, rl), jdoc_type_name(t),
             jdoc_status_str(st));
    jdoc_value w = jdoc_root(d2);
    FZ_CHECK(jdoc_typeof(w) == t, "raw text %s re-parses as %s, was %s", fz_show(raw, rl),
             jdoc_type_name(jdoc_typeof(w)), jdoc_type_name(t));
    switch (t) {
    case JDOC_BOOL: {
        bool a, b;
        FZ_CHECK(jdoc_get_bool(v, &a) == JDOC_OK && jdoc_get_bool(w, &b) == JDOC_OK && a == b, "bool differs");
        break;
    }
    case JDOC_INT: {
        int64_t a, b;
        FZ_CHECK(jdoc_get_int64(v, &a) == JDOC_OK && jdoc_get_int64(w, &b) == JDOC_OK && a == b, "int differs");
        break;
    }
    case JDOC_UINT: {
        uint64_t a, b;
        FZ_CHECK(jdoc_get_uint64(v, &a) == JDOC_OK && jdoc_get_uint64(w, &b) == JDOC_OK && a == b, "uint differs");
        break;
    }
    case JDOC_DOUBLE: {
        double a = 0, b = 0;
        jdoc_status sa = jdoc_get_double(v, &a), sb = jdoc_get_double(w, &b);
        FZ_CHECK(sa == sb && (sa != JDOC_OK || fz_dbits(a) == fz_dbits(b)), "double differs: %s %.17g, %s %.17g",
                 jdoc_status_str(sa), a, jdoc_status_str(sb), b);
        break;
    }
    case JDOC_STRING: {
        const char *a, *b;
        size_t al, bl;
        jdoc_status sa = jdoc_get_string(v, &a, &al), sb = jdoc_get_string(w, &b, &bl);
        FZ_CHECK(sa == sb && (sa != JDOC_OK || (al == bl && memcmp(a, b, al) == 0)), "string differs: %s, %s",
                 jdoc_status_str(sa), jdoc_status_str(sb));
        break;
    }
    default:
        FZ_CHECK(jdoc_count(v) == jdoc_count(w), "count differs");
        break;
    }
    free(copy);
}

/* Every getter on v: defined statuses, consistent with jdoc_typeof. */
static void check_value(jdoc_value v)
{
    if (!v.doc)
        return;
    size_t len;
    jdoc_doc_input(v.doc, &len);
    FZ_CHECK(jdoc_offset(v) < len, "offset %zu past the document", jdoc_offset(v));
    jdoc_type t = jdoc_typeof(v);
    bool num = t == JDOC_INT || t == JDOC_UINT || t == JDOC_DOUBLE;
    bool b;
    int64_t i;
    uint64_t u;
    double d;
    const char *s;
    size_t sl;
    jdoc_status st = jdoc_get_bool(v, &b);
    FZ_CHECK(st < JDOC_STATUS_COUNT && (st == JDOC_OK) == (t == JDOC_BOOL), "get_bool %s on a %s",
             jdoc_status_str(st), jdoc_type_name(t));
    st = jdoc_get_int64(v, &i);
    FZ_CHECK(st < JDOC_STATUS_COUNT && (st == JDOC_OK) == (t == JDOC_INT), "get_int64 %s on a %s",
             jdoc_status_str(st), jdoc_type_name(t));
    st = jdoc_get_uint64(v, &u);
    FZ_CHECK(st < JDOC_STATUS_COUNT && (st != JDOC_OK || t == JDOC_INT || t == JDOC_UINT) &&
                 (t != JDOC_UINT || st == JDOC_OK),
             "get_uint64 %s on a %s", jdoc_status_str(st), jdoc_type_name(t));
    st = jdoc_get_double(v, &d);
    FZ_CHECK(st < JDOC_STATUS_COUNT && ((st == JDOC_OK || st == JDOC_ERR_RANGE) == num), "get_double %s on a %s",
             jdoc_status_str(st), jdoc_type_name(t));
    st = jdoc_get_string(v, &s, &sl);
    FZ_CHECK(st < JDOC_STATUS_COUNT && (st != JDOC_OK || t == JDOC_STRING) &&
                 (t != JDOC_STRING || st == JDOC_OK || st == JDOC_ERR_STRING),
             "get_string %s on a %s", jdoc_status_str(st), jdoc_type_name(t));
    size_t n = jdoc_count(v);
    FZ_CHECK(n == 0 || t == JDOC_ARRAY || t == JDOC_OBJECT, "count %zu of a %s", n, jdoc_type_name(t));

    /* dump and path_of: the full length whatever the room, a NUL-terminated prefix */
    char full[512], part[8];
    size_t cap = 1 + (size_t)(fz_rand(&rng) % sizeof part);
    size_t dl = jdoc_dump(v, full, sizeof full), dl2 = jdoc_dump(v, part, cap);
    FZ_CHECK(dl == dl2, "dump length %zu, with cap %zu: %zu", dl, cap, dl2);
    size_t k = dl < cap - 1 ? dl : cap - 1;
    if (dl < sizeof full)
        FZ_CHECK(full[dl] == 0 && part[k] == 0 && memcmp(full, part, k) == 0, "truncated dump differs");
    for (int syn = JDOC_SYNTAX_OJ; syn <= JDOC_SYNTAX_POINTER; syn++) {
        size_t pl = jdoc_path_of(v, (jdoc_syntax)syn, full, sizeof full),
               pl2 = jdoc_path_of(v, (jdoc_syntax)syn, part, cap);
        k = pl < cap - 1 ? pl : cap - 1;
        FZ_CHECK(pl == pl2 && part[k] == 0, "path_of length %zu, with cap %zu: %zu", pl, cap, pl2);
        if (pl < sizeof full)
            FZ_CHECK(full[pl] == 0 && memcmp(full, part, k) == 0, "truncated path_of differs");
    }
    reparse(v, t);
}

/* One path in one syntax from `from`: the direct call, the compiled path and
 * jdoc_explain agree. Returns the status; *out the value. */
static jdoc_status fetch_all_ways(jdoc_value from, const char *path, size_t len, jdoc_syntax syn, jdoc_value *out)
{
    jdoc_value v, w;
    jdoc_status st = syn == JDOC_SYNTAX_OJ ? jdoc_fetch(from, path, &v) : jdoc_pointer(from, path, len, &v);
    FZ_CHECK(st < JDOC_STATUS_COUNT && (st == JDOC_OK) == (v.doc != NULL), "fetch status %d", st);
    jdoc_status cs;
    jdoc_path *cp = jdoc_path_compile(path, len, syn, &cs);
    FZ_CHECK((cp != NULL) == (cs == JDOC_OK), "compile status");
    if (cp) {
        jdoc_status st2 = jdoc_fetch_path(from, cp, &w);
        FZ_CHECK(st2 == st && same(v, w), "%s path %s: fetch %s, compiled %s", syn ? "pointer" : "Oj",
                 fz_show(path, len), jdoc_status_str(st), jdoc_status_str(st2));
        jdoc_path_free(cp);
    } else {
        FZ_CHECK(cs == JDOC_ERR_PATH && st == JDOC_ERR_PATH, "compile %s, fetch %s", jdoc_status_str(cs),
                 jdoc_status_str(st));
    }
    jdoc_error err;
    char where[64];
    jdoc_status es = jdoc_explain(from, path, len, syn, &err, where, sizeof where);
    FZ_CHECK(es == err.code && err.message && memchr(where, 0, sizeof where), "explain");
    if (st != JDOC_OK)
        FZ_CHECK(es == st, "explain %s, fetch %s: %s", jdoc_status_str(es), jdoc_status_str(st), fz_show(path, len));
    else
        FZ_CHECK(es == JDOC_OK || es == JDOC_ERR_NUMBER || es == JDOC_ERR_STRING || es == JDOC_ERR_SYNTAX,
                 "explain %s after a found value", jdoc_status_str(es));
    *out = v;
    return st;
}

/* The Oj path of a value names it unless a key on the way cannot be written
 * in Oj syntax: "..", a trailing empty key, a NUL. */
static bool oj_expressible(const char *path, size_t len)
{
    if (strlen(path) != len)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (path[i] == '\\') {
            i++; /* the escaped character, whatever it is */
            continue;
        }
        if (path[i] != '/')
            continue;
        /* after an unescaped '/': an empty key ("//", or a trailing '/',
         * which Oj paths ignore) or a ".." step cannot be written */
        if ((i + 1 == len && i > 0) || path[i + 1] == '/' ||
            (path[i + 1] == '.' && i + 2 < len && path[i + 2] == '.' && (i + 3 == len || path[i + 3] == '/')))
            return false;
    }
    return true;
}

typedef struct key {
    const char *s;
    size_t n;
} key;
static int key_cmp(const void *a, const void *b)
{
    const key *x = a, *y = b;
    int c = memcmp(x->s, y->s, x->n < y->n ? x->n : y->n);
    return c ? c : (x->n > y->n) - (x->n < y->n);
}

/* Does any object of the document have the same key twice? (Then the first
 * wins, and a path may lead to another value or nowhere.) */
static bool has_duplicate_keys(jdoc_value root)
{
    static jdoc_iter st[MAX_DEPTH_ITER];
    jdoc_type t = jdoc_typeof(root);
    if (t != JDOC_ARRAY && t != JDOC_OBJECT)
        return false;
    bool dup = false;
    int top = 0;
    jdoc_iter_init(root, &st[0]);
    while (top >= 0 && !dup) {
        jdoc_iter *it = &st[top];
        if (it->object && it->n == 0) {
            /* a fresh object: its keys, sorted */
            jdoc_iter copy = *it;
            size_t n = 0, cap = 16;
            key *k = malloc(cap * sizeof *k);
            while (jdoc_iter_next(&copy, NULL)) {
                if (n == cap)
                    k = realloc(k, (cap *= 2) * sizeof *k);
                if (jdoc_iter_key(&copy, &k[n].s, &k[n].n) == JDOC_OK)
                    n++;
            }
            qsort(k, n, sizeof *k, key_cmp);
            for (size_t i = 1; i < n; i++)
                dup |= key_cmp(&k[i - 1], &k[i]) == 0;
            free(k);
        }
        jdoc_value c;
        if (!jdoc_iter_next(it, &c)) {
            top--;
            continue;
        }
        t = jdoc_typeof(c);
        if ((t == JDOC_ARRAY || t == JDOC_OBJECT) && top + 1 < MAX_DEPTH_ITER)
            jdoc_iter_init(c, &st[++top]);
    }
    return dup;
}

/* path_of(v), fetched back from the root, lands on v (or, with duplicate
 * keys, on a value with the same path). */
static void round_trip(jdoc_value root, jdoc_value v)
{
    char path[4096], again[4096];
    for (int syn = JDOC_SYNTAX_OJ; syn <= JDOC_SYNTAX_POINTER; syn++) {
        size_t pl = jdoc_path_of(v, (jdoc_syntax)syn, path, sizeof path);
        if (pl >= sizeof path)
            continue;
        if (syn == JDOC_SYNTAX_OJ && !oj_expressible(path, pl))
            continue;
        jdoc_value w;
        jdoc_status st = fetch_all_ways(root, path, pl, (jdoc_syntax)syn, &w);
        if (!validated || ((st != JDOC_OK || !same(v, w)) && has_duplicate_keys(root)))
            continue;
        FZ_CHECK(st == JDOC_OK, "path_of %s does not fetch: %s", fz_show(path, pl), jdoc_status_str(st));
        if (!same(v, w)) {
            size_t al = jdoc_path_of(w, (jdoc_syntax)syn, again, sizeof again);
            FZ_CHECK(al == pl && memcmp(path, again, pl) == 0, "path_of %s fetches another value", fz_show(path, pl));
        }
    }
}

/* Leaves under v by iteration (an explicit stack), for each_leaf. */
static size_t count_leaves(jdoc_value v)
{
    static jdoc_iter st[MAX_DEPTH_ITER];
    jdoc_type t = jdoc_typeof(v);
    if (t != JDOC_ARRAY && t != JDOC_OBJECT)
        return 1;
    size_t n = 0;
    int top = 0;
    jdoc_iter_init(v, &st[0]);
    while (top >= 0) {
        jdoc_value c;
        if (!jdoc_iter_next(&st[top], &c)) {
            top--;
            continue;
        }
        t = jdoc_typeof(c);
        if (t == JDOC_ARRAY || t == JDOC_OBJECT) {
            FZ_CHECK(top + 1 < MAX_DEPTH_ITER, "too deep");
            jdoc_iter_init(c, &st[++top]);
        } else {
            n++;
        }
    }
    return n;
}

static int count_visit(jdoc_cursor *c, void *ud)
{
    size_t *n = ud;
    jdoc_type t = jdoc_typeof(jdoc_cursor_value(c));
    (void)t;
    (*n)++;
    return 0;
}

/* The cursor: fetch and move agree with jdoc_fetch from the cursor's value,
 * where leads back, each_leaf/each_child count what iteration counts. */
static void cursor_path(jdoc_cursor *c, jdoc_value root, const char *path)
{
    jdoc_value at = jdoc_cursor_value(c), v, w;
    jdoc_status fs = jdoc_cursor_fetch(c, path, &v);
    FZ_CHECK(fs < JDOC_STATUS_COUNT, "cursor_fetch status");
    if (validated && *path) {
        /* ".." above the cursor's value climbs the cursor's own path, which is the document's */
        jdoc_status st = jdoc_fetch(at, path, &w);
        FZ_CHECK(st == fs && same(v, w), "cursor_fetch %s: %s, jdoc_fetch from its value: %s", fz_show(path, strlen(path)),
                 jdoc_status_str(fs), jdoc_status_str(st));
    }
    size_t d0 = jdoc_cursor_depth(c);
    jdoc_status ms = jdoc_cursor_move(c, path);
    FZ_CHECK(ms == (*path ? fs : JDOC_OK) || !*path, "cursor_move %s, cursor_fetch %s", jdoc_status_str(ms),
             jdoc_status_str(fs));
    if (ms != JDOC_OK) {
        FZ_CHECK(jdoc_cursor_depth(c) == d0 && same(jdoc_cursor_value(c), at), "a failed move moved the cursor");
        return;
    }
    if (*path)
        FZ_CHECK(same(jdoc_cursor_value(c), v), "cursor_move and cursor_fetch land apart");
    char where[4096];
    size_t wl = jdoc_cursor_where(c, where, sizeof where);
    if (validated && wl < sizeof where && oj_expressible(where, wl)) {
        jdoc_status st = jdoc_fetch(root, where, &w);
        if ((st != JDOC_OK || !same(w, jdoc_cursor_value(c))) && has_duplicate_keys(root))
            return;
        FZ_CHECK(st == JDOC_OK, "where %s does not fetch: %s", fz_show(where, wl), jdoc_status_str(st));
        char p1[4096], p2b[4096];
        size_t l1 = jdoc_path_of(w, JDOC_SYNTAX_OJ, p1, sizeof p1),
               l2 = jdoc_path_of(jdoc_cursor_value(c), JDOC_SYNTAX_OJ, p2b, sizeof p2b);
        FZ_CHECK(same(w, jdoc_cursor_value(c)) || (l1 == l2 && memcmp(p1, p2b, l1) == 0),
                 "where %s leads elsewhere (%s)", fz_show(where, wl), fz_show(p1, l1));
    }
    const char *k;
    size_t kl;
    uint64_t idx;
    jdoc_status ls = jdoc_cursor_local_key(c, &k, &kl, &idx);
    FZ_CHECK(ls < JDOC_STATUS_COUNT && (ls != JDOC_ERR_NOT_FOUND || jdoc_cursor_depth(c) == 0), "local_key %s",
             jdoc_status_str(ls));
    if (validated) {
        size_t leaves = 0, children = 0;
        jdoc_value here = jdoc_cursor_value(c);
        FZ_CHECK(jdoc_cursor_each_leaf(c, count_visit, &leaves) == JDOC_OK, "each_leaf");
        FZ_CHECK(leaves == count_leaves(here), "each_leaf %zu, iteration %zu", leaves, count_leaves(here));
        FZ_CHECK(jdoc_cursor_each_child(c, count_visit, &children) == JDOC_OK, "each_child");
        FZ_CHECK(children == jdoc_count(here), "each_child %zu, count %zu", children, jdoc_count(here));
        FZ_CHECK(same(jdoc_cursor_value(c), here), "each_* moved the cursor");
    }
}

/* Cursor steps driven by bytes: child, sibling, up, home. */
static void cursor_walk(jdoc_cursor *c, const char *ops, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        jdoc_status st = JDOC_OK;
        switch ((unsigned char)ops[i] % 4) {
        case 0: st = jdoc_cursor_first_child(c); break;
        case 1: st = jdoc_cursor_next_sibling(c); break;
        case 2: st = jdoc_cursor_up(c); break;
        default: jdoc_cursor_home(c); break;
        }
        FZ_CHECK(st < JDOC_STATUS_COUNT && jdoc_cursor_depth(c) <= JDOC_DEFAULT_MAX_DEPTH, "cursor step");
        FZ_CHECK(!validated || st == JDOC_OK || st == JDOC_ERR_NOT_FOUND, "cursor step %s in a valid document",
                 jdoc_status_str(st));
        check_value(jdoc_cursor_value(c));
    }
}

/* Sample values of the document (reservoir over the first 4096 in document order). */
static size_t sample(jdoc_value root, jdoc_value *out)
{
    static jdoc_iter st[MAX_DEPTH_ITER];
    size_t n = 0, seen = 0;
    out[n++] = root;
    jdoc_type t = jdoc_typeof(root);
    if (t != JDOC_ARRAY && t != JDOC_OBJECT)
        return n;
    int top = 0;
    jdoc_iter_init(root, &st[0]);
    while (top >= 0 && seen < 4096) {
        jdoc_value c;
        if (!jdoc_iter_next(&st[top], &c)) {
            FZ_CHECK(!validated || st[top].status == JDOC_OK, "iteration stopped in a valid document");
            top--;
            continue;
        }
        seen++;
        if (n < MAX_SAMPLES)
            out[n++] = c;
        else {
            uint64_t r = fz_rand(&rng) % seen;
            if (r < MAX_SAMPLES - 1)
                out[1 + r] = c;
        }
        t = jdoc_typeof(c);
        if ((t == JDOC_ARRAY || t == JDOC_OBJECT) && top + 1 < MAX_DEPTH_ITER)
            jdoc_iter_init(c, &st[++top]);
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!p) {
        FZ_CHECK((p = jdoc_parser_new(NULL)) && (p2 = jdoc_parser_new(NULL)), "parser_new");
    }
    rng = fz_hash(data, size);
    const uint8_t *nul = memchr(data, 0, size);
    size_t dl = nul ? (size_t)(nul - data) : size;
    char *doc = fz_copy(data, dl);
    /* paths: NUL-terminated copies of the pieces after the document */
    char *paths[MAX_PATHS];
    size_t plen[MAX_PATHS], np = 0;
    for (size_t i = dl; nul && i < size && np < MAX_PATHS;) {
        size_t b = i + 1, e = b;
        while (e < size && data[e])
            e++;
        paths[np] = malloc(e - b + 1);
        memcpy(paths[np], data + b, e - b);
        paths[np][e - b] = 0;
        plen[np++] = e - b;
        i = e;
    }

    jdoc_doc *d;
    jdoc_status st = jdoc_parse(p, doc, dl, &d);
    FZ_CHECK(st < JDOC_STATUS_COUNT, "parse status");
    if (st == JDOC_OK) {
        validated = jdoc_validate(d) == JDOC_OK;
        jdoc_value root = jdoc_root(d), vals[MAX_SAMPLES];
        size_t nv = sample(root, vals);
        for (size_t k = 0; k < nv; k++) {
            check_value(vals[k]);
            round_trip(root, vals[k]);
        }
        /* the given paths, both syntaxes, from the root and from a sampled value */
        jdoc_path *compiled[2 * MAX_PATHS + 70];
        size_t nc = 0;
        for (size_t k = 0; k < np; k++)
            for (int syn = JDOC_SYNTAX_OJ; syn <= JDOC_SYNTAX_POINTER; syn++) {
                jdoc_value v;
                jdoc_value from = vals[fz_rand(&rng) % nv];
                if (fetch_all_ways(root, paths[k], plen[k], (jdoc_syntax)syn, &v) == JDOC_OK)
                    check_value(v);
                if (fetch_all_ways(from, paths[k], plen[k], (jdoc_syntax)syn, &v) == JDOC_OK)
                    check_value(v);
                jdoc_path *cp = jdoc_path_compile(paths[k], plen[k], (jdoc_syntax)syn, NULL);
                if (cp)
                    compiled[nc++] = cp;
            }
        /* sampled values' own paths too, and more than 64 paths at times (batches) */
        char buf[1024];
        for (size_t k = 0; k < nv && nc < 2 * MAX_PATHS + 20; k++) {
            size_t l = jdoc_path_of(vals[k], JDOC_SYNTAX_POINTER, buf, sizeof buf);
            if (l < sizeof buf)
                compiled[nc++] = jdoc_path_compile(buf, l, JDOC_SYNTAX_POINTER, NULL);
        }
        size_t nm = nc;
        while (nc && (rng & 1) && nm < sizeof compiled / sizeof *compiled)
            compiled[nm++] = compiled[fz_rand(&rng) % nc];
        jdoc_value out[sizeof compiled / sizeof *compiled];
        jdoc_status each[sizeof compiled / sizeof *compiled];
        for (int r = 0; r < 2 && nm; r++) {
            jdoc_value from = r ? vals[fz_rand(&rng) % nv] : root;
            jdoc_status first = jdoc_fetch_many(from, (const jdoc_path *const *)compiled, nm, out, each);
            jdoc_status want_first = JDOC_OK;
            for (size_t k = 0; k < nm; k++) {
                jdoc_value v;
                jdoc_status s1 = jdoc_fetch_path(from, compiled[k], &v);
                FZ_CHECK(each[k] == s1 && same(out[k], v), "fetch_many path %zu: %s, fetch_path: %s", k,
                         jdoc_status_str(each[k]), jdoc_status_str(s1));
                if (want_first == JDOC_OK)
                    want_first = s1;
            }
            FZ_CHECK(first == want_first, "fetch_many returns %s, first failure %s", jdoc_status_str(first),
                     jdoc_status_str(want_first));
        }
        for (size_t k = 0; k < nc; k++)
            jdoc_path_free(compiled[k]);
        /* cursors */
        jdoc_cursor *c = jdoc_cursor_new(d);
        FZ_CHECK(c != NULL, "cursor_new");
        for (size_t k = 0; k < np; k++) {
            cursor_path(c, root, paths[k]);
            cursor_walk(c, paths[k], plen[k] < 32 ? plen[k] : 32);
        }
        for (size_t k = 0; k < nv; k++) {
            size_t l = jdoc_path_of(vals[k], JDOC_SYNTAX_OJ, buf, sizeof buf);
            if (l < sizeof buf && oj_expressible(buf, l)) {
                jdoc_cursor_home(c);
                cursor_path(c, root, buf);
            }
        }
        jdoc_cursor_free(c);
    }
    for (size_t k = 0; k < np; k++)
        free(paths[k]);
    free(doc);
    return 0;
}
