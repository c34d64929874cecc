#include "formats/common/palette.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <vector>

#include "fg/error.h"
#include "fg/utf8.h"

namespace fg::formats {

namespace {

std::vector<char32_t> code_points(std::string_view s) {
  std::vector<char32_t> out;
  for (std::size_t pos = 0; pos < s.size();) out.push_back(next_code_point(s, pos));
  return out;
}

// flamegraph.pl's namehash: early characters weigh more; a "module`"
// prefix is dropped first.
double name_hash(const std::vector<char32_t>& name) {
  std::size_t first = 0;
  for (std::size_t i = 1; i < name.size(); ++i) {
    if (name[i] == U'`') {
      first = i + 1;
      break;
    }
  }
  double vector = 0, weight = 1, max = 1;
  int mod = 10;
  for (std::size_t i = first; i < name.size(); ++i) {
    int v = static_cast<int>(name[i] % static_cast<char32_t>(mod));
    vector += (v / static_cast<double>(mod++ - 1)) * weight;
    max += weight;
    weight *= 0.70;
    if (mod > 12) break;
  }
  return 1 - vector / max;
}

// flamegraph.pl's default: srand(sum of code points); rand(1). Perl's rand
// is drand48, so one step of the 48-bit generator from that seed.
double seeded_hash(const std::vector<char32_t>& name) {
  std::uint32_t sum = 0;
  for (char32_t c : name) sum += static_cast<std::uint32_t>(c);
  std::uint64_t x = (std::uint64_t(sum) << 16) + 0x330E;
  x = (x * 0x5DEECE66DULL + 0xB) & ((std::uint64_t{1} << 48) - 1);
  return std::ldexp(static_cast<double>(x), -48);
}

bool ends_with(std::string_view s, std::string_view t) {
  return s.size() >= t.size() && s.substr(s.size() - t.size()) == t;
}
bool contains(std::string_view s, std::string_view t) { return s.find(t) != std::string_view::npos; }

bool java_package(std::string_view name) {
  if (!name.empty() && name[0] == 'L') name.remove_prefix(1);
  for (std::string_view p : {"java/", "javax/", "jdk/", "net/", "org/", "com/", "io/", "sun/"})
    if (name.substr(0, p.size()) == p) return true;
  return false;
}

// The multi palettes pick a plain palette by what the name looks like.
std::string_view resolve(std::string_view palette, std::string_view name) {
  if (palette == "java") {
    if (ends_with(name, "_[j]")) return "green";
    if (ends_with(name, "_[i]")) return "aqua";
    // async-profiler's interpreted and C1-compiled Java frames: Java code too.
    if (ends_with(name, "_[0]") || ends_with(name, "_[1]")) return "green";
    if (java_package(name)) return "green";
    if (contains(name, ":::")) return "green";
    if (contains(name, "::")) return "yellow";
    if (ends_with(name, "_[k]")) return "orange";
    return "red";
  }
  if (palette == "perl") {
    if (contains(name, "::")) return "yellow";
    if (contains(name, "Perl") || contains(name, ".pl")) return "green";
    if (ends_with(name, "_[k]")) return "orange";
    return "red";
  }
  if (palette == "js") {
    if (ends_with(name, "_[j]")) return contains(name, "/") ? "green" : "aqua";
    if (contains(name, "::")) return "yellow";
    auto slash = name.find('/');
    if (slash != std::string_view::npos && name.find(".js", slash) != std::string_view::npos) return "green";
    if (contains(name, ":")) return "aqua";
    if (name == " ") return "green";
    if (contains(name, "_[k]")) return "orange";
    return "red";
  }
  if (palette == "wakeup") return "aqua";
  if (palette == "chain") return contains(name, "_[w]") ? "aqua" : "blue";
  return palette;
}

constexpr std::string_view kPalettes[] = {"hot",  "mem",  "io",     "wakeup", "chain",
                                          "java", "js",   "perl",   "red",    "green",
                                          "blue", "aqua", "yellow", "purple", "orange"};

}  // namespace

std::string Rgb::css() const {
  return "rgb(" + std::to_string(r) + "," + std::to_string(g) + "," + std::to_string(b) + ")";
}

bool is_palette(std::string_view name) {
  for (std::string_view p : kPalettes)
    if (p == name) return true;
  return false;
}

std::string_view palette_names() {
  return "hot, mem, io, wakeup, chain, java, js, perl, red, green, blue, aqua, yellow, purple, "
         "orange";
}

Rgb frame_color(std::string_view palette, bool hash, std::string_view name) {
  std::vector<char32_t> cps = code_points(name);
  double v1, v2, v3;
  if (hash) {
    v1 = name_hash(cps);
    std::vector<char32_t> rev(cps.rbegin(), cps.rend());
    v2 = v3 = name_hash(rev);
  } else {
    v1 = v2 = v3 = seeded_hash(cps);
  }
  auto i = [](double x) { return static_cast<int>(x); };
  if (palette == "hot") return {205 + i(50 * v3), i(230 * v1), i(55 * v2)};
  if (palette == "mem") return {0, 190 + i(50 * v2), i(210 * v1)};
  if (palette == "io") return {80 + i(60 * v1), 80 + i(60 * v1), 190 + i(55 * v2)};
  std::string_view p = resolve(palette, name);
  if (p == "red") return {200 + i(55 * v1), 50 + i(80 * v1), 50 + i(80 * v1)};
  if (p == "green") return {50 + i(60 * v1), 200 + i(55 * v1), 50 + i(60 * v1)};
  if (p == "blue") return {80 + i(60 * v1), 80 + i(60 * v1), 205 + i(50 * v1)};
  if (p == "yellow") return {175 + i(55 * v1), 175 + i(55 * v1), 50 + i(20 * v1)};
  if (p == "purple") return {190 + i(65 * v1), 80 + i(60 * v1), 190 + i(65 * v1)};
  if (p == "aqua") return {50 + i(60 * v1), 165 + i(55 * v1), 165 + i(55 * v1)};
  if (p == "orange") return {190 + i(65 * v1), 90 + i(65 * v1), 0};
  return {0, 0, 0};
}

Rgb diff_color(std::int64_t delta, std::int64_t max, bool negate, bool colorblind) {
  if (negate) delta = -delta;
  Rgb c{255, 255, 255};
  double m = static_cast<double>(max);
  if (colorblind) {
    // From white toward ColorBrewer's PuOr ends: orange (230,97,1) for
    // growth, purple (94,60,153) for shrinkage; both tell apart under the
    // common colour-vision deficiencies.
    if (delta == 0 || m <= 0) return c;
    const double f = std::min(1.0, std::fabs(static_cast<double>(delta)) / m);
    const Rgb end = delta > 0 ? Rgb{230, 97, 1} : Rgb{94, 60, 153};
    auto mix = [f](int to) { return static_cast<int>(255 + (to - 255) * f); };
    return {mix(end.r), mix(end.g), mix(end.b)};
  }
  if (delta > 0)
    c.g = c.b = static_cast<int>(210 * (m - static_cast<double>(delta)) / m);
  else if (delta < 0)
    c.r = c.g = static_cast<int>(210 * (m + static_cast<double>(delta)) / m);
  return c;
}

std::pair<std::string, std::string> background(std::string_view bg, std::string_view palette) {
  if (bg.empty()) {
    if (palette == "mem")
      bg = "green";
    else if (palette == "io" || palette == "wakeup" || palette == "chain")
      bg = "blue";
    else if (palette == "red" || palette == "green" || palette == "blue" || palette == "aqua" ||
             palette == "yellow" || palette == "purple" || palette == "orange")
      bg = "grey";
    else
      bg = "yellow";
  }
  if (bg == "yellow") return {"#eeeeee", "#eeeeb0"};
  if (bg == "blue") return {"#eeeeee", "#e0e0ff"};
  if (bg == "green") return {"#eef2ee", "#e0ffe0"};
  if (bg == "grey") return {"#f8f8f8", "#e8e8e8"};
  auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
  if (bg.size() == 7 && bg[0] == '#' && std::all_of(bg.begin() + 1, bg.end(), hex))
    return {std::string(bg), std::string(bg)};
  throw UsageError("--bgcolors " + std::string(bg) + ": expected yellow, blue, green, grey or #rrggbb");
}

}  // namespace fg::formats
