// What a JFR recording means to fg, as plain functions: the fast reader
// (reader.h) and the reference reader (reference_reader.h) both call these,
// so that the two differ only in how they get there, never in what they make.
//
//   event selection   which event types an option reads, the value columns
//                     they fill, and the values one event adds
//   time window       --time-from/--time-to over the chunks read so far
//   thread states     --state, --cpu and --wall: which ThreadState keys pass
//   frame kinds       FrameType names to FrameKinds; the tier vote that
//                     gives one merged Java frame its kind is
//                     fg::TierWeights::decide (fg/java_frames.h)
//   leak tracking     --nativemem --leak: mallocs never freed, but the youngest
//   naming            frames, class frames and thread labels from the pools
//                     (the strings themselves: naming.h)
//   summary           what was read, as metadata and notes
//
// The choices follow async-profiler's converter (jfrconv / converter.jar).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "fg/builder.h"
#include "fg/diagnostics.h"
#include "formats/input.h"
#include "formats/jfr/chunk.h"
#include "formats/jfr/constant_pools.h"
#include "formats/jfr/events.h"
#include "formats/jfr/naming.h"
#include "formats/options.h"

namespace fg::formats::jfr {

using Events = JfrOptions::Events;

// ---- Event selection

/// The value columns of a profile of `e`'s events.
std::vector<ValueType> columns_for(Events e);
/// Whether `events` selects event type `t`.
bool selected(Events events, EventType t);
/// The option that selects `e` ("alloc", "lock", ...; "" for the default).
std::string_view events_option(Events e);

/// Execution, native-method, wall-clock and CPU-time samples.
inline bool is_sample(EventType t) {
  return t == EventType::kExecutionSample || t == EventType::kNativeMethodSample ||
         t == EventType::kWallClockSample || t == EventType::kCpuTimeSample;
}
/// Allocations in and outside TLABs, and allocation samples.
inline bool is_alloc(EventType t) {
  return t == EventType::kAllocInNewTlab || t == EventType::kAllocOutsideTlab || t == EventType::kAllocSample;
}

/// What one selected event adds to the profile, besides its stack and labels.
struct EventValues {
  std::int64_t values[2] = {0, 0};  ///< by the columns of columns_for()
  std::uint64_t samples = 0;        ///< the samples it stands for (its samples field, negative as 0)
  bool class_frame = false;         ///< its class (EventRecord::cls) is its top frame
  bool outside_tlab = false;        ///< an allocation outside a TLAB: its class frame is `_[k]`
};

/// The values of event `e` of type `type` in chunk `h`: samples count their
/// samples field; other events count 1 and weigh, for locks, their
/// duration in ns; for allocations, the TLAB's size when they opened one
/// (async-profiler records its sampling interval there, the JDK the buffer
/// the object opened), else their size; with --leak, their size.
inline EventValues event_values(const JfrOptions& opt, EventType type, const EventRecord& e,
                                const ChunkHeader& h) {
  EventValues v;
  v.samples = static_cast<std::uint64_t>(e.samples < 0 ? 0 : e.samples);
  v.class_frame = !is_sample(type);
  v.outside_tlab = is_alloc(type) && e.tlab <= 0;
  v.values[0] = e.samples;
  if (!is_sample(type)) {
    v.values[0] = 1;
    const bool lock = opt.events == Events::kLock || opt.events == Events::kNativeLock;
    v.values[1] = lock ? h.ticks_to_ns(e.duration) : e.tlab > 0 ? e.tlab : e.size;
  }
  if (opt.leak) v.values[1] = e.size;
  return v;
}

/// The default value column: the weight (ns, bytes) with --total when the
/// events have one, else the count.
inline std::size_t default_column(const JfrOptions& opt) {
  return opt.total && columns_for(opt.events).size() > 1 ? 1 : 0;
}

// ---- Time window

/// The time from the first start to the last end of the chunks read so far:
/// the recording's, and what relative --time-from/--time-to count from, as
/// in the converter.
struct TimeSpan {
  std::int64_t start_ns = INT64_MAX, end_ns = INT64_MIN;
  void add(const ChunkHeader& h) {
    start_ns = std::min(start_ns, h.start_ns);
    end_ns = std::max(end_ns, saturate(static_cast<__int128>(h.start_ns) + h.duration_ns));
  }
};

/// The events kept by time, in ns since the epoch, both ends included.
struct TimeWindow {
  std::int64_t from_ns = INT64_MIN, to_ns = INT64_MAX;
  bool contains(std::int64_t ns) const { return ns >= from_ns && ns <= to_ns; }
};

/// Whether events need their time: a bound is set, or --leak (which orders
/// mallocs and frees by it).
inline bool needs_time(const JfrOptions& opt) {
  return !opt.time_from.empty() || !opt.time_to.empty() || opt.leak;
}
/// --time-from/--time-to for a chunk, `span` being that of the chunks up
/// to and including it. Throws UsageError for a bad bound.
TimeWindow time_window(const JfrOptions& opt, const TimeSpan& span);

// ---- Thread states

/// --state's comma-separated names, upper case (empty ones dropped).
std::vector<std::string> state_names(const std::string& list);
/// Whether samples are filtered by thread state: --state names (`states`), --cpu, --wall.
inline bool filters_states(Events e, const std::vector<std::string>& states) {
  return !states.empty() || e == Events::kCpu || e == Events::kWall;
}

/// A chunk's ThreadState keys that pass the filter.
struct StateChoice {
  std::unordered_set<std::uint64_t> allowed;
  std::set<std::string> matched;  ///< the --state names some state matched
  bool any_default = false;       ///< the chunk has async-profiler's STATE_DEFAULT
};
/// The states of a chunk's jdk.types.ThreadState pool, (key, name).
std::vector<std::pair<std::uint64_t, std::string>> thread_states(const Pools& pools);
/// With `states` (--state): the states whose name past "STATE_" begins
/// with one of them; else with --cpu STATE_DEFAULT, with --wall all others.
/// Only call when filters_states().
StateChoice choose_states(const std::vector<std::pair<std::uint64_t, std::string>>& thread_states, Events e,
                          const std::vector<std::string>& states);
/// Whether `allowed` (nullptr: no filter) drops an event of type `t`: only
/// samples are filtered, and one without a state is dropped.
inline bool dropped_by_state(EventType t, bool has_state, std::uint64_t state,
                             const std::unordered_set<std::uint64_t>* allowed) {
  return is_sample(t) && allowed && (!has_state || !allowed->count(state));
}

// ---- Frame kinds

/// Frame types by the names in the recording's jdk.types.FrameType pool
/// ("Interpreted", "JIT compiled", "Inlined", "Native", "C++", "Kernel",
/// "C1 compiled"), else by async-profiler's numbering of them (0-6).
FrameKind frame_kind(const std::string* type_name, std::uint64_t key);
/// Whether the pools' FrameType has Kernel: async-profiler's; then Native means C code.
bool knows_kernel(const Pools& pools);
/// Whether a frame of `kind` is C code, named by its method alone.
inline bool native_code(FrameKind kind, bool kernel_known) {
  return (kind == FrameKind::kNative && kernel_known) || kind == FrameKind::kCpp ||
         kind == FrameKind::kKernel;
}
/// The kind of an allocated or locked class's frame: `_[k]` outside a TLAB, else `_[i]`.
inline FrameKind class_frame_kind(bool outside_tlab) {
  return outside_tlab ? FrameKind::kKernel : FrameKind::kInlined;
}

// ---- Naming

/// The naming options of the converter's that JfrOptions holds.
inline NamingOptions naming_options(const JfrOptions& opt) {
  return {opt.simple, opt.dot, opt.norm, opt.lines, opt.bci};
}
/// Whether samples carry thread labels (and thread states): not when the
/// output shows none (ReadOptions::labels) and threads are not root
/// frames, so that samples of one stack on many threads are one, as the
/// converter counts them.
inline bool keeps_labels(const ReadOptions& options) { return options.labels || options.jfr.threads; }

/// The name of frame `f` of the pools, of kind `kind`: `class.method`
/// (naming.h), "unknown" for a method the pools do not hold, with :line or
/// @bci as `naming` asks.
std::string frame_name(const Pools& pools, const FrameRef& f, FrameKind kind, bool kernel_known,
                       const NamingOptions& naming);
/// The name of an allocated or locked class (Class pool key); "null" for a
/// key the pools do not hold.
std::string class_frame_name(const Pools& pools, std::uint64_t cls, const NamingOptions& naming);
/// A thread's name: javaName, else osName; nullptr when it has neither.
const std::string* thread_name(const Pools& pools, std::uint64_t thread);
/// The labels of an event: thread (its name, else `[tid=N]`), thread_id
/// (the pool key) and, with `with_state`, state (the ThreadState name, else its key).
std::vector<Label> event_labels(ProfileBuilder& builder, const Pools& pools, std::uint64_t thread,
                                bool with_state, std::uint64_t state);

// ---- Leak tracking

/// --nativemem --leak: each address's last malloc, forgotten at its free,
/// chunk by chunk in time order; at the end, those older than the last
/// tenth of the time the mallocs and frees span (younger ones are not
/// called leaks, as in the converter).
class LeakTracker {
 public:
  struct Malloc {
    std::int64_t time_ns;
    std::optional<StackId> stack;  ///< none: the malloc has no stack trace
    LabelSetId labels;
    std::int64_t size;
  };
  /// A malloc (with `malloc`) or a free of the current chunk, at `ticks`
  /// (the chunk's clock, for the order) and `ns`.
  void add(std::int64_t ticks, std::int64_t ns, std::uint64_t address, std::optional<Malloc> malloc);
  /// Applies the chunk's mallocs and frees, in time order (equal times in
  /// the order added).
  void end_chunk();
  /// The mallocs never freed, but the youngest, by address.
  std::vector<Malloc> leaks() const;

 private:
  struct Event {
    std::int64_t ticks;
    std::uint64_t address;
    std::optional<Malloc> malloc;
  };
  std::vector<Event> chunk_;
  std::unordered_map<std::uint64_t, Malloc> live_;
  std::int64_t lo_ns_ = INT64_MAX, hi_ns_ = INT64_MIN;
};

// ---- Summary

/// What a reading found, for the profile's metadata and the notes.
struct ReadSummary {
  struct Selected {
    std::uint64_t events = 0, samples = 0;
  };
  std::size_t chunks = 0;
  std::string version;  ///< of the first chunk
  TimeSpan span;
  bool async_profiler = false, jdk = false;
  std::map<std::string, std::uint64_t> type_counts;  ///< every event type of the file, by name
  std::array<Selected, kEventTypes> selected{};      ///< by EventType
  std::map<std::string, std::string> info;           ///< jvm_name, jvm_version, os: the first found
  std::set<std::string> states_matched;              ///< --state names some state matched
  bool any_default_state = false;                    ///< some chunk has STATE_DEFAULT (with a state filter)
  std::uint64_t no_stack = 0;                        ///< selected events without a stack trace
  std::uint64_t truncated = 0;                       ///< stack traces cut by the recorder, among those used

  /// A chunk's header and metadata: version, span, producer.
  void begin_chunk(const ChunkHeader& h, const ChunkMetadata& meta);
  /// What choose_states() found in a chunk.
  void add_states(const StateChoice& c);
  bool any_selected() const;
};

/// The name an event type id of `meta` is counted under: its class's, or "type N".
std::string event_type_label(const ChunkMetadata& meta, std::uint64_t id);
/// The profile's metadata from `s`.
void fill_metadata(const ReadSummary& s, const std::string& file, Metadata& m);
/// A UsageError for a --state name that matched no state of the recording.
void check_states_matched(const ReadSummary& s, const std::vector<std::string>& states);
/// The warning for events without stack, and the notes: what was counted,
/// and which other kinds the file holds (not after the default events when
/// `every_kind_read`: the caller reads each of them, ReadOptions::every_kind_read;
/// nor, then, what the default events counted when it reads cpu and wall
/// samples apart).
void report(const ReadSummary& s, const JfrOptions& opt, const std::string& file,
            const std::function<void(const std::string&)>& note, Diagnostics& diag,
            bool every_kind_read = false);
/// When `e` is the default and the file holds none of it, the one other
/// kind it holds (as its option selects it), if it holds exactly one kind.
std::optional<Events> sole_other_kind(const ReadSummary& s, Events e);

/// One reading of a recording: its profile, and sole_other_kind() of what it found.
struct Reading {
  Profile profile;
  std::optional<Events> other;
};
/// Reads `input` with `options` once; warnings about its chunks go to
/// `chunk_diagnostics`, the others to `diagnostics`.
using ReadOnce = std::function<Reading(Input& input, const ReadOptions& options, Diagnostics& diagnostics,
                                       Diagnostics& chunk_diagnostics)>;
/// read_once(); then, when the file has none of the default events but one
/// other kind, that kind, read again with a note, as a batch over
/// alloc-only or lock-only recordings expects. Standard input and pipes
/// cannot be read again: their note (report()) names the option.
Profile read_default_or_sole_kind(Input& input, const ReadOptions& options, Diagnostics& diagnostics,
                                  const ReadOnce& read_once);

}  // namespace fg::formats::jfr
