/* SPDX-License-Identifier: MIT */
/* fuzz_string: the input as a string body, "<input>" and {"<input>":0,"x":1}:
 * jdoc_get_string and jdoc_iter_key equal the reference decoder (ref.h), bad
 * escapes are JDOC_ERR_STRING, decoded text is UTF-8 when the input is, and a
 * key is found by its decoded text (pointer, Oj path, compiled, fetch_many). */
#include "fuzz_util.h"
#include "ref.h"

static jdoc_parser *parsers[2];   /* UTF-8 checked, trusted */

/* '"' + body + '"' or '{"' + body + '":0,"x":1}' in an exact-size buffer. */
static char *wrap(const uint8_t *body, size_t n, bool key, size_t *len)
{
    const char *pre = key ? "{\"" : "\"", *post = key ? "\":0,\"x\":1}" : "\"";
    size_t a = strlen(pre), b = strlen(post);
    char *s = malloc(a + n + b);
    memcpy(s, pre, a);
    memcpy(s + a, body, n);
    memcpy(s + a + n, post, b);
    *len = a + n + b;
    return s;
}

/* A pointer or Oj path to member `key` of the root. */
static size_t make_path(const char *key, size_t kl, jdoc_syntax syn, char *out)
{
    size_t o = 0;
    out[o++] = '/';
    for (size_t i = 0; i < kl; i++) {
        char c = key[i];
        if (syn == JDOC_SYNTAX_POINTER && (c == '~' || c == '/')) {
            out[o++] = '~';
            out[o++] = c == '~' ? '0' : '1';
        } else if (syn == JDOC_SYNTAX_OJ && (c == '/' || c == '\\')) {
            out[o++] = '\\';
            out[o++] = c;
        } else {
            out[o++] = c;
        }
    }
    out[o] = 0;
    return o;
}

/* The value the lookup of decoded key `key` must find in {"<body>":0,"x":1}: 0, 1 or -1 (none). */
static int expect_member(bool first_ok, const char *first, size_t fl, const char *key, size_t kl)
{
    if (first_ok && fl == kl && memcmp(first, key, kl) == 0)
        return 0;
    return kl == 1 && key[0] == 'x' ? 1 : -1;
}

static void lookup(jdoc_value root, bool first_ok, const char *first, size_t fl, const char *key, size_t kl)
{
    int want = expect_member(first_ok, first, fl, key, kl);
    char *path = malloc(2 * kl + 2);
    for (int syn = JDOC_SYNTAX_OJ; syn <= JDOC_SYNTAX_POINTER; syn++) {
        size_t pl = make_path(key, kl, (jdoc_syntax)syn, path);
        jdoc_value v = { 0 }, w = { 0 };
        jdoc_status st;
        if (syn == JDOC_SYNTAX_POINTER) {
            st = jdoc_pointer(root, path, pl, &v);
        } else {
            /* Oj paths are NUL-terminated, ".." climbs, "" is the root itself */
            if (memchr(key, 0, kl) || kl == 0 || (kl == 2 && key[0] == '.' && key[1] == '.'))
                continue;
            st = jdoc_fetch(root, path, &v);
        }
        int64_t got = -1;
        if (st == JDOC_OK)
            FZ_CHECK(jdoc_get_int64(v, &got) == JDOC_OK, "member value");
        FZ_CHECK(got == want && (st == JDOC_OK || st == JDOC_ERR_NOT_FOUND),
                 "%s lookup of %s: %s, value %lld, want %d", syn ? "pointer" : "Oj", fz_show(key, kl),
                 jdoc_status_str(st), (long long)got, want);
        jdoc_status cs;
        jdoc_path *cp = jdoc_path_compile(path, pl, (jdoc_syntax)syn, &cs);
        FZ_CHECK(cp != NULL, "compile %s: %s", fz_show(path, pl), jdoc_status_str(cs));
        FZ_CHECK(jdoc_fetch_path(root, cp, &w) == st && w.idx == v.idx && w.doc == v.doc, "compiled path differs");
        jdoc_path *x = jdoc_path_compile("/x", 2, (jdoc_syntax)syn, NULL);
        const jdoc_path *many[3] = { cp, x, cp };
        jdoc_value out[3];
        jdoc_status each[3];
        jdoc_fetch_many(root, many, 3, out, each);
        FZ_CHECK(each[0] == st && out[0].idx == v.idx && each[2] == st && out[2].idx == v.idx,
                 "fetch_many: %s, fetch: %s", jdoc_status_str(each[0]), jdoc_status_str(st));
        FZ_CHECK(each[1] == JDOC_OK, "fetch_many /x: %s", jdoc_status_str(each[1]));
        jdoc_path_free(cp);
        jdoc_path_free(x);
    }
    free(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!parsers[0]) {
        jdoc_options o = { .trust_utf8 = false };
        parsers[0] = jdoc_parser_new(&o);
        o.trust_utf8 = true;
        parsers[1] = jdoc_parser_new(&o);
        FZ_CHECK(parsers[0] && parsers[1], "parser_new");
    }
    /* What stage 1 sees: is the closing quote the first unescaped one, any raw control byte? */
    bool closed = true, ctrl = false;
    for (size_t i = 0; i < size; i++)
        ctrl |= data[i] < 0x20;   /* escaped or not */
    for (size_t i = 0; i < size; i++) {
        if (data[i] == '\\')
            i++;
        else if (data[i] == '"')
            closed = false;
        if (i == size)   /* a trailing backslash escapes the closing quote */
            closed = false;
    }
    bool utf8 = ref_utf8_valid(data, size);
    uint8_t *ref = malloc(size + 1);
    size_t rl = 0;
    int rs = ref_decode(data, size, ref, &rl);

    for (int t = 0; t < 2; t++) {
        jdoc_parser *p = parsers[t];
        for (int key = 0; key < 2; key++) {
            size_t len;
            if (key && !closed)   /* the quote in the body makes another object: nothing to compare */
                continue;
            char *in = wrap(data, size, key, &len);
            jdoc_doc *d;
            jdoc_status st = jdoc_parse(p, in, len, &d);
            bool accept = closed && !ctrl && (utf8 || t == 1);
            FZ_CHECK((st == JDOC_OK) == accept, "%s%s: parse %s, want %s", key ? "key " : "", fz_show(in, len),
                     jdoc_status_str(st), accept ? "ok" : "an error");
            if (st != JDOC_OK) {
                free(in);
                continue;
            }
            jdoc_status vs = jdoc_validate(d);
            FZ_CHECK((vs == JDOC_OK) == (rs == REF_OK && utf8), "%s: validate %s, reference %s", fz_show(in, len),
                     jdoc_status_str(vs), ref_names[rs]);
            const char *s = NULL, *s2 = NULL;
            size_t sl = 0, sl2 = 0;
            jdoc_iter it;
            if (key) {
                jdoc_value v;
                FZ_CHECK(jdoc_iter_init(jdoc_root(d), &it) == JDOC_OK && jdoc_iter_next(&it, &v), "first member");
                st = jdoc_iter_key(&it, &s, &sl);
            } else {
                st = jdoc_get_string(jdoc_root(d), &s, &sl);
            }
            if (rs == REF_OK) {
                FZ_CHECK(st == JDOC_OK && sl == rl && memcmp(s, ref, rl) == 0, "%s: decoded %s to %s",
                         jdoc_status_str(st), fz_show(in, len), fz_show(s ? s : "", s ? sl : 0));
                FZ_CHECK(!utf8 || ref_utf8_valid((const uint8_t *)s, sl), "decoded text is not UTF-8");
                /* decoded once: the same bytes again */
                st = key ? jdoc_iter_key(&it, &s2, &sl2) : jdoc_get_string(jdoc_root(d), &s2, &sl2);
                FZ_CHECK(st == JDOC_OK && s2 == s && sl2 == sl, "second decoding differs");
            } else {
                FZ_CHECK(st == JDOC_ERR_STRING, "%s: bad string decoded: %s", fz_show(in, len), jdoc_status_str(st));
            }
            if (key) {
                jdoc_value root = jdoc_root(d);
                bool ok = rs == REF_OK;
                if (ok) {
                    lookup(root, true, (const char *)ref, rl, (const char *)ref, rl);
                    if (rl) {   /* one byte off, one byte short */
                        char *k2 = malloc(rl);
                        memcpy(k2, ref, rl);
                        k2[rl - 1] ^= 0x20;
                        lookup(root, true, (const char *)ref, rl, k2, rl);
                        lookup(root, true, (const char *)ref, rl, (const char *)ref, rl - 1);
                        free(k2);
                    }
                }
                /* the raw body as a key: found when it decodes to itself */
                lookup(root, ok, (const char *)ref, rl, (const char *)data, size);
                lookup(root, ok, (const char *)ref, rl, "x", 1);
            }
            free(in);
        }
    }
    free(ref);
    return 0;
}
