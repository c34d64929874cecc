#include "formats/jfr/constant_pools.h"

#include <optional>

namespace fg::formats::jfr {

namespace {

constexpr std::uint64_t kChunkHeaderSize = 68;

// Which of a list of wanted names each field of a class is, found once per pool.
struct Slots {
  explicit Slots(const ClassDesc& c, std::initializer_list<std::string_view> names)
      : role(c.fields.size(), -1) {
    int k = 0;
    for (std::string_view n : names) {
      if (const int i = c.field_index(n); i >= 0 && role[static_cast<std::size_t>(i)] < 0)
        role[static_cast<std::size_t>(i)] = k;
      ++k;
    }
  }
  // The position in the list of field i's name, or -1.
  int wanted(std::size_t field) const { return role[field]; }
  std::vector<int> role;
};

bool is_string_field(const FieldDesc& f) {
  return !f.array && !f.constant_pool && f.encoding == Encoding::kString;
}

// Where the stack traces read go: to the caller's `traces`, a batch at a time.
struct TraceOut {
  TraceOut(const std::function<void(std::uint64_t, std::uint64_t)>& done,
           const std::function<void(TraceBatch&)>& traces)
      : done(done), traces(traces) {}

  // Hands over the traces held; `offset` is how far the file is read.
  void flush(std::uint64_t offset) {
    if (!batch.traces.empty()) {
      traces(batch);
      // Cleared, the batch keeps its capacity for the next: it grows with
      // what the pools hold, so a small chunk's traces take a small one.
      batch.traces.clear();
      batch.frames.clear();
      batch.expected_nodes = 0;
    }
    if (done && offset - done_at >= (8 << 20)) {
      done(done_at, offset);
      done_at = offset;
    }
  }

  // Traces are handed over once this many frames are held: a few hundred KiB.
  static constexpr std::size_t kBatchFrames = 1 << 16;
  const std::function<void(std::uint64_t, std::uint64_t)>& done;
  const std::function<void(TraceBatch&)>& traces;
  std::uint64_t done_at = 0;  // where in the checkpoint being read `done` was told up to
  TraceBatch batch;
};

// Which field of a StackFrame class is which of the fields read_frame() takes.
Slots frame_slots(const ClassDesc& frame) {
  return Slots(frame, {"method", "lineNumber", "bytecodeIndex", "type"});
}

// One stack frame of class `frame`, its fields found by name (`s`, made
// by frame_slots()): what a frame means, whatever its layout.
FrameRef read_frame(Cursor& c, const ChunkMetadata& meta, const ClassDesc& frame, const Slots& s) {
  FrameRef r;
  for (std::size_t i = 0; i < frame.fields.size(); ++i) {
    const FieldDesc& f = frame.fields[i];
    switch (s.wanted(i)) {
      case 0:
        r.method = static_cast<std::uint64_t>(read_integer(c, meta, f));
        break;
      case 1:
        r.line = static_cast<std::int32_t>(read_integer(c, meta, f));
        break;
      case 2:
        r.bci = static_cast<std::int32_t>(read_integer(c, meta, f));
        break;
      case 3:
        r.type = static_cast<std::uint64_t>(read_integer(c, meta, f));
        break;
      default:
        skip_field(c, meta, f);
    }
  }
  return r;
}

class PoolReader {
 public:
  PoolReader(Cursor& c, const ChunkMetadata& meta, Pools& pools, bool keep_lines, FrameDecoding decoding,
             TraceOut& out)
      : c_(c), meta_(meta), pools_(pools), keep_lines_(keep_lines), decoding_(decoding), out_(out) {}

  void read(const ClassDesc& cls, std::uint64_t count) {
    if (cls.name == "java.lang.Thread") return threads(cls, count);
    if (cls.name == "java.lang.Class")
      return pair_pool(cls, count, pools_.classes, {"name", "package"}, &ClassRef::name, &ClassRef::package);
    if (cls.name == "jdk.types.Method")
      return pair_pool(cls, count, pools_.methods, {"type", "name"}, &MethodRef::cls, &MethodRef::name);
    if (cls.name == "jdk.types.StackTrace") return stack_traces(cls, count);
    if (cls.name == "java.lang.String") {
      for (; count > 0; --count) {
        const std::uint64_t key = static_cast<std::uint64_t>(c_.read_long());
        pools_.strings[key] = c_.read_string();
      }
      return;
    }
    if (cls.fields.size() == 1 && is_string_field(cls.fields[0]) &&
        (cls.simple_type || cls.name == "jdk.types.Symbol")) {
      auto& into = cls.name == "jdk.types.Symbol" ? pools_.symbols : pools_.enums[cls.name];
      for (; count > 0; --count) {
        const std::uint64_t key = static_cast<std::uint64_t>(c_.read_long());
        into[key] = c_.read_string();
      }
      return;
    }
    for (; count > 0; --count) {
      c_.read_long();
      skip_value(c_, meta_, cls, false);
    }
  }

 private:
  void threads(const ClassDesc& cls, std::uint64_t count) {
    const Slots s(cls, {"osName", "osThreadId", "javaName", "javaThreadId"});
    for (; count > 0; --count) {
      ThreadRef& t = pools_.threads[static_cast<std::uint64_t>(c_.read_long())];
      for (std::size_t i = 0; i < cls.fields.size(); ++i) {
        const FieldDesc& f = cls.fields[i];
        switch (s.wanted(i)) {
          case 0:
            t.os_name = read_text(f);
            break;
          case 1:
            t.os_thread_id = read_integer(c_, meta_, f);
            break;
          case 2:
            t.java_name = read_text(f);
            break;
          case 3:
            t.java_thread_id = read_integer(c_, meta_, f);
            break;
          default:
            skip_field(c_, meta_, f);
        }
      }
    }
  }

  // Entries whose two wanted fields are integers (pool keys): `first` and
  // `second` name the members they go to.
  template <typename Ref>
  void pair_pool(const ClassDesc& cls, std::uint64_t count, std::unordered_map<std::uint64_t, Ref>& into,
                 std::initializer_list<std::string_view> names, std::uint64_t Ref::*first,
                 std::uint64_t Ref::*second) {
    const Slots s(cls, names);
    for (; count > 0; --count) {
      Ref& r = into[static_cast<std::uint64_t>(c_.read_long())];
      for (std::size_t i = 0; i < cls.fields.size(); ++i) {
        const int w = s.wanted(i);
        if (w < 0)
          skip_field(c_, meta_, cls.fields[i]);
        else
          r.*(w == 0 ? first : second) = static_cast<std::uint64_t>(read_integer(c_, meta_, cls.fields[i]));
      }
    }
  }

  void stack_traces(const ClassDesc& cls, std::uint64_t count) {
    const Slots s(cls, {"truncated", "frames"});
    std::vector<std::uint32_t>& frames_ = out_.batch.frames;
    pools_.stack_traces.expect(count);
    // The tree's room, made once rather than grown: traces add about one
    // node each (1.3 in big-real.jfr, 1.05 and 0.64 in a two-chunk
    // async-profiler and a JDK recording), and take a hundred bytes and
    // more of the file for each (166 there). A count the bytes left cannot
    // hold gets no more room than a node per 64 of them: the room for a
    // node is some 30 bytes, so a damaged count reserves less than half
    // the file's size.
    out_.batch.expected_nodes += std::min<std::uint64_t>(count, c_.remaining() / 64);
    for (; count > 0; --count) {
      const std::uint32_t position = pools_.stack_traces.add(static_cast<std::uint64_t>(c_.read_long()));
      const std::size_t begin = frames_.size();
      bool truncated = false;
      for (std::size_t i = 0; i < cls.fields.size(); ++i) {
        const FieldDesc& f = cls.fields[i];
        const ClassDesc& type = *f.desc;
        switch (s.wanted(i)) {
          case 0:
            truncated = read_integer(c_, meta_, f) != 0;
            break;
          case 1:
            if (f.array && !f.constant_pool && type.encoding == Encoding::kStruct &&
                frames_.size() == begin) {
              frames(type);
              break;
            }
            [[fallthrough]];
          default:
            skip_field(c_, meta_, f);
        }
      }
      if (frames_.size() >= U64Map::kMissing) c_.fail("a stack trace of more than 2^32 - 1 frames");
      out_.batch.traces.push_back({position, static_cast<std::uint32_t>(frames_.size()), truncated});
      if (frames_.size() >= TraceOut::kBatchFrames) out_.flush(c_.offset());
    }
  }

  // True when StackFrame is (method: cp, lineNumber: int, bytecodeIndex:
  // int, type: cp), as both the JDK and async-profiler write it.
  static bool usual_layout(const ClassDesc& frame, const Slots& s) {
    if (frame.fields.size() != 4) return false;
    for (std::size_t i = 0; i < 4; ++i)
      if (s.role[i] != static_cast<int>(i) || frame.fields[i].array) return false;
    const auto& f = frame.fields;
    return f[0].constant_pool && f[3].constant_pool && !f[1].constant_pool && !f[2].constant_pool &&
           f[1].encoding == Encoding::kInt && f[2].encoding == Encoding::kInt;
  }

  // Reads a trace's frames (leaf first) onto frames_, as indices into
  // pools_.frames.
  void frames(const ClassDesc& frame) {
    std::vector<std::uint32_t>& frames_ = out_.batch.frames;
    if (frame_class_ != &frame) {  // the same class for every trace: its slots found once
      frame_class_ = &frame;
      frame_slots_.emplace(frame_slots(frame));
      usual_ = usual_layout(frame, *frame_slots_);
    }
    const Slots& s = *frame_slots_;
    const std::uint64_t n = c_.read_count("stack frame", std::max<std::uint32_t>(1, frame.min_bytes));
    // The common case, without a dispatch per field: the batched readers
    // decode the usual layout as read_frame() does (the reference reader,
    // FrameDecoding::kPlain, holds them to it).
    if (usual_ && c_.compressed() && decoding_ == FrameDecoding::kFast) {
      const std::size_t begin = frames_.size();
      frames_.resize(begin + n);  // n is at most the bytes left
      std::uint32_t* out = frames_.data() + begin;
      if (keep_lines_) {  // no dense table: every frame through add_frame()
        c_.read_long_groups<4>(n, [&](const std::array<std::uint64_t, 4>& f) {
          *out++ = add_frame(f[0], static_cast<std::int32_t>(f[1]), static_cast<std::int32_t>(f[2]), f[3]);
        });
      } else {
        // Kept in a local, so that the table is not found again through the
        // pools for every frame; add_frame() may move it.
        DenseTable dense = dense_table();
        c_.read_quad_ends(n, [&](std::uint64_t method, std::uint64_t type) {
          if (const std::uint32_t known = dense.find(method, type); known != U64Map::kMissing) {
            *out++ = known;
            return;
          }
          *out++ = add_frame(method, 0, 0, type);
          dense = dense_table();
        });
      }
    } else {
      for (std::uint64_t k = 0; k < n; ++k) {
        const FrameRef r = read_frame(c_, meta_, frame, s);
        frames_.push_back(index_of(r.method, r.line, r.bci, r.type));
      }
    }
  }

  // The dense frame table: async-profiler numbers methods from 1, so frames
  // are found in a table by method and type, which stays in cache where
  // the tree's index does not. Not used when lines are kept.
  static constexpr std::uint64_t kDenseMethods = 1 << 16;  // 2 MiB at most
  static bool dense_slot(std::uint64_t method, std::uint64_t type, std::size_t& slot) {
    slot = static_cast<std::size_t>(method << 3 | type);
    return type < 8 && method < kDenseMethods;
  }
  struct DenseTable {
    const std::uint32_t* slots;
    std::size_t size;
    // The frame of (method, type), or U64Map::kMissing.
    std::uint32_t find(std::uint64_t method, std::uint64_t type) const {
      std::size_t slot;
      return dense_slot(method, type, slot) && slot < size ? slots[slot] : U64Map::kMissing;
    }
  };
  DenseTable dense_table() const {
    const std::vector<std::uint32_t>& t = pools_.frame_index.dense;
    return keep_lines_ ? DenseTable{nullptr, 0} : DenseTable{t.data(), t.size()};
  }

  // The index of a frame in pools_.frames, added there when new. Taken
  // field by field: a FrameRef built and passed whole stalls on its stores.
  std::uint32_t index_of(std::uint64_t method, std::int32_t line, std::int32_t bci, std::uint64_t type) {
    if (const std::uint32_t known = dense_table().find(method, type); known != U64Map::kMissing) return known;
    return add_frame(method, line, bci, type);
  }

  // A frame index_of() did not find in the dense table.
  std::uint32_t add_frame(std::uint64_t method, std::int32_t line, std::int32_t bci, std::uint64_t type) {
    if (!keep_lines_) line = bci = 0;
    const auto next = static_cast<std::uint32_t>(pools_.frames.size());
    std::uint32_t i;
    if (std::size_t slot; !keep_lines_ && dense_slot(method, type, slot)) {
      std::vector<std::uint32_t>& dense = pools_.frame_index.dense;
      if (slot >= dense.size()) dense.resize((method + 1) << 3, U64Map::kMissing);
      i = dense[slot] = next;  // index_of() found the slot empty
    } else if (!keep_lines_ && type < 256 && method < (std::uint64_t{1} << 56)) {
      const std::uint64_t key = method << 8 | type;
      if (const std::uint32_t known = pools_.frame_index.packed.find(key); known != U64Map::kMissing)
        return known;
      i = pools_.frame_index.packed.insert(key, next);
    } else {
      const std::array<std::uint64_t, 3> key{
          method, type,
          std::uint64_t{static_cast<std::uint32_t>(line)} << 32 | static_cast<std::uint32_t>(bci)};
      i = pools_.frame_index.other.try_emplace(key, next).first->second;
    }
    if (i == next) {
      if (next == U64Map::kMissing) c_.fail("more than 2^32 - 1 distinct stack frames in one chunk");
      pools_.frames.push_back(FrameRef{method, line, bci, type});
    }
    return i;
  }

  StringValue read_text(const FieldDesc& f) {
    if (is_string_field(f)) return c_.read_string();
    skip_field(c_, meta_, f);
    return {};
  }

  Cursor& c_;
  const ChunkMetadata& meta_;
  Pools& pools_;
  bool keep_lines_;
  FrameDecoding decoding_;
  TraceOut& out_;
  const ClassDesc* frame_class_ = nullptr;  // frames()' slots are of this class
  std::optional<Slots> frame_slots_;
  bool usual_ = false;
};

void read_checkpoint(Cursor& rec, const ChunkMetadata& meta, Pools& pools, bool keep_lines,
                     FrameDecoding decoding, TraceOut& out, std::int64_t& delta) {
  rec.read_long();  // start time
  rec.read_long();  // duration
  delta = rec.read_long();
  rec.u8();  // type mask
  out.done_at = rec.offset();
  PoolReader reader(rec, meta, pools, keep_lines, decoding, out);
  for (std::uint64_t n = rec.read_count("constant pool", 2); n > 0; --n) {
    const std::uint64_t at = rec.offset();
    const std::uint64_t type = static_cast<std::uint64_t>(rec.read_long());
    const ClassDesc* cls = meta.find(type);
    if (!cls) rec.fail_at(at, "constant pool of undescribed type id " + std::to_string(type));
    reader.read(*cls, rec.read_count("constant pool entry"));
  }
}

}  // namespace

const std::string* Pools::text(const StringValue& v) const {
  if (v.encoding == StringEncoding::kNull) return nullptr;
  if (v.encoding != StringEncoding::kConstantPool) return &v.text;
  auto it = strings.find(v.key);
  return it == strings.end() || it->second.encoding == StringEncoding::kConstantPool ? nullptr
                                                                                     : text(it->second);
}

const std::string* Pools::symbol(std::uint64_t key) const {
  auto it = symbols.find(key);
  return it == symbols.end() ? nullptr : text(it->second);
}

const std::string* Pools::enum_name(const std::string& type, std::uint64_t key) const {
  auto e = enums.find(type);
  if (e == enums.end()) return nullptr;
  auto it = e->second.find(key);
  return it == e->second.end() ? nullptr : text(it->second);
}

bool Pools::enum_has(const std::string& type, std::string_view name) const {
  auto e = enums.find(type);
  if (e == enums.end()) return false;
  for (const auto& [key, value] : e->second)
    if (const std::string* t = text(value); t && *t == name) return true;
  return false;
}

void Pools::clear() {
  threads.clear();
  classes.clear();
  methods.clear();
  symbols.clear();
  strings.clear();
  enums.clear();
  checkpoints = 0;
  stack_traces.clear();
  frames.clear();
  frame_index.packed.clear();
  frame_index.dense.clear();
  frame_index.other.clear();
}

std::size_t Pools::FrameIndex::Hash::operator()(const std::array<std::uint64_t, 3>& k) const {
  const std::uint64_t h =
      k[0] * 0x9E3779B97F4A7C15ull ^ k[1] * 0xC2B2AE3D27D4EB4Full ^ k[2] * 0x165667B19E3779F9ull;
  return static_cast<std::size_t>(h ^ (h >> 29));
}

std::uint32_t StackTracePool::add(std::uint64_t key) {
  if (size_ >= U64Map::kMissing) throw Error("more than 2^32 - 1 stack traces in one chunk");
  const auto next = static_cast<std::uint32_t>(size_);
  if (key < direct_limit_) {
    if (key >= direct_.size())
      direct_.resize(std::max<std::uint64_t>(key + 1, std::min(direct_limit_, 2 * direct_.size())),
                     U64Map::kMissing);
    std::uint32_t& p = direct_[key];
    if (p == U64Map::kMissing) {
      // A key read before the limit rose past it is in the index.
      p = index_.size() == 0 ? U64Map::kMissing : index_.find(key);
      if (p == U64Map::kMissing) {
        p = next;
        ++size_;
      }
    }
    return p;
  }
  const std::uint32_t p = index_.insert(key, next);
  if (p == next) ++size_;
  return p;
}

void StackTracePool::clear() {
  direct_.clear();
  direct_limit_ = 0;
  index_.clear();
  size_ = 0;
}

// The traces of a batch, kLanes at a time. Each looks for the deepest of its
// paths already in the tree: first its whole path, then from the leaf
// towards the root in steps that double, then halving the stretch between
// the deepest path found and the shallowest missing. Most traces add a node
// or two below a path that is there, so this takes a few lookups where a
// walk from the root takes one per frame. The lookups of one trace wait on
// each other, those of different traces do not: each lane's next lookup is
// fetched as soon as it is known, a round of the other lanes ahead of its
// use, so that the cache misses overlap. The missing nodes are then made
// from the deepest path found down (another lane may have made some of them
// since it looked: node_of() finds those).
void TraceTree::add(const TraceBatch& batch) {
  constexpr std::size_t kLanes = 16;
  if (stale_) {
    std::fill(slots_.begin(), slots_.end(), kEmpty);
    stale_ = false;
  }
  if (batch.expected_nodes > 0) reserve(nodes_.size() + batch.expected_nodes);
  const auto& frames = batch.frames;
  hash_paths(batch);
  // A lane's trace has frames [end - depth, end) at depths 1..depth from
  // the root: the path to depth `lo` is in the tree (node `at`), to depth
  // `hi` is not (hi = depth + 1: not looked for yet), and `probe` is looked
  // up next. `step` > 0 while stepping towards the root. Once the search
  // ends, the index slots of the trace's new nodes are fetched, and the
  // nodes made the next time round (`making`), after the other lanes' work:
  // made at once, their slots' cache misses would each wait on the last.
  struct Lane {
    std::uint32_t trace, end, depth, lo, hi, probe, step, at;
    bool making;
  };
  leaves_.assign(batch.traces.size(), 0);
  std::array<Lane, kLanes> lanes;
  std::size_t active = 0, next = 0;
  const auto fill = [&](Lane& l) {
    for (; next < batch.traces.size(); ++next) {
      const std::uint32_t begin = next == 0 ? 0 : batch.traces[next - 1].end, end = batch.traces[next].end;
      if (begin == end) continue;  // no frames: the root
      const std::uint32_t depth = end - begin;
      l = Lane{static_cast<std::uint32_t>(next++), end, depth, 0, depth + 1, depth, 1, 0, false};
      prefetch_path(paths_[begin]);
      return true;
    }
    return false;
  };
  while (active < kLanes && fill(lanes[active])) ++active;
  while (active > 0) {
    for (std::size_t i = 0; i < active;) {
      Lane& l = lanes[i];
      if (l.making) {
        for (std::uint32_t d = l.lo + 1; d <= l.depth; ++d)
          l.at = node_of(paths_[l.end - d], l.at, frames[l.end - d]);
      } else {
        const std::uint32_t f = l.end - l.probe;  // the probed path's frame
        if (const std::uint32_t known = find(paths_[f], frames[f]); known != U64Map::kMissing) {
          l.lo = l.probe;
          l.at = known;
          l.step = 0;  // found: halve from here
        } else {
          l.hi = l.probe;
        }
        if (l.step > 0 && l.hi > l.lo + l.step) {
          l.probe = l.hi - l.step;
          l.step *= 2;
        } else {
          l.step = 0;
          l.probe = l.lo + (l.hi - l.lo) / 2;
        }
        if (l.hi > l.lo + 1) {
          prefetch_path(paths_[l.end - l.probe]);
          ++i;
          continue;
        }
        if (l.lo < l.depth) {
          for (std::uint32_t d = l.lo + 1; d <= l.depth; ++d) prefetch_path(paths_[l.end - d]);
          l.making = true;
          ++i;
          continue;
        }
      }
      leaves_[l.trace] = l.at;
      if (!fill(l)) {
        l = lanes[--active];
        continue;
      }
      ++i;
    }
  }
  // In order: of two traces at one position, the later one stays.
  for (std::size_t t = 0; t < batch.traces.size(); ++t) {
    const TraceBatch::Trace& trace = batch.traces[t];
    if (trace.position >= traces_.size()) traces_.resize(std::size_t{trace.position} + 1);
    traces_[trace.position] = StackTraceRef{leaves_[t], trace.truncated};
  }
}

// Each frame's path, from each trace's root (its last frame) down. A
// path's hash waits on its parent's (a multiply), so one trace after
// another is a chain of waits: the batch is hashed as kChains stretches of
// whole traces at once, each from its end back, whose chains overlap.
void TraceTree::hash_paths(const TraceBatch& batch) {
  constexpr std::size_t kChains = 4;
  const auto& frames = batch.frames;
  const std::size_t n = frames.size();
  paths_.resize(n);
  roots_.assign(n, 0);
  for (const TraceBatch::Trace& t : batch.traces)
    if (t.end > 0) roots_[t.end - 1] = 1;  // (an empty trace marks the trace before it, already marked)
  // Stretch c is [bounds[c], bounds[c + 1]): each bound the end of a trace.
  std::array<std::size_t, kChains + 1> bounds{};
  for (std::size_t c = 1, t = 0; c < kChains; ++c) {
    while (t < batch.traces.size() && batch.traces[t].end < n * c / kChains) ++t;
    bounds[c] = t < batch.traces.size() ? batch.traces[t].end : n;
  }
  bounds[kChains] = n;
  std::size_t common = n;  // steps every stretch takes
  for (std::size_t c = 0; c < kChains; ++c) common = std::min(common, bounds[c + 1] - bounds[c]);
  std::array<std::uint64_t, kChains> path;
  path.fill(kRootPath);
  const auto step = [&](std::size_t c, std::size_t i) {
    path[c] = extend(roots_[i] ? kRootPath : path[c], frames[i]);
    paths_[i] = path[c];
  };
  for (std::size_t k = 1; k <= common; ++k)
    for (std::size_t c = 0; c < kChains; ++c) step(c, bounds[c + 1] - k);
  for (std::size_t c = 0; c < kChains; ++c)
    for (std::size_t i = bounds[c + 1] - common; i-- > bounds[c];) step(c, i);
}

std::uint32_t TraceTree::node_of(std::uint64_t path, std::uint32_t parent, std::uint32_t frame) {
  const std::size_t i = probe(path, frame);
  if (slots_[i].node != U64Map::kMissing) return slots_[i].node;
  const auto next = static_cast<std::uint32_t>(nodes_.size());
  if (next == U64Map::kMissing) throw Error("more than 2^32 - 1 stack trace nodes in one chunk");
  slots_[i] = Slot{path, next, frame};
  nodes_.push_back({parent, frame});
  if (nodes_.size() * 4 > slots_.size() * 3) grow(1);
  return next;
}

void TraceTree::grow(unsigned doublings) {
  BigVector<Slot> old(slots_.size() << doublings, kEmpty);
  old.swap(slots_);
  shift_ -= doublings;
  for (const Slot& s : old)
    if (s.node != U64Map::kMissing)
      slots_[probe(s.path, s.frame)] = s;  // each (path, frame) once: an empty slot
}

void TraceTree::reserve(std::size_t nodes) {
  nodes_.reserve(nodes);
  unsigned doublings = 0;
  while (nodes * 4 > (slots_.size() << doublings) * 3) ++doublings;
  if (doublings > 0) grow(doublings);
}

void TraceTree::drop_index(std::size_t at_least) {
  if (slots_.size() * sizeof(Slot) < at_least) return;
  BigVector<Slot>(std::size_t{1} << kFirstSlotBits, kEmpty).swap(slots_);
  shift_ = 64 - kFirstSlotBits;
  stale_ = false;
}

void TraceTree::clear() {
  nodes_.resize(1);
  traces_.clear();
  stale_ = true;  // the index is emptied by the next add(), if there is one
}

namespace {

// The checkpoint chain's walk, shared by read_constant_pools() and
// first_checkpoint(): the checkpoint event at `offset` of the chunk, its
// record read up to its start time (the type checked), and where that
// record's type is, for errors.
struct Checkpoint {
  Cursor rec;
  std::uint64_t at;
};
Checkpoint checkpoint_at(const Cursor& chunk, std::uint64_t offset) {
  if (offset < kChunkHeaderSize || offset >= chunk.size())
    chunk.fail_at(chunk.offset() - chunk.pos() + std::min<std::uint64_t>(offset, chunk.size()),
                  "checkpoint offset " + std::to_string(offset) + " lies outside the chunk (" +
                      std::to_string(chunk.size()) + " bytes)");
  Cursor c = chunk.window(offset, chunk.size() - offset, "checkpoint");
  const std::uint64_t size = static_cast<std::uint32_t>(c.read_int());
  c.seek(0);
  Cursor rec = c.sub(size, "checkpoint event");
  rec.read_int();
  const std::uint64_t at = rec.offset();
  if (const std::int64_t type = rec.read_long(); type != 1)
    rec.fail_at(at, "expected a checkpoint event (type 1), found type " + std::to_string(type));
  return {rec, at};
}
// The offset of the checkpoint before the one at `offset`, whose record
// gave `delta` (not 0: there is one before).
std::uint64_t previous_checkpoint(const Checkpoint& cp, std::uint64_t offset, std::int64_t delta) {
  const std::uint64_t back = 0 - static_cast<std::uint64_t>(delta);
  if (delta > 0 || back > offset)
    cp.rec.fail_at(cp.at, "checkpoint delta " + std::to_string(delta) + " does not lead back into the chunk");
  return offset - back;
}

}  // namespace

void read_constant_pools(const Cursor& chunk, std::uint64_t last_offset, const ChunkMetadata& meta,
                         Pools& pools, bool keep_lines,
                         const std::function<void(std::uint64_t, std::uint64_t)>& done,
                         const std::function<void(TraceBatch&)>& traces, FrameDecoding decoding) {
  TraceOut out(done, traces);
  for (std::uint64_t offset = last_offset;;) {
    Checkpoint cp = checkpoint_at(chunk, offset);
    std::int64_t delta = 0;
    read_checkpoint(cp.rec, meta, pools, keep_lines, decoding, out, delta);
    ++pools.checkpoints;
    if (delta == 0) return out.flush(cp.rec.offset());
    offset = previous_checkpoint(cp, offset, delta);
  }
}

std::optional<std::uint64_t> first_checkpoint(const Cursor& chunk, std::uint64_t last_offset) {
  try {
    for (std::uint64_t offset = last_offset;;) {
      Checkpoint cp = checkpoint_at(chunk, offset);
      cp.rec.read_long();  // start time
      cp.rec.read_long();  // duration
      const std::int64_t delta = cp.rec.read_long();
      if (delta == 0) return offset;
      offset = previous_checkpoint(cp, offset, delta);
    }
  } catch (const ParseError&) {
    return std::nullopt;
  }
}

}  // namespace fg::formats::jfr
