// Interactive flame graph as one self-contained HTML page: the template
// formats/html/flamegraph.html (embedded at build time) with the call tree
// in a compact encoding spliced in, drawn on a canvas by the page's own
// script. No network access: script, style and data are all inline.
//
// The data is one JSON object in <script type="application/json"
// id="fg-data">; every string in it went through append_json_string(), escaped for
// a <script> element (JsonEscaping::kScript).
// The tree is pre-order, three numbers a node, root excluded:
//   nodes: [name, up, self, name, up, self, ...]
// `name` indexes `names` (and `nameKinds`), sorted in flamegraph.pl's
// sibling order, so a page can sort any children by index; `up` is how many
// levels the node lies above "one deeper than the previous node" (0: child
// of the previous node); `self` is the node's own value divided by `scale`
// (the gcd of all values, which keeps the numbers short). A diff profile
// adds `base`, the base column's self values in the same order.
#pragma once

#include <ostream>

#include "fg/diagnostics.h"
#include "fg/profile.h"
#include "formats/options.h"

namespace fg::formats::html {

/// Throws UsageError for options the page cannot honour (an unknown
/// palette, --flamechart) and Error when the selected column has nothing
/// to draw.
void write_flamegraph(const Profile& profile, const WriteOptions& options, std::ostream& out,
                      Diagnostics& diagnostics);
/// Throws the UsageError that write_flamegraph() would for `options`,
/// without a profile: tools call it before reading anything.
void check_write_options(const WriteOptions& options);

}  // namespace fg::formats::html
