#include "formats/common/graphviz_session.h"

#include <algorithm>
#include <cctype>

namespace fg::formats {

namespace {

bool is_utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xc0) == 0x80; }

// The end of the comment or string starting at `i` (one past it).
std::size_t skip_comment(std::string_view s, std::size_t i) {
  if (s[i] == '/' && s.substr(i, 2) == "/*") {
    const std::size_t end = s.find("*/", i + 2);
    return end == std::string_view::npos ? s.size() : end + 2;
  }
  const std::size_t end = s.find('\n', i);
  return end == std::string_view::npos ? s.size() : end;
}

// The next place after `k` in a quoted string: an escape is one step.
std::size_t next_in_string(std::string_view s, std::size_t k) {
  return k + (s[k] == '\\' && k + 1 < s.size() ? 2 : 1);
}

// The closing quote of the string opening at `i` (the end of `s` when
// none). When the string is longer than `head` + `tail` bytes, [cut_from,
// cut_to) is the middle to leave out: at most `head` bytes before it and
// about `tail` after it, cut between escapes and UTF-8 sequences.
std::size_t closing_quote(std::string_view s, std::size_t i, std::size_t head, std::size_t tail,
                          std::size_t& cut_from, std::size_t& cut_to) {
  const std::size_t start = i + 1;
  std::size_t k = start;
  cut_from = start;
  for (; k < s.size() && s[k] != '"'; k = next_in_string(s, k))
    if (k - start <= head && !is_utf8_continuation(s[k])) cut_from = k;
  const std::size_t close = std::min(k, s.size());
  cut_to = close;
  if (close - start <= head + tail) return close;
  for (std::size_t j = start; j < close; j = next_in_string(s, j))
    if (j >= close - tail && !is_utf8_continuation(s[j])) {
      cut_to = j;
      break;
    }
  return close;
}

// One past the HTML-like string <...> opening at `i` (nested brackets).
std::size_t html_end(std::string_view s, std::size_t i) {
  int depth = 0;
  for (std::size_t k = i; k < s.size(); ++k) {
    depth += s[k] == '<' ? 1 : s[k] == '>' ? -1 : 0;
    if (depth == 0) return k + 1;
  }
  return s.size();
}

bool is_id_byte(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || (c & 0x80);
}

std::mutex graphviz_mutex;
std::string graphviz_errors;  // guarded by graphviz_mutex

int collect_error(char* message) {
  graphviz_errors += message;
  return 0;
}

}  // namespace

GraphvizSession::GraphvizSession() : lock_(graphviz_mutex) { begin(); }

GraphvizSession::GraphvizSession(std::try_to_lock_t) : lock_(graphviz_mutex, std::try_to_lock) {
  if (lock_.owns_lock()) begin();
}

void GraphvizSession::begin() {
  graphviz_errors.clear();
  agseterr(AGERR);
  agseterrf(collect_error);
  agreseterrors();
}

// cgraph's lexer keeps what it read past the end of a graph (a trailing
// newline, or a second graph) and its line count for the next parse; read
// until nothing is left, so that each parse starts clean.
GraphvizSession::~GraphvizSession() {
  if (!lock_.owns_lock()) return;
  for (int i = 0; i < 16; ++i) {
    Agraph_t* rest = agmemread("");
    if (!rest) break;
    agclose(rest);
  }
  agsetfile(nullptr);
  agseterrf(nullptr);
}

std::string bounded_dot(std::string_view s, std::size_t max) {
  std::string out;
  std::size_t copied = 0;  // s[0, copied) is in `out`
  const auto replace = [&](std::size_t from, std::size_t to, const std::string& with) {
    out.append(s.substr(copied, from - copied)) += with;
    copied = to;
  };
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    const bool line_start = i == 0 || s[i - 1] == '\n';
    if ((c == '/' && i + 1 < s.size() && (s[i + 1] == '/' || s[i + 1] == '*')) || (c == '#' && line_start)) {
      i = skip_comment(s, i);
    } else if (c == '"') {
      // The head and the tail stay: a label's numbers come last.
      std::size_t cut_from, cut_to;
      const std::size_t close = closing_quote(s, i, max - max / 4, max / 4, cut_from, cut_to);
      if (close - (i + 1) > max)
        replace(cut_from, cut_to,
                " [... " + std::to_string(cut_to - cut_from) + " bytes cut]" + (cut_to < close ? " " : ""));
      i = close + 1;
    } else if (c == '<' || is_id_byte(c)) {
      std::size_t end = i + 1;
      if (c == '<')
        end = html_end(s, i);
      else
        while (end < s.size() && is_id_byte(s[end])) ++end;
      if (end - i > max) replace(i, end, "\"[" + std::to_string(end - i) + " bytes cut]\"");
      i = end;
    } else {
      ++i;
    }
  }
  if (copied == 0) return std::string(s);
  return out.append(s.substr(copied));
}

std::unique_ptr<Agraph_t, int (*)(Agraph_t*)> GraphvizSession::read(std::string_view dot) const {
  const std::string text = bounded_dot(dot);
  return {agmemread(text.c_str()), agclose};
}

std::string GraphvizSession::errors() const {
  std::string s = graphviz_errors;
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace fg::formats
