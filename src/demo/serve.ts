/**
 * The listing that `crawl-planner demo --serve` prints: which demo hosts run where and what each one
 * exercises. Plain text with `\n` line ends (the CLI writes it to stdout; a terminal adapter converts).
 */
import type { DemoHostInfo, DemoHosts } from './hosts';

export function formatDemoHosts(hosts: DemoHosts | readonly DemoHostInfo[]): string {
  const list: readonly DemoHostInfo[] = 'hosts' in hosts ? hosts.hosts : hosts;
  const addressing = 'addressing' in hosts ? hosts.addressing : undefined;
  const lines: string[] = [];
  const where =
    addressing === 'distinct'
      ? ', each on its own loopback address'
      : addressing === 'single'
        ? ', on 127.0.0.1 with a port each'
        : '';
  lines.push(`Demo hosts (${list.length}${where}):`, '');
  const nameWidth = Math.max(4, ...list.map((h) => h.name.length));
  const urlWidth = Math.max(8, ...list.map((h) => h.baseUrl.length));
  const pagesWidth = Math.max(...list.map((h) => `${h.pageCount} pages`.length), 0);
  for (const h of list) {
    const pages = `${h.pageCount} ${h.pageCount === 1 ? 'page' : 'pages'}`;
    lines.push(
      `  ${h.name.padEnd(nameWidth)}  ${h.baseUrl.padEnd(urlWidth)}  ${pages.padEnd(pagesWidth)}  ${h.description}`,
    );
  }
  const aliases = list.flatMap((h) =>
    (h.aliases ?? []).map((a) => `  ${a.name} → ${h.address} (${h.name}): --resolve ${a.name}=${h.address}`),
  );
  if (aliases.length > 0) lines.push('', "Other names on a host's address (not in DNS):", ...aliases);
  const seeds = list.flatMap((h) => h.seeds);
  if (seeds.length > 0) {
    lines.push('', 'Seeds:');
    for (const s of seeds) lines.push(`  ${s}`);
  }
  return lines.join('\n') + '\n';
}
