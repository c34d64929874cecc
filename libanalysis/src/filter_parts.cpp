#include "filter_parts.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <ctime>

#include "fg/error.h"
#include "fg/time_bound.h"
#include "fg/units.h"

namespace fg::filter {

bool regex_find(std::string_view s, const Pattern& p) {
  if (!p.literals.empty()) {
    for (const Pattern::Literal& lit : p.literals) {
      const std::string& l = lit.text;
      if (lit.at_start && lit.at_end ? s == l
          : lit.at_start             ? s.substr(0, l.size()) == l
          : lit.at_end               ? s.size() >= l.size() && s.substr(s.size() - l.size()) == l
                                     : s.find(l) != std::string_view::npos)
        return true;
    }
    return false;
  }
  if (s.size() > kRegexSubjectLimit) s = s.substr(0, kRegexSubjectLimit);
  return std::regex_search(s.begin(), s.end(), p.re);
}

namespace {

// The text a pattern matches literally, if it does: no operators, escapes
// only of punctuation; a leading ^ and a trailing $ are anchors.
std::optional<std::string> literal_text(std::string_view t, bool& at_start, bool& at_end) {
  at_start = !t.empty() && t.front() == '^';
  if (at_start) t.remove_prefix(1);
  at_end = !t.empty() && t.back() == '$' && (t.size() < 2 || t[t.size() - 2] != '\\');
  if (at_end) t.remove_suffix(1);
  std::string out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '\\') {
      if (i + 1 >= t.size() || std::isalnum(static_cast<unsigned char>(t[i + 1]))) return std::nullopt;
      out += t[++i];
    } else if (std::string_view(".^$|?*+()[]{}").find(c) != std::string_view::npos) {
      return std::nullopt;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::optional<Pattern> compile(const std::string& option, const std::string& text) {
  if (text.empty()) return std::nullopt;
  Pattern p;
  try {
    p.re = std::regex(text, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw UsageError(option + " '" + text + "': not a regular expression: " + e.what());
  }
  // Alternatives split at each | outside brackets and escapes: a literal
  // pattern only if every one of them is.
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\')
      ++i;
    else if (text[i] == '|')
      parts.push_back(std::string_view(text).substr(start, i - start)), start = i + 1;
  }
  parts.push_back(std::string_view(text).substr(start));
  for (std::string_view part : parts) {
    Pattern::Literal lit;
    std::optional<std::string> t = literal_text(part, lit.at_start, lit.at_end);
    if (!t || t->empty()) {
      p.literals.clear();
      break;
    }
    lit.text = std::move(*t);
    p.literals.push_back(std::move(lit));
  }
  return p;
}

FrameMatcher::FrameMatcher(const Profile& p, std::optional<Pattern> re, bool name_only)
    : p_(p), re_(std::move(re)), name_only_(name_only), cache_(re_ ? p.frame_count() : 0, -1) {}

bool FrameMatcher::matches(FrameId f) {
  std::int8_t& c = cache_[f];
  if (c < 0) {
    const Frame& frame = p_.frame(f);
    const Function& fn = p_.function(frame.function);
    auto found = [this](std::string_view s) { return !s.empty() && regex_find(s, *re_); };
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
  static const std::regex one(R"(([+-]?[0-9]+)([A-Za-z]+)?)");
  static const std::regex range(R"(^(([+-]?[0-9]+)([A-Za-z]+)?)?(:)?(([+-]?[0-9]+)([A-Za-z]+)?)?$)");
  std::smatch r;
  if (std::regex_search(value, one) && std::regex_match(value, r, range) && (r[1].matched || r[5].matched) &&
      (r[4].matched || !r[5].matched)) {
    m.numeric = true;
    const std::string unit = r[1].matched ? r[3].str() : r[7].str();
    m.unit = units::scale(0, unit, unit).unit;
    if (r[1].matched) {
      m.has_lo = true;
      m.lo = units::scale(std::strtoll(r[2].str().c_str(), nullptr, 10), r[3].str(), r[3].str()).value;
    }
    if (r[5].matched) {
      m.has_hi = true;
      m.hi = units::scale(std::strtoll(r[6].str().c_str(), nullptr, 10), r[7].str(), r[7].str()).value;
    }
    if (!r[4].matched) m.hi = m.lo, m.has_hi = true;  // one value: equal to it
    return m;
  }
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = value.find(',', start);
    m.regexes.push_back(
        *compile(option, value.substr(start, comma == std::string::npos ? comma : comma - start)));
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
      const std::string unit = l.unit ? std::string(p_.str(l.unit)) : p_.str(l.key) == "bytes" ? "bytes" : "";
      const units::Scaled v = units::scale(l.num, unit, m.unit);
      if (v.unit != m.unit) continue;
      if ((!m.has_lo || v.value >= m.lo) && (!m.has_hi || v.value <= m.hi)) return true;
    }
    return false;
  }
  if (m.key.empty()) {  // every regex must match some "key:value"
    for (const Pattern& re : m.regexes) {
      const bool found = std::any_of(labels.begin(), labels.end(), [&](const Label& l) {
        return !l.numeric && regex_find(std::string(p_.str(l.key)) + ":" + std::string(p_.str(l.str)), re);
      });
      if (!found) return false;
    }
    return true;
  }
  for (const Label& l : labels) {
    if (l.numeric || p_.str(l.key) != m.key) continue;
    const std::string value(p_.str(l.str));
    for (const Pattern& re : m.regexes)
      if (regex_find(value, re)) return true;
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
    : p_(p), done_(p.frame_count(), UINT32_MAX) {
  for (const std::string& r : rules) {
    const std::size_t eq = r.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--rename '" + r + "': expected REGEX=REPLACEMENT");
    rules_.emplace_back(compile("--rename", r.substr(0, eq))->re, r.substr(eq + 1));
  }
}

FrameId Renamer::frame(FrameId f, ProfileBuilder& b, ProfileImporter& import) {
  if (done_[f] != UINT32_MAX) return done_[f];
  const Frame& frame = p_.frame(f);
  const Function& fn = p_.function(frame.function);
  std::string name(p_.str(fn.name));
  if (name.size() <= kRegexSubjectLimit)  // longer names stay as they are
    for (const auto& [re, replacement] : rules_) name = std::regex_replace(name, re, replacement);
  if (name == p_.str(fn.name)) return done_[f] = import.frame(f);
  const FunctionId to = b.function(name, {}, p_.str(fn.filename), fn.start_line);
  return done_[f] = b.frame(to, frame.kind, frame.line, frame.address, import.string(frame.module));
}

}  // namespace fg::filter
