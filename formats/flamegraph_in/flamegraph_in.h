// Flame graphs read back: the drawings other tools hand out (async-profiler's
// HTML pages of every generation from 2.x to 4.x, flamegraph.pl's and
// inferno's SVGs) and fg's own, turned into profiles again. The drawing
// gives each frame's name, kind (where drawn) and width; the tree comes from
// the nesting. Frames pruned from a drawing (too narrow to draw) stay in
// their parent's self, so every drawn frame's total is kept. These readers
// back the "html" and "svg" rows of the registry, whose writers draw.
#pragma once

#include <string>
#include <string_view>

#include "fg/diagnostics.h"
#include "fg/profile.h"
#include "formats/format.h"
#include "formats/input.h"
#include "formats/options.h"

namespace fg::formats::flamegraph_in {

/// Yes for a page that starts as HTML (<!DOCTYPE html> or <html>, after
/// blanks), no otherwise: which page it is, the reader tells from its script.
Sniff sniff_html(std::string_view head, std::string_view filename);

/// Reads fg's own page or an async-profiler page (2.x to 4.x). Throws ParseError
/// (file:line:col) for a page that is neither, or whose frame data is
/// broken or truncated.
Profile read_html(Input& input, const ReadOptions& options, Diagnostics& diagnostics);

/// Whether `text` is a page fg's own HTML writer drew (its data element).
bool is_fg_page(std::string_view text);
/// fg's own page held in memory, read back: exactly the profile drawn
/// (names, kinds, self values, a diff's base). Throws ParseError for
/// malformed or inconsistent page data.
Profile read_fg_page(std::string_view text, const std::string& file);

/// An async-profiler page held in memory (read_html's work; for tests).
Profile read_async_profiler_page(std::string_view text, const std::string& file, const ReadOptions& options);

/// Yes for an SVG whose head has flamegraph.pl's, inferno's or fg's
/// frames group, maybe for another SVG, no otherwise.
Sniff sniff_svg(std::string_view head, std::string_view filename);

/// Reads a flamegraph.pl, inferno or fg SVG flame graph. Throws ParseError
/// (file:line:col) for an SVG with no frames, a frame title without its
/// count or a root that is not alone in the bottom (or top) row. Warns
/// of a frame on no frame of the row below (left out) and of one wider
/// than its parent has left (rounded counts: clamped).
Profile read_svg(Input& input, const ReadOptions& options, Diagnostics& diagnostics);

/// An SVG held in memory (read_svg's work; for tests).
Profile read_svg_text(std::string_view text, const std::string& file, const ReadOptions& options,
                      Diagnostics& diagnostics);

}  // namespace fg::formats::flamegraph_in
