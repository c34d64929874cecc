#include "fg/java_frames.h"

#include <map>
#include <tuple>

#include "fg/builder.h"
#include "fg/detail/u64_map.h"
#include "fg/import.h"
#include "fg/string_pool.h"

namespace fg {

bool is_java_tier(FrameKind k) {
  return k == FrameKind::kInterpreted || k == FrameKind::kJit || k == FrameKind::kInlined ||
         k == FrameKind::kC1Compiled;
}

namespace {

// Frames equal but for a Java tier share a group id.
std::vector<std::uint32_t> frame_groups(const Profile& p) {
  std::map<std::tuple<FunctionId, std::int64_t, std::uint64_t, StringId, int>, std::uint32_t> ids;
  std::vector<std::uint32_t> group(p.frame_count());
  for (const FrameId f : id_range<FrameId>(p.frame_count())) {
    const Frame& fr = p.frame(f);
    const int kind = is_java_tier(fr.kind) ? -1 : static_cast<int>(fr.kind);
    auto key = std::make_tuple(fr.function, fr.line, fr.address, fr.module, kind);
    group[f.index()] = ids.emplace(key, static_cast<std::uint32_t>(ids.size())).first->second;
  }
  return group;
}

}  // namespace

Profile merge_compilation_kinds(const Profile& p, std::size_t column) {
  const std::vector<std::uint32_t> group = frame_groups(p);
  // Each stack's merged node; node 0 is the root.
  std::vector<std::uint32_t> node(p.stack_count(), 0);
  std::vector<FrameId> node_frame(1, FrameId{});  // a representative original frame
  std::vector<std::uint32_t> node_parent(1, 0);
  U64Map index;  // (parent node, frame group) -> node
  index.reserve(p.stack_count());
  for (const StackId s : id_range(StackId{1}, p.stack_count())) {
    const std::uint32_t parent = node[p.parent(s).index()];
    const std::uint64_t key = std::uint64_t{parent} << 32 | group[p.stack(s).frame.index()];
    const auto next = static_cast<std::uint32_t>(node_frame.size());
    node[s.index()] = index.insert(key, next);
    if (node[s.index()] == next) {
      node_frame.push_back(p.stack(s).frame);
      node_parent.push_back(parent);
    }
  }
  // Weight through each stack (parents have smaller ids: one reverse pass).
  std::vector<std::int64_t> through(p.stack_count(), 0);
  for (std::size_t i = 0; i < p.sample_count(); ++i)
    through[p.sample(i).stack.index()] += p.values(i)[column];
  for (auto s = static_cast<std::uint32_t>(p.stack_count()); s-- > 1;)
    through[p.parent(StackId{s}).index()] += through[s];
  std::vector<TierWeights> w(node_frame.size());
  for (const StackId s : id_range(StackId{1}, p.stack_count()))
    w[node[s.index()]].add(p.frame(p.stack(s).frame).kind, through[s.index()]);
  ProfileBuilder b(p.value_types());
  b.metadata() = p.metadata();
  ProfileImporter import(b, p);
  std::vector<StackId> out(node_frame.size(), kRootStack);
  // Hundreds of thousands of nodes share some thousands of frames: each
  // function, and each frame with its chosen kind, is made once.
  std::vector<FunctionId> functions(p.function_count(), kNoId<FunctionId>);
  U64Map frames;  // original frame << 8 | chosen kind -> frame
  for (std::uint32_t n = 1; n < node_frame.size(); ++n) {
    const Frame& fr = p.frame(node_frame[n]);
    const FrameKind kind = w[n].decide(fr.kind);
    const std::uint64_t key = std::uint64_t{node_frame[n].index()} << 8 | static_cast<std::uint8_t>(kind);
    FrameId frame{frames.find(key)};
    if (frame == kNoId<FrameId>) {
      FunctionId& f = functions[fr.function.index()];
      if (f == kNoId<FunctionId>) {
        const Function& fn = p.function(fr.function);
        f = b.function(p.str(fn.name), p.str(fn.system_name), p.str(fn.filename), fn.start_line);
      }
      frame = b.frame(f, kind, fr.line, fr.address, import.string(fr.module));
      frames.insert(key, frame.index());
    }
    out[n] = b.stack(out[node_parent[n]], frame);
  }
  for (std::size_t i = 0; i < p.sample_count(); ++i) {
    const Sample& s = p.sample(i);
    b.add_sample(out[node[s.stack.index()]], p.values(i), import.labels(s.labels), s.timestamp);
  }
  return std::move(b).finish();
}

}  // namespace fg
