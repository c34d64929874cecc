// Copying parts of one profile into a builder for another: the common step
// of every transform (merge, reverse, filter, diff). Ids are translated once
// and cached, so copying a profile costs one lookup per distinct item.
#pragma once

#include <vector>

#include "fg/builder.h"
#include "fg/profile.h"

namespace fg {

class ProfileImporter {
 public:
  /// Both must outlive the importer.
  ProfileImporter(ProfileBuilder& to, const Profile& from);

  StringId string(StringId id);
  FrameId frame(FrameId id);
  LabelSetId labels(LabelSetId id);
  /// One label of the source, its strings translated (for a transform that
  /// keeps only some labels of a set).
  Label label(Label l);
  /// The same call path in the destination.
  StackId stack(StackId id);

 private:
  ProfileBuilder& to_;
  const Profile& from_;
  std::vector<StringId> strings_;
  std::vector<FrameId> frames_;
  std::vector<LabelSetId> labels_;
  std::vector<StackId> stacks_;   // by source stack, once stack() is first asked
  std::vector<StackId> pending_;  // stack()'s path being copied
};

/// Copies every sample of `from` into `to` with each frame f of its stack
/// replaced by `frames[f]` (a frame of `to`), its labels through `import`,
/// its values and timestamp as they are: the last step of a transform that
/// renames or coarsens frames. Reserves `from`'s stack count in `to`.
void copy_samples(const Profile& from, const std::vector<FrameId>& frames, ProfileBuilder& to,
                  ProfileImporter& import);

}  // namespace fg
