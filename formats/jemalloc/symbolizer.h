// Offline symbolization of (module, file offset) pairs with elfutils'
// libdwfl: function names (demangled), source file and line, and the chain
// of inlined calls from DWARF when the module has it, its symbol table
// otherwise. Each module is opened once and every lookup is cached.
//
// A module recorded at PATH is looked for, in this order: DIR/<base name of
// PATH> for each directory of SymbolizeOptions::symbol_paths (the reader
// adds the dump's own directory after those of --symbol-path), then
// SYSROOT/PATH with --sysroot, else PATH itself. Separate debug files are found by build-id or debuglink
// under each DIR, SYSROOT/usr/lib/debug and /usr/lib/debug.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fg/parallel.h"
#include "formats/options.h"

namespace fg::formats::jemalloc {

/// One function of a symbolized address. An address in inlined code has
/// several: the innermost first, each inlined into the next.
struct SymbolizedFrame {
  std::string name;         ///< demangled, e.g. "build_tree(int)"
  std::string system_name;  ///< the mangled name when it differs, else ""
  std::string file;         ///< source file, "" when unknown
  std::int64_t line = 0;    ///< 0 when unknown
  bool inlined = false;     ///< inlined into the next frame of the chain
};

/// Why a module gives no symbols.
enum class ModuleState { kUnopened, kOpen, kMissing, kUnusable };

class Symbolizer {
 public:
  explicit Symbolizer(SymbolizeOptions options);
  ~Symbolizer();
  Symbolizer(const Symbolizer&) = delete;
  Symbolizer& operator=(const Symbolizer&) = delete;

  /// Opens the module recorded as `path` unless done before, and says how
  /// it went. The first module opened fixes the expected ELF machine; a
  /// later one built for another is kUnusable. Never throws.
  ModuleState open(const std::string& path);
  /// The file opened for `path`, or why not ("not found", "not ELF: ...").
  std::string describe(const std::string& path);

  /// Starts opening the modules of `work` (module path, file offsets in
  /// it), and symbolizing those offsets, on another thread (fg/parallel.h;
  /// with one job, at once on this one): the slow part
  /// of a module is inflating its debug information, which can happen
  /// while the caller parses. Results are the same as without it: every
  /// other call waits for that thread first, and the architecture check of
  /// open() still happens there, in the caller's order. Call at most once,
  /// before any other call.
  void prefetch(std::vector<std::pair<std::string, std::vector<std::uint64_t>>> work);

  /// The frames of `file_offset` in the module recorded as `path`,
  /// innermost first; empty when the module or the address has no symbols.
  /// The reference stays valid for the Symbolizer's lifetime.
  const std::vector<SymbolizedFrame>& symbolize(const std::string& path, std::uint64_t file_offset);

 private:
  struct Module;
  Module& module(const std::string& path);
  void settle();
  void load_module(Module& m);
  void open_module(Module& m);
  static std::vector<SymbolizedFrame> lookup(Module& m, std::uint64_t file_offset);

  SymbolizeOptions options_;
  std::string debuginfo_path_;
  char* debuginfo_path_ptr_ = nullptr;
  int expected_machine_ = -1;
  std::map<std::string, std::unique_ptr<Module>> modules_;
  std::vector<std::pair<Module*, std::vector<std::uint64_t>>> prefetch_jobs_;
  std::function<void()> prefetch_work_;  // loads prefetch_jobs_' modules
  std::optional<Beside> prefetch_;       // while it runs, only it touches the modules
};

/// `name` demangled when it is a mangled C++ name, else unchanged.
std::string demangle(const std::string& name);

}  // namespace fg::formats::jemalloc
