// UTF-8 decoding shared by every writer that must emit valid text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace fg {

inline constexpr char32_t kReplacementChar = 0xFFFD;

/// Decodes one code point at s[pos] and advances pos. An invalid or
/// truncated sequence yields kReplacementChar and advances one byte.
char32_t next_code_point(std::string_view s, std::size_t& pos);

/// Number of code points (invalid bytes count one each).
std::size_t code_point_count(std::string_view s);

/// The byte length of the first n code points of s.
std::size_t code_point_prefix(std::string_view s, std::size_t n);

/// Appends code point c (at most 0x10FFFF) to out, encoded as UTF-8.
void append_utf8(std::string& out, char32_t c);

}  // namespace fg
