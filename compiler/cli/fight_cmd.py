"""Fight scenarios (kind: fight) for `rulec resolve` and `rulec test`: named combatants and a
sequence of actions, each resolved with the fight's state and applied to it. After each action the
trace, the state changes and every combatant's state are printed; `expect:` of an action checks its
outcome, `expect:` of the scenario checks each combatant's state after the last action."""

from __future__ import annotations

from typing import Any

from ..diagnostics import Diagnostic
from .output import echo
from ..messages import say


def _check_state(doc: Any, module: Any, fight: Any) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for name, want in (doc.data.get("expect") or {}).items():
        span = doc.span(("expect", name))
        try:
            m = fight.member(name)
        except module.OutOfBounds:
            out.append(Diagnostic(span, "expect", say("expect.no-combatant-fight", name=name)))
            continue
        for key, value in (want.get("counters") or {}).items():
            if m.counter(key) != value:
                out.append(Diagnostic(doc.span(("expect", name, "counters", key)), "expect",
                                      say("expect.expected-got", name=name, key_=key, value=value, counter=m.counter(key))))
        for key, value in (want.get("points") or {}).items():
            if m.track_points(key) != value:
                out.append(Diagnostic(doc.span(("expect", name, "points", key)), "expect",
                                      say("expect.points-expected-got", name=name, key_=key, value=value, track_points=m.track_points(key))))
        if "states" in want and sorted(want["states"]) != sorted(m.states):
            out.append(Diagnostic(doc.span(("expect", name, "states")), "expect",
                                  say("expect.states-expected-got", name=name, sorted=sorted(want['states']), sorted2=sorted(m.states))))
        if "conditions" in want:
            have = sorted({c.id for c in fight.active_conditions(name)})
            if sorted(set(want["conditions"])) != have:
                out.append(Diagnostic(doc.span(("expect", name, "conditions")), "expect",
                                      say("expect.conditions-expected-got", name=name, want=sorted(set(want["conditions"])),
                                          got=have)))
        for rel, held in (want.get("holds") or {}).items():
            have = sorted(b for r, a, b in fight.relations if r == rel and a == name)
            if sorted(set(held)) != have:
                out.append(Diagnostic(doc.span(("expect", name, "holds", rel)), "expect",
                                      say("expect.holds-expected-got", name=name, relation=rel, want=sorted(set(held)),
                                          got=have)))
    return out


def _plan(module: Any, steps: Any) -> list[dict[str, Any]]:
    """A plan's steps as `Fight.until_plan` takes them: arguments by id (or Chinese name)."""
    out = []
    for st in steps or ():
        info = module.PROCEDURE_INFO[st["procedure"]]
        by_name = {pname: pid for pid, pname, _ in info["params"]}
        out.append({"procedure": st["procedure"], "roles": st["roles"], "end_turn": bool(st.get("end_turn", False)),
                    "options": {by_name.get(k, k): v for k, v in (st.get("args") or {}).items()}})
    return out


def run_until(doc: Any, module: Any, fight: Any, show: bool) -> tuple[list[Diagnostic], Any]:
    """The scenario's `until:` from the fight after its actions: (unmet expectations or the
    refusal as diagnostics, the exact distribution or None)."""
    spec = doc.data["until"]
    span = doc.span(("until",))
    plan = {"opening": _plan(module, spec.get("opening")), "cycle": _plan(module, spec["cycle"])}
    try:
        odds = fight.until_plan(plan, spec["target"], max_actions=spec.get("max_actions", 200))
    except module.RuleError as exc:
        return [Diagnostic(span, "refused", say("until.refused", exc=exc))], None
    if show:
        echo(say("until.summary", expected=odds.expected, median=odds.median))
        total = 0.0
        for k, p in enumerate(odds.probabilities):
            total += p
            if p >= 1e-6:
                echo(say("play.until.row", number=k + 1, number2=p * 100, number3=total * 100))
        if odds.tail > 0:
            echo(say("play.until.tail", n_probabilities=len(odds.probabilities), tail=odds.tail))
    want = spec.get("expect") or {}
    if "expected" in want and abs(odds.expected - want["expected"]) > want.get("tolerance", 0.0005):
        return [Diagnostic(doc.span(("until", "expect", "expected")), "expect",
                           say("until.expected-got", want=want["expected"], got=odds.expected))], odds
    return [], odds


def run_fight(doc: Any, module: Any, show: bool, expectations: Any) -> tuple[list[Diagnostic], bool, Any]:
    """Play the scenario; (every unmet expectation or refusal as a diagnostic, whether any action
    was refused, the fight after the last action)."""
    data = doc.data
    combatants = {name: module.Combatant.from_dict(stats) for name, stats in data["combatants"].items()}
    fight = module.start_fight(combatants, turns=data.get("turns", False) is True)
    problems: list[Diagnostic] = []
    refused = False
    if show and data.get("title"):
        echo(f"【{data['title']}】")
    for i, act in enumerate(data.get("actions") or ()):
        span = doc.span(("actions", i))
        faces = act.get("dice")
        dice = module.FixedDice(faces) if faces is not None else module.SeededDice(act.get("seed", data.get("seed")))
        info = module.PROCEDURE_INFO[act["procedure"]]
        by_name = {pname: pid for pid, pname, _ in info["params"]}
        kwargs = {by_name.get(k, k): v for k, v in (act.get("args") or {}).items()}
        before = fight
        result = error = None
        action: Any = None
        reason = ""
        try:
            action = fight.resolve(act["procedure"], act["roles"], dice=dice, **kwargs)
            result = action.result
            fight = fight.apply(action)
        except (module.RuleError, TypeError) as exc:
            error = getattr(exc, "code", "rule-error")
            reason = str(getattr(exc, "message", exc))
            if "error" not in (act.get("expect") or {}):
                problems.append(Diagnostic(span, "refused", say("refused.action", number=i + 1, procedure=act['procedure'], exc=exc)))
                refused = True
        problems += expectations(doc, module, act["procedure"], result, error, ("actions", i, "expect"),
                                 act.get("expect"))
        if show:
            role_names = {pid: pname for pid, pname, _ in info["params"]}
            who = "、".join(f"{role_names.get(role, role)}：{name}" for role, name in act["roles"].items())
            echo(say("fight.step", number=i + 1, name=info['name'], who=who))
            if action is not None:
                echo(action.text(gm=True))
            elif reason:
                echo(say("fight.refused", reason=reason))
            for line in fight.log_since(before):
                echo(f"  · {line}")
            for m in fight.members:
                echo(f"  {fight.status(m.name)}")
        if act.get("next_turn"):
            before = fight
            fight = fight.next_turn()
            if show:
                for line in fight.log_since(before):
                    echo(f"  · {line}")
    return problems + _check_state(doc, module, fight), refused, fight
