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

// The reader's options: a jemalloc dump names the binaries it mapped, and
// symbolizing them would read this machine's libraries (libc's debug
// sections take a fifth of a second) on every run, the same work whatever
// the bytes. Under a sysroot that does not exist none is found, and the
// reader goes on as it does for a dump from another machine.
namespace {
const fg::formats::ReadOptions& read_options() {
  static const fg::formats::ReadOptions options = [] {
    fg::formats::ReadOptions o;
    o.symbolize.sysroot = "/nonexistent/fg-fuzz-sysroot";
    return o;
  }();
  return options;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const fg::formats::Format& reader = *fg::formats::find_format(FG_FUZZ_FORMAT);
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  for (bool in_place : {false, true}) fg::fuzz::read_then_write(reader, bytes, read_options(), in_place, {});
  return 0;
}
