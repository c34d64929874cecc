// Java Flight Recorder recordings (.jfr) from the JDK (11-21 and later) and
// from async-profiler, read into the profile model as async-profiler's
// converter (jfrconv / converter.jar) shows them.
//
// A recording is a sequence of chunks (chunk.h); each carries its own
// metadata (metadata.h: every class and field, so this reader follows the
// recording's description instead of one producer's layout), constant pools
// (constant_pools.h: threads, classes, methods, symbols, stack traces) and
// events (events.h). The format is specified only by its implementations:
// the JDK's jdk.jfr.internal.consumer (ChunkHeader, MetadataReader,
// ChunkParser) and async-profiler's src/flightRecorder.cpp.
//
// One kind of event is read (JfrOptions::events), with its own value
// columns: samples/count for cpu and wall samples; count and bytes for
// allocations, live objects and malloc; count and nanoseconds for locks.
// A recording without the default kind (cpu and wall samples) that holds
// exactly one other (an alloc-only or lock-only async-profiler recording)
// is read again as that kind, with a note, when it is a file.
// Frames: the recording's frame types become FrameKinds (interpreted, JIT,
// inlined, C1, native, C++, kernel); then, as the converter does, the
// interpreted, JIT, inlined and C1 frames of one method at one place of the
// call tree become one frame whose kind the majority of its weight decides.
// Allocation and lock events get their class as the top frame. Threads are
// labels (thread, thread_id), and root frames with --threads.
//
// Damage: a truncated or unfinished last chunk is a warning (the complete
// chunks are read); any bad size, offset or count is a ParseError naming
// the chunk and the file offset. Sizes are checked against what is left of
// the chunk before anything is allocated. Chunks are read one at a time
// (chunk.h), so memory follows the largest chunk and the distinct stacks,
// not the size of the file.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "fg/diagnostics.h"
#include "fg/profile.h"
#include "formats/format.h"
#include "formats/input.h"
#include "formats/options.h"

namespace fg::formats::jfr {

/// Yes for the "FLR\0" magic followed by a major version 1 or 2.
Sniff sniff(std::string_view head, std::string_view filename);

/// Reads a whole recording (several chunks, possibly gzipped). Throws
/// ParseError for damaged data, UsageError for a bad option value
/// (--state, --time-from/--time-to, --leak without --nativemem). Notes
/// (what was counted, which other events the file holds) go to
/// options.note, warnings to `diagnostics`.
Profile read(Input& input, const ReadOptions& options, Diagnostics& diagnostics);

/// The kind of event `profile` was read as, named by the option that reads
/// it ("samples" for the default events; "cpu", "wall", "alloc", "live",
/// "nativemem", "lock", "nativelock"); "" when it is not of a JFR reading.
std::string event_kind(const Profile& profile);

/// The kinds of event of the recording `profile` was read from, for a page
/// of each (fg-report): `profile`'s own first (event_kind()); then, when
/// `profile` is of the default events, each other kind the recording holds
/// (by its events.* properties), in that order. An explicit choice
/// (--alloc, ...) is thus the only kind. A recording with async-profiler's
/// wall-clock samples (profiler.WallClockSample) beside execution samples
/// has "cpu" and "wall" in place of "samples" (the two are not one
/// quantity); its default reading is then none of its kinds. Empty when
/// `profile` is not of a JFR reading.
std::vector<std::string> event_kinds(const Profile& profile);

/// Sets `options` to read the kind `kind` of event_kinds(). Throws
/// UsageError for a name that is no kind.
void select_event_kind(ReadOptions& options, std::string_view kind);

}  // namespace fg::formats::jfr
