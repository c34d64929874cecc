#include "formats/svg/number_format.h"

#include <charconv>
#include <cmath>

namespace fg::formats::svg {

// printf("%.*f", digits, v) for digits 0..2, as an integer count of
// 10^-digits: the exact binary value of v rounded to nearest, ties to even.
// v * scale is rounded once by the multiplication; fma() recovers that
// rounding error exactly, which decides the only doubtful case, a product
// that lands on a half.
std::int64_t round_scaled(double v, int digits) {
  // Ties to even is symmetric, and for p >= 0 the fraction p - floor(p) is
  // exact (it is not for negative p), so round the magnitude.
  if (v < 0) return -round_scaled(-v, digits);
  const double scale = digits == 0 ? 1 : digits == 1 ? 10 : 100;
  const double p = v * scale;
  const double err = std::fma(v, scale, -p);
  const double down = std::floor(p);
  const double frac = p - down;
  double r;
  if (frac > 0.5 || (frac == 0.5 && (err > 0 || (err == 0 && std::fmod(down, 2) != 0)))) r = down + 1;
  else r = down;
  return static_cast<std::int64_t>(r);
}

void append_int(std::string& out, std::int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

// Appends `units` (counts of 10^-digits) as a fixed-point decimal; `negative`
// keeps printf's "-0.0" for a negative value that rounds to zero.
void append_scaled(std::string& out, std::int64_t units, int digits, bool negative) {
  if (units < 0 || negative) out.push_back('-');
  std::uint64_t u = units < 0 ? 0 - static_cast<std::uint64_t>(units) : static_cast<std::uint64_t>(units);
  const std::uint64_t scale = digits == 0 ? 1 : digits == 1 ? 10 : 100;
  append_int(out, static_cast<std::int64_t>(u / scale));
  if (digits == 0) return;
  out.push_back('.');
  std::uint64_t frac = u % scale;
  if (digits == 2 && frac < 10) out.push_back('0');
  append_int(out, static_cast<std::int64_t>(frac));
}

// printf("%.*f", digits, v), digits 0..2.
void append_fixed(std::string& out, double v, int digits) {
  if (!(std::fabs(v) < 1e15)) {  // out of the exact range (never for pixel values)
    char buf[400];
    auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, digits);
    out.append(buf, r.ptr);
    return;
  }
  std::int64_t units = round_scaled(v, digits);
  append_scaled(out, units, digits, units == 0 && std::signbit(v));
}

std::string fixed(double v, int digits) {
  std::string out;
  append_fixed(out, v, digits);
  return out;
}

// How Perl prints a number it did not format: "%.15g". Frame positions are
// whole or half pixels for whole font sizes; anything else goes the long way.
void append_perl_number(std::string& out, double v) {
  if (std::fabs(v) < 1e14 && v * 2 == std::floor(v * 2)) {
    double whole = std::trunc(v);
    if (whole == 0 && v < 0) out.push_back('-');
    append_int(out, static_cast<std::int64_t>(whole));
    if (v != whole) out += ".5";
    return;
  }
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 15);
  out.append(buf, r.ptr);
}

std::string perl_number(double v) {
  std::string out;
  append_perl_number(out, v);
  return out;
}

}  // namespace fg::formats::svg
