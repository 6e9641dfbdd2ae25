import { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** What an app gives its requests and responses to inherit from, as an Express app does (`app.request`, `app.response`). */
export interface MessagePrototypes {
  request?: object;
  response?: object;
}

export interface MessageClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
  /** Requests and responses made from now on are born with the app's prototypes. */
  adopt(app: MessagePrototypes): void;
}

/**
 * The request and response classes of one HTTP server (node:http's `IncomingMessage` and
 * `ServerResponse` options), whose instances are born with the prototypes of the app it serves.
 *
 * Express gives every request and response its app's prototypes as it starts on them, with
 * Object.setPrototypeOf. On an object that already has that prototype the call does nothing; on a
 * fresh IncomingMessage and ServerResponse it gives each a hidden class of its own, and the
 * property reads of Node's stream and HTTP code, which every socket shares, go megamorphic, on
 * every request. `npm run bench -- --only main --seam` measures what this saves (docs/server.md,
 * "The framework seam"; docs/performance.md).
 */
export function messageClasses(): MessageClasses {
  // Constructor functions, not classes: the server holds on to these two from its start, and a
  // class's `prototype` cannot be replaced once the app is known. Node's own constructors are
  // functions too, called on the new object as a subclass would (a test fails if they ever stop
  // being callable). Reflect.construct, which takes either kind, cost more than it saves.
  function Request(this: IncomingMessage, socket: Socket) {
    (IncomingMessage as unknown as (this: IncomingMessage, socket: Socket) => void).call(this, socket);
  }
  function Response(this: ServerResponse, req: IncomingMessage, options?: object) {
    (ServerResponse as unknown as (this: ServerResponse, req: IncomingMessage, options?: object) => void).call(this, req, options);
  }
  Request.prototype = IncomingMessage.prototype;
  Response.prototype = ServerResponse.prototype;
  // Each constructor inherits from Node's, as `class ... extends` would set it up: V8 sizes the
  // objects a constructor makes by the fields its constructor chain assigns. Without it a response
  // has room for none of ServerResponse's, goes to dictionary mode as they are added, and is
  // rebuilt each time a property is added later (`res.json`, by the validator's response hook).
  Object.setPrototypeOf(Request, IncomingMessage);
  Object.setPrototypeOf(Response, ServerResponse);
  return {
    IncomingMessage: Request as unknown as typeof IncomingMessage,
    ServerResponse: Response as unknown as typeof ServerResponse,
    adopt(app) {
      // Only prototypes that are still a request's and a response's: anything else is left alone.
      if (app.request && IncomingMessage.prototype.isPrototypeOf(app.request)) Request.prototype = app.request as IncomingMessage;
      if (app.response && ServerResponse.prototype.isPrototypeOf(app.response)) Response.prototype = app.response as ServerResponse;
    },
  };
}
