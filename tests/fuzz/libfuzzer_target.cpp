// libFuzzer entry point over every reader and writer. Build with
//   CXX=clang++ cmake -B build-fuzz -DFG_FUZZ=ON && cmake --build build-fuzz --target fg_fuzz
//   build-fuzz/tests/fg_fuzz -max_total_time=60 samples/
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_one.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  fg::fuzz::fuzz_one(bytes, false);
  fg::fuzz::fuzz_one(bytes, true);
  return 0;
}
