// Frame colours of flamegraph.pl's palettes, computed from the frame name
// alone, so a name has the same colour in every graph and on every run.
// The default reproduces flamegraph.pl's default colours exactly (its
// per-name seeded generator is drand48); --hash its weighted name hash.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace fg::formats {

struct Rgb {
  int r = 0, g = 0, b = 0;
  std::string css() const;  ///< "rgb(r,g,b)"
};

/// True for the palettes --colors accepts.
bool is_palette(std::string_view name);
/// The choices, for messages: "hot, mem, io, ...".
std::string_view palette_names();

/// The colour of `name` (with its collapsed annotation, e.g. "foo_[j]") in
/// `palette`. `hash` selects flamegraph.pl's --hash weighting.
Rgb frame_color(std::string_view palette, bool hash, std::string_view name);

/// The red/blue of a differential frame, as flamegraph.pl's color_scale.
Rgb diff_color(std::int64_t delta, std::int64_t max_abs_delta, bool negate, bool colorblind = false);

/// The background gradient (two colours) for --bgcolors, chosen from the
/// palette when `bgcolors` is empty. Throws UsageError for an unknown value.
std::pair<std::string, std::string> background(std::string_view bgcolors, std::string_view palette);

}  // namespace fg::formats
