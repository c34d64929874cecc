#include "formats/jfr/jfr.h"

#include <algorithm>
#include <array>
#include <condition_variable>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "fg/builder.h"
#include "fg/java_frames.h"
#include "fg/run_beside.h"
#include "fg/time_bound.h"
#include "formats/handoff.h"
#include "formats/jfr/chunk.h"
#include "formats/jfr/chunk_resolver.h"
#include "formats/jfr/constant_pools.h"
#include "formats/jfr/cursor.h"
#include "formats/jfr/events.h"
#include "formats/jfr/metadata.h"
#include "formats/jfr/naming.h"
#include "formats/jfr/samples.h"

namespace fg::formats::jfr {

namespace {

using Events = JfrOptions::Events;

std::vector<ValueType> columns_for(Events e) {
  switch (e) {
    case Events::kDefault: return {{"samples", "count"}};
    case Events::kCpu: return {{"cpu", "count"}};
    case Events::kWall: return {{"wall", "count"}};
    case Events::kAlloc: return {{"alloc_objects", "count"}, {"alloc_space", "bytes"}};
    case Events::kLive: return {{"live_objects", "count"}, {"live_space", "bytes"}};
    case Events::kNativeMem: return {{"malloc_calls", "count"}, {"malloc_space", "bytes"}};
    case Events::kLock: return {{"lock_count", "count"}, {"lock_time", "nanoseconds"}};
    case Events::kNativeLock: return {{"native_lock_count", "count"}, {"native_lock_time", "nanoseconds"}};
  }
  return {};
}

// One line from jdk.OSInformation's osVersion, which the JDK fills with
// /etc/os-release and uname: the distribution's PRETTY_NAME and the uname line.
std::string os_summary(const std::string& text) {
  std::vector<std::string> parts;
  for (std::size_t b = 0; b < text.size();) {
    std::size_t e = std::min(text.find('\n', b), text.size());
    std::string_view line(text.data() + b, e - b);
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      line.remove_prefix(12);
      if (line.size() >= 2 && line.front() == '"' && line.back() == '"') line = line.substr(1, line.size() - 2);
      parts.emplace_back(line);
    } else if (line.rfind("uname:", 0) == 0) {
      line.remove_prefix(6);
      while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
      parts.emplace_back(line);
    }
    b = e + 1;
  }
  if (parts.empty()) return text.substr(0, text.find('\n'));
  std::string out = parts[0];
  for (std::size_t i = 1; i < parts.size(); ++i) out += "; " + parts[i];
  return out;
}

// --state's comma-separated names, upper case, as ThreadState names are.
std::vector<std::string> state_names(const std::string& list) {
  std::vector<std::string> out;
  for (std::size_t b = 0, e; b < list.size(); b = e + 1) {
    e = std::min(list.find(',', b), list.size());
    std::string s = list.substr(b, e - b);
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    if (!s.empty()) out.push_back(s);
  }
  return out;
}

bool is_sample(EventType t) {
  return t == EventType::kExecutionSample || t == EventType::kNativeMethodSample ||
         t == EventType::kWallClockSample || t == EventType::kCpuTimeSample;
}
bool is_alloc(EventType t) {
  return t == EventType::kAllocInNewTlab || t == EventType::kAllocOutsideTlab || t == EventType::kAllocSample;
}

// A chunk as the parsing side hands it over: its header, its metadata and
// its pools, which neither side changes after that; nothing of the file's
// bytes, which the parsing side lets go of once the chunk's events are read.
struct ParsedChunk {
  std::size_t index = 0;
  ChunkHeader header;
  ChunkMetadata meta;
  Pools pools;
};

// The time from the first start to the last end of the chunks read so far:
// the recording's, and what relative --from/--to count from, as in the converter.
struct TimeSpan {
  std::int64_t start_ns = INT64_MAX, end_ns = INT64_MIN;
  void add(const ChunkHeader& h) {
    start_ns = std::min(start_ns, h.start_ns);
    end_ns = std::max(end_ns, saturate(static_cast<__int128>(h.start_ns) + h.duration_ns));
  }
};

// What the parsing side found in a chunk besides the selected events.
struct ChunkTail {
  std::vector<std::pair<std::string, std::uint64_t>> counts;  // events by type name
  std::vector<std::pair<std::string, std::string>> info;      // jvm_name, jvm_version, os
  std::uint64_t truncated = 0;  // stack traces cut by the recorder, among those used
};

// One hand-off from the parsing side, in file order: some of a chunk's
// stack traces, the chunk (its pools read), some of its events, or its end.
struct Parsed {
  std::size_t index = 0;  // of the chunk
  TraceBatch traces;
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
  static unsigned set_of(StackId s) { return s >> kRunBits & 1; }
  void add(StackId s, FrameKind tier, std::int64_t weight) {
    std::uint8_t& t = tier_[s];
    const auto k = static_cast<std::uint8_t>(tier);
    if (t == kNone) {
      t = k;
      weight_[s] = weight;
    } else if (t == k) {
      weight_[s] += weight;
    } else if (t == kMixed) {
      mixed(s)[static_cast<std::size_t>(weight_[s])].add(tier, weight);
    } else {
      std::vector<TierWeights>& m = mixed(s);
      m.emplace_back();
      m.back().add(static_cast<FrameKind>(t), weight_[s]);
      m.back().add(tier, weight);
      weight_[s] = static_cast<std::int64_t>(m.size() - 1);
      t = kMixed;
    }
  }
  TierWeights at(StackId s) const {
    if (s >= tier_.size() || tier_[s] == kNone) return {};
    if (tier_[s] == kMixed) return mixed(s)[static_cast<std::size_t>(weight_[s])];
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
  std::vector<std::uint8_t> tier_;  // kNone, kMixed or the FrameKind of every weight
  std::array<std::vector<TierWeights>, 2> mixed_;  // by set_of()
  std::vector<TierWeights>& mixed(StackId s) { return mixed_[set_of(s)]; }
  const std::vector<TierWeights>& mixed(StackId s) const { return mixed_[set_of(s)]; }
};

// What the resolving side keeps of the chunk whose events it is adding.
struct ChunkState {
  std::shared_ptr<ParsedChunk> parsed;
  std::optional<ChunkResolver> resolve;
};

struct Selected {
  std::uint64_t events = 0, samples = 0;
};

// A malloc still waiting for its free (--nativemem --leak).
struct PendingMalloc {
  std::int64_t time_ns;
  StackId stack;  // ChunkResolver::kNoStack when it has none
  LabelSetId labels;
  std::int64_t size;
};

// A malloc or a free of one chunk, applied in time order at the chunk's end.
struct MallocEvent {
  std::int64_t ticks;
  std::uint64_t address;
  std::optional<PendingMalloc> malloc;  // empty for a free
};

class Reader {
 public:
  Reader(Input& input, const ReadOptions& options, Diagnostics& diagnostics)
      : input_(input), file_(input.name()), opt_(options.jfr), note_(options.note), diag_(diagnostics),
        builder_(columns_for(options.jfr.events)),
        naming_{opt_.simple, opt_.dot, opt_.norm, opt_.lines, opt_.bci},
        labels_(options.labels || opt_.threads),
        stand_in_tiers_(!opt_.threads && !opt_.leak),
        column_(opt_.total && builder_.value_count() > 1 ? 1 : 0) {}

  Profile run();

 private:
  // The parsing side: chunks, their pools and their selected events. It
  // touches nothing of the resolving side but the spare pools (under
  // spare_mutex_), and its diagnostics (a truncated last chunk) are the
  // only ones given before the reading ends.
  template <typename Emit>
  void parse(ChunkReader& chunks, Emit& emit);
  template <typename Emit>
  void parse_chunk(ChunkReader& chunks, const Chunk& c, std::size_t index, Emit& emit);
  // The chunk's events. With `pools_read`, its pools are being read
  // beside, from `first_pool` (in the file) on: pools_read() waits for
  // them (and hands the chunk over) before the first events are.
  template <typename Emit>
  void parse_events(ChunkReader& chunks, std::shared_ptr<ParsedChunk> pc, Cursor& chunk, Emit& emit,
                    const std::function<void()>* pools_read, std::uint64_t first_pool = UINT64_MAX);
  // Whether the events are filtered by their thread state (--state, --cpu, --wall).
  bool state_filter() const {
    return !states_.empty() || opt_.events == Events::kCpu || opt_.events == Events::kWall;
  }
  static void read_info(const ParsedChunk& pc, const ClassDesc& cls, Cursor& rec, ChunkTail& tail);
  // Chunk `index`'s trace tree, once the resolving side has built it (it
  // is not changed until that side has taken the chunk's tail).
  const TraceTree& await_tree(std::size_t index);
  // The sample of event `e` into `d`; false when the time or state filter drops it.
  bool to_sample(const ParsedChunk& pc, const EventPlan& plan, const EventRecord& e, DecodedEvent& d) const;
  void allow_states(const Pools& pools);
  bool keep_state(DecodedEvent& e) const;
  // The resolving side: stacks, frames and samples into the builder.
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
  void fill_metadata();
  void report();
  bool any_selected() const {
    return std::any_of(selected_.begin(), selected_.end(), [](const Selected& s) { return s.events > 0; });
  }
  std::string what_was_read() const;
  std::string other_events() const;

  Input& input_;
  const std::string& file_;
  const JfrOptions& opt_;
  const std::function<void(const std::string&)>& note_;
  Diagnostics& diag_;
  ProfileBuilder builder_;
  NamingOptions naming_;
  // Samples carry thread labels (and thread states): not when the output
  // shows none (ReadOptions::labels), so that samples of one stack on many
  // threads are one, as the converter counts them.
  bool labels_;
  // async-profiler's one frame per method and place whatever its Java tier
  // (merge_compilation_kinds), made as the stacks are: a method's tiers are
  // one stand-in frame, each stack of one is given its kind at the end by
  // the weight of `column_` through each tier there. Not with --threads
  // (stacks are per trace and thread) or --leak (samples are added at the
  // end): then merge_compilation_kinds() runs on the finished profile.
  bool stand_in_tiers_;
  std::size_t column_;
  std::vector<bool> stand_ins_;             // by frame id
  std::vector<std::int64_t> through_;  // by node of the chunk's trace tree: the weight of its traces, then through it
  StackTiers tier_weights_;
  // The resolving side's progress, which the parsing side waits for in await_tree().
  std::mutex progress_mutex_;
  std::condition_variable progress_;
  std::size_t trees_built_ = 0;  // chunks begun
  bool resolving_failed_ = false;
  std::mutex spare_mutex_;
  std::optional<Pools> spare_pools_;  // a finished chunk's, for their room
  static constexpr std::size_t kSpareBatches = 8;
  std::vector<TraceBatch> spare_batches_;  // added to the tree, for their room
  ChunkState chunk_;                  // the chunk being resolved
  TraceTree tree_;                    // its stack traces
  std::size_t chunks_ = 0;            // begun
  TimeSpan span_;  // of the chunks begun
  std::string version_;  // of the first chunk
  std::vector<std::string> states_;  // --state names, upper case
  // The parsing side's filters, for the chunk it reads.
  struct Filter {
    TimeSpan span;  // of the chunks parsed so far
    std::int64_t from_ns = INT64_MIN, to_ns = INT64_MAX;
    bool timed = false;  // events need their time: a bound is set, or --leak
    std::optional<std::unordered_set<std::uint64_t>> states;  // allowed ThreadState keys
    // The states are not known yet (the pools are read beside): events keep
    // theirs, and their samples are filtered as they go over.
    bool states_pending = false;
  } filter_;
  std::unordered_set<std::string> states_matched_;  // set by the parsing side
  bool any_default_state_ = false;                  // the same
  std::map<std::string, std::uint64_t> type_counts_;  // every event type of the file
  std::array<Selected, kEventTypes> selected_{};  // by EventType
  ChunkSamples chunk_samples_;  // the parsing side's, kept for their room (chunks are alike)
  std::vector<Ready> ready_;  // add_events()' samples, kept for their room
  std::vector<std::uint32_t> fold_slots_;  // fold_by_node()'s scratch room
  std::uint64_t no_stack_ = 0;
  std::uint64_t truncated_ = 0;  // stack traces cut by the recorder, among those used
  std::unordered_map<std::uint64_t, PendingMalloc> leaks_;
  std::vector<MallocEvent> chunk_mallocs_;
  std::int64_t leak_lo_ = INT64_MAX, leak_hi_ = INT64_MIN;  // times of malloc/free events
  std::map<std::string, std::string> info_;  // jvm, os
  bool async_profiler_ = false, jdk_ = false;
  bool threaded_ = false;  // the parsing side has a thread of its own
  // A chunk whose events are worth reading beside its pools: in smaller
  // ones the tree is built in no time, and a third thread on two CPUs
  // costs more than it saves (125 chunks of 1.7 MB: 0.43 s, against 0.49 s
  // with the events beside).
  static constexpr std::uint64_t kBesideBytes = std::uint64_t{4} << 20;
};

// Hand-offs parsed ahead at most.
constexpr std::size_t kAhead = 16;

Profile Reader::run() {
  if (opt_.leak && opt_.events != Events::kNativeMem) throw UsageError("--leak needs --nativemem");
  states_ = state_names(opt_.state);
  // Parsing (pools, events) and resolving (stacks, samples) share about
  // equally in the time of a large recording: on two threads they overlap.
  // A small file is not worth the thread.
  ChunkReader chunks(input_, diag_);
  threaded_ = chunks.mapped_size().value_or(UINT64_MAX) >= (std::uint64_t{1} << 20) &&
              std::thread::hardware_concurrency() >= 2;
  handoff<Parsed>(threaded_, kAhead, [&](auto&& emit) { parse(chunks, emit); },
                  [&](Parsed&& p) {
                    try {
                      take(std::move(p));
                    } catch (...) {  // let the parsing side stop, should it wait in await_tree()
                      {
                        std::lock_guard lock(progress_mutex_);
                        resolving_failed_ = true;
                      }
                      progress_.notify_all();
                      throw;
                    }
                  });
  spare_pools_.reset();
  finish_leaks();
  for (const std::string& s : states_)
    if (!states_matched_.count(s)) throw UsageError("--state " + s + ": the recording has no such thread state");
  fill_metadata();
  report();
  builder_.metadata().default_value = builder_.peek().value_types()[column_].type;
  if (stand_in_tiers_) return std::move(builder_).finish(decided_frames());
  return merge_compilation_kinds(std::move(builder_).finish(), column_);
}

// At a chunk's end: the weight through each node of its trace tree, added
// to the tier of the node's frame at the node's stack.
void Reader::add_tier_weights() {
  const ChunkResolver& r = *chunk_.resolve;
  const auto nodes = static_cast<std::uint32_t>(tree_.node_count());
  // A node's parent was made before it.
  for (std::uint32_t n = nodes; n-- > 1;) through_[tree_.node(n).parent] += through_[n];
  tier_weights_.resize(builder_.stack_count());
  // On two threads, each adding to the stacks of one of StackTiers' sets.
  const auto add = [&](unsigned set) {
    for (std::uint32_t n = 1; n < nodes; ++n) {
      const StackId s = r.node_stack(n);
      if (s != U64Map::kMissing && StackTiers::set_of(s) == set)
        tier_weights_.add(s, r.tier(tree_.node(n).frame), through_[n]);
    }
  };
  constexpr std::size_t kWorthAThread = 100'000;  // nodes
  run_beside(nodes >= kWorthAThread, [&] { add(1); }, [&] { add(0); });
}

// Each stack's frame, with the stand-ins given their kinds: decided on two
// threads, each for half the stacks, then the frames of the kinds other
// than JIT made in stack order.
std::vector<FrameId> Reader::decided_frames() {
  const Profile& p = builder_.peek();
  const std::size_t count = p.stack_count();
  std::vector<FrameId> frames(count);
  struct Decided {
    StackId stack;
    FrameKind kind;
  };
  std::array<std::vector<Decided>, 2> others;  // by half
  const auto decide = [&](std::size_t from, std::size_t to, std::vector<Decided>& out) {
    for (std::size_t s = from; s < to; ++s) {
      const FrameId f = p.stack(static_cast<StackId>(s)).frame;
      frames[s] = f;
      if (s != kRootStack && f < stand_ins_.size() && stand_ins_[f]) {
        const FrameKind kind = tier_weights_.at(static_cast<StackId>(s)).decide(FrameKind::kJit);
        if (kind != FrameKind::kJit) out.push_back({static_cast<StackId>(s), kind});
      }
    }
  };
  constexpr std::size_t kWorthAThread = 100'000;  // stacks
  run_beside(
      count >= kWorthAThread, [&] { decide(count / 2, count, others[1]); },
      [&] { decide(0, count / 2, others[0]); });
  U64Map decided;  // stand-in << 8 | kind -> frame
  for (const std::vector<Decided>& half : others)
    for (const Decided& d : half) {
      const FrameId f = frames[d.stack];
      const std::uint64_t key = std::uint64_t{f} << 8 | static_cast<std::uint8_t>(d.kind);
      FrameId made = decided.find(key);
      if (made == U64Map::kMissing) {
        const Frame& fr = p.frame(f);
        made = builder_.frame(fr.function, d.kind, fr.line, fr.address, fr.module);
        decided.insert(key, made);
      }
      frames[d.stack] = made;
    }
  return frames;
}

template <typename Emit>
void Reader::parse(ChunkReader& chunks, Emit& emit) {
  std::size_t index = 0;
  for (std::optional<Chunk> c; (c = chunks.next()); ++index) parse_chunk(chunks, *c, index, emit);
}

template <typename Emit>
void Reader::parse_chunk(ChunkReader& chunks, const Chunk& c, std::size_t index, Emit& emit) {
  const ChunkHeader& h = c.header;
  auto pc = std::make_shared<ParsedChunk>();
  pc->index = index;
  pc->header = h;
  {  // the pools keep their room from chunk to chunk: chunks are alike
    std::lock_guard lock(spare_mutex_);
    if (spare_pools_) {
      pc->pools = std::move(*spare_pools_);
      spare_pools_.reset();
      pc->pools.clear();
    }
  }
  Cursor chunk(c.bytes, file_, h.offset, h.compressed());
  try {
    Cursor meta = chunk.window(h.metadata_offset, h.size - h.metadata_offset, "metadata event");
    const std::uint64_t meta_size = static_cast<std::uint32_t>(meta.read_int());
    meta.seek(0);
    Cursor meta_record = meta.sub(meta_size, "metadata event");
    pc->meta = read_metadata(meta_record);
    // The stack traces go over as they are read: the other side builds
    // their tree while this one reads on.
    const Cursor pools_view = chunk;
    const auto read_pools = [&] {
      read_constant_pools(
          pools_view, h.checkpoint_offset, pc->meta, pc->pools, naming_.lines || naming_.bci,
          [&chunks](std::uint64_t begin, std::uint64_t end) { chunks.drop(begin, end); },
          [&](TraceBatch& b) {
            Parsed p{index, std::move(b), nullptr, {}, {}, {}};
            {  // a batch the resolving side is done with, for its room: fresh pages cost a fault and a clear each
              std::lock_guard lock(spare_mutex_);
              if (!spare_batches_.empty()) {
                b = std::move(spare_batches_.back());
                spare_batches_.pop_back();
              }
            }
            emit(std::move(p));
          });
    };
    // While the other side builds the tree, its batches come slower than
    // they are read: the events are read meanwhile, on a thread beside the
    // pools', unless --leak's order of events waits on them, or the chunk
    // is too small to be worth it. A filter of thread states, whose names
    // are in the pools, is applied to the samples as they go over.
    std::optional<std::uint64_t> first_pool;
    if (threaded_ && !opt_.leak && h.size >= kBesideBytes)
      first_pool = first_checkpoint(chunk, h.checkpoint_offset);
    if (!first_pool) {
      read_pools();
      // The pools are in memory of their own now; in a recording with a
      // million stack traces their bytes are most of the chunk. The events
      // still to read come back from the file as they are reached.
      chunks.drop(h.offset, h.offset + h.size);
      emit(Parsed{index, {}, pc, {}, {}, {}});
      parse_events(chunks, std::move(pc), chunk, emit, nullptr);
      return;
    }
    // The chunk goes over as soon as its pools are read, from their
    // thread: the other side, its tree built, readies what it resolves
    // with (ChunkResolver, the tiers' tables) while the events are read.
    const auto read_pools_then_chunk = [&] {
      read_pools();
      emit(Parsed{index, {}, pc, {}, {}, {}});
    };
    fg::Beside pools(read_pools_then_chunk);
    const std::function<void()> pools_read = [&] { pools.join(); };
    try {
      parse_events(chunks, pc, chunk, emit, &pools_read, h.offset + *first_pool);
    } catch (...) {
      pools.join();  // their error first: it comes before the events' in the file's reading
      throw;
    }
  } catch (const ParseError& e) {
    throw ParseError(e.position(), "chunk " + std::to_string(index + 1) + ": " + e.message());
  }
}

// The batch's samples of one leaf node (traces the pools tell apart only
// by what they merge: lines, bci), thread, state and class folded into the
// first of them, as ChunkSamples folds those of one trace: a third fewer
// samples to add. A sample folded away has no new nodes (its node was
// listed with the first). `slots` is scratch room. The parsing side folds
// the batches of a chunk's folded samples, which go over once its events
// are read (it then has time to spare, the resolving side none); the
// resolving side folds those of events that go over as they are read.
void fold_by_node(std::vector<DecodedEvent>& batch, std::vector<std::uint32_t>& slots) {
  std::size_t size = 16;
  while (size < 2 * batch.size()) size *= 2;
  slots.assign(size, 0);  // index + 1 into the folded batch; 0: empty
  std::size_t kept = 0;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const DecodedEvent& e = batch[i];
    bool folded = false;
    if (e.values[0] >= 0 && e.values[1] >= 0 && e.new_nodes == 0) {
      std::size_t at = e.hash(e.node) >> 40 & (size - 1);
      for (; slots[at] != 0; at = (at + 1) & (size - 1)) {
        DecodedEvent& d = batch[slots[at] - 1];
        if (d.node != e.node || !same_labels(d, e)) continue;
        folded = fold_sums(d, e);
        break;
      }
      if (!folded && slots[at] == 0) slots[at] = static_cast<std::uint32_t>(kept + 1);
    }
    if (!folded) batch[kept++] = batch[i];
  }
  batch.resize(kept);
}

// Each event's stack trace: its position in the pool, then its leaf node
// in the tree and, with `list`, the new nodes of its path into `nodes`.
// Both are lookups into tables of hundreds of thousands of entries, each
// fetched a few events ahead. `positions` is scratch room.
void find_traces(const StackTracePool& traces, NodeLister& lister, bool list, std::vector<DecodedEvent>& batch,
                 std::vector<NewNode>& nodes, std::vector<std::uint32_t>& positions) {
  constexpr std::size_t kAheadBy = 8;
  positions.resize(batch.size());
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (i + kAheadBy < batch.size()) traces.prefetch(batch[i + kAheadBy].stack);
    const std::uint64_t key = batch[i].stack;
    positions[i] = key == 0 ? U64Map::kMissing : traces.position(key);
    lister.prefetch(positions[i]);
  }
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (i + 2 * kAheadBy < batch.size()) lister.prefetch_path(positions[i + 2 * kAheadBy]);
    batch[i].node = lister.leaf(positions[i], list, nodes, batch[i].new_nodes);
  }
}

template <typename Emit>
void Reader::parse_events(ChunkReader& chunks, std::shared_ptr<ParsedChunk> pc, Cursor& chunk, Emit& emit,
                          const std::function<void()>* pools_read, std::uint64_t first_pool) {
  const ChunkMetadata& meta = pc->meta;
  const StackTracePool& traces = pc->pools.stack_traces;
  const std::size_t index = pc->index;
  {
    Filter& f = filter_;
    f.span.add(pc->header);
    const TimeSpan& s = f.span;
    if (!opt_.time_from.empty()) f.from_ns = fg::parse_time_bound("--time-from", opt_.time_from, s.start_ns, s.end_ns);
    if (!opt_.time_to.empty()) f.to_ns = fg::parse_time_bound("--time-to", opt_.time_to, s.start_ns, s.end_ns);
    f.timed = !opt_.time_from.empty() || !opt_.time_to.empty() || opt_.leak;
    f.states_pending = pools_read && state_filter();
    if (f.states_pending) f.states.reset();
    else allow_states(pc->pools);
  }
  const EventPlans plans(meta, opt_.events, filter_.timed);
  const ClassDesc* jvm = meta.find("jdk.JVMInformation");
  const ClassDesc* os = meta.find("jdk.OSInformation");
  ChunkTail tail;
  std::vector<std::uint64_t> counts;  // by type id (ids are small: they index the metadata)
  std::unordered_map<std::uint64_t, std::uint64_t> big_counts;  // the others
  // What waits for the pools, while they are read beside: the events of
  // jdk.JVMInformation and jdk.OSInformation (their strings are pool
  // entries; their bytes are kept, as the pages they were read from may be
  // gone by then), and the pages of the file from the first pool on.
  struct InfoRecord {
    const ClassDesc* cls;
    std::string bytes;
    std::uint64_t offset;
  };
  std::vector<InfoRecord> info_records;
  const auto wait_for_pools = [&] {
    if (!pools_read) return;
    (*pools_read)();
    pools_read = nullptr;
    first_pool = UINT64_MAX;
    if (filter_.states_pending) allow_states(pc->pools);
    for (const InfoRecord& r : info_records) {
      Cursor rec(r.bytes, file_, r.offset, chunk.compressed());
      read_info(*pc, *r.cls, rec, tail);
    }
  };
  // Events are decoded into a batch of kBatch. With --leak each batch goes
  // over as it is, in order; otherwise it is folded into `whole`, which
  // goes over at the chunk's end, or once it holds most_folded_samples
  // (by default two million, 128 MiB: a chunk whose 7.6 M events make 1.5 M
  // samples, handed over at one million, read the rest of its events while
  // the other side waited).
  constexpr std::size_t kBatch = 4096;
  const std::size_t most_samples = std::max<std::size_t>(opt_.most_folded_samples, 1);
  std::vector<DecodedEvent> batch;
  batch.reserve(kBatch);
  ChunkSamples* whole = opt_.leak ? nullptr : &chunk_samples_;
  if (whole) whole->clear();
  std::size_t events_folded = 0;  // into `whole` since it was cleared
  std::optional<NodeLister> lister;      // the tree of the chunk's traces, once built
  std::vector<std::uint32_t> positions;  // find_traces()' scratch room
  std::vector<std::uint32_t> fold_slots;  // fold_by_node()'s
  const auto hand_over = [&](bool fold) {
    wait_for_pools();
    if (!lister) lister.emplace(await_tree(index));
    std::vector<NewNode> nodes;
    find_traces(traces, *lister, !opt_.threads, batch, nodes, positions);
    if (fold) fold_by_node(batch, fold_slots);
    emit(Parsed{index, {}, nullptr, std::move(batch), std::move(nodes), {}, fold});
    batch = {};
    batch.reserve(kBatch);
  };
  // When no more events are to be folded (`last`: at the chunk's end, or
  // for the rest of it), the samples' room is let go of as they go over.
  const auto hand_over_whole = [&](bool last) {
    wait_for_pools();
    const std::size_t all = whole->size();
    for (std::size_t b = 0; b < all; b += kBatch) {
      const std::size_t end = std::min(all, b + kBatch);
      for (std::size_t i = b; i < end; ++i)
        if (DecodedEvent e = whole->at(i); keep_state(e)) batch.push_back(e);
      if (last) whole->release_before(end);
      if (!batch.empty()) hand_over(true);
    }
    whole->clear();
    filter_.states_pending = false;  // the events from here on are filtered as they are read
  };
  const auto next_batch = [&](std::uint64_t at) {
    if (whole) {
      constexpr std::size_t kAheadBy = 48;  // the samples are met at random in 100 MB
      for (std::size_t i = 0; i < batch.size(); ++i) {
        if (i + 2 * kAheadBy < batch.size()) whole->prefetch(batch[i + 2 * kAheadBy]);
        if (i + kAheadBy < batch.size()) whole->prefetch_sample(batch[i + kAheadBy]);
        whole->add(batch[i]);
      }
      events_folded += batch.size();
      batch.clear();
      if (whole->size() >= most_samples) {
        // Fewer than two events a sample: folding the rest of the chunk is
        // not worth its room and its lookups, and its batches go over as
        // they are read (4.6 M traces in 7 M events: 4.60 s and 747 MiB,
        // against 5.25 s and 808 MiB folding it all).
        const bool stream = 2 * whole->size() > events_folded;
        hand_over_whole(stream);
        events_folded = 0;
        if (stream) whole = nullptr;
      }
    } else {
      hand_over(false);
    }
    // Events come in order: a large chunk's pages behind this one are done
    // with (those of its pools, once read).
    chunks.release_before(std::min(at, first_pool));
  };
  const auto select = [&](const EventPlan& plan, const EventRecord& e, std::uint64_t end) {
    DecodedEvent d;
    if (to_sample(*pc, plan, e, d)) batch.push_back(d);
    if (batch.size() >= kBatch) next_batch(end);
  };
  // Events of a selected type whose fields are all integers are read
  // without a check per byte while the chunk has room for their longest
  // encoding; each must end within its record, else it is read again, checked.
  std::size_t unchecked_bytes = 0;
  for (const auto& [id, cls] : meta.classes())
    if (const EventPlan* plan = plans.find(id)) unchecked_bytes = std::max(unchecked_bytes, plan->unchecked_bytes());
  const std::size_t fast_bytes = unchecked_bytes == 0 ? SIZE_MAX : unchecked_bytes + 18;  // and size and type
  chunk.seek(kChunkHeaderSize);
  while (!chunk.at_end()) {
    if (const char* const p = chunk.unchecked(fast_bytes)) {
      const char* q = p;
      const std::uint64_t size = static_cast<std::uint32_t>(Cursor::unchecked_varint(q));
      const std::uint64_t type = Cursor::unchecked_varint(q);
      const EventPlan* plan = plans.find(type);
      if (type > 1 && type < counts.size() && plan && plan->unchecked_bytes() != 0 && size <= chunk.remaining()) {
        const EventRecord e = plan->decode_unchecked(q);
        if (static_cast<std::uint64_t>(q - p) <= size) {
          ++counts[type];
          chunk.skip_to(p + size);
          select(*plan, e, chunk.offset());
          continue;
        }
      }
    }
    const std::size_t start = chunk.pos();
    const std::uint64_t at = chunk.offset();
    const std::uint64_t size = static_cast<std::uint32_t>(chunk.read_int());
    if (size == 0) chunk.fail_at(at, "event size 0");
    chunk.seek(start);
    Cursor rec = chunk.sub(size, "event");
    rec.read_int();
    const std::uint64_t type = static_cast<std::uint64_t>(rec.read_long());
    if (type == 0 || type == 1) continue;  // metadata, checkpoints
    if (type < 65536) {
      if (type >= counts.size()) counts.resize(type + 1);
      ++counts[type];
    } else {
      ++big_counts[type];
    }
    if (const EventPlan* plan = plans.find(type)) {
      select(*plan, plan->decode(rec, meta), at);
    } else if ((jvm && type == jvm->id) || (os && type == os->id)) {
      if (pools_read) info_records.push_back({meta.find(type), std::string(rec.rest()), rec.offset()});
      else read_info(*pc, *meta.find(type), rec, tail);
    }
  }
  for (std::uint64_t type = 0; type < counts.size(); ++type)
    if (counts[type] != 0) big_counts[type] = counts[type];
  for (const auto& [type, n] : big_counts) {
    const ClassDesc* cls = meta.find(type);
    tail.counts.emplace_back(cls ? cls->name : "type " + std::to_string(type), n);
  }
  if (whole) {
    next_batch(chunk.offset());
    hand_over_whole(true);
  } else if (!batch.empty()) {
    hand_over(false);
  }
  wait_for_pools();  // a chunk without events
  if (lister) tail.truncated = lister->truncated_traces();
  // Let go of the chunk before its tail: the resolving side then recycles its tables.
  pc.reset();
  emit(Parsed{index, {}, nullptr, {}, {}, std::move(tail)});
}

bool Reader::to_sample(const ParsedChunk& pc, const EventPlan& plan, const EventRecord& e, DecodedEvent& d) const {
  const EventType type = plan.type();
  const Filter& f = filter_;
  const std::int64_t ns = f.timed ? pc.header.to_ns(e.time) : 0;
  if (ns < f.from_ns || ns > f.to_ns) return false;
  if (is_sample(type) && f.states && (!e.has_state || !f.states->count(e.state))) return false;
  const bool state = labels_ || f.states_pending;  // kept, for the labels or the filter
  d.type = type;
  d.has_state = state && e.has_state;
  d.outside_tlab = is_alloc(type) && e.tlab <= 0;
  d.node = U64Map::kMissing;
  d.new_nodes = 0;
  d.events = 1;
  d.stack = e.stack;
  d.thread = labels_ ? e.thread : 0;
  d.state = state ? e.state : 0;
  d.cls = is_sample(type) ? 0 : e.cls;
  d.samples = static_cast<std::uint64_t>(std::max<std::int64_t>(e.samples, 0));
  d.values[0] = e.samples;
  d.values[1] = 0;
  if (!is_sample(type)) {
    d.values[0] = 1;
    // An allocation in a new TLAB weighs the TLAB's size, as the converter
    // counts it: async-profiler records its sampling interval there, the JDK
    // the buffer the sampled object opened.
    const bool lock = opt_.events == Events::kLock || opt_.events == Events::kNativeLock;
    d.values[1] = lock ? pc.header.ticks_to_ns(e.duration) : e.tlab > 0 ? e.tlab : e.size;
  }
  d.ticks = e.time;
  d.ns = ns;
  d.address = e.address;
  if (opt_.leak) d.values[1] = e.size;
  return true;
}

const TraceTree& Reader::await_tree(std::size_t index) {
  std::unique_lock lock(progress_mutex_);
  progress_.wait(lock, [&] { return trees_built_ > index || resolving_failed_; });
  if (trees_built_ <= index) throw Error("stopped: the resolving side failed");  // not seen: handoff() throws that side's error
  return tree_;
}

void Reader::read_info(const ParsedChunk& pc, const ClassDesc& cls, Cursor& rec, ChunkTail& tail) {
  for (const FieldDesc& f : cls.fields) {
    const bool wanted = f.name == "jvmName" || f.name == "jvmVersion" || f.name == "osVersion";
    if (!wanted || f.array || f.constant_pool || f.encoding != Encoding::kString) {
      skip_field(rec, pc.meta, f);
      continue;
    }
    const StringValue v = rec.read_string();
    if (const std::string* text = pc.pools.text(v))
      tail.info.emplace_back(f.name == "osVersion" ? "os" : f.name == "jvmName" ? "jvm_name" : "jvm_version", *text);
  }
}

void Reader::take(Parsed&& p) {
  try {
    if (!p.traces.traces.empty()) {
      tree_.add(p.traces);
      std::lock_guard lock(spare_mutex_);
      if (spare_batches_.size() < kSpareBatches) spare_batches_.push_back(std::move(p.traces));
      return;
    }
    if (p.chunk) return begin_chunk(std::move(p.chunk));
    if (!opt_.leak && !p.folded) fold_by_node(p.events, fold_slots_);  // --leak keeps each event
    add_events(chunk_, p.events, p.nodes);
    if (p.tail) end_chunk(std::move(*p.tail));
  } catch (const ParseError& e) {
    throw ParseError(e.position(), "chunk " + std::to_string(p.index + 1) + ": " + e.message());
  }
}

void Reader::begin_chunk(std::shared_ptr<ParsedChunk> pc) {
  const ChunkHeader& h = pc->header;
  if (chunks_++ == 0) version_ = std::to_string(h.major) + "." + std::to_string(h.minor);
  span_.add(h);
  for (const auto& [id, cls] : pc->meta.classes()) {
    if (cls.name.rfind("profiler.", 0) == 0) async_profiler_ = true;
    if (cls.name == "jdk.ObjectAllocationSample" || cls.name == "jdk.GarbageCollection") jdk_ = true;
  }
  chunk_.parsed = std::move(pc);
  chunk_.resolve.emplace(builder_, chunk_.parsed->pools, tree_, naming_, opt_.threads,
                         stand_in_tiers_ ? &stand_ins_ : nullptr);
  if (stand_in_tiers_) {
    through_.assign(tree_.node_count(), 0);
    // Room for the stacks the chunk's nodes may make, given as they are
    // made (add_events()), not all at the chunk's end.
    tier_weights_.reserve(builder_.stack_count() + tree_.node_count());
  }
  {
    std::lock_guard lock(progress_mutex_);
    trees_built_ = chunks_;
  }
  progress_.notify_all();
  // Its traces are in: the tree's index is not needed again before the
  // next chunk's (128 MiB of a 379 MiB peak, in a recording with 5 million
  // trace nodes). Let go of after the parsing side is told, not before.
  tree_.drop_index();
}

void Reader::end_chunk(ChunkTail&& tail) {
  for (auto& [name, n] : tail.counts) type_counts_[name] += n;
  for (auto& [key, text] : tail.info) info_.try_emplace(key, std::move(text));
  std::stable_sort(chunk_mallocs_.begin(), chunk_mallocs_.end(),
                   [](const MallocEvent& a, const MallocEvent& b) { return a.ticks < b.ticks; });
  for (const MallocEvent& m : chunk_mallocs_) {
    if (m.malloc) leaks_[m.address] = *m.malloc;
    else leaks_.erase(m.address);
  }
  chunk_mallocs_.clear();
  truncated_ += tail.truncated;
  if (stand_in_tiers_) add_tier_weights();
  chunk_.resolve.reset();
  tree_.clear();
  {  // the parsing side let go of the chunk before it handed over the tail
    std::lock_guard lock(spare_mutex_);
    spare_pools_ = std::move(chunk_.parsed->pools);
  }
  chunk_.parsed.reset();
}

// Whether the sample `e`, folded while the state filter waited for the
// pools, passes it; its state is then dropped unless labels show it.
bool Reader::keep_state(DecodedEvent& e) const {
  if (!filter_.states_pending) return true;
  const auto& allowed = filter_.states;
  if (is_sample(e.type) && allowed && (!e.has_state || !allowed->count(e.state))) return false;
  if (!labels_) {
    e.has_state = false;
    e.state = 0;
  }
  return true;
}

// The ThreadState keys of a chunk that --state, --cpu or --wall keeps.
void Reader::allow_states(const Pools& pools) {
  std::optional<std::unordered_set<std::uint64_t>>& allowed = filter_.states;
  allowed.reset();
  if (!state_filter()) return;  // (the pools may be still being read)
  auto e = pools.enums.find("jdk.types.ThreadState");
  const bool cpu = opt_.events == Events::kCpu;
  allowed.emplace();
  if (e == pools.enums.end()) return;
  for (const auto& [key, value] : e->second) {
    const std::string* name = pools.text(value);
    if (!name) continue;
    if (*name == "STATE_DEFAULT") any_default_state_ = true;
    if (!states_.empty()) {
      for (const std::string& s : states_)
        if (name->size() >= 6 && name->compare(6, s.size(), s) == 0) {
          allowed->insert(key);
          states_matched_.insert(s);
        }
    } else if ((*name == "STATE_DEFAULT") == cpu) {
      allowed->insert(key);
    }
  }
}

// A batch of events in two passes: their stacks and labels first, then
// their samples. Stacks, and samples by stack and labels, sit in tables of
// millions, looked up at random: each pass fetches its lookups a few events
// ahead, so that their cache misses overlap. The builder sees the same calls
// in the same order as event by event.
void Reader::add_events(ChunkState& st, const std::vector<DecodedEvent>& events, const std::vector<NewNode>& nodes) {
  constexpr std::size_t kAheadBy = 8;
  ready_.clear();
  if (!opt_.threads) st.resolve->find_made(nodes.data(), nodes.size());
  std::size_t made = 0;  // of `nodes`
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (i + kAheadBy < events.size()) st.resolve->prefetch(events[i + kAheadBy].node);
    if (made + events[i].new_nodes > nodes.size()) throw Error("internal: event lists more nodes than were handed over");
    st.resolve->make(nodes.data() + made, events[i].new_nodes);
    made += events[i].new_nodes;
    Ready r;
    if (on_event(st, events[i], r)) ready_.push_back(r);
  }
  const std::size_t n = builder_.value_count();
  for (std::size_t i = 0; i < ready_.size(); ++i) {
    if (i + 2 * kAheadBy < ready_.size()) {
      const Ready& r = ready_[i + 2 * kAheadBy];
      builder_.prefetch_sample(r.stack, r.labels);
      if (stand_in_tiers_ && r.node != U64Map::kMissing) __builtin_prefetch(&through_[r.node]);
    }
    if (i + kAheadBy < ready_.size() && ready_[i + kAheadBy].labels == 0)
      builder_.prefetch_unlabeled_values(ready_[i + kAheadBy].stack);
    builder_.add_sample(ready_[i].stack, std::span<const std::int64_t>(ready_[i].values, n), ready_[i].labels);
    if (stand_in_tiers_) through_[ready_[i].node] += ready_[i].values[column_];
  }
  if (stand_in_tiers_) tier_weights_.resize(builder_.stack_count());
}

// The sample of a folded event, into `out`; false when it adds none (no
// stack, or a malloc or free kept for --leak).
bool Reader::on_event(ChunkState& st, const DecodedEvent& e, Ready& out) {
  Selected& sel = selected_[static_cast<std::size_t>(e.type)];
  sel.events += e.events;
  sel.samples += e.samples;
  StackId stack = st.resolve->stack(e.node, e.thread);
  const LabelSetId labels = labels_ ? st.resolve->labels(e.thread, is_sample(e.type) && e.has_state, e.state) : 0;
  if (opt_.leak) {  // a free counts with or without a stack
    leak_lo_ = std::min(leak_lo_, e.ns);
    leak_hi_ = std::max(leak_hi_, e.ns);
    std::optional<PendingMalloc> m;
    if (e.type == EventType::kMalloc) m = PendingMalloc{e.ns, stack, labels, e.values[1]};
    chunk_mallocs_.push_back({e.ticks, e.address, m});
    return false;
  }
  if (stack == ChunkResolver::kNoStack) {
    no_stack_ += e.events;
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
  if (leaks_.empty()) return;
  // As the converter: allocations of the last 10% of the recording are too
  // young to call leaks.
  const std::int64_t cutoff =
      static_cast<std::int64_t>(static_cast<double>(leak_lo_) * 0.1 + static_cast<double>(leak_hi_) * 0.9);
  std::vector<std::pair<std::uint64_t, PendingMalloc>> kept(leaks_.begin(), leaks_.end());
  std::sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [addr, m] : kept) {
    if (m.time_ns > cutoff) continue;
    if (m.stack == ChunkResolver::kNoStack) {
      ++no_stack_;
      continue;
    }
    const std::int64_t values[2] = {1, m.size};
    builder_.add_sample(m.stack, values, m.labels);
  }
}

void Reader::fill_metadata() {
  Metadata& m = builder_.metadata();
  m.source_format = "jfr";
  m.sources = {file_};
  m.start_time_ns = span_.start_ns;
  m.duration_ns = saturate(static_cast<__int128>(span_.end_ns) - span_.start_ns);
  auto& p = m.properties;
  p.emplace_back("jfr.version", version_);
  p.emplace_back("jfr.chunks", std::to_string(chunks_));
  p.emplace_back("jfr.producer", async_profiler_ && jdk_ ? "JDK Flight Recorder + async-profiler"
                                 : async_profiler_       ? "async-profiler"
                                                         : "JDK Flight Recorder");
  if (!info_["jvm_version"].empty() || !info_["jvm_name"].empty()) {
    // The JDK's jvmVersion already starts with the VM's name; async-profiler's is the bare version.
    const std::string& name = info_["jvm_name"], &version = info_["jvm_version"];
    p.emplace_back("jvm", version.rfind(name, 0) == 0 ? version : name + (name.empty() ? "" : " ") + version);
  }
  if (!info_["os"].empty()) p.emplace_back("os", os_summary(info_["os"]));
  for (const auto& [name, n] : type_counts_) p.emplace_back("events." + name, std::to_string(n));
}

// The stderr notes: what was counted, and which other kinds the file holds.
void Reader::report() {
  if (no_stack_ > 0)
    diag_.warn("event without stack trace", file_ + ": " + std::to_string(no_stack_) +
                                                " selected events have no stack trace and are left out");
  if (!note_) return;
  if (truncated_ > 0)
    note_(file_ + ": " + std::to_string(truncated_) +
          " stack traces were cut by the recorder's stack depth (their root frames are missing)");
  if (opt_.events == Events::kCpu && !any_default_state_)
    note_(file_ + ": no samples in async-profiler's cpu state (STATE_DEFAULT): JDK recordings have none; "
                  "read them without --cpu");
  else if (opt_.events == Events::kDefault || !any_selected())
    note_(file_ + ": " + what_was_read() + other_events());
}

// "samples counted from jdk.ExecutionSample (731), ..." or "no ... events".
std::string Reader::what_was_read() const {
  std::string counted;
  for (std::size_t t = 0; t < kEventTypes; ++t) {
    const Selected& sel = selected_[t];
    if (sel.events == 0) continue;
    const EventType type = static_cast<EventType>(t);
    if (!counted.empty()) counted += ", ";
    counted += std::string(event_type_name(type)) + " (" + std::to_string(sel.samples) + ")";
  }
  if (!counted.empty()) return "samples counted from " + counted;
  if (opt_.events == Events::kDefault) return "no execution or wall-clock samples (the default events)";
  return "no events of the chosen kind";
}

// "; the file also holds --alloc (jdk.ObjectAllocationSample 3498) ...":
// the event kinds fg reads that were not chosen, with their options.
std::string Reader::other_events() const {
  std::map<std::string, std::string> others;  // option -> types
  for (int t = 0; t <= static_cast<int>(EventType::kNativeLock); ++t) {
    const EventType type = static_cast<EventType>(t);
    auto n = type_counts_.find(std::string(event_type_name(type)));
    if (selected(opt_.events, type) || n == type_counts_.end()) continue;
    const std::string option = is_sample(type) ? "--cpu/--wall" : "--" + std::string(event_group(type));
    std::string& o = others[option];
    o += (o.empty() ? "" : ", ") + std::string(event_type_name(type)) + " " + std::to_string(n->second);
  }
  if (others.empty()) return "";
  std::string msg = any_selected() ? "; the file also holds" : "; the file holds";
  for (const auto& [option, types] : others) msg += " " + option + " (" + types + ")";
  return msg;
}

}  // namespace

Sniff sniff(std::string_view head, std::string_view) {
  if (head.size() < 6 || head.substr(0, 4) != kMagic) return Sniff::kNo;
  const int major = static_cast<unsigned char>(head[4]) << 8 | static_cast<unsigned char>(head[5]);
  return major == 1 || major == 2 ? Sniff::kYes : Sniff::kMaybe;
}

Profile read(Input& input, const ReadOptions& options, Diagnostics& diagnostics) {
  return Reader(input, options, diagnostics).run();
}

}  // namespace fg::formats::jfr
