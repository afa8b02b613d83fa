/**
 * The one input box for URLs (Estimate Crawl Time, Inspect robots.txt for URL, Open robots.txt, Run Test
 * Crawl's "Enter seed URLs…"): split like every URL list (splitUrlList: spaces, or commas between URLs) and
 * checked as you type, so what it returns is a list of http(s) URLs.
 */
import * as vscode from 'vscode';
import { splitUrlList } from '../core/seeds';
import { checkUrls } from './commandArgs';

export interface UrlInput {
  title: string;
  prompt: string;
  placeHolder?: string;
  /** The text to start from (the last answer, when the command keeps it). */
  value?: string;
}

/** The URLs typed, and the text as typed (to offer again); undefined when the box was dismissed. */
export async function askUrls(input: UrlInput): Promise<{ urls: string[]; text: string } | undefined> {
  const text = await vscode.window.showInputBox({
    title: input.title,
    prompt: input.prompt,
    ...(input.placeHolder !== undefined ? { placeHolder: input.placeHolder } : {}),
    ...(input.value !== undefined ? { value: input.value } : {}),
    ignoreFocusOut: true,
    validateInput: (t) => {
      const checked = checkUrls(splitUrlList(t));
      return 'problem' in checked ? checked.problem : null;
    },
  });
  return text === undefined ? undefined : { urls: splitUrlList(text), text };
}
