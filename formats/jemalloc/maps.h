// The MAPPED_LIBRARIES section of a jemalloc heap dump: the process's
// /proc/self/maps at the time of the dump (proc(5)), one mapping a line:
//
//   562c99782000-562c99787000 r-xp 00002000 fe:00 5324941   /path/to/binary
//
// It turns a run-time address into (module path, file offset), which is what
// the symbolizer needs: file offset = address - start + offset.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fg::formats::jemalloc {

/// One line of /proc/self/maps. `path` is "" for anonymous memory and the
/// pseudo name ("[heap]", "[vdso]") for the kernel's own mappings.
struct Mapping {
  std::uint64_t start = 0;   ///< first address
  std::uint64_t end = 0;     ///< one past the last address
  std::uint64_t offset = 0;  ///< file offset of `start`
  bool executable = false;   ///< 'x' in the permissions
  std::string path;
};

/// Where an address lies: a file-backed mapping and the offset in its file.
struct Location {
  const Mapping* mapping = nullptr;
  std::uint64_t file_offset = 0;
};

/// The mappings of one dump, looked up by address.
class MappedLibraries {
 public:
  /// Parses one maps line. Returns an error message naming what is wrong
  /// and sets `column` (1-based) to where, or "" when the line is good.
  std::string add_line(std::string_view line, std::uint64_t& column);
  /// Sorts the mappings for find(); call once after the last add_line.
  void finish();

  /// The file-backed mapping holding `address`, if any.
  std::optional<Location> find(std::uint64_t address) const;
  const std::vector<Mapping>& mappings() const { return mappings_; }
  bool empty() const { return mappings_.empty(); }

 private:
  std::vector<Mapping> mappings_;
};

/// The file name of a path: "libc.so.6" for "/usr/lib/libc.so.6".
std::string_view base_name(std::string_view path);

}  // namespace fg::formats::jemalloc
