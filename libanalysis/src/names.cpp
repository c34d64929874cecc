#include "fg/names.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <regex>

namespace fg {

namespace {

bool looks_like_demangled_cpp(std::string_view name) {
  if (name.find(".<") != std::string_view::npos) return false;   // Java "Class.<init>"
  if (name.find("]).") != std::string_view::npos) return false;  // Go "pkg.(*T[...]).M"
  return name.find_first_of("<>[]") != std::string_view::npos || name.find("::") != std::string_view::npos;
}

// Removes each outermost open..close group; a close without its open
// leaves the name as it was.
std::string remove_matching(std::string name, char open, char close) {
  int nesting = 0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == open) {
      if (++nesting == 1) first = i;
    } else if (name[i] == close) {
      if (--nesting < 0) return name;
      if (nesting == 0) {
        name.erase(first, i - first + 1);
        i = first - 1;  // wraps for first == 0 and is incremented back to 0
      }
    }
  }
  return name;
}

std::string demangle(std::string_view name) {
  if (name.size() < 3 || name.substr(0, 2) != "_Z") return std::string(name);
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> out(
      abi::__cxa_demangle(std::string(name).c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && out ? std::string(out.get()) : std::string(name);
}

}  // namespace

std::string simplify_cpp_name(std::string_view name) {
  std::string s = demangle(name);
  if (!looks_like_demangled_cpp(s)) return s;
  std::string simple = remove_matching(remove_matching(s, '(', ')'), '<', '>');
  return simple.empty() ? s : simple;  // a name made only of groups stays whole
}

std::string shorten_function_name(std::string_view name) {
  static const std::regex anonymous(R"(^\(anonymous namespace\)::)");
  static const std::regex go_version(R"(^(.*?)/v(?:[2-9]|[1-9][0-9]+)([./].*)$)");
  static const std::regex go(R"(^(?:[\w\-\.]+\/)+(.+))");
  static const std::regex java(
      R"(^(?:[a-z]\w*\.)*([A-Z][\w\$]*\.(?:<init>|[a-z][\w\$]*(?:\$\d+)?))(?:(?:\()|$))");
  static const std::regex cpp(R"(^(?:[_a-zA-Z]\w*::)+(_*[A-Z]\w*::~?[_a-zA-Z]\w*(?:<.*>)?))");
  // std::regex backtracks recursively: a hostile name of many kilobytes
  // would exhaust the stack. Names that long are shown whole.
  if (name.size() > 1024) return std::string(name);
  std::string f =
      std::regex_replace(std::string(name), anonymous, "", std::regex_constants::format_first_only);
  f = std::regex_replace(f, go_version, "$1$2", std::regex_constants::format_first_only);
  std::smatch m;
  for (const std::regex* re : {&go, &java, &cpp})
    if (std::regex_search(f, m, *re)) return m[1].str();
  return f;
}

}  // namespace fg
