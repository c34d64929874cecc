#include "drawn_tree.h"

#include <cstdio>
#include <numeric>
#include <span>

#include "fg/error.h"

namespace fg::formats::flamegraph_in {

DrawnTree::DrawnTree(ProfileBuilder& builder, std::int64_t root_total, bool with_base,
                     std::int64_t root_self_diff, std::size_t root_at)
    : builder_(builder), with_base_(with_base), total_(root_total), unit_(root_total) {
  nodes_.push_back({root_total, kRootStack, true});
  if (with_base_) base_.push_back({root_self_diff, root_at});
}

std::optional<std::uint32_t> DrawnTree::add(std::uint32_t parent, FrameId frame, std::int64_t total,
                                            std::int64_t self_diff, std::size_t at) {
  Node& up = nodes_[parent];
  if (total < 0 || total > up.left) return std::nullopt;
  up.left -= total;
  up.leaf = false;
  if (total > 0 && (narrowest_ == 0 || total < narrowest_)) narrowest_ = total;
  unit_ = std::gcd(unit_, total);
  const StackId stack = builder_.stack(up.stack, frame);
  nodes_.push_back({total, stack, true});
  if (with_base_) base_.push_back({self_diff, at});
  return static_cast<std::uint32_t>(nodes_.size() - 1);
}

void DrawnTree::finish(const PageText& page) {
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const Node& n = nodes_[i];
    // n.left is now the node's self: its width less all its children's.
    if (!n.leaf) self_of_parents_ += n.left;
    if (!with_base_) {
      if (n.left != 0 || n.leaf) builder_.add_sample(n.stack, std::span(&n.left, 1));
      continue;
    }
    const BaseOf& d = base_[i];
    std::int64_t base = 0;
    if (d.self_diff != kNewFrame && (__builtin_sub_overflow(n.left, d.self_diff, &base) || base < 0))
      page.fail(d.at, "the frame's difference from the base (d=" + std::to_string(d.self_diff) +
                          ") is more than its self value " + std::to_string(n.left));
    const std::int64_t values[2] = {base, n.left};
    if (n.left != 0 || base != 0 || n.leaf) builder_.add_sample(n.stack, values);
  }
}

void DrawnTree::note_pruning(const ReadOptions& options, const std::string& file, int decimals) const {
  if (narrowest_ <= unit_ || self_of_parents_ <= 0) return;
  char percent[32];
  std::snprintf(percent, sizeof percent, "%.2f%%",
                100.0 * static_cast<double>(self_of_parents_) / static_cast<double>(total_));
  note(options, builder_, file,
       "frames narrower than the narrowest drawn one (" + fixed_point_text(narrowest_, decimals) +
           ") may have been pruned from the drawing; what they held is read as their parent's self. "
           "At most " +
           fixed_point_text(self_of_parents_, decimals) + " of " + fixed_point_text(total_, decimals) + " (" +
           percent +
           ") can be pruned frames: the self of the frames that have drawn frames on them, where a pruned "
           "frame and the frame's own self look the same");
}

ValueType counter_value_type(std::string_view name) {
  if (name == "samples") return {"samples", "count"};
  if (name == "bytes") return {"space", "bytes"};
  if (name == "ns" || name == "nanoseconds") return {"time", "nanoseconds"};
  return {std::string(name), "count"};
}

void note(const ReadOptions& options, ProfileBuilder& builder, const std::string& file,
          const std::string& text) {
  builder.metadata().comments.push_back(text);
  if (options.note) options.note(file + ": " + text);
}

}  // namespace fg::formats::flamegraph_in
