#include "formats/jemalloc/resolver.h"

#include <cstdio>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "formats/jemalloc/symbolizer.h"

namespace fg::formats::jemalloc {

namespace {

std::string hex_name(std::string_view prefix, std::uint64_t value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(value));
  return std::string(prefix) + buf;
}

// Opens, in the order of MAPPED_LIBRARIES (the executable first, which
// fixes the expected architecture), every module an address points into,
// and warns about the ones that give no symbols.
void open_modules(const HeapDump& dump, const std::vector<std::optional<Location>>& where,
                  const SymbolizeOptions& options, Symbolizer& symbolizer, Diagnostics& diag) {
  std::unordered_set<const Mapping*> used;
  for (const auto& w : where)
    if (w) used.insert(w->mapping);
  std::unordered_set<std::string> seen;
  std::vector<std::string> missing;
  for (const Mapping& m : dump.maps.mappings()) {
    if (!used.count(&m) || !seen.insert(m.path).second) continue;
    // Frames of the allocator's module are dropped unsymbolized.
    if (!options.keep_allocator_frames && is_allocator_module(m.path)) continue;
    ModuleState state = symbolizer.open(m.path);
    if (state == ModuleState::kMissing) missing.push_back(m.path);
    if (state == ModuleState::kUnusable)
      diag.warn("unusable module", "cannot use " + symbolizer.describe(m.path) + " for " + m.path +
                                       " (without it, its frames are module+0xoffset)");
  }
  if (missing.empty()) return;
  std::string list;
  for (const std::string& p : missing) list += (list.empty() ? "" : ", ") + p;
  diag.warn("missing module", "cannot find " + std::to_string(missing.size()) +
                                  (missing.size() == 1 ? " module" : " modules") + " of the dump: " + list +
                                  "; name their directory with --symbol-path DIR, or use --sysroot DIR "
                                  "(without them, their frames are module+0xoffset)");
}

}  // namespace

ResolvedAddresses::ResolvedAddresses(const HeapDump& dump, const SymbolizeOptions& options,
                                     Symbolizer& symbolizer, ProfileBuilder& builder, Diagnostics& diag) {
  const std::size_t n = dump.addresses.size();
  if (!dump.has_maps && n > 0)
    diag.warn("no maps", "the dump has no MAPPED_LIBRARIES section: frames shown as bare addresses");
  std::vector<std::optional<Location>> where(n);
  for (std::size_t i = 0; i < n; ++i) where[i] = dump.maps.find(dump.addresses[i]);
  open_modules(dump, where, options, symbolizer, diag);

  begin_.reserve(n + 1);
  flags_.assign(n, 0);
  begin_.push_back(0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t address = dump.addresses[i];
    if (!where[i]) {
      frames_.push_back(
          builder.frame(builder.function(hex_name("", address)), FrameKind::kNative, 0, address));
      begin_.push_back(frames_.size());
      continue;
    }
    const Mapping& m = *where[i]->mapping;
    const StringId module = builder.intern(m.path);
    const bool allocator_module = is_allocator_module(m.path);
    if (allocator_module) flags_[i] |= kAllocatorModule;
    const std::vector<SymbolizedFrame>* symbols = nullptr;
    if (!allocator_module || options.keep_allocator_frames)
      symbols = &symbolizer.symbolize(m.path, where[i]->file_offset);
    if (!symbols || symbols->empty()) {
      FunctionId f = builder.function(hex_name(std::string(base_name(m.path)) + "+", where[i]->file_offset));
      frames_.push_back(builder.frame(f, FrameKind::kNative, 0, address, module));
    } else {
      if (jemalloc::is_allocation_function(symbols->back().name)) flags_[i] |= kAllocationFunction;
      for (auto it = symbols->rbegin(); it != symbols->rend(); ++it) {
        FunctionId f = builder.function(std::string_view(it->name), it->system_name, it->file);
        frames_.push_back(builder.frame(f, it->inlined ? FrameKind::kInlined : FrameKind::kNative, it->line,
                                        address, module));
      }
    }
    begin_.push_back(frames_.size());
  }
}

std::vector<std::pair<std::string, std::vector<std::uint64_t>>> prefetch_work(
    const DumpPreview& preview, const SymbolizeOptions& options) {
  std::unordered_map<const Mapping*, std::vector<std::uint64_t>> offsets;
  for (std::uint64_t a : preview.addresses)
    if (auto w = preview.maps.find(a)) offsets[w->mapping].push_back(w->file_offset);
  std::vector<std::pair<std::string, std::vector<std::uint64_t>>> work;
  std::unordered_map<std::string_view, std::size_t> slot;  // path -> index in work
  for (const Mapping& m : preview.maps.mappings()) {
    auto it = offsets.find(&m);
    if (it == offsets.end() || (!options.keep_allocator_frames && is_allocator_module(m.path))) continue;
    auto [s, fresh] = slot.try_emplace(m.path, work.size());
    if (fresh) work.emplace_back(m.path, std::vector<std::uint64_t>());
    auto& list = work[s->second].second;
    list.insert(list.end(), it->second.begin(), it->second.end());
  }
  return work;
}

bool is_allocator_module(std::string_view path) { return base_name(path).starts_with("libjemalloc"); }

bool is_allocation_function(std::string_view name) {
  static const std::unordered_set<std::string_view> kNames = {
      "malloc",        "calloc",         "realloc",         "reallocarray",   "free",
      "cfree",         "posix_memalign", "aligned_alloc",   "memalign",       "valloc",
      "pvalloc",       "mallocx",        "rallocx",         "xallocx",        "nallocx",
      "sdallocx",      "dallocx",        "operator new",    "operator new[]", "__libc_malloc",
      "__libc_calloc", "__libc_realloc", "__libc_memalign", "__builtin_new",  "__builtin_vec_new",
      "tc_malloc",     "tc_calloc",      "tc_realloc",      "tc_new",         "tc_newarray"};
  std::size_t paren = name.find('(');
  if (paren != std::string_view::npos) name = name.substr(0, paren);
  if (name.starts_with("je_")) name.remove_prefix(3);  // jemalloc built with a prefix
  return kNames.count(name) > 0;
}

}  // namespace fg::formats::jemalloc
