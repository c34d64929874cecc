// fg's own HTML flame graph (formats/html), read back. The page carries the
// call tree as one JSON object in <script type="application/json"
// id="fg-data">: names and their kinds, and the nodes in pre-order, three
// numbers each (name index, levels above "one deeper than the previous
// node", self / scale), with a diff's base self values beside them (see
// formats/html/flamegraph_html.h, the writer's contract).
#include <simdjson.h>

#include <string>
#include <vector>

#include "fg/builder.h"
#include "flamegraph_in.h"
#include "page_text.h"

namespace fg::formats::flamegraph_in {

namespace {

constexpr std::string_view kDataOpen = "<script type=\"application/json\" id=\"fg-data\">";

// The members of the page's data the tree is rebuilt from.
struct PageData {
  std::vector<std::string> names;
  std::vector<std::int64_t> kinds, nodes, base;
  std::int64_t scale = 1, root_self = 0, root_base = 0, decimals = 0;
  std::string type, unit, title;
  bool diff = false;
};

class DataReader {
 public:
  DataReader(const PageText& t, std::size_t at) : t_(t), at_(at) {}

  PageData read(std::string_view json) {
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    if (auto error = parser.parse(simdjson::padded_string(json)).get(doc))
      t_.fail(at_, std::string("malformed page data: ") + simdjson::error_message(error));
    PageData d;
    for (std::string_view s : array(doc, "names")) d.names.emplace_back(s);
    d.kinds = ints(doc, "nameKinds");
    d.nodes = ints(doc, "nodes");
    d.scale = integer(doc, "scale");
    d.root_self = integer(doc, "rootSelf");
    d.decimals = integer(doc, "decimals");
    d.type = string(doc, "type"), d.unit = string(doc, "unit"), d.title = string(doc, "title");
    if (doc["diff"].get(d.diff)) d.diff = false;  // absent: no base
    if (d.diff) d.base = ints(doc, "base"), d.root_base = integer(doc, "rootBase");
    return d;
  }

 private:
  [[noreturn]] void missing(std::string_view key, std::string_view what) const {
    t_.fail(at_, "page data: '" + std::string(key) + "' is not " + std::string(what));
  }
  std::vector<std::string_view> array(simdjson::dom::element doc, std::string_view key) const {
    simdjson::dom::array a;
    if (doc[key].get(a)) missing(key, "an array of strings");
    std::vector<std::string_view> out;
    for (simdjson::dom::element e : a) {
      std::string_view s;
      if (e.get(s)) missing(key, "an array of strings");
      out.push_back(s);
    }
    return out;
  }
  std::vector<std::int64_t> ints(simdjson::dom::element doc, std::string_view key) const {
    simdjson::dom::array a;
    if (doc[key].get(a)) missing(key, "an array of integers");
    std::vector<std::int64_t> out;
    out.reserve(a.size());
    for (simdjson::dom::element e : a) {
      std::int64_t v;
      if (e.get(v)) missing(key, "an array of integers");
      out.push_back(v);
    }
    return out;
  }
  std::int64_t integer(simdjson::dom::element doc, std::string_view key) const {
    std::int64_t v;
    if (doc[key].get(v)) missing(key, "an integer");
    return v;
  }
  std::string string(simdjson::dom::element doc, std::string_view key) const {
    std::string_view s;
    if (doc[key].get(s)) missing(key, "a string");
    return std::string(s);
  }
  const PageText& t_;
  std::size_t at_;
};

// The nodes, pre-order, as stacks with their self values.
void build(const PageText& t, std::size_t at, const PageData& d, ProfileBuilder& b) {
  auto fail = [&](std::size_t node, const std::string& m) {
    t.fail(at, "page data: node " + std::to_string(node) + ": " + m);
  };
  if (d.nodes.size() % 3 != 0 || (d.diff && d.base.size() != d.nodes.size() / 3))
    t.fail(at, "page data: 'nodes' is not three numbers a node, with a base value each");
  if (d.kinds.size() != d.names.size()) t.fail(at, "page data: 'nameKinds' is not one kind a name");
  if (d.scale < 1) t.fail(at, "page data: 'scale' is not positive");
  std::vector<StackId> path{kRootStack};  // the stack at each depth of the previous node
  auto value = [&](std::size_t node, std::int64_t v) {
    std::int64_t out = 0;
    if (v < 0 || __builtin_mul_overflow(v, d.scale, &out)) fail(node, "value out of range");
    return out;
  };
  auto add = [&](std::size_t node, StackId stack, std::int64_t self, std::int64_t base) {
    const std::int64_t values[2] = {value(node, base), value(node, self)};
    if (self != 0 || base != 0) b.add_sample(stack, d.diff ? std::span(values) : std::span(values + 1, 1));
  };
  add(0, kRootStack, d.root_self, d.root_base);
  for (std::size_t i = 0; i < d.nodes.size() / 3; ++i) {
    const std::int64_t name = d.nodes[3 * i], up = d.nodes[3 * i + 1];
    if (name < 0 || static_cast<std::uint64_t>(name) >= d.names.size()) fail(i, "no such name");
    if (up < 0 || static_cast<std::uint64_t>(up) >= path.size()) fail(i, "rises above the root");
    const std::int64_t kind = d.kinds[name];
    if (kind < 0 || kind > static_cast<std::int64_t>(FrameKind::kUnsymbolized)) fail(i, "no such frame kind");
    path.resize(path.size() - up);
    path.push_back(b.stack(path.back(), b.frame(d.names[name], static_cast<FrameKind>(kind))));
    add(i, path.back(), d.nodes[3 * i + 2], d.diff ? d.base[i] : 0);
  }
}

}  // namespace

bool is_fg_page(std::string_view text) { return text.find(kDataOpen) != std::string_view::npos; }

Profile read_fg_page(std::string_view text, const std::string& file) {
  const PageText t(text, file);
  const std::size_t at = t.find(kDataOpen) + kDataOpen.size();
  const std::size_t end = t.find("</script>", at);
  if (end == std::string_view::npos)
    t.fail(t.size(), "the page ends inside its data (no </script>): truncated?");
  const PageData d = DataReader(t, at).read(text.substr(at, end - at));
  if (d.decimals < 0 || d.decimals > 18) t.fail(at, "page data: 'decimals' out of range");
  ValueType vt{d.type, d.unit, ValueRole::kPlain, static_cast<int>(d.decimals)};
  std::vector<ValueType> types{vt};
  if (d.diff) {
    types = {vt, vt};
    types[0].role = ValueRole::kBase, types[1].role = ValueRole::kNew;
  }
  ProfileBuilder b(std::move(types));
  b.metadata().source_format = "html";
  b.metadata().sources.push_back(file);
  if (!d.title.empty()) b.metadata().properties.emplace_back("title", d.title);
  build(t, at, d, b);
  return std::move(b).finish();
}

}  // namespace fg::formats::flamegraph_in
