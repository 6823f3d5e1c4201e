"""The program's version, on its own floor: every module that stamps a document with it
(``"version"`` in JSON, the certificate's program identity, ``exactodds --version``) reads it
from here, so none has to import the package facade, which sits above everything (issue 29)."""

from __future__ import annotations

__version__ = "0.2.0"
