// Turns the distinct addresses of a heap dump into frames of a profile:
// through MAPPED_LIBRARIES to (module, file offset), then the symbolizer.
// Also decides which addresses belong to the allocator, so the reader can
// drop them: every address in the jemalloc library's module (recognised by
// its file name, since distributions ship it stripped and its internals
// then take the names of unrelated exported functions), and addresses in
// malloc, calloc, realloc, posix_memalign, aligned_alloc, operator new and
// their kin, by name.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fg/builder.h"
#include "fg/diagnostics.h"
#include "formats/jemalloc/heap_dump.h"
#include "formats/jemalloc/symbolizer.h"
#include "formats/options.h"

namespace fg::formats::jemalloc {

/// The frames of each distinct address of a dump.
class ResolvedAddresses {
 public:
  /// Symbolizes every address of `dump` with `symbolizer` into `builder`. Warns once about
  /// the modules that were not found (naming them), once per module that
  /// could not be used, and about a dump without MAPPED_LIBRARIES; with
  /// --strict those warnings are errors.
  ResolvedAddresses(const HeapDump& dump, const SymbolizeOptions& options, Symbolizer& symbolizer,
                    ProfileBuilder& builder, Diagnostics& diagnostics);

  /// The frames of address `index`, outermost first (the innermost is an
  /// inlined one when there are several).
  std::span<const FrameId> frames(std::uint32_t index) const {
    return {frames_.data() + begin_[index], begin_[index + 1] - begin_[index]};
  }
  /// In the jemalloc library's module.
  bool in_allocator_module(std::uint32_t index) const { return flags_[index] & kAllocatorModule; }
  /// An allocation function (malloc, operator new, ...).
  bool is_allocation_function(std::uint32_t index) const { return flags_[index] & kAllocationFunction; }

 private:
  static constexpr std::uint8_t kAllocatorModule = 1;
  static constexpr std::uint8_t kAllocationFunction = 2;
  std::vector<FrameId> frames_;
  std::vector<std::size_t> begin_;
  std::vector<std::uint8_t> flags_;
};

/// What Symbolizer::prefetch can start on while a dump is parsed: the
/// modules, in maps order, and file offsets of `preview`'s addresses that
/// ResolvedAddresses will symbolize.
std::vector<std::pair<std::string, std::vector<std::uint64_t>>> prefetch_work(
    const DumpPreview& preview, const SymbolizeOptions& options);

/// True for the file name of a jemalloc library ("libjemalloc.so.2").
bool is_allocator_module(std::string_view path);
/// True for the name of an allocation function, with or without its
/// parameter list: "malloc", "operator new(unsigned long)", "je_calloc".
bool is_allocation_function(std::string_view name);

}  // namespace fg::formats::jemalloc
