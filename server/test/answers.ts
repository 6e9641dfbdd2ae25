import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { Contract } from '../contract.js';
import { loadBackOfficeContract } from '../http/back-office/document.js';

/**
 * Every answer a test reads through the test server is checked against the document: its status is
 * one the operation documents, and its JSON body is valid against that response's schema. Errors are
 * built by the server's error handler, outside the validator's response hook, so this is what keeps
 * their shape honest (a 400 `invalid_recipe` without `errors` fails here, not only in a runner).
 */

const DOC_ID = 'https://vault.test/openapi.json';
const validators = new WeakMap<Contract, { ajv: Ajv2020; compiled: Map<string, ValidateFunction> }>();

function validatorFor(doc: Contract, pointer: string): ValidateFunction {
  let entry = validators.get(doc);
  if (!entry) {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ ...doc.doc, $id: DOC_ID } as never);
    validators.set(doc, (entry = { ajv, compiled: new Map() }));
  }
  let validate = entry.compiled.get(pointer);
  if (!validate) entry.compiled.set(pointer, (validate = entry.ajv.compile({ $ref: `${DOC_ID}#${pointer}` })));
  return validate;
}

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** What is wrong with an answer, or undefined; answers outside any documented operation are not checked. */
export function answerProblem(main: Contract, fixtures: boolean, method: string, path: string, status: number, text: string): string | undefined {
  const { pathname } = new URL(path, 'http://test');
  const doc = pathname.startsWith('/_fixtures') ? (fixtures ? loadBackOfficeContract() : undefined) : main;
  const match = doc?.match(method.toUpperCase(), pathname);
  if (!doc || match?.kind !== 'operation') return undefined;
  const op = match.operation;
  const where = `${op.operationId} answered ${status}`;
  const raw = op.raw.responses?.[String(status)];
  if (!raw) return `${where}, which it does not document: ${text.slice(0, 300)}`;
  const response = doc.resolve(raw);
  const base = typeof raw.$ref === 'string' ? raw.$ref.slice(1) : `/paths/${escape(op.path)}/${op.method.toLowerCase()}/responses/${status}`;
  if (!response.content?.['application/json']) return text === '' ? undefined : `${where} with a body its document does not describe`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${where} with a body that is not JSON: ${text.slice(0, 300)}`;
  }
  const validate = validatorFor(doc, `${base}/content/application~1json/schema`);
  return validate(body) ? undefined : `${where} with a body its schema refuses (${JSON.stringify(validate.errors?.slice(0, 3))}): ${text.slice(0, 300)}`;
}
