/** The part of a pino logger the render engine uses (pino's Logger fits it as is). */
export interface RenderLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: RenderLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

type LogLevel = keyof RenderLogger;

/**
 * A logger for a renderer started before the server's own logger exists (`quire serve` launches
 * Chromium first thing, while the rest of the service still loads): lines are held until `attach`,
 * then written there, in order.
 */
export class DeferredLogger implements RenderLogger {
  private target: RenderLogger | null = null;
  private held: Array<[LogLevel, object, string | undefined]> = [];

  attach(target: RenderLogger): void {
    this.target = target;
    for (const [level, obj, msg] of this.held) target[level](obj, msg);
    this.held = [];
  }

  info(obj: object, msg?: string): void {
    this.write('info', obj, msg);
  }

  warn(obj: object, msg?: string): void {
    this.write('warn', obj, msg);
  }

  error(obj: object, msg?: string): void {
    this.write('error', obj, msg);
  }

  private write(level: LogLevel, obj: object, msg: string | undefined): void {
    if (this.target) this.target[level](obj, msg);
    else this.held.push([level, obj, msg]);
  }
}
