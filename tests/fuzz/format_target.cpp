// libFuzzer entry point over one reader, named at build time by
// FG_FUZZ_FORMAT (tests/CMakeLists.txt makes fg_fuzz_read_<format> for each):
// the bytes read streamed and in place (as a mapped file is), nothing
// written, so that it runs thousands of times a second. scripts/fuzz.sh
// builds and runs them; fg_fuzz (every reader and writer) and fg_fuzz_jfr
// (JFR with its options) are the slower, wider targets.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "formats/collapsed/chunks.h"
#include "fuzz/fuzz_one.h"

namespace {

// The reader's options: a jemalloc dump names the binaries it mapped, and
// symbolizing them would read this machine's libraries (libc's debug
// sections take a fifth of a second) on every run, the same work whatever
// the bytes. Under a sysroot that does not exist none is found, and the
// reader goes on as it does for a dump from another machine.
const fg::formats::ReadOptions& read_options() {
  static const fg::formats::ReadOptions options = [] {
    fg::formats::ReadOptions o;
    o.symbolize.sysroot = "/nonexistent/fg-fuzz-sysroot";
    return o;
  }();
  return options;
}

// The collapsed reader cuts a stream into chunks of a megabyte, a buffer
// that costs more than reading a fuzzer's few KiB; chunks of kChunkBytes
// cost nothing and put the boundaries (a line carried into the next
// chunk) where the fuzzer's inputs reach them.
constexpr std::size_t kChunkBytes = 512;

fg::Profile read_collapsed_in_chunks(fg::formats::Input& input, const fg::formats::ReadOptions& options,
                                     fg::Diagnostics& diagnostics) {
  return fg::formats::collapsed::read_in_chunks(input, options, diagnostics, kChunkBytes);
}

const fg::formats::Format& reader() {
  static const fg::formats::Format format = [] {
    fg::formats::Format f = *fg::formats::find_format(FG_FUZZ_FORMAT);
    if (std::string_view(FG_FUZZ_FORMAT) == "collapsed") f.read = read_collapsed_in_chunks;
    return f;
  }();
  return format;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  for (bool in_place : {false, true})
    fg::fuzz::read_then_write(reader(), bytes, read_options(), in_place, {});
  return 0;
}
