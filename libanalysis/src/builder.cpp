#include "fg/builder.h"

#include <algorithm>
#include <cmath>

#include "fg/bulk_builder.h"
#include "fg/error.h"
#include "fg/recorded_call_graph.h"

namespace fg {

ProfileBuilder::ProfileBuilder(std::vector<ValueType> value_types) {
  if (value_types.empty()) throw Error("a profile needs at least one value column");
  profile_.value_types_ = std::move(value_types);
  profile_.add_stack(FrameId{}, kRootStack);
  profile_.label_sets_.emplace_back();
  label_index_.emplace(decltype(label_index_)::key_type{}, LabelSetId{});
  stack_flags_.push_back(0);
}

FunctionId ProfileBuilder::function(StringId n) {
  if (n.index() >= function_of_name_.size())
    function_of_name_.resize(profile_.strings_.size(), kNoId<FunctionId>);
  FunctionId& id = function_of_name_[n.index()];
  if (id == kNoId<FunctionId>) {
    id = FunctionId{static_cast<std::uint32_t>(profile_.functions_.size())};
    profile_.functions_.push_back(Function{n, {}, {}, 0});
  }
  return id;
}

FunctionId ProfileBuilder::function(std::string_view name, std::string_view system_name,
                                    std::string_view filename, std::int64_t start_line) {
  StringId n = intern(name);
  if (system_name.empty() && filename.empty() && start_line == 0) return function(n);
  const FunctionId next{static_cast<std::uint32_t>(profile_.functions_.size())};
  auto key = std::make_tuple(n, intern(system_name), intern(filename), start_line);
  FunctionId id = full_functions_.try_emplace(key, next).first->second;
  if (id == next) {
    profile_.functions_.push_back(Function{n, intern(system_name), intern(filename), start_line});
  }
  return id;
}

FrameId ProfileBuilder::frame(FunctionId function, FrameKind kind, std::int64_t line, std::uint64_t address,
                              StringId module) {
  const FrameId next{static_cast<std::uint32_t>(profile_.frames_.size())};
  FrameId id;
  if (line == 0 && address == 0 && module == StringId{} && kind == FrameKind::kNative) {
    if (function.index() >= native_frame_.size())
      native_frame_.resize(profile_.functions_.size(), kNoId<FrameId>);
    FrameId& slot = native_frame_[function.index()];
    if (slot == kNoId<FrameId>) slot = next;
    id = slot;
  } else if (line == 0 && address == 0 && module == StringId{}) {
    id = FrameId{
        plain_frames_.insert(std::uint64_t(function.index()) | std::uint64_t(kind) << 32, next.index())};
  } else {
    auto key = std::make_tuple(function, static_cast<int>(kind), line, address, module);
    id = full_frames_.try_emplace(key, next).first->second;
  }
  if (id == next) profile_.frames_.push_back(Frame{function, line, address, module, kind});
  return id;
}

FrameId ProfileBuilder::frame(std::string_view name, FrameKind kind) { return frame(function(name), kind); }

StackId ProfileBuilder::stack(StackId parent, FrameId frame) {
  const StackId next{static_cast<std::uint32_t>(profile_.stack_count())};
  if (next == kNoId<StackId>) throw Error("too many distinct stacks (more than 2^32 - 2)");
  StackId id;
  if (parent.index() + 1 == next.index()) {
    // The newest node has no children yet, so this one is new. Readers of
    // sorted or tree-shaped input take this path for most frames; leaving
    // the child out of the hash map until someone looks under its parent
    // saves a cache miss per frame.
    set_flag(parent, kUnindexedChild);
    id = next;
  } else {
    if (flag(parent, kUnindexedChild)) {
      clear_flag(parent, kUnindexedChild);
      const std::uint32_t child = parent.index() + 1;
      stacks_.insert(stack_key(parent, profile_.stack_frames_[child]), child);
    }
    id = StackId{stacks_.insert(stack_key(parent, frame), next.index())};
  }
  if (id == next) {
    profile_.add_stack(frame, parent);
    if (next.index() % 32 == 0) stack_flags_.push_back(0);
  }
  return id;
}

StackId ProfileBuilder::stack(std::span<const FrameId> root_to_leaf) {
  return bulk::extend(*this, kRootStack, root_to_leaf);
}

StackId PrefixStacks::stack(std::span<const FrameId> root_to_leaf) {
  std::size_t shared = 0;
  const std::size_t most = std::min(frames_.size(), root_to_leaf.size());
  while (shared < most && frames_[shared] == root_to_leaf[shared]) ++shared;
  frames_.resize(shared);
  ids_.resize(shared);
  StackId s = shared ? ids_.back() : kRootStack;
  for (std::size_t i = shared; i < root_to_leaf.size(); ++i) {
    s = b_.stack(s, root_to_leaf[i]);
    frames_.push_back(root_to_leaf[i]);
    ids_.push_back(s);
  }
  return s;
}

LabelSetId ProfileBuilder::labels(std::vector<Label> labels) {
  if (labels.empty()) return LabelSetId{};
  std::stable_sort(labels.begin(), labels.end(), [this](const Label& a, const Label& b) {
    return profile_.str(a.key) < profile_.str(b.key);
  });
  decltype(label_index_)::key_type key;
  key.reserve(labels.size());
  for (const Label& l : labels) key.emplace_back(l.key, l.str, l.num, l.unit, l.numeric);
  const LabelSetId next{static_cast<std::uint32_t>(profile_.label_sets_.size())};
  auto [it, inserted] = label_index_.try_emplace(std::move(key), next);
  if (inserted) profile_.label_sets_.push_back(std::move(labels));
  return it->second;
}

void ProfileBuilder::add_sample(StackId stack, std::span<const std::int64_t> values, LabelSetId labels,
                                std::int64_t timestamp) {
  const std::size_t n = profile_.value_types_.size();
  if (values.size() != n)
    throw Error("sample has " + std::to_string(values.size()) + " values, the profile has " +
                std::to_string(n) + " columns");
  for (std::int64_t v : values) {
    if (v == INT64_MIN || __builtin_add_overflow(profile_.magnitude_, v < 0 ? -v : v, &profile_.magnitude_))
      throw Error("values add up to more than 2^63 - 1 (9223372036854775807), which fg cannot total");
  }
  if (timestamp == kNoTimestamp) {
    // A stack's first untimed sample needs no lookup. One with labels is
    // hashed only when a later sample of the same stack has to find it:
    // most readers add one sample per stack, and skip a cache miss each.
    if (flag(stack, kHasSample)) {
      std::uint32_t at = kNoSample;
      if (labels == LabelSetId{}) {
        if (stack.index() < unlabeled_sample_.size()) at = unlabeled_sample_[stack.index()];
      } else {
        index_samples();
        at = samples_by_key_.find(sample_key(stack, labels));
      }
      if (at != kNoSample) {
        std::int64_t* dst = profile_.values_.data() + std::size_t(at) * n;
        for (std::size_t i = 0; i < n; ++i) dst[i] += values[i];
        return;
      }
    }
    set_flag(stack, kHasSample);
    if (labels == LabelSetId{}) {
      if (stack.index() >= unlabeled_sample_.size())
        unlabeled_sample_.resize(std::max<std::size_t>(stack.index() + 1, profile_.stack_count()), kNoSample);
      unlabeled_sample_[stack.index()] = static_cast<std::uint32_t>(profile_.samples_.size());
    }
  }
  profile_.samples_.push_back(Sample{stack, labels, timestamp});
  profile_.values_.insert(profile_.values_.end(), values.begin(), values.end());
}

void ProfileBuilder::set_decimals(int decimals) {
  std::vector<ValueType>& types = profile_.value_types_;
  const int now = types[0].decimals;
  for (const ValueType& t : types)
    if (t.decimals != now) throw Error("set_decimals: the columns have different decimals");
  if (decimals <= now) return;
  const std::int64_t factor = decimal_factor(decimals - now);
  if (__builtin_mul_overflow(profile_.magnitude_, factor, &profile_.magnitude_))
    throw Error("values add up to more than 2^63 - 1 (9223372036854775807), which fg cannot total");
  for (ValueType& t : types) t.decimals = decimals;
  for (std::int64_t& v : profile_.values_) v *= factor;
}

void ProfileBuilder::add_sample(std::span<const FrameId> root_to_leaf, std::span<const std::int64_t> values,
                                LabelSetId labels, std::int64_t timestamp) {
  add_sample(stack(root_to_leaf), values, labels, timestamp);
}

void ProfileBuilder::add_sample(std::span<const NamedFrame> root_to_leaf,
                                std::span<const std::int64_t> values, std::span<const NamedLabel> labels,
                                std::int64_t timestamp) {
  StackId s = kRootStack;
  for (const NamedFrame& f : root_to_leaf) s = stack(s, frame(f.name, f.kind));
  add_sample(s, values, this->labels(labels), timestamp);
}

LabelSetId ProfileBuilder::labels(std::span<const NamedLabel> labels) {
  std::vector<Label> interned;
  interned.reserve(labels.size());
  for (const NamedLabel& l : labels) {
    Label& to = interned.emplace_back();
    to.key = intern(l.key);
    to.numeric = l.numeric;
    if (l.numeric) {
      to.num = l.num;
      to.unit = intern(l.unit);
    } else {
      to.str = intern(l.str);
    }
  }
  return this->labels(std::move(interned));
}

void ProfileBuilder::index_samples() {
  for (; samples_indexed_ < profile_.samples_.size(); ++samples_indexed_) {
    const Sample& s = profile_.samples_[samples_indexed_];
    if (s.timestamp == kNoTimestamp && s.labels != LabelSetId{})
      samples_by_key_.insert(sample_key(s.stack, s.labels), static_cast<std::uint32_t>(samples_indexed_));
  }
}

StackId ProfileBuilder::add_node(StackId parent, FrameId frame, std::span<const std::int64_t> self_values,
                                 LabelSetId labels) {
  StackId s = stack(parent, frame);
  bool any = std::any_of(self_values.begin(), self_values.end(), [](std::int64_t v) { return v != 0; });
  if (any) add_sample(s, self_values, labels);
  return s;
}

void ProfileBuilder::set_recorded_graph(RecordedCallGraph graph) {
  for (const RecordedCallGraph::Node& n : graph.nodes)
    if (n.frame.index() >= profile_.frames_.size()) throw Error("recorded call graph: frame out of range");
  for (const RecordedCallGraph::Edge& e : graph.edges)
    if (e.caller >= graph.nodes.size() || e.callee >= graph.nodes.size())
      throw Error("recorded call graph: edge to a node out of range");
  if (graph.column >= profile_.value_types_.size()) throw Error("recorded call graph: column out of range");
  // The flat values added up (pprof's node and edge cut-offs) stay inside
  // 64 bits; what one node or caller -> callee pair gathers saturates.
  if (std::fabs(static_cast<double>(graph.total)) >= 0x1p62)
    throw Error("recorded call graph: total too large (past 2^62)");
  double flat = 0;
  for (const RecordedCallGraph::Node& n : graph.nodes) flat += std::fabs(static_cast<double>(n.flat));
  if (flat >= 0x1p62) throw Error("recorded call graph: values too large (the flat values add up past 2^62)");
  profile_.recorded_graph_ = std::make_shared<const RecordedCallGraph>(std::move(graph));
}

Profile ProfileBuilder::finish() && {
  // No shrink_to_fit: the unused end of a table was never written, so it
  // holds no memory, while trimming would copy the table.
  return std::move(profile_);
}

StackId bulk::Access::extend(ProfileBuilder& b, StackId parent, std::span<const FrameId> frames) {
  std::size_t i = 0;
  while (i < frames.size() && std::size_t{parent.index()} + 1 != b.profile_.stack_count())
    parent = b.stack(parent, frames[i++]);
  const std::size_t n = frames.size() - i;
  if (n == 0) return parent;
  // `parent` is the newest node, so it has no children: as stack() would
  // make them, one node per frame, each the unindexed child of the one before.
  const std::size_t next = b.profile_.stack_count();
  if (n > kNoId<StackId>.index() - next) throw Error("too many distinct stacks (more than 2^32 - 2)");
  const std::size_t last = next + n - 1;
  b.stack_flags_.resize(last / 32 + 1, 0);
  for (std::size_t s = parent.index(); s < last; ++s)
    b.set_flag(StackId{static_cast<std::uint32_t>(s)}, ProfileBuilder::kUnindexedChild);
  b.profile_.add_chain(frames.subspan(i));
  return StackId{static_cast<std::uint32_t>(last)};
}

void bulk::Access::reserve_stacks(ProfileBuilder& b, std::size_t n) {
  b.profile_.reserve_stacks(n);
  b.stack_flags_.reserve(n / 32 + 1);
}

Profile bulk::Access::finish(ProfileBuilder&& b, std::span<const FrameId> frames) {
  if (frames.size() != b.profile_.stack_frames_.size()) throw Error("finish: one frame per stack expected");
  // From 1: the root (always there) has no frame, and keeps what it has.
  for (std::size_t s = 1; s < frames.size(); ++s) {
    if (frames[s].index() >= b.profile_.frames_.size()) throw Error("finish: frame out of range");
    b.profile_.stack_frames_[s] = frames[s];
  }
  return std::move(b).finish();
}

}  // namespace fg
