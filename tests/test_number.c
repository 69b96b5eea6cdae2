/* SPDX-License-Identifier: MIT */
/* Tests for src/stage2/number.c: RFC 8259 number grammar, int64/uint64 limits,
 * and bit-exact doubles versus glibc strtod (hard, huge and random inputs). */
#include <criterion/criterion.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stage2/number.h"

/* ------------------------------------------------------------------------ */
/* helpers: every input is parsed from an exact-size malloc'd copy           */
/* ------------------------------------------------------------------------ */

static jdoc_status parse_n(const char *s, size_t n, jdoc_num *o, size_t *err)
{
    char *b = malloc(n ? n : 1);
    cr_assert_not_null(b);
    memcpy(b, s, n);
    jdoc_status st = jdoc__num_parse(n ? b : b + 1, n, o, err); /* n == 0: pointer at the end */
    free(b);
    return st;
}

static jdoc_status classify_n(const char *s, size_t n, jdoc_num *o, size_t *err)
{
    char *b = malloc(n ? n : 1);
    cr_assert_not_null(b);
    memcpy(b, s, n);
    jdoc_status st = jdoc__num_classify(n ? b : b + 1, n, o, err);
    free(b);
    return st;
}

static uint64_t dbits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static double bitsd(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static uint64_t rng_state;
static uint64_t rng(void) /* xorshift64*, deterministic */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Du;
}

/* Parse s (NUL-terminated, exact-size copy), compare with strtod bit for bit,
 * check classify agrees. Returns 0 if fine, logs and returns 1 otherwise. */
static int check_vs_strtod(const char *s)
{
    size_t n = strlen(s);
    jdoc_num o, c;
    size_t e = 0;
    jdoc_status st = parse_n(s, n, &o, &e);
    double want = strtod(s, NULL);
    int bad = st != JDOC_OK || o.len != n || dbits(o.d) != dbits(want) ||
              o.inf != (isinf(want) != 0);
    if (!bad) {
        jdoc_status st2 = classify_n(s, n, &c, &e);
        bad = st2 != JDOC_OK || c.len != o.len || c.type != o.type || c.i != o.i || c.u != o.u;
    }
    if (bad)
        cr_log_error("mismatch for %.120s%s (len %zu): status %d, got %a (0x%016" PRIx64
                     "), strtod %a (0x%016" PRIx64 ")",
                     s, n > 120 ? "..." : "", n, (int)st, o.d, dbits(o.d), want, dbits(want));
    return bad;
}

/* ------------------------------------------------------------------------ */
/* grammar                                                                  */
/* ------------------------------------------------------------------------ */

Test(number, grammar_accepts, .timeout = 60)
{
    static const char *ok[] = {
        "0", "-0", "1", "-1", "10", "0.0", "-0.0", "0.5", "123.456", "1e5", "1E5", "1e+5",
        "1e-5", "1E-05", "0e0", "-0e-0", "0.000001", "9", "1.5e300", "12345678901234567890",
        "1e0000000000000000000000000000001", "0.1e-99999999999999999999999", "1.0E+2",
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        jdoc_num o, c;
        size_t e = 12345;
        cr_expect_eq(parse_n(ok[i], strlen(ok[i]), &o, &e), JDOC_OK, "rejected %s", ok[i]);
        cr_expect_eq(o.len, strlen(ok[i]), "len of %s", ok[i]);
        cr_expect_eq(e, 12345, "err_off written on success for %s", ok[i]);
        cr_expect_eq(classify_n(ok[i], strlen(ok[i]), &c, NULL), JDOC_OK, "classify rejected %s", ok[i]);
        cr_expect_eq(c.len, o.len);
        cr_expect_eq(c.type, o.type);
    }
}

Test(number, grammar_rejects_with_offset, .timeout = 60)
{
    static const struct {
        const char *s;
        size_t n; /* 0: strlen */
        size_t off;
    } bad[] = {
        {"", 0, 0},       {"-", 0, 1},       {"01", 0, 1},      {"-01", 0, 2},
        {"00", 0, 1},     {"1.", 0, 2},      {".5", 0, 0},      {"+1", 0, 0},
        {"1e", 0, 2},     {"1e+", 0, 3},     {"1e-", 0, 3},     {"--1", 0, 1},
        {"0x1", 0, 1},    {"Infinity", 0, 0}, {"-Infinity", 0, 1}, {"NaN", 0, 0},
        {"nan", 0, 0},    {"1x", 0, 1},      {"12a", 0, 2},     {"1.5.3", 0, 3},
        {"1e5e", 0, 3},   {"1.e5", 0, 2},    {"1.x", 0, 2},     {"-.5", 0, 1},
        {"1e5.0", 0, 3},  {"1ee5", 0, 2},    {"1e+-5", 0, 3},   {"0.5e", 0, 4},
        {"- 1", 0, 1},    {"1_000", 0, 1},   {"1/", 0, 1},      {"1-", 0, 1},
        {"1+", 0, 1},     {"0e", 0, 2},      {"1E", 0, 2},      {"\xff", 0, 0},
        {"123456789012345678901234x", 0, 24}, {"1.123456789x", 0, 11},
        {"1\0", 2, 1},    {"-a", 0, 1},      {"e5", 0, 0},      {"1e5x", 0, 3},
        {"0.0000000000000000000000000000001e", 0, 34}, {"-01.5", 0, 2}, {"1e+5e", 0, 4},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        size_t n = bad[i].n ? bad[i].n : strlen(bad[i].s);
        jdoc_num o, c;
        size_t e = 999, e2 = 999;
        cr_expect_eq(parse_n(bad[i].s, n, &o, &e), JDOC_ERR_NUMBER, "accepted \"%s\"", bad[i].s);
        cr_expect_eq(e, bad[i].off, "\"%s\": err_off %zu, want %zu", bad[i].s, e, bad[i].off);
        cr_expect_eq(o.type, JDOC_INVALID, "\"%s\": type on error", bad[i].s);
        cr_expect_eq(o.len, bad[i].off);
        cr_expect_eq(classify_n(bad[i].s, n, &c, &e2), JDOC_ERR_NUMBER, "classify accepted \"%s\"",
                     bad[i].s);
        cr_expect_eq(e2, bad[i].off, "classify \"%s\": err_off %zu", bad[i].s, e2);
        cr_expect_eq(parse_n(bad[i].s, n, &o, NULL), JDOC_ERR_NUMBER); /* NULL err_off is fine */
    }
    jdoc_num o;
    cr_expect_eq(parse_n("1.0e+5]x", 8, &o, NULL), JDOC_OK); /* "]" ends the token */
    cr_expect_eq(o.len, 6);
}

Test(number, delimiters, .timeout = 60)
{
    static const char ends[] = {' ', '\t', '\n', '\r', ',', ']', '}', ':', '"', '[', '{'};
    static const char *toks[] = {"0", "-0", "7", "12.5", "1e3", "-9.75E-3", "18446744073709551616"};
    for (size_t t = 0; t < sizeof toks / sizeof *toks; t++)
        for (size_t i = 0; i < sizeof ends; i++) {
            char buf[64];
            size_t n = strlen(toks[t]);
            memcpy(buf, toks[t], n);
            buf[n] = ends[i];
            buf[n + 1] = 'x'; /* never looked at */
            jdoc_num o;
            cr_expect_eq(parse_n(buf, n + 2, &o, NULL), JDOC_OK, "%s + 0x%02x", toks[t], ends[i]);
            cr_expect_eq(o.len, n);
        }
    /* every other byte right after a token is an error at that byte */
    for (int c = 0; c < 256; c++) {
        if (memchr(ends, c, sizeof ends) || (c >= '0' && c <= '9'))
            continue;
        char buf[3] = {'5', (char)c, ' '};
        jdoc_num o;
        size_t e = 99;
        jdoc_status st = parse_n(buf, 3, &o, &e);
        if (c == '.' || c == 'e' || c == 'E') { /* "5." / "5e" then a space */
            cr_expect_eq(st, JDOC_ERR_NUMBER);
            cr_expect_eq(e, 2);
        } else {
            cr_expect_eq(st, JDOC_ERR_NUMBER, "byte 0x%02x accepted after a number", c);
            cr_expect_eq(e, 1);
        }
    }
}

Test(number, non_digits_inside_long_digit_runs, .timeout = 60)
{
    /* Digit runs are read eight bytes at a time: a non-digit anywhere in such
     * a window, including the bytes just above '9' (":;<=>?") and below '0',
     * must end the run at exactly that byte. */
    static const unsigned char odd[] = {'/', ':', ';', '<', '=', '>', '?', '@', ' ', 'a',
                                        0x00, 0x80, 0xB0, 0xB9, 0xF0, 0xFF, '.', 'e'};
    int fails = 0;
    for (int part = 0; part < 2; part++)        /* integer part, fraction part */
        for (size_t pos = 2; pos < 30; pos++)  /* offset of the odd byte */
            for (size_t k = 0; k < sizeof odd; k++) {
                char buf[40];
                for (size_t i = 0; i < sizeof buf; i++)
                    buf[i] = (char)('1' + i % 9);
                if (part)
                    buf[1] = '.';
                buf[pos] = (char)odd[k];
                jdoc_num o;
                size_t e = 0;
                jdoc_status st = parse_n(buf, sizeof buf, &o, &e);
                bool delim = (odd[k] == ':' || odd[k] == ' ') && !(part && pos == 2); /* "1.:" */
                bool cont = (odd[k] == '.' && !part) || odd[k] == 'e'; /* grammar goes on */
                if (cont)
                    continue;
                if (delim ? (st != JDOC_OK || o.len != pos) : (st != JDOC_ERR_NUMBER || e != pos)) {
                    cr_log_error("part %d, byte 0x%02x at %zu: status %d len %zu err %zu", part,
                                 odd[k], pos, (int)st, o.len, e);
                    fails++;
                }
            }
    cr_assert_eq(fails, 0);
}

Test(number, stops_at_avail, .timeout = 60)
{
    /* The token runs to the end of what may be read: the buffer is exactly
     * `avail` bytes, so ASan catches any read past it. */
    static const char *s[] = {"123456", "-0.125", "1e10", "98765432109876543210", "0"};
    for (size_t i = 0; i < sizeof s / sizeof *s; i++)
        for (size_t n = 1; n <= strlen(s[i]); n++) {
            jdoc_num o;
            size_t e = 0;
            char pre[32];
            memcpy(pre, s[i], n);
            pre[n] = 0;
            jdoc_status st = parse_n(s[i], n, &o, &e);
            /* a prefix is valid unless it ends in '-', '.', 'e' */
            char last = s[i][n - 1];
            if (last == '-' || last == '.' || last == 'e') {
                cr_expect_eq(st, JDOC_ERR_NUMBER, "prefix %s", pre);
                cr_expect_eq(e, n);
            } else {
                cr_expect_eq(st, JDOC_OK, "prefix %s", pre);
                cr_expect_eq(o.len, n);
                cr_expect_eq(dbits(o.d), dbits(strtod(pre, NULL)), "prefix %s", pre);
            }
        }
    jdoc_num o;
    size_t e = 7;
    cr_expect_eq(parse_n("", 0, &o, &e), JDOC_ERR_NUMBER);
    cr_expect_eq(e, 0);
}

/* ------------------------------------------------------------------------ */
/* integers                                                                 */
/* ------------------------------------------------------------------------ */

Test(number, integer_limits, .timeout = 60)
{
    static const struct {
        const char *s;
        jdoc_type t;
        int64_t i;
        uint64_t u;
    } v[] = {
        {"0", JDOC_INT, 0, 0},
        {"-0", JDOC_INT, 0, 0},
        {"1", JDOC_INT, 1, 1},
        {"-1", JDOC_INT, -1, 0},
        {"9223372036854775807", JDOC_INT, INT64_MAX, (uint64_t)INT64_MAX},
        {"-9223372036854775807", JDOC_INT, -INT64_MAX, 0},
        {"-9223372036854775808", JDOC_INT, INT64_MIN, 0},
        {"9223372036854775808", JDOC_UINT, 0, (uint64_t)INT64_MAX + 1},
        {"18446744073709551615", JDOC_UINT, 0, UINT64_MAX},
        {"18446744073709551614", JDOC_UINT, 0, UINT64_MAX - 1},
        {"10000000000000000000", JDOC_UINT, 0, 10000000000000000000u},
        {"9999999999999999999", JDOC_UINT, 0, 9999999999999999999u},
        {"18446744073709551616", JDOC_DOUBLE, 0, 0},
        {"18446744073709551620", JDOC_DOUBLE, 0, 0},
        {"20000000000000000000", JDOC_DOUBLE, 0, 0},
        {"99999999999999999999", JDOC_DOUBLE, 0, 0},
        {"100000000000000000000", JDOC_DOUBLE, 0, 0},
        {"-9223372036854775809", JDOC_DOUBLE, 0, 0},
        {"-18446744073709551615", JDOC_DOUBLE, 0, 0},
        {"505874924095815681", JDOC_INT, 505874924095815681, 505874924095815681u},
        {"1.0", JDOC_DOUBLE, 0, 0},
        {"1e2", JDOC_DOUBLE, 0, 0},
        {"-0.0", JDOC_DOUBLE, 0, 0},
    };
    for (size_t k = 0; k < sizeof v / sizeof *v; k++) {
        jdoc_num o, c;
        cr_assert_eq(parse_n(v[k].s, strlen(v[k].s), &o, NULL), JDOC_OK, "%s", v[k].s);
        cr_expect_eq(o.type, v[k].t, "%s: type %d want %d", v[k].s, o.type, v[k].t);
        if (v[k].t == JDOC_INT)
            cr_expect_eq(o.i, v[k].i, "%s: i=%" PRId64, v[k].s, o.i);
        if (v[k].t == JDOC_UINT || (v[k].t == JDOC_INT && v[k].i >= 0))
            cr_expect_eq(o.u, v[k].u, "%s: u=%" PRIu64, v[k].s, o.u);
        cr_expect_eq(dbits(o.d), dbits(strtod(v[k].s, NULL)), "%s: d=%.17g", v[k].s, o.d);
        cr_expect_not(o.inf);
        cr_assert_eq(classify_n(v[k].s, strlen(v[k].s), &c, NULL), JDOC_OK);
        cr_expect_eq(c.type, o.type, "%s", v[k].s);
        cr_expect_eq(c.i, o.i, "%s", v[k].s);
        cr_expect_eq(c.u, o.u, "%s", v[k].s);
        cr_expect_eq(c.len, o.len);
    }
}

Test(number, negative_zero, .timeout = 60)
{
    /* also zeros of more than 19 digits (the long-digit path) */
    static const char *z[] = {"-0", "-0.0", "-0e5", "-0.000e-400", "-1e-400", "-2.4703282292062327e-324",
                              "-0.000000000000000000000000", "-0.0000000000000000000000000000e999"};
    for (size_t k = 0; k < sizeof z / sizeof *z; k++) {
        jdoc_num o;
        cr_assert_eq(parse_n(z[k], strlen(z[k]), &o, NULL), JDOC_OK);
        cr_expect_eq(o.d, 0.0, "%s", z[k]);
        cr_expect(signbit(o.d), "%s must give -0.0", z[k]);
        cr_expect_not(o.inf);
    }
    jdoc_num o;
    cr_assert_eq(parse_n("-0", 2, &o, NULL), JDOC_OK);
    cr_expect_eq(o.type, JDOC_INT);
    cr_expect_eq(o.i, 0);
    cr_assert_eq(parse_n("0", 1, &o, NULL), JDOC_OK);
    cr_expect_not(signbit(o.d));
}

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128;

static void u128_str(u128 v, char *out)
{
    char tmp[48];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    for (int i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    out[n] = 0;
}

/* one integer string against the 128-bit reference */
static int check_int(bool neg, u128 mag)
{
    char s[64];
    s[0] = '-';
    u128_str(mag, s + neg);
    jdoc_num o;
    if (parse_n(s, strlen(s), &o, NULL) != JDOC_OK) {
        cr_log_error("rejected %s", s);
        return 1;
    }
    const u128 two63 = (u128)1 << 63, two64 = (u128)1 << 64;
    jdoc_type want = JDOC_DOUBLE;
    if (!neg && mag < two63)
        want = JDOC_INT;
    else if (!neg && mag < two64)
        want = JDOC_UINT;
    else if (neg && mag <= two63)
        want = JDOC_INT;
    int bad = o.type != want;
    if (want == JDOC_INT && neg)
        bad |= o.i != (mag == two63 ? INT64_MIN : -(int64_t)(uint64_t)mag);
    if (want == JDOC_INT && !neg)
        bad |= o.i != (int64_t)(uint64_t)mag || o.u != (uint64_t)mag;
    if (want == JDOC_UINT)
        bad |= o.u != (uint64_t)mag;
    bad |= dbits(o.d) != dbits(strtod(s, NULL));
    if (bad)
        cr_log_error("integer %s: type %d (want %d) i=%" PRId64 " u=%" PRIu64 " d=%.17g", s, o.type,
                     want, o.i, o.u, o.d);
    return bad;
}

Test(number, integers_vs_int128, .timeout = 60)
{
    rng_state = 0x1234567u;
    int fails = 0;
    const u128 two63 = (u128)1 << 63, two64 = (u128)1 << 64;
    /* neighbourhoods of the limits */
    for (int d = -3000; d <= 3000; d++) {
        fails += check_int(false, two63 + (u128)(__int128)d);
        fails += check_int(true, two63 + (u128)(__int128)d);
        fails += check_int(false, two64 + (u128)(__int128)d);
        fails += check_int(true, two64 + (u128)(__int128)d);
    }
    /* random magnitudes of 1..38 digits, weighted towards 17..21 */
    for (int k = 0; k < 100000 && fails < 20; k++) {
        int nd = (k & 1) ? 17 + (int)(rng() % 5) : 1 + (int)(rng() % 38);
        u128 m = 1 + rng() % 9;
        for (int i = 1; i < nd; i++)
            m = m * 10 + rng() % 10;
        fails += check_int(rng() & 1, m);
    }
    cr_assert_eq(fails, 0, "%d integer mismatches", fails);
}
#endif

/* ------------------------------------------------------------------------ */
/* doubles: hand-picked hard cases                                          */
/* ------------------------------------------------------------------------ */

Test(number, hard_doubles_vs_strtod, .timeout = 60)
{
    static const char *h[] = {
        "0", "1", "-1", "0.1", "0.2", "0.3", "1e23", "8.98846567431158e307", "-65.613616999999977",
        "505874924095815681", "9007199254740992", "9007199254740993", "9007199254740994",
        "9007199254740995", "9007199254740993.00000000000000000000000000001",
        "9007199254740992.99999999999999999999999999999", "90071992547409930e-1",
        "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308",
        "2.2250738585072009e-308", "4.9406564584124654e-324", "2.4703282292062327e-324",
        "2.4703282292062328e-324", "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324",
        "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125001e-324",
        "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
        "-1.7976931348623159e308", "1e308", "1e309", "1e-300", "1e-320", "1e-323", "1e-324",
        "1e-342", "1e-343", "1e-400", "1e-99999", "1e99999", "0.0000001e-318", "123456789e-332",
        "7.2057594037927933e16", "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124",
        "1.00000000000000011102230246251565404236316680908203126", "3.0540412e5",
        "1448997445238699", "4.35679e-7", "9.355950000000000000000000000000000000000000000000000000000000000000000000000000000000000000001e-2",
        "8.988465674311579538646525953945123668089884894711532863671504057886633790275048156635423866120376801056005693993569667882939488440720831124642371531973706218888394671243274263815110980062304705972654147604250288441907534117123144073695655527041361858167525534229314911997362296923985815241753283627e307",
        "1.797693134862315807937289714053034150799341327100378269361737789804449682927647509466490179775872070963302864166928879109465555478519404026306574886715058206819089020007083836762738548458177115317644757302700698555713669596228429148198608349364752927190741684443655107043427115596995080930428801779041744977919999999999999999999999999999999999999999999e308",
        "1.797693134862315807937289714053034150799341327100378269361737789804449682927647509466490179775872070963302864166928879109465555478519404026306574886715058206819089020007083836762738548458177115317644757302700698555713669596228429148198608349364752927190741684443655107043427115596995080930428801779041744977920000000000000000000000000000000000000000000e308",
        "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791",
    };
    int fails = 0;
    for (size_t k = 0; k < sizeof h / sizeof *h; k++)
        fails += check_vs_strtod(h[k]);
    cr_assert_eq(fails, 0);

    /* spot checks that do not rely on strtod */
    jdoc_num o;
    cr_assert_eq(parse_n("9007199254740993", 16, &o, NULL), JDOC_OK);
    cr_expect_eq(o.d, 9007199254740992.0);
    cr_assert_eq(parse_n("1.7976931348623159e308", 22, &o, NULL), JDOC_OK);
    cr_expect(isinf(o.d) && o.d > 0 && o.inf);
    cr_assert_eq(parse_n("-1e309", 6, &o, NULL), JDOC_OK);
    cr_expect(o.d == -HUGE_VAL && o.inf);
    cr_expect_eq(o.type, JDOC_DOUBLE);
    cr_assert_eq(parse_n("1.7976931348623157e308", 22, &o, NULL), JDOC_OK);
    cr_expect(o.d == DBL_MAX && !o.inf);
    cr_assert_eq(parse_n("4.9406564584124654e-324", 23, &o, NULL), JDOC_OK);
    cr_expect_eq(dbits(o.d), 1);
    cr_assert_eq(parse_n("2.4703282292062327e-324", 23, &o, NULL), JDOC_OK);
    cr_expect_eq(dbits(o.d), 0); /* just below half the smallest subnormal */
    cr_assert_eq(parse_n("2.4703282292062328e-324", 23, &o, NULL), JDOC_OK);
    cr_expect_eq(dbits(o.d), 1);
    cr_assert_eq(parse_n("1e-400", 6, &o, NULL), JDOC_OK);
    cr_expect(o.d == 0.0 && !signbit(o.d) && !o.inf);
}

/* ------------------------------------------------------------------------ */
/* exact halfway points between doubles, and their neighbours                */
/* ------------------------------------------------------------------------ */

/* Little-endian base-1e9 big integer, enough for (2^54) * 5^1075 or 2^1025. */
typedef struct {
    uint32_t d[128];
    int n;
} dec;

static void dec_mul(dec *a, uint32_t m)
{
    uint64_t carry = 0;
    for (int i = 0; i < a->n; i++) {
        uint64_t t = (uint64_t)a->d[i] * m + carry;
        a->d[i] = (uint32_t)(t % 1000000000u);
        carry = t / 1000000000u;
    }
    while (carry) {
        cr_assert_lt(a->n, 128);
        a->d[a->n++] = (uint32_t)(carry % 1000000000u);
        carry /= 1000000000u;
    }
}

static int dec_str(const dec *a, char *out)
{
    int n = sprintf(out, "%" PRIu32, a->d[a->n - 1]);
    for (int i = a->n - 2; i >= 0; i--)
        n += sprintf(out + n, "%09" PRIu32, a->d[i]);
    return n;
}

/* Decimal digits S and exponent X with S * 10^X == the midpoint between the
 * positive doubles with bits b and b + 1. */
static int halfway_digits(uint64_t b, char *s, int *x)
{
    uint64_t f = b >> 52, m = b & 0xFFFFFFFFFFFFFu;
    int e = f ? (int)f - 1075 : -1074;
    if (f)
        m |= (uint64_t)1 << 52;
    uint64_t odd = 2 * m + 1; /* midpoint = odd * 2^(e-1) */
    dec a = {{(uint32_t)(odd % 1000000000u), (uint32_t)(odd / 1000000000u % 1000000000u),
              (uint32_t)(odd / 1000000000000000000u)}, 3};
    while (a.n > 1 && a.d[a.n - 1] == 0)
        a.n--;
    int k = e - 1;
    if (k >= 0) {
        for (; k > 0; k -= k > 29 ? 29 : k)
            dec_mul(&a, (uint32_t)1 << (k > 29 ? 29 : k));
        *x = 0;
    } else {
        int j = -k; /* odd * 2^-j = odd * 5^j / 10^j */
        *x = k;
        for (; j > 0; j -= j > 13 ? 13 : j) {
            uint32_t p = 1;
            for (int i = 0; i < (j > 13 ? 13 : j); i++)
                p *= 5;
            dec_mul(&a, p);
        }
    }
    return dec_str(&a, s);
}

/* "d.ddd...e<x>" from digits s[0..n) times 10^x */
static void sci(char *out, const char *s, int n, int x)
{
    out[0] = s[0];
    int p = 1;
    if (n > 1) {
        out[p++] = '.';
        memcpy(out + p, s + 1, (size_t)n - 1);
        p += n - 1;
    }
    sprintf(out + p, "e%d", x + n - 1);
}

static uint64_t rand_double_bits(void)
{
    uint64_t b;
    switch (rng() % 8) {
    case 0: /* subnormal or smallest normals */
        b = rng() % ((uint64_t)3 << 52);
        break;
    case 1: /* near DBL_MAX */
        b = 0x7FEFFFFFFFFFFFFFu - rng() % ((uint64_t)1 << 52);
        break;
    case 2: /* small integers' neighbourhood */
        b = 0x4330000000000000u + rng() % ((uint64_t)1 << 56);
        break;
    default:
        b = rng() % 0x7FF0000000000000u;
    }
    return b;
}

Test(number, halfway_cases_and_neighbours, .timeout = 60)
{
    rng_state = 0xC0FFEEu;
    static char digs[2048], s[12000], t[12000];
    int fails = 0;
    for (int k = 0; k < 6000 && fails < 20; k++) {
        uint64_t b = k == 0 ? 0 : k == 1 ? 0x7FEFFFFFFFFFFFFFu : k == 2 ? 0xFFFFFFFFFFFFFu
                                                                        : rand_double_bits();
        int x, n = halfway_digits(b, digs, &x);
        uint64_t even = (b & 1) ? b + 1 : b;
        /* 1: exactly halfway -> even */
        sci(s, digs, n, x);
        fails += check_vs_strtod(s);
        jdoc_num o;
        if (parse_n(s, strlen(s), &o, NULL) != JDOC_OK || dbits(o.d) != even)
            fails++, cr_log_error("halfway of %016" PRIx64 " gave %016" PRIx64, b, dbits(o.d));
        /* 2: a tiny bit above, sometimes beyond the 800th significant digit */
        int zeros = (int)(rng() % 900);
        memcpy(t, digs, (size_t)n);
        memset(t + n, '0', (size_t)zeros);
        t[n + zeros] = '1';
        sci(s, t, n + zeros + 1, x - zeros - 1);
        fails += check_vs_strtod(s);
        if (parse_n(s, strlen(s), &o, NULL) != JDOC_OK || dbits(o.d) != b + 1)
            fails++, cr_log_error("above halfway of %016" PRIx64 " (%d zeros) gave %016" PRIx64, b,
                                  zeros, dbits(o.d));
        /* 3: a tiny bit below: decrement the digits, then nines */
        memcpy(t, digs, (size_t)n);
        int i = n - 1;
        while (t[i] == '0')
            t[i--] = '9';
        t[i]--;
        int lead = t[0] == '0' && n > 1; /* 1000..0 - 1 lost a digit */
        int nines = (int)(rng() % 900);
        memset(t + n, '9', (size_t)nines);
        sci(s, t + lead, n + nines - lead, x - nines);
        fails += check_vs_strtod(s);
        if (parse_n(s, strlen(s), &o, NULL) != JDOC_OK || dbits(o.d) != b)
            fails++, cr_log_error("below halfway of %016" PRIx64 " gave %016" PRIx64, b, dbits(o.d));
    }
    cr_assert_eq(fails, 0, "%d halfway mismatches", fails);
}

Test(number, ten_thousand_digits, .timeout = 60)
{
    static char s[10100];
    int fails = 0;
    rng_state = 42;
    /* 10,000 random digits at various scales */
    static const int exps[] = {-10300, -10000, -9999, -9700, -330, 0, 300, 5, -5};
    for (size_t k = 0; k < sizeof exps / sizeof *exps; k++) {
        s[0] = '1' + (char)(rng() % 9);
        s[1] = '.';
        for (int i = 2; i < 10001; i++)
            s[i] = '0' + (char)(rng() % 10);
        sprintf(s + 10001, "e%d", exps[k]);
        fails += check_vs_strtod(s);
    }
    /* 10,000-digit integers: beyond 64 bits, and infinite */
    memset(s, '9', 10000);
    s[10000] = 0;
    fails += check_vs_strtod(s);
    /* 0.000...0001 with 9,990 zeros, scaled back */
    strcpy(s, "0.");
    memset(s + 2, '0', 9990);
    strcpy(s + 9992, "1e9700");
    fails += check_vs_strtod(s);
    /* 1 followed by 10,000 zeros then a 1, in the position of a halfway bit:
     * 9007199254740993 is halfway between 2^53 and 2^53 + 2 */
    strcpy(s, "9007199254740993.");
    memset(s + 17, '0', 9980);
    strcpy(s + 9997, "1");
    fails += check_vs_strtod(s);
    jdoc_num o;
    cr_assert_eq(parse_n(s, strlen(s), &o, NULL), JDOC_OK);
    cr_expect_eq(o.d, 9007199254740994.0);
    cr_expect_eq(o.type, JDOC_DOUBLE);
    cr_assert_eq(fails, 0);
}

/* ------------------------------------------------------------------------ */
/* random strings                                                           */
/* ------------------------------------------------------------------------ */

static int rand_number(char *buf)
{
    int p = 0;
    if (rng() & 1)
        buf[p++] = '-';
    int nd = 1 + (int)(rng() % 40);
    int ip = (int)(rng() % (uint64_t)(nd + 1)); /* digits before the point */
    int style = (int)(rng() % 4);
    if (ip == 0) {
        buf[p++] = '0';
    } else {
        buf[p++] = (char)('1' + rng() % 9);
        for (int i = 1; i < ip; i++)
            buf[p++] = (char)('0' + rng() % 10);
    }
    if (nd > ip) {
        buf[p++] = '.';
        int lz = ip == 0 && style == 0 ? (int)(rng() % 8) : 0; /* 0.000ddd */
        for (int i = 0; i < lz; i++)
            buf[p++] = '0';
        for (int i = ip; i < nd; i++)
            buf[p++] = (char)('0' + rng() % 10);
        if (style == 1) /* trailing zeros */
            for (int i = (int)(rng() % 6); i > 0; i--)
                buf[p++] = '0';
    }
    if (rng() % 4) {
        buf[p++] = (rng() & 1) ? 'e' : 'E';
        int e = (int)(rng() % 701) - 350;
        if (e >= 0 && (rng() & 1))
            buf[p++] = '+';
        p += sprintf(buf + p, "%d", e);
    }
    buf[p] = 0;
    return p;
}

Test(number, random_vs_strtod, .timeout = 60)
{
    rng_state = 0x9E3779B97F4A7C15u;
    char buf[128];
    int fails = 0;
    for (int k = 0; k < 300000 && fails < 20; k++) {
        rand_number(buf);
        fails += check_vs_strtod(buf);
    }
    cr_assert_eq(fails, 0, "%d random mismatches", fails);
}

Test(number, random_shortest_roundtrip, .timeout = 60)
{
    /* random doubles printed with 17 and with %.*g shortest-ish digits parse back */
    rng_state = 777;
    char buf[64];
    int fails = 0;
    for (int k = 0; k < 100000 && fails < 20; k++) {
        double d = bitsd(rand_double_bits());
        snprintf(buf, sizeof buf, "%.*g", 1 + (int)(rng() % 17), d);
        fails += check_vs_strtod(buf);
        snprintf(buf, sizeof buf, "%.17g", d);
        jdoc_num o;
        if (parse_n(buf, strlen(buf), &o, NULL) != JDOC_OK || dbits(o.d) != dbits(d))
            fails++, cr_log_error("round trip of %s", buf);
    }
    cr_assert_eq(fails, 0);
}

/* ------------------------------------------------------------------------ */
/* the exact fallback alone, from deliberately wrong first guesses           */
/* ------------------------------------------------------------------------ */

static int check_exact(const char *s, int nudge)
{
    size_t n = strlen(s);
    char *b = malloc(n);
    cr_assert_not_null(b);
    memcpy(b, s, n);
    double d = -1.0;
    jdoc_status st = jdoc__num_parse_exact(b, n, nudge, &d);
    free(b);
    double want = strtod(s, NULL);
    if (st != JDOC_OK || dbits(d) != dbits(want)) {
        cr_log_error("exact path, nudge %d, %.100s: got %a want %a", nudge, s, d, want);
        return 1;
    }
    return 0;
}

Test(number, exact_fallback_from_nudged_guesses, .timeout = 60)
{
    rng_state = 0xBADC0DEu;
    static char buf[4096], digs[2048];
    int fails = 0;
    for (int k = 0; k < 20000 && fails < 20; k++) {
        rand_number(buf);
        fails += check_exact(buf, (int)(rng() % 7) - 3);
    }
    for (int k = 0; k < 3000 && fails < 20; k++) {
        uint64_t b = rand_double_bits();
        int x, n = halfway_digits(b, digs, &x);
        sci(buf, digs, n, x);
        fails += check_exact(buf, (int)(rng() % 7) - 3);
    }
    static const char *edge[] = {"1.7976931348623157e308", "1.7976931348623159e308", "1e309",
                                 "4.9406564584124654e-324", "2.4703282292062328e-324", "-1e-330",
                                 "9007199254740993", "0", "-0.0", "1e-342"};
    for (size_t k = 0; k < sizeof edge / sizeof *edge; k++)
        for (int nudge = -40; nudge <= 40; nudge += 8)
            fails += check_exact(edge[k], nudge);
    double d;
    cr_expect_eq(jdoc__num_parse_exact("1x", 2, 0, &d), JDOC_ERR_NUMBER);
    cr_expect_eq(jdoc__num_parse_exact("1", 1, 65, &d), JDOC_ERR_ARG);
    cr_assert_eq(fails, 0, "%d exact-path mismatches", fails);
}
