// The script embedded in every flame graph SVG: details on hover, click to
// zoom, reset, regular-expression search with an ignore-case switch and the
// matched percentage (nested matches counted once). Reads its settings from
// attributes of the #frames group, so no profile text is ever inside it.
#pragma once

namespace fg::formats::svg {

inline constexpr const char* kFlameGraphScript = R"JS(
"use strict";
var fg = { items: [], ignorecase: false, term: null, zoomed: null };
function fg_init() {
  var frames = document.getElementById("frames");
  fg.xpad = parseFloat(frames.getAttribute("data-xpad"));
  fg.charw = parseFloat(frames.getAttribute("data-charw"));
  fg.inverted = frames.getAttribute("data-inverted") == "1";
  fg.nametype = frames.getAttribute("data-nametype") || "";
  fg.width = parseFloat(document.documentElement.getAttribute("width"));
  fg.details = document.getElementById("details").firstChild;
  fg.matched = document.getElementById("matched").firstChild;
  fg.searchbtn = document.getElementById("search");
  fg.icbtn = document.getElementById("ignorecase");
  fg.unzoombtn = document.getElementById("unzoom");
  var gs = frames.children;
  for (var i = 0; i < gs.length; i++) {
    var g = gs[i], r = g.querySelector("rect"), info = g.querySelector("title").textContent;
    var m = /\(([0-9,]+) [^()]*\)$/.exec(info);
    fg.items.push({ g: g, r: r, t: g.querySelector("text"), info: info,
      name: info.replace(/ \([^()]*\)$/, ""), count: m ? parseFloat(m[1].replace(/,/g, "")) : 0,
      x: parseFloat(r.getAttribute("x")), w: parseFloat(r.getAttribute("width")),
      y: parseFloat(r.getAttribute("y")), fill: r.getAttribute("fill") });
    g.fg_index = i;
  }
  frames.addEventListener("click", function (e) {
    var it = fg_item(e.target);
    if (it) fg_zoom(it);
  });
  frames.addEventListener("mouseover", function (e) {
    var it = fg_item(e.target);
    if (!it) return;
    var diff = it.g.getAttribute("data-diff");  // differential graphs: base, new and the change
    fg.details.nodeValue = fg.nametype + " " + it.info + (diff ? " \u2014 " + diff : "");
  });
  frames.addEventListener("mouseout", function (e) {
    if (fg_item(e.target)) fg.details.nodeValue = " ";
  });
  fg.unzoombtn.addEventListener("click", fg_unzoom);
  fg.searchbtn.addEventListener("click", function () {
    if (fg.term === null) fg_prompt(); else fg_search(null);
  });
  fg.icbtn.addEventListener("click", fg_toggle_case);
  window.addEventListener("keydown", function (e) {
    if (e.keyCode === 114 || (e.ctrlKey && e.keyCode === 70)) { e.preventDefault(); fg_prompt(); }
    else if (e.ctrlKey && e.keyCode === 73) { e.preventDefault(); fg_toggle_case(); }
    else if (e.keyCode === 27) { fg_unzoom(); fg_search(null); }
  });
}
function fg_item(node) {
  while (node && node.parentNode && node.parentNode.id !== "frames") node = node.parentNode;
  return node && node.fg_index !== undefined ? fg.items[node.fg_index] : null;
}
function fg_label(it, w) {
  var chars = Math.floor(w / fg.charw);
  if (chars < 3) return "";
  var cps = Array.from(it.name);
  if (chars >= cps.length) return it.name;
  return cps.slice(0, chars - 2).join("") + "..";
}
function fg_place(it, x, w) {
  it.r.setAttribute("x", x.toFixed(1));
  it.r.setAttribute("width", w.toFixed(1));
  it.t.setAttribute("x", (x + 3).toFixed(2));
  it.t.textContent = fg_label(it, w);
}
function fg_zoom(z) {
  var eps = 0.05, full = fg.width - 2 * fg.xpad, ratio = full / z.w;
  fg.zoomed = z;
  fg.unzoombtn.classList.remove("hide");
  for (var i = 0; i < fg.items.length; i++) {
    var it = fg.items[i], cls = it.g.classList;
    var below = fg.inverted ? it.y < z.y : it.y > z.y;
    cls.remove("hide"); cls.remove("parent");
    if (below) {
      if (it.x <= z.x + eps && it.x + it.w >= z.x + z.w - eps) { cls.add("parent"); fg_place(it, fg.xpad, full); }
      else cls.add("hide");
    } else if (it.x >= z.x - eps && it.x + it.w <= z.x + z.w + eps && (it.y !== z.y || it === z)) {
      fg_place(it, fg.xpad + (it.x - z.x) * ratio, it.w * ratio);
    } else {
      cls.add("hide");
    }
  }
}
function fg_unzoom() {
  fg.zoomed = null;
  fg.unzoombtn.classList.add("hide");
  for (var i = 0; i < fg.items.length; i++) {
    var it = fg.items[i];
    it.g.classList.remove("hide"); it.g.classList.remove("parent");
    fg_place(it, it.x, it.w);
  }
}
function fg_prompt() {
  var term = prompt("Search for frames (a regular expression" +
    (fg.ignorecase ? ", ignoring case" : "") + "; Ctrl-I toggles case)", fg.term || "");
  if (term !== null && term !== "") fg_search(term);
}
function fg_toggle_case() {
  fg.ignorecase = !fg.ignorecase;
  fg.icbtn.classList.toggle("show", fg.ignorecase);
  if (fg.term !== null) fg_search(fg.term);
}
function fg_search(term) {
  var i, it, re = null;
  for (i = 0; i < fg.items.length; i++) fg.items[i].r.setAttribute("fill", fg.items[i].fill);
  fg.term = term;
  if (term === null) {
    fg.searchbtn.classList.remove("show");
    fg.searchbtn.firstChild.nodeValue = "Search";
    fg.matched.nodeValue = " ";
    return;
  }
  try { re = new RegExp(term, fg.ignorecase ? "i" : ""); }
  catch (err) { fg.matched.nodeValue = "Invalid regular expression"; return; }
  var hits = [], total = 0;
  for (i = 0; i < fg.items.length; i++) {
    it = fg.items[i];
    if (it.count > total) total = it.count;
    if (re.test(it.name)) { it.r.setAttribute("fill", "rgb(230,0,230)"); hits.push(it); }
  }
  // Count nested matches once: by x, widest first, skip what lies inside.
  hits.sort(function (a, b) { return a.x - b.x || b.w - a.w; });
  var sum = 0, end = -1;
  for (i = 0; i < hits.length; i++) {
    if (hits[i].x >= end - 0.05) { sum += hits[i].count; end = hits[i].x + hits[i].w; }
  }
  var pct = total > 0 ? 100 * sum / total : 0;
  fg.searchbtn.classList.add("show");
  fg.searchbtn.firstChild.nodeValue = "Reset Search";
  fg.matched.nodeValue = "Matched: " + (pct === 100 ? "100" : pct.toFixed(1)) + "%";
}
)JS";

}  // namespace fg::formats::svg
