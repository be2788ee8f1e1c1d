// Calls and combatants: the options object of a public call, and combatant records.
// Part of the runtime every generated JavaScript module carries (last of its files).
// ---- calls ----
// The options object of a call: Python's keyword arguments; a key the procedure does not take is refused.
// The result has no prototype: a property another script added to Object.prototype (a shared
// engine such as SealDice's) can never stand in for an option that was not given.
function _rt_options(options, keys) {
  const out = new _rt_Dict();
  if (options === undefined || options === null) return out;
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new OutOfBounds(`选项必须是一个对象（名称: 值），得到${_rt_type_name(options)}`);
  }
  for (const k of Object.keys(options)) {
    if (keys.indexOf(k) < 0) {
      throw new OutOfBounds(`未知的选项${_rt_repr(k)}` + (keys.length ? `（可用：${keys.join('、')}）` : '（这个过程没有选项）'),
                            {key: Array.from(k).slice(0, 100).join('')});
    }
    out[k] = options[k];
  }
  return out;
}
// The one entry point of a dice argument into generated code (sources.dice_source): a SeededDice
// or FixedDice (exactly those classes, whose instances cannot be changed to roll anything else)
// as it is; any other object with a die method wrapped, once per call, in a _CheckedDice that
// checks every face; anything else is OutOfBounds.
function _rt_dice_source(dice) {
  if (dice !== null && dice !== undefined) {
    const proto = Object.getPrototypeOf(dice);
    if (proto === SeededDice.prototype || proto === FixedDice.prototype || proto === _CheckedDice.prototype) {
      return dice;
    }
  }
  if (dice === null || dice === undefined || (typeof dice !== 'object' && typeof dice !== 'function')
      || typeof dice.die !== 'function') {
    throw new OutOfBounds(`dice必须是有die(sides)方法的骰子来源（SeededDice、FixedDice或自定义），得到${_rt_type_name(dice)}`,
                          {name: 'dice'});
  }
  return new _CheckedDice(dice);
}
// A face a source gave, short enough for a message whatever it is (sources._face_text).
function _rt_face_text(face) {
  if (typeof face === 'number') {
    if (Number.isInteger(face)) return Math.abs(face) < 1e12 ? String(face) : '超出范围的整数';
    return Number.isNaN(face) ? 'nan' : face === Infinity ? 'inf' : face === -Infinity ? '-inf' : String(face);
  }
  if (typeof face === 'string') return _rt_repr(face.length > 20 ? face.slice(0, 20) + '…' : face);
  if (face === null || face === undefined || typeof face === 'boolean') return _rt_repr(face);
  return `${_rt_type_name(face)}类型的值`;
}
// A dice source of the caller's own, with every face checked: an integer from 1 to sides, else BadFace.
class _CheckedDice {
  constructor(source) { this.source = source; this.given = 0; }
  die(sides) {
    const face = this.source.die(sides);
    this.given += 1;
    if (typeof face !== 'number' || !Number.isInteger(face) || face < 1 || face > sides) {
      throw new BadFace(`骰子来源给出的第${this.given}个骰面${_rt_face_text(face)}不是d${sides}能掷出的点数`,
                        {index: this.given - 1});
    }
    return face;
  }
}

// ---- combatants ----
// stats: [[id, Chinese name, 'int' | 'bool', default, min, max], ...]
function _rt_combatant_init(self, stats, given) {
  given = given === undefined || given === null ? {} : given;
  if (typeof given !== 'object' || Array.isArray(given)) {
    throw new OutOfBounds(`属性必须是一个映射（名称: 数值），得到${_rt_type_name(given)}`);
  }
  const known = stats.map(s => s[0]);
  for (const key of Object.keys(given)) {
    if (known.indexOf(key) < 0) throw new OutOfBounds(`未知的属性“${key}”`, {key: key});
  }
  for (const s of stats) {
    const own = Object.prototype.hasOwnProperty.call(given, s[0]);  // never an inherited property
    const value = own && given[s[0]] !== undefined ? given[s[0]] : s[3];
    if (s[2] === 'int') _rt_check_int(s[1], value, s[4], s[5]);
    else _rt_check_bool(s[1], value);
    self[s[0]] = value;
  }
  Object.freeze(self);
}
function _rt_stats_from_dict(data, names, stats) {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new OutOfBounds(`属性必须是一个映射（名称: 数值），得到${_rt_type_name(data)}`);
  }
  const known = stats.map(s => s[0]), values = {};
  for (const key of Object.keys(data)) {
    const stat = Object.prototype.hasOwnProperty.call(names, key) ? names[key] : key;
    if (known.indexOf(stat) < 0) throw new OutOfBounds(`未知的属性“${key}”`, {key: key});
    if (Object.prototype.hasOwnProperty.call(values, stat)) {
      throw new OutOfBounds(`属性“${key}”给出了两次（编号与名称各一次）`, {key: key});
    }
    values[stat] = data[key];
  }
  return values;
}
function _rt_combatant_dict(self, stats) {
  const out = {};
  for (const s of stats) out[s[0]] = self[s[0]];
  return out;
}
