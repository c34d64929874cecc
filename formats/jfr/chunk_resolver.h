// Turning one chunk's constant-pool references into the profile's stacks,
// frames and labels, named as async-profiler's converter names them
// (naming.h). Pool keys mean something only inside their chunk, so a
// resolver lives for one chunk and caches what it made by key: each stack
// trace, method frame, class name and thread becomes model ids once.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "fg/builder.h"
#include "fg/string_pool.h"
#include "formats/jfr/constant_pools.h"
#include "formats/jfr/naming.h"

namespace fg::formats::jfr {

/// Frame types by the names in the recording's jdk.types.FrameType pool
/// ("Interpreted", "JIT compiled", "Inlined", "Native", "C++", "Kernel",
/// "C1 compiled"), else by async-profiler's numbering of them (0-6).
FrameKind frame_kind(const std::string* type_name, std::uint64_t key);

class ChunkResolver {
 public:
  /// What stack() returns for a trace key the pools do not hold.
  static constexpr StackId kNoStack = U64Map::kMissing - 1;

  /// `builder`, `pools` and `naming` must outlive the resolver. With
  /// `threads`, each stack starts at a `[name tid=N]` frame.
  ChunkResolver(ProfileBuilder& builder, const Pools& pools, const NamingOptions& naming, bool threads);

  /// The stack of trace `trace` (root first, as the pool lists it leaf
  /// first), below the frame of `thread` with threads; kNoStack when the
  /// trace is 0 (none) or not in the pools.
  StackId stack(std::uint64_t trace, std::uint64_t thread);
  /// The frame of an allocated or locked class (Class pool key): dotted,
  /// kind kKernel (`_[k]`) when `outside_tlab`, else kInlined (`_[i]`);
  /// "null" for a key the pool does not hold.
  FrameId class_frame(std::uint64_t cls, bool outside_tlab);
  /// The labels of an event: thread (name), thread_id (pool key) and, when
  /// `with_state`, state (the ThreadState name).
  LabelSetId labels(std::uint64_t thread, bool with_state, std::uint64_t state);
  /// How many of the stack traces stack() resolved were marked truncated.
  std::uint64_t truncated_traces() const { return truncated_; }
  /// A thread's name: javaName, else osName; nullptr when it has neither.
  const std::string* thread_name(std::uint64_t thread) const;

 private:
  FrameId frame_of(const FrameRef& f);
  FrameId make_frame(const FrameRef& f);

  struct FrameKey {
    std::uint64_t method, type;
    std::int32_t line, bci;
    bool operator==(const FrameKey&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const FrameKey& k) const;
    std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& k) const;
  };

  ProfileBuilder& builder_;
  const Pools& pools_;
  const NamingOptions& naming_;
  bool threads_;
  bool kernel_known_;
  std::uint64_t truncated_ = 0;  // FrameType has Kernel: then Native means C code (async-profiler)
  // Frames by method * 8 + type: in a table for method keys up to the pool's
  // size (async-profiler numbers methods from 1), else in a map; with --lines/--bci or
  // an odd type, by FrameKey.
  std::vector<FrameId> dense_frames_;
  U64Map fast_frames_;
  std::unordered_map<FrameKey, FrameId, KeyHash> frames_;
  // Stacks by trace key, or by (thread, trace) with threads.
  U64Map fast_stacks_;
  std::unordered_map<std::pair<std::uint64_t, std::uint64_t>, StackId, KeyHash> stacks_;
  U64Map fast_labels_;  // by thread << 16 | state + 1
  std::unordered_map<std::pair<std::uint64_t, std::uint64_t>, LabelSetId, KeyHash> labels_;
  // Class frames by class << 1 | outside TLAB, or by the pair for huge keys.
  U64Map fast_class_frames_;
  std::unordered_map<std::pair<std::uint64_t, std::uint64_t>, FrameId, KeyHash> class_frames_;
};

}  // namespace fg::formats::jfr
