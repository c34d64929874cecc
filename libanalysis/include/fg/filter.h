// One filter language for every tool: the transforms users know from pprof
// (focus, ignore, hide, show, show_from, prune_from, tagfocus, tagignore)
// and async-profiler (include, exclude, skip), plus thread, time, depth and
// naming transforms. Each takes a profile and gives a new one.
//
// Regular expressions are RE2's, go tool pprof's dialect (fg/pattern.h),
// searched (not anchored) in a frame's function name, its source file and
// its module, as pprof matches them.
// The transforms apply in this order (each documented on its field):
//   --norm, time window, --thread, tag filters, --include/--exclude,
//   focus/ignore/hide/show (one pass, as pprof), --show-from, --prune-from,
//   --skip, --rename, --collapse-recursion, --threads, --max-depth,
//   --invert, --min-percent.
// Unless `relative`, the result remembers each column's total before
// filtering (Metadata::unfiltered_totals), so reports keep percentages of
// the whole profile, as pprof does.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "fg/diagnostics.h"
#include "fg/profile.h"
#include "fg/thread_mode.h"

namespace fg {

struct FilterOptions {
  bool normalize_names =
      false;               ///< --norm: names that change between builds made equal (fg/normalize_names.h)
  std::string focus;       ///< keep samples with a frame matching
  std::string ignore;      ///< drop samples with a frame matching
  std::string hide;        ///< remove matching frames, keep the samples
  std::string show;        ///< keep only matching frames
  std::string show_from;   ///< drop the frames above the rootmost match (and samples without one)
  std::string prune_from;  ///< drop the frames below the rootmost match
  std::string tag_focus;   ///< pprof -tagfocus: [key=]regex[,regex...] or a numeric range "1kb:4kb"
  std::string tag_ignore;  ///< pprof -tagignore, the same syntax
  std::vector<std::string> include;  ///< keep stacks whose folded text matches any (async-profiler)
  std::vector<std::string> exclude;  ///< drop stacks whose folded text matches any
  std::size_t skip = 0;              ///< drop this many root frames
  ThreadMode threads = ThreadMode::kLabel;
  std::string thread;  ///< keep samples whose thread label matches
  std::string time_from,
      time_to;  ///< "10s", "-30s" (from the end), "2026-11-21T15:52:00Z", or ns since the epoch
  bool collapse_recursion = false;  ///< fold direct recursion: f;f;f -> f
  std::vector<std::string>
      rename;  ///< "RE=REPLACEMENT" ($1 for groups, Pattern::replace_all), applied in order to function names
  std::size_t max_depth = 0;  ///< keep this many root frames; 0: all
  bool invert = false;        ///< stacks leaf first (callee-rooted view)
  double min_percent = 0;     ///< cut stacks at frames whose total is under this % of the whole
  bool relative = false;      ///< percentages of the filtered profile instead of the whole

  bool empty() const;
};

/// The label key that names a sample's thread.
inline constexpr const char* kThreadLabel = "thread";
/// The label key that numbers a sample's thread (a JFR recording's thread
/// key), beside kThreadLabel.
inline constexpr const char* kThreadIdLabel = "thread_id";

/// Applies every filter of `options` to `profile`, in the documented order.
/// Throws UsageError naming the option for a regular expression that does
/// not compile or a value that does not parse.
Profile apply_filters(const Profile& profile, const FilterOptions& options);
/// The same, and a warning (kind "filter matched nothing") for each
/// expression of --focus, --ignore, --hide, --show, --show-from,
/// --prune-from, --tagfocus, --tagignore, --include, --exclude and --thread
/// that matched no sample reaching it, as go tool pprof warns "focus
/// expression matched no samples": "in.folded: --focus expression matched
/// no samples: RE". With a strict `diagnostics`, the first is thrown.
Profile apply_filters(const Profile& profile, const FilterOptions& options, Diagnostics& diagnostics);

}  // namespace fg
