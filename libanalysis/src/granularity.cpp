#include "fg/granularity.h"

#include "fg/builder.h"
#include "fg/import.h"

namespace fg {

namespace {

// An unsymbolized frame's module is what tells it apart per function
// and per line (pprof names it [module]).
StringId kept_module(const Frame& f, Granularity g) {
  return g == Granularity::kAddress || f.kind == FrameKind::kUnsymbolized ? f.module : StringId{};
}

// Per function, a frame is its function's name (and system name) and kind:
// the source file and start line of the function are dropped with the line,
// as pprof's -functions does, so that one function compiled from two source
// paths (two builds of a program) is one frame, as it is one name in a
// folded line.
bool drops(const Profile& p, const Frame& f, Granularity g) {
  const bool module = f.module != kept_module(f, g);
  switch (g) {
    case Granularity::kFunction: {
      const Function& fn = p.function(f.function);
      return f.line != 0 || f.address != 0 || module || fn.filename != StringId{} || fn.start_line != 0;
    }
    case Granularity::kLine:
      return f.address != 0 || module;
    case Granularity::kAddress:
      return false;
    case Granularity::kFile:
      return true;  // names change to files
  }
  return false;
}

}  // namespace

std::string file_frame_name(const Profile& p, FrameId f) {
  const std::string_view file = p.str(p.function(p.frame(f).function).filename);
  if (!file.empty()) return std::string(file);
  return module_frame_name(p, f);
}

std::string module_frame_name(const Profile& p, FrameId f) {
  const std::string_view module = p.str(p.frame(f).module);
  if (!module.empty()) return "[" + std::string(module.substr(module.find_last_of('/') + 1)) + "]";
  return "<unknown>";
}

bool finer_than(const Profile& p, Granularity g) {
  for (const FrameId f : id_range<FrameId>(p.frame_count()))
    if (drops(p, p.frame(f), g)) return true;
  return false;
}

Profile at_granularity(const Profile& p, Granularity g) {
  ProfileBuilder b(p.value_types());
  b.metadata() = p.metadata();
  ProfileImporter import(b, p);
  // Each frame's coarser twin, made once.
  std::vector<FrameId> coarse(p.frame_count());
  for (const FrameId f : id_range<FrameId>(p.frame_count())) {
    const Frame& fr = p.frame(f);
    const Function& fn = p.function(fr.function);
    if (g == Granularity::kFile) {
      coarse[f.index()] = b.frame(b.function(file_frame_name(p, f)), FrameKind::kNative);
      continue;
    }
    const StringId module = import.string(kept_module(fr, g));
    if (g == Granularity::kFunction) {
      coarse[f.index()] = b.frame(b.function(p.str(fn.name), p.str(fn.system_name)), fr.kind, 0, 0, module);
      continue;
    }
    FunctionId nf = b.function(p.str(fn.name), p.str(fn.system_name), p.str(fn.filename), fn.start_line);
    coarse[f.index()] = g == Granularity::kLine ? b.frame(nf, fr.kind, fr.line, 0, module)
                                                : b.frame(nf, fr.kind, fr.line, fr.address, module);
  }
  copy_samples(p, coarse, b, import);
  return std::move(b).finish();
}

}  // namespace fg
