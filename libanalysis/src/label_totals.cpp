#include "fg/label_totals.h"

#include <algorithm>
#include <cstdlib>
#include <unordered_map>

namespace fg {

std::vector<LabelTotal> totals_by_label(const Profile& p, std::string_view key, std::size_t column) {
  // Label sets are interned: the value of `key` in each set, found once.
  std::vector<std::string_view> value_of(p.label_set_count());
  std::vector<bool> has(p.label_set_count(), false);
  for (const LabelSetId set : id_range<LabelSetId>(p.label_set_count()))
    for (const Label& l : p.labels(set))
      if (!l.numeric && p.str(l.key) == key) {
        value_of[set.index()] = p.str(l.str);
        has[set.index()] = true;
        break;
      }
  std::unordered_map<std::string_view, std::size_t> index;
  std::vector<LabelTotal> out;
  for (std::size_t i = 0; i < p.sample_count(); ++i) {
    const LabelSetId set = p.sample(i).labels;
    const std::int64_t v = p.values(i)[column];
    if (!has[set.index()] || v == 0) continue;
    const auto [it, added] = index.emplace(value_of[set.index()], out.size());
    if (added) out.push_back({std::string(value_of[set.index()]), 0, 0});
    out[it->second].total += v;
    ++out[it->second].records;
  }
  std::sort(out.begin(), out.end(), [](const LabelTotal& a, const LabelTotal& b) {
    if (std::llabs(a.total) != std::llabs(b.total)) return std::llabs(a.total) > std::llabs(b.total);
    return a.value < b.value;
  });
  return out;
}

}  // namespace fg
