"""Modules imported on first use.

`check` runs on every save, so its start-up is a designer's latency.  Some modules it needs only
now and then: PyYAML when a file is not in the disk cache (a warm check unpickles every document),
`regex` when a translation marks its terms with a pattern.  Such a module is named here once and
imported when code first reads one of its attributes; everything else about it is unchanged."""
from __future__ import annotations

import importlib
from types import ModuleType


class LazyModule:
    """Stands for a module until its first attribute is read, then for the module itself."""

    __slots__ = ("_name", "_module")

    def __init__(self, name: str):
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attr: str):
        module = self._module
        if module is None:
            module = self._module = importlib.import_module(self._name)
        return getattr(module, attr)

    def __repr__(self) -> str:
        state = "imported" if self._module is not None else "not imported yet"
        return f"<lazy module {self._name!r}, {state}>"


def lazy_module(name: str) -> LazyModule:
    return LazyModule(name)
