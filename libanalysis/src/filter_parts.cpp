#include "filter_parts.h"

#include <re2/re2.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>

#include "fg/error.h"
#include "fg/time_bound.h"
#include "fg/units.h"

namespace fg::filter {

Pattern compile(const std::string& option, const std::string& text) {
  std::string why;
  std::optional<Pattern> p = Pattern::compile(text, why);
  if (!p) throw UsageError(option + " '" + text + "': not a regular expression: " + why);
  return std::move(*p);
}

std::optional<Pattern> compile_if_given(const std::string& option, const std::string& text) {
  if (text.empty()) return std::nullopt;
  return compile(option, text);
}

FrameMatcher::FrameMatcher(const Profile& p, std::optional<Pattern> re, bool name_only)
    : p_(p), re_(std::move(re)), name_only_(name_only), cache_(re_ ? p.frame_count() : 0, -1) {}

bool FrameMatcher::matches(FrameId f) {
  std::int8_t& c = cache_[f.index()];
  if (c < 0) {
    const Frame& frame = p_.frame(f);
    const Function& fn = p_.function(frame.function);
    auto found = [this](std::string_view s) { return !s.empty() && re_->search(s); };
    c = found(p_.str(fn.name)) ||
        (!name_only_ && (found(p_.str(fn.filename)) || found(p_.str(frame.module))));
    if (c) matched_ = true;
  }
  return c != 0;
}

TimeWindow time_window(const Profile& p, const FilterOptions& o) {
  TimeWindow w;
  if (o.time_from.empty() && o.time_to.empty()) return w;
  std::int64_t first = INT64_MAX, last = INT64_MIN;
  for (std::size_t i = 0; i < p.sample_count(); ++i) {
    const std::int64_t t = p.sample(i).timestamp;
    if (t == kNoTimestamp) continue;
    first = std::min(first, t);
    last = std::max(last, t);
  }
  if (first == INT64_MAX)
    throw UsageError(std::string(o.time_from.empty() ? "--time-to" : "--time-from") +
                     ": the input's samples carry no timestamps");
  const Metadata& m = p.metadata();
  const std::int64_t start = m.start_time_ns != 0 ? m.start_time_ns : first;
  const std::int64_t end =
      m.start_time_ns != 0 && m.duration_ns != 0 ? m.start_time_ns + m.duration_ns : last;
  w.active = true;
  if (!o.time_from.empty()) w.from = parse_time_bound("--time-from", o.time_from, start, end);
  if (!o.time_to.empty()) w.to = parse_time_bound("--time-to", o.time_to, start, end);
  return w;
}

TagFilter::TagFilter(const Profile& p, const FilterOptions& o)
    : p_(p), focus_(parse("--tagfocus", o.tag_focus)), ignore_(parse("--tagignore", o.tag_ignore)) {}

// pprof's syntax: [key=]regex[,regex...], or [key=]range where a range is
// "64kb", "64kb:", ":1mb" or "64kb:1mb" (a number with an optional unit).
std::optional<TagFilter::Match> TagFilter::parse(const std::string& option, const std::string& text) {
  if (text.empty()) return std::nullopt;
  Match m;
  std::string value = text;
  if (const std::size_t eq = text.find('='); eq != std::string::npos) {
    m.key = text.substr(0, eq);
    value = text.substr(eq + 1);
  }
  // A number, or two about a ':', each with an optional unit.
  static const re2::RE2 range(R"((?:([+-]?[0-9]+)([A-Za-z]*))?(:?)(?:([+-]?[0-9]+)([A-Za-z]*))?)");
  std::string lo, lo_unit, colon, hi, hi_unit;
  if (re2::RE2::FullMatch(value, range, &lo, &lo_unit, &colon, &hi, &hi_unit) &&
      (!lo.empty() || !hi.empty()) && (!colon.empty() || hi.empty())) {
    m.numeric = true;
    const std::string& unit = lo.empty() ? hi_unit : lo_unit;
    m.unit = units::scale(0, unit, unit).unit;
    if (!lo.empty()) {
      m.has_lo = true;
      m.lo = units::scale(std::strtoll(lo.c_str(), nullptr, 10), lo_unit, lo_unit).value;
    }
    if (!hi.empty()) {
      m.has_hi = true;
      m.hi = units::scale(std::strtoll(hi.c_str(), nullptr, 10), hi_unit, hi_unit).value;
    }
    if (colon.empty()) m.hi = m.lo, m.has_hi = true;  // one value: equal to it
    return m;
  }
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = value.find(',', start);
    m.patterns.push_back(
        compile(option, value.substr(start, comma == std::string::npos ? comma : comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return m;
}

bool TagFilter::matches(const Match& m, const Sample& s) const {
  const std::vector<Label>& labels = p_.labels(s.labels);
  if (m.numeric) {
    for (const Label& l : labels) {
      if (!l.numeric || (!m.key.empty() && p_.str(l.key) != m.key)) continue;
      const std::string unit = l.unit != StringId{}       ? std::string(p_.str(l.unit))
                               : p_.str(l.key) == "bytes" ? "bytes"
                                                          : "";
      const units::Scaled v = units::scale(l.num, unit, m.unit);
      if (v.unit != m.unit) continue;
      if ((!m.has_lo || v.value >= m.lo) && (!m.has_hi || v.value <= m.hi)) return true;
    }
    return false;
  }
  if (m.key.empty()) {  // every pattern must match some "key:value"
    for (const Pattern& re : m.patterns) {
      const bool found = std::any_of(labels.begin(), labels.end(), [&](const Label& l) {
        return !l.numeric && re.search(std::string(p_.str(l.key)) + ":" + std::string(p_.str(l.str)));
      });
      if (!found) return false;
    }
    return true;
  }
  for (const Label& l : labels) {
    if (l.numeric || p_.str(l.key) != m.key) continue;
    for (const Pattern& re : m.patterns)
      if (re.search(p_.str(l.str))) return true;
  }
  return false;
}

bool TagFilter::keep(const Sample& s) {
  if (focus_) {
    if (!matches(*focus_, s)) return false;
    focus_matched_ = true;
  }
  if (ignore_ && matches(*ignore_, s)) return !(ignore_matched_ = true);
  return true;
}

Renamer::Renamer(const Profile& p, const std::vector<std::string>& rules)
    : p_(p), done_(p.frame_count(), kNoId<FrameId>) {
  for (const std::string& r : rules) {
    const std::size_t eq = r.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--rename '" + r + "': expected REGEX=REPLACEMENT");
    rules_.emplace_back(compile("--rename", r.substr(0, eq)), r.substr(eq + 1));
  }
}

FrameId Renamer::frame(FrameId f, ProfileBuilder& b, ProfileImporter& import) {
  if (done_[f.index()] != kNoId<FrameId>) return done_[f.index()];
  const Frame& frame = p_.frame(f);
  const Function& fn = p_.function(frame.function);
  std::string name(p_.str(fn.name));
  for (const auto& [re, replacement] : rules_) name = re.replace_all(name, replacement);
  if (name == p_.str(fn.name)) return done_[f.index()] = import.frame(f);
  const FunctionId to = b.function(name, {}, p_.str(fn.filename), fn.start_line);
  return done_[f.index()] = b.frame(to, frame.kind, frame.line, frame.address, import.string(frame.module));
}

}  // namespace fg::filter
