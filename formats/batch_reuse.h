// Page reuse: a re-run of fg-report over unchanged inputs and options
// takes each unchanged profile's page folder from the site it replaces
// instead of reading and drawing it again. Each page folder holds
// fg-report-page.txt: the page's key (a SHA-256 over what its pages depend
// on) and the profile's facts in the part format (formats/batch_part.h).
// The copy is byte for byte what drawing would write, so the site is the
// same bytes as a fresh run's.
#pragma once

#include <string>

#include "formats/batch_report.h"

namespace fg::formats {

/// The page facts file's name in a page folder.
inline constexpr const char* kPageFacts = "fg-report-page.txt";

/// The key of `facts`' page: SHA-256 (hex) over `options_key` (the run's
/// options that affect pages, and fg's version), the profile's path, name
/// and page folder, and the bytes and size of its input and of `baseline`
/// ("" for none). "" when an input is not a regular file (a FIFO, standard
/// input) or cannot be read: such a page is never reused.
std::string page_key(const std::string& options_key, const ProfileFacts& facts, const std::string& baseline);

/// Takes the page of `facts` (whose path, name and page are set) from the
/// site at `old_site` into the site being built at `new_site`, when its
/// page facts file there holds `key`: its files are hard-linked (copied
/// where a link cannot be made) and `facts` becomes the stored facts.
/// Returns whether it did; false leaves `facts` and `new_site` as they
/// were. Throws Error when the folder cannot be made or a file copied.
bool reuse_page(const std::string& old_site, const std::string& new_site, const std::string& key,
                ProfileFacts& facts);

/// Writes the page facts file of `facts` (read and drawn, without error)
/// with `key` into its page folder under `site`.
void save_page_facts(const std::string& site, const std::string& key, const ProfileFacts& facts);

}  // namespace fg::formats
