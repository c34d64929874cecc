// The collapsed reader splits a large input (a mapped file, or a stream
// read a block at a time) into chunks read on several threads and merged
// in file order. Whatever the chunks, the profile (every id, so every
// output byte), the warnings and the first error are those of the
// one-thread read. FG_PARALLEL_MIN's knob makes these small inputs take
// the chunked path: one chunk per job, or chunks of a given size.
#include <doctest/doctest.h>

#include <atomic>
#include <new>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "fg/diagnostics.h"
#include "fg/dump.h"
#include "fg/error.h"
#include "fg/parallel.h"
#include "formats/collapsed/chunks.h"
#include "formats/collapsed/collapsed.h"
#include "formats/gzip.h"

using namespace fg;

namespace {

// The profile's tables in id order (the dump shows paths, not ids): each
// function's name, each frame's function and kind, each stack's parent and
// frame, each sample's stack, values and timestamp.
std::string tables(const Profile& p) {
  std::ostringstream out;
  for (const FunctionId f : id_range<FunctionId>(p.function_count()))
    out << p.str(p.function(f).name) << '\n';
  for (const FrameId f : id_range<FrameId>(p.frame_count()))
    out << p.frame(f).function.index() << ' ' << static_cast<int>(p.frame(f).kind) << '\n';
  for (const StackId s : id_range<StackId>(p.stack_count()))
    out << p.stack(s).parent.index() << ' ' << p.stack(s).frame.index() << '\n';
  for (std::size_t i = 0; i < p.sample_count(); ++i) {
    out << p.sample(i).stack.index() << ' ' << p.sample(i).timestamp;
    for (const std::int64_t v : p.values(i)) out << ' ' << v;
    out << '\n';
  }
  return out.str();
}

// What a read gives: the dump of the profile and its tables (or the
// error), and the warnings printed.
struct Outcome {
  std::string dump_or_error;
  std::vector<std::string> warnings;
  bool operator==(const Outcome&) const = default;
};

// doctest prints an Outcome that differs in full: its error or its dump's
// first line, then its warnings.
std::ostream& operator<<(std::ostream& out, const Outcome& o) {
  out << o.dump_or_error.substr(0, o.dump_or_error.find('\n')) << " [";
  for (const std::string& w : o.warnings) out << w << "; ";
  return out << ']';
}

// How the bytes reach the reader: a mapped file, a stream (standard input,
// a pipe), gzip (a stream of inflated bytes), or gzip cut short (a read
// error after some of them).
enum class Via { kMapped, kStream, kGzip, kGzipCut };

std::string bytes_via(Via via, const std::string& text) {
  if (via == Via::kMapped || via == Via::kStream) return text;
  std::string z = formats::gzip_compress(text);
  if (via == Via::kGzipCut) z.resize(z.size() * 3 / 4);
  return z;
}

Outcome read_at(unsigned jobs, const std::string& text, bool strict = false, bool sequence = false,
                Via via = Via::kMapped, std::size_t chunk_bytes = 0) {
  set_jobs(jobs);
  set_parallel_min(0);
  Outcome o;
  Diagnostics d(
      strict, [&](const std::string& m) { o.warnings.push_back(m); }, 100);
  auto in = formats::Input::from_bytes("t.folded", bytes_via(via, text), formats::kDefaultMaxInflated,
                                       /*mappable=*/via == Via::kMapped);
  formats::ReadOptions options;
  options.sequence = sequence;
  try {
    std::ostringstream out;
    const Profile p = formats::collapsed::read_in_chunks(*in, options, d, chunk_bytes);
    dump_profile(p, out);
    o.dump_or_error = out.str() + tables(p);
  } catch (const Error& e) {
    o.dump_or_error = std::string("error: ") + e.what();
  }
  set_jobs(jobs_from(std::nullopt, nullptr));
  set_parallel_min(std::nullopt);
  return o;
}

// Checks that every job count reads `text` as one job does; returns that.
Outcome same_at_any_jobs(const std::string& text, bool strict = false, bool sequence = false) {
  const Outcome one = read_at(1, text, strict, sequence);
  for (unsigned jobs : {2u, 3u, 4u, 7u}) {
    CAPTURE(jobs);
    CHECK(read_at(jobs, text, strict, sequence) == one);
  }
  return one;
}

}  // namespace

TEST_CASE("collapsed chunks: stacks made in several chunks keep the one-thread ids") {
  // Later chunks repeat frames and stacks of earlier ones and add their own,
  // some under old stacks, so the merge must follow first appearance.
  const Outcome o = same_at_any_jobs(
      "a;b;c 1\nx;y 2\na;b;d 3\nz 1\na;b;c 4\nx;q;r;s 5\nn;a;b 1\na;e_[k];f_[j] 2\nx;y;w 1\n"
      "e_[k];a 3\na;b;c;d;e 1\n;; 2\n 4\nlast;x 1\n");
  CHECK(o.dump_or_error.find("samples: ") != std::string::npos);
  CHECK(o.warnings.empty());
}

TEST_CASE("collapsed chunks: thousands of distinct frames in a chunk keep the one-thread ids") {
  // A chunk numbers its distinct frame texts by first appearance, the merge
  // interns each once: texts that repeat out of order, that are prefixes of
  // one another, that carry a kind's suffix before the bare name appears,
  // and more of them than the chunk's first table holds.
  std::string text;
  for (int i = 0; i < 3000; ++i) {
    text += "root;f" + std::to_string(i % 997) + ";g" + std::to_string(i * 7 % 1500);
    text += i % 3 == 0 ? "_[k]" : "";
    text += ";g" + std::to_string(i % 1500) + ";g" + std::to_string(i % 150) + " " +
            std::to_string(i % 5 + 1) + "\n";
  }
  const Outcome o = same_at_any_jobs(text);
  CHECK(o.warnings.empty());
  for (const std::size_t bytes : {std::size_t{64}, std::size_t{4096}, std::size_t{50000}}) {
    CAPTURE(bytes);
    CHECK(read_at(2, text, false, false, Via::kMapped, bytes) == o);
    CHECK(read_at(3, text, false, false, Via::kStream, bytes) == o);
  }
}

TEST_CASE("collapsed chunks: CRLF lines, blank lines, and no final newline") {
  same_at_any_jobs("a;b 1\r\nc;d 2\r\n\r\n\r\na;b 3\r\n  \r\nc;e 4\r\na;b 5");
  same_at_any_jobs("\n\n\n\n\n\n\n\na 1\n\n\n\n\n\n\n\nb 2\n\n\n\n\n\n\n");
}

TEST_CASE("collapsed chunks: a line longer than a chunk, and empty chunks") {
  // One long line holds the cuts of several chunks, which come out empty.
  const std::string long_frame(300, 'f');
  same_at_any_jobs("a 1\n" + long_frame + ";" + long_frame + " 7\nb;c 2\n");
  same_at_any_jobs(long_frame + " 7");
  same_at_any_jobs("");
  same_at_any_jobs("\n");
}

TEST_CASE("collapsed chunks: a bad line in a later chunk warns at its own line") {
  std::string text;
  for (int i = 0; i < 40; ++i) text += "a;b" + std::to_string(i % 3) + " 1\n";
  text += "no count here\n";
  for (int i = 0; i < 40; ++i) text += "a;c" + std::to_string(i % 5) + " 2\n";
  text += "a;b 1 2\n";  // one count too many: its stack has a frame "b 1"
  text += "x 12345678901234567890\n";
  const Outcome o = same_at_any_jobs(text);
  REQUIRE(o.warnings.size() == 2);
  CHECK(o.warnings[0] == "t.folded:41:14: expected a count at the end of the line");
  CHECK(o.warnings[1].rfind("t.folded:83:3: ", 0) == 0);
}

TEST_CASE("collapsed chunks: with --strict, the first bad line in file order is the error") {
  std::string text;
  for (int i = 0; i < 60; ++i) text += "a;b" + std::to_string(i % 7) + " 1\n";
  text += "bad one\n";
  for (int i = 0; i < 60; ++i) text += "a;c" + std::to_string(i % 7) + " 1\n";
  text += "bad two\n";
  const Outcome o = same_at_any_jobs(text, /*strict=*/true);
  CHECK(o.dump_or_error == "error: t.folded:61:8: expected a count at the end of the line");
}

TEST_CASE("collapsed chunks: fractional counts, two columns, sums past 64 bits, sequence") {
  std::string text;
  for (int i = 0; i < 30; ++i) text += "a;b" + std::to_string(i % 4) + " 1\n";
  same_at_any_jobs(text + "a;b 0.25\n" + text + "c 0.125\n" + text);
  same_at_any_jobs("a;b 1 2\n" + std::string("c 3 4\nd;e 5 6\n") + "f 7\n" + "a;b 1 1\n");
  const Outcome big = same_at_any_jobs(text + "a 9223372036854775000\n" + text + "b 9000\n" + text);
  CHECK(big.dump_or_error.rfind("error: t.folded:62: values add up", 0) == 0);
  same_at_any_jobs(text + "x;y 3\n" + text, /*strict=*/false, /*sequence=*/true);
}

TEST_CASE("collapsed chunks: chunk boundaries anywhere, in a mapped file, a stream and gzip") {
  // Every chunk size from one byte to past the end puts a boundary in each
  // awkward place: inside a CRLF, inside a line longer than the chunk,
  // before a last line without a newline, at a bad line, between equal
  // stacks that share a prefix.
  const std::string long_frame(40, 'f');
  const std::string texts[] = {
      "a;b 1\r\nc;d 2\r\n\r\na;b 3\r\n" + long_frame + ";" + long_frame + " 7\r\na;b;c 5",
      "a;b 1\nno count\na;b;c 2\na;b 1 2\nx;y 3\nz 12345678901234567890\nq 1\n",
      "a;b 1\na;b 2\n\n  \na;b;c 3\nb;a 4\n" + long_frame + " 9\n",
  };
  for (const std::string& text : texts) {
    CAPTURE(text);
    const Outcome one = read_at(1, text);
    for (const bool strict : {false, true}) {
      const Outcome strict_one = read_at(1, text, strict);
      for (const Via via : {Via::kMapped, Via::kStream, Via::kGzip}) {
        for (std::size_t bytes = 1; bytes <= text.size() + 1; ++bytes) {
          CAPTURE(static_cast<int>(via));
          CAPTURE(bytes);
          CHECK(read_at(2, text, strict, false, via, bytes) == strict_one);
          CHECK(read_at(3, text, strict, false, via, bytes) == strict_one);
        }
      }
    }
    CHECK(read_at(1, text, false, false, Via::kStream, 1) == one);
  }
}

TEST_CASE("collapsed chunks: standard input in chunks, sequence numbers and fractions") {
  std::string text;
  for (int i = 0; i < 50; ++i) text += "a;b" + std::to_string(i % 6) + ";c " + std::to_string(i + 1) + "\n";
  const Outcome seq = read_at(1, text, false, true);
  const Outcome frac = read_at(1, text + "d 0.5\n" + text);
  for (const std::size_t bytes : {1, 7, 64, 300}) {
    CAPTURE(bytes);
    CHECK(read_at(2, text, false, true, Via::kStream, bytes) == seq);
    CHECK(read_at(4, text + "d 0.5\n" + text, false, false, Via::kGzip, bytes) == frac);
  }
}

TEST_CASE("collapsed chunks: a stream cut short fails after the lines before the cut, at any chunk size") {
  std::string text = "no count\n";
  for (int i = 0; i < 3000; ++i)
    text += "a;b" + std::to_string(i * 7919 % 1000) + ";c " + std::to_string(i) + "\n";
  const Outcome one = read_at(1, text, false, false, Via::kGzipCut);
  CHECK(one.dump_or_error.rfind("error: t.folded: ", 0) == 0);
  CHECK(one.warnings == std::vector<std::string>{"t.folded:1:9: expected a count at the end of the line"});
  // The message names the inflater's offset, the same whatever the sizes
  // of the reads (the chunk's room, less the partial line carried over).
  for (const std::size_t bytes : {1, 7, 100, 4096, 20000}) {
    CAPTURE(bytes);
    CHECK(read_at(2, text, false, false, Via::kGzipCut, bytes) == one);
    CHECK(read_at(3, text, false, false, Via::kGzipCut, bytes) == one);
  }
}

TEST_CASE("collapsed chunks: a thread failing outside a chunk fails the read instead of hanging it") {
  // An allocation failing where a chunk thread cuts or sets up a chunk (the
  // hook throws there) reaches the caller; the merging thread, waiting for
  // that chunk, must not wait forever. The merging thread may read every
  // chunk itself before another thread takes one: the read is tried until
  // one does.
  std::string text;
  for (int i = 0; i < 20000; ++i)
    text += "a;b" + std::to_string(i % 97) + ";c " + std::to_string(i + 1) + "\n";
  set_jobs(3);
  set_parallel_min(0);
  for (const bool mapped : {true, false}) {
    CAPTURE(mapped);
    int failed_reads = 0;
    for (int attempt = 0; attempt < 1000 && failed_reads == 0; ++attempt) {
      Diagnostics d(
          false, [](const std::string&) {}, 100);
      auto in = formats::Input::from_bytes("t.folded", text, formats::kDefaultMaxInflated, mapped);
      std::atomic<int> calls{0};
      const auto fail = [&](std::size_t) {
        ++calls;
        throw std::bad_alloc();
      };
      bool threw = false;
      try {
        formats::collapsed::read_in_chunks(*in, formats::ReadOptions{}, d, 64, fail);
      } catch (const std::bad_alloc&) {
        threw = true;
      }
      CHECK(threw == (calls.load() > 0));
      failed_reads += threw;
    }
    CHECK(failed_reads == 1);
  }
  set_jobs(jobs_from(std::nullopt, nullptr));
  set_parallel_min(std::nullopt);
}

TEST_CASE("collapsed chunks: standard input past a chunk takes a thread at the default thresholds") {
  // The first chunk of a stream ends at its last whole line, short of the
  // bytes read: those bytes, not the chunk's, tell whether the input is
  // worth a thread (1 MiB). A stream of a few chunks has a chunk split by
  // another thread; the merging thread may take every chunk itself before
  // the other starts, so the read is tried until one does.
  std::string text;
  for (int i = 0; text.size() < (std::size_t{5} << 20); ++i)
    text += "main;work" + std::to_string(i % 5000) + ";leaf" + std::to_string(i % 37) + " 1\n";
  const Outcome one = read_at(1, text, false, false, Via::kStream);
  set_jobs(2);
  bool split_ahead = false;
  for (int attempt = 0; attempt < 20 && !split_ahead; ++attempt) {
    Diagnostics d(
        false, [](const std::string&) {}, 100);
    auto in = formats::Input::from_bytes("t.folded", text, formats::kDefaultMaxInflated, /*mappable=*/false);
    std::atomic<int> calls{0};
    const Profile p =
        formats::collapsed::read_in_chunks(*in, formats::ReadOptions{}, d, 0, [&](std::size_t) { ++calls; });
    std::ostringstream out;
    dump_profile(p, out);
    CHECK(out.str() + tables(p) == one.dump_or_error);
    split_ahead = calls.load() > 0;
  }
  CHECK(split_ahead);
  set_jobs(jobs_from(std::nullopt, nullptr));
}
