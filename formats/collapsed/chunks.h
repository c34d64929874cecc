// The collapsed reader cuts a large input (a mapped file past fg/parallel.h's
// threshold, a stream past its first chunk) into chunks of whole lines that
// --jobs threads read at once; the profile, its ids, the warnings and the
// first error are those of a one-thread read. This header lets tests choose
// the chunks' size.
#pragma once

#include <cstddef>
#include <functional>

#include "fg/diagnostics.h"
#include "fg/profile.h"
#include "formats/input.h"
#include "formats/options.h"

namespace fg::formats::collapsed {

/// read() with chunks of `chunk_bytes` (cut to the end of a line; 0: the
/// reader's own size), so that tests put chunk boundaries anywhere. A
/// thread that splits chunks ahead calls `before_split` (when set) with the
/// chunk's number (from 0) before it splits it, outside its own handling of
/// a chunk's errors: what it throws is the read's error, as an allocation
/// failing there would be.
Profile read_in_chunks(Input& input, const ReadOptions& options, Diagnostics& diagnostics,
                       std::size_t chunk_bytes, const std::function<void(std::size_t)>& before_split = {});

}  // namespace fg::formats::collapsed
