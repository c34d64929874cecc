// A shard's part of fg-report's site: its profiles' folders and a facts
// file, fg-report-part.txt, from which `fg-report merge` builds the site
// an unsharded run would have written, byte for byte. The facts file is
// line-based text of our own: "key value" per line, values with \\, \n,
// \t and \r escaped, one block per profile; it is read back only by the
// merge of the same version of fg.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "fg/profile.h"
#include "formats/batch_report.h"

namespace fg::formats {

/// The facts file's name in a part folder.
inline constexpr const char* kPartFacts = "fg-report-part.txt";

/// A group's merge of a shard's profiles (GroupMerges), as a file of the
/// part (profile_part_text()).
struct PartMerge {
  std::string group, quantity;
  std::string file;  ///< relative to the part's folder
};

/// One part's facts: which shards of how many it covers (one shard's run,
/// or `fg-report merge --part` of adjacent parts: shards shard..last_shard),
/// the batch's input count, and its profiles with their index in the batch.
struct PartFacts {
  std::size_t shard = 1, shards = 1;
  std::size_t inputs = 0;
  std::vector<std::size_t> indices;  ///< of each profile, in the whole batch
  std::vector<ProfileFacts> profiles;
  std::vector<PartMerge> merges;  ///< in the order GroupMerges::merges() gives
  std::size_t last_shard = 0;     ///< the last shard covered; 0: `shard` alone
};

/// The facts file's text.
std::string part_text(const PartFacts& part);

/// Parses the facts file `text` read from `file`. Throws ParseError at
/// the line of anything it does not expect.
PartFacts parse_part(const std::string& file, const std::string& text);

/// A profile as text a part carries (a shard's group merges): every value
/// type, the metadata, functions, frames (kinds, lines, addresses,
/// modules), stacks, label sets and samples (values, timestamps), so that
/// parse_profile_part() gives back the same profile (not the recorded call
/// graph, which no merge keeps).
std::string profile_part_text(const Profile& profile);

/// The profile of profile_part_text() read from `file`. Throws ParseError
/// at the line of anything it does not expect.
Profile parse_profile_part(const std::string& file, const std::string& text);

}  // namespace fg::formats
