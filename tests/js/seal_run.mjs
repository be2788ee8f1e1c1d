// Runs tests/js/seal_host.js in Node for tests/test_sealdice.py: reads {"files": [paths],
// "lines": [chat lines], "store": {...}} on stdin, writes the host's answer as JSON.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const sealHost = (0, eval)(readFileSync(path.join(here, 'seal_host.js'), 'utf8') + '\nsealHost');
const request = JSON.parse(readFileSync(0, 'utf8'));
const files = request.files.map(f => [path.basename(f), readFileSync(f, 'utf8')]);
process.stdout.write(JSON.stringify(sealHost(files, request.lines, request.store || {})));
