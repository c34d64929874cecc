// Options that readers and writers take, filled by the tools from their
// command lines. Each format reads only the part it needs.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fg/granularity.h"
#include "fg/thread_mode.h"

namespace fg {
class CallGraphCache;  // fg/call_graph.h
}  // namespace fg

namespace fg::formats {

/// Options of the flame graph writers, with flamegraph.pl's names and defaults.
struct FlameGraphOptions {
  std::string title;  ///< "" means "Flame Graph" / "Icicle Graph" / "Flame Chart"
  std::string subtitle;
  int width = 1200;               ///< image width, pixels
  double frame_height = 16;       ///< --height: height of one frame, pixels
  std::string min_width = "0.1";  ///< pixels, or a percentage of the total with '%'
  std::string font_type = "Verdana";
  double font_size = 12;
  double font_width = 0.59;  ///< average glyph width relative to font_size
  std::string count_name;    ///< "" means "samples" for counts, else the unit
  std::string name_type = "Function:";
  std::string colors = "hot";  ///< palette name
  std::string bg_colors;       ///< "" chooses by palette; yellow|blue|green|grey|#rrggbb
  bool hash = false;           ///< flamegraph.pl --hash colouring (by name, weighted)
  bool reverse = false;        ///< stack-reversed graph
  bool inverted = false;       ///< icicle graph
  bool flame_chart = false;    ///< time order, no merging
  bool negate = false;         ///< swap the red/blue hues of a differential graph
  bool colorblind = false;     ///< differential graphs in orange/purple instead of red/blue
  /// Differential graphs: also draw the frames found only in the base, at
  /// their base width, hatched grey, in a band right of the graph (the
  /// graph itself keeps flamegraph.pl's geometry).
  bool show_removed = false;
  std::string notes;
};

/// How readers of unsymbolized profiles (jemalloc heap dumps) find and
/// use symbols. See formats/jemalloc/symbolizer.h for the search order.
struct SymbolizeOptions {
  std::vector<std::string> symbol_paths;  ///< --symbol-path DIR, in order
  std::string sysroot;                    ///< --sysroot DIR: recorded paths are looked up under it
  bool keep_allocator_frames = false;     ///< --keep-allocator-frames
};

/// Java Flight Recorder reading options, with the names of async-profiler's
/// converter (jfrconv): which events become samples, and how frames are named.
struct JfrOptions {
  enum class Events {
    kDefault,     ///< execution, native-method and wall-clock samples, as the converter
    kCpu,         ///< samples in async-profiler's STATE_DEFAULT (its cpu/itimer events)
    kWall,        ///< samples in any other thread state
    kAlloc,       ///< jdk.ObjectAllocationInNewTLAB/OutsideTLAB/ObjectAllocationSample
    kLive,        ///< profiler.LiveObject
    kNativeMem,   ///< profiler.Malloc (with leak: those never freed)
    kLock,        ///< jdk.JavaMonitorEnter, jdk.ThreadPark
    kNativeLock,  ///< profiler.NativeLock
  };
  Events events = Events::kDefault;
  bool leak = false;     ///< with kNativeMem: only allocations not freed in the recording
  bool total = false;    ///< default column: the events' weight (ns, bytes) instead of counts
  bool threads = false;  ///< the thread as the root frame
  std::string state;     ///< comma-separated thread states (prefixes: runnable,sleeping); "" all
  std::string time_from,
      time_to;  ///< ms (absolute, from the start, or negative: from the end) or [date T]HH:MM:SS[.mmm]
  bool simple = false;  ///< class names without their package
  bool dot = false;     ///< java.lang.String instead of java/lang/String
  bool norm = false;    ///< strip the address/hash suffixes of lambda and hidden classes
  bool lines = false;   ///< frame names with :line
  bool bci = false;     ///< frame names with @bci
};

/// Options of the DeepFlow ProfileTracing JSON reader.
struct DeepFlowReadOptions {
  /// --deepflow-event: on-cpu, off-cpu, mem-alloc, mem-inuse or TYPE/UNIT;
  /// unset: the value type fg wrote into the envelope, else on-cpu.
  std::optional<std::string> event;
  /// What `[t]` (thread) nodes become: a frame named as written ("[t] name",
  /// as DeepFlow draws them), a `thread` label on the samples below, or
  /// nothing (the threads of a process merge).
  ThreadMode thread_as = ThreadMode::kFrame;
  bool lenient = false;  ///< keep orphaned nodes under an "[orphaned]" frame
};

struct ReadOptions {
  /// The finest frames the caller will look at: a reader may drop what is
  /// finer while it reads, as at_granularity() would afterwards, and save
  /// building the profile twice (pprof's reader does; the others keep all).
  Granularity frames = Granularity::kAddress;
  /// Whether the caller will look at the samples' labels (threads, thread
  /// states): false lets a reader merge samples that differ only in them
  /// (the JFR reader does; the others keep all).
  bool labels = true;
  /// Whether the caller lays samples out in the order they were read (a
  /// flame chart): a reader of untimed records then keeps each record its
  /// own sample, with its ordinal (first_ordinal, and on) as the timestamp,
  /// instead of merging records of equal stack (the collapsed reader does;
  /// timed readers keep their timestamps).
  bool sequence = false;
  std::int64_t first_ordinal = 1;  ///< with sequence: the first record's; the next input's follows
  SymbolizeOptions symbolize;
  JfrOptions jfr;
  /// Receives informational notes for the user (not warnings: --strict
  /// does not turn them into errors), e.g. which other events a file holds.
  std::function<void(const std::string&)> note;
  /// The caller reads every kind of event the input holds, each on its own
  /// (fg-report's page per kind, registry.h event_kinds()): a reader's note
  /// on its default events leaves out the other kinds the input holds and
  /// the options that would read them.
  bool every_kind_read = false;
  DeepFlowReadOptions deepflow;
};

/// Options of the node/parent JSON writer (--to json).
struct JsonWriteOptions {
  std::string root_name;  ///< "" means the profile's own root name, else "Total"
  bool envelope = false;  ///< wrap the node list in DeepFlow's response envelope
};

/// Options of fg-diff's report (the "report" writer).
struct ReportOptions {
  std::string format = "text";      ///< text | markdown | csv | json
  std::size_t top = 10;             ///< rows; 0: every function that changed
  bool by_self = false;             ///< rank by the change of self value instead of share of the total
  double min_delta = 0;             ///< leave out changes under this many points of share (and self %)
  std::string base_name, new_name;  ///< the inputs, as given
  std::string names;  ///< how names were matched ("normalised across builds (...)"), for the header
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
  ReportOptions report;
  /// When set, the top table and call graph writers take the call graphs
  /// of the profile they are given from it (built once for every view of
  /// the profile); not owned.
  CallGraphCache* call_graphs = nullptr;
};

}  // namespace fg::formats
