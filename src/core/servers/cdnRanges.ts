/**
 * The CDN ranges the plan knows, shipped as data (docs/planning.md#shared-servers): an address in one of them
 * is a CDN edge, shared by many unrelated sites, so a `shared-address` finding there says that grouping by it
 * would be too cautious.
 *
 * Kept short on purpose: one provider whose list is published as plain text. Copied on the date below from a
 * daily mirror of Cloudflare's own lists (this machine cannot reach cloudflare.com); the sources are
 * Cloudflare's. Update by replacing the ranges and the date.
 */

export interface CdnRangeList {
  /** The provider, as findings name it. */
  provider: string;
  /** Where the lists are published. */
  sources: readonly string[];
  /** The day the ranges were copied (ISO 8601). */
  copied: string;
  /** CIDR ranges, IPv4 and IPv6. */
  ranges: readonly string[];
}

export const CDN_RANGES: readonly CdnRangeList[] = [
  {
    provider: 'Cloudflare',
    sources: ['https://www.cloudflare.com/ips-v4', 'https://www.cloudflare.com/ips-v6'],
    copied: '2026-02-11',
    ranges: [
      '173.245.48.0/20',
      '103.21.244.0/22',
      '103.22.200.0/22',
      '103.31.4.0/22',
      '141.101.64.0/18',
      '108.162.192.0/18',
      '190.93.240.0/20',
      '188.114.96.0/20',
      '197.234.240.0/22',
      '198.41.128.0/17',
      '162.158.0.0/15',
      '104.16.0.0/13',
      '104.24.0.0/14',
      '172.64.0.0/13',
      '131.0.72.0/22',
      '2400:cb00::/32',
      '2606:4700::/32',
      '2803:f800::/32',
      '2405:b500::/32',
      '2405:8100::/32',
      '2a06:98c0::/29',
      '2c0f:f248::/32',
    ],
  },
];
