// The tree layer of the DeepFlow reader: links the flat node records by
// node_id / parent_node_id (in whatever order they came), reports what
// cannot be linked (a missing or second root, duplicate ids, cycles,
// orphans), checks every total, and pushes the nodes into a ProfileBuilder
// depth first, so parents get smaller stack ids than their children.
#include <algorithm>
#include <span>
#include <vector>

#include "fg/builder.h"
#include "fg/bulk_builder.h"
#include "fg/string_pool.h"
#include "formats/deepflow/deepflow.h"
#include "formats/deepflow/node_name.h"
#include "formats/deepflow/response.h"

namespace fg::formats::deepflow {

namespace {

constexpr std::uint32_t kNone = UINT32_MAX;
constexpr FrameId kThreadNode{UINT32_MAX - 1};  // a [t] node that is no frame (--thread-as label|fold)
constexpr std::size_t kListedAtMost = 5;        // nodes named in one message

std::string quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

/// The value column of --deepflow-event, else of fg's own envelope (a
/// "type/unit" the parser checked), else on-cpu.
ValueType value_type_of(const std::optional<std::string>& event, const std::optional<std::string>& written) {
  if (!event && written) {
    std::size_t slash = written->find('/');
    return {written->substr(0, slash), written->substr(slash + 1)};
  }
  const std::string e = event.value_or("on-cpu");
  if (e == "on-cpu") return {"cpu", "microseconds"};
  if (e == "off-cpu") return {"off_cpu", "microseconds"};
  if (e == "mem-alloc") return {"alloc_space", "bytes"};
  if (e == "mem-inuse") return {"inuse_space", "bytes"};
  std::size_t slash = e.find('/');
  if (slash != std::string::npos && slash > 0 && slash + 1 < e.size())
    return {e.substr(0, slash), e.substr(slash + 1)};
  throw UsageError("--deepflow-event " + e + ": expected on-cpu, off-cpu, mem-alloc, mem-inuse or TYPE/UNIT");
}

// node_id -> node, for ids that are views into the parsed input: an open
// addressing table of 8-byte slots (a tag from the hash and the node), which
// stays in cache far better than a node-based map. Never grows: sized for
// all nodes at the start.
class IdIndex {
 public:
  explicit IdIndex(const std::vector<RawNode>& nodes) : nodes_(nodes) {
    std::size_t cap = 16;
    while (cap < nodes.size() * 2) cap *= 2;
    slots_.assign(cap, Slot{0, kNone});
    mask_ = cap - 1;
  }
  /// A cache hint for a coming find(id) or insert() with this hash.
  void prefetch(std::uint64_t h) const { __builtin_prefetch(&slots_[h & mask_]); }
  /// The node with `id` (whose hash_bytes() is h), or kNone.
  std::uint32_t find(std::string_view id, std::uint64_t h) const {
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.node == kNone) return kNone;
      if (s.tag == static_cast<std::uint32_t>(h >> 32) && nodes_[s.node].id == id) return s.node;
    }
  }
  /// Adds `node` under its id (whose hash_bytes() is h); returns the node
  /// already there, or kNone.
  std::uint32_t insert(std::uint32_t node, std::uint64_t h) {
    std::string_view id = nodes_[node].id;
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.node == kNone) {
        s = Slot{static_cast<std::uint32_t>(h >> 32), node};
        return kNone;
      }
      if (s.tag == static_cast<std::uint32_t>(h >> 32) && nodes_[s.node].id == id) return s.node;
    }
  }

 private:
  struct Slot {
    std::uint32_t tag;
    std::uint32_t node;
  };
  const std::vector<RawNode>& nodes_;
  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
};

class Linker {
 public:
  Linker(const Response& r, const ResponseParser& parser, Input& input, const DeepFlowReadOptions& o,
         Diagnostics& d)
      : r_(r), parser_(parser), input_(input), options_(o), diag_(d), parent_(r.nodes.size(), kNone) {}
  Profile run();

 private:
  [[noreturn]] void fail(std::uint32_t node, const std::string& message) const {
    throw ParseError(parser_.position(r_.nodes[node].offset), label(node) + ": " + message);
  }
  std::string label(std::uint32_t node) const { return ResponseParser::node_label(r_, node); }
  std::string described(std::uint32_t node) const { return label(node) + " " + quoted(r_.nodes[node].name); }
  std::uint32_t find_root() const;
  std::vector<std::uint32_t> link(std::uint32_t root);
  void make_children();
  void check_cycles(const std::vector<bool>& reached) const;
  void report_orphans(const std::vector<std::uint32_t>& orphans);
  void check_totals() const;
  void build(ProfileBuilder& b, std::uint32_t root, const std::vector<std::uint32_t>& orphans);
  void push_subtree(ProfileBuilder& b, std::uint32_t top, StackId stack, LabelSetId labels);
  FrameId frame_of(ProfileBuilder& b, std::string_view text);
  void add(ProfileBuilder& b, std::uint32_t node, StackId parent_stack, LabelSetId parent_labels);
  std::vector<bool> reached_from(std::uint32_t root, const std::vector<std::uint32_t>& orphans) const;

  const Response& r_;
  const ResponseParser& parser_;
  Input& input_;
  const DeepFlowReadOptions& options_;
  Diagnostics& diag_;
  std::vector<std::uint32_t> parent_;       // per node; kNone for the root and orphans
  std::vector<std::uint32_t> child_begin_;  // per node + 1, into children_
  std::vector<std::uint32_t> children_;
  std::vector<StackId> stack_of_;  // per node, once pushed
  std::vector<LabelSetId> labels_of_;
  std::vector<FrameId> frame_of_text_;  // by the string id of a node's text
  std::uint64_t unresolved_ = 0;        // distinct unresolved frames
  StringId thread_key_{};
};

std::uint32_t Linker::find_root() const {
  std::uint32_t root = kNone;
  for (std::uint32_t i = 0; i < r_.nodes.size(); ++i) {
    if (r_.nodes[i].parent != "-1") continue;
    if (root != kNone) fail(i, "a second root node (parent_node_id \"-1\"); the first is " + described(root));
    root = i;
  }
  if (root == kNone)
    throw ParseError(parser_.position(r_.list_offset), "no root node: no node has parent_node_id \"-1\"");
  return root;
}

// Sets parent_ from the ids; returns the orphans (nodes whose parent is not
// in the list), in list order.
std::vector<std::uint32_t> Linker::link(std::uint32_t root) {
  const std::uint32_t n = static_cast<std::uint32_t>(r_.nodes.size());
  IdIndex by_id(r_.nodes);
  // Hashes a block ahead of their use, with a cache hint for each slot: the
  // lookups are random accesses, and their misses then overlap.
  constexpr std::uint32_t kAhead = 16;
  std::uint64_t hashes[kAhead];
  auto hash_block = [&](std::uint32_t from, auto key) {
    for (std::uint32_t k = from; k < n && k < from + kAhead; ++k) {
      hashes[k - from] = hash_bytes(key(r_.nodes[k]));
      by_id.prefetch(hashes[k - from]);
    }
  };
  for (std::uint32_t i = 0; i < n; ++i) {
    if (i % kAhead == 0) hash_block(i, [](const RawNode& x) { return x.id; });
    std::uint32_t other = by_id.insert(i, hashes[i % kAhead]);
    if (other != kNone)
      fail(i, "duplicate node_id " + quoted(r_.nodes[i].id) + " (also " + described(other) + ")");
  }
  std::vector<std::uint32_t> orphans;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (i % kAhead == 0) hash_block(i, [](const RawNode& x) { return x.parent; });
    if (i == root) continue;
    std::uint32_t p = by_id.find(r_.nodes[i].parent, hashes[i % kAhead]);
    if (p == kNone)
      orphans.push_back(i);
    else if (p == i)
      fail(i, "the node is its own parent (parent_node_id " + quoted(r_.nodes[i].parent) + ")");
    else
      parent_[i] = p;
  }
  return orphans;
}

void Linker::make_children() {
  const std::size_t n = r_.nodes.size();
  child_begin_.assign(n + 1, 0);
  for (std::uint32_t p : parent_)
    if (p != kNone) ++child_begin_[p + 1];
  for (std::size_t i = 0; i < n; ++i) child_begin_[i + 1] += child_begin_[i];
  children_.resize(child_begin_[n]);
  std::vector<std::uint32_t> fill(child_begin_.begin(), child_begin_.end() - 1);
  for (std::uint32_t i = 0; i < n; ++i)
    if (parent_[i] != kNone) children_[fill[parent_[i]]++] = i;
}

std::vector<bool> Linker::reached_from(std::uint32_t root, const std::vector<std::uint32_t>& orphans) const {
  std::vector<bool> reached(r_.nodes.size(), false);
  std::vector<std::uint32_t> todo(orphans);
  todo.push_back(root);
  while (!todo.empty()) {
    std::uint32_t x = todo.back();
    todo.pop_back();
    reached[x] = true;
    for (std::uint32_t k = child_begin_[x]; k < child_begin_[x + 1]; ++k) todo.push_back(children_[k]);
  }
  return reached;
}

// A node reached neither from the root nor from an orphan has a chain of
// parents that never ends: it is on a cycle or hangs below one.
void Linker::check_cycles(const std::vector<bool>& reached) const {
  for (std::uint32_t i = 0; i < r_.nodes.size(); ++i) {
    if (reached[i]) continue;
    std::vector<std::uint32_t> chain;
    std::vector<bool> on_chain(r_.nodes.size(), false);
    std::uint32_t x = i;
    while (!on_chain[x]) on_chain[x] = true, chain.push_back(x), x = parent_[x];
    std::string path;
    std::size_t start = static_cast<std::size_t>(std::find(chain.begin(), chain.end(), x) - chain.begin());
    for (std::size_t k = start; k < chain.size() && k < start + kListedAtMost; ++k)
      path += label(chain[k]) + " -> ";
    if (chain.size() - start > kListedAtMost) path += "... -> ";
    fail(x, "parent_node_id links form a cycle: " + path + label(x));
  }
}

void Linker::report_orphans(const std::vector<std::uint32_t>& orphans) {
  if (orphans.empty()) return;
  std::string list;
  for (std::size_t k = 0; k < orphans.size() && k < kListedAtMost; ++k) {
    std::uint32_t o = orphans[k];
    list += (k ? ", " : "") + described(o) + " (parent_node_id " + quoted(r_.nodes[o].parent) + ")";
  }
  if (orphans.size() > kListedAtMost)
    list += " and " + std::to_string(orphans.size() - kListedAtMost) + " more";
  const std::string n = std::to_string(orphans.size());
  if (!options_.lenient)
    fail(orphans[0], n + " node(s) name a parent that is not in the list (orphaned): " + list +
                         "; --lenient keeps them under an [orphaned] frame");
  for (std::uint32_t o : orphans)
    diag_.warn(parser_.position(r_.nodes[o].offset), "orphaned node",
               described(o) + ": parent_node_id " + quoted(r_.nodes[o].parent) +
                   " is not in the list; kept under [orphaned]");
}

void Linker::check_totals() const {
  std::vector<std::int64_t> children_total(r_.nodes.size(), 0);
  std::vector<bool> overflow(r_.nodes.size(), false);
  for (std::uint32_t i = 0; i < r_.nodes.size(); ++i) {
    std::uint32_t p = parent_[i];
    if (p != kNone && __builtin_add_overflow(children_total[p], r_.nodes[i].total, &children_total[p]))
      overflow[p] = true;
  }
  for (std::uint32_t i = 0; i < r_.nodes.size(); ++i) {
    const RawNode& n = r_.nodes[i];
    std::int64_t sum;
    if (!overflow[i] && !__builtin_add_overflow(n.self, children_total[i], &sum) && sum == n.total) continue;
    diag_.warn(parser_.position(n.offset), "total mismatch",
               described(i) + ": total_value " + std::to_string(n.total) + " is not self_value " +
                   std::to_string(n.self) + " + the children's total_value " +
                   (overflow[i] ? std::string("(past 2^63)") : std::to_string(children_total[i])));
  }
}

// A node's text is interned once and its frame remembered by the text's
// string id: names repeat across the tree, so most nodes cost one lookup.
FrameId Linker::frame_of(ProfileBuilder& b, std::string_view text) {
  const StringId t = b.intern(text);
  if (t.index() >= frame_of_text_.size())
    frame_of_text_.resize(t.index() + 1 + t.index() / 2, kNoId<FrameId>);
  FrameId& f = frame_of_text_[t.index()];
  if (f != kNoId<FrameId>) return f;
  const NodeName name = parse_node_name(text);
  if (name.role == NodeRole::kThread && options_.thread_as != ThreadMode::kFrame) return f = kThreadNode;
  if (name.unresolved) {
    ++unresolved_;
    f = b.frame(b.function(name.name), name.kind, 0, 0,
                name.module.empty() ? StringId{} : b.intern(name.module));
  } else {
    f = b.frame(name.name, name.kind);
  }
  return f;
}

void Linker::add(ProfileBuilder& b, std::uint32_t node, StackId parent_stack, LabelSetId parent_labels) {
  const RawNode& n = r_.nodes[node];
  const std::span<const std::int64_t> self(&n.self, 1);
  const FrameId f = frame_of(b, n.name);
  if (f == kThreadNode) {
    // Not a frame: the thread's subtree hangs from the thread's parent.
    LabelSetId labels = parent_labels;
    if (options_.thread_as == ThreadMode::kLabel)
      labels = b.labels({Label{thread_key_, b.intern(parse_node_name(n.name).bare)}});
    if (n.self != 0) b.add_sample(parent_stack, self, labels);
    stack_of_[node] = parent_stack;
    labels_of_[node] = labels;
    return;
  }
  stack_of_[node] = b.add_node(parent_stack, f, self, parent_labels);
  labels_of_[node] = parent_labels;
}

// Depth first from `top`: every node is added after its parent.
void Linker::push_subtree(ProfileBuilder& b, std::uint32_t top, StackId stack, LabelSetId labels) {
  add(b, top, stack, labels);
  std::vector<std::uint32_t> todo(children_.begin() + child_begin_[top],
                                  children_.begin() + child_begin_[top + 1]);
  while (!todo.empty()) {
    std::uint32_t x = todo.back();
    todo.pop_back();
    add(b, x, stack_of_[parent_[x]], labels_of_[parent_[x]]);
    for (std::uint32_t k = child_begin_[x]; k < child_begin_[x + 1]; ++k) todo.push_back(children_[k]);
  }
}

void Linker::build(ProfileBuilder& b, std::uint32_t root, const std::vector<std::uint32_t>& orphans) {
  const std::size_t n = r_.nodes.size();
  bulk::reserve_stacks(b, n + 2);
  thread_key_ = b.intern("thread");
  stack_of_.assign(n, kRootStack);
  labels_of_.assign(n, LabelSetId{});
  const RawNode& top = r_.nodes[root];
  if (top.self != 0) b.add_sample(kRootStack, std::span<const std::int64_t>(&top.self, 1));
  for (std::uint32_t k = child_begin_[root]; k < child_begin_[root + 1]; ++k)
    push_subtree(b, children_[k], kRootStack, LabelSetId{});
  if (!orphans.empty()) {
    StackId orphaned = b.stack(kRootStack, b.frame("[orphaned]"));
    for (std::uint32_t o : orphans) push_subtree(b, o, orphaned, LabelSetId{});
  }
}

Profile Linker::run() {
  ProfileBuilder b({value_type_of(options_.event, r_.value_type)});
  b.metadata().source_format = "json";
  b.metadata().sources.push_back(input_.name());
  if (r_.nodes.empty()) return std::move(b).finish();
  const std::uint32_t root = find_root();
  const std::vector<std::uint32_t> orphans = link(root);
  make_children();
  check_cycles(reached_from(root, orphans));
  report_orphans(orphans);
  check_totals();
  b.metadata().properties.emplace_back("root", std::string(r_.nodes[root].name));
  try {
    build(b, root, orphans);
  } catch (const ParseError&) {
    throw;
  } catch (const Error& e) {  // values past 2^63 in all
    throw ParseError(parser_.position(r_.list_offset), e.what());
  }
  if (unresolved_ > 0) b.metadata().properties.emplace_back("unresolved frames", std::to_string(unresolved_));
  return std::move(b).finish();
}

}  // namespace

Sniff sniff(std::string_view head, std::string_view) {
  // A JSON object ({ then a key) or a list of objects ([ then {): "[unknown];main 3",
  // the start of a folded line, is neither.
  constexpr std::string_view kBlanks = " \t\r\n";
  std::size_t i = head.find_first_not_of(kBlanks);
  if (i == std::string_view::npos || (head[i] != '{' && head[i] != '[')) return Sniff::kNo;
  std::size_t j = head.find_first_not_of(kBlanks, i + 1);
  if (j != std::string_view::npos && head[j] != (head[i] == '{' ? '"' : '{') &&
      head[j] != (head[i] == '{' ? '}' : ']'))
    return Sniff::kNo;
  for (std::string_view key : {"\"OPT_STATUS\"", "\"profile_location_str\"", "\"parent_node_id\""})
    if (head.find(key) != std::string_view::npos) return Sniff::kYes;
  return Sniff::kMaybe;
}

Profile read(Input& input, const ReadOptions& options, Diagnostics& diagnostics) {
  if (options.deepflow.event) value_type_of(options.deepflow.event, {});  // a bad name fails before reading
  ResponseParser parser(input);
  const Response response = parser.parse();
  if (response.schema_version > kSchemaVersion)
    diagnostics.warn(parser.position(response.schema_version_offset), "newer schema",
                     "written by a newer fg (fg_schema_version " + std::to_string(response.schema_version) +
                         "); read as version " + std::to_string(kSchemaVersion));
  return Linker(response, parser, input, options.deepflow, diagnostics).run();
}

}  // namespace fg::formats::deepflow
