"""Checks what `ascop report` wrote, as a browser shows it: the DOM Chromium dumped (a chart per
target with one point per result, the table, the regressions marked), its screenshot (not blank),
and the PNG charts (the roofs' and the points' colours present).

Usage: check_report.py DOM.html SCREENSHOT.png REPORT-FOLDER REGRESSIONS"""
import html.parser
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.image  # noqa: E402


class Dom(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.charts = {}      # target → points declared, points drawn
        self.rows = []        # classes of the table's rows
        self.chart = None
        self.in_points = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section" and "chart" in a.get("class", ""):
            self.chart = a["data-target"]
            self.charts[self.chart] = [int(a["data-points"]), 0]
        if tag == "g" and a.get("id") == "points":
            self.in_points = 1
        elif tag == "g" and self.in_points:
            self.in_points += 1
        if tag == "use" and self.in_points and self.chart:
            self.charts[self.chart][1] += 1
        if tag == "tr" and "result" in a.get("class", ""):
            self.rows.append(a["class"])

    def handle_endtag(self, tag):
        if tag == "g" and self.in_points:
            self.in_points -= 1
        if tag == "section":
            self.chart = None


def colour_share(image, rgb):
    pixels = image[:, :, :3].reshape(-1, 3)
    target = [c / 255 for c in rgb]
    close = ((abs(pixels - target) < 0.06).all(axis=1)).sum()
    return close / len(pixels)


dom_path, shot, folder, regressions = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
dom = Dom()
with open(dom_path) as f:
    dom.feed(f.read())
with open(os.path.join(folder, "report-data.json")) as f:
    data = json.load(f)
for target in data["targets"]:
    declared, drawn = dom.charts.get(target, (0, -1))
    want = sum(1 for r in data["results"] if r.get("target") == target and "roofline" in r)
    print("chart %s: %d points drawn of %d results" % (target, drawn, want))
    assert declared == want and drawn == want, (target, declared, drawn, want)
assert len(dom.rows) == len(data["results"]), (len(dom.rows), len(data["results"]))
print("table: %d rows" % len(dom.rows))
marked = sum(1 for c in dom.rows if "regression" in c.split())
print("regressions marked: %d" % marked)
assert marked == regressions, (marked, regressions)
image = matplotlib.image.imread(shot)
spread = image[:, :, :3].std()
print("screenshot: %dx%d, not blank" % (image.shape[1], image.shape[0]) if spread > 0.05 else "screenshot blank")
assert spread > 0.05
for target in data["targets"]:
    png = matplotlib.image.imread(os.path.join(folder, "roofline-%s.png" % target))
    roofs, points = colour_share(png, (0xd6, 0x27, 0x28)), colour_share(png, (0x1f, 0x77, 0xb4))
    print("png %s: roofs %s, points %s" % (target, "present" if roofs > 1e-4 else "missing", "present" if points > 1e-5 else "missing"))
    assert roofs > 1e-4 and points > 1e-5
