#include "formats/jfr/events.h"

#include <array>

#include "formats/jfr/semantics.h"

namespace fg::formats::jfr {

namespace {

struct TypeInfo {
  EventType type;
  std::string_view name;
  std::string_view group;
};

constexpr std::array<TypeInfo, kEventTypes> kTypes = {{
    {EventType::kExecutionSample, "jdk.ExecutionSample", "cpu/wall"},
    {EventType::kNativeMethodSample, "jdk.NativeMethodSample", "cpu/wall"},
    {EventType::kWallClockSample, "profiler.WallClockSample", "cpu/wall"},
    {EventType::kCpuTimeSample, "jdk.CPUTimeSample", "cpu/wall"},
    {EventType::kAllocInNewTlab, "jdk.ObjectAllocationInNewTLAB", "alloc"},
    {EventType::kAllocOutsideTlab, "jdk.ObjectAllocationOutsideTLAB", "alloc"},
    {EventType::kAllocSample, "jdk.ObjectAllocationSample", "alloc"},
    {EventType::kLiveObject, "profiler.LiveObject", "live"},
    {EventType::kMalloc, "profiler.Malloc", "nativemem"},
    {EventType::kFree, "profiler.Free", "nativemem"},
    {EventType::kMonitorEnter, "jdk.JavaMonitorEnter", "lock"},
    {EventType::kThreadPark, "jdk.ThreadPark", "lock"},
    {EventType::kNativeLock, "profiler.NativeLock", "nativelock"},
}};

}  // namespace

std::string_view event_type_name(EventType t) { return kTypes[static_cast<std::size_t>(t)].name; }

std::string_view event_group(EventType t) { return kTypes[static_cast<std::size_t>(t)].group; }

EventPlan::EventPlan(EventType type, const ClassDesc& cls, bool timed) : type_(type), cls_(&cls) {
  static const std::pair<std::string_view, Role> kRoles[] = {
      {"startTime", Role::kTime},      {"sampledThread", Role::kThread}, {"eventThread", Role::kThread},
      {"stackTrace", Role::kStack},    {"state", Role::kState},          {"samples", Role::kSamples},
      {"objectClass", Role::kClass},   {"monitorClass", Role::kClass},   {"parkedClass", Role::kClass},
      {"allocationSize", Role::kSize}, {"weight", Role::kSize},          {"size", Role::kSize},
      {"tlabSize", Role::kTlab},       {"duration", Role::kDuration},    {"address", Role::kAddress},
  };
  bool have_thread = false;
  for (const FieldDesc& f : cls.fields) {
    Role r = Role::kSkip;
    for (const auto& [name, role] : kRoles)
      if (f.name == name) r = role;
    if (f.array || (r == Role::kTime && !timed)) r = Role::kSkip;
    if (r == Role::kThread) {  // sampledThread wins over eventThread
      if (have_thread && f.name == "eventThread") r = Role::kSkip;
      have_thread = true;
    }
    steps_.push_back({r, integer_read(f)});
  }
  unchecked_bytes_ = 9 * steps_.size();
  for (const Step& s : steps_)
    if (s.read == IntegerRead::kOther) unchecked_bytes_ = 0;
}

void EventPlan::set(EventRecord& e, Role role, std::int64_t v) {
  switch (role) {
    case Role::kTime:
      e.time = v;
      break;
    case Role::kThread:
      e.thread = static_cast<std::uint64_t>(v);
      break;
    case Role::kStack:
      e.stack = static_cast<std::uint64_t>(v);
      break;
    case Role::kState:
      e.state = static_cast<std::uint64_t>(v);
      e.has_state = true;
      break;
    case Role::kSamples:
      e.samples = v;
      break;
    case Role::kClass:
      e.cls = static_cast<std::uint64_t>(v);
      break;
    case Role::kSize:
      e.size = v;
      break;
    case Role::kTlab:
      e.tlab = v;
      break;
    case Role::kDuration:
      e.duration = v;
      break;
    case Role::kAddress:
      e.address = static_cast<std::uint64_t>(v);
      break;
    case Role::kSkip:
      break;
  }
}

namespace {

// decode_fields()' source for decode(): each field read through the
// cursor, bounds-checked, as read_integer() reads it; a field of no role is
// read all the same (a string, a struct, an array: skipped).
struct CheckedFields {
  Cursor& c;
  const ChunkMetadata& meta;
  const std::vector<FieldDesc>& fields;
  std::int64_t read(std::size_t i, IntegerRead how) { return read_integer(c, meta, fields[i], how); }
  void skip(std::size_t i, IntegerRead how) { read(i, how); }
};

// decode_fields()' source for decode_unchecked(): as read_integer() reads
// each kind in a chunk of varints, from a varint (or, for a byte, the
// byte), without a check per byte; never a kOther field (unchecked_bytes()).
struct UncheckedFields {
  const char*& p;
  std::int64_t read(std::size_t, IntegerRead how) {
    switch (how) {
      case IntegerRead::kLong:
        return static_cast<std::int64_t>(Cursor::unchecked_varint(p));
      case IntegerRead::kInt:
        return static_cast<std::int32_t>(static_cast<std::uint32_t>(Cursor::unchecked_varint(p)));
      case IntegerRead::kShort:
        return static_cast<std::int16_t>(static_cast<std::uint16_t>(Cursor::unchecked_varint(p)));
      case IntegerRead::kByte:
        return static_cast<std::int8_t>(*p++);
      case IntegerRead::kOther:
        break;
    }
    return 0;
  }
  void skip(std::size_t, IntegerRead how) {
    if (how == IntegerRead::kByte)
      ++p;
    else
      Cursor::skip_unchecked_varint(p);
  }
};

}  // namespace

template <class Fields>
EventRecord EventPlan::decode_fields(Fields& in) const {
  EventRecord e;
  for (std::size_t i = 0; i < steps_.size(); ++i) {
    const Step& s = steps_[i];
    if (s.role == Role::kSkip)
      in.skip(i, s.read);
    else
      set(e, s.role, in.read(i, s.read));
  }
  return e;
}

EventRecord EventPlan::decode(Cursor& c, const ChunkMetadata& meta) const {
  CheckedFields in{c, meta, cls_->fields};
  return decode_fields(in);
}

EventRecord EventPlan::decode_unchecked(const char*& p) const {
  UncheckedFields in{p};
  return decode_fields(in);
}

EventPlans::EventPlans(const ChunkMetadata& meta, JfrOptions::Events events, bool timed) {
  for (const TypeInfo& t : kTypes) {
    if (!selected(events, t.type)) continue;
    const ClassDesc* cls = meta.find(t.name);
    if (!cls) continue;
    const EventPlan& plan = plans_.emplace(cls->id, EventPlan(t.type, *cls, timed)).first->second;
    if (cls->id >= kSmallIds) continue;
    if (cls->id >= by_small_id_.size()) by_small_id_.resize(cls->id + 1);
    by_small_id_[cls->id] = &plan;
  }
}

Record next_record(Cursor& chunk) {
  const std::size_t start = chunk.pos();
  const std::uint64_t at = chunk.offset();
  const std::uint64_t size = static_cast<std::uint32_t>(chunk.read_int());
  if (size == 0) chunk.fail_at(at, "event size 0");
  chunk.seek(start);
  Cursor rec = chunk.sub(size, "event");
  rec.read_int();
  const std::uint64_t type = static_cast<std::uint64_t>(rec.read_long());
  return {at, type, rec};
}

void read_info(const ChunkMetadata& meta, const Pools& pools, const ClassDesc& cls, Cursor& rec,
               std::vector<std::pair<std::string, std::string>>& info) {
  for (const FieldDesc& f : cls.fields) {
    const bool wanted = f.name == "jvmName" || f.name == "jvmVersion" || f.name == "osVersion";
    if (!wanted || f.array || f.constant_pool || f.encoding != Encoding::kString) {
      skip_field(rec, meta, f);
      continue;
    }
    const StringValue v = rec.read_string();
    if (const std::string* text = pools.text(v))
      info.emplace_back(f.name == "osVersion" ? "os"
                        : f.name == "jvmName" ? "jvm_name"
                                              : "jvm_version",
                        *text);
  }
}

}  // namespace fg::formats::jfr
