"""The model's machinery: frozen msgspec Structs, validated fast, with pydantic's messages when the data is bad.

:mod:`forge.model` declares its classes once, as :class:`Base` Structs whose annotations carry their constraints
(``Field(...)``, a :class:`msgspec.Meta`) and validators (:class:`BeforeValidator`, :class:`AfterValidator`,
:func:`field_validator`, :func:`model_validator`: :mod:`forge.modelmarks`' markers, with pydantic's names and
meanings, re-exported here).  Validating a
document (:func:`validate`) is then

1. the *fast path*: a walk over the raw data that does what pydantic's lax mode and the before-validators do to it
   (numbers where the model holds text become text, ``unknown`` becomes ``{unknown: ""}``, ...; compiled once per
   class from the type hints, and skipping every subtree that needs nothing), then :func:`msgspec.convert` (strict),
   whose ``__post_init__`` runs the field and model validators;
2. and only when that refuses the data, the *diagnostic path*: a pydantic mirror of the same classes
   (:mod:`forge.modelmirror`, built on first use from these declarations) validates the original data, so that a bad
   file gets every one of pydantic's errors, which forge.loader turns into located messages as it always did.  When
   the mirror accepts what the fast path refused (a lax reading the walk does not copy, such as ``"5"`` for a whole
   number), its result is converted to the Structs.

Nothing here imports pydantic: ``forge check`` of a good file never does (docs/PERFORMANCE.md).  The objects keep
the pydantic API the rest of forge uses: ``model_fields`` (:func:`fields_of`), ``model_copy``, ``model_dump``,
``model_validate``; keyword construction (``Crt(columns=[...], ...)``) checks and converts as pydantic did.
"""

from __future__ import annotations

import enum

import sys
import typing
from collections.abc import Callable
from enum import Enum
from typing import Any, ClassVar, Literal, TypeVar

import msgspec

from .modelmarks import (
    AfterValidator,
    BeforeValidator,
    Discriminator,
    Field,
    MirrorAs,
    Tag,
    Validator,
    field_validator,
    is_union,
    model_validator,
)

__all__ = [
    "AfterValidator",
    "Base",
    "BeforeValidator",
    "Discriminator",
    "Field",
    "FieldInfo",
    "MirrorAs",
    "Tag",
    "construct",
    "field_validator",
    "fields_of",
    "model_validator",
    "type_hints",
    "validate",
]

T = TypeVar("T", bound="Base")


# ------------------------------------------------------------------------------------------------------- fields
class FieldInfo:
    """A field as pydantic's ``model_fields`` described it (``annotation``, ``description``, ``get_default``)."""

    def __init__(self, name: str, annotation: Any, default: Any, factory: Any) -> None:
        self.name, self.annotation, self.default, self.default_factory = name, annotation, default, factory
        self.description: str | None = None

    def is_required(self) -> bool:
        return self.default is msgspec.NODEFAULT and self.default_factory is msgspec.NODEFAULT

    def get_default(self, call_default_factory: bool = False) -> Any:
        if self.default_factory is not msgspec.NODEFAULT:
            return self.default_factory() if call_default_factory else None
        return None if self.default is msgspec.NODEFAULT else self.default

    def __repr__(self) -> str:
        return f"FieldInfo({self.name!r}, {self.annotation!r})"


_FIELDS: dict[type, dict[str, FieldInfo]] = {}


def fields_of(cls: type) -> dict[str, FieldInfo]:
    """Name -> :class:`FieldInfo` of a model class (a :class:`Base` Struct, or a pydantic model such as
    forge.templates' or the mirror's), in declaration order; ``.annotation`` is the full type, with its
    ``Annotated`` metadata."""
    got = _FIELDS.get(cls)
    if got is None:
        if not (isinstance(cls, type) and issubclass(cls, Base)):
            return dict(cls.model_fields)  # type: ignore[attr-defined]
        hints = _hints(cls)
        got = {
            f.name: FieldInfo(f.name, hints[f.name], f.default, f.default_factory) for f in msgspec.structs.fields(cls)
        }
        _FIELDS[cls] = got
    return got


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type[Base]) -> dict[str, Any]:
    """The fields' types with their ``Annotated`` metadata: ``typing.get_type_hints(cls, include_extras=True)``
    without its walk through every type (the model's annotations are objects already, but for a few quoted forward
    references), which cost several milliseconds a run."""
    got = _HINTS.get(cls)
    if got is None:
        got = {}
        for klass in reversed(cls.__mro__):
            if not issubclass(klass, Base) or klass is Base:
                continue
            space = vars(sys.modules[klass.__module__])
            for name, tp in vars(klass).get("__annotations__", {}).items():
                if name in cls.__struct_fields__:
                    got[name] = eval(tp, space) if isinstance(tp, str) else tp  # a quoted forward reference
        _HINTS[cls] = got
    return got


def type_hints(cls: type[Base]) -> dict[str, Any]:
    """A model class's fields' types, with their ``Annotated`` metadata (cached; cheaper than :func:`fields_of`)."""
    return _hints(cls)


class _ModelFields:
    """``cls.model_fields`` (and ``obj.model_fields``) as pydantic spells it."""

    def __get__(self, obj: Any, cls: type) -> dict[str, FieldInfo]:
        return fields_of(cls)


# ---------------------------------------------------------------------------------------------------------- Base
_CHECKING = [True]
"""False while :meth:`Base.model_copy` makes an object: its values are checked already (no validator runs)."""
_RAW = [False]
"""True while :func:`_from_mirror` makes objects: their values are checked already (not converted again)."""


@typing.dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(msgspec.field,))
class _StructMeta(msgspec.StructMeta):
    """Every model class takes its fields by keyword and may be weakly referenced (forge.render.style keeps a
    game's palette while the game lives): options msgspec does not inherit."""

    def __new__(mcls, name: str, bases: tuple[type, ...], ns: dict[str, Any], **kw: Any) -> Any:
        kw.setdefault("kw_only", True)
        kw.setdefault("weakref", True)
        for field, value in ns.items():
            if isinstance(value, msgspec.Meta):  # pydantic's spelling, ``x: int = Field(ge=1)``: not a default
                raise TypeError(f"{name}.{field}: write Annotated[type, Field(...)], not '= Field(...)'")
        return super().__new__(mcls, name, bases, ns, **kw)

    def __call__(cls, *args: Any, **kw: Any) -> Any:
        # ``Unit(id=..., steps=[...])`` is checked as pydantic checked it (a mapping for a nested model, a
        # value for an enumeration member ...), not only typed: msgspec's own constructor trusts its arguments.
        if _RAW[0] or args:
            return super().__call__(*args, **kw)
        return validate(typing.cast(Any, cls), kw)


class Base(msgspec.Struct, frozen=True, forbid_unknown_fields=True, metaclass=_StructMeta):
    """A frozen model class: unknown keys refused, every field given by keyword."""

    __validators__: ClassVar[tuple[Validator, ...]] = ()
    __text_from_numbers__: ClassVar[bool] = True
    """A number where the class holds text is read as that text (pydantic's ``coerce_numbers_to_str``, which the
    game model sets; a class that says False refuses it, as pydantic does by default).  Applies to the class's own
    ``str`` fields, not to text inside unions or lists."""
    model_fields: ClassVar[Any] = _ModelFields()

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        found: dict[str, Validator] = {}
        for klass in reversed(cls.__mro__):
            found.update({k: v for k, v in vars(klass).items() if isinstance(v, Validator)})
        # as pydantic runs them: the fields' validators before the model's
        cls.__validators__ = tuple(sorted(found.values(), key=lambda v: v.kind == "model"))

    def __post_init__(self) -> None:
        if not _CHECKING[0]:
            return
        cls = type(self)
        for v in cls.__validators__:
            if v.kind == "field":
                for name in v.fields:
                    old = getattr(self, name)
                    new = v.func(cls, old)
                    if new is not old:
                        msgspec.structs.force_setattr(self, name, new)
            elif v.mode == "after":
                v.func(self)
        self._finish()

    def _finish(self) -> None:
        """Run once the object is checked (and not for a copy): set what the class derives."""

    # --- pydantic's API, as forge uses it ---
    @classmethod
    def model_validate(cls: type[T], data: Any) -> T:
        """The checked object; a bad ``data`` raises pydantic's ``ValidationError`` (a ValueError)."""
        return validate(cls, data)

    def model_copy(self: T, update: dict[str, Any] | None = None, deep: bool = False) -> T:
        """A copy with ``update``'s fields replaced, not checked again (as pydantic's ``model_copy``)."""
        _CHECKING[0], _RAW[0] = False, True
        try:
            new = msgspec.structs.replace(self, **(update or {}))
        finally:
            _CHECKING[0], _RAW[0] = True, False
        if deep:  # pragma: no cover - unused in forge
            raise NotImplementedError("deep copies")
        state = getattr(self, "__dict__", None)
        if state:
            new.__dict__.update(state)
        return new

    def model_dump(self, mode: str = "python", exclude_none: bool = False, by_alias: bool = False) -> dict[str, Any]:
        """The object as plain mappings and lists (enumerations stay members, tuples tuples: pydantic's python
        mode; ``mode="json"``: enumerations as their values and tuples as lists, as in the JSON); ``exclude_none``:
        without the fields holding None."""
        out = _dump(self, exclude_none, mode == "json")
        assert isinstance(out, dict)
        return out

    def model_dump_json(self) -> str:
        return msgspec.json.encode(self).decode()



# msgspec reads the annotations of every class along its MRO when it first converts to the class, and this module's
# are text (``from __future__ import annotations``): Base's would be compiled again for every model class (about 280
# times for a game, 130 for the templates: 10-15 ms of every run).  Objects instead.
Base.__annotations__ = {name: eval(tp, globals()) for name, tp in Base.__annotations__.items()}

def _dump(v: Any, exclude_none: bool, json: bool = False) -> Any:
    if isinstance(v, Base):
        out = {}
        for name in v.__struct_fields__:
            x = getattr(v, name)
            if x is None and exclude_none:
                continue
            out[name] = _dump(x, exclude_none, json)
        return out
    if isinstance(v, list) or (json and isinstance(v, tuple)):
        return [_dump(x, exclude_none, json) for x in v]
    if isinstance(v, tuple):
        return tuple(_dump(x, exclude_none, json) for x in v)
    if isinstance(v, dict):
        keyed = ((k.value if json and isinstance(k, enum.Enum) else k, x) for k, x in v.items())
        return {k: _dump(x, exclude_none, json) for k, x in keyed}
    if json and isinstance(v, enum.Enum):
        return v.value
    return v


# ---------------------------------------------------------------------------------------------- the fast path
class _Slow(Exception):
    """The walk cannot tell what pydantic would do with this value: let the mirror read the document."""


_Fn = Callable[[Any], Any] | None
_COMPILED: dict[Any, _Fn] = {}
_PENDING: dict[Any, list[Any]] = {}


def _key(tp: Any) -> Any:
    try:
        hash(tp)
        return tp
    except TypeError:  # pragma: no cover - Annotated metadata that does not hash
        return id(tp)


def _kind(tp: Any) -> str:
    """What raw value a type reads: ``map``, ``list``, ``text``, ``number``, ``bool``, ``none`` or ``any``."""
    tp = _strip(tp)
    origin = typing.get_origin(tp)
    if tp is type(None) or tp is None:
        return "none"
    if (isinstance(tp, type) and issubclass(tp, Base)) or origin is dict or tp is dict:
        return "map"
    if origin in (list, tuple) or tp in (list, tuple):
        return "list"
    if tp is str or (isinstance(tp, type) and issubclass(tp, Enum) and issubclass(tp, str)):
        return "text"
    if tp is bool:
        return "bool"
    if tp in (int, float):
        return "number"
    if origin is Literal:
        kinds = {"text" if isinstance(a, str) else "bool" if isinstance(a, bool) else "number" for a in tp.__args__}
        return kinds.pop() if len(kinds) == 1 else "any"
    return "any"


def _raw_kind(v: Any) -> str:
    if isinstance(v, dict):
        return "map"
    if isinstance(v, list):
        return "list"
    if isinstance(v, str):
        return "text"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int | float):
        return "number"
    return "none" if v is None else "other"


def _strip(tp: Any) -> Any:
    while typing.get_origin(tp) is typing.Annotated:
        tp = tp.__origin__
    return tp


def _text(v: Any) -> Any:
    # pydantic's coerce_numbers_to_str: a number where text is expected is read as its text
    return str(v) if type(v) in (int, float) else v


def _compile(tp: Any) -> _Fn:
    """The walk for values of type ``tp`` (None: nothing to do), built once per type."""
    k = _key(tp)
    if k in _COMPILED:
        return _COMPILED[k]
    if k in _PENDING:  # a recursive type: call through the cell filled in below
        cell = _PENDING[k]
        return lambda v: cell[0](v) if cell[0] else v
    _PENDING[k] = cell = [None]
    try:
        fn = _build(tp)
    finally:
        del _PENDING[k]
    cell[0] = fn
    _COMPILED[k] = fn
    return fn


def _build(tp: Any) -> _Fn:
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        inner_tp = tp.__origin__
        metas = tp.__metadata__
        mirror = [m for m in metas if isinstance(m, MirrorAs)]
        if mirror:
            return _build_mirror_only(inner_tp)
        befores = [m.func for m in reversed(metas) if isinstance(m, BeforeValidator)]
        afters = [m.func for m in metas if isinstance(m, AfterValidator)]
        inner = _compile(inner_tp)
        if not befores and not afters:
            return inner
        base = _strip(inner_tp)
        if afters and not (isinstance(base, type) and base in (str, int, bool)):
            raise TypeError(f"an AfterValidator on {base!r}: only on str, int or bool")  # pragma: no cover

        def annotated(v: Any) -> Any:
            for b in befores:
                v = b(v)
            if inner is not None:
                v = inner(v)
            if afters:
                if type(v) is not base:
                    raise _Slow
                for a in afters:
                    v = a(v)
            return v

        return annotated
    if is_union(tp):
        return _build_union(tp)
    if tp is str or (isinstance(tp, type) and issubclass(tp, str) and not issubclass(tp, Enum)):
        return _text
    if isinstance(tp, type) and issubclass(tp, Base):
        return _build_struct(tp)
    if origin is list or (origin is tuple and len(tp.__args__) == 2 and tp.__args__[1] is Ellipsis):
        item = _compile(tp.__args__[0])
        if item is None:
            return None
        return lambda v: [item(x) for x in v] if isinstance(v, list) else v
    if origin is tuple:
        items = [_compile(a) for a in tp.__args__]
        if not any(items):
            return None

        def tuple_(v: Any) -> Any:
            if not isinstance(v, list) or len(v) != len(items):
                return v
            return [f(x) if f else x for f, x in zip(items, v, strict=True)]

        return tuple_
    if origin is dict:
        kf, vf = _compile(tp.__args__[0]), _compile(tp.__args__[1])
        if kf is None and vf is None:
            return None
        kf_ = kf or (lambda x: x)
        vf_ = vf or (lambda x: x)
        return lambda v: {kf_(a): vf_(b) for a, b in v.items()} if isinstance(v, dict) else v
    return None


def _build_mirror_only(tp: Any) -> _Fn:
    return _compile(tp)


def _build_union(tp: Any) -> _Fn:
    members = tp.__args__
    if type(None) in members and len(members) == 2:  # X | None: None stays None, the rest is X's
        got = _compile(next(a for a in members if a is not type(None)))
        if got is None:
            return None
        some: Callable[[Any], Any] = got
        return lambda v: v if v is None else some(v)
    complex_ = [a for a in members if _kind(a) == "any" and _strip(a) is not Any]
    if complex_:
        # One member that is itself a union with validators (``Amount | Literal['printed'] | None``): a value one
        # of the literals names exactly, or None, is that; anything else is the complex member's to read (the
        # other members would refuse it).
        if len(complex_) > 1:
            raise TypeError(f"a union forge.modelkit cannot walk: {tp!r}")  # pragma: no cover
        others = [a for a in members if a not in complex_]
        if any(a is not type(None) and typing.get_origin(_strip(a)) is not Literal for a in others):
            raise TypeError(f"a union forge.modelkit cannot walk: {tp!r}")  # pragma: no cover
        literals = {x for a in others if a is not type(None) for x in _strip(a).__args__}
        f = _compile(complex_[0])
        none_ok = type(None) in others

        def complex_union(v: Any) -> Any:
            if (v is None and none_ok) or (isinstance(v, str | int) and not isinstance(v, bool) and v in literals):
                return v
            return f(v) if f is not None else v

        return complex_union
    by_kind: dict[str, list[_Fn]] = {}
    for a in members:
        by_kind.setdefault(_kind(a), []).append(_compile(a))
    if "any" in by_kind:
        if any(f is not None for fs in by_kind.values() for f in fs):
            raise TypeError(f"a union forge.modelkit cannot walk: {tp!r}")  # pragma: no cover
        return None
    if not any(f is not None for fs in by_kind.values() for f in fs) and "text" not in by_kind:
        return None
    text_ok = "text" in by_kind and "number" not in by_kind

    def union(v: Any) -> Any:
        fs = by_kind.get(_raw_kind(v))
        if fs is None:
            if text_ok and type(v) in (int, float):
                return str(v)
            return v
        if len(fs) > 1:
            if any(f is not None for f in fs):
                raise _Slow
            return v
        f = fs[0]
        return f(v) if f is not None else v

    return union


def _build_struct(cls: type[Base]) -> _Fn:
    hints = _hints(cls)
    fns = {}
    for name in cls.__struct_fields__:
        if not cls.__text_from_numbers__ and _strip(hints[name]) is str:
            continue  # a number is refused (msgspec's strict reading), as the mirror refuses it
        f = _compile(hints[name])
        if f is not None:
            fns[name] = f
    befores = [v.func for v in cls.__validators__ if v.kind == "model" and v.mode == "before"]

    def struct(v: Any) -> Any:
        if not isinstance(v, dict):
            return v
        for b in befores:
            v = b(cls, v)
            if not isinstance(v, dict):
                return v
        return {k: fns[k](x) if k in fns else x for k, x in v.items()}

    return struct


def construct(cls: type[T], values: dict[str, Any]) -> T:
    """A ``cls`` of ``values`` that are checked already (a merge of checked objects): neither converted nor
    validated again, as pydantic's ``model_construct``."""
    _CHECKING[0], _RAW[0] = False, True
    try:
        return cls(**values)
    finally:
        _CHECKING[0], _RAW[0] = True, False


def validate(cls: type[T], data: Any) -> T:
    """``data`` (plain mappings, lists and scalars, as forge.loader reads YAML) checked as a ``cls``.  Bad data
    raises pydantic's ``ValidationError`` with every problem (from the mirror)."""
    try:
        fn = _compile(cls)
        return msgspec.convert(fn(data) if fn else data, cls)
    except (msgspec.ValidationError, _Slow, ValueError, TypeError):
        pass
    from . import modelmirror

    # raises pydantic's ValidationError; objects given (``LimitRules(counts=[Limit(...)])``) as the mirror reads them
    checked = modelmirror.mirror_of(cls).model_validate(_dump(data, False))
    return typing.cast(T, from_mirror(checked))


def from_mirror(v: Any) -> Any:
    """A mirror object (accepted by pydantic, refused by the fast path) as the Structs: the values as pydantic
    read them, the validators run again (and :meth:`Base._finish`)."""
    _RAW[0] = True
    try:
        return _from_mirror(v)
    finally:
        _RAW[0] = False


def _from_mirror(v: Any) -> Any:
    from . import modelmirror

    cls = modelmirror.struct_of(type(v))
    if cls is not None:
        values = {name: _from_mirror(getattr(v, name)) for name in cls.__struct_fields__}
        return cls(**values)
    if isinstance(v, list):
        return [_from_mirror(x) for x in v]
    if isinstance(v, tuple):
        return tuple(_from_mirror(x) for x in v)
    if isinstance(v, dict):
        return {k: _from_mirror(x) for k, x in v.items()}
    return v
