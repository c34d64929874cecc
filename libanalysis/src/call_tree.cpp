#include "fg/call_tree.h"

#include <algorithm>
#include <cstring>

namespace fg {

namespace {

// The i-th byte of a frame's sort key, name + annotation + ';', or -1 past
// its end.
int key_byte(std::string_view name, std::string_view suffix, std::size_t i) {
  if (i < name.size()) return static_cast<unsigned char>(name[i]);
  i -= name.size();
  if (i < suffix.size()) return static_cast<unsigned char>(suffix[i]);
  return i == suffix.size() ? ';' : -1;
}

}  // namespace

bool frame_before(const Profile& p, FrameId a, FrameId b) {
  std::string_view na = p.frame_name(a), nb = p.frame_name(b);
  std::string_view sa = frame_kind_suffix(p.frame(a).kind), sb = frame_kind_suffix(p.frame(b).kind);
  std::size_t common = std::min(na.size(), nb.size());
  if (int c = std::memcmp(na.data(), nb.data(), common); c != 0) return c < 0;
  for (std::size_t i = common;; ++i) {
    int x = key_byte(na, sa, i), y = key_byte(nb, sb, i);
    if (x != y) return x < y;
    if (x < 0) return a < b;  // the same text: reading order
  }
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

  // Children lists in compressed form: count per parent, prefix-sum, then
  // fill from the last child back so every list ends up in id order.
  child_begin_.assign(n + 1, 0);
  for (StackId s = 1; s < n; ++s) ++child_begin_[parent(s) + 1];
  for (std::size_t i = 0; i < n; ++i) child_begin_[i + 1] += child_begin_[i];
  children_.resize(n > 0 ? n - 1 : 0);
  std::vector<std::uint32_t>& end = child_begin_;  // reused as a cursor, restored below
  for (StackId s = static_cast<StackId>(n); s-- > 1;) children_[--end[parent(s) + 1]] = s;
  // end[i + 1] now equals the old child_begin_[i]: shift back by one.
  for (std::size_t i = 0; i < n; ++i) child_begin_[i] = child_begin_[i + 1];
  child_begin_[n] = static_cast<std::uint32_t>(children_.size());
  sorted_.assign(n, false);
}

std::span<const StackId> CallTree::children(StackId node) const {
  auto b = children_.begin() + child_begin_[node], e = children_.begin() + child_begin_[node + 1];
  if (!sorted_[node]) {
    if (e - b > 1)
      std::sort(b, e, [this](StackId x, StackId y) { return frame_before(*profile_, frame(x), frame(y)); });
    sorted_[node] = true;
  }
  return {children_.data() + child_begin_[node], child_begin_[node + 1] - child_begin_[node]};
}

}  // namespace fg
