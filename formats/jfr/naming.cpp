#include "formats/jfr/naming.h"

#include <algorithm>

namespace fg::formats::jfr {

namespace {
bool is_digit(char c) { return c >= '0' && c <= '9'; }
}  // namespace

std::string java_class_name(std::string_view s, std::size_t start, bool dotted,
                            const NamingOptions& options) {
  std::size_t end = s.size();
  if (start > 0 && start < s.size()) {
    switch (s[start]) {
      case 'B':
        return "byte";
      case 'C':
        return "char";
      case 'S':
        return "short";
      case 'I':
        return "int";
      case 'J':
        return "long";
      case 'Z':
        return "boolean";
      case 'F':
        return "float";
      case 'D':
        return "double";
      case 'L':
        ++start;
        if (end > start) --end;
        break;
      default:
        break;
    }
  }
  start = std::min(start, end);
  if (options.norm && end >= 2) {
    // The last '/' or '.': when a digit follows, it starts a hidden-class
    // suffix (a-p: Foo$$Lambda$3.0x7f..; JDK: Foo$$Lambda+0x7f...../1234).
    for (std::size_t i = end - 2; i > start; --i) {
      if (s[i] != '/' && s[i] != '.') continue;
      if (is_digit(s[i + 1])) {
        end = i;
        if (i > start + 19 && s[i - 19] == '+' && s[i - 18] == '0') end = i - 19;
      }
      break;
    }
  }
  if (options.simple && end >= 2) {
    for (std::size_t i = end - 2; i + 1 > start; --i) {
      if (s[i] == '/' && !is_digit(s[i + 1])) {
        start = i + 1;
        break;
      }
      if (i == 0) break;
    }
  }
  std::string out(s.substr(start, end - start));
  if (dotted) std::replace(out.begin(), out.end(), '/', '.');
  return out;
}

std::string allocated_class_name(std::string_view symbol, const NamingOptions& options) {
  std::size_t depth = 0;
  while (depth < symbol.size() && symbol[depth] == '[') ++depth;
  std::string name = java_class_name(symbol, depth, true, options);
  for (std::size_t i = 0; i < depth; ++i) name += "[]";
  return name;
}

std::string method_frame_name(std::string_view class_symbol, std::string_view method, bool native_code,
                              const NamingOptions& options) {
  if (class_symbol.empty() || native_code) return std::string(method);
  std::string name = java_class_name(class_symbol, 0, options.dot, options);
  if (method.empty()) return name;
  name += '.';
  name += method;
  return name;
}

void append_location(std::string& name, std::int32_t line, std::int32_t bci, const NamingOptions& options) {
  const std::uint32_t l = static_cast<std::uint32_t>(line) & 0xFFFF;
  const std::uint32_t b = static_cast<std::uint32_t>(bci) & 0xFFFF;
  if (options.lines && l != 0)
    name += ':' + std::to_string(l);
  else if (options.bci && b != 0)
    name += '@' + std::to_string(b);
}

std::string thread_frame_name(const std::string* name, std::uint64_t tid) {
  const std::string id = std::to_string(tid);
  if (!name) return "[tid=" + id + ']';
  if (name->rfind("[tid=", 0) == 0) return *name;
  return '[' + *name + " tid=" + id + ']';
}

}  // namespace fg::formats::jfr
