// The JSON layer of the DeepFlow reader: the response envelope (or a bare
// list) parsed with simdjson's On-Demand API into flat node records whose
// strings point into the parser's buffers. Nothing here knows the tree.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fg/error.h"
#include "formats/input.h"

namespace fg::formats::deepflow {

/// One element of `result`, as written.
struct RawNode {
  std::string_view name;     ///< profile_location_str, unescaped
  std::string_view id;       ///< node_id
  std::string_view parent;   ///< parent_node_id
  std::int64_t self = 0;     ///< self_value, >= 0
  std::int64_t total = 0;    ///< total_value, >= 0
  std::uint64_t offset = 0;  ///< where the node's '{' is in the input
};

struct Response {
  std::vector<RawNode> nodes;
  /// "result" for an envelope, "" for a bare list: nodes are named
  /// `result[i]` or `[i]` in messages.
  std::string list_name;
  std::uint64_t list_offset = 0;          ///< where the list's '[' is
  std::optional<std::string> value_type;  ///< "type/unit", from fg's own envelope
  std::int64_t schema_version = 0;        ///< fg_schema_version of fg's envelope, else 0
  std::uint64_t schema_version_offset = 0;
};

/// Owns the input's bytes (or mapping) and the unescaped strings, which the
/// RawNode strings point into: keep it alive while the nodes are used.
class ResponseParser {
 public:
  /// Reads the whole (inflated) input; throws fg::Error on I/O failure.
  explicit ResponseParser(Input& input);
  ~ResponseParser();

  /// Parses the document. Throws ParseError with a line and column for
  /// malformed JSON, a field of the wrong type, a missing field, a value
  /// that is not a non-negative 64-bit integer, and an OPT_STATUS other
  /// than SUCCESS (quoting DESCRIPTION).
  Response parse();

  /// "file:line:col" of a byte offset in the input.
  SourcePosition position(std::uint64_t offset) const;
  /// `list_name[index]`, the name of a node in messages.
  static std::string node_label(const Response& r, std::size_t index);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fg::formats::deepflow
