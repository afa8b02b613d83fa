/**
 * One way for every command to fail: the error is logged, shown once, and the command's promise
 * resolves to undefined (so an automated caller sees "no result" rather than an unhandled rejection).
 * A CommandArgumentError from automation is rethrown, so the caller learns what was wrong.
 */
import * as vscode from 'vscode';
import { ContactRequiredError } from './contact';
import { errorMessage, type Log } from './log';
import { CommandArgumentError } from './commandArgs';

export async function runCommand<T>(log: Log, title: string, body: () => Promise<T>): Promise<T | undefined> {
  try {
    return await body();
  } catch (err) {
    // The user chose not to go ahead without a contact: the guard logged it, nothing more to show.
    if (err instanceof ContactRequiredError) return undefined;
    const message = errorMessage(err);
    log.error(`${title}: ${message}`);
    void vscode.window.showErrorMessage(`${title}: ${message}`);
    if (err instanceof CommandArgumentError) throw err;
    return undefined;
  }
}
