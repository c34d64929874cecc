#!/usr/bin/env python3
"""jemalloc heap dump parity: fg-convert against jeprof (see README.md).

usage: check_jemalloc.py FG_CONVERT collapsed DUMP COLUMN
           per-stack values of fg --to collapsed vs jeprof --collapsed
       check_jemalloc.py FG_CONVERT top DUMP COLUMN
           fg --to top-csv vs jeprof --text, flat and cum per function
       check_jemalloc.py FG_CONVERT threadN DUMP COLUMN
           the samples fg labels thread=tN vs jeprof --collapsed --thread=N,
           each stack within 5% (fg splits t*: values in proportion to the
           threads, jeprof unsamples each tN: line alone)
       check_jemalloc.py FG_CONVERT buildid DUMP COLUMN
           as collapsed, with the binaries stripped and their DWARF in
           separate files found by build-id (DEBUGDIR/.build-id/xx/rest.debug)
       check_jemalloc.py FG_CONVERT diff NEW-BASE COLUMN
           fg's stacks of NEW minus those of BASE (read separately: the two
           profiles are diff-ready) vs jeprof --collapsed --base=BASE NEW
       check_jemalloc.py FG_CONVERT fg-diff NEW-BASE COLUMN
           the same through fg-diff (beside FG_CONVERT): new minus base of
           each line of fg-diff --absolute --to collapsed BASE NEW

DUMP is a name such as main_s10.m0; COLUMN one of inuse_space,
inuse_objects, alloc_space, alloc_objects. The dump and the binaries are
unpacked into a fresh directory that is not where the dump says they were,
so fg finds them only through --symbol-path; --sysroot names an empty
directory, so the system's libraries (whose build is not ours to choose)
never take part.
"""
import collections
import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUR_MODULES = ("jemwork", "libjemshapes.so")
FOREIGN = "[foreign]"
THREAD_SHARE = 0.05
UNSYMBOLIZED = re.compile(r"^(.*)\+0x[0-9a-f]+$")


def run(*argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit("FAIL: %s exited %d: %s" % (" ".join(argv), p.returncode, p.stderr.decode()))
    return p.stdout.decode()


def unpack(tmp, split_debug=False):
    """The binaries, moved away from their recorded paths; with split_debug
    stripped, their DWARF and symbols in debug/.build-id/ (binutils' objcopy
    and strip)."""
    for d in ("bin", "debug", "sysroot"):
        os.makedirs(os.path.join(tmp, d))
    for name in OUR_MODULES:
        path = os.path.join(tmp, "bin", name)
        shutil.copy(os.path.join(HERE, "bin", name), path)
        if not split_debug:
            continue
        build_id = re.search(r"Build ID: ([0-9a-f]+)", run("readelf", "-n", path)).group(1)
        debug = os.path.join(tmp, "debug", ".build-id", build_id[:2], build_id[2:] + ".debug")
        os.makedirs(os.path.dirname(debug), exist_ok=True)
        run("objcopy", "--only-keep-debug", path, debug)
        run("strip", "--strip-all", path)


DUMP_FRAME = re.compile(r"^(.*?)( \[inlined\])?( \([^()]*:\d+\))?( \{[^{}]*\})?( @0x[0-9a-f]+)?( <[^<>]*>)?$")


def thread_folded(fg, tmp, dump, column, thread):
    """fg's folded stacks of one thread's samples, from its --to dump (fg
    has no label filter yet): each frame's name, '_[i]' when inlined."""
    text = fg_output(fg, tmp, dump, column, "dump")
    columns = re.findall(r"^value \d+: ([a-z_]+)/", text, re.M)
    index = columns.index(column)
    out = collections.Counter()
    for line in text.split("\nsamples: ", 1)[1].splitlines()[1:]:
        fields = line.split(" | ")
        if len(fields) < 3 or 'thread="t%s"' % thread not in fields[2]:
            continue
        frames = []
        for f in fields[0].split(";"):
            m = DUMP_FRAME.match(f)
            frames.append(m.group(1) + ("_[i]" if m.group(2) else ""))
        out[";".join(frames)] += int(fields[1].split()[index])
    return "".join("%s %d\n" % kv for kv in out.items())


def fg_output(fg, tmp, dump, column, fmt):
    return run(fg, os.path.join(HERE, "dumps", dump + ".heap.gz"),
               "--symbol-path", os.path.join(tmp, "bin"), "--symbol-path", os.path.join(tmp, "debug"),
               "--sysroot", os.path.join(tmp, "sysroot"),
               "--value", column, "--node-fraction", "0", "--to", fmt)


# --- names -----------------------------------------------------------------

def jeprof_name(frame):
    """A jeprof frame without its decorations: '<address>' after functions of
    the binary, '[inline]' after inlined ones, and nm's local alias clones."""
    frame = re.sub(r"\[inline\]$", "", frame)
    frame = re.sub(r"<[0-9a-f]+>$", "", frame)
    return frame.replace(" [clone .localalias]", "")


def jeprof_frames(stack):
    return [jeprof_name(f) for f in stack.split(";")]


def fg_name(frame):
    """An fg frame without its kind annotation (fg marks inlined frames _[i])."""
    return re.sub(r"_\[[kjiw]\]$", "", frame)


# binutils' addr2line, which jeprof runs, names the innermost inlined frame
# of an address after the function symbol the code lies in when the inlined
# function's DWARF entry has no linkage name (C functions, lambdas); elfutils
# (eu-addr2line -i, and fg) names the inlined function itself. Checked on the
# corpus binary: `addr2line -f -C -i -e jemwork 0x305d` prints fill_buffers
# twice, `eu-addr2line -f -C -i` prints make_buffer inlined in fill_buffers.
# Key: (fg's name of the innermost inlined frame, fg's outermost frame of the
# same address); value: the name jeprof shows.
BINUTILS_INLINE_NAMES = {
    ("make_buffer", "fill_buffers(int, std::vector<char*, std::allocator<char*> >&)"):
        "fill_buffers(int, std::vector<char*, std::allocator<char*> >&)",
    ("make_buffer", "Parser::tokenize(char const*)"): "Parser::tokenize(char const*)",
    ("operator()", "_M_invoke"):
        "std::_Function_handler<void (), worker_thread(int)::{lambda()#1}>::_M_invoke(std::_Any_data const&)",
}


def fg_frames(stack):
    """fg's frames of a folded stack, innermost inlined names as jeprof shows them."""
    raw = stack.split(";")
    inlined = [f.endswith("_[i]") for f in raw]
    names = [fg_name(f) for f in raw]
    outermost = None
    for i, name in enumerate(names):
        if not inlined[i]:
            outermost = name
        elif i + 1 == len(names) or not inlined[i + 1]:
            names[i] = BINUTILS_INLINE_NAMES.get((name, outermost), name)
    return names


def short_name(name):
    """jeprof's ShortFunctionName: no argument types, template arguments or
    leading return type."""
    prev = None
    while prev != name:
        prev, name = name, re.sub(r"\([^()]*\)(\s*const)?", "", name)
    prev = None
    while prev != name:
        prev, name = name, re.sub(r"<[^<>]*>", "", name)
    return re.sub(r"^.*\s+(\w+::)", r"\1", name)


def is_ours_fg(name):
    """fg's frames of our binaries: everything but other modules' module+0xoffset."""
    m = UNSYMBOLIZED.match(name)
    return not m or m.group(1) in OUR_MODULES


# --- stacks ----------------------------------------------------------------

def normalise(frames, ours):
    """Runs of foreign frames (system libraries, the allocator) become one
    FOREIGN frame; a foreign run at the leaf is dropped (allocator frames
    removed from both sides)."""
    out = []
    for f in frames:
        f = f if ours(f) else FOREIGN
        if f == FOREIGN and out and out[-1] == FOREIGN:
            continue
        out.append(f)
    while out and out[-1] == FOREIGN:
        out.pop()
    return tuple(out)


class Folded:
    """A folded file, normalised: {stack: [sum, lines]}, and what the top
    check needs to move flat values the way the normalisation moves them."""

    def __init__(self, text, split, ours):
        counter = lambda: collections.defaultdict(lambda: [0, 0])
        self.stacks = counter()
        self.moved_to = counter()       # our leaf function: values of foreign leaves below it
        self.foreign_leaf = counter()   # short name of a foreign leaf: its values
        self.renamed_leaf = counter()   # (fg's short name, jeprof's short name): values
        self.foreign_names = set()      # short names of foreign frames
        for line in text.splitlines():
            if not line.strip():
                continue
            stack, count = line.rsplit(" ", 1)
            frames, v = split(stack), int(count)
            key = normalise(frames, ours)
            self.add(self.stacks, key, v)
            for f in frames:
                if not ours(f):
                    self.foreign_names.add(short_name(f))
            if key and not ours(frames[-1]):
                self.add(self.moved_to, short_name(key[-1]), v)
                self.add(self.foreign_leaf, short_name(frames[-1]), v)
            raw_leaf = fg_name(stack.rsplit(";", 1)[-1])
            if frames and raw_leaf != frames[-1]:
                self.add(self.renamed_leaf, (short_name(raw_leaf), short_name(frames[-1])), v)

    @staticmethod
    def add(table, key, v):
        table[key][0] += v
        table[key][1] += 1


def diff_folded(fg, tmp, pair, column, with_fg_diff=False):
    """fg's folded stacks of NEW minus BASE for a pair named NEW-BASE."""
    new, base = pair.split("-")
    out = collections.Counter()
    if with_fg_diff:
        fg_diff = os.path.join(os.path.dirname(fg), "fg-diff")
        text = run(fg_diff, "--absolute", "--to", "collapsed",
                   "--symbol-path", os.path.join(tmp, "bin"), "--symbol-path", os.path.join(tmp, "debug"),
                   "--sysroot", os.path.join(tmp, "sysroot"), "--value", column,
                   os.path.join(HERE, "dumps", base + ".heap.gz"), os.path.join(HERE, "dumps", new + ".heap.gz"))
        for line in text.splitlines():
            stack, before, after = line.rsplit(" ", 2)
            out[stack] += int(after) - int(before)
        return "".join("%s %d\n" % kv for kv in out.items() if kv[1])
    for dump, sign in ((new, 1), (base, -1)):
        for line in fg_output(fg, tmp, dump, column, "collapsed").splitlines():
            stack, count = line.rsplit(" ", 1)
            out[stack] += sign * int(count)
    return "".join("%s %d\n" % kv for kv in out.items() if kv[1])


def check_collapsed(fg, tmp, dump, column, thread=None, with_fg_diff=False):
    if "-" in dump:
        mine = Folded(diff_folded(fg, tmp, dump, column, with_fg_diff), fg_frames, is_ours_fg).stacks
        new, base = dump.split("-")
        ref = "diff_%s_minus_%s.%s.collapsed.gz" % (new.split(".")[-1], base.split(".")[-1], column)
    elif thread is None:
        mine = Folded(fg_output(fg, tmp, dump, column, "collapsed"), fg_frames, is_ours_fg).stacks
        ref = "%s.%s.collapsed.gz" % (dump, column)
    else:
        mine = Folded(thread_folded(fg, tmp, dump, column, thread), fg_frames, is_ours_fg).stacks
        ref = "%s.%s.thread%s.collapsed.gz" % (dump, column, thread)
    names = {f for k in mine for f in k if f != FOREIGN}
    with gzip.open(os.path.join(HERE, "ref", ref), "rt") as f:
        want = Folded(f.read(), jeprof_frames, lambda n: n in names).stacks
    bad = []
    for k in sorted(set(mine) | set(want)):
        (a, na), (b, nb) = mine.get(k, (0, 0)), want.get(k, (0, 0))
        # jeprof truncates each of its lines; fg rounds each of its samples.
        # Per thread, jeprof unsamples each tN: line on its own, fg splits
        # the stack's t*: value over its threads in proportion to them: the
        # two differ by the threads' differing mean sizes (README.md), a
        # bound of THREAD_SHARE of the value.
        slack = max(1, na + nb)
        if thread is not None:
            slack = max(slack, THREAD_SHARE * max(abs(a), abs(b)))
        if abs(a - b) > slack:
            bad.append("  %s\n    fg %d (%d lines), jeprof %d (%d lines)" % (";".join(k), a, na, b, nb))
    total_a, total_b = sum(v[0] for v in mine.values()), sum(v[0] for v in want.values())
    print("%s %s: %d stacks, fg total %d, jeprof total %d" % (dump, column, len(want), total_a, total_b))
    if bad:
        sys.exit("FAIL: %d stacks differ:\n%s" % (len(bad), "\n".join(bad[:20])))


# --- top -------------------------------------------------------------------

def read_jeprof_text(path):
    """{short name: [flat, cum]} of jeprof --text, '(inline)' forms merged
    into their function; also the set of names that had both forms."""
    rows, forms, total = {}, collections.defaultdict(set), None
    for line in open(path):
        t = re.match(r"^Total: (\d+)", line)
        if t:
            total = int(t.group(1))
        m = re.match(r"^\s*(\d+)\s+\S+%\s+\S+%\s+(\d+)\s+\S+%\s+(.*)$", line.rstrip("\n"))
        if not m:
            continue
        name = jeprof_name(m.group(3))
        inline = name.endswith(" (inline)")
        name = name[:-len(" (inline)")] if inline else name
        forms[name].add(inline)
        r = rows.setdefault(name, [0, 0])
        r[0] += int(m.group(1))
        r[1] += int(m.group(2))
    return rows, {n for n, f in forms.items() if len(f) > 1}, total


def read_fg_top(text):
    """{short name: [flat, cum, number of full names]} of fg's top-csv."""
    import csv
    rows = {}
    for rec in csv.DictReader(text.splitlines()):
        name = re.sub(r" \((partial-)?inline\)$", "", rec["name"])
        if not is_ours_fg(name):
            continue
        r = rows.setdefault(short_name(name), [0, 0, 0])
        r[0] += int(rec["flat"])
        r[1] += int(rec["cum"])
        r[2] += 1
    return rows


def check_top(fg, tmp, dump, column):
    """Flat and cum per jeprof short name. Flat is compared with the
    allocator frames removed from both sides, as in the collapsed check: a
    foreign leaf's flat goes to the function of ours that called it, and a
    foreign function's flat that jeprof shows under a name of ours (libstdc++
    exports some of the templates our binary also has) is taken off.
    Tolerance: jeprof truncates once per row and once per folded line moved,
    fg rounds once per sample."""
    mine = read_fg_top(fg_output(fg, tmp, dump, column, "top-csv"))
    fg_folded = Folded(fg_output(fg, tmp, dump, column, "collapsed"), fg_frames, is_ours_fg)
    full_names = {f for k in fg_folded.stacks for f in k if f != FOREIGN}
    ours = {short_name(n) for n in full_names}
    text = "%s.%s%s.text.txt" % (dump, column, ".show_bytes" if column.endswith("space") else "")
    want, both_forms, total = read_jeprof_text(os.path.join(HERE, "ref", text))
    with gzip.open(os.path.join(HERE, "ref", "%s.%s.collapsed.gz" % (dump, column)), "rt") as f:
        ref_folded = Folded(f.read(), jeprof_frames, lambda n: n in full_names)
    flat_fg = {n: [r[0], 0] for n, r in mine.items()}
    for (old, new), (v, n) in fg_folded.renamed_leaf.items():  # binutils' names, see above
        flat_fg.setdefault(old, [0, 0])[0] -= v
        flat_fg.setdefault(new, [0, 0])[0] += v
    renamed = {n for pair in fg_folded.renamed_leaf for n in pair} | \
        {short_name(k[1]) for k in BINUTILS_INLINE_NAMES} | {short_name(v) for v in BINUTILS_INLINE_NAMES.values()}
    lines_per_name, cum_from_folded = collections.Counter(), collections.Counter()
    for k, (v, n) in fg_folded.stacks.items():
        for name in {short_name(f) for f in k if f != FOREIGN}:
            lines_per_name[name] += n
            cum_from_folded[name] += v
    bad, skipped, via = [], {}, collections.Counter()
    names = sorted((set(flat_fg) | set(want)) & ours)
    for name in names:
        fv, _ = flat_fg.get(name, [0, 0])
        fv += fg_folded.moved_to[name][0]
        rv = want.get(name, [0, 0])[0] + ref_folded.moved_to[name][0] - ref_folded.foreign_leaf[name][0]
        tol = 1 + lines_per_name[name] + ref_folded.moved_to[name][1] + ref_folded.foreign_leaf[name][1]
        if abs(fv - rv) > tol:
            bad.append("  %s: flat fg %d, jeprof %d (tolerance %d)" % (name, fv, rv, tol))
        cum_ref = want.get(name, [0, 0])[1]
        if name in ref_folded.foreign_names:
            skipped[name] = "jeprof's row also counts a system library's function of that name"
            continue
        if name in both_forms:
            skipped[name] = "jeprof shows its inlined and called forms in two rows, whose cums overlap"
            continue
        if mine.get(name, [0, 0, 0])[2] > 1 or name in renamed:
            # fg's top has no one row for this short name (it covers several
            # of fg's functions, or binutils names it differently): its cum
            # comes from fg's folded stacks instead.
            cum_fg, source = cum_from_folded[name], "folded"
        else:
            cum_fg, source = mine.get(name, [0, 0, 0])[1], "top"
        via[source] += 1
        if abs(cum_fg - cum_ref) > 1 + lines_per_name[name]:
            bad.append("  %s: cum fg %d (from %s), jeprof %d" % (name, cum_fg, source, cum_ref))
    fg_total = sum(v for v, _ in fg_folded.stacks.values())
    if abs(fg_total - total) > 2:
        bad.append("  total: fg %d, jeprof %d" % (fg_total, total))
    print("%s %s: total %d; %d functions, flat compared for all, cum for %d from fg's top table "
          "and %d from fg's folded stacks" % (dump, column, total, len(names), via["top"], via["folded"]))
    for name in sorted(skipped):
        print("  cum not compared for %s: %s" % (name, skipped[name]))
    if bad:
        sys.exit("FAIL:\n%s" % "\n".join(bad))


def main():
    if len(sys.argv) != 5 or not re.match(r"^(collapsed|top|diff|fg-diff|buildid|thread\d+)$", sys.argv[2]):
        sys.exit(__doc__)
    fg, mode, dump, column = sys.argv[1:]
    tmp = tempfile.mkdtemp(prefix="fg-jemalloc-")
    try:
        unpack(tmp, split_debug=mode == "buildid")
        if mode == "top":
            check_top(fg, tmp, dump, column)
        elif mode == "fg-diff":
            check_collapsed(fg, tmp, dump, column, with_fg_diff=True)
        else:
            check_collapsed(fg, tmp, dump, column, mode[len("thread"):] if mode.startswith("thread") else None)
    finally:
        shutil.rmtree(tmp)
    print("PASS")


if __name__ == "__main__":
    main()
