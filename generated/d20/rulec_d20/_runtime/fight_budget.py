"""The turn as a budget: what one combatant's turn holds and what each kind of action costs from it.

A ruleset's `fight: turn:` (compiler: validate/fight_turn.py) declares the pools a turn holds (dp:
one standard, one move and one swift action; tracks: the turn's seconds, counted in thirds of a
second; d20: one action and one bonus action) and, for each kind of action a procedure declares
(`action:`), what it costs on its actor's own turn and off it (alternatives, the first that fits
is used: a move action paid with a standard one), and what it takes from the actor's next turn (a
reflex's second). A readied action (`Fight.ready`) costs what the ruleset says when declared and,
triggered off-turn, what the declared kind would cost the next turn when `owes` (dp: 「你宣言的动作
在下一轮你的对应动作将被跳过」).

Each member carries what it has spent since its own turn began (`spent`), what it owes its next
turn (`owed`) and the kind it has readied (`ready`). `Fight.resolve` refuses an action that does
not fit (`Refused`, saying what is left and what the action costs) when the ruleset's ruling says
so, and otherwise lets it through with a sentence in `action.applied`; `Fight.apply` spends it;
the start of a member's turn resets its budget to what it owed. Nothing here knows a ruleset.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, List, NamedTuple, Optional, Tuple

from .fight_conditions import Refused
from .fight_events import turn_for
from .fight_conditions import Condition
from .fight_state import ActionSpec, Cost, FightRules, Member, Pool, TurnSpec, clamp, get, line, put

if TYPE_CHECKING:
    from .fight import Fight

def amount(pool: Pool, value: int) -> str:
    """`value` of `pool` in its shown unit (thirds of a second as 1/3秒, 1又1/3秒)."""
    whole, part = divmod(value, pool.per_unit)
    if not part:
        text = str(whole)
    else:
        text = (f"{whole}又" if whole else "") + f"{part}/{pool.per_unit}"
    return f"{pool.name}{text}{pool.unit}"


def shown_cost(turn: TurnSpec, cost: Cost) -> str:
    return "、".join(amount(p, get(cost, p.id)) for p in turn.pools if get(cost, p.id)) or "不耗费"


def _left(turn: TurnSpec, spent: Cost) -> Cost:
    return tuple((p.id, p.per_turn - get(spent, p.id)) for p in turn.pools)


def _fits(turn: TurnSpec, spent: Cost, cost: Cost) -> bool:
    per = {p.id: p.per_turn for p in turn.pools}
    return all(get(spent, k) + v <= per.get(k, 0) for k, v in cost)


def _add(turn: TurnSpec, pairs: Cost, cost: Cost) -> Cost:
    per = {p.id: p.per_turn for p in turn.pools}
    for k, v in cost:
        pairs = put(pairs, k, clamp(get(pairs, k) + v, 0, per.get(k, 0)))
    return pairs


def _merged(cost: Cost, extra: Cost) -> Cost:
    """`cost` and `extra` together, sorted by pool."""
    out = dict(cost)
    for k, v in extra:
        out[k] = out.get(k, 0) + v
    return tuple(sorted(out.items()))


class Plan(NamedTuple):
    """What an action costs its actor: from this turn (`cost`), from the next one (`owes`), whether
    it triggers the readied action, and the sentence when it does not fit ("" when it does)."""

    name: str
    cost: Cost
    owes: Cost
    readied: bool
    over: str


class Budget:
    """The turn budget, for `Fight` (which provides the attributes below)."""

    __slots__ = ()
    rules: FightRules
    members: Tuple[Member, ...]
    turn: int

    if TYPE_CHECKING:  # provided by Fight
        @property
        def actor(self) -> str: ...

        def member(self, name: str) -> Member: ...

        def _active(self, m: Member) -> Tuple[Condition, ...]: ...

        def _with(self, members: Optional[Tuple[Member, ...]] = None, turn: Optional[int] = None,
                  relations: Optional[Tuple[Tuple[str, str, str], ...]] = None,
                  log: Optional[Tuple[str, ...]] = None, added: Optional[List[str]] = None) -> "Fight": ...

    def _plan(self, m: Member, spec: ActionSpec, action: Optional[str] = None, extra: Cost = ()) -> Optional[Plan]:
        """What `spec` costs `m` now (None: the ruleset has no turn budget or the procedure is not an
        action of a turn); refused here when it does not fit and the ruling refuses. `action`: the kind
        its result named (`spec.action_from`), instead of the declared one; `extra`: what its result
        spends beyond its kind (`spec.costs`: d20's feet of movement), added to each alternative."""
        turn = turn_for(self, m)  # the ruleset's turn, as m's conditions shorten it (fight_events)
        if action is None:
            action = spec.action
        if turn is None or not action:
            return None
        kind = turn.kind(action)
        if kind is None:
            return None
        what = turn.kind_name(action)
        own = m.name == self.actor
        if not own and m.ready and m.ready == action:  # the readied action, triggered
            ready_kind = turn.kind(m.ready)
            owes = ready_kind.own[0] if turn.owes and ready_kind is not None and ready_kind.own else ()
            return Plan(m.name, kind.off[0] if kind.off else (), owes, True, "")
        options = kind.own if own else kind.off
        if extra:
            options = tuple(_merged(c, extra) for c in options)
        if not options:
            where = "在自己的回合外" if not own else "在自己的回合"
            allowed = [turn.kind_name(k) for k, c in turn.kinds if (c.off if not own else c.own)]
            over = f"{m.name}{where}不能进行{what}（{spec.name}）；可以进行：{'、'.join(allowed) or '无'}"
            return self._over(Plan(m.name, (), kind.next, False, over))
        for cost in options:
            if _fits(turn, m.spent, cost):
                return Plan(m.name, cost, kind.next, False, "")
        left = "、".join(amount(p, v) for p, (_, v) in zip(turn.pools, _left(turn, m.spent)))
        over = f"{m.name}本回合剩余{left}，不能进行{what}（{shown_cost(turn, options[0])}）"
        return self._over(Plan(m.name, options[0], kind.next, False, over))

    def _over(self, plan: Plan) -> Plan:
        assert self.rules.turn is not None
        if self.rules.turn.refuse:
            raise Refused(plan.over, key="turn")
        return plan

    def _spend(self, m: Member, plan: Optional[Plan], log: List[str]) -> Member:
        """`m` after paying for an action (a sentence saying what it spent and what is left)."""
        turn = turn_for(self, m)
        if plan is None or turn is None:
            return m
        spent = _add(turn, m.spent, plan.cost)
        owed = _add(turn, m.owed, plan.owes)
        if plan.over:
            log.append(line(f"{plan.over}：按裁定仍然进行"))
        if plan.cost:
            left = "、".join(amount(p, v) for p, (_, v) in zip(turn.pools, _left(turn, spent)))
            log.append(line(f"{m.name}用去{shown_cost(turn, plan.cost)}（本回合剩余{left}）"))
        if plan.owes:
            log.append(line(f"{m.name}的下一回合被占用{shown_cost(turn, plan.owes)}"))
        if plan.readied:
            log.append(line(f"{m.name}触发准备好的{turn.kind_name(m.ready)}"))
        return m._replace(spent=spent, owed=owed, ready="" if plan.readied else m.ready)

    def ready(self, name: str, action: str) -> "Fight":
        """A new fight in which `name`, on its own turn, readies an action of kind `action`: it pays
        what declaring costs now and may take that kind of action off its turn before its next turn
        (the ruleset's turn says what the trigger takes from that next turn)."""
        m = self.member(name)
        turn = turn_for(self, m)
        kind = turn.kind(action) if turn is not None and type(action) is str else None
        if turn is None or kind is None or not kind.own:
            raise Refused(f"不能准备这种动作：{action}", key="action")
        if name != self.actor:
            raise Refused(f"{name}只能在自己的回合宣言准备动作", key="action")
        what = turn.kind_name(action)
        options = turn.ready or kind.own
        cost = next((c for c in options if _fits(turn, m.spent, c)), None)
        log: List[str] = []
        if cost is None:
            left = "、".join(amount(p, v) for p, (_, v) in zip(turn.pools, _left(turn, m.spent)))
            plan = self._over(Plan(name, options[0], (), False,
                                   f"{name}本回合剩余{left}，不能宣言准备{what}（{shown_cost(turn, options[0])}）"))
            cost = plan.cost
            log.append(line(f"{plan.over}：按裁定仍然进行"))
        spent = _add(turn, m.spent, cost)
        left = "、".join(amount(p, v) for p, (_, v) in zip(turn.pools, _left(turn, spent)))
        log.append(line(f"{name}准备一个{what}，用去{shown_cost(turn, cost)}（本回合剩余{left}）"))
        members = tuple(x._replace(spent=spent, ready=action) if x.name == name else x for x in self.members)
        return self._with(members=members, added=log)

    def _new_turn(self, members: List[Member], turn: int, log: List[str]) -> None:
        """At the start of the turn `turn`, its actor's budget: what it owed (a reflex's second), and
        a readied action not triggered lapses."""
        if self.rules.turn is None:
            return
        i = turn % len(members)
        m = members[i]
        if m.ready:
            log.append(line(f"{m.name}准备的{self.rules.turn.kind_name(m.ready)}未被触发，失效"))
        if m.spent or m.owed or m.ready:
            members[i] = m._replace(spent=m.owed, owed=(), ready="")
        if m.owed:
            log.append(line(f"{m.name}本回合已被占用{shown_cost(self.rules.turn, m.owed)}"))

    def left(self, name: str) -> str:
        """What `name` has left of its turn, in the rules' words ("" without a turn budget)."""
        if self.rules.turn is None:
            return ""
        m = self.member(name)
        turn = turn_for(self, m)
        assert turn is not None
        return "、".join(amount(p, v) for p, (_, v) in zip(turn.pools, _left(turn, m.spent)))
