/**
 * Block markers: signatures of the pages that bot-protection services
 * serve instead of the site's content, with status 200 as often as 403 or 503. Each is a plain substring of a
 * response header or of the page's first BODY_SCAN_BYTES, matched without regard to case (never a pattern
 * run on untrusted text), and each names its source. A captcha widget also appears on real pages (a contact
 * form), so widget markers count only on a page with at most WIDGET_MAX_LINKS links: a challenge shell.
 *
 * Users add their own (--block-marker TEXT, the `crawlPlanner.blockMarkers` setting): body substrings.
 */

export interface BlockMarker {
  id: string;
  /** What the service is, for the event's text. */
  service: string;
  /** Where it is looked for: a header's value (`header` names it) or the body. */
  in: 'header' | 'body';
  header?: string;
  /** The substring, lower case. */
  text: string;
  /** A widget that real pages carry too: counts only on a page with few links. */
  widget?: boolean;
  /** Where the signature is documented. */
  source: string;
}

/** Bytes of a page's body scanned for markers. */
export const BODY_SCAN_BYTES = 65_536;
/** A widget marker counts only on a page with at most this many links. */
export const WIDGET_MAX_LINKS = 3;

export const BLOCK_MARKERS: readonly BlockMarker[] = [
  {
    id: 'cloudflare-mitigated',
    service: 'Cloudflare challenge',
    in: 'header',
    header: 'cf-mitigated',
    text: 'challenge',
    source: 'https://developers.cloudflare.com/cloudflare-challenges/challenge-types/challenge-pages/detect-response/',
  },
  {
    id: 'cloudflare-challenge-platform',
    service: 'Cloudflare challenge',
    in: 'body',
    text: '/cdn-cgi/challenge-platform/',
    source: 'https://developers.cloudflare.com/cloudflare-challenges/challenge-types/challenge-pages/',
  },
  {
    id: 'aws-waf-action',
    service: 'AWS WAF CAPTCHA or challenge',
    in: 'header',
    header: 'x-amzn-waf-action',
    text: '',
    source: 'https://docs.aws.amazon.com/waf/latest/developerguide/waf-captcha-and-challenge-actions.html',
  },
  {
    id: 'datadome-captcha',
    service: 'DataDome',
    in: 'body',
    text: 'captcha-delivery.com',
    source: 'https://docs.datadome.co/reference/validate-request',
  },
  {
    id: 'perimeterx-captcha',
    service: 'HUMAN (PerimeterX) challenge',
    in: 'body',
    text: 'px-captcha',
    source: 'https://github.com/PerimeterX/perimeterx-node-core/blob/master/lib/templates/block_template.mustache',
  },
  {
    id: 'recaptcha-widget',
    service: 'Google reCAPTCHA',
    in: 'body',
    text: 'g-recaptcha',
    widget: true,
    source: 'https://developers.google.com/recaptcha/docs/display',
  },
  {
    id: 'hcaptcha-widget',
    service: 'hCaptcha',
    in: 'body',
    text: 'h-captcha',
    widget: true,
    source: 'https://docs.hcaptcha.com/',
  },
];

/** What a response offers for matching: its headers (lower-case names) and the start of its body. */
export interface MarkedResponse {
  headers: Readonly<Record<string, string | undefined>>;
  /** The decoded body's first BODY_SCAN_BYTES, as text (or undefined: not read). */
  bodyStart: string | undefined;
  /** Links found on the page (for widget markers); undefined: not an HTML page. */
  links: number | undefined;
}

/** The first marker a response matches (the shipped ones, then the user's body texts), or undefined. */
export function matchBlockMarker(
  r: MarkedResponse,
  own: readonly string[] = [],
): { id: string; service: string } | undefined {
  const body = r.bodyStart?.slice(0, BODY_SCAN_BYTES).toLowerCase();
  for (const m of BLOCK_MARKERS) {
    if (m.in === 'header') {
      const value = r.headers[m.header!];
      if (value !== undefined && value.toLowerCase().includes(m.text)) return m;
    } else if (body !== undefined && body.includes(m.text)) {
      if (!m.widget || (r.links ?? 0) <= WIDGET_MAX_LINKS) return m;
    }
  }
  if (body !== undefined)
    for (const text of own)
      if (text !== '' && body.includes(text.toLowerCase())) return { id: 'own', service: `your marker "${text}"` };
  return undefined;
}
