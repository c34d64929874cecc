// How finely frames are told apart when a view is drawn: pprof's
// --granularity. A profile read from pprof or JFR knows the line and address
// of every frame; a flame graph or a folded file wants one box or one name
// per function unless the user asks for lines.
#pragma once

#include <string>

#include "fg/profile.h"

namespace fg {

enum class Granularity {
  kFunction,  ///< one frame per function name (and kind): lines, addresses, modules (but an
              ///< unsymbolized frame's) and the function's file and start line dropped, so
              ///< two builds' frames match by name
  kLine,      ///< one frame per function and source line
  kAddress,   ///< every frame as read
  kFile,      ///< one frame per source file (pprof's -files): named by the file, else
              ///< "[module]", else "<unknown>"
};

/// The name a frame has at file granularity.
std::string file_frame_name(const Profile& profile, FrameId frame);

/// pprof's name for code that no symbol names, per function and per line:
/// "[module]" (its file's base name), or "<unknown>" without a module.
std::string module_frame_name(const Profile& profile, FrameId frame);

/// True when some frame of `profile` holds detail that `g` drops (so
/// at_granularity() would change it).
bool finer_than(const Profile& profile, Granularity g);

/// A copy of `profile` whose frames keep only what `g` shows; samples whose
/// stacks become equal merge.
Profile at_granularity(const Profile& profile, Granularity g);

}  // namespace fg
