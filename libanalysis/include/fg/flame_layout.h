// Where each frame of a flame graph goes, in value units: the geometry that
// flame graph writers (SVG, HTML) scale to pixels. The layout follows
// flamegraph.pl exactly: siblings in frame_before() order, a frame's own (self)
// value to the left of its children, and frames narrower than the minimum
// dropped with everything above them.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "fg/call_tree.h"
#include "fg/profile.h"

namespace fg {

struct FlameLayoutOptions {
  std::size_t column = 0;  ///< value column that gives widths
  /// Drop frames whose width (in value units) is below this.
  double min_width = 0;
  /// Flame chart: samples in time order (by timestamp where samples have
  /// one, else in the order they were first read), only adjacent equal
  /// frames merged, instead of the merged, sorted tree. Samples without
  /// timestamps that share a stack and labels were merged by the builder;
  /// a reader asked for ReadOptions::sequence keeps them apart, so a
  /// stack that recurs later is drawn again there (as flamegraph.pl does).
  bool chart = false;
};

struct FlameRect {
  StackId node{};           ///< call path of the frame (0: the "all" root)
  std::uint32_t depth = 0;  ///< 0 for the root
  std::int64_t start = 0;   ///< value units from the left edge
  std::int64_t width = 0;
  /// For diff profiles (column has a base): new minus base of the samples
  /// that end in this frame, as flamegraph.pl colours a differential graph.
  std::int64_t self_delta = 0;
};

struct FlameLayout {
  std::vector<FlameRect> rects;    ///< parents before their children; [0] is the root
  std::int64_t total = 0;          ///< width of the root
  std::uint32_t max_depth = 0;     ///< deepest kept frame
  bool diff = false;               ///< the column has a base column
  std::int64_t max_abs_delta = 1;  ///< largest |new - base| of one sample, at least 1
};

/// Throws Error when a sample of `profile` has a negative value in
/// `column` or in its base (in a diff): a flame graph's frames are as wide
/// as their values, and no reading of negative values as widths is right.
/// A difference profile is drawn from its two sides (fg-diff, or pprof's
/// -diff_base form, which its reader splits into them). The layout
/// functions below call it; a writer that lays out frames itself (the HTML
/// page, in the browser) calls it before writing anything.
void require_non_negative(const Profile& profile, std::size_t column);

/// Lays out the flame graph of `tree` (tree mode) or of its profile's
/// samples (chart mode). Throws as require_non_negative().
FlameLayout layout_flame(const CallTree& tree, const FlameLayoutOptions& options);

/// The same layout without storing it: `measure_flame` returns everything
/// but the rects (a writer needs the depth for its header), then
/// `each_flame_rect` hands them to `emit` one at a time in the same order,
/// so a graph of millions of frames costs no memory for its rects (tree
/// mode; a flame chart is collected first, as it is sorted).
FlameLayout measure_flame(const CallTree& tree, const FlameLayoutOptions& options);
void each_flame_rect(const CallTree& tree, const FlameLayoutOptions& options,
                     const std::function<void(const FlameRect&)>& emit);

}  // namespace fg
