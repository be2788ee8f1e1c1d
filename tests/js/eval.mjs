// Evaluates JavaScript expressions against a generated module for tests/test_js_api.py: reads
// {"module": path, "cases": ["expression using m", ...]} on stdin and writes, per case, the value
// as JSON ({"value": ...}), or the RuleError ({"error": code, "message": ...}), or any other
// throw ({"throw": name, "message": ...}).
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const request = JSON.parse(readFileSync(0, 'utf8'));
const m = await import(pathToFileURL(request.module).href);
const out = [];
for (const text of request.cases) {
  try {
    const value = new Function('m', `return (${text});`)(m);
    out.push({value: value === undefined ? null : JSON.parse(JSON.stringify(value))});
  } catch (err) {
    if (err instanceof m.RuleError) out.push({error: err.code, message: err.message});
    else out.push({throw: err && err.name, message: String(err && err.message)});
  }
}
process.stdout.write(JSON.stringify(out));
