"""A pydantic copy of the model's Structs, made on first use: for the messages of a bad file, and the JSON Schema.

:mod:`forge.modelkit` validates good data without pydantic.  Data it refuses is validated again here, by pydantic
models built from the same declarations (fields, types, constraints, defaults, validators), so that forge.loader
receives pydantic's full list of errors, as before the model moved to msgspec.  ``forge schema`` writes the mirror's
JSON Schema, with the fields' docstrings as descriptions (:func:`mirror_of` with ``documented=True``).
"""

from __future__ import annotations

import ast
import inspect
import itertools
import sys
import typing
from typing import Any

import msgspec
from pydantic import AfterValidator as PAfter
from pydantic import BaseModel, ConfigDict, create_model
from pydantic import BeforeValidator as PBefore
from pydantic import Discriminator as PDiscriminator
from pydantic import Field as PField
from pydantic import Tag as PTag
from pydantic import field_validator as p_field_validator
from pydantic import model_validator as p_model_validator

from . import modelmarks as k

__all__ = ["mirror_of", "struct_of"]


class MirrorBase(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", coerce_numbers_to_str=True)


class StrictTextBase(BaseModel):
    """The mirrors' base for classes that refuse a number as text (``__text_from_numbers__ = False``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


_MIRRORS: dict[tuple[str, bool], dict[str, type[BaseModel]]] = {}
_STRUCTS: dict[type[BaseModel], type[msgspec.Struct]] = {}


def mirror_of(cls: type[msgspec.Struct], documented: bool = False) -> type[BaseModel]:
    """The pydantic model mirroring ``cls`` (every Base class of its module is mirrored together)."""
    key = (cls.__module__, documented)
    if key not in _MIRRORS:
        _MIRRORS[key] = _build(cls.__module__, documented)
    return _MIRRORS[key][cls.__name__]


def mirrors(module: str, documented: bool = False) -> dict[str, type[BaseModel]]:
    """Every mirror class of ``module`` by name."""
    mirror_of(k.model_classes(module)[0], documented)
    return _MIRRORS[(module, documented)]


def struct_of(cls: type) -> type[msgspec.Struct] | None:
    """The Struct a mirror class mirrors (None for any other class)."""
    return _STRUCTS.get(cls)


def _docstrings(module: str) -> dict[str, dict[str, str]]:
    """Class name -> field name -> the docstring under the field (what pydantic's use_attribute_docstrings read)."""
    tree = ast.parse(inspect.getsource(sys.modules[module]))
    out: dict[str, dict[str, str]] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        docs = out.setdefault(node.name, {})
        body = node.body
        for a, b in itertools.pairwise(body):
            if (
                isinstance(a, ast.AnnAssign)
                and isinstance(a.target, ast.Name)
                and isinstance(b, ast.Expr)
                and isinstance(b.value, ast.Constant)
                and isinstance(b.value.value, str)
            ):
                docs[a.target.id] = inspect.cleandoc(b.value.value)
    return out


def _build(module: str, documented: bool) -> dict[str, type[BaseModel]]:
    classes = k.model_classes(module)
    names = {c.__name__ for c in classes}
    docs = _docstrings(module) if documented else {}
    built: dict[str, type[BaseModel]] = {}
    globalns = vars(sys.modules[module])

    def tr(tp: Any) -> Any:
        """A Struct type hint as pydantic's."""
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            metas = tp.__metadata__
            for m in metas:
                if isinstance(m, k.MirrorAs):
                    return tr(_resolve(m.tp, globalns))
            out = [tr(tp.__origin__)]
            for m in metas:
                if isinstance(m, msgspec.Meta):
                    out.append(PField(**(m.extra or {})["pydantic"]))
                elif isinstance(m, k.BeforeValidator):
                    out.append(PBefore(m.func))
                elif isinstance(m, k.AfterValidator):
                    out.append(PAfter(m.func))
                elif isinstance(m, k.Tag):
                    out.append(PTag(m.tag))
                elif isinstance(m, k.Discriminator):
                    out.append(PDiscriminator(m.func))
                else:  # pragma: no cover
                    raise TypeError(f"no mirror for {m!r}")
            return typing.Annotated[tuple(out)]
        if k.is_union(tp):
            return typing.Union[tuple(tr(a) for a in tp.__args__)]  # noqa: UP007
        if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
            return built.get(tp.__name__, tp.__name__)
        if origin in (list, dict, tuple):
            return origin[tuple(tr(a) for a in tp.__args__)]
        return tp

    for cls in classes:
        hints = typing.get_type_hints(cls, include_extras=True)
        root = MirrorBase if getattr(cls, "__text_from_numbers__", True) else StrictTextBase
        base: type[BaseModel] = root
        parent: type = object
        for parent in cls.__mro__[1:]:
            if parent.__name__ in built and parent.__module__ == module:
                base = built[parent.__name__]
                break
        fields: dict[str, Any] = {}
        own = set(cls.__annotations__)
        # where a field's docstring is, when not in this class's body (a class made by a function, or fields
        # repeated because msgspec takes one parent with fields): field name -> class name
        docs_from = vars(cls).get("__field_docs__", {})
        for f in msgspec.structs.fields(cls):
            if f.name not in own and base is not root:
                continue  # inherited: declared on the mirrored parent
            desc = docs.get(docs_from.get(f.name, cls.__name__), {}).get(f.name)
            if _described(hints[f.name]):  # a description in the type (``Id``'s) comes first, as in pydantic
                desc = None
            extra: dict[str, Any] = {"description": desc} if desc else {}
            if f.default_factory is not msgspec.NODEFAULT:
                default = f.default_factory()
                default = _to_mirror(default, built)
            else:
                default = f.default if f.default is not msgspec.NODEFAULT else ...
            fields[f.name] = (tr(hints[f.name]), PField(default, **extra) if extra else default)
        validators: dict[str, Any] = {}
        # the class's own, and those of its mixins (plain classes) that the mirrored parent does not have
        mixins = [c for c in reversed(cls.__mro__) if not issubclass(c, msgspec.Struct) and c not in parent.__mro__]
        found = {name: v for c in (*mixins, cls) for name, v in vars(c).items()}
        for name, v in found.items():
            if not isinstance(v, k.Validator):
                continue
            func: Any = classmethod(v.func)
            if v.kind == "field":
                validators[name] = p_field_validator(*v.fields, mode="after")(func)
            elif v.mode == "before":
                validators[name] = p_model_validator(mode="before")(func)
            else:
                validators[name] = p_model_validator(mode="after")(v.func)
        model = create_model(
            cls.__name__,
            __base__=base,
            __doc__=cls.__doc__ if cls.__doc__ and "__doc__" in vars(cls) else None,
            __module__=f"{module}_mirror",
            __validators__=validators,
            **fields,
        )
        for name, fn in vars(cls).items():  # methods the validators call (Unit's, GridSpec.grid ...)
            own_method = callable(fn) and not isinstance(fn, k.Validator | type) and name != "_finish"
            if own_method and not name.startswith("__") and name not in model.__dict__:
                setattr(model, name, fn)
        built[cls.__name__] = model
        _STRUCTS[model] = cls
    ns = {**built}
    for name in names:
        built[name].model_rebuild(_types_namespace=ns)
    return built


def _described(tp: Any) -> bool:
    """Whether ``tp`` (not a member of it) carries a description (``Annotated[str, Field(description=...)]``)."""
    return typing.get_origin(tp) is typing.Annotated and any(
        isinstance(m, msgspec.Meta) and m.description for m in tp.__metadata__
    )


def _resolve(tp: Any, globalns: dict[str, Any]) -> Any:
    if isinstance(tp, str):
        return eval(tp, globalns)  # a type written in forge.model
    return tp


def _to_mirror(v: Any, built: dict[str, type[BaseModel]]) -> Any:
    """A Struct default (``Rules()``) as the mirror's object."""
    if isinstance(v, msgspec.Struct):
        model = built[type(v).__name__]
        return model.model_construct(**{n: _to_mirror(getattr(v, n), built) for n in v.__struct_fields__})
    return v
