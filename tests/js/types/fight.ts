// Compiled by tests/test_js_types.py with `tsc --noEmit --strict`: the fight's types (index.d.ts)
// describe the API (each @ts-expect-error line must be an error): roles and options by procedure,
// a required option required, the action's result typed by its procedure.
import * as dp from "./dp/index.js";
import * as tracks from "./tracks/index.js";

const fight = dp.start_fight({甲: new dp.Combatant({strength: 3}), 乙: new dp.Combatant()});
const [action, next] = fight.act("attack", {attacker: "甲", defender: "乙"}, {weapon: "longsword",
                                                                             dice: new dp.SeededDice(1)});
const damage: number = action.result.damage;
const lines: string = action.text(true) + action.applied.join("\n");
const later = next.next_turn();
const status: string = later.status("乙");
const stored: dp.FightDict = later.toDict();
const again: dp.Fight = dp.fightFromDict(JSON.parse(JSON.stringify(stored)));
const round: number = again.round + again.turn + again.log.length;
const who: string = again.actor + again.member("甲").counter("damage");
const total = dp.fight_from_dict(stored).apply(fight.resolve("total_defense", {defender: "甲"}));
const odds: dp.UntilOdds = dp.until("attack", "damage", 10, new dp.Combatant(), new dp.Combatant(), "longsword",
                                    {max_attacks: 20});
console.log(damage, lines, status, round, who, total.holds("grapple", "甲", "乙"), odds.expected, odds.at_most(3));
try {
  fight.resolve("feint", {attacker: "甲", defender: "乙"});
} catch (e) {
  if (e instanceof dp.Refused || e instanceof dp.RuleError) console.log(e.code);
}

const t = tracks.start_fight(new Map([["甲", new tracks.Combatant()], ["乙", new tracks.Combatant()]]));
const chain = t.until_state("attack", {attacker: "甲", defender: "乙"}, "defender", "physical",
                            {weapon: "unarmed", max_attacks: 50});
const needed: number | null = tracks.state_threshold(new tracks.Combatant(), "physical");
console.log(chain.probabilities.length, chain.tail, needed);

// @ts-expect-error: attack needs its weapon
fight.resolve("attack", {attacker: "甲", defender: "乙"});
// @ts-expect-error: and its options object
fight.act("attack", {attacker: "甲", defender: "乙"});
// @ts-expect-error: no such role
fight.resolve("attack", {attacker: "甲", target: "乙"}, {weapon: "longsword"});
// @ts-expect-error: no such procedure in a fight
fight.resolve("no_such_procedure", {attacker: "甲"});
// @ts-expect-error: no such option
fight.resolve("total_defense", {defender: "甲"}, {no_such_option: 1});
// @ts-expect-error: an action's result has only its procedure's fields
console.log(action.result.no_such_field);
// @ts-expect-error: a fight is read-only
fight.turn = 3;
// @ts-expect-error: until_state needs the procedure's required options too
t.until_state("attack", {attacker: "甲", defender: "乙"}, "defender", "physical");

const R = {attacker: "甲", defender: "乙"};
const plan = fight.until_plan({opening: [{procedure: "feint", roles: R, end_turn: false}],
                               cycle: [{procedure: "attack", roles: R, options: {weapon: "拳"}, end_turn: true}]},
                              {who: "乙", counter: "damage", at_least: 12}, {max_actions: 40});
const done: boolean = fight.reached([{who: "乙", condition: "prone"}, {who: "乙", counter: "damage", at_least: 3}]);
console.log(plan.expected, done);
// @ts-expect-error: a plan step's options are its procedure's
fight.until_plan([{procedure: "feint", roles: R, options: {weapon: "拳"}}], {who: "乙", state: "x"});
// @ts-expect-error: a target names one kind
fight.reached({who: "乙"});

const timed = dp.start_fight({甲: new dp.Combatant(), 乙: new dp.Combatant()}, true);
const left: string = timed.ready("甲", "standard").left("甲") + timed.member("甲").ready;
console.log(left, timed.toDict().turns, timed.resolve("total_defense", {defender: "甲"}).plan?.over);
