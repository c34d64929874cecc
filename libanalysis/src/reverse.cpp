#include "fg/reverse.h"

#include <cstdint>
#include <vector>

#include "fg/builder.h"
#include "fg/expansion.h"
#include "fg/import.h"

namespace fg {

Profile reverse_stacks(const Profile& p) {
  // A reversed stack shares no prefix with its parent's: the output holds
  // every sampled path spelled out, as collapsed stacks do, so it is
  // bounded as they are (a chain N deep with a sample at every node
  // would become N(N+1)/2 nodes).
  check_expansion(p, "reversing the stacks (--reverse, --invert)", "--max-depth N bounds them");
  ProfileBuilder b(p.value_types());
  b.metadata() = p.metadata();
  ProfileImporter import(b, p);
  std::vector<FrameId> frames;
  std::vector<StackId> made(p.stack_count(), kNoId<StackId>);  // each stack reversed once
  for (std::size_t i = 0; i < p.sample_count(); ++i) {
    const Sample& s = p.sample(i);
    StackId& to = made[s.stack.index()];
    if (to == kNoId<StackId>) {
      p.stack_frames(s.stack, frames);
      to = kRootStack;
      for (std::size_t d = frames.size(); d-- > 0;) to = b.stack(to, import.frame(frames[d]));
    }
    b.add_sample(to, p.values(i), import.labels(s.labels), s.timestamp);
  }
  return std::move(b).finish();
}

namespace {

// Imports the frames of `p`'s sampled stacks in the order reverse_stacks()
// meets them, so that frames of equal names keep its order (frame ids
// break their ties when children are sorted).
void import_frames(const Profile& p, ProfileImporter& import) {
  std::vector<bool> seen(p.stack_count(), false);
  for (std::size_t i = 0; i < p.sample_count(); ++i) {
    const StackId leaf = p.sample(i).stack;
    if (seen[leaf.index()]) continue;
    seen[leaf.index()] = true;
    for (StackId s = leaf; s != kRootStack; s = p.parent(s)) import.frame(p.stack(s).frame);
  }
}

}  // namespace

Profile reverse_stacks(const Profile& p, std::size_t column, double min_total) {
  check_expansion(p, "reversing the stacks (--reverse, --invert)", "--max-depth N bounds them");
  ProfileBuilder b(p.value_types());
  b.metadata() = p.metadata();
  ProfileImporter import(b, p);
  import_frames(p, import);
  // Level by level, one frame deeper each time, from the leaves: each
  // sample's path so far (`to`, a stack of the output) and the frame of the
  // input it continues with (`next`), while every node on it is wide.
  const std::size_t n = p.sample_count();
  std::vector<StackId> to(n, kRootStack), next(n);
  std::vector<std::size_t> going;
  for (std::size_t i = 0; i < n; ++i) {
    next[i] = p.sample(i).stack;
    if (next[i] != kRootStack) going.push_back(i);
  }
  std::vector<std::int64_t> totals;  // by output stack, in `column`
  while (!going.empty()) {
    for (const std::size_t i : going) {
      to[i] = b.stack(to[i], import.frame(p.stack(next[i]).frame));
      if (totals.size() <= to[i].index()) totals.resize(to[i].index() + 1, 0);
      totals[to[i].index()] += p.values(i)[column];
      next[i] = p.parent(next[i]);
    }
    std::erase_if(going, [&](std::size_t i) {
      return next[i] == kRootStack || static_cast<double>(totals[to[i].index()]) < min_total;
    });
  }
  for (std::size_t i = 0; i < n; ++i)
    b.add_sample(to[i], p.values(i), import.labels(p.sample(i).labels), p.sample(i).timestamp);
  return std::move(b).finish();
}

}  // namespace fg
