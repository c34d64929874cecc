// The reference JFR reader: the recording read as plainly as it can be,
// on one thread, chunk by chunk (reference_reader.cpp reads top to bottom).
// It is built only on the format's decoding (chunk.h, metadata.h,
// constant_pools.h, events.h) and its meaning (semantics.h), and makes the
// profile through ProfileBuilder's plain add_sample(frames, values, labels).
//
// The tools use the fast reader (reader.h). This one is what the fast one
// is held to: tests/jfr_layers compares the two on every checked-in
// recording and option set. It is reached through read_reference(), or
// through read() when the environment has FG_JFR_REFERENCE=1 (for tests
// that run the real binaries, and for a user who suspects the fast reader).
#pragma once

#include "fg/diagnostics.h"
#include "fg/profile.h"
#include "formats/input.h"
#include "formats/options.h"

namespace fg::formats::jfr {

/// What read() returns, read by the reference reader: the same profile,
/// notes and warnings, given the same input and options.
Profile read_reference(Input& input, const ReadOptions& options, Diagnostics& diagnostics);

}  // namespace fg::formats::jfr
