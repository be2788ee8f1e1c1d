// Dice sources (sources.py in JavaScript): seeded, fixed and crypto-backed dice, and dice values.
// Part of the runtime every generated JavaScript module carries (after runtime.js).
// ---- dice sources (sources.py) ----
// A dice expression from the rules, e.g. 2d6+3: its text, dice terms and flat bonus.
class DiceValue {
  constructor(text, terms, flat) { this.text = text; this.terms = terms; this.flat = flat; Object.freeze(this); }
  toJSON() { return this.toDict(); }
  toDict() { return this.text; }
}
function _rt_dice_value(row) { return row === null ? null : new DiceValue(row[0], row[1], row[2]); }
function _rt_dice_count(value) {
  if (value === null) return 0;
  const terms = value.terms;
  if (terms.length === 1) return terms[0][0];
  let n = 0;
  for (const t of terms) n += t[0];
  return n;
}
// Two damage rolls as one (an odds function enumerates two rolls it reads only as their sum as one
// roll of all their dice): the dice of both and both bonuses; null when neither rolls.
function _rt_join_dice(first, second) {
  if (first === null) return second;
  if (second === null) return first;
  return new DiceValue(`${first.text}+${second.text}`, first.terms.concat(second.terms), first.flat + second.flat);
}
const _rt_MADE = new Map();
function _rt_make_dice(count, sides) {
  const key = count + 'd' + sides;
  let value = _rt_MADE.get(key);
  if (value === undefined) {
    if (count < 0 || sides < 1) throw new RuleError(`无法掷${count}d${sides}：骰子数不能为负，面数至少为1`);
    value = new DiceValue(`${count}d${sides}`, count ? [[count, sides]] : [], 0);
    if (_rt_MADE.size < 4096) _rt_MADE.set(key, value);
  }
  return value;
}

// The Mersenne Twister exactly as CPython's random.Random seeds and draws it: SeededDice(seed)
// here rolls the same faces as SeededDice(seed) in the Python package.
class _MersenneTwister {
  constructor(key) {  // key: the seed's absolute value as 32-bit words, least significant first
    this.mt = new Uint32Array(624);
    this.index = 624;
    this.seedArray(key);
  }
  seedArray(key) {
    const mt = this.mt;
    mt[0] = 19650218;
    for (let i = 1; i < 624; i++) {
      const p = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = Math.imul(1812433253, p) + i;
    }
    let i = 1, j = 0;
    for (let k = Math.max(624, key.length); k > 0; k--) {
      const p = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(p, 1664525)) >>> 0) + key[j] + j;
      i++; j++;
      if (i >= 624) { mt[0] = mt[623]; i = 1; }
      if (j >= key.length) j = 0;
    }
    for (let k = 623; k > 0; k--) {
      const p = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(p, 1566083941)) >>> 0) - i;
      i++;
      if (i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000;
  }
  next32() {
    const mt = this.mt;
    if (this.index >= 624) {
      let kk = 0, y;
      for (; kk < 227; kk++) {
        y = (mt[kk] & 0x80000000) | (mt[kk + 1] & 0x7fffffff);
        mt[kk] = mt[kk + 397] ^ (y >>> 1) ^ ((y & 1) * 0x9908b0df);
      }
      for (; kk < 623; kk++) {
        y = (mt[kk] & 0x80000000) | (mt[kk + 1] & 0x7fffffff);
        mt[kk] = mt[kk - 227] ^ (y >>> 1) ^ ((y & 1) * 0x9908b0df);
      }
      y = (mt[623] & 0x80000000) | (mt[0] & 0x7fffffff);
      mt[623] = mt[396] ^ (y >>> 1) ^ ((y & 1) * 0x9908b0df);
      this.index = 0;
    }
    let y = mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }
  random() {
    const a = this.next32() >>> 5, b = this.next32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }
}
// An integer seed's absolute value as 32-bit words, least significant first (as CPython's
// init_by_array takes it); ES2015 arithmetic only, so a BigInt goes through its decimal digits.
function _rt_seed_words(seed) {
  let digits;
  if (typeof seed === 'number') {
    if (!Number.isInteger(seed) || Math.abs(seed) > 9007199254740991) {
      throw new OutOfBounds(`种子必须是整数（超过2^53的用BigInt或十进制数字串），得到${_rt_repr(seed)}`);
    }
    digits = String(Math.abs(seed));
  } else if ((typeof seed === 'bigint' && String(seed).replace(/^-/, '').length <= 4000)
             || (typeof seed === 'string' && /^-?[0-9]{1,4000}$/.test(seed))) {
    digits = String(seed).replace(/^-/, '');
  } else {
    throw new OutOfBounds(`种子必须是整数（超过2^53的用BigInt或十进制数字串），得到${_rt_repr(seed)}`);
  }
  const words = [0];
  for (let i = 0; i < digits.length; i++) {  // words = words * 10 + digit, with carries
    let carry = digits.charCodeAt(i) - 48;
    for (let w = 0; w < words.length; w++) {
      const v = words[w] * 10 + carry;
      words[w] = v % 4294967296;
      carry = Math.floor(v / 4294967296);
    }
    if (carry) words.push(carry);
  }
  while (words.length > 1 && words[words.length - 1] === 0) words.pop();
  return words;
}
// Random faces from a Mersenne Twister seeded like Python's random.Random(seed): the same seed
// replays the same rolls, in either language. A face is Math.floor(random() * sides) + 1.
// The seed is an integer of any size: a safe integer Number, a BigInt, or its decimal digits as a
// string ('123456789012345678901234', a QQ or Discord id), all seeding as Python's int would.
class SeededDice {
  constructor(seed) {
    if (seed === undefined || seed === null) seed = Math.floor(Math.random() * 9007199254740991);
    const twister = new _MersenneTwister(_rt_seed_words(seed));
    this.random = () => twister.random();
    // Read-only, so its faces are always in 1..sides and _rt_dice_source can trust it (a subclass
    // is a source of its own, checked like any other).
    if (new.target === SeededDice) Object.freeze(this);
  }
  die(sides) { _rt_sides(sides); return Math.floor(this.random() * sides) + 1; }
}
const MAX_FIXED_FACES = 10000;  // faces given in advance (what a scenario may list)
function _rt_sides(sides) {
  if (typeof sides !== 'number' || !Number.isInteger(sides) || sides < 1 || sides > 1000000) {
    throw new OutOfBounds(`骰子的面数必须是1至1000000的整数，得到${_rt_repr(sides)}`, {key: 'sides'});
  }
}
// Faces given in advance, consumed in order; for tests and worked examples.
class FixedDice {
  constructor(faces) {
    this.faces = _rt_bounded_list('固定骰面', faces, MAX_FIXED_FACES); this.used = 0;
    if (new.target === FixedDice) Object.seal(this);  // no own die can replace the checking one
  }
  die(sides) {
    _rt_sides(sides);
    if (this.used >= this.faces.length) {
      throw new DiceExhausted(`固定骰面已用完：第${this.used + 1}个骰子（d${sides}）没有给出骰面`,
                              {needed: this.used + 1, given: this.faces.length});
    }
    const face = this.faces[this.used];
    if (typeof face !== 'number' || !Number.isInteger(face) || face < 1 || face > sides) {
      throw new BadFace(`第${this.used + 1}个骰面${_rt_repr(face)}不是d${sides}能掷出的点数`, {index: this.used});
    }
    this.used += 1;
    return face;
  }
  get remaining() { return this.faces.length - this.used; }
}

