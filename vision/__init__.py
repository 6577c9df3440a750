"""The referee's eyes and the program around them: frame sources, table calibration, card
detection and classification, tracking, and the ``sueca-referee`` command line.

Submodules import OpenCV and onnxruntime only when they need them, so the command line starts
quickly and ``sueca-referee score`` works without touching either.
"""
