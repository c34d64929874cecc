// Formats fg recognises but does not read: text that would otherwise be
// taken for folded stacks (each of its lines a warning) or fail as damaged
// pprof. Detection refuses them by name, with what to run instead:
//
// - `perf script` output: event lines (`comm pid [cpu] time: event:`) each
//   followed by indented frames (`addr symbol (dso)`), perhaps after perf's
//   `# ========` header.
// - pprof's legacy profiles, as google/pprof's profile/legacy_profile.go
//   and legacy_java_profile.go parse them: the text heap (`heap profile:
//   N: N [N: N] @ heap_v2/...`, gperftools and Go's debug=1), growth,
//   contention (`--- contention`), thread (`--- threadz`), Go count
//   (`goroutine profile: total N`) and Java heap (`--- heapz 1 ---`)
//   profiles, Go's debug=1 mutex profile (`--- mutex:`), and the binary
//   CPU profile (header words 0, 3, 0 or 1, period, 0).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace fg::formats::unsupported {

/// A format recognised in an input's first bytes.
struct Refusal {
  std::string format;       ///< what it is: "perf script output"
  std::string_view advice;  ///< what to do instead, a sentence without a final stop
};

/// The format `head` (an input's first bytes, inflated) is in, when it is
/// one of those fg recognises but does not read; else empty.
std::optional<Refusal> recognise(std::string_view head);

}  // namespace fg::formats::unsupported
