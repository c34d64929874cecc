#include <doctest/doctest.h>

#include "fg/error.h"
#include "formats/registry.h"
#include "formats/unsupported/unsupported.h"

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
  CHECK(detected("perf.txt", "# ========\n# captured on: Thu Jul  9 17:14:37 2015\n# hostname : h\n# ========\n#\n" +
                                 kPerfScript) == "perf.txt" + kPerfRefusal);
  // Other perf script event lines: no CPU, a period, pid/tid.
  CHECK(detected("x", "dd 29776 666709.771979:   10101010 cpu-clock: \n\tffffffff811 f (k)\n") == "x" + kPerfRefusal);
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
