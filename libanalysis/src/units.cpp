#include "fg/units.h"

#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <vector>

#include "fg/profile.h"

namespace fg::units {

namespace {

struct Unit {
  const char* name;  // canonical
  std::vector<std::string_view> aliases;
  double factor;  // in the type's base unit
};

struct UnitType {
  std::vector<Unit> units;
  std::size_t default_unit;  // index into units
};

const std::vector<UnitType>& unit_types() {
  static const std::vector<UnitType> types = {
      {{{"B", {"b", "byte"}, 1},
        {"kB", {"kb", "kbyte", "kilobyte"}, double(1ull << 10)},
        {"MB", {"mb", "mbyte", "megabyte"}, double(1ull << 20)},
        {"GB", {"gb", "gbyte", "gigabyte"}, double(1ull << 30)},
        {"TB", {"tb", "tbyte", "terabyte"}, double(1ull << 40)},
        {"PB", {"pb", "pbyte", "petabyte"}, double(1ull << 50)}},
       0},
      {{{"ns", {"ns", "nanosecond"}, 1},
        {"us", {"\xce\xbcs", "us", "microsecond"}, 1e3},
        {"ms", {"ms", "millisecond"}, 1e6},
        {"s", {"s", "sec", "second"}, 1e9},
        {"hrs", {"hour", "hr"}, 3600e9}},
       3},
      {{{"n*GCU", {"nanogcu"}, 1e-9},
        {"u*GCU", {"microgcu"}, 1e-6},
        {"m*GCU", {"milligcu"}, 1e-3},
        {"GCU", {"gcu"}, 1},
        {"k*GCU", {"kilogcu"}, 1e3},
        {"M*GCU", {"megagcu"}, 1e6},
        {"G*GCU", {"gigagcu"}, 1e9},
        {"T*GCU", {"teragcu"}, 1e12},
        {"P*GCU", {"petagcu"}, 1e15}},
       3},
  };
  return types;
}

// pprof's sniffUnit: lower case, a plural "s" dropped from names longer
// than two letters.
const Unit* find_unit(const UnitType& type, std::string_view name) {
  std::string key(name);
  for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (key.size() > 2 && key.back() == 's') key.pop_back();
  for (const Unit& u : type.units)
    for (std::string_view a : u.aliases)
      if (a == key) return &u;
  return nullptr;
}

bool is_auto(std::string_view to) { return to == "auto" || to == "minimum"; }

}  // namespace

Scaled scale(std::int64_t value, std::string_view from, std::string_view to, int decimals) {
  if (value < 0 && value != INT64_MIN) {
    Scaled s = scale(-value, from, to, decimals);
    s.value = -s.value;
    return s;
  }
  for (const UnitType& type : unit_types()) {
    const Unit* f = find_unit(type, from);
    if (!f) continue;
    const double v = static_cast<double>(value) * f->factor / static_cast<double>(decimal_factor(decimals));
    const Unit& fallback = type.units[type.default_unit];
    if (is_auto(to)) {
      const Unit* best = nullptr;
      for (const Unit& u : type.units)
        if ((!best || u.factor >= best->factor) && v / u.factor >= 1.0) best = &u;
      if (best) return {v / best->factor, best->name};
      return {v / fallback.factor, fallback.name};
    }
    const Unit* t = find_unit(type, to);
    if (!t) t = &fallback;
    return {v / t->factor, t->name};
  }
  const double v = static_cast<double>(value) / static_cast<double>(decimal_factor(decimals));
  if (is_auto(to) || to == "count" || to == "sample" || to == "unit") return {v, ""};
  return {v, std::string(to)};
}

namespace {
// True when values of `unit` are scaled to other units (bytes, seconds).
bool is_scaled(std::string_view unit) {
  for (const UnitType& type : unit_types())
    if (find_unit(type, unit)) return true;
  return false;
}
}  // namespace

std::string scaled_label(std::int64_t value, std::string_view from, std::string_view to, int decimals) {
  Scaled s = scale(value, from, to, decimals);
  // Counts are not scaled: a fractional one is written as it is, exactly.
  if (decimals > 0 && !is_scaled(from)) return fixed_point_text(value, decimals) + s.unit;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", s.value);
  std::string text = buf;
  if (text.size() > 3 && text.compare(text.size() - 3, 3, ".00") == 0) text.resize(text.size() - 3);
  if (text == "0" || text == "-0") return "0";
  return text + s.unit;
}

std::string percentage(std::int64_t value, std::int64_t total) {
  double ratio = total == 0 ? 0 : std::fabs(static_cast<double>(value) / static_cast<double>(total)) * 100;
  char buf[48];
  if (ratio >= 99.95 && ratio <= 100.05) return "  100%";
  if (ratio >= 1.0)
    std::snprintf(buf, sizeof buf, "%5.2f%%", ratio);
  else
    std::snprintf(buf, sizeof buf, "%5.2g%%", ratio);
  return buf;
}

std::string percent(std::int64_t value, std::int64_t total) {
  std::string p = percentage(value, total);
  return p.substr(p.find_first_not_of(' '));
}

std::string output_unit(std::int64_t min_value, std::int64_t max_value, std::string_view sample_unit,
                        int decimals) {
  if (min_value == 0) min_value = max_value;
  const std::string min_unit = scale(min_value, sample_unit, "minimum", decimals).unit;
  const std::string max_unit = scale(max_value, sample_unit, "minimum", decimals).unit;
  std::string unit = min_unit;
  // Different units at the two ends: scale the minimum by 100 so that it
  // can still be written down to 0.01 of the larger unit.
  if (min_unit != max_unit && static_cast<double>(min_value) * 100 < static_cast<double>(max_value))
    unit = scale(100 * min_value, sample_unit, "minimum", decimals).unit;
  return unit.empty() ? std::string(sample_unit) : unit;
}

bool is_time(std::string_view unit) { return find_unit(unit_types()[1], unit) != nullptr; }

}  // namespace fg::units
