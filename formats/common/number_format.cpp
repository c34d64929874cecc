#include "formats/common/number_format.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace fg::formats {

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
  const double down = std::floor(p);
  const double frac = p - down;
  if (frac != 0.5) return static_cast<std::int64_t>(frac > 0.5 ? down + 1 : down);
  const double err = std::fma(v, scale, -p);
  const bool up = err > 0 || (err == 0 && std::fmod(down, 2) != 0);
  return static_cast<std::int64_t>(up ? down + 1 : down);
}

char* write_int(char* p, std::int64_t v) { return std::to_chars(p, p + kMaxNumberChars, v).ptr; }

char* write_grouped(char* p, std::int64_t v) {
  char digits[kMaxNumberChars];
  char* end = write_int(digits, v);
  const char* d = digits;
  if (*d == '-') *p++ = *d++;
  auto n = static_cast<std::size_t>(end - d);
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) *p++ = ',';
    *p++ = d[i];
  }
  return p;
}

char* write_scaled(char* p, std::int64_t units, int digits, bool negative) {
  if (units < 0 || negative) *p++ = '-';
  const std::uint64_t u =
      units < 0 ? 0 - static_cast<std::uint64_t>(units) : static_cast<std::uint64_t>(units);
  if (digits == 0) return std::to_chars(p, p + kMaxNumberChars, u).ptr;
  // Constant divisors, which compile to multiplications.
  const std::uint64_t whole = digits == 1 ? u / 10 : u / 100;
  const auto frac = static_cast<unsigned>(digits == 1 ? u % 10 : u % 100);
  p = std::to_chars(p, p + kMaxNumberChars, whole).ptr;
  *p++ = '.';
  if (digits == 1) {
    *p++ = static_cast<char>('0' + frac);
  } else {
    *p++ = static_cast<char>('0' + frac / 10);
    *p++ = static_cast<char>('0' + frac % 10);
  }
  return p;
}

char* write_fixed(char* p, double v, int digits) {
  if (!(std::fabs(v) < 1e15))  // out of the exact range (never for pixel values)
    return std::to_chars(p, p + kMaxFixedChars, v, std::chars_format::fixed, digits).ptr;
  std::int64_t units = round_scaled(v, digits);
  return write_scaled(p, units, digits, units == 0 && std::signbit(v));
}

// Frame positions are whole or half pixels for whole font sizes; anything
// else goes the long way.
char* write_perl_number(char* p, double v) {
  if (std::fabs(v) < 1e14 && v * 2 == std::floor(v * 2)) {
    double whole = std::trunc(v);
    if (whole == 0 && v < 0) *p++ = '-';
    p = write_int(p, static_cast<std::int64_t>(whole));
    if (v != whole) {
      std::memcpy(p, ".5", 2);
      p += 2;
    }
    return p;
  }
  return std::to_chars(p, p + kMaxNumberChars, v, std::chars_format::general, 15).ptr;
}

void append_int(std::string& out, std::int64_t v) {
  char buf[kMaxNumberChars];
  out.append(buf, write_int(buf, v));
}

void append_scaled(std::string& out, std::int64_t units, int digits, bool negative) {
  char buf[kMaxNumberChars];
  out.append(buf, write_scaled(buf, units, digits, negative));
}

void append_fixed(std::string& out, double v, int digits) {
  char buf[kMaxFixedChars];
  out.append(buf, write_fixed(buf, v, digits));
}

std::string fixed(double v, int digits) {
  std::string out;
  append_fixed(out, v, digits);
  return out;
}

void append_perl_number(std::string& out, double v) {
  char buf[kMaxNumberChars];
  out.append(buf, write_perl_number(buf, v));
}

std::string perl_number(double v) {
  std::string out;
  append_perl_number(out, v);
  return out;
}

}  // namespace fg::formats
