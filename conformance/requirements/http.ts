import { informative, must, rfc } from './types.js';

/** The rules of HTTP itself that the runner applies to every deployment. */
export const HTTP = [
  informative('http-refusal-of-unread-request', rfc('RFC 9110', '15.5'), 'A server may refuse a request it will not read (an oversized or unfinished head) with any 4xx, in any form.'),
  must('http-content-coding-as-declared', rfc('RFC 9110', '8.4'), 'A body coded with a Content-Encoding decodes as that coding says.'),
  must('http-content-coding-accepted', rfc('RFC 9110', '12.5.3'), 'An answer is coded only with a content coding the request accepted, or none.'),
  must('http-json-is-utf8', rfc('RFC 8259', '8.1'), 'JSON text exchanged between systems is UTF-8: a body that is not is not JSON, refused as a body that is not JSON.'),
  must('http-auth-scheme-case-insensitive', rfc('RFC 9110', '11.1'), 'An authentication scheme name is case-insensitive: `bearer` and `BEARER` are Bearer.'),
  must('http-chunked-request-body', rfc('RFC 9112', '7.1'), 'A server reads a request body sent with chunked transfer coding as it reads one with Content-Length.'),
  informative('http-json-media-types', rfc('RFC 6839', '3.1'), 'A media type with the +json suffix is JSON.'),
  informative('http-idle-close', rfc('RFC 9112', '9.3'), 'A server may close an idle connection at any time, without notice.'),
] as const;
