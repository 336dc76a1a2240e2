"""The one build step pyproject.toml cannot declare: the top-level fonts/ folder, the fonts' source
of truth, is copied into the package (cardforge/fonts/) when a wheel is built, so that an installed
cardforge carries its fonts and their licences.  An editable install copies nothing: there
cardforge/resources.py reads fonts/ where it is."""
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

FONTS = Path(__file__).resolve().parent / "fonts"


class BuildWithFonts(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        if not (FONTS / "fonts.yaml").is_file():
            raise SystemExit(f"fonts/fonts.yaml is missing beside setup.py ({FONTS}): the wheel would have no fonts")
        target = Path(self.build_lib) / "cardforge" / "fonts"
        self.mkpath(str(target))
        for source in sorted(FONTS.iterdir()):
            if source.is_file():
                self.copy_file(str(source), str(target / source.name), preserve_mode=False)


setup(cmdclass={"build_py": BuildWithFonts})
