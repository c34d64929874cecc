#include "formats/deepflow/node_name.h"

namespace fg::formats::deepflow {

namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

}  // namespace

NodeName parse_node_name(std::string_view text) {
  NodeName n;
  n.name = text;
  if (text.size() >= 4 && text[0] == '[' && text[2] == ']' && text[3] == ' ') {
    std::string_view rest = text.substr(4);
    switch (text[1]) {
      case 'k':
        n.kind = FrameKind::kKernel, n.name = rest;
        break;
      case 'l':
        n.kind = FrameKind::kLibrary, n.name = rest;
        break;
      case 't':
        n.role = NodeRole::kThread, n.bare = rest;
        return n;
      case 'p':
        n.role = NodeRole::kProcess, n.bare = rest;
        return n;
      default:
        break;
    }
  }
  // Kinds DeepFlow has no prefix for come back from fg's own output with
  // the collapsed-stack suffix ("Foo.bar_[j]").
  if (n.kind == FrameKind::kNative && n.name.size() > 4) {
    if (auto k = frame_kind_from_suffix(n.name.substr(n.name.size() - 4))) {
      n.kind = *k;
      n.name.remove_suffix(4);
    }
  }
  // "[k] [unknown]" is an unresolved kernel frame: the forms are looked for
  // after a kind's prefix.
  std::string_view s = n.name;
  if (starts_with(s, "[/") && s.back() == ']') {
    n.unresolved = true;
    n.module = s.substr(1, s.size() - 2);
  } else if (starts_with(s, "[unknown]") || (starts_with(s, "[unknown ") && s.back() == ']')) {
    n.unresolved = true;
  }
  return n;
}

std::string_view prefix_of(FrameKind kind) {
  switch (kind) {
    case FrameKind::kKernel:
      return "[k] ";
    case FrameKind::kLibrary:
      return "[l] ";
    default:
      return "";
  }
}

void append_written_name(std::string& out, std::string_view name, FrameKind kind) {
  std::string_view prefix = prefix_of(kind);
  out.append(prefix);
  out.append(name);
  if (prefix.empty()) out.append(frame_kind_suffix(kind));
}

}  // namespace fg::formats::deepflow
