// The events fg turns into samples, found by name in each chunk's metadata
// (type ids differ between producers and between chunks), and decoded by
// their fields' names, not by position: a field a producer adds or drops
// changes nothing here.
//
//   jdk.ExecutionSample, jdk.NativeMethodSample   startTime, sampledThread, stackTrace, state
//   profiler.WallClockSample (async-profiler)     the same + samples (folded samples)
//   jdk.CPUTimeSample (JDK 25)                    startTime, eventThread, stackTrace
//   jdk.ObjectAllocationInNewTLAB / OutsideTLAB   eventThread, stackTrace, objectClass,
//                                                 allocationSize (+ tlabSize)
//   jdk.ObjectAllocationSample                    ..., objectClass, weight
//   profiler.LiveObject                           ..., objectClass, allocationSize
//   profiler.Malloc / profiler.Free               ..., address (+ size)
//   jdk.JavaMonitorEnter / jdk.ThreadPark         duration, ..., monitorClass / parkedClass
//   profiler.NativeLock                           duration, ..., address
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "formats/jfr/constant_pools.h"
#include "formats/jfr/metadata.h"
#include "formats/options.h"

namespace fg::formats::jfr {

enum class EventType : std::uint8_t {
  kExecutionSample,
  kNativeMethodSample,
  kWallClockSample,
  kCpuTimeSample,
  kAllocInNewTlab,
  kAllocOutsideTlab,
  kAllocSample,
  kLiveObject,
  kMalloc,
  kFree,
  kMonitorEnter,
  kThreadPark,
  kNativeLock,
};
inline constexpr std::size_t kEventTypes = 13;

/// The JFR type name of an event type ("jdk.ExecutionSample").
std::string_view event_type_name(EventType t);
/// The converter option that selects `t` ("cpu/wall", "alloc", ...).
std::string_view event_group(EventType t);

/// The fields of one event that a sample needs; absent fields keep these values.
struct EventRecord {
  std::int64_t time = 0;     ///< ticks
  std::uint64_t thread = 0;  ///< Thread pool key
  std::uint64_t stack = 0;   ///< StackTrace pool key; 0: none
  std::uint64_t state = 0;   ///< ThreadState pool key
  bool has_state = false;
  std::int64_t samples = 1;   ///< samples folded into this event
  std::uint64_t cls = 0;      ///< Class pool key of the allocated or locked class; 0: none
  std::int64_t size = 0;      ///< bytes (allocation size, sample weight, malloc size)
  std::int64_t tlab = -1;     ///< tlabSize; -1 when the event has none
  std::int64_t duration = 0;  ///< ticks
  std::uint64_t address = 0;
};

/// How to decode one event type of one chunk.
class EventPlan {
 public:
  /// Without `timed`, the event's time is not wanted: decode_unchecked()
  /// skips it, and EventRecord::time is 0.
  EventPlan(EventType type, const ClassDesc& cls, bool timed = true);
  EventType type() const { return type_; }
  /// Decodes the fields after the record's size and type id.
  EventRecord decode(Cursor& c, const ChunkMetadata& meta) const;
  /// At most how many bytes decode_unchecked() reads, or 0 when the type
  /// has a field it cannot read (a string, a struct, an array).
  std::size_t unchecked_bytes() const { return unchecked_bytes_; }
  /// decode() from bytes known to be readable (Cursor::unchecked() of
  /// unchecked_bytes()) in a chunk of varints, without a check per byte;
  /// moves `p` past the fields. The caller checks that they lay within the
  /// record. One decoder (decode_fields()) serves both: only where the
  /// bytes come from differs.
  EventRecord decode_unchecked(const char*& p) const;

 private:
  enum class Role : std::uint8_t {
    kSkip,
    kTime,
    kThread,
    kStack,
    kState,
    kSamples,
    kClass,
    kSize,
    kTlab,
    kDuration,
    kAddress,
  };
  struct Step {
    Role role;
    IntegerRead read;  // decided once per field
  };
  static void set(EventRecord& e, Role role, std::int64_t v);
  // The fields, by role, from `in` (events.cpp: CheckedFields, UncheckedFields):
  // its read(i, how) gives field i's value, its skip(i, how) passes over it.
  template <class Fields>
  EventRecord decode_fields(Fields& in) const;
  EventType type_;
  const ClassDesc* cls_;
  std::vector<Step> steps_;  // by field
  std::size_t unchecked_bytes_ = 0;
};

/// Plans for the event types of a chunk that `events` selects, by type id:
/// looked up for every event, so the small ids producers give (they index
/// the metadata's classes) are found in a table.
class EventPlans {
 public:
  /// `timed`: as EventPlan's.
  EventPlans(const ChunkMetadata& meta, JfrOptions::Events events, bool timed = true);
  EventPlans(const EventPlans&) = delete;  // by_small_id_ points into plans_
  EventPlans& operator=(const EventPlans&) = delete;
  /// The plan for type `id`, or nullptr when the type is not selected.
  const EventPlan* find(std::uint64_t id) const {
    if (id < by_small_id_.size()) return by_small_id_[id];
    if (id < kSmallIds) return nullptr;
    auto it = plans_.find(id);
    return it == plans_.end() ? nullptr : &it->second;
  }

 private:
  static constexpr std::uint64_t kSmallIds = 65536;
  std::unordered_map<std::uint64_t, EventPlan> plans_;
  std::vector<const EventPlan*> by_small_id_;
};

/// One record of a chunk's events (and metadata and checkpoints).
struct Record {
  std::uint64_t offset;  ///< in the file
  std::uint64_t type;    ///< type id: 0 metadata, 1 checkpoint, else an event's class
  Cursor fields;         ///< the fields, after the size and type id
};
/// The record at `chunk`'s position, which moves past it. A size of 0, or
/// one past the chunk's end, is a ParseError.
Record next_record(Cursor& chunk);

/// The fields of a jdk.JVMInformation or jdk.OSInformation event (class
/// `cls`) that fg shows, from `rec` (after the size and type id), appended
/// to `info` as ("jvm_name" | "jvm_version" | "os", text).
void read_info(const ChunkMetadata& meta, const Pools& pools, const ClassDesc& cls, Cursor& rec,
               std::vector<std::pair<std::string, std::string>>& info);

}  // namespace fg::formats::jfr
