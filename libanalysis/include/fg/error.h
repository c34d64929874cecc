// Error types of fg. The library throws; only the tools' run_tool() catches
// and chooses the exit status (UsageError: 2, ParseError and Error: 1).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace fg {

/// Any failure that is not the user's wording of a command: I/O, bad data.
/// Exit status 1.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

/// The command line or an option value is wrong. Exit status 2.
class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& message) : std::runtime_error(message) {}
};

/// Where in an input something was found: a text position (line and column,
/// both 1-based) or a byte offset for binary formats. An empty file name
/// means the position is unknown.
struct SourcePosition {
  std::string file;
  std::uint64_t line = 0;    ///< 1-based; 0 when the input is binary
  std::uint64_t column = 0;  ///< 1-based byte column; 0 when unknown
  std::uint64_t offset = 0;  ///< byte offset, used when line is 0

  static SourcePosition text(std::string file, std::uint64_t line, std::uint64_t column = 0);
  static SourcePosition binary(std::string file, std::uint64_t offset);

  /// "file:line:col", "file:line" or "file: offset 0x1a2b".
  std::string to_string() const;
};

/// Bad input data. what() is "<position>: <message>", e.g.
/// "in.folded:3:7: expected a count at the end of the line".
class ParseError : public Error {
 public:
  ParseError(SourcePosition position, const std::string& message);
  const SourcePosition& position() const { return position_; }
  const std::string& message() const { return message_; }

 private:
  SourcePosition position_;
  std::string message_;
};

}  // namespace fg
