// jemalloc heap profiles: the text dumps that jemalloc writes with
// prof:true (prof.dump, prof_final, prof_gdump), read as jeprof reads them,
// and symbolized offline in-process (no addr2line, no nm).
//
// The dump format is described in heap_dump.h. The profile has four value
// columns, inuse_objects (count), inuse_space (bytes), alloc_objects (count)
// and alloc_space (bytes), inuse_space the default as in jeprof. Counts are
// unsampled as jeprof does for heap_v2 dumps: each (objects, bytes) pair of
// a line is multiplied by 1 / (1 - exp(-(bytes / objects) / period)), and
// rounded to whole numbers with the error carried from stack to stack, so
// each total stays within 1/2 of the exact one and each stack within 1.
// The `tN:` lines become samples labelled thread=tN whose values add up to
// the stack's `t*:` line (unsampled as a
// whole, so totals match jeprof's; the rounded remainder goes to the
// threads by largest fraction). Addresses are symbolized through the
// dump's MAPPED_LIBRARIES (see symbolizer.h); allocator frames at the leaf
// are dropped unless --keep-allocator-frames (see resolver.h).
#pragma once

#include <array>
#include <string_view>

#include "fg/diagnostics.h"
#include "fg/profile.h"
#include "formats/format.h"
#include "formats/input.h"
#include "formats/jemalloc/heap_dump.h"
#include "formats/options.h"

namespace fg::formats::jemalloc {

/// Yes for a head starting with "heap_v2/", no otherwise.
Sniff sniff(std::string_view head, std::string_view filename);

/// Reads and symbolizes a heap dump. Modules are looked for under each
/// --symbol-path, then in the dump's own directory (by base name), then
/// under --sysroot or at their recorded paths. Throws ParseError for malformed text
/// (see parse_heap_dump); missing or unusable modules are warnings (errors
/// with --strict).
Profile read(Input& input, const ReadOptions& options, Diagnostics& diagnostics);

/// jeprof's unsampling of one line's counts for a sample period in bytes:
/// each (objects, bytes) pair times 1 / (1 - exp(-(bytes / objects) /
/// period)); unchanged when period or objects or bytes is 0.
std::array<double, 4> unsample(const Counts& counts, std::int64_t period);

}  // namespace fg::formats::jemalloc
