#include "formats/jemalloc/jemalloc.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fg/error.h"
#include "formats/jemalloc/maps.h"
#include "formats/jemalloc/resolver.h"
#include "test_util.h"

using namespace fg;

namespace {

struct Read {
  std::vector<std::string> warnings;
  std::optional<Profile> profile;
};

Read read_one_way(const std::string& text, const formats::ReadOptions& options, bool strict,
                  const std::string& name, bool in_place) {
  Read r;
  Diagnostics d(
      strict, [&r](const std::string& m) { r.warnings.push_back(m); }, 100);
  auto in = formats::Input::from_bytes(name, text, formats::kDefaultMaxInflated, in_place);
  r.profile.emplace(formats::jemalloc::read(*in, options, d));
  return r;
}

std::string error_one_way(const std::string& text, const formats::ReadOptions& options, bool strict,
                          const std::string& name, bool in_place) {
  try {
    read_one_way(text, options, strict, name, in_place);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

std::string dump_of(const Profile& p) {
  std::ostringstream out;
  dump_profile(p, out);
  return out.str();
}

// The dump is named t.heap (in the working directory, which is searched
// for modules too) unless `name` says otherwise. It is read both ways a
// file can be: streamed, and in place (a plain file, whose modules are
// opened on a second thread while it is parsed); both must give the same
// profile and the same warnings.
Read read_heap(const std::string& text, formats::ReadOptions options = {}, bool strict = false,
               const std::string& name = "t.heap") {
  Read in_place = read_one_way(text, options, strict, name, true);
  Read r = read_one_way(text, options, strict, name, false);
  CHECK(in_place.warnings == r.warnings);
  CHECK(dump_of(*in_place.profile) == dump_of(*r.profile));
  return r;
}

std::string error_of(const std::string& text, formats::ReadOptions options = {}, bool strict = false,
                     const std::string& name = "t.heap") {
  std::string streamed = error_one_way(text, options, strict, name, false);
  CHECK(error_one_way(text, options, strict, name, true) == streamed);
  return streamed;
}

constexpr const char* kHeader = "heap_v2/524288\n  t*: 3: 96 [3: 96]\n  t0: 3: 96 [3: 96]\n";

}  // namespace

// A function of this test binary for the symbolizer to find.
extern "C" __attribute__((noinline)) int fg_jemalloc_test_marker(int x) {
  volatile int v = x;
  for (int i = 0; i < 3; ++i) v = v * 3 + 1;
  return v;
}

TEST_CASE("jemalloc: sniffed by its header, .heap by extension") {
  CHECK(formats::jemalloc::sniff("heap_v2/524288\n", "x") == formats::Sniff::kYes);
  CHECK(formats::jemalloc::sniff("heap profile: 1: 2", "x") == formats::Sniff::kNo);
  auto in = formats::Input::from_bytes("a.heap", std::string(kHeader));
  CHECK(formats::detect_input_format(*in, std::nullopt).name == "jemalloc");
}

TEST_CASE("jemalloc: four columns, inuse_space the default, addresses adjusted as jeprof does") {
  Read r = read_heap(std::string("heap_v2/0\n") +
                     "@ 0x1000 0x2001 0x3001\n  t*: 2: 64 [5: 160]\n  t0: 2: 64 [5: 160]\n");
  const Profile& p = *r.profile;
  REQUIRE(p.value_count() == 4);
  CHECK(p.value_types()[0] == ValueType{"inuse_objects", "count"});
  CHECK(p.value_types()[1] == ValueType{"inuse_space", "bytes"});
  CHECK(p.value_types()[2] == ValueType{"alloc_objects", "count"});
  CHECK(p.value_types()[3] == ValueType{"alloc_space", "bytes"});
  CHECK(p.default_value_index() == 1);
  CHECK(p.metadata().source_format == "jemalloc");
  CHECK(p.metadata().period == 0);
  // Leaf first in the dump, root first in the profile; every caller address
  // is a return address and steps back by one.
  CHECK(test::dump_samples(p) ==
        "samples: 1\n"
        "0x3000 @0x3000;0x2000 @0x2000;0x1000 @0x1000 | 2 64 5 160 | thread=\"t0\"\n");
  REQUIRE(r.warnings.size() == 1);
  CHECK(r.warnings[0] == "the dump has no MAPPED_LIBRARIES section: frames shown as bare addresses");
}

TEST_CASE("jemalloc: unsampling as jeprof's AdjustSamples, both pairs") {
  formats::jemalloc::Counts c;
  c.v = {1, 1024, 4, 64};
  auto v = formats::jemalloc::unsample(c, 1024);
  double scale1 = 1 / (1 - std::exp(-1.0));            // 1024-byte objects
  double scale2 = 1 / (1 - std::exp(-16.0 / 1024.0));  // 16-byte objects
  CHECK(v[0] == doctest::Approx(scale1));
  CHECK(v[1] == doctest::Approx(1024 * scale1));
  CHECK(v[2] == doctest::Approx(4 * scale2));
  CHECK(v[3] == doctest::Approx(64 * scale2));
  c.v = {0, 0, 7, 0};  // nothing to scale by
  CHECK(formats::jemalloc::unsample(c, 1024)[2] == 7);
}

TEST_CASE("jemalloc: threads become labels whose values add up to the t*: line") {
  Read r = read_heap(std::string("heap_v2/1024\n") +
                     "@ 0x10\n  t*: 3: 3072 [3: 3072]\n  t1: 1: 1024 [1: 1024]\n  t2: 2: 2048 [2: 2048]\n");
  const Profile& p = *r.profile;
  // scale 1/(1-e^-1) = 1.58198: 3 objects -> 4.75, 3072 bytes -> 4859.8
  CHECK(p.totals() == std::vector<std::int64_t>{5, 4860, 5, 4860});
  CHECK(test::dump_samples(p) ==
        "samples: 2\n"
        "0x10 @0x10 | 2 1620 2 1620 | thread=\"t1\"\n"
        "0x10 @0x10 | 3 3240 3 3240 | thread=\"t2\"\n");
}

TEST_CASE("jemalloc: rounding carries its error, so totals stay with the exact sum") {
  std::string text = "heap_v2/1024\n";
  for (int i = 0; i < 10; ++i)  // 8-byte objects: 1 sampled is 128.5 unsampled
    text += "@ 0x" + std::to_string(10 + i) + "\n  t*: 1: 8 [1: 8]\n";
  Read r = read_heap(text);
  double exact = 10 / (1 - std::exp(-8.0 / 1024));
  CHECK(std::abs(static_cast<double>(r.profile->totals()[0]) - exact) <= 0.5);
}

TEST_CASE("jemalloc: bad input is an error with file:line:col") {
  CHECK(error_of("") == "t.heap:1:1: empty input");
  CHECK(error_of("heap profile: 1: 2 [3: 4] @ heapprofile\n") ==
        "t.heap:1:1: expected the header 'heap_v2/<sample period>' of a jemalloc heap dump");
  CHECK(error_of("heap_v2/abc\n") == "t.heap:1:9: expected a count (a whole number)");
  // cut off mid-line
  CHECK(error_of(std::string(kHeader) + "@ 0x1 0x2\n  t*: 1: 2 [3") ==
        "t.heap:5:14: the dump ends in the middle of a line (cut off?)");
  // a stack line without addresses
  CHECK(error_of(std::string(kHeader) + "@\n  t*: 1: 2 [3: 4]\n") ==
        "t.heap:4:2: expected at least one address after '@'");
  CHECK(error_of(std::string(kHeader) + "@ 0x1 zz\n") ==
        "t.heap:4:7: expected a hexadecimal address such as 0x7f08a2a2630");
  // counts that are not numbers
  CHECK(error_of(std::string(kHeader) + "@ 0x1\n  t*: one: 2 [3: 4]\n") ==
        "t.heap:5:7: expected a count (a whole number)");
  CHECK(error_of(std::string(kHeader) + "@ 0x1\n  t*: 1: 2 [3: -4]\n") ==
        "t.heap:5:16: expected a count (a whole number)");
  CHECK(error_of(std::string(kHeader) + "@ 0x1\n  t*: 1: 2 [3: 4\n") == "t.heap:5:17: expected ']'");
  CHECK(error_of(std::string(kHeader) + "@ 0x1\n  t*: 1: 99999999999999999999 [3: 4]\n") ==
        "t.heap:5:28: number does not fit in 64 bits");
  // a maps line that does not parse
  CHECK(error_of(std::string(kHeader) +
                 "@ 0x1\n  t*: 1: 2 [3: 4]\nMAPPED_LIBRARIES:\nzz-1000 r-xp 0 08:01 1 /a\n") ==
        "t.heap:7:1: expected a start address (hex) in a maps line");
  CHECK(error_of(std::string(kHeader) + "MAPPED_LIBRARIES:\n1000-2000 r-xp 0 0801 1 /a\n") ==
        "t.heap:5:18: expected a device (major:minor) in a maps line");
}

TEST_CASE("jemalloc: a line it does not know is a warning, an error with --strict") {
  const std::string text = std::string(kHeader) + "junk here\n@ 0x1\n  t*: 1: 2 [3: 4]\n";
  Read r = read_heap(text);
  REQUIRE(r.warnings.size() == 2);
  CHECK(r.warnings[0] == "t.heap:4:1: line not understood in a jemalloc heap dump; ignored");
  CHECK(error_of(text, {}, true) == "t.heap:4:1: line not understood in a jemalloc heap dump; ignored");
}

TEST_CASE("jemalloc: maps lines give module and file offset") {
  formats::jemalloc::MappedLibraries maps;
  std::uint64_t column = 0;
  CHECK(maps.add_line("7f0000002000-7f0000004000 r-xp 00009000 fe:00 42   /lib/libx.so (deleted)", column) ==
        "");
  CHECK(maps.add_line("7f0000000000-7f0000002000 rw-p 00000000 00:00 0 ", column) == "");
  CHECK(maps.add_line("7ffd00000000-7ffd00001000 r-xp 00000000 00:00 0  [vdso]", column) == "");
  maps.finish();
  auto at = maps.find(0x7f0000002010);
  REQUIRE(at);
  CHECK(at->mapping->path == "/lib/libx.so");
  CHECK(at->file_offset == 0x9010);
  CHECK_FALSE(maps.find(0x7f0000000010));  // anonymous
  CHECK_FALSE(maps.find(0x7ffd00000010));  // the kernel's
  CHECK_FALSE(maps.find(0x10));
}

TEST_CASE("jemalloc: a first look at a whole dump finds its maps and the addresses of its first stacks") {
  using formats::jemalloc::prefetch_work;
  using formats::jemalloc::preview_dump;
  // Ten stacks: "@ 0x101k 0x2020" (0x3031 for the first) and a t* line.
  std::string stacks;
  for (int k = 0; k < 10; ++k) {
    char line[64];
    std::snprintf(line, sizeof line, "@ 0x101%d 0x%s\n  t*: 1: 8 [1: 8]\n", k, k == 0 ? "3031" : "2020");
    stacks += line;
  }
  const std::string maps =
      "MAPPED_LIBRARIES:\n"
      "1000-2000 r-xp 00000000 fe:00 1  /lib/a.so\n"
      "2000-3000 r-xp 00004000 fe:00 2  /lib/libjemalloc.so.2\n"
      "3000-4000 r-xp 00001000 fe:00 1  /lib/a.so\n";
  const std::string dump = "heap_v2/1\n" + stacks + maps;
  auto preview = preview_dump(dump, 2);
  CHECK(preview.maps.mappings().size() == 3);
  // The first two stacks' addresses, callers adjusted by -1.
  CHECK(preview.addresses == std::vector<std::uint64_t>{0x1010, 0x3030, 0x1011, 0x201f});

  // Modules in maps order with the file offsets in them; the allocator's
  // only with --keep-allocator-frames.
  using Work = std::vector<std::pair<std::string, std::vector<std::uint64_t>>>;
  CHECK(prefetch_work(preview, {}) == Work{{"/lib/a.so", {0x10, 0x11, 0x1030}}});
  formats::SymbolizeOptions keep;
  keep.keep_allocator_frames = true;
  CHECK(prefetch_work(preview, keep) ==
        Work{{"/lib/a.so", {0x10, 0x11, 0x1030}}, {"/lib/libjemalloc.so.2", {0x401f}}});

  // No look at all without a maps section, with a damaged maps line, or
  // with the marker somewhere other than at a line's start.
  CHECK(preview_dump("heap_v2/1\n" + stacks, 2).addresses.empty());
  CHECK(preview_dump(dump + "not a maps line\n", 2).addresses.empty());
  CHECK(preview_dump(dump.substr(0, dump.size() - 1), 2).addresses.empty());  // cut off
  std::string moved = dump;
  moved.replace(moved.find("MAPPED_LIBRARIES:"), 0, "x ");
  CHECK(preview_dump(moved, 2).addresses.empty());
  // An address it cannot read ends that stack's look, not the preview.
  std::string odd = dump;
  odd.replace(odd.find("0x1010"), 6, "0xZZZZ");
  CHECK(preview_dump(odd, 2).addresses == std::vector<std::uint64_t>{0x1011, 0x201f});
}

TEST_CASE("jemalloc: allocator frames are recognised by module and by name") {
  using formats::jemalloc::is_allocation_function;
  using formats::jemalloc::is_allocator_module;
  CHECK(is_allocator_module("/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"));
  CHECK_FALSE(is_allocator_module("/usr/lib/libc.so.6"));
  CHECK(is_allocation_function("malloc"));
  CHECK(is_allocation_function("operator new(unsigned long)"));
  CHECK(is_allocation_function("operator new[](unsigned long, std::align_val_t)"));
  CHECK(is_allocation_function("je_posix_memalign"));
  CHECK_FALSE(is_allocation_function("malloc_usable_size"));
  CHECK_FALSE(is_allocation_function("std::__new_allocator<int>::allocate(unsigned long, void const*)"));
}

namespace {

// A dump of one stack, as jemalloc records it: an optional leaf (an address
// of a made-up libjemalloc.so.2 at 0x700000000000), then a return address
// inside fg_jemalloc_test_marker; MAPPED_LIBRARIES is this process's maps.
std::string dump_of_this_process(std::uint64_t extra_leaf = 0) {
  std::ostringstream text;
  text << "heap_v2/0\n@ ";
  if (extra_leaf) text << "0x" << std::hex << extra_leaf << ' ';
  text << "0x" << std::hex << reinterpret_cast<std::uintptr_t>(&fg_jemalloc_test_marker) + 2 << "\n";
  text << "  t*: 1: 100 [1: 100]\nMAPPED_LIBRARIES:\n";
  std::ifstream maps("/proc/self/maps");
  text << maps.rdbuf();
  text << "700000000000-700000001000 r-xp 00000000 fe:00 1  /nonexistent/libjemalloc.so.2\n";
  return text.str();
}

}  // namespace

TEST_CASE("jemalloc: symbolizes through MAPPED_LIBRARIES, drops the allocator's frames") {
  Read r = read_heap(dump_of_this_process(0x700000000010));
  CHECK(r.warnings.empty());  // the allocator's module is never looked for
  const Profile& p = *r.profile;
  REQUIRE(p.sample_count() == 1);
  std::vector<FrameId> frames;
  p.stack_frames(p.sample(0).stack, frames);
  REQUIRE(frames.size() == 1);
  CHECK(p.frame_name(frames[0]) == "fg_jemalloc_test_marker");
  CHECK(p.str(p.frame(frames[0]).module).find("fg_unit_tests") != std::string_view::npos);

  formats::ReadOptions keep;
  keep.symbolize.keep_allocator_frames = true;
  Read k = read_heap(dump_of_this_process(0x700000000010), keep);
  k.profile->stack_frames(k.profile->sample(0).stack, frames);
  REQUIRE(frames.size() == 2);
  CHECK(k.profile->frame_name(frames[1]) == "libjemalloc.so.2+0x10");
  REQUIRE(k.warnings.size() == 1);
  CHECK(k.warnings[0] ==
        "cannot find 1 module of the dump: /nonexistent/libjemalloc.so.2; name their directory with "
        "--symbol-path DIR, or use --sysroot DIR (without them, their frames are module+0xoffset)");
}

TEST_CASE(
    "jemalloc: a missing module is one warning, an error with --strict, --symbol-path, the dump's "
    "directory") {
  formats::ReadOptions o;
  o.symbolize.sysroot = "/nonexistent-sysroot";
  const std::string elsewhere = "/nonexistent/t.heap";  // a dump with no binaries beside it
  Read r = read_heap(dump_of_this_process(), o, false, elsewhere);
  REQUIRE(r.warnings.size() == 1);
  CHECK(r.warnings[0].starts_with("cannot find 1 module of the dump: /"));
  std::vector<FrameId> frames;
  r.profile->stack_frames(r.profile->sample(0).stack, frames);
  CHECK(r.profile->frame_name(frames[0]).starts_with("fg_unit_tests+0x"));
  CHECK(error_of(dump_of_this_process(), o, true, elsewhere)
            .starts_with("cannot find 1 module of the dump: /"));

  // The same binary found by its base name in a --symbol-path directory.
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe");
  formats::ReadOptions with_path = o;
  with_path.symbolize.symbol_paths = {self.parent_path().string()};
  Read s = read_heap(dump_of_this_process(), with_path, false, elsewhere);
  CHECK(s.warnings.empty());
  s.profile->stack_frames(s.profile->sample(0).stack, frames);
  CHECK(s.profile->frame_name(frames[0]) == "fg_jemalloc_test_marker");

  // And beside the dump, without options.
  Read b = read_heap(dump_of_this_process(), o, false, (self.parent_path() / "t.heap").string());
  CHECK(b.warnings.empty());
  b.profile->stack_frames(b.profile->sample(0).stack, frames);
  CHECK(b.profile->frame_name(frames[0]) == "fg_jemalloc_test_marker");
}

TEST_CASE("jemalloc: an unreadable or wrong-architecture module is a warning and unsymbolized frames") {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("fg-jem-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe");
  // Not ELF at all.
  { std::ofstream(dir / self.filename()) << "not an ELF file\n"; }
  formats::ReadOptions o;
  o.symbolize.symbol_paths = {dir.string()};
  Read r = read_heap(dump_of_this_process(), o);
  REQUIRE(r.warnings.size() == 1);
  CHECK(r.warnings[0].starts_with("cannot use " + (dir / self.filename()).string() + ": "));
  std::vector<FrameId> frames;
  r.profile->stack_frames(r.profile->sample(0).stack, frames);
  CHECK(r.profile->frame_name(frames[0]).starts_with("fg_unit_tests+0x"));

  // The same binary marked as built for another machine (e_machine, at
  // byte 18, little-endian), after a module of the dump's own architecture
  // fixed the expected one.
  std::filesystem::copy_file(self, dir / "first.so", std::filesystem::copy_options::overwrite_existing);
  std::filesystem::copy_file(self, dir / self.filename(), std::filesystem::copy_options::overwrite_existing);
  int native = 0, other = 0;
  {
    std::fstream f(dir / self.filename(), std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(18);
    native = static_cast<unsigned char>(f.get());
    other = native == 183 ? 62 : 183;  // EM_AARCH64, else EM_X86_64
    f.seekp(18);
    f.put(static_cast<char>(other)).put(0);
  }
  std::string text = dump_of_this_process(0x10010);
  text += "10000-11000 r-xp 00000000 fe:00 1  /elsewhere/first.so\n";
  Read w = read_heap(text, o);
  REQUIRE(w.warnings.size() == 1);
  CHECK(w.warnings[0].find("built for another architecture (ELF machine " + std::to_string(other) +
                           ", expected " + std::to_string(native) + ")") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("jemalloc: two dumps of one process read into profiles fg-diff can compare") {
  Read a = read_heap(std::string("heap_v2/0\n@ 0x10 0x20\n  t*: 1: 8 [1: 8]\n"));
  Read b = read_heap(std::string("heap_v2/0\n@ 0x10 0x20\n  t*: 2: 16 [3: 24]\n@ 0x30\n  t*: 1: 8 [1: 8]\n"));
  CHECK(a.profile->value_types() == b.profile->value_types());
  CHECK(a.profile->metadata().default_value == b.profile->metadata().default_value);
}
