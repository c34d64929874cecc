// Numbers in the SVG exactly as flamegraph.pl prints them (printf "%.1f",
// "%.2f", and Perl's "%.15g"), without printf: a graph can have a million
// frames with six numbers each.
#pragma once

#include <cstdint>
#include <string>

namespace fg::formats::svg {

/// v * 10^digits (digits 0..2) rounded as printf rounds: the exact binary
/// value of v to nearest, ties to even. |v| must be below 1e15.
std::int64_t round_scaled(double v, int digits);
/// Appends `units` of 10^-digits as a decimal ("123.4"); `negative` gives
/// printf's "-0.0" for a negative value that rounded to zero.
void append_scaled(std::string& out, std::int64_t units, int digits, bool negative);
/// printf("%.*f", digits, v) for digits 0..2.
void append_fixed(std::string& out, double v, int digits);
std::string fixed(double v, int digits);
/// Perl's default number format, "%.15g".
void append_perl_number(std::string& out, double v);
std::string perl_number(double v);
void append_int(std::string& out, std::int64_t v);

}  // namespace fg::formats::svg
