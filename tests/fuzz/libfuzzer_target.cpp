// libFuzzer entry point over every reader and writer (slow: Graphviz lays
// out call graphs; the fast read-only targets are format_target.cpp's,
// which scripts/fuzz.sh runs). Build and run with
//   CXX=clang++ cmake -B build-fuzz -DFG_FUZZ=ON && cmake --build build-fuzz --target fg_fuzz
//   mkdir -p build-fuzz/corpus/all
//   LSAN_OPTIONS=suppressions=tests/sanitizers/lsan.supp \
//     build-fuzz/tests/fg_fuzz -max_total_time=60 build-fuzz/corpus/all samples/
// New inputs go into the first folder (outside the source tree); the
// suppressions keep fontconfig's and Graphviz's caches from ending the run
// as leaks (exit 77).
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_one.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  fg::fuzz::fuzz_one(bytes, false);
  fg::fuzz::fuzz_one(bytes, true);
  return 0;
}
