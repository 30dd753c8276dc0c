/**
 * Checks an HTTP answer of the mock against openapi.json with an independent JSON Schema
 * validator (ajv, JSON Schema 2020-12, formats on), so the mock and the schemas cannot drift
 * apart unnoticed. `test/testing/helpers.ts` runs it on every answer its `call()` reads.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** An OpenAPI response object, or a reference to one in `components.responses`. */
interface ResponseObject {
  content?: unknown;
  $ref?: string;
}

interface Contract {
  ajv: Ajv2020;
  /** Path templates of the document, each with its matcher and JSON-pointer-escaped key. */
  templates: Array<{ template: string; pattern: RegExp; pointer: string }>;
  paths: Record<string, Record<string, { responses: Record<string, ResponseObject> }>>;
  /** `components.responses`, which operations reference for their error answers. */
  responses: Record<string, ResponseObject>;
  compiled: Map<string, ValidateFunction>;
}

let contract: Contract | undefined;

function load(): Contract {
  if (contract) return contract;
  const document = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats.default(ajv);
  // The document's own sections, so `#/components/...` and `#/paths/...` resolve inside it.
  ajv.addKeyword('components');
  ajv.addKeyword('paths');
  // An annotation for code generators: `oneOf` already says which shape applies.
  ajv.addKeyword('discriminator');
  ajv.addSchema({ $id: 'openapi.json', components: document.components, paths: document.paths });
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`),
    pointer: template.replaceAll('~', '~0').replaceAll('/', '~1'),
  }));
  contract = {
    ajv,
    templates,
    paths: document.paths,
    responses: document.components.responses,
    compiled: new Map(),
  };
  return contract;
}

/** What the document says is wrong with an answer of the API (`[]`: nothing); paths outside `/api/` are not its business. */
export function contractProblems(
  method: string,
  path: string,
  status: number,
  contentType: string,
  body: unknown,
): string[] {
  if (!path.startsWith('/api/')) return [];
  const { ajv, templates, paths, responses, compiled } = load();
  const found = templates.find(({ pattern }) => pattern.test(path));
  const verb = method.toLowerCase();
  const operation = found ? paths[found.template]?.[verb] : undefined;
  if (!operation) {
    // An undeclared route may only fail, with the error body.
    if (status < 400) return [`${method} ${path}: ${status} from a route openapi.json does not declare`];
    return validate(
      ajv,
      compiled,
      'openapi.json#/components/schemas/Error',
      body,
      `${method} ${path} ${status}`,
    );
  }
  // The status itself, else its range (`5XX`).
  const key = [String(status), `${String(status)[0]}XX`].find((candidate) => operation.responses[candidate]);
  if (!key) return [`${method} ${path}: status ${status} is not in openapi.json`];
  const declared = operation.responses[key];
  const name = declared?.$ref?.replace('#/components/responses/', '');
  const response = name === undefined ? declared : responses[name];
  if (!response?.content) return [];
  if (!contentType.includes('application/json'))
    return [`${method} ${path} ${status}: not JSON (${contentType})`];
  const pointer =
    name === undefined
      ? `openapi.json#/paths/${found?.pointer}/${verb}/responses/${key}/content/application~1json/schema`
      : 'openapi.json#/components/schemas/Error';
  return validate(ajv, compiled, pointer, body, `${method} ${found?.template} ${status}`);
}

function validate(
  ajv: Ajv2020,
  compiled: Map<string, ValidateFunction>,
  ref: string,
  body: unknown,
  what: string,
): string[] {
  let check = compiled.get(ref);
  if (!check) {
    check = ajv.compile({ $ref: ref });
    compiled.set(ref, check);
  }
  if (check(body)) return [];
  return (check.errors ?? []).map(
    (error) => `${what}: ${error.instancePath || '(body)'} ${error.message ?? ''}`,
  );
}
