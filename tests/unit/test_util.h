// Helpers shared by the unit tests: profiles from inline text.
#pragma once

#include <cstdint>
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

/// Numbers for tests' random shapes: a 64-bit linear congruential
/// generator, the same sequence on every platform and library.
class Lcg {
 public:
  explicit Lcg(std::uint64_t seed) : state_(seed) {}
  std::size_t operator()() {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::size_t>(state_ >> 33);
  }

 private:
  std::uint64_t state_;
};

/// Reads `bytes` named `name` with the reader of `format`; warnings are
/// collected into `warnings`.
inline Profile read_as(std::string_view format, const std::string& bytes, std::vector<std::string>* warnings,
                       bool strict, const std::string& name) {
  Diagnostics d(
      strict,
      [warnings](const std::string& m) {
        if (warnings) warnings->push_back(m);
      },
      100);
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

/// The head of a jeprof --dot graph in MB (total 10.0), up to its Legend.
inline const std::string kJeprofDotHead =
    "digraph \"app; 10.0 MB\" {\n"
    "node [width=0.375,height=0.25];\n"
    "Legend [shape=box,fontsize=24,shape=plaintext,label=\"app\\lTotal MB: 10.0\\lFocusing on: 10.0\\l"
    "Dropped nodes with <= 0.0 abs(MB)\\lDropped edges with <= 0.0 MB\\l\"];\n";

/// A jeprof DOT diamond: main -> ns::A::run -> c (inline), main -> b -> c,
/// so c's flat must split over its two callers; `extra` lines (more edges)
/// go before the closing brace.
inline std::string jeprof_diamond_dot(const std::string& extra = "") {
  return kJeprofDotHead +
         "N1 [label=\"main\\n0.0 (0.0%)\\rof 10.0 (100.0%)\\r\",shape=box,fontsize=8.0];\n"
         "N2 [label=\"ns\\nA\\nrun\\n2.0 (20.0%)\\rof 6.0 (60.0%)\\r\",shape=box,fontsize=8.0];\n"
         "N3 [label=\"b\\n0.0 (0.0%)\\rof 4.0 (40.0%)\\r\",shape=box,fontsize=8.0];\n"
         "N4 [label=\"c\\n(inline)\\n8.0 (80.0%)\\r\",shape=box,fontsize=8.0];\n"
         "N1 -> N2 [label=6.0, weight=100000, style=\"setlinewidth(2.000000)\"];\n"
         "N1 -> N3 [label=4.0, weight=100000, style=\"setlinewidth(2.000000)\"];\n"
         "N2 -> N4 [label=4.0, weight=100000, style=\"setlinewidth(2.000000),dashed\"];\n"
         "N3 -> N4 [label=4.0, weight=100000, style=\"setlinewidth(2.000000),dashed\"];\n" +
         extra + "}\n";
}

}  // namespace fg::test
