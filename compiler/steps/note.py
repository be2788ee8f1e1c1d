"""`note`: a sentence for the trace, when its condition holds (记录)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..emit.js.code import js
from ..emit.handlers import handler
from ..emit.python.code import code
from ..ir import Step, Template
from .base import CheckedStep, StepKind, ref, when_text

if TYPE_CHECKING:
    from ..emit.js.gen import JsGen
    from ..emit.python.gen import PyGen


class Note(Step, frozen=True):
    text: Template
    gm_only: bool = False  # a line for the game master: traces keep it as kind "gm", player text leaves it out




class NoteKind(StepKind):
    key = "note"
    name = "记录"
    summary = "A sentence for the trace ({名称} holes show values), when its condition holds."
    has_say = has_name = False
    extra_properties: ClassVar[dict[str, Any]] = {
        "gm_only": {"type": "boolean", "description": "A line only the game master sees (a wrong guess of a hidden "
                                                      "target's square): kept in the trace as kind 'gm', left out "
                                                      "of the players' text."}}
    node: ClassVar[type[Step]] = Note
    traces_only = True

    def key_schema(self) -> dict[str, Any]:
        return ref("template", "The sentence.")

    def check(self, raw: Any, ctx: Any) -> CheckedStep | None:
        checked = super().check(raw, ctx)
        text = ctx.template(raw["note"], ("note",))
        if checked is None or text is None:
            return None
        checked.say = text
        return checked

    def lower(self, c: CheckedStep) -> Note:
        assert c.say is not None
        return Note(None, self.name, c.when, c.rules, c.span, c.say, bool(c.raw.get("gm_only", False)))

    def describe(self, step: Note, zh: Any) -> str:
        return f"记录{'（仅主持人可见）' if step.gm_only else ''}：{step.text.text}{when_text(step, zh)}"


def _note(step: Note, g: PyGen) -> None:
    sentence = g.sentence(step.text)
    when = g.when(step)
    guarded = g.form == "setup"
    kind = "gm" if step.gm_only else "note"
    if when is None:
        g.trace(kind, sentence, g.values(), guarded=guarded)
        return
    with g.w.block(code("if {}", when)):
        g.trace(kind, sentence, g.values(), guarded=guarded)


handler("python", "setup", Note)(_note)
handler("python", "traced", Note)(_note)


def _nothing(step: Note, g: PyGen) -> None:
    """A note only writes the trace, which this form does not keep."""


for _form in ("fast", "prepare", "prepared", "odds"):
    handler("python", _form, Note)(_nothing)


# ---- JavaScript ----
def _js_note(step: Note, g: JsGen) -> None:
    sentence = g.sentence(step.text)
    when = g.when(step)
    kind = "gm" if step.gm_only else "note"
    if when is None:
        g.trace(kind, sentence, g.values(), guarded=g.form == "setup")
        return
    with g.w.block(js("if ({})", when)):
        g.trace(kind, sentence, g.values(), guarded=g.form == "setup")


handler("js", "setup", Note)(_js_note)
handler("js", "traced", Note)(_js_note)
for _form in ("fast", "odds"):
    handler("js", _form, Note)(_nothing)
