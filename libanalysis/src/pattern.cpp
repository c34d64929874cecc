#include "fg/pattern.h"

#include <re2/re2.h>

#include <vector>

namespace fg {

namespace {

// RE2's own message, and a note when the pattern uses something other
// dialects (Perl, ECMAScript, PCRE) have and RE2 leaves out by design.
std::string explain(const re2::RE2& re, std::string_view text) {
  const std::string& arg = re.error_arg();
  std::string why = re.error();
  if (re.error_code() == re2::RE2::ErrorBadEscape && arg.size() == 2 &&
      ((arg[1] >= '1' && arg[1] <= '9') || arg[1] == 'k')) {
    why += " (RE2 has no backreferences)";
  } else if (re.error_code() == re2::RE2::ErrorBadPerlOp) {
    const bool behind = text.find("(?<=") != text.npos || text.find("(?<!") != text.npos;
    if (arg == "(?=" || arg == "(?!") why += " (RE2 has no lookahead)";
    if (arg == "(?<")
      why += behind ? " (RE2 has no lookbehind)" : " (a named group is written (?P<name>...))";
  }
  return why;
}

// The bytes of the UTF-8 character starting `s` (1 for a byte that starts
// none): where an empty match steps to next.
std::size_t char_length(std::string_view s) {
  const auto c = static_cast<unsigned char>(s[0]);
  const std::size_t n = c < 0xc0 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf8 ? 4 : 1;
  return n <= s.size() ? n : 1;
}

// A group's text; an unmatched group (no data) appends nothing.
void append(std::string& out, const re2::StringPiece& group) {
  if (!group.empty()) out.append(group.data(), group.size());
}

// One match's replacement, as std::regex_replace formats ECMAScript's
// escapes (libstdc++'s match_results::format): $n and $nn take one or two
// digits, a group number past the pattern's groups gives nothing, and a
// '$' before anything else is itself.
void append_format(std::string& out, std::string_view format, const std::vector<re2::StringPiece>& groups,
                   std::string_view before, std::string_view after) {
  for (std::size_t i = 0; i < format.size(); ++i) {
    const char c = format[i];
    if (c != '$' || i + 1 == format.size()) {
      out += c;
      continue;
    }
    const char n = format[++i];
    if (n == '$') {
      out += '$';
    } else if (n == '&') {
      append(out, groups[0]);
    } else if (n == '`') {
      out += before;
    } else if (n == '\'') {
      out += after;
    } else if (n >= '0' && n <= '9') {
      std::size_t g = static_cast<std::size_t>(n - '0');
      if (i + 1 < format.size() && format[i + 1] >= '0' && format[i + 1] <= '9')
        g = 10 * g + static_cast<std::size_t>(format[++i] - '0');
      if (g < groups.size()) append(out, groups[g]);
    } else {
      out += '$';
      --i;  // the character after '$' is plain text
    }
  }
}

}  // namespace

std::optional<Pattern> Pattern::compile(std::string_view text, std::string& why) {
  re2::RE2::Options options;
  options.set_log_errors(false);  // the caller reports, naming its option
  auto re = std::make_shared<const re2::RE2>(re2::StringPiece(text.data(), text.size()), options);
  if (re->ok()) return Pattern(std::move(re));
  why = explain(*re, text);
  return std::nullopt;
}

bool Pattern::search(std::string_view s) const {
  return re2::RE2::PartialMatch(re2::StringPiece(s.data(), s.size()), *re_);
}

std::string Pattern::replace_all(std::string_view s, std::string_view format) const {
  const re2::StringPiece subject(s.data(), s.size());
  std::vector<re2::StringPiece> groups(static_cast<std::size_t>(re_->NumberOfCapturingGroups()) + 1);
  std::string out;
  std::size_t at = 0, copied = 0;  // where to search next; s[0, copied) is done
  std::size_t last_end = std::string_view::npos;
  while (re_->Match(subject, at, s.size(), re2::RE2::UNANCHORED, groups.data(),
                    static_cast<int>(groups.size()))) {
    const std::size_t start = static_cast<std::size_t>(groups[0].data() - s.data());
    const std::size_t end = start + groups[0].size();
    if (start != end || start != last_end) {  // not an empty match right after a match
      out.append(s, copied, start - copied);
      append_format(out, format, groups, s.substr(copied, start - copied), s.substr(end));
      copied = last_end = end;
    }
    if (start != end)
      at = end;
    else if (end == s.size())
      break;
    else
      at = end + char_length(s.substr(end));
  }
  out.append(s, copied);
  return out;
}

const std::string& Pattern::text() const { return re_->pattern(); }

}  // namespace fg
