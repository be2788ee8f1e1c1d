// The calculator page's own script (static: every value of the rules comes from the JSON block
// #calc-data and is written into the page with textContent, never as markup).
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("calc-data").textContent);
  var M = window[DATA.global];
  var form = document.getElementById("calc-form");
  var out = document.getElementById("calc-out");
  var SVG = "http://www.w3.org/2000/svg";
  var MAX_HASH = 4000;  // characters of the URL's hash read back
  var chains = rulecCalcUntil(M, DATA);  // calculator_until.js
  var statById = {};
  DATA.stats.forEach(function (s) { statById[s.id] = s; });

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
    if (text !== undefined) node.textContent = String(text);
    return node;
  }
  function pct(p) { return (p * 100).toFixed(2) + "%"; }
  function num(x) { return x === null || x === undefined || isNaN(x) ? "—" : x.toFixed(3); }
  function shownValue(v) { return v === true ? "是" : v === false ? "否" : v === null ? "（无）" : String(v); }

  // ---- the state: read from and written to the URL's hash ----
  function readHash() {
    var text = location.hash.slice(1, 1 + MAX_HASH);
    var state = {};
    new URLSearchParams(text).forEach(function (v, k) { if (k.length <= 100) state[k] = v.slice(0, 200); });
    return state;
  }
  var state = readHash();
  function procedure() {
    var found = DATA.procedures.filter(function (p) { return p.id === state.p; })[0];
    return found || DATA.procedures[0];
  }

  function initial(proc, prm) {
    if (Object.prototype.hasOwnProperty.call(proc.args, prm.id)) return proc.args[prm.id];
    if (prm.default !== null && prm.default !== undefined) return prm.default;
    if (prm.type === "bool") return false;
    if (prm.type === "int") return prm.min !== null && prm.min > 0 ? prm.min : 0;
    if (DATA.tables[prm.type]) return prm.optional ? "" : (DATA.tables[prm.type].entries[0] || [""])[0];
    return "";
  }
  function statInitial(proc, who, stat) {
    var given = proc.combatants[who] || {};
    return Object.prototype.hasOwnProperty.call(given, stat.id) ? given[stat.id] : stat.default;
  }

  function input(key, type, value, lo, hi) {
    var node;
    if (type === "bool") {
      node = el("input", {type: "checkbox", name: key});
      node.checked = state[key] !== undefined ? state[key] === "1" : !!value;
    } else {
      node = el("input", {type: "number", name: key, step: "1", inputmode: "numeric"});
      if (lo !== null && lo !== undefined) node.min = lo;
      if (hi !== null && hi !== undefined) node.max = hi;
      node.value = state[key] !== undefined ? state[key] : String(value);
    }
    return node;
  }
  function field(labelText, control) {
    var label = el("label", {"class": "field"});
    label.appendChild(el("span", {}, labelText));
    label.appendChild(control);
    return label;
  }
  function choice(key, table, value, optional) {
    var node = el("select", {name: key});
    var t = DATA.tables[table];
    if (optional) node.appendChild(el("option", {value: ""}, "（无）"));
    var groups = {};
    t.entries.forEach(function (row) {
      var parent = node;
      if (row[2]) {
        if (!groups[row[2]]) { groups[row[2]] = el("optgroup", {label: row[2]}); node.appendChild(groups[row[2]]); }
        parent = groups[row[2]];
      }
      parent.appendChild(el("option", {value: row[0]}, row[1]));
    });
    var wanted = state[key] !== undefined ? state[key] : value;
    node.value = wanted;
    if (node.value !== wanted) node.value = value;
    return node;
  }

  function buildForm() {
    var proc = procedure();
    form.textContent = "";
    if (DATA.procedures.length > 1) {
      var sel = el("select", {name: "p"});
      DATA.procedures.forEach(function (p) { sel.appendChild(el("option", {value: p.id}, p.name)); });
      sel.value = proc.id;
      form.appendChild(field("结算流程", sel));
    }
    var options = el("fieldset", {});
    options.appendChild(el("legend", {}, "选项"));
    proc.params.forEach(function (prm) {
      if (prm.type === "combatant") {
        var box = el("fieldset", {"data-combatant": prm.id});
        box.appendChild(el("legend", {}, prm.name));
        var groups = {};
        DATA.stats.forEach(function (s) {
          var g = groups[s.group];
          if (!g) {
            g = groups[s.group] = el("details", {});
            if (Object.keys(groups).length === 1) g.open = true;  // the first group, and those the preset sets or varies
            g.appendChild(el("summary", {}, s.group || "属性"));
            box.appendChild(g);
          }
          var given = proc.combatants[prm.id] || {};
          if (Object.prototype.hasOwnProperty.call(given, s.id) ||
              (proc.vary && proc.vary.param === prm.id && proc.vary.stat === s.id)) g.open = true;
          g.appendChild(field(s.name, input(prm.id + "." + s.id, s.type, statInitial(proc, prm.id, s), s.min, s.max)));
        });
        form.appendChild(box);
      } else if (DATA.tables[prm.type]) {
        var made = field(prm.name, choice(prm.id, prm.type, String(initial(proc, prm)), prm.optional));
        if (prm.id === proc.table_param) form.insertBefore(made, form.querySelector("fieldset")); else options.appendChild(made);
      } else if (prm.type === "int" || prm.type === "bool") {
        options.appendChild(field(prm.name, input(prm.id, prm.type, initial(proc, prm), prm.min, prm.max)));
      }
    });
    form.appendChild(options);
    var more = el("fieldset", {});
    more.appendChild(el("legend", {}, "计算"));
    if (proc.damage) {
      more.appendChild(field("累计伤害达到", input("until", "int", proc.until ? proc.until.at : 10, 1, 100000)));
    }
    more.appendChild(field("掷骰种子", input("seed", "int", 1, 0, 2147483647)));
    var again = el("button", {type: "button", id: "reroll"}, "再掷一次");
    again.addEventListener("click", function () {
      var s = form.elements.seed;
      s.value = String((parseInt(s.value, 10) || 0) + 1);
      update();
    });
    more.appendChild(again);
    form.appendChild(more);
  }

  // ---- reading the form ----
  function values() {
    var proc = procedure();
    var read = {};
    Array.prototype.forEach.call(form.elements, function (node) {
      if (!node.name) return;
      if (node.type === "checkbox") read[node.name] = node.checked;
      else if (node.type === "number") read[node.name] = node.value === "" ? null : Number(node.value);
      else read[node.name] = node.value;
    });
    return {proc: proc, read: read};
  }
  function call(proc, read, override) {
    var info = M.PROCEDURE_INFO[proc.id];
    var args = [], opts = {};
    proc.params.forEach(function (prm) {
      var v;
      if (prm.type === "combatant") {
        var stats = {};
        DATA.stats.forEach(function (s) { stats[s.id] = read[prm.id + "." + s.id]; });
        if (override && override.param === prm.id) stats[override.stat] = override.value;
        v = M.Combatant.fromDict(stats);
      } else {
        v = read[prm.id];
        if (DATA.tables[prm.type] && v === "") v = null;
        if (override && override.param === prm.id && !override.stat) v = override.value;
      }
      if (info.positional.indexOf(prm.id) >= 0) args.push(v); else if (v !== undefined) opts[prm.id] = v;
    });
    return {args: args, opts: opts};
  }
  function writeHash(read) {
    var proc = procedure();
    var params = new URLSearchParams();
    if (DATA.procedures.length > 1) params.set("p", proc.id);
    Object.keys(read).forEach(function (k) {
      if (k === "p") return;
      var v = read[k];
      params.set(k, v === true ? "1" : v === false ? "0" : v === null ? "" : String(v));
    });
    history.replaceState(null, "", "#" + params.toString());
  }

  function figure(label, text, value, id) {
    var box = el("div", {"class": "figure", id: id});
    box.appendChild(el("span", {}, label + "："));
    var b = el("b", {"data-value": value === null ? "" : String(value)}, text);
    box.appendChild(b);
    return box;
  }
  function chart(points) {
    var w = 560, h = 220, left = 44, bottom = 30, top = 14;
    var root = svg("svg", {"class": "chart", viewBox: "0 0 " + w + " " + h, role: "img", "aria-label": "伤害分布"});
    var maxP = Math.max.apply(null, points.map(function (q) { return q[1]; }).concat([1e-9]));
    var bw = (w - left - 8) / Math.max(1, points.length);
    root.appendChild(svg("line", {x1: left, y1: h - bottom, x2: w - 4, y2: h - bottom, stroke: "#5f6368"}));
    root.appendChild(svg("text", {x: 2, y: top + 4, "font-size": 11, fill: "#5f6368"}, pct(maxP)));
    points.forEach(function (q, i) {
      var bh = (h - bottom - top) * q[1] / maxP;
      var x = left + i * bw;
      var r = svg("rect", {x: x + bw * 0.1, y: h - bottom - bh, width: Math.max(1, bw * 0.8), height: bh, fill: "#8b1e1e"});
      r.appendChild(svg("title", {}, "伤害 " + q[0] + "：" + pct(q[1])));
      root.appendChild(r);
      if (points.length <= 30 || i % Math.ceil(points.length / 30) === 0) {
        root.appendChild(svg("text", {x: x + bw / 2, y: h - bottom + 14, "font-size": 11, "text-anchor": "middle"}, q[0]));
      }
    });
    root.appendChild(svg("text", {x: w / 2, y: h - 2, "font-size": 11, "text-anchor": "middle", fill: "#5f6368"}, "伤害"));
    return root;
  }
  function table(head, rows, id) {
    var wrap = el("div", {"class": "scroll"});
    var t = el("table", {id: id});
    var tr = el("tr", {});
    head.forEach(function (h) { tr.appendChild(el("th", {}, h)); });
    t.appendChild(el("thead", {})).appendChild(tr);
    var body = t.appendChild(el("tbody", {}));
    rows.forEach(function (row) {
      var r = el("tr", {});
      row.forEach(function (c) { r.appendChild(el("td", {"data-value": c[1] === null ? "" : String(c[1])}, c[0])); });
      body.appendChild(r);
    });
    wrap.appendChild(t);
    return wrap;
  }

  function update() {
    var v = values();
    if (v.read.p !== undefined && v.read.p !== v.proc.id) {
      state = {p: v.read.p};
      buildForm();
      v = values();
    }
    writeHash(v.read);
    state = readHash();
    var proc = v.proc, read = v.read;
    out.textContent = "";
    out.appendChild(el("h2", {}, proc.name));
    if (proc.description) out.appendChild(el("p", {"class": "note"}, proc.description));
    var c = call(proc, read);
    var odds;
    try {
      odds = M[proc.id + "_odds"].apply(null, c.args.concat([c.opts]));
    } catch (err) {
      out.appendChild(el("p", {"class": "error", id: "calc-error"}, err && err.message ? err.message : String(err)));
      return;
    }
    var box = el("div", {"class": "numbers"});
    if (proc.hit) box.appendChild(figure("命中率", pct(odds.hit_probability), odds.hit_probability, "hit"));
    var marginal = null;
    if (proc.damage) {
      box.appendChild(figure("期望伤害", num(odds.expected_damage), odds.expected_damage, "damage"));
      marginal = odds.marginal(proc.damage);
      var until = read.until;
      if (until !== null && until >= 1 && until <= 100000 && Math.floor(until) === until) {
        var attacks = chains.expectedAttacks(marginal, until);
        box.appendChild(figure("累计伤害达到" + until + "所需的期望攻击次数", num(attacks), attacks, "until"));
      }
    }
    out.appendChild(box);
    var states = chains.untilStates(proc, read, odds);
    if (states.length) {
      out.appendChild(el("h2", {}, "各状态所需的期望攻击次数"));
      out.appendChild(el("p", {"class": "note"}, "每回合攻击一次，逐次计入战斗状态的变化（条件、累积槽、减益）；“—”：这次攻击达不到，或" +
                         chains.PLAN_ACTIONS + "次攻击内不能确定达到。"));
      out.appendChild(table(["状态", "期望攻击次数"], states.map(function (s) { return [[s[0], s[0]], [num(s[1]), s[1]]]; }),
                            "states"));
    }
    if (odds.dropped > 0) out.appendChild(el("p", {"class": "note"}, "忽略的概率（超出精确计算的上限）：" + odds.dropped.toExponential(2)));
    if (marginal) {
      var points = [];
      marginal.forEach(function (p, d) { points.push([Number(d), p]); });
      points.sort(function (a, b) { return a[0] - b[0]; });
      out.appendChild(el("h2", {}, "伤害分布"));
      out.appendChild(chart(points));
      var details = el("details", {});
      details.appendChild(el("summary", {}, "伤害分布表"));
      details.appendChild(table(["伤害", "概率"], points.map(function (q) { return [[q[0], q[0]], [pct(q[1]), q[1]]]; }), "distribution"));
      out.appendChild(details);
    }
    if (proc.vary) spread(proc, read);
    roll(proc, read, c);
  }

  function spread(proc, read) {
    // The balancing presets' spread of the varied stat (as on the reference page), with the rest of this form.
    var rows = [];
    var vary = proc.vary;
    vary.values.forEach(function (x) {
      var c = call(proc, read, {param: vary.param, stat: vary.stat, value: x});
      try {
        var o = M[proc.id + "_odds"].apply(null, c.args.concat([c.opts]));
        var row = [[x, x]];
        if (proc.hit) row.push([pct(o.hit_probability), o.hit_probability]);
        if (proc.damage) {
          row.push([num(o.expected_damage), o.expected_damage]);
          if (read.until) {
            var a = chains.expectedAttacks(o.marginal(proc.damage), read.until);
            row.push([num(a), a]);
          }
        }
        rows.push(row);
      } catch (err) {
        rows.push([[x, x], ["—", null]]);
      }
    });
    var head = [vary.name];
    if (proc.hit) head.push("命中率");
    if (proc.damage) { head.push("期望伤害"); if (read.until) head.push("期望攻击次数"); }
    out.appendChild(el("h2", {}, "对" + vary.name + "的分布"));
    out.appendChild(table(head, rows, "spread"));
  }

  function roll(proc, read, c) {
    out.appendChild(el("h2", {}, "掷骰（种子 " + read.seed + "）"));
    try {
      var dice = new M.SeededDice(read.seed === null ? 1 : read.seed);
      var opts = Object.assign({}, c.opts, {dice: dice});
      var result = M[proc.id].apply(null, c.args.concat([opts]));
      out.appendChild(el("pre", {id: "trace"}, result.text()));
    } catch (err) {
      out.appendChild(el("p", {"class": "error", id: "roll-error"}, err && err.message ? err.message : String(err)));
    }
  }

  buildForm();
  form.addEventListener("change", update);
  form.addEventListener("input", update);
  window.addEventListener("hashchange", function () { state = readHash(); buildForm(); update(); });
  update();
})();
