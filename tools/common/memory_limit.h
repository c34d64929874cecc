// --max-memory and FG_MAX_MEMORY: how much memory a tool may take before it
// refuses its input with a clear error, instead of being killed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fg::cli {

/// A size as --max-memory and FG_MAX_MEMORY take it: a whole number of
/// bytes, or of KiB, MiB, GiB or TiB with a suffix K, M, G or T (an "iB"
/// or "B" may follow; case does not matter). `what` names the source in
/// the UsageError thrown for anything else, zero included.
std::uint64_t parse_memory_size(std::string_view text, const std::string& what);

/// The limit in force: --max-memory's `option` when given, else `env`
/// (FG_MAX_MEMORY's value) when set, else half of the physical memory.
/// Throws UsageError for a bad value.
std::uint64_t memory_limit_from(const std::optional<std::string>& option, const char* env);

/// Puts `bytes` in force for this process: its private writable memory
/// (heap, anonymous mappings, thread stacks; not mapped input files) may
/// not grow past it, so an allocation past it fails with std::bad_alloc.
/// A lower limit already in force stays; under a sanitizer, whose shadow
/// memory would count, nothing is set.
void apply_memory_limit(std::uint64_t bytes);

/// The limit last applied (0 before any), for the out-of-memory message.
std::uint64_t memory_limit();

}  // namespace fg::cli
