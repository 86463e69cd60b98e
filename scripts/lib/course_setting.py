"""The course's address, read one way by every tool: course.json at the top of the course.

    {"repository": "https://example.org/your-course/cuda-workbook.git"}

"repository" is the git address students clone the course from. README.md (its clone line,
written by scripts/maintainer/course-url.py sync), the docs (the placeholder {{course url}},
rendered by docs/tools/page-figures.py) and notebooks/course.ipynb (its COURSE_URL, written by
scripts/maintainer/make-notebook.py) read it from here; no page types it. The default lies on
example.org, a name reserved for examples: no course is there, and the notebook says so rather
than trying to clone it. An instructor sets the class's address here (docs/instructors.md).
"""
import json
import os
import urllib.parse

FILE_NAME = "course.json"
# Hosts reserved for examples (RFC 2606): an address there is the unset default.
EXAMPLE_HOSTS = ("example.org", "example.com", "example.net")


class SettingError(Exception):
    pass


def repository_url(root):
    """The "repository" of ROOT/course.json; SettingError says what is wrong with the file."""
    path = os.path.join(root, FILE_NAME)
    try:
        with open(path, encoding="utf-8") as f:
            setting = json.load(f)
    except (OSError, ValueError) as error:
        raise SettingError(f"{FILE_NAME}: cannot read the course's address: {error}") from error
    url = setting.get("repository") if isinstance(setting, dict) else None
    if not isinstance(url, str) or not url.strip() or any(c.isspace() for c in url.strip()):
        raise SettingError(f'{FILE_NAME}: "repository" must be one git address, such as '
                           '"https://github.com/your-course/cuda-workbook.git"')
    return url.strip()


def is_default(url):
    """Whether URL is the unset default: an address on a host reserved for examples."""
    host = urllib.parse.urlsplit(url).hostname or ""
    return any(host == name or host.endswith("." + name) for name in EXAMPLE_HOSTS)
