// The reference JFR reader (reference_reader.h): one thread, one chunk at a
// time, each read in two steps, parse then resolve:
//
//   1. parse: the chunk's metadata, its constant pools (with every stack
//      trace as a list of frames, each frame decoded field by field by
//      its fields' names: FrameDecoding::kPlain, where the fast reader has
//      batched readers for the usual layout), and its events, decoded by
//      the metadata's field names (events.h);
//   2. resolve: each selected event through the time and thread-state
//      filters, its values, frames, class frame and labels (semantics.h),
//      into ProfileBuilder::add_sample(frames, values, labels).
//
// At the end: --leak's mallocs never freed, the metadata and notes, and the
// Java tiers of one method at one place merged into one frame by
// merge_compilation_kinds() (the tier vote).
//
// Nothing here is tuned: no threads, no hand-offs, no folding of events,
// no caches beyond the builder's own interning. It is the fast reader's
// meaning, written out once more in the plainest way, for tests to hold
// the fast reader to.
#include "formats/jfr/reference_reader.h"

#include <map>
#include <set>
#include <unordered_map>
#include <vector>

#include "fg/java_frames.h"
#include "formats/jfr/chunk.h"
#include "formats/jfr/constant_pools.h"
#include "formats/jfr/cursor.h"
#include "formats/jfr/events.h"
#include "formats/jfr/metadata.h"
#include "formats/jfr/semantics.h"

namespace fg::formats::jfr {

namespace {

// A stack trace of the pools: indices into Pools::frames, leaf first.
struct Trace {
  std::vector<std::uint32_t> frames;
  bool truncated = false;
};

// What step 1 makes of one chunk.
struct ParsedChunk {
  ChunkHeader header;
  ChunkMetadata meta;
  Pools pools;
  std::unordered_map<std::uint32_t, Trace> traces;        // by position in pools.stack_traces
  std::vector<std::pair<EventType, EventRecord>> events;  // the selected ones, in file order
  std::map<std::uint64_t, std::uint64_t> counts;          // every event, by type id
  std::vector<std::pair<std::string, std::string>> info;  // jdk.JVMInformation, jdk.OSInformation
};

class ReferenceReader {
 public:
  ReferenceReader(Input& input, const ReadOptions& options, Diagnostics& diagnostics, Diagnostics& chunk_diag)
      : input_(input),
        file_(input.name()),
        opt_(options.jfr),
        note_(options.note),
        every_kind_read_(options.every_kind_read),
        diag_(diagnostics),
        chunk_diag_(chunk_diag),
        builder_(columns_for(opt_.events)),
        naming_(naming_options(opt_)),
        labels_(keeps_labels(options)),
        states_(state_names(opt_.state)) {}

  Reading run() {
    if (opt_.leak && opt_.events != Events::kNativeMem) throw UsageError("--leak needs --nativemem");
    ChunkReader chunks(input_, chunk_diag_);
    std::size_t index = 0;
    for (std::optional<Chunk> c; (c = chunks.next()); ++index) {
      try {
        const ParsedChunk pc = parse(*c);
        resolve(pc);
      } catch (const ParseError& e) {
        throw ParseError(e.position(), "chunk " + std::to_string(index + 1) + ": " + e.message());
      }
    }
    add_leaks();
    check_states_matched(summary_, states_);
    fill_metadata(summary_, file_, builder_.metadata());
    report(summary_, opt_, file_, note_, diag_, every_kind_read_);
    const std::size_t column = default_column(opt_);
    builder_.metadata().default_value = columns_for(opt_.events)[column].type;
    Profile p = merge_compilation_kinds(std::move(builder_).finish(), column);
    return {std::move(p), sole_other_kind(summary_, opt_.events)};
  }

 private:
  // ---- Step 1: parse

  ParsedChunk parse(const Chunk& c) {
    ParsedChunk pc;
    pc.header = c.header;
    const ChunkHeader& h = pc.header;
    Cursor chunk(c.bytes, file_, h.offset, h.compressed());
    Cursor meta = chunk.window(h.metadata_offset, h.size - h.metadata_offset, "metadata event");
    const std::uint64_t meta_size = static_cast<std::uint32_t>(meta.read_int());
    meta.seek(0);
    Cursor meta_record = meta.sub(meta_size, "metadata event");
    pc.meta = read_metadata(meta_record);
    read_constant_pools(
        chunk, h.checkpoint_offset, pc.meta, pc.pools, naming_.lines || naming_.bci, {},
        [&](TraceBatch& batch) { add_traces(batch, pc.traces); }, FrameDecoding::kPlain);
    read_events(chunk, pc);
    return pc;
  }

  static void add_traces(const TraceBatch& batch, std::unordered_map<std::uint32_t, Trace>& traces) {
    std::uint32_t begin = 0;
    for (const TraceBatch::Trace& t : batch.traces) {
      Trace& out = traces[t.position];  // a position given twice keeps its last trace
      out.frames.assign(batch.frames.begin() + begin, batch.frames.begin() + t.end);
      out.truncated = t.truncated;
      begin = t.end;
    }
  }

  // Every event record after the header, each checked as it is read.
  void read_events(Cursor& chunk, ParsedChunk& pc) const {
    const EventPlans plans(pc.meta, opt_.events, needs_time(opt_));
    const ClassDesc* jvm = pc.meta.find("jdk.JVMInformation");
    const ClassDesc* os = pc.meta.find("jdk.OSInformation");
    chunk.seek(kChunkHeaderSize);
    while (!chunk.at_end()) {
      Record r = next_record(chunk);
      const std::uint64_t type = r.type;
      Cursor& rec = r.fields;
      if (type == 0 || type == 1) continue;  // metadata, checkpoints
      ++pc.counts[type];
      if (const EventPlan* plan = plans.find(type))
        pc.events.emplace_back(plan->type(), plan->decode(rec, pc.meta));
      else if ((jvm && type == jvm->id) || (os && type == os->id))
        read_info(pc.meta, pc.pools, *pc.meta.find(type), rec, pc.info);
    }
  }

  // ---- Step 2: resolve

  void resolve(const ParsedChunk& pc) {
    summary_.begin_chunk(pc.header, pc.meta);
    span_.add(pc.header);
    const TimeWindow window = time_window(opt_, span_);
    std::optional<StateChoice> states;
    if (filters_states(opt_.events, states_)) {
      states = choose_states(thread_states(pc.pools), opt_.events, states_);
      summary_.add_states(*states);
    }
    std::set<std::uint32_t> used;  // trace positions of the events kept
    for (const auto& [type, e] : pc.events) {
      const std::int64_t ns = needs_time(opt_) ? pc.header.to_ns(e.time) : 0;
      if (!window.contains(ns)) continue;
      if (dropped_by_state(type, e.has_state, e.state, states ? &states->allowed : nullptr)) continue;
      const std::optional<std::uint32_t> position = trace_position(pc, e.stack);
      if (position) used.insert(*position);
      add_event(pc, type, e, ns, position);
    }
    for (std::uint32_t p : used) summary_.truncated += pc.traces.at(p).truncated ? 1 : 0;
    leaks_.end_chunk();
    for (const auto& [type, n] : pc.counts) summary_.type_counts[event_type_label(pc.meta, type)] += n;
    for (const auto& [key, text] : pc.info) summary_.info.try_emplace(key, text);
  }

  // The position of the trace of pool key `key`, when the pools hold it.
  static std::optional<std::uint32_t> trace_position(const ParsedChunk& pc, std::uint64_t key) {
    if (key == 0) return std::nullopt;
    const std::uint32_t p = pc.pools.stack_traces.position(key);
    if (p == U64Map::kMissing || !pc.traces.count(p)) return std::nullopt;
    return p;
  }

  void add_event(const ParsedChunk& pc, EventType type, const EventRecord& e, std::int64_t ns,
                 std::optional<std::uint32_t> position) {
    const EventValues v = event_values(opt_, type, e, pc.header);
    ReadSummary::Selected& sel = summary_.selected[static_cast<std::size_t>(type)];
    sel.events += 1;
    sel.samples += v.samples;
    std::optional<std::vector<FrameId>> frames;
    if (position) frames = stack_frames(pc, pc.traces.at(*position), e.thread);
    LabelSetId labels;  // none
    if (labels_)
      labels = builder_.labels(
          event_labels(builder_, pc.pools, e.thread, is_sample(type) && e.has_state, e.state));
    if (opt_.leak) {  // a free counts with or without a stack
      std::optional<LeakTracker::Malloc> m;
      if (type == EventType::kMalloc)
        m = LeakTracker::Malloc{ns, frames ? std::optional(builder_.stack(*frames)) : std::nullopt, labels,
                                v.values[1]};
      leaks_.add(e.time, ns, e.address, m);
      return;
    }
    if (!frames) {
      ++summary_.no_stack;
      return;
    }
    if (v.class_frame && e.cls != 0)
      frames->push_back(
          builder_.frame(class_frame_name(pc.pools, e.cls, naming_), class_frame_kind(v.outside_tlab)));
    builder_.add_sample(*frames, std::span<const std::int64_t>(v.values, builder_.value_count()), labels);
  }

  // The frames of `trace`, root first, below the thread's frame with --threads.
  std::vector<FrameId> stack_frames(const ParsedChunk& pc, const Trace& trace, std::uint64_t thread) {
    std::vector<FrameId> frames;
    if (opt_.threads)
      frames.push_back(builder_.frame(thread_frame_name(thread_name(pc.pools, thread), thread)));
    const bool kernel_known = knows_kernel(pc.pools);
    for (auto i = trace.frames.rbegin(); i != trace.frames.rend(); ++i) {
      const FrameRef& f = pc.pools.frames[*i];
      const FrameKind kind = frame_kind(pc.pools.enum_name("jdk.types.FrameType", f.type), f.type);
      frames.push_back(
          builder_.frame(builder_.function(frame_name(pc.pools, f, kind, kernel_known, naming_)), kind));
    }
    return frames;
  }

  void add_leaks() {
    for (const LeakTracker::Malloc& m : leaks_.leaks()) {
      if (!m.stack) {
        ++summary_.no_stack;
        continue;
      }
      const std::int64_t values[2] = {1, m.size};
      builder_.add_sample(*m.stack, std::span<const std::int64_t>(values, builder_.value_count()), m.labels);
    }
  }

  Input& input_;
  const std::string& file_;
  const JfrOptions& opt_;
  const std::function<void(const std::string&)>& note_;
  const bool every_kind_read_;
  Diagnostics& diag_;
  Diagnostics& chunk_diag_;
  ProfileBuilder builder_;
  const NamingOptions naming_;
  const bool labels_;
  const std::vector<std::string> states_;  // --state names
  TimeSpan span_;                          // of the chunks so far
  LeakTracker leaks_;
  ReadSummary summary_;
};

}  // namespace

Profile read_reference(Input& input, const ReadOptions& options, Diagnostics& diagnostics) {
  return read_default_or_sole_kind(input, options, diagnostics,
                                   [](Input& in, const ReadOptions& o, Diagnostics& d, Diagnostics& chunk_d) {
                                     return ReferenceReader(in, o, d, chunk_d).run();
                                   });
}

}  // namespace fg::formats::jfr
