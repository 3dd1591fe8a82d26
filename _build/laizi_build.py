"""laizi's build backend: setuptools, plus the opt-in mypyc-compiled core.

A thin wrapper of ``setuptools.build_meta`` (declared in ``pyproject.toml`` with
``backend-path``). The default build is pure Python (a ``py3-none-any`` wheel, no
compiler). ``LAIZI_COMPILE=1`` in the environment, or ``-C compile=1`` /
``--config-settings compile=1`` on the pip command line, asks for the compiled
build: mypy (which contains mypyc) is then added to the build requirements, so a
fresh isolated build environment gets it, and ``setup.py`` compiles the hot modules.

Editable installs (``pip install -e .``) are always pure: compiling them would put
extension modules beside the sources, where they would shadow later edits.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import build_meta as _orig
from setuptools.build_meta import *  # noqa: F403 - the PEP 517 hooks not overridden here

# the build requirements of the compiled build (mypyc ships inside mypy)
COMPILE_REQUIRES = ["mypy>=1.10", "mypy_extensions>=1.0"]

_TRUE = ("1", "true", "yes", "on")


def _compile(config_settings: dict[str, Any] | None) -> bool:
    setting = (config_settings or {}).get("compile")
    if setting is not None:
        return str(setting).strip().lower() in _TRUE
    return os.environ.get("LAIZI_COMPILE", "").strip().lower() in _TRUE


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    compile_ = _compile(config_settings)
    os.environ["LAIZI_COMPILE"] = "0"  # mypyc is not installed yet; setup.py need not compile
    reqs = list(_orig.get_requires_for_build_wheel(_strip(config_settings)))
    if compile_:
        reqs += COMPILE_REQUIRES
    return reqs


def prepare_metadata_for_build_wheel(metadata_directory: str,
                                     config_settings: dict[str, Any] | None = None) -> str:
    os.environ["LAIZI_COMPILE"] = "0"  # the metadata is the same; compile only in build_wheel
    return _orig.prepare_metadata_for_build_wheel(metadata_directory, _strip(config_settings))


def build_wheel(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                metadata_directory: str | None = None) -> str:
    os.environ["LAIZI_COMPILE"] = "1" if _compile(config_settings) else "0"
    return _orig.build_wheel(wheel_directory, _strip(config_settings), metadata_directory)


def build_editable(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                   metadata_directory: str | None = None) -> str:
    if _compile(config_settings):
        print("laizi: editable installs are always pure Python (LAIZI_COMPILE ignored); "
              "build the compiled core with `LAIZI_COMPILE=1 pip install .`")
    os.environ["LAIZI_COMPILE"] = "0"
    return _orig.build_editable(wheel_directory, _strip(config_settings), metadata_directory)


def build_sdist(sdist_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    os.environ["LAIZI_COMPILE"] = "0"  # an sdist is sources only
    return _orig.build_sdist(sdist_directory, _strip(config_settings))


def _strip(config_settings: dict[str, Any] | None) -> dict[str, Any] | None:
    """The settings without ours (setuptools would pass unknown ones on to setup.py)."""
    if not config_settings:
        return config_settings
    return {k: v for k, v in config_settings.items() if k != "compile"} or None
