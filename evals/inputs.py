"""Reading the evaluation's input files so that a bad one is named with its line: Python's own
errors name neither (a UnicodeDecodeError gives a byte offset; PyYAML says '<unicode string>')."""

from __future__ import annotations

from importlib.resources.abc import Traversable
from pathlib import Path

import yaml


def read_text(path: Path | Traversable, error: type[ValueError] = ValueError) -> str:
    """The file as UTF-8; an undecodable byte raises `error` naming the file and line."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise error(f"{path}:{line}: not valid UTF-8 (byte 0x{data[err.start]:02x} at offset "
                    f"{err.start})") from err


def read_yaml(path: Path | Traversable, error: type[ValueError] = ValueError) -> object:
    """The parsed YAML file; a syntax error raises `error` naming the file and line."""
    try:
        return yaml.safe_load(read_text(path, error))
    except yaml.MarkedYAMLError as err:
        context = (f" ({err.context} that starts on line {err.context_mark.line + 1})"
                   if err.context and err.context_mark else "")
        where = f"{path}:{err.problem_mark.line + 1}" if err.problem_mark else str(path)
        raise error(f"{where}: not valid YAML: {err.problem}{context}") from err
    except yaml.YAMLError as err:
        raise error(f"{path}: not valid YAML: {err}") from err
