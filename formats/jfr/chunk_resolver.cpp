#include "formats/jfr/chunk_resolver.h"

#include <algorithm>

#include "fg/bulk_builder.h"
#include "fg/java_frames.h"
#include "formats/jfr/semantics.h"

namespace fg::formats::jfr {

std::size_t ChunkResolver::FrameKeyHash::operator()(const FrameKey& k) const {
  std::uint64_t h = k.method * 0x9E3779B97F4A7C15ull ^ (k.type + 0x632BE59BD9B4E019ull);
  h ^= (std::uint64_t{static_cast<std::uint32_t>(k.line)} << 32 | static_cast<std::uint32_t>(k.bci)) *
       0xC2B2AE3D27D4EB4Full;
  return static_cast<std::size_t>(h ^ (h >> 29));
}

ChunkResolver::ChunkResolver(ProfileBuilder& builder, const Pools& pools, const TraceTree& tree,
                             const NamingOptions& naming, bool threads, std::vector<bool>* stand_ins)
    : builder_(builder),
      pools_(pools),
      tree_(tree),
      naming_(naming),
      threads_(threads),
      stand_ins_(threads ? nullptr : stand_ins),
      kernel_known_(knows_kernel(pools)),
      frames_by_index_(pools.frames.size(), kNoId<FrameId>),
      kinds_by_index_(pools.frames.size(), FrameKind::kNative),
      node_stacks_(threads ? 0 : tree.node_count(), kNoId<StackId>),
      rounds_(threads ? 0 : tree.node_count(), 0) {}

void ChunkResolver::find_made(const NewNode* nodes, std::size_t count) {
  // A node's round is its parent's + 1 when its parent is listed too (so
  // not made yet), else 0; rounds past 255 are one, in list order, where
  // each parent still comes before its children.
  constexpr unsigned kRounds = 256;
  round_starts_.assign(kRounds + 1, 0);
  for (const NewNode* n = nodes; n != nodes + count; ++n) {
    const bool listed_parent = n->parent != 0 && node_stacks_[n->parent] == kNoId<StackId>;
    const unsigned r = listed_parent ? std::min(rounds_[n->parent] + 1u, kRounds - 1) : 0;
    rounds_[n->node] = static_cast<std::uint8_t>(r);
    ++round_starts_[r + 1];
  }
  for (unsigned r = 0; r < kRounds; ++r) round_starts_[r + 1] += round_starts_[r];
  by_round_.resize(count);
  {
    std::vector<std::uint32_t>& at = round_starts_;  // each round's next place, then moved back
    for (const NewNode* n = nodes; n != nodes + count; ++n) by_round_[at[rounds_[n->node]]++] = n;
    for (unsigned r = kRounds; r-- > 1;) at[r] = at[r - 1];
    at[0] = 0;
  }
  // In each round, a node's parent stack is known (found in an earlier
  // round or made before), or the parent is new and so is the node.
  constexpr std::size_t kAheadBy = 8;
  const auto parent_and_frame = [&](const NewNode& n, StackId& parent, FrameId& frame) {
    parent = parent_stack(n.parent);
    frame = frames_by_index_[n.frame];
    return parent != kNoId<StackId> && frame != kNoId<FrameId>;
  };
  for (unsigned r = 0; r < kRounds; ++r) {
    const std::size_t begin = round_starts_[r], end = round_starts_[r + 1];
    for (std::size_t i = begin; i < end; ++i) {
      if (i + 2 * kAheadBy < end) __builtin_prefetch(&node_stacks_[by_round_[i + 2 * kAheadBy]->parent]);
      StackId parent;
      FrameId frame;
      if (i + kAheadBy < end && parent_and_frame(*by_round_[i + kAheadBy], parent, frame))
        bulk::prefetch_stack(builder_, parent, frame);
      const NewNode& n = *by_round_[i];
      if (parent_and_frame(n, parent, frame))
        node_stacks_[n.node] = bulk::find_stack(builder_, parent, frame);
    }
  }
}

NodeLister::NodeLister(const TraceTree& tree)
    : tree_(tree), used_(tree.trace_count()), claimed_(tree.node_count()) {}

std::uint32_t NodeLister::leaf(std::uint32_t position, bool list, std::vector<NewNode>& out,
                               std::uint32_t& listed) {
  listed = 0;
  if (position == U64Map::kMissing) return U64Map::kMissing;
  const StackTraceRef& t = tree_.at(position);
  if (!used_[position]) {
    used_[position] = true;
    if (t.truncated) ++truncated_;
  }
  if (!list) return t.node;
  path_.clear();
  for (std::uint32_t n = t.node; n != 0 && !claimed_[n]; n = tree_.node(n).parent) {
    claimed_[n] = true;
    path_.push_back(n);
  }
  for (std::size_t i = path_.size(); i-- > 0;) {
    const TraceNode& n = tree_.node(path_[i]);
    out.push_back({path_[i], n.parent, n.frame});
  }
  listed = static_cast<std::uint32_t>(path_.size());
  return t.node;
}

StackId ChunkResolver::thread_stack(std::uint32_t leaf, std::uint64_t thread) {
  if (const StackId known = stacks_.find(leaf, thread); known != kNoId<StackId>) return known;
  StackId s =
      builder_.stack(kRootStack, builder_.frame(thread_frame_name(thread_name(pools_, thread), thread)));
  path_.clear();
  for (std::uint32_t n = leaf; n != 0; n = tree_.node(n).parent) path_.push_back(n);
  for (std::size_t i = path_.size(); i-- > 0;) s = builder_.stack(s, frame_of(tree_.node(path_[i]).frame));
  stacks_.insert(leaf, thread, s);
  return s;
}

// Without --lines and --bci the pools hold one frame per method and type
// (read_constant_pools' keep_lines), each made once here. With them, the
// pools tell apart line and bci both, and frames that differ only in the
// one not named (the bci, with --lines alone) are one model frame.
FrameId ChunkResolver::frame_of_slow(std::uint32_t i) {
  const FrameRef& f = pools_.frames[i];
  const FrameKind kind = frame_kind(pools_.enum_name("jdk.types.FrameType", f.type), f.type);
  kinds_by_index_[i] = kind;
  FrameId id;
  if (naming_.lines || naming_.bci) {
    const FrameKey key{f.method, f.type, naming_.lines ? f.line : 0, naming_.bci ? f.bci : 0};
    auto [it, fresh] = frames_.try_emplace(key, 0);
    if (fresh) it->second = make_frame(f, kind);
    id = it->second;
  } else {
    id = make_frame(f, kind);
  }
  return frames_by_index_[i] = id;
}

FrameId ChunkResolver::make_frame(const FrameRef& f, FrameKind kind) {
  // --lines is the converter's naming option: the line is part of the name
  // (as jfrconv writes it), so the frame does not carry it a second time as
  // its line, which views at line granularity would print again.
  const std::string name = frame_name(pools_, f, kind, kernel_known_, naming_);
  const bool stand_in = stand_ins_ && is_java_tier(kind);
  const FrameId id = builder_.frame(builder_.function(name), stand_in ? FrameKind::kJit : kind);
  if (stand_in) {
    if (id.index() >= stand_ins_->size()) stand_ins_->resize(std::size_t{id.index()} + 1);
    (*stand_ins_)[id.index()] = true;
  }
  return id;
}

FrameId ChunkResolver::class_frame(std::uint64_t cls, bool outside_tlab) {
  if (const FrameId known = class_frames_.find(cls, outside_tlab); known != kNoId<FrameId>) return known;
  const FrameId id = builder_.frame(class_frame_name(pools_, cls, naming_), class_frame_kind(outside_tlab));
  class_frames_.insert(cls, outside_tlab, id);
  return id;
}

LabelSetId ChunkResolver::labels(std::uint64_t thread, bool with_state, std::uint64_t state) {
  const std::uint64_t state_key = with_state ? state + 1 : 0;
  if (last_labels_.is(thread, state_key)) return last_labels_.id;
  if (const LabelSetId known = labels_.find(thread, state_key); known != kNoId<LabelSetId>) {
    last_labels_ = {thread, state_key, known};
    return known;
  }
  const LabelSetId id = builder_.labels(event_labels(builder_, pools_, thread, with_state, state));
  labels_.insert(thread, state_key, id);
  last_labels_ = {thread, state_key, id};
  return id;
}

}  // namespace fg::formats::jfr
