// The rows of a large table (more than 500 entries: the compiler's emit/js/model.py), from the text
// of the Python package's rows files (_rows/<table>_<k>.json, emit/python/model.py rows_file), one
// object a chunk of rows: its number of rows and its columns, each as one value for every row
// ({all}), as at most 221 values and one character a row whose code, less 35, is the index of its
// value ({values, pick}), or as a list ({list}). An array value is copied into each row that holds
// it, as a row written out would hold its own.
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
