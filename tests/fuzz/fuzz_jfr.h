// A fuzzing step for the JFR reader's choices: the bytes but the last read
// as a recording, with the options that the last byte picks (event kind,
// --total, --threads, --state, --lines/--bci, --leak, a time window, labels
// kept or merged), streamed or in place, and written as collapsed stacks
// and SVG.
// fuzz_one() reads every format with the default options only. Bad data may
// throw fg::Error, and an option the recording cannot meet (a --state it
// has no name for) fg::UsageError; anything else (a crash, another
// exception, a hang) is a bug.
#pragma once

#include <string>
#include <vector>

#include "fg/error.h"
#include "formats/registry.h"
#include "fuzz/fuzz_one.h"

namespace fg::fuzz {

/// The options the byte `b` picks: bits 0-2 the event kind, 3 --total,
/// 4 --threads, 5 labels, 6 --state or a time window, 7 --lines and --bci.
inline formats::ReadOptions jfr_options(unsigned char b) {
  using Events = formats::JfrOptions::Events;
  static constexpr Events kEvents[] = {Events::kDefault,   Events::kCpu,      Events::kWall,
                                       Events::kAlloc,     Events::kLive,     Events::kLock,
                                       Events::kNativeMem, Events::kNativeMem};
  formats::ReadOptions r;
  formats::JfrOptions& o = r.jfr;
  o.events = kEvents[b & 7];
  o.leak = (b & 7) == 7;
  o.total = (b & 8) != 0;
  o.threads = (b & 16) != 0;
  r.labels = (b & 32) != 0;
  if ((b & 64) && (b & 1)) {
    o.state = "runnable,sleeping";
  } else if (b & 64) {
    o.time_from = "1";
    o.time_to = "-1";
  }
  o.lines = o.bci = (b & 128) != 0;
  o.simple = o.dot = o.norm = (b & 3) == 3;
  return r;
}

/// Reads `bytes` but the last, streamed and in place, with the options the
/// last byte picks; returns how many of the two reads gave a profile.
inline int fuzz_jfr(const std::string& bytes) {
  if (bytes.empty()) return 0;
  static const std::vector<const formats::Format*> writers = {formats::find_format("collapsed"),
                                                              formats::find_format("svg")};
  const formats::ReadOptions r = jfr_options(static_cast<unsigned char>(bytes.back()));
  const std::string recording = bytes.substr(0, bytes.size() - 1);
  int read = 0;
  for (bool in_place : {false, true}) {
    try {
      read += read_then_write(*formats::find_format("jfr"), recording, r, in_place, writers);
    } catch (const UsageError&) {
    }
  }
  return read;
}

}  // namespace fg::fuzz
