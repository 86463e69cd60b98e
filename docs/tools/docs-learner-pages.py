#!/usr/bin/env python3
"""docs-learner-pages.py HTML_DIR: finishes the lesson pages Doxygen wrote (lessonNN.html).

1. Hints one at a time. A lesson page lists its hints as "**Hint 1.** ...", "**Hint 2.** ..."
   (readable as plain Markdown). Here each becomes a closed <details> block, and a hint's block
   appears only once the previous one has been opened. Without JavaScript all blocks show,
   still closed.
2. Navigation. Every lesson page gets a bar "previous lesson | course map | next lesson" at
   its top and bottom, in lesson-number order, so pages need no navigation lines of their own.

Idempotent: a page already finished (marker below) is left alone, so it can run after every
docs build.
"""
import glob
import html
import os
import re
import sys

MARKER = "<!-- cuda-workbook: learner pages -->"
HINT = re.compile(r"<li><b>Hint (\d+)\.</b>\s*(.*?)</li>", re.S)
SCRIPT = """<script>
/* Hints one at a time: hint N+1 appears when hint N is opened. */
document.querySelectorAll("ol").forEach(function (list) {
  var hints = list.querySelectorAll(":scope > li.wb-hint > details");
  hints.forEach(function (hint, i) {
    if (i > 0) hint.parentNode.hidden = true;
    hint.addEventListener("toggle", function () {
      if (hint.open && hints[i + 1]) hints[i + 1].parentNode.hidden = false;
    });
  });
});
</script>
<style>
nav.wb-lesson-nav { display: flex; justify-content: space-between; margin: 0.5em 0 1em 0;
  padding: 0.4em 0.8em; background: #f4f6fa; border: 1px solid #d8dee9; border-radius: 4px; }
li.wb-hint summary { cursor: pointer; font-weight: bold; }
</style>
"""


def title_of(page):
    match = re.search(r'<div class="title">(.*?)</div>', page, re.S)
    return re.sub(r"<[^>]+>", "", match.group(1)).strip() if match else ""


def nav_bar(previous, following):
    def link(entry, arrow_left):
        if not entry:
            return "<span></span>"
        name, title = entry
        text = html.escape(html.unescape(title))
        return f'<a class="el" href="{name}">{"&larr; " + text if arrow_left else text + " &rarr;"}</a>'
    return ('<nav class="wb-lesson-nav">' + link(previous, True) +
            '<a class="el" href="index.html#course_map">Course map</a>' + link(following, False) + "</nav>")


def hint_block(match):
    number, body = match.group(1), match.group(2)
    return (f'<li class="wb-hint"><details><summary>Hint {number}</summary>'
            f"<p>{body}</p></details></li>")


def main():
    if sys.argv[1:2] in (["-h"], ["--help"]) or len(sys.argv) != 2:
        print(__doc__)
        return 0 if sys.argv[1:2] in (["-h"], ["--help"]) else 2
    html_dir = sys.argv[1]
    pages = sorted(glob.glob(os.path.join(html_dir, "lesson[0-9][0-9].html")))
    texts = {}
    for path in pages:
        with open(path, encoding="utf-8") as f:
            texts[path] = f.read()
    entries = [(os.path.basename(p), title_of(texts[p])) for p in pages]
    changed = 0
    for index, path in enumerate(pages):
        page = texts[path]
        if MARKER in page:
            continue
        page = HINT.sub(hint_block, page)
        bar = nav_bar(entries[index - 1] if index > 0 else None,
                      entries[index + 1] if index + 1 < len(entries) else None)
        page = page.replace('<div class="contents">', '<div class="contents">\n' + bar, 1)
        page = page.replace("</div><!-- contents -->", bar + "\n</div><!-- contents -->", 1)
        page = page.replace("</body>", MARKER + "\n" + SCRIPT + "</body>", 1)
        with open(path, "w", encoding="utf-8") as f:
            f.write(page)
        changed += 1
    print(f"docs: {changed} of {len(pages)} lesson pages finished (hints, navigation)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
