#include "fg/granularity.h"

#include "fg/builder.h"
#include "fg/import.h"

namespace fg {

namespace {

// An unsymbolized frame's module is what tells it apart per function.
StringId kept_module(const Frame& f, Granularity g) {
  return g == Granularity::kAddress || f.kind == FrameKind::kUnsymbolized ? f.module : 0;
}

bool drops(const Frame& f, Granularity g) {
  const bool module = f.module != kept_module(f, g);
  switch (g) {
    case Granularity::kFunction: return f.line != 0 || f.address != 0 || module;
    case Granularity::kLine: return f.address != 0 || module;
    case Granularity::kAddress: return false;
    case Granularity::kFile: return true;  // names change to files
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
  for (FrameId f = 0; f < p.frame_count(); ++f)
    if (drops(p.frame(f), g)) return true;
  return false;
}

Profile at_granularity(const Profile& p, Granularity g) {
  ProfileBuilder b(p.value_types());
  b.metadata() = p.metadata();
  b.reserve_stacks(p.stack_count());  // at most as many: no copies while growing
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
    FunctionId nf = b.function(p.str(fn.name), p.str(fn.system_name), p.str(fn.filename), fn.start_line);
    const StringId module = import.string(kept_module(fr, g));
    coarse[f] = g == Granularity::kFunction ? b.frame(nf, fr.kind, 0, 0, module)
                : g == Granularity::kLine   ? b.frame(nf, fr.kind, fr.line, 0, module)
                                            : b.frame(nf, fr.kind, fr.line, fr.address, module);
  }
  std::vector<StackId> stacks(p.stack_count(), kRootStack);
  for (StackId s = 1; s < p.stack_count(); ++s)  // parents come first
    stacks[s] = b.stack(stacks[p.stack(s).parent], coarse[p.stack(s).frame]);
  for (std::size_t i = 0; i < p.sample_count(); ++i) {
    const Sample& s = p.sample(i);
    b.add_sample(stacks[s.stack], p.values(i), import.labels(s.labels), s.timestamp);
  }
  return std::move(b).finish();
}

}  // namespace fg
