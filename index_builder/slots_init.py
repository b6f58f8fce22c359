"""A frozen dataclass's constructor that sets each field through its slot.

The constructor ``@dataclass(frozen=True, slots=True)`` writes calls
``object.__setattr__(self, "name", value)`` for each field: a look-up of the name in the
class's attributes, then its slot's descriptor. :func:`set_by_slots` gives the class a
constructor of the same parameters (names, order, defaults) that calls each slot's
descriptor directly, a third faster: a warm catalogue build makes 20,000 papers and as
many rows and events, and every cache that holds them makes them again when it is read.
The class stays frozen: assigning a field afterwards raises as before.
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from types import MemberDescriptorType
from typing import Any, TypeVar

_T = TypeVar("_T", bound=type)

DATACLASS_INITS: dict[type, Any] = {}
"""Each decorated class's constructor as ``@dataclass`` wrote it (the tests compare)."""


def set_by_slots(kind: _T) -> _T:
    """Class decorator (above ``@dataclass(frozen=True, slots=True)``): see the module notes.

    Refuses (``TypeError``) a class whose constructor does more than set its fields: a
    field it does not take or made by a factory, a ``__post_init__``, a field without a
    slot of its own.
    """
    found = fields(kind)
    if hasattr(kind, "__post_init__") or any(
        not f.init
        or f.default_factory is not MISSING
        or not isinstance(kind.__dict__.get(f.name), MemberDescriptorType)
        for f in found
    ):
        raise TypeError(f"{kind.__name__}'s constructor does more than set its fields' slots")
    scope: dict[str, Any] = {}
    params, body = [], []
    for n, f in enumerate(found):
        scope[f"_set{n}"] = kind.__dict__[f.name].__set__
        if f.default is MISSING:
            params.append(f.name)
        else:
            scope[f"_default{n}"] = f.default
            params.append(f"{f.name}=_default{n}")
        body.append(f"    _set{n}(self, {f.name})")
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body) + "\n"
    exec(source, scope)  # made of the field names alone, as @dataclass makes its own
    made, original = scope["__init__"], kind.__dict__["__init__"]
    made.__qualname__ = f"{kind.__qualname__}.__init__"
    made.__doc__ = original.__doc__
    made.__annotations__ = dict(original.__annotations__)
    DATACLASS_INITS[kind] = original
    kind.__init__ = made  # type: ignore[misc]
    return kind
