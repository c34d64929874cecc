// Helpers shared by the unit tests: profiles from inline text.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "fg/diagnostics.h"
#include "fg/dump.h"
#include "fg/profile.h"
#include "formats/collapsed/collapsed.h"
#include "formats/input.h"
#include "formats/registry.h"

namespace fg::test {

/// Reads `bytes` named `name` with the reader of `format`; warnings are
/// collected into `warnings`.
inline Profile read_as(std::string_view format, const std::string& bytes,
                       std::vector<std::string>* warnings, bool strict, const std::string& name) {
  Diagnostics d(strict, [warnings](const std::string& m) {
    if (warnings) warnings->push_back(m);
  }, 100);
  auto in = formats::Input::from_bytes(name, bytes);
  return formats::find_format(format)->read(*in, formats::ReadOptions{}, d);
}

/// Reads inline collapsed text; warnings are collected into `warnings`.
inline Profile folded(const std::string& text, std::vector<std::string>* warnings = nullptr,
                      bool strict = false, const std::string& name = "t.folded") {
  return read_as("collapsed", text, warnings, strict, name);
}

/// The samples section of the dump (one line per sample, sorted).
inline std::string dump_samples(const Profile& p) {
  std::ostringstream out;
  dump_profile(p, out);
  std::string s = out.str();
  return s.substr(s.find("samples: "));
}

/// Collapsed output of a profile.
inline std::string collapsed(const Profile& p, const formats::WriteOptions& o = {}) {
  std::ostringstream out;
  Diagnostics d;
  formats::collapsed::write(p, o, out, d);
  return out.str();
}

}  // namespace fg::test
