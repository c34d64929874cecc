// Function names as pprof shows them in reports.
#pragma once

#include <string>
#include <string_view>

namespace fg {

/// pprof's simplification of C++ names for reports (its default
/// demangler mode): a mangled name ("_Z...") is demangled, and a name that
/// looks like demangled C++ ("::" or brackets, not Java's "class.<init>" nor
/// Go's "pkg.(*T[...]).M") loses its parameter list and template arguments:
/// "ns::Pool<int>::get(unsigned long) const" -> "ns::Pool::get const".
/// Other names, and names that would become empty, are returned unchanged.
std::string simplify_cpp_name(std::string_view name);

/// pprof's ShortenFunctionName, for graph node labels: Go package paths,
/// Java packages and C++ namespaces dropped ("compress/flate.(*w).Write"
/// -> "flate.(*w).Write", "(anonymous namespace)::" removed).
std::string shorten_function_name(std::string_view name);

}  // namespace fg
