"""The page `ascop report` writes: a roofline chart per target (attained MACs per cycle against
arithmetic intensity, one point per result, the bandwidth and compute roofs of the target), the
table of results sortable by any column, regressions and improvements against a baseline marked;
the charts also as PNG and SVG. Works from the file system, with no network.

Usage (by ascop report): report.py REPORT-DATA.json OUTPUT-FOLDER
"""
import html
import io
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOF_COLOR = "#d62728"    # the roofs
POINT_COLOR = "#1f77b4"   # results
REGRESSION_COLOR = "#ff7f0e"
MIN_INTENSITY = 1e-3      # results without MACs: drawn at the chart's left edge


def chart(target, roofs, rows, folder):
    """Draws one target's roofline; writes roofline-TARGET.png and .svg; returns the SVG text."""
    bandwidth = roofs["bandwidth"]
    fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
    xs = [max(r.get("intensity", 0), MIN_INTENSITY) for r in rows]
    hi = max([10.0] + [x * 4 for x in xs])
    lo = MIN_INTENSITY / 2
    for dtype, peak in sorted(roofs["macs"].items()):
        ridge = peak / bandwidth
        grid = [lo, ridge, hi]
        ax.plot(grid, [min(peak, bandwidth * x) for x in grid], color=ROOF_COLOR, linewidth=1.5, gid="roof-" + dtype)
        ax.annotate(dtype + " " + format(peak, ".0f") + " MAC/cycle", (hi, peak), ha="right", va="bottom", fontsize=7)
    ys = [max(r["roofline"] * min(max(roofs["macs"].get(r.get("dtype"), 1.0), 1e-9), bandwidth * x), 1e-6)
          if r.get("intensity", 0) == 0 else max(r["attained"], 1e-6) for r, x in zip(rows, xs)]
    colors = [REGRESSION_COLOR if r.get("status") == "regression" else POINT_COLOR for r in rows]
    ax.scatter(xs, ys, s=14, c=colors, zorder=3, gid="points")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (MACs per byte of GM traffic)")
    ax.set_ylabel("MACs per cycle attained")
    ax.set_title(target + ": " + str(len(rows)) + " results against the roofs (" + format(bandwidth, ".0f") + " B/cycle)")
    ax.grid(True, which="both", alpha=0.2)
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "roofline-" + target + ".png"))
    fig.savefig(os.path.join(folder, "roofline-" + target + ".svg"))
    svg = io.StringIO()
    fig.savefig(svg, format="svg")
    plt.close(fig)
    text = svg.getvalue()
    return text[text.find("<svg"):]


def cell(value):
    if isinstance(value, float):
        return format(value, ".4g")
    return html.escape(str(value))


def main():
    data_path, folder = sys.argv[1], sys.argv[2]
    with open(data_path) as f:
        data = json.load(f)
    results = data["results"]
    charts = []
    for target, roofs in sorted(data["targets"].items()):
        rows = [r for r in results if r.get("target") == target and "roofline" in r]
        svg = chart(target, roofs, rows, folder)
        charts.append('<section class="chart" data-target="%s" data-points="%d">\n<h2>%s</h2>\n%s\n<p>Red: the roofs '
                      '(GM bandwidth over every vector core, the cube\'s MACs per cycle per operand type). Blue: a result, '
                      'orange: a regression. Results without MACs (data movement) stand at the left edge, at their '
                      'share of the bandwidth roof.</p>\n</section>' % (html.escape(target), len(rows), html.escape(target), svg))
    columns = ["op", "target", "case", "dtype", "cycles", "roofline", "bytes_moved", "energy_pj"]
    if "baseline" in data:
        columns += ["baseline_cycles", "change", "status"]
    head = "".join('<th data-column="%d">%s</th>' % (i, html.escape(c)) for i, c in enumerate(columns))
    body = []
    for r in results:
        status = r.get("status", "")
        cells = []
        for c in columns:
            v = r.get(c, r.get("error", "") if c == "cycles" else "")
            if c == "roofline" and v != "":
                v = format(100 * v, ".1f") + "%"
            cells.append('<td data-value="%s">%s</td>' % (html.escape(str(r.get(c, ""))), cell(v)))
        body.append('<tr class="result %s">%s</tr>' % (status, "".join(cells)))
    regressions = sum(1 for r in results if r.get("status") == "regression")
    improvements = sum(1 for r in results if r.get("status") == "improved")
    summary = "%d results" % len(results)
    if "baseline" in data:
        summary += ", against %s: %d regression(s), %d improvement(s)" % (html.escape(data["baseline"]), regressions, improvements)
    page = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>ascop report: %(source)s</title>
<style>
body { font-family: sans-serif; margin: 2em; }
table { border-collapse: collapse; font-size: 12px; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
th { cursor: pointer; background: #eee; }
tr.regression { background: #ffd8b0; }
tr.improved { background: #d8f5d0; }
section.chart svg { max-width: 100%%; height: auto; }
</style></head>
<body>
<h1>ascop report: %(source)s</h1>
<p id="summary">%(summary)s</p>
%(charts)s
<h2>Results</h2>
<table id="results"><thead><tr>%(head)s</tr></thead><tbody>
%(body)s
</tbody></table>
<script>
// sorts the table by the column clicked (numbers as numbers), again to reverse
document.querySelectorAll("#results th").forEach(function (th) {
  th.addEventListener("click", function () {
    var column = +th.dataset.column, body = document.querySelector("#results tbody");
    var rows = Array.from(body.rows), down = th.dataset.order !== "down";
    rows.sort(function (a, b) {
      var x = a.cells[column].dataset.value, y = b.cells[column].dataset.value;
      var nx = parseFloat(x), ny = parseFloat(y);
      var order = isNaN(nx) || isNaN(ny) ? x.localeCompare(y) : nx - ny;
      return down ? order : -order;
    });
    th.dataset.order = down ? "down" : "up";
    rows.forEach(function (r) { body.appendChild(r); });
  });
});
</script>
</body></html>
""" % {"source": html.escape(data["source"]), "summary": summary, "charts": "\n".join(charts), "head": head,
       "body": "\n".join(body)}
    with open(os.path.join(folder, "index.html"), "w") as f:
        f.write(page)


if __name__ == "__main__":
    main()
