// The node/parent JSON writer: a profile's call tree as DeepFlow's
// ProfileTracing node list. Siblings whose written names are equal (a
// function at several lines, say) are one node, as DeepFlow would have
// them, since a node's id is the hash of its path of names.
#include <algorithm>
#include <optional>

#include "fg/call_tree.h"
#include "fg/granularity.h"
#include "fg/whole_units.h"
#include "formats/common/json_escape.h"
#include "formats/common/number_format.h"
#include "formats/deepflow/deepflow.h"
#include "formats/deepflow/node_id.h"
#include "formats/deepflow/node_name.h"

namespace fg::formats::deepflow {

namespace {

// The root's name: --root-name, else the name a DeepFlow input gave it,
// else the stem of the one input file, else DeepFlow's host-wide "Total".
std::string root_name(const Profile& p, const JsonWriteOptions& o) {
  if (!o.root_name.empty()) return o.root_name;
  for (const auto& [key, value] : p.metadata().properties)
    if (key == "root") return value;
  const auto& sources = p.metadata().sources;
  if (sources.size() == 1 && sources[0] != "-" && sources[0] != "<stdin>") {
    std::string_view s = sources[0];
    s = s.substr(s.find_last_of('/') == std::string_view::npos ? 0 : s.find_last_of('/') + 1);
    s = s.substr(0, s.find('.'));
    if (!s.empty()) return std::string(s);
  }
  return "Total";
}

class Writer {
 public:
  Writer(const Profile& p, const CallTree& tree, std::size_t column, std::ostream& out)
      : p_(p),
        tree_(tree),
        col_(column),
        base_(p.base_of(column)),
        out_(out),
        texts_(p.frame_count()),
        made_(p.frame_count()) {}

  /// Writes the node list, root first; returns the invalid UTF-8 sequences replaced.
  std::uint64_t run(const std::string& root);

 private:
  struct Work {
    std::vector<StackId> nodes;  // tree nodes written as one
    std::string_view text;       // in texts_, which never moves
    std::size_t depth = 0;       // 0 for the root's children
  };

  void record(std::string_view name, std::string_view id, std::string_view parent,
              const std::vector<StackId>& nodes);
  // A node's value in column `c`: self or total, summed over the tree
  // nodes written as one.
  std::int64_t sum(const std::vector<StackId>& nodes, std::size_t c, bool total) const {
    std::int64_t v = 0;
    for (StackId n : nodes) v += total ? tree_.total(n, c) : tree_.self(n, c);
    return v;
  }
  void visit(const Work& w);
  void expand(const std::vector<StackId>& nodes, std::size_t depth);
  void flush() {
    out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }
  // A frame's profile_location_str as a reader will decode it (invalid
  // UTF-8 already replaced, and counted once per frame), made once per frame.
  const std::string& text_of(FrameId f) {
    if (!made_[f.index()]) {
      std::string name, scratch;
      append_written_name(name, p_.frame_name(f), p_.frame(f).kind);
      std::string_view valid = as_valid_utf8(name, scratch, replaced_);
      texts_[f.index()] =
          valid.size() == name.size() && scratch.empty() ? std::move(name) : std::string(valid);
      made_[f.index()] = true;
    }
    return texts_[f.index()];
  }

  const Profile& p_;
  const CallTree& tree_;
  std::size_t col_;
  std::optional<std::size_t> base_;  // a differential profile's base column
  std::ostream& out_;
  std::vector<std::string> texts_;
  std::vector<bool> made_;
  std::vector<Work> work_;
  std::vector<Sha1> hashes_;      // by depth: the hash of the path down to there
  std::vector<std::string> ids_;  // by depth: the node id there
  std::string buf_;
  bool first_ = true;
  std::uint64_t replaced_ = 0;
};

void Writer::record(std::string_view name, std::string_view id, std::string_view parent,
                    const std::vector<StackId>& nodes) {
  const std::int64_t self = sum(nodes, col_, false), total = sum(nodes, col_, true);
  buf_ += first_ ? "{\"profile_location_str\":" : ",{\"profile_location_str\":";
  first_ = false;
  append_json_string(buf_, name, JsonEscaping::kGo, replaced_);
  buf_ += ",\"node_id\":\"";
  buf_ += id;
  buf_ += "\",\"parent_node_id\":\"";
  buf_ += parent;  // "-1", "" or an id: nothing to escape
  buf_ += "\",\"self_value\":";
  append_int(buf_, self);
  buf_ += ",\"total_value\":";
  append_int(buf_, total);
  if (base_) {  // fg-diff: the base beside the new values, and the change
    const std::int64_t base_total = sum(nodes, *base_, true);
    buf_ += ",\"base_self_value\":";
    append_int(buf_, sum(nodes, *base_, false));
    buf_ += ",\"base_total_value\":";
    append_int(buf_, base_total);
    buf_ += ",\"delta_total_value\":";
    append_int(buf_, total - base_total);
  }
  buf_ += '}';
  if (buf_.size() > (1 << 20)) flush();
}

void Writer::visit(const Work& w) {
  hashes_.resize(w.depth + 1);
  ids_.resize(w.depth + 1);
  hashes_[w.depth] = w.depth == 0 ? node_id_hasher() : hashes_[w.depth - 1];
  if (w.depth > 0) hashes_[w.depth].update(";");
  hashes_[w.depth].update(w.text);
  ids_[w.depth] = node_id(hashes_[w.depth]);
  record(w.text, ids_[w.depth], w.depth == 0 ? std::string_view() : ids_[w.depth - 1], w.nodes);
  expand(w.nodes, w.depth + 1);
}

// Pushes the children of a group, grouped by written name, last name first
// so that they are visited in bytewise order. Children with nothing in the
// column are left out, with all below them.
void Writer::expand(const std::vector<StackId>& nodes, std::size_t depth) {
  std::vector<std::pair<std::string_view, StackId>> kids;
  for (StackId n : nodes)
    for (StackId c : tree_.children(n))
      if (tree_.total(c, col_) != 0 ||
          (base_ && tree_.total(c, *base_) != 0))  // removed paths stay in a diff
        kids.emplace_back(text_of(tree_.frame(c)), c);
  std::sort(kids.begin(), kids.end());
  std::size_t end = kids.size();
  while (end > 0) {
    std::size_t begin = end - 1;
    while (begin > 0 && kids[begin - 1].first == kids[end - 1].first) --begin;
    Work w;
    w.text = kids[begin].first;
    w.depth = depth;
    for (std::size_t i = begin; i < end; ++i) w.nodes.push_back(kids[i].second);
    work_.push_back(std::move(w));
    end = begin;
  }
}

std::uint64_t Writer::run(const std::string& root) {
  record(root, "", "-1", {kRootStack});
  expand({kRootStack}, 0);
  while (!work_.empty()) {
    Work w = std::move(work_.back());
    work_.pop_back();
    visit(w);
  }
  flush();
  return replaced_;
}

}  // namespace

void write(const Profile& given, const WriteOptions& options, std::ostream& out, Diagnostics& diagnostics) {
  std::optional<Profile> whole, coarse;
  // Node values are integers (DeepFlow's int64 fields).
  const Profile& profile = in_whole_units(given, whole, "node/parent JSON", diagnostics);
  const Profile& p = finer_than(profile, options.granularity)
                         ? coarse.emplace(at_granularity(profile, options.granularity))
                         : profile;
  const std::size_t col = options.value ? p.find_value(*options.value) : p.default_value_index();
  const CallTree tree(p);
  const bool envelope = options.json.envelope;
  if (envelope) out << "{\"OPT_STATUS\":\"SUCCESS\",\"DESCRIPTION\":\"\",\"result\":";
  out << '[';
  std::uint64_t replaced = Writer(p, tree, col, out).run(root_name(p, options.json));
  out << ']';
  if (envelope) {
    const ValueType& vt = p.value_types()[col];
    std::string type;
    append_json_string(type, vt.type + "/" + vt.unit, JsonEscaping::kGo, replaced);
    out << ",\"debug\":null,\"fg_schema_version\":" << kSchemaVersion << ",\"fg_value_type\":" << type << '}';
  }
  out << '\n';
  if (replaced > 0)
    diagnostics.warn("invalid UTF-8",
                     std::to_string(replaced) + " invalid UTF-8 sequence(s) in names written as U+FFFD");
}

}  // namespace fg::formats::deepflow
