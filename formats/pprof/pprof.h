// pprof's profile.proto (Go, gperftools, Rust, Node and most continuous
// profilers), gzipped or plain; see profile.proto beside this file.
//
// Reading: every sample type becomes a value column with its unit;
// default_sample_type, period, period type, time, duration, comments and the
// drop/keep frame patterns go to the metadata; string and numeric labels
// become labels. A location with several lines becomes several frames, the
// inner ones marked inlined. A location without symbols becomes a frame
// of kind kUnsymbolized named `module+0xoffset` (or its address when it has
// no mapping), counted in one warning; it keeps its module at every
// granularity, so that call graphs show it per module as pprof does.
// Negative values make a difference profile (go tool pprof -diff_base):
// read as a base and a new column per sample type (diff_from_deltas()). Malformed protobuf is reported at its
// byte offset; ids that point nowhere and string indices out of range name the sample or entry.
//
// Writing: a gzipped profile.proto of any profile, every value column,
// labels, frames with file and line, inlined frames folded back into one
// location, functions and mappings deduplicated. An unsymbolized frame is
// a location without lines again, in its module's mapping (which knows no
// address range: read back, the frame is named module+0xaddress).
#pragma once

#include <ostream>
#include <string_view>

#include "fg/diagnostics.h"
#include "fg/profile.h"
#include "formats/format.h"
#include "formats/input.h"
#include "formats/options.h"

namespace fg::formats::pprof {

/// Judges the (inflated) head by its protobuf shape: fields of
/// profile.proto with the right wire types.
Sniff sniff(std::string_view head, std::string_view filename);

Profile read(Input& input, const ReadOptions& options, Diagnostics& diagnostics);

void write(const Profile& profile, const WriteOptions& options, std::ostream& out, Diagnostics& diagnostics);

}  // namespace fg::formats::pprof
