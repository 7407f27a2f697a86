/* Diagrams keep legible labels (bundled by site/hooks.py right after mermaid.min.js).
 *
 * Mermaid draws a diagram as wide as the column it sits in (`useMaxWidth`): a wide flowchart on a
 * narrow column shrinks until its labels are a few pixels high. Material calls the global
 * `mermaid.render` and puts the SVG it returns into the page; this wraps that call and gives each
 * SVG a `min-width` of MIN_SCALE times its natural width. A diagram still shrinks to fit its
 * column, but never below that scale: a wider one keeps that size and its box scrolls sideways
 * (`.md-typeset div.mermaid { overflow-x: auto }` in course.css). Labels are 16px at full size, so
 * never smaller than 16 * MIN_SCALE px. tests/course/site/browser_check.js measures them.
 */
(function () {
  'use strict';
  var MIN_SCALE = 0.8;
  var api = globalThis.mermaid;
  if (!api || typeof api.render !== 'function' || api.render.maFitted) return;
  var render = api.render;
  var fitted = function () {
    return Promise.resolve(render.apply(api, arguments)).then(function (out) {
      if (!out || typeof out.svg !== 'string') return out;
      var svg = out.svg.replace(/^(<svg\b[^>]*?\bstyle=")max-width:\s*([\d.]+)px;?/, function (all, head, width) {
        var min = Math.round(parseFloat(width) * MIN_SCALE);
        return head + 'max-width: ' + width + 'px; min-width: ' + min + 'px;';
      });
      return Object.assign({}, out, { svg: svg });
    });
  };
  fitted.maFitted = true;
  api.render = fitted;
})();
