"""The generated packages' import: result and table types made by `runtime/core.fields_tuple`
behave as `collections.namedtuple` classes do, and the fight is imported when first asked for."""

from __future__ import annotations

import collections
import copy
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from compiler.runtime.core import FieldsTuple, fields_tuple

FIELDS = ("hit", "damage", "trace")
Made = fields_tuple("Made", FIELDS, __name__)  # module-level, as in a generated module: picklable
Named = collections.namedtuple("Named", FIELDS)


def _outcome(call: Any) -> Any:
    """What a call gives, or the type of what it raises (the messages differ)."""
    try:
        return ("ok", tuple(call()))
    except Exception as exc:  # noqa: BLE001
        return ("raised", type(exc).__name__)


@pytest.mark.parametrize("args, kwargs", [
    ((True, 3, ()), {}), ((True,), {"damage": 3, "trace": ()}), ((), {"hit": 1, "damage": 2, "trace": 3}),
    ((True, 3), {}), ((True, 3, (), 4), {}), ((True,), {"damage": 3}), ((True, 3), {"hit": False, "trace": ()}),
    ((True, 3, ()), {"other": 1}), ((), {"trace": 1, "damage": 2, "hit": 3}),
])
def test_construction_agrees_with_namedtuple(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    assert _outcome(lambda: Made(*args, **kwargs)) == _outcome(lambda: Named(*args, **kwargs))


def test_methods_agree_with_namedtuple() -> None:
    made, named = Made(True, 3, ("x",)), Named(True, 3, ("x",))
    assert made == named and hash(made) == hash(named) and tuple(made) == tuple(named)
    assert (made.hit, made.damage, made.trace) == (named.hit, named.damage, named.trace)
    assert made._fields == named._fields == made.__match_args__ == FIELDS
    assert made._asdict() == named._asdict()
    assert repr(made) == repr(named).replace("Named", "Made")
    assert made._replace(damage=5) == named._replace(damage=5) and type(made._replace(damage=5)) is Made
    assert _outcome(lambda: made._replace(other=1)) == _outcome(lambda: named._replace(other=1)) == ("raised", "ValueError")
    assert Made._make([1, 2, 3]) == Named._make([1, 2, 3]) and type(Made._make([1, 2, 3])) is Made
    assert _outcome(lambda: Made._make([1, 2])) == _outcome(lambda: Named._make([1, 2])) == ("raised", "TypeError")
    assert pickle.loads(pickle.dumps(made)) == made and type(pickle.loads(pickle.dumps(made))) is Made
    assert copy.copy(made) == made and copy.deepcopy(made) == made and type(copy.deepcopy(made)) is Made
    with pytest.raises(AttributeError):
        made.hit = False  # type: ignore[misc]
    with pytest.raises(AttributeError):
        made.extra = 1  # type: ignore[attr-defined]
    assert isinstance(made, tuple) and isinstance(made, FieldsTuple) and Made.__module__ == __name__


def test_subclass_keeps_its_class() -> None:
    """A generated result type subclasses its fields class (`AttackResult(_AttackFields, Result)`)."""

    class Sub(Made):  # type: ignore[misc, valid-type]
        __slots__ = ()

    sub = Sub(True, 1, ())
    assert type(sub._replace(hit=False)) is Sub and repr(sub).startswith("Sub(hit=True")
    assert not hasattr(sub, "__dict__")


@pytest.mark.parametrize("rid", ["d20", "dp", "tracks"])
def test_package_imports_its_fight_when_asked(rid: str, built: Path) -> None:
    code = (f"import sys; sys.path.insert(0, {str(built / rid)!r}); import rulec_{rid} as m; "
            f"print(any('fight' in k for k in sys.modules if k.startswith('rulec_{rid}.'))); "
            f"from rulec_{rid} import Fight, start_fight; print(Fight.__name__, 'start_fight' in dir(m), "
            f"m.Fight is Fight, 'rulec_{rid}.fight' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "Fight", "True", "True", "True"]
    # the submodule as an attribute, first thing asked (`m.fight.FIGHT_RULES`), as before
    code = (f"import sys; sys.path.insert(0, {str(built / rid)!r}); import rulec_{rid} as m; "
            f"print(m.fight.FIGHT_RULES is m.FIGHT_RULES, 'fight' in dir(m))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "True"]


def test_unknown_package_attribute_is_an_attribute_error(dp: Any) -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        dp.nothing  # noqa: B018
