"""The certificate as a PDF: its HTML page (:mod:`exactodds.report.html`) printed by WeasyPrint.

``certify -o report.pdf`` (and ``render``) write the very page ``-o report.html`` writes, laid
out by the print rules of its stylesheet (CSS paged media): A4, "page N of M", the running
header with the wager and the fingerprint in the page margins (``@page`` margin boxes), page
numbers in the contents (``target-counter``) and PDF bookmarks from the headings
(``bookmark-level``). WeasyPrint is the optional ``[pdf]`` extra (it needs the Pango system
library, present on Debian and Ubuntu desktops; ``apt-get install libpango-1.0-0
libpangoft2-1.0-0`` elsewhere); without it the command refuses in one line.

The page is self-contained, and the printer is given no way out of it: every URL other than
a ``data:`` one (a custom template's ``file:`` or ``http:`` link) is refused, never fetched.
The bytes are reproducible: the PDF's identifier is derived from the page's bytes, and no
date is written but the report's own ``generated_utc`` (the page's ``dcterms.created``).
"""

from __future__ import annotations

import hashlib
from typing import Any

from exactodds.errors import InputError
from exactodds.extras import require

WHAT = "PDF output"
"""How the missing-extra message names what needs WeasyPrint."""


def render_pdf(page: str) -> bytes:
    """The PDF of one HTML page (:func:`exactodds.report.html.render_html`); an
    :class:`InputError` when WeasyPrint (the ``[pdf]`` extra) or its Pango library is missing."""
    try:
        weasyprint: Any = require("weasyprint", WHAT)
    except OSError as exc:  # WeasyPrint imports but cannot load Pango (a system library)
        raise InputError(f"{WHAT} needs the Pango library ({exc}): apt-get install libpango-1.0-0 "
                         "libpangoft2-1.0-0") from None
    urls: Any = require("weasyprint.urls", WHAT)
    no_fetch = urls.URLFetcher(allowed_protocols={"data"})  # the page cannot make the printer read a file or a URL
    identifier = hashlib.sha256(page.encode("utf-8")).hexdigest()[:32].encode("ascii")
    html = weasyprint.HTML(string=page, url_fetcher=no_fetch, base_url=None)
    pdf: bytes = html.write_pdf(pdf_identifier=identifier)
    return pdf


__all__ = ["render_pdf"]
