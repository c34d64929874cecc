#include "fg/import.h"

#include "fg/bulk_builder.h"

namespace fg {

ProfileImporter::ProfileImporter(ProfileBuilder& to, const Profile& from) : to_(to), from_(from) {
  frames_.assign(from.frame_count(), kNoId<FrameId>);
  labels_.assign(from.label_set_count(), kNoId<LabelSetId>);
}

StringId ProfileImporter::string(StringId id) {
  const std::uint32_t i = id.index();
  if (i >= strings_.size()) strings_.resize(i + 1, kNoId<StringId>);
  if (strings_[i] == kNoId<StringId>) strings_[i] = to_.intern(from_.str(id));
  return strings_[i];
}

FrameId ProfileImporter::frame(FrameId id) {
  FrameId& to = frames_[id.index()];
  if (to != kNoId<FrameId>) return to;
  const Frame& f = from_.frame(id);
  const Function& fn = from_.function(f.function);
  FunctionId nf =
      to_.function(from_.str(fn.name), from_.str(fn.system_name), from_.str(fn.filename), fn.start_line);
  return to = to_.frame(nf, f.kind, f.line, f.address, string(f.module));
}

LabelSetId ProfileImporter::labels(LabelSetId id) {
  if (labels_[id.index()] != kNoId<LabelSetId>) return labels_[id.index()];
  std::vector<Label> copy = from_.labels(id);
  for (Label& l : copy) l = label(l);
  return labels_[id.index()] = to_.labels(std::move(copy));
}

Label ProfileImporter::label(Label l) {
  l.key = string(l.key);
  l.str = string(l.str);
  l.unit = string(l.unit);
  return l;
}

StackId ProfileImporter::stack(StackId id) {
  if (stacks_.empty()) {  // made on first use: a transform that maps stacks itself never pays for it
    stacks_.assign(from_.stack_count(), kNoId<StackId>);
    stacks_[kRootStack.index()] = kRootStack;
  }
  if (stacks_[id.index()] != kNoId<StackId>) return stacks_[id.index()];
  // Up to the nearest ancestor already copied, then down again: a loop, as
  // a path may be hundreds of thousands of frames deep.
  pending_.clear();
  for (StackId s = id; stacks_[s.index()] == kNoId<StackId>; s = from_.parent(s)) pending_.push_back(s);
  for (std::size_t i = pending_.size(); i-- > 0;) {
    const StackId s = pending_[i];
    stacks_[s.index()] = to_.stack(stacks_[from_.parent(s).index()], frame(from_.stack(s).frame));
  }
  return stacks_[id.index()];
}

void copy_samples(const Profile& from, const std::vector<FrameId>& frames, ProfileBuilder& to,
                  ProfileImporter& import) {
  bulk::reserve_stacks(to, from.stack_count());  // at most as many: no copies while growing
  std::vector<StackId> stacks(from.stack_count(), kRootStack);
  for (const StackId s : id_range(StackId{1}, from.stack_count())) {  // parents come first
    const StackNode node = from.stack(s);
    stacks[s.index()] = to.stack(stacks[node.parent.index()], frames[node.frame.index()]);
  }
  for (std::size_t i = 0; i < from.sample_count(); ++i) {
    const Sample& s = from.sample(i);
    to.add_sample(stacks[s.stack.index()], from.values(i), import.labels(s.labels), s.timestamp);
  }
}

}  // namespace fg
