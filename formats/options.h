// Options that readers and writers take, filled by the tools from their
// command lines. Each format reads only the part it needs.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "fg/granularity.h"

namespace fg::formats {

/// Options of the flame graph writers, with flamegraph.pl's names and defaults.
struct FlameGraphOptions {
  std::string title;            ///< "" means "Flame Graph" / "Icicle Graph" / "Flame Chart"
  std::string subtitle;
  int width = 1200;             ///< image width, pixels
  double frame_height = 16;     ///< --height: height of one frame, pixels
  std::string min_width = "0.1";  ///< pixels, or a percentage of the total with '%'
  std::string font_type = "Verdana";
  double font_size = 12;
  double font_width = 0.59;     ///< average glyph width relative to font_size
  std::string count_name;       ///< "" means "samples" for counts, else the unit
  std::string name_type = "Function:";
  std::string colors = "hot";   ///< palette name
  std::string bg_colors;        ///< "" chooses by palette; yellow|blue|green|grey|#rrggbb
  bool hash = false;            ///< flamegraph.pl --hash colouring (by name, weighted)
  bool reverse = false;         ///< stack-reversed graph
  bool inverted = false;        ///< icicle graph
  bool flame_chart = false;     ///< time order, no merging
  bool negate = false;          ///< swap the red/blue hues of a differential graph
  std::string notes;
};

/// What the DeepFlow reader makes of `[t]` (thread) nodes.
enum class ThreadAs {
  kFrame,  ///< a frame named as written ("[t] name"), as DeepFlow draws them
  kLabel,  ///< no frame: a `thread` label on the samples below the node
  kFold,   ///< no frame and no label: the threads of a process merge
};

/// Options of the DeepFlow ProfileTracing JSON reader.
struct DeepFlowReadOptions {
  /// --deepflow-event: on-cpu, off-cpu, mem-alloc, mem-inuse or TYPE/UNIT;
  /// unset: the value type fg wrote into the envelope, else on-cpu.
  std::optional<std::string> event;
  ThreadAs thread_as = ThreadAs::kFrame;
  bool lenient = false;  ///< keep orphaned nodes under an "[orphaned]" frame
};

struct ReadOptions {
  DeepFlowReadOptions deepflow;
};

/// Options of the node/parent JSON writer (--to json).
struct JsonWriteOptions {
  std::string root_name;  ///< "" means the profile's own root name, else "Total"
  bool envelope = false;  ///< wrap the node list in DeepFlow's response envelope
};

struct WriteOptions {
  std::optional<std::string> value;  ///< --value NAME|INDEX
  /// How finely the views that draw or fold stacks (flame graph, collapsed)
  /// tell frames apart; formats that keep every detail (pprof, dump) ignore it.
  Granularity granularity = Granularity::kFunction;
  /// Report (top table, call graph) options, with pprof's names and defaults.
  std::size_t node_count = 0;    ///< at most this many rows or nodes; 0: no limit
  double node_fraction = 0.005;  ///< drop nodes whose |cum| is under this share of the total
  double edge_fraction = 0.001;  ///< drop edges whose |weight| is under this share of the total
  bool sort_by_cum = false;      ///< top table order: cum first instead of flat
  FlameGraphOptions flame;
  JsonWriteOptions json;
};

}  // namespace fg::formats
