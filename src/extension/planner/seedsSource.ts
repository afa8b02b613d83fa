/**
 * The planner's seeds: the box's text, kept whatever its length, or a seeds file as the source (Load Seeds from
 * File…, Use seeds.txt), watched and read again when it changes; the latest read wins. What is planned is the
 * file's last good read, or the box's text when it is within the box's limits.
 */
import { escapeInvisible } from '../../core/seedHygiene';
import { countSeedLines, seedLines } from '../../core/seeds';
import type { SeedFileView, SeedsView } from '../../shared/planner/viewModel';
import { PLANNER_SEED_LIMITS, seedLinesText, seedsTextProblem, sizeText } from '../../shared/planner/limits';
import type { SeedFileRead, SeedFileRef, SeedFiles, StepHost } from './deps';
import { errorText } from './deliver';
import { checkSeedText, unplannableSeeds, type SeedsCheck } from './planning';

/** Seed lines of a file shown in the sidebar. */
export const FILE_FIRST_LINES = 5;
const MAX_FIRST_LINE = 200;

/** A seeds file as the planner holds it: the check of its last good read, or why there is none. */
interface FileState {
  ref: SeedFileRef;
  loading: boolean;
  /** Bumped on every read: a read that is not the latest is dropped. */
  generation: number;
  bytes: number;
  mtime?: number;
  seedLines: number;
  firstLines: string[];
  check?: SeedsCheck;
  problem?: string;
  watcher?: { dispose(): void };
}

export class SeedsSource {
  /** The seeds box's text, kept whatever its length (a seeds file in use leaves it as it was). */
  private seedsText = '';
  private file: FileState | undefined;
  /** The check of the box's text, for the text and the local hosts it was made with. */
  private textCheck: { text: string; local: string; check: SeedsCheck } | undefined;

  constructor(private readonly host: StepHost) {}

  /** The box's text. */
  get text(): string {
    return this.seedsText;
  }

  /** The seeds file in use (undefined: the box's text is the source). */
  get fileRef(): SeedFileRef | undefined {
    return this.file?.ref;
  }

  /** What was saved: the box's text, and the saved file unless one was chosen while the saved planner was read. */
  restore(text: string, file: SeedFileRef | undefined): void {
    this.seedsText = text;
    // A file chosen while the saved planner was read (Load Seeds from File) is newer than the saved one.
    if (file !== undefined && this.file === undefined) {
      this.startFile(file);
      void this.readFile();
    }
  }

  /** The seeds to plan now: the file's last good read, or the box's text when it is within the box's limits. */
  check(): SeedsCheck {
    const file = this.file;
    if (file !== undefined) {
      if (file.loading) return unplannableSeeds(`Reading ${file.ref.label}…`);
      if (file.problem !== undefined || file.check === undefined)
        return unplannableSeeds(file.problem ?? `${file.ref.label} is not read yet.`);
      return file.check;
    }
    const local = [...(this.host.deps.expectedLocalHosts?.() ?? [])].join(' ');
    const cached = this.textCheck;
    if (cached !== undefined && cached.text === this.seedsText && cached.local === local) return cached.check;
    const problem = seedsTextProblem(this.seedsText);
    const check = problem !== undefined ? unplannableSeeds(problem) : checkSeedText(this.seedsText, this.localHosts());
    this.textCheck = { text: this.seedsText, local, check };
    return check;
  }

  /** Where the seeds come from, as the webview is sent it. */
  view(): SeedsView {
    const file = this.file;
    if (file === undefined) return { source: 'text', text: this.seedsText };
    const view: SeedFileView = {
      label: file.ref.label,
      bytes: file.bytes,
      seedLines: file.seedLines,
      firstLines: file.firstLines,
    };
    if (file.loading) view.loading = true;
    if (file.problem !== undefined) view.problem = file.problem;
    return { source: 'file', file: view };
  }

  /** The box's text as typed (`seedsChanged`): kept and saved, and planned when the box is the source. */
  typed(text: string): void {
    if (text === this.seedsText) return;
    this.seedsText = text;
    this.host.save();
    if (this.file === undefined) {
      this.host.invalidate();
      this.host.postPlan();
    }
  }

  /** Seeds from code: a seeds file in use is let go, and `text` (when given) becomes the box's text. */
  replaceText(text: string | undefined): void {
    this.letGoFile();
    if (text !== undefined) this.seedsText = text;
  }

  /** "Use the box instead": the box's text is the source again. */
  useText(): void {
    if (this.file === undefined) return;
    this.letGoFile();
    this.host.save();
    this.host.invalidate();
    this.host.send({ type: 'seeds', seeds: this.view() });
    this.host.postPlan();
  }

  /** Load seeds from file: the Open dialog, and the picked file becomes the source. */
  async pickFile(): Promise<void> {
    const ref = await this.files().pick();
    if (ref !== undefined) await this.useFile(ref);
  }

  /** Use seeds.txt: the workspace's one (or the one chosen of several) becomes the source. */
  async useWorkspaceSeeds(): Promise<void> {
    const found = await this.files().findWorkspaceSeeds();
    if (found.length === 0) {
      this.host.notice(
        'error',
        'No seeds.txt in this workspace: save a list of URLs, one per line, as seeds.txt in a workspace folder.',
      );
      return;
    }
    const ref = found.length === 1 ? found[0] : await this.files().choose(found);
    if (ref !== undefined) await this.useFile(ref);
  }

  /** Opens the seeds file in use in an editor (at a 1-based line). */
  openFile(line: number | undefined): PromiseLike<unknown> | void {
    const file = this.file;
    if (file === undefined) {
      this.host.log('openSeedsFile without a seeds file; ignored.');
      return;
    }
    return this.files().open(file.ref, line);
  }

  /** The view was shown: a seeds file read before is read again when it changed since. */
  shown(): void {
    if (this.file !== undefined && !this.file.loading) void this.refreshFile();
  }

  /** Makes `ref` the source (watched for changes) and reads it. */
  async useFile(ref: SeedFileRef): Promise<void> {
    this.startFile(ref);
    this.host.save();
    this.host.invalidate();
    this.host.send({ type: 'seeds', seeds: this.view() });
    await this.readFile();
  }

  dispose(): void {
    this.file?.watcher?.dispose();
  }

  private files(): SeedFiles {
    if (this.host.deps.files === undefined) throw new Error('seeds files are not available here');
    return this.host.deps.files;
  }

  private localHosts(): ReadonlySet<string> | undefined {
    return this.host.deps.expectedLocalHosts?.();
  }

  private letGoFile(): void {
    if (this.file === undefined) return;
    this.file.watcher?.dispose();
    this.file = undefined;
  }

  /** Makes `ref` the source, not read yet, watched for changes. */
  private startFile(ref: SeedFileRef): void {
    this.file?.watcher?.dispose();
    const file: FileState = { ref, loading: true, generation: 0, bytes: 0, seedLines: 0, firstLines: [] };
    this.file = file;
    file.watcher = this.host.deps.files?.watch?.(ref, () => {
      if (this.file === file) void this.readFile();
    });
  }

  /** Reads the seeds file again when it changed since it was read (the view was shown again). */
  private async refreshFile(): Promise<void> {
    const file = this.file;
    const files = this.host.deps.files;
    if (file === undefined || files === undefined) return;
    const stat = await files.stat(file.ref);
    if (this.file !== file) return;
    if (stat === undefined ? file.problem === undefined : stat.mtime !== file.mtime || stat.bytes !== file.bytes)
      await this.readFile();
  }

  /** Reads the seeds file and checks its lines; the latest read wins. Posts the new view and plan. */
  private async readFile(): Promise<void> {
    const file = this.file;
    const files = this.host.deps.files;
    if (file === undefined || files === undefined) return;
    const generation = ++file.generation;
    let read: SeedFileRead;
    try {
      read = await files.read(file.ref, PLANNER_SEED_LIMITS.fileBytes);
    } catch (err) {
      read = { problem: `Cannot read ${file.ref.label}: ${errorText(err)}` };
    }
    if (this.file !== file || file.generation !== generation || this.host.isDisposed()) return;
    file.loading = false;
    file.check = undefined;
    file.problem = undefined;
    if ('problem' in read) {
      file.problem = read.problem;
      file.bytes = 0;
      file.seedLines = 0;
      file.firstLines = [];
      file.mtime = undefined;
    } else {
      this.readLines(file, read);
    }
    this.host.invalidate();
    this.host.send({ type: 'seeds', seeds: this.view() });
    this.host.postPlan();
  }

  /** A file read: its size, its count of seed lines, its first lines, and its check or why it is not planned. */
  private readLines(file: FileState, read: { text: string; bytes: number; mtime: number }): void {
    file.bytes = read.bytes;
    file.mtime = read.mtime;
    file.seedLines = countSeedLines(read.text);
    file.firstLines = [];
    for (const line of seedLines(read.text)) {
      file.firstLines.push(
        escapeInvisible(line.text.length > MAX_FIRST_LINE ? `${line.text.slice(0, MAX_FIRST_LINE)}…` : line.text),
      );
      if (file.firstLines.length >= FILE_FIRST_LINES) break;
    }
    if (file.seedLines > PLANNER_SEED_LIMITS.fileLines) {
      file.problem =
        `${file.ref.label} has ${seedLinesText(file.seedLines)} (${sizeText(read.bytes)}); the planner takes at most ${seedLinesText(PLANNER_SEED_LIMITS.fileLines)}. ` +
        'Split the list, or plan it with crawl-planner estimate --seeds-file.';
    } else if (file.seedLines === 0) {
      file.problem = `${file.ref.label} has no seed lines: one URL per line (blank lines and # comments are skipped).`;
    } else {
      file.check = checkSeedText(read.text, this.localHosts(), file.ref.label);
    }
  }
}
