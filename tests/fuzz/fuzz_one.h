// One fuzzing step shared by the libFuzzer target and the deterministic
// mutation test: read arbitrary bytes as every readable format and write
// what was read in every format. `in_place`: the bytes are read as a plain
// file is, whole and in place (Input::map_whole), instead of streamed. Bad data may throw fg::Error (the
// tools report it and exit 1); anything else (a crash, another exception, a hang) is a bug.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "fg/diagnostics.h"
#include "fg/error.h"
#include "formats/input.h"
#include "formats/registry.h"

namespace fg::fuzz {

/// Reads `bytes` with `reader` and `options` (whole and in place, or
/// streamed), then writes the profile with each of `writers`; true when
/// the read gave a profile. fg::Error from either is bad data; any other
/// exception goes to the caller.
inline bool read_then_write(const formats::Format& reader, const std::string& bytes,
                            const formats::ReadOptions& options, bool in_place,
                            const std::vector<const formats::Format*>& writers) {
  try {
    Diagnostics diagnostics;
    auto in = formats::Input::from_bytes("fuzz", bytes, 1 << 24, in_place);
    Profile p = reader.read(*in, options, diagnostics);
    for (const formats::Format* writer : writers) {
      try {
        std::ostringstream out;
        writer->write(p, formats::WriteOptions{}, out, diagnostics);
      } catch (const Error&) {
        // nothing to draw, and the like
      }
    }
    return true;
  } catch (const Error&) {
    return false;  // bad data, reported as such
  }
}

inline void fuzz_one(const std::string& bytes, bool in_place = false) {
  static const std::vector<const formats::Format*> writers = [] {
    std::vector<const formats::Format*> w;
    for (const formats::Format& f : formats::all_formats())
      if (f.write) w.push_back(&f);
    return w;
  }();
  for (const formats::Format& reader : formats::all_formats())
    if (reader.read) read_then_write(reader, bytes, formats::ReadOptions{}, in_place, writers);
}

}  // namespace fg::fuzz
