// Collapsed ("folded") stacks, the format of flamegraph.pl's stackcollapse
// scripts, async-profiler's collapsed output and inferno:
//
//   frame;frame;frame count
//
// one line per stack, root first; the count is the last whitespace-separated
// field, so frame names may contain spaces. As in flamegraph.pl, exactly one
// blank separates the count from the stack: other blanks stay in the last
// frame's name (a frame may be only blanks). A file whose first line has two
// counts (`stack before after`, as difffolded.pl writes) reads into a base
// and a new column. Frame annotations `_[k]` `_[j]` `_[i]` `_[w]` become
// frame kinds. CRLF, blank lines and a missing final newline are accepted;
// any other bad line is a warning with file:line (an error with --strict).
#pragma once

#include <ostream>
#include <string_view>

#include "fg/diagnostics.h"
#include "fg/profile.h"
#include "formats/format.h"
#include "formats/input.h"
#include "formats/options.h"

namespace fg::formats::collapsed {

Sniff sniff(std::string_view head, std::string_view filename);

/// Streams `input` into a profile: memory grows with distinct stacks, not
/// with the input's size. Fractional counts (flamegraph.pl sums them as
/// numbers) are kept exactly, as fixed-point columns (ValueType::decimals:
/// the most digits after the point seen, up to 9; more are rounded with a
/// warning).
Profile read(Input& input, const ReadOptions& options, Diagnostics& diagnostics);

/// Writes one line per stack, sorted bytewise, with `;` in names written as
/// `|` and kind annotations appended; fixed-point values as decimals. The selected column (--value) is
/// written; when it has a base column, both (`stack base new`).
void write(const Profile& profile, const WriteOptions& options, std::ostream& out, Diagnostics& diagnostics);

}  // namespace fg::formats::collapsed
