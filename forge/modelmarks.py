"""The markers forge.model's declarations are made of, with pydantic's names and meanings (no pydantic here).

:mod:`forge.modelkit` reads them for the fast path (msgspec), :mod:`forge.modelmirror` for the pydantic mirror: both
import this module, and neither the other at import time.
"""

from __future__ import annotations

import re
import sys
import types
import typing
from collections.abc import Callable
from typing import Any, Literal

import msgspec

__all__ = [
    "AfterValidator",
    "BeforeValidator",
    "Discriminator",
    "Field",
    "MirrorAs",
    "Tag",
    "Validator",
    "field_validator",
    "is_union",
    "model_classes",
    "model_validator",
]

# ------------------------------------------------------------------------------------------------------ markers
_MSGSPEC_KEYS = ("ge", "gt", "le", "lt", "min_length", "max_length", "pattern", "description")


def Field(**kw: Any) -> Any:  # pydantic's name, used the same way inside Annotated
    """A field's constraints, for ``Annotated[T, Field(...)]``: a :class:`msgspec.Meta` that msgspec enforces, and
    the pydantic mirror reads back (``pattern`` is matched to the very end, as pydantic does: ``$`` would let a
    final line break through in Python's ``re``; ``allow_inf_nan`` is the mirror's alone: msgspec's bounds refuse
    infinities and NaN already)."""
    unknown = set(kw) - {*_MSGSPEC_KEYS, "allow_inf_nan"}
    if unknown:  # pragma: no cover - a mistake in forge.model itself
        raise TypeError(f"Field() does not take {sorted(unknown)}")
    meta = {k: v for k, v in kw.items() if k in _MSGSPEC_KEYS}
    if "pattern" in meta:
        meta["pattern"] = re.sub(r"\$$", r"\\Z", meta["pattern"])
    return msgspec.Meta(**meta, extra={"pydantic": kw})


class BeforeValidator:
    """A function applied to the raw value before its type is checked (pydantic's ``BeforeValidator``)."""

    def __init__(self, func: Callable[[Any], Any]) -> None:
        self.func = func


class AfterValidator:
    """A function applied to the checked value (pydantic's ``AfterValidator``)."""

    def __init__(self, func: Callable[[Any], Any]) -> None:
        self.func = func


class Tag:
    """A union member's tag for :class:`Discriminator` (the mirror's; msgspec tells the members apart itself)."""

    def __init__(self, tag: str) -> None:
        self.tag = tag


class Discriminator:
    """Which member of a union a raw value is read as (the mirror's, for its error messages)."""

    def __init__(self, func: Callable[[Any], str]) -> None:
        self.func = func


class MirrorAs:
    """``Annotated[T, MirrorAs(U)]``: msgspec reads ``T``, the pydantic mirror (and the JSON Schema) ``U``: for a
    type msgspec cannot express (two mapping-like members in one union).  ``T`` must accept a subset of ``U``: what
    it refuses goes to the mirror."""

    def __init__(self, tp: Any) -> None:
        self.tp = tp


class Validator:
    """A validator found in a class body (:func:`field_validator`, :func:`model_validator`)."""

    def __init__(self, func: Callable[..., Any], kind: str, mode: str, fields: tuple[str, ...] = ()) -> None:
        self.func, self.kind, self.mode, self.fields = func, kind, mode, fields


def field_validator(*fields: str, mode: Literal["after"] = "after") -> Callable[[Any], Any]:
    """A classmethod ``(cls, value) -> value`` run on the checked value of ``fields`` (raise ValueError to refuse)."""

    def mark(f: Any) -> Any:
        return Validator(f.__func__ if isinstance(f, classmethod) else f, "field", mode, fields)

    return mark


def model_validator(*, mode: Literal["before", "after"]) -> Callable[[Any], Any]:
    """``after``: a method ``(self) -> self`` run on the checked object; ``before``: a classmethod ``(cls, raw) ->
    raw`` run on the raw mapping."""

    def mark(f: Any) -> Any:
        return Validator(f.__func__ if isinstance(f, classmethod) else f, "model", mode)

    return mark


def is_union(tp: Any) -> bool:
    return typing.get_origin(tp) in (typing.Union, types.UnionType)


def model_classes(module: str) -> list[type[msgspec.Struct]]:
    """The model classes (Structs) ``module`` declares, in the order it declares them."""
    return [
        c
        for c in vars(sys.modules[module]).values()
        if isinstance(c, type) and issubclass(c, msgspec.Struct) and c.__module__ == module
    ]
