/* SPDX-License-Identifier: MIT */
/* fuzz_number: numbers against strtod and unsigned __int128. The input, alone
 * and wrapped in [ ], is a number for jdoc exactly when the RFC 8259 grammar
 * (ref.h) says so; every number jdoc reads equals the references bit for bit. */
#include <errno.h>
#include <math.h>
#include "fuzz_util.h"
#include "ref.h"
#include "stage2/number.h"

__extension__ typedef unsigned __int128 u128;

/* What a number token must read as. */
typedef struct want {
    jdoc_type type;
    bool integer, neg;
    u128 mag;        /* integers: |value|, saturated above 2^65 */
    double d;        /* strtod */
} want;

static void reference(const char *t, size_t n, want *w)
{
    const u128 two63 = (u128)1 << 63, two64 = (u128)1 << 64, cap = (u128)1 << 66;
    memset(w, 0, sizeof *w);
    w->neg = n && t[0] == '-';
    w->integer = !memchr(t, '.', n) && !memchr(t, 'e', n) && !memchr(t, 'E', n);
    for (size_t i = w->neg; w->integer && i < n; i++)
        if (w->mag < cap)
            w->mag = w->mag * 10 + (u128)(t[i] - '0');
    w->type = JDOC_DOUBLE;
    if (w->integer && !w->neg && w->mag < two63)
        w->type = JDOC_INT;
    else if (w->integer && !w->neg && w->mag < two64)
        w->type = JDOC_UINT;
    else if (w->integer && w->neg && w->mag <= two63)
        w->type = JDOC_INT;
    char *z = malloc(n + 1);
    memcpy(z, t, n);
    z[n] = 0;
    w->d = strtod(z, NULL);
    free(z);
}

/* Value v, whose raw text is a number token, against the references. */
static void check_value(jdoc_value v, uint64_t h)
{
    const char *t;
    size_t n;
    FZ_CHECK(jdoc_get_raw(v, &t, &n) == JDOC_OK, "raw");
    FZ_CHECK(ref_is_number((const uint8_t *)t, n), "jdoc read a number from a token the grammar rejects: %s",
             fz_show(t, n));
    want w;
    reference(t, n, &w);
    const char *shown = fz_show(t, n);
    jdoc_type ty = jdoc_typeof(v);
    FZ_CHECK(ty == w.type, "%s: type %s, want %s", shown, jdoc_type_name(ty), jdoc_type_name(w.type));

    double d = 0;
    jdoc_status st = jdoc_get_double(v, &d);
    if (isinf(w.d))
        FZ_CHECK(st == JDOC_ERR_RANGE, "%s: get_double %s, want range error (strtod overflows)", shown,
                 jdoc_status_str(st));
    else
        FZ_CHECK(st == JDOC_OK && fz_dbits(d) == fz_dbits(w.d), "%s: get_double %s %.17g (%016llx), strtod %.17g (%016llx)",
                 shown, jdoc_status_str(st), d, (unsigned long long)fz_dbits(d), w.d,
                 (unsigned long long)fz_dbits(w.d));

    /* the exact fallback alone, from a guess up to 64 ulps off */
    double e = 0;
    int nudge = (int)(h % 129) - 64;
    FZ_CHECK(jdoc__num_parse_exact(t, n, nudge, &e) == JDOC_OK && fz_dbits(e) == fz_dbits(w.d),
             "%s: exact conversion (nudge %d) %.17g, strtod %.17g", shown, nudge, e, w.d);

    int64_t i = 0;
    st = jdoc_get_int64(v, &i);
    if (w.type == JDOC_INT) {
        int64_t want_i = w.neg ? (w.mag == (u128)1 << 63 ? INT64_MIN : -(int64_t)(uint64_t)w.mag) : (int64_t)(uint64_t)w.mag;
        FZ_CHECK(st == JDOC_OK && i == want_i, "%s: get_int64 %s %lld", shown, jdoc_status_str(st), (long long)i);
    } else {
        FZ_CHECK(st == (w.integer ? JDOC_ERR_RANGE : JDOC_ERR_TYPE), "%s: get_int64 %s", shown, jdoc_status_str(st));
    }

    uint64_t u = 0;
    st = jdoc_get_uint64(v, &u);
    if ((w.type == JDOC_INT && (!w.neg || w.mag == 0)) || w.type == JDOC_UINT)
        FZ_CHECK(st == JDOC_OK && u == (uint64_t)w.mag, "%s: get_uint64 %s %llu", shown, jdoc_status_str(st),
                 (unsigned long long)u);
    else
        FZ_CHECK(st == (w.integer ? JDOC_ERR_RANGE : JDOC_ERR_TYPE), "%s: get_uint64 %s", shown, jdoc_status_str(st));

    bool b;
    const char *s;
    size_t sl;
    FZ_CHECK(jdoc_get_bool(v, &b) == JDOC_ERR_TYPE && jdoc_get_string(v, &s, &sl) == JDOC_ERR_TYPE,
             "%s: a number read as a bool or a string", shown);
}

/* Does any getter read value v as a number? */
static bool reads_as_number(jdoc_value v)
{
    double d;
    jdoc_status st = jdoc_get_double(v, &d);
    jdoc_type t = jdoc_typeof(v);
    return st == JDOC_OK || st == JDOC_ERR_RANGE || t == JDOC_INT || t == JDOC_UINT || t == JDOC_DOUBLE;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static jdoc_parser *p;
    if (!p)
        FZ_CHECK((p = jdoc_parser_new(NULL)) != NULL, "parser_new");
    uint64_t h = fz_hash(data, size);
    size_t b = 0, e = size;
    while (b < e && ref_ws(data[b]))
        b++;
    while (e > b && ref_ws(data[e - 1]))
        e--;
    bool number = ref_is_number(data + b, e - b);

    /* [input]: an exact-size copy */
    char *arr = malloc(size + 2);
    arr[0] = '[';
    memcpy(arr + 1, data, size);
    arr[size + 1] = ']';
    jdoc_doc *d;
    jdoc_status st = jdoc_parse(p, arr, size + 2, &d);
    if (number) {
        FZ_CHECK(st == JDOC_OK && jdoc_validate(d) == JDOC_OK, "[%s]: %s", fz_show((const char *)data, size),
                 jdoc_status_str(jdoc_last_error(p)->code));
        jdoc_value v;
        FZ_CHECK(jdoc_count(jdoc_root(d)) == 1 && jdoc_pointer(jdoc_root(d), "/0", 2, &v) == JDOC_OK, "one element");
        const char *t;
        size_t n;
        jdoc_get_raw(v, &t, &n);
        FZ_CHECK(n == e - b && memcmp(t, data + b, n) == 0, "raw text %s", fz_show(t, n));
        check_value(v, h);
    } else if (st == JDOC_OK) {
        /* any element a getter reads as a number must be a number token, and right */
        jdoc_iter it;
        jdoc_value v;
        int k = 0;
        FZ_CHECK(jdoc_iter_init(jdoc_root(d), &it) == JDOC_OK, "iter_init");
        while (k++ < 256 && jdoc_iter_next(&it, &v))
            if (reads_as_number(v))
                check_value(v, h);
        if (jdoc_validate(d) == JDOC_OK && jdoc_count(jdoc_root(d)) == 1 &&
            jdoc_pointer(jdoc_root(d), "/0", 2, &v) == JDOC_OK)
            FZ_CHECK(!reads_as_number(v), "%s is not a number, yet accepted", fz_show((const char *)data, size));
    }
    free(arr);

    /* the input alone, as the root */
    char *in = fz_copy(data, size);
    st = jdoc_parse(p, in, size, &d);
    if (number) {
        FZ_CHECK(st == JDOC_OK && jdoc_validate(d) == JDOC_OK, "root %s: %s", fz_show(in, size),
                 jdoc_status_str(jdoc_last_error(p)->code));
        check_value(jdoc_root(d), h);
    } else if (st == JDOC_OK && reads_as_number(jdoc_root(d))) {
        check_value(jdoc_root(d), h);
        FZ_CHECK(jdoc_validate(d) != JDOC_OK, "root %s is not a number, yet accepted", fz_show(in, size));
    }
    free(in);
    return 0;
}
