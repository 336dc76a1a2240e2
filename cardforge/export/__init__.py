"""Exports beyond the print PDF: card pictures (PNG) and Tabletop Simulator decks.

Every picture comes from `output/raster.py`, the same code that draws the live preview: faces
drawn by the PDF renderer and rasterised by PDFium.  So an exported PNG is what prints.
"""
