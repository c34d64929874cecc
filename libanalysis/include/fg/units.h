// Values in their units, written as go tool pprof writes them: scaled to a
// readable unit ("1.50MB", "8.16s"), percentages of a total, and the one
// output unit a whole report is written in. The unit names pprof knows
// (bytes, kB..PB; ns, us, ms, s, hrs; GCU multiples) are matched loosely as
// pprof matches them: case-insensitive, a plural "s" ignored.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace fg::units {

struct Scaled {
  double value = 0;
  std::string unit;  ///< canonical short name ("MB", "ms"), "" for plain counts
};

/// `value` in `from` units converted to `to`: a unit name, or "auto" /
/// "minimum" for the largest unit in which the value is at least 1. Values
/// of an unknown unit are returned unchanged (unit "" for count, sample,
/// unit, auto and minimum; `to` otherwise). `value` is fixed point with
/// `decimals` digits (ValueType::decimals): value / 10^decimals of `from`.
Scaled scale(std::int64_t value, std::string_view from, std::string_view to, int decimals = 0);

/// scale() printed with two decimals, ".00" dropped: "1.50MB", "3s", "0".
/// A fixed-point value of a unit that is not scaled (counts) is written
/// exactly, with the digits it has: "335.2", "0.125".
std::string scaled_label(std::int64_t value, std::string_view from, std::string_view to, int decimals = 0);

/// scaled_label(value, unit, "auto", decimals).
inline std::string label(std::int64_t value, std::string_view unit, int decimals = 0) {
  return scaled_label(value, unit, "auto", decimals);
}

/// |value| / |total| as a percentage, padded as pprof pads it: "  100%",
/// "%5.2f%%" from 1% up, "%5.2g%%" below.
std::string percentage(std::int64_t value, std::int64_t total);

/// percentage() without its padding.
std::string percent(std::int64_t value, std::int64_t total);

/// The unit a report is written in, as pprof chooses it: the auto-scaled
/// unit of the smallest shown value, or of 100 times it when the largest
/// (`max_value`, the total) would need a larger unit. Returns `sample_unit`
/// when it is not a unit pprof scales.
/// Values are fixed point with `decimals` digits, as for scale().
std::string output_unit(std::int64_t min_value, std::int64_t max_value, std::string_view sample_unit,
                        int decimals = 0);

/// True when `unit` is a unit of time (so a total can be compared with a
/// duration).
bool is_time(std::string_view unit);

}  // namespace fg::units
