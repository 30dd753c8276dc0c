/**
 * Checks an HTTP answer of the mock against openapi.json with an independent JSON Schema
 * validator (ajv, JSON Schema 2020-12, formats on), so the mock and the schemas cannot drift
 * apart unnoticed. `test/testing/helpers.ts` runs it on every answer its `call()` reads.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

interface Contract {
  ajv: Ajv2020;
  /** Path templates of the document, each with its matcher and JSON-pointer-escaped key. */
  templates: Array<{ template: string; pattern: RegExp; pointer: string }>;
  paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
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
  ajv.addSchema({ $id: 'openapi.json', components: document.components, paths: document.paths });
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`),
    pointer: template.replaceAll('~', '~0').replaceAll('/', '~1'),
  }));
  contract = { ajv, templates, paths: document.paths, compiled: new Map() };
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
  const { ajv, templates, paths, compiled } = load();
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
  const key = operation.responses[String(status)] ? String(status) : status >= 400 ? 'default' : undefined;
  if (!key) return [`${method} ${path}: status ${status} is not in openapi.json`];
  const response = operation.responses[key];
  if (!response?.content) return [];
  if (!contentType.includes('application/json'))
    return [`${method} ${path} ${status}: not JSON (${contentType})`];
  const pointer = `openapi.json#/paths/${found?.pointer}/${verb}/responses/${key}/content/application~1json/schema`;
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
