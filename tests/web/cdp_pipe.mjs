// A DevTools-protocol client for Debian's chromium over --remote-debugging-pipe (file descriptors 3 and 4,
// messages ended by a NUL byte): node's built-ins only, no WebSocket and nothing from npm.
import { spawn } from 'node:child_process';

/** Starts headless chromium (`args` added to the defaults) and returns {send, on, close, stderr}. */
export function launchChromium(args = [], binary = process.env.CHROMIUM || 'chromium') {
  const proc = spawn(binary, [
    '--headless=new', '--remote-debugging-pipe', '--no-first-run', '--no-default-browser-check',
    '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist',
    '--disable-background-timer-throttling', '--disable-renderer-backgrounding',
    '--disable-backgrounding-occluded-windows',
    '--user-data-dir=' + (process.env.WS_CHROMIUM_PROFILE || '/tmp/ws-web-test-profile'),
    ...(process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : []),  // chromium refuses root otherwise
    ...args, 'about:blank',
  ], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
  const toChrome = proc.stdio[3], fromChrome = proc.stdio[4];
  let nextId = 1, buffer = Buffer.alloc(0), stderr = '';
  const pending = new Map(), listeners = [];
  fromChrome.on('error', () => {});  // chromium's exit ends the pipe; `exited` reports it
  toChrome.on('error', () => {});
  proc.stderr.on('data', (d) => { stderr = (stderr + d).slice(-20000); });
  fromChrome.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (let end = buffer.indexOf(0); end >= 0; end = buffer.indexOf(0)) {
      const msg = JSON.parse(buffer.subarray(0, end).toString('utf8'));
      buffer = buffer.subarray(end + 1);
      if (msg.id && pending.has(msg.id)) {
        const { resolve, reject, method } = pending.get(msg.id);
        pending.delete(msg.id);
        if (msg.error) reject(new Error(method + ': ' + msg.error.message)); else resolve(msg.result);
      } else if (msg.method) {
        for (const fn of listeners) fn(msg.method, msg.params || {}, msg.sessionId);
      }
    }
  });
  const exited = new Promise((resolve) => proc.on('exit', (code, signal) => {
    for (const { reject, method } of pending.values())
      reject(new Error(method + ': chromium exited (' + (signal || code) + ')'));
    pending.clear();
    resolve();
  }));
  return {
    /** Sends one command (to the page's session when `sessionId` is given); resolves with its result. */
    send(method, params = {}, sessionId = undefined) {
      const id = nextId++;
      const msg = { id, method, params };
      if (sessionId) msg.sessionId = sessionId;
      toChrome.write(JSON.stringify(msg) + '\0');
      return new Promise((resolve, reject) => pending.set(id, { resolve, reject, method }));
    },
    /** Calls fn(method, params, sessionId) for every event. */
    on(fn) { listeners.push(fn); },
    /** Chromium's last stderr lines (for a failure's report). */
    stderr: () => stderr,
    async close() { proc.kill('SIGTERM'); await exited; },
  };
}
