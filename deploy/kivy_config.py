"""Write Kivy's config.ini for the touchscreen: Kivy's own defaults with the edition's settings laid over.

    python deploy/kivy_config.py kms|desktop > config.ini

Run with the installed environment's Python, so the defaults are those of the Kivy that will read the
file (every option Kivy looks up is present, and ``config_version`` matches, so Kivy never rewrites
it). The ``[input]`` section is replaced whole by the edition's (one touch provider, never two); other
sections of ``deploy/kivy/<edition>.ini`` change single options. The output is the same for the same
Kivy and the same overlay, so install.sh can tell when nothing changed.
"""

from __future__ import annotations

import configparser
import io
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
EDITIONS = ("kms", "desktop")
REPLACED_WHOLE = ("input",)


def kivy_defaults() -> tuple[str, str]:
    """(Kivy's default config.ini text, Kivy's version), as this Kivy writes them for a new user."""
    with tempfile.TemporaryDirectory(prefix="kivy-defaults-") as home:
        os.environ.update(KIVY_HOME=home, KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_NO_FILELOG="1")
        os.environ.pop("KIVY_NO_CONFIG", None)
        import kivy  # writes <home>/config.ini on first import

        return (Path(home) / "config.ini").read_text(encoding="utf-8"), kivy.__version__


def _parser() -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str  # keep option names as written
    return parser


def lay_over(defaults: str, overlay: str) -> configparser.RawConfigParser:
    """Kivy's defaults with the overlay's options set, and the overlay's [input] in place of Kivy's."""
    config, extra = _parser(), _parser()
    config.read_string(defaults)
    extra.read_string(overlay)
    for section in extra.sections():
        if section in REPLACED_WHOLE and config.has_section(section):
            config.remove_section(section)
        if not config.has_section(section):
            config.add_section(section)
        for key, value in extra.items(section):
            config.set(section, key, value)
    return config


def render(edition: str, defaults: str | None = None, version: str | None = None) -> str:
    """The config.ini text for an edition ("kms" for the kiosk, "desktop")."""
    if edition not in EDITIONS:
        raise SystemExit(f"kivy_config.py: the edition is one of {', '.join(EDITIONS)}, not {edition!r}")
    if defaults is None:
        defaults, version = kivy_defaults()
    config = lay_over(defaults, (HERE / "kivy" / f"{edition}.ini").read_text(encoding="utf-8"))
    out = io.StringIO()
    out.write(
        f"; Kivy {version} settings of the Table Banker ({edition} edition), written by install.sh\n"
        f"; from Kivy's defaults and deploy/kivy/{edition}.ini. install.sh rewrites this file: change that one.\n"
    )
    config.write(out)
    return out.getvalue()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: kivy_config.py kms|desktop")
    sys.stdout.write(render(sys.argv[1]))
