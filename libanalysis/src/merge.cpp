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
  std::vector<ValueType> columns;
  for (const Profile& p : profiles)
    for (const ValueType& v : p.value_types())
      if (std::find(columns.begin(), columns.end(), v) == columns.end()) columns.push_back(v);

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
    for (std::size_t c = 0; c < p.value_count(); ++c)
      where[c] = static_cast<std::size_t>(
          std::find(columns.begin(), columns.end(), p.value_types()[c]) - columns.begin());
    ProfileImporter import(b, p);
    for (std::size_t i = 0; i < p.sample_count(); ++i) {
      std::fill(values.begin(), values.end(), 0);
      auto v = p.values(i);
      for (std::size_t c = 0; c < v.size(); ++c) values[where[c]] = v[c];
      const Sample& s = p.sample(i);
      b.add_sample(import.stack(s.stack), values, import.labels(s.labels), s.timestamp);
    }
  }
  return std::move(b).finish();
}

}  // namespace fg
