#!/usr/bin/env python3
"""browser-check: opens report.html pages in headless chromium and checks what a reader sees.

Usage: browser-check.py [--screenshots OUT_DIR | --screenshots-beside] DIR...   (each DIR holds report.html and its JSON)

For each page it fails (exit 1, one line per problem) on:
- an external reference: any address (http:, https:, //), a src= or href= that is not a
  fragment, url(…), @import, <link>, or a script that loads a file;
- a console message (the page has no script, so any message is a failure to load something);
- a number marked with its JSON path (data-json) that differs from the JSON document's value
  beyond the decimals shown, or a text that differs from the document's;
- two text boxes overlapping, or the page wider than the window (at desktop 1280 px and
  phone 390 px widths).
With --screenshots, the page of the first DIR is saved as report-desktop.png and
report-phone.png in OUT_DIR (the full page at each width); with --screenshots-beside (instead,
before the DIRs), each DIR's page is saved so in that DIR."""
import json, os, re, shutil, subprocess, sys, tempfile

WIDTHS = {"desktop": 1280, "phone": 390}
# Headless chromium opens no window narrower than 500 px, so the phone's 390 px are the page's
# column (main) in a 500 px window; the page's narrow-screen rules apply below 640 px anyway.
WINDOW = {"desktop": 1280, "phone": 500}
PHONE_STYLE = "<style>main{width:390px;max-width:390px;margin:0;box-sizing:border-box}</style>"
DOCUMENTS = ["summary.json", "sweep.json", "optimize.json", "calibrate.json", "together.json"]

CHECK_JS = r"""
(function () {
  const out = {numbers: 0, texts: 0, mismatches: [], overlaps: [], width: 0, height: 0, viewport: 0};
  function lookup(path) {
    let node = DOC;
    for (const part of path.split('.')) {
      if (node === null || node === undefined) return undefined;
      node = Array.isArray(node) ? node[Number(part)] : node[part];
    }
    return node;
  }
  for (const el of document.querySelectorAll('[data-json]')) {
    const path = el.getAttribute('data-json');
    const want = lookup(path);
    const shown = el.textContent;
    if (el.classList.contains('n')) {
      out.numbers++;
      const scale = Number(el.getAttribute('data-scale')), digits = Number(el.getAttribute('data-digits'));
      let parsed, expected, tolerance;
      if (scale === 0) {  // simulated time written 4d17h21m5s
        parsed = 0;
        for (const [unit, size] of [['d', 86400], ['h', 3600], ['m', 60], ['s', 1]]) {
          const m = shown.match(new RegExp('(\\d+)' + unit));
          if (m) parsed += Number(m[1]) * size;
        }
        expected = Number(want); tolerance = 0.5 + 1e-9;
      } else {
        parsed = Number(shown.replace(/,/g, '').replace(/[^0-9.eE+\-]/g, ''));
        expected = Number(want) * scale;
        tolerance = 0.5 * Math.pow(10, -digits) * (1 + 1e-9) + Math.abs(expected) * 1e-12;
      }
      if (typeof want !== 'number' || !(Math.abs(parsed - expected) <= tolerance))
        out.mismatches.push(path + ': page shows ' + shown + ', JSON has ' + JSON.stringify(want));
    } else {
      out.texts++;
      if (String(want) !== shown) out.mismatches.push(path + ': page shows ' + JSON.stringify(shown) + ', JSON has ' + JSON.stringify(want));
    }
  }
  // Every text node's boxes, as the reader sees them; boxes of different nodes must not overlap.
  const boxes = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let index = 0;
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.trim() || node.parentElement.closest('#pushsim-check, title, style')) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (r.width > 0.5 && r.height > 0.5)
        boxes.push({i: index, l: r.left + scrollX, t: r.top + scrollY, r: r.right + scrollX, b: r.bottom + scrollY,
                    text: node.textContent.trim().slice(0, 40)});
    }
    index++;
  }
  boxes.sort((a, b) => a.t - b.t);
  for (let a = 0; a < boxes.length; a++) {
    for (let b = a + 1; b < boxes.length && boxes[b].t < boxes[a].b; b++) {
      const p = boxes[a], q = boxes[b];
      if (p.i === q.i) continue;
      const w = Math.min(p.r, q.r) - Math.max(p.l, q.l), h = Math.min(p.b, q.b) - Math.max(p.t, q.t);
      if (w > 1 && h > 1 && out.overlaps.length < 20) out.overlaps.push(JSON.stringify(p.text) + ' overlaps ' + JSON.stringify(q.text));
    }
  }
  // Nothing may stick out of the page's column, but inside a table that scrolls on its own.
  const main = document.querySelector('main');
  const limit = main ? main.getBoundingClientRect().right : window.innerWidth;
  out.width = Math.ceil(Math.max(limit, ...Array.from(document.body.querySelectorAll('*'))
    .filter(el => !el.closest('.table') && !el.closest('#pushsim-check'))
    .map(el => el.getBoundingClientRect().right)));
  out.viewport = Math.ceil(limit);
  out.height = Math.ceil(document.documentElement.scrollHeight);
  const pre = document.createElement('pre');
  pre.id = 'pushsim-check';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
"""


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("browser-check: no chromium on PATH (apt-get install -y chromium)")


def browser(args, url):
    base = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--disable-extensions", "--disable-background-networking", "--disable-sync", "--mute-audio",
            "--enable-logging=stderr", "--v=0", "--user-data-dir=" + tempfile.mkdtemp(prefix="pushsim-chromium-")]
    run = subprocess.run(base + args + [url], capture_output=True, text=True, timeout=180)
    return run


def external_references(html):
    problems = []
    for pattern, what in ((r"https?:", "an address"), (r"""(src|href)\s*=\s*["']?(?!#)""", "a src or href"),
                          (r"url\(", "url(…)"), (r"@import", "@import"), (r"<link\b", "<link>"),
                          (r"<script[^>]*\bsrc", "a script file"), (r"""["'(]//""", "an address")):
        for m in re.finditer(pattern, html, re.I):
            problems.append(f"external reference ({what}) at byte {m.start()}: {html[max(0, m.start() - 30):m.end() + 30]!r}")
    return problems


def check(folder, screenshots):
    problems = []
    page = os.path.join(folder, "report.html")
    if not os.path.exists(page):
        return [f"{folder}: no report.html"]
    html = open(page, encoding="utf-8").read()
    problems += external_references(html)
    document = next((d for d in DOCUMENTS if os.path.exists(os.path.join(folder, d))), None)
    if document is None:
        return problems + [f"{folder}: no JSON document"]
    doc_text = open(os.path.join(folder, document), encoding="utf-8").read()
    json.loads(doc_text)

    # Console messages of the page as written: none expected.
    plain = browser(["--dump-dom", "--virtual-time-budget=2000"], "file://" + os.path.abspath(page))
    for line in plain.stderr.splitlines():
        if "CONSOLE" in line or "Uncaught" in line:
            problems.append(f"console: {line.strip()}")

    work = tempfile.mkdtemp(prefix="pushsim-browser-check-")
    probe = os.path.join(work, "probe.html")
    script = "<script>const DOC = " + doc_text.replace("</", "<\\/") + ";\n" + CHECK_JS + "</script>"
    heights = {}
    for label, width in WIDTHS.items():
        styled = html if label == "desktop" else html.replace("</head>", PHONE_STYLE + "</head>", 1)
        with open(probe, "w", encoding="utf-8") as f:
            f.write(styled.replace("</body>", script + "</body>", 1))
        run = browser(["--dump-dom", f"--window-size={WINDOW[label]},900", "--virtual-time-budget=5000"], "file://" + probe)
        m = re.search(r'<pre id="pushsim-check">(.*?)</pre>', run.stdout, re.S)
        if not m:
            problems.append(f"{label}: the check did not run in chromium: {run.stderr[-400:]}")
            continue
        result = json.loads(m.group(1).replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))
        if result["numbers"] == 0:
            problems.append(f"{label}: no number on the page is tied to the JSON")
        problems += [f"{label}: number differs from the JSON: {x}" for x in result["mismatches"]]
        problems += [f"{label} ({width} px): text overlaps: {x}" for x in result["overlaps"]]
        if result["width"] > result["viewport"] + 1:
            problems.append(f"{label}: something reaches {result['width']} px, beyond the page's column ({result['viewport']} px)")
        heights[label] = result["height"]
        print(f"browser-check: {folder} at {label} width: {result['numbers']} numbers and {result['texts']} texts equal to {document}, "
              f"text boxes checked for overlap over the page ({result['height']} px tall)")
    if screenshots is not None:
        os.makedirs(screenshots, exist_ok=True)
        for label, width in WIDTHS.items():
            target = os.path.abspath(os.path.join(screenshots, f"report-{label}.png"))
            shown = os.path.join(work, f"{label}.html")
            with open(shown, "w", encoding="utf-8") as f:
                f.write(html if label == "desktop" else html.replace("</head>", PHONE_STYLE + "</head>", 1))
            browser([f"--screenshot={target}", f"--window-size={WINDOW[label]},{heights.get(label, 3000)}"], "file://" + shown)
            if not os.path.exists(target):
                problems.append(f"{label}: no screenshot written")
    shutil.rmtree(work, ignore_errors=True)
    return [f"{folder}: {p}" for p in problems]


def main(argv):
    screenshots, each = None, False
    if len(argv) >= 2 and argv[0] == "--screenshots":
        screenshots, argv = argv[1], argv[2:]
    elif argv and argv[0] == "--screenshots-beside":
        each, argv = True, argv[1:]
    if not argv:
        sys.exit(__doc__)
    problems = []
    for i, folder in enumerate(argv):
        problems += check(folder, folder if each else screenshots if i == 0 else None)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
