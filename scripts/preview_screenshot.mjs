// Screenshots a page of the viewer with headless Chromium and prints its console.
// Dev tool, not run by the tests. Needs: apt-get install chromium; node 20 with
// --experimental-websocket (for the DevTools protocol); a local server for web/, e.g.
//   (cd web && python3 -m http.server 8765 --bind 127.0.0.1) &
//   node --experimental-websocket scripts/preview_screenshot.mjs \
//     "http://127.0.0.1:8765/preview.html?lat=48.85&lon=2.35&zoom=4&tilt=60" /tmp/shot.png 1280 720
// It waits until document.title starts with "ready" (preview.js sets it) or 60 s.
import { spawn } from 'node:child_process';
const [url, out, W = '1280', H = '720'] = process.argv.slice(2);
const chrome = spawn('chromium', ['--headless=new', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  `--window-size=${W},${H}`, '--remote-debugging-address=127.0.0.1', '--remote-debugging-port=9333', '--user-data-dir=/tmp/chr-prof', 'about:blank'],
  { stdio: ['ignore', 'ignore', 'pipe'] });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let targets;
for (let i = 0; i < 50; i++) {
  try { targets = await (await fetch('http://127.0.0.1:9333/json')).json(); if (targets.find(t => t.type === 'page')) break; } catch {}
  await sleep(200);
}
const page = targets.find(t => t.type === 'page');
const ws = new WebSocket(page.webSocketDebuggerUrl);
await new Promise((r) => ws.addEventListener('open', r));
let id = 0; const pending = new Map();
ws.addEventListener('message', (ev) => {
  const m = JSON.parse(ev.data);
  if (m.id && pending.has(m.id)) { pending.get(m.id)(m); pending.delete(m.id); }
  else if (m.method === 'Runtime.consoleAPICalled') console.log('console:', m.params.args.map(a => a.value ?? a.description).join(' '));
  else if (m.method === 'Runtime.exceptionThrown') console.log('exception:', JSON.stringify(m.params.exceptionDetails).slice(0, 500));
});
const send = (method, params = {}) => new Promise((r) => { const i = ++id; pending.set(i, r); ws.send(JSON.stringify({ id: i, method, params })); });
await send('Runtime.enable');
await send('Page.enable');
await send('Page.navigate', { url });
let title = '';
for (let i = 0; i < 120; i++) {
  await sleep(500);
  const r = await send('Runtime.evaluate', { expression: 'document.title' });
  title = r.result?.result?.value ?? '';
  if (title.startsWith('ready')) break;
}
await sleep(1500);
console.log('title:', title);
const shot = await send('Page.captureScreenshot', { format: 'png' });
(await import('node:fs')).writeFileSync(out, Buffer.from(shot.result.data, 'base64'));
ws.close(); chrome.kill();
process.exit(0);
