import { createServer, STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Contract } from '../contract.js';
import { closeInStages } from './closing.js';
import { drain } from './drain.js';
import type { Log } from './logging.js';
import { messageClasses, type MessagePrototypes } from './framework/message-classes.js';
import { seamOn } from './framework/seam.js';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.js';

/**
 * The HTTP server around the app: the timeouts and header cap of the document's root `x-limits`,
 * and a JSON `{code, error}` for every answer Node's HTTP layer would otherwise give on its own
 * (a bare 400, 408 or 431 with no body, a dropped CONNECT, a 417 for an unknown `Expect`, a bare
 * 400 for a missing Host, a 100 Continue before any check), so that no answer of this server is
 * outside the document.
 */

export interface HttpSettings {
  headerSize: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** How long a stop waits for requests still arriving (`shutdown-drain`). */
  drainMs: number;
}

/** The settings from the document, with a deployment's values (VAULT_LIMITS) in place of the defaults. */
export function httpSettings(contract: Contract, overrides: Record<string, number> = {}): HttpSettings {
  const value = (id: string) => {
    const v = overrides[id] ?? contract.limit(id).value;
    if (v === undefined) throw new Error(`${id} needs a value`);
    return v;
  };
  return {
    headerSize: value('request-header-size'),
    headersTimeoutMs: value('request-headers-timeout') * 1000,
    requestTimeoutMs: value('request-timeout') * 1000,
    keepAliveTimeoutMs: value('keep-alive-timeout') * 1000,
    drainMs: value('shutdown-drain') * 1000,
  };
}

// The one transfer coding implemented (Node's parser decodes it), case-insensitive (RFC 9112 section 7).
const CHUNKED_ONLY = /^[ \t]*chunked[ \t]*$/i;

// How often Node looks for requests past their timeouts; a timeout fires up to this much late.
const TIMEOUT_CHECK_MS = 500;

export interface HttpServer extends Server {
  /**
   * Starts answering with the app; requests that arrived before wait for it. Requests and
   * responses made from then on are born with the app's prototypes (http/framework/message-classes.ts).
   */
  serve(app: RequestListener & MessagePrototypes): void;
  /** Stops gracefully (http/drain.ts); resolves once every connection has closed. */
  drain(): Promise<void>;
}

export function createHttpServer(settings: HttpSettings, options: { log?: Log } = {}): HttpServer {
  const log = options.log ?? (() => {});
  // The framework seam's (http/framework/seam.ts): without it, Node's own classes.
  const classes = seamOn('message-classes') ? messageClasses() : undefined;
  const server = createServer({
    ...(classes ? { IncomingMessage: classes.IncomingMessage, ServerResponse: classes.ServerResponse } : {}),
    maxHeaderSize: settings.headerSize,
    // Node refuses a headers timeout longer than a request timeout that is set (0 is none).
    headersTimeout: settings.requestTimeoutMs > 0 ? Math.min(settings.headersTimeoutMs, settings.requestTimeoutMs) : settings.headersTimeoutMs,
    requestTimeout: settings.requestTimeoutMs,
    connectionsCheckingInterval: TIMEOUT_CHECK_MS,
    // Node would answer a bare 400; the check is made below, with a JSON answer.
    requireHostHeader: false,
  }) as HttpServer;
  server.keepAliveTimeout = settings.keepAliveTimeoutMs;
  const sockets = new Set<Socket>();
  let accepted = 0;
  server.on('connection', (socket: Socket) => {
    closeInStages(socket);
    sockets.add(socket);
    accepted++;
    socket.once('close', () => sockets.delete(socket));
  });
  let draining = false;

  // The last two responses of each connection: the HTTP layer's own answers wait for the answers
  // of the requests that came before (RFC 9112 section 9.3.2). Answers go out in order, so waiting
  // for the last complete request's answer waits for all of them.
  const latest = new WeakMap<Socket, ServerResponse>();
  const before = new WeakMap<Socket, ServerResponse | undefined>();
  const refused = new WeakSet<Socket>();
  let app: RequestListener | undefined;
  const waiting: [IncomingMessage, ServerResponse][] = [];

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    before.set(req.socket, latest.get(req.socket));
    latest.set(req.socket, res);
    if (draining) closeLast(res);
    // RFC 9112 section 3.2: an HTTP/1.1 request without Host is answered 400.
    if (req.httpVersion === '1.1' && req.headers.host === undefined) {
      return answerResponse(res, 400, 'An HTTP/1.1 request needs a Host header.', requestIdOf(req.headers['x-request-id']));
    }
    const coding = req.headers['transfer-encoding'];
    if (coding !== undefined && !CHUNKED_ONLY.test(coding)) {
      // RFC 9112 section 6.1: a transfer coding the server does not implement is 501. Node decodes
      // chunked framing only; read on, a gzip body would be taken for the JSON it encodes.
      return answerResponse(res, 501, `The request uses the transfer coding "${coding}"; this server implements only chunked. Send the body with Content-Length or Transfer-Encoding: chunked.`, requestIdOf(req.headers['x-request-id']));
    }
    if (app) app(req, res);
    else waiting.push([req, res]);
  });
  server.serve = (listener) => {
    classes?.adopt(listener);
    app = listener;
    for (const [req, res] of waiting.splice(0)) listener(req, res);
  };

  server.drain = () => {
    draining = true;
    const refuse = (socket: Socket) =>
      refuseAfterAnswers(socket, () => ({
        status: 408,
        message: `The server is stopping, and the request did not arrive within ${settings.drainMs / 1000} seconds of the stop. Send it again.`,
        reason: 'stopping',
      }));
    return drain({ server, sockets, latest: (socket) => latest.get(socket), closeLast, refuse, drainMs: settings.drainMs, accepted: () => accepted });
  };
  // While the server stops, an answer that is the last of its connection when it is written says
  // `Connection: close` (an earlier one keeps the connection for the requests received after it).
  const closeLast = (res: ServerResponse) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      if (latest.get(this.req.socket) === this) this.shouldKeepAlive = false;
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as typeof res.writeHead;
  };

  // RFC 9110 section 10.1.1 lets a server ignore an expectation it does not know; Node answers 417.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res));
  // Node would send 100 Continue before the app sees the request, inviting the body of a request
  // it may refuse (no key, a rate limit, an unknown link). The body reader sends it, once every
  // check that needs no body has passed (http/body.ts); a refusal goes out in its place.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res));

  /**
   * Answers on the socket itself once every request received before has been answered: a write
   * pipelined ahead of a malformed request keeps its answer, and the refusal comes after it.
   */
  const refuseAfterAnswers = (socket: Socket, refusal: (headersReceived: boolean) => { status: number; message: string; reason: string | undefined }) => {
    if (refused.has(socket)) return;
    const last = latest.get(socket);
    // The refusal is the last request's own when it has not fully arrived (a timeout mid-body);
    // that request already answered, the connection just ends.
    const own = last !== undefined && !last.req.complete ? last : undefined;
    if (own?.headersSent) return void socket.destroy();
    refused.add(socket);
    const waitFor = own ? before.get(socket) : last;
    const { status, message, reason } = refusal(own !== undefined);
    // The id the app gave the request refused, if it got that far; otherwise a new one.
    const requestId = String(own?.getHeader(REQUEST_ID_HEADER) ?? requestIdOf());
    const send = () => {
      if (!socket.writable) return;
      log({ msg: 'refused by the HTTP layer', status, reason, requestId });
      answerSocket(socket, status, message, requestId);
    };
    if (!waitFor || waitFor.writableFinished) return send();
    const settle = () => {
      waitFor.off('finish', settle).off('close', settle);
      if (waitFor.writableFinished) send();
      else socket.destroy();
    };
    waitFor.once('finish', settle).once('close', settle);
  };

  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    refuseAfterAnswers(socket, () => ({ status: 400, message: 'CONNECT is not supported: this server is not a proxy.', reason: 'connect' }));
  });

  server.on('clientError', (err: Error & { code?: string }, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    refuseAfterAnswers(socket, (headersReceived) => {
      const [status, message] = refusalOf(err.code, settings, headersReceived);
      return { status, message, reason: err.code };
    });
  });

  return server;
}

function refusalOf(code: string | undefined, settings: HttpSettings, headersReceived: boolean): [number, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, `The request headers are larger than ${settings.headerSize} bytes.`];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return headersReceived
      ? [408, `The request did not arrive within ${settings.requestTimeoutMs / 1000} seconds.`]
      : [408, `The request headers did not arrive within ${settings.headersTimeoutMs / 1000} seconds.`];
  }
  if (code === 'HPE_INVALID_METHOD') return [400, 'The request method is not one this server knows.'];
  return [400, 'The request is not valid HTTP/1.1.'];
}

function body(message: string): string {
  return JSON.stringify({ code: 'bad_request', error: message });
}

/** An answer written on the socket itself (no request object exists), then the connection ends. */
function answerSocket(socket: Socket, status: number, message: string, requestId: string): void {
  const text = body(message);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(text)}\r\n` +
      'Cache-Control: no-store\r\n' +
      `${REQUEST_ID_HEADER}: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      text,
  );
  // The server's sockets stay readable after end(); a client still sending must not keep this one.
  socket.destroySoon();
}

function answerResponse(res: ServerResponse, status: number, message: string, requestId: string): void {
  const text = body(message);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    [REQUEST_ID_HEADER]: requestId,
    Connection: 'close',
  });
  res.end(text);
}
