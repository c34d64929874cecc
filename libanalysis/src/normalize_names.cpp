#include "fg/normalize_names.h"

#include "fg/builder.h"
#include "fg/import.h"

namespace fg {

namespace {

constexpr std::size_t kNone = std::string_view::npos;

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_lower_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f'); }
bool is_hex(char c) { return is_lower_hex(c) || (c >= 'A' && c <= 'F'); }

// The end of the run of characters from `i` that satisfy `pred`.
std::size_t run(std::string_view s, std::size_t i, bool (*pred)(char)) {
  while (i < s.size() && pred(s[i])) ++i;
  return i;
}

// A hidden-class suffix ends the class name: at the end of the name, or
// where ".method" follows.
bool class_ends(std::string_view s, std::size_t i) { return i == s.size() || s[i] == '.'; }

// The end of the hidden-class suffix that starts at s[i] ('.', '/' or
// '+'), or kNone. async-profiler cuts a class name at its last '.' or '/'
// when a digit follows (and at "+0x<address>/<hash>", the JDK recorder's
// form); here the suffix must also have the shape a JVM gives it, as the
// name may be any language's.
// True when the class name that ends at s[i] has a '$' (Foo$$Lambda$12).
bool nested_class_before(std::string_view s, std::size_t i) {
  const std::size_t segment = s.find_last_of("./", i - 1);
  const std::size_t begin = segment == kNone ? 0 : segment + 1;
  return s.substr(begin, i - begin).find('$') != kNone;
}

std::size_t jvm_suffix_end(std::string_view s, std::size_t i) {
  if (s[i] == '+') {  // +0x00007f8177090218/543846639
    if (s.substr(i + 1, 2) != "0x") return kNone;
    const std::size_t slash = run(s, i + 3, is_hex);
    if (slash == i + 3) return kNone;
    // A lambda from the JDK's class-data archive has a short address and
    // may have no hash (Foo$$Lambda$62+0x800000063): async-profiler's rule
    // keeps it, which a diff of two JDK builds would show as noise.
    if (class_ends(s, slash)) return nested_class_before(s, i) ? slash : kNone;
    if (s[slash] != '/') return kNone;
    const std::size_t end = run(s, slash + 1, is_digit);
    return end > slash + 1 && class_ends(s, end) ? end : kNone;
  }
  if (s[i] != '.' && s[i] != '/') return kNone;
  if (s.substr(i + 1, 2) == "0x") {  // .0x00007fba8c001800 (async-profiler), /0x0000000800c03a38 (JDK 15+)
    const std::size_t end = run(s, i + 3, is_hex);
    return end > i + 3 && class_ends(s, end) ? end : kNone;
  }
  if (s[i] != '/') return kNone;
  // JDK 8: Foo$$Lambda$887/1827771163, after a class name with a '$'.
  const std::size_t end = run(s, i + 1, is_digit);
  return end > i + 1 && class_ends(s, end) && nested_class_before(s, i) ? end : kNone;
}

bool strip_jvm(std::string& s) {
  bool changed = false;
  for (std::size_t i = 1; i < s.size(); ++i) {
    const std::size_t end = jvm_suffix_end(s, i);
    if (end == kNone) continue;
    s.erase(i, end - i);
    changed = true;
  }
  return changed;
}

// True when `s` is one or more clone suffixes of GCC or Clang and nothing
// else: ".isra.0", ".constprop.0.isra.0", ".cold", ".part.1.cold", ...
bool clone_suffixes(std::string_view s) {
  if (s.empty()) return false;
  while (!s.empty()) {
    if (s[0] != '.') return false;
    std::size_t j = 1;
    while (j < s.size() && s[j] != '.') ++j;
    const std::string_view word = s.substr(1, j - 1);
    s.remove_prefix(j);
    std::size_t number = 0;  // the length of a ".N" that follows
    if (s.size() > 1 && s[0] == '.' && is_digit(s[1])) {
      const std::size_t k = run(s, 1, is_digit);
      if (k == s.size() || s[k] == '.') number = k;
    }
    if (word == "isra" || word == "constprop" || word == "part" || word == "lto_priv" || word == "llvm") {
      if (number == 0) return false;
      s.remove_prefix(number);
    } else if (word == "cold") {
      s.remove_prefix(number);
    } else if (word != "localalias") {
      return false;
    }
  }
  return true;
}

// "foo.constprop.0.isra.0" -> "foo": the longest tail of clone suffixes
// (among the last 16 dots), never the whole name.
bool strip_clone_tail(std::string& s) {
  std::size_t cut = kNone;
  std::size_t p = s.size();
  for (int n = 0; n < 16 && p > 1; ++n) {
    p = s.rfind('.', p - 1);
    if (p == kNone || p == 0) break;
    if (clone_suffixes(std::string_view(s).substr(p))) cut = p;
  }
  if (cut == kNone) return false;
  s.resize(cut);
  return true;
}

// "foo(int) [clone .isra.0]" -> "foo(int)", as demanglers write a clone.
bool strip_clone_brackets(std::string& s) {
  constexpr std::string_view kOpen = " [clone ";
  if (s.empty() || s.back() != ']') return false;
  const std::size_t p = s.rfind(kOpen);
  if (p == kNone || p == 0) return false;
  if (!clone_suffixes(std::string_view(s).substr(p + kOpen.size(), s.size() - 1 - p - kOpen.size())))
    return false;
  s.resize(p);
  return true;
}

// "core::fmt::write::h0123456789abcdef" -> "core::fmt::write".
bool strip_rust_hash(std::string& s) {
  constexpr std::size_t kSuffix = 3 + 16;  // "::h" and the hash
  if (s.size() <= kSuffix) return false;
  const std::size_t p = s.size() - kSuffix;
  if (s.compare(p, 3, "::h") != 0 || run(s, p + 3, is_lower_hex) != s.size()) return false;
  s.resize(p);
  return true;
}

}  // namespace

std::string normalize_name(std::string_view name) {
  std::string s(name);
  strip_jvm(s);
  // Suffixes stack: foo::h0123456789abcdef.llvm.42, bar() [clone .isra.0] [clone .cold].
  for (bool changed = true; changed;) {
    changed = strip_clone_brackets(s);
    changed = strip_clone_tail(s) || changed;
    changed = strip_rust_hash(s) || changed;
  }
  return s;
}

Profile normalize_names(Profile p, std::size_t* renamed) {
  if (std::optional<Profile> n = normalized_names(p, renamed)) return std::move(*n);
  return p;
}

std::optional<Profile> normalized_names(const Profile& p, std::size_t* renamed) {
  std::vector<std::string> names(p.function_count());
  std::vector<bool> changed(p.function_count(), false);
  std::size_t count = 0;
  for (const FunctionId f : id_range<FunctionId>(p.function_count())) {
    const std::string_view name = p.str(p.function(f).name);
    names[f.index()] = normalize_name(name);
    if (names[f.index()] != name) changed[f.index()] = true, ++count;
  }
  if (renamed) *renamed = count;
  if (count == 0) return std::nullopt;
  ProfileBuilder b(p.value_types());
  b.metadata() = p.metadata();
  ProfileImporter import(b, p);
  std::vector<FrameId> frames(p.frame_count());
  for (const FrameId f : id_range<FrameId>(p.frame_count())) {
    const Frame& fr = p.frame(f);
    const Function& fn = p.function(fr.function);
    const std::string_view system = changed[fr.function.index()] ? std::string_view() : p.str(fn.system_name);
    const FunctionId nf = b.function(names[fr.function.index()], system, p.str(fn.filename), fn.start_line);
    frames[f.index()] = b.frame(nf, fr.kind, fr.line, fr.address, import.string(fr.module));
  }
  copy_samples(p, frames, b, import);
  return std::move(b).finish();
}

}  // namespace fg
