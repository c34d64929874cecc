// Where a tool's output goes: standard output, or a file written to a
// temporary beside it and renamed into place by commit(), so a failed run
// never leaves a half-written file. Devices and FIFOs (/dev/null, a named
// pipe) are written directly, and a symbolic link's target is replaced, not
// the link.
#pragma once

#include <cstdio>
#include <memory>
#include <ostream>
#include <string>

namespace fg::formats {

class Output {
 public:
  /// `path` "-" or "" means standard output. Binary output to a terminal is
  /// refused with a UsageError. Throws fg::Error when the temporary cannot
  /// be created.
  Output(const std::string& path, bool binary);
  /// Throws the UsageError the constructor throws for binary output to a
  /// terminal, without opening anything (tools check before reading).
  static void refuse_terminal(const std::string& path, bool binary);
  /// Throws UsageError when `path` names a directory, or a new file in a
  /// directory that does not exist or cannot be written; tools check before
  /// reading, so a mistyped -o fails at once.
  static void check_path(const std::string& path);
  /// Removes the temporary unless commit() succeeded.
  ~Output();
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;

  std::ostream& stream() { return *stream_; }
  /// Flushes and moves the file into place. Throws fg::Error on failure.
  void commit();
  const std::string& path() const { return path_; }

 private:
  /// Opens `where` for writing through the buffer; false on failure.
  bool open_file(const std::string& where);

  std::string path_;
  std::string temp_;
  std::unique_ptr<std::ostream> owned_;
  std::ostream* stream_ = nullptr;
  std::unique_ptr<char[]> buffer_;
  bool committed_ = false;
};

}  // namespace fg::formats
