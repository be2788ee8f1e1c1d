// Compiled by tests/test_js_types.py with `tsc --noEmit --strict` against a fresh build's
// generated/js/d20/index.d.ts (copied beside this file as ./d20/): the types describe the module,
// and they are not `any` (each @ts-expect-error line must be an error).
import { Combatant, SeededDice, FixedDice, attack, attack_odds, attack_fast, attack_prepare, get_weapon, WEAPONS,
  RuleError, PROCEDURE_INFO, ATTACK_FIELDS, pool_distribution } from "./d20/index.js";

const a = new Combatant({strength: 16, proficiency: 2});
const b = Combatant.fromDict({"护甲等级": 15});
const r = attack(a, b, "longsword", {distance: 5, dice: new SeededDice(1)});
const hit: boolean = r.hit;
const damage: number = r.damage;
const text: string = r.text(true);
const odds = attack_odds(a, b, get_weapon("长剑"));
const p: number = odds.hit_probability;
const fast = attack_fast(a, b, "longsword", {dice: new FixedDice([20, 3, 4])});
const roll = attack_prepare(a, b, "longsword");
const again = roll(new SeededDice(2));
for (const [id, weapon] of WEAPONS) {
  const name: string = weapon.name + id;
  const dice: string | undefined = weapon.damage_dice?.text;
  console.log(name, dice);
}
try {
  attack(a, b, "x");
} catch (e) {
  if (e instanceof RuleError) console.log(e.code);
}
const mean: number = pool_distribution(5, 10, 8, 10).mean();
console.log(hit, damage, text, p, fast, again, PROCEDURE_INFO.attack.name, ATTACK_FIELDS.length, mean);

// @ts-expect-error: no such outcome field
console.log(r.no_such_field);
// @ts-expect-error: a stat is a number
new Combatant({strength: "16"});
// @ts-expect-error: no such option
attack(a, b, "longsword", {no_such_option: 1});
// @ts-expect-error: the fast form needs its dice
attack_fast(a, b, "longsword", {});
