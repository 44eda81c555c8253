// Opens a `ruledoku solve --html` page in headless Chromium, steps through
// it with key presses, checks that each key moved to the frame it should,
// and screenshots it.
//
//   node scripts/html-report-check.mjs PAGE.html SHOT.png [CHROMIUM]
//
// CHROMIUM defaults to $CHROMIUM, else /usr/bin/chromium (Debian's
// `chromium` package). No npm package is needed: the script speaks the
// Chrome DevTools protocol over a pipe (--remote-debugging-pipe), with
// node's standard library only. Prints one line per key press and
// `ok: …` at the end; exits 1 when a key did not do what it should.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [page, shot, bin = process.env.CHROMIUM || "/usr/bin/chromium"] = process.argv.slice(2);
if (!page || !shot) {
  console.error("usage: node scripts/html-report-check.mjs PAGE.html SHOT.png [CHROMIUM]");
  process.exit(2);
}

const profile = mkdtempSync(join(tmpdir(), "ruledoku-chromium-"));
const chrome = spawn(
  bin,
  [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    `--user-data-dir=${profile}`,
    "--remote-debugging-pipe",
    "about:blank",
  ],
  { stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"] },
);
const toChrome = chrome.stdio[3];
const fromChrome = chrome.stdio[4];

let nextId = 1;
const pending = new Map();
const waiters = [];
let buffer = "";
fromChrome.on("data", (chunk) => {
  buffer += chunk.toString("utf8");
  let end;
  while ((end = buffer.indexOf("\0")) >= 0) {
    const msg = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    if (msg.id && pending.has(msg.id)) {
      const { ok, fail } = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) fail(new Error(JSON.stringify(msg.error)));
      else ok(msg.result);
    } else if (msg.method) {
      for (const w of waiters.splice(0)) {
        if (w.method === msg.method) w.ok(msg.params);
        else waiters.push(w);
      }
    }
  }
});

function send(method, params = {}, sessionId) {
  const id = nextId++;
  const msg = { id, method, params };
  if (sessionId) msg.sessionId = sessionId;
  toChrome.write(JSON.stringify(msg) + "\0");
  return new Promise((ok, fail) => pending.set(id, { ok, fail }));
}

function event(method) {
  return new Promise((ok) => waiters.push({ method, ok }));
}

let failed = false;
let session;

async function where() {
  const r = await send(
    "Runtime.evaluate",
    { expression: "document.getElementById('where').textContent", returnByValue: true },
    session,
  );
  return r.result.value;
}

async function press(key, code, keyCode) {
  for (const type of ["rawKeyDown", "keyUp"]) {
    await send(
      "Input.dispatchKeyEvent",
      { type, key, code, windowsVirtualKeyCode: keyCode, nativeVirtualKeyCode: keyCode },
      session,
    );
  }
  const w = await where();
  console.log(`${key.padEnd(10)} -> ${w}`);
  return w;
}

function expect(what, got, want) {
  if (!got.includes(want)) {
    console.log(`FAIL ${what}: expected "${want}" in "${got}"`);
    failed = true;
  }
}

const timer = setTimeout(() => {
  console.log("FAIL: timed out");
  chrome.kill();
  process.exit(1);
}, 60000);

try {
  const { targetInfos } = await send("Target.getTargets");
  const target = targetInfos.find((t) => t.type === "page");
  ({ sessionId: session } = await send("Target.attachToTarget", {
    targetId: target.targetId,
    flatten: true,
  }));
  await send("Page.enable", {}, session);
  await send(
    "Emulation.setDeviceMetricsOverride",
    { width: 1100, height: 820, deviceScaleFactor: 1, mobile: false },
    session,
  );
  const loaded = event("Page.loadEventFired");
  await send("Page.navigate", { url: pathToFileURL(resolve(page)).href }, session);
  await loaded;
  const start = await where();
  console.log(`loaded     -> ${start}`);
  expect("start", start, "· start");
  const sections = Number(/ of (\d+) /.exec(start)?.[1] ?? 0);
  expect("→", await press("ArrowRight", "ArrowRight", 39), "· step 1 of ");
  expect("→", await press("ArrowRight", "ArrowRight", 39), "· step 2 of ");
  expect("←", await press("ArrowLeft", "ArrowLeft", 37), "· step 1 of ");
  expect("End", await press("End", "End", 35), "· end");
  expect("Home", await press("Home", "Home", 36), "· start");
  if (sections > 1) {
    expect("PageDown", await press("PageDown", "PageDown", 34), "puzzle 2 of");
    expect("←", await press("ArrowLeft", "ArrowLeft", 37), "puzzle 1 of");
    expect("PageUp", await press("PageUp", "PageUp", 33), "puzzle 1 of");
  }
  expect("PageUp", await press("PageUp", "PageUp", 33), "· start");
  for (let i = 0; i < 13; i++) await press("ArrowRight", "ArrowRight", 39);
  const hash = await send(
    "Runtime.evaluate",
    { expression: "location.hash", returnByValue: true },
    session,
  );
  console.log(`address    -> ${hash.result.value}`);
  expect("address", hash.result.value, "-s13");
  const png = await send("Page.captureScreenshot", { format: "png" }, session);
  writeFileSync(shot, Buffer.from(png.data, "base64"));
  console.log(`screenshot -> ${shot}`);
} catch (e) {
  console.log(`FAIL: ${e.message}`);
  failed = true;
}
clearTimeout(timer);
const exited = new Promise((ok) => chrome.once("exit", ok));
try {
  await send("Browser.close");
} catch {
  chrome.kill();
}
await exited;
try {
  rmSync(profile, { recursive: true, force: true });
} catch {
  // A file Chromium left behind: the profile is in the temporary folder.
}
if (failed) process.exit(1);
console.log(`ok: ${page} stepped through with the keyboard`);
process.exit(0);
