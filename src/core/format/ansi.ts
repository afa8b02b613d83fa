/**
 * Colour for terminal text: SGR sequences that switch one attribute on and back off (so colours nest),
 * or plain text when colour is off (NO_COLOR, a pipe). The crawl lines keep their own painter
 * (crawlLines.ts), which resets everything after each styled run.
 */
export interface Colors {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
}

export function colors(enabled: boolean): Colors {
  const sgr = (on: string, off: string) => (text: string) => (enabled ? `\x1b[${on}m${text}\x1b[${off}m` : text);
  return {
    bold: sgr('1', '22'),
    dim: sgr('2', '22'),
    red: sgr('31', '39'),
    green: sgr('32', '39'),
    yellow: sgr('33', '39'),
  };
}
