// The meaning of DeepFlow's name prefixes, shared by the reader and the
// writer: `[k] ` kernel, `[l] ` dynamic library (frame kinds), `[t] `
// thread and `[p] ` process (pseudo-frames DeepFlow draws as frames), the
// unresolved forms the agent writes when it has no symbol, and fg's own
// collapsed-style suffixes for the kinds DeepFlow has no prefix for.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "fg/profile.h"

namespace fg::formats::deepflow {

enum class NodeRole : std::uint8_t { kCode, kThread, kProcess };

struct NodeName {
  /// The function name: without a `[k] `/`[l] ` prefix; `[t] `/`[p] ` nodes
  /// and unresolved forms keep the text as written.
  std::string_view name;
  /// `[t] `/`[p] `: the thread or process name after the prefix.
  std::string_view bare;
  FrameKind kind = FrameKind::kNative;
  NodeRole role = NodeRole::kCode;
  /// `[/tmp/perf-29887.map]`, `[/usr/lib/x.so]`, `[unknown] 0x...`,
  /// `[unknown start_thread?]`: no symbol was found.
  bool unresolved = false;
  /// For the `[/path]` forms: the path (the module the address was in).
  std::string_view module;
};

/// Splits a profile_location_str into what the model keeps.
NodeName parse_node_name(std::string_view text);

/// The prefix a frame of `kind` is written with: "[k] ", "[l] " or "".
std::string_view prefix_of(FrameKind kind);

/// Appends a frame's profile_location_str: the kind's prefix and the name,
/// or for kinds DeepFlow has no prefix for (JIT, inlined, waker) the name
/// and the collapsed-stack suffix ("_[j]"), which parse_node_name() reads
/// back.
void append_written_name(std::string& out, std::string_view name, FrameKind kind);

}  // namespace fg::formats::deepflow
