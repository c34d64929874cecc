#include "formats/html/flamegraph_html.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "fg/call_tree.h"
#include "fg/error.h"
#include "fg/granularity.h"
#include "formats/common/flame_graph.h"
#include "formats/common/json_escape.h"
#include "formats/common/number_format.h"
#include "formats/common/palette.h"
#include "html/flamegraph_template.h"  // generated from formats/html/flamegraph.html

namespace fg::formats::html {

namespace {

constexpr std::string_view kDataMarker = "{{FG_DATA}}";
static_assert(kFlameGraphTemplate.find(kDataMarker) != std::string_view::npos,
              "formats/html/flamegraph.html must hold the data marker");
static_assert(kFlameGraphTemplate.find(kDataMarker) == kFlameGraphTemplate.rfind(kDataMarker),
              "formats/html/flamegraph.html must hold the data marker once");

constexpr int kFrameKinds = static_cast<int>(FrameKind::kUnsymbolized) + 1;  // every kind

// Every node but the root, parents before children, siblings in the tree's
// (flamegraph.pl's) order.
std::vector<StackId> preorder(const CallTree& tree) {
  std::vector<StackId> order, todo{kRootStack};
  while (!todo.empty()) {
    const StackId node = todo.back();
    todo.pop_back();
    if (node != kRootStack) order.push_back(node);
    auto kids = tree.children(node);
    todo.insert(todo.end(), kids.rbegin(), kids.rend());
  }
  return order;
}

// The shared name table: one entry per distinct (name, kind) in the tree,
// sorted by frame_before(), so entry order is sibling order.
struct NameTable {
  std::vector<FrameId> entries;         // a representative frame of each entry
  std::vector<std::uint32_t> of_frame;  // frame -> entry
};

NameTable name_table(const Profile& p, const CallTree& tree, const std::vector<StackId>& nodes) {
  std::vector<bool> used(p.frame_count());
  for (StackId n : nodes) used[tree.frame(n).index()] = true;
  NameTable t;
  t.of_frame.assign(p.frame_count(), 0);
  // Frames of one (name, kind) have one text and so are next to each other
  // in frame order, among those of the same text (kinds without a suffix).
  std::array<std::uint32_t, kFrameKinds> entry_of_kind;
  std::string_view text_name, text_suffix;
  for (const FrameId f : tree.frame_order().frames()) {
    if (!used[f.index()]) continue;
    const std::string_view name = p.frame_name(f), suffix = frame_kind_suffix(p.frame(f).kind);
    if (t.entries.empty() || name != text_name || suffix != text_suffix) {
      entry_of_kind.fill(UINT32_MAX);
      text_name = name;
      text_suffix = suffix;
    }
    std::uint32_t& entry = entry_of_kind[static_cast<int>(p.frame(f).kind)];
    if (entry == UINT32_MAX) {
      entry = static_cast<std::uint32_t>(t.entries.size());
      t.entries.push_back(f);
    }
    t.of_frame[f.index()] = entry;
  }
  return t;
}

std::int64_t common_divisor(const CallTree& tree, const std::vector<StackId>& nodes,
                            std::initializer_list<std::optional<std::size_t>> columns) {
  std::int64_t g = 0;
  for (std::optional<std::size_t> col : columns) {
    if (!col) continue;
    g = std::gcd(g, tree.self(kRootStack, *col));
    for (StackId n : nodes) {
      g = std::gcd(g, tree.self(n, *col));
      if (g == 1) return 1;
    }
  }
  return g == 0 ? 1 : g;
}

class Writer {
 public:
  Writer(const Profile& p, const CallTree& tree, std::size_t col, const FlameGraphOptions& o,
         std::ostream& out)
      : p_(p), tree_(tree), col_(col), base_(p.base_of(col)), o_(o), out_(out) {}
  void run();

 private:
  void flush(bool force = false) {
    if (!force && buf_.size() < (1 << 20)) return;
    out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }
  void key(std::string_view name) {
    buf_ += ",\"";
    buf_ += name;
    buf_ += "\":";
  }
  void string_field(std::string_view name, std::string_view value) {
    key(name);
    string_value(value);
  }
  // Every string of the page's data, in the escaping safe inside <script>.
  void string_value(std::string_view value) {
    append_json_string(buf_, value, JsonEscaping::kScript, replaced_);
  }
  void number_field(std::string_view name, double value);
  void int_field(std::string_view name, std::int64_t value) {
    key(name);
    append_int(buf_, value);
  }
  void bool_field(std::string_view name, bool value) {
    key(name);
    buf_ += value ? "true" : "false";
  }
  void header_fields();
  void name_fields(const NameTable& names);
  void value_array(std::string_view name, std::size_t column, const std::vector<StackId>& nodes,
                   std::int64_t scale);
  void node_array(const NameTable& names, const std::vector<StackId>& nodes, std::int64_t scale);

  const Profile& p_;
  const CallTree& tree_;
  std::size_t col_;
  std::optional<std::size_t> base_;
  const FlameGraphOptions& o_;
  std::ostream& out_;
  std::string buf_;
  std::uint64_t replaced_ = 0;  // invalid UTF-8, shown as U+FFFD on the page
};

void Writer::number_field(std::string_view name, double value) {
  key(name);
  char digits[32];
  auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
  buf_.append(digits, end);
}

void Writer::header_fields() {
  const ValueType& vt = p_.value_types()[col_];
  buf_ += "{\"format\":1";
  string_field("title", o_.title.empty() ? (o_.inverted ? "Icicle Graph" : "Flame Graph") : o_.title);
  string_field("subtitle", o_.subtitle);
  string_field("notes", o_.notes);
  string_field("type", vt.type);
  string_field("unit", vt.unit);
  string_field("countName", count_name(vt, o_));
  // Values are integers of 10^-decimals of the unit (fractional counts).
  int_field("decimals", vt.decimals);
  string_field("rootLabel", kRootLabel);
  key("sources");
  buf_ += '[';
  for (std::size_t i = 0; i < p_.metadata().sources.size(); ++i) {
    if (i) buf_ += ',';
    string_value(p_.metadata().sources[i]);
  }
  buf_ += ']';
  string_field("palette", o_.colors);
  string_field("fontFamily", o_.font_type);
  number_field("fontSize", o_.font_size);
  number_field("fontWidth", o_.font_width);
  number_field("frameHeight", o_.frame_height);
  bool_field("hash", o_.hash);
  bool_field("inverted", o_.inverted);
  bool_field("reverse", o_.reverse);
  bool_field("negate", o_.negate);
  bool_field("colorblind", o_.colorblind);
  bool_field("diff", base_.has_value());
}

void Writer::name_fields(const NameTable& names) {
  key("kinds");
  buf_ += '[';
  for (int k = 0; k < kFrameKinds; ++k) {
    if (k) buf_ += ',';
    string_value(frame_kind_name(static_cast<FrameKind>(k)));
  }
  buf_ += ']';
  key("names");
  buf_ += '[';
  for (std::size_t i = 0; i < names.entries.size(); ++i) {
    if (i) buf_ += ',';
    string_value(p_.frame_name(names.entries[i]));
    flush();
  }
  buf_ += ']';
  key("nameKinds");
  buf_ += '[';
  for (std::size_t i = 0; i < names.entries.size(); ++i) {
    if (i) buf_ += ',';
    append_int(buf_, static_cast<int>(p_.frame(names.entries[i]).kind));
  }
  buf_ += ']';
}

void Writer::node_array(const NameTable& names, const std::vector<StackId>& nodes, std::int64_t scale) {
  key("nodes");
  buf_ += '[';
  // Depths from the parents' (preorder meets a parent first): a walk to the
  // root per node would be quadratic in an input's stack depth.
  std::vector<std::uint32_t> depth_of(p_.stack_count());
  std::uint32_t previous_depth = 0;  // the root's
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const StackId n = nodes[i];
    const std::uint32_t depth = depth_of[tree_.parent(n).index()] + 1;
    depth_of[n.index()] = depth;
    if (i) buf_ += ',';
    append_int(buf_, names.of_frame[tree_.frame(n).index()]);
    buf_ += ',';
    append_int(buf_, static_cast<std::int64_t>(previous_depth) + 1 - depth);
    buf_ += ',';
    append_int(buf_, tree_.self(n, col_) / scale);
    previous_depth = depth;
    flush();
  }
  buf_ += ']';
}

void Writer::value_array(std::string_view name, std::size_t column, const std::vector<StackId>& nodes,
                         std::int64_t scale) {
  key(name);
  buf_ += '[';
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (i) buf_ += ',';
    append_int(buf_, tree_.self(nodes[i], column) / scale);
    flush();
  }
  buf_ += ']';
}

void Writer::run() {
  require_something_to_draw(tree_, col_);
  const std::vector<StackId> nodes = preorder(tree_);
  const NameTable names = name_table(p_, tree_, nodes);
  const std::int64_t scale = common_divisor(tree_, nodes, {col_, base_});

  const std::size_t marker = kFlameGraphTemplate.find(kDataMarker);
  buf_ += kFlameGraphTemplate.substr(0, marker);
  header_fields();
  name_fields(names);
  int_field("scale", scale);
  int_field("rootSelf", tree_.self(kRootStack, col_) / scale);
  node_array(names, nodes, scale);
  if (base_) {
    int_field("rootBase", tree_.self(kRootStack, *base_) / scale);
    value_array("base", *base_, nodes, scale);
  }
  buf_ += '}';
  buf_ += kFlameGraphTemplate.substr(marker + kDataMarker.size());
  flush(true);
}

}  // namespace

void check_write_options(const WriteOptions& options) {
  const FlameGraphOptions& o = options.flame;
  if (!is_palette(o.colors))
    throw UsageError("--colors " + o.colors + ": expected one of " + std::string(palette_names()));
  if (o.flame_chart) throw UsageError("--flamechart: the HTML flame graph draws the merged call tree only");
  if (!(o.frame_height > 0)) throw UsageError("--height must be positive");
  if (!(o.font_size > 0)) throw UsageError("--fontsize must be positive");
}

void write_flamegraph(const Profile& profile, const WriteOptions& options, std::ostream& out, Diagnostics&) {
  check_write_options(options);
  const FlameGraphOptions& o = options.flame;
  const std::size_t col = options.value ? profile.find_value(*options.value) : profile.default_value_index();
  std::optional<Profile> coarse;
  const Profile* p = &profile;
  if (finer_than(*p, options.granularity)) p = &coarse.emplace(at_granularity(*p, options.granularity));
  // The page needs every frame, however narrow (search finds them), and
  // builds the reversed view itself: the whole tree, never pruned.
  CallTree tree(*p);
  Writer(*p, tree, col, o, out).run();
}

}  // namespace fg::formats::html
