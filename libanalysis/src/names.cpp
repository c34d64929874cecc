#include "fg/names.h"

#include <cxxabi.h>
#include <re2/re2.h>

#include <cstdlib>
#include <memory>

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
  // pprof's expressions (internal/graph ShortenFunctionName), in its
  // dialect. They are ASCII; matched as Latin-1, '.' takes any byte of a
  // name, as Go's regexp takes a byte of invalid UTF-8.
  constexpr auto kBytes = re2::RE2::Latin1;
  static const re2::RE2 anonymous(R"(^\(anonymous namespace\)::)", kBytes);
  static const re2::RE2 go_version(R"(^(.*?)/v(?:[2-9]|[1-9][0-9]+)([./].*)$)", kBytes);
  static const re2::RE2 go(R"(^(?:[\w\-\.]+\/)+(.+))", kBytes);
  static const re2::RE2 java(
      R"(^(?:[a-z]\w*\.)*([A-Z][\w\$]*\.(?:<init>|[a-z][\w\$]*(?:\$\d+)?))(?:(?:\()|$))", kBytes);
  static const re2::RE2 cpp(R"(^(?:[_a-zA-Z]\w*::)+(_*[A-Z]\w*::~?[_a-zA-Z]\w*(?:<.*>)?))", kBytes);
  std::string f(name);
  re2::RE2::Replace(&f, anonymous, "");
  re2::RE2::Replace(&f, go_version, "\\1\\2");
  std::string shortened;
  for (const re2::RE2* re : {&go, &java, &cpp})
    if (re2::RE2::PartialMatch(f, *re, &shortened)) return shortened;
  return f;
}

}  // namespace fg
