#include "fg/expansion.h"

#include <string>

#include "fg/error.h"

namespace fg {

std::vector<std::uint32_t> stack_depths(const Profile& p) {
  // Parents have smaller ids than children: one forward pass.
  std::vector<std::uint32_t> depth(p.stack_count(), 0);
  for (const StackId s : id_range<StackId>(StackId{1}, p.stack_count()))
    depth[s.index()] = depth[p.parent(s).index()] + 1;
  return depth;
}

void check_expansion(const Profile& p, std::string_view what, std::string_view instead) {
  const std::uint64_t frames = expanded_frames(p);
  const std::uint64_t stacks = p.stack_count();
  if (frames <= kMaxExpandedFrames || frames / kMaxExpansion <= stacks) return;
  const std::vector<std::string>& sources = p.metadata().sources;
  throw Error((sources.size() == 1 ? sources[0] + ": " : std::string()) + std::string(what) +
              " would spell out " + std::to_string(frames) + " frames for " + std::to_string(stacks - 1) +
              " call paths (paths deep and alike, as a long chain makes): " + "refusing past " +
              std::to_string(kMaxExpandedFrames) + " frames and " + std::to_string(kMaxExpansion) +
              " per call path; " + std::string(instead));
}

}  // namespace fg
