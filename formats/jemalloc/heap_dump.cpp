#include "formats/jemalloc/heap_dump.h"

#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fg/cursor.h"
#include "fg/detail/u64_map.h"
#include "fg/string_pool.h"

namespace fg::formats::jemalloc {

namespace {

constexpr std::string_view kHeader = "heap_v2/";
constexpr std::string_view kMapsMarker = "MAPPED_LIBRARIES:";
constexpr const char* kAddressExpected = "expected a hexadecimal address such as 0x7f08a2a2630";

bool is_digit(char c) { return c >= '0' && c <= '9'; }

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A count: a whole number, never negative.
std::int64_t read_count(TextCursor& c) {
  if (!is_digit(c.peek()) || c.at_end()) c.fail("expected a count (a whole number)");
  return c.read_int64();
}

class Parser {
 public:
  Parser(Input& input, Diagnostics& diag, const std::function<void(std::string_view)>& on_mapped)
      : input_(input), diag_(diag), on_mapped_(on_mapped) {}
  HeapDump run();

 private:
  HeapDump run_in_place(std::string_view text);
  HeapDump finish(std::string_view rest);
  void line(std::string_view text);
  void header(std::string_view text);
  void stack_line(std::string_view text);
  bool fast_stack_line(std::string_view text);
  void add_stack(const std::vector<std::uint64_t>& addresses);
  void counts_line(std::string_view text);
  void maps_line(std::string_view text);
  std::uint64_t read_address(TextCursor& c);

  Input& input_;
  Diagnostics& diag_;
  const std::function<void(std::string_view)>& on_mapped_;
  HeapDump dump_;
  U64Map address_index_;
  std::uint64_t line_no_ = 0;
  bool in_maps_ = false;
  bool in_stack_ = false;               // counts lines now belong to dump_.stacks.back()
  std::vector<std::uint64_t> scratch_;  // the addresses of the line being read
  // The previous stack's adjusted addresses and their indices, leaf first.
  std::vector<std::uint64_t> prev_addresses_, addresses_;
  std::vector<std::uint32_t> prev_indices_, indices_;
};

HeapDump Parser::run() {
  if (auto whole = input_.map_whole()) return run_in_place(*whole);
  // Lines are cut out of chunks; only a partial line is carried over, so
  // memory stays with the parsed stacks, not the input. Chunks start at
  // 64 KiB (a small dump costs no megabyte) and double while reads fill
  // them, up to 1 MiB.
  constexpr std::size_t kFirstChunk = 1 << 16, kChunk = 1 << 20;
  std::string buf;
  std::size_t chunk_size = kFirstChunk;
  std::unique_ptr<char[]> chunk(new char[chunk_size]);
  std::size_t from = 0;  // the bytes of buf before it hold no line break
  while (std::size_t n = input_.read(chunk.get(), chunk_size)) {
    buf.append(chunk.get(), n);
    if (n == chunk_size && chunk_size < kChunk) {
      chunk_size *= 2;
      chunk.reset(new char[chunk_size]);
    }
    std::size_t begin = 0;
    while (const void* nl = std::memchr(buf.data() + from, '\n', buf.size() - from)) {
      std::size_t end = static_cast<std::size_t>(static_cast<const char*>(nl) - buf.data());
      if (end - begin > kMaxLineBytes) throw_line_too_long(input_.name(), line_no_ + 1);
      line(std::string_view(buf.data() + begin, end - begin));
      begin = from = end + 1;
    }
    buf.erase(0, begin);
    from = buf.size();
    if (buf.size() > kMaxLineBytes) throw_line_too_long(input_.name(), line_no_ + 1);
  }
  return finish(buf);
}

HeapDump Parser::run_in_place(std::string_view text) {
  if (on_mapped_) on_mapped_(text);
  const char* p = text.data();
  const char* const e = p + text.size();
  const char* next_release = p + (1 << 20);
  while (const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(e - p))) {
    const char* end = static_cast<const char*>(nl);
    if (static_cast<std::size_t>(end - p) > kMaxLineBytes) throw_line_too_long(input_.name(), line_no_ + 1);
    line(std::string_view(p, static_cast<std::size_t>(end - p)));
    p = end + 1;
    if (p >= next_release) {  // read pages leave memory as they are done with
      input_.release_mapped(static_cast<std::size_t>(p - text.data()));
      next_release = p + (1 << 20);
    }
  }
  return finish(std::string_view(p, static_cast<std::size_t>(e - p)));
}

HeapDump Parser::finish(std::string_view rest) {
  if (line_no_ == 0 && rest.empty())
    throw ParseError(SourcePosition::text(input_.name(), 1, 1), "empty input");
  if (!rest.empty()) {
    if (rest.size() > kMaxLineBytes) throw_line_too_long(input_.name(), line_no_ + 1);
    if (rest.back() == '\r') rest.remove_suffix(1);
    throw ParseError(SourcePosition::text(input_.name(), line_no_ + 1, rest.size() + 1),
                     "the dump ends in the middle of a line (cut off?)");
  }
  dump_.maps.finish();
  return std::move(dump_);
}

void Parser::line(std::string_view text) {
  ++line_no_;
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  if (line_no_ == 1) return header(text);
  if (in_maps_) return maps_line(text);
  std::size_t first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return;  // blank
  char c = text[first];
  if (c == '@') return stack_line(text);
  if (c == 't') return counts_line(text);
  if (text.substr(first) == kMapsMarker) {
    in_maps_ = true;
    dump_.has_maps = true;
    return;
  }
  diag_.warn(SourcePosition::text(input_.name(), line_no_, first + 1), "unknown line",
             "line not understood in a jemalloc heap dump; ignored");
}

void Parser::header(std::string_view text) {
  TextCursor c(text, input_.name(), line_no_);
  if (!text.starts_with(kHeader))
    c.fail("expected the header 'heap_v2/<sample period>' of a jemalloc heap dump");
  for (std::size_t i = 0; i < kHeader.size(); ++i) c.advance();
  dump_.period = read_count(c);
  c.skip_blanks();
  if (!c.at_end()) c.fail("unexpected text after the sample period");
}

std::uint64_t Parser::read_address(TextCursor& c) {
  std::uint64_t v = 0;
  bool prefix = c.peek() == '0';
  if (prefix) c.advance();
  if (!prefix || (c.peek() != 'x' && c.peek() != 'X')) c.fail(kAddressExpected);
  c.advance();
  if (hex_digit(c.peek()) < 0 || c.at_end()) c.fail("expected hexadecimal digits after '0x'");
  for (int d; !c.at_end() && (d = hex_digit(c.peek())) >= 0; c.advance()) {
    if (v >> 60) c.fail("address does not fit in 64 bits");
    v = v << 4 | static_cast<unsigned>(d);
  }
  if (!c.at_end() && c.peek() != ' ' && c.peek() != '\t') c.fail(kAddressExpected);
  return v;
}

// The common case without TextCursor: "@ 0x<1-16 hex digits> ...", into
// `out`. False for anything else, which stack_line then reads again with a
// cursor that names the fault.
bool read_stack_addresses(std::string_view text, std::vector<std::uint64_t>& out) {
  const char* p = text.data();
  const char* e = p + text.size();
  while (p < e && *p != '@') ++p;
  ++p;
  out.clear();
  while (true) {
    while (p < e && (*p == ' ' || *p == '\t')) ++p;
    if (p == e) break;
    if (e - p < 3 || p[0] != '0' || p[1] != 'x') return false;
    p += 2;
    std::uint64_t v = 0;
    const char* digits = p;
    for (int d; p < e && (d = hex_digit(*p)) >= 0; ++p) v = v << 4 | static_cast<unsigned>(d);
    if (p == digits || p - digits > 16 || (p < e && *p != ' ' && *p != '\t')) return false;
    out.push_back(v);
  }
  return !out.empty();
}

// Address `i` of a stack (leaf first) as symbolized: every address but the
// leaf is a return address, so it steps back into the call.
std::uint64_t call_address(std::uint64_t a, std::size_t i) { return i > 0 && a > 0 ? a - 1 : a; }

bool Parser::fast_stack_line(std::string_view text) {
  if (!read_stack_addresses(text, scratch_)) return false;
  add_stack(scratch_);
  return true;
}

void Parser::stack_line(std::string_view text) {
  if (fast_stack_line(text)) return;
  TextCursor c(text, input_.name(), line_no_);
  c.skip_blanks();
  c.expect('@');
  c.skip_blanks();
  if (c.at_end()) c.fail("expected at least one address after '@'");
  scratch_.clear();
  while (!c.at_end()) {
    scratch_.push_back(read_address(c));
    c.skip_blanks();
  }
  add_stack(scratch_);
}

void Parser::add_stack(const std::vector<std::uint64_t>& raw) {
  DumpStack s;
  s.first_address = static_cast<std::uint32_t>(dump_.stack_addresses.size());
  s.first_thread = static_cast<std::uint32_t>(dump_.threads.size());
  s.address_count = static_cast<std::uint32_t>(raw.size());
  const std::size_t n = raw.size(), prev_n = prev_addresses_.size();
  addresses_.resize(n);
  indices_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t a = call_address(raw[i], i);
    // Stacks listed one after another mostly share their outer part: an
    // address equal to the previous stack's at the same depth from the
    // root has its index without a lookup.
    const std::size_t depth = n - 1 - i;
    std::uint32_t index;
    if (depth < prev_n && prev_addresses_[prev_n - 1 - depth] == a) {
      index = prev_indices_[prev_n - 1 - depth];
    } else {
      auto next = static_cast<std::uint32_t>(dump_.addresses.size());
      index = address_index_.insert(a, next);
      if (index == next) dump_.addresses.push_back(a);
    }
    addresses_[i] = a;
    indices_[i] = index;
  }
  dump_.stack_addresses.insert(dump_.stack_addresses.end(), indices_.begin(), indices_.end());
  std::swap(addresses_, prev_addresses_);
  std::swap(indices_, prev_indices_);
  dump_.stacks.push_back(s);
  in_stack_ = true;
}

void Parser::counts_line(std::string_view text) {
  TextCursor c(text, input_.name(), line_no_);
  c.skip_blanks();
  c.expect('t');
  bool total = c.peek() == '*';
  std::int64_t thread = 0;
  if (total) {
    c.advance();
  } else {
    if (!is_digit(c.peek())) c.fail("expected a thread number or '*' after 't'");
    thread = c.read_int64();
    if (thread > INT32_MAX) c.fail("thread number out of range");
  }
  c.expect(':');
  Counts counts;
  for (int i = 0; i < 4; ++i) {
    c.skip_blanks();
    if (i == 2) {
      c.expect('[');
      c.skip_blanks();
    }
    counts.v[static_cast<std::size_t>(i)] = read_count(c);
    if (i % 2 == 0) c.expect(':');
  }
  c.skip_blanks();
  c.expect(']');
  c.skip_blanks();
  if (!c.at_end()) c.fail("unexpected text after the counts");
  if (!in_stack_) return;  // the header's summary of the whole process
  DumpStack& s = dump_.stacks.back();
  if (!total) {
    dump_.threads.push_back({static_cast<std::uint32_t>(thread), counts});
    ++s.thread_count;
  } else if (s.has_total) {
    diag_.warn(SourcePosition::text(input_.name(), line_no_, 1), "repeated total",
               "a second 't*:' line for one stack; ignored");
  } else {
    s.total = counts;
    s.has_total = true;
  }
}

void Parser::maps_line(std::string_view text) {
  if (text.find_first_not_of(" \t") == std::string_view::npos) return;
  std::uint64_t column = 0;
  std::string error = dump_.maps.add_line(text, column);
  if (!error.empty()) throw ParseError(SourcePosition::text(input_.name(), line_no_, column), error);
}

}  // namespace

HeapDump parse_heap_dump(Input& input, Diagnostics& diagnostics,
                         const std::function<void(std::string_view)>& on_mapped) {
  return Parser(input, diagnostics, on_mapped).run();
}

DumpPreview preview_dump(std::string_view whole, std::size_t max_stacks) {
  DumpPreview out;
  // The maps section is the dump's last: look for its marker near the end
  // only, so a dump without one is not read twice.
  constexpr std::size_t kWindow = 8 << 20;
  const std::size_t from = whole.size() > kWindow ? whole.size() - kWindow : 0;
  std::size_t at = std::string_view::npos;
  for (std::size_t pos = whole.size(); pos > from;) {
    std::size_t hit = whole.rfind(kMapsMarker, pos - 1);
    if (hit == std::string_view::npos || hit < from) break;
    if (hit > 0 && whole[hit - 1] == '\n') {
      at = hit;
      break;
    }
    pos = hit;
  }
  if (at == std::string_view::npos) return {};
  MappedLibraries maps;
  std::size_t p = whole.find('\n', at);
  while (p != std::string_view::npos && p + 1 < whole.size()) {
    std::size_t end = whole.find('\n', p + 1);
    if (end == std::string_view::npos) return {};  // cut off: the parse says so
    std::string_view text = whole.substr(p + 1, end - p - 1);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    std::uint64_t column = 0;
    if (text.find_first_not_of(" \t") != std::string_view::npos && !maps.add_line(text, column).empty())
      return {};
    p = end;
  }
  maps.finish();
  out.maps = std::move(maps);
  // Addresses of the first stacks, adjusted as the parse adjusts them.
  // Only the first: reading a few lines spread over the whole dump would
  // map pages that stay in memory until the parse gets to them.
  U64Map seen;
  std::vector<std::uint64_t> raw;
  std::size_t stacks = 0;
  for (std::size_t b = 0; b < at && stacks < max_stacks;) {
    std::size_t e = whole.find('\n', b);
    if (e == std::string_view::npos || e > at) break;
    std::string_view text = whole.substr(b, e - b);
    b = e + 1;
    std::size_t first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos || text[first] != '@') continue;
    ++stacks;
    if (!read_stack_addresses(text, raw)) continue;  // the parse says what is wrong
    for (std::size_t i = 0; i < raw.size(); ++i) {
      const std::uint64_t a = call_address(raw[i], i);
      const auto next = static_cast<std::uint32_t>(out.addresses.size());
      if (seen.insert(a, next) == next) out.addresses.push_back(a);
    }
  }
  return out;
}

}  // namespace fg::formats::jemalloc
