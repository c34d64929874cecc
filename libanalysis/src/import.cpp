#include "fg/import.h"

namespace fg {

namespace {
constexpr std::uint32_t kUnset = 0xffffffffu;
}

ProfileImporter::ProfileImporter(ProfileBuilder& to, const Profile& from) : to_(to), from_(from) {
  frames_.assign(from.frame_count(), kUnset);
  labels_.assign(from.label_set_count(), kUnset);
  stacks_.assign(from.stack_count(), kUnset);
  stacks_[kRootStack] = kRootStack;
}

StringId ProfileImporter::string(StringId id) {
  if (id >= strings_.size()) strings_.resize(id + 1, kUnset);
  if (strings_[id] == kUnset) strings_[id] = to_.intern(from_.str(id));
  return strings_[id];
}

FrameId ProfileImporter::frame(FrameId id) {
  if (frames_[id] != kUnset) return frames_[id];
  const Frame& f = from_.frame(id);
  const Function& fn = from_.function(f.function);
  FunctionId nf = to_.function(from_.str(fn.name), from_.str(fn.system_name), from_.str(fn.filename),
                               fn.start_line);
  return frames_[id] = to_.frame(nf, f.kind, f.line, f.address, string(f.module));
}

LabelSetId ProfileImporter::labels(LabelSetId id) {
  if (labels_[id] != kUnset) return labels_[id];
  std::vector<Label> copy = from_.labels(id);
  for (Label& l : copy) {
    l.key = string(l.key);
    l.str = string(l.str);
    l.unit = string(l.unit);
  }
  return labels_[id] = to_.labels(std::move(copy));
}

StackId ProfileImporter::stack(StackId id) {
  if (stacks_[id] != kUnset) return stacks_[id];
  const StackNode& n = from_.stack(id);
  StackId parent = stack(n.parent);  // depth-bounded recursion: parents are cached first
  return stacks_[id] = to_.stack(parent, frame(n.frame));
}

}  // namespace fg
