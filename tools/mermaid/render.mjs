// render.mjs renders mermaid diagrams in the system's Chromium with
// mermaid-cli's own renderer (renderMermaid), one browser for them all.
// cmd/diagrams runs it: `make test` to check that every diagram of the docs
// renders, `make diagrams` to write them as PNGs.
//
// Input, on stdin: a JSON array of {"name": "...", "code": "..."}.
// Output, on stdout: one JSON object per line,
//   {"name": "...", "ok": true, "width": 784, "height": 420}
//   {"name": "...", "ok": false, "error": "Parse error on line 3: ..."}
// where width and height are the rendered size in CSS pixels in a page
// 800 pixels wide (mermaid scales a wider diagram down to fit it).
// With --png DIR it also writes DIR/<name>.png, at twice that resolution.
//
// Puppeteer's own browser download is skipped when this directory is
// installed (npm ci --ignore-scripts); CHROMIUM names the browser to drive
// (default /usr/bin/chromium). Chromium runs headless, without a sandbox
// (CI machines run as root), with no network services of its own, and with
// a fresh profile directory that is removed at the end.

import { mkdtempSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer from "puppeteer";
import { renderMermaid } from "@mermaid-js/mermaid-cli";

const pngDir = (() => {
  const i = process.argv.indexOf("--png");
  return i >= 0 ? process.argv[i + 1] : "";
})();

const diagrams = JSON.parse(readFileSync(0, "utf8"));
const profile = mkdtempSync(join(tmpdir(), "mermaid-chromium-"));
let browser;
try {
  browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    userDataDir: profile,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  for (const d of diagrams) {
    const result = { name: d.name };
    try {
      const scale = pngDir ? 2 : 1;
      const { data } = await renderMermaid(browser, d.code, "png", {
        viewport: { width: 800, height: 600, deviceScaleFactor: scale },
        backgroundColor: "white",
      });
      // A PNG's IHDR chunk holds its width and height at bytes 16 and 20.
      const png = Buffer.from(data);
      result.width = Math.round(png.readUInt32BE(16) / scale);
      result.height = Math.round(png.readUInt32BE(20) / scale);
      result.ok = true;
      if (pngDir) {
        writeFileSync(join(pngDir, d.name + ".png"), png);
      }
    } catch (err) {
      result.ok = false;
      result.error = String(err?.message ?? err).split("\n").slice(0, 4).join("\n");
    }
    process.stdout.write(JSON.stringify(result) + "\n");
  }
} finally {
  if (browser) {
    await browser.close();
  }
  rmSync(profile, { recursive: true, force: true });
}
