// The text of a jemalloc heap profile dump (jemalloc's prof_dump(), read by
// jeprof's ReadThreadedHeapProfile):
//
//   heap_v2/<sample period in bytes>
//     t*: <objects>: <bytes> [<alloc objects>: <alloc bytes>]   whole process
//     t<N>: ...                                                 per thread
//   @ 0x<addr> 0x<addr> ...                 one stack, leaf (innermost) first
//     t*: <objects>: <bytes> [<alloc objects>: <alloc bytes>]
//     t<N>: ...
//   ...
//   MAPPED_LIBRARIES:
//   <the process's /proc/self/maps>
//
// This file only parses: counts stay raw (unsampling and symbolization
// happen in jemalloc.cpp). Caller addresses are adjusted here, as jeprof's
// FixCallerAddresses does: every address but the leaf is a return address,
// so 1 is subtracted to land inside the call instruction.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "fg/diagnostics.h"
#include "formats/input.h"
#include "formats/jemalloc/maps.h"

namespace fg::formats::jemalloc {

/// The four numbers of a `t*:` or `tN:` line, as written (sampled).
struct Counts {
  std::array<std::int64_t, 4> v{};  ///< objects, bytes, alloc objects, alloc bytes
};

/// One `tN:` line of a stack.
struct ThreadCounts {
  std::uint32_t thread = 0;
  Counts counts;
};

/// One `@` stack and its counts.
struct DumpStack {
  std::uint32_t first_address = 0;  ///< into HeapDump::stack_addresses
  std::uint32_t address_count = 0;
  std::uint32_t first_thread = 0;  ///< into HeapDump::threads
  std::uint32_t thread_count = 0;
  Counts total;  ///< the stack's `t*:` line
  bool has_total = false;
};

/// A parsed dump. Memory grows with the distinct addresses and stacks.
struct HeapDump {
  std::int64_t period = 0;                     ///< mean bytes between samples; 0: none
  std::vector<std::uint64_t> addresses;        ///< distinct adjusted addresses
  std::vector<std::uint32_t> stack_addresses;  ///< per stack, leaf first: indices into addresses
  std::vector<DumpStack> stacks;
  std::vector<ThreadCounts> threads;
  MappedLibraries maps;
  bool has_maps = false;  ///< a MAPPED_LIBRARIES: section was present
};

/// Parses a whole dump from `input`: in place when it is a plain regular
/// file (Input::map_whole), then first handing the whole text to
/// `on_mapped` (for work that can start before the parse ends), streaming
/// otherwise. Throws ParseError
/// ("file:line:col: message") for a bad header, an `@` line without
/// addresses or with a bad one, counts that are not numbers, a maps line
/// that does not parse, and a dump cut off mid-line. Lines it does not
/// know are warnings.
HeapDump parse_heap_dump(Input& input, Diagnostics& diagnostics,
                         const std::function<void(std::string_view)>& on_mapped = {});

/// A first look at a whole dump, before it is parsed.
struct DumpPreview {
  MappedLibraries maps;                  ///< its MAPPED_LIBRARIES, finished
  std::vector<std::uint64_t> addresses;  ///< distinct adjusted addresses of its first stacks
};

/// The maps and the addresses of the first `max_stacks` stacks of a dump
/// held whole in memory, read in a few lines instead of all of them. Empty
/// when the maps section is not within the last 8 MiB or one of its lines
/// does not parse; a stack line it cannot read gives no addresses. Never throws
/// for bad text: parse_heap_dump is the one that reports it.
DumpPreview preview_dump(std::string_view whole, std::size_t max_stacks);

}  // namespace fg::formats::jemalloc
