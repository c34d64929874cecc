#include "fg/granularity.h"

#include "fg/builder.h"
#include "fg/import.h"

namespace fg {

namespace {

// Per function, a frame is its function's name (and system name) and kind:
// the source file and start line of the function are dropped with the line,
// as pprof's -functions does, so that one function compiled from two source
// paths (two builds of a program) is one frame, as it is one name in a
// folded line.
bool drops(const Profile& p, const Frame& f, Granularity g) {
  switch (g) {
    case Granularity::kFunction: {
      const Function& fn = p.function(f.function);
      return f.line != 0 || f.address != 0 || f.module != 0 || fn.filename != 0 || fn.start_line != 0;
    }
    case Granularity::kLine: return f.address != 0 || f.module != 0;
    case Granularity::kAddress: return false;
    case Granularity::kFile: return true;  // names change to files
  }
  return false;
}

}  // namespace

std::string file_frame_name(const Profile& p, FrameId f) {
  const Frame& fr = p.frame(f);
  const std::string_view file = p.str(p.function(fr.function).filename);
  if (!file.empty()) return std::string(file);
  const std::string_view module = p.str(fr.module);
  if (!module.empty()) return "[" + std::string(module.substr(module.find_last_of('/') + 1)) + "]";
  return "<unknown>";
}

bool finer_than(const Profile& p, Granularity g) {
  for (FrameId f = 0; f < p.frame_count(); ++f)
    if (drops(p, p.frame(f), g)) return true;
  return false;
}

Profile at_granularity(const Profile& p, Granularity g) {
  ProfileBuilder b(p.value_types());
  b.metadata() = p.metadata();
  ProfileImporter import(b, p);
  // Each frame's coarser twin, made once.
  std::vector<FrameId> coarse(p.frame_count());
  for (FrameId f = 0; f < p.frame_count(); ++f) {
    const Frame& fr = p.frame(f);
    const Function& fn = p.function(fr.function);
    if (g == Granularity::kFile) {
      coarse[f] = b.frame(b.function(file_frame_name(p, f)), FrameKind::kNative);
      continue;
    }
    if (g == Granularity::kFunction) {
      coarse[f] = b.frame(b.function(p.str(fn.name), p.str(fn.system_name)), fr.kind);
      continue;
    }
    FunctionId nf = b.function(p.str(fn.name), p.str(fn.system_name), p.str(fn.filename), fn.start_line);
    coarse[f] = g == Granularity::kLine ? b.frame(nf, fr.kind, fr.line)
                                        : b.frame(nf, fr.kind, fr.line, fr.address, import.string(fr.module));
  }
  copy_samples(p, coarse, b, import);
  return std::move(b).finish();
}

}  // namespace fg
