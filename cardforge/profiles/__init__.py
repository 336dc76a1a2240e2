"""CMYK output profiles for print shops (output/printcolor.py), built by tools/build_profiles.py;
see PROVENANCE.md and LICENSE.md here."""
