// Where a tool's output goes: standard output, or a file written to a
// temporary beside it (TARGET.tmp-XXXXXX, the name cut to fit NAME_MAX)
// and renamed into place by commit(), so a failed run never leaves a
// half-written file. The new file keeps the mode and owner of the one it
// replaces; one with other hard links is overwritten in place once the
// temporary is complete, so the links stay. Devices and FIFOs (/dev/null,
// a named pipe) are written directly, and a symbolic link's target is
// replaced, not the link (a dangling link's target is created). A
// temporary left by SIGKILL, which no handler sees, keeps that name.
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
  /// Flushes and moves the file into place. Throws fg::Error on failure,
  /// "NAME: write failed: REASON" when the data could not be written.
  void commit();
  /// Flushes std::cout (--help, --info, --list-formats); throws fg::Error
  /// "standard output: write failed: REASON" when it cannot be written.
  static void flush_standard_output();
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
  bool in_place_ = false;  ///< commit() copies the temporary over path_ (a file with hard links)
};

}  // namespace fg::formats
