#!/usr/bin/env python3
"""Writes BigStacks.java, the Java workload recorded for the JFR benchmark.

A recording of the size issue 4 describes (about 200 MB, several million
CPU samples, close to a million distinct stack traces) needs a program whose
threads run many different call chains. BigStacks builds CHAINS random chains
(each MIN_DEPTH to MAX_DEPTH calls through METHODS small methods, from a
seed) and has THREADS threads run randomly chosen chains for SECONDS seconds,
from the whole set (shared, the default) or, with "own", each thread from its
own share of it, so that a trace is sampled on one thread only; each chain
ends in a loop of integer work, where nearly every sample lands.
Every distinct chain that a sample reaches is one stack trace of the
recording.

    python3 bench/gen_jfr_workload.py -o /tmp/work/BigStacks.java
    javac -d /tmp/work/classes /tmp/work/BigStacks.java
    java -cp /tmp/work/classes BigStacks SECONDS THREADS CHAINS SEED MIN_DEPTH MAX_DEPTH [shared|own]

bench/README.md gives the recording command and the figures of the files it
made.
"""
import argparse

HEAD = """\
// The JFR benchmark's workload (written by fg's bench/gen_jfr_workload.py).
//   java BigStacks SECONDS THREADS CHAINS SEED MIN_DEPTH MAX_DEPTH [shared|own]
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

public final class BigStacks {
    static byte[][] chains;
    static final AtomicLong sink = new AtomicLong();

    static long leaf(long x, int spin) {
        for (int i = 0; i < spin; i++) {
            x ^= x << 13; x ^= x >>> 7; x ^= x << 17;
        }
        return x;
    }

    static long step(byte[] c, int at, long x) {
        if (at == c.length) return leaf(x, 4000 + (int) (x & 1023));
        switch (c[at]) {
"""

TAIL = """\
    public static void main(String[] args) throws Exception {
        final long seconds = Long.parseLong(args[0]);
        final int threads = Integer.parseInt(args[1]);
        final int count = Integer.parseInt(args[2]);
        final long seed = Long.parseLong(args[3]);
        final int lo = Integer.parseInt(args[4]), hi = Integer.parseInt(args[5]);
        // "own": each thread runs chains of its own share of the set only.
        final boolean own = args.length > 6 && args[6].equals("own");
        SplittableRandom r = new SplittableRandom(seed);
        chains = new byte[count][];
        for (int i = 0; i < count; i++) {
            byte[] c = new byte[lo + r.nextInt(hi - lo + 1)];
            for (int j = 0; j < c.length; j++) c[j] = (byte) r.nextInt(%(methods)d);
            chains[i] = c;
        }
        final long end = System.nanoTime() + seconds * 1_000_000_000L;
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            final long s = seed * 1000 + t;
            final int index = t;
            ts[t] = new Thread(() -> {
                SplittableRandom tr = new SplittableRandom(s);
                long acc = 0;
                final int share = own ? Math.max(1, chains.length / threads) : chains.length;
                final int first = own ? (index * share) %% chains.length : 0;
                while (System.nanoTime() < end) {
                    for (int k = 0; k < 64; k++) {
                        acc += step(chains[(first + tr.nextInt(share)) %% chains.length], 0, acc);
                    }
                }
                sink.addAndGet(acc);
            }, "worker-" + t);
            ts[t].start();
        }
        for (Thread t : ts) t.join();
        System.out.println(sink.get());
    }
}
"""


def java_source(methods):
    cases = "".join("            case %d: return m%d(c, at + 1, x + %d);\n" % (i, i, i + 1)
                    for i in range(methods))
    bodies = "".join("    static long m%d(byte[] c, int at, long x) { return step(c, at, x * %d + 1); }\n"
                     % (i, 2 * i + 3) for i in range(methods))
    return (HEAD + cases + "            default: throw new IllegalStateException();\n        }\n    }\n\n"
            + bodies + "\n" + TAIL % {"methods": methods})


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output", required=True, help="where to write BigStacks.java")
    ap.add_argument("--methods", type=int, default=56, help="methods the chains go through (at most 127)")
    a = ap.parse_args()
    if not 1 <= a.methods <= 127:
        ap.error("--methods must be 1 to 127")
    with open(a.output, "w") as f:
        f.write(java_source(a.methods))


if __name__ == "__main__":
    main()
