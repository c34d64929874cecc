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

#include <sstream>
#include <string>

#include "fg/diagnostics.h"
#include "fg/error.h"
#include "formats/input.h"
#include "formats/jfr/jfr.h"
#include "formats/registry.h"

namespace fg::fuzz {

/// The options the byte `b` picks: bits 0-2 the event kind, 3 --total,
/// 4 --threads, 5 labels, 6 --state or a time window, 7 --lines and --bci.
inline formats::ReadOptions jfr_options(unsigned char b) {
  using Events = formats::JfrOptions::Events;
  static constexpr Events kEvents[] = {Events::kDefault, Events::kCpu,  Events::kWall,      Events::kAlloc,
                                       Events::kLive,    Events::kLock, Events::kNativeMem, Events::kNativeMem};
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
  int read = 0;
  const formats::ReadOptions r = jfr_options(static_cast<unsigned char>(bytes.back()));
  const std::string recording = bytes.substr(0, bytes.size() - 1);
  for (bool in_place : {false, true}) {
    try {
      Diagnostics diagnostics;
      auto in = formats::Input::from_bytes("fuzz.jfr", recording, 1 << 24, in_place);
      Profile p = formats::jfr::read(*in, r, diagnostics);
      ++read;
      for (const char* name : {"collapsed", "svg"}) {
        try {
          std::ostringstream out;
          formats::find_format(name)->write(p, formats::WriteOptions{}, out, diagnostics);
        } catch (const Error&) {
        }
      }
    } catch (const Error&) {
    } catch (const UsageError&) {
    }
  }
  return read;
}

}  // namespace fg::fuzz
