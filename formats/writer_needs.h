// What a writer needs from reading, declared by its registry row, and what
// a tool makes. plan() (formats/plan.h) turns these, with the filters, into
// the ReadOptions of a run, so tools never set reading options from a
// writer's properties themselves.
#pragma once

namespace fg::formats {

/// What a writer shows of a profile, and so what reading must keep for it.
/// Each field is named in the registry row (designated initialisers); the
/// defaults describe a writer that shows everything.
struct WriterNeeds {
  /// Frames only at WriteOptions::granularity and no finer (the writer draws
  /// at_granularity() of the profile): a reader may drop finer frames while
  /// it reads (ReadOptions::frames).
  bool coarse_frames = false;
  /// The samples' labels (threads, thread states, pprof's labels); false
  /// lets a reader merge samples that differ only in them (ReadOptions::labels).
  bool labels = true;
  /// Per-function values and caller -> callee weights only (a call graph
  /// view), which a profile unfolded from a call graph keeps; other writers
  /// show its stacks, which are estimates (warn_if_stacks_estimated()).
  bool graph_view = false;
  /// Both sides of a comparison: the writer draws a Diff (Format::write_diff),
  /// not one profile, and only a tool that compares can choose it.
  bool both_sides = false;
};

/// What a tool makes, which decides the writers it offers and the one it
/// writes when neither --to nor the -o extension names one.
enum class Product {
  kConvert,   ///< any listed writer; by default the flame graph (fg-convert)
  kPipeline,  ///< any listed writer; by default folded stacks, for the next tool (fg-filter)
  kDiff,      ///< any listed writer, or one of both sides; by default the flame graph (fg-diff)
  kTopTable,  ///< the writers with a top table layout, chosen by layout name (fg-top --format)
};

}  // namespace fg::formats
