#include "fg/reverse.h"

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

}  // namespace fg
