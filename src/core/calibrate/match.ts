/**
 * Which measured host stands for a planned one: the same `host` (name and port), or, when the report has no
 * such host, the one host of the report with the same name on another port (a server that came back on a
 * new port, as the loopback demo hosts do on every run). A name the report has on several ports matches only
 * exactly.
 */
import type { Calibration, HostCalibration } from './types';

function nameOf(host: string): string {
  // `URL.host`: a name or an IPv4 address with an optional :port, or [an IPv6 address] with an optional :port.
  const end = host.startsWith('[') ? host.indexOf(']') + 1 : host.lastIndexOf(':');
  return end > 0 && end < host.length ? host.slice(0, end) : host;
}

/** Looks up planned hosts (lower-case) in a calibration. */
export function calibrationMatcher(calibration: Calibration | null): (host: string) => HostCalibration | undefined {
  if (calibration === null || calibration.hosts.length === 0) return () => undefined;
  const exact = new Map<string, HostCalibration>();
  const byName = new Map<string, HostCalibration | null>();
  for (const c of calibration.hosts) {
    const host = c.host.toLowerCase();
    exact.set(host, c);
    const name = nameOf(host);
    byName.set(name, byName.has(name) ? null : c);
  }
  return (host) => exact.get(host) ?? byName.get(nameOf(host)) ?? undefined;
}
