#include "fg/whole_units.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "fg/builder.h"
#include "fg/import.h"

namespace fg {

namespace {

// floor(a / b) for b > 0.
std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  const std::int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

// Column `column` of every sample in whole units, summing to the exact
// total rounded half up (largest remainder).
std::vector<std::int64_t> apportion(const Profile& p, std::size_t column, std::int64_t factor,
                                    std::size_t* changed) {
  const std::size_t n = p.sample_count();
  std::vector<std::int64_t> whole(n);
  std::vector<std::int64_t> rest(n);
  __int128 total = 0, floors = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t v = p.values(i)[column];
    whole[i] = floor_div(v, factor);
    rest[i] = v - whole[i] * factor;
    if (rest[i] != 0 && changed) ++*changed;
    total += v;
    floors += whole[i];
  }
  // The rounded total: floor((total + factor / 2) / factor), in 128 bits.
  __int128 shifted = total + factor / 2;
  __int128 target = shifted / factor;
  if (shifted % factor != 0 && shifted < 0) --target;
  auto extra = static_cast<std::size_t>(target - floors);  // 0 <= extra <= n
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&rest](std::size_t a, std::size_t b) { return rest[a] > rest[b]; });
  for (std::size_t k = 0; k < extra && k < n; ++k) ++whole[order[k]];
  return whole;
}

}  // namespace

bool has_fractions(const Profile& profile) {
  return std::any_of(profile.value_types().begin(), profile.value_types().end(),
                     [](const ValueType& t) { return t.decimals > 0; });
}

Profile whole_units(const Profile& p, std::size_t* changed) {
  if (changed) *changed = 0;
  std::vector<ValueType> types = p.value_types();
  std::vector<std::vector<std::int64_t>> columns(types.size());
  for (std::size_t c = 0; c < types.size(); ++c) {
    if (types[c].decimals == 0) continue;
    columns[c] = apportion(p, c, decimal_factor(types[c].decimals), changed);
    types[c].decimals = 0;
  }
  ProfileBuilder b(types);
  b.metadata() = p.metadata();
  for (std::size_t c = 0; c < b.metadata().unfiltered_totals.size() && c < types.size(); ++c) {
    const std::int64_t f = decimal_factor(p.value_types()[c].decimals);
    std::int64_t& t = b.metadata().unfiltered_totals[c];
    t = floor_div(t, f) + (t - floor_div(t, f) * f >= (f + 1) / 2 ? 1 : 0);
  }
  ProfileImporter import(b, p);
  std::vector<std::int64_t> values(types.size());
  for (std::size_t i = 0; i < p.sample_count(); ++i) {
    const Sample& s = p.sample(i);
    for (std::size_t c = 0; c < types.size(); ++c)
      values[c] = columns[c].empty() ? p.values(i)[c] : columns[c][i];
    b.add_sample(import.stack(s.stack), values, import.labels(s.labels), s.timestamp);
  }
  return std::move(b).finish();
}

const Profile& in_whole_units(const Profile& profile, std::optional<Profile>& held, std::string_view format,
                              Diagnostics& diagnostics) {
  if (!has_fractions(profile)) return profile;
  std::size_t changed = 0;
  const Profile& p = held.emplace(whole_units(profile, &changed));
  std::string totals;
  const std::vector<std::int64_t> before = profile.totals(), after = p.totals();
  for (std::size_t c = 0; c < before.size(); ++c) {
    const int d = profile.value_types()[c].decimals;
    if (d == 0) continue;
    totals +=
        (totals.empty() ? "" : ", ") + fixed_point_text(before[c], d) + " -> " + std::to_string(after[c]);
  }
  diagnostics.warn("fractional counts", std::string(format) +
                                            " stores whole numbers: " + std::to_string(changed) +
                                            " fractional value(s) rounded so that totals keep their "
                                            "nearest whole number (" +
                                            totals + ")");
  return p;
}

}  // namespace fg
