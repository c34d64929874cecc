// flamegraph.pl's, inferno's and fg's own SVG flame graphs, read back. Each
// frame is a <g> holding
//
//   <title>NAME (COUNT UNIT, PCT%)</title><rect x= y= width= .../>
//
// (PCT%; DELTA% on a differential graph; COUNT with thousands separators,
// NAME XML-escaped and, as the tools draw it, without its _[k] kind
// suffix). The <g> elements come in any order (flamegraph.pl's follow a
// Perl hash). Rows of equal y are the depths, counted from the root's row
// ("all", at the bottom, or at the top of an icicle); a frame's parent is
// the frame one row nearer the root whose span holds the middle of its
// own. Spans are inferno's exact fg:x and fg:w sample positions where the
// rect has them, else x and width (pixels, or inferno's percentages).
// Widths are the title's counts, exact where the drawing rounds.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "drawn_tree.h"
#include "fg/builder.h"
#include "fg/utf8.h"
#include "flamegraph_in.h"
#include "page_text.h"

namespace fg::formats::flamegraph_in {

namespace {

struct SvgFrame {
  std::string name;
  std::int64_t count;  // fixed point, `decimals` digits
  int decimals;
  double x, width, y;  // span (pixels, percent or samples) and row
  std::size_t at;      // offset of the title, for messages
  bool all;            // named "all"
  bool diff;           // the title has a delta
};

// XML text as written: the five named entities and numeric references.
std::string xml_unescape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const std::size_t semi = s[i] == '&' ? s.find(';', i) : std::string_view::npos;
    if (semi == std::string_view::npos || semi - i > 10) {
      out += s[i];
      continue;
    }
    const std::string_view e = s.substr(i + 1, semi - i - 1);
    std::uint32_t cp = 0;
    if (e == "amp")
      out += '&';
    else if (e == "lt")
      out += '<';
    else if (e == "gt")
      out += '>';
    else if (e == "quot")
      out += '"';
    else if (e == "apos")
      out += '\'';
    else if (e.size() > 1 && e[0] == '#') {
      const bool hex = e[1] == 'x' || e[1] == 'X';
      const std::string_view digits = e.substr(hex ? 2 : 1);
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), cp, hex ? 16 : 10);
      if (ec != std::errc() || end != digits.data() + digits.size() || cp > 0x10FFFF) {
        out += s[i];
        continue;
      }
      append_utf8(out, cp);
    } else {
      out += s[i];
      continue;
    }
    i = semi;
  }
  return out;
}

// `a` as a decimal with thousands separators ("1,361", "2.5"): the digits
// as a fixed-point integer and how many follow the point.
bool parse_count(std::string_view a, std::int64_t* value, int* decimals) {
  std::string digits;
  *decimals = -1;
  for (char c : a) {
    if (c == ',') continue;
    if (c == '.' && *decimals < 0) {
      *decimals = 0;
      continue;
    }
    if (c < '0' || c > '9' || digits.size() > 19) return false;
    digits += c;
    if (*decimals >= 0) ++*decimals;
  }
  *decimals = std::max(*decimals, 0);
  return *decimals <= 9 && parse_int64(digits, value);
}

// The value of attribute `name` in a tag's text; empty when absent.
std::string_view attribute(std::string_view tag, std::string_view name) {
  for (std::size_t at = tag.find(name); at != std::string_view::npos; at = tag.find(name, at + 1)) {
    if (at == 0 || tag[at - 1] != ' ' || tag.substr(at + name.size(), 2) != "=\"") continue;
    const std::size_t b = at + name.size() + 2, e = tag.find('"', b);
    return e == std::string_view::npos ? std::string_view() : tag.substr(b, e - b);
  }
  return {};
}

bool parse_number(std::string_view s, double* v) {
  if (s.ends_with("%")) s.remove_suffix(1);
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
  return ec == std::errc() && end == s.data() + s.size() && std::isfinite(*v);
}

// The text of <text id="title" ...>, as written (flamegraph.pl does not
// escape it: it is taken up to the next '<').
std::string_view svg_title(const PageText& t) {
  const std::size_t at = t.find("<text id=\"title\"");
  const std::size_t b = at == std::string_view::npos ? at : t.find(">", at);
  if (b == std::string_view::npos) return {};
  const std::size_t e = t.find("<", b);
  return e == std::string_view::npos ? std::string_view() : t.text().substr(b + 1, e - b - 1);
}

// Every frame of the SVG, in the order written.
class SvgReader {
 public:
  explicit SvgReader(const PageText& t) : t_(t) {}
  void read_frames();
  std::string count_name;
  bool diff = false;
  int decimals = 0;  // the most digits after a count's point
  std::vector<SvgFrame> frames;

 private:
  void frame(std::size_t at, std::string_view title, std::string_view rect);
  const PageText& t_;
};

void SvgReader::read_frames() {
  constexpr std::string_view kOpen = "<title>", kClose = "</title>";
  for (std::size_t at = t_.find(kOpen); at != std::string_view::npos; at = t_.find(kOpen, at + 1)) {
    // A frame's title holds text only: flamegraph.pl writes --title
    // unescaped, so "<title>" may be part of it, followed by other markup.
    const std::size_t close = t_.find("<", at + kOpen.size());
    if (close == std::string_view::npos) t_.fail(at, "<title> without </title>: truncated?");
    if (t_.text().substr(close, kClose.size()) != kClose) continue;
    std::size_t rect = close + kClose.size();
    while (rect < t_.size() && std::isspace(static_cast<unsigned char>(t_.text()[rect]))) ++rect;
    if (t_.text().substr(rect, 5) != "<rect") continue;  // a title of something else
    const std::size_t end = t_.find(">", rect);
    if (end == std::string_view::npos) t_.fail(rect, "<rect without its end: truncated?");
    frame(at, t_.text().substr(at + kOpen.size(), close - at - kOpen.size()),
          t_.text().substr(rect, end - rect));
  }
}

void SvgReader::frame(std::size_t at, std::string_view title, std::string_view rect) {
  // NAME (COUNT UNIT, PCT%[; DELTA%]): the last " (" starts the figures.
  const std::size_t open = title.rfind(" (");
  if (open == std::string_view::npos || !title.ends_with(")"))
    t_.fail(at, "expected a frame title 'name (count unit, percent%)'");
  const std::string_view figures = title.substr(open + 2, title.size() - open - 3);
  const std::size_t space = figures.find(' '), comma = figures.find(", ");
  SvgFrame f{};
  if (space == std::string_view::npos || comma == std::string_view::npos || space > comma ||
      !parse_count(figures.substr(0, space), &f.count, &f.decimals))
    t_.fail(at + 7 + open + 2, "expected 'count unit, percent%' after the name, found '" +
                                   std::string(figures.substr(0, 60)) + "'");
  if (count_name.empty()) count_name = figures.substr(space + 1, comma - space - 1);
  f.diff = figures.find(';', comma) != std::string_view::npos;
  diff = diff || f.diff;
  decimals = std::max(decimals, f.decimals);
  f.name = xml_unescape(title.substr(0, open));
  f.all = f.name == "all";
  f.at = at;
  std::string_view x = attribute(rect, "fg:x"), w = attribute(rect, "fg:w");
  if (x.empty() || w.empty()) x = attribute(rect, "x"), w = attribute(rect, "width");
  if (!parse_number(x, &f.x) || !parse_number(w, &f.width) || !parse_number(attribute(rect, "y"), &f.y))
    t_.fail(t_.offset_of(rect.data()), "expected numbers in the frame's x, y and width");
  frames.push_back(f);
}

// The frames nested into a DrawnTree, parents before children: rows from
// the root's, each left to right.
class Nester {
 public:
  Nester(const PageText& t, std::vector<SvgFrame>& frames, Diagnostics& d) : t_(t), frames_(frames), d_(d) {}
  /// Nests the frames into `b`; notes what may be pruned (DrawnTree::note_pruning).
  void build(ProfileBuilder& b, const ReadOptions& options, int decimals);

 private:
  static constexpr std::uint32_t kLeftOut = std::numeric_limits<std::uint32_t>::max();
  void order_rows();
  std::optional<std::size_t> parent_of(std::size_t i, std::size_t begin, std::size_t end) const;
  // The frame of a drawn name: its _[k] suffix, if any, is its kind.
  static FrameId frame_of(ProfileBuilder& b, std::string_view name) {
    if (name.size() > 4 && name.ends_with("]") && name[name.size() - 4] == '_')
      if (std::optional<FrameKind> k = frame_kind_from_suffix(name.substr(name.size() - 4)))
        return b.frame(name.substr(0, name.size() - 4), *k);
    return b.frame(name);
  }
  const PageText& t_;
  std::vector<SvgFrame>& frames_;
  Diagnostics& d_;
};

// Sorts the frames nearest the root first, a row left to right; the root
// (the widest frame, "all" among equals) must be alone in the bottom row,
// or the top one (an icicle).
void Nester::order_rows() {
  if (frames_.empty()) t_.fail(t_.size(), "no flame graph frames (<title> and <rect>) in the SVG");
  std::size_t r = 0;
  for (std::size_t i = 1; i < frames_.size(); ++i)
    if (frames_[i].count > frames_[r].count || (frames_[i].count == frames_[r].count && frames_[i].all))
      r = i;
  const double top_y = frames_[r].y;
  const bool down =
      std::all_of(frames_.begin(), frames_.end(), [&](const SvgFrame& f) { return f.y <= top_y; });
  if (!down && !std::all_of(frames_.begin(), frames_.end(), [&](const SvgFrame& f) { return f.y >= top_y; }))
    t_.fail(frames_[r].at, "the widest frame is neither the bottom nor the top row: not a flame graph");
  std::sort(frames_.begin(), frames_.end(), [&](const SvgFrame& a, const SvgFrame& c) {
    if (a.y != c.y) return down ? a.y > c.y : a.y < c.y;
    return a.x < c.x;
  });
  if (frames_.size() > 1 && frames_[1].y == top_y) t_.fail(frames_[1].at, "a second frame in the root's row");
}

// The frame of the parents' row [begin, end) whose span holds the middle
// of frame i (pixel spans are rounded: 0.1 of slack).
std::optional<std::size_t> Nester::parent_of(std::size_t i, std::size_t begin, std::size_t end) const {
  const double mid = frames_[i].x + frames_[i].width / 2;
  auto it = std::upper_bound(frames_.begin() + begin, frames_.begin() + end, mid,
                             [](double m, const SvgFrame& p) { return m < p.x; });
  if (it == frames_.begin() + begin || mid > (it - 1)->x + (it - 1)->width + 0.1) return std::nullopt;
  return static_cast<std::size_t>(it - frames_.begin()) - 1;
}

void Nester::build(ProfileBuilder& b, const ReadOptions& options, int decimals) {
  order_rows();
  DrawnTree tree(b, frames_[0].count);
  std::vector<std::uint32_t> ids{DrawnTree::kRoot};  // by index into frames_; kLeftOut
  std::size_t parents_begin = 0, row_begin = 1;      // the parents' row is [parents_begin, row_begin)
  for (std::size_t i = 1; i < frames_.size(); ++i) {
    const SvgFrame& f = frames_[i];
    if (i > row_begin && f.y != frames_[i - 1].y) parents_begin = std::exchange(row_begin, i);
    const std::optional<std::size_t> parent = parent_of(i, parents_begin, row_begin);
    if (!parent || ids[*parent] == kLeftOut) {
      // flamegraph.pl can lose a frame (two share its key) and keep what
      // it holds: those are left out, their width stays in the frame below.
      if (!parent)
        d_.warn(
            t_.position(f.at), "frame without parent",
            "frame '" + f.name + "' lies on no frame of the row below it: left out, with the frames on it");
      ids.push_back(kLeftOut);
      continue;
    }
    std::int64_t count = f.count;
    if (count > tree.left_of(ids[*parent])) {
      // Counts are rounded in the titles of fractional drawings.
      d_.warn(t_.position(f.at), "frame wider than its parent",
              "frame '" + f.name + "' of " + std::to_string(count) +
                  " is wider than what its parent has left (" + std::to_string(tree.left_of(ids[*parent])) +
                  "): taken as that");
      count = tree.left_of(ids[*parent]);
    }
    ids.push_back(*tree.add(ids[*parent], frame_of(b, f.name), count, 0, f.at));
  }
  tree.finish(t_);
  tree.note_pruning(options, t_.file(), decimals);
}

// flamegraph.pl's and inferno's count names as value columns.
ValueType svg_value_type(std::string_view count_name, int decimals) {
  ValueType vt = counter_value_type(count_name.empty() ? "samples" : count_name);
  vt.decimals = decimals;
  return vt;
}

}  // namespace

Profile read_svg_text(std::string_view text, const std::string& file, const ReadOptions& options,
                      Diagnostics& diagnostics) {
  const PageText t(text, file);
  SvgReader r(t);
  r.read_frames();
  for (SvgFrame& f : r.frames)
    if (__builtin_mul_overflow(f.count, decimal_factor(r.decimals - f.decimals), &f.count))
      t.fail(f.at, "count does not fit in 64 bits");
  ProfileBuilder b({svg_value_type(r.count_name, r.decimals)});
  b.metadata().source_format = "svg";
  b.metadata().sources.push_back(file);
  b.metadata().properties.emplace_back("count_name", r.count_name);
  if (std::string_view title = svg_title(t); !title.empty())
    b.metadata().properties.emplace_back("title", xml_unescape(title));
  Nester(t, r.frames, diagnostics).build(b, options, r.decimals);
  if (r.diff)
    note(options, b, file,
         "a differential flame graph: its titles give each frame's new count and only a rounded "
         "percentage of the change, so the profile is the new side");
  return std::move(b).finish();
}

}  // namespace fg::formats::flamegraph_in
