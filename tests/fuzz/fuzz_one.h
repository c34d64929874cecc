// One fuzzing step shared by the libFuzzer target and the deterministic
// mutation test: read arbitrary bytes as every readable format and write
// what was read in every format. `in_place`: the bytes are read as a plain
// file is, whole and in place (Input::map_whole), instead of streamed. Bad data may throw fg::Error (the tools
// report it and exit 1); anything else (a crash, another exception, a hang)
// is a bug.
#pragma once

#include <sstream>
#include <string>

#include "fg/diagnostics.h"
#include "fg/error.h"
#include "formats/input.h"
#include "formats/registry.h"

namespace fg::fuzz {

inline void fuzz_one(const std::string& bytes, bool in_place = false) {
  for (const formats::Format& reader : formats::all_formats()) {
    if (!reader.read) continue;
    try {
      Diagnostics diagnostics;
      auto in = formats::Input::from_bytes("fuzz", bytes, 1 << 24, in_place);
      Profile p = reader.read(*in, formats::ReadOptions{}, diagnostics);
      for (const formats::Format& writer : formats::all_formats()) {
        if (!writer.write) continue;
        try {
          std::ostringstream out;
          writer.write(p, formats::WriteOptions{}, out, diagnostics);
        } catch (const Error&) {
          // nothing to draw, and the like
        }
      }
    } catch (const Error&) {
      // bad data, reported as such
    }
  }
}

}  // namespace fg::fuzz
