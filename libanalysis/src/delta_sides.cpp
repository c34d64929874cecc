#include "fg/delta_sides.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "fg/builder.h"
#include "fg/call_graph.h"
#include "fg/diff.h"
#include "fg/error.h"
#include "fg/import.h"

namespace fg {

bool has_negative_values(const Profile& profile) {
  for (std::size_t i = 0; i < profile.sample_count(); ++i) {
    const auto v = profile.values(i);
    if (std::any_of(v.begin(), v.end(), [](std::int64_t x) { return x < 0; })) return true;
  }
  return false;
}

Profile diff_from_deltas(const Profile& deltas, std::size_t* labelled) {
  const std::size_t n = deltas.value_count();
  std::vector<ValueType> types;
  for (const ValueType& t : deltas.value_types())
    types.push_back({t.type, t.unit, ValueRole::kNew, t.decimals});
  for (const ValueType& t : deltas.value_types())
    types.push_back({t.type, t.unit, ValueRole::kBase, t.decimals});
  ProfileBuilder b(std::move(types));
  b.metadata() = deltas.metadata();
  // By name, which finds the new side first (an empty name would pick the last column, a base).
  if (n > 0) b.metadata().default_value = deltas.value_types()[deltas.default_value_index()].type;
  ProfileImporter import(b, deltas);
  // Each label set without the base mark, and whether it had it.
  std::vector<std::optional<LabelSetId>> unmarked(deltas.label_set_count());
  std::vector<bool> marked(deltas.label_set_count());
  std::vector<std::int64_t> values(2 * n);
  std::size_t count = 0;
  for (std::size_t i = 0; i < deltas.sample_count(); ++i) {
    const Sample& s = deltas.sample(i);
    if (!unmarked[s.labels.index()]) {
      std::vector<Label> kept;
      for (const Label& l : deltas.labels(s.labels)) {
        if (deltas.str(l.key) == kDiffBaseLabel)
          marked[s.labels.index()] = true;
        else
          kept.push_back(import.label(l));
      }
      unmarked[s.labels.index()] = b.labels(std::move(kept));
    }
    if (marked[s.labels.index()]) ++count;
    const auto v = deltas.values(i);
    for (std::size_t c = 0; c < n; ++c) {
      values[c] = std::max<std::int64_t>(v[c], 0);
      values[n + c] = v[c] < 0 ? -v[c] : 0;  // builder bounds keep |v| inside 64 bits
    }
    b.add_sample(import.stack(s.stack), values, *unmarked[s.labels.index()], s.timestamp);
  }
  if (labelled) *labelled = count;
  return std::move(b).finish();
}

Profile delta_profile_of(const Profile& diff, std::size_t new_column) {
  const std::optional<std::size_t> base = diff.base_of(new_column);
  if (!base) throw Error("value column " + std::to_string(new_column) + " is not the new side of a diff");
  if (diff.value_count() == 2) return delta_profile(diff);
  // delta_profile() takes the only pair of a diff: give it that pair.
  ProfileBuilder b({diff.value_types()[*base], diff.value_types()[new_column]});
  b.metadata() = diff.metadata();
  ProfileImporter import(b, diff);
  for (std::size_t i = 0; i < diff.sample_count(); ++i) {
    const Sample& s = diff.sample(i);
    const std::int64_t pair[2] = {diff.values(i)[*base], diff.values(i)[new_column]};
    if (pair[0] == 0 && pair[1] == 0) continue;
    b.add_sample(import.stack(s.stack), pair, import.labels(s.labels), s.timestamp);
  }
  return delta_profile(std::move(b).finish());
}

}  // namespace fg
