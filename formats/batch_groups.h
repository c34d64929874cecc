// The group merges of fg-report: each group's profiles (the manifest's
// `group`) merged as they are read (fg/merge.h), so that a group never
// holds all of its profiles at once. Profiles merge per quantity of their
// default column; the site keeps the merge of the group's first quantity
// and lists the others as warnings (batch_report.cpp).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "fg/profile.h"

namespace fg::formats {

/// One worker's (or one shard's) merges, keyed by group and quantity.
/// Merges happen in the order of add() and absorb() calls: a fixed order
/// of calls gives the same profiles, byte for byte.
class GroupMerges {
 public:
  /// The key of a profile's quantity: "type/unit" of its default column.
  static std::string quantity(const Profile& profile);

  /// Merges `profile` into the merge of `group` of its quantity; `profile`
  /// is left as it was (also when this throws fg::Error, as merge() does).
  void add(const std::string& group, Profile& profile);

  /// Merges each of `other`'s merges after this one's of the same key.
  void absorb(GroupMerges&& other);

  /// The merge of `group` of `quantity`; nullptr when there is none.
  const Profile* find(const std::string& group, const std::string& quantity) const;

  /// Every merge, by (group, quantity).
  const std::map<std::pair<std::string, std::string>, Profile>& merges() const { return merged_; }

  /// Sets the merge of (group, quantity), merging it after one there.
  void add_merge(const std::string& group, const std::string& quantity, Profile merged);

 private:
  std::map<std::pair<std::string, std::string>, Profile> merged_;
};

}  // namespace fg::formats
