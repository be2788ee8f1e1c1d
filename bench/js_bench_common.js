// The JavaScript benchmarks' bodies (issue 19, issue 31 "Measured", issue 34), in plain ES2015 so
// that Node (bench/js_bench.mjs) and QuickJS (bench/run.py, the `quickjs` package) run the same
// code; `now()` is the engine's clock in seconds.
//
// preparedBench(d20, now, repeats, n) -> {prepared, hand}: the generated d20 attack_prepare closure
// against a hand-written function doing the same attack (+5 vs AC 15, 1d8+3, crit on 20) through
// the same dice object.
//
// fightBench(tracks, now, repeats, n) -> {apply, hand_apply, act, hand_act} medians in seconds:
//   apply:      fight.apply(action) of the tracks attack bench_fight measures in Python (fist to the
//               jaw: damage, track points and the accumulation rule's state check);
//   hand_apply: the same effects applied by hand to plain objects: a new member with the damage
//               counter and the track's points added (saturated as the fight does), the ruleset's
//               own add_points_fast asked for the state, the same log sentences, a new fight object;
//   act:        fight.act(...) (effective stats, the attack with seeded dice, apply);
//   hand_act:   the generated attack on the base stats with the same dice, then hand_apply.
// Before timing, each baseline is checked to give the generated code's answer.
//
// fightLength(tracks, now, repeats) -> {lengths, seconds, slope}: a fight of 10 to 3,000 actions
// (甲 attacks 乙 with the fist to the jaw, then two next_turn; 乙 passes its 眩晕 capacity within
// the first actions and stays past it), the median seconds of each length (about the same work per
// length, lengths interleaved) and the exponent of the time in the number of actions (least squares
// on the logarithms; 1 is a flat per-action cost).


function medians(fns, now, repeats, n) {
  'use strict';
  function timeIt(fn, count) {
    var start = now(), sink = 0;
    for (var j = 0; j < count; j++) sink += fn() ? 1 : 0;
    return [(now() - start) / count, sink];
  }
  var names = Object.keys(fns), samples = {};
  names.forEach(function (key) { samples[key] = []; timeIt(fns[key], n); });  // warm up (JIT)
  for (var r = 0; r < repeats; r++) names.forEach(function (key) { samples[key].push(timeIt(fns[key], n)[0]); });
  var out = {};
  names.forEach(function (key) {
    var xs = samples[key].slice().sort(function (x, y) { return x - y; });
    out[key] = xs[Math.floor(xs.length / 2)];
  });
  return out;
}

function preparedBench(d20, now, repeats, n) {
  'use strict';
  function handWritten(dice) {
    var natural = dice.die(20);
    var total = natural + 5;
    if (total < 15) return [false, false, 0, 'slashing', natural, total, false, false, 'standard'];
    if (natural >= 20) return [true, true, dice.die(8) + dice.die(8) + 3, 'slashing', natural, total, false, false, 'standard'];
    return [true, false, dice.die(8) + 3, 'slashing', natural, total, false, false, 'standard'];
  }
  var fighter = new d20.Combatant({strength: 16, dexterity: 14, proficiency: 2});
  var target = new d20.Combatant({armor_class: 15});
  var prepared = d20.attack_prepare(fighter, target, 'longsword');
  var check = new d20.FixedDice([20, 3, 4, 10, 2, 5]), check2 = new d20.FixedDice([20, 3, 4, 10, 2, 5]);
  for (var i = 0; i < 3; i++) {
    var a = JSON.stringify(prepared(check)), b = JSON.stringify(handWritten(check2));
    if (a !== b) throw new Error('the baseline differs from the generated attack: ' + a + ' ' + b);
  }
  var seeded = new d20.SeededDice(1);
  return medians({prepared: function () { return prepared(seeded); },
                  hand: function () { return handWritten(seeded); }}, now, repeats, n);
}

function fightBench(tracks, now, repeats, n) {
  'use strict';
  var POINTS_MAX = 10000, MAX_VALUE = 1000000000;  // the tracks fight's points_max, the runtime's MAX_VALUE
  var TRACKS = {dizzy: '眩晕'}, STATES = {unconscious: '昏迷'}, STATE_INDEX = 3;
  var attacker = new tracks.Combatant({strength: 6, fighting: 5});
  var defender = new tracks.Combatant({dexterity: 4, perception: 2});
  var fight = tracks.start_fight(new Map([['甲', attacker], ['乙', defender]]));
  var roles = {attacker: '甲', defender: '乙'};
  var faces = [];
  for (var i = 0; i < 30; i++) faces.push(9);
  var action = fight.resolve('attack', roles, {weapon: 'fist', part: 'jaw', dice: new tracks.FixedDice(faces)});
  var NO_DICE = new tracks.FixedDice([]);

  function clamp(x, lo, hi) { return x < lo ? lo : x > hi ? hi : x; }
  function signed(x) { return (x < 0 ? '' : '+') + x; }
  // The plain fight: {turn, members: [{name, base, counters: {}, points: {}, states: []}], log: []}.
  var plain = {turn: 0, log: [], members: [
    {name: '甲', base: attacker, counters: {}, points: {}, states: []},
    {name: '乙', base: defender, counters: {}, points: {}, states: []}]};
  function handApply(state, result, who) {
    var log = [];
    var members = state.members.map(function (m) {
      if (m.name !== who) return m;
      var counters = Object.assign({}, m.counters), points = Object.assign({}, m.points), states = m.states;
      if (result.damage) {
        var total = clamp((counters.damage || 0) + result.damage, -MAX_VALUE, MAX_VALUE);
        counters.damage = total;
        log.push(who + '的所受伤害' + signed(result.damage) + '（共' + total +
                 (Math.abs(total) === MAX_VALUE ? '，已达上限' : '') + '）');
      }
      var track = result.track;
      if (track && result.points) {
        var before = points[track] || 0, after = clamp(before + result.points, 0, POINTS_MAX);
        points[track] = after;
        log.push(who + '的' + (TRACKS[track] || track) + signed(result.points) + '（共' + after +
                 (before + result.points > POINTS_MAX ? '，已达上限' + POINTS_MAX : '') + '）');
        var s = tracks.add_points_fast(m.base, track, {current: Math.min(before, after),
                                                       gained: Math.max(0, after - before), dice: NO_DICE})[STATE_INDEX];
        if (s && states.indexOf(s) < 0) {
          states = states.concat([s]).sort();
          log.push(who + '进入' + (STATES[s] || s));
        }
      }
      return {name: m.name, base: m.base, counters: counters, points: points, states: states};
    });
    return {turn: state.turn, members: members, log: state.log.concat(log)};
  }
  function handAct(state, dice) {
    var result = tracks.attack(state.members[0].base, state.members[1].base, 'fist', {part: 'jaw', dice: dice});
    return handApply(state, result, '乙');
  }

  // The same work: four applications (the fourth puts 乙 into 昏迷) give the fight's state and log.
  var a = fight, b = plain;
  function shape(members, log) {
    return JSON.stringify(members.map(function (m) { return [m.counters, m.points, m.states]; })) + JSON.stringify(log);
  }
  for (var k = 0; k < 4; k++) {
    a = a.apply(action);
    b = handApply(b, action.result, '乙');
    var d = a.toDict();
    if (shape(b.members, b.log) !== shape(d.members, d.log)) {
      throw new Error('the hand-written update differs from the fight: ' + shape(b.members, b.log) + ' ' +
                      shape(d.members, d.log));
    }
  }
  if (b.members[1].states.indexOf('unconscious') < 0) throw new Error('the check never reached the state');
  var seeded = new tracks.SeededDice(1), seeded2 = new tracks.SeededDice(1);
  return medians({
    apply: function () { return fight.apply(action); },
    hand_apply: function () { return handApply(plain, action.result, '乙'); },
    act: function () { return fight.act('attack', roles, {weapon: 'fist', part: 'jaw', dice: seeded}); },
    hand_act: function () { return handAct(plain, seeded2); },
  }, now, repeats, n);
}

function fightLength(tracks, now, repeats) {
  'use strict';
  var lengths = [10, 30, 100, 300, 1000, 3000], roles = {attacker: '甲', defender: '乙'};
  var attacker = new tracks.Combatant({strength: 6, fighting: 5});
  var defender = new tracks.Combatant({dexterity: 4, perception: 2});
  function run(actions) {
    var fight = tracks.start_fight(new Map([['甲', attacker], ['乙', defender]])), dice = new tracks.SeededDice(7);
    var start = now();
    for (var i = 0; i < actions; i++) {
      fight = fight.act('attack', roles, {weapon: 'fist', part: 'jaw', dice: dice})[1].next_turn().next_turn();
    }
    return now() - start;
  }
  var samples = lengths.map(function () { return []; });
  run(300);  // warm up (JIT)
  for (var r = 0; r < repeats; r++) {
    lengths.forEach(function (n, i) {
      var runs = Math.max(1, Math.floor(3000 / n)), total = 0;
      for (var j = 0; j < runs; j++) total += run(n);
      samples[i].push(total / runs);
    });
  }
  var secs = samples.map(function (xs) { xs = xs.slice().sort(function (a, b) { return a - b; }); return xs[Math.floor(xs.length / 2)]; });
  var lx = lengths.map(Math.log), ly = secs.map(Math.log), mx = 0, my = 0;
  for (var k = 0; k < lx.length; k++) { mx += lx[k] / lx.length; my += ly[k] / ly.length; }
  var num = 0, den = 0;
  for (k = 0; k < lx.length; k++) { num += (lx[k] - mx) * (ly[k] - my); den += (lx[k] - mx) * (lx[k] - mx); }
  return {lengths: lengths, seconds: secs, slope: num / den};
}
