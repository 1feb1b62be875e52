import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  type HTTPMethods,
  LogController,
} from 'fastify';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { newRequestId } from '../shared/ids.js';
import { type LogFormat, logDestination } from '../shared/log-output.js';
import { type RateCounter, spendBudget } from '../shared/rate-counter.js';
import { ipBudgetKey } from './client-address.js';
import { createClientErrorHandler } from './client-error.js';
import { errorBody } from './error-body.js';
import { createErrorHandler } from './error-handler.js';
import { findExcessiveNesting, MAX_JSON_DEPTH } from './json-depth.js';
import { serializerCompiler } from './serializer.js';
import { validatorCompiler } from './validator.js';

export const BODY_LIMIT_BYTES = 5 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Every body field is optional (e.g. POST /templates/<id>/preview): no body, or an empty one sent as
     * JSON, counts as `{}` instead of failing validation.
     */
    optionalBody?: boolean;
  }
}

export interface ServerOptions {
  logLevel: string;
  /** QUIRE_LOG_FORMAT: pino's JSON lines on stdout, or readable lines (shared/log-output.ts). */
  logFormat?: LogFormat;
  publicUrl: () => string;
  clock: Clock;
  rate: RateCounter;
  /** Spec: 600 requests per minute per address. */
  ipBudgetPerMin: number;
  /** Fastify's trustProxy (QUIRE_TRUST_PROXY): which X-Forwarded-For hops `request.ip` may come from. */
  trustProxy?: boolean | number | string[];
  /** Telemetry's wrapper of the HTTP server's handler (a span per request); absent while tracing is off. */
  wrapRequest?: (handler: RequestHandler) => RequestHandler;
  /** Fields added to every log record (the trace and span ids while tracing is on). */
  logMixin?: () => object;
  /** Telemetry's completion of a request's span, once its response is sent. */
  onResponse?: (request: FastifyRequest, status: number) => void;
  /** Telemetry's look at a serialized response before it is sent (refusals as span events). */
  onSend?: (request: FastifyRequest, status: number, payload: unknown) => void;
}

type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The HTTP server Fastify would make itself (the same timeouts), its handler wrapped by `wrap`. Only used
 * while tracing is on, so the request's span is active from its first byte.
 */
function wrappedServer(wrap: (handler: RequestHandler) => RequestHandler) {
  return (handler: RequestHandler, opts: FastifyServerOptions) => {
    const server = http.createServer(wrap(handler));
    if (opts.keepAliveTimeout !== undefined) server.keepAliveTimeout = opts.keepAliveTimeout;
    if (opts.requestTimeout !== undefined) server.requestTimeout = opts.requestTimeout;
    server.setTimeout(opts.connectionTimeout ?? 0);
    if (opts.maxRequestsPerSocket) server.maxRequestsPerSocket = opts.maxRequestsPerSocket;
    return server;
  };
}

/**
 * Fastify's typings leave out the hop count its proxy-addr accepts at runtime; a count becomes the
 * equivalent function (trust the nearest `hops` addresses).
 */
function fastifyTrustProxy(
  value: boolean | number | string[] | undefined,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof value === 'number') return (_address, hop) => hop < value;
  return value ?? false;
}

/** The spec's request id form (Conventions 6). An incoming X-Request-Id of that form is kept. */
const REQUEST_ID_FORM = /^req_[0-9a-f]{32}$/;

/**
 * The request id: the caller's (or its proxy's) X-Request-Id when it has the spec's form, so one id follows
 * a request through the proxy's and Quire's logs; anything else is replaced (it would reach logs and headers).
 */
function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID_FORM.test(incoming) ? incoming : newRequestId();
}

export type App = ReturnType<typeof createServer>;

/** The Fastify instance with the conventions every request shares (spec: Conventions 1–9). */
export function createServer(options: ServerOptions) {
  const destination = logDestination(options.logFormat ?? 'json');
  const app = Fastify({
    logger: {
      level: options.logLevel,
      ...(options.logMixin ? { mixin: options.logMixin } : {}),
      ...(destination ? { stream: destination } : {}),
      // API keys, signatures and secrets never reach the logs.
      redact: ['req.headers.authorization', 'req.headers["idempotency-key"]'],
      serializers: {
        req: (req: { method: string; url: string; id: string }) => ({
          method: req.method,
          url: req.url.split('?')[0],
          id: req.id,
        }),
      },
    },
    logController: new OneLinePerRequest(),
    ...(options.wrapRequest ? { serverFactory: wrappedServer(options.wrapRequest) } : {}),
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: (req) => requestIdOf(req),
    requestIdHeader: false,
    // Off by default: X-Forwarded-For from a direct client is a lie that would pick its own IP budget.
    trustProxy: fastifyTrustProxy(options.trustProxy),
    return503OnClosing: true,
    clientErrorHandler: createClientErrorHandler(options.publicUrl),
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    // URLs the router cannot even parse (bad percent-encoding, over-long ids) still get the error object.
    frameworkErrors: (error, request, rawReply) => {
      const reply = rawReply as unknown as FastifyReply;
      reply
        .code(400)
        .header('x-request-id', request.id)
        .send(
          errorBody(
            options.publicUrl(),
            'invalid_request',
            `The URL is malformed: ${error.message.slice(0, 120)}`,
          ),
        );
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Only JSON bodies exist in this API; any other content type is a 415 (spec: Conventions 1).
  app.removeContentTypeParser('text/plain');
  installJsonParser(app);
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && request.routeOptions.config.optionalBody) request.body = {};
  });
  app.setErrorHandler(createErrorHandler(options.publicUrl));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    reply
      .code(404)
      .send(
        errorBody(
          options.publicUrl(),
          'not_found',
          `No route ${request.method} ${path}.${versionHint(app, request.method, path)}`,
        ),
      );
  });
  const { onResponse } = options;
  if (onResponse) app.addHook('onResponse', async (request, reply) => onResponse(request, reply.statusCode));
  const { onSend } = options;
  if (onSend)
    app.addHook('onSend', async (request, reply, payload) => {
      onSend(request, reply.statusCode, payload);
      return payload;
    });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    await enforceIpBudget(options, request.ip, reply);
  });
  return app;
}

/** Probes and scrapes arrive every few seconds from the orchestrator: logged at debug, unless they fail. */
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Fastify logs two lines per request (received, completed); this logs one, once the response is sent:
 * method, path (no query: it may carry signed-link tokens), status and milliseconds, under the request's
 * id (reqId). Fastify's other log lines (errors, shutdown) keep their default behaviour.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const path = request.url.split('?')[0] ?? '';
    const status = reply.statusCode;
    const fields = { method: request.method, url: path, status, ms: Math.round(reply.elapsedTime * 10) / 10 };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else if (PROBE_PATHS.has(path) && status < 400) reply.log.debug(fields, 'request completed');
    else reply.log.info(fields, 'request completed');
  }
}

/** " Did you mean /v1/…?" when the path exists under /v1 (every API route is versioned; spec: Versioning). */
function versionHint(app: FastifyInstance, method: string, path: string): string {
  if (path.startsWith('/v1/') || path.length > 300) return '';
  const versioned = `/v1${path}`;
  const found = app.findRoute({ method: method as HTTPMethods, url: versioned });
  return found ? ` Did you mean ${method} ${versioned}?` : '';
}

/**
 * Fastify's own JSON parser (prototype-poisoning checks included), after a nesting-depth check on the raw
 * text: deeper bodies parse, but break JSON.stringify and every other recursive step later (500s).
 */
function installJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string; // parseAs: 'string'
    if (text === '' && request.routeOptions.config.optionalBody) return done(null, undefined);
    const excess = findExcessiveNesting(text, MAX_JSON_DEPTH);
    if (excess) {
      const where = excess.field === null ? '' : ` (in "${excess.field}")`;
      const message = `The JSON body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels${where}.`;
      return done(new AppError('invalid_request', message), undefined);
    }
    parseJson(request, text, done);
  });
}

/** Every request from one address, downloads and bad keys included, shares 600 per minute (spec: Limits). */
async function enforceIpBudget(
  options: ServerOptions,
  ip: string,
  reply: { header(name: string, value: string): unknown },
): Promise<void> {
  const limit = options.ipBudgetPerMin;
  const budget = {
    key: `ip:${ipBudgetKey(ip)}`,
    limit,
    nowMs: options.clock.now().getTime(),
    message: `More than ${limit} requests per minute from this address.`,
  };
  // A refused request reports the address's budget in the x-ratelimit-* headers (docs/api-behaviours.md).
  await spendBudget(options.rate, budget, (hit) => {
    reply.header('x-ratelimit-limit', String(hit.limit));
    reply.header('x-ratelimit-remaining', '0');
    reply.header('x-ratelimit-reset', String(hit.resetSeconds));
  });
}

export type { FastifyInstance };
