#include "formats/jemalloc/maps.h"

#include <algorithm>

namespace fg::formats::jemalloc {

namespace {

// A small scanner over one maps line; positions are 0-based internally.
class Fields {
 public:
  explicit Fields(std::string_view line) : s_(line) {}

  bool hex(std::uint64_t& out) {
    std::size_t begin = pos_;
    std::uint64_t v = 0;
    while (pos_ < s_.size()) {
      int d = digit(s_[pos_]);
      if (d < 0) break;
      if (v >> 60) return false;  // would pass 64 bits
      v = v << 4 | static_cast<unsigned>(d);
      ++pos_;
    }
    out = v;
    return pos_ > begin;
  }
  bool literal(char c) {
    if (pos_ >= s_.size() || s_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  // A run of non-blank bytes; false when there is none.
  bool word(std::string_view& out) {
    std::size_t begin = pos_;
    while (pos_ < s_.size() && s_[pos_] != ' ' && s_[pos_] != '\t') ++pos_;
    out = s_.substr(begin, pos_ - begin);
    return pos_ > begin;
  }
  bool blanks() {
    std::size_t begin = pos_;
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
    return pos_ > begin || pos_ == s_.size();
  }
  std::string_view rest() const { return s_.substr(pos_); }
  std::uint64_t column() const { return pos_ + 1; }

 private:
  static int digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }
  std::string_view s_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string MappedLibraries::add_line(std::string_view line, std::uint64_t& column) {
  Fields f(line);
  Mapping m;
  std::string_view perms, dev, inode;
  std::uint64_t field = 1;  // where the field being read starts
  auto fail = [&](const char* message) {
    column = field;
    return std::string(message);
  };
  // Blanks, then a field: false when there were no blanks before it.
  auto next = [&] {
    bool separated = f.blanks();
    field = f.column();
    return separated;
  };
  if (!f.hex(m.start)) return fail("expected a start address (hex) in a maps line");
  if (!f.literal('-')) return fail("expected '-' between the start and end addresses");
  field = f.column();
  if (!f.hex(m.end)) return fail("expected an end address (hex) in a maps line");
  if (m.end < m.start) return fail("the end address is below the start address");
  if (!next() || !f.word(perms) || perms.size() != 4)
    return fail("expected permissions such as r-xp in a maps line");
  if (!next() || !f.hex(m.offset)) return fail("expected a file offset (hex) in a maps line");
  if (!next() || !f.word(dev) || dev.find(':') == std::string_view::npos)
    return fail("expected a device (major:minor) in a maps line");
  if (!next() || !f.word(inode) || inode.find_first_not_of("0123456789") != std::string_view::npos)
    return fail("expected an inode number in a maps line");
  f.blanks();
  std::string_view path = f.rest();
  while (!path.empty() && (path.back() == ' ' || path.back() == '\t')) path.remove_suffix(1);
  // A file replaced since it was mapped; the path still names it best.
  constexpr std::string_view kDeleted = " (deleted)";
  if (path.ends_with(kDeleted)) path.remove_suffix(kDeleted.size());
  m.executable = perms[2] == 'x';
  m.path = std::string(path);
  mappings_.push_back(std::move(m));
  return {};
}

void MappedLibraries::finish() {
  std::stable_sort(mappings_.begin(), mappings_.end(),
                   [](const Mapping& a, const Mapping& b) { return a.start < b.start; });
}

std::optional<Location> MappedLibraries::find(std::uint64_t address) const {
  auto it = std::upper_bound(mappings_.begin(), mappings_.end(), address,
                             [](std::uint64_t a, const Mapping& m) { return a < m.start; });
  if (it == mappings_.begin()) return std::nullopt;
  --it;
  if (address >= it->end || it->path.empty() || it->path.front() == '[') return std::nullopt;
  return Location{&*it, address - it->start + it->offset};
}

std::string_view base_name(std::string_view path) {
  std::size_t slash = path.find_last_of('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace fg::formats::jemalloc
