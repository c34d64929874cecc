#include "formats/batch_groups.h"

#include <vector>

#include "fg/merge.h"

namespace fg::formats {

std::string GroupMerges::quantity(const Profile& profile) {
  if (profile.value_count() == 0) return "";
  const ValueType& t = profile.value_types()[profile.default_value_index()];
  return t.type + "/" + t.unit;
}

void GroupMerges::add(const std::string& group, Profile& profile) {
  const auto key = std::make_pair(group, quantity(profile));
  const auto it = merged_.find(key);
  std::vector<Profile> inputs;  // merge() takes them side by side: moved in, and back out
  if (it != merged_.end()) inputs.push_back(std::move(it->second));
  inputs.push_back(std::move(profile));
  std::optional<Profile> merged;
  try {
    merged = merge(inputs);
  } catch (...) {
    profile = std::move(inputs.back());
    if (it != merged_.end()) it->second = std::move(inputs.front());
    throw;
  }
  profile = std::move(inputs.back());
  if (it != merged_.end())
    it->second = std::move(*merged);
  else
    merged_.emplace(key, std::move(*merged));
}

void GroupMerges::add_merge(const std::string& group, const std::string& quantity, Profile merged) {
  const auto key = std::make_pair(group, quantity);
  const auto it = merged_.find(key);
  if (it == merged_.end()) {
    merged_.emplace(key, std::move(merged));
    return;
  }
  std::vector<Profile> inputs;
  inputs.push_back(std::move(it->second));
  inputs.push_back(std::move(merged));
  it->second = merge(inputs);
}

void GroupMerges::absorb(GroupMerges&& other) {
  for (auto& [key, profile] : other.merged_) add_merge(key.first, key.second, std::move(profile));
  other.merged_.clear();
}

const Profile* GroupMerges::find(const std::string& group, const std::string& quantity) const {
  const auto it = merged_.find(std::make_pair(group, quantity));
  return it == merged_.end() ? nullptr : &it->second;
}

}  // namespace fg::formats
