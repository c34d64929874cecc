// Numbers in the SVG exactly as flamegraph.pl prints them (printf "%.1f",
// "%.2f", and Perl's "%.15g"), without printf: a graph can have a million
// frames with six numbers each. Each format has a writer into a caller's
// buffer (returns the end; the caller makes room for the most it can take)
// and an appender to a string built on it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace fg::formats {

/// Room that write_int, write_grouped, write_scaled and write_perl_number
/// may need.
inline constexpr std::size_t kMaxNumberChars = 32;
/// Room that write_fixed may need (a value past 1e15 is printed in full).
inline constexpr std::size_t kMaxFixedChars = 330;

/// v * 10^digits (digits 0..2) rounded as printf rounds: the exact binary
/// value of v to nearest, ties to even. |v| must be below 1e15.
std::int64_t round_scaled(double v, int digits);

char* write_int(char* p, std::int64_t v);
/// The integer with a comma between groups of three digits ("1,234,567").
char* write_grouped(char* p, std::int64_t v);
/// `units` of 10^-digits as a decimal ("123.4"); `negative` gives printf's
/// "-0.0" for a negative value that rounded to zero.
char* write_scaled(char* p, std::int64_t units, int digits, bool negative);
/// printf("%.*f", digits, v) for digits 0..2.
char* write_fixed(char* p, double v, int digits);
/// Perl's default number format, "%.15g".
char* write_perl_number(char* p, double v);

void append_int(std::string& out, std::int64_t v);
void append_scaled(std::string& out, std::int64_t units, int digits, bool negative);
void append_fixed(std::string& out, double v, int digits);
std::string fixed(double v, int digits);
void append_perl_number(std::string& out, double v);
std::string perl_number(double v);

}  // namespace fg::formats
