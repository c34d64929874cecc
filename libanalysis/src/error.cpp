#include "fg/error.h"

#include <cstdio>

namespace fg {

SourcePosition SourcePosition::text(std::string file, std::uint64_t line, std::uint64_t column) {
  SourcePosition p;
  p.file = std::move(file);
  p.line = line;
  p.column = column;
  return p;
}

SourcePosition SourcePosition::binary(std::string file, std::uint64_t offset) {
  SourcePosition p;
  p.file = std::move(file);
  p.offset = offset;
  return p;
}

std::string SourcePosition::to_string() const {
  std::string out = file.empty() ? "<input>" : file;
  if (line > 0) {
    out += ':' + std::to_string(line);
    if (column > 0) out += ':' + std::to_string(column);
  } else {
    char buf[32];
    std::snprintf(buf, sizeof buf, ": offset 0x%llx", static_cast<unsigned long long>(offset));
    out += buf;
  }
  return out;
}

ParseError::ParseError(SourcePosition position, const std::string& message)
    : Error(position.to_string() + ": " + message), position_(std::move(position)), message_(message) {}

}  // namespace fg
