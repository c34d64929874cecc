// The fast JFR reader (jfr::read) held to the reference reader
// (jfr::read_reference) on synthetic recordings (jfr_writer.h), which hold
// the events no checked-in recording has (live objects, malloc and free,
// native locks): the same profile (its canonical dump), notes and warnings,
// or the same error, for every kind of event and option, at one job and at
// four with the threaded paths forced. tests/jfr_layers does the same for
// the checked-in recordings through fg-convert.
#include <doctest/doctest.h>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "fg/dump.h"
#include "fg/parallel.h"
#include "formats/jfr/jfr.h"
#include "formats/jfr/reference_reader.h"
#include "jfr_writer.h"

namespace {

using fg::formats::JfrOptions;
using Events = JfrOptions::Events;

// What one reading gave: the dump, or the error; the notes and warnings.
struct Outcome {
  std::string result;
  std::vector<std::string> notes, warnings;
  bool operator==(const Outcome&) const = default;
};

template <typename Read>
Outcome read_with(Read read, const std::string& bytes, const JfrOptions& o, bool labels) {
  Outcome out;
  fg::Diagnostics d(
      false, [&](const std::string& m) { out.warnings.push_back(m); }, 100);
  fg::formats::ReadOptions r;
  r.jfr = o;
  r.labels = labels;
  r.note = [&](const std::string& m) { out.notes.push_back(m); };
  try {
    auto in = fg::formats::Input::from_bytes("t.jfr", bytes);
    std::ostringstream s;
    fg::dump_profile(read(*in, r, d), s);
    out.result = s.str();
  } catch (const std::exception& e) {
    out.result = std::string("error: ") + e.what();
  }
  return out;
}

// Every option the JFR reader has, on top of each kind of event.
std::vector<JfrOptions> option_sets() {
  std::vector<JfrOptions> sets;
  for (Events e : {Events::kDefault, Events::kCpu, Events::kWall, Events::kAlloc, Events::kLive,
                   Events::kNativeMem, Events::kLock, Events::kNativeLock}) {
    for (int variant = 0; variant < 7; ++variant) {
      JfrOptions o;
      o.events = e;
      o.total = variant == 1;
      o.threads = variant == 2;
      o.lines = variant == 3;
      o.bci = variant == 3 || variant == 4;
      o.simple = o.dot = o.norm = variant == 4;
      o.leak = variant == 5;
      if (variant == 6) o.state = "runnable";
      sets.push_back(o);
    }
  }
  JfrOptions timed;
  timed.time_from = "1ms";
  sets.push_back(timed);
  return sets;
}

// Sets the job count and the testing minimum, and restores the defaults.
struct Jobs {
  Jobs(unsigned jobs, std::optional<std::uint64_t> min) {
    fg::set_jobs(jobs);
    fg::set_parallel_min(min);
  }
  ~Jobs() {
    fg::set_jobs(fg::jobs_from(std::nullopt, nullptr));
    fg::set_parallel_min(std::nullopt);
  }
};

}  // namespace

TEST_CASE("jfr layers: the fast reader reads synthetic recordings as the reference reader does") {
  using fg::test::jfr::SynthOptions;
  SynthOptions states;
  for (int i = 0; i < 40; ++i) states.more_samples.emplace_back(1 + i % 3, 1 + i % 2);
  states.more_states = {5, 6, 5, 7};
  SynthOptions tiers;
  tiers.binary_traces = 300;
  SynthOptions fixed_width;
  fixed_width.compressed = false;
  fixed_width.line_twin = true;
  const std::vector<std::string> recordings = {
      fg::test::jfr::synthetic_jfr(), fg::test::jfr::synthetic_jfr(states),
      fg::test::jfr::synthetic_jfr(tiers), fg::test::jfr::synthetic_jfr(fixed_width)};
  const auto fast = [](fg::formats::Input& in, const fg::formats::ReadOptions& r, fg::Diagnostics& d) {
    return fg::formats::jfr::read(in, r, d);
  };
  const auto reference = [](fg::formats::Input& in, const fg::formats::ReadOptions& r, fg::Diagnostics& d) {
    return fg::formats::jfr::read_reference(in, r, d);
  };
  std::size_t compared = 0;
  for (std::size_t i = 0; i < recordings.size(); ++i)
    for (const JfrOptions& o : option_sets())
      for (const bool labels : {true, false}) {
        CAPTURE(i);
        CAPTURE(static_cast<int>(o.events));
        CAPTURE(o.total);
        CAPTURE(o.threads);
        CAPTURE(o.lines);
        CAPTURE(o.leak);
        CAPTURE(o.state);
        CAPTURE(labels);
        const Outcome want = read_with(reference, recordings[i], o, labels);
        for (const unsigned jobs : {1u, 4u}) {
          CAPTURE(jobs);
          Jobs j(jobs, jobs == 1 ? std::nullopt : std::optional<std::uint64_t>(0));
          const Outcome got = read_with(fast, recordings[i], o, labels);
          CHECK(got.result == want.result);
          CHECK(got.notes == want.notes);
          CHECK(got.warnings == want.warnings);
          ++compared;
        }
      }
  CHECK(compared == 4 * 57 * 2 * 2);
}
