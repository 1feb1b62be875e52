// One queue for every test process of a run, whatever its pass. The SQLite and PostgreSQL passes
// used to be two `node --test` runners side by side, two processes each: the PostgreSQL one ended minutes
// before the SQLite one, which then ran its last files two at a time on a machine with room for more. Here
// the run has a number of slots, each pass a ceiling of its own (PostgreSQL files mostly wait on jobs and
// leases, so they are kept to a few), and a slot that frees takes the longest waiting process that its pass's
// ceiling allows.

/**
 * The next job to start, or undefined: the first of `waiting` (longest first) whose pass is under its limit.
 * @param {{ pass: string }[]} waiting
 * @param {Map<string, number>} runningByPass
 * @param {Record<string, number>} limits a pass's most processes at once (absent: only the run's slots)
 */
export function nextJob(waiting, runningByPass, limits) {
  return waiting.find(
    (job) => (runningByPass.get(job.pass) ?? 0) < (limits[job.pass] ?? Number.POSITIVE_INFINITY),
  );
}

/**
 * Runs every job through `start` (which resolves when the job's process has ended), at most `slots` at once
 * and at most `limits[pass]` of a pass, longest `cost` first. Resolves with each job's result, in job order.
 * @template T
 * @param {{ pass: string, cost: number }[]} jobs
 * @param {{ slots: number, limits?: Record<string, number>, start: (job: any) => Promise<T> }} options
 * @returns {Promise<T[]>}
 */
export function runScheduled(jobs, { slots, limits = {}, start }) {
  const waiting = jobs.map((job, index) => ({ ...job, index })).sort((a, b) => b.cost - a.cost);
  const results = new Array(jobs.length);
  const runningByPass = new Map();
  let running = 0;
  return new Promise((resolve, reject) => {
    const fill = () => {
      if (waiting.length === 0 && running === 0) {
        resolve(results);
        return;
      }
      while (running < slots) {
        const job = nextJob(waiting, runningByPass, limits);
        if (!job) {
          if (running === 0) reject(new Error(`no pass may start: ${waiting.map((j) => j.pass).join(', ')}`));
          return;
        }
        waiting.splice(waiting.indexOf(job), 1);
        running += 1;
        runningByPass.set(job.pass, (runningByPass.get(job.pass) ?? 0) + 1);
        start(jobs[job.index]).then((result) => {
          results[job.index] = result;
          running -= 1;
          runningByPass.set(job.pass, runningByPass.get(job.pass) - 1);
          fill();
        }, reject);
      }
    };
    fill();
  });
}
