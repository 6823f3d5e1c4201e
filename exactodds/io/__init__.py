"""The bottom floor for every write and for progress (issue 29): any module of any folder may
import it, and it imports nothing of exactodds but :mod:`exactodds.errors`.

* :mod:`exactodds.io.files` -- every output a command writes: standard output, a device, a
  FIFO written in place; a regular file atomically; several files all or none;
* :mod:`exactodds.io.recovery` -- a set a killed process left half renamed, stale temporaries;
* :mod:`exactodds.io.names` -- temporary names and the one-line error of a failed write;
* :mod:`exactodds.io.progress` -- the progress callback and its bar on a terminal's stderr.
"""
