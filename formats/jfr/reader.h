// The JFR reader's two stages, inside formats/jfr: the parse stage reads
// each chunk's pools, builds its trace tree and reads its events
// (parse_stage.cpp); the resolve stage makes the profile's stacks, frames
// and samples of them (resolve_stage.cpp). Reader::run() (jfr.cpp) runs
// them on two threads; data flows one way, Parsed pieces handed from the
// parse stage to the resolve stage, and neither waits for the other's
// results.
#pragma once

#include <algorithm>
#include <array>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "fg/builder.h"
#include "fg/java_frames.h"
#include "formats/jfr/chunk.h"
#include "formats/jfr/chunk_resolver.h"
#include "formats/jfr/constant_pools.h"
#include "formats/jfr/cursor.h"
#include "formats/jfr/events.h"
#include "formats/jfr/jfr.h"
#include "formats/jfr/metadata.h"
#include "formats/jfr/naming.h"
#include "formats/jfr/samples.h"
#include "formats/jfr/semantics.h"

namespace fg::formats::jfr::detail {

// A chunk as the parse stage hands it over: its header, its metadata, its
// pools and the tree of its stack traces, which neither stage changes after
// that; nothing of the file's bytes, which the parse stage lets go of once
// the chunk's events are read.
struct ParsedChunk {
  std::size_t index = 0;
  ChunkHeader header;
  ChunkMetadata meta;
  Pools pools;
  TraceTree tree;
};

// A finished chunk's pools and tree, which the next chunk reuses for their
// capacity (chunks are alike): fresh pages cost a fault and a clear each.
struct SpareRoom {
  Pools pools;
  TraceTree tree;
};

// What the parse stage found in a chunk besides the selected events.
struct ChunkTail {
  std::vector<std::pair<std::string, std::uint64_t>> counts;  // events by type name
  std::vector<std::pair<std::string, std::string>> info;      // jvm_name, jvm_version, os
  std::uint64_t truncated = 0;  // stack traces cut by the recorder, among those used
};

// One hand-off from the parse stage, in file order: the chunk (its pools
// read and its tree built), some of its events, or its end.
struct Parsed {
  std::size_t index = 0;  // of the chunk
  std::shared_ptr<ParsedChunk> chunk;
  std::vector<DecodedEvent> events;
  std::vector<NewNode> nodes;  // the events' new nodes, in order
  std::optional<ChunkTail> tail;
  bool folded = false;  // the events were folded by node (fold_by_node()) already
};

// The weight through each stack of stand-in frames, by the tiers of the
// trace nodes that made it (TierWeights, as merge_compilation_kinds()
// keeps them). Most stacks are made by nodes of one tier: their weight is
// kept in a table of 9 bytes a stack, which a million stacks fill in a
// few milliseconds where four counters a stack took three times as long;
// those of several tiers get four counters in a table of their own.
class StackTiers {
 public:
  void reserve(std::size_t stacks) {
    weight_.reserve(stacks);
    tier_.reserve(stacks);
  }
  void resize(std::size_t stacks) {
    weight_.resize(stacks, 0);
    tier_.resize(stacks, kNone);
  }
  // Stacks come in two sets, alternate runs of 2^kRunBits (so that two
  // threads seldom write to one cache line), whose mixed weights are kept
  // apart: two threads may add to the stacks of one set each.
  static constexpr unsigned kRunBits = 12;
  static unsigned set_of(StackId s) { return s.index() >> kRunBits & 1; }
  void add(StackId id, FrameKind tier, std::int64_t weight) {
    const std::uint32_t s = id.index();
    std::uint8_t& t = tier_[s];
    const auto k = static_cast<std::uint8_t>(tier);
    if (t == kNone) {
      t = k;
      weight_[s] = weight;
    } else if (t == k) {
      weight_[s] += weight;
    } else if (t == kMixed) {
      mixed(id)[static_cast<std::size_t>(weight_[s])].add(tier, weight);
    } else {
      std::vector<TierWeights>& m = mixed(id);
      m.emplace_back();
      m.back().add(static_cast<FrameKind>(t), weight_[s]);
      m.back().add(tier, weight);
      weight_[s] = static_cast<std::int64_t>(m.size() - 1);
      t = kMixed;
    }
  }
  TierWeights at(StackId id) const {
    const std::uint32_t s = id.index();
    if (s >= tier_.size() || tier_[s] == kNone) return {};
    if (tier_[s] == kMixed) return mixed(id)[static_cast<std::size_t>(weight_[s])];
    TierWeights w;
    w.add(static_cast<FrameKind>(tier_[s]), weight_[s]);
    return w;
  }

 private:
  static constexpr std::uint8_t kNone = 0xFF, kMixed = 0xFE;
  static_assert(static_cast<std::uint8_t>(FrameKind::kLibrary) < kMixed, "FrameKind values are small");
  // A stack of one tier has its weight here; a mixed stack (a recording
  // whose methods ran in several tiers has millions) the index of its
  // weights in mixed(s), its set's table.
  std::vector<std::int64_t> weight_;
  std::vector<std::uint8_t> tier_;                 // kNone, kMixed or the FrameKind of every weight
  std::array<std::vector<TierWeights>, 2> mixed_;  // by set_of()
  std::vector<TierWeights>& mixed(StackId s) { return mixed_[set_of(s)]; }
  const std::vector<TierWeights>& mixed(StackId s) const { return mixed_[set_of(s)]; }
};

// What the resolve stage keeps of the chunk whose events it is adding.
struct ChunkState {
  std::shared_ptr<ParsedChunk> parsed;
  std::optional<ChunkResolver> resolve;
};

// How the parse stage hands over.
using Emit = std::function<void(Parsed&&)>;

// The batch's samples of one leaf node (traces the pools tell apart only
// by what they merge: lines, bci), thread, state and class folded into the
// first of them, as ChunkSamples folds those of one trace: a third fewer
// samples to add. A sample folded away has no new nodes (its node was
// listed with the first). `slots` is scratch room. The parse stage folds
// the batches of a chunk's folded samples, which go over once its events
// are read (it then has time to spare, the resolve stage none); the
// resolve stage folds those of events that go over as they are read.
void fold_by_node(std::vector<DecodedEvent>& batch, std::vector<std::uint32_t>& slots);

/// The fast reader's bounds: not options (they change no output) but
/// how it spends memory. Tests set them low, to take the paths that only
/// large recordings take.
struct Tuning {
  /// How many samples a chunk's events fold into (32 bytes each for CPU
  /// and wall events, else 64) before they go over.
  std::size_t most_folded_samples = std::size_t{2} << 20;
};

/// jfr::read() by the fast reader, with `tuning`.
Profile read_fast(Input& input, const ReadOptions& options, Diagnostics& diagnostics,
                  const Tuning& tuning = {});

class Reader {
 public:
  /// Warnings about the file's chunks go to `chunk_diagnostics`, the others to `diagnostics`.
  Reader(Input& input, const ReadOptions& options, Diagnostics& diagnostics, Diagnostics& chunk_diagnostics,
         const Tuning& tuning = {})
      : input_(input),
        file_(input.name()),
        opt_(options.jfr),
        note_(options.note),
        every_kind_read_(options.every_kind_read),
        chunk_diag_(chunk_diagnostics),
        diag_(diagnostics),
        builder_(columns_for(options.jfr.events)),
        naming_(naming_options(opt_)),
        labels_(keeps_labels(options)),
        stand_in_tiers_(!opt_.threads && !opt_.leak),
        tuning_(tuning),
        column_(default_column(opt_)) {}

  Profile run();
  /// After run(): when the default events were chosen and the file holds
  /// none, the one other kind it holds (as its option selects it), if it
  /// holds exactly one kind; else nullopt.
  std::optional<Events> sole_other_kind() const { return jfr::sole_other_kind(summary_, opt_.events); }

 private:
  // The parse stage: chunks, their pools, trace trees and selected events.
  // It touches nothing of the resolve stage but the spare room (under
  // spare_mutex_), and its diagnostics (a truncated last chunk) are the
  // only ones given before the reading ends.
  void parse(ChunkReader& chunks, const Emit& emit);
  void parse_chunk(ChunkReader& chunks, const Chunk& c, std::size_t index, const Emit& emit);
  // Chunk `index`, with the spare room if there is some.
  std::shared_ptr<ParsedChunk> new_chunk(std::size_t index, const ChunkHeader& h);
  // The chunk's pools (`chunk`: a view of its bytes), its stack traces
  // added to its tree in batches as they are read.
  void read_pools(ChunkReader& chunks, ParsedChunk& pc, const Cursor& chunk);
  // The chunk's events. With `pools_read`, its pools are being read
  // beside, from `first_pool` (in the file) on (their thread hands the
  // chunk over): pools_read() waits for them before the first events go.
  void parse_events(ChunkReader& chunks, std::shared_ptr<ParsedChunk> pc, Cursor& chunk, const Emit& emit,
                    const std::function<void()>* pools_read, std::uint64_t first_pool = UINT64_MAX);
  // parse_events()' reading of one chunk's events (parse_stage.cpp).
  class ChunkEvents;
  // Whether the events are filtered by their thread state (--state, --cpu, --wall).
  bool state_filter() const { return filters_states(opt_.events, states_); }
  // The sample of event `e` into `d`; false when the time or state filter drops it.
  bool to_sample(const ParsedChunk& pc, const EventPlan& plan, const EventRecord& e, DecodedEvent& d) const;
  void allow_states(const Pools& pools);
  // Whether the allowed states (once known) drop a sample of type `t`.
  bool dropped_by_state(EventType t, bool has_state, std::uint64_t state) const {
    return jfr::dropped_by_state(t, has_state, state, filter_.states ? &*filter_.states : nullptr);
  }
  bool keep_state(DecodedEvent& e) const;
  // The resolve stage: stacks, frames and samples into the builder.
  void take(Parsed&& p);
  void begin_chunk(std::shared_ptr<ParsedChunk> pc);
  void end_chunk(ChunkTail&& tail);
  void add_tier_weights();
  std::vector<FrameId> decided_frames();
  // A sample on_event() found, for add_events() to add.
  struct Ready {
    StackId stack;
    LabelSetId labels;
    std::uint32_t node;
    std::int64_t values[2];
  };
  void add_events(ChunkState& st, const std::vector<DecodedEvent>& events, const std::vector<NewNode>& nodes);
  bool on_event(ChunkState& st, const DecodedEvent& e, Ready& out);
  void finish_leaks();

  std::uint64_t known_size(const ChunkReader& chunks);
  Input& input_;
  const std::string& file_;
  const JfrOptions& opt_;
  const std::function<void(const std::string&)>& note_;
  const bool every_kind_read_;
  Diagnostics& chunk_diag_;  // for ChunkReader
  Diagnostics& diag_;
  ProfileBuilder builder_;
  NamingOptions naming_;
  bool labels_;  // keeps_labels()
  // async-profiler's one frame per method and place whatever its Java tier
  // (merge_compilation_kinds), made as the stacks are: a method's tiers are
  // one stand-in frame, each stack of one is given its kind at the end by
  // the weight of `column_` through each tier there. Not with --threads
  // (stacks are per trace and thread) or --leak (samples are added at the
  // end): then merge_compilation_kinds() runs on the finished profile.
  bool stand_in_tiers_;
  const Tuning tuning_;
  std::size_t column_;
  std::vector<bool> stand_ins_;  // by frame id
  std::vector<std::int64_t>
      through_;  // by node of the chunk's trace tree: the weight of its traces, then through it
  StackTiers tier_weights_;
  std::mutex spare_mutex_;
  std::optional<SpareRoom> spare_;   // a finished chunk's, for the next one
  ChunkState chunk_;                 // the chunk being resolved
  std::vector<std::string> states_;  // --state names, upper case
  // The parse stage's filters, for the chunk it reads.
  struct Filter {
    TimeSpan span;  // of the chunks parsed so far
    TimeWindow window;
    bool timed = false;                                       // needs_time()
    std::optional<std::unordered_set<std::uint64_t>> states;  // allowed ThreadState keys
    // The states are not known yet (the pools are read beside): events keep
    // theirs, and their samples are filtered as they go over.
    bool states_pending = false;
  } filter_;
  // What was read: the states' fields set by the parse stage, the others by the resolve stage.
  ReadSummary summary_;
  ChunkSamples chunk_samples_;             // the parse stage's, kept for their room (chunks are alike)
  std::vector<Ready> ready_;               // add_events()' samples, kept for their room
  std::vector<std::uint32_t> fold_slots_;  // fold_by_node()'s scratch room
  LeakTracker leaks_;
  bool threaded_ = false;  // the parse stage has a thread of its own
};

}  // namespace fg::formats::jfr::detail
