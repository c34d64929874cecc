// libFuzzer entry point over the JFR reader with the options the input's
// last byte picks (fuzz_jfr.h). Build as libfuzzer_target.cpp says (target
// fg_fuzz_jfr), put some recordings into a seed folder, inflated (the
// fuzzer mutates their bytes, not gzip's) and each with a byte of options
// appended, then
//   LSAN_OPTIONS=suppressions=tests/sanitizers/lsan.supp \
//     build-fuzz/tests/fg_fuzz_jfr -max_len=600000 -timeout=10 build-fuzz/corpus/jfr-options/ SEEDS/
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_jfr.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fg::fuzz::fuzz_jfr(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
