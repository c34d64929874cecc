// What becomes of a sample's thread: one enum for the filter --threads
// (fg/filter.h) and the DeepFlow reader's --thread-as (its `[t]` nodes).
#pragma once

namespace fg {

/// Where a sample's thread shows.
enum class ThreadMode {
  kLabel,  ///< a `thread` label on the sample (the filters' default)
  kFrame,  ///< the root frame of its samples (the DeepFlow reader's default: "[t] name" as written)
  kFold,   ///< nowhere: thread labels (kThreadLabel, kThreadIdLabel) removed, the threads merge
};

}  // namespace fg
