// The collapsed reader's chunked read: the input cut into chunks of whole
// lines, split on several threads and merged in file order (see chunks.h).
#include "formats/collapsed/chunks.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "fg/parallel.h"
#include "formats/collapsed/reader.h"

namespace fg::formats::collapsed {

// One chunk of a chunked read: whole lines of the input, in file order.
struct Reader::Chunk {
  std::string_view text;
  std::size_t end = 0;             // a mapped file's: the offset of text's end
  std::unique_ptr<char[]> buffer;  // a stream's: text's bytes
  std::size_t capacity = 0;        // of buffer
  int columns = 0;                 // the input's, as known when the chunk was cut (0: not yet)
  std::exception_ptr error;        // the input failed after text: thrown once text is read
  std::unique_ptr<Reader> tables;  // split by another thread (nullptr: to read in file order)
  bool ready = false;              // cut and, by its thread, read
};

// What the threads of a chunked read share. Chunks are cut in file order
// under `cut_m`; those cut and not yet merged wait in `slots`, under `m`.
struct Reader::Chunks {
  Chunks(std::optional<std::string_view> w, std::size_t bytes) : whole(w), chunk_bytes(bytes) {}
  std::optional<std::string_view> whole;  // a mapped file's bytes; else a stream's, read as cut
  std::size_t chunk_bytes;
  std::size_t ahead = 1;  // chunks cut past the one being merged, at most
  std::mutex cut_m;
  std::atomic<std::size_t> cut{0};  // chunks cut so far
  std::size_t offset = 0;           // a mapped file's: where the next chunk starts
  std::string carry;                // a stream's: the partial line after the last chunk
  bool at_end = false;              // nothing left to cut
  int columns = 0;                  // of the input: its first line that ends in a count decides
  std::mutex m;
  std::condition_variable changed;
  std::deque<Chunk> slots;                                             // chunks [merged, merged + size)
  std::vector<std::pair<std::unique_ptr<char[]>, std::size_t>> spare;  // stream buffers to reuse
  std::size_t merged = 0;
  bool stopped = false;       // a thread failed: the others stop
  std::exception_ptr failed;  // a read_ahead() thread's error
};

// Cuts the next chunk (under c.cut_m): at least c.chunk_bytes, to the end
// of a line.
void Reader::cut_chunk(Chunks& c, Chunk& chunk) {
  if (c.whole) {
    const std::string_view w = *c.whole;
    const std::size_t from = c.offset;
    std::size_t to = std::min(w.size(), from + c.chunk_bytes);
    if (to < w.size()) {
      const std::size_t nl = w.find('\n', to - 1);
      to = nl == std::string_view::npos ? w.size() : nl + 1;
    }
    chunk.text = w.substr(from, to - from);
    chunk.end = to;
    c.offset = to;
    c.at_end = to == w.size();
  } else {
    cut_stream_chunk(c, chunk);
  }
  if (c.columns == 0) c.columns = first_columns(chunk.text);
  chunk.columns = c.columns;
  c.cut.store(c.cut.load() + 1);
}

// A stream's next chunk: the partial line left by the last one, then
// blocks read up to the last line break. A line longer than a chunk grows
// the buffer; one longer than kMaxLineBytes is cut, and fails where it is
// read. A read error ends the input after the chunk's whole lines.
void Reader::cut_stream_chunk(Chunks& c, Chunk& chunk) {
  {
    std::lock_guard lock(c.m);
    if (!c.spare.empty()) {
      chunk.buffer = std::move(c.spare.back().first);
      chunk.capacity = c.spare.back().second;
      c.spare.pop_back();
    }
  }
  if (chunk.capacity < c.chunk_bytes + c.carry.size()) {
    chunk.capacity = c.chunk_bytes + c.carry.size();
    chunk.buffer.reset(new char[chunk.capacity]);
  }
  std::size_t n = c.carry.size();
  std::memcpy(chunk.buffer.get(), c.carry.data(), n);
  c.carry.clear();
  const char* nl = nullptr;
  try {
    while (!c.at_end) {
      for (std::size_t k = 1; n < chunk.capacity && k > 0; n += k) {
        k = input_.read(chunk.buffer.get() + n, chunk.capacity - n);
        c.at_end = k == 0;
      }
      if (c.at_end) break;
      nl = static_cast<const char*>(memrchr(chunk.buffer.get(), '\n', n));
      if (nl || n > kMaxLineBytes) break;
      std::unique_ptr<char[]> bigger(new char[chunk.capacity * 2]);
      std::memcpy(bigger.get(), chunk.buffer.get(), n);
      chunk.buffer = std::move(bigger);
      chunk.capacity *= 2;
    }
  } catch (...) {
    chunk.error = std::current_exception();
    c.at_end = true;
    nl = static_cast<const char*>(memrchr(chunk.buffer.get(), '\n', n));
    n = nl ? static_cast<std::size_t>(nl - chunk.buffer.get()) + 1 : 0;
  }
  std::size_t size = n;
  if (!c.at_end && nl) {
    size = static_cast<std::size_t>(nl - chunk.buffer.get()) + 1;
    c.carry.assign(chunk.buffer.get() + size, n - size);
  }
  chunk.text = std::string_view(chunk.buffer.get(), size);
}

// The input in chunks shared by `parts` threads. This one takes them in
// file order (take_chunks()); the others cut chunks ahead and split their
// lines (read_ahead()).
void Reader::read_chunks(Chunks& c, std::size_t parts) {
  c.ahead = parts;
  for_each_part(parts, [&](std::size_t part) {
    if (part > 0) return read_ahead(c);
    try {
      take_chunks(c);
    } catch (...) {
      {
        std::lock_guard lock(c.m);
        c.stopped = true;
      }
      c.changed.notify_all();
      throw;
    }
  });
}

// Cuts the next chunk and splits its lines, while chunks
// are left and at most c.ahead are cut past those merged, so memory holds
// a few chunks, not the input.
void Reader::read_ahead(Chunks& c) {
  try {
    split_ahead(c);
  } catch (...) {
    // Failed outside a chunk (an allocation, say): the merging thread,
    // which may be waiting for this thread's chunk, fails with its error.
    {
      std::lock_guard lock(c.m);
      c.stopped = true;
      if (!c.failed) c.failed = std::current_exception();
    }
    c.changed.notify_all();
  }
}

void Reader::split_ahead(Chunks& c) {
  for (;;) {
    {
      std::unique_lock lock(c.m);
      c.changed.wait(lock, [&] { return c.stopped || c.cut.load() < c.merged + c.ahead; });
      if (c.stopped) return;
    }
    Chunk chunk;
    std::size_t i;
    {
      std::lock_guard lock(c.cut_m);
      if (c.at_end) return;
      i = c.cut.load();
      cut_chunk(c, chunk);
    }
    if (before_split_ && *before_split_) (*before_split_)(i);
    if (!chunk.error) {
      chunk.tables.reset(new Reader(input_, diag_, sequence_, chunk.columns));
      // Enough for frames of 32 bytes and lines of 256 (pages never
      // written are never taken), so that they do not grow by copies.
      chunk.tables->token_refs_.reserve(chunk.text.size() / 32);
      chunk.tables->split_lines_.reserve(chunk.text.size() / 256);
      try {
        chunk.tables->read_lines(chunk.text.data(), chunk.text.data() + chunk.text.size());
      } catch (...) {
        chunk.tables->clean_ = false;  // read again in order
      }
    }
    chunk.ready = true;
    {
      std::lock_guard lock(c.m);
      while (c.slots.size() <= i - c.merged) c.slots.emplace_back();
      c.slots[i - c.merged] = std::move(chunk);
    }
    c.changed.notify_all();
  }
}

// Takes the chunks in file order: reads each chunk nobody has cut yet (and
// each that is not clean) into the profile itself, and merges each chunk
// another thread read.
void Reader::take_chunks(Chunks& c) {
  for (std::size_t i = 0;; ++i) {
    Chunk own;
    Chunk* chunk = &own;
    bool mine = false;
    {
      std::lock_guard lock(c.cut_m);
      if (c.cut.load() == i) {
        if (c.at_end) return;
        cut_chunk(c, own);
        mine = true;
      }
    }
    if (!mine) {
      std::unique_lock lock(c.m);
      c.changed.wait(lock, [&] { return c.failed || (!c.slots.empty() && c.slots.front().ready); });
      if (c.slots.empty() || !c.slots.front().ready) std::rethrow_exception(c.failed);
      chunk = &c.slots.front();
    }
    take_chunk(c, *chunk);
    {
      std::lock_guard lock(c.m);
      if (chunk->buffer) c.spare.emplace_back(std::move(chunk->buffer), chunk->capacity);
      if (!c.slots.empty()) c.slots.pop_front();
      c.merged = i + 1;
    }
    c.changed.notify_all();
  }
}

// Adds one chunk, in file order, to the profile: its lines as another
// thread split them cleanly, else its lines read here.
void Reader::take_chunk(Chunks& c, Chunk& chunk) {
  forget_previous();
  const char* text = chunk.text.data();
  if (!chunk.tables || !merge(*chunk.tables)) {
    mapped_ = c.whole ? c.whole->data() : nullptr;
    read_lines(text, text + chunk.text.size());
  }
  chunk.tables.reset();
  if (c.whole) input_.release_mapped(chunk.end);
  if (chunk.error) std::rethrow_exception(chunk.error);
}

// Adds a clean chunk's lines, split by another thread, to this reader's
// profile as if this reader had read them: in file order, interning each
// line's new frames after those it shares with the line before. False
// (nothing added) for a chunk that was not clean, or whose counts need the
// lines before them (decimals).
bool Reader::merge(const Reader& chunk) {
  if (!chunk.clean_ || decimals_ != 0) return false;
  if (!chunk.split_lines_.empty() && !builder_) start(chunk.columns_);
  // Frames first, in the order their texts first appear: the one-thread
  // read makes strings, functions and frames in that order too, and stacks
  // in line order below, so every id is the one-thread read's.
  intern_distinct(chunk.distinct_);
  std::span<const std::uint32_t> refs(chunk.token_refs_);
  for (const SplitLine& l : chunk.split_lines_) {
    prev_stacks_.resize(l.shared);
    StackId s = l.shared ? prev_stacks_[l.shared - 1] : kRootStack;
    for (const std::uint32_t r : refs.first(l.count)) {
      s = builder_->stack(s, chunk_frames_[r]);
      prev_stacks_.push_back(s);
    }
    refs = refs.subspan(l.count);
    add(s, l.values, line_no_ + l.line_no);
  }
  line_no_ += chunk.line_no_;
  return true;
}

// The frames of a chunk's distinct texts, in order, into chunk_frames_:
// in batches, each batch's cache hints before its lookups.
void Reader::intern_distinct(std::span<const Token> distinct) {
  constexpr std::size_t kBatch = 16;
  chunk_frames_.clear();
  for (std::size_t i = 0; i < distinct.size(); i += kBatch) {
    const std::span<const Token> batch = distinct.subspan(i, std::min(kBatch, distinct.size() - i));
    prefetch_strings(batch);
    for (const Token& t : batch)
      chunk_frames_.push_back(intern_frame(std::string_view(t.text, t.size), t.hash));
  }
}

// The index in distinct_ of t's text, which is added when it is new: a
// table of open addressing by the text's hash, at most half full.
std::uint32_t Reader::distinct_ref(const Token& t) {
  if (distinct_slots_.size() < 2 * (distinct_.size() + 1)) {
    distinct_slots_.assign(std::max<std::size_t>(1024, 2 * distinct_slots_.size()), 0);
    const std::size_t mask = distinct_slots_.size() - 1;
    for (std::uint32_t k = 0; k < distinct_.size(); ++k) {
      std::size_t i = distinct_[k].hash & mask;
      while (distinct_slots_[i] != 0) i = (i + 1) & mask;
      distinct_slots_[i] = k + 1;
    }
  }
  const std::size_t mask = distinct_slots_.size() - 1;
  for (std::size_t i = t.hash & mask;; i = (i + 1) & mask) {
    const std::uint32_t at = distinct_slots_[i];
    if (at == 0) {
      distinct_.push_back(t);
      distinct_slots_[i] = static_cast<std::uint32_t>(distinct_.size());
      return static_cast<std::uint32_t>(distinct_.size() - 1);
    }
    const Token& d = distinct_[at - 1];
    if (d.hash == t.hash && d.size == t.size && std::memcmp(d.text, t.text, t.size) == 0) return at - 1;
  }
}

Profile Reader::run() {
  if (auto whole = input_.map_whole()) {
    expected_bytes_ = whole->size();
    const std::size_t parts = parts_for({.bytes = whole->size()});
    if (parts > 1) {
      // At least a chunk per thread.
      Chunks c(whole, std::min(chunk_bytes_, std::max<std::size_t>(1, (whole->size() + parts - 1) / parts)));
      read_chunks(c, parts);
    } else {
      mapped_ = whole->data();
      read_lines(whole->data(), whole->data() + whole->size());
    }
  } else {
    // A stream in chunks: the first, cut here, tells whether it is worth
    // more threads. The input holds at least the bytes read so far (the
    // chunk's whole lines and the partial line carried past them) and,
    // short of its end, one more.
    Chunks c(std::nullopt, chunk_bytes_);
    c.slots.emplace_back();
    cut_chunk(c, c.slots.back());
    c.slots.back().ready = true;
    const std::size_t read_so_far = c.slots.back().text.size() + c.carry.size();
    read_chunks(c, c.at_end ? 1 : parts_for({.bytes = read_so_far + 1}));
  }
  if (columns_ == 0) start(1);
  return std::move(*builder_).finish();
}

Profile read_in_chunks(Input& input, const ReadOptions& options, Diagnostics& diagnostics,
                       std::size_t chunk_bytes, const std::function<void(std::size_t)>& before_split) {
  return Reader(input, options, diagnostics, chunk_bytes, &before_split).run();
}

}  // namespace fg::formats::collapsed
