#include "fg/regression_gate.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "fg/error.h"

namespace fg {

namespace {

[[noreturn]] void bad(std::string_view text, const std::string& why) {
  throw UsageError("--fail-if '" + std::string(text) + "': " + why +
                   " (expected total>+5%, total<-5% or function:REGEX>+2%)");
}

// "+5%", "-2.5%", "3%": the signed percentage at the end of a condition.
double parse_percent(std::string_view text, std::string_view number) {
  if (number.empty() || number.back() != '%')
    bad(text, "'" + std::string(number) + "' is not a percentage such as +5%");
  const std::string digits(number.substr(0, number.size() - 1));
  char* end = nullptr;
  const double v = std::strtod(digits.c_str(), &end);
  if (digits.empty() || end != digits.c_str() + digits.size() || !std::isfinite(v))
    bad(text, "'" + std::string(number) + "' is not a percentage such as +5%");
  return v;
}

std::string signed_percent(double v) {
  char buf[48];
  if (std::isinf(v)) return v > 0 ? "+inf%" : "-inf%";
  std::snprintf(buf, sizeof buf, "%+.2f%%", v);
  return buf;
}

bool trips(const GateCondition& c, double change, double min_delta) {
  if (std::fabs(change) < min_delta) return false;
  return c.above ? change > c.percent : change < c.percent;
}

}  // namespace

GateCondition parse_gate_condition(std::string_view text) {
  const std::size_t op = text.find_last_of("<>");
  if (op == std::string_view::npos) bad(text, "no '>' or '<'");
  GateCondition c;
  c.text = std::string(text);
  c.above = text[op] == '>';
  c.percent = parse_percent(text, text.substr(op + 1));
  const std::string_view subject = text.substr(0, op);
  if (subject == "total") return c;
  if (subject.substr(0, 9) != "function:")
    bad(text, "'" + std::string(subject) + "' is neither total nor function:REGEX");
  c.total = false;
  c.pattern = std::string(subject.substr(9));
  if (c.pattern.empty()) bad(text, "function: needs a regular expression");
  std::string why;
  c.regex = Pattern::compile(c.pattern, why);
  if (!c.regex) bad(text, "'" + c.pattern + "' is not a regular expression: " + why);
  return c;
}

std::vector<std::string> evaluate_gate(const Diff& d, const std::vector<GateCondition>& conditions,
                                       double min_delta) {
  std::vector<std::string> tripped;
  const int decimals = d.profile.value_types()[1].decimals;  // of the new column (and the base's)
  std::vector<FunctionDelta> functions;
  bool have_functions = false;
  for (const GateCondition& c : conditions) {
    if (c.total) {
      const double change = d.base_total_raw == 0
                                ? (d.new_total == 0 ? 0
                                                    : std::copysign(std::numeric_limits<double>::infinity(),
                                                                    static_cast<double>(d.new_total)))
                                : 100.0 * static_cast<double>(d.new_total - d.base_total_raw) /
                                      std::fabs(static_cast<double>(d.base_total_raw));
      if (trips(c, change, min_delta))
        tripped.push_back(c.text + ": the total changed by " + signed_percent(change) + " (" +
                          fixed_point_text(d.base_total_raw, decimals) + " -> " +
                          fixed_point_text(d.new_total, decimals) + ")");
      continue;
    }
    if (!have_functions) functions = function_deltas(d), have_functions = true;
    bool matched = false;
    for (const FunctionDelta& f : functions) {
      if (!c.regex->search(f.name)) continue;
      matched = true;
      const double change = share(f.new_total, d.new_total) - share(f.base_total, d.base_total);
      if (trips(c, change, min_delta)) {
        char buf[160];
        std::snprintf(buf, sizeof buf, ": its share of the total changed by %+.2f points (%.2f%% -> %.2f%%)",
                      change, share(f.base_total, d.base_total), share(f.new_total, d.new_total));
        tripped.push_back(c.text + ": " + f.name + buf);
      }
    }
    // A gate that cannot trip is a hole in CI, most often a misspelt name.
    if (!matched)
      throw UsageError("--fail-if '" + c.text + "': '" + c.pattern +
                       "' matches no function in either profile, so the condition can never trip");
  }
  return tripped;
}

}  // namespace fg
