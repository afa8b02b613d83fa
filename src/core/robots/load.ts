/**
 * Bytes (or text) → RobotsFile: decodeRobotsBody, then parseRobots, with the findings of both. This is the one
 * path every caller uses: the robots.txt fetch (src/net), the CLI's `--file` mode, and the conformance test.
 */
import { decodeRobotsBody, ROBOTS_MAX_BYTES } from './decode';
import { sortFindings } from './findings';
import { parseRobots, type ParseOptions } from './parse';
import type { RobotsFile } from './robotsFile';

export interface LoadOptions extends ParseOptions {
  /** Parsing limit in bytes; default 512,000 (RFC 9309 §2.5). */
  maxBytes?: number;
  /** The Content-Type the server sent, for a fetched file: anything but `text/*` gets a `not-text` finding. */
  contentType?: string;
}

export function loadRobotsFile(body: Uint8Array | string, options: LoadOptions): RobotsFile {
  const decoded = decodeRobotsBody(body, options.maxBytes ?? ROBOTS_MAX_BYTES, options.contentType);
  const file = parseRobots(decoded.text, options);
  return {
    ...file,
    findings: sortFindings([...decoded.findings, ...file.findings]),
    body: { bytes: decoded.bytes, parsedBytes: decoded.parsedBytes, truncated: decoded.truncated, bom: decoded.bom },
  };
}
