#include "formats/unsupported/unsupported.h"

#include <doctest/doctest.h>

#include "fg/error.h"
#include "formats/registry.h"

using namespace fg;
using namespace fg::formats;

namespace {

// What detection says about `bytes` read as `name`.
std::string detected(const std::string& name, const std::string& bytes) {
  auto in = Input::from_bytes(name, bytes);
  try {
    return std::string(detect_input_format(*in, std::nullopt).name);
  } catch (const Error& e) {
    return e.what();
  }
}

// perf script's default output: an event line, then its frames indented.
const std::string kPerfScript =
    "perf   977/977   [000] 7628263.042515: cycles: \n"
    "\tffffffff8104f45a native_write_msr_safe ([kernel.kallsyms])\n"
    "\tffffffff8102fd4c intel_pmu_enable_all ([kernel.kallsyms])\n"
    "\n"
    "java 11008 [001] 30143.481555: cpu-clock: \n"
    "\t    7f3a1c2b3d4e Interpreter (/tmp/perf-11008.map)\n"
    "\t               0 [unknown] ([unknown])\n"
    "\n";

const std::string kPerfRefusal =
    ": perf script output, which fg does not read yet; fold its stacks first: "
    "perf script | stackcollapse-perf.pl | fg-convert - (or inferno-collapse-perf)";

}  // namespace

TEST_CASE("unsupported: perf script output is refused with what to run instead") {
  CHECK(detected("<stdin>", kPerfScript) == "<stdin>" + kPerfRefusal);
  CHECK(detected("perf.txt",
                 "# ========\n# captured on: Thu Jul  9 17:14:37 2015\n# hostname : h\n# ========\n#\n" +
                     kPerfScript) == "perf.txt" + kPerfRefusal);
  // Other perf script event lines: no CPU, a period, pid/tid.
  CHECK(detected("x", "dd 29776 666709.771979:   10101010 cpu-clock: \n\tffffffff811 f (k)\n") ==
        "x" + kPerfRefusal);
  CHECK(detected("x", "java 19983 cycles:\n\t7f00 Foo::bar (/lib/x.so)\n") == "x" + kPerfRefusal);
  // perf 3.x wrote the frames without indenting them.
  CHECK(detected("x", "java 19983 cycles:\nffffffff8103d0ca native_write_msr_safe ([kernel.kallsyms])\n") ==
        "x" + kPerfRefusal);
  // Named by extension as collapsed, it is still perf script.
  CHECK(detected("stacks.folded", kPerfScript) == "stacks.folded" + kPerfRefusal);
  // Folded stacks and other text are not.
  CHECK(!unsupported::recognise("a;b 1\nc 2\n"));
  CHECK(!unsupported::recognise("main;perf 977 [000] 1.5: cycles: 3\n"));
  CHECK(!unsupported::recognise("hello: world:\n\tindented but no frame\n"));
}

namespace {

const std::string kConvert =
    ", which fg does not read yet; convert it to pprof's protobuf format with "
    "go tool pprof -proto FILE > FILE.pb.gz (the program's binary before FILE symbolizes it) and read that";

// The words of a legacy CPU profile's header: 0, 3, 0 (C++) or 1 (Java),
// the sampling period in microseconds, 0; as 32- or 64-bit words, either
// byte order.
std::string cpu_header(int width, bool big_endian, std::uint64_t java) {
  std::string out;
  for (std::uint64_t w : {std::uint64_t{0}, std::uint64_t{3}, java, std::uint64_t{10000}, std::uint64_t{0}})
    for (int i = 0; i < width; ++i) {
      const int byte = big_endian ? width - 1 - i : i;
      out += static_cast<char>((w >> (8 * byte)) & 0xff);
    }
  return out + std::string(64, '\0');
}

}  // namespace

TEST_CASE("unsupported: pprof's legacy profiles are refused by name") {
  // The first lines as gperftools, Go (debug=1) and Java agents write them.
  CHECK(detected("p.heap",
                 "heap profile:    144:  8498176 [   144:  8498176] @ heapz_v2/524288\n"
                 "     1:     9216 [     1:     9216] @ 0xc635c8 0x42ecc3\n") ==
        "p.heap: gperftools heap profile (legacy text format)" + kConvert);
  CHECK(detected("x", "heap profile: 1: 2 [3: 4] @ heap_v2/524288\n1: 2 [3: 4] @ 0x1 0x2\n") ==
        "x: gperftools heap profile (legacy text format)" + kConvert);
  CHECK(detected("x",
                 "heap profile: 13: 1595680 [47130736: 2584596557304] @ heap/1048576\n"
                 "1: 524288 [3: 1572864] @ 0x420cef 0x422151\n") ==
        "x: Go heap profile (legacy text format)" + kConvert);
  CHECK(detected("x", "heap profile:     85: 178257920 [    85: 178257920] @ growthz\n") ==
        "x: heap growth profile (legacy text format)" + kConvert);
  CHECK(detected("x", "--- contentionz 1 ---\ncycles/second = 3201000000\nsampling period = 100\n") ==
        "x: contention profile (legacy text format)" + kConvert);
  CHECK(detected("x", "--- contention:\ncycles/second=2494185000\n1 2 @ 0x1 0x2\n") ==
        "x: contention profile (legacy text format)" + kConvert);
  CHECK(detected("x", "--- threadz 1 ---\n\n--- Thread 7f794ab90940 (name: main/14748) stack: ---\n") ==
        "x: thread profile (legacy text format)" + kConvert);
  CHECK(detected("x", "threadcreate profile: total 7\n1 @ 0x44cb3 0x45045\n") ==
        "x: Go threadcreate profile (legacy text format)" + kConvert);
  CHECK(detected("x", "goroutine profile: total 12\n3 @ 0x44cb3 0x45045\n") ==
        "x: Go goroutine profile (legacy text format)" + kConvert);
  CHECK(detected("x", "--- heapz 1 ---\nformat = java\nresolution = bytes\n") ==
        "x: Java heap profile (legacy text format)" + kConvert);
  CHECK(detected("x", "--- mutex:\ncycles/second=2494185000\nsampling period=1\n1 2 @ 0x1\n") ==
        "x: Go mutex profile (legacy text format), which fg does not read yet; fetch it without debug=1 "
        "(/debug/pprof/mutex), which gives pprof's protobuf format");
  for (int width : {4, 8})
    for (bool big : {false, true}) {
      CHECK(detected("cpu.prof", cpu_header(width, big, 0)) ==
            "cpu.prof: gperftools CPU profile (legacy binary format)" + kConvert);
      CHECK(detected("x", cpu_header(width, big, 1)) ==
            "x: Java CPU profile (legacy binary format)" + kConvert);
    }
  // Folded stacks that merely mention such words are not refused.
  CHECK(!unsupported::recognise("heap profile: a;b 3\n"));
  CHECK(!unsupported::recognise("goroutine profile: total 3;main 4\n"));
}
