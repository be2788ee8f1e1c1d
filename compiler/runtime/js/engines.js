// The dice engines (pool.py, d20.py, damage.py in JavaScript): rolling and their sentences.
// Part of the runtime every generated JavaScript module carries (after sources.js).
// ---- the success-counting pool (pool.py) ----
class PoolSpec {
  constructor(sides, successAt, addAt, prefix, botDefaultAddAt) {
    this.sides = sides;
    this.success_at = successAt;
    this.add_at = addAt > 0 ? addAt : sides + 1;
    this.prefix = prefix;
    this.bot_default_add_at = botDefaultAddAt;
  }
  command(dice, extras) {
    let text = `${this.prefix}${dice}`;
    if (this.add_at !== this.bot_default_add_at && this.add_at <= this.sides) text += `a${this.add_at}`;
    if (extras > 0) text += `+${extras}`;
    else if (extras < 0) text += `${extras}`;
    return text;
  }
}
class PoolRoll {
  constructor(dice, extras, faces, added, successes, command, allSucceed) {
    this.dice = dice; this.extras = extras; this.faces = faces; this.added = added;
    this.successes = successes; this.command = command; this.all_succeed = allSucceed;
    Object.freeze(this);
  }
  toJSON() { return this.toDict(); }
  toDict() {
    return {kind: 'pool', command: this.command, dice: this.dice, extras: this.extras, faces: this.faces.slice(),
            added: this.added.slice(), successes: this.successes, all_succeed: this.all_succeed};
  }
}
// The default of the pool engine's dice.limits.added_dice (pool.ADDED_DICE): generated code passes
// its ruleset's declared limit, and no pool is ever rolled without one.
const _rt_ADDED_DICE = 1000;
function _rt_too_many_added(maxAdded) {
  return new LimitExceeded(`一次骰池检定的加骰超过${maxAdded}个，超过规则集的上限（added_dice）：` +
                           '公平的骰子几乎不可能如此（概率低于10⁻¹⁶），请检查骰子来源', {limit: maxAdded});
}
function _rt_roll_pool(source, spec, dice, extras, allSucceed, maxAdded) {
  if (maxAdded === undefined) maxAdded = _rt_ADDED_DICE;
  const command = spec.command(dice, extras);
  if (allSucceed) return new PoolRoll(dice, extras, [], [], dice, command, true);
  const faces = [], added = [];
  let successes = 0, pending = dice, rolled = 0, left = maxAdded;
  while (pending > 0) {
    pending -= 1;
    const face = source.die(spec.sides);
    faces.push(face);
    added.push(rolled >= dice);
    rolled += 1;
    if (face >= spec.success_at) successes += 1;
    if (face >= spec.add_at) {
      if (!(left > 0)) throw _rt_too_many_added(maxAdded);
      left -= 1;
      pending += 1;
    }
  }
  return new PoolRoll(dice, extras, faces, added, successes, command, false);
}
function _rt_pool_successes(dice, n, sides, successAt, addAt, maxAdded) {
  if (maxAdded === undefined) maxAdded = _rt_ADDED_DICE;
  let successes = 0, left = maxAdded;
  while (n > 0) {
    n -= 1;
    const face = dice.die(sides);
    if (face >= successAt) successes += 1;
    if (face >= addAt) {
      if (!(left > 0)) throw _rt_too_many_added(maxAdded);
      left -= 1;
      n += 1;
    }
  }
  return successes;
}
function _rt_pool_sentence(label, roll) {
  if (roll.all_succeed) return `${label}：${roll.command}，所有${roll.dice}个骰子均视为成功（不加骰）`;
  const extras = roll.extras ? `（另有附加成功${roll.extras}）` : '';
  if (roll.dice === 0) return `${label}：没有骰子可掷，成功数${roll.successes}${extras}`;
  return `${label}：掷${roll.command}，骰面${_rt_faces_text(roll.faces, roll.added)}，成功数${roll.successes}${extras}`;
}

// ---- the d20 with advantage layers (d20.py) ----
class D20Roll {
  constructor(faces, natural, layers) { this.faces = faces; this.natural = natural; this.layers = layers; Object.freeze(this); }
  toJSON() { return this.toDict(); }
  toDict() { return {kind: 'd20', faces: this.faces.slice(), natural: this.natural, layers: this.layers}; }
}
function _rt_roll_d20(source, layers) {
  if (layers === 0) {
    const face = source.die(20);
    return new D20Roll([face], face, 0);
  }
  const faces = [];
  for (let i = 0; i < Math.abs(layers) + 1; i++) faces.push(source.die(20));
  return new D20Roll(faces, layers >= 0 ? Math.max.apply(null, faces) : Math.min.apply(null, faces), layers);
}
function _rt_d20_natural(dice, layers) {
  if (layers === 0) return dice.die(20);
  let kept = dice.die(20);
  for (let i = layers > 0 ? layers : -layers; i > 0; i--) {
    const face = dice.die(20);
    if (layers > 0 ? face > kept : face < kept) kept = face;
  }
  return kept;
}
function _rt_d20_sentence(label, roll) {
  if (roll.layers === 0) return `${label}：掷d20得${roll.natural}`;
  const mode = `${Math.abs(roll.layers)}重${roll.layers > 0 ? '优势' : '劣势'}`;
  return `${label}：${mode}，掷${roll.faces.length}个d20 ${_rt_faces_text(roll.faces)}，取${roll.natural}`;
}

// ---- damage dice (damage.py) ----
class DamageRoll {
  constructor(faces, total, crit, expression) {
    this.faces = faces; this.total = total; this.crit = crit; this.expression = expression; Object.freeze(this);
  }
  toJSON() { return this.toDict(); }
  toDict() {
    return {kind: 'damage', expression: this.expression, faces: this.faces.slice(), total: this.total, crit: this.crit};
  }
}
function _rt_terms_text(terms, crit) {
  const mult = crit ? 2 : 1;
  return terms.map(t => `${t[0] * mult}d${t[1]}`).join('+') || '0';
}
function _rt_roll_damage(source, terms, crit) {
  const faces = [];
  for (let pass = crit ? 2 : 1; pass > 0; pass--) {
    for (const t of terms) for (let i = 0; i < t[0]; i++) faces.push(source.die(t[1]));
  }
  let total = 0;
  for (const f of faces) total += f;
  return new DamageRoll(faces, total, crit, _rt_terms_text(terms, crit));
}
function _rt_damage_total(dice, terms, crit) {
  if (terms.length === 1 && terms[0][0] === 1) {  // one die: the common weapon
    const sides = terms[0][1];
    return crit ? dice.die(sides) + dice.die(sides) : dice.die(sides);
  }
  let total = 0;
  for (let pass = crit ? 2 : 1; pass > 0; pass--) {
    for (let j = 0; j < terms.length; j++) {
      const count = terms[j][0], sides = terms[j][1];
      for (let i = 0; i < count; i++) total += dice.die(sides);
    }
  }
  return total;
}
function _rt_damage_sentence(label, roll, flat) {
  const bonus = flat ? _rt_signed(flat) : '';
  const crit = roll.crit ? '（重击，伤害骰掷两次）' : '';
  return `${label}：掷${roll.expression}${bonus}${crit}，骰面${_rt_faces_text(roll.faces)}，合计${roll.total + flat}`;
}

