#include "fg/diff.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>

#include "fg/builder.h"
#include "fg/call_graph.h"
#include "fg/detail/u64_map.h"
#include "fg/error.h"
#include "fg/import.h"
#include "fg/string_pool.h"

namespace fg {

namespace {

// The samples of a diff: one per call path and label set, in the order
// they first appear, with the value of each side.
struct Rows {
  std::vector<std::pair<StackId, LabelSetId>> keys;
  std::vector<std::array<std::int64_t, 2>> values;
  U64Map index;  // stack << 32 | labels -> row
};

// v * factor (to more decimals), or an Error when it does not fit.
std::int64_t rescaled(std::int64_t v, std::int64_t factor) {
  std::int64_t out;
  if (__builtin_mul_overflow(v, factor, &out))
    throw Error("a value is too large to compare at this precision");
  return out;
}

// Each call path's value (per label set), summed over its samples, times
// `factor` (the diff's decimals over the column's); times are dropped.
void add_side(const Profile& from, std::size_t column, std::int64_t factor, std::size_t side,
              ProfileBuilder& to, Rows& rows) {
  ProfileImporter import(to, from);
  for (std::size_t i = 0; i < from.sample_count(); ++i) {
    const std::int64_t v = rescaled(from.values(i)[column], factor);
    if (v == 0) continue;
    const StackId s = import.stack(from.sample(i).stack);
    const LabelSetId l = import.labels(from.sample(i).labels);
    const auto next = static_cast<std::uint32_t>(rows.keys.size());
    const std::uint32_t row = rows.index.insert(std::uint64_t(s.index()) << 32 | l.index(), next);
    if (row == next) {
      rows.keys.emplace_back(s, l);
      rows.values.push_back({0, 0});
    }
    rows.values[row][side] += v;
  }
}

// a + b, or an Error when the sum does not fit.
std::int64_t sum(std::int64_t a, std::int64_t b) {
  std::int64_t out;
  if (__builtin_add_overflow(a, b, &out)) throw Error("a scaled value is too large to compare");
  return out;
}

// `q` truncated to an integer; an Error when it is out of range (a cast
// would be undefined).
std::int64_t truncated(double q) {
  if (!(q > -0x1p63 && q < 0x1p63)) throw Error("a scaled value is too large to compare");
  return static_cast<std::int64_t>(q);
}

// difffolded.pl -n: value * new total / base total, truncated, with the
// product taken in integers when it fits (as Perl does).
std::int64_t scaled(std::int64_t v, std::int64_t new_total, std::int64_t base_total) {
  std::int64_t product;
  const double q =
      __builtin_mul_overflow(v, new_total, &product)
          ? static_cast<double>(v) * static_cast<double>(new_total) / static_cast<double>(base_total)
          : static_cast<double>(product) / static_cast<double>(base_total);
  return truncated(q);
}

// Scales each row's base value with `f`, truncating per call path as
// difffolded.pl -n does: the rows of one path (its label sets) together
// get f of their sum, the rounding left over going to the path's first
// row. A profile with labels then draws as its folded form does.
template <typename F>
void scale_base_per_path(Rows& rows, F f) {
  std::vector<std::int64_t> raw, scaled_sum;  // per path
  std::vector<std::uint32_t> first, path_of(rows.keys.size());
  U64Map paths;
  for (std::size_t i = 0; i < rows.keys.size(); ++i) {
    const auto next = static_cast<std::uint32_t>(raw.size());
    path_of[i] = paths.insert(rows.keys[i].first.index(), next);
    if (path_of[i] == next)
      raw.push_back(0), scaled_sum.push_back(0), first.push_back(static_cast<std::uint32_t>(i));
    raw[path_of[i]] += rows.values[i][0];
  }
  for (std::size_t i = 0; i < rows.keys.size(); ++i) {
    rows.values[i][0] = f(rows.values[i][0]);
    scaled_sum[path_of[i]] = sum(scaled_sum[path_of[i]], rows.values[i][0]);
  }
  for (std::size_t k = 0; k < raw.size(); ++k)
    rows.values[first[k]][0] = sum(rows.values[first[k]][0], sum(f(raw[k]), -scaled_sum[k]));
}

}  // namespace

Diff diff_profiles(const Profile& base_in, const Profile& next_in, const DiffOptions& o) {
  const ValueType& bt = base_in.value_types().at(o.base_column);
  const ValueType& nt = next_in.value_types().at(o.new_column);
  if (bt.unit != nt.unit)
    throw UsageError("cannot compare " + bt.type + " in " + bt.unit + " with " + nt.type + " in " + nt.unit +
                     "; choose comparable columns with --value");
  std::optional<Profile> base_coarse, next_coarse;
  if (finer_than(base_in, o.granularity)) base_coarse = at_granularity(base_in, o.granularity);
  if (finer_than(next_in, o.granularity)) next_coarse = at_granularity(next_in, o.granularity);
  const Profile& base = base_coarse ? *base_coarse : base_in;
  const Profile& next = next_coarse ? *next_coarse : next_in;

  // Fractional counts on either side: both columns get the larger number
  // of decimals, so that no side is rounded.
  const int decimals = std::max(bt.decimals, nt.decimals);
  const std::int64_t base_factor = decimal_factor(decimals - bt.decimals);
  const std::int64_t new_factor = decimal_factor(decimals - nt.decimals);
  ProfileBuilder b(
      {{nt.type, nt.unit, ValueRole::kBase, decimals}, {nt.type, nt.unit, ValueRole::kNew, decimals}});
  Metadata& m = b.metadata();
  m = next.metadata();
  m.sources = base.metadata().sources;
  m.sources.insert(m.sources.end(), next.metadata().sources.begin(), next.metadata().sources.end());
  if (base.metadata().source_format != next.metadata().source_format) m.source_format = "mixed";
  const Metadata& bm = base.metadata();  // the two recordings together, as pprof merges them
  m.duration_ns += bm.duration_ns;
  if (bm.start_time_ns != 0 && (m.start_time_ns == 0 || bm.start_time_ns < m.start_time_ns))
    m.start_time_ns = bm.start_time_ns;
  m.default_value.clear();

  Rows rows;
  add_side(base, o.base_column, base_factor, 0, b, rows);
  add_side(next, o.new_column, new_factor, 1, b, rows);
  std::vector<std::array<std::int64_t, 2>>& values = rows.values;

  const std::int64_t base_total_raw = rescaled(base.totals()[o.base_column], base_factor);
  const std::int64_t new_total = rescaled(next.totals()[o.new_column], new_factor);
  double scale = 1;
  std::string words;
  char buf[96];
  switch (o.normalization) {
    case Normalization::kScaleBase:
      if (base_total_raw != 0 && base_total_raw != new_total) {
        scale = static_cast<double>(new_total) / static_cast<double>(base_total_raw);
        scale_base_per_path(rows, [&](std::int64_t v) { return scaled(v, new_total, base_total_raw); });
      }
      std::snprintf(buf, sizeof buf, "base scaled to the new total (x%.4g)", scale);
      words = buf;
      break;
    case Normalization::kAbsolute:
      words = "absolute values";
      break;
    case Normalization::kRate:
      if (!(o.rate > 0) || !std::isfinite(o.rate))
        throw UsageError("--normalize-by: expected a positive factor");
      scale = o.rate;
      scale_base_per_path(rows, [&](std::int64_t v) { return truncated(static_cast<double>(v) * o.rate); });
      std::snprintf(buf, sizeof buf, "base multiplied by %.6g", o.rate);
      words = buf;
      break;
  }
  std::int64_t base_total = 0;
  for (std::size_t i = 0; i < rows.keys.size(); ++i) {
    base_total = sum(base_total, values[i][0]);
    b.add_sample(rows.keys[i].first, values[i], rows.keys[i].second);
  }
  return Diff{std::move(b).finish(), base_total_raw, base_total, new_total, scale, words};
}

Profile delta_profile(const Profile& diff) {
  std::size_t base = 0, next = 1;
  for (std::size_t c = 0; c < diff.value_count(); ++c) {
    if (diff.value_types()[c].role == ValueRole::kBase) base = c;
    if (diff.value_types()[c].role == ValueRole::kNew) next = c;
  }
  const ValueType& t = diff.value_types()[next];
  ProfileBuilder b({{t.type, t.unit, ValueRole::kPlain, t.decimals}});
  b.metadata() = diff.metadata();
  ProfileImporter import(b, diff);
  Label mark;
  mark.key = b.intern(kDiffBaseLabel);
  mark.str = b.intern("true");
  std::vector<LabelSetId> marked(diff.label_set_count(),
                                 kNoId<LabelSetId>);  // each label set with the mark added
  for (std::size_t i = 0; i < diff.sample_count(); ++i) {
    const Sample& s = diff.sample(i);
    const StackId stack = import.stack(s.stack);
    const LabelSetId labels = import.labels(s.labels);
    const std::int64_t n = diff.values(i)[next], o = diff.values(i)[base];
    if (n != 0) b.add_sample(stack, std::vector<std::int64_t>{n}, labels);
    if (o == 0) continue;
    if (marked[s.labels.index()] == kNoId<LabelSetId>) {
      std::vector<Label> with_mark = b.label_set(labels);
      with_mark.push_back(mark);
      marked[s.labels.index()] = b.labels(std::move(with_mark));
    }
    b.add_sample(stack, std::vector<std::int64_t>{-o}, marked[s.labels.index()]);
  }
  return std::move(b).finish();
}

std::vector<FunctionDelta> function_deltas(const Diff& d) {
  CallGraphOptions o;
  o.edges = false;
  o.column = 0;
  const CallGraph base = build_call_graph(d.profile, o);
  o.column = 1;
  const CallGraph next = build_call_graph(d.profile, o);  // the same nodes: the same profile
  std::vector<FunctionDelta> out;
  for (std::size_t n = 0; n < next.nodes.size(); ++n) {
    const CallGraphNode &b = base.nodes[n], &x = next.nodes[n];
    if (b.flat == 0 && b.cum == 0 && x.flat == 0 && x.cum == 0) continue;
    out.push_back({x.name, b.flat, x.flat, b.cum, x.cum});
  }
  return out;
}

double share(std::int64_t value, std::int64_t total) {
  return total == 0 ? 0 : 100.0 * static_cast<double>(value) / static_cast<double>(total);
}

}  // namespace fg
