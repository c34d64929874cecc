#include "fg/import.h"

namespace fg {

namespace {
constexpr std::uint32_t kUnset = 0xffffffffu;
}

ProfileImporter::ProfileImporter(ProfileBuilder& to, const Profile& from) : to_(to), from_(from) {
  frames_.assign(from.frame_count(), kUnset);
  labels_.assign(from.label_set_count(), kUnset);
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
  FunctionId nf =
      to_.function(from_.str(fn.name), from_.str(fn.system_name), from_.str(fn.filename), fn.start_line);
  return frames_[id] = to_.frame(nf, f.kind, f.line, f.address, string(f.module));
}

LabelSetId ProfileImporter::labels(LabelSetId id) {
  if (labels_[id] != kUnset) return labels_[id];
  std::vector<Label> copy = from_.labels(id);
  for (Label& l : copy) l = label(l);
  return labels_[id] = to_.labels(std::move(copy));
}

Label ProfileImporter::label(Label l) {
  l.key = string(l.key);
  l.str = string(l.str);
  l.unit = string(l.unit);
  return l;
}

StackId ProfileImporter::stack(StackId id) {
  if (stacks_.empty()) {  // made on first use: a transform that maps stacks itself never pays for it
    stacks_.assign(from_.stack_count(), kUnset);
    stacks_[kRootStack] = kRootStack;
  }
  if (stacks_[id] != kUnset) return stacks_[id];
  // Up to the nearest ancestor already copied, then down again: a loop, as
  // a path may be hundreds of thousands of frames deep.
  pending_.clear();
  for (StackId s = id; stacks_[s] == kUnset; s = from_.parent(s)) pending_.push_back(s);
  for (std::size_t i = pending_.size(); i-- > 0;) {
    const StackId s = pending_[i];
    stacks_[s] = to_.stack(stacks_[from_.parent(s)], frame(from_.stack(s).frame));
  }
  return stacks_[id];
}

void copy_samples(const Profile& from, const std::vector<FrameId>& frames, ProfileBuilder& to,
                  ProfileImporter& import) {
  to.reserve_stacks(from.stack_count());  // at most as many: no copies while growing
  std::vector<StackId> stacks(from.stack_count(), kRootStack);
  for (StackId s = 1; s < from.stack_count(); ++s)  // parents come first
    stacks[s] = to.stack(stacks[from.stack(s).parent], frames[from.stack(s).frame]);
  for (std::size_t i = 0; i < from.sample_count(); ++i) {
    const Sample& s = from.sample(i);
    to.add_sample(stacks[s.stack], from.values(i), import.labels(s.labels), s.timestamp);
  }
}

}  // namespace fg
