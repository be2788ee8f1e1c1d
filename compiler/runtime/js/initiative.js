// ---- initiative order (initiative.py; a ruleset feature: tracks R50) ----
// Successes, then extras, both descending; only those still tied roll again, until the order is
// strict (entries that can never break a tie keep their given order after maxRerolls rounds).
function _rt_initiative_order(entries, spec, source, useExtras, maxRerolls, maxDice, maxEntries, maxAdded) {
  entries = _rt_bounded_list('先攻条目', entries, maxEntries);
  for (const entry of entries) {
    if (!(Array.isArray(entry) && entry.length === 3 && typeof entry[0] === 'string')) {
      throw new RuleError(`先攻条目应为（名称, 骰子数, 附加成功）：${_rt_repr(entry)}`.slice(0, 200));
    }
    _rt_check_int('先攻骰子数', entry[1], 0, maxDice);
    _rt_check_int('先攻附加成功', entry[2], -maxDice, maxDice);
  }
  const trace = [];
  const rank = (group, depth) => {
    const rolled = group.map((entry, i) => {
      const roll = _rt_roll_pool(source, spec, entry[1], entry[2], false, maxAdded);
      trace.push(_rt_pool_sentence(`${entry[0]}先攻` + (depth ? `（第${depth + 1}次重掷）` : ''), roll));
      return [roll.successes, useExtras ? entry[2] : 0, i, entry];
    });
    rolled.sort((x, y) => (y[0] - x[0]) || (y[1] - x[1]) || (x[2] - y[2]));  // stable, as Python's sort
    const order = [];
    let i = 0;
    while (i < rolled.length) {
      let j = i;
      while (j < rolled.length && rolled[j][0] === rolled[i][0] && rolled[j][1] === rolled[i][1]) j++;
      const tied = rolled.slice(i, j).map(r => r[3]);
      if (tied.length === 1) {
        order.push(tied[0][0]);
      } else if (depth >= maxRerolls) {
        trace.push('仍然平手，保持给出的顺序：' + tied.map(e => e[0]).join('、'));
        for (const e of tied) order.push(e[0]);
      } else {
        trace.push('平手，重新检定：' + tied.map(e => e[0]).join('、'));
        for (const name of rank(tied, depth + 1)) order.push(name);
      }
      i = j;
    }
    return order;
  };
  return [rank(entries, 0), trace];
}
