#include "formats/dot/pan_zoom.h"

#include "fg/error.h"

namespace fg::formats::dot {

namespace {

// Wheel: zoom by a factor that grows with the wheel's travel, keeping the
// point under the cursor in place. Drag: move the graph with the pointer.
// Double click: back to the whole graph. Coordinates are the root's user
// units (its viewBox), where the viewport group's transform applies. It
// comes after the group, which is in the document when it runs.
constexpr std::string_view kScript = R"(<script type="text/ecmascript"><![CDATA[
(function () {
  'use strict';
  var view = document.getElementById('fg-viewport'), svg = view.ownerSVGElement;
  var scale = 1, tx = 0, ty = 0, drag = null;
  function apply() {
    view.setAttribute('transform', 'translate(' + tx + ',' + ty + ') scale(' + scale + ')');
  }
  function at(ev) {
    var p = svg.createSVGPoint();
    p.x = ev.clientX;
    p.y = ev.clientY;
    return p.matrixTransform(svg.getScreenCTM().inverse());
  }
  svg.addEventListener('wheel', function (ev) {
    ev.preventDefault();
    var p = at(ev), next = Math.min(100, Math.max(0.02, scale * Math.exp(-ev.deltaY / 500))), k = next / scale;
    tx = p.x - k * (p.x - tx);
    ty = p.y - k * (p.y - ty);
    scale = next;
    apply();
  }, { passive: false });
  svg.addEventListener('mousedown', function (ev) {
    if (ev.button !== 0) return;
    ev.preventDefault();
    drag = at(ev);
  });
  window.addEventListener('mousemove', function (ev) {
    if (!drag) return;
    var p = at(ev);
    tx += p.x - drag.x;
    ty += p.y - drag.y;
    drag = p;
    apply();
  });
  window.addEventListener('mouseup', function () { drag = null; });
  svg.addEventListener('dblclick', function () { scale = 1; tx = 0; ty = 0; apply(); });
})();
]]></script>
)";

// Sets attribute `name` of the tag text `tag` to `value`, or adds it.
void set_attribute(std::string& tag, std::string_view name, std::string_view value) {
  const std::string key = " " + std::string(name) + "=\"";
  std::size_t at = tag.find(key);
  if (at == std::string::npos) {
    tag.insert(4, key + std::string(value) + "\"");  // after "<svg"
    return;
  }
  at += key.size();
  tag.replace(at, tag.find('"', at) - at, value);
}

}  // namespace

std::string with_pan_zoom(std::string_view svg) {
  const std::size_t open = svg.find("<svg");
  const std::size_t open_end = open == std::string_view::npos ? open : svg.find('>', open);
  const std::size_t close = svg.rfind("</svg>");
  if (open_end == std::string_view::npos || close == std::string_view::npos || close < open_end)
    throw Error("callgraph-svg: Graphviz wrote no <svg> element");
  std::string tag(svg.substr(open, open_end - open));
  set_attribute(tag, "width", "100%");
  set_attribute(tag, "height", "100%");
  std::string out;
  out.reserve(svg.size() + kScript.size() + 64);
  out.append(svg.substr(0, open)).append(tag).append(">\n<g id=\"fg-viewport\">");
  out.append(svg.substr(open_end + 1, close - open_end - 1)).append("</g>\n").append(kScript);
  out.append(svg.substr(close));
  return out;
}

}  // namespace fg::formats::dot
