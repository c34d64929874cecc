#include "formats/svg/flamegraph.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "fg/call_tree.h"
#include "fg/error.h"
#include "fg/flame_layout.h"
#include "fg/granularity.h"
#include "fg/reverse.h"
#include "fg/utf8.h"
#include "formats/common/flame_graph.h"
#include "formats/common/number_format.h"
#include "formats/common/palette.h"
#include "formats/svg/flamegraph_script.h"
#include "formats/svg/xml_escape.h"

namespace fg::formats::svg {

namespace {

constexpr double kXPad = 10;
constexpr double kFramePad = 1;

// The geometry of one drawing: what flamegraph.pl computes from its options.
struct Canvas {
  double width, frame_height, font_size, ypad1, ypad2, ypad3, height, per_value, min_value;
  bool inverted;
  double image_width;  // width plus the band of removed frames, if any
};

double parse_min_width(const std::string& text, bool* percent) {
  std::string number = text;
  *percent = !number.empty() && number.back() == '%';
  if (*percent) number.pop_back();
  bool ok = !number.empty() && number.find_first_not_of("0123456789.") == std::string::npos;
  char* end = nullptr;
  double v = ok ? std::strtod(number.c_str(), &end) : 0;
  if (!ok || *end != '\0')
    throw UsageError("--minwidth " + text + ": expected a number of pixels, or a percentage like 0.5%");
  return v;
}

void check_options(const FlameGraphOptions& o) {
  if (!is_palette(o.colors))
    throw UsageError("--colors " + o.colors + ": expected one of " + std::string(palette_names()));
  if (o.width <= 2 * kXPad) throw UsageError("--width must be more than 20 pixels");
  // Finite too: an infinite size would write "inf" into the SVG.
  if (!(o.frame_height > 0) || !std::isfinite(o.frame_height)) throw UsageError("--height must be positive");
  if (!(o.font_size > 0) || !std::isfinite(o.font_size)) throw UsageError("--fontsize must be positive");
  if (!(o.font_width > 0) || !std::isfinite(o.font_width)) throw UsageError("--fontwidth must be positive");
}

// --minwidth in value units: a percentage of the total, or pixels.
double min_width_value(double total, const FlameGraphOptions& o) {
  bool percent;
  double mw = parse_min_width(o.min_width, &percent);
  return percent ? total * mw / 100 : mw / ((o.width - 2 * kXPad) / total);
}

double min_width_value(const Profile& p, std::size_t col, const FlameGraphOptions& o) {
  return min_width_value(static_cast<double>(p.totals()[col]), o);
}

// What a frame's name becomes in the SVG, made once per frame rather than
// once per rectangle: a deep graph draws one frame at thousands of places.
struct NameText {
  std::string escaped;  // the name through xml_escape
  bool plain = false;   // ASCII that escaping leaves as it is: a prefix of n chars is n bytes
  bool has_colour = false;
  Rgb colour;  // the frame's colour outside a differential graph
};

// Writing into room made beforehand (Writer::frame_room).
template <std::size_t N>
char* put(char* p, const char (&literal)[N]) {
  std::memcpy(p, literal, N - 1);
  return p + N - 1;
}
char* put(char* p, std::string_view s) {
  if (!s.empty()) std::memcpy(p, s.data(), s.size());
  return p + s.size();
}

class Writer {
 public:
  Writer(const Profile& p, const CallTree& tree, std::size_t col, const FlameGraphOptions& o,
         std::ostream& out)
      : p_(p), tree_(tree), col_(col), o_(o), out_(out) {}
  void run();

 private:
  // A frame found only in the base of a diff, placed in the band of
  // removed frames: x and width in pixels.
  struct Removed {
    FlameRect rect;
    double x = 0, w = 0;
  };

  void header(const Canvas& c);
  void frame(const FlameRect& r, const Canvas& c, const FlameLayout& layout);
  std::vector<Removed> removed_frames(const Canvas& c, const FlameLayoutOptions& lo, double band_left);
  void removed_frame(const Removed& r, const Canvas& c, std::int64_t base_total);
  double frame_y(std::uint32_t depth, const Canvas& c) const;
  // The frame's label: the name, cut to what fits in `width` pixels.
  char* frame_text(char* p, std::string_view name, const NameText& text, double x1, double width, double y1,
                   double y2);
  // The frame's NameText; valid until the next call.
  NameText& name_text(FrameId f);
  // Room for one frame's elements with a name escaped to `escaped` bytes:
  // frames are formatted in place, then appended to buf_ in one piece.
  char* frame_room(std::size_t escaped);
  void end_frame(const char* end) {
    buf_.append(frame_buf_.data(), static_cast<std::size_t>(end - frame_buf_.data()));
    flush();
  }
  // Pieces of 256 KiB: large enough that writes cost little, small enough
  // that the buffer is a small part of peak memory.
  static constexpr std::size_t kFlushAt = 1 << 18;
  void flush(bool force = false) {
    if (!force && buf_.size() < kFlushAt) return;
    out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }
  void text(const char* id, double x, double y, std::string_view content, const char* extra = "");

  const Profile& p_;
  const CallTree& tree_;
  std::size_t col_;
  const FlameGraphOptions& o_;
  std::ostream& out_;
  std::string buf_;
  std::vector<char> frame_buf_;
  std::string cut_;         // an escaped name cut to fit
  std::string count_name_;  // escaped
  double total_ = 0;
  // A fixed-point column's unit (ValueType::decimals): 10^decimals.
  double unit_ = 1;
  // A count as flamegraph.pl shows it: its sum of fractional counts,
  // printf("%.0f") (whole numbers are shown as they are).
  std::int64_t shown_count(std::int64_t v) const {
    return unit_ == 1 ? v : round_scaled(static_cast<double>(v) / unit_, 0);
  }
  int decimals_ = 0;  // of the column drawn
  // A value exactly, grouped as counts are ("1,234.5"), for fg's own details.
  char* write_exact(char* p, std::int64_t v) const {
    if (decimals_ == 0) return write_grouped(p, v);
    const std::string t = fixed_point_text(v, decimals_);
    const std::size_t sign = t[0] == '-' ? 1 : 0, dot = std::min(t.find('.'), t.size());
    if (sign) *p++ = '-';
    for (std::size_t i = sign; i < dot; ++i) {
      if (i > sign && (dot - i) % 3 == 0) *p++ = ',';
      *p++ = t[i];
    }
    return put(p, std::string_view(t).substr(dot));
  }
  std::optional<std::size_t> base_col_;   // the base column of a differential graph
  std::vector<std::uint32_t> name_slot_;  // per frame: index into names_ + 1, or 0
  std::vector<NameText> names_;
  NameText root_text_{std::string(kRootLabel), true, false, {}};
};

NameText& Writer::name_text(FrameId f) {
  if (name_slot_.empty()) name_slot_.assign(p_.frame_count(), 0);
  std::uint32_t& slot = name_slot_[f.index()];
  if (slot != 0) return names_[slot - 1];
  NameText t;
  const std::string_view name = p_.frame_name(f);
  xml_escape(t.escaped, name);
  t.plain = t.escaped == name && std::all_of(name.begin(), name.end(),
                                             [](char ch) { return static_cast<unsigned char>(ch) < 0x80; });
  names_.push_back(std::move(t));
  slot = static_cast<std::uint32_t>(names_.size());
  return names_.back();
}

void Writer::text(const char* id, double x, double y, std::string_view content, const char* extra) {
  buf_ += "<text id=\"";
  buf_ += id;
  buf_ += "\" x=\"" + fixed(x, 2) + "\" y=\"" + perl_number(y) + "\"" + extra + ">";
  xml_escape(buf_, content);
  buf_ += "</text>\n";
}

void Writer::header(const Canvas& c) {
  const std::string w = perl_number(c.image_width), h = perl_number(c.height);
  auto [bg1, bg2] = background(o_.bg_colors, o_.colors);
  std::string title = o_.title;
  if (title.empty()) title = o_.flame_chart ? "Flame Chart" : o_.inverted ? "Icicle Graph" : "Flame Graph";
  const std::string fs = perl_number(o_.font_size), ts = perl_number(o_.font_size + 5);

  buf_ +=
      "<?xml version=\"1.0\" standalone=\"no\"?>\n"
      "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
      "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n";
  buf_ += "<svg version=\"1.1\" width=\"" + w + "\" height=\"" + h +
          "\" onload=\"fg_init()\" viewBox=\"0 0 " + w + " " + h +
          "\" xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n";
  buf_ += "<!-- Flame graph drawn by fg-convert. -->\n";
  if (!o_.notes.empty()) {
    buf_ += "<desc id=\"notes\">";
    xml_escape(buf_, o_.notes);
    buf_ += "</desc>\n";
  }
  buf_ +=
      "<defs>\n\t<linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\" >\n"
      "\t\t<stop stop-color=\"" +
      bg1 +
      "\" offset=\"5%\" />\n"
      "\t\t<stop stop-color=\"" +
      bg2 + "\" offset=\"95%\" />\n\t</linearGradient>\n";
  if (c.image_width != o_.width)
    buf_ +=
        "\t<pattern id=\"hatch\" patternUnits=\"userSpaceOnUse\" width=\"4\" height=\"4\">"
        "<rect width=\"4\" height=\"4\" fill=\"rgb(225,225,225)\" />"
        "<path d=\"M-1,1 l2,-2 M0,4 l4,-4 M3,5 l2,-2\" stroke=\"rgb(140,140,140)\" stroke-width=\"1\" />"
        "</pattern>\n";
  buf_ += "</defs>\n";
  buf_ += "<style type=\"text/css\">\n\ttext { font-family:";
  xml_escape(buf_, o_.font_type);
  buf_ += "; font-size:" + fs +
          "px; fill:rgb(0,0,0); }\n"
          "\t#search, #ignorecase { opacity:0.1; cursor:pointer; }\n"
          "\t#search:hover, #search.show, #ignorecase:hover, #ignorecase.show { opacity:1; }\n"
          "\t#subtitle { text-anchor:middle; font-color:rgb(160,160,160); }\n"
          "\t#title { text-anchor:middle; font-size:" +
          ts +
          "px}\n"
          "\t#unzoom { cursor:pointer; }\n"
          "\t#frames > *:hover { stroke:black; stroke-width:0.5; cursor:pointer; }\n"
          "\t.hide { display:none; }\n\t.parent { opacity:0.5; }\n</style>\n";
  buf_ += "<script type=\"text/ecmascript\">\n<![CDATA[";
  buf_ += kFlameGraphScript;
  buf_ += "]]>\n</script>\n";
  buf_ += "<rect x=\"0.0\" y=\"0\" width=\"" + fixed(c.image_width, 1) + "\" height=\"" + fixed(c.height, 1) +
          "\" fill=\"url(#background)\"  />\n";
  double mid = std::floor(o_.width / 2.0);
  text("title", mid, o_.font_size * 2, title);
  if (!o_.subtitle.empty()) text("subtitle", mid, o_.font_size * 4, o_.subtitle);
  text("details", kXPad, c.height - c.ypad2 / 2, " ");
  text("unzoom", kXPad, o_.font_size * 2, "Reset Zoom", " class=\"hide\"");
  text("search", o_.width - kXPad - 100, o_.font_size * 2, "Search");
  text("ignorecase", o_.width - kXPad - 16, o_.font_size * 2, "ic");
  text("matched", o_.width - kXPad - 100, c.height - c.ypad2 / 2, " ");
  buf_ += "<g id=\"frames\" data-xpad=\"" + perl_number(kXPad) + "\" data-charw=\"" +
          perl_number(o_.font_size * o_.font_width) + "\" data-inverted=\"" + (c.inverted ? "1" : "0") +
          "\" data-nametype=\"";
  xml_escape(buf_, o_.name_type);
  buf_ += "\">\n";
}

char* Writer::frame_room(std::size_t escaped) {
  // The name twice (title and label), a handful of numbers and the markup.
  const std::size_t need = 2 * escaped + count_name_.size() + 6 * kMaxFixedChars + 16 * kMaxNumberChars + 512;
  if (frame_buf_.size() < need) frame_buf_.resize(need);
  return frame_buf_.data();
}

void Writer::frame(const FlameRect& r, const Canvas& c, const FlameLayout& layout) {
  const double x1 = kXPad + static_cast<double>(r.start) * c.per_value;
  const double x2 = kXPad + static_cast<double>(r.start + r.width) * c.per_value;
  double y1, y2;
  if (!c.inverted) {
    y1 = c.height - c.ypad2 - (r.depth + 1) * c.frame_height + kFramePad;
    y2 = c.height - c.ypad2 - r.depth * c.frame_height;
  } else {
    y1 = c.ypad1 + r.depth * c.frame_height;
    y2 = c.ypad1 + (r.depth + 1) * c.frame_height - kFramePad;
  }
  const bool root = r.node == kRootStack;
  const FrameId f = root ? FrameId{} : tree_.frame(r.node);
  std::string_view name = root ? kRootLabel : p_.frame_name(f);
  NameText& text = root ? root_text_ : name_text(f);
  char* p = frame_room(text.escaped.size());

  if (layout.diff && base_col_) {
    // The details line shows these on hover; the title stays flamegraph.pl's.
    const std::int64_t base = tree_.total(r.node, *base_col_), delta = r.width - base;
    p = put(p, "<g data-diff=\"base ");
    p = write_exact(p, base);
    p = put(p, ", new ");
    p = write_exact(p, r.width);
    p = put(p, ", change ");
    if (delta > 0) *p++ = '+';
    p = write_exact(p, delta);
    p = put(p, " (");
    if (delta >= 0) *p++ = '+';
    p = write_fixed(p, 100.0 * static_cast<double>(delta) / total_, 2);
    p = put(p, "% of the total)\">\n<title>");
  } else {
    p = put(p, "<g>\n<title>");
  }
  p = put(p, text.escaped);
  p = put(p, " (");
  const std::int64_t shown = shown_count(r.width);
  p = write_grouped(p, shown);
  *p++ = ' ';
  p = put(p, count_name_);
  if (root) {
    p = put(p, ", 100%)");
  } else {
    p = put(p, ", ");
    // flamegraph.pl's percentage is of the count it shows.
    p = write_fixed(p, 100.0 * static_cast<double>(shown) / (total_ / unit_), 2);
    *p++ = '%';
    if (layout.diff) {
      std::int64_t d = o_.negate ? -r.self_delta : r.self_delta;
      p = put(p, "; ");
      if (d > 0) *p++ = '+';
      p = write_fixed(p, 100.0 * static_cast<double>(d) / total_, 2);
      *p++ = '%';
    }
    *p++ = ')';
  }
  p = put(p, "</title>");

  // The colour key is the name as a folded line has it, annotation included.
  Rgb colour;
  if (root) {
    colour = frame_color(o_.colors, o_.hash, "");
  } else {
    std::string_view suffix = frame_kind_suffix(p_.frame(f).kind);
    if (suffix.empty() && name == "--")
      colour = {160, 160, 160};
    else if (suffix.empty() && name == "-")
      colour = {200, 200, 200};
    else if (layout.diff)
      colour = diff_color(r.self_delta, layout.max_abs_delta, o_.negate, o_.colorblind);
    else if (text.has_colour)
      colour = text.colour;
    else {
      if (suffix.empty())
        colour = frame_color(o_.colors, o_.hash, name);
      else
        colour = frame_color(o_.colors, o_.hash, std::string(name).append(suffix));
      text.colour = colour;
      text.has_colour = true;
    }
  }
  if (root && layout.diff) colour = diff_color(r.self_delta, layout.max_abs_delta, o_.negate, o_.colorblind);

  // flamegraph.pl prints x and the right edge rounded to 0.1 and the width
  // as the difference of those printed values: in tenths, exactly t2 - t1.
  const std::int64_t t1 = round_scaled(x1, 1), t2 = round_scaled(x2, 1);
  p = put(p, "<rect x=\"");
  p = write_scaled(p, t1, 1, false);
  p = put(p, "\" y=\"");
  p = write_perl_number(p, y1);
  p = put(p, "\" width=\"");
  p = write_scaled(p, t2 - t1, 1, false);
  p = put(p, "\" height=\"");
  p = write_fixed(p, y2 - y1, 1);
  p = put(p, "\" fill=\"rgb(");
  p = write_int(p, colour.r);
  *p++ = ',';
  p = write_int(p, colour.g);
  *p++ = ',';
  p = write_int(p, colour.b);
  p = put(p, ")\" rx=\"2\" ry=\"2\" />\n");

  end_frame(frame_text(p, name, text, x1, x2 - x1, y1, y2));
}

double Writer::frame_y(std::uint32_t depth, const Canvas& c) const {
  return !c.inverted ? c.height - c.ypad2 - (depth + 1) * c.frame_height + kFramePad
                     : c.ypad1 + depth * c.frame_height;
}

char* Writer::frame_text(char* p, std::string_view name, const NameText& text, double x1, double width,
                         double y1, double y2) {
  const auto chars = static_cast<std::size_t>(std::max(0.0, width / (o_.font_size * o_.font_width)));
  p = put(p, "<text  x=\"");
  p = write_fixed(p, x1 + 3, 2);
  p = put(p, "\" y=\"");
  p = write_perl_number(p, 3 + (y1 + y2) / 2);
  p = put(p, "\" >");
  if (chars >= 3 && text.plain) {
    if (chars < name.size()) {
      p = put(p, name.substr(0, chars - 2));
      p = put(p, "..");
    } else {
      p = put(p, text.escaped);
    }
  } else if (chars >= 3) {
    std::size_t len = code_point_count(name);
    if (chars < len) {
      // A prefix escapes to at most the bytes the whole name escapes to.
      cut_.clear();
      xml_escape(cut_, name.substr(0, code_point_prefix(name, chars - 2)));
      p = put(p, cut_);
      p = put(p, "..");
    } else {
      p = put(p, text.escaped);
    }
  }
  return put(p, "</text>\n</g>\n");
}

// The frames whose call path has no value in the new profile, laid out by
// the base column: each topmost one placed after the last in the band, its
// descendants at their offsets under it.
std::vector<Writer::Removed> Writer::removed_frames(const Canvas& c, const FlameLayoutOptions& lo,
                                                    double band_left) {
  std::vector<Removed> out;
  const std::optional<std::size_t> base = p_.base_of(col_);
  if (!base) return out;
  FlameLayoutOptions blo = lo;
  blo.column = *base;
  double offset = 0;
  const Removed* top = nullptr;
  std::size_t top_index = 0;
  each_flame_rect(tree_, blo, [&](const FlameRect& r) {
    if (r.node == kRootStack || tree_.total(r.node, col_) != 0) return;
    if (top) top = &out[top_index];
    const bool inside = top && r.depth > top->rect.depth && r.start >= top->rect.start &&
                        r.start < top->rect.start + top->rect.width;
    Removed m{r, 0, static_cast<double>(r.width) * c.per_value};
    if (inside) {
      m.x = top->x + static_cast<double>(r.start - top->rect.start) * c.per_value;
    } else {
      m.x = band_left + offset;
      offset += m.w + 1;
      top_index = out.size();
    }
    out.push_back(m);
    top = &out[top_index];
  });
  return out;
}

void Writer::removed_frame(const Removed& m, const Canvas& c, std::int64_t base_total) {
  const double y1 = frame_y(m.rect.depth, c), y2 = y1 + c.frame_height - kFramePad;
  const FrameId f = tree_.frame(m.rect.node);
  const NameText& text = name_text(f);
  char* p = put(frame_room(text.escaped.size()), "<g class=\"removed\">\n<title>");
  p = put(p, text.escaped);
  p = put(p, " (removed: ");
  p = write_exact(p, m.rect.width);
  *p++ = ' ';
  p = put(p, count_name_);
  p = put(p, " in the base, ");
  p = write_fixed(
      p, base_total ? 100.0 * static_cast<double>(m.rect.width) / static_cast<double>(base_total) : 0, 2);
  p = put(p, "% of it)</title><rect x=\"");
  p = write_fixed(p, m.x, 1);
  p = put(p, "\" y=\"");
  p = write_perl_number(p, y1);
  p = put(p, "\" width=\"");
  p = write_fixed(p, m.w, 1);
  p = put(p, "\" height=\"");
  p = write_fixed(p, y2 - y1, 1);
  p = put(p,
          "\" fill=\"url(#hatch)\" stroke=\"rgb(160,160,160)\" stroke-width=\"0.5\" rx=\"2\" ry=\"2\" />\n");
  end_frame(frame_text(p, p_.frame_name(f), text, m.x, m.w, y1, y2));
}

void Writer::run() {
  require_something_to_draw(tree_, col_);
  xml_escape(count_name_, count_name(p_.value_types()[col_], o_));
  base_col_ = p_.base_of(col_);
  total_ = static_cast<double>(tree_.total(kRootStack, col_));
  decimals_ = p_.value_types()[col_].decimals;
  unit_ = static_cast<double>(decimal_factor(decimals_));

  Canvas c;
  c.width = o_.width;
  c.frame_height = o_.frame_height;
  c.font_size = o_.font_size;
  c.ypad1 = o_.font_size * 3;
  c.ypad2 = o_.font_size * 2 + 10;
  c.ypad3 = o_.font_size * 2;
  c.inverted = o_.inverted;
  c.per_value = (o_.width - 2 * kXPad) / total_;
  c.min_value = min_width_value(total_, o_);

  FlameLayoutOptions lo;
  lo.column = col_;
  lo.min_width = c.min_value;
  lo.chart = o_.flame_chart;
  // The height goes in the header, so the tree is measured first and drawn
  // as it is laid out; a chart is laid out (collected and sorted) once.
  const FlameLayout layout = lo.chart ? layout_flame(tree_, lo) : measure_flame(tree_, lo);
  c.image_width = o_.width;
  const double band_left = o_.width + kXPad;
  std::vector<Removed> removed;
  if (layout.diff && o_.show_removed && !lo.chart) removed = removed_frames(c, lo, band_left);
  std::uint32_t max_depth = layout.max_depth;
  for (const Removed& m : removed) {
    max_depth = std::max(max_depth, m.rect.depth);
    c.image_width = std::max(c.image_width, std::ceil(m.x + m.w + kXPad));
  }
  constexpr std::string_view kRemovedCaption = "only in the base";
  if (!removed.empty())  // room for the band's caption too
    c.image_width = std::max(
        c.image_width,
        std::ceil(band_left + static_cast<double>(kRemovedCaption.size()) * o_.font_size * o_.font_width +
                  kXPad));
  c.height = (max_depth + 1) * c.frame_height + c.ypad1 + c.ypad2;
  if (!o_.subtitle.empty()) c.height += c.ypad3;
  header(c);
  if (lo.chart) {
    for (const FlameRect& r : layout.rects) frame(r, c, layout);
  } else {
    each_flame_rect(tree_, lo, [&](const FlameRect& r) { frame(r, c, layout); });
  }
  buf_ += "</g>\n";
  if (!removed.empty()) {
    buf_ += "<g id=\"removed\">\n";
    text("removed-caption", band_left, o_.font_size * 2, kRemovedCaption);
    const std::int64_t base_total = tree_.total(kRootStack, *p_.base_of(col_));
    for (const Removed& m : removed) removed_frame(m, c, base_total);
    buf_ += "</g>\n";
  }
  buf_ += "</svg>\n";
  flush(true);
}

}  // namespace

void check_write_options(const WriteOptions& options) {
  check_options(options.flame);
  background(options.flame.bg_colors, options.flame.colors);  // validates --bgcolors
  bool percent;
  parse_min_width(options.flame.min_width, &percent);
}

void write_flamegraph(const Profile& profile, const WriteOptions& options, std::ostream& out, Diagnostics&) {
  check_write_options(options);
  std::size_t col = options.value ? profile.find_value(*options.value) : profile.default_value_index();
  std::optional<Profile> coarse, reversed;
  const Profile* p = &profile;
  if (finer_than(*p, options.granularity)) p = &coarse.emplace(at_granularity(*p, options.granularity));
  // Frames narrower than --minwidth are never drawn: leave them out of the
  // tree's index (a flame chart lays out samples, not the tree).
  CallTreeOptions tree_options;
  // Removed frames have no width in the drawn column: keep the whole tree.
  const bool removed = options.flame.show_removed && p->base_of(col);
  if (!options.flame.flame_chart && !removed) {
    tree_options.prune_column = col;
    tree_options.min_total = min_width_value(*p, col, options.flame);
  }
  // Reversed, the narrow paths need not be spelled out either.
  if (options.flame.reverse)
    p = &reversed.emplace(tree_options.prune_column ? reverse_stacks(*p, col, tree_options.min_total)
                                                    : reverse_stacks(*p));
  CallTree tree(*p, tree_options);
  Writer(*p, tree, col, options.flame, out).run();
}

}  // namespace fg::formats::svg
