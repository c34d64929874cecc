#include "fg/granularity.h"

#include "fg/builder.h"
#include "fg/import.h"

namespace fg {

namespace {

bool drops(const Frame& f, Granularity g) {
  switch (g) {
    case Granularity::kFunction: return f.line != 0 || f.address != 0 || f.module != 0;
    case Granularity::kLine: return f.address != 0 || f.module != 0;
    case Granularity::kAddress: return false;
  }
  return false;
}

}  // namespace

bool finer_than(const Profile& p, Granularity g) {
  for (FrameId f = 0; f < p.frame_count(); ++f)
    if (drops(p.frame(f), g)) return true;
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
    FunctionId nf = b.function(p.str(fn.name), p.str(fn.system_name), p.str(fn.filename), fn.start_line);
    coarse[f] = g == Granularity::kFunction ? b.frame(nf, fr.kind)
                : g == Granularity::kLine   ? b.frame(nf, fr.kind, fr.line)
                                            : b.frame(nf, fr.kind, fr.line, fr.address, import.string(fr.module));
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
