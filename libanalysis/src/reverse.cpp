#include "fg/reverse.h"

#include "fg/builder.h"
#include "fg/import.h"

namespace fg {

Profile reverse_stacks(const Profile& p) {
  ProfileBuilder b(p.value_types());
  b.metadata() = p.metadata();
  ProfileImporter import(b, p);
  std::vector<FrameId> frames;
  for (std::size_t i = 0; i < p.sample_count(); ++i) {
    const Sample& s = p.sample(i);
    p.stack_frames(s.stack, frames);
    StackId to = kRootStack;
    for (std::size_t d = frames.size(); d-- > 0;) to = b.stack(to, import.frame(frames[d]));
    b.add_sample(to, p.values(i), import.labels(s.labels), s.timestamp);
  }
  return std::move(b).finish();
}

}  // namespace fg
