#include "fg/merge.h"

#include <algorithm>

#include "fg/builder.h"
#include "fg/error.h"
#include "fg/import.h"

namespace fg {

Profile merge(std::span<const Profile> profiles) {
  if (profiles.empty()) throw Error("nothing to merge");
  auto is_diff = [](const Profile& p) {
    return std::any_of(p.value_types().begin(), p.value_types().end(),
                       [](const ValueType& v) { return v.role != ValueRole::kPlain; });
  };
  for (const Profile& p : profiles) {
    if (is_diff(p) != is_diff(profiles[0])) {
      const Profile& d = is_diff(p) ? p : profiles[0];
      const Profile& plain = is_diff(p) ? profiles[0] : p;
      auto name = [](const Profile& x) {
        return x.metadata().sources.empty() ? std::string("<input>") : x.metadata().sources[0];
      };
      throw Error("cannot merge the differential profile " + name(d) + " (base and new columns) with " +
                  name(plain) + "; compare profiles with fg-diff instead");
    }
  }
  // Columns of one quantity merge; a fixed-point column keeps the most
  // decimals among the inputs, and the others' values are scaled to it.
  std::vector<ValueType> columns;
  auto column_of = [&columns](const ValueType& v) {
    return static_cast<std::size_t>(std::find_if(columns.begin(), columns.end(),
                                                 [&v](const ValueType& c) { return c.same_quantity(v); }) -
                                    columns.begin());
  };
  for (const Profile& p : profiles)
    for (const ValueType& v : p.value_types()) {
      const std::size_t c = column_of(v);
      if (c == columns.size())
        columns.push_back(v);
      else
        columns[c].decimals = std::max(columns[c].decimals, v.decimals);
    }

  ProfileBuilder b(columns);
  Metadata& m = b.metadata();
  m = profiles[0].metadata();
  m.sources.clear();
  m.duration_ns = 0;
  std::vector<std::int64_t> values(columns.size());
  for (const Profile& p : profiles) {
    const Metadata& pm = p.metadata();
    if (pm.source_format != m.source_format) m.source_format = "mixed";
    m.sources.insert(m.sources.end(), pm.sources.begin(), pm.sources.end());
    if (pm.start_time_ns != 0 && (m.start_time_ns == 0 || pm.start_time_ns < m.start_time_ns))
      m.start_time_ns = pm.start_time_ns;
    m.duration_ns += pm.duration_ns;
    if (&p != &profiles[0]) {
      m.comments.insert(m.comments.end(), pm.comments.begin(), pm.comments.end());
    }

    std::vector<std::size_t> where(p.value_count());
    std::vector<std::int64_t> factor(p.value_count());
    for (std::size_t c = 0; c < p.value_count(); ++c) {
      where[c] = column_of(p.value_types()[c]);
      factor[c] = decimal_factor(columns[where[c]].decimals - p.value_types()[c].decimals);
    }
    ProfileImporter import(b, p);
    for (std::size_t i = 0; i < p.sample_count(); ++i) {
      std::fill(values.begin(), values.end(), 0);
      auto v = p.values(i);
      for (std::size_t c = 0; c < v.size(); ++c)
        if (__builtin_mul_overflow(v[c], factor[c], &values[where[c]]))
          throw Error("values add up to more than 2^63 - 1 (9223372036854775807), which fg cannot total");
      const Sample& s = p.sample(i);
      b.add_sample(import.stack(s.stack), values, import.labels(s.labels), s.timestamp);
    }
  }
  return std::move(b).finish();
}

}  // namespace fg
