#include "fg/call_tree.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace fg {

std::vector<std::uint32_t> frame_order(const Profile& profile) {
  const std::size_t n = profile.frame_count();
  // The key of a frame is exactly the bytes a folded line holds for it,
  // followed by ';': comparing keys bytewise then orders siblings as sorting
  // whole folded lines does.
  std::vector<std::string> keys(n);
  for (FrameId f = 0; f < n; ++f) {
    keys[f].append(profile.frame_name(f));
    keys[f].append(frame_kind_suffix(profile.frame(f).kind));
    keys[f].push_back(';');
  }
  std::vector<FrameId> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](FrameId a, FrameId b) {
    if (keys[a] != keys[b]) return keys[a] < keys[b];
    return a < b;  // same text, different line/address: keep reading order
  });
  std::vector<std::uint32_t> rank(n);
  for (std::uint32_t i = 0; i < n; ++i) rank[order[i]] = i;
  return rank;
}

CallTree::CallTree(const Profile& profile) : profile_(&profile), columns_(profile.value_count()) {
  const std::size_t n = profile.stack_count();

  self_.assign(n * columns_, 0);
  for (std::size_t i = 0; i < profile.sample_count(); ++i) {
    std::int64_t* dst = self_.data() + std::size_t(profile.sample(i).stack) * columns_;
    auto v = profile.values(i);
    for (std::size_t c = 0; c < columns_; ++c) dst[c] += v[c];
  }
  total_ = self_;
  for (StackId s = static_cast<StackId>(n); s-- > 1;) {
    const std::int64_t* src = total_.data() + std::size_t(s) * columns_;
    std::int64_t* dst = total_.data() + std::size_t(parent(s)) * columns_;
    for (std::size_t c = 0; c < columns_; ++c) dst[c] += src[c];
  }

  // Children lists in compressed form: count, prefix-sum, fill, then sort
  // each list by frame rank.
  child_begin_.assign(n + 1, 0);
  for (StackId s = 1; s < n; ++s) ++child_begin_[parent(s) + 1];
  for (std::size_t i = 0; i < n; ++i) child_begin_[i + 1] += child_begin_[i];
  children_.resize(n > 0 ? n - 1 : 0);
  std::vector<std::uint32_t> fill(child_begin_.begin(), child_begin_.end() - 1);
  for (StackId s = 1; s < n; ++s) children_[fill[parent(s)]++] = s;
  std::vector<std::uint32_t> rank = frame_order(profile);
  for (std::size_t i = 0; i < n; ++i) {
    auto b = children_.begin() + child_begin_[i], e = children_.begin() + child_begin_[i + 1];
    if (e - b > 1)
      std::sort(b, e, [&](StackId x, StackId y) { return rank[frame(x)] < rank[frame(y)]; });
  }
}

}  // namespace fg
