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
  if (common > 0) {  // (an empty name may have no data pointer at all)
    if (int c = std::memcmp(na.data(), nb.data(), common); c != 0) return c < 0;
  }
  for (std::size_t i = common;; ++i) {
    int x = key_byte(na, sa, i), y = key_byte(nb, sb, i);
    if (x != y) return x < y;
    if (x < 0) return a < b;  // the same text: reading order
  }
}

template <typename T>
void CallTree::sum_totals(std::vector<T>& totals) const {
  const Profile& profile = *profile_;
  const std::size_t n = profile.stack_count();
  // Each node's own value first, then totals in one reverse pass: children
  // have larger ids than parents. The single-column case (most profiles)
  // gets its own loop.
  totals.assign(n * columns_, 0);
  for (std::size_t i = 0; i < profile.sample_count(); ++i) {
    T* dst = totals.data() + std::size_t(profile.sample(i).stack) * columns_;
    auto v = profile.values(i);
    for (std::size_t c = 0; c < columns_; ++c) dst[c] += static_cast<T>(v[c]);
  }
  T* t = totals.data();
  if (columns_ == 1) {
    for (StackId s = static_cast<StackId>(n); s-- > 1;) t[parent(s)] += t[s];
  } else {
    for (StackId s = static_cast<StackId>(n); s-- > 1;) {
      const T* src = t + std::size_t(s) * columns_;
      T* dst = t + std::size_t(parent(s)) * columns_;
      for (std::size_t c = 0; c < columns_; ++c) dst[c] += src[c];
    }
  }
}

CallTree::CallTree(const Profile& profile, const CallTreeOptions& options)
    : profile_(&profile), columns_(profile.value_count()) {
  const std::size_t n = profile.stack_count();
  narrow_ = profile.magnitude() <= INT32_MAX;
  if (narrow_) sum_totals(total32_);
  else sum_totals(total_);

  // Which nodes are kept, and their slots. Parents come before children, so
  // one forward pass sees a parent's fate before its children's.
  std::size_t slots = n;
  if (options.prune_column) {
    pruned_ = true;
    const std::size_t col = *options.prune_column;
    kept_.assign(n, false);
    std::size_t kept_count = 0;
    for (StackId s = 0; s < n; ++s) {
      if (s == kRootStack ||
          (kept_[parent(s)] && static_cast<double>(total(s, col)) >= options.min_total)) {
        kept_[s] = true;
        ++kept_count;
      }
    }
    // A hash map from kept nodes to slots costs some 40 bytes per kept
    // node, slots by id 4 bytes per node: the map only when few are kept.
    if (kept_count * 10 <= n) {
      by_id_ = false;
      slots = 0;
      for (StackId s = 0; s < n; ++s)
        if (kept_[s]) index_.insert(s, static_cast<std::uint32_t>(slots++));
    }
  }

  // Children lists (every child of a kept node, kept or not: a narrow frame
  // is not drawn but still takes its place) in compressed form: count per
  // parent slot, prefix-sum, then fill from the last child back so every
  // list is in id order.
  child_begin_.assign(slots + 1, 0);
  std::size_t kids = 0;
  for (StackId s = 1; s < n; ++s) {
    if (!kept(parent(s))) continue;
    ++child_begin_[slot(parent(s)) + 1];
    ++kids;
  }
  for (std::size_t i = 0; i < slots; ++i) child_begin_[i + 1] += child_begin_[i];
  children_.resize(kids);
  std::vector<std::uint32_t>& end = child_begin_;  // used as a cursor, restored below
  for (StackId s = static_cast<StackId>(n); s-- > 1;)
    if (kept(parent(s))) children_[--end[slot(parent(s)) + 1]] = s;
  // end[i + 1] now equals the old child_begin_[i]: shift back by one.
  for (std::size_t i = 0; i < slots; ++i) child_begin_[i] = child_begin_[i + 1];
  child_begin_[slots] = static_cast<std::uint32_t>(children_.size());
  sorted_.assign(slots, false);
}

bool CallTree::kept(StackId node) const { return !pruned_ || kept_[node]; }

std::int64_t CallTree::self(StackId node, std::size_t column) const {
  std::int64_t v = total(node, column);
  if (!kept(node)) {
    // Not indexed: find its children the slow way.
    for (StackId s = node + 1; s < profile_->stack_count(); ++s)
      if (parent(s) == node) v -= total(s, column);
    return v;
  }
  std::uint32_t k = slot(node);
  for (std::uint32_t i = child_begin_[k]; i < child_begin_[k + 1]; ++i) v -= total(children_[i], column);
  return v;
}

std::span<const StackId> CallTree::children(StackId node) const {
  if (!kept(node)) return {};
  std::uint32_t k = slot(node);
  auto b = children_.begin() + child_begin_[k], e = children_.begin() + child_begin_[k + 1];
  if (!sorted_[k]) {
    if (e - b > 1)
      std::sort(b, e, [this](StackId x, StackId y) { return frame_before(*profile_, frame(x), frame(y)); });
    sorted_[k] = true;
  }
  return {children_.data() + child_begin_[k], child_begin_[k + 1] - child_begin_[k]};
}

}  // namespace fg
