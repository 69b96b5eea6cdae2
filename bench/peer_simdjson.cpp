/* SPDX-License-Identifier: MIT */
/* simdjson peer for the benchmarks: On Demand and DOM over a padded copy of the
 * input, parsers reused: stage 1, fetch by path, Docker hot loops, NDJSON
 * streams; C linkage (peer_simdjson.h). Values go to a bench_rec. */
#include "peer_simdjson.h"

#include <new>
#include <string>
#include <utility>
#include <vector>

#include <simdjson.h>

#define PEER_STR2(x) #x
#define PEER_STR(x) PEER_STR2(x)
#ifndef PEER_CXXFLAGS_STR
#define PEER_CXXFLAGS_STR ""
#endif

using namespace simdjson;

namespace {

/* One pointer token: always a key; also an index when it is decimal without leading zeros. */
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

/* Read the value `v` as type t into r; any error is "missing". */
template <class R> void read_typed(R &&v, char t, bench_rec *r)
{
    switch (t) {
    case 's': {
        std::string_view s;
        if (v.get_string().get(s))
            bench_rec_missing(r);
        else
            bench_rec_str(r, s.data(), s.size());
        break;
    }
    case 'i': {
        int64_t x;
        if (v.get_int64().get(x))
            bench_rec_missing(r);
        else
            bench_rec_i64(r, x);
        break;
    }
    case 'u': {
        uint64_t x;
        if (v.get_uint64().get(x))
            bench_rec_missing(r);
        else
            bench_rec_u64(r, x);
        break;
    }
    case 'd': {
        double x;
        if (v.get_double().get(x))
            bench_rec_missing(r);
        else
            bench_rec_f64(r, x);
        break;
    }
    case 'b': {
        bool x;
        if (v.get_bool().get(x))
            bench_rec_missing(r);
        else
            bench_rec_bool(r, x);
        break;
    }
    default:
        bench_rec_missing(r);
    }
}

/* The index-th element of an array, by iterating to it. */
error_code od_nth(ondemand::array a, size_t index, ondemand::value &out)
{
    size_t i = 0;
    for (auto el : a) {
        if (i++ == index)
            return el.get(out);
    }
    return INDEX_OUT_OF_BOUNDS;
}

/* One step from a value: a member of an object, or an element of an array. */
error_code od_step(ondemand::value &cur, const step &s)
{
    ondemand::json_type t;
    SIMDJSON_TRY(cur.type().get(t));
    if (t == ondemand::json_type::object)
        return cur.find_field_unordered(s.key).get(cur);
    if (t == ondemand::json_type::array && s.is_index) {
        ondemand::array a;
        SIMDJSON_TRY(cur.get_array().get(a));
        return od_nth(a, s.index, cur);
    }
    return INCORRECT_TYPE;
}

/* Hand-written navigation from the root: rewind, then one step at a time. */
error_code od_nav(ondemand::document &doc, const qpath &q, ondemand::value &cur)
{
    doc.rewind();
    ondemand::json_type t;
    SIMDJSON_TRY(doc.type().get(t));
    const step &s0 = q.steps[0];
    if (t == ondemand::json_type::object) {
        ondemand::object o;
        SIMDJSON_TRY(doc.get_object().get(o));
        SIMDJSON_TRY(o.find_field_unordered(s0.key).get(cur));
    } else if (t == ondemand::json_type::array && s0.is_index) {
        ondemand::array a;
        SIMDJSON_TRY(doc.get_array().get(a));
        SIMDJSON_TRY(od_nth(a, s0.index, cur));
    } else {
        return INCORRECT_TYPE;
    }
    for (size_t k = 1; k < q.steps.size(); k++)
        SIMDJSON_TRY(od_step(cur, q.steps[k]));
    return SUCCESS;
}

bool split_pointer(const char *p, size_t len, std::vector<step> &steps)
{
    if (len == 0 || p[0] != '/')
        return false;
    size_t i = 1;
    for (;;) {
        step s{ std::string(), 0, false };
        while (i < len && p[i] != '/') {
            char c = p[i++];
            if (c == '~') {
                if (i >= len || (p[i] != '0' && p[i] != '1'))
                    return false;
                c = p[i++] == '0' ? '~' : '/';
            }
            s.key.push_back(c);
        }
        const std::string &k = s.key;
        s.is_index = !k.empty() && k.size() <= 19 && (k.size() == 1 || k[0] != '0') &&
                     k.find_first_not_of("0123456789") == std::string::npos;
        if (s.is_index)
            s.index = (size_t)std::stoull(k);
        steps.push_back(std::move(s));
        if (i >= len)
            return true;
        i++; /* the '/' */
    }
}

void emit5(bench_rec *r, const std::string_view *f, const bool *ok)
{
    for (int k = 0; k < 5; k++) {
        if (ok[k])
            bench_rec_str(r, f[k].data(), f[k].size());
        else
            bench_rec_missing(r);
    }
}

/* The idiomatic On Demand loop: each element's fields in document order,
 * find_field_unordered (which also finds fields out of order). */
int64_t hot_od(peer_simdjson *p, int shape, bench_rec *r)
{
    ondemand::document doc;
    auto err = p->od.iterate(p->input).get(doc);
    if (err)
        return -(int64_t)err;
    ondemand::array arr;
    if ((err = doc.get_array().get(arr)))
        return -(int64_t)err;
    int64_t n = 0;
    for (auto el : arr) {
        ondemand::object o;
        if ((err = el.get_object().get(o)))
            return -(int64_t)err;
        std::string_view f[5];
        bool ok[5] = { false, false, false, false, false };
        ok[0] = !o.find_field_unordered("Id").get_string().get(f[0]);
        if (shape == PEER_SHAPE_LIST) {
            ondemand::array names;
            if (!o.find_field_unordered("Names").get_array().get(names)) {
                for (auto nm : names) {
                    ok[1] = !nm.get_string().get(f[1]);
                    break;
                }
            }
            ok[2] = !o.find_field_unordered("Image").get_string().get(f[2]);
            ondemand::object labels;
            if (!o.find_field_unordered("Labels").get_object().get(labels))
                ok[4] = !labels.find_field_unordered("com.docker.compose.service").get_string().get(f[4]);
            ok[3] = !o.find_field_unordered("State").get_string().get(f[3]);
        } else {
            ondemand::object state;
            if (!o.find_field_unordered("State").get_object().get(state))
                ok[3] = !state.find_field_unordered("Status").get_string().get(f[3]);
            ok[1] = !o.find_field_unordered("Name").get_string().get(f[1]);
            ondemand::object config;
            if (!o.find_field_unordered("Config").get_object().get(config)) {
                ok[2] = !config.find_field_unordered("Image").get_string().get(f[2]);
                ondemand::object labels;
                if (!config.find_field_unordered("Labels").get_object().get(labels))
                    ok[4] = !labels.find_field_unordered("com.docker.compose.service").get_string().get(f[4]);
            }
        }
        emit5(r, f, ok);
        n++;
    }
    return n;
}

int64_t hot_dom(peer_simdjson *p, bench_rec *r)
{
    dom::element root;
    auto err = p->dom.parse(p->input).get(root);
    if (err)
        return -(int64_t)err;
    dom::array arr;
    if ((err = root.get_array().get(arr)))
        return -(int64_t)err;
    int64_t n = 0;
    for (dom::element e : arr) {
        for (const qpath &q : p->paths)
            read_typed(e.at_pointer(q.ptr), q.type, r);
        n++;
    }
    return n;
}

} // namespace

extern "C" {

int peer_simdjson_available(void) { return 1; }

const char *peer_simdjson_version(void) { return PEER_STR(SIMDJSON_VERSION); }

const char *peer_simdjson_impl(void)
{
    static std::string name = simdjson::get_active_implementation()->name();
    return name.c_str();
}

const char *peer_simdjson_impl_desc(void)
{
    static std::string d = simdjson::get_active_implementation()->description();
    return d.c_str();
}

/* The macro as this file sees it: simdjson::builtin_implementation() would
 * answer for the library's own build (baseline flags: "fallback"). */
const char *peer_simdjson_builtin(void) { return PEER_STR(SIMDJSON_BUILTIN_IMPLEMENTATION); }

const char *peer_simdjson_compiler(void) { return "g++ " __VERSION__ " " PEER_CXXFLAGS_STR; }

int peer_simdjson_threads(void)
{
#ifdef SIMDJSON_THREADS_ENABLED
    return 1;
#else
    return 0;
#endif
}

peer_simdjson *peer_simdjson_new(void)
{
    peer_simdjson *p = new (std::nothrow) peer_simdjson();
#ifdef SIMDJSON_THREADS_ENABLED
    /* A helper thread's work would not show in this thread's CPU time. */
    if (p) {
        p->od.threaded = false;
        p->dom.threaded = false;
    }
#endif
    return p;
}

void peer_simdjson_free(peer_simdjson *p) { delete p; }

int peer_simdjson_set_input(peer_simdjson *p, const char *json, size_t len)
{
    try {
        p->input = simdjson::padded_string(json, len);
    } catch (...) {
        return -1;
    }
    return p->input.size() == len ? 0 : -1;
}

int64_t peer_simdjson_iterate(peer_simdjson *p)
{
    auto doc = p->od.iterate(p->input);
    if (doc.error())
        return -(int64_t)doc.error();
    auto t = doc.type();
    if (t.error())
        return -(int64_t)t.error();
    return (int64_t)t.value_unsafe();
}

int64_t peer_simdjson_dom(peer_simdjson *p)
{
    simdjson::dom::element root;
    auto err = p->dom.parse(p->input).get(root);
    if (err)
        return -(int64_t)err;
    return (int64_t)(unsigned char)root.type();
}

const char *peer_simdjson_error_message(int64_t rc)
{
    return rc < 0 ? simdjson::error_message((simdjson::error_code)(-rc)) : "ok";
}

int peer_simdjson_set_paths(peer_simdjson *p, size_t n, const char *const *ptrs, const size_t *lens,
                            const char *types)
{
    try {
        p->paths.clear();
        for (size_t i = 0; i < n; i++) {
            qpath q;
            q.ptr.assign(ptrs[i], lens[i]);
            q.type = types[i];
            if (!split_pointer(ptrs[i], lens[i], q.steps))
                return -1;
            p->paths.push_back(std::move(q));
        }
    } catch (...) {
        return -1;
    }
    return 0;
}

int64_t peer_simdjson_fetch(peer_simdjson *p, int mode, bench_rec *r)
{
    if (mode == PEER_DOM_POINTER) {
        dom::element root;
        auto err = p->dom.parse(p->input).get(root);
        if (err)
            return -(int64_t)err;
        for (const qpath &q : p->paths)
            read_typed(root.at_pointer(q.ptr), q.type, r);
        return (int64_t)p->paths.size();
    }
    ondemand::document doc;
    auto err = p->od.iterate(p->input).get(doc);
    if (err)
        return -(int64_t)err;
    if (mode == PEER_OD_POINTER) {
        for (const qpath &q : p->paths)
            read_typed(doc.at_pointer(q.ptr), q.type, r);
    } else {
        for (const qpath &q : p->paths) {
            ondemand::value v;
            if (od_nav(doc, q, v))
                bench_rec_missing(r);
            else
                read_typed(v, q.type, r);
        }
    }
    return (int64_t)p->paths.size();
}

int64_t peer_simdjson_hot(peer_simdjson *p, int mode, int shape, bench_rec *r)
{
    return mode == PEER_DOM_POINTER ? hot_dom(p, r) : hot_od(p, shape, r);
}

int64_t peer_simdjson_stream(peer_simdjson *p, int mode, const char *field, bench_rec *r)
{
    int64_t n = 0;
    std::string_view key(field);
    if (mode == PEER_STREAM_OD) {
        ondemand::document_stream stream;
        auto err = p->od.iterate_many(p->input).get(stream);
        if (err)
            return -(int64_t)err;
        for (auto d : stream) {
            ondemand::document_reference doc;
            if ((err = std::move(d).get(doc)))
                return -(int64_t)err;
            std::string_view s;
            if (doc.find_field_unordered(key).get_string().get(s))
                bench_rec_missing(r);
            else
                bench_rec_str(r, s.data(), s.size());
            n++;
        }
        return n;
    }
    dom::document_stream stream;
    auto err = p->dom.parse_many(p->input).get(stream);
    if (err)
        return -(int64_t)err;
    for (auto d : stream) {
        dom::element e;
        if ((err = std::move(d).get(e)))
            return -(int64_t)err;
        std::string_view s;
        if (e.at_key(key).get_string().get(s))
            bench_rec_missing(r);
        else
            bench_rec_str(r, s.data(), s.size());
        n++;
    }
    return n;
}

} /* extern "C" */
