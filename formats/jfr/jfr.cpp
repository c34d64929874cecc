#include "formats/jfr/jfr.h"

#include <algorithm>
#include <cstdlib>

#include "fg/bulk_builder.h"
#include "fg/parallel.h"
#include "formats/jfr/reader.h"
#include "formats/jfr/reference_reader.h"

namespace fg::formats::jfr {

namespace detail {

// Hand-offs parsed ahead at most.
constexpr std::size_t kAhead = 16;

// The input's size where known: mapped, or a stream that ends within the
// bytes worth a thread (looked ahead at, so a tiny recording, as fuzzing
// reads thousands a second, is read without starting one); else
// UINT64_MAX, a stream as large as any.
std::uint64_t Reader::known_size(const ChunkReader& chunks) {
  if (const std::optional<std::uint64_t> mapped = chunks.mapped_size()) return *mapped;
  const std::size_t head = input_.head(kBytesWorthAThread).size();
  return head < kBytesWorthAThread ? head : UINT64_MAX;
}

Profile Reader::run() {
  if (opt_.leak && opt_.events != Events::kNativeMem) throw UsageError("--leak needs --nativemem");
  states_ = state_names(opt_.state);
  // The parse stage (pools, trace trees, events) and the resolve stage
  // (stacks, samples) share the time of a large recording: on two threads
  // they overlap. A small file is not worth the thread.
  ChunkReader chunks(input_, chunk_diag_);
  const Work work{.bytes = known_size(chunks)};
  threaded_ = worth_a_thread(work);
  handoff<Parsed>(
      work, kAhead,
      [&](auto&& emit) {
        const Emit to_resolve_stage = [&](Parsed&& p) { emit(std::move(p)); };
        parse(chunks, to_resolve_stage);
      },
      [&](Parsed&& p) { take(std::move(p)); });
  spare_.reset();
  finish_leaks();
  check_states_matched(summary_, states_);
  fill_metadata(summary_, file_, builder_.metadata());
  report(summary_, opt_, file_, note_, diag_, every_kind_read_);
  builder_.metadata().default_value = bulk::peek(builder_).value_types()[column_].type;
  if (stand_in_tiers_) return bulk::finish(std::move(builder_), decided_frames());
  return merge_compilation_kinds(std::move(builder_).finish(), column_);
}

Profile read_fast(Input& input, const ReadOptions& options, Diagnostics& diagnostics, const Tuning& tuning) {
  return read_default_or_sole_kind(
      input, options, diagnostics,
      [&tuning](Input& in, const ReadOptions& o, Diagnostics& d, Diagnostics& chunk_d) {
        Reader reader(in, o, d, chunk_d, tuning);
        Profile p = reader.run();
        return Reading{std::move(p), reader.sole_other_kind()};
      });
}

}  // namespace detail

Sniff sniff(std::string_view head, std::string_view) {
  if (head.size() < 6 || head.substr(0, 4) != kMagic) return Sniff::kNo;
  const int major = static_cast<unsigned char>(head[4]) << 8 | static_cast<unsigned char>(head[5]);
  return major == 1 || major == 2 ? Sniff::kYes : Sniff::kMaybe;
}

Profile read(Input& input, const ReadOptions& options, Diagnostics& diagnostics) {
  if (const char* r = std::getenv("FG_JFR_REFERENCE"); r && std::string_view(r) == "1")
    return read_reference(input, options, diagnostics);
  return detail::read_fast(input, options, diagnostics);
}

}  // namespace fg::formats::jfr
