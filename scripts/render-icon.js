#!/usr/bin/env node
// Renders media/icon.png (128×128, the Marketplace icon; vsce refuses SVG icons) from the same shapes as
// media/icon.svg. No dependencies: signed distances for anti-aliasing, zlib for the PNG. Run it after
// changing the design: `node scripts/render-icon.js`.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const SIZE = 128;
const SAMPLES = 4; // per axis: 16 samples a pixel

// The design, in the SVG's 128-unit coordinates (keep in step with media/icon.svg).
const BG = [0x1f, 0x3b, 0x57];
const INK = [0xf4, 0xf7, 0xfa];
const ACCENT = [0xf2, 0xa5, 0x3a];
const shapes = [
  { color: BG, d: (x, y) => roundedRect(x, y, 4, 4, 120, 120, 24) },
  // The clock face and its hands.
  { color: INK, d: (x, y) => Math.abs(Math.hypot(x - 52, y - 56) - 30) - 4 },
  { color: INK, d: (x, y) => segment(x, y, 52, 56, 52, 38) - 3.5 },
  { color: INK, d: (x, y) => segment(x, y, 52, 56, 66, 64) - 3.5 },
  // The crawl path: three hops between hosts.
  { color: ACCENT, d: (x, y) => segment(x, y, 40, 104, 72, 96) - 3 },
  { color: ACCENT, d: (x, y) => segment(x, y, 72, 96, 96, 76) - 3 },
  { color: ACCENT, d: (x, y) => segment(x, y, 96, 76, 104, 44) - 3 },
  { color: ACCENT, d: (x, y) => Math.hypot(x - 40, y - 104) - 7 },
  { color: ACCENT, d: (x, y) => Math.hypot(x - 72, y - 96) - 7 },
  { color: ACCENT, d: (x, y) => Math.hypot(x - 96, y - 76) - 7 },
  { color: ACCENT, d: (x, y) => Math.hypot(x - 104, y - 44) - 7 },
];

function segment(px, py, ax, ay, bx, by) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

function roundedRect(px, py, x, y, w, h, r) {
  const qx = Math.abs(px - (x + w / 2)) - (w / 2 - r);
  const qy = Math.abs(py - (y + h / 2)) - (h / 2 - r);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

function render() {
  const rgba = Buffer.alloc(SIZE * SIZE * 4);
  for (let py = 0; py < SIZE; py++) {
    for (let px = 0; px < SIZE; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const x = px + (sx + 0.5) / SAMPLES;
          const y = py + (sy + 0.5) / SAMPLES;
          let color;
          for (const s of shapes) if (s.d(x, y) <= 0) color = s.color;
          if (color) {
            r += color[0];
            g += color[1];
            b += color[2];
            a += 1;
          }
        }
      }
      const i = (py * SIZE + px) * 4;
      if (a > 0) {
        rgba[i] = Math.round(r / a);
        rgba[i + 1] = Math.round(g / a);
        rgba[i + 2] = Math.round(b / a);
      }
      rgba[i + 3] = Math.round((a / (SAMPLES * SAMPLES)) * 255);
    }
  }
  return rgba;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function png(rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
  for (let y = 0; y < SIZE; y++) rgba.copy(raw, y * (SIZE * 4 + 1) + 1, y * SIZE * 4, (y + 1) * SIZE * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const out = path.join(__dirname, '..', 'media', 'icon.png');
fs.writeFileSync(out, png(render()));
console.log(`wrote ${path.relative(process.cwd(), out)}`);
