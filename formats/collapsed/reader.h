// The collapsed reader's class, shared by its line parser (collapsed.cpp)
// and its chunked read on several threads (chunks.cpp). Internal to the
// format: nothing outside formats/collapsed includes it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fg/builder.h"
#include "fg/diagnostics.h"
#include "fg/error.h"
#include "fg/profile.h"
#include "formats/input.h"
#include "formats/options.h"

namespace fg::formats::collapsed {

/// How many columns a one-thread read gives the profile of `text`: those
/// of its first line that ends in a count (0 when none does).
int first_columns(std::string_view text);

// A chunk read on its own thread met something (a warning, an error,
// fractional counts) whose outcome depends on the lines before it: the
// chunk is read again on the reader's own, in file order.
struct NotClean {};

class Reader {
 public:
  Reader(Input& input, const ReadOptions& options, Diagnostics& diag, std::size_t chunk_bytes,
         const std::function<void(std::size_t)>* before_split = nullptr)
      : input_(input),
        diag_(diag),
        sequence_(options.sequence),
        ordinal_(options.first_ordinal),
        chunk_bytes_(chunk_bytes ? chunk_bytes : kChunkBytes),
        before_split_(before_split) {}
  Profile run();

 private:
  // A reader of one chunk, with `columns` (of the whole input, 0 while
  // unknown): it splits the lines, hashes their frames and numbers their
  // distinct texts (split_lines_, token_refs_, distinct_, pointing into
  // the chunk's text), which merge() interns.
  Reader(Input& input, Diagnostics& diag, bool sequence, int columns)
      : input_(input), diag_(diag), sequence_(sequence), ordinal_(0), chunk_(true) {
    if (columns) start(columns);
  }
  void read_lines(const char* b, const char* end);
  struct Chunk;
  struct Chunks;
  void read_chunks(Chunks& c, std::size_t parts);
  void cut_chunk(Chunks& c, Chunk& chunk);
  void cut_stream_chunk(Chunks& c, Chunk& chunk);
  void read_ahead(Chunks& c);
  void split_ahead(Chunks& c);
  void take_chunks(Chunks& c);
  void take_chunk(Chunks& c, Chunk& chunk);
  bool merge(const Reader& chunk);
  void line(const char* b, const char* e);
  bool parse_counts(const char* b, const char* e, const char** stack_end, std::int64_t* values);
  // A frame's text in a line and its hash_bytes().
  struct Token {
    const char* text;
    std::uint32_t size;
    std::uint64_t hash;
  };
  StackId intern_stack(const char* b, const char* e);
  std::size_t split_stack(const char* b, const char* e, std::vector<Token>& tokens);
  StackId intern_tokens(std::size_t shared, std::span<const Token> tokens);
  // Cache hints for interning `tokens` (bulk::prefetch_slot() and the two
  // after it, each over all of them), so that their lookups' misses overlap.
  void prefetch_strings(std::span<const Token> tokens) const;
  void add(StackId s, const std::int64_t* values, std::uint64_t line_no);
  FrameId intern_frame(std::string_view token, std::uint64_t hash);
  FrameId make_frame(std::string_view token, StringId token_id);
  void warn(const char* at, const std::string& kind, const std::string& message) {
    if (chunk_) throw NotClean{};
    diag_.warn(
        SourcePosition::text(input_.name(), line_no_, static_cast<std::uint64_t>(at - line_start_) + 1), kind,
        message);
  }
  void start(int columns);
  // Keeps counts with `decimals` digits after the point from now on.
  void set_decimals(int decimals) {
    if (decimals <= decimals_) return;
    if (chunk_) throw NotClean{};
    try {
      builder_->set_decimals(decimals);
    } catch (const Error& e) {
      throw ParseError(SourcePosition::text(input_.name(), line_no_), e.what());
    }
    decimals_ = decimals;
  }
  void forget_previous() {
    prev_ = nullptr;
    prev_len_ = 0;
    prev_ends_.clear();
    prev_stacks_.clear();
  }

  Input& input_;
  Diagnostics& diag_;
  bool sequence_;  // each line its own sample, numbered from ordinal_ as its timestamp
  std::int64_t ordinal_;
  // The input is read in chunks of this size (to the end of a line), on
  // several threads when it is worth them.
  static constexpr std::size_t kChunkBytes = 1 << 20;
  std::size_t chunk_bytes_ = kChunkBytes;
  std::optional<ProfileBuilder> builder_;
  int columns_ = 0;  // 0 until the first data line decides between 1 and 2
  // Fractional counts are kept exactly: the decimals of the counts so far
  // (at most kMaxDecimals; the columns have them).
  int decimals_ = 0;
  static constexpr int kMaxDecimals = 9;
  std::uint64_t line_no_ = 0;
  const char* line_start_ = nullptr;

  // The previous stack's bytes (still in the buffer), the end offset of each
  // of its frames and the stack after each frame: a line that shares a byte
  // prefix with the previous one reuses those frames without hashing them.
  const char* prev_ = nullptr;
  std::size_t prev_len_ = 0;
  std::vector<std::size_t> prev_ends_;
  std::vector<StackId> prev_stacks_;

  std::vector<FrameId> token_frames_;  // by the token's string id
  std::size_t expected_bytes_ = 0;     // input size when known
  // Tests': called with a chunk's number before a thread splits it.
  const std::function<void(std::size_t)>* before_split_ = nullptr;
  std::vector<Token> tokens_;  // the current line's new frames
  // A chunk's reader splits its lines, hashes their frames and numbers
  // each distinct frame text by its first appearance in the chunk; the
  // merge interns each distinct text once. A line: its number in the
  // chunk, how many frames it shares with the line before, its new frames
  // (the next `count` of token_refs_) and its counts.
  struct SplitLine {
    std::uint64_t line_no;
    std::uint32_t shared, count;
    std::int64_t values[2];
  };
  std::vector<SplitLine> split_lines_;
  std::vector<Token> distinct_;                // a chunk's frame texts, by first appearance
  std::vector<std::uint32_t> token_refs_;      // its lines' new frames, as indexes into distinct_
  std::vector<std::uint32_t> distinct_slots_;  // open addressing: distinct_ index + 1, 0 when empty
  std::uint32_t distinct_ref(const Token& t);
  std::vector<FrameId> chunk_frames_;  // the merge's: the frame of each of a chunk's distinct_
  void intern_distinct(std::span<const Token> distinct);
  // The start of the mapped file when this reader reads it in file order:
  // it gives the pages behind it back as it goes.
  const char* mapped_ = nullptr;

  // A chunk's reader: throws NotClean where the reader would warn; clean_
  // until it has.
  bool chunk_ = false, clean_ = true;
};

}  // namespace fg::formats::collapsed
