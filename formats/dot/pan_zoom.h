// The rendered call graph (--to callgraph-svg) made viewable in a browser,
// as go tool pprof -svg makes its graph: the SVG fills the window (its
// viewBox kept, so the whole graph fits), and a small script of ours zooms
// with the wheel around the cursor and pans with a drag. Nothing is loaded
// from elsewhere.
#pragma once

#include <string>
#include <string_view>

namespace fg::formats::dot {

/// `svg` (Graphviz's SVG rendering of a graph) with width and height set to
/// 100%, the drawing wrapped in <g id="fg-viewport">, and after it the
/// pan/zoom script, which transforms that group. Adds no
/// text from the profile. Throws Error when `svg` has no <svg> element.
std::string with_pan_zoom(std::string_view svg);

}  // namespace fg::formats::dot
