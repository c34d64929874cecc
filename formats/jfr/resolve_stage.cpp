// The resolve stage of the JFR reader: a chunk's samples' stacks, frames
// and labels into the profile's builder, of the trees and events the parse
// stage hands over, and the frame kinds of the Java tiers decided at the end.
#include <algorithm>

#include "fg/bulk_builder.h"
#include "fg/java_frames.h"
#include "fg/parallel.h"
#include "formats/jfr/reader.h"

namespace fg::formats::jfr::detail {

// At a chunk's end: the weight through each node of its trace tree, added
// to the tier of the node's frame at the node's stack.
void Reader::add_tier_weights() {
  const ChunkResolver& r = *chunk_.resolve;
  const TraceTree& tree = chunk_.parsed->tree;
  const auto nodes = static_cast<std::uint32_t>(tree.node_count());
  // A node's parent was made before it.
  for (std::uint32_t n = nodes; n-- > 1;) through_[tree.node(n).parent] += through_[n];
  tier_weights_.resize(builder_.stack_count());
  // On two threads, each adding to the stacks of one of StackTiers' sets.
  const auto add = [&](unsigned set) {
    for (std::uint32_t n = 1; n < nodes; ++n) {
      const StackId s = r.node_stack(n);
      if (s != kNoId<StackId> && StackTiers::set_of(s) == set)
        tier_weights_.add(s, r.tier(tree.node(n).frame), through_[n]);
    }
  };
  run_beside(
      {.items = nodes}, [&] { add(1); }, [&] { add(0); });
}

// Each stack's frame, with the stand-ins given their kinds: decided on two
// threads, each for half the stacks, then the frames of the kinds other
// than JIT made in stack order.
std::vector<FrameId> Reader::decided_frames() {
  const Profile& p = bulk::peek(builder_);
  const std::size_t count = p.stack_count();
  std::vector<FrameId> frames(count);
  struct Decided {
    StackId stack;
    FrameKind kind;
  };
  std::array<std::vector<Decided>, 2> others;  // by half
  const auto decide = [&](std::size_t from, std::size_t to, std::vector<Decided>& out) {
    for (const StackId s :
         IdRange<StackId>(static_cast<std::uint32_t>(from), static_cast<std::uint32_t>(to))) {
      const FrameId f = p.stack(s).frame;
      frames[s.index()] = f;
      if (s != kRootStack && f.index() < stand_ins_.size() && stand_ins_[f.index()]) {
        const FrameKind kind = tier_weights_.at(s).decide(FrameKind::kJit);
        if (kind != FrameKind::kJit) out.push_back({s, kind});
      }
    }
  };
  run_beside(
      {.items = count}, [&] { decide(count / 2, count, others[1]); },
      [&] { decide(0, count / 2, others[0]); });
  U64Map decided;  // stand-in << 8 | kind -> frame
  for (const std::vector<Decided>& half : others)
    for (const Decided& d : half) {
      const FrameId f = frames[d.stack.index()];
      const std::uint64_t key = std::uint64_t{f.index()} << 8 | static_cast<std::uint8_t>(d.kind);
      FrameId made{decided.find(key)};
      if (made == kNoId<FrameId>) {
        const Frame& fr = p.frame(f);
        made = builder_.frame(fr.function, d.kind, fr.line, fr.address, fr.module);
        decided.insert(key, made.index());
      }
      frames[d.stack.index()] = made;
    }
  return frames;
}

void Reader::take(Parsed&& p) {
  try {
    if (p.chunk) return begin_chunk(std::move(p.chunk));
    if (!opt_.leak && !p.folded) fold_by_node(p.events, fold_slots_);  // --leak keeps each event
    add_events(chunk_, p.events, p.nodes);
    if (p.tail) end_chunk(std::move(*p.tail));
  } catch (const ParseError& e) {
    throw ParseError(e.position(), "chunk " + std::to_string(p.index + 1) + ": " + e.message());
  }
}

void Reader::begin_chunk(std::shared_ptr<ParsedChunk> pc) {
  summary_.begin_chunk(pc->header, pc->meta);
  chunk_.parsed = std::move(pc);
  const TraceTree& tree = chunk_.parsed->tree;
  chunk_.resolve.emplace(builder_, chunk_.parsed->pools, tree, naming_, opt_.threads,
                         stand_in_tiers_ ? &stand_ins_ : nullptr);
  if (stand_in_tiers_) {
    through_.assign(tree.node_count(), 0);
    // Room for the stacks the chunk's nodes may make, given as they are
    // made (add_events()), not all at the chunk's end.
    tier_weights_.reserve(builder_.stack_count() + tree.node_count());
  }
}

void Reader::end_chunk(ChunkTail&& tail) {
  for (auto& [name, n] : tail.counts) summary_.type_counts[name] += n;
  for (auto& [key, text] : tail.info) summary_.info.try_emplace(key, std::move(text));
  leaks_.end_chunk();
  summary_.truncated += tail.truncated;
  if (stand_in_tiers_) add_tier_weights();
  chunk_.resolve.reset();
  {  // the parse stage let go of the chunk before it handed over the tail
    std::lock_guard lock(spare_mutex_);
    spare_.emplace(SpareRoom{std::move(chunk_.parsed->pools), std::move(chunk_.parsed->tree)});
  }
  chunk_.parsed.reset();
}

// A batch of events in two passes: their stacks and labels first, then
// their samples. Stacks, and samples by stack and labels, sit in tables of
// millions, looked up at random: each pass fetches its lookups a few events
// ahead, so that their cache misses overlap. The builder sees the same calls
// in the same order as event by event.
void Reader::add_events(ChunkState& st, const std::vector<DecodedEvent>& events,
                        const std::vector<NewNode>& nodes) {
  constexpr std::size_t kAheadBy = 8;
  ready_.clear();
  if (!opt_.threads) st.resolve->find_made(nodes.data(), nodes.size());
  std::size_t made = 0;  // of `nodes`
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (i + kAheadBy < events.size()) st.resolve->prefetch(events[i + kAheadBy].node);
    if (made + events[i].new_nodes > nodes.size())
      throw Error("internal: event lists more nodes than were handed over");
    st.resolve->make(nodes.data() + made, events[i].new_nodes);
    made += events[i].new_nodes;
    Ready r;
    if (on_event(st, events[i], r)) ready_.push_back(r);
  }
  const std::size_t n = builder_.value_count();
  for (std::size_t i = 0; i < ready_.size(); ++i) {
    if (i + 2 * kAheadBy < ready_.size()) {
      const Ready& r = ready_[i + 2 * kAheadBy];
      bulk::prefetch_sample(builder_, r.stack, r.labels);
      if (stand_in_tiers_ && r.node != U64Map::kMissing) __builtin_prefetch(&through_[r.node]);
    }
    if (i + kAheadBy < ready_.size() && ready_[i + kAheadBy].labels == LabelSetId{})
      bulk::prefetch_unlabeled_values(builder_, ready_[i + kAheadBy].stack);
    builder_.add_sample(ready_[i].stack, std::span<const std::int64_t>(ready_[i].values, n),
                        ready_[i].labels);
    if (stand_in_tiers_) through_[ready_[i].node] += ready_[i].values[column_];
  }
  if (stand_in_tiers_) tier_weights_.resize(builder_.stack_count());
}

// The sample of a folded event, into `out`; false when it adds none (no
// stack, or a malloc or free kept for --leak).
bool Reader::on_event(ChunkState& st, const DecodedEvent& e, Ready& out) {
  ReadSummary::Selected& sel = summary_.selected[static_cast<std::size_t>(e.type)];
  sel.events += e.events;
  sel.samples += e.samples;
  StackId stack = st.resolve->stack(e.node, e.thread);
  const LabelSetId labels =
      labels_ ? st.resolve->labels(e.thread, is_sample(e.type) && e.has_state, e.state) : LabelSetId{};
  if (opt_.leak) {  // a free counts with or without a stack
    std::optional<LeakTracker::Malloc> m;
    if (e.type == EventType::kMalloc) {
      const std::optional<StackId> s = stack == ChunkResolver::kNoStack ? std::nullopt : std::optional(stack);
      m = LeakTracker::Malloc{e.ns, s, labels, e.values[1]};
    }
    leaks_.add(e.ticks, e.ns, e.address, m);
    return false;
  }
  if (stack == ChunkResolver::kNoStack) {
    summary_.no_stack += e.events;
    return false;
  }
  if (e.cls != 0)  // outside a TLAB: `_[k]`, as the converter marks it
    stack = builder_.stack(stack, st.resolve->class_frame(e.cls, e.outside_tlab));
  out.stack = stack;
  out.labels = labels;
  out.node = e.node;
  out.values[0] = e.values[0];
  out.values[1] = e.values[1];
  return true;
}

void Reader::finish_leaks() {
  for (const LeakTracker::Malloc& m : leaks_.leaks()) {
    if (!m.stack) {
      ++summary_.no_stack;
      continue;
    }
    const std::int64_t values[2] = {1, m.size};
    builder_.add_sample(*m.stack, values, m.labels);
  }
}

}  // namespace fg::formats::jfr::detail
