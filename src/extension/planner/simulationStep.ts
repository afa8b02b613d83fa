/**
 * The planner's simulation step (Simulate, Simulate Plan): the current plan simulated through the injected
 * `simulate` (a worker thread in the extension) while Simulate is on. A change of the plan or of the runs and
 * seed supersedes the simulation running (aborted, its result dropped); a burst of changes is simulated once.
 */
import type { Plan } from '../../core/plan';
import type { Simulation } from '../../core/simulate/types';
import {
  DEFAULT_SIMULATION_SETTINGS,
  parseSimulationSettings,
  type SimulationSettings,
  type SimulationState,
} from '../../shared/planner/viewModel';
import { CancellableRun, started } from './cancellableRun';
import type { StepHost } from './deps';
import { errorText } from './deliver';
import { simulationView } from './estimates';

export class SimulationStep {
  private simSettings: SimulationSettings = { ...DEFAULT_SIMULATION_SETTINGS };
  private simulation: SimulationState = { state: 'off' };
  /** The simulation of the plan it was made for, once it is done. */
  private result: { plan: Plan; simulation: Simulation } | undefined;
  private readonly run = new CancellableRun();
  private scheduled = false;
  private readonly listeners = new Set<() => void>();
  private waiters: Array<(state: SimulationState) => void> = [];

  constructor(private readonly host: StepHost) {}

  /** The Simulate choice: on or off, the runs and the seed. */
  get settings(): SimulationSettings {
    return this.simSettings;
  }

  /** Where the simulation stands. */
  get state(): SimulationState {
    return this.simulation;
  }

  /** The simulation of `plan`, once done (undefined while it runs, when off, or when it is of another plan). */
  resultFor(plan: Plan | null): { plan: Plan; simulation: Simulation } | undefined {
    const result = this.result;
    return result !== undefined && result.plan === plan ? result : undefined;
  }

  /** The saved choice (before anything is planned). */
  restore(settings: SimulationSettings): void {
    this.simSettings = settings;
  }

  /** Fires when the simulation of the plan changes (started, done, failed, off). */
  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /**
   * Turns Simulate on with `options` (the saved runs and seed where not given) and simulates the current plan;
   * resolves with how it ended (`off`: there is no plan to simulate).
   */
  now(options: { runs?: number; seed?: number }): Promise<SimulationState> {
    if (this.host.deps.simulate === undefined) return Promise.reject(new Error('simulation is not available here'));
    const settings: SimulationSettings = {
      enabled: true,
      runs: options.runs ?? this.simSettings.runs,
      seed: options.seed ?? this.simSettings.seed,
    };
    const checked = parseSimulationSettings(settings);
    if ('error' in checked) return Promise.reject(new Error(checked.error));
    const done = new Promise<SimulationState>((resolve) => this.waiters.push(resolve));
    this.choose(checked, true);
    return done;
  }

  /** The Simulate choice changed (saved); the plan is simulated again when it did, or when `force`d. */
  choose(settings: SimulationSettings, force: boolean): void {
    const before = this.simSettings;
    const same = before.enabled === settings.enabled && before.runs === settings.runs && before.seed === settings.seed;
    this.simSettings = { ...settings };
    if (!same) this.host.save();
    if (same && !force && this.simulation.state !== 'error') return;
    this.stale();
  }

  /** The plan or the Simulate choice changed: the simulation running (or shown) is for another plan. */
  stale(): void {
    this.run.cancel();
    this.result = undefined;
    if (!this.simSettings.enabled || this.host.deps.simulate === undefined || this.host.isDisposed()) {
      if (this.simulation.state !== 'off') this.set({ state: 'off' });
      return;
    }
    const { runs, seed } = this.simSettings;
    if (this.simulation.state !== 'running' || this.simulation.runs !== runs || this.simulation.seed !== seed)
      this.set({ state: 'running', runs, seed });
    if (this.scheduled) return;
    // After this turn: a burst of changes (a robots.txt result and its plan) is simulated once.
    this.scheduled = true;
    const start = (): void => {
      this.scheduled = false;
      if (!this.host.isDisposed()) this.start();
    };
    if (this.host.deps.defer !== undefined) this.host.deps.defer(start);
    else queueMicrotask(start);
  }

  dispose(): void {
    this.run.dispose();
    this.listeners.clear();
    for (const waiter of this.waiters.splice(0)) waiter({ state: 'off' });
  }

  private start(): void {
    const simulate = this.host.deps.simulate;
    if (!this.simSettings.enabled || simulate === undefined) return;
    const plan = this.host.current().plan;
    if (plan === null) {
      this.set({ state: 'off' });
      return;
    }
    const run = this.run.start();
    const { runs, seed } = this.simSettings;
    started(() => simulate(plan, { runs, seed }, run.signal)).then(
      (simulation) => {
        if (!run.finish() || this.host.isDisposed()) return;
        this.result = { plan, simulation };
        this.set({ state: 'done', simulation: simulationView(simulation, plan) });
      },
      (err: unknown) => {
        if (!run.finish() || this.host.isDisposed()) return;
        this.host.log(`the simulation failed: ${errorText(err)}`);
        this.set({ state: 'error', message: `The simulation failed: ${errorText(err)}` });
      },
    );
  }

  private set(state: SimulationState): void {
    this.simulation = state;
    this.host.send({ type: 'simulation', simulation: state });
    if (state.state !== 'running') for (const waiter of this.waiters.splice(0)) waiter(state);
    this.listeners.forEach((listener) => listener());
  }
}
