// libFuzzer entry point over one reader, named at build time by
// FG_FUZZ_FORMAT (tests/CMakeLists.txt makes fg_fuzz_read_<format> for each):
// the bytes read streamed and in place (as a mapped file is), nothing
// written, so that it runs thousands of times a second. scripts/fuzz.sh
// builds and runs them; fg_fuzz (every reader and writer) and fg_fuzz_jfr
// (JFR with its options) are the slower, wider targets.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_one.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const fg::formats::Format& reader = *fg::formats::find_format(FG_FUZZ_FORMAT);
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  for (bool in_place : {false, true})
    fg::fuzz::read_then_write(reader, bytes, fg::formats::ReadOptions{}, in_place, {});
  return 0;
}
