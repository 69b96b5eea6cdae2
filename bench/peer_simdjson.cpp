/* SPDX-License-Identifier: MIT */
/* simdjson peer: On Demand and DOM parsers bound to one implementation, over a
 * padded copy of the input: stage 1, fetch by pointer, Docker hot loops, NDJSON
 * streams. C linkage (peer_simdjson.h); every value read goes to a bench_rec. */
#include "peer_simdjson.h"

#include <new>
#include <string>
#include <vector>

#include <simdjson.h>

#define PEER_STR2(x) #x
#define PEER_STR(x) PEER_STR2(x)
#ifndef PEER_CXXFLAGS_STR
#define PEER_CXXFLAGS_STR ""
#endif

using namespace simdjson;

namespace {
/* A pointer token: always a key; also an index when decimal without leading zeros. */
struct step {
    std::string key;
    size_t index;
    bool is_index;
};
struct qpath {
    std::string ptr;
    char type;
    std::vector<step> steps;
};
} // namespace

struct peer_simdjson {
    ondemand::parser od;
    dom::parser dom;
    padded_string input;
    std::vector<qpath> paths;
};

namespace {

/* Read `v` as type t into r; any error is "missing". */
template <class V> void read_typed(V &&v, char t, bench_rec *r)
{
    std::string_view s;
    int64_t i;
    uint64_t u;
    double d;
    bool b;
    switch (t) {
    case 's': if (v.get_string().get(s)) break; bench_rec_str(r, s.data(), s.size()); return;
    case 'i': if (v.get_int64().get(i)) break; bench_rec_i64(r, i); return;
    case 'u': if (v.get_uint64().get(u)) break; bench_rec_u64(r, u); return;
    case 'd': if (v.get_double().get(d)) break; bench_rec_f64(r, d); return;
    case 'b': if (v.get_bool().get(b)) break; bench_rec_bool(r, b); return;
    }
    bench_rec_missing(r);
}

/* One step from an object or array value (or from the document): a member, or the index-th element. */
template <class V> error_code od_step(V &cur, const step &s, ondemand::value &out)
{
    ondemand::json_type t;
    ondemand::array a;
    SIMDJSON_TRY(cur.type().get(t));
    if (t == ondemand::json_type::object)
        return cur.find_field_unordered(s.key).get(out);
    if (t != ondemand::json_type::array || !s.is_index)
        return INCORRECT_TYPE;
    SIMDJSON_TRY(cur.get_array().get(a));
    size_t i = 0;
    for (auto el : a)
        if (i++ == s.index)
            return el.get(out);
    return INDEX_OUT_OF_BOUNDS;
}

/* Hand-written navigation: rewind, then one step at a time. */
error_code od_nav(ondemand::document &doc, const qpath &q, ondemand::value &cur)
{
    doc.rewind();
    SIMDJSON_TRY(od_step(doc, q.steps[0], cur));
    for (size_t k = 1; k < q.steps.size(); k++)
        SIMDJSON_TRY(od_step(cur, q.steps[k], cur));
    return SUCCESS;
}

bool split_pointer(const std::string &p, std::vector<step> &steps)
{
    if (p.empty() || p[0] != '/')
        return false;
    for (size_t i = 1;; i++) {
        step s{ std::string(), 0, false };
        for (; i < p.size() && p[i] != '/'; i++) {
            char c = p[i];
            if (c == '~') {
                if (i + 1 >= p.size() || (p[i + 1] != '0' && p[i + 1] != '1'))
                    return false;
                c = p[++i] == '0' ? '~' : '/';
            }
            s.key.push_back(c);
        }
        const std::string &k = s.key;
        s.is_index = !k.empty() && k.size() <= 19 && (k.size() == 1 || k[0] != '0') &&
                     k.find_first_not_of("0123456789") == std::string::npos;
        if (s.is_index)
            s.index = (size_t)std::stoull(k);
        steps.push_back(std::move(s));
        if (i >= p.size())
            return true;
    }
}

/* The idiomatic On Demand loop: each element's 5 fields in document order with
 * find_field_unordered, recorded as Id, name, image, state, compose service. */
int64_t hot_od(peer_simdjson *p, int shape, bench_rec *r)
{
    static const char svc[] = "com.docker.compose.service";
    ondemand::document doc;
    ondemand::array arr;
    auto err = p->od.iterate(p->input).get(doc);
    if (err || (err = doc.get_array().get(arr)))
        return -(int64_t)err;
    int64_t n = 0;
    for (auto el : arr) {
        ondemand::object o, sub, labels;
        if ((err = el.get_object().get(o)))
            return -(int64_t)err;
        std::string_view s[5];
        bool ok[5] = {};
        ok[0] = !o.find_field_unordered("Id").get_string().get(s[0]);
        if (shape == PEER_SHAPE_LIST) {
            ondemand::array names;
            if (!o.find_field_unordered("Names").get_array().get(names))
                for (auto nm : names) {
                    ok[1] = !nm.get_string().get(s[1]);
                    break;
                }
            ok[2] = !o.find_field_unordered("Image").get_string().get(s[2]);
            if (!o.find_field_unordered("Labels").get_object().get(labels))
                ok[4] = !labels.find_field_unordered(svc).get_string().get(s[4]);
            ok[3] = !o.find_field_unordered("State").get_string().get(s[3]);
        } else {
            if (!o.find_field_unordered("State").get_object().get(sub))
                ok[3] = !sub.find_field_unordered("Status").get_string().get(s[3]);
            ok[1] = !o.find_field_unordered("Name").get_string().get(s[1]);
            if (!o.find_field_unordered("Config").get_object().get(sub)) {
                ok[2] = !sub.find_field_unordered("Image").get_string().get(s[2]);
                if (!sub.find_field_unordered("Labels").get_object().get(labels))
                    ok[4] = !labels.find_field_unordered(svc).get_string().get(s[4]);
            }
        }
        for (int k = 0; k < 5; k++) {
            if (ok[k])
                bench_rec_str(r, s[k].data(), s[k].size());
            else
                bench_rec_missing(r);
        }
        n++;
    }
    return n;
}

template <class Stream> int64_t stream_rest(Stream &stream, const std::string &key, bench_rec *r)
{
    int64_t n = 0;
    for (auto d : stream) {
        std::string_view s;
        error_code e;
        if constexpr (std::is_same_v<Stream, dom::document_stream>) {
            dom::element el;
            if ((e = std::move(d).get(el)))
                return -(int64_t)e;
            e = el.at_key(key).get_string().get(s);
        } else {
            ondemand::document_reference doc;
            if ((e = std::move(d).get(doc)))
                return -(int64_t)e;
            e = doc.find_field_unordered(key).get_string().get(s);
        }
        if (e)
            bench_rec_missing(r);
        else
            bench_rec_str(r, s.data(), s.size());
        n++;
    }
    return n;
}

} // namespace

extern "C" {

const char *peer_simdjson_info(int what)
{
    static std::string active = get_active_implementation()->name();
    switch (what) {
    case 0: return PEER_STR(SIMDJSON_VERSION);
    case 1: return active.c_str();
    case 2: return PEER_STR(SIMDJSON_BUILTIN_IMPLEMENTATION); /* as this file's flags see it */
    default: return "g++ " __VERSION__ " " PEER_CXXFLAGS_STR;
    }
}

peer_simdjson *peer_simdjson_new(const char *impl, const char **why)
{
    const implementation *saved = get_active_implementation();
    const implementation *want = impl ? get_available_implementations()[impl] : saved;
    if (!want) {
        *why = "not compiled into libsimdjson";
        return nullptr;
    }
    if (!want->supported_by_runtime_system()) {
        *why = "not supported by this CPU/OS";
        return nullptr;
    }
    peer_simdjson *p = new (std::nothrow) peer_simdjson();
    if (!p) {
        *why = "out of memory";
        return nullptr;
    }
    /* A parser takes the active implementation when it first allocates, and keeps it. */
    get_active_implementation() = want;
    bool ok = !p->od.allocate(1 << 16) && !p->dom.allocate(1 << 16);
    get_active_implementation() = saved;
#ifdef SIMDJSON_THREADS_ENABLED
    p->od.threaded = p->dom.threaded = false; /* a helper thread's time would not be counted */
#endif
    if (!ok) {
        delete p;
        *why = "allocation failed";
        return nullptr;
    }
    return p;
}

void peer_simdjson_free(peer_simdjson *p) { delete p; }

int peer_simdjson_set_input(peer_simdjson *p, const char *json, size_t len)
{
    try {
        p->input = padded_string(json, len);
    } catch (...) {
        return -1;
    }
    return p->input.size() == len ? 0 : -1;
}

int peer_simdjson_set_paths(peer_simdjson *p, size_t n, const char *const *ptrs, const char *types)
{
    try {
        p->paths.clear();
        for (size_t i = 0; i < n; i++) {
            qpath q{ ptrs[i], types[i], {} };
            if (!split_pointer(q.ptr, q.steps))
                return -1;
            p->paths.push_back(std::move(q));
        }
    } catch (...) {
        return -1;
    }
    return 0;
}

int64_t peer_simdjson_run(peer_simdjson *p, int op, int shape, bench_rec *r)
{
    error_code err = SUCCESS;
    dom::element root;
    ondemand::document doc;
    switch (op) {
    case PEER_ITERATE: {
        ondemand::json_type t;
        if ((err = p->od.iterate(p->input).get(doc)) || (err = doc.type().get(t)))
            break;
        return t == ondemand::json_type::array ? '[' : t == ondemand::json_type::object ? '{' : 's';
    }
    case PEER_DOM:
        if ((err = p->dom.parse(p->input).get(root)))
            break;
        return root.is_array() ? '[' : root.is_object() ? '{' : 's';
    case PEER_OD_PTR:
    case PEER_OD_NAV:
        if ((err = p->od.iterate(p->input).get(doc)))
            break;
        for (const qpath &q : p->paths) {
            ondemand::value v;
            if (op == PEER_OD_PTR)
                read_typed(doc.at_pointer(q.ptr), q.type, r);
            else if (od_nav(doc, q, v))
                bench_rec_missing(r);
            else
                read_typed(v, q.type, r);
        }
        return (int64_t)p->paths.size();
    case PEER_DOM_PTR:
        if ((err = p->dom.parse(p->input).get(root)))
            break;
        for (const qpath &q : p->paths)
            read_typed(root.at_pointer(q.ptr), q.type, r);
        return (int64_t)p->paths.size();
    case PEER_HOT_OD:
        return hot_od(p, shape, r);
    case PEER_HOT_DOM: {
        dom::array arr;
        if ((err = p->dom.parse(p->input).get(root)) || (err = root.get_array().get(arr)))
            break;
        int64_t n = 0;
        for (dom::element e : arr) {
            for (const qpath &q : p->paths)
                read_typed(e.at_pointer(q.ptr), q.type, r);
            n++;
        }
        return n;
    }
    case PEER_HOT_OD_KEYS: {
        ondemand::document doc;
        ondemand::array arr;
        if ((err = p->od.iterate(p->input).get(doc)) || (err = doc.get_array().get(arr)))
            break;
        int64_t n = 0;
        for (auto el : arr) {
            ondemand::object o;
            if ((err = el.get_object().get(o)))
                return -(int64_t)err;
            for (const qpath &q : p->paths) {
                std::string_view sv;
                if (!o.find_field_unordered(q.steps.at(0).key).get_string().get(sv))
                    bench_rec_str(r, sv.data(), sv.size());
                else
                    bench_rec_missing(r);
            }
            n++;
        }
        return n;
    }
    case PEER_STREAM_OD: {
        ondemand::document_stream s;
        if ((err = p->od.iterate_many(p->input).get(s)))
            break;
        return stream_rest(s, p->paths.at(0).steps.at(0).key, r);
    }
    case PEER_STREAM_DOM: {
        dom::document_stream s;
        if ((err = p->dom.parse_many(p->input).get(s)))
            break;
        return stream_rest(s, p->paths.at(0).steps.at(0).key, r);
    }
    default:
        err = UNSUPPORTED_ARCHITECTURE;
    }
    return -(int64_t)err;
}

const char *peer_simdjson_error(int64_t rc) { return rc < 0 ? error_message((error_code)(-rc)) : "ok"; }

} /* extern "C" */
