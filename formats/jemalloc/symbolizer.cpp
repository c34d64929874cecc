#include "formats/jemalloc/symbolizer.h"

#include <cxxabi.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <unordered_map>

#include "formats/jemalloc/maps.h"

namespace fg::formats::jemalloc {

struct Symbolizer::Module {
  std::string recorded;
  std::string found;  // the file opened
  ModuleState state = ModuleState::kUnopened;
  bool loaded = false;         // load_module() ran; open_module() has the architecture check left
  std::string reason;          // for kMissing and kUnusable
  Dwfl_Callbacks callbacks{};  // dwfl keeps a pointer to it
  Dwfl* dwfl = nullptr;
  Dwfl_Module* mod = nullptr;
  Dwarf_Addr bias = 0;
  std::vector<GElf_Phdr> loads;
  std::unordered_map<std::uint64_t, std::vector<SymbolizedFrame>> cache;

  ~Module() { reset(); }
  // Back to never opened.
  void reset() {
    if (dwfl) dwfl_end(dwfl);
    dwfl = nullptr;
    mod = nullptr;
    found.clear();
    reason.clear();
    state = ModuleState::kUnopened;
    loaded = false;
    loads.clear();
    cache.clear();
  }
};

namespace {

const std::vector<SymbolizedFrame> kNoFrames;

bool is_regular_file(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string join_path(const std::string& dir, std::string_view rest) {
  if (dir.empty()) return std::string(rest);
  std::string out = dir;
  if (out.back() != '/' && (rest.empty() || rest.front() != '/')) out += '/';
  out += rest;
  return out;
}

std::string absolute(const std::string& path) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(path, ec);
  return ec ? path : p.string();
}

const char* string_attr(Dwarf_Die* die, unsigned name) {
  Dwarf_Attribute attr;
  if (!dwarf_attr_integrate(die, name, &attr)) return nullptr;
  return dwarf_formstring(&attr);
}

// The name of a subprogram or inlined subroutine: its linkage name
// demangled (with parameter types, as addr2line -C shows), else its name.
std::pair<std::string, std::string> die_name(Dwarf_Die* die) {
  const char* linkage = string_attr(die, DW_AT_linkage_name);
  if (!linkage) linkage = string_attr(die, DW_AT_MIPS_linkage_name);
  if (linkage) {
    std::string plain = demangle(linkage);
    return {plain, plain == linkage ? std::string() : std::string(linkage)};
  }
  const char* name = string_attr(die, DW_AT_name);
  return {name ? name : "??", {}};
}

std::uint64_t udata_attr(Dwarf_Die* die, unsigned name) {
  Dwarf_Attribute attr;
  Dwarf_Word v = 0;
  if (!dwarf_attr(die, name, &attr) || dwarf_formudata(&attr, &v) != 0) return 0;
  return v;
}

// The call site of an inlined subroutine: file (from the CU's file table)
// and line.
void call_site(Dwarf_Die* cu, Dwarf_Die* inlined, std::string& file, std::int64_t& line) {
  line = static_cast<std::int64_t>(udata_attr(inlined, DW_AT_call_line));
  file.clear();
  Dwarf_Files* files = nullptr;
  std::size_t count = 0;
  std::uint64_t index = udata_attr(inlined, DW_AT_call_file);
  if (dwarf_getsrcfiles(cu, &files, &count) == 0 && index < count)
    if (const char* f = dwarf_filesrc(files, index, nullptr, nullptr)) file = f;
}

// The symbol-table name of `addr`, demangled; "" when there is none.
std::pair<std::string, std::string> symbol_name(Dwfl_Module* mod, Dwarf_Addr addr) {
  GElf_Off offset = 0;
  GElf_Sym sym;
  const char* name = dwfl_module_addrinfo(mod, addr, &offset, &sym, nullptr, nullptr, nullptr);
  if (!name || !*name) return {};
  std::string plain = demangle(name);
  return {plain, plain == name ? std::string() : std::string(name)};
}

// Frames from DWARF: the scopes around `addr` from the innermost out; each
// inlined subroutine names the line its caller called it from.
std::vector<SymbolizedFrame> dwarf_frames(Dwfl_Module* mod, Dwarf_Addr addr) {
  std::vector<SymbolizedFrame> out;
  Dwarf_Addr bias = 0;
  Dwarf_Die* cu = dwfl_module_addrdie(mod, addr, &bias);
  if (!cu) return out;
  std::string file;
  std::int64_t line = 0;
  if (Dwfl_Line* l = dwfl_module_getsrc(mod, addr)) {
    int lineno = 0;
    if (const char* f = dwfl_lineinfo(l, nullptr, &lineno, nullptr, nullptr, nullptr)) file = f;
    line = lineno;
  }
  // dwarf_getscopes follows an inlined subroutine to its abstract origin;
  // the physical nesting (each inlined call inside its caller) comes from
  // dwarf_getscopes_die on the innermost scope, as eu-addr2line -i does.
  Dwarf_Die* scopes = nullptr;
  int n = dwarf_getscopes(cu, addr - bias, &scopes);
  if (n > 0) {
    Dwarf_Die innermost = scopes[0];
    std::free(scopes);
    scopes = nullptr;
    n = dwarf_getscopes_die(&innermost, &scopes);
  }
  for (int i = 0; i < n; ++i) {
    Dwarf_Die* scope = &scopes[i];
    int tag = dwarf_tag(scope);
    if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram) continue;
    SymbolizedFrame f;
    std::tie(f.name, f.system_name) = die_name(scope);
    f.file = file;
    f.line = line;
    f.inlined = tag == DW_TAG_inlined_subroutine;
    out.push_back(std::move(f));
    if (tag == DW_TAG_subprogram) break;
    call_site(cu, scope, file, line);
  }
  std::free(scopes);
  if (!out.empty() && out.back().inlined) out.back().inlined = false;  // no enclosing subprogram found
  return out;
}

}  // namespace

std::string demangle(const std::string& name) {
  if (name.size() < 2 || name[0] != '_' || name[1] != 'Z') return name;
  int status = 0;
  char* plain = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  if (status != 0 || !plain) return name;
  std::string out(plain);
  std::free(plain);
  return out;
}

Symbolizer::Symbolizer(SymbolizeOptions options) : options_(std::move(options)) {
  // '-': no CRC checks of debuglink targets (build-ids are checked instead).
  // libdwfl looks for DIR/.build-id/ only under absolute directories.
  debuginfo_path_ = "-:.debug:/usr/lib/debug";
  if (!options_.sysroot.empty())
    debuginfo_path_ += ":" + absolute(join_path(options_.sysroot, "/usr/lib/debug"));
  for (const std::string& dir : options_.symbol_paths) debuginfo_path_ += ":" + absolute(dir);
  debuginfo_path_ptr_ = debuginfo_path_.data();
}

Symbolizer::~Symbolizer() { settle(); }

void Symbolizer::prefetch(std::vector<std::pair<std::string, std::vector<std::uint64_t>>> work) {
  settle();
  std::vector<std::pair<Module*, std::vector<std::uint64_t>>> jobs;
  for (auto& [path, offsets] : work) {
    Module& m = module(path);
    if (m.state == ModuleState::kUnopened && !m.loaded) jobs.emplace_back(&m, std::move(offsets));
  }
  if (jobs.empty()) return;
  prefetch_jobs_ = std::move(jobs);
  prefetch_work_ = [this] {
    for (const auto& [m, offsets] : prefetch_jobs_) {
      try {
        load_module(*m);
        if (m->state != ModuleState::kUnopened) continue;  // missing or unusable: open_module says so
        for (std::uint64_t offset : offsets)
          if (!m->cache.count(offset)) m->cache.emplace(offset, lookup(*m, offset));
      } catch (...) {
        // Out of memory, most likely: the caller's own thread does it all
        // again and meets the error where it can report it.
        m->reset();
        return;
      }
    }
  };
  prefetch_.emplace(Work{.files = prefetch_jobs_.size()}, prefetch_work_);
}

void Symbolizer::settle() {
  if (prefetch_) prefetch_->join();  // the work catches its errors
}

Symbolizer::Module& Symbolizer::module(const std::string& path) {
  auto& slot = modules_[path];
  if (!slot) {
    slot = std::make_unique<Module>();
    slot->recorded = path;
  }
  return *slot;
}

ModuleState Symbolizer::open(const std::string& path) {
  settle();
  Module& m = module(path);
  if (m.state == ModuleState::kUnopened) open_module(m);
  return m.state;
}

std::string Symbolizer::describe(const std::string& path) {
  settle();
  auto it = modules_.find(path);
  if (it == modules_.end()) return "not opened";
  return it->second->state == ModuleState::kOpen ? it->second->found : it->second->reason;
}

// Everything of opening but the architecture check, which depends on the
// order modules are opened in: touches nothing but `m`, so it can run on
// the prefetch thread. Leaves m.state kUnopened when the module is usable.
void Symbolizer::load_module(Module& m) {
  m.loaded = true;
  std::vector<std::string> candidates;
  for (const std::string& dir : options_.symbol_paths)
    candidates.push_back(join_path(dir, base_name(m.recorded)));
  candidates.push_back(options_.sysroot.empty() ? m.recorded : join_path(options_.sysroot, m.recorded));
  for (const std::string& c : candidates)
    if (is_regular_file(c)) {
      m.found = c;
      break;
    }
  if (m.found.empty()) {
    m.state = ModuleState::kMissing;
    m.reason = "not found";
    return;
  }
  m.callbacks.find_elf = dwfl_build_id_find_elf;
  m.callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
  m.callbacks.section_address = dwfl_offline_section_address;
  m.callbacks.debuginfo_path = &debuginfo_path_ptr_;
  m.dwfl = dwfl_begin(&m.callbacks);
  if (m.dwfl) dwfl_report_begin(m.dwfl);
  const std::string name(base_name(m.recorded));
  m.mod = m.dwfl ? dwfl_report_elf(m.dwfl, name.c_str(), m.found.c_str(), -1, 0, false) : nullptr;
  if (m.dwfl) dwfl_report_end(m.dwfl, nullptr, nullptr);
  Elf* elf = m.mod ? dwfl_module_getelf(m.mod, &m.bias) : nullptr;
  GElf_Ehdr ehdr;
  if (!elf || !gelf_getehdr(elf, &ehdr)) {
    m.state = ModuleState::kUnusable;
    m.reason = m.found + ": " + (dwfl_errmsg(-1) ? dwfl_errmsg(-1) : "not an ELF file");
    return;
  }
  std::size_t count = 0;
  if (elf_getphdrnum(elf, &count) == 0)
    for (std::size_t i = 0; i < count; ++i) {
      GElf_Phdr ph;
      if (gelf_getphdr(elf, static_cast<int>(i), &ph) && ph.p_type == PT_LOAD) m.loads.push_back(ph);
    }
}

void Symbolizer::open_module(Module& m) {
  if (!m.loaded) load_module(m);
  if (m.state != ModuleState::kUnopened) return;
  GElf_Ehdr ehdr;
  gelf_getehdr(dwfl_module_getelf(m.mod, &m.bias), &ehdr);  // load_module read it before
  if (expected_machine_ < 0) expected_machine_ = ehdr.e_machine;
  if (ehdr.e_machine != expected_machine_) {
    m.state = ModuleState::kUnusable;
    m.reason = m.found + ": built for another architecture (ELF machine " + std::to_string(ehdr.e_machine) +
               ", expected " + std::to_string(expected_machine_) + ")";
    m.cache.clear();  // looked up ahead, never to be used
    return;
  }
  m.state = ModuleState::kOpen;
}

const std::vector<SymbolizedFrame>& Symbolizer::symbolize(const std::string& path,
                                                          std::uint64_t file_offset) {
  settle();
  Module& m = module(path);
  if (m.state == ModuleState::kUnopened) open_module(m);
  if (m.state != ModuleState::kOpen) return kNoFrames;
  auto it = m.cache.find(file_offset);
  if (it == m.cache.end()) it = m.cache.emplace(file_offset, lookup(m, file_offset)).first;
  return it->second;
}

std::vector<SymbolizedFrame> Symbolizer::lookup(Module& m, std::uint64_t file_offset) {
  const GElf_Phdr* seg = nullptr;
  for (const GElf_Phdr& ph : m.loads)
    if (file_offset >= ph.p_offset && file_offset - ph.p_offset < ph.p_filesz) {
      seg = &ph;
      break;
    }
  if (!seg) return {};
  Dwarf_Addr addr = file_offset - seg->p_offset + seg->p_vaddr + m.bias;
  std::vector<SymbolizedFrame> frames = dwarf_frames(m.mod, addr);
  auto [sym, sym_mangled] = symbol_name(m.mod, addr);
  if (frames.empty()) {
    if (sym.empty()) return {};
    frames.push_back({sym, sym_mangled, {}, 0, false});
  } else if (!sym.empty() && sym != frames.back().name && sym.starts_with(frames.back().name)) {
    // As jeprof: the symbol table tells clones apart ("f() [clone .cold]").
    frames.back().name = sym;
    frames.back().system_name = sym_mangled;
  }
  return frames;
}

}  // namespace fg::formats::jemalloc
