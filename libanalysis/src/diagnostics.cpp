#include "fg/diagnostics.h"

namespace fg {

Diagnostics::Diagnostics(bool strict, Sink sink, std::size_t max_printed_per_kind)
    : strict_(strict), sink_(std::move(sink)), max_printed_(max_printed_per_kind) {}

void Diagnostics::warn(const SourcePosition& where, const std::string& kind, const std::string& message) {
  if (strict_) throw ParseError(where, message);
  ++total_;
  Kind& k = kinds_[kind];
  if (k.count++ == 0) k.first_where = where.to_string();
  if (sink_ && k.count <= max_printed_) sink_(where.to_string() + ": " + message);
}

void Diagnostics::warn(const std::string& kind, const std::string& message) {
  if (strict_) throw Error(message);
  ++total_;
  Kind& k = kinds_[kind];
  ++k.count;
  if (sink_ && k.count <= max_printed_) sink_(message);
}

std::uint64_t Diagnostics::count(const std::string& kind) const {
  auto it = kinds_.find(kind);
  return it == kinds_.end() ? 0 : it->second.count;
}

std::vector<std::string> Diagnostics::summary() const {
  std::vector<std::string> out;
  for (const auto& [name, k] : kinds_) {
    if (k.count <= max_printed_) continue;
    std::string line = std::to_string(k.count) + " warnings of kind '" + name + "'";
    if (!k.first_where.empty()) line += " (first at " + k.first_where + ")";
    line += ", " + std::to_string(k.count - max_printed_) + " not shown";
    out.push_back(std::move(line));
  }
  return out;
}

}  // namespace fg
