/**
 * When `quire serve` reached each step of its start, in ms since the process started (Node's
 * performance.now() counts from the process's own start), for the `serving` announcement's `startup_ms`
 * and the bench's start section (issue 54: spawn → first PDF, phase by phase). Each phase is kept once: the
 * first time it is reached.
 *
 *   cli          bin/quire.mjs ran, Chromium's launch began and the CLI's modules loaded (serve starts);
 *   modules      the service's modules loaded (app.js and what it imports);
 *   migrations   the database opened and migrated;
 *   chromium     Chromium launched (its supervisor's `chromium started`; null when that came first);
 *   built        routes registered and parts started (then the first request's warm-up);
 *   first_page   the renderer's first pool page made and warmed (Chromium's boot included);
 *   warm         the warm-up done: the POST /v1/pdf schemas, a Liquid worker and the first page;
 *   listening    the HTTP server listens;
 *   serving      the first run's team and keys (or the owner's link) written: the `serving` line.
 */
export class StartupPhases {
  readonly #marks: Record<string, number> = {};

  mark(phase: string): void {
    this.#marks[phase] ??= Math.round(performance.now());
  }

  /** The phases reached so far, in the order reached, and the process's CPU time until now. */
  report(): Record<string, number> {
    const cpu = process.cpuUsage();
    return { ...this.#marks, cpu: Math.round((cpu.user + cpu.system) / 1000) };
  }
}
