/**
 * Why a sandboxed Chromium launch failed, as far as the sandbox decision goes (browser-supervisor.ts): only
 * Chromium's own refusal to start its sandbox is worth a retry with `--no-sandbox`. A time-out, a start
 * without memory or a crash would fail the same way without the sandbox, and retrying would only take the
 * renderer's strongest boundary away for nothing.
 */
export interface LaunchFailure {
  /** `sandbox`: Chromium refused to start its sandbox here; `other`: anything else. */
  kind: 'sandbox' | 'other';
  /** The line of the error that says what happened, without playwright's prefixes (at most 300 characters). */
  cause: string;
}

/**
 * Chromium's sandbox refusing to start, most telling first (the first that matches names the cause):
 * user namespaces refused (a container's seccomp profile, AppArmor's userns restriction, a sysctl), root,
 * a setuid helper that is missing or not root-owned with mode 4755, and playwright's own summary of these.
 */
const SANDBOX_REFUSALS: readonly RegExp[] = [
  /No usable sandbox/i,
  /Failed to move to new namespace/i,
  /Running as root without --no-sandbox/i,
  /SUID sandbox helper binary/i,
  /\bsetuid sandbox\b/i,
  /credentials\.cc.*Check failed/i,
  /crbug\.com\/357670/,
  /Chromium sandboxing failed/i,
];

/** playwright's launch time-out ("browserType.launch: Timeout 180000ms exceeded."). */
const TIMED_OUT = /Timeout \d+ ?ms exceeded/i;

/** A start without memory: Chromium's own OOM message, a spawn or clone refused with ENOMEM, the OOM killer. */
const OUT_OF_MEMORY = /out of memory|\bENOMEM\b|Cannot allocate memory|\boom[- ]?kill/i;

/** A line that says how a crash ended, better than playwright's "browser has been closed". */
const CRASH = /\bFATAL\b|error while loading shared libraries|process did exit/i;

/**
 * The lines of the error's message, each without ANSI colour codes, playwright's `- [pid=N][err]` and
 * Chromium's `[pid:tid:time:LEVEL:file]`, and without playwright's `<launching>` line: the command line
 * holds switches (`--no-sandbox`, feature names) that would read as the error's own words.
 */
function logLines(err: unknown): string[] {
  const text = err instanceof Error ? err.message : String(err);
  return text
    .split('\n')
    .map((line) =>
      line
        // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes
        .replace(/\u001b\[[0-9;]*m/g, '')
        .trim()
        .replace(/^-?\s*\[pid=\d+\](\[\w+\])?\s*/, '')
        .replace(/^\[[^\]]*\]\s*/, ''),
    )
    .filter((line) => line !== '' && !line.startsWith('<launching>'));
}

function failure(kind: LaunchFailure['kind'], line: string | undefined): LaunchFailure {
  return { kind, cause: (line ?? 'no message').slice(0, 300) };
}

/** Sorts a failed sandboxed launch into Chromium's sandbox refusing to start, or any other failure. */
export function classifyLaunchFailure(err: unknown): LaunchFailure {
  const lines = logLines(err);
  const find = (pattern: RegExp) => lines.find((line) => pattern.test(line));
  // Checked first: a slow or starved start may still log a sandbox line on its way (a warning about the
  // sandbox's threads, a namespace the kernel had no memory for), which does not make it the cause.
  const timedOut = err instanceof Error && err.name === 'TimeoutError' ? (lines[0] ?? '') : find(TIMED_OUT);
  const slowOrStarved = timedOut ?? find(OUT_OF_MEMORY);
  if (slowOrStarved !== undefined) return failure('other', slowOrStarved);
  for (const pattern of SANDBOX_REFUSALS) {
    const line = find(pattern);
    if (line !== undefined) return failure('sandbox', line);
  }
  return failure('other', find(CRASH) ?? lines[0]);
}
