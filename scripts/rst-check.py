#!/usr/bin/python3
"""Every reStructuredText file under Documentation/ parses cleanly.

A table whose text strays into a column's margin, or a link to a section
title that changed, still reads well as plain text but renders wrong (or
not at all) in Sphinx; docutils reports both. Sphinx's own roles and
directives (:doc:, :ref:, toctree) are accepted as they are.

  rst-check.py TOP     prints each report, exits 1 if there is any
"""
import io
import pathlib
import sys

import docutils.core
from docutils.parsers.rst import Directive, directives, roles


def _role(name, rawtext, text, lineno, inliner, options=None, content=None):
    return [], []


class _Toctree(Directive):
    has_content = True
    option_spec = {'maxdepth': directives.unchanged, 'caption': directives.unchanged,
                   'hidden': directives.flag, 'glob': directives.flag}

    def run(self):
        return []


for sphinx_role in ('doc', 'ref', 'file', 'program', 'manpage'):
    roles.register_local_role(sphinx_role, _role)
directives.register_directive('toctree', _Toctree)


def check(path):
    errors = io.StringIO()
    docutils.core.publish_doctree(
        path.read_text(), source_path=str(path),
        settings_overrides={'report_level': 2, 'halt_level': 5, 'warning_stream': errors})
    return errors.getvalue().strip()


def main():
    top = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else '.')
    bad = 0
    for path in sorted((top / 'Documentation').rglob('*.rst')):
        report = check(path)
        if report:
            print(report)
            bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
