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
