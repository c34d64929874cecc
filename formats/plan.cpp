#include "formats/plan.h"

namespace fg::formats {

namespace {

// The filters that the JFR reader applies as it reads, as async-profiler's
// converter does (its --threads, --from/--to and --norm).
void hand_filters_to_readers(ReadOptions& read, const FilterOptions& filters) {
  read.jfr.threads = filters.threads == ThreadMode::kFrame;
  read.jfr.norm = filters.normalize_names;  // the converter's --norm, as the reader names classes
  read.jfr.time_from = filters.time_from;
  read.jfr.time_to = filters.time_to;
}

}  // namespace

ReadOptions plan(ReadOptions read, const PlanInputs& in) {
  const WriteOptions& write = *in.write;
  const FilterOptions& filters = *in.filters;
  hand_filters_to_readers(read, filters);
  if (in.compares) return read;
  // A flame chart draws records in input order, a stack that recurs again
  // where it recurs (filters keep the order: they keep timestamps).
  read.sequence = write.flame.flame_chart;
  if (!in.writer) return read;
  const WriterNeeds& needs = in.writer->needs;
  if (!filters.empty() || filters.relative) return read;
  if (needs.coarse_frames && write.granularity == Granularity::kFunction)
    read.frames = Granularity::kFunction;
  // A flame chart lays samples out in their order, which merging would change.
  if (!needs.labels && !write.flame.flame_chart) read.labels = false;
  return read;
}

FilterOptions remaining_filters(const Profile& profile, FilterOptions filters) {
  const Format* reader = find_format(profile.metadata().source_format);
  if (!reader || !reader->reader_applies_filters) return filters;
  // A recording's samples keep no timestamps: the window was applied as read.
  if (filters.threads == ThreadMode::kFrame) filters.threads = ThreadMode::kLabel;
  filters.time_from.clear();
  filters.time_to.clear();
  filters.normalize_names = false;  // --norm too, as async-profiler's converter does (class names only)
  return filters;
}

}  // namespace fg::formats
