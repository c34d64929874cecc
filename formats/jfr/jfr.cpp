#include "formats/jfr/jfr.h"

#include <algorithm>

#include "fg/parallel.h"
#include "formats/jfr/reader.h"

namespace fg::formats::jfr {

namespace detail {

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

// --state's comma-separated names, upper case, as ThreadState names are.
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

// Hand-offs parsed ahead at most.
constexpr std::size_t kAhead = 16;

Profile Reader::run() {
  if (opt_.leak && opt_.events != Events::kNativeMem) throw UsageError("--leak needs --nativemem");
  states_ = state_names(opt_.state);
  // Parsing (pools, events) and resolving (stacks, samples) share about
  // equally in the time of a large recording: on two threads they overlap.
  // A small file is not worth the thread.
  ChunkReader chunks(input_, chunk_diag_ ? *chunk_diag_ : diag_);
  const Work work{.bytes = chunks.mapped_size().value_or(UINT64_MAX)};
  threaded_ = worth_a_thread(work);
  handoff<Parsed>(
      work, kAhead,
      [&](auto&& emit) {
        const Emit to_resolving_side = [&](Parsed&& p) { emit(std::move(p)); };
        parse(chunks, to_resolving_side);
      },
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
    if (!states_matched_.count(s))
      throw UsageError("--state " + s + ": the recording has no such thread state");
  fill_metadata();
  report();
  builder_.metadata().default_value = builder_.peek().value_types()[column_].type;
  if (stand_in_tiers_) return std::move(builder_).finish(decided_frames());
  return merge_compilation_kinds(std::move(builder_).finish(), column_);
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
    const std::string &name = info_["jvm_name"], &version = info_["jvm_version"];
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
    note_(file_ +
          ": no samples in async-profiler's cpu state (STATE_DEFAULT): JDK recordings have none; "
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

// The kinds of event other than the default, by their event_group() (the
// option that selects them, without its "--").
constexpr std::pair<std::string_view, Events> kByGroup[] = {
    {"alloc", Events::kAlloc},           {"live", Events::kLive},
    {"nativemem", Events::kNativeMem},   {"lock", Events::kLock},
    {"nativelock", Events::kNativeLock},
};

std::optional<Events> Reader::sole_other_kind() const {
  if (opt_.events != Events::kDefault || any_selected()) return std::nullopt;
  std::optional<Events> found;
  for (std::size_t t = 0; t < kEventTypes; ++t) {
    const EventType type = static_cast<EventType>(t);
    if (!type_counts_.count(std::string(event_type_name(type)))) continue;
    // Default events filtered out (--state, a time window) are not absent.
    const auto* g = std::find_if(std::begin(kByGroup), std::end(kByGroup),
                                 [&](const auto& e) { return e.first == event_group(type); });
    if (g == std::end(kByGroup) || (found && *found != g->second)) return std::nullopt;
    found = g->second;
  }
  return found;
}

}  // namespace detail

Sniff sniff(std::string_view head, std::string_view) {
  if (head.size() < 6 || head.substr(0, 4) != kMagic) return Sniff::kNo;
  const int major = static_cast<unsigned char>(head[4]) << 8 | static_cast<unsigned char>(head[5]);
  return major == 1 || major == 2 ? Sniff::kYes : Sniff::kMaybe;
}

Profile read(Input& input, const ReadOptions& options, Diagnostics& diagnostics) {
  std::optional<detail::Events> other;
  std::unique_ptr<Input> reopened;
  {
    detail::Reader reader(input, options, diagnostics);
    Profile p = reader.run();
    other = reader.sole_other_kind();
    // No default events but one other kind: draw that, as a batch over
    // alloc-only or lock-only recordings expects, and say so. Standard
    // input and pipes cannot be read again: their note names the option.
    if (other) reopened = input.reopen();
    if (!reopened) return p;
  }
  ReadOptions again = options;
  again.jfr.events = *other;
  Diagnostics repeated(diagnostics.strict());  // the chunks' warnings were given once
  detail::Reader reader(*reopened, again, diagnostics);
  reader.repeat_chunk_warnings_to(repeated);
  Profile p = reader.run();
  const auto* g = std::find_if(std::begin(detail::kByGroup), std::end(detail::kByGroup),
                               [&](const auto& e) { return e.second == *other; });
  if (options.note)
    options.note(input.name() + ": drawn from --" + std::string(g->first) +
                 ", the one kind of event it holds");
  return p;
}

}  // namespace fg::formats::jfr
