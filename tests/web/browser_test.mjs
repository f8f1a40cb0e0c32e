// The browser build's test (ctest web_browser, label web): serves build-web/ from this process, drives
// Debian's headless chromium (SwiftShader WebGL2) over the DevTools pipe and checks what the page shows:
// the first frame, five scenes by PageDown, three views, a report by URL, the canvas pixels read back
// (not blank, not uniform, different between views) and a console without errors.
//   node tests/web/browser_test.mjs [--build DIR] [--shots DIR] [--size 1920x1080] [--tour epita,stevens]
// --shots saves every picture as PNG; --tour only photographs every scene of those lessons into --shots,
// with --query's parameters added to the address (e.g. font_scale=2&high_contrast=1&focus=1).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './cdp_pipe.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const opt = { build: path.join(repo, 'build-web'), shots: '', size: '1600x900', tour: '', query: '' };
for (let i = 2; i < process.argv.length; i += 2) opt[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const [width, height] = opt.size.split('x').map(Number);
const types = {
  '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json',
};

/** A static server for build-web/ and, under /fixtures/, tests/gui/fixtures (reports to open by URL). */
function serve() {
  const roots = { '/fixtures/': path.join(repo, 'tests/gui/fixtures') };
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(req.url.split('?')[0]);
    const prefix = Object.keys(roots).find((p) => url.startsWith(p));
    const file = prefix ? path.join(roots[prefix], url.slice(prefix.length))
                        : path.join(opt.build, url === '/' ? 'index.html' : url);
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
      res.end(data);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const failures = [];
function check(ok, what) {
  console.log((ok ? 'ok    ' : 'FAIL  ') + what);
  if (!ok) failures.push(what);
}

const server = await serve();
const base = `http://127.0.0.1:${server.address().port}`;
const chrome = launchChromium([`--window-size=${width},${height}`]);
const errors = [];
let session = '';
chrome.on((method, params, sid) => {
  if (sid !== session) return;
  if (method === 'Runtime.consoleAPICalled' && params.type === 'error')
    errors.push(params.args.map((a) => a.value ?? a.description).join(' '));
  if (method === 'Runtime.exceptionThrown')
    errors.push(params.exceptionDetails.exception?.description || params.exceptionDetails.text);
  if (method === 'Log.entryAdded' && params.entry.level === 'error' && !/favicon/.test(params.entry.url || ''))
    errors.push(params.entry.text + ' ' + (params.entry.url || ''));
});
const send = (method, params) => chrome.send(method, params, session);
async function evaluate(expression) {
  const r = await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
  const ex = r.exceptionDetails;
  if (ex) throw new Error('page: ' + (ex.exception?.description || ex.text));
  return r.result.value;
}
const status = async () => JSON.parse(await evaluate(
  "typeof Module !== 'undefined' && Module.wsFrames ? Module.ccall('ws_status', 'string', [], []) : '{}'"));
async function waitFor(what, pred, ms = 60000) {
  const end = Date.now() + ms;
  for (;;) {
    const s = await status();
    if (pred(s)) return s;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what} (status ${JSON.stringify(s)})`);
    await sleep(50);
  }
}
/** Waits until the page is idle (no run queued) for a few frames. */
async function settle() {
  const s = await waitFor('the runs to finish', (x) => x.busy === false);
  await waitFor('three more frames', (x) => x.frames >= s.frames + 3);
}
/** The median ImGui frame build (NewFrame to Render) over ten frames, in ms. */
async function buildMs() {
  const ms = [];
  for (let last = -1; ms.length < 10; await sleep(10)) {
    const s = await status();
    if (s.frames !== last) ms.push(s.build_ms), last = s.frames;
  }
  return ms.sort((a, b) => a - b)[5];
}
/** Reads the next frame's pixels (ws_capture) and sums them up in the page: sampled colours and a hash. */
async function capture(name) {
  const shot = await evaluate(`new Promise((resolve) => {
    Module.wsCapture = null;
    Module.ccall('ws_capture', null, [], []);
    const poll = () => {
      const c = Module.wsCapture;
      if (!c) { requestAnimationFrame(poll); return; }
      const colours = new Set();
      let hash = 2166136261;
      for (let i = 0; i < c.rgba.length; i += 4 * 7) {
        const v = c.rgba[i] | c.rgba[i + 1] << 8 | c.rgba[i + 2] << 16;
        colours.add(v);
        hash = Math.imul(hash ^ v, 16777619) >>> 0;
      }
      let png = '';
      if (${opt.shots ? 'true' : 'false'}) {
        let bin = '';
        for (let i = 0; i < c.png.length; i += 32768)
          bin += String.fromCharCode.apply(null, c.png.subarray(i, i + 32768));
        png = btoa(bin);
      }
      resolve({ width: c.width, height: c.height, colours: colours.size, hash, png });
    };
    requestAnimationFrame(poll);
  })`);
  if (opt.shots) {
    fs.mkdirSync(opt.shots, { recursive: true });
    fs.writeFileSync(path.join(opt.shots, name + '.png'), Buffer.from(shot.png, 'base64'));
  }
  return shot;
}
async function pressKey(key, code) {
  for (const type of ['rawKeyDown', 'keyUp'])
    await send('Input.dispatchKeyEvent',
               { type, key, code: key, windowsVirtualKeyCode: code, nativeVirtualKeyCode: code });
}
/** Opens the page with `query`; returns the time to its first frame in ms. */
async function open(query) {
  const t0 = Date.now();
  await send('Page.navigate', { url: `${base}/index.html${query}` });
  await waitFor('the first frame', (s) => s.frames >= 1);
  return Date.now() - t0;
}

let exitCode = 1;
try {
  const { targetId } = await chrome.send('Target.createTarget', { url: 'about:blank' });
  ({ sessionId: session } = await chrome.send('Target.attachToTarget', { targetId, flatten: true }));
  await send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
  await send('Runtime.enable');
  await send('Log.enable');
  await send('Page.enable');
  if (opt.tour) {
    for (const lesson of opt.tour.split(',')) {
      await open(`?fresh=1&lesson=${lesson}&scene=1${opt.query ? '&' + opt.query : ''}`);
      const scenes = (await status()).scenes;
      for (let k = 1; k <= scenes; ++k) {
        if (k > 1) {
          await pressKey('PageDown', 34);
          await waitFor(`${lesson} scene ${k}`, (x) => x.scene === k);
        }
        await settle();
        const shot = await capture(`${lesson}-${String(k).padStart(2, '0')}`);
        check(shot.colours > 8, `${lesson} scene ${k}: ${shot.colours} colours`);
      }
    }
  } else {
    const firstMs = await open('?fresh=1');  // the profile may keep an earlier run's session
    const t = (await status()).startup_ms;  // where the time went, by the page's clock (from navigation)
    console.log(`first frame: ${firstMs} ms` + (!t ? '' : ` (page: main() at ${t.main.toFixed(0)} ms, ` +
                `ready at ${t.ready.toFixed(0)} ms, first exchange ${t.first_exchange.toFixed(0)} ms, ` +
                `first frame drawn at ${t.first_frame.toFixed(0)} ms)`));
    await settle();
    const start = await capture('start');
    check(start.width === width && start.height === height, `canvas ${start.width}x${start.height}`);
    check(start.colours > 8, `first picture is not blank (${start.colours} colours sampled)`);
    const scenes = [];
    for (let k = 1; k <= 5; ++k) {
      await pressKey('PageDown', 34);
      const s = await waitFor(`scene ${k}`, (x) => x.scene === k);
      await settle();
      scenes.push(await capture(`scene-${k}`));
      check(scenes.at(-1).colours > 8, `PageDown ${k}: scene ${s.scene} of ${s.lesson}, view ${s.view}`);
    }
    check(new Set(scenes.map((x) => x.hash)).size >= 4, 'the five scenes show different pictures');
    const views = [];
    for (const v of ['tree', 'warps', 'compare']) {
      check(await evaluate(`Module.ccall('ws_set_view', 'number', ['string'], ['${v}'])`) === 1, `view ${v} exists`);
      await settle();
      if (v === 'tree') {
        // The bundled report opens without its GPU recordings; they are in before a step view is drawn.
        const st = await status();
        console.log(`view tree: ${st.replay_traces} recordings in ${st.replay}, trace from ${st.trace_origin}` +
                    ` (recordings in at ${st.startup_ms.recordings.toFixed(0)} ms)`);
        check(st.replay_traces > 0, `the bundled report's recordings are in the replay (${st.replay_traces})`);
      }
      console.log(`view ${v}: frame build ${(await buildMs()).toFixed(2)} ms (median of 10)`);
      views.push(await capture(`view-${v}`));
      check(views.at(-1).colours > 8, `view ${v}: ${views.at(-1).colours} colours`);
    }
    check(new Set(views.map((x) => x.hash)).size === 3, 'the three views differ');
    await open(`?report=${encodeURIComponent(base + '/fixtures/report_h200.json')}&lesson=epita&scene=4`);
    const r = await waitFor('the report', (x) => /report_h200/.test(x.replay || ''));
    await settle();
    const rep = await capture('report-epita-4');
    check(r.lesson === 'epita' && r.scene === 4, `?report=...&lesson=epita&scene=4 opens ${r.lesson} scene ${r.scene}`);
    check(rep.colours > 8, `report picture: ${rep.colours} colours`);

    // A sim run of epita.reduce3 at n = 2^20 in the page (execute(), as `warpscope-cli run --backend sim`).
    const sims = [];
    for (let i = 0; i < 3; ++i)
      sims.push(JSON.parse(await evaluate("Module.ccall('ws_sim_run', 'string', ['string', 'number'], " +
                                          "['epita.reduce3', 20])")));
    const simMs = sims.map((x) => x.ms).sort((a, b) => a - b)[1];
    console.log(`sim run of epita.reduce3 at 2^20 in the page: ${simMs.toFixed(0)} ms (median of 3; ` +
                `result ${sims[0].result}, expected ${sims[0].expected})`);
    check(sims.every((x) => x.status === 'ok'), `the sim runs are checked ok (${sims.map((x) => x.status)})`);
    check(simMs <= 1000, `a sim run of epita.reduce3 at 2^20 takes <= 1 s in the page (${simMs.toFixed(0)} ms)`);

    // The Grid view runs the model once per block of the launch (4,096 blocks at 2^20): without threads the
    // page computes it a slice per frame, so it keeps drawing while the grid fills in.
    await open('?lesson=epita&variant=epita.reduce3&view=grid');
    const g0 = await waitFor('the grid to start', (x) => x.grid.total > 0);
    await sleep(4000);
    const g1 = await status();
    console.log(`grid: ${g1.grid.done - g0.grid.done} of ${g1.grid.total} blocks in 4 s over ` +
                `${g1.frames - g0.frames} frames (frame build ${g1.build_ms.toFixed(0)} ms, slice included)`);
    check(g1.grid.done > g0.grid.done, `the grid fills in (${g0.grid.done} -> ${g1.grid.done} blocks)`);
    // A slice is about 30 ms and at least one block (one traced model run): the page draws between slices
    // (computed in one frame, the grid would have drawn one frame in minutes).
    check(g1.frames - g0.frames >= 4, `the page drew while the grid was computed (${g1.frames - g0.frames} frames, ` +
          `${g1.grid.done - g0.grid.done} blocks)`);
    const gridShot = await capture('view-grid');
    check(gridShot.colours > 8, `grid picture: ${gridShot.colours} colours`);

    // The session in the browser's storage: the next visit without a place in its address comes back here.
    await waitFor('the session stored', (x) => x.stored_bytes > 0);
    await open('');
    const back = await status();
    check(back.lesson === 'epita' && back.view === 'grid' && back.variant === 'epita.reduce3',
          `the next visit restores the place (${back.lesson}, ${back.view}, ${back.variant})`);
    await open('?fresh=1');
    const fresh = await status();
    check(fresh.view !== 'grid', `?fresh=1 forgets it (view ${fresh.view})`);
  }
  check(errors.length === 0, 'no console error' + (errors.length ? ': ' + errors.slice(0, 5).join(' | ') : ''));
  exitCode = failures.length ? 1 : 0;
} catch (e) {
  console.log('FAIL  ' + e.message);
  console.log(chrome.stderr().split('\n').slice(-15).join('\n'));
} finally {
  await chrome.close();
  server.close();
}
console.log(failures.length || exitCode ? `web test: FAILED (${failures.length} checks)` : 'web test: passed');
process.exit(exitCode);
