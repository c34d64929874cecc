#include "formats/jemalloc/jemalloc.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "fg/builder.h"
#include "formats/jemalloc/resolver.h"

namespace fg::formats::jemalloc {

namespace {

constexpr std::size_t kColumns = 4;

std::vector<ValueType> value_types() {
  return {{"inuse_objects", "count", ValueRole::kPlain},
          {"inuse_space", "bytes", ValueRole::kPlain},
          {"alloc_objects", "count", ValueRole::kPlain},
          {"alloc_space", "bytes", ValueRole::kPlain}};
}

std::int64_t to_int(double v) {
  if (!(v < 9.2e18)) return INT64_MAX;  // also NaN: a count this large is nonsense anyway
  return std::llround(v);
}

// Splits `total` into parts proportional to `weights` that add up to it
// exactly: floors first, then one each to the largest fractions.
void apportion(std::int64_t total, const std::vector<double>& weights, std::vector<std::int64_t>& out) {
  const std::size_t n = weights.size();
  out.assign(n, 0);
  if (n == 0) return;
  double sum = 0;
  std::size_t heaviest = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(weights[i] >= 0) || !std::isfinite(weights[i])) sum = -1;  // damaged counts
    if (sum >= 0) sum += weights[i];
    if (weights[i] > weights[heaviest]) heaviest = i;
  }
  // Nothing to split by, or nothing sane to split: all to one part.
  if (total <= 0 || !(sum > 0) || !std::isfinite(sum)) {
    out[heaviest] = total;
    return;
  }
  std::vector<std::pair<double, std::size_t>> fractions(n);
  std::int64_t given = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double exact = static_cast<double>(total) * weights[i] / sum;
    out[i] = static_cast<std::int64_t>(std::floor(exact));
    given += out[i];
    fractions[i] = {exact - std::floor(exact), i};
  }
  // Exact arithmetic leaves less than one unit per part to give; floating
  // point can leave a little more or take a little too much. Beyond that
  // the inputs are absurd: give everything to the heaviest part.
  const std::int64_t rest = total - given;
  if (rest < -static_cast<std::int64_t>(n) || rest > static_cast<std::int64_t>(n)) {
    out.assign(n, 0);
    out[heaviest] = total;
    return;
  }
  std::stable_sort(fractions.begin(), fractions.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::int64_t k = 0; k < rest; ++k) ++out[fractions[static_cast<std::size_t>(k)].second];
  // Too much given: take it back from the smallest fractions, one pass.
  std::int64_t excess = -rest;
  for (std::size_t k = n; excess > 0 && k-- > 0;) {
    std::int64_t& part = out[fractions[k].second];
    if (part > 0) --part, --excess;
  }
  if (excess > 0) out[heaviest] -= excess;  // keeps the sum exact
}

class SampleWriter {
 public:
  SampleWriter(const HeapDump& dump, const ResolvedAddresses& resolved, bool keep_allocator,
               ProfileBuilder& builder)
      : dump_(dump), resolved_(resolved), keep_allocator_(keep_allocator), b_(builder), stacks_(builder) {}

  void add(const DumpStack& s) {
    StackId stack = stacks_.stack(frames_of(s));
    std::array<double, kColumns> total{};
    if (s.has_total) {
      total = unsample(s.total, dump_.period);
    } else {
      for (std::uint32_t t = 0; t < s.thread_count; ++t) {
        auto v = unsample(dump_.threads[s.first_thread + t].counts, dump_.period);
        for (std::size_t k = 0; k < kColumns; ++k) total[k] += v[k];
      }
    }
    // Rounded with the error carried over, so the sum of every value read
    // so far stays within 1/2 of the exact sum: per-sample rounding would
    // drift, since unsampled small objects often end in .5.
    std::array<std::int64_t, kColumns> rounded{};
    for (std::size_t k = 0; k < kColumns; ++k) {
      exact_[k] += total[k];
      rounded[k] = to_int(exact_[k]) - given_[k];
      given_[k] += rounded[k];
    }
    if (s.thread_count == 0) {
      b_.add_sample(stack, rounded);
      return;
    }
    split_by_thread(s, stack, rounded);
  }

 private:
  // Root first: the dump lists addresses leaf first, and each address's
  // frames come outermost first.
  const std::vector<FrameId>& frames_of(const DumpStack& s) {
    frames_.clear();
    const std::uint32_t* a = dump_.stack_addresses.data() + s.first_address;
    std::uint32_t leaf = 0, count = s.address_count;
    if (!keep_allocator_) {
      while (leaf < count &&
             (resolved_.in_allocator_module(a[leaf]) || resolved_.is_allocation_function(a[leaf])))
        ++leaf;
    }
    for (std::uint32_t i = count; i-- > leaf;) {
      if (!keep_allocator_ && resolved_.in_allocator_module(a[i])) continue;
      auto f = resolved_.frames(a[i]);
      frames_.insert(frames_.end(), f.begin(), f.end());
    }
    return frames_;
  }

  void split_by_thread(const DumpStack& s, StackId stack, const std::array<std::int64_t, kColumns>& rounded) {
    std::vector<std::array<std::int64_t, kColumns>> parts(s.thread_count);
    for (std::size_t k = 0; k < kColumns; ++k) {
      weights_.clear();
      for (std::uint32_t t = 0; t < s.thread_count; ++t)
        weights_.push_back(unsample(dump_.threads[s.first_thread + t].counts, dump_.period)[k]);
      apportion(rounded[k], weights_, shares_);
      for (std::uint32_t t = 0; t < s.thread_count; ++t) parts[t][k] = shares_[t];
    }
    for (std::uint32_t t = 0; t < s.thread_count; ++t) {
      const std::array<std::int64_t, kColumns>& v = parts[t];
      if (std::all_of(v.begin(), v.end(), [](std::int64_t x) { return x == 0; })) continue;
      b_.add_sample(stack, v, thread_label(dump_.threads[s.first_thread + t].thread));
    }
  }

  LabelSetId thread_label(std::uint32_t thread) {
    auto [it, fresh] = labels_.try_emplace(thread);
    if (fresh) {
      const std::string name = "t" + std::to_string(thread);
      it->second = b_.labels(std::array{NamedLabel{"thread", name}});
    }
    return it->second;
  }

  const HeapDump& dump_;
  const ResolvedAddresses& resolved_;
  bool keep_allocator_;
  ProfileBuilder& b_;
  PrefixStacks stacks_;  // dumps list stacks that share their outer frames one after another
  std::vector<FrameId> frames_;
  std::vector<double> weights_;
  std::vector<std::int64_t> shares_;
  std::map<std::uint32_t, LabelSetId> labels_;
  std::array<double, kColumns> exact_{};        // unsampled values so far
  std::array<std::int64_t, kColumns> given_{};  // rounded values so far
};

}  // namespace

std::array<double, 4> unsample(const Counts& counts, std::int64_t period) {
  std::array<double, 4> v;
  for (std::size_t k = 0; k < 4; ++k) v[k] = static_cast<double>(counts.v[k]);
  if (period <= 0) return v;
  for (std::size_t k = 0; k < 4; k += 2) {
    if (v[k] == 0 || v[k + 1] == 0) continue;
    double ratio = v[k + 1] / v[k] / static_cast<double>(period);
    double scale = 1 / (1 - std::exp(-ratio));
    v[k] *= scale;
    v[k + 1] *= scale;
  }
  return v;
}

Sniff sniff(std::string_view head, std::string_view) {
  return head.starts_with("heap_v2/") ? Sniff::kYes : Sniff::kNo;
}

Profile read(Input& input, const ReadOptions& options, Diagnostics& diagnostics) {
  // A dump copied from another machine with its binaries beside it: the
  // dump's own directory is searched after --symbol-path.
  SymbolizeOptions symbolize = options.symbolize;
  if (input.name() != "<stdin>") {
    std::string_view name = input.name();
    std::size_t slash = name.find_last_of('/');
    symbolize.symbol_paths.emplace_back(slash == std::string_view::npos ? "." : name.substr(0, slash + 1));
  }
  auto symbolizer = std::make_unique<Symbolizer>(symbolize);
  // The modules the first stacks point into are opened on another thread
  // while the rest is parsed: a large program's debug information takes
  // about as long to inflate as a large dump takes to parse.
  constexpr std::size_t kPreviewStacks = 1024;
  HeapDump dump = parse_heap_dump(input, diagnostics, [&](std::string_view whole) {
    symbolizer->prefetch(prefetch_work(preview_dump(whole, kPreviewStacks), symbolize));
  });
  ProfileBuilder builder(value_types());
  Metadata& meta = builder.metadata();
  meta.source_format = "jemalloc";
  meta.sources.push_back(input.name());
  meta.period_type = {"space", "bytes", ValueRole::kPlain};
  meta.period = dump.period;
  meta.default_value = "inuse_space";
  ResolvedAddresses resolved(dump, symbolize, *symbolizer, builder, diagnostics);
  symbolizer.reset();  // its modules' debug information is large, and no longer needed
  SampleWriter writer(dump, resolved, options.symbolize.keep_allocator_frames, builder);
  for (const DumpStack& s : dump.stacks) writer.add(s);
  return std::move(builder).finish();
}

}  // namespace fg::formats::jemalloc
