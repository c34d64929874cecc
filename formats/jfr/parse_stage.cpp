// The parse stage of the JFR reader: each chunk's metadata, pools and trace
// tree, and its selected events, folded into samples, each with its leaf
// node in the tree and the new nodes of its path.
#include <algorithm>

#include "fg/parallel.h"
#include "formats/jfr/reader.h"

namespace fg::formats::jfr::detail {

void Reader::parse(ChunkReader& chunks, const Emit& emit) {
  std::size_t index = 0;
  for (std::optional<Chunk> c; (c = chunks.next()); ++index) parse_chunk(chunks, *c, index, emit);
}

std::shared_ptr<ParsedChunk> Reader::new_chunk(std::size_t index, const ChunkHeader& h) {
  auto pc = std::make_shared<ParsedChunk>();
  pc->index = index;
  pc->header = h;
  // The pools and the tree keep their capacity from chunk to chunk.
  std::optional<SpareRoom> spare;
  {
    std::lock_guard lock(spare_mutex_);
    spare.swap(spare_);
  }
  if (spare) {
    pc->pools = std::move(spare->pools);
    pc->pools.clear();
    pc->tree = std::move(spare->tree);
    pc->tree.clear();
  }
  return pc;
}

// The stack traces go into the chunk's tree as they are read, a batch at a
// time (each batch keeps its capacity for the next).
void Reader::read_pools(ChunkReader& chunks, ParsedChunk& pc, const Cursor& chunk) {
  read_constant_pools(
      chunk, pc.header.checkpoint_offset, pc.meta, pc.pools, naming_.lines || naming_.bci,
      [&chunks](std::uint64_t begin, std::uint64_t end) { chunks.drop(begin, end); },
      [&pc](TraceBatch& b) { pc.tree.add(b); });
  // Every trace is in: the tree's index of nodes by path is not needed
  // again before the next chunk's (128 MiB of a 379 MiB peak, in a
  // recording with 5 million trace nodes).
  pc.tree.drop_index();
}

void Reader::parse_chunk(ChunkReader& chunks, const Chunk& c, std::size_t index, const Emit& emit) {
  const ChunkHeader& h = c.header;
  std::shared_ptr<ParsedChunk> pc = new_chunk(index, h);
  Cursor chunk(c.bytes, file_, h.offset, h.compressed());
  try {
    Cursor meta = chunk.window(h.metadata_offset, h.size - h.metadata_offset, "metadata event");
    const std::uint64_t meta_size = static_cast<std::uint32_t>(meta.read_int());
    meta.seek(0);
    Cursor meta_record = meta.sub(meta_size, "metadata event");
    pc->meta = read_metadata(meta_record);
    // The events are read while the pools are read and the tree built,
    // on a thread beside theirs, unless --leak's order of events waits on
    // them, or the chunk is too small to be worth it. A filter of thread
    // states, whose names are in the pools, is applied to the samples as
    // they go over. The chunk's events are a third thread's work, beside
    // the resolve stage's and the pools': in a small chunk the tree is
    // built in no time, and a third thread on two CPUs costs more than it
    // saves.
    const Work events{.bytes = h.size, .nesting = 1};
    std::optional<std::uint64_t> first_pool;
    if (threaded_ && !opt_.leak && worth_a_thread(events))
      first_pool = first_checkpoint(chunk, h.checkpoint_offset);
    if (!first_pool) {
      read_pools(chunks, *pc, chunk);
      // The pools are in memory of their own now; in a recording with a
      // million stack traces their bytes are most of the chunk. The events
      // still to read come back from the file as they are reached.
      chunks.drop(h.offset, h.offset + h.size);
      emit(Parsed{index, pc, {}, {}, {}});
      parse_events(chunks, std::move(pc), chunk, emit, nullptr);
      return;
    }
    // The chunk goes over as soon as its pools are read and its tree
    // built, from their thread: the resolve stage readies what it resolves
    // with (ChunkResolver, the tiers' tables) while the events are read.
    const Cursor pools_view = chunk;
    const auto read_pools_then_chunk = [&] {
      read_pools(chunks, *pc, pools_view);
      emit(Parsed{index, pc, {}, {}, {}});
    };
    fg::Beside pools(events, read_pools_then_chunk);
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

namespace {

// Each event's stack trace: its position in the pool, then its leaf node
// in the tree and, with `list`, the new nodes of its path into `nodes`.
// Both are lookups into tables of hundreds of thousands of entries, each
// fetched a few events ahead. `positions` is scratch room.
void find_traces(const StackTracePool& traces, NodeLister& lister, bool list,
                 std::vector<DecodedEvent>& batch, std::vector<NewNode>& nodes,
                 std::vector<std::uint32_t>& positions) {
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

}  // namespace

// One chunk's events, decoded into batches of kBatch. With --leak each
// batch goes over as it is, in order; otherwise it is folded into `whole_`,
// which goes over at the chunk's end, or once it holds most_folded_samples
// (by default two million, 64 or 128 MiB: a chunk whose 7.6 M events make
// 1.5 M samples, handed over at one million, read the rest of its events
// while the resolve stage waited). A batch goes over with its stacks' tree
// nodes, so not before the pools are read and the tree built.
class Reader::ChunkEvents {
 public:
  ChunkEvents(Reader& r, ChunkReader& chunks, std::shared_ptr<ParsedChunk> pc, Cursor& chunk,
              const Emit& emit, const std::function<void()>* pools_read, std::uint64_t first_pool)
      : r_(r),
        chunks_(chunks),
        pc_(std::move(pc)),
        chunk_(chunk),
        emit_(emit),
        pools_read_(pools_read),
        first_pool_(first_pool),
        index_(pc_->index),
        plans_(pc_->meta, r.opt_.events, r.filter_.timed),
        jvm_(pc_->meta.find("jdk.JVMInformation")),
        os_(pc_->meta.find("jdk.OSInformation")),
        most_samples_(std::max<std::size_t>(r.tuning_.most_folded_samples, 1)),
        whole_(r.opt_.leak ? nullptr : &r.chunk_samples_),
        batch_capacity_(std::min<std::uint64_t>(kBatch, pc_->header.size / kFewestEventBytes + 1)) {
    if (whole_) whole_->clear();
  }

  // Reads every event, then hands over what is left and the chunk's tail.
  void run();

 private:
  static constexpr std::size_t kBatch = 4096;
  // A batch's capacity is made with its first event, for as many events as
  // the chunk can hold at this many bytes each (a record's size, type,
  // time, thread and trace), kBatch at most: a small recording's read
  // costs no kBatch events of memory. A chunk of smaller events grows its
  // batches.
  static constexpr std::uint64_t kFewestEventBytes = 8;
  // Events of a selected type whose fields are all integers are read
  // without a check per byte while the chunk has room for their longest
  // encoding (and the record's size and type): the bytes to have, or
  // SIZE_MAX when no selected type can be read so.
  std::size_t fast_bytes() const;
  // The record at the cursor, read with a check per byte.
  void read_checked();
  void select(const EventPlan& plan, const EventRecord& e, std::uint64_t end) {
    DecodedEvent d;
    if (!r_.to_sample(*pc_, plan, e, d)) return;
    if (batch_.capacity() == 0) batch_.reserve(batch_capacity_);
    batch_.push_back(d);
    if (batch_.size() >= kBatch) next_batch(end);
  }
  // The batch, folded or handed over; then the pages before `at` let go of.
  void next_batch(std::uint64_t at);
  void hand_over(bool fold);
  // When no more events are to be folded (`last`: at the chunk's end, or
  // for the rest of it), the samples' room is let go of as they go over.
  void hand_over_whole(bool last);
  void wait_for_pools();
  // The event counts into the tail; the last batches; the tail.
  void finish();

  Reader& r_;
  ChunkReader& chunks_;
  std::shared_ptr<ParsedChunk> pc_;
  Cursor& chunk_;
  const Emit& emit_;
  const std::function<void()>* pools_read_;
  std::uint64_t first_pool_;
  const std::size_t index_;
  const EventPlans plans_;
  const ClassDesc* jvm_;
  const ClassDesc* os_;
  const std::size_t most_samples_;
  ChunkTail tail_;
  std::vector<std::uint64_t> counts_;  // by type id (ids are small: they index the metadata)
  std::unordered_map<std::uint64_t, std::uint64_t> big_counts_;  // the others
  // What waits for the pools, while they are read beside: the events of
  // jdk.JVMInformation and jdk.OSInformation (their strings are pool
  // entries; their bytes are kept, as the pages they were read from may be
  // gone by then), and the pages of the file from the first pool on.
  struct InfoRecord {
    const ClassDesc* cls;
    std::string bytes;
    std::uint64_t offset;
  };
  std::vector<InfoRecord> info_records_;
  std::vector<DecodedEvent> batch_;
  ChunkSamples* whole_;
  const std::size_t batch_capacity_;
  std::size_t events_folded_ = 0;          // into `whole_` since it was cleared
  std::optional<NodeLister> lister_;       // the tree of the chunk's traces, once built
  std::vector<std::uint32_t> positions_;   // find_traces()' scratch room
  std::vector<std::uint32_t> fold_slots_;  // fold_by_node()'s
};

void Reader::parse_events(ChunkReader& chunks, std::shared_ptr<ParsedChunk> pc, Cursor& chunk,
                          const Emit& emit, const std::function<void()>* pools_read,
                          std::uint64_t first_pool) {
  Filter& f = filter_;
  f.span.add(pc->header);
  f.window = time_window(opt_, f.span);
  f.timed = needs_time(opt_);
  f.states_pending = pools_read && state_filter();
  if (f.states_pending)
    f.states.reset();
  else
    allow_states(pc->pools);
  ChunkEvents(*this, chunks, std::move(pc), chunk, emit, pools_read, first_pool).run();
}

std::size_t Reader::ChunkEvents::fast_bytes() const {
  std::size_t unchecked_bytes = 0;
  for (const auto& [id, cls] : pc_->meta.classes())
    if (const EventPlan* plan = plans_.find(id))
      unchecked_bytes = std::max(unchecked_bytes, plan->unchecked_bytes());
  return unchecked_bytes == 0 ? SIZE_MAX : unchecked_bytes + 18;
}

void Reader::ChunkEvents::run() {
  const std::size_t fast = fast_bytes();
  chunk_.seek(kChunkHeaderSize);
  while (!chunk_.at_end()) {
    // Each record must end within its size, else it is read again, checked.
    if (const char* const p = chunk_.unchecked(fast)) {
      const char* q = p;
      const std::uint64_t size = static_cast<std::uint32_t>(Cursor::unchecked_varint(q));
      const std::uint64_t type = Cursor::unchecked_varint(q);
      const EventPlan* plan = plans_.find(type);
      if (type > 1 && type < counts_.size() && plan && plan->unchecked_bytes() != 0 &&
          size <= chunk_.remaining()) {
        const EventRecord e = plan->decode_unchecked(q);
        if (static_cast<std::uint64_t>(q - p) <= size) {
          ++counts_[type];
          chunk_.skip_to(p + size);
          select(*plan, e, chunk_.offset());
          continue;
        }
      }
    }
    read_checked();
  }
  finish();
}

void Reader::ChunkEvents::read_checked() {
  Record r = next_record(chunk_);
  const std::uint64_t at = r.offset, type = r.type;
  Cursor& rec = r.fields;
  if (type == 0 || type == 1) return;  // metadata, checkpoints
  if (type < 65536) {
    if (type >= counts_.size()) counts_.resize(type + 1);
    ++counts_[type];
  } else {
    ++big_counts_[type];
  }
  const ChunkMetadata& meta = pc_->meta;
  if (const EventPlan* plan = plans_.find(type)) {
    select(*plan, plan->decode(rec, meta), at);
  } else if ((jvm_ && type == jvm_->id) || (os_ && type == os_->id)) {
    if (pools_read_)
      info_records_.push_back({meta.find(type), std::string(rec.rest()), rec.offset()});
    else
      read_info(meta, pc_->pools, *meta.find(type), rec, tail_.info);
  }
}

void Reader::ChunkEvents::next_batch(std::uint64_t at) {
  if (whole_) {
    constexpr std::size_t kAheadBy = 48;  // the samples are met at random in 100 MB
    for (std::size_t i = 0; i < batch_.size(); ++i) {
      if (i + 2 * kAheadBy < batch_.size()) whole_->prefetch(batch_[i + 2 * kAheadBy]);
      if (i + kAheadBy < batch_.size()) whole_->prefetch_sample(batch_[i + kAheadBy]);
      whole_->add(batch_[i]);
    }
    events_folded_ += batch_.size();
    batch_.clear();
    if (whole_->size() >= most_samples_) {
      // Fewer than two events a sample: folding the rest of the chunk is
      // not worth its room and its lookups, and its batches go over as
      // they are read (4.6 M traces in 7 M events: 4.60 s and 747 MiB,
      // against 5.25 s and 808 MiB folding it all).
      const bool stream = 2 * whole_->size() > events_folded_;
      hand_over_whole(stream);
      events_folded_ = 0;
      if (stream) whole_ = nullptr;
    }
  } else {
    hand_over(false);
  }
  // Events come in order: a large chunk's pages behind this one are done
  // with (those of its pools, once read).
  chunks_.release_before(std::min(at, first_pool_));
}

void Reader::ChunkEvents::hand_over(bool fold) {
  wait_for_pools();
  if (!lister_) lister_.emplace(pc_->tree);
  std::vector<NewNode> nodes;
  find_traces(pc_->pools.stack_traces, *lister_, !r_.opt_.threads, batch_, nodes, positions_);
  if (fold) fold_by_node(batch_, fold_slots_);
  emit_(Parsed{index_, nullptr, std::move(batch_), std::move(nodes), {}, fold});
  batch_ = {};
}

void Reader::ChunkEvents::hand_over_whole(bool last) {
  wait_for_pools();
  const std::size_t all = whole_->size();
  for (std::size_t b = 0; b < all; b += kBatch) {
    const std::size_t end = std::min(all, b + kBatch);
    batch_.reserve(end - b);
    for (std::size_t i = b; i < end; ++i)
      if (DecodedEvent e = whole_->at(i); r_.keep_state(e)) batch_.push_back(e);
    if (last) whole_->release_before(end);
    if (!batch_.empty()) hand_over(true);
  }
  whole_->clear();
  r_.filter_.states_pending = false;  // the events from here on are filtered as they are read
}

void Reader::ChunkEvents::wait_for_pools() {
  if (!pools_read_) return;
  (*pools_read_)();
  pools_read_ = nullptr;
  first_pool_ = UINT64_MAX;
  if (r_.filter_.states_pending) r_.allow_states(pc_->pools);
  for (const InfoRecord& rec : info_records_) {
    Cursor c(rec.bytes, r_.file_, rec.offset, chunk_.compressed());
    read_info(pc_->meta, pc_->pools, *rec.cls, c, tail_.info);
  }
}

void Reader::ChunkEvents::finish() {
  for (std::uint64_t type = 0; type < counts_.size(); ++type)
    if (counts_[type] != 0) big_counts_[type] = counts_[type];
  for (const auto& [type, n] : big_counts_) {
    tail_.counts.emplace_back(event_type_label(pc_->meta, type), n);
  }
  if (whole_) {
    next_batch(chunk_.offset());
    hand_over_whole(true);
  } else if (!batch_.empty()) {
    hand_over(false);
  }
  wait_for_pools();  // a chunk without events
  if (lister_) tail_.truncated = lister_->truncated_traces();
  // Let go of the chunk before its tail: the resolve stage then recycles its tables.
  pc_.reset();
  emit_(Parsed{index_, nullptr, {}, {}, std::move(tail_)});
}

bool Reader::to_sample(const ParsedChunk& pc, const EventPlan& plan, const EventRecord& e,
                       DecodedEvent& d) const {
  const EventType type = plan.type();
  const Filter& f = filter_;
  const std::int64_t ns = f.timed ? pc.header.to_ns(e.time) : 0;
  if (!f.window.contains(ns)) return false;
  if (dropped_by_state(type, e.has_state, e.state)) return false;
  const bool state = labels_ || f.states_pending;  // kept, for the labels or the filter
  const EventValues v = event_values(opt_, type, e, pc.header);
  d.type = type;
  d.has_state = state && e.has_state;
  d.outside_tlab = v.outside_tlab;
  d.node = U64Map::kMissing;
  d.new_nodes = 0;
  d.events = 1;
  d.stack = e.stack;
  d.thread = labels_ ? e.thread : 0;
  d.state = state ? e.state : 0;
  d.cls = v.class_frame ? e.cls : 0;
  d.samples = v.samples;
  d.values[0] = v.values[0];
  d.values[1] = v.values[1];
  d.ticks = e.time;
  d.ns = ns;
  d.address = e.address;
  return true;
}

// Whether the sample `e`, folded while the state filter waited for the
// pools, passes it; its state is then dropped unless labels show it.
bool Reader::keep_state(DecodedEvent& e) const {
  if (!filter_.states_pending) return true;
  if (dropped_by_state(e.type, e.has_state, e.state)) return false;
  if (!labels_) {
    e.has_state = false;
    e.state = 0;
  }
  return true;
}

// The ThreadState keys of a chunk that --state, --cpu or --wall keeps.
void Reader::allow_states(const Pools& pools) {
  filter_.states.reset();
  if (!state_filter()) return;  // (the pools may be still being read)
  StateChoice c = choose_states(thread_states(pools), opt_.events, states_);
  summary_.add_states(c);
  filter_.states = std::move(c.allowed);
}

}  // namespace fg::formats::jfr::detail
