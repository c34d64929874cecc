// DeepFlow ProfileTracing JSON, the node/parent flame graph list that
// DeepFlow's querier answers to `POST /v1/profile/ProfileTracing` (server
// 6.5 and earlier; 6.6 replaced it with a columnar shape, which is refused):
//
//   {"OPT_STATUS": "SUCCESS", "DESCRIPTION": "", "result": [NODE, ...], "debug": null}
//   NODE = {"profile_location_str": "main.run", "node_id": "<uuid>",
//           "parent_node_id": "<uuid>", "self_value": 10, "total_value": 25}
//
// or the bare list of nodes. The root is the node with parent_node_id "-1"
// (node_id "", named after the process, or `Total` for a host-wide view);
// its children name "" as their parent; every other node's id is the
// UUIDv5 (OID namespace) of its path "f1;f2;...;fk". Nodes come in any
// order. Values are integer microseconds of on-CPU or off-CPU time (or bytes
// for memory events). Names carry prefixes: `[k]` kernel, `[l]` dynamic
// library, `[t]` thread, `[p]` process. The shape fg writes, and its
// version, are documented in man/fg-json.5.
#pragma once

#include <ostream>
#include <string_view>

#include "fg/diagnostics.h"
#include "fg/profile.h"
#include "formats/format.h"
#include "formats/input.h"
#include "formats/options.h"

namespace fg::formats::deepflow {

/// The version of the JSON shape fg writes (the envelope's
/// "fg_schema_version"); raised when a consumer would see a difference.
inline constexpr int kSchemaVersion = 1;

/// Yes for a JSON document whose first bytes name DeepFlow's keys, maybe
/// for other JSON objects and arrays.
Sniff sniff(std::string_view head, std::string_view filename);

/// Reads a response (or bare node list) into a profile: one stack per node,
/// self values as samples. Throws ParseError ("file:line:col: result[i]:
/// ...") for malformed JSON, wrong field types, a missing or second root,
/// duplicate node ids, cycles and (unless options.deepflow.lenient)
/// orphaned nodes; an OPT_STATUS other than SUCCESS is a ParseError quoting
/// DESCRIPTION. Totals that are not self plus the children's totals are
/// warnings naming the node.
Profile read(Input& input, const ReadOptions& options, Diagnostics& diagnostics);

/// Writes the call tree of the selected column (--value) as a node list,
/// root first, then depth first with siblings in bytewise name order
/// (siblings of one written name merged, nodes with a zero total left out);
/// node ids as DeepFlow computes them; `[k]` and `[l]` prefixes from frame
/// kinds, `_[j]`-style suffixes for the kinds DeepFlow has no prefix for.
/// Streams; names pass through append_json_string(), and invalid UTF-8
/// replaced there is reported as one warning.
void write(const Profile& profile, const WriteOptions& options, std::ostream& out, Diagnostics& diagnostics);

}  // namespace fg::formats::deepflow
