// Compiled by tests/test_js_types.py with `tsc --noEmit --strict`: an option the Python package
// takes as a keyword-only parameter without a default is required by index.d.ts too, so a call
// that would throw for want of it does not compile (each @ts-expect-error line must be an error).
import * as d20 from "./d20/index.js";
import * as dp from "./dp/index.js";
import * as tracks from "./tracks/index.js";

const a = new d20.Combatant(), b = new d20.Combatant(), c = new d20.Combatant();
d20.flanking(a, b, c, {ax: 0, ay: 0, bx: 2, by: 0, ex: 1, ey: 0});
// @ts-expect-error: flanking needs every coordinate
d20.flanking(a, b, c, {ax: 0, ay: 0, bx: 2, by: 0, ex: 1});
// @ts-expect-error: flanking needs its options object
d20.flanking(a, b, c);
// @ts-expect-error: the odds form too
d20.flanking_odds(a, b, c);
// @ts-expect-error: and the prepared form
d20.flanking_prepare(a, b, c, {ax: 0});

dp.save_contest(3, {save_dice: 2});
// @ts-expect-error: save_contest needs save_dice
dp.save_contest(3);
// @ts-expect-error: the fast form too
dp.save_contest_fast(3, {dice: new dp.SeededDice(1)});

const t = new tracks.Combatant();
tracks.leave_area({timing: "before_action"});
// @ts-expect-error: leave_area needs its timing
tracks.leave_area({});
tracks.add_points(t, "physical", {gained: 1});
// @ts-expect-error: add_points needs gained
tracks.add_points(t, "physical");
tracks.enhanced_long_rest(t, {rest_hours: 8});
// @ts-expect-error: enhanced_long_rest needs rest_hours
tracks.enhanced_long_rest(t, {});
tracks.unconscious_hit(t, "physical", {current: 1, taken: 2});
// @ts-expect-error: unconscious_hit needs taken
tracks.unconscious_hit(t, "physical", {current: 1});
