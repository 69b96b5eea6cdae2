# SPDX-License-Identifier: MIT
"""The independent reader for `make check-docker`: Python's json module.

  expect.py paths FILE TSV         every value of FILE: Oj path, JSON Pointer, kind, payload
  expect.py cli JDOC FILE TSV      jdoc -c on every path (both syntaxes) against json.loads
  expect.py ndjson JDOC FILE PATH  jdoc -c --ndjson on FILE against json.raw_decode, document by document
  expect.py events RAW OUT         jdoc's live /status lines against the raw event stream

The TSV is what tests/docker/check_api.c reads: kind s (string, payload in
hex), i (integer), d (double, repr), b (0/1), n (null), a / o (array /
object, payload the element count).
"""
import json
import subprocess
import sys


def oj_key(k):
    return k.replace("\\", "\\\\").replace("/", "\\/")


def ptr_key(k):
    return k.replace("~", "~0").replace("/", "~1")


def usable(k):
    # a path per line: no line breaks or tabs; ".." is Oj's parent step
    return k not in ("", "..") and not any(c in k for c in "\n\r\t")


def walk(v, oj, ptr, out):
    if isinstance(v, bool):
        out.append((oj, ptr, "b", "1" if v else "0"))
    elif v is None:
        out.append((oj, ptr, "n", ""))
    elif isinstance(v, int):
        out.append((oj, ptr, "i", str(v)))
    elif isinstance(v, float):
        out.append((oj, ptr, "d", repr(v)))
    elif isinstance(v, str):
        out.append((oj, ptr, "s", v.encode("utf-8").hex()))
    elif isinstance(v, list):
        out.append((oj or "/", ptr, "a", str(len(v))))
        for i, e in enumerate(v):
            walk(e, "%s/%d" % (oj, i + 1), "%s/%d" % (ptr, i), out)
    else:
        out.append((oj or "/", ptr, "o", str(len(v))))
        for k, e in v.items():
            if usable(k):
                walk(e, oj + "/" + oj_key(k), ptr + "/" + ptr_key(k), out)


def same(a, b):
    """Equal, with the same types (True is not 1, 1.0 is not 1) and the same member order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a.keys()) == list(b.keys()) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def load(path):
    with open(path, "rb") as f:
        return json.loads(f.read().decode("utf-8"))


def value_at(doc, ptr):
    """The value at a JSON Pointer; "/" counts as the root here."""
    v = doc
    if ptr == "/":
        return v
    for step in ptr.split("/")[1:]:
        step = step.replace("~1", "/").replace("~0", "~")
        v = v[int(step)] if isinstance(v, list) else v[step]
    return v


def cmd_paths(file, tsv):
    out = []
    walk(load(file), "", "", out)
    with open(tsv, "w", encoding="utf-8") as f:
        for row in out:
            f.write("\t".join(row) + "\n")
    print("%s: %d values" % (file, len(out)))


def cmd_cli(jdoc, file, tsv):
    doc = load(file)
    rows = [line.rstrip("\n").split("\t") for line in open(tsv, encoding="utf-8")]
    bad = 0
    for col, flags in ((0, ["-c"]), (1, ["-c", "-p"])):
        listing = tsv + ".col%d" % col
        with open(listing, "w", encoding="utf-8") as f:
            for r in rows:
                # the pointer to the root is "": given on the command line, not in the file
                if r[col]:
                    f.write(r[col] + "\n")
        args = [jdoc] + flags + ["--paths-from", listing, file] + ([""] if col == 1 else [])
        p = subprocess.run(args, capture_output=True)
        if p.returncode != 0:
            print("FAIL: %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.decode()[:500]))
            bad += 1
            continue
        lines = p.stdout.decode("utf-8").split("\n")
        # the command line's paths come first, then the file's
        asked = ([r for r in rows if not r[col]] if col == 1 else []) + [r for r in rows if r[col]]
        if len(lines) != len(asked) + 1 or lines[-1] != "":
            print("FAIL: %s: %d lines for %d paths" % (" ".join(args), len(lines) - 1, len(asked)))
            bad += 1
            continue
        for r, line in zip(asked, lines):
            want = value_at(doc, r[1])
            if not same(json.loads(line), want):
                print("FAIL: %s %s: jdoc printed %s, json.loads has %r" % (file, r[col] or '""', line[:200], want))
                bad += 1
    print("%s: CLI %d paths x 2 syntaxes, %d wrong" % (file, len(rows), bad))
    return 1 if bad else 0


def docs_of(text):
    """The documents of a concatenated / NDJSON text, by json's raw_decode."""
    dec = json.JSONDecoder()
    i, out = 0, []
    while True:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        if i == len(text):
            return out
        v, i = dec.raw_decode(text, i)
        out.append(v)


def cmd_ndjson(jdoc, file, path):
    with open(file, "rb") as f:
        docs = docs_of(f.read().decode("utf-8"))
    p = subprocess.run([jdoc, "-c", "--ndjson", file, path], capture_output=True)
    lines = p.stdout.decode("utf-8").split("\n")[:-1]
    bad = 0 if len(lines) == len(docs) else 1
    missing = 0
    for d, line in zip(docs, lines):
        try:
            want = value_at(d, path)
        except (KeyError, IndexError, TypeError, ValueError):
            missing += 1   # jdoc prints an empty line and exits 3
            if line != "":
                print("FAIL: %s: jdoc printed %s where json has nothing" % (file, line[:200]))
                bad += 1
            continue
        if not same(json.loads(line), want):
            print("FAIL: %s: jdoc printed %s, json has %r" % (file, line[:200], want))
            bad += 1
    if p.returncode != (3 if missing else 0):
        print("FAIL: %s: jdoc exit %d: %s" % (file, p.returncode, p.stderr.decode()[:300]))
        bad += 1
    print("%s: %d documents, %d lines from jdoc --ndjson, %d wrong" % (file, len(docs), len(lines), bad))
    return 1 if bad else 0


def cmd_events(raw, out):
    with open(raw, "rb") as f:
        docs = docs_of(f.read().decode("utf-8"))
    with open(out, "rb") as f:
        lines = f.read().decode("utf-8").split("\n")[:-1]
    want = [d.get("status", "") if isinstance(d, dict) else "" for d in docs]
    if lines != want:
        print("FAIL: events: jdoc printed %r, the stream has %r" % (lines, want))
        return 1
    print("events: %d in the stream, the same %d statuses from jdoc" % (len(docs), len(lines)))
    return 0


def main():
    c, a = sys.argv[1], sys.argv[2:]
    if c == "paths":
        cmd_paths(*a)
        return 0
    return {"cli": cmd_cli, "ndjson": cmd_ndjson, "events": cmd_events}[c](*a)


if __name__ == "__main__":
    sys.exit(main())
