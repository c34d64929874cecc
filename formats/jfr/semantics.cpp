#include "formats/jfr/semantics.h"

#include <algorithm>
#include <span>

#include "fg/filter.h"
#include "fg/time_bound.h"
#include "formats/jfr/jfr.h"

namespace fg::formats::jfr {

// ---- Event selection

std::vector<ValueType> columns_for(Events e) {
  switch (e) {
    case Events::kDefault:
      return {{"samples", "count"}};
    case Events::kCpu:
      return {{"cpu", "count"}};
    case Events::kWall:
      return {{"wall", "count"}};
    case Events::kAlloc:
      return {{"alloc_objects", "count"}, {"alloc_space", "bytes"}};
    case Events::kLive:
      return {{"live_objects", "count"}, {"live_space", "bytes"}};
    case Events::kNativeMem:
      return {{"malloc_calls", "count"}, {"malloc_space", "bytes"}};
    case Events::kLock:
      return {{"lock_count", "count"}, {"lock_time", "nanoseconds"}};
    case Events::kNativeLock:
      return {{"native_lock_count", "count"}, {"native_lock_time", "nanoseconds"}};
  }
  return {};
}

bool selected(Events events, EventType t) {
  switch (events) {
    case Events::kDefault:
    case Events::kCpu:
    case Events::kWall:
      return event_group(t) == "cpu/wall";
    case Events::kAlloc:
      return event_group(t) == "alloc";
    case Events::kLive:
      return t == EventType::kLiveObject;
    case Events::kNativeMem:
      return t == EventType::kMalloc || t == EventType::kFree;
    case Events::kLock:
      return t == EventType::kMonitorEnter || t == EventType::kThreadPark;
    case Events::kNativeLock:
      return t == EventType::kNativeLock;
  }
  return false;
}

namespace {

// The kinds of event, each by the option that selects it (without its
// "--"); fg-report draws a page of each, "samples" being the default events.
constexpr std::pair<std::string_view, Events> kKinds[] = {
    {"samples", Events::kDefault}, {"cpu", Events::kCpu},
    {"wall", Events::kWall},       {"alloc", Events::kAlloc},
    {"live", Events::kLive},       {"nativemem", Events::kNativeMem},
    {"lock", Events::kLock},       {"nativelock", Events::kNativeLock},
};
// The kinds other than the default's events, by their event_group().
constexpr std::span<const std::pair<std::string_view, Events>> kByGroup = std::span(kKinds).subspan(3);

}  // namespace

std::string_view events_option(Events e) {
  for (const auto& [group, events] : kByGroup)
    if (events == e) return group;
  return "";
}

// ---- Event kinds

namespace {

// The kind a profile's columns say it was read as.
std::optional<std::string_view> kind_of_columns(const std::vector<ValueType>& types) {
  for (const auto& [name, events] : kKinds) {
    const std::vector<ValueType> columns = columns_for(events);
    if (types.size() == columns.size() &&
        std::equal(types.begin(), types.end(), columns.begin(), [](const ValueType& a, const ValueType& b) {
          return a.type == b.type && a.unit == b.unit;
        }))
      return name;
  }
  return std::nullopt;
}

// Whether the recording holds events of type `t` (by its events.* properties).
bool holds(const Metadata& m, EventType t) {
  const std::string key = "events." + std::string(event_type_name(t));
  return std::any_of(m.properties.begin(), m.properties.end(), [&](const auto& p) { return p.first == key; });
}

// The other kinds (by kByGroup) whose events the recording holds.
std::set<std::string_view> held_groups(const Metadata& m) {
  constexpr std::string_view kPrefix = "events.";
  std::set<std::string_view> held;
  for (const auto& [key, count] : m.properties) {
    if (key.rfind(kPrefix, 0) != 0) continue;
    for (std::size_t t = 0; t < kEventTypes; ++t)
      if (event_type_name(static_cast<EventType>(t)) == std::string_view(key).substr(kPrefix.size()))
        held.insert(event_group(static_cast<EventType>(t)));
  }
  return held;
}

}  // namespace

std::string event_kind(const Profile& profile) {
  if (profile.metadata().source_format != "jfr") return "";
  return std::string(kind_of_columns(profile.value_types()).value_or(""));
}

std::vector<std::string> event_kinds(const Profile& profile) {
  const std::string own = event_kind(profile);
  if (own.empty()) return {};
  if (own != "samples") return {own};
  // async-profiler's cpu samples (jdk.ExecutionSample in its cpu state) beside
  // its wall-clock ones measure different things: each is a kind of its own.
  const Metadata& m = profile.metadata();
  std::vector<std::string> kinds{own};
  if (holds(m, EventType::kExecutionSample) && holds(m, EventType::kWallClockSample)) kinds = {"cpu", "wall"};
  const std::set<std::string_view> held = held_groups(m);
  for (const auto& [group, events] : kByGroup)
    if (held.count(group)) kinds.emplace_back(group);
  return kinds;
}

void select_event_kind(ReadOptions& options, std::string_view kind) {
  for (const auto& [name, events] : kKinds)
    if (name == kind) {
      options.jfr.events = events;
      return;
    }
  throw UsageError("no kind of JFR event called " + std::string(kind));
}

// ---- Time window

TimeWindow time_window(const JfrOptions& opt, const TimeSpan& s) {
  TimeWindow w;
  if (!opt.time_from.empty())
    w.from_ns = parse_time_bound("--time-from", opt.time_from, s.start_ns, s.end_ns);
  if (!opt.time_to.empty()) w.to_ns = parse_time_bound("--time-to", opt.time_to, s.start_ns, s.end_ns);
  return w;
}

// ---- Thread states

std::vector<std::string> state_names(const std::string& list) {
  std::vector<std::string> out;
  for (std::size_t b = 0, e; b < list.size(); b = e + 1) {
    e = std::min(list.find(',', b), list.size());
    std::string s = list.substr(b, e - b);
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    if (!s.empty()) out.push_back(s);
  }
  return out;
}

std::vector<std::pair<std::uint64_t, std::string>> thread_states(const Pools& pools) {
  std::vector<std::pair<std::uint64_t, std::string>> out;
  auto e = pools.enums.find("jdk.types.ThreadState");
  if (e == pools.enums.end()) return out;
  for (const auto& [key, value] : e->second)
    if (const std::string* name = pools.text(value)) out.emplace_back(key, *name);
  return out;
}

StateChoice choose_states(const std::vector<std::pair<std::uint64_t, std::string>>& thread_states, Events e,
                          const std::vector<std::string>& states) {
  StateChoice c;
  const bool cpu = e == Events::kCpu;
  for (const auto& [key, name] : thread_states) {
    if (name == "STATE_DEFAULT") c.any_default = true;
    if (!states.empty()) {
      for (const std::string& s : states)
        if (name.size() >= 6 && name.compare(6, s.size(), s) == 0) {
          c.allowed.insert(key);
          c.matched.insert(s);
        }
    } else if ((name == "STATE_DEFAULT") == cpu) {
      c.allowed.insert(key);
    }
  }
  return c;
}

// ---- Frame kinds

FrameKind frame_kind(const std::string* type_name, std::uint64_t key) {
  static const std::pair<std::string_view, FrameKind> kNames[] = {
      {"Interpreted", FrameKind::kInterpreted},
      {"JIT compiled", FrameKind::kJit},
      {"Inlined", FrameKind::kInlined},
      {"Native", FrameKind::kNative},
      {"C++", FrameKind::kCpp},
      {"Kernel", FrameKind::kKernel},
      {"C1 compiled", FrameKind::kC1Compiled},
  };
  if (type_name)
    for (const auto& [n, k] : kNames)
      if (*type_name == n) return k;
  return key < std::size(kNames) ? kNames[key].second : FrameKind::kNative;
}

bool knows_kernel(const Pools& pools) { return pools.enum_has("jdk.types.FrameType", "Kernel"); }

// ---- Naming

std::string frame_name(const Pools& pools, const FrameRef& f, FrameKind kind, bool kernel_known,
                       const NamingOptions& naming) {
  std::string name = "unknown";
  if (auto m = pools.methods.find(f.method); m != pools.methods.end()) {
    const std::string* method = pools.symbol(m->second.name);
    const std::string* cls = nullptr;
    if (auto c = pools.classes.find(m->second.cls); c != pools.classes.end())
      cls = pools.symbol(c->second.name);
    name = method_frame_name(cls ? *cls : std::string_view{}, method ? *method : std::string_view{},
                             native_code(kind, kernel_known), naming);
  }
  append_location(name, f.line, f.bci, naming);
  return name;
}

std::string class_frame_name(const Pools& pools, std::uint64_t cls, const NamingOptions& naming) {
  if (auto c = pools.classes.find(cls); c != pools.classes.end())
    if (const std::string* sym = pools.symbol(c->second.name)) return allocated_class_name(*sym, naming);
  return "null";
}

const std::string* thread_name(const Pools& pools, std::uint64_t thread) {
  auto t = pools.threads.find(thread);
  if (t == pools.threads.end()) return nullptr;
  if (const std::string* java = pools.text(t->second.java_name)) return java;
  return pools.text(t->second.os_name);
}

std::vector<Label> event_labels(ProfileBuilder& builder, const Pools& pools, std::uint64_t thread,
                                bool with_state, std::uint64_t state) {
  std::vector<Label> labels(2);
  const std::string* name = thread_name(pools, thread);
  labels[0].key = builder.intern(kThreadLabel);
  labels[0].str = builder.intern(name ? *name : "[tid=" + std::to_string(thread) + "]");
  labels[1].key = builder.intern(kThreadIdLabel);
  labels[1].num = static_cast<std::int64_t>(thread);
  labels[1].numeric = true;
  if (with_state) {
    const std::string* s = pools.enum_name("jdk.types.ThreadState", state);
    Label l;
    l.key = builder.intern("state");
    l.str = builder.intern(s ? *s : std::to_string(state));
    labels.push_back(l);
  }
  return labels;
}

// ---- Leak tracking

void LeakTracker::add(std::int64_t ticks, std::int64_t ns, std::uint64_t address,
                      std::optional<Malloc> malloc) {
  lo_ns_ = std::min(lo_ns_, ns);
  hi_ns_ = std::max(hi_ns_, ns);
  chunk_.push_back({ticks, address, malloc});
}

void LeakTracker::end_chunk() {
  std::stable_sort(chunk_.begin(), chunk_.end(),
                   [](const Event& a, const Event& b) { return a.ticks < b.ticks; });
  for (const Event& e : chunk_) {
    if (e.malloc)
      live_[e.address] = *e.malloc;
    else
      live_.erase(e.address);
  }
  chunk_.clear();
}

std::vector<LeakTracker::Malloc> LeakTracker::leaks() const {
  const std::int64_t cutoff =
      static_cast<std::int64_t>(static_cast<double>(lo_ns_) * 0.1 + static_cast<double>(hi_ns_) * 0.9);
  std::vector<std::pair<std::uint64_t, Malloc>> kept(live_.begin(), live_.end());
  std::sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Malloc> out;
  for (const auto& [address, m] : kept)
    if (m.time_ns <= cutoff) out.push_back(m);
  return out;
}

// ---- Summary

void ReadSummary::begin_chunk(const ChunkHeader& h, const ChunkMetadata& meta) {
  if (chunks++ == 0) version = std::to_string(h.major) + "." + std::to_string(h.minor);
  span.add(h);
  for (const auto& [id, cls] : meta.classes()) {
    if (cls.name.rfind("profiler.", 0) == 0) async_profiler = true;
    if (cls.name == "jdk.ObjectAllocationSample" || cls.name == "jdk.GarbageCollection") jdk = true;
  }
}

void ReadSummary::add_states(const StateChoice& c) {
  states_matched.insert(c.matched.begin(), c.matched.end());
  any_default_state = any_default_state || c.any_default;
}

bool ReadSummary::any_selected() const {
  return std::any_of(selected.begin(), selected.end(), [](const Selected& s) { return s.events > 0; });
}

std::string event_type_label(const ChunkMetadata& meta, std::uint64_t id) {
  const ClassDesc* cls = meta.find(id);
  return cls ? cls->name : "type " + std::to_string(id);
}

namespace {

// One line from jdk.OSInformation's osVersion, which the JDK fills with
// /etc/os-release and uname: the distribution's PRETTY_NAME and the uname line.
std::string os_summary(const std::string& text) {
  std::vector<std::string> parts;
  for (std::size_t b = 0; b < text.size();) {
    std::size_t e = std::min(text.find('\n', b), text.size());
    std::string_view line(text.data() + b, e - b);
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      line.remove_prefix(12);
      if (line.size() >= 2 && line.front() == '"' && line.back() == '"')
        line = line.substr(1, line.size() - 2);
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

std::string info_of(const ReadSummary& s, const std::string& key) {
  auto it = s.info.find(key);
  return it == s.info.end() ? "" : it->second;
}

// "samples counted from jdk.ExecutionSample (731), ..." or "no ... events".
std::string what_was_read(const ReadSummary& s, Events events) {
  std::string counted;
  for (std::size_t t = 0; t < kEventTypes; ++t) {
    const ReadSummary::Selected& sel = s.selected[t];
    if (sel.events == 0) continue;
    if (!counted.empty()) counted += ", ";
    counted +=
        std::string(event_type_name(static_cast<EventType>(t))) + " (" + std::to_string(sel.samples) + ")";
  }
  if (!counted.empty()) return "samples counted from " + counted;
  if (events == Events::kDefault) return "no execution or wall-clock samples (the default events)";
  return "no events of the chosen kind";
}

// "; the file also holds --alloc (jdk.ObjectAllocationSample 3498) ...":
// the event kinds fg reads that were not chosen, with their options.
std::string other_events(const ReadSummary& s, Events events) {
  std::map<std::string, std::string> others;  // option -> types
  for (int t = 0; t <= static_cast<int>(EventType::kNativeLock); ++t) {
    const EventType type = static_cast<EventType>(t);
    auto n = s.type_counts.find(std::string(event_type_name(type)));
    if (selected(events, type) || n == s.type_counts.end()) continue;
    const std::string option = is_sample(type) ? "--cpu/--wall" : "--" + std::string(event_group(type));
    std::string& o = others[option];
    o += (o.empty() ? "" : ", ") + std::string(event_type_name(type)) + " " + std::to_string(n->second);
  }
  if (others.empty()) return "";
  std::string msg = s.any_selected() ? "; the file also holds" : "; the file holds";
  for (const auto& [option, types] : others) msg += " " + option + " (" + types + ")";
  return msg;
}

// Whether the recording holds execution samples beside async-profiler's
// wall-clock ones: event_kinds() then has "cpu" and "wall", not "samples".
bool splits_samples(const ReadSummary& s) {
  return s.type_counts.count(std::string(event_type_name(EventType::kExecutionSample))) &&
         s.type_counts.count(std::string(event_type_name(EventType::kWallClockSample)));
}

}  // namespace

void fill_metadata(const ReadSummary& s, const std::string& file, Metadata& m) {
  m.source_format = "jfr";
  m.sources = {file};
  m.start_time_ns = s.span.start_ns;
  m.duration_ns = saturate(static_cast<__int128>(s.span.end_ns) - s.span.start_ns);
  auto& p = m.properties;
  p.emplace_back("jfr.version", s.version);
  p.emplace_back("jfr.chunks", std::to_string(s.chunks));
  p.emplace_back("jfr.producer", s.async_profiler && s.jdk ? "JDK Flight Recorder + async-profiler"
                                 : s.async_profiler        ? "async-profiler"
                                                           : "JDK Flight Recorder");
  const std::string name = info_of(s, "jvm_name"), version = info_of(s, "jvm_version");
  if (!version.empty() || !name.empty()) {
    // The JDK's jvmVersion already starts with the VM's name; async-profiler's is the bare version.
    p.emplace_back("jvm", version.rfind(name, 0) == 0 ? version : name + (name.empty() ? "" : " ") + version);
  }
  if (const std::string os = info_of(s, "os"); !os.empty()) p.emplace_back("os", os_summary(os));
  for (const auto& [type, n] : s.type_counts) p.emplace_back("events." + type, std::to_string(n));
}

void check_states_matched(const ReadSummary& s, const std::vector<std::string>& states) {
  for (const std::string& name : states)
    if (!s.states_matched.count(name))
      throw UsageError("--state " + name + ": the recording has no such thread state");
}

void report(const ReadSummary& s, const JfrOptions& opt, const std::string& file,
            const std::function<void(const std::string&)>& note, Diagnostics& diag, bool every_kind_read) {
  if (s.no_stack > 0)
    diag.warn("event without stack trace", file + ": " + std::to_string(s.no_stack) +
                                               " selected events have no stack trace and are left out");
  if (!note) return;
  if (s.truncated > 0)
    note(file + ": " + std::to_string(s.truncated) +
         " stack traces were cut by the recorder's stack depth (their root frames are missing)");
  if (opt.events == Events::kCpu && !s.any_default_state)
    note(file +
         ": no samples in async-profiler's cpu state (STATE_DEFAULT): JDK recordings have none; "
         "read them without --cpu");
  else if (every_kind_read && opt.events == Events::kDefault && splits_samples(s))
    return;  // the caller reads cpu and wall samples apart (event_kinds()): this reading is none of its own
  else if (opt.events == Events::kDefault || !s.any_selected())
    // The other kinds of a default reading are no news to a caller that reads each of them.
    note(file + ": " + what_was_read(s, opt.events) +
         (every_kind_read && opt.events == Events::kDefault ? "" : other_events(s, opt.events)));
}

std::optional<Events> sole_other_kind(const ReadSummary& s, Events e) {
  if (e != Events::kDefault || s.any_selected()) return std::nullopt;
  std::optional<Events> found;
  for (std::size_t t = 0; t < kEventTypes; ++t) {
    const EventType type = static_cast<EventType>(t);
    if (!s.type_counts.count(std::string(event_type_name(type)))) continue;
    // Default events filtered out (--state, a time window) are not absent.
    const auto g = std::find_if(std::begin(kByGroup), std::end(kByGroup),
                                [&](const auto& k) { return k.first == event_group(type); });
    if (g == std::end(kByGroup) || (found && *found != g->second)) return std::nullopt;
    found = g->second;
  }
  return found;
}

Profile read_default_or_sole_kind(Input& input, const ReadOptions& options, Diagnostics& diagnostics,
                                  const ReadOnce& read_once) {
  std::optional<Events> other;
  std::unique_ptr<Input> reopened;
  {
    Reading r = read_once(input, options, diagnostics, diagnostics);
    if (r.other) reopened = input.reopen();
    if (!reopened) return std::move(r.profile);
    other = r.other;
  }
  ReadOptions again = options;
  again.jfr.events = *other;
  Diagnostics repeated(diagnostics.strict());  // the chunks' warnings were given once
  Reading r = read_once(*reopened, again, diagnostics, repeated);
  if (options.note)
    options.note(input.name() + ": drawn from --" + std::string(events_option(*other)) +
                 ", the one kind of event it holds");
  return std::move(r.profile);
}

}  // namespace fg::formats::jfr
