#include "fg/call_tree.h"

#include <algorithm>
#include <cstring>

#include "fg/parallel.h"

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

// A frame's sort key: its name and its kind's suffix.
struct FrameKey {
  std::string_view name, suffix;
  FrameId id;
};

FrameKey frame_key(const Profile& p, FrameId f) {
  return {p.frame_name(f), frame_kind_suffix(p.frame(f).kind), f};
}

bool key_before(const FrameKey& a, const FrameKey& b) {
  const std::string_view na = a.name, nb = b.name, sa = a.suffix, sb = b.suffix;
  std::size_t common = std::min(na.size(), nb.size());
  if (common > 0) {  // (an empty name may have no data pointer at all)
    if (int c = std::memcmp(na.data(), nb.data(), common); c != 0) return c < 0;
  }
  for (std::size_t i = common;; ++i) {
    int x = key_byte(na, sa, i), y = key_byte(nb, sb, i);
    if (x != y) return x < y;
    if (x < 0) return a.id < b.id;  // the same text: reading order
  }
}

}  // namespace

bool frame_before(const Profile& p, FrameId a, FrameId b) {
  return key_before(frame_key(p, a), frame_key(p, b));
}

FrameOrder::FrameOrder(const Profile& p) {
  std::vector<FrameKey> keys;
  keys.reserve(p.frame_count());
  for (const FrameId f : id_range<FrameId>(p.frame_count())) keys.push_back(frame_key(p, f));
  std::sort(keys.begin(), keys.end(), key_before);
  frames_.reserve(keys.size());
  rank_.resize(keys.size());
  for (const FrameKey& k : keys) {
    rank_[k.id.index()] = static_cast<std::uint32_t>(frames_.size());
    frames_.push_back(k.id);
  }
}

void CallTree::mark_stored() {
  const Profile& profile = *profile_;
  const std::size_t n = profile.stack_count();
  const std::size_t words = (n + 63) / 64;
  stored_.assign(words, ~std::uint64_t(0));
  // A node's first child in id order, if it has the next id, is met before
  // any other child: it marks the node as on a chain, and any later child
  // marks it stored again.
  for (const StackId s : id_range(StackId{1}, n)) {
    const std::uint32_t up = parent(s).index();
    const std::uint64_t bit = std::uint64_t(1) << (up & 63);
    if (up == s.index() - 1)
      stored_[up >> 6] &= ~bit;
    else
      stored_[up >> 6] |= bit;
  }
  for (std::size_t i = 0; i < profile.sample_count(); ++i) {
    const std::uint32_t s = profile.sample(i).stack.index();
    stored_[s >> 6] |= std::uint64_t(1) << (s & 63);
  }
  if (n > 0) stored_[0] |= 1;  // the root, always
  if (n % 64 != 0) stored_.back() &= (std::uint64_t(1) << (n % 64)) - 1;
  stored_before_.resize(words + 1);
  std::uint32_t count = 0;
  for (std::size_t w = 0; w < words; ++w) {
    stored_before_[w] = count;
    count += bit_count(stored_[w]);
  }
  stored_before_[words] = count;
  stored_count_ = count;
}

template <typename T>
void CallTree::sum_totals(BigVector<T>& totals) const {
  const Profile& profile = *profile_;
  const std::size_t n = profile.stack_count();
  // Each stored node's own value first, then totals in one reverse pass:
  // children have larger ids than parents. A stored node's total goes to
  // its first stored ancestor: the chain between them shares its total.
  // The single-column case (most profiles) gets its own loop.
  totals.assign(stored_count_ * columns_, 0);
  for (std::size_t i = 0; i < profile.sample_count(); ++i) {
    T* dst = totals.data() + std::size_t(rank(profile.sample(i).stack)) * columns_;
    auto v = profile.values(i);
    for (std::size_t c = 0; c < columns_; ++c) dst[c] += static_cast<T>(v[c]);
  }
  T* t = totals.data();
  std::uint32_t r = static_cast<std::uint32_t>(stored_count_);
  for (auto i = static_cast<std::uint32_t>(n); i-- > 1;) {
    const StackId s{i};
    if (!stored(s)) continue;
    --r;  // rank(s)
    StackId up = parent(s);
    while (!stored(up)) up = parent(up);
    const T* src = t + std::size_t(r) * columns_;
    T* dst = t + std::size_t(rank(up)) * columns_;
    if (columns_ == 1)
      *dst += *src;
    else
      for (std::size_t c = 0; c < columns_; ++c) dst[c] += src[c];
  }
}

CallTree::CallTree(const Profile& profile, const CallTreeOptions& options)
    : profile_(&profile), columns_(profile.value_count()) {
  const std::size_t n = profile.stack_count();
  mark_stored();
  narrow_ = profile.magnitude() <= INT32_MAX;
  const auto totals = [this] {
    if (narrow_)
      sum_totals(total32_);
    else
      sum_totals(total_);
  };

  // Children lists of kept stored nodes (every child, kept or not: a narrow
  // frame is not drawn but still takes its place) in compressed form: count
  // per parent slot, prefix-sum, then fill from the last child back so
  // every list is in id order. `listed_kids` holds the children of kept
  // stored nodes when the tree is pruned (few), else every node's parent
  // is looked at.
  std::size_t slots = stored_count_;
  std::vector<StackId> listed_kids;  // pruned: the children of kept stored nodes, in id order
  const auto list_children = [&] {
    const auto each_listed = [&](bool backwards, auto&& f) {
      if (pruned_) {
        if (backwards)
          std::for_each(listed_kids.rbegin(), listed_kids.rend(), f);
        else
          std::for_each(listed_kids.begin(), listed_kids.end(), f);
      } else if (backwards) {
        for (auto i = static_cast<std::uint32_t>(n); i-- > 1;)
          if (stored(parent(StackId{i}))) f(StackId{i});
      } else {
        for (const StackId s : id_range(StackId{1}, n))
          if (stored(parent(s))) f(s);
      }
    };
    child_begin_.assign(slots + 1, 0);
    std::size_t kids = 0;
    each_listed(false, [&](StackId s) {
      ++child_begin_[slot(parent(s)) + 1];
      ++kids;
    });
    for (std::size_t i = 0; i < slots; ++i) child_begin_[i + 1] += child_begin_[i];
    children_.resize(kids);
    BigVector<std::uint32_t>& end = child_begin_;  // used as a cursor, restored below
    each_listed(true, [&](StackId s) { children_[--end[slot(parent(s)) + 1]] = s; });
    // end[i + 1] now equals the old child_begin_[i]: shift back by one.
    for (std::size_t i = 0; i < slots; ++i) child_begin_[i] = child_begin_[i + 1];
    child_begin_[slots] = static_cast<std::uint32_t>(children_.size());
  };

  if (!options.prune_column) {
    // The children lists do not need the totals: for a large tree they are
    // made on this thread while another sums.
    summed_ = options.totals;
    if (summed_)
      run_beside({.items = n}, totals, list_children);
    else
      list_children();
  } else {
    totals();
    // Which nodes are kept, and the slots of the stored ones. Parents come
    // before children, so one forward pass sees a parent's fate before its
    // children's; the same pass lists the children of kept stored nodes,
    // so that the lists need not look at every node again.
    pruned_ = true;
    const std::size_t col = *options.prune_column;
    kept_.assign(n, false);
    std::vector<StackId> kept_stored;
    for (const StackId s : id_range<StackId>(n)) {
      if (s != kRootStack) {
        const StackId up = parent(s);
        if (!kept_[up.index()]) continue;
        if (stored(up)) listed_kids.push_back(s);  // kept or not
        if (static_cast<double>(total(s, col)) < options.min_total) continue;
      }
      kept_[s.index()] = true;
      if (stored(s)) kept_stored.push_back(s);
    }
    // A hash map from kept nodes to slots costs some 40 bytes per kept
    // node, slots by rank 4 bytes per stored node: the map only when few
    // are kept.
    if (kept_stored.size() * 10 <= stored_count_) {
      by_rank_ = false;
      slots = kept_stored.size();
      for (std::size_t i = 0; i < slots; ++i)
        index_.insert(kept_stored[i].index(), static_cast<std::uint32_t>(i));
    }
    list_children();
  }
  sorted_.assign(slots, false);
}

std::int64_t CallTree::self(StackId node, std::size_t column) const {
  if (!stored(node)) return 0;  // on a chain: its total is its child's
  std::int64_t v = total(node, column);
  if (!kept(node)) {
    // Not indexed: find its children the slow way.
    for (const StackId s : id_range(StackId{node.index() + 1}, profile_->stack_count()))
      if (parent(s) == node) v -= total(s, column);
    return v;
  }
  std::uint32_t k = slot(node);
  for (std::uint32_t i = child_begin_[k]; i < child_begin_[k + 1]; ++i) v -= total(children_[i], column);
  return v;
}

StackId CallTree::chain_end(StackId node) const {
  // A node on a chain has the next node as its child, and the last node
  // is a leaf (stored): a stored node follows.
  const std::uint32_t next = node.index() + 1;
  std::size_t w = next >> 6;
  std::uint64_t bits = stored_[w] & (~std::uint64_t(0) << (next & 63));
  while (bits == 0) bits = stored_[++w];
  return StackId{static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits)))};
}

ChildList CallTree::stored_children(StackId node) const {
  std::uint32_t k = slot(node);
  auto b = children_.begin() + child_begin_[k], e = children_.begin() + child_begin_[k + 1];
  if (!sorted_[k]) {
    const auto n = static_cast<std::size_t>(e - b);
    if (n > 1 && !frame_order_ && sorted_by_name_ + n <= profile_->frame_count()) {
      sorted_by_name_ += n;
      std::sort(b, e, [this](StackId x, StackId y) { return frame_before(*profile_, frame(x), frame(y)); });
    } else if (n > 1) {
      // (rank, id) pairs in one array: the sort reads no frame twice.
      const FrameOrder& order = frame_order();
      keyed_.clear();
      for (auto i = b; i != e; ++i) keyed_.push_back(std::uint64_t(order.rank(frame(*i))) << 32 | i->index());
      std::sort(keyed_.begin(), keyed_.end());
      for (std::size_t i = 0; i < n; ++i) b[i] = StackId{static_cast<std::uint32_t>(keyed_[i])};
    }
    sorted_[k] = true;
  }
  return listed(k);
}

const FrameOrder& CallTree::frame_order() const {
  if (!frame_order_) frame_order_.emplace(*profile_);
  return *frame_order_;
}

}  // namespace fg
