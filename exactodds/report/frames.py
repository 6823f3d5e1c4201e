"""DataFrames now live beside the figures they hold (:mod:`exactodds.figures.frames`), so
figures never reach up into ``report``; this name stays for existing imports."""

from exactodds.figures.frames import analysis_frame, catalogue_frame, eor_frame

__all__ = ["analysis_frame", "catalogue_frame", "eor_frame"]
