// async-profiler's HTML flame graphs, read back. The page's script holds
// the call tree as data, one frame a line, parents before children; the
// encoding changed twice (async-profiler's src/res/flame.html and its
// converter's FlameGraph.java of each release):
//
//   2.5-2.7   f(level,left,width,type,'title')             types: 0 Java,
//             1 inlined, 2 kernel, 3 C++, 4 native; only ' is escaped
//   2.8-2.10  f(level,left,width,type,'title'[,inln,c1,int])   types: 0
//             interpreted, 1 JIT, 2 inlined, 3 native, 4 C++, 5 kernel,
//             6 C1; \ and ' escaped
//   3.0-4.x   names in `const cpool = [...]`, sorted, each entry's first
//             character giving (code - 32) leading characters shared with
//             the entry before; frames as f(key,level,left[,width[,inln,c1,
//             int]]), u(key[,width...]) (first child of the previous frame)
//             and n(key[,width...]) (its next sibling), key = entry << 3 |
//             type (types as 2.8), a missing width meaning the previous
//             frame's; 4.4 adds `d=N` lines on diff pages (the following
//             frames' self less the base's, U for frames new in it).
//
// Levels give the nesting (a frame's parent is the last frame one level
// down), widths the totals; "left" is layout and not needed. A Java frame
// drawn as one frame with inln/c1/int counts keeps the kind it is drawn
// with: that is what async-profiler's converter reads back too.
#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "drawn_tree.h"
#include "fg/builder.h"
#include "fg/bulk_builder.h"
#include "flamegraph_in.h"
#include "page_text.h"

namespace fg::formats::flamegraph_in {

namespace {

enum class Generation { k2_5, k2_8, k3 };

constexpr std::array kKinds2_5 = {FrameKind::kJit, FrameKind::kInlined, FrameKind::kKernel, FrameKind::kCpp,
                                  FrameKind::kNative};
constexpr std::array kKinds = {FrameKind::kInterpreted, FrameKind::kJit, FrameKind::kInlined,
                               FrameKind::kNative,      FrameKind::kCpp, FrameKind::kKernel,
                               FrameKind::kC1Compiled};

// What the page's script says besides the frames.
struct PageFacts {
  Generation generation = Generation::k3;
  std::size_t data = 0;  // where the generation's frame data (or cpool) starts
  std::string title;
  std::string units = "samples";
  bool flipped = false;        // reverse (2.x, 3.x) or inverted (4.x) set
  bool inverted_flag = false;  // 4.x: the flag is "inverted"
  bool diff = false;           // maxdiff >= 0
};

// The value of `const NAME = ...;` / `let NAME = ...;` in the script.
std::string_view script_value(const PageText& t, std::string_view decl, std::size_t limit) {
  const std::size_t at = t.find(decl);
  if (at == std::string_view::npos || at > limit) return {};
  std::size_t next;
  std::string_view rest = t.line_at(at + decl.size(), &next);
  return rest.substr(0, rest.find(';'));
}

PageFacts page_facts(const PageText& t) {
  PageFacts f;
  constexpr std::string_view kCpool = "\nconst cpool = [";
  constexpr std::string_view kF2_8 = "function f(level, left, width, type, title, inln, c1, int)";
  constexpr std::string_view kF2_5 = "function f(level, left, width, type, title)";
  if (std::size_t at = t.find(kCpool); at != std::string_view::npos) {
    f.data = at + kCpool.size();
  } else if (at = t.find(kF2_8); at != std::string_view::npos) {
    f.generation = Generation::k2_8, f.data = at;
  } else if (at = t.find(kF2_5); at != std::string_view::npos) {
    f.generation = Generation::k2_5, f.data = at;
  } else {
    t.fail(0, "not a flame graph page fg reads: no async-profiler (2.x to 4.x) frame data in its script");
  }
  const std::size_t h1 = t.find("<h1>"), h1_end = t.find("</h1>", h1);
  if (h1 < f.data && h1_end < f.data) f.title = t.text().substr(h1 + 4, h1_end - h1 - 4);
  if (std::string_view u = script_value(t, "const units = '", f.data); !u.empty())
    f.units = u.substr(0, u.find('\''));
  std::string_view flag = script_value(t, "let inverted = ", f.data);
  f.inverted_flag = !flag.empty();
  if (flag.empty()) flag = script_value(t, "let reverse = ", f.data);
  if (flag.empty()) flag = script_value(t, "var reverse = ", f.data);
  f.flipped = flag == "true";
  std::int64_t maxdiff = -1;
  f.diff = parse_int64(script_value(t, "const maxdiff = ", f.data), &maxdiff) && maxdiff >= 0;
  return f;
}

// A JavaScript string's text as async-profiler wrote it: \\ and \' (2.8
// and later; 2.5 escapes only ').
std::string unescape(std::string_view s, Generation g) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && (s[i + 1] == '\'' || (s[i + 1] == '\\' && g != Generation::k2_5)))
      ++i;
    out += s[i];
  }
  return out;
}

// The end of a quoted string that starts after `open` (the offset of its
// closing quote), skipping escaped quotes; npos when the line has none.
std::size_t closing_quote(std::string_view line, std::size_t open) {
  for (std::size_t i = open + 1; i < line.size(); ++i) {
    if (line[i] == '\\')
      ++i;
    else if (line[i] == '\'')
      return i;
  }
  return std::string_view::npos;
}

// The comma-separated integers of `args` (no spaces); at most `max`.
// Returns how many, or fails at the first bad one.
int int_args(const PageText& t, std::string_view args, std::int64_t* out, int max) {
  int n = 0;
  while (!args.empty()) {
    const std::size_t comma = args.find(',');
    const std::string_view arg = args.substr(0, comma);
    if (n == max) t.fail(t.offset_of(arg.data()), "too many arguments");
    if (!parse_int64(arg, &out[n]))
      t.fail(t.offset_of(arg.data()),
             "expected an integer that fits in 64 bits, found '" + std::string(arg.substr(0, 40)) + "'");
    ++n;
    if (comma == std::string_view::npos) break;
    args.remove_prefix(comma + 1);
  }
  return n;
}

// The frames of one page into a DrawnTree: the open frame of each level,
// so that a frame at level L hangs under the open one at L - 1.
class FrameNester {
 public:
  /// `expected_frames`: a hint from the size of the frame data.
  FrameNester(const PageText& t, ProfileBuilder& b, bool diff, std::size_t expected_frames = 0)
      : t_(t), b_(b), diff_(diff), expected_frames_(expected_frames) {}

  void add(std::size_t at, std::int64_t level, FrameId frame, std::int64_t width, std::int64_t d) {
    if (width < 0) t_.fail(at, "negative width " + std::to_string(width));
    if (!tree_) {
      if (level != 0) t_.fail(at, "the first frame must be the root, at level 0");
      tree_.emplace(b_, width, diff_, d, at);
      tree_->reserve(expected_frames_);
      open_.push_back(DrawnTree::kRoot);
      return;
    }
    if (level < 1 || level > static_cast<std::int64_t>(open_.size()))
      t_.fail(at, "frame at level " + std::to_string(level) + " follows one at level " +
                      std::to_string(open_.size() - 1) + ": a level may rise by one only");
    const std::uint32_t parent = open_[level - 1];
    std::optional<std::uint32_t> id = tree_->add(parent, frame, width, d, at);
    if (!id)
      t_.fail(at, "frame " + std::to_string(width) + " wide is wider than its parent has left (" +
                      std::to_string(tree_->left_of(parent)) + ")");
    open_.resize(level);
    open_.push_back(*id);
  }
  void finish(std::size_t end, const ReadOptions& options) {
    if (!tree_) t_.fail(end, "the page has no frames");
    tree_->finish(t_);
    tree_->note_pruning(options, t_.file(), 0);
  }

 private:
  const PageText& t_;
  ProfileBuilder& b_;
  bool diff_;
  std::size_t expected_frames_;
  std::optional<DrawnTree> tree_;
  std::vector<std::uint32_t> open_;
};

// Checks that the frame data ended where the script goes on, not with the
// file (a truncated page).
void expect_script_end(const PageText& t, std::size_t at) {
  if (t.find("</script>", at) == std::string_view::npos)
    t.fail(t.size(), "the page ends inside its frame data (no </script> after it): truncated?");
}

// 2.x: f(level,left,width,type,'title'[,inln,c1,int]) per line.
void read_frames_2(const PageText& t, const PageFacts& f, ProfileBuilder& b, const ReadOptions& options) {
  FrameNester nester(t, b, false);
  std::size_t at = t.find("\nf(", f.data);
  if (at == std::string_view::npos) t.fail(t.size(), "no frame data (no line starting with 'f(')");
  ++at;
  const auto kinds = f.generation == Generation::k2_5 ? std::span<const FrameKind>(kKinds2_5)
                                                      : std::span<const FrameKind>(kKinds);
  std::size_t next = at;
  for (; at < t.size(); at = next) {
    const std::string_view line = t.line_at(at, &next);
    if (!line.starts_with("f(")) break;
    const std::size_t open = line.find(",'");
    const std::size_t close =
        f.generation == Generation::k2_5 ? line.rfind('\'') : closing_quote(line, open + 1);
    if (open == std::string_view::npos || close == std::string_view::npos || close <= open + 1 ||
        !line.ends_with(")"))
      t.fail(at, "expected f(level,left,width,type,'title')");
    std::int64_t a[4];
    if (int_args(t, line.substr(2, open - 2), a, 4) != 4)
      t.fail(at, "expected four numbers before the title");
    std::int64_t extra[3];
    const std::string_view tail = line.substr(close + 1, line.size() - close - 2);
    if (!tail.empty() && (tail[0] != ',' || int_args(t, tail.substr(1), extra, 3) != 3))
      t.fail(t.offset_of(tail.data()), "expected ,inln,c1,int or ')' after the title");
    if (a[3] < 0 || a[3] >= static_cast<std::int64_t>(kinds.size()))
      t.fail(at, "unknown frame type " + std::to_string(a[3]));
    const std::string name = unescape(line.substr(open + 2, close - open - 2), f.generation);
    nester.add(at, a[0], b.frame(name, kinds[a[3]]), a[2], 0);
  }
  expect_script_end(t, at);
  nester.finish(at, options);
}

// 3.x and 4.x: the name table, entries in one buffer (no allocation per
// name: pages hold hundreds of thousands).
class NameTable {
 public:
  std::size_t size() const { return ends_.size(); }
  std::string_view operator[](std::size_t i) const {
    const std::size_t b = i == 0 ? 0 : ends_[i - 1];
    return std::string_view(text_).substr(b, ends_[i] - b);
  }
  /// Appends the entry `packed` (escaped, as the page has it): its first
  /// character gives (code - 32) leading characters shared with the entry
  /// before. False when it shares more than that entry has.
  bool add(std::string_view packed) {
    if (!ends_.empty()) {
      // The count character may be escaped itself (\\ is 60, \' is 7).
      const std::size_t escaped = packed.size() > 1 && is_escape(packed[0], packed[1]);
      if (packed.empty()) return false;
      const std::size_t shared = static_cast<unsigned char>(packed[escaped]) - 32u;
      const std::size_t before = ends_.size() == 1 ? 0 : ends_[ends_.size() - 2];
      if (shared > ends_.back() - before) return false;
      const std::size_t at = text_.size();
      text_.resize(at + shared);
      std::copy_n(text_.data() + before, shared, text_.data() + at);  // before + shared <= at
      packed.remove_prefix(1 + escaped);
    }
    append_unescaped(packed);
    ends_.push_back(text_.size());
    return true;
  }

 private:
  static bool is_escape(char a, char b) { return a == '\\' && (b == '\'' || b == '\\'); }
  void append_unescaped(std::string_view s) {
    for (std::size_t i = 0; i < s.size(); ++i) {
      const std::size_t slash = s.find('\\', i);
      text_.append(s.substr(i, slash - i));
      if (slash == std::string_view::npos) break;
      i = slash + (slash + 1 < s.size() && is_escape(s[slash], s[slash + 1]));
      text_ += s[i];
    }
  }
  std::string text_;
  std::vector<std::size_t> ends_;
};

NameTable read_cpool(const PageText& t, std::size_t* at) {
  NameTable names;
  std::size_t next;
  t.line_at(*at, &next);  // the rest of "const cpool = [" line
  for (*at = next; *at < t.size(); *at = next) {
    std::string_view line = t.line_at(*at, &next);
    if (line.starts_with("];")) {
      *at = next;
      return names;
    }
    if (line.ends_with(",")) line.remove_suffix(1);
    if (line.size() < 2 || line.front() != '\'' || line.back() != '\'')
      t.fail(*at, "expected a quoted name table entry");
    if (!names.add(line.substr(1, line.size() - 2)))
      t.fail(*at + 1, "name table entry shares more characters with the one before than it has");
  }
  t.fail(t.size(), "the page ends inside its name table (no '];'): truncated?");
}

// The frames of the name table's keys (entry << 3 | type), made on first
// use, in the order a frame per key would be: a table by entry holding the
// frame of the type it was first drawn with (most names are drawn with
// one) stays small enough for the cache, where one slot per key would
// miss it on nearly every frame of a large page.
class KeyFrames {
 public:
  KeyFrames(const NameTable& names, ProfileBuilder& b) : names_(names), b_(b), first_(names.size()) {}
  std::size_t key_count() const { return first_.size() * 8; }
  FrameId frame(std::size_t key) {
    First& e = first_[key >> 3];
    const std::uint32_t type = key & 7;
    if (e.type == type) return e.frame;
    if (e.type == kNone) {
      e = {b_.frame(names_[key >> 3], kKinds[type]), type};
      return e.frame;
    }
    return b_.frame(b_.function_of(e.frame), kKinds[type]);
  }

 private:
  static constexpr std::uint32_t kNone = 8;
  struct First {
    FrameId frame;
    std::uint32_t type = kNone;
  };
  const NameTable& names_;
  ProfileBuilder& b_;
  std::vector<First> first_;
};

// 3.x and 4.x: f(), u(), n() and d= lines after `unpack(cpool);`.
void read_frames_3(const PageText& t, const PageFacts& f, ProfileBuilder& b, const ReadOptions& options) {
  std::size_t at = f.data;
  const NameTable names = read_cpool(t, &at);
  KeyFrames frames(names, b);
  // A frame line takes 5 bytes at least ("n(1)\n"), most take 8 or more.
  const std::size_t expected_frames = (t.size() - at) / 8;
  bulk::reserve_stacks(b, expected_frames);
  FrameNester nester(t, b, f.diff, expected_frames);
  std::int64_t level0 = 0, width0 = 0, d = 0;
  std::size_t next = at;
  bool started = false;
  for (; at < t.size(); at = next) {
    const std::string_view line = t.line_at(at, &next);
    if (!started && (line.empty() || line.starts_with("unpack("))) continue;
    if (line.starts_with("d=")) {
      if (line == "d=U")
        d = DrawnTree::kNewFrame;
      else if (!parse_int64(line.substr(2), &d) || d == DrawnTree::kNewFrame)
        t.fail(at + 2, "expected d=<integer> or d=U");
      continue;
    }
    if (line.size() < 3 || line[1] != '(' || (line[0] != 'f' && line[0] != 'u' && line[0] != 'n')) break;
    if (!line.ends_with(")")) t.fail(at + line.size(), "expected ')' at the end of the frame");
    started = true;
    std::int64_t a[7];
    const int n = int_args(t, line.substr(2, line.size() - 3), a, 7);
    const int fixed = line[0] == 'f' ? 3 : 1;  // key, and f's level and left
    if (n < fixed || (n != fixed && n != fixed + 1 && n != fixed + 4))
      t.fail(at, "wrong number of arguments to " + std::string(1, line[0]) + "()");
    const std::int64_t level = line[0] == 'f' ? a[1] : line[0] == 'u' ? level0 + 1 : level0;
    const std::int64_t width = n > fixed ? a[fixed] : width0;
    const std::int64_t key = a[0];
    if (key < 0 || static_cast<std::uint64_t>(key) >= frames.key_count() || (key & 7) >= 7)
      t.fail(at + 2, "frame key " + std::to_string(key) + " names no entry of the name table");
    nester.add(at, level, frames.frame(key), width, d);
    level0 = level, width0 = width;
  }
  if (!started) t.fail(at, "no frame data after the name table");
  expect_script_end(t, at);
  nester.finish(at, options);
}

}  // namespace

Profile read_async_profiler_page(std::string_view text, const std::string& file, const ReadOptions& options) {
  const PageText t(text, file);
  const PageFacts f = page_facts(t);
  ValueType vt = counter_value_type(f.units);
  std::vector<ValueType> types;
  if (f.diff) {
    types = {vt, vt};
    types[0].role = ValueRole::kBase, types[1].role = ValueRole::kNew;
  } else {
    types = {vt};
  }
  ProfileBuilder b(std::move(types));
  b.metadata().source_format = "html";
  b.metadata().sources.push_back(file);
  if (!f.title.empty()) b.metadata().properties.emplace_back("title", f.title);
  b.metadata().properties.emplace_back("count_name", f.units);
  if (f.generation == Generation::k3)
    read_frames_3(t, f, b, options);
  else
    read_frames_2(t, f, b, options);
  if (f.flipped && f.inverted_flag)
    note(options, b, file,
         "the page is drawn as an icicle: from stacks root first (--inverted) or reversed, callee first "
         "(--reverse), which the page does not tell apart; its tree is read as drawn");
  else if (f.flipped)
    note(options, b, file,
         "the page was drawn from reversed stacks (callee first); its tree is read as drawn");
  if (f.diff)
    note(options, b, file,
         "a differential page: the base column is each drawn frame's self less its d= difference; "
         "stacks only the base had are not in the page");
  return std::move(b).finish();
}

}  // namespace fg::formats::flamegraph_in
