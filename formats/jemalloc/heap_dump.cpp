#include "formats/jemalloc/heap_dump.h"

#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fg/cursor.h"
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
  Parser(Input& input, Diagnostics& diag) : input_(input), diag_(diag) {}
  HeapDump run();

 private:
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
  HeapDump dump_;
  U64Map address_index_;
  std::uint64_t line_no_ = 0;
  bool in_maps_ = false;
  bool in_stack_ = false;  // counts lines now belong to dump_.stacks.back()
  std::vector<std::uint64_t> scratch_;  // the addresses of the line being read
};

HeapDump Parser::run() {
  // Lines are cut out of fixed-size chunks; only a partial line is carried
  // over, so memory stays with the parsed stacks, not the input.
  constexpr std::size_t kChunk = 1 << 20;
  std::string buf;
  std::unique_ptr<char[]> chunk(new char[kChunk]);
  while (std::size_t n = input_.read(chunk.get(), kChunk)) {
    buf.append(chunk.get(), n);
    std::size_t begin = 0;
    while (true) {
      const void* nl = std::memchr(buf.data() + begin, '\n', buf.size() - begin);
      if (!nl) break;
      std::size_t end = static_cast<std::size_t>(static_cast<const char*>(nl) - buf.data());
      line(std::string_view(buf.data() + begin, end - begin));
      begin = end + 1;
    }
    buf.erase(0, begin);
  }
  if (line_no_ == 0 && buf.empty()) throw ParseError(SourcePosition::text(input_.name(), 1, 1), "empty input");
  if (!buf.empty()) {
    std::string_view last = buf;
    if (last.back() == '\r') last.remove_suffix(1);
    throw ParseError(SourcePosition::text(input_.name(), line_no_ + 1, last.size() + 1),
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

// The common case without TextCursor: "@ 0x<1-16 hex digits> ...". Returns
// false, having stored nothing, for anything else, which stack_line then
// reads again with a cursor that names the fault.
bool Parser::fast_stack_line(std::string_view text) {
  const char* p = text.data();
  const char* e = p + text.size();
  while (p < e && *p != '@') ++p;
  ++p;
  scratch_.clear();
  while (true) {
    while (p < e && (*p == ' ' || *p == '\t')) ++p;
    if (p == e) break;
    if (e - p < 3 || p[0] != '0' || p[1] != 'x') return false;
    p += 2;
    std::uint64_t v = 0;
    const char* digits = p;
    for (int d; p < e && (d = hex_digit(*p)) >= 0; ++p) v = v << 4 | static_cast<unsigned>(d);
    if (p == digits || p - digits > 16 || (p < e && *p != ' ' && *p != '\t')) return false;
    scratch_.push_back(v);
  }
  if (scratch_.empty()) return false;
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

void Parser::add_stack(const std::vector<std::uint64_t>& addresses) {
  DumpStack s;
  s.first_address = static_cast<std::uint32_t>(dump_.stack_addresses.size());
  s.first_thread = static_cast<std::uint32_t>(dump_.threads.size());
  for (std::uint64_t a : addresses) {
    // Every address but the leaf is a return address: step back into the call.
    if (s.address_count > 0 && a > 0) --a;
    auto next = static_cast<std::uint32_t>(dump_.addresses.size());
    std::uint32_t index = address_index_.insert(a, next);
    if (index == next) dump_.addresses.push_back(a);
    dump_.stack_addresses.push_back(index);
    ++s.address_count;
  }
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

HeapDump parse_heap_dump(Input& input, Diagnostics& diagnostics) {
  return Parser(input, diagnostics).run();
}

}  // namespace fg::formats::jemalloc
