#include "fg/profile.h"

#include <algorithm>
#include <charconv>
#include <string>
#include <vector>

#include "fg/error.h"
#include "fg/expansion.h"

namespace fg {

namespace {
struct KindInfo {
  FrameKind kind;
  std::string_view name;
  std::string_view suffix;
};
constexpr KindInfo kKinds[] = {
    {FrameKind::kNative, "native", ""},
    {FrameKind::kKernel, "kernel", "_[k]"},
    {FrameKind::kJit, "jit", "_[j]"},
    {FrameKind::kInlined, "inlined", "_[i]"},
    {FrameKind::kInterpreted, "interpreted", "_[0]"},
    {FrameKind::kC1Compiled, "c1", "_[1]"},
    {FrameKind::kCpp, "cpp", ""},
    {FrameKind::kWaker, "waker", "_[w]"},
    {FrameKind::kLibrary, "library", ""},
    {FrameKind::kUnsymbolized, "unsymbolized", ""},
};
}  // namespace

std::int64_t decimal_factor(int decimals) {
  if (decimals < 0 || decimals > 18) throw Error("decimals out of range: " + std::to_string(decimals));
  std::int64_t f = 1;
  for (int i = 0; i < decimals; ++i) f *= 10;
  return f;
}

std::string fixed_point_text(std::int64_t value, int decimals) {
  const std::int64_t factor = decimal_factor(decimals);
  // The magnitude as unsigned: -INT64_MIN does not fit an int64.
  const std::uint64_t m =
      value < 0 ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
  const auto f = static_cast<std::uint64_t>(factor);
  std::string out = value < 0 ? "-" : "";
  out += std::to_string(m / f);
  std::string fraction = std::to_string(m % f);
  if (m % f == 0) return out;
  fraction.insert(0, static_cast<std::size_t>(decimals) - fraction.size(), '0');
  while (fraction.back() == '0') fraction.pop_back();
  return out + "." + fraction;
}

std::string_view frame_kind_name(FrameKind kind) { return kKinds[static_cast<int>(kind)].name; }

std::string_view frame_kind_suffix(FrameKind kind) { return kKinds[static_cast<int>(kind)].suffix; }

std::optional<FrameKind> frame_kind_from_suffix(std::string_view suffix) {
  if (suffix.size() != 4 || suffix[0] != '_' || suffix[1] != '[' || suffix[3] != ']') return {};
  switch (suffix[2]) {
    case 'k':
      return FrameKind::kKernel;
    case 'j':
      return FrameKind::kJit;
    case 'i':
      return FrameKind::kInlined;
    case 'w':
      return FrameKind::kWaker;
    case '0':
      return FrameKind::kInterpreted;
    case '1':
      return FrameKind::kC1Compiled;
    default:
      return {};
  }
}

std::uint64_t expanded_frames(const Profile& p) {
  const std::vector<std::uint32_t> depth = stack_depths(p);
  std::vector<bool> counted(p.stack_count(), false);
  std::uint64_t frames = 0;
  for (std::size_t i = 0; i < p.sample_count(); ++i) {
    const StackId s = p.sample(i).stack;
    if (!counted[s.index()]) frames += depth[s.index()], counted[s.index()] = true;
  }
  return frames;
}

void check_expansion(const Profile& p, std::string_view format) {
  check_expansion(p, std::string(format) + " output",
                  "a flame graph, json or --max-depth N draws the tree instead");
}

std::size_t Profile::depth(StackId id) const {
  std::size_t d = 0;
  for (; id != kRootStack; id = parent(id)) ++d;
  return d;
}

void Profile::stack_frames(StackId id, std::vector<FrameId>& out) const {
  out.clear();
  for (; id != kRootStack; id = parent(id)) out.push_back(stack_frames_[id.index()]);
  std::reverse(out.begin(), out.end());
}

void Profile::add_stack(FrameId frame, StackId parent) {
  parents_.push(parent);
  stack_frames_.push_back(frame);
}

void Profile::add_chain(std::span<const FrameId> frames) {
  parents_.push_chain(frames.size());
  stack_frames_.insert(stack_frames_.end(), frames.begin(), frames.end());
}

void Profile::reserve_stacks(std::size_t n) {
  stack_frames_.reserve(n);
  parents_.reserve(n);
}

std::vector<std::int64_t> Profile::totals() const {
  std::vector<std::int64_t> sums(value_types_.size(), 0);
  for (std::size_t i = 0; i < values_.size(); ++i) sums[i % sums.size()] += values_[i];
  return sums;
}

std::size_t Profile::default_value_index() const {
  if (!metadata_.default_value.empty()) {
    for (std::size_t i = 0; i < value_types_.size(); ++i)
      if (value_types_[i].type == metadata_.default_value) return i;
  }
  return value_types_.empty() ? 0 : value_types_.size() - 1;
}

std::size_t Profile::find_value(std::string_view arg) const {
  std::size_t index = 0;
  auto [ptr, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), index);
  if (ec == std::errc() && ptr == arg.data() + arg.size() && index < value_types_.size()) return index;
  for (std::size_t i = 0; i < value_types_.size(); ++i) {
    const ValueType& v = value_types_[i];
    if (arg == v.type || arg == v.type + "/" + v.unit) return i;
  }
  std::string names;
  for (std::size_t i = 0; i < value_types_.size(); ++i) {
    if (i) names += ", ";
    names += std::to_string(i) + ": " + value_types_[i].type + "/" + value_types_[i].unit;
  }
  throw UsageError("--value '" + std::string(arg) + "' names no value column; the profile has " + names);
}

std::optional<std::size_t> Profile::base_of(std::size_t column) const {
  if (value_types_[column].role != ValueRole::kNew) return {};
  for (std::size_t i = 0; i < value_types_.size(); ++i)
    if (value_types_[i].role == ValueRole::kBase && value_types_[i].type == value_types_[column].type)
      return i;
  return {};
}

}  // namespace fg
