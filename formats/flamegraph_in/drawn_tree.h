// A flame graph as drawn: frames with their widths (totals), each nested in
// the frame below it, rebuilt into a profile. Every reader of drawn flame
// graphs (async-profiler pages, flamegraph.pl and inferno SVGs, fg's own
// pages) gives its frames here, parents before children; a frame's self is
// its width less its children's, so a frame pruned from the drawing stays
// in its parent's self and every drawn total is kept.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "fg/builder.h"
#include "fg/profile.h"
#include "formats/options.h"
#include "page_text.h"

namespace fg::formats::flamegraph_in {

/// The frames of one drawing, rebuilt into a ProfileBuilder's stacks.
class DrawnTree {
 public:
  /// The drawn root (async-profiler's and flamegraph.pl's "all"), which is
  /// not a frame of the profile: its children are the stacks' roots.
  static constexpr std::uint32_t kRoot = 0;
  /// A diff page's frame with no counterpart in the base (base self 0).
  static constexpr std::int64_t kNewFrame = std::numeric_limits<std::int64_t>::min();

  /// `root_total` is the root's width; `with_base`: each frame also carries
  /// the difference of its self from the base's (add()'s self_diff; the
  /// root's is `root_self_diff`).
  DrawnTree(ProfileBuilder& builder, std::int64_t root_total, bool with_base = false,
            std::int64_t root_self_diff = 0, std::size_t root_at = 0);

  /// Adds `frame`, `total` wide, under node `parent` (an id add() returned,
  /// or kRoot) and returns its id. Returns std::nullopt, adding nothing,
  /// when `total` is negative or more than what the parent's earlier
  /// children left of its width: the caller reports that at its position.
  /// `self_diff` (with_base only): current self less base self, or kNewFrame.
  /// `at`: the frame's offset in the page, for messages.
  std::optional<std::uint32_t> add(std::uint32_t parent, FrameId frame, std::int64_t total,
                                   std::int64_t self_diff = 0, std::size_t at = 0);

  /// Expects about `n` frames (a hint from the input's size).
  void reserve(std::size_t n) { nodes_.reserve(n); }
  /// What the children of `node` leave of its width so far.
  std::int64_t left_of(std::uint32_t node) const { return nodes_[node].left; }
  std::size_t size() const { return nodes_.size(); }

  /// Adds each node's self (width less its children's) as a sample of its
  /// stack, the root's on the empty stack; a frame drawn with no width
  /// stays as a zero sample. With a base: values are {base, new}; throws
  /// ParseError at the frame's offset in `page` when a base self would be
  /// negative.
  void finish(const PageText& page);

  /// After finish(): when frames may have been pruned from the drawing
  /// (the narrowest drawn frame is wider than the unit of the counts, the
  /// greatest common divisor of all drawn widths: a recording's counts
  /// are multiples of it, 1 or a sampling period, so no frame is narrower
  /// than it; otherwise narrower ones may have been left out) and
  /// some frame with drawn frames on it has self, notes (as note() does)
  /// how much of the profile may be pruned frames: the sum of the self of
  /// the root and of every frame with drawn children, an upper bound, since
  /// a pruned child and the frame's own self look the same; with the
  /// narrowest drawn frame's width, the threshold. Counts are fixed point
  /// with `decimals` digits (of the drawn, or with a base the new, column).
  void note_pruning(const ReadOptions& options, const std::string& file, int decimals) const;

 private:
  // 16 bytes a node: a large page draws millions of frames.
  struct Node {
    std::int64_t left;  // width not yet taken by children
    StackId stack;
    bool leaf;
  };
  struct BaseOf {  // with_base only, by node
    std::int64_t self_diff;
    std::size_t at;
  };
  ProfileBuilder& builder_;
  bool with_base_;
  std::vector<Node> nodes_;
  std::vector<BaseOf> base_;
  std::int64_t total_;                // the root's width
  std::int64_t unit_;                 // the greatest common divisor of the drawn widths
  std::int64_t narrowest_ = 0;        // the narrowest drawn frame with a width, 0 if none
  std::int64_t self_of_parents_ = 0;  // by finish(): self of the frames with drawn children
};

/// The value column of a drawing's counter name: async-profiler's units
/// and flamegraph.pl's --countname ("samples" -> samples/count, "bytes" ->
/// space/bytes, "ns" -> time/nanoseconds, another name -> name/count).
ValueType counter_value_type(std::string_view name);

/// Keeps `text` among the profile's comments and hands it to the user
/// (ReadOptions::note) as "file: text".
void note(const ReadOptions& options, ProfileBuilder& builder, const std::string& file,
          const std::string& text);

}  // namespace fg::formats::flamegraph_in
