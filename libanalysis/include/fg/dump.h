// The canonical text dump of a Profile (`--to dump`): every value column,
// the metadata, and every sample with its labels and full stack, in an
// order that depends only on the content (not on reading order). It is the
// golden file for every reader.
#pragma once

#include <ostream>
#include <string>

#include "fg/profile.h"

namespace fg {

/// Writes the dump. Names are written with '\\', ';' and control characters
/// escaped (`\\`, `\;`, `\n`, `\xNN`).
void dump_profile(const Profile& profile, std::ostream& out);

/// One frame as the dump writes it: `name [kind] (file:line) @0xaddr <module>`,
/// each part only when known.
std::string dump_frame(const Profile& profile, FrameId frame);

}  // namespace fg
