// Frame names as async-profiler's converter (jfrconv, converter.jar) makes
// them, so that fg's output agrees with it name for name:
//
//   class.method          class in JVM form (java/lang/String), or dotted
//                         with --dot; package dropped with --simple; lambda
//                         and hidden-class suffixes cut with --norm
//   method                for C, C++ and kernel frames (async-profiler's
//                         Native type, when the recording also knows Kernel)
//   byte[], java.lang.String   an allocated class (always dotted, arrays as [])
//   [name tid=N]          a thread as the root frame (--threads)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace fg::formats::jfr {

struct NamingOptions {
  bool simple = false;  ///< class names without their package
  bool dot = false;     ///< java.lang.String instead of java/lang/String
  bool norm = false;    ///< strip hidden-class address suffixes ($$Lambda$12.0x..., $$Lambda$12+0x.../hash)
  bool lines = false;   ///< append :line
  bool bci = false;     ///< append @bci (when there is no line to append)
};

/// A class name from its JVM symbol, from byte `start` (after any '['), as
/// the converter's toJavaClassName: primitive descriptors become their
/// Java names, `Lpkg/Name;` loses its L and ;.
std::string java_class_name(std::string_view symbol, std::size_t start, bool dotted,
                            const NamingOptions& options);

/// The name of an allocated or locked class: dotted, arrays as `int[][]`.
std::string allocated_class_name(std::string_view symbol, const NamingOptions& options);

/// A Java method frame: `class.method`, or `method` when `class_symbol` is
/// empty or `native_code` (a C, C++ or kernel frame), or `class` when the
/// method name is empty.
std::string method_frame_name(std::string_view class_symbol, std::string_view method, bool native_code,
                              const NamingOptions& options);

/// Appends ":line" (options.lines, line != 0) or else "@bci" (options.bci,
/// bci != 0) as the converter does: both as 16-bit values, so a JDK line
/// of -1 reads 65535.
void append_location(std::string& name, std::int32_t line, std::int32_t bci, const NamingOptions& options);

/// `[name tid=N]`, or `[tid=N]` for a thread without a name, or the name
/// itself when it already reads `[tid=...`.
std::string thread_frame_name(const std::string* name, std::uint64_t tid);

}  // namespace fg::formats::jfr
