/* SPDX-License-Identifier: MIT */
/* bench_rec.h: full-mode storage of recorded values and their comparison. */
#include "bench_rec.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

void bench_rec_put(bench_rec *r, int kind, const void *data, size_t n)
{
    size_t need = r->len + 1 + (kind == 's' ? 4 : 0) + n;
    if (r->oom)
        return;
    if (need > r->cap) {
        size_t cap = r->cap ? r->cap : 4096;
        while (cap < need)
            cap *= 2;
        unsigned char *b = realloc(r->buf, cap);
        if (!b) {
            r->oom = 1;
            return;
        }
        r->buf = b;
        r->cap = cap;
    }
    r->buf[r->len++] = (unsigned char)kind;
    if (kind == 's') {
        uint32_t l = (uint32_t)n;
        memcpy(r->buf + r->len, &l, 4);
        r->len += 4;
    }
    if (n)
        memcpy(r->buf + r->len, data, n);
    r->len += n;
}

void bench_rec_free(bench_rec *r)
{
    free(r->buf);
    memset(r, 0, sizeof *r);
}

/* Length in bytes of the item at b[0]. */
static size_t item_len(const unsigned char *b)
{
    switch (b[0]) {
    case 's': {
        uint32_t l;
        memcpy(&l, b + 1, 4);
        return 5 + l;
    }
    case 'i': case 'u': case 'd':
        return 9;
    case 'b':
        return 2;
    default:
        return 1;
    }
}

static void item_text(const unsigned char *b, size_t avail, char *out, size_t cap)
{
    if (!cap)
        return;
    if (!avail) {
        snprintf(out, cap, "(no value: fewer values recorded)");
        return;
    }
    uint64_t u;
    int64_t i;
    double d;
    switch (b[0]) {
    case 's': {
        uint32_t l;
        memcpy(&l, b + 1, 4);
        int show = l > 60 ? 60 : (int)l;
        snprintf(out, cap, "string(%" PRIu32 ") \"%.*s%s\"", l, show, (const char *)b + 5, l > 60 ? "..." : "");
        break;
    }
    case 'i':
        memcpy(&i, b + 1, 8);
        snprintf(out, cap, "int64 %" PRId64, i);
        break;
    case 'u':
        memcpy(&u, b + 1, 8);
        snprintf(out, cap, "uint64 %" PRIu64, u);
        break;
    case 'd':
        memcpy(&d, b + 1, 8);
        snprintf(out, cap, "double %.17g", d);
        break;
    case 'b':
        snprintf(out, cap, "bool %s", b[1] ? "true" : "false");
        break;
    default:
        snprintf(out, cap, "missing");
        break;
    }
}

int bench_rec_compare(const bench_rec *a, const bench_rec *b, size_t *item, char *va, char *vb, size_t cap)
{
    if (a->oom || b->oom) {
        *item = 0;
        snprintf(va, cap, "(out of memory while recording)");
        snprintf(vb, cap, "(out of memory while recording)");
        return 1;
    }
    size_t pa = 0, pb = 0, k = 0;
    while (pa < a->len && pb < b->len) {
        size_t la = item_len(a->buf + pa), lb = item_len(b->buf + pb);
        if (la != lb || memcmp(a->buf + pa, b->buf + pb, la) != 0)
            break;
        pa += la;
        pb += lb;
        k++;
    }
    if (pa == a->len && pb == b->len)
        return 0;
    *item = k;
    item_text(a->buf + pa, a->len - pa, va, cap);
    item_text(b->buf + pb, b->len - pb, vb, cap);
    return 1;
}

int bench_rec_equal(const bench_rec *a, const bench_rec *b)
{
    return !a->oom && !b->oom && a->sum == b->sum && a->items == b->items && a->len == b->len &&
           (a->len == 0 || memcmp(a->buf, b->buf, a->len) == 0);
}
