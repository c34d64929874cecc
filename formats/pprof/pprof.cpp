#include "formats/pprof/pprof.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <exception>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "fg/builder.h"
#include "fg/bulk_builder.h"
#include "fg/call_graph.h"
#include "fg/cursor.h"
#include "fg/delta_sides.h"
#include "fg/error.h"
#include "fg/granularity.h"
#include "fg/parallel.h"
#include "fg/whole_units.h"
#include "formats/gzip.h"
#include "formats/pprof/decode.h"
#include "formats/pprof/wire.h"
#include "pprof/profile.pb.h"  // generated in the build tree

namespace fg::formats::pprof {

namespace {

// Samples decoded ahead of the stack table, a batch at a time: each
// sample's frames (root first), values and labels as their raw fields,
// one sample after another in flat arrays.
struct Decoded {
  std::size_t first = 0;  // the index of the batch's first sample
  std::vector<FrameId> frames;
  std::vector<std::uint32_t> frame_ends;  // per sample: the end of its frames
  std::vector<std::int64_t> values;       // `columns` per sample
  std::vector<RawLabel> labels;
  std::vector<std::uint32_t> label_ends;
  std::exception_ptr error;  // decoding sample first + size() failed
  std::size_t size() const { return frame_ends.size(); }
  void clear(std::size_t at) {
    first = at;
    frames.clear();
    frame_ends.clear();
    values.clear();
    labels.clear();
    label_ends.clear();
    error = nullptr;
  }
};

// Ids of one kind (locations, functions, mappings) to their entries. pprof
// writers number them 1..N, so an array serves; sparse ids fall back to a
// hash map.
template <typename T>
class IdIndex {
 public:
  explicit IdIndex(std::size_t count) : dense_limit_(4 * count + 16) {}
  /// False when the id was already there.
  bool add(std::uint64_t id, T value) {
    if (id < dense_limit_) {
      if (id >= dense_.size()) dense_.resize(std::min<std::uint64_t>(dense_limit_, id * 2 + 16));
      if (dense_[id]) return false;
      dense_[id] = std::move(value);
      return true;
    }
    return sparse_.emplace(id, std::move(value)).second;
  }
  const T* find(std::uint64_t id) const {
    if (id < dense_.size()) return dense_[id] ? &*dense_[id] : nullptr;
    if (id < dense_limit_) return nullptr;
    auto it = sparse_.find(id);
    return it == sparse_.end() ? nullptr : &it->second;
  }

 private:
  std::uint64_t dense_limit_;
  std::vector<std::optional<T>> dense_;
  std::unordered_map<std::uint64_t, T> sparse_;
};

// Reads one decoded profile.proto into the model. Every index and id from
// the file is checked before use; messages name what was being read.
class Reader {
 public:
  /// `pb`: the profile's tables, decoded; its samples are decoded here.
  /// `release(offset)`: the file's bytes before offset are not needed
  /// any more (called as samples are decoded, perhaps on another thread).
  /// `frames`: the finest frames wanted (ReadOptions::frames).
  Reader(RawProfile pb, const std::string& file, Diagnostics& diag, std::function<void(std::size_t)> release,
         Granularity frames)
      : pb_(std::move(pb)),
        file_(file),
        diag_(diag),
        release_(std::move(release)),
        per_function_(frames == Granularity::kFunction) {}
  Profile run();

 private:
  // `offset`: where in the file the message (or field) that holds the
  // fault starts; `where` names it ("sample 3").
  [[noreturn]] void fail(std::uint64_t offset, const std::string& where, const std::string& message) const {
    throw ParseError(SourcePosition::binary(file_, offset), where + ": " + message);
  }
  std::string_view str(std::int64_t index, std::uint64_t offset, const std::string& where,
                       const char* what) const {
    if (index < 0 || static_cast<std::uint64_t>(index) >= pb_.strings.size())
      fail(offset, where,
           std::string(what) + " string index " + std::to_string(index) +
               " is out of range (the string table has " + std::to_string(pb_.strings.size()) + " entries)");
    return pb_.strings[static_cast<std::size_t>(index)];
  }
  void read_metadata();
  void read_functions();
  void read_mappings();
  void read_locations();
  void add_location_frames(const RawLocation& loc, const std::string& where);
  void read_samples();
  // Decoding reads only the file's bytes and the tables read before; it may
  // run on a second thread while this one grows the stack table.
  void decode_samples(std::size_t first, std::size_t end, Decoded& out) const;
  void decode_sample(std::size_t i, std::vector<std::uint64_t>& locations, Decoded& out) const;
  void add_samples(const Decoded& d);
  std::string unsymbolized_name(std::uint64_t mapping_id, std::uint64_t address) const;
  void warn();

  RawProfile pb_;
  std::size_t frames_per_location_ = 1;  // on average, rounded up
  std::size_t columns_ = 0;              // values per sample
  const std::string& file_;
  Diagnostics& diag_;
  std::function<void(std::size_t)> release_;
  // Frames without their lines, addresses and modules: one per function
  // and kind, as at_granularity(kFunction) would make them.
  bool per_function_;
  std::optional<ProfileBuilder> b_;
  IdIndex<FunctionId> functions_{pb_.functions.size()};
  struct MappingInfo {
    StringId module;
    std::string base;  // file name without directories
    std::uint64_t start, offset;
  };
  IdIndex<MappingInfo> mappings_{pb_.mappings.size()};
  // Location id -> its number; the frames of location n (caller first) are
  // location_frames_[location_begin_[n] .. location_begin_[n + 1]): one
  // array, so that a walk of millions of stacks does not chase a pointer
  // per location.
  IdIndex<std::uint32_t> locations_{pb_.locations.size()};
  std::vector<std::uint32_t> location_begin_{0};
  std::vector<FrameId> location_frames_;
  std::uint64_t unsymbolized_ = 0;
};

void Reader::read_functions() {
  for (std::size_t i = 0; i < pb_.functions.size(); ++i) {
    const RawFunction& f = pb_.functions[i];
    const std::string where = "function " + std::to_string(i);
    if (f.id == 0) fail(f.offset, where, "function id 0 is reserved");
    const std::string_view name = str(f.name, f.offset, where, "name"),
                           system = str(f.system_name, f.offset, where, "system name");
    const std::string_view file = str(f.filename, f.offset, where, "file name");
    FunctionId id =
        per_function_ ? b_->function(name, system) : b_->function(name, system, file, f.start_line);
    if (!functions_.add(f.id, id))
      fail(f.offset, where, "function id " + std::to_string(f.id) + " appears twice");
  }
  std::vector<RawFunction>().swap(pb_.functions);  // done with
}

void Reader::read_mappings() {
  for (std::size_t i = 0; i < pb_.mappings.size(); ++i) {
    const RawMapping& m = pb_.mappings[i];
    const std::string where = "mapping " + std::to_string(i);
    if (m.id == 0) fail(m.offset, where, "mapping id 0 is reserved");
    std::string_view name = str(m.filename, m.offset, where, "file name");
    std::size_t slash = name.find_last_of('/');
    MappingInfo info{b_->intern(name),
                     std::string(slash == std::string_view::npos ? name : name.substr(slash + 1)),
                     m.memory_start, m.file_offset};
    if (!mappings_.add(m.id, std::move(info)))
      fail(m.offset, where, "mapping id " + std::to_string(m.id) + " appears twice");
  }
}

std::string Reader::unsymbolized_name(std::uint64_t mapping_id, std::uint64_t address) const {
  char buf[64];
  const MappingInfo* it = mappings_.find(mapping_id);
  if (!it || it->base.empty()) {
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(address));
    return buf;
  }
  std::uint64_t offset = address - it->start + it->offset;
  std::snprintf(buf, sizeof buf, "+0x%llx", static_cast<unsigned long long>(offset));
  return it->base + buf;
}

// Appends the frames of `loc` to location_frames_, caller first.
void Reader::add_location_frames(const RawLocation& loc, const std::string& where) {
  StringId module{};
  if (loc.mapping_id != 0) {
    const MappingInfo* m = mappings_.find(loc.mapping_id);
    if (!m) fail(loc.offset, where, "mapping id " + std::to_string(loc.mapping_id) + " names no mapping");
    module = m->module;
  }
  if (loc.lines_begin == loc.lines_end) {
    ++unsymbolized_;
    const FunctionId f = b_->function(unsymbolized_name(loc.mapping_id, loc.address));
    location_frames_.push_back(
        b_->frame(f, FrameKind::kUnsymbolized, 0, per_function_ ? 0 : loc.address, module));
  }
  // Lines are innermost first; the frames go caller first, and every line
  // but the last (the function the others were inlined into) is inlined.
  for (std::size_t k = loc.lines_end; k-- > loc.lines_begin;) {
    const RawLine& line = pb_.lines[k];
    const FunctionId* f = functions_.find(line.function_id);
    if (!f)
      fail(loc.offset, where,
           "line " + std::to_string(k - loc.lines_begin) + ": function id " +
               std::to_string(line.function_id) + " names no function");
    FrameKind kind = k == loc.lines_end - 1 ? FrameKind::kNative : FrameKind::kInlined;
    location_frames_.push_back(per_function_ ? b_->frame(*f, kind)
                                             : b_->frame(*f, kind, line.line, loc.address, module));
  }
}

void Reader::read_locations() {
  for (std::size_t i = 0; i < pb_.locations.size(); ++i) {
    const RawLocation& loc = pb_.locations[i];
    const std::string where = "location " + std::to_string(i);
    if (loc.id == 0) fail(loc.offset, where, "location id 0 is reserved");
    add_location_frames(loc, where);
    if (!locations_.add(loc.id, static_cast<std::uint32_t>(location_begin_.size() - 1)))
      fail(loc.offset, where, "location id " + std::to_string(loc.id) + " appears twice");
    location_begin_.push_back(static_cast<std::uint32_t>(location_frames_.size()));
  }
  const std::size_t n = pb_.locations.size();
  if (n > 0) frames_per_location_ = std::max<std::size_t>(1, (location_frames_.size() + n - 1) / n);
  std::vector<RawLocation>().swap(pb_.locations);  // done with
  std::vector<RawLine>().swap(pb_.lines);
}

// Decodes sample i, appending its frames (root first), values and labels
// to `out`; `locations` is scratch space.
void Reader::decode_sample(std::size_t i, std::vector<std::uint64_t>& locations, Decoded& out) const {
  locations.clear();
  const std::size_t values_before = out.values.size();
  pprof::decode_sample(WireCursor(pb_.samples[i], file_, pb_.sample_offsets[i], "Sample"), locations,
                       out.values, out.labels);
  if (out.values.size() - values_before != columns_)
    fail(pb_.sample_offsets[i], "sample " + std::to_string(i),
         "has " + std::to_string(out.values.size() - values_before) + " values, the profile has " +
             std::to_string(columns_) + " sample types");
  for (std::size_t k = locations.size(); k-- > 0;) {  // leaf first in the file
    const std::uint32_t* loc = locations_.find(locations[k]);
    if (!loc)
      fail(pb_.sample_offsets[i], "sample " + std::to_string(i),
           "location id " + std::to_string(locations[k]) + " names no location");
    out.frames.insert(out.frames.end(), location_frames_.begin() + location_begin_[*loc],
                      location_frames_.begin() + location_begin_[*loc + 1]);
  }
}

// Decodes samples [first, end) into `out`; at the first bad one, keeps
// those before it and its error.
void Reader::decode_samples(std::size_t first, std::size_t end, Decoded& out) const {
  out.clear(first);
  std::vector<std::uint64_t> locations;
  for (std::size_t i = first; i < end; ++i) {
    const std::size_t frames = out.frames.size(), values = out.values.size(), labels = out.labels.size();
    try {
      decode_sample(i, locations, out);
      out.frame_ends.push_back(static_cast<std::uint32_t>(out.frames.size()));
      out.label_ends.push_back(static_cast<std::uint32_t>(out.labels.size()));
    } catch (...) {  // anything, even running out of memory: this may be the second thread
      out.frames.resize(frames);
      out.values.resize(values);
      out.labels.resize(labels);
      out.frame_ends.resize(i - first);
      out.label_ends.resize(i - first);
      out.error = std::current_exception();
      return;
    }
  }
}

// How many location ids the samples list: a packed list holds one per byte
// below 0x80 (each varint's last byte). A hint for reserving stack nodes.
std::size_t count_location_ids(const std::vector<std::string_view>& samples) {
  std::size_t n = 0;
  for (std::string_view s : samples) {
    std::size_t pos = 0;
    while (pos + 1 < s.size()) {
      const auto tag = static_cast<unsigned char>(s[pos]);
      if (tag == (1 << 3 | 2)) {  // packed location ids with a one- or two-byte length
        std::size_t len = static_cast<unsigned char>(s[pos + 1]), start = pos + 2;
        if (len >= 0x80 && pos + 2 < s.size())
          len = (len & 0x7f) | std::size_t(static_cast<unsigned char>(s[pos + 2])) << 7, ++start;
        const std::size_t end = std::min(s.size(), start + len);
        for (std::size_t i = start; i < end; ++i) n += static_cast<unsigned char>(s[i]) < 0x80;
        pos = end;
      } else {
        break;  // unpacked or other fields: a hint needs no more
      }
    }
  }
  return n;
}

// Adds a batch of decoded samples to the stack table and the samples, in
// order; then throws the error that ended the batch, if one did.
void Reader::add_samples(const Decoded& d) {
  const std::size_t columns = columns_;
  // Samples are walked kLanes at a time, a frame of each in turn, with the
  // stack table's slot for each lane's next step fetched ahead: the lookups
  // of one sample wait on each other, those of different samples do not,
  // so their cache misses overlap.
  constexpr std::size_t kLanes = 8;
  struct Lane {
    const FrameId* at;  // the next step
    const FrameId* end;
    StackId stack;
  };
  std::array<Lane, kLanes> lanes;
  std::vector<Label> labels;
  for (std::size_t first = 0; first < d.size(); first += kLanes) {
    const std::size_t count = std::min(kLanes, d.size() - first);
    for (std::size_t j = 0; j < count; ++j) {
      const std::size_t n = first + j;
      lanes[j] = {d.frames.data() + (n == 0 ? 0 : d.frame_ends[n - 1]), d.frames.data() + d.frame_ends[n],
                  kRootStack};
    }
    for (bool more = true; more;) {
      more = false;
      for (std::size_t j = 0; j < count; ++j)
        if (lanes[j].at != lanes[j].end) bulk::prefetch_stack(*b_, lanes[j].stack, *lanes[j].at);
      for (std::size_t j = 0; j < count; ++j) {
        Lane& lane = lanes[j];
        if (lane.at == lane.end) continue;
        const std::size_t known = b_->stack_count();
        lane.stack = b_->stack(lane.stack, *lane.at++);
        // A new node: the rest of the path is new too, made in one run so
        // that its nodes follow each other (the builder's cheap case).
        if (b_->stack_count() != known) {
          lane.stack = bulk::extend(*b_, lane.stack, std::span<const FrameId>(lane.at, lane.end));
          lane.at = lane.end;
        }
        more |= lane.at != lane.end;
      }
    }
    for (std::size_t j = 0; j < count; ++j) {
      const std::size_t n = first + j;
      const std::string where = "sample " + std::to_string(d.first + n);
      const std::uint64_t at = pb_.sample_offsets[d.first + n];
      labels.clear();
      for (std::size_t k = n == 0 ? 0 : d.label_ends[n - 1]; k < d.label_ends[n]; ++k) {
        const RawLabel& r = d.labels[k];
        Label label;
        label.key = b_->intern(str(r.key, at, where, "label key"));
        if (r.str != 0) {
          label.str = b_->intern(str(r.str, at, where, "label value"));
        } else {
          label.numeric = true;
          label.num = r.num;
          label.unit = b_->intern(str(r.unit, at, where, "label unit"));
        }
        labels.push_back(label);
      }
      try {
        b_->add_sample(lanes[j].stack, std::span<const std::int64_t>(d.values.data() + n * columns, columns),
                       b_->labels(labels));
      } catch (const ParseError&) {
        throw;
      } catch (const Error& e) {
        fail(at, where, e.what());
      }
    }
  }
  if (d.error) std::rethrow_exception(d.error);
}

void Reader::read_samples() {
  columns_ = b_->value_count();
  // Stack nodes are at most one per frame of every sample; the reservation
  // costs address space only until it is used.
  // A hint only: capped by the input's size, so a hostile one cannot ask
  // for much.
  std::size_t sample_bytes = 0;
  for (std::string_view s : pb_.samples) sample_bytes += s.size();
  bulk::reserve_stacks(*b_,
                       std::min(count_location_ids(pb_.samples) * frames_per_location_, 2 * sample_bytes));
  // Batches are decoded on a second thread, a few ahead of the one whose
  // stacks this thread adds: decoding is a third of the work, and the two
  // share nothing but the finished batches. The samples are still added in
  // file order, and the first bad one is the one reported.
  const std::size_t total = pb_.samples.size();
  constexpr std::size_t kBatch = 4096;
  const std::size_t batches = (total + kBatch - 1) / kBatch;
  // Batch n, decoded into d; the file's bytes before the next batch are
  // not needed after it.
  auto decode = [&](std::size_t n, Decoded& d) {
    const std::size_t begin = n * kBatch, end = std::min(total, begin + kBatch);
    decode_samples(begin, end, d);
    if (end < total) release_(pb_.sample_offsets[end]);
  };
  // At most kAhead batches wait for this thread (one more is being
  // decoded, one added): memory stays a few batches whatever the file.
  constexpr std::size_t kAhead = 2;
  handoff<Decoded>(
      {.bytes = sample_bytes}, kAhead,
      [&](auto&& emit) {
        for (std::size_t n = 0; n < batches; ++n) {
          Decoded d;
          decode(n, d);
          const bool failed = d.error != nullptr;
          emit(std::move(d));
          if (failed) return;  // the batch ends at the bad sample
        }
      },
      [&](Decoded&& d) { add_samples(d); });  // throws at a batch's error
}

void Reader::read_metadata() {
  Metadata& m = b_->metadata();
  m.source_format = "pprof";
  m.sources.push_back(file_);
  const std::uint64_t period_at = pb_.period_type.offset;
  m.period_type = {std::string(str(pb_.period_type.type, period_at, "period type", "type")),
                   std::string(str(pb_.period_type.unit, period_at, "period type", "unit"))};
  m.period = pb_.period;
  m.start_time_ns = pb_.time_nanos;
  m.duration_ns = pb_.duration_nanos;
  m.default_value = std::string(
      str(pb_.default_sample_type, pb_.default_sample_type_offset, "profile", "default sample type"));
  for (std::size_t i = 0; i < pb_.comments.size(); ++i)
    m.comments.emplace_back(str(pb_.comments[i], pb_.comment_offsets[i], "profile", "comment"));
  if (pb_.drop_frames != 0)
    m.properties.emplace_back("drop_frames",
                              str(pb_.drop_frames, pb_.drop_frames_offset, "profile", "drop_frames"));
  if (pb_.keep_frames != 0)
    m.properties.emplace_back("keep_frames",
                              str(pb_.keep_frames, pb_.keep_frames_offset, "profile", "keep_frames"));
  // pprof names a report after the first mapping, the main binary.
  if (!pb_.mappings.empty()) {
    const RawMapping& main = pb_.mappings[0];
    std::string_view file = str(main.filename, main.offset, "mapping 0", "file name");
    std::string_view build_id = str(main.build_id, main.offset, "mapping 0", "build id");
    if (!file.empty()) m.properties.emplace_back("main_binary", file);
    if (!build_id.empty()) m.properties.emplace_back("build_id", build_id);
  }
}

Profile Reader::run() {
  std::vector<ValueType> types;
  for (std::size_t i = 0; i < pb_.sample_types.size(); ++i) {
    const RawValueType& t = pb_.sample_types[i];
    const std::string where = "sample type " + std::to_string(i);
    types.push_back({std::string(str(t.type, t.offset, where, "type")),
                     std::string(str(t.unit, t.offset, where, "unit"))});
  }
  if (types.empty()) throw Error(file_ + ": the profile has no sample types");
  b_.emplace(std::move(types));
  read_metadata();
  read_functions();
  read_mappings();
  read_locations();
  read_samples();
  warn();
  return std::move(*b_).finish();
}

void Reader::warn() {
  if (unsymbolized_ > 0)
    diag_.warn("unsymbolized", file_ + ": " + std::to_string(unsymbolized_) +
                                   " locations have no symbols; shown as module+0xoffset (or the address)");
}

// The writer's tables: strings, functions, mappings and locations, each
// deduplicated and given the 1-based ids profile.proto uses.
class Writer {
 public:
  explicit Writer(const Profile& p) : p_(p) { string_index(""); }
  void run(const WriteOptions& options, std::ostream& out);

 private:
  std::int64_t string_index(std::string_view s) {
    auto [it, added] = strings_.try_emplace(std::string(s), static_cast<std::int64_t>(strings_.size()));
    if (added) pb_.add_string_table(std::string(s));
    return it->second;
  }
  std::uint64_t function_id(FunctionId f);
  std::uint64_t mapping_id(StringId module);
  void locations_of(StackId stack, std::vector<std::uint64_t>& out);

  const Profile& p_;
  fg::pprof::Profile pb_;
  std::unordered_map<std::string, std::int64_t> strings_;
  std::unordered_map<FunctionId, std::uint64_t> functions_;
  std::unordered_map<StringId, std::uint64_t> mappings_;
  std::string main_binary_;  // the profile's first mapping, "" if unknown
  std::map<std::tuple<std::uint64_t, std::uint64_t, std::vector<std::pair<std::uint64_t, std::int64_t>>>,
           std::uint64_t>
      locations_;
  std::unordered_map<StackId, std::vector<std::uint64_t>> stack_locations_;
};

std::uint64_t Writer::function_id(FunctionId f) {
  auto it = functions_.find(f);
  if (it != functions_.end()) return it->second;
  const Function& fn = p_.function(f);
  auto* out = pb_.add_function();
  out->set_id(static_cast<std::uint64_t>(pb_.function_size()));
  out->set_name(string_index(p_.str(fn.name)));
  out->set_system_name(string_index(p_.str(fn.system_name != StringId{} ? fn.system_name : fn.name)));
  out->set_filename(string_index(p_.str(fn.filename)));
  out->set_start_line(fn.start_line);
  return functions_[f] = out->id();
}

std::uint64_t Writer::mapping_id(StringId module) {
  if (module == StringId{}) return 0;
  auto it = mappings_.find(module);
  if (it != mappings_.end()) return it->second;
  if (!main_binary_.empty() && p_.str(module) == main_binary_) return mappings_[module] = 1;
  auto* m = pb_.add_mapping();
  m->set_id(static_cast<std::uint64_t>(pb_.mapping_size()));
  m->set_filename(string_index(p_.str(module)));
  m->set_has_functions(true);
  return mappings_[module] = m->id();
}

// The locations of a stack, leaf first. A run of inlined frames and the
// frame they were inlined into (toward the root) make one location.
void Writer::locations_of(StackId stack, std::vector<std::uint64_t>& out) {
  out.clear();
  std::vector<FrameId> frames;
  p_.stack_frames(stack, frames);
  std::size_t i = frames.size();
  while (i > 0) {
    std::size_t end = i;  // frames[begin, end) form one location, leaf at end - 1
    std::size_t begin = i - 1;
    // (inlined frames reaching the root form a location of their own)
    while (begin > 0 && p_.frame(frames[begin]).kind == FrameKind::kInlined) --begin;
    const Frame& host = p_.frame(frames[begin]);
    std::vector<std::pair<std::uint64_t, std::int64_t>> lines;
    // Code without symbols is a location without lines, as it was read.
    if (host.kind != FrameKind::kUnsymbolized)
      for (std::size_t k = end; k-- > begin;)  // innermost first
        lines.emplace_back(function_id(p_.frame(frames[k]).function), p_.frame(frames[k]).line);
    auto key = std::make_tuple(host.address, mapping_id(host.module), lines);
    auto [it, added] = locations_.try_emplace(key, 0);
    if (added) {
      auto* loc = pb_.add_location();
      loc->set_id(static_cast<std::uint64_t>(pb_.location_size()));
      loc->set_address(host.address);
      loc->set_mapping_id(std::get<1>(key));
      for (const auto& [fn, line] : lines) {
        auto* l = loc->add_line();
        l->set_function_id(fn);
        l->set_line(line);
      }
      it->second = loc->id();
    }
    out.push_back(it->second);
    i = begin;
  }
}

void Writer::run(const WriteOptions&, std::ostream& out) {
  for (const ValueType& v : p_.value_types()) {
    auto* t = pb_.add_sample_type();
    t->set_type(string_index(v.type));
    t->set_unit(string_index(v.unit));
  }
  const Metadata& m = p_.metadata();
  pb_.mutable_period_type()->set_type(string_index(m.period_type.type));
  pb_.mutable_period_type()->set_unit(string_index(m.period_type.unit));
  pb_.set_period(m.period);
  pb_.set_time_nanos(m.start_time_ns);
  pb_.set_duration_nanos(m.duration_ns);
  if (!m.default_value.empty()) pb_.set_default_sample_type(string_index(m.default_value));
  for (const std::string& c : m.comments) pb_.add_comment(string_index(c));
  for (const auto& [k, v] : m.properties) {
    if (k == "drop_frames") pb_.set_drop_frames(string_index(v));
    if (k == "keep_frames") pb_.set_keep_frames(string_index(v));
    if (k == "main_binary") main_binary_ = v;
  }
  // The main binary's mapping comes first, as pprof expects.
  if (!main_binary_.empty()) {
    auto* main = pb_.add_mapping();
    main->set_id(1);
    main->set_filename(string_index(main_binary_));
    main->set_has_functions(true);
    for (const auto& [k, v] : m.properties)
      if (k == "build_id") main->set_build_id(string_index(v));
  }
  std::vector<std::uint64_t> locs;
  for (std::size_t i = 0; i < p_.sample_count(); ++i) {
    const Sample& s = p_.sample(i);
    auto* out_s = pb_.add_sample();
    auto cached = stack_locations_.find(s.stack);
    if (cached == stack_locations_.end()) {
      locations_of(s.stack, locs);
      cached = stack_locations_.emplace(s.stack, locs).first;
    }
    for (std::uint64_t id : cached->second) out_s->add_location_id(id);
    for (std::int64_t v : p_.values(i)) out_s->add_value(v);
    for (const Label& l : p_.labels(s.labels)) {
      auto* label = out_s->add_label();
      label->set_key(string_index(p_.str(l.key)));
      if (l.numeric) {
        label->set_num(l.num);
        if (l.unit != StringId{}) label->set_num_unit(string_index(p_.str(l.unit)));
      } else {
        label->set_str(string_index(p_.str(l.str)));
      }
    }
  }
  std::string bytes;
  if (!pb_.SerializeToString(&bytes)) throw Error("cannot encode the profile as profile.proto");
  std::string z = gzip_compress(bytes);
  out.write(z.data(), static_cast<std::streamsize>(z.size()));
}

// go tool pprof -proto -diff_base writes a comparison as one profile: the
// base's samples negated and labelled pprof::base beside the new ones. A
// hand-made profile may have negative samples without the label. Either is
// two profiles: read as fg-diff's diff is, a base and a new column per
// sample type, which every writer draws as it draws fg-diff's output.
Profile read_difference(const Profile& deltas, const std::string& name, const ReadOptions& options) {
  std::size_t labelled = 0;
  Profile diff = diff_from_deltas(deltas, &labelled);
  if (options.note)
    options.note(name + ": a difference profile" +
                 (labelled > 0 ? " (go tool pprof -diff_base): its " + std::to_string(labelled) +
                                     " samples labelled " + kDiffBaseLabel + " are the base"
                               : ": its negative values are the base") +
                 ", negated back, and the rest the new profile; drawn as fg-diff draws base and new");
  return diff;
}

}  // namespace

Sniff sniff(std::string_view head, std::string_view) {
  int fields = count_profile_fields(head);
  if (fields >= 3) return Sniff::kYes;
  return fields >= 1 ? Sniff::kMaybe : Sniff::kNo;
}

Profile read(Input& input, const ReadOptions& options, Diagnostics& diagnostics) {
  const std::string& name = input.name();
  // A first key of field number 0 (a byte below 8: a gzip of zeros, say)
  // is what decoding would refuse first: refused before the rest is held.
  if (const std::string_view head = input.head(1); !head.empty() && static_cast<unsigned char>(head[0]) < 8)
    throw ParseError(SourcePosition::binary(name, 0), "field number 0 in Profile");
  // protobuf's messages are under 2 GiB: a larger one is no profile.
  InputBytes whole = read_all(input, {(std::uint64_t{2} << 30) - 1, "protobuf's largest message"});
  RawProfile pb = decode_profile(whole.view(), name);
  // The strings view the bytes: those before the first string are the
  // ones that can go once read.
  const std::uint64_t keep_from = pb.strings_offset;
  Reader reader(
      std::move(pb), name, diagnostics,
      [&whole, keep_from](std::size_t offset) {
        whole.release(static_cast<std::size_t>(std::min<std::uint64_t>(offset, keep_from)));
      },
      options.frames);
  Profile profile = reader.run();
  if (has_negative_values(profile)) return read_difference(profile, name, options);
  return profile;
}

void write(const Profile& profile, const WriteOptions& options, std::ostream& out, Diagnostics& diagnostics) {
  check_expansion(profile, "pprof");
  std::optional<Profile> whole;  // sample values are int64
  Writer(in_whole_units(profile, whole, "pprof", diagnostics)).run(options, out);
}

}  // namespace fg::formats::pprof
