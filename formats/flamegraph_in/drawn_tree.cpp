#include "drawn_tree.h"

#include <span>

#include "fg/error.h"

namespace fg::formats::flamegraph_in {

DrawnTree::DrawnTree(ProfileBuilder& builder, std::int64_t root_total, bool with_base,
                     std::int64_t root_self_diff, std::size_t root_at)
    : builder_(builder), with_base_(with_base) {
  nodes_.push_back({kRootStack, root_total, root_self_diff, true, root_at});
}

std::optional<std::uint32_t> DrawnTree::add(std::uint32_t parent, FrameId frame, std::int64_t total,
                                            std::int64_t self_diff, std::size_t at) {
  Node& up = nodes_[parent];
  if (total < 0 || total > up.left) return std::nullopt;
  up.left -= total;
  up.leaf = false;
  const StackId stack = builder_.stack(up.stack, frame);
  nodes_.push_back({stack, total, self_diff, true, at});
  return static_cast<std::uint32_t>(nodes_.size() - 1);
}

void DrawnTree::finish(const PageText& page) {
  for (const Node& n : nodes_) {
    // n.left is now the node's self: its width less all its children's.
    if (!with_base_) {
      if (n.left != 0 || n.leaf) builder_.add_sample(n.stack, std::span(&n.left, 1));
      continue;
    }
    std::int64_t base = 0;
    if (n.self_diff != kNewFrame && (__builtin_sub_overflow(n.left, n.self_diff, &base) || base < 0))
      page.fail(n.at, "the frame's difference from the base (d=" + std::to_string(n.self_diff) +
                          ") is more than its self value " + std::to_string(n.left));
    const std::int64_t values[2] = {base, n.left};
    if (n.left != 0 || base != 0 || n.leaf) builder_.add_sample(n.stack, values);
  }
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
