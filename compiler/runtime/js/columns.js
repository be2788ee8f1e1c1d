// The rows of a large table (more than 500 entries: the compiler's emit/js/model.py), from the text
// of the Python package's rows files (_rows/<table>_<k>.json, emit/python/model.py rows_file), one
// object a chunk of rows: its number of rows and its columns, each as one value for every row
// ({all}), as at most 221 values and one character a row whose code, less 35, is the index of its
// value ({values, pick}), or as a list ({list}). An array value is copied into each row that holds
// it, as a row written out would hold its own. `_rt_columns` decodes every row at once (for a table
// whose entries refer to each other); any other such table is a `_rt_LazyMap` (below), which makes
// a row, `_rt_cell` by `_rt_cell`, when its entry is first read.
function _rt_columns(chunks) {
  const rows = [];
  for (const chunk of chunks) {
    const n = chunk.rows, columns = chunk.columns, start = rows.length;
    for (let i = 0; i < n; i++) rows.push(new Array(columns.length));
    for (let c = 0; c < columns.length; c++) {
      const col = columns[c];
      if (col.list !== undefined) {
        const list = col.list;
        for (let i = 0; i < n; i++) rows[start + i][c] = list[i];
      } else if (col.pick !== undefined) {
        const values = col.values, pick = col.pick;
        if (values.some(Array.isArray)) {
          for (let i = 0; i < n; i++) rows[start + i][c] = _rt_fresh(values[pick.charCodeAt(i) - 35]);
        } else {  // no call a cell (a function call is slow in goja)
          for (let i = 0; i < n; i++) rows[start + i][c] = values[pick.charCodeAt(i) - 35];
        }
      } else if (Array.isArray(col.all)) {
        for (let i = 0; i < n; i++) rows[start + i][c] = _rt_fresh(col.all);
      } else {
        const value = col.all;
        for (let i = 0; i < n; i++) rows[start + i][c] = value;
      }
    }
  }
  return rows;
}
function _rt_fresh(value) {
  if (!Array.isArray(value)) return value;
  const out = new Array(value.length);
  for (let i = 0; i < value.length; i++) out[i] = _rt_fresh(value[i]);
  return out;
}
// The value of a chunk's column in its row `i`, as `_rt_columns` puts it there.
function _rt_cell(col, i) {
  if (col.list !== undefined) return col.list[i];
  return _rt_fresh(col.pick !== undefined ? col.values[col.pick.charCodeAt(i) - 35] : col.all);
}

// A large table whose entries are made when first read, each from its row, made from the chunks'
// columns then (a bot that loads a module of 10,000 weapons makes neither their rows nor their
// entries: in goja that was nine tenths of loading the module). In the table's Map an entry not
// made yet is its row's place over all the chunks (a number). `get` makes that entry and keeps it,
// the same object at every read; `has`, `size` and `keys` make none; by name an entry is found
// through the names' column (runtime.js `_rt_named`); reading the whole table (values, entries,
// forEach, for...of, toJSON) makes every entry not made yet, once. The chunks never leave the
// table: they live in WeakMaps of this runtime, as a FrozenMap's Map does.
const _rt_LAZY = new WeakMap();  // a lazy table -> {chunks, starts, make}; make is null once all are made
class _rt_LazyMap extends FrozenMap {
  constructor(chunks, make) {
    const places = [], starts = [];
    let n = 0;
    for (const chunk of chunks) {
      const ids = chunk.columns[0];
      starts.push(n);
      for (let i = 0; i < chunk.rows; i++) places.push([_rt_cell(ids, i), n + i]);
      n += chunk.rows;
    }
    super(places);
    const lazy = {chunks: chunks, starts: starts, make: make};
    _rt_LAZY.set(this, lazy);
    _rt_LAZY_NAME.set(this, v => typeof v === 'number' ? _rt_lazy_cell(lazy, v, 1) : v.name);
  }
  get(key) {
    const map = _rt_FROZEN.get(this), found = map.get(key);
    if (typeof found !== 'number') return found;
    const entry = _rt_lazy_entry(_rt_LAZY.get(this), found);
    map.set(key, entry);
    return entry;
  }
  values() { return _rt_all_made(this).values(); }
  entries() { return _rt_all_made(this).entries(); }
  forEach(fn, thisArg) { _rt_all_made(this).forEach((v, k) => fn.call(thisArg, v, k, this)); }
  [Symbol.iterator]() { return _rt_all_made(this).entries(); }
}
Object.freeze(_rt_LazyMap.prototype);
function _rt_lazy_at(lazy, place) {  // [the chunk, the row in it] of a row's place
  const starts = lazy.starts;
  let lo = 0, hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= place) lo = mid; else hi = mid - 1;
  }
  return [lazy.chunks[lo], place - starts[lo]];
}
function _rt_lazy_cell(lazy, place, c) {
  const at = _rt_lazy_at(lazy, place);
  return _rt_cell(at[0].columns[c], at[1]);
}
function _rt_lazy_entry(lazy, place) {
  const at = _rt_lazy_at(lazy, place), columns = at[0].columns, row = new Array(columns.length);
  for (let c = 0; c < columns.length; c++) row[c] = _rt_cell(columns[c], at[1]);
  return lazy.make(row);
}
function _rt_all_made(table) {  // the table's Map, every entry made
  const map = _rt_FROZEN.get(table), lazy = _rt_LAZY.get(table);
  if (lazy.make !== null) {
    for (const [key, value] of map) if (typeof value === 'number') map.set(key, _rt_lazy_entry(lazy, value));
    lazy.make = null;
  }
  return map;
}
